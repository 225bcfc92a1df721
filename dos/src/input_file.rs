//! Reading a file the user named (a save state, a record, a CD image, a
//! WAV, a bundle's parts): untrusted input, so only a regular file is
//! opened (a FIFO or a device such as `/dev/zero` would never end), its
//! size is checked against the bound of its kind before anything is read,
//! and the read itself stops one byte past the bound, so a file that grows
//! while it is read is still refused.

use std::fs::File;
use std::io::Read;
use std::path::Path;

/// Why a user-given file was not read.
#[derive(Debug, thiserror::Error)]
pub enum InputFileError {
    /// Not a regular file: a folder, a FIFO, a device or a socket.
    #[error("is {0}, not a regular file")]
    NotRegular(&'static str),
    /// Larger than its kind may be.
    #[error("is {size} bytes, more than the {limit} bytes {what} may be")]
    TooBig {
        /// The file's size (at least; it may still grow).
        size: u64,
        /// The bound of its kind.
        limit: u64,
        /// Its kind ("a save state").
        what: &'static str,
    },
    /// The host could not open or read it.
    #[error("cannot be read ({0})")]
    Io(#[from] std::io::Error),
}

/// What a file that is not regular is, for messages.
fn kind(t: std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if t.is_file() {
        None
    } else if t.is_dir() {
        Some("a folder")
    } else if t.is_fifo() {
        Some("a FIFO")
    } else if t.is_char_device() || t.is_block_device() {
        Some("a device")
    } else if t.is_socket() {
        Some("a socket")
    } else {
        Some("not a file")
    }
}

/// Checks that `m` is a regular file of at most `limit` bytes.
fn check(m: &std::fs::Metadata, limit: u64, what: &'static str) -> Result<u64, InputFileError> {
    if let Some(k) = kind(m.file_type()) {
        return Err(InputFileError::NotRegular(k));
    }
    if m.len() > limit {
        return Err(InputFileError::TooBig {
            size: m.len(),
            limit,
            what,
        });
    }
    Ok(m.len())
}

/// Opens the regular file at `path` of at most `limit` bytes (a file of
/// kind `what`, for messages) and returns it with its size. Its type is
/// checked before it is opened (opening a FIFO waits for a writer) and
/// again on the open file.
pub fn open(path: &Path, limit: u64, what: &'static str) -> Result<(File, u64), InputFileError> {
    check(&std::fs::metadata(path)?, limit, what)?;
    let f = File::open(path)?;
    let len = check(&f.metadata()?, limit, what)?;
    Ok((f, len))
}

/// The bytes of the regular file at `path`, of at most `limit` bytes
/// (see [`open`]); at most `limit + 1` bytes are ever read.
pub fn read_bounded(
    path: &Path,
    limit: u64,
    what: &'static str,
) -> Result<Vec<u8>, InputFileError> {
    let (f, len) = open(path, limit, what)?;
    let mut bytes = Vec::with_capacity(len as usize);
    f.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(InputFileError::TooBig {
            size: bytes.len() as u64,
            limit,
            what,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("dos-input-{}-{name}", std::process::id()));
        std::fs::write(&p, bytes).expect("write");
        p
    }

    #[test]
    fn reads_a_small_regular_file() {
        let p = temp("ok", b"abc");
        assert_eq!(read_bounded(&p, 3, "a test").expect("read"), b"abc");
        let _ = std::fs::remove_file(p);
    }

    #[test]
    fn refuses_a_file_over_its_bound_by_its_size() {
        let p = temp("big", b"abcd");
        let e = read_bounded(&p, 3, "a test").unwrap_err();
        assert!(
            matches!(
                e,
                InputFileError::TooBig {
                    size: 4,
                    limit: 3,
                    ..
                }
            ),
            "{e}"
        );
        let _ = std::fs::remove_file(p);
    }

    #[test]
    fn refuses_devices_and_folders() {
        let e = read_bounded(Path::new("/dev/zero"), 10, "a test").unwrap_err();
        assert_eq!(e.to_string(), "is a device, not a regular file");
        let e = read_bounded(&std::env::temp_dir(), 10, "a test").unwrap_err();
        assert_eq!(e.to_string(), "is a folder, not a regular file");
    }
}
