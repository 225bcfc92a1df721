//! A fresh, empty temporary folder that is removed when dropped: drive C:
//! of a run that names no folder (the built-in replica, a golden-master
//! load, a bundle's replay whose run folder is gone).

use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};

/// An empty temporary folder of this process, removed (with what the guest
/// wrote into it) when dropped.
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates `tandem-WHAT-PID-RANDOM` in the host's temporary folder. The
    /// name is unpredictable and the folder must not exist yet, so nothing
    /// another user prepared is ever taken as drive C:.
    pub fn new(what: &str) -> std::io::Result<TempDir> {
        let base = std::env::temp_dir();
        let mut last = None;
        for _ in 0..16 {
            let p = base.join(format!(
                "tandem-{what}-{}-{:016x}",
                std::process::id(),
                random()
            ));
            match std::fs::create_dir(&p) {
                Ok(()) => return Ok(TempDir(p)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// 64 bits from the host's randomness (the standard library seeds each
/// `RandomState` from it); a name, never emulation, depends on them.
fn random() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_is_new_empty_and_removed_on_drop() {
        let a = TempDir::new("t").expect("a temp dir");
        let b = TempDir::new("t").expect("another");
        assert_ne!(a.path(), b.path());
        assert!(a.path().is_dir());
        std::fs::write(a.path().join("F"), b"x").expect("write");
        let p = a.path().to_path_buf();
        drop(a);
        assert!(!p.exists());
    }
}
