//! The errors of the `tandem` binary: what kind of thing went wrong, each
//! kind with its exit status ([`Error::exit_code`], the codes of
//! [`super::exit`]; a failed check is a result, not an error: its commands
//! return [`exit::CHECK_FAILED`] themselves). The library crates' errors (`dos::LoadError`,
//! `dos::state::StateError`, `models` and `hw` errors) arrive here wrapped
//! with the file or option they came from.

use std::path::{Path, PathBuf};

use super::exit;

/// Why a command cannot do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file named on the command line cannot be read, written or
    /// created.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What the host said.
        #[source]
        source: std::io::Error,
    },
    /// Input tandem cannot use: a malformed program, profile, record, save
    /// state, address or option value. The message names it and says what
    /// is wrong.
    #[error("{0}")]
    Input(String),
    /// The emulation cannot go on.
    #[error("{0}")]
    Stopped(#[from] dos::Stop),
    /// A routine run in isolation did not come back (it halted, met
    /// something not emulated, or ran out of instructions).
    #[error("{0}")]
    Call(#[from] models::call::CallError),
    /// The program ended (or a replay did) before the command was done
    /// with it.
    #[error("{0}")]
    EndedEarly(String),
    /// The window (SDL) failed.
    #[error("the window: {0}")]
    Window(String),
}

impl Error {
    /// The exit status of a command that failed so: the one mapping from
    /// error kinds to exit codes.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::File { .. } | Error::Input(_) | Error::Window(_) => exit::BAD_INPUT,
            Error::Stopped(_) | Error::Call(_) => exit::EMULATION_STOPPED,
            Error::EndedEarly(_) => exit::RUN_ENDED_FIRST,
        }
    }

    /// A file error.
    pub fn file(path: &Path, source: std::io::Error) -> Error {
        Error::File {
            path: path.to_path_buf(),
            source,
        }
    }

    /// Bad input: `what` (a file, an option) and what is wrong with it.
    pub fn bad(what: impl std::fmt::Display, why: impl std::fmt::Display) -> Error {
        Error::Input(format!("{what}: {why}"))
    }
}

/// A one-line message of bad input (the parsers of options, records and
/// addresses build these).
impl From<String> for Error {
    fn from(msg: String) -> Error {
        Error::Input(msg)
    }
}

/// DOS cannot start: its drive C: cannot be mounted, or a program or
/// state it was given is malformed (the message names which).
impl From<dos::Error> for Error {
    fn from(e: dos::Error) -> Error {
        Error::Input(e.to_string())
    }
}

/// A profile or a routine's symbols are not usable.
impl From<models::Error> for Error {
    fn from(e: models::Error) -> Error {
        Error::Input(e.to_string())
    }
}

impl From<&str> for Error {
    fn from(msg: &str) -> Error {
        Error::Input(msg.to_string())
    }
}

/// Prints `tandem CMD: error: ERR` and returns the error's exit status:
/// the one way a command reports what stops it.
pub fn report(cmd: &str, err: &Error) -> std::process::ExitCode {
    eprintln!("tandem {cmd}: error: {err}");
    std::process::ExitCode::from(err.exit_code())
}

/// [`report`] of an error or of a one-line message of bad input.
pub fn input_error(cmd: &str, err: impl Into<Error>) -> std::process::ExitCode {
    report(cmd, &err.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_documented_code() {
        let io = || std::io::Error::from(std::io::ErrorKind::NotFound);
        assert_eq!(Error::file(Path::new("x"), io()).exit_code(), 2);
        assert_eq!(Error::bad("--seconds", "-1").exit_code(), 2);
        assert_eq!(Error::Window("no video".into()).exit_code(), 2);
        assert_eq!(Error::Stopped(dos::Stop::Reset).exit_code(), 126);
        assert_eq!(Error::EndedEarly("exited".into()).exit_code(), 124);
        assert_eq!(
            Error::bad("GAME.EXE", "truncated").to_string(),
            "GAME.EXE: truncated"
        );
    }
}
