//! The tape of a lock-step check: at every frame point, the guest bytes the
//! checker read (as changes from the frame point before), the IRQ0 count and
//! the sum of the step immediates. The checker's state (the landing model,
//! the last counter and clock, the frame count) is a function of this
//! history, so a bundle that starts at a checkpoint rebuilds the checker
//! exactly by replaying the tape up to the checkpoint, without running the
//! program from its start and without knowing what the models keep.
//!
//! The file (`tape.bin` in a bundle): the 8 bytes `TTAPE1\0\0`, a u32 frame
//! count, then per frame a u64 IRQ0 count, a u16 advance, a u32 number of
//! changes and that many (u32 linear address, u8 value) pairs; all little
//! endian.

use std::cell::RefCell;
use std::collections::HashMap;

use models::GuestMemory;

const MAGIC: &[u8; 8] = b"TTAPE1\0\0";

/// What is wrong with a tape file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TapeError {
    /// It does not start with the tape's mark.
    #[error("not a tape (no TTAPE1 mark)")]
    NotATape,
    /// It ends inside a frame.
    #[error("cut short at byte {0}")]
    Short(usize),
    /// A frame claims more changes than the file holds.
    #[error("frame {frame} claims {count} changes")]
    Changes {
        /// The frame, from 0.
        frame: usize,
        /// The changes it claims.
        count: usize,
    },
    /// Bytes follow the last frame.
    #[error("{0} bytes after the last frame")]
    Trailing(usize),
}

/// One frame point of the tape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TapeFrame {
    /// IRQ0s since the frame point before.
    pub irqs: u64,
    /// The sum of the step immediates at those IRQ0s.
    pub advance: u16,
    /// The bytes read whose value changed since the last read of them.
    pub changes: Vec<(u32, u8)>,
}

/// The frames checked so far and the last value of every byte read.
#[derive(Default)]
pub struct Tape {
    /// The frames, oldest first.
    pub frames: Vec<TapeFrame>,
    last: HashMap<u32, u8>,
}

impl Tape {
    /// Appends a frame point that read `reads` (address, value, in order).
    pub fn push(&mut self, irqs: u64, advance: u16, reads: Vec<(u32, u8)>) {
        let mut changes = Vec::new();
        for (a, v) in reads {
            if self.last.insert(a, v) != Some(v) {
                changes.push((a, v));
            }
        }
        self.frames.push(TapeFrame {
            irqs,
            advance,
            changes,
        });
    }

    /// The first `n` frames in the file format.
    pub fn encode(&self, n: usize) -> Vec<u8> {
        let frames = &self.frames[..n.min(self.frames.len())];
        let mut out = MAGIC.to_vec();
        out.extend((frames.len() as u32).to_le_bytes());
        for f in frames {
            out.extend(f.irqs.to_le_bytes());
            out.extend(f.advance.to_le_bytes());
            out.extend((f.changes.len() as u32).to_le_bytes());
            for (a, v) in &f.changes {
                out.extend(a.to_le_bytes());
                out.push(*v);
            }
        }
        out
    }

    /// Reads the file format; the error says what is wrong.
    pub fn decode(bytes: &[u8]) -> Result<Vec<TapeFrame>, TapeError> {
        let mut r = Reader { b: bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err(TapeError::NotATape);
        }
        let n = r.u32()?;
        let mut frames = Vec::new();
        for _ in 0..n {
            let irqs = u64::from_le_bytes(r.array()?);
            let advance = u16::from_le_bytes(r.array()?);
            let count = r.u32()? as usize;
            // Each change is 5 bytes: a count beyond the file is damage.
            if count > (bytes.len() - r.at) / 5 {
                return Err(TapeError::Changes {
                    frame: frames.len(),
                    count,
                });
            }
            let mut changes = Vec::with_capacity(count);
            for _ in 0..count {
                let a = r.u32()?;
                changes.push((a, r.take(1)?[0]));
            }
            frames.push(TapeFrame {
                irqs,
                advance,
                changes,
            });
        }
        if r.at != bytes.len() {
            return Err(TapeError::Trailing(bytes.len() - r.at));
        }
        Ok(frames)
    }
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], TapeError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len());
        let end = end.ok_or(TapeError::Short(self.at))?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], TapeError> {
        let s = self.take(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    fn u32(&mut self) -> Result<u32, TapeError> {
        Ok(u32::from_le_bytes(self.array()?))
    }
}

/// Guest memory that notes every byte read.
pub struct Taping<'a, M: GuestMemory + ?Sized> {
    mem: &'a M,
    reads: RefCell<Vec<(u32, u8)>>,
}

impl<'a, M: GuestMemory + ?Sized> Taping<'a, M> {
    /// Notes the reads of `mem`.
    pub fn new(mem: &'a M) -> Self {
        Taping {
            mem,
            reads: RefCell::new(Vec::new()),
        }
    }

    /// The bytes read, in order.
    pub fn reads(self) -> Vec<(u32, u8)> {
        self.reads.into_inner()
    }
}

impl<M: GuestMemory + ?Sized> GuestMemory for Taping<'_, M> {
    fn read8(&self, linear: u32) -> u8 {
        let v = self.mem.read8(linear);
        self.reads.borrow_mut().push((linear, v));
        v
    }
}

/// Guest memory played back from a tape: each byte as last taped.
#[derive(Default)]
pub struct Played {
    mem: HashMap<u32, u8>,
}

impl Played {
    /// Applies a frame's changes.
    pub fn apply(&mut self, f: &TapeFrame) {
        self.mem.extend(f.changes.iter().copied());
    }
}

impl GuestMemory for Played {
    fn read8(&self, linear: u32) -> u8 {
        // A byte never taped was never read: the checker reads the same
        // bytes whenever it runs, so this does not happen on a sound tape.
        self.mem.get(&linear).copied().unwrap_or(0xFF)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tape_keeps_only_changes_and_reads_back() {
        let mut t = Tape::default();
        t.push(3, 6, vec![(10, 1), (11, 2)]);
        t.push(2, 4, vec![(10, 1), (11, 5)]);
        assert_eq!(t.frames[1].changes, vec![(11, 5)]);
        let back = Tape::decode(&t.encode(2)).expect("decodes");
        assert_eq!(back, t.frames);
        let mut bytes = t.encode(2);
        bytes.pop();
        assert!(Tape::decode(&bytes).is_err());
    }
}
