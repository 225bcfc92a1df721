//! A disc: its tracks laid out on LBAs, and sector reads from the image
//! files.
//!
//! A disc comes from an ISO 9660 image (one MODE1/2048 track), a raw
//! `.bin`/`.img` alone (one data track of 2048-byte sectors, or of
//! 2352-byte sectors when sector 16 starts with the sync pattern) or a CUE
//! sheet ([`super::cue`]). LBA 0 is MSF 00:02:00. A CUE's files follow
//! one another on the disc; in a file each track runs from its first index
//! to the next track's, the last to the end of the file, whose size must be
//! a whole number of that track's sectors ("the track list adds up").
//! PREGAP and POSTGAP sectors are silence not in the file.
//!
//! Cooked reads give a data sector's 2048 user bytes; raw reads give the
//! 2352 bytes as stored, or for a 2048-byte image the sync pattern, the
//! header (MSF in BCD, mode 1) and the user data, with the EDC/ECC bytes
//! left zero (not computed).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::{cue, DiscError, Msf};

/// Bytes of user data in a cooked sector.
pub const COOKED: usize = 2048;
/// Bytes in a raw sector.
pub const RAW: usize = 2352;
/// The sync pattern that begins a raw data sector.
const SYNC: [u8; 12] = [
    0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0,
];

/// A track's mode (the CUE sheet's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrackKind {
    /// MODE1/2048: user data only.
    Mode1Cooked,
    /// MODE1/2352: raw mode 1 sectors (user data at byte 16).
    Mode1Raw,
    /// MODE2/2352: raw mode 2 form 1 sectors (user data at byte 24).
    Mode2Raw,
    /// AUDIO: Red Book audio, 2352 bytes a sector.
    Audio,
}

impl TrackKind {
    /// The mode a CUE sheet names.
    pub fn from_cue(s: &str) -> Option<TrackKind> {
        match s.to_ascii_uppercase().as_str() {
            "MODE1/2048" => Some(TrackKind::Mode1Cooked),
            "MODE1/2352" => Some(TrackKind::Mode1Raw),
            "MODE2/2352" => Some(TrackKind::Mode2Raw),
            "AUDIO" => Some(TrackKind::Audio),
            _ => None,
        }
    }

    /// Bytes a sector takes in the file.
    pub fn sector_size(self) -> u64 {
        match self {
            TrackKind::Mode1Cooked => COOKED as u64,
            _ => RAW as u64,
        }
    }

    /// Where the user data starts in a stored sector.
    fn data_offset(self) -> usize {
        match self {
            TrackKind::Mode1Cooked | TrackKind::Audio => 0,
            TrackKind::Mode1Raw => 16,
            TrackKind::Mode2Raw => 24,
        }
    }

    /// An audio track.
    pub fn is_audio(self) -> bool {
        self == TrackKind::Audio
    }
}

/// One track of a disc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Track {
    /// Its number (1-99).
    pub number: u8,
    /// Its mode.
    pub kind: TrackKind,
    /// Its start (INDEX 01) as an LBA.
    pub start: u32,
    /// Sectors before `start` that belong to it (INDEX 00 and PREGAP).
    pub pregap: u32,
    /// Sectors from `start` to its end (POSTGAP included).
    pub length: u32,
    /// The image file holding its sectors.
    file: usize,
    /// The LBA of the first of its sectors in the file.
    file_lba: u32,
    /// That sector's byte offset in the file.
    file_offset: u64,
    /// How many of its sectors are in the file.
    file_sectors: u32,
}

impl Track {
    /// The LBA after its last sector.
    pub fn end(&self) -> u32 {
        self.start + self.length
    }
}

/// A sector that cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Past the lead-out, or (cooked) on an audio track.
    NotFound,
    /// The image file could not be read.
    Io,
}

/// A disc image: its files and tracks.
#[derive(Debug)]
pub struct Disc {
    /// The image (or CUE sheet) it was opened from.
    pub path: PathBuf,
    files: Vec<Mutex<File>>,
    tracks: Vec<Track>,
}

/// Whether `path` ends in `.ext` (any case).
fn has_ext(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// The largest image file opened: 100 minutes of raw 2352-byte sectors
/// (images are read a sector at a time, never whole).
pub const MAX_IMAGE_BYTES: u64 = 100 * 60 * 75 * 2352;

impl Disc {
    /// Opens an image: a `.cue` sheet, or a single-track `.iso` (2048-byte
    /// sectors) or other file (2048 or 2352 bytes a sector, detected).
    pub fn open(path: &Path) -> Result<Disc, DiscError> {
        if has_ext(path, "cue") {
            let specs = cue::read(path)?;
            return Disc::lay_out(path, &specs);
        }
        let (mut f, _) = crate::input_file::open(path, MAX_IMAGE_BYTES, "a disc image")
            .map_err(|e| DiscError::new(path, e.to_string()))?;
        let kind = if has_ext(path, "iso") {
            TrackKind::Mode1Cooked
        } else {
            detect(&mut f)
        };
        let spec = cue::FileSpec {
            path: path.to_path_buf(),
            tracks: vec![cue::TrackSpec {
                number: 1,
                kind,
                index0: None,
                index1: 0,
                pregap: 0,
                postgap: 0,
            }],
        };
        Disc::lay_out(path, &[spec])
    }

    /// The disc the files of a CUE sheet (or one image) make.
    fn lay_out(path: &Path, specs: &[cue::FileSpec]) -> Result<Disc, DiscError> {
        let mut files = Vec::new();
        let mut tracks = Vec::new();
        let mut lba = 0u32;
        for (fi, spec) in specs.iter().enumerate() {
            let (f, len) = crate::input_file::open(&spec.path, MAX_IMAGE_BYTES, "a disc image")
                .map_err(|e| DiscError::new(&spec.path, e.to_string()))?;
            lba = lay_out_file(&spec.path, fi, len, &spec.tracks, lba, &mut tracks)?;
            files.push(Mutex::new(f));
        }
        if lba > 100 * 60 * 75 {
            return Err(DiscError::new(path, "longer than 100 minutes"));
        }
        Ok(Disc {
            path: path.to_path_buf(),
            files,
            tracks,
        })
    }

    /// The tracks, in order.
    pub fn tracks(&self) -> &[Track] {
        &self.tracks
    }

    /// The lead-out's LBA (the disc's length in sectors).
    pub fn leadout(&self) -> u32 {
        self.tracks.last().map_or(0, Track::end)
    }

    /// The track `lba` lies in (its pregap included).
    pub fn track_at(&self, lba: u32) -> Option<&Track> {
        self.tracks
            .iter()
            .find(|t| lba.saturating_add(t.pregap) >= t.start && lba < t.end())
    }

    /// The first data track.
    pub fn data_track(&self) -> Option<&Track> {
        self.tracks.iter().find(|t| !t.kind.is_audio())
    }

    /// Sector `lba` as stored (`kind.sector_size()` bytes into `out`), or
    /// zeros where the track has no sector in the file.
    fn stored(&self, t: &Track, lba: u32, out: &mut [u8]) -> Result<(), ReadError> {
        out.fill(0);
        if lba < t.file_lba || lba >= t.file_lba + t.file_sectors {
            return Ok(());
        }
        let at = t.file_offset + u64::from(lba - t.file_lba) * t.kind.sector_size();
        let mut f = self.files[t.file].lock().map_err(|_| ReadError::Io)?;
        f.seek(SeekFrom::Start(at)).map_err(|_| ReadError::Io)?;
        f.read_exact(out).map_err(|_| ReadError::Io)
    }

    /// The 2048 user bytes of data sector `lba`.
    pub fn read_cooked(&self, lba: u32, out: &mut [u8; COOKED]) -> Result<(), ReadError> {
        let t = self.track_at(lba).ok_or(ReadError::NotFound)?;
        if t.kind.is_audio() {
            return Err(ReadError::NotFound);
        }
        let mut raw = [0u8; RAW];
        let n = t.kind.sector_size() as usize;
        self.stored(t, lba, &mut raw[..n])?;
        let o = t.kind.data_offset();
        out.copy_from_slice(&raw[o..o + COOKED]);
        Ok(())
    }

    /// The 2352 bytes of sector `lba` (see the module doc for a 2048-byte
    /// track).
    pub fn read_raw(&self, lba: u32, out: &mut [u8; RAW]) -> Result<(), ReadError> {
        let t = self.track_at(lba).ok_or(ReadError::NotFound)?;
        if t.kind != TrackKind::Mode1Cooked {
            return self.stored(t, lba, out);
        }
        out.fill(0);
        self.stored(t, lba, &mut out[16..16 + COOKED])?;
        out[..12].copy_from_slice(&SYNC);
        let msf = Msf::from_lba(lba);
        let bcd = |v: u8| (v / 10) << 4 | (v % 10);
        out[12] = bcd(msf.m);
        out[13] = bcd(msf.s);
        out[14] = bcd(msf.f);
        out[15] = 1;
        Ok(())
    }
}

impl hw::cdaudio::AudioSectors for Disc {
    fn read_audio(&self, lba: u32, out: &mut [u8; RAW]) -> bool {
        match self.track_at(lba) {
            Some(t) if t.kind.is_audio() => self.stored(t, lba, out).is_ok(),
            _ => false,
        }
    }
}

/// A lone image's sector size: raw when sector 16 (the first volume
/// descriptor) starts with the sync pattern in a 2352-byte layout.
fn detect(f: &mut File) -> TrackKind {
    let mut head = [0u8; 24];
    let raw = f.seek(SeekFrom::Start(16 * RAW as u64)).is_ok() && f.read_exact(&mut head).is_ok();
    if raw && head[..12] == SYNC {
        if head[15] == 2 {
            return TrackKind::Mode2Raw;
        }
        return TrackKind::Mode1Raw;
    }
    TrackKind::Mode1Cooked
}

/// Lays the tracks of one file (`len` bytes) out from `lba`; the LBA after
/// them.
fn lay_out_file(
    path: &Path,
    file: usize,
    len: u64,
    specs: &[cue::TrackSpec],
    mut lba: u32,
    out: &mut Vec<Track>,
) -> Result<u32, DiscError> {
    let bad = |why: String| DiscError::new(path, why);
    let mut offset = 0u64;
    for (i, t) in specs.iter().enumerate() {
        let size = t.kind.sector_size();
        // The first track of a file owns the file's first frames (its
        // INDEX 00 part, or frames before its INDEX 01).
        let file_first = if i == 0 {
            0
        } else {
            t.index0.unwrap_or(t.index1)
        };
        let in_file = match specs.get(i + 1) {
            Some(n) => u64::from(n.index0.unwrap_or(n.index1) - file_first),
            None => {
                let rest = len.saturating_sub(offset);
                if !rest.is_multiple_of(size) {
                    return Err(bad(format!(
                        "track {}: its {rest} bytes are not a whole number of {size}-byte sectors",
                        t.number
                    )));
                }
                rest / size
            }
        };
        let lead = t.index1 - file_first;
        if in_file <= u64::from(lead) || offset + in_file * size > len {
            return Err(bad(format!(
                "track {}: the track list does not add up (INDEX 01 at {} frames, \
                 the file holds {} bytes)",
                t.number, t.index1, len
            )));
        }
        lba += t.pregap;
        let start = lba + lead;
        let pregap = t.pregap + lead;
        let length = (in_file as u32 - lead) + t.postgap;
        out.push(Track {
            number: t.number,
            kind: t.kind,
            start,
            pregap,
            length,
            file,
            file_lba: lba,
            file_offset: offset,
            file_sectors: in_file as u32,
        });
        offset += in_file * size;
        lba = start + length;
    }
    Ok(lba)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sector_past_the_disc_is_not_found_even_at_4_gib() {
        // Found by the fuzzer (fuzz_cdrom): a track with a pregap made the
        // search for sector FFFFFFFFh overflow; a guest can ask for it
        // (MSCDEX's absolute read takes SI:DI).
        let d = std::env::temp_dir().join(format!("tandem-image-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("a.bin"), vec![0u8; RAW * 20]).unwrap();
        let cue = "FILE \"a.bin\" BINARY\n TRACK 01 MODE1/2352\n  INDEX 01 00:00:00\n \
                   TRACK 02 AUDIO\n  PREGAP 00:02:00\n  INDEX 01 00:00:10\n";
        std::fs::write(d.join("a.cue"), cue).unwrap();
        let disc = Disc::open(&d.join("a.cue")).unwrap();
        assert!(disc.tracks()[1].pregap > 0);
        let (mut c, mut r) = ([0u8; COOKED], [0u8; RAW]);
        for lba in [u32::MAX, u32::MAX - 1, disc.leadout()] {
            assert!(disc.track_at(lba).is_none(), "{lba}");
            assert!(disc.read_cooked(lba, &mut c).is_err());
            assert!(disc.read_raw(lba, &mut r).is_err());
        }
        assert!(disc.read_cooked(0, &mut c).is_ok());
        let _ = std::fs::remove_dir_all(&d);
    }
}
