//! CD-ROM drives: disc images (ISO 9660 and CUE/BIN), their file system,
//! and MSCDEX, the Microsoft CD-ROM Extensions, through which DOS programs
//! reach the drives (INT 2Fh AX=15xxh, device driver requests).
//!
//! - [`image`]: a disc: its tracks (LBA, MSF, kind) and cooked (2048-byte)
//!   and raw (2352-byte) sector reads.
//! - [`cue`]: CUE sheets (FILE, TRACK, INDEX, PREGAP, POSTGAP).
//! - [`iso9660`]: the data track's file system (primary volume
//!   descriptor, directories, files) and its unpacking into the read-only
//!   host folder that serves the drive letter.
//! - [`mscdex`]: INT 2Fh AX=1500h-1510h and the device requests.
//! - [`mkiso`]: a minimal ISO 9660 writer (the tests' discs).
//!
//! Every image is checked before the run starts ([`DiscError`]: one line
//! naming the file and what is wrong).

pub mod cue;
pub mod image;
pub mod iso9660;
pub mod mkiso;
pub mod mscdex;

use std::path::PathBuf;

/// A disc image (or a CUE sheet) that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{}: {why}", path.display())]
pub struct DiscError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub why: String,
}

impl DiscError {
    /// An error about `path`.
    pub fn new(path: impl Into<PathBuf>, why: impl Into<String>) -> DiscError {
        DiscError {
            path: path.into(),
            why: why.into(),
        }
    }
}

/// Minutes, seconds and frames (75 a second) of a disc address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Msf {
    /// Minutes.
    pub m: u8,
    /// Seconds (0-59).
    pub s: u8,
    /// Frames (0-74).
    pub f: u8,
}

/// Frames before LBA 0: the two-second lead-in pregap (MSF 00:02:00).
pub const LEAD_IN: u32 = 150;

impl Msf {
    /// The MSF of a frame count (no offset).
    pub fn from_frames(n: u32) -> Msf {
        Msf {
            m: (n / (75 * 60)).min(255) as u8,
            s: (n / 75 % 60) as u8,
            f: (n % 75) as u8,
        }
    }

    /// The MSF of `lba` (LBA 0 is 00:02:00).
    pub fn from_lba(lba: u32) -> Msf {
        Msf::from_frames(lba + LEAD_IN)
    }

    /// The frame count.
    pub fn frames(self) -> u32 {
        (u32::from(self.m) * 60 + u32::from(self.s)) * 75 + u32::from(self.f)
    }

    /// MSCDEX's Red Book address: frame in bits 0-7, second in 8-15,
    /// minute in 16-23.
    pub fn redbook(self) -> u32 {
        u32::from(self.f) | u32::from(self.s) << 8 | u32::from(self.m) << 16
    }

    /// The MSF of a Red Book address.
    pub fn from_redbook(v: u32) -> Msf {
        Msf {
            m: (v >> 16) as u8,
            s: (v >> 8) as u8,
            f: v as u8,
        }
    }
}

/// What a CD-ROM drive holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A disc image (`.iso`, `.cue`, or a raw `.bin`/`.img`).
    Image(PathBuf),
    /// A host folder served read-only as the disc's files (no disc
    /// behind it: no audio, no raw sectors, no volume descriptors).
    Folder(PathBuf),
}

/// The most CD-ROM drives: D: and E: (LASTDRIVE=E).
pub const MAX_DRIVES: usize = 2;

/// A host folder an image's files were unpacked into, removed when
/// dropped.
#[derive(Debug)]
pub struct Unpacked(PathBuf);

impl Drop for Unpacked {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The drives `mount_all` made.
pub struct Mounted {
    /// MSCDEX's side of each drive.
    pub drives: Vec<mscdex::CdDrive>,
    /// The host folder serving each drive's letter and its size in
    /// sectors.
    pub roots: Vec<(PathBuf, u32)>,
    /// The unpacked folders (kept alive with the drives).
    pub unpacked: Vec<Unpacked>,
}

/// Opens every drive's image (or folder), checks it, and unpacks an
/// image's files into a private read-only host folder (one copy per run:
/// DOS serves them from there as it serves drive C:).
pub fn mount_all(sources: &[Source]) -> Result<Mounted, DiscError> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static SERIAL: AtomicU32 = AtomicU32::new(0);
    let mut out = Mounted {
        drives: Vec::new(),
        roots: Vec::new(),
        unpacked: Vec::new(),
    };
    if sources.len() > MAX_DRIVES {
        let p = match &sources[MAX_DRIVES] {
            Source::Image(p) | Source::Folder(p) => p.clone(),
        };
        return Err(DiscError::new(p, "at most 2 CD-ROM drives (D: and E:)"));
    }
    for s in sources {
        match s {
            Source::Folder(p) => {
                let root = p
                    .canonicalize()
                    .map_err(|e| DiscError::new(p, e.to_string()))?;
                if !root.is_dir() {
                    return Err(DiscError::new(p, "not a folder"));
                }
                out.drives.push(mscdex::CdDrive {
                    disc: None,
                    volume: None,
                });
                out.roots.push((root, 0));
            }
            Source::Image(p) => {
                let disc = std::sync::Arc::new(image::Disc::open(p)?);
                let volume = match disc.data_track() {
                    Some(_) => Some(std::sync::Arc::new(iso9660::Volume::read(&disc)?)),
                    None => None,
                };
                let n = SERIAL.fetch_add(1, Ordering::Relaxed);
                let dir =
                    std::env::temp_dir().join(format!("tandem-cd-{}-{n}", std::process::id()));
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).map_err(|e| DiscError::new(&dir, e.to_string()))?;
                let guard = Unpacked(dir.clone());
                if let Some(v) = &volume {
                    v.unpack(&disc, &dir)?;
                }
                let root = dir
                    .canonicalize()
                    .map_err(|e| DiscError::new(&dir, e.to_string()))?;
                out.roots.push((root, disc.leadout()));
                out.unpacked.push(guard);
                out.drives.push(mscdex::CdDrive {
                    disc: Some(disc),
                    volume,
                });
            }
        }
    }
    Ok(out)
}
