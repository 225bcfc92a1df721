//! The system file table (in Rust: the open host files and devices) and
//! each process's job file table (in its PSP, as DOS keeps it), which maps
//! the process's handles to SFT entries. A save state keeps the SFT's
//! files by DOS path ([`crate::state`]).

use hw::Machine;

use crate::drive::Device;
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

/// The system file table.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Sft {
    #[serde(with = "crate::state::sft_entries")]
    e: Vec<Option<Entry>>,
}

impl Sft {
    /// An empty table.
    pub fn new() -> Self {
        Sft {
            e: (0..SFT_SIZE).map(|_| None).collect(),
        }
    }

    /// The standard devices: 0 CON (stdin, stdout, stderr), 1 AUX, 2 PRN.
    pub fn init_std(&mut self) {
        for (i, (d, refs)) in [(Device::Con, 3), (Device::Aux, 1), (Device::Prn, 1)]
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
