//! The answer of a history query: writes to memory or to a port found in
//! the past, each with who made it (`history/query.rs` finds them).

use super::command::Insn;

/// The most bytes one query covers.
pub const MAX_QUERY: u64 = 0x10_0000;

/// Who made a write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Writer {
    /// An instruction.
    Cpu(Insn),
    /// A BIOS or DOS service, and the return address it was called with.
    Service {
        /// The service (`INT 21h AX=3F00h`).
        name: String,
        /// CS:IP it returns to.
        caller: (u16, u16),
    },
    /// The user (`e`, `r`, `key`, or their protocol and gdb forms).
    User,
}

/// One write found in the history.
#[derive(Clone, Debug, PartialEq)]
pub struct Write {
    /// The cycle of the instruction (or service call) that made it.
    pub cycle: u64,
    /// The same in emulated seconds since power-on.
    pub seconds: f64,
    /// The VGA's frame count then.
    pub frame: u64,
    /// Who made it.
    pub by: Writer,
    /// The first byte written (a linear address), or the port.
    pub addr: u32,
    /// The bytes before (for a port, the value written before, if any).
    pub old: Vec<u8>,
    /// The bytes written.
    pub new: Vec<u8>,
}
