//! A minimal ISO 9660 writer, for tests: files (and the directories their
//! paths name) in a level-1 volume with a primary volume descriptor, a
//! terminator, one sector per directory and the files after them. Path
//! tables are left empty (neither DOS nor MSCDEX reads them here).

use std::collections::BTreeSet;

const SECTOR: usize = 2048;

/// A file of the image: its path (`DIR/NAME.EXT`, upper case) and bytes.
pub struct IsoFile<'a> {
    /// Its path, components separated by `/`.
    pub path: &'a str,
    /// Its contents.
    pub data: &'a [u8],
}

/// A directory record for `name` (bytes; `[0]` self, `[1]` parent).
fn record(name: &[u8], extent: u32, size: u32, dir: bool) -> Vec<u8> {
    let mut r = vec![0u8; 33];
    r.extend_from_slice(name);
    if r.len() % 2 == 1 {
        r.push(0);
    }
    r[0] = r.len() as u8;
    r[2..6].copy_from_slice(&extent.to_le_bytes());
    r[6..10].copy_from_slice(&extent.to_be_bytes());
    r[10..14].copy_from_slice(&size.to_le_bytes());
    r[14..18].copy_from_slice(&size.to_be_bytes());
    r[18..25].copy_from_slice(&[94, 6, 15, 12, 30, 0, 0]); // 1994-06-15 12:30
    r[25] = if dir { 2 } else { 0 };
    r[28] = 1;
    r[31] = 1;
    r[32] = name.len() as u8;
    r
}

/// Writes `files` as an ISO 9660 image named `volume`, with `copyright`
/// as the PVD's copyright file identifier.
pub fn build(volume: &str, copyright: &str, files: &[IsoFile]) -> Vec<u8> {
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    dirs.insert(String::new());
    for f in files {
        let mut at = String::new();
        for c in f
            .path
            .split('/')
            .rev()
            .skip(1)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
        {
            at = if at.is_empty() {
                c.to_string()
            } else {
                format!("{at}/{c}")
            };
            dirs.insert(at.clone());
        }
    }
    let dirs: Vec<String> = dirs.into_iter().collect();
    let dir_lba = |d: &str| 18 + dirs.iter().position(|x| x == d).expect("listed") as u32;
    let mut next = 18 + dirs.len() as u32;
    let mut file_lba = Vec::new();
    for f in files {
        file_lba.push(next);
        next += (f.data.len() as u32).div_ceil(SECTOR as u32).max(1);
    }
    let mut img = vec![0u8; next as usize * SECTOR];
    let parent = |d: &str| {
        d.rsplit_once('/')
            .map_or(String::new(), |(p, _)| p.to_string())
    };
    for d in &dirs {
        let mut body = record(&[0], dir_lba(d), SECTOR as u32, true);
        body.extend(record(&[1], dir_lba(&parent(d)), SECTOR as u32, true));
        for sub in dirs.iter().filter(|s| !s.is_empty() && parent(s) == *d) {
            let name = sub.rsplit('/').next().unwrap_or(sub);
            body.extend(record(name.as_bytes(), dir_lba(sub), SECTOR as u32, true));
        }
        for (f, &lba) in files.iter().zip(&file_lba) {
            let (p, name) = f.path.rsplit_once('/').unwrap_or(("", f.path));
            if p == d {
                let id = format!("{name};1");
                body.extend(record(id.as_bytes(), lba, f.data.len() as u32, false));
            }
        }
        assert!(body.len() <= SECTOR, "a test directory fits one sector");
        let o = dir_lba(d) as usize * SECTOR;
        img[o..o + body.len()].copy_from_slice(&body);
    }
    for (f, &lba) in files.iter().zip(&file_lba) {
        let o = lba as usize * SECTOR;
        img[o..o + f.data.len()].copy_from_slice(f.data);
    }
    let pvd = &mut img[16 * SECTOR..17 * SECTOR];
    pvd[0] = 1;
    pvd[1..6].copy_from_slice(b"CD001");
    pvd[6] = 1;
    pvd[8..40].fill(b' ');
    pvd[40..72].fill(b' ');
    pvd[40..40 + volume.len()].copy_from_slice(volume.as_bytes());
    pvd[80..84].copy_from_slice(&next.to_le_bytes());
    pvd[84..88].copy_from_slice(&next.to_be_bytes());
    pvd[120..124].copy_from_slice(&[1, 0, 0, 1]);
    pvd[124..128].copy_from_slice(&[1, 0, 0, 1]);
    pvd[128..132].copy_from_slice(&[0, 8, 8, 0]);
    let root = record(&[0], 18, SECTOR as u32, true);
    pvd[156..190].copy_from_slice(&root);
    pvd[702..813].fill(b' ');
    pvd[702..702 + copyright.len()].copy_from_slice(copyright.as_bytes());
    pvd[881] = 1;
    let term = &mut img[17 * SECTOR..18 * SECTOR];
    term[0] = 0xFF;
    term[1..6].copy_from_slice(b"CD001");
    term[6] = 1;
    img
}
