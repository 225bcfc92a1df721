//! `tandem compare`: the program run headless in lock-step with the
//! models for a number of emulated seconds ([`Check`], with key presses at
//! their times), and the routines whose models do not take part in
//! lock-step (state selection, the parameter lookup, any new model)
//! spot-checked at each frame point: a few points of their domain run on a
//! copy of the program as it stands, the model reading the same copy
//! ([`models::sweep::spot_check`]). By default every such routine section
//! of the profile; named routines instead when asked (any registered
//! model).

use dos::Exit;
use models::model::Point;
use models::profile::Routine;
use models::sweep;

use super::check::{baseline, Check, Checked, Setup};
use super::profile::GoldenSetup;
use super::report::Report;
use super::watch::Watch;
use crate::app::error::Error;
use crate::app::program::Loaded;
use crate::input::player::{Player, Slice};
use crate::input::press::{self, Press};

/// What `compare` is asked to do besides its golden-master set-up.
pub struct Request<'a> {
    /// Emulated seconds to run.
    pub seconds: u64,
    /// Keys pressed at their times.
    pub presses: &'a [Press],
    /// Routines to spot-check (empty: the profile's that are not in
    /// lock-step).
    pub routines: &'a [String],
    /// Instructions a report shows before the divergent frame point.
    pub recent: usize,
}

/// What a comparison found.
pub struct Compared {
    /// Frame points checked.
    pub frames: u64,
    /// The clocks of the first frame points.
    pub clocks: Vec<u16>,
    /// The first divergence, if there was one.
    pub report: Option<Report>,
}

/// The routines to spot-check: those named, else the profile's routine
/// sections whose models are not in lock-step; each with its domain (a
/// routine whose domain cannot be read from the reference is left out).
fn spots(g: &GoldenSetup, names: &[String]) -> Result<Vec<(Routine, Vec<Point>)>, Error> {
    let chosen: Vec<Routine> = if names.is_empty() {
        let all = g.profile().routine_names();
        let resolved = all.iter().map(|n| g.chosen.routine(n));
        let r = resolved.collect::<Result<Vec<_>, _>>()?;
        r.into_iter().filter(|r| !r.model.in_lock_step()).collect()
    } else {
        let r = names.iter().map(|n| g.chosen.routine(n));
        r.collect::<Result<Vec<_>, _>>()?
    };
    let reference = g.reference.placed();
    let mut v = Vec::new();
    for r in chosen {
        if let Ok(d) = sweep::domain(&r, &reference) {
            v.push((r, d));
        }
    }
    Ok(v)
}

/// Runs the comparison: loads the program on `machine`, runs it for the
/// requested seconds or to the first divergence.
pub fn compare(
    g: GoldenSetup,
    machine: &hw::MachineConfig,
    req: &Request,
) -> Result<Compared, Error> {
    let spots = spots(&g, req.routines)?;
    let loaded = Loaded::start(&g.image, &g.name, None, machine, b"")?;
    let segs = loaded.locate(g.profile(), &g.name)?;
    let watch = Watch::strict(g.profile().clone(), segs, baseline(&g.chosen, &g.reference))?;
    let mount = loaded.mount.clone();
    let GoldenSetup {
        chosen,
        name,
        reference,
        ..
    } = g;
    let setup = Setup {
        chosen,
        reference,
        program: name.clone(),
        mount,
    };
    let mut check = Check::new(setup, watch, 0)
        .with_spots(spots)
        .with_recent(req.recent);
    // Drive C: (a temporary folder) lives as long as the run.
    let (session, _mount) = loaded.into_parts();
    let mut p = Player::new(session);
    check.start(&mut p.session);
    p.schedule(press::events(req.presses, machine.cpu_hz, 0));
    let end = req.seconds.saturating_mul(machine.cpu_hz);
    let report = run(&mut check, &mut p, end)?;
    Ok(Compared {
        frames: check.frames(),
        clocks: check.watch().clocks().to_vec(),
        report,
    })
}

/// Runs `p` under `check` to cycle `end` or the first divergence.
fn run(check: &mut Check, p: &mut Player, end: u64) -> Result<Option<Report>, Error> {
    loop {
        match check.run_frame(p, end) {
            Checked::Diverged(r) => return Ok(Some(*r)),
            Checked::Slice(Slice::Exit(Exit::Frame)) => {}
            Checked::Slice(Slice::Exit(Exit::Limit) | Slice::ReplayEnd) => return Ok(None),
            Checked::Slice(Slice::Exit(Exit::Exited(code))) => {
                return Err(Error::EndedEarly(format!(
                    "the program exited (code {code}) after {} frames",
                    check.frames()
                )))
            }
            Checked::Slice(Slice::Exit(Exit::Stopped(why))) => return Err(Error::Stopped(why)),
            Checked::Slice(Slice::Exit(e)) => {
                return Err(Error::EndedEarly(format!("the run ended: {e:?}")))
            }
        }
    }
}
