//! Drive C:'s quota: how many bytes the guest may add to the host folder.
//!
//! The folder behind drive C: is the host's disk, so what a guest writes is
//! bounded: every change of a file's length the guest makes (a write that
//! extends a file, a write of 0 bytes or FCB 28h that sets the length, a
//! create that truncates, a delete) moves the drive's net growth, and a
//! write that would take it past the limit is cut short as DOS cuts a
//! write on a full disk (INT 21h 40h: AX < CX with CF clear, MS-DOS
//! Programmer's Reference). Sizes are logical lengths, so a seek far past
//! the end and a write counts the whole gap: the host never gets a sparse
//! file larger than the quota. INT 21h 36h reports the room left.

use serde::{Deserialize, Serialize};

/// DOS extended error 27h: insufficient disk space (what 59h reports
/// after an FCB write or 28h set-length the quota refused).
pub const ERR_DISK_FULL: u16 = 0x27;

/// The default limit: 256 MiB.
pub const DEFAULT_QUOTA: u64 = 256 << 20;

/// The drive's limit and what the guest has added so far.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Quota {
    limit: u64,
    /// Net bytes added (negative when the guest freed more than it wrote:
    /// deleting a file frees its room, as on a real disk).
    grown: i64,
}

impl Quota {
    /// A drive that may grow by `limit` bytes.
    pub fn new(limit: u64) -> Quota {
        Quota { limit, grown: 0 }
    }

    /// The limit in bytes.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Bytes the guest may still add.
    pub fn free(&self) -> u64 {
        (self.limit as i128 - self.grown as i128).clamp(0, u64::MAX as i128) as u64
    }

    /// How many of `n` bytes written at `pos` of a file `len` bytes long
    /// fit: bytes over the old data are free, the rest take room (the gap
    /// between the end and `pos` too).
    pub fn fit(&self, len: u64, pos: u64, n: u64) -> u64 {
        // The file may end at `len + free` at most; the gap from `len` to
        // `pos` counts like written bytes.
        len.saturating_add(self.free()).saturating_sub(pos).min(n)
    }

    /// Whether a file may go from `old` to `new` bytes.
    pub fn allows(&self, old: u64, new: u64) -> bool {
        new <= old || new - old <= self.free()
    }

    /// Records that a file went from `old` to `new` bytes.
    pub fn resized(&mut self, old: u64, new: u64) {
        let d = new as i128 - old as i128;
        self.grown = (self.grown as i128 + d).clamp(i64::MIN as i128, i64::MAX as i128) as i64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_are_cut_at_the_limit() {
        let mut q = Quota::new(100);
        assert_eq!(q.fit(0, 0, 60), 60);
        q.resized(0, 60);
        assert_eq!(q.free(), 40);
        // Over old data is free; past the end takes room.
        assert_eq!(q.fit(60, 10, 50), 50);
        assert_eq!(q.fit(60, 50, 100), 50);
        // A gap larger than the room: nothing fits.
        assert_eq!(q.fit(60, 1 << 32, 1), 0);
        assert_eq!(q.fit(60, 90, 20), 10);
        assert!(q.allows(60, 100) && !q.allows(60, 101));
        q.resized(60, 0);
        assert_eq!(q.free(), 100);
    }
}
