//! `tandem run --check`: the models in lock-step with the program while it
//! plays (docs/check.md). The program runs with the hooks `tandem compare`
//! sets (the frame point, IRQ0, the step immediate, writes to the parameter
//! table), which exist only in this mode: a run without `--check` has no
//! hooks and pays nothing. At every frame point the models check the
//! table; every `--checkpoint-every` frame points a save state is kept in
//! memory with the input from then on. At the first divergence the report
//! is built (the recent instructions by replaying from the checkpoint, one
//! instruction at a time over the last frame) and a reproduction bundle is
//! written ([`bundle`]).

pub mod bundle;
pub mod report;
pub mod tape;

use std::path::PathBuf;

use dos::{Exit, Session};
use emu::{ExecAt, HookAction, HookEvent, HookKind};
use hw::Machine;
use models::compare::{Divergence, LockStep};
use models::{GuestMemory, Placement, Profile};
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::play::player::Player;
use crate::play::record::Event;
use crate::session::Loaded;
use report::Report;
use tape::{Tape, Taping};

/// The instructions a report shows before the divergent frame point.
pub const RECENT: usize = 16;

/// The instruction that last wrote a parameter slot.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Writer {
    /// CS of the instruction.
    pub cs: u16,
    /// IP of the instruction.
    pub ip: u16,
    /// The CPU cycle at its start.
    pub cycle: u64,
    /// The frame point it ran before (the checker's frame count then).
    pub frame: u64,
    /// Video frames completed when it ran.
    pub video_frame: u64,
}

/// A checkpoint: a save state at a frame point and the checker's state
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
    pub writers: Vec<Option<Writer>>,
}

/// What a check needs besides the running program: the profile, the
/// reference whose tables the models read, where things are.
pub struct Setup {
    /// The profile.
    pub profile: Profile,
    /// How the profile was named: a built-in name or a TOML file's text.
    pub profile_source: ProfileSource,
    /// The reference program's bytes.
    pub reference_image: Vec<u8>,
    /// The reference, loaded.
    pub reference: Loaded,
    /// Where the reference is.
    pub ref_at: Placement,
    /// Where the running program is.
    pub at: Placement,
    /// The program's name (for messages).
    pub program: String,
    /// Drive C: of the run (a save state restores onto it).
    pub mount: PathBuf,
}

/// A profile as the user named it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum ProfileSource {
    /// A built-in profile.
    Builtin(String),
    /// A TOML file's text.
    Toml(String),
}

/// The lock-step checker of a running program.
pub struct Checker {
    /// What it checks against.
    pub setup: Setup,
    lock: LockStep,
    table: u32,
    step_addr: Option<u32>,
    step: u16,
    irqs: u64,
    advance: u16,
    writers: Vec<Option<Writer>>,
    /// What the checker read at each frame point.
    pub tape: Tape,
    /// Frame points between checkpoints (0: none after the first).
    pub every: u64,
    /// The last checkpoint.
    pub checkpoint: Option<Checkpoint>,
    /// The report of the first divergence, once found.
    pub report: Option<Report>,
    /// Where the bundle goes (`None`: the default name).
    pub bundle_out: Option<PathBuf>,
    /// Where the bundle went.
    pub bundle_written: Option<PathBuf>,
}

impl Checker {
    /// A checker whose models start fresh (at the program's start).
    pub fn new(setup: Setup, every: u64, bundle_out: Option<PathBuf>) -> Checker {
        let baseline = LockStep::table(&setup.reference.session.m, &setup.profile, setup.ref_at);
        let lock = LockStep::new(setup.profile.clone(), baseline);
        let table = setup.at.data(setup.profile.data.params);
        let step_addr = setup.profile.code.step_imm.map(|o| setup.at.code(o));
        Checker {
            setup,
            lock,
            table,
            step_addr,
            step: 1,
            irqs: 0,
            advance: 0,
            writers: vec![None; 256],
            tape: Tape::default(),
            every,
            checkpoint: None,
            report: None,
            bundle_out,
            bundle_written: None,
        }
    }

    /// Frame points checked.
    pub fn frames(&self) -> u64 {
        self.lock.frames()
    }

    /// The linear address of the frame point.
    fn frame_linear(&self) -> Result<u32, Error> {
        let frame = self.setup.profile.code.frame_update.ok_or_else(|| {
            Error::Input(format!(
                "profile {} does not say where the per-frame update is",
                self.setup.profile.name
            ))
        })?;
        Ok(self.setup.at.code(frame))
    }

    /// Sets the check's hooks on `m` (the same in the run, its replays and
    /// a bundle's, so that all run alike). `resume`: `m` stands at the
    /// frame point already (a restored checkpoint), which must not stop it
    /// again.
    pub fn install(&self, m: &mut Machine, resume: bool) -> Result<(), Error> {
        let frame = self.frame_linear()?;
        let h = m.cpu.hooks_mut();
        h.clear();
        lock_step_hooks(h, ExecAt::Linear(frame), self.step_addr, self.table);
        if resume {
            h.resume_at = Some(frame);
        }
        Ok(())
    }

    /// Reads the step immediate as it stands in `m` (at the start of a
    /// checked run: the hooks see its later writes).
    pub fn read_step(&mut self, m: &Machine) {
        self.step = self.step_addr.map(|a| m.read16(a)).unwrap_or(1);
    }

    /// Replays a tape of frame points into the models (a bundle's start);
    /// fails at a frame point that diverges.
    pub fn prime(&mut self, frames: &[tape::TapeFrame]) -> Result<(), String> {
        let mut played = tape::Played::default();
        for f in frames {
            played.apply(f);
            let reads = Taping::new(&played);
            let s = &self.setup;
            let r = self.lock.check(
                &reads,
                s.at,
                &s.reference.session.m,
                s.ref_at,
                f.irqs,
                f.advance,
            );
            if let Err(d) = r {
                return Err(format!(
                    "the tape diverges at frame {}: {}",
                    d.frame, d.what
                ));
            }
            self.tape.push(f.irqs, f.advance, reads.reads());
        }
        Ok(())
    }

    /// Sets who last wrote each slot (a bundle's start).
    pub fn set_writers(&mut self, w: Vec<Option<Writer>>) {
        self.writers = w;
    }

    /// Takes in what the hooks saw during the slice that just ended with
    /// `exit`; at a frame point, checks it. Returns the divergence, if any.
    pub fn after(&mut self, s: &mut Session, exit: &Exit) -> Option<Divergence> {
        let log =
            s.m.cpu
                .hooks
                .as_mut()
                .map(|h| std::mem::take(&mut h.log))
                .unwrap_or_default();
        let mut frame_point = false;
        for r in &log {
            match r.event {
                HookEvent::Interrupt { vector: 8, .. } => {
                    self.irqs += 1;
                    self.advance = self.advance.wrapping_add(self.step);
                }
                HookEvent::MemWrite { linear, size, .. } => {
                    if (self.table..self.table + 512).contains(&linear) {
                        // A slice that ended at a frame's end counts it.
                        let vf = match exit {
                            Exit::Frame => s.frames.saturating_sub(1),
                            _ => s.frames,
                        };
                        self.wrote(linear, size, r, vf);
                    } else if let Some(a) = self.step_addr {
                        self.step = s.m.read16(a);
                    }
                }
                HookEvent::Exec { .. } => frame_point = true,
                _ => {}
            }
        }
        if !(frame_point && matches!(exit, Exit::HookStop)) {
            return None;
        }
        let reads = Taping::new(&s.m);
        let st = &self.setup;
        let r = self.lock.check(
            &reads,
            st.at,
            &st.reference.session.m,
            st.ref_at,
            self.irqs,
            self.advance,
        );
        self.tape.push(self.irqs, self.advance, reads.reads());
        self.irqs = 0;
        self.advance = 0;
        r.err()
    }

    fn wrote(&mut self, linear: u32, size: u8, r: &emu::HookRecord, video_frame: u64) {
        for b in 0..size as u32 {
            let slot = (linear + b - self.table) / 2;
            if let Some(w) = self.writers.get_mut(slot as usize) {
                *w = Some(Writer {
                    cs: r.cs,
                    ip: r.ip,
                    cycle: r.cycle,
                    frame: self.lock.frames(),
                    video_frame,
                });
            }
        }
    }

    /// Whether a checkpoint is due now (just after frame point `frames-1`).
    pub fn checkpoint_due(&self) -> bool {
        let n = self.lock.frames();
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
            frames: self.lock.frames(),
            video_frames: s.frames,
            cycle: s.m.cycles(),
            writers: self.writers.clone(),
        });
        p.start_log();
        Ok(())
    }

    /// The report of divergence `d` found in `s`; `events`: the input
    /// since the checkpoint (for the replay that finds the recent
    /// instructions).
    pub fn report(&self, s: &Session, d: &Divergence, events: &[Event]) -> Report {
        let recent = self
            .recent(events, d.frame, RECENT)
            .unwrap_or_else(|e| vec![format!("(the replay failed: {e})")]);
        let writer = d
            .slot
            .and_then(|slot| self.writers.get(slot as usize).copied().flatten());
        Report::new(&self.setup, s, d, writer, recent)
    }

    /// Replays from the checkpoint to frame point `frame` and returns the
    /// last `n` instructions before it, disassembled.
    fn recent(&self, events: &[Event], frame: u64, n: usize) -> Result<Vec<String>, Error> {
        let cp = self
            .checkpoint
            .clone()
            .ok_or_else(|| Error::Input("no checkpoint".into()))?;
        let mut p = self.restore(&cp)?;
        p.set_replay(events.to_vec());
        let mut next = cp.frames;
        while next < frame {
            match p.run_frame(u64::MAX / 4) {
                Exit::HookStop if at_frame_point(&p.session.m) => next += 1,
                Exit::HookStop | Exit::Frame => {}
                other => return Err(Error::EndedEarly(format!("the replay ended: {other:?}"))),
            }
            clear_log(&mut p.session.m);
        }
        let mut ring = std::collections::VecDeque::new();
        loop {
            let m = &p.session.m;
            let (cs, ip) = (m.cpu.regs.seg[1], m.cpu.regs.ip as u16);
            let line = report::disasm_at(m, cs, ip);
            let before = m.cycles();
            let now = before;
            match p.run_frame(now + 1) {
                Exit::HookStop if at_frame_point(&p.session.m) => {
                    return Ok(ring.into_iter().collect())
                }
                Exit::HookStop | Exit::Limit | Exit::Frame => {}
                other => return Err(Error::EndedEarly(format!("the replay ended: {other:?}"))),
            }
            clear_log(&mut p.session.m);
            if p.session.m.cycles() != before {
                ring.push_back(line);
                if ring.len() > n {
                    ring.pop_front();
                }
            }
        }
    }

    /// A player restored from checkpoint `cp`, with the check's hooks set.
    pub fn restore(&self, cp: &Checkpoint) -> Result<Player, Error> {
        let snap = crate::savestate::load_bytes(&cp.state, &self.setup.mount)?;
        let mut s = Session::new(snap.machine, snap.dos);
        s.frames = cp.video_frames;
        self.install(&mut s.m, true)?;
        Ok(Player::new(s))
    }
}

impl Checker {
    /// The status line: frames checked and divergences.
    pub fn status(&self) -> String {
        let n = self.frames();
        let d = u8::from(self.report.is_some());
        let s = |k: u64| if k == 1 { "" } else { "s" };
        format!("{n} frame{} checked, {d} divergence{}", s(n), s(d as u64))
    }

    /// At divergence `d` of the running `p`: builds the report, prints it
    /// on stderr and writes the bundle (saying where).
    pub fn diverged(&mut self, p: &mut Player, d: &Divergence) {
        let events = p.log().to_vec();
        let report = self.report(&p.session, d, &events);
        for l in report.lines() {
            eprintln!("tandem run: check: {l}");
        }
        let dir = self
            .bundle_out
            .clone()
            .unwrap_or_else(|| bundle::default_path(&self.setup.program, d.frame));
        match bundle::write(self, &report, &events, p.session.m.config(), &dir) {
            Ok(()) => {
                let dir = dir.canonicalize().unwrap_or(dir);
                eprintln!(
                    "tandem run: check: reproduction bundle written to {} (replay: tandem compare --bundle {})",
                    dir.display(),
                    dir.display()
                );
                self.bundle_written = Some(dir);
            }
            Err(e) => eprintln!("tandem run: error: --check: the bundle: {e}"),
        }
        self.report = Some(report);
    }
}

/// Whether the run stopped at the frame point (the only stopping hook).
fn at_frame_point(m: &Machine) -> bool {
    m.cpu.hooks.as_ref().is_some_and(|h| {
        h.stopped
            .is_some_and(|r| matches!(r.event, HookEvent::Exec { .. }))
    })
}

fn clear_log(m: &mut Machine) {
    if let Some(h) = m.cpu.hooks.as_mut() {
        h.log.clear();
    }
}

/// The hooks of a lock-step check, shared by `run --check` and `compare`:
/// stop at the frame point; record IRQ0 (INT 08h), writes to the step
/// immediate at `step` and to the 256-word parameter table at `table`
/// (who last wrote each slot).
pub(crate) fn lock_step_hooks(h: &mut emu::Hooks, frame: ExecAt, step: Option<u32>, table: u32) {
    h.add(HookKind::Exec(frame), HookAction::Stop);
    h.add(
        HookKind::Interrupt {
            vector: 8,
            ah: None,
        },
        HookAction::Record,
    );
    if let Some(a) = step {
        h.add(
            HookKind::MemWrite {
                start: a,
                end: a + 1,
            },
            HookAction::Record,
        );
    }
    h.add(
        HookKind::MemWrite {
            start: table,
            end: table + 511,
        },
        HookAction::Record,
    );
}
