//! `--save-state` and `--load-state` for the commands that run a DOS
//! program: the file format is `dos::state`; this module reads and writes
//! it and says what went wrong in one line.

use std::path::Path;

use dos::state::{self, Meta, Snapshot};
use dos::Dos;
use hw::Machine;

/// Reads a save state for a run whose drive C: is `mount`; the error is a
/// one-line message naming the file.
pub fn load(file: &Path, mount: &Path) -> Result<Snapshot, String> {
    state::read_file(file, mount).map_err(|e| format!("{}: {e}", file.display()))
}

/// Writes a save state of `m` and `dos` at the end of a run that was to
/// reach `origin_cycle`.
pub fn save(
    file: &Path,
    program: &Path,
    m: &Machine,
    dos: &Dos,
    origin_cycle: u64,
) -> Result<(), String> {
    let meta = Meta {
        tandem: env!("CARGO_PKG_VERSION").into(),
        program: program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        origin_cycle,
    };
    state::write_file(file, m, dos, &meta).map_err(|e| format!("{}: {e}", file.display()))
}
