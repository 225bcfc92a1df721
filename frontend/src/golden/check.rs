//! A lock-step check of a running program (docs/check.md): the
//! [`Watch`] over a [`Player`], frame after frame, with what a report
//! needs besides: a checkpoint (a save state) every `every` frame points
//! with the input delivered since, the [`Tape`] of what the models read,
//! spot checks of the routines not in lock-step, and at the first
//! divergence the [`Report`], whose recent instructions come from
//! replaying the last checkpoint one instruction at a time over the last
//! frame. `tandem run --check` runs it while the program plays, `tandem
//! compare` headless, and a bundle's replay from its checkpoint.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use dos::{Exit, Session};
use emu::SegReg;
use models::compare::Divergence;
use models::model::Point;
use models::profile::{Routine, Seg};
use models::sweep::{self, Program};
use models::GuestMemory;

use super::profile::{Chosen, Reference};
use super::report::{disasm_at, Report, Subject};
use super::tape::{self, Tape, TapeFrame, Taping};
use super::watch::{at_frame_point, clear_log, Watch, Writers};
use crate::app::error::Error;
use crate::input::player::{Player, Slice};
use crate::input::record::Event;

/// The instructions a report shows before the divergent frame point, by
/// default.
pub const RECENT: usize = 16;

/// A checkpoint: a save state at a frame point and the check's state
/// there (the tape up to it rebuilds the models' state).
#[derive(Clone)]
pub struct Checkpoint {
    /// The save state (`dos::state`).
    pub state: Vec<u8>,
    /// Frame points checked at it (the index of the next one).
    pub frames: u64,
    /// Video frames completed at it.
    pub video_frames: u64,
    /// Its cycle.
    pub cycle: u64,
    /// Who last wrote each slot at it.
    pub writers: Writers,
}

/// What a check compares besides the running program.
pub struct Setup {
    /// The profile.
    pub chosen: Chosen,
    /// The reference whose tables the models read.
    pub reference: Reference,
    /// The program's name (for messages).
    pub program: String,
    /// Drive C: of the run (a checkpoint restores onto it).
    pub mount: PathBuf,
}

/// How a slice of a checked run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    /// As the player's slice did (never at a frame point: the check runs
    /// on past those).
    Slice(Slice),
    /// The program diverged from the models: the report.
    Diverged(Box<Report>),
}

/// The lock-step check of a running program.
pub struct Check {
    /// What it checks against.
    pub setup: Setup,
    watch: Watch,
    /// What the check read at each frame point.
    pub tape: Tape,
    /// Frame points between checkpoints (0: none after the first).
    pub every: u64,
    /// The last checkpoint.
    pub checkpoint: Option<Checkpoint>,
    /// The report of the first divergence, once found.
    pub report: Option<Report>,
    /// Routines spot-checked at each frame point, with their domains.
    spots: Vec<(Routine, Vec<Point>)>,
    /// Instructions a report shows before the frame point.
    recent: usize,
    /// The last [`FRAME_LOG`] frame points checked: their cycle and
    /// whether they agreed (the debugger window's golden-master view).
    pub frame_log: VecDeque<(u64, bool)>,
}

/// The frame points [`Check::frame_log`] keeps.
pub const FRAME_LOG: usize = 4096;

impl Check {
    /// A check by `watch` (whose models start fresh) against `setup`,
    /// keeping a checkpoint every `every` frame points.
    pub fn new(setup: Setup, watch: Watch, every: u64) -> Check {
        Check {
            setup,
            watch,
            tape: Tape::default(),
            every,
            checkpoint: None,
            report: None,
            spots: Vec::new(),
            recent: RECENT,
            frame_log: VecDeque::new(),
        }
    }

    /// Also spot-checks these routines (with their domains) at each frame
    /// point, on a copy of the program as it stands.
    pub fn with_spots(mut self, spots: Vec<(Routine, Vec<Point>)>) -> Check {
        self.spots = spots;
        self
    }

    /// Shows `n` instructions before the frame point in a report.
    pub fn with_recent(mut self, n: usize) -> Check {
        self.recent = n;
        self
    }

    /// The watch.
    pub fn watch(&self) -> &Watch {
        &self.watch
    }

    /// Frame points checked.
    pub fn frames(&self) -> u64 {
        self.watch.frames()
    }

    /// Sets the watch's hooks on the session about to run, and reads the
    /// step immediate there.
    pub fn start(&mut self, s: &mut Session) {
        self.watch.install(&mut s.m, false);
        s.watch = Some(self.watch.service_watch());
        self.watch.read_step(&s.m);
    }

    /// Reads the step immediate as it stands in `s` (a run restored from
    /// a checkpoint: the hooks see its later writes).
    pub fn read_step(&mut self, s: &Session) {
        self.watch.read_step(&s.m);
    }

    /// Runs `p` until the next frame is complete, the cycle `limit`, the
    /// program's end or a divergence, checking every frame point on the
    /// way and keeping checkpoints.
    pub fn run_frame(&mut self, p: &mut Player, limit: u64) -> Checked {
        loop {
            let slice = p.run_frame(limit);
            if let Some(report) = self.after(p, &slice) {
                self.report = Some(report.clone());
                return Checked::Diverged(Box::new(report));
            }
            if slice != Slice::Exit(Exit::HookStop) {
                return Checked::Slice(slice);
            }
            if self.checkpoint_due() {
                if let Err(e) = self.take_checkpoint(p) {
                    log::error!("--check: {e}");
                    self.every = 0;
                }
            }
        }
    }

    /// Takes in what the hooks saw during the slice that just ended; at a
    /// frame point, checks it. Returns the report of a divergence.
    fn after(&mut self, p: &mut Player, slice: &Slice) -> Option<Report> {
        let s = &mut p.session;
        // A slice that ended at a frame's end counts it.
        let video_frame = match slice {
            Slice::Exit(Exit::Frame) => s.frames.saturating_sub(1),
            _ => s.frames,
        };
        let frame_point = self.watch.digest(s, video_frame);
        if let Some(d) = self.watch.take_stream_divergence() {
            // Mid-frame: no replay to a frame point for recent lines.
            return Some(Report::stream(&self.subject(&p.session), &d));
        }
        if !(frame_point && *slice == Slice::Exit(Exit::HookStop)) {
            return None;
        }
        let frame = self.watch.frames();
        let reads = Taping::new(&s.m);
        let (ticks, r) = self.watch.check(&reads, &self.setup.reference.placed());
        self.tape.push(ticks.irqs, ticks.advance, reads.reads());
        let cycle = p.session.m.cycles();
        let report = match r {
            Err(d) => Some(self.lock_report(&p.session, &d, p.log())),
            Ok(()) => self.spot(&p.session, frame),
        };
        self.frame_log.push_back((cycle, report.is_none()));
        if self.frame_log.len() > FRAME_LOG {
            self.frame_log.pop_front();
        }
        report
    }

    /// Whether a checkpoint is due now (just after a frame point).
    fn checkpoint_due(&self) -> bool {
        let n = self.watch.frames();
        match &self.checkpoint {
            None => true,
            Some(c) => self.every > 0 && n >= c.frames + self.every,
        }
    }

    /// Takes a checkpoint of `p` (standing at a frame point just checked)
    /// and starts its input log afresh.
    pub fn take_checkpoint(&mut self, p: &mut Player) -> Result<(), Error> {
        let s = &p.session;
        let meta = dos::state::Meta {
            tandem: env!("CARGO_PKG_VERSION").into(),
            program: self.setup.program.clone(),
            origin_cycle: s.m.cycles(),
        };
        let state = dos::state::save(&s.m, &s.dos, &meta)
            .map_err(|e| Error::Input(format!("the checkpoint's save state: {e}")))?;
        self.checkpoint = Some(Checkpoint {
            state,
            frames: self.watch.frames(),
            video_frames: s.frames,
            cycle: s.m.cycles(),
            writers: self.watch.writers().clone(),
        });
        p.start_log();
        Ok(())
    }

    /// Replays a tape of frame points into the models (a bundle's start);
    /// fails at a frame point that diverges.
    pub fn prime(&mut self, frames: &[TapeFrame]) -> Result<(), Divergence> {
        let mut played = tape::Played::default();
        for f in frames {
            played.apply(f);
            let reads = Taping::new(&played);
            let ticks = models::compare::Ticks {
                irqs: f.irqs,
                advance: f.advance,
            };
            self.watch
                .check_with(&reads, &self.setup.reference.placed(), ticks)?;
            self.tape.push(f.irqs, f.advance, reads.reads());
        }
        Ok(())
    }

    /// Sets who last wrote each slot (a bundle's start).
    pub fn set_writers(&mut self, w: Writers) {
        self.watch.set_writers(w);
    }

    /// The report of the lock-step divergence `d` found in `s`; `events`:
    /// the input since the checkpoint (for the replay that finds the
    /// recent instructions).
    fn lock_report(&self, s: &Session, d: &Divergence, events: &[Event]) -> Report {
        let recent = self
            .recent(events, d.frame)
            .unwrap_or_else(|e| vec![format!("(the replay failed: {e})")]);
        let writer = d.slot.and_then(|slot| self.watch.writer(slot));
        Report::lock(&self.subject(s), d, writer, recent)
    }

    fn subject<'a>(&'a self, s: &'a Session) -> Subject<'a> {
        Subject {
            program: &self.setup.program,
            profile: &self.setup.chosen.profile.name,
            session: s,
        }
    }

    /// Spot-checks every chosen routine on a copy of the program as it
    /// stands at frame point `frame`.
    fn spot(&self, s: &Session, frame: u64) -> Option<Report> {
        if self.spots.is_empty() {
            return None;
        }
        let mut cpu = s.m.cpu.clone();
        cpu.hooks = None;
        let segs = self.watch.segs();
        let program = Program {
            cpu: &cpu,
            mem: s.m.bus.mem.bytes(),
            segs,
        };
        for (r, domain) in &self.spots {
            let found = match sweep::spot_check(r, &program, domain, frame) {
                Ok(f) => f,
                Err(e) => {
                    log::error!("spot check of {}: {e}", r.name);
                    continue;
                }
            };
            if let Some(m) = found {
                let profile = &self.setup.chosen.profile;
                let clock = s.m.read16(segs.linear(Seg::Code, profile.code.clock));
                return Some(Report::spot(&self.subject(s), frame, clock, &r.name, &m));
            }
        }
        None
    }

    /// Replays from the checkpoint to frame point `frame` and returns the
    /// last instructions before it, disassembled.
    fn recent(&self, events: &[Event], frame: u64) -> Result<Vec<String>, Error> {
        let cp = self
            .checkpoint
            .clone()
            .ok_or_else(|| Error::Input("no checkpoint".into()))?;
        let mut p = self.restore(&cp)?;
        p.set_replay(events.to_vec());
        let ended = |other| Error::EndedEarly(format!("the replay ended: {other:?}"));
        let mut next = cp.frames;
        while next < frame {
            match p.run_frame(u64::MAX / 4) {
                Slice::Exit(Exit::HookStop) if at_frame_point(&p.session.m) => next += 1,
                Slice::Exit(Exit::HookStop | Exit::Frame) => {}
                other => return Err(ended(other)),
            }
            clear_log(&mut p.session.m);
        }
        let mut ring = VecDeque::new();
        loop {
            let m = &p.session.m;
            let (cs, ip) = (m.cpu.regs.sreg(SegReg::CS), m.cpu.regs.ip as u16);
            let line = disasm_at(m, cs, ip);
            let before = m.cycles();
            match p.run_frame(before + 1) {
                Slice::Exit(Exit::HookStop) if at_frame_point(&p.session.m) => {
                    return Ok(ring.into_iter().collect())
                }
                Slice::Exit(Exit::HookStop | Exit::Limit | Exit::Frame) => {}
                other => return Err(ended(other)),
            }
            clear_log(&mut p.session.m);
            if p.session.m.cycles() != before {
                ring.push_back(line);
                if ring.len() > self.recent {
                    ring.pop_front();
                }
            }
        }
    }

    /// A player restored from checkpoint `cp`, with the watch's hooks set.
    pub fn restore(&self, cp: &Checkpoint) -> Result<Player, Error> {
        let snap = crate::app::savestate::load_bytes(&cp.state, &self.setup.mount)?;
        let mut s = Session::new(snap.machine, snap.dos);
        s.frames = cp.video_frames;
        self.watch.install(&mut s.m, true);
        s.watch = Some(self.watch.service_watch());
        Ok(Player::new(s))
    }

    /// The status line: frames checked and divergences (and the event
    /// streams' counts).
    pub fn status(&self) -> String {
        let n = self.frames();
        let d = u8::from(self.report.is_some());
        let s = |k: u64| if k == 1 { "" } else { "s" };
        let mut t = format!("{n} frame{} checked, {d} divergence{}", s(n), s(d as u64));
        t.push_str(&super::watch::stream_status(self.watch.streams()));
        t
    }
}

/// `--check` and the options that go with it (`tandem run`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CheckArgs {
    /// Run the models in lock-step with the program (docs/check.md): a
    /// status line (the window's title; headless, one line at the end)
    /// counts the frames checked; the first divergence pauses the window
    /// (headless: ends the run, status 1), prints the report on stderr
    /// and writes a reproduction bundle for `tandem compare --bundle`.
    #[arg(long, requires = "profile", conflicts_with = "load_state")]
    pub check: bool,

    /// At the first divergence, open the visual debugger there (as
    /// `tandem debug --ui` does) instead of pausing: the machine stands
    /// at the divergent frame point with the history since the last
    /// checkpoint on the timeline, and the golden-master view holds the
    /// report.
    #[arg(long, requires = "check")]
    pub ui: bool,

    /// Do not start a browser on the `--ui` page (print its address).
    #[arg(long, requires = "ui")]
    pub no_browser: bool,

    /// The `--ui` page's local port (0: any free port).
    #[arg(long, value_name = "PORT", default_value_t = 0, requires = "ui")]
    pub ui_port: u16,

    /// The profile of `--check`: replica, replica-demo, game-retail,
    /// game-demo, or a TOML file.
    #[arg(long, value_name = "NAME", requires = "check")]
    pub profile: Option<String>,

    /// The reference program whose tables the models read in `--check`
    /// (default: the pristine built-in replica for replica profiles, else
    /// the program).
    #[arg(long, value_name = "FILE", requires = "check")]
    pub reference: Option<PathBuf>,

    /// `--check` keeps a save state every N frame points (the bundle
    /// replays from the last one).
    #[arg(long, value_name = "N", default_value_t = 70, requires = "check")]
    pub checkpoint_every: u64,

    /// Where `--check` writes the reproduction bundle (a folder)
    /// [default: tandem-check-NAME-fFRAME in the current folder].
    #[arg(long, value_name = "DIR", requires = "check")]
    pub bundle_out: Option<PathBuf>,
}

impl Check {
    /// The check of `--check` for the program `image` (named `name`) just
    /// loaded in `s` with drive C: at `mount`, its hooks set; `None`
    /// without `--check`.
    pub fn attach(
        args: &CheckArgs,
        s: &mut Session,
        name: &str,
        image: &[u8],
        mount: &Path,
    ) -> Result<Option<Check>, Error> {
        let (true, Some(profile_name)) = (args.check, &args.profile) else {
            return Ok(None);
        };
        let chosen = Chosen::open(profile_name)?;
        let config = s.m.config().clone();
        let reference = Reference::choose(
            args.reference.as_deref(),
            &chosen.profile,
            image,
            name,
            &config,
        )?;
        let segs = super::symbols::segments(&chosen.profile, image, name, s)?;
        let baseline = baseline(&chosen, &reference);
        let watch = Watch::new(chosen.profile.clone(), segs, baseline)?;
        let setup = Setup {
            chosen,
            reference,
            program: name.to_string(),
            mount: mount.to_path_buf(),
        };
        let mut c = Check::new(setup, watch, args.checkpoint_every);
        c.start(s);
        Ok(Some(c))
    }
}

/// The parameter table as the reference holds it before any frame: what
/// the slots no model drives must keep.
pub fn baseline(chosen: &Chosen, reference: &Reference) -> Vec<i16> {
    models::compare::LockStep::table(&reference.loaded.session.m, &chosen.profile, reference.segs)
}
