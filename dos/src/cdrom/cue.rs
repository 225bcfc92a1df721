//! CUE sheets: the text that lays a disc's tracks over its image files.
//!
//! The commands read (CDRWIN's format, as CUE sheets are written):
//! `FILE "name" BINARY` (the file the following tracks are in, little-endian
//! audio), `TRACK nn MODE1/2048 | MODE1/2352 | MODE2/2352 | AUDIO`,
//! `INDEX 00 mm:ss:ff` (the pregap's start, in the file) and `INDEX 01`
//! (the track's start; times are from the start of the file, 75 frames a
//! second), `PREGAP mm:ss:ff` and `POSTGAP mm:ss:ff` (silence not in the
//! file). `CATALOG`, `CDTEXTFILE`, `FLAGS`, `ISRC`, `PERFORMER`,
//! `SONGWRITER`, `TITLE` and `REM` are accepted and ignored; anything else
//! is an error. Tracks are numbered from 1 without gaps, each has an
//! INDEX 01, and a track's indexes increase through its file. A FILE must
//! name a file in the CUE's own folder or below it (no absolute path, no
//! `..`, no symlink leading out): a CUE cannot make the guest read any
//! other host file.

use std::path::{Component, Path, PathBuf};

use super::image::TrackKind;
use super::DiscError;

/// What is wrong with a line of a CUE sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why(pub String);

impl From<&str> for Why {
    fn from(s: &str) -> Why {
        Why(s.to_string())
    }
}

impl From<String> for Why {
    fn from(s: String) -> Why {
        Why(s)
    }
}

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One TRACK of a CUE sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackSpec {
    /// Its number (1-99).
    pub number: u8,
    /// Its mode.
    pub kind: TrackKind,
    /// INDEX 00: frames from the start of the file.
    pub index0: Option<u32>,
    /// INDEX 01: frames from the start of the file.
    pub index1: u32,
    /// PREGAP: frames of silence not in the file.
    pub pregap: u32,
    /// POSTGAP: frames of silence not in the file.
    pub postgap: u32,
}

/// One FILE of a CUE sheet and its tracks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSpec {
    /// The host file (inside the CUE's folder).
    pub path: PathBuf,
    /// Its tracks, in order.
    pub tracks: Vec<TrackSpec>,
}

/// The largest CUE sheet read: its text names at most 99 tracks.
pub const MAX_BYTES: u64 = 1 << 20;

/// Reads the CUE sheet at `path`: a regular file of at most [`MAX_BYTES`].
pub fn read(path: &Path) -> Result<Vec<FileSpec>, DiscError> {
    let text = crate::input_file::read_bounded(path, MAX_BYTES, "a CUE sheet")
        .map_err(|e| DiscError::new(path, e.to_string()))?;
    let text = String::from_utf8_lossy(&text);
    let folder = path.parent().unwrap_or(Path::new("."));
    parse(&text, folder).map_err(|(line, why)| DiscError::new(path, format!("line {line}: {why}")))
}

/// Parses a CUE sheet whose files are in `folder`; an error is the line
/// number and what is wrong.
pub fn parse(text: &str, folder: &Path) -> Result<Vec<FileSpec>, (usize, Why)> {
    let mut files: Vec<FileSpec> = Vec::new();
    let mut last = 0;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        last = n;
        if line.is_empty() {
            continue;
        }
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        command(&mut files, &cmd.to_ascii_uppercase(), rest, folder).map_err(|e| (n, e))?;
    }
    check(&files).map_err(|e| (last, e))?;
    Ok(files)
}

/// One command line.
fn command(files: &mut Vec<FileSpec>, cmd: &str, rest: &str, folder: &Path) -> Result<(), Why> {
    let track = |files: &mut Vec<FileSpec>| -> Result<(), Why> {
        match files.last().and_then(|f| f.tracks.last()) {
            Some(_) => Ok(()),
            None => Err(format!("{cmd} before any TRACK").into()),
        }
    };
    match cmd {
        "FILE" => {
            let (name, kind) = file_args(rest)?;
            if !kind.eq_ignore_ascii_case("BINARY") {
                return Err(format!("file type {kind} is not supported (only BINARY)").into());
            }
            files.push(FileSpec {
                path: inside(folder, &name)?,
                tracks: Vec::new(),
            });
        }
        "TRACK" => {
            let f = files.last_mut().ok_or("TRACK before any FILE")?;
            let (num, mode) = rest
                .split_once(char::is_whitespace)
                .ok_or("TRACK needs a number and a mode")?;
            let number: u8 = num.parse().map_err(|_| format!("bad track number {num}"))?;
            let kind = TrackKind::from_cue(mode.trim())
                .ok_or_else(|| format!("track mode {} is not supported", mode.trim()))?;
            f.tracks.push(TrackSpec {
                number,
                kind,
                index0: None,
                index1: u32::MAX,
                pregap: 0,
                postgap: 0,
            });
        }
        "INDEX" => {
            track(files)?;
            let (idx, time) = rest
                .split_once(char::is_whitespace)
                .ok_or("INDEX needs a number and a time")?;
            let frames = msf(time.trim())?;
            let t = last_track(files)?;
            match idx.parse::<u8>() {
                Ok(0) => t.index0 = Some(frames),
                Ok(1) => t.index1 = frames,
                Ok(2..=99) => {}
                _ => return Err(format!("bad index number {idx}").into()),
            }
        }
        "PREGAP" | "POSTGAP" => {
            let frames = msf(rest)?;
            track(files)?;
            let t = last_track(files)?;
            if cmd == "PREGAP" {
                t.pregap = frames;
            } else {
                t.postgap = frames;
            }
        }
        "CATALOG" | "CDTEXTFILE" | "FLAGS" | "ISRC" | "PERFORMER" | "SONGWRITER" | "TITLE"
        | "REM" => {}
        _ => return Err(format!("unknown command {cmd}").into()),
    }
    Ok(())
}

/// The last track of the last file.
fn last_track(files: &mut [FileSpec]) -> Result<&mut TrackSpec, Why> {
    files
        .last_mut()
        .and_then(|f| f.tracks.last_mut())
        .ok_or_else(|| Why::from("no TRACK"))
}

/// The name and type of a FILE command (the name quoted or not).
fn file_args(rest: &str) -> Result<(String, String), Why> {
    let (name, kind) = if let Some(r) = rest.strip_prefix('"') {
        let (name, after) = r.split_once('"').ok_or("FILE name has no closing quote")?;
        (name.to_string(), after.trim().to_string())
    } else {
        let (name, kind) = rest
            .rsplit_once(char::is_whitespace)
            .ok_or("FILE needs a name and a type")?;
        (name.trim().to_string(), kind.to_string())
    };
    if name.is_empty() || kind.is_empty() {
        return Err("FILE needs a name and a type".into());
    }
    Ok((name, kind))
}

/// `name` resolved in `folder`, which it may not leave.
fn inside(folder: &Path, name: &str) -> Result<PathBuf, Why> {
    let rel = Path::new(name);
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err(format!("FILE \"{name}\" is outside the CUE sheet's folder").into());
    }
    let path = folder.join(rel);
    let real = path
        .canonicalize()
        .map_err(|e| format!("FILE \"{name}\": {e}"))?;
    let root = folder
        .canonicalize()
        .map_err(|e| format!("the CUE sheet's folder: {e}"))?;
    if !real.starts_with(&root) {
        return Err(format!("FILE \"{name}\" is outside the CUE sheet's folder").into());
    }
    if !real.is_file() {
        return Err(format!("FILE \"{name}\" is not a regular file").into());
    }
    Ok(real)
}

/// `mm:ss:ff` as frames.
pub fn msf(s: &str) -> Result<u32, Why> {
    let p: Vec<&str> = s.split(':').collect();
    let n = |x: &str| x.parse::<u32>().map_err(|_| format!("bad time {s}"));
    match p.as_slice() {
        [m, sec, f] => {
            let (m, sec, f) = (n(m)?, n(sec)?, n(f)?);
            if sec >= 60 || f >= 75 {
                return Err(format!("bad time {s}").into());
            }
            Ok((m * 60 + sec) * 75 + f)
        }
        _ => Err(format!("bad time {s}").into()),
    }
}

/// Track numbers 1, 2, ... each with an INDEX 01, indexes increasing.
fn check(files: &[FileSpec]) -> Result<(), Why> {
    let mut want = 1u8;
    for f in files {
        if f.tracks.is_empty() {
            return Err(format!("FILE {} has no TRACK", f.path.display()).into());
        }
        let mut prev = None;
        for t in &f.tracks {
            if t.number != want {
                return Err(format!("track {} follows track {}", t.number, want - 1).into());
            }
            want = want.saturating_add(1);
            if t.index1 == u32::MAX {
                return Err(format!("track {} has no INDEX 01", t.number).into());
            }
            let first = t.index0.unwrap_or(t.index1);
            if first > t.index1 || prev.is_some_and(|p| first <= p) {
                return Err(format!("track {}'s indexes do not increase", t.number).into());
            }
            prev = Some(t.index1);
        }
    }
    if want == 1 {
        return Err("no tracks".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder() -> PathBuf {
        let d = std::env::temp_dir().join(format!("tandem-cue-{}", std::process::id()));
        std::fs::create_dir_all(d.join("sub")).unwrap();
        std::fs::write(d.join("a.bin"), vec![0u8; 2352 * 300]).unwrap();
        std::fs::write(d.join("outside.bin"), b"x").unwrap();
        d
    }

    #[test]
    fn tracks_indexes_and_gaps() {
        let d = folder();
        let cue = "REM x\nFILE \"a.bin\" BINARY\n TRACK 01 MODE1/2352\n  INDEX 01 00:00:00\n \
                   TRACK 02 AUDIO\n  PREGAP 00:01:00\n  INDEX 00 00:02:00\n  INDEX 01 00:02:10\n  POSTGAP 00:00:05\n";
        let f = parse(cue, &d).unwrap();
        assert_eq!(f.len(), 1);
        let t = &f[0].tracks;
        assert_eq!(
            (t[0].number, t[0].kind, t[0].index1),
            (1, TrackKind::Mode1Raw, 0)
        );
        assert_eq!(
            (t[1].index0, t[1].index1, t[1].pregap, t[1].postgap),
            (Some(150), 160, 75, 5)
        );
        assert_eq!(msf("01:02:03"), Ok(4653));
        assert!(msf("00:60:00").is_err());
    }

    #[test]
    fn bad_sheets_name_their_line() {
        let d = folder();
        let sub = d.join("sub");
        let bad = |cue: &str, dir: &Path| parse(cue, dir).unwrap_err();
        assert_eq!(bad("FILE \"../outside.bin\" BINARY\n", &sub).0, 1);
        assert!(bad("FILE \"../outside.bin\" BINARY\n", &sub)
            .1
             .0
            .contains("outside"));
        assert!(bad("FILE \"/etc/passwd\" BINARY\n", &d)
            .1
             .0
            .contains("outside"));
        assert!(bad("FILE \"a.bin\" WAVE\n", &d)
            .1
             .0
            .contains("not supported"));
        assert!(bad("TRACK 01 AUDIO\n", &d).1 .0.contains("before any FILE"));
        let gap = "FILE a.bin BINARY\nTRACK 02 AUDIO\nINDEX 01 00:00:00\n";
        assert!(bad(gap, &d).1 .0.contains("track 2 follows"));
        let no1 = "FILE a.bin BINARY\nTRACK 01 AUDIO\nINDEX 00 00:00:00\n";
        assert!(bad(no1, &d).1 .0.contains("no INDEX 01"));
        assert!(bad("BOGUS x\n", &d).1 .0.contains("unknown command"));
        #[cfg(unix)]
        {
            let _ = std::fs::remove_file(sub.join("link.bin"));
            std::os::unix::fs::symlink(d.join("outside.bin"), sub.join("link.bin")).unwrap();
            assert!(bad("FILE link.bin BINARY\n", &sub).1 .0.contains("outside"));
        }
    }
}
