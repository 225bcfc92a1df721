//! Breakpoints: what each watches and the CPU hooks that watch for it
//! (emu/src/hooks.rs). A breakpoint's condition and an interrupt's AL
//! filter are checked when its hook stops the CPU.

use emu::{ExecAt, HookKind};

use super::parse::Cond;

/// What a breakpoint watches (addresses already resolved).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BpKind {
    /// Execution at an address.
    Exec(ExecAt),
    /// Memory reads and/or writes in a linear range (inclusive).
    Mem {
        /// Stop on reads.
        read: bool,
        /// Stop on writes.
        write: bool,
        /// The first byte.
        start: u32,
        /// The last byte.
        end: u32,
    },
    /// Port reads and/or writes in a range (inclusive).
    Port {
        /// Stop on reads (IN).
        read: bool,
        /// Stop on writes (OUT).
        write: bool,
        /// The first port.
        start: u16,
        /// The last port.
        end: u16,
    },
    /// An interrupt, optionally only for one AH and AL.
    Int {
        /// The vector.
        vector: u8,
        /// Only with this AH.
        ah: Option<u8>,
        /// Only with this AL (checked when the hook stops).
        al: Option<u8>,
    },
}

impl BpKind {
    /// The CPU hooks that watch for it.
    pub fn hooks(&self) -> Vec<HookKind> {
        match *self {
            BpKind::Exec(at) => vec![HookKind::Exec(at)],
            BpKind::Mem {
                read,
                write,
                start,
                end,
            } => read_write(
                (read, HookKind::MemRead { start, end }),
                (write, HookKind::MemWrite { start, end }),
            ),
            BpKind::Port {
                read,
                write,
                start,
                end,
            } => read_write(
                (read, HookKind::PortRead { start, end }),
                (write, HookKind::PortWrite { start, end }),
            ),
            BpKind::Int { vector, ah, .. } => vec![HookKind::Interrupt { vector, ah }],
        }
    }
}

/// The read hook and the write hook that are on.
fn read_write(read: (bool, HookKind), write: (bool, HookKind)) -> Vec<HookKind> {
    [read, write]
        .into_iter()
        .filter_map(|(on, k)| on.then_some(k))
        .collect()
}

/// A breakpoint.
#[derive(Clone, Debug)]
pub struct Bp {
    /// What it watches.
    pub kind: BpKind,
    /// Stop only when this holds.
    pub cond: Option<Cond>,
    /// How it was asked for (the console command, or the protocol
    /// request), for listing and `bsave`.
    pub text: String,
    /// Times it stopped the program.
    pub hits: u64,
    /// A temporary breakpoint (step over, run to): deleted when it stops.
    pub temp: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_watches_only_the_directions_asked() {
        let w = BpKind::Mem {
            read: false,
            write: true,
            start: 0x10,
            end: 0x11,
        };
        assert_eq!(
            w.hooks(),
            vec![HookKind::MemWrite {
                start: 0x10,
                end: 0x11
            }]
        );
        let p = BpKind::Port {
            read: true,
            write: true,
            start: 0x60,
            end: 0x64,
        };
        assert_eq!(p.hooks().len(), 2);
    }
}
