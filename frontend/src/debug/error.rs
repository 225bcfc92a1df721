//! What can go wrong in a debugger command: one kind per cause, shared by
//! the engine and its front ends (the console prints it after `error:`,
//! the protocol puts it in `error`).

use std::path::PathBuf;

/// A debugger command that could not be parsed or carried out.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Not a number (hex by default, `#N` decimal) nor a register name.
    #[error("'{0}' is not a number (hex, or #decimal) or a register")]
    BadNumber(String),
    /// A run time that is not a decimal number of seconds.
    #[error("'{0}' is not a number of seconds")]
    BadSeconds(String),
    /// A breakpoint condition that is not `LHS OP VALUE`.
    #[error("'{0}': a condition is REG|byte[ADDR]|word[ADDR] OP VALUE")]
    BadCondition(String),
    /// A register name the CPU does not have.
    #[error("no register '{0}'")]
    BadRegister(String),
    /// A value wider than the register it is written to.
    #[error("register {name}: {value:#x} does not fit")]
    RegisterRange {
        /// The register.
        name: String,
        /// The value asked for.
        value: u64,
    },
    /// A number wider than its field (never truncated).
    #[error("'{field}' {value:#x} is out of range (0-{max:#x})")]
    OutOfRange {
        /// The field.
        field: String,
        /// The value asked for.
        value: u64,
        /// The field's largest value.
        max: u64,
    },
    /// An address range that does not fit in 32 bits, or ends before it
    /// starts.
    #[error("the range at {start:#x} of {len:#x} bytes runs past 4 GiB")]
    BadAddress {
        /// Its first byte.
        start: u32,
        /// Its length in bytes.
        len: u32,
    },
    /// A port range whose end is below its start.
    #[error("port range {start:04X}-{end:04X} ends below its start")]
    BadPortRange {
        /// The first port.
        start: u16,
        /// The last port.
        end: u16,
    },
    /// No breakpoint (or protocol hook) with this number.
    #[error("no breakpoint #{0}")]
    NoSuchBreakpoint(usize),
    /// Not a breakpoint number.
    #[error("'{0}' is not a breakpoint number")]
    BadBreakpointNumber(String),
    /// A command of the console that does not exist.
    #[error("unknown command '{0}' (help lists them)")]
    UnknownCommand(String),
    /// A command without the arguments it needs: its usage.
    #[error("{0}")]
    Usage(&'static str),
    /// An argument that is none of the forms the command takes.
    #[error("'{arg}': expected {expected}")]
    BadArgument {
        /// The argument as given.
        arg: String,
        /// What the command takes there.
        expected: &'static str,
    },
    /// A run command asking for more than the longest run.
    #[error(
        "a run of {asked} is longer than the longest a command may ask for, {max} emulated seconds"
    )]
    BudgetTooLong {
        /// The budget as asked for.
        asked: String,
        /// The longest, in emulated seconds.
        max: u64,
    },
    /// A protocol request without a field it needs.
    #[error("'{0}' is required")]
    MissingField(&'static str),
    /// A protocol request field of the wrong form.
    #[error("'{field}' {why}")]
    BadField {
        /// The field.
        field: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A protocol request that is not one JSON object.
    #[error("{0}")]
    BadRequest(String),
    /// A protocol `cmd` that does not exist.
    #[error("unknown cmd '{0}'")]
    UnknownRequest(String),
    /// A protocol hook `kind` that does not exist.
    #[error("unknown hook kind '{0}'")]
    UnknownHookKind(String),
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A save state could not be written or read (the message names the
    /// file).
    #[error("{0}")]
    State(String),
    /// A screenshot could not be encoded.
    #[error("{}: {msg}", path.display())]
    Png {
        /// The file.
        path: PathBuf,
        /// The encoder's message.
        msg: String,
    },
    /// A `bload` script longer than the debugger reads.
    #[error("{}: longer than {max} bytes", path.display())]
    ScriptTooLong {
        /// The script.
        path: PathBuf,
        /// The longest script read.
        max: u64,
    },
    /// A `bload` script that is not UTF-8 text.
    #[error("{}: not UTF-8 text", path.display())]
    ScriptNotText {
        /// The script.
        path: PathBuf,
    },
    /// `bload` scripts that load one another too deep.
    #[error("bload {}: scripts nest more than {max} deep (does it load itself?)", path.display())]
    ScriptNesting {
        /// The script that would be one too deep.
        path: PathBuf,
        /// The deepest nesting.
        max: usize,
    },
    /// A command that runs backwards or asks about the past, in a session
    /// that keeps no history.
    #[error("no history is kept (tandem debug keeps it unless --history-mib is 0)")]
    NoHistory,
    /// Running backwards from the start of the history.
    #[error("no history before cycle {0}: this is where the recorded history starts")]
    HistoryStart(u64),
    /// A cycle outside the history.
    #[error("cycle {cycle} is outside the history (cycles {start} to {end})")]
    OutsideHistory {
        /// The cycle asked for.
        cycle: u64,
        /// The history's first cycle.
        start: u64,
        /// Its last.
        end: u64,
    },
    /// `reverse-finish` with no routine known to have been called.
    #[error("reverse-finish: the call stack is empty (no call of this routine was seen)")]
    NoCaller,
    /// A history query of too many bytes.
    #[error("a history query covers at most {max:#x} bytes, not {len:#x}")]
    QueryTooLong {
        /// The bytes asked for.
        len: u64,
        /// The most.
        max: u64,
    },
    /// A checkpoint could not be taken or restored.
    #[error("{0}")]
    History(String),
    /// A line of a `bload` script failed.
    #[error("{}: line {line}: {source}", path.display())]
    ScriptLine {
        /// The script.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
        /// Why it failed.
        source: Box<Error>,
    },
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// The result of a debugger command.
pub type Result<T> = std::result::Result<T, Error>;

/// The binary's error for a debugger error that stops `tandem debug` from
/// starting: a file the host could not read or write, else bad input.
impl From<Error> for crate::app::error::Error {
    fn from(e: Error) -> Self {
        match e {
            Error::Io { path, source } => crate::app::error::Error::File { path, source },
            other => crate::app::error::Error::Input(other.to_string()),
        }
    }
}
