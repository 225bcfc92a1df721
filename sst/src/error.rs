//! What stops a test file (or a whole run) from being tested.

use std::path::Path;

use crate::metadata::MetadataError;
use crate::moo::MooError;

/// Anything that stops a file (or the whole run) from being tested: the
/// message always names the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SstError {
    /// A MOO file could not be read or is malformed.
    #[error(transparent)]
    Moo(#[from] MooError),
    /// A `metadata.json` could not be read or is malformed.
    #[error(transparent)]
    Metadata(#[from] MetadataError),
    /// Any other unusable input: a missing path, a directory without test
    /// files, a bad revocation list or vector file, an unknown CPU name.
    #[error("{path}: {message}")]
    Input {
        /// The path concerned.
        path: String,
        /// What is wrong.
        message: String,
    },
}

impl SstError {
    /// An [`SstError::Input`] about `path`.
    pub(crate) fn input(path: &Path, message: impl Into<String>) -> Self {
        SstError::Input {
            path: path.display().to_string(),
            message: message.into(),
        }
    }
}
