//! The lock-step watch: what `compare`, `run --check` and a bundle's
//! replay see of a running program. It sets the hooks (a stop at the
//! profile's frame point; records of IRQ0, of writes to the step
//! immediate and of writes to the parameter table), digests the hook log
//! after each slice of the run (IRQ0s and the step immediates they added,
//! who last wrote each slot), and at each frame point has the models
//! ([`LockStep`]) check the program's clock and parameter table.

use dos::{ServiceWatch, ServiceWrite, Session};
use emu::{ExecAt, HookAction, HookEvent, HookKind, HookRecord, Hooks};
use hw::Machine;
use models::compare::{Divergence, LockStep, Ticks};
use models::profile::{PARAM_SLOTS, PARAM_TABLE_BYTES};
use models::stream::{StreamMismatch, StreamWatch};
use models::{GuestMemory, Placed, Profile, Segments};
use serde::{Deserialize, Serialize};

use crate::app::error::Error;

/// The instruction that last wrote a parameter slot.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Writer {
    /// CS of the instruction.
    pub cs: u16,
    /// IP of the instruction.
    pub ip: u16,
    /// The CPU cycle at its start.
    pub cycle: u64,
    /// The frame point it ran before (the watch's frame count then).
    pub frame: u64,
    /// Video frames completed when it ran.
    pub video_frame: u64,
    /// A BIOS or DOS service wrote it (then CS:IP is where the service
    /// returns to), not an instruction.
    #[serde(default)]
    pub service: Option<Service>,
}

/// A BIOS or DOS service call, as a writer.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Service {
    /// Its trap's interrupt vector (None: a BIOS subroutine).
    pub vector: Option<u8>,
    /// AX when it was called.
    pub ax: u16,
}

/// Who last wrote each slot of the parameter table ([`PARAM_SLOTS`]).
pub type Writers = Vec<Option<Writer>>;

/// The lock-step watch of one running program.
#[derive(Clone, Debug)]
pub struct Watch {
    lock: LockStep,
    /// Where the running program is.
    segs: Segments,
    /// The linear address of the frame point.
    frame_point: u32,
    /// The linear address of the parameter table.
    table: u32,
    /// The linear address of the step immediate, if the profile has one.
    step_addr: Option<u32>,
    /// The step immediate's value now.
    step: u16,
    /// What IRQ0 did since the last frame point.
    ticks: Ticks,
    writers: Writers,
    /// The event-stream routines, checked call by call.
    streams: Vec<StreamWatch>,
    /// A stream's first disagreement, not yet taken.
    stream_divergence: Option<Divergence>,
    /// The linear address of the clock word (for a stream's report).
    clock: u32,
}

impl Watch {
    /// A watch of the program at `segs` described by `profile`, whose models
    /// start from `baseline` (the reference's parameter table before any
    /// frame). A profile without a frame point cannot be watched.
    pub fn new(profile: Profile, segs: Segments, baseline: Vec<i16>) -> Result<Watch, Error> {
        let lock = LockStep::new(profile.clone(), baseline);
        Watch::with(lock, &profile, segs)
    }

    /// As [`Watch::new`], but a routine section whose symbols the profile
    /// lacks is an error naming the routine and the symbol (`compare`).
    pub fn strict(profile: Profile, segs: Segments, baseline: Vec<i16>) -> Result<Watch, Error> {
        let lock = LockStep::try_new(profile.clone(), baseline)?;
        Watch::with(lock, &profile, segs)
    }

    fn with(lock: LockStep, profile: &Profile, segs: Segments) -> Result<Watch, Error> {
        let frame = profile.code.frame_update.ok_or_else(|| {
            Error::Input(format!(
                "profile {} does not say where the per-frame update is",
                profile.name
            ))
        })?;
        let table = segs.data(profile.data.params);
        let step_addr = profile.code.step_imm.map(|o| segs.code(o));
        let streams = profile
            .routine_names()
            .iter()
            .filter_map(|n| profile.routine(n).ok())
            .filter_map(|r| StreamWatch::new(r, segs))
            .collect();
        Ok(Watch {
            streams,
            stream_divergence: None,
            clock: segs.code(profile.code.clock),
            frame_point: segs.code(frame),
            table,
            step_addr,
            step: 1,
            ticks: Ticks::default(),
            writers: vec![None; PARAM_SLOTS],
            segs,
            lock,
        })
    }

    /// Where the running program is.
    pub fn segs(&self) -> Segments {
        self.segs
    }

    /// Frame points checked.
    pub fn frames(&self) -> u64 {
        self.lock.frames()
    }

    /// The clocks of the first frame points checked.
    pub fn clocks(&self) -> &[u16] {
        self.lock.clocks()
    }

    /// Who last wrote each slot.
    pub fn writers(&self) -> &Writers {
        &self.writers
    }

    /// Sets who last wrote each slot (a bundle's start).
    pub fn set_writers(&mut self, w: Writers) {
        self.writers = w;
    }

    /// The writer of slot `slot`, if any instruction wrote it.
    pub fn writer(&self, slot: u8) -> Option<Writer> {
        self.writers.get(slot as usize).copied().flatten()
    }

    /// Sets the watch's hooks on `m` (the same in a run, its replays and a
    /// bundle's, so that all run alike). `resume`: `m` stands at the frame
    /// point already (a restored checkpoint), which must not stop it again.
    pub fn install(&self, m: &mut Machine, resume: bool) {
        let h = m.cpu.hooks_mut();
        h.clear();
        self.add_hooks(h);
        if resume {
            h.resume_at = Some(self.frame_point);
        }
    }

    /// Adds the watch's hooks to `h` (after any others).
    pub fn add_hooks(&self, h: &mut Hooks) {
        h.add(
            HookKind::Exec(ExecAt::Linear(self.frame_point)),
            HookAction::Stop,
        );
        let irq0 = HookKind::Interrupt {
            vector: 8,
            ah: None,
        };
        h.add(irq0, HookAction::Record);
        if let Some(a) = self.step_addr {
            let imm = HookKind::MemWrite {
                start: a,
                end: a + 1,
            };
            h.add(imm, HookAction::Record);
        }
        let table = HookKind::MemWrite {
            start: self.table,
            end: self.table + PARAM_TABLE_BYTES - 1,
        };
        h.add(table, HookAction::Record);
        for s in &self.streams {
            h.add(HookKind::Exec(ExecAt::Linear(s.entry)), HookAction::Stop);
            h.add(HookKind::Exec(ExecAt::Linear(s.point)), HookAction::Stop);
        }
    }

    /// The event-stream routines' watches (their counts).
    pub fn streams(&self) -> &[StreamWatch] {
        &self.streams
    }

    /// The first disagreement of an event stream found since the last
    /// call, as a divergence (no slot; the clock of the moment).
    pub fn take_stream_divergence(&mut self) -> Option<Divergence> {
        self.stream_divergence.take()
    }

    /// Takes in a stream's mismatch (the first only).
    fn stream_wrong(&mut self, m: StreamMismatch, m_clock: u16) {
        if self.stream_divergence.is_some() {
            return;
        }
        let (expected, actual) = m.mismatch.values();
        self.stream_divergence = Some(Divergence {
            frame: self.lock.frames(),
            clock: m_clock,
            slot: None,
            expected,
            actual,
            what: m.what(),
        });
    }

    /// The CPU stands at `linear`, an execution hook of the watch: the
    /// frame point (true), or a stream's entry or event point.
    fn exec_at(&mut self, linear: u32, m: &Machine) -> bool {
        let clock = m.read16(self.clock);
        if linear == self.frame_point {
            let short: Vec<StreamMismatch> =
                self.streams.iter_mut().filter_map(|s| s.close()).collect();
            for x in short {
                self.stream_wrong(x, clock);
            }
            return true;
        }
        let mut found = None;
        for s in &mut self.streams {
            if linear == s.entry {
                found = s.entered(&m.cpu, m);
            } else if linear == s.point {
                found = s.hit(&m.cpu, m);
            }
            if found.is_some() {
                break;
            }
        }
        if let Some(x) = found {
            self.stream_wrong(x, clock);
        }
        false
    }

    /// The watch of the BIOS and DOS services' writes to the parameter
    /// table (they run on the host, where the hooks do not see them): the
    /// session's, taken in by [`Watch::digest`] with the hook log, the
    /// same two sources the debugger's history queries read.
    pub fn service_watch(&self) -> ServiceWatch {
        ServiceWatch::new(self.table, PARAM_TABLE_BYTES)
    }

    /// Reads the step immediate as it stands in `m` (at the start of a
    /// watched run: the hooks see its later writes).
    pub fn read_step(&mut self, m: &Machine) {
        self.step = self.step_addr.map(|a| m.read16(a)).unwrap_or(1);
    }

    /// Takes in the hook log of the slice that just ran on `m`;
    /// `video_frame` is the video frame the slice's writes belong to.
    /// Returns whether the slice reached the frame point.
    pub fn digest(&mut self, s: &mut Session, video_frame: u64) -> bool {
        let log =
            s.m.cpu
                .hooks
                .as_mut()
                .map(|h| std::mem::take(&mut h.log))
                .unwrap_or_default();
        self.digest_log(&log, s, video_frame)
    }

    /// As [`Watch::digest`] for records taken from the hook log already
    /// (the debugger's, whose log holds its breakpoints' records too):
    /// each is one of the watch's hooks, in order.
    pub fn digest_log(&mut self, log: &[HookRecord], s: &mut Session, video_frame: u64) -> bool {
        let m = &mut s.m;
        let services = s
            .watch
            .as_mut()
            .map(|w| std::mem::take(&mut w.writes))
            .unwrap_or_default();
        let mut services = services.into_iter().peekable();
        let mut frame_point = false;
        for r in log {
            // The services' writes in order with the instructions'.
            while let Some(w) = services.next_if(|w| w.cycle <= r.cycle) {
                self.service_wrote(&w, video_frame);
            }
            match r.event {
                HookEvent::Interrupt { vector: 8, .. } => {
                    self.ticks.irqs += 1;
                    self.ticks.advance = self.ticks.advance.wrapping_add(self.step);
                }
                HookEvent::MemWrite { linear, size, .. } => {
                    if (self.table..self.table + PARAM_TABLE_BYTES).contains(&linear) {
                        self.wrote(linear, size, r, video_frame);
                    } else if let Some(a) = self.step_addr {
                        self.step = m.read16(a);
                    }
                }
                HookEvent::Exec { linear, .. } => frame_point |= self.exec_at(linear, m),
                _ => {}
            }
        }
        for w in services {
            self.service_wrote(&w, video_frame);
        }
        frame_point
    }

    /// A service call changed bytes of the table: it is their writer.
    fn service_wrote(&mut self, w: &ServiceWrite, video_frame: u64) {
        let frame = self.lock.frames();
        let vector = match dos::rom::decode(w.trap) {
            Some(dos::rom::Trap::Vector(v)) => Some(v),
            _ => None,
        };
        for (i, (a, b)) in w.old.iter().zip(&w.new).enumerate() {
            if a == b {
                continue;
            }
            if let Some(slot) = self.writers.get_mut(i / 2) {
                *slot = Some(Writer {
                    cs: w.caller.0,
                    ip: w.caller.1,
                    cycle: w.cycle,
                    frame,
                    video_frame,
                    service: Some(Service { vector, ax: w.ax }),
                });
            }
        }
    }

    fn wrote(&mut self, linear: u32, size: u8, r: &HookRecord, video_frame: u64) {
        let frame = self.lock.frames();
        for b in 0..size as u32 {
            let slot = (linear + b - self.table) / 2;
            if let Some(w) = self.writers.get_mut(slot as usize) {
                *w = Some(Writer {
                    cs: r.cs,
                    ip: r.ip,
                    cycle: r.cycle,
                    frame,
                    video_frame,
                    service: None,
                });
            }
        }
    }

    /// Checks the frame point the program stands at: its memory `program`
    /// (the machine, or a reader that tapes what is read) against the
    /// models reading `reference`. Returns what IRQ0 did since the frame
    /// point before, and the divergence if there is one.
    pub fn check<P, R>(
        &mut self,
        program: &P,
        reference: &Placed<R>,
    ) -> (Ticks, Result<(), Divergence>)
    where
        P: GuestMemory + ?Sized,
        R: GuestMemory + ?Sized,
    {
        let ticks = std::mem::take(&mut self.ticks);
        (ticks, self.check_with(program, reference, ticks))
    }

    /// Checks a frame point with the given ticks (a tape's).
    pub fn check_with<P, R>(
        &mut self,
        program: &P,
        reference: &Placed<R>,
        ticks: Ticks,
    ) -> Result<(), Divergence>
    where
        P: GuestMemory + ?Sized,
        R: GuestMemory + ?Sized,
    {
        let program = Placed {
            mem: program,
            segs: self.segs,
        };
        self.lock.check(&program, reference, ticks)
    }
}

/// The event streams' counts for a status line (`; draw: 4,560 events
/// in 600 calls, 4,230 exact, 4,560 within tolerance`), or nothing.
pub fn stream_status(streams: &[StreamWatch]) -> String {
    streams
        .iter()
        .map(|s| {
            let c = s.counts;
            format!(
                "; {}: {} events in {} calls, {} exact, {} within tolerance",
                s.routine.name, c.compared, s.calls, c.exact, c.within
            )
        })
        .collect()
}

/// Whether `m`'s run stopped at the watch's frame point (its only
/// stopping hook).
pub fn at_frame_point(m: &Machine) -> bool {
    m.cpu.hooks.as_ref().is_some_and(|h| {
        h.stopped
            .is_some_and(|r| matches!(r.event, HookEvent::Exec { .. }))
    })
}

/// Drops what the hooks logged (a replay that only needs the stops).
pub fn clear_log(m: &mut Machine) {
    if let Some(h) = m.cpu.hooks.as_mut() {
        h.log.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::builtin;
    use crate::app::program::Loaded;

    /// A service call that changed a slot of the table (a file read into
    /// it, say) is that slot's writer, in order with the instructions'.
    #[test]
    fn a_service_that_writes_the_table_is_its_writer() {
        let profile = Profile::builtin("replica").expect("the replica's profile");
        let machine = hw::MachineConfig::with_cpu(emu::CpuModel::I386, 33_000_000);
        let loaded = Loaded::start(builtin::REPLICA, "replica", None, &machine, b"")
            .expect("the replica loads");
        let segs = loaded.locate(&profile, "replica").expect("segments");
        let mut w = Watch::new(profile, segs, vec![0; PARAM_SLOTS]).expect("a watch");
        let (mut s, _mount) = loaded.into_parts();
        w.install(&mut s.m, false);
        let mut sw = w.service_watch();
        let (old, mut new) = (vec![0u8; PARAM_TABLE_BYTES as usize], vec![0u8; 64]);
        new.truncate(PARAM_TABLE_BYTES as usize);
        new[5] = 0x12;
        sw.writes.push(ServiceWrite {
            cycle: 1000,
            frame: 3,
            trap: 0xF0000 + dos::rom::VEC_BASE as u32 + 0x21,
            ax: 0x3F00,
            caller: (0x1234, 0x0102),
            old,
            new,
        });
        s.watch = Some(sw);
        w.digest(&mut s, 3);
        let by = w.writer(2).expect("slot 2 has a writer");
        assert_eq!((by.cs, by.ip, by.cycle), (0x1234, 0x0102, 1000));
        assert_eq!(
            by.service,
            Some(Service {
                vector: Some(0x21),
                ax: 0x3F00
            })
        );
        assert_eq!(w.writer(1), None, "slot 1 did not change");
    }
}
