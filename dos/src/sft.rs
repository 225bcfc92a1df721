//! The system file table (in Rust: the open host files and devices) and
//! each process's job file table (in its PSP, as DOS keeps it), which maps
//! the process's handles to SFT entries. A save state keeps the SFT's
//! files by their DOS path and position, and reopens them through the
//! resuming run's drive C: (never by a host path).

use std::cell::RefCell;
use std::io::{Seek, SeekFrom};

use hw::Machine;

use crate::drive::{Device, Drive};
use crate::mem::{lin, rd16, rd8, wr8};

/// DOS error: too many open files.
pub const ERR_TOO_MANY: u16 = 4;
/// DOS error: invalid handle.
pub const ERR_HANDLE: u16 = 6;

/// Size of the system file table (FILES=).
const SFT_SIZE: usize = 60;

/// What an open file is.
#[derive(Debug)]
pub enum Kind {
    /// A host file under the mount.
    File(std::fs::File),
    /// A character device.
    Device(Device),
}

/// One system file table entry.
#[derive(Debug)]
pub struct Entry {
    /// The file or device.
    pub kind: Kind,
    /// Job-file-table references.
    pub refs: u16,
    /// Open mode (access in bits 0-2).
    pub mode: u8,
    /// A file's DOS path as components from drive C:'s root (what a save
    /// state keeps: never a host path), empty for a device.
    pub dos: Vec<String>,
    /// Written to since opening (its time is set on close).
    pub written: bool,
    /// A time set with 57h01h to apply on close (seconds since 1970).
    pub set_time: Option<i64>,
    /// A device in binary (raw) mode (IOCTL 4401h bit 5): reads from CON
    /// return keys as they come, without line editing or echo.
    pub raw: bool,
}

/// One handle of a process as a debugger shows it ([`Sft::open_files`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenFile {
    /// The handle: the index in the process's job file table.
    pub handle: u16,
    /// The SFT entry it refers to.
    pub sft: u8,
    /// `C:\DIR\NAME.EXT` for a file, the device's name for a device.
    pub name: String,
    /// A character device rather than a file.
    pub device: bool,
    /// The file's size in bytes (0 for a device).
    pub size: u32,
    /// The file pointer (0 for a device).
    pub position: u32,
    /// The open mode (access in bits 0-2: 0 read, 1 write, 2 both).
    pub mode: u8,
}

/// The most handles [`Sft::open_files`] lists (a damaged job file table
/// could name one entry 65535 times).
const MAX_LISTED: usize = 256;

/// The system file table.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Sft {
    #[serde(with = "saved")]
    e: Vec<Option<Entry>>,
}

impl Sft {
    /// An empty table.
    pub fn new() -> Self {
        Sft {
            e: (0..SFT_SIZE).map(|_| None).collect(),
        }
    }

    /// The standard devices as MS-DOS's SYSINIT leaves them: 0 AUX, 1 CON
    /// (stdin, stdout, stderr), 2 PRN. SYSINIT keeps the boot-time
    /// standard output (entry 0) open while it opens CON, so CON takes
    /// entry 1; closing that handle frees entry 0 for AUX, and PRN takes
    /// entry 2: a program's job file table reads 01 01 01 00 02.
    pub fn init_std(&mut self) {
        for (i, (d, refs)) in [(Device::Aux, 1), (Device::Con, 3), (Device::Prn, 1)]
            .into_iter()
            .enumerate()
        {
            self.e[i] = Some(Entry {
                kind: Kind::Device(d),
                refs,
                mode: 2,
                dos: Vec::new(),
                written: false,
                set_time: None,
                raw: false,
            });
        }
    }

    /// An entry.
    pub fn get(&mut self, i: u8) -> Option<&mut Entry> {
        self.e.get_mut(i as usize).and_then(|e| e.as_mut())
    }

    /// An entry, read only.
    pub fn entry(&self, i: u8) -> Option<&Entry> {
        self.e.get(i as usize).and_then(|e| e.as_ref())
    }

    /// The handles process `psp` has open, lowest first, with what each
    /// refers to. Reads guest memory with the machine's loader access
    /// (never through the bus) and asks the host for each file's size and
    /// position without moving it: nothing changes.
    pub fn open_files(&self, m: &Machine, psp: u16) -> Vec<OpenFile> {
        let rd16 = |a: u32| m.peek16(a);
        let size = rd16(lin(psp, 0x32));
        let (off, seg) = (rd16(lin(psp, 0x34)), rd16(lin(psp, 0x36)));
        let mut out = Vec::new();
        for h in 0..size {
            let s = m.peek8(lin(seg, off.wrapping_add(h)));
            let Some(e) = self.entry(s) else {
                continue;
            };
            out.push(describe(h, s, e));
            if out.len() >= MAX_LISTED {
                break;
            }
        }
        out
    }

    /// Whether an entry can be added (checked before a file is created, so
    /// a full table leaves the host untouched).
    pub fn has_free(&self) -> bool {
        self.e.iter().any(|e| e.is_none())
    }

    /// Adds an entry; its index or None when the table is full.
    pub fn add(&mut self, entry: Entry) -> Option<u8> {
        let i = self.e.iter().position(|e| e.is_none())?;
        self.e[i] = Some(entry);
        Some(i as u8)
    }

    /// One more reference (a handle inherited or duplicated).
    pub fn inherit(&mut self, i: u8) -> bool {
        match self.get(i) {
            Some(e) => {
                e.refs += 1;
                true
            }
            None => false,
        }
    }

    /// Drops one reference; the file closes with the last. A file written
    /// to gets the emulated time `now` (or the time set with 57h) as its
    /// modification time.
    pub fn close(&mut self, i: u8, now: i64) {
        let Some(slot) = self.e.get_mut(i as usize) else {
            return;
        };
        let Some(e) = slot.as_mut() else {
            return;
        };
        e.refs = e.refs.saturating_sub(1);
        if e.refs == 0 {
            if let Some(Entry {
                kind: Kind::File(f),
                written,
                set_time,
                ..
            }) = slot.take()
            {
                let t = set_time.or(written.then_some(now));
                if let Some(t) = t {
                    let _ = f.set_modified(emulated_time(t));
                }
            }
        }
    }
}

/// Handle `handle`'s entry `sft` as [`OpenFile`].
fn describe(handle: u16, sft: u8, e: &Entry) -> OpenFile {
    let (name, device, size, position) = match &e.kind {
        Kind::Device(d) => (d.name().to_string(), true, 0, 0),
        Kind::File(f) => {
            let mut r: &std::fs::File = f;
            let size = f.metadata().map(|md| md.len()).unwrap_or(0);
            // Seeking by 0 from the current position only reads it.
            let pos = r.stream_position().unwrap_or(0);
            let name = Drive::full_name(&e.dos);
            (name, false, size, pos)
        }
    };
    let clamp = |v: u64| v.min(u32::MAX as u64) as u32;
    OpenFile {
        handle,
        sft,
        name,
        device,
        size: clamp(size),
        position: clamp(position),
        mode: e.mode,
    }
}

/// The SFT index a process's handle refers to.
pub fn jft_get(m: &mut Machine, psp: u16, h: u16) -> Option<u8> {
    let size = rd16(m, lin(psp, 0x32));
    if h >= size {
        return None;
    }
    let off = rd16(m, lin(psp, 0x34));
    let seg = rd16(m, lin(psp, 0x36));
    match rd8(m, lin(seg, off.wrapping_add(h))) {
        0xFF => None,
        s => Some(s),
    }
}

/// Sets a process's handle.
pub fn jft_set(m: &mut Machine, psp: u16, h: u16, v: u8) {
    let off = rd16(m, lin(psp, 0x34));
    let seg = rd16(m, lin(psp, 0x36));
    wr8(m, lin(seg, off.wrapping_add(h)), v);
}

/// The lowest free handle of a process.
pub fn jft_free(m: &mut Machine, psp: u16) -> Option<u16> {
    let size = rd16(m, lin(psp, 0x32));
    (0..size).find(|&h| jft_get(m, psp, h).is_none())
}

/// A host file time for `secs` seconds since 1970 of emulated time.
pub fn emulated_time(secs: i64) -> std::time::SystemTime {
    std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs.max(0) as u64)
}

/// Why a file the saved program had open cannot be reopened; `path` is
/// the DOS path the state names.
#[derive(Debug, thiserror::Error)]
pub enum ReopenError {
    /// The resuming run has no drive C:.
    #[error("{path}: no drive C: to reopen it on")]
    NoDrive {
        /// The DOS path.
        path: String,
    },
    /// The path names no existing file on drive C:.
    #[error("{path}: no such file on drive C:")]
    NoFile {
        /// The DOS path.
        path: String,
    },
    /// The path leaves drive C: or is not a file name DOS accepts.
    #[error("{path}: not a file inside drive C: (DOS error {code})")]
    Outside {
        /// The DOS path.
        path: String,
        /// The DOS error the drive gave.
        code: u16,
    },
    /// The host refused to open or seek the file.
    #[error("{path}: {source}")]
    Io {
        /// The DOS path.
        path: String,
        /// The host's error.
        source: std::io::Error,
    },
}

thread_local! {
    /// Drive C: of the resuming run while a state is read (open files are
    /// resolved through it), and the first reopen error.
    static MOUNT: RefCell<(Option<Drive>, Option<ReopenError>)> = const { RefCell::new((None, None)) };
}

/// Runs `decode` (the decoding of a save state) with `drive` as the drive
/// the table's open files are reopened through; returns what it returned
/// and the first file that could not be reopened.
pub(crate) fn reopening<T>(drive: Drive, decode: impl FnOnce() -> T) -> (T, Option<ReopenError>) {
    MOUNT.with(|c| *c.borrow_mut() = (Some(drive), None));
    let out = decode();
    let err = MOUNT.with(|c| std::mem::take(&mut *c.borrow_mut()).1);
    (out, err)
}

/// Serde for the system file table: files as (DOS path on drive C:,
/// position), reopened on load through the resuming run's drive.
mod saved {
    use std::io::Seek;

    use serde::{Deserialize, Serialize};

    use crate::drive::{Device, Drive};
    use crate::sft::{reopen, Entry, Kind, MOUNT};

    #[derive(Serialize, Deserialize)]
    enum SavedKind {
        File { path: Vec<u8>, pos: u64 },
        Device(Device),
    }

    #[derive(Serialize, Deserialize)]
    struct SavedEntry {
        kind: SavedKind,
        refs: u16,
        mode: u8,
        written: bool,
        set_time: Option<i64>,
        raw: bool,
    }

    pub fn serialize<S: serde::Serializer>(e: &[Option<Entry>], s: S) -> Result<S::Ok, S::Error> {
        let saved: Vec<Option<SavedEntry>> = e
            .iter()
            .map(|e| {
                e.as_ref().map(|e| SavedEntry {
                    kind: match &e.kind {
                        Kind::Device(d) => SavedKind::Device(*d),
                        Kind::File(f) => {
                            let mut f: &std::fs::File = f;
                            SavedKind::File {
                                path: Drive::dos_path(&e.dos),
                                pos: f.stream_position().unwrap_or(0),
                            }
                        }
                    },
                    refs: e.refs,
                    mode: e.mode,
                    written: e.written,
                    set_time: e.set_time,
                    raw: e.raw,
                })
            })
            .collect();
        saved.serialize(s)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<Option<Entry>>, D::Error> {
        let saved = Vec::<Option<SavedEntry>>::deserialize(d)?;
        let drive = MOUNT.with(|c| c.borrow().0.clone());
        let mut out = Vec::with_capacity(saved.len());
        for e in saved {
            let Some(e) = e else {
                out.push(None);
                continue;
            };
            let (kind, dos) = match e.kind {
                SavedKind::Device(d) => (Kind::Device(d), Vec::new()),
                SavedKind::File { path, pos } => match reopen(drive.as_ref(), &path, e.mode, pos) {
                    Ok((f, dos)) => (Kind::File(f), dos),
                    Err(msg) => {
                        MOUNT.with(|c| {
                            c.borrow_mut().1.get_or_insert(msg);
                        });
                        out.push(None);
                        continue;
                    }
                },
            };
            out.push(Some(Entry {
                kind,
                refs: e.refs,
                mode: e.mode,
                dos,
                written: e.written,
                set_time: e.set_time,
                raw: e.raw,
            }));
        }
        Ok(out)
    }
}

/// Reopens a file a state says was open: `path` is a DOS path resolved
/// through the resuming run's drive like any path the guest gives, so it
/// must name an existing file inside the mount whatever the state holds.
fn reopen(
    drive: Option<&Drive>,
    path: &[u8],
    mode: u8,
    pos: u64,
) -> Result<(std::fs::File, Vec<String>), ReopenError> {
    let path_s = String::from_utf8_lossy(path).into_owned();
    let Some(drive) = drive else {
        return Err(ReopenError::NoDrive { path: path_s });
    };
    let (host, dos) = match drive.resolve_file(path) {
        Ok(found) => found,
        Err(crate::drive::ERR_FILE) => return Err(ReopenError::NoFile { path: path_s }),
        Err(code) => return Err(ReopenError::Outside { path: path_s, code }),
    };
    let access = mode & 7;
    std::fs::OpenOptions::new()
        .read(access != 1)
        .write(access != 0)
        .open(&host)
        .and_then(|mut f| f.seek(SeekFrom::Start(pos)).map(|_| f))
        .map(|f| (f, dos))
        .map_err(|source| ReopenError::Io {
            path: path_s,
            source,
        })
}
