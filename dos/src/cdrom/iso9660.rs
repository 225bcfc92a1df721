//! The ISO 9660 file system of a disc's data track (ECMA-119), and its
//! unpacking into the host folder that serves the drive's letter.
//!
//! The volume descriptors start at sector 16 of the track (type 1 the
//! primary, FFh the set terminator). The primary volume descriptor (PVD)
//! gives the volume's name, size and logical block size (2048 is the
//! only one read), the root directory's record (bytes 156-189) and the
//! copyright, abstract and bibliographic file names MSCDEX hands out
//! (bytes 702-812). A directory is a run of records (length, extent,
//! data length, date, flags, name) that never cross a sector: a zero
//! length byte means the rest of the sector is empty. Names are d-
//! characters with a `;1` version and a trailing `.` to strip; `00h` and
//! `01h` are the directory itself and its parent. Joliet and Rock Ridge
//! are not read (DOS sees 8.3 names anyway).

use std::path::Path;

#[cfg(test)]
use super::image::ReadError;
use super::image::{Disc, COOKED};
use super::DiscError;

/// Directory record flag: a directory.
const FLAG_DIR: u8 = 0x02;
/// The deepest directory read (ECMA-119 allows 8 levels).
const MAX_DEPTH: usize = 8;
/// The most directory entries read from a disc.
const MAX_ENTRIES: usize = 65_536;

/// One file or directory of the volume.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its path from the root: upper-case DOS names.
    pub path: Vec<String>,
    /// A directory.
    pub dir: bool,
    /// Its first sector (LBA on the disc).
    pub extent: u32,
    /// Its size in bytes.
    pub size: u32,
    /// Its recording date: year since 1900, month, day, hour, minute,
    /// second, offset from GMT in 15-minute steps.
    pub date: [u8; 7],
    /// The directory record as stored (INT 2Fh 150Fh hands it out).
    pub record: Vec<u8>,
}

/// The primary volume descriptor's facts and the volume's entries.
#[derive(Clone, Debug)]
pub struct Volume {
    /// The volume identifier (trailing spaces removed).
    pub name: String,
    /// The volume's size in logical blocks.
    pub blocks: u32,
    /// The copyright, abstract and bibliographic file identifiers (37
    /// bytes each, as stored).
    pub files: [[u8; 37]; 3],
    /// Every file and directory but the root, parents before children.
    pub entries: Vec<Entry>,
    /// The LBA of the track's first sector (volume descriptors sit at
    /// this + 16).
    pub base: u32,
}

fn le32(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}

impl Volume {
    /// Reads the file system of `disc`'s first data track.
    pub fn read(disc: &Disc) -> Result<Volume, DiscError> {
        let bad = |why: &str| DiscError::new(&disc.path, format!("not an ISO 9660 disc: {why}"));
        let base = disc.data_track().ok_or_else(|| bad("no data track"))?.start;
        let mut pvd = [0u8; COOKED];
        let mut found = false;
        for i in 0..32 {
            disc.read_cooked(base + 16 + i, &mut pvd)
                .map_err(|_| bad("no volume descriptors at sector 16"))?;
            if &pvd[1..6] != b"CD001" {
                return Err(bad("no volume descriptors at sector 16"));
            }
            match pvd[0] {
                1 => {
                    found = true;
                    break;
                }
                0xFF => break,
                _ => {}
            }
        }
        if !found {
            return Err(bad("no primary volume descriptor"));
        }
        if u16::from_le_bytes([pvd[128], pvd[129]]) != COOKED as u16 {
            return Err(bad("logical block size is not 2048"));
        }
        let name = String::from_utf8_lossy(&pvd[40..72]).trim_end().to_string();
        let mut files = [[0u8; 37]; 3];
        for (i, f) in files.iter_mut().enumerate() {
            f.copy_from_slice(&pvd[702 + 37 * i..739 + 37 * i]);
        }
        let root = &pvd[156..190];
        let mut v = Volume {
            name,
            blocks: le32(&pvd, 80),
            files,
            entries: Vec::new(),
            base,
        };
        let (extent, size) = (le32(root, 2), le32(root, 10));
        v.walk(disc, &[], extent, size, 0)?;
        Ok(v)
    }

    /// Reads the directory at `extent` (`size` bytes) into the entries.
    fn walk(
        &mut self,
        disc: &Disc,
        at: &[String],
        extent: u32,
        size: u32,
        depth: usize,
    ) -> Result<(), DiscError> {
        let bad = |why: String| {
            DiscError::new(&disc.path, format!("malformed ISO 9660 directory: {why}"))
        };
        if depth >= MAX_DEPTH {
            return Err(bad("directories nest deeper than 8 levels".into()));
        }
        let mut subdirs = Vec::new();
        let mut sec = [0u8; COOKED];
        for s in 0..size.div_ceil(COOKED as u32) {
            disc.read_cooked(extent + s, &mut sec)
                .map_err(|_| bad(format!("sector {} cannot be read", extent + s)))?;
            let mut o = 0;
            while o < COOKED && sec[o] != 0 {
                let len = sec[o] as usize;
                if len < 34 || o + len > COOKED || 33 + sec[o + 32] as usize > len {
                    return Err(bad(format!(
                        "a record in sector {} is cut short",
                        extent + s
                    )));
                }
                let r = &sec[o..o + len];
                o += len;
                let id = &r[33..33 + r[32] as usize];
                if id == [0] || id == [1] {
                    continue;
                }
                let Some(name) = dos_name(id) else {
                    continue;
                };
                if self.entries.len() >= MAX_ENTRIES {
                    return Err(bad("too many entries".into()));
                }
                let mut path = at.to_vec();
                path.push(name);
                let e = Entry {
                    path,
                    dir: r[25] & FLAG_DIR != 0,
                    extent: le32(r, 2),
                    size: le32(r, 10),
                    date: r[18..25].try_into().expect("7 bytes"),
                    record: r.to_vec(),
                };
                if e.dir {
                    subdirs.push((e.path.clone(), e.extent, e.size));
                }
                self.entries.push(e);
            }
        }
        for (path, extent, size) in subdirs {
            self.walk(disc, &path, extent, size, depth + 1)?;
        }
        Ok(())
    }

    /// The entry at `path` (upper-case components).
    pub fn find(&self, path: &[String]) -> Option<&Entry> {
        self.entries.iter().find(|e| e.path == path)
    }

    /// Writes every directory and file under `root` (an empty folder),
    /// read only, with its recording date. A file whose extent runs past
    /// the disc is an error.
    pub fn unpack(&self, disc: &Disc, root: &Path) -> Result<(), DiscError> {
        let io = |p: &Path, e: std::io::Error| DiscError::new(p, e.to_string());
        let mut dirs = Vec::new();
        for e in &self.entries {
            let host = e.path.iter().fold(root.to_path_buf(), |p, c| p.join(c));
            if e.dir {
                std::fs::create_dir_all(&host).map_err(|x| io(&host, x))?;
                dirs.push((host, e.date));
                continue;
            }
            let mut data = Vec::with_capacity(e.size as usize);
            let mut sec = [0u8; COOKED];
            for s in 0..e.size.div_ceil(COOKED as u32) {
                disc.read_cooked(e.extent + s, &mut sec).map_err(|_| {
                    DiscError::new(
                        &disc.path,
                        format!("file {} runs past the disc", e.path.join("\\")),
                    )
                })?;
                data.extend_from_slice(&sec);
            }
            data.truncate(e.size as usize);
            std::fs::write(&host, &data).map_err(|x| io(&host, x))?;
            finish(&host, e.date, false);
        }
        for (host, date) in dirs.into_iter().rev() {
            finish(&host, date, true);
        }
        Ok(())
    }
}

/// Sets a host entry's time to a recording date and makes it read only
/// (best effort: the host may refuse either).
fn finish(host: &Path, date: [u8; 7], dir: bool) {
    let secs = unix_time(date);
    if let Ok(f) = std::fs::File::open(host) {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs);
        let _ = f.set_modified(t);
    }
    if let Ok(meta) = std::fs::metadata(host) {
        let mut p = meta.permissions();
        if !dir {
            p.set_readonly(true);
            let _ = std::fs::set_permissions(host, p);
        }
    }
}

/// A recording date as seconds since 1970 (local time as recorded; DOS
/// has no time zones).
fn unix_time(d: [u8; 7]) -> u64 {
    let year = 1900 + i64::from(d[0]);
    let (month, day) = (i64::from(d[1].clamp(1, 12)), i64::from(d[2].clamp(1, 31)));
    // Days from civil (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + i64::from(d[3]) * 3600 + i64::from(d[4]) * 60 + i64::from(d[5]);
    secs.max(315_532_800) as u64 // DOS dates start in 1980
}

/// The DOS name of a file identifier: `;version` and a trailing `.`
/// removed, upper case; `None` when it is not a valid 8.3 name.
pub fn dos_name(id: &[u8]) -> Option<String> {
    let end = id.iter().position(|&c| c == b';').unwrap_or(id.len());
    let mut name = &id[..end];
    if let Some(n) = name.strip_suffix(b".") {
        name = n;
    }
    let up = crate::drive::dos_upper(name);
    crate::drive::split_83(&up)?;
    Some(up)
}

#[cfg(test)]
mod tests {
    use super::super::image::Disc;
    use super::super::mkiso::{build, IsoFile};
    use super::*;

    fn write(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("tandem-iso-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let p = d.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    #[test]
    fn reads_the_volume_and_unpacks_it() {
        let big: Vec<u8> = (0..5000u32).map(|i| i as u8).collect();
        let img = build(
            "VOL",
            "COPY.TXT",
            &[
                IsoFile {
                    path: "A.TXT",
                    data: b"alpha",
                },
                IsoFile {
                    path: "SUB/DEEP/B.DAT",
                    data: &big,
                },
            ],
        );
        let disc = Disc::open(&write("v.iso", &img)).unwrap();
        let v = Volume::read(&disc).unwrap();
        assert_eq!(v.name, "VOL");
        assert_eq!(&v.files[0][..8], b"COPY.TXT");
        let names: Vec<String> = v.entries.iter().map(|e| e.path.join("\\")).collect();
        assert_eq!(names, ["SUB", "A.TXT", "SUB\\DEEP", "SUB\\DEEP\\B.DAT"]);
        let out = std::env::temp_dir().join(format!("tandem-iso-out-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).unwrap();
        v.unpack(&disc, &out).unwrap();
        assert_eq!(std::fs::read(out.join("SUB/DEEP/B.DAT")).unwrap(), big);
        assert!(std::fs::metadata(out.join("A.TXT"))
            .unwrap()
            .permissions()
            .readonly());
        let _ = std::fs::remove_dir_all(&out);
    }

    #[test]
    fn malformed_images_are_errors() {
        let e = Disc::open(&write("none.iso", &[])).unwrap_err();
        assert!(e.why.contains("does not add up"), "{e}");
        let e = Disc::open(&write("odd.iso", &[0; 2049])).unwrap_err();
        assert!(e.why.contains("whole number"), "{e}");
        let zeros = Disc::open(&write("zero.iso", &[0; 20 * 2048])).unwrap();
        assert!(Volume::read(&zeros)
            .unwrap_err()
            .why
            .contains("not an ISO 9660"));
        let mut img = build(
            "V",
            "",
            &[IsoFile {
                path: "A.TXT",
                data: b"a",
            }],
        );
        img[18 * 2048 + 34] = 20; // the root's second record is too short
        let d = Disc::open(&write("cut.iso", &img)).unwrap();
        assert!(Volume::read(&d).unwrap_err().why.contains("cut short"));
        assert_eq!(dos_name(b"README.TXT;1").as_deref(), Some("README.TXT"));
        assert_eq!(dos_name(b"NOEXT.;1").as_deref(), Some("NOEXT"));
        assert_eq!(dos_name(b"LONGFILENAME.TXT;1"), None);
    }

    #[test]
    fn a_cue_lays_files_and_gaps_out_on_lbas() {
        let iso = build(
            "V",
            "",
            &[IsoFile {
                path: "A.TXT",
                data: b"a",
            }],
        );
        let n = (iso.len() / 2048) as u32;
        let p = write("d.iso", &iso);
        write("t.bin", &vec![1u8; 2352 * 100]);
        let cue = write(
            "d.cue",
            b"FILE \"d.iso\" BINARY\nTRACK 01 MODE1/2048\nINDEX 01 00:00:00\nFILE \"t.bin\" BINARY\n\
              TRACK 02 AUDIO\nPREGAP 00:02:00\nINDEX 01 00:00:00\n",
        );
        let _ = p;
        let d = Disc::open(&cue).unwrap();
        let t = d.tracks();
        assert_eq!((t[0].start, t[0].length), (0, n));
        assert_eq!((t[1].start, t[1].pregap, t[1].length), (n + 150, 150, 100));
        assert_eq!(d.leadout(), n + 250);
        let mut raw = [0u8; 2352];
        use hw::cdaudio::AudioSectors;
        assert!(d.read_audio(n + 150, &mut raw) && raw[0] == 1);
        assert!(
            d.read_audio(n + 10, &mut raw) && raw[0] == 0,
            "pregap silence"
        );
        assert!(!d.read_audio(5, &mut raw), "a data sector is not audio");
        assert!(d.read_raw(16, &mut raw).is_ok());
        assert_eq!(
            (&raw[..12], raw[15]),
            (
                &[0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0][..],
                1
            )
        );
        let mut c = [0u8; 2048];
        assert_eq!(d.read_cooked(n + 150, &mut c), Err(ReadError::NotFound));
    }
}
