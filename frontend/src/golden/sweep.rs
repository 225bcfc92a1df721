//! `tandem sweep`: one of the program's routines run over its model's
//! whole input domain, every result compared with the model, on every
//! core of the current rayon pool (the result does not depend on how
//! many).

use std::time::Instant;

use models::profile::Routine;
use models::sweep::{self, Program, SweepReport};
use models::Segments;

use super::profile::GoldenSetup;
use crate::app::error::Error;
use crate::app::program::Loaded;

/// A finished sweep: the report, where the program was, and the time of
/// the sweep loop alone.
pub struct Swept {
    /// Equal points, the total and the first mismatch.
    pub report: SweepReport,
    /// Where the program's segments were.
    pub segs: Segments,
    /// Host seconds of the sweep loop.
    pub loop_secs: f64,
    /// Threads it ran on.
    pub threads: usize,
}

/// Loads the program (on `machine`) and sweeps `routine` over its
/// domain; `points` is told the number of points, `progress` each point
/// done.
pub fn sweep(
    g: &GoldenSetup,
    routine: &Routine,
    machine: &hw::MachineConfig,
    points: &dyn Fn(u64),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Swept, Error> {
    let name = &g.name;
    // The reference is loaded and nothing has run: when it is the program
    // itself, its load serves for both.
    let own;
    let s = if g.reference_is_program {
        &g.reference.loaded
    } else {
        own = Loaded::start(&g.image, name, None, machine, b"")?;
        &own
    };
    let segs = s.locate(g.profile(), name)?;
    let program = Program {
        cpu: &s.session.m.cpu,
        mem: s.memory(),
        segs,
    };
    let reference = g.reference.placed();
    let domain = sweep::domain(routine, &reference)?;
    points(domain.len() as u64);
    // The pool's threads start before the clock does: their start-up is
    // the process's, not the sweep loop's.
    rayon::broadcast(|_| ());
    let start = Instant::now();
    let report = sweep::sweep_points(routine, &program, &reference, &domain, progress)
        .map_err(|e| Error::bad(name, e))?;
    Ok(Swept {
        report,
        segs,
        loop_secs: start.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
    })
}
