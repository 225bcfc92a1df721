//! The one way the front end reads a file the user named: through
//! [`dos::input_file`] (regular files only, the size checked against the
//! bound of its kind before reading, the read stopped past it), with the
//! error as one line naming the file (exit status 2). The bounds of each
//! kind are here, documented in the README's bad-input paragraph.

use std::path::Path;

use dos::input_file::{self, InputFileError};

use super::error::Error;

/// A save state: the largest a machine makes (16 MiB of memory, video and
/// sound RAM, compressed no larger) with margin ([`dos::state::MAX_FILE_BYTES`]).
pub const SAVE_STATE: u64 = dos::state::MAX_FILE_BYTES;
/// An input record (`--replay`, a bundle's `input.jsonl`): a million events
/// of up to 256 bytes.
pub const RECORD: u64 = 256 << 20;
/// Any other part of a check bundle (`tape.bin`, the JSON and TOML files,
/// `reference.bin`).
pub const BUNDLE_PART: u64 = 256 << 20;
/// A text file: a profile, a corpus manifest.
pub const TEXT: u64 = 16 << 20;
/// A DOS program: an executable with its overlays.
pub const PROGRAM: u64 = 64 << 20;

/// The bytes of the user's file `path` of kind `what`, at most `limit`
/// bytes; else one line naming it.
pub fn read_bounded(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, Error> {
    input_file::read_bounded(path, limit, what).map_err(|e| named(path, e))
}

/// The user's file `path` of kind `what` opened for an incremental read
/// that stops one byte past `limit` (see [`read_bounded`]).
pub fn open_bounded(
    path: &Path,
    limit: u64,
    what: &'static str,
) -> Result<std::io::Take<std::fs::File>, Error> {
    use std::io::Read;
    let (f, _) = input_file::open(path, limit, what).map_err(|e| named(path, e))?;
    Ok(f.take(limit.saturating_add(1)))
}

/// The one-line error of `path`.
pub fn named(path: &Path, e: InputFileError) -> Error {
    Error::bad(path.display(), e)
}
