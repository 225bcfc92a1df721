//! What the guest changed in drive C:'s folder, each change with what it
//! replaced, so that the debugger's history can put the folder back as it
//! was at an earlier cycle: the files are host state a save state does not
//! hold, and a program that writes a file and reads it back (a set-up
//! screen saving its configuration) must read what it read the first time
//! when its past is replayed.
//!
//! Only kept when the debugger asks for it ([`crate::Dos::set_journal`]);
//! otherwise each change costs one branch.

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A journal several DOS states share: the debugger restores states, and
/// each restored state goes on writing into the same journal.
pub type SharedJournal = Arc<Mutex<Journal>>;

/// The changes, oldest first.
#[derive(Debug, Default)]
pub struct Journal {
    entries: Vec<Entry>,
    bytes: usize,
}

#[derive(Debug)]
struct Entry {
    /// The cycle of the service that made the change.
    cycle: u64,
    undo: Undo,
}

/// How to take a change back.
#[derive(Debug)]
enum Undo {
    /// Write `old` back at `at` and give the file length `len` again.
    Bytes {
        path: PathBuf,
        at: u64,
        old: Vec<u8>,
        len: u64,
    },
    /// Put the whole file back (None: it did not exist).
    File { path: PathBuf, old: Option<Vec<u8>> },
    /// Move `to` back to `from`.
    Rename { from: PathBuf, to: PathBuf },
    /// Remove the directory that was made.
    MadeDir(PathBuf),
    /// Make the directory that was removed.
    RemovedDir(PathBuf),
}

impl Undo {
    fn bytes(&self) -> usize {
        match self {
            Undo::Bytes { old, .. } => old.len(),
            Undo::File { old, .. } => old.as_ref().map_or(0, Vec::len),
            _ => 0,
        }
    }

    fn apply(self) -> std::io::Result<()> {
        match self {
            Undo::Bytes { path, at, old, len } => {
                let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
                f.seek(SeekFrom::Start(at))?;
                f.write_all(&old)?;
                f.set_len(len)
            }
            Undo::File { path, old: Some(b) } => std::fs::write(path, b),
            Undo::File { path, old: None } => match std::fs::remove_file(path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            },
            Undo::Rename { from, to } => std::fs::rename(to, from),
            Undo::MadeDir(p) => std::fs::remove_dir(p),
            Undo::RemovedDir(p) => std::fs::create_dir(p),
        }
    }
}

impl Journal {
    fn push(&mut self, cycle: u64, undo: Undo) {
        self.bytes += undo.bytes();
        self.entries.push(Entry { cycle, undo });
    }

    /// Before `n` bytes are written at `at` of the open file `f` (host
    /// path `path`); `n` 0 with `set_len` sets its length to `at`.
    pub fn before_write(&mut self, cycle: u64, path: &Path, f: &std::fs::File, at: u64, n: u64) {
        let len = f.metadata().map(|m| m.len()).unwrap_or(0);
        let end = (at.saturating_add(n)).min(len);
        let mut old = vec![0; end.saturating_sub(at) as usize];
        let mut r: &std::fs::File = f;
        let here = r.stream_position().ok();
        if r.seek(SeekFrom::Start(at)).is_ok() && r.read_exact(&mut old).is_err() {
            old.clear();
        }
        if let Some(p) = here {
            let _ = r.seek(SeekFrom::Start(p));
        }
        self.push(
            cycle,
            Undo::Bytes {
                path: path.to_path_buf(),
                at,
                old,
                len,
            },
        );
    }

    /// Before the file at `path` is set to `new_len` bytes.
    pub fn before_set_len(&mut self, cycle: u64, path: &Path, f: &std::fs::File, new_len: u64) {
        let len = f.metadata().map(|m| m.len()).unwrap_or(0);
        self.before_write(cycle, path, f, new_len, len.saturating_sub(new_len));
    }

    /// Before the file at `path` is created, truncated or deleted.
    pub fn before_replace(&mut self, cycle: u64, path: &Path) {
        let old = std::fs::read(path).ok();
        self.push(
            cycle,
            Undo::File {
                path: path.to_path_buf(),
                old,
            },
        );
    }

    /// After `from` was renamed to `to`.
    pub fn renamed(&mut self, cycle: u64, from: &Path, to: &Path) {
        let (from, to) = (from.to_path_buf(), to.to_path_buf());
        self.push(cycle, Undo::Rename { from, to });
    }

    /// After a directory was made.
    pub fn made_dir(&mut self, cycle: u64, path: &Path) {
        self.push(cycle, Undo::MadeDir(path.to_path_buf()));
    }

    /// After a directory was removed.
    pub fn removed_dir(&mut self, cycle: u64, path: &Path) {
        self.push(cycle, Undo::RemovedDir(path.to_path_buf()));
    }

    /// Takes back every change made at or after `cycle`, newest first. An
    /// undo the host refuses is reported and the rest still done.
    pub fn undo_to(&mut self, cycle: u64) -> Vec<std::io::Error> {
        let mut errors = Vec::new();
        while self.entries.last().is_some_and(|e| e.cycle >= cycle) {
            if let Some(e) = self.entries.pop() {
                self.bytes -= e.undo.bytes();
                if let Err(err) = e.undo.apply() {
                    errors.push(err);
                }
            }
        }
        errors
    }

    /// Forgets the changes made before `cycle` (history older than that is
    /// gone).
    pub fn forget_before(&mut self, cycle: u64) {
        let n = self.entries.partition_point(|e| e.cycle < cycle);
        for e in self.entries.drain(..n) {
            self.bytes -= e.undo.bytes();
        }
    }

    /// Bytes of file data held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

/// Records into `j` (when set) at `cycle`.
pub(crate) fn note(j: &Option<SharedJournal>, f: impl FnOnce(&mut Journal)) {
    if let Some(j) = j {
        if let Ok(mut j) = j.lock() {
            f(&mut j);
        }
    }
}
