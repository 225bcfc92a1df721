//! What lies beside the test files of a directory: `metadata.json` (the
//! forms' statuses and flags masks) and `revocation_list.txt` (tests to
//! skip), both optional.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::SstError;
use crate::metadata::Metadata;

/// What lies beside the test files in one directory: `metadata.json` and
/// `revocation_list.txt`, both optional.
#[derive(Debug, Default)]
pub struct DirContext {
    /// The directory.
    pub dir: PathBuf,
    /// Its `metadata.json`, if present.
    pub metadata: Option<Metadata>,
    /// Hashes from its `revocation_list.txt`: tests to skip.
    pub revoked: HashSet<[u8; 20]>,
    /// Set once the missing metadata has been warned about.
    pub(crate) warned_no_metadata: AtomicBool,
}

impl DirContext {
    /// Loads the context of a directory. A missing `metadata.json` is not an
    /// error (every form then counts as normal with all flags compared, and
    /// a warning is logged when a file of the directory runs); an unreadable
    /// or malformed one is.
    pub fn load(dir: &Path) -> Result<DirContext, SstError> {
        let meta_path = dir.join("metadata.json");
        let metadata = if meta_path.is_file() {
            Some(Metadata::load(&meta_path)?)
        } else {
            None
        };
        let rev_path = dir.join("revocation_list.txt");
        let revoked = if rev_path.is_file() {
            let text = std::fs::read_to_string(&rev_path)
                .map_err(|e| SstError::input(&rev_path, format!("cannot read: {e}")))?;
            parse_revocation_list(&text).map_err(|e| SstError::input(&rev_path, e.to_string()))?
        } else {
            HashSet::new()
        };
        Ok(DirContext {
            dir: dir.to_path_buf(),
            metadata,
            revoked,
            warned_no_metadata: AtomicBool::new(false),
        })
    }

    /// Logs, once per directory, that it has no `metadata.json`.
    pub(crate) fn warn_if_no_metadata(&self) {
        if self.metadata.is_none() && !self.warned_no_metadata.swap(true, Ordering::Relaxed) {
            log::warn!(
                "{}: no metadata.json; every form counts as normal with all flags compared",
                self.dir.display()
            );
        }
    }
}

/// A line of a revocation list that is not a SHA-1 hash.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: not a SHA-1 hash")]
pub struct RevocationError {
    /// The line's number, from 1.
    pub line: usize,
}

/// Parses a revocation list: one 40-digit hex SHA-1 per line; blank lines and
/// lines starting with `#` are ignored.
pub fn parse_revocation_list(text: &str) -> Result<HashSet<[u8; 20]>, RevocationError> {
    let mut set = HashSet::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let h = parse_hash(line).ok_or(RevocationError { line: n + 1 })?;
        set.insert(h);
    }
    Ok(set)
}

fn parse_hash(s: &str) -> Option<[u8; 20]> {
    if s.len() != 40 || !s.is_ascii() {
        return None;
    }
    let mut h = [0u8; 20];
    for (i, b) in h.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(h)
}

/// The directory of `path` (`.` for a bare file name).
pub(crate) fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revocation_list() {
        let h = "f501e1f11f2f7068e2e8e4ec3c06775dc0b1d563";
        let set = parse_revocation_list(&format!("# comment\n\n{h}\n")).unwrap();
        assert_eq!(set.len(), 1);
        assert!(set.contains(&parse_hash(h).unwrap()));
        assert!(parse_revocation_list("xyz\n").is_err());
    }

    #[test]
    fn bare_file_names_live_in_the_current_directory() {
        assert_eq!(parent_dir(Path::new("00.MOO.gz")), PathBuf::from("."));
        assert_eq!(parent_dir(Path::new("a/b/00.MOO.gz")), PathBuf::from("a/b"));
    }
}
