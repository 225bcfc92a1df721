//! The errors of the `dos` crate: one enum for the crate, wrapping the
//! loader's and the save state's own, and the kind of each failure that a
//! binary maps to an exit status.
//!
//! DOS services that fail report a DOS error code to the guest (AX and CF),
//! which is emulation, not a Rust error: only what stops a run from being
//! set up (the mount, the program file, a save state) is here.

use std::path::PathBuf;

pub use crate::mz::LoadError;
pub use crate::sft::ReopenError;
pub use crate::state::StateError;

/// Why DOS could not be set up, a program loaded, or a state read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The host folder for drive C: is missing or not a directory.
    #[error("mount {}: {source}", path.display())]
    Mount {
        /// The folder asked for.
        path: PathBuf,
        /// The host's error.
        source: std::io::Error,
    },
    /// The program cannot be loaded.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A save state cannot be read or written.
    #[error(transparent)]
    State(#[from] StateError),
    /// A CD-ROM image (or folder) cannot be used.
    #[error(transparent)]
    Disc(#[from] crate::cdrom::DiscError),
}

/// The kind of a failure, for a binary to choose an exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The host folder for drive C: cannot be used.
    Mount,
    /// The file is not a program DOS loads (a malformed MZ header, a COM
    /// image over 64 KiB).
    BadProgram,
    /// The program does not fit in conventional memory, or the memory
    /// arena is corrupt.
    NoMemory,
    /// A host file could not be read or written.
    Io,
    /// A save state is foreign, of another version, damaged, or names an
    /// open file that cannot be reopened.
    BadState,
    /// A CD-ROM image is missing or malformed.
    BadDisc,
}

impl LoadError {
    /// The kind of this failure.
    pub fn kind(&self) -> ErrorKind {
        match self {
            LoadError::TooLarge { .. } | LoadError::Arena => ErrorKind::NoMemory,
            _ => ErrorKind::BadProgram,
        }
    }
}

impl StateError {
    /// The kind of this failure.
    pub fn kind(&self) -> ErrorKind {
        match self {
            StateError::Io(_) => ErrorKind::Io,
            _ => ErrorKind::BadState,
        }
    }
}

impl Error {
    /// The kind of this failure.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Mount { .. } => ErrorKind::Mount,
            Error::Load(e) => e.kind(),
            Error::State(e) => e.kind(),
            Error::Disc(_) => ErrorKind::BadDisc,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mount_error_names_the_folder_and_is_of_kind_mount() {
        let e = Error::Mount {
            path: PathBuf::from("/no/such"),
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
        };
        assert_eq!(e.kind(), ErrorKind::Mount);
        assert!(e.to_string().starts_with("mount /no/such: "), "{e}");
    }

    #[test]
    fn dos_new_on_a_missing_folder_is_a_mount_error() {
        let path = std::env::temp_dir().join("tandem-err-no-such-mount");
        let e = crate::Dos::new(crate::DosConfig::new(path.clone())).expect_err("no folder");
        assert_eq!(e.kind(), ErrorKind::Mount);
        assert!(
            e.to_string()
                .starts_with(&format!("mount {}: ", path.display())),
            "{e}"
        );
    }

    #[test]
    fn load_errors_are_classified_by_what_went_wrong() {
        let too_large = LoadError::TooLarge {
            need: 0x9000,
            avail: 0x8000,
        };
        assert_eq!(Error::from(too_large.clone()).kind(), ErrorKind::NoMemory);
        assert_eq!(
            too_large.to_string(),
            "program needs 576 KiB of memory, 512 KiB are free"
        );
        assert_eq!(Error::from(LoadError::Empty).kind(), ErrorKind::BadProgram);
        assert_eq!(
            Error::from(LoadError::Empty).to_string(),
            "zero-length file"
        );
        assert_eq!(LoadError::Arena.kind(), ErrorKind::NoMemory);
    }

    #[test]
    fn state_errors_split_host_io_from_bad_states() {
        let io = StateError::Io(std::io::Error::from(std::io::ErrorKind::NotFound));
        assert_eq!(Error::from(io).kind(), ErrorKind::Io);
        assert_eq!(StateError::Checksum.kind(), ErrorKind::BadState);
        let e = StateError::File(ReopenError::NoFile {
            path: "C:\\A.TXT".into(),
        });
        assert_eq!(e.kind(), ErrorKind::BadState);
        assert_eq!(
            e.to_string(),
            "cannot reopen a file of the saved program: C:\\A.TXT: no such file on drive C:"
        );
    }
}
