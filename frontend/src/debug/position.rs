//! What the debugger keeps about a position besides the machine itself:
//! the call stack it has seen built, and how the program ended. The
//! history's checkpoints keep them too.

/// How the program ended (no more running).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// It terminated with this code.
    Exited(u8),
    /// The emulation stopped.
    Stopped(dos::Stop),
}

impl std::fmt::Display for End {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            End::Exited(code) => write!(f, "the program exited with code {code}"),
            End::Stopped(why) => write!(f, "{why}"),
        }
    }
}

/// One frame of the call stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Where the CALL or INT was.
    pub from: (u16, u16),
    /// Where it went.
    pub to: (u16, u16),
    /// SS:SP after the return address was pushed.
    pub ss: u16,
    /// See `ss`.
    pub sp: u16,
    /// An INT (IRET returns) rather than a CALL.
    pub int: bool,
}
