//! `tandem bench --time-travel`: what the history costs. Runs a program in
//! the debugger's engine for some emulated seconds with the history off and
//! on, side by side in one process (so the ratio is this host's), then
//! times going back: `reverse-step` from the end, and a `goto` halfway.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::app::error::Error;
use crate::app::options::{DosOpts, MachineOpts};
use crate::debug::engine::Debugger;
use crate::debug::{start, Start};

/// How many times each reverse command is timed (the median is given).
const SAMPLES: usize = 7;

/// What the time-travel benchmark measured.
#[derive(Clone, Debug)]
pub struct TimeTravel {
    /// Emulated seconds run forwards.
    pub seconds: u64,
    /// Host time forwards without the history.
    pub plain: Duration,
    /// Host time forwards keeping the history.
    pub kept: Duration,
    /// Checkpoints kept at the end.
    pub checkpoints: usize,
    /// Bytes they held.
    pub bytes: usize,
    /// Steps between checkpoints at the end.
    pub interval: u64,
    /// The median time of `reverse-step` (one instruction back).
    pub reverse_step: Duration,
    /// The slowest of them.
    pub reverse_step_max: Duration,
    /// The time of a `goto` to half the run.
    pub goto_half: Duration,
}

impl TimeTravel {
    /// How much slower forwards execution is with the history, in percent.
    pub fn overhead_percent(&self) -> f64 {
        (self.kept.as_secs_f64() / self.plain.as_secs_f64().max(1e-9) - 1.0) * 100.0
    }
}

fn debugger(
    program: &Path,
    machine: &MachineOpts,
    mount: &Path,
    mib: u64,
) -> Result<Debugger, Error> {
    let dos = DosOpts {
        mount: Some(mount.to_path_buf()),
        no_xms: false,
        no_ems: false,
        disk_quota: dos::quota::DEFAULT_QUOTA >> 20,
        cdrom: Vec::new(),
        cdrom_dir: Vec::new(),
    };
    start(&Start {
        program,
        args: &[],
        machine,
        dos: &dos,
        load_state: None,
        history_mib: mib,
    })
}

/// Runs `program` for `seconds` emulated seconds without and with a
/// history of `mib` MiB, then times reverse commands.
pub fn measure(
    program: &Path,
    machine: &MachineOpts,
    mount: &Path,
    seconds: u64,
    mib: u64,
) -> Result<TimeTravel, Error> {
    let forwards = |mib| -> Result<(Debugger, Duration), Error> {
        let mut d = debugger(program, machine, mount, mib)?;
        let cycles = seconds.saturating_mul(d.core.m.config().cpu_hz);
        let t = Instant::now();
        d.cont(cycles);
        Ok((d, t.elapsed()))
    };
    let (_, plain) = forwards(0)?;
    let (mut d, kept) = forwards(mib.max(1))?;
    let h = d.kept().map_err(|e| Error::Input(e.to_string()))?;
    let (checkpoints, bytes, interval) = (h.checkpoints(), h.bytes(), h.interval());
    let mut times = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let t = Instant::now();
        d.reverse_step(1).map_err(|e| Error::Input(e.to_string()))?;
        times.push(t.elapsed());
    }
    times.sort();
    let half = d.core.m.cycles() / 2;
    let t = Instant::now();
    d.goto(half).map_err(|e| Error::Input(e.to_string()))?;
    let goto_half = t.elapsed();
    Ok(TimeTravel {
        seconds,
        plain,
        kept,
        checkpoints,
        bytes,
        interval,
        reverse_step: times[SAMPLES / 2],
        reverse_step_max: times[SAMPLES - 1],
        goto_half,
    })
}
