//! `--save-state` and `--load-state` for the commands that run a DOS
//! program: the file format is `dos::state`; this module reads and writes
//! it and says what went wrong in one line.

use std::path::Path;

use dos::state::{self, Meta, Snapshot};
use dos::Dos;
use hw::Machine;

use super::error::Error;

/// The fastest CPU clock a state may have (1 GHz).
pub const MAX_CPU_HZ: u64 = 1_000_000_000;
/// The latest cycle a state may be at: a resumed run adds its own time to
/// it and must never reach the end of the counter.
pub const MAX_CYCLE: u64 = 1 << 62;

/// Reads a save state for a run whose drive C: is `mount`; the error is a
/// one-line message naming the file. The state is untrusted input: besides
/// its format (checked by `dos::state`), the clocks and times that bound
/// the resumed run are checked here.
pub fn load(file: &Path, mount: &Path) -> Result<Snapshot, Error> {
    let bytes =
        super::input_file::read_bounded(file, super::input_file::SAVE_STATE, "a save state")?;
    load_bytes(&bytes, mount).map_err(|e| Error::bad(file.display(), e))
}

/// [`load`] of a state already in memory (the fuzz tests' entry point);
/// the error does not name a file.
pub fn load_bytes(bytes: &[u8], mount: &Path) -> Result<Snapshot, Error> {
    let snap = state::load(bytes, mount).map_err(|e| Error::Input(e.to_string()))?;
    check(&snap).map_err(|e| Error::Input(format!("save state is damaged ({e})")))?;
    Ok(snap)
}

/// What is wrong with the clocks or times of a snapshot.
#[derive(Debug, thiserror::Error)]
enum Damaged {
    #[error("CPU clock of {0} Hz")]
    CpuClock(u64),
    #[error("PIT clock of {0} Hz")]
    PitClock(u64),
    #[error("at cycle {0}")]
    Cycle(u64),
    #[error("origin cycle {origin} is after the saved cycle {now}")]
    Origin { origin: u64, now: u64 },
}

/// Whether the clocks and times of a snapshot are those of a run.
fn check(snap: &Snapshot) -> Result<(), Damaged> {
    let c = snap.machine.config();
    if c.cpu_hz == 0 || c.cpu_hz > MAX_CPU_HZ {
        return Err(Damaged::CpuClock(c.cpu_hz));
    }
    if c.pit_hz == 0 || c.pit_hz > c.cpu_hz {
        return Err(Damaged::PitClock(c.pit_hz));
    }
    let now = snap.machine.cycles();
    if now > MAX_CYCLE {
        return Err(Damaged::Cycle(now));
    }
    if snap.meta.origin_cycle > now {
        return Err(Damaged::Origin {
            origin: snap.meta.origin_cycle,
            now,
        });
    }
    Ok(())
}

/// Writes a save state of `m` and `dos` at the end of a run that was to
/// reach `origin_cycle` (a resumed run's time counts from there; a run
/// without a time limit, or one that ended before it, counts from where it
/// stopped).
pub fn save(
    file: &Path,
    program: &Path,
    m: &Machine,
    dos: &Dos,
    origin_cycle: u64,
) -> Result<(), Error> {
    let meta = Meta {
        tandem: env!("CARGO_PKG_VERSION").into(),
        program: program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        origin_cycle: origin_cycle.min(m.cycles()),
    };
    state::write_file(file, m, dos, &meta).map_err(|e| Error::bad(file.display(), e))
}
