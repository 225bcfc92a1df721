//! The lock-step check inside the debugger (`tandem debug --ui
//! --profile`): the same [`Watch`] as `run --check` and `compare`, fed
//! by the debugger's observer hook ([`crate::debug::observer`]) the first
//! time the program runs through each stretch, so that stepping and
//! running show each frame point's verdict and stop at the first
//! divergence with its report.

use std::collections::VecDeque;

use dos::Session;
use emu::{HookRecord, Hooks};

use super::check::{baseline, FRAME_LOG};
use super::profile::{Chosen, Reference};
use super::report::{Report, Subject};
use super::watch::Watch;
use crate::app::error::Error;
use crate::debug::observer::Observer;

/// The lock-step check of a program in the debugger.
pub struct Live {
    watch: Watch,
    reference: Reference,
    chosen: Chosen,
    program: String,
    /// The frame points checked (their cycle and whether they agreed),
    /// the last [`FRAME_LOG`].
    pub frames: VecDeque<(u64, bool)>,
    /// All frame points checked.
    pub checked: u64,
    /// The first divergence's report.
    pub report: Option<Report>,
    /// Why the check stopped watching, when it did before a divergence.
    pub off: Option<String>,
}

impl Live {
    /// The check of the program `image` (named `name`) standing at its
    /// entry in `s`, by the profile `chosen`, against its reference (the
    /// built-in replica for replica profiles, else the program itself).
    pub fn new(chosen: Chosen, image: &[u8], name: &str, s: &mut Session) -> Result<Live, Error> {
        let config = s.m.config().clone();
        let reference = Reference::choose(None, &chosen.profile, image, name, &config)?;
        let segs = super::symbols::segments(&chosen.profile, image, name, s)?;
        let mut watch = Watch::new(chosen.profile.clone(), segs, baseline(&chosen, &reference))?;
        watch.read_step(&s.m);
        s.watch = Some(watch.service_watch());
        Ok(Live {
            watch,
            reference,
            chosen,
            program: name.to_string(),
            frames: VecDeque::new(),
            checked: 0,
            report: None,
            off: None,
        })
    }

    /// The status line: frame points checked and divergences.
    pub fn status(&self) -> String {
        let n = self.checked;
        let d = u8::from(self.report.is_some());
        let s = |k: u64| if k == 1 { "" } else { "s" };
        let mut t = format!(
            "{n} frame point{} checked, {d} divergence{}",
            s(n),
            s(d as u64)
        );
        t.push_str(&super::watch::stream_status(self.watch.streams()));
        if let Some(why) = &self.off {
            t.push_str(&format!("; not checking: {why}"));
        }
        t
    }

    /// Checks the frame point `s` stands at; a divergence's first line.
    fn check(&mut self, s: &Session) -> Option<String> {
        let (_, r) = self.watch.check(&s.m, &self.reference.placed());
        let cycle = s.m.cycles();
        self.checked += 1;
        self.frames.push_back((cycle, r.is_ok()));
        if self.frames.len() > FRAME_LOG {
            self.frames.pop_front();
        }
        let d = r.err()?;
        let writer = d.slot.and_then(|slot| self.watch.writer(slot));
        let subject = Subject {
            program: &self.program,
            profile: &self.chosen.profile.name,
            session: s,
        };
        let mut report = Report::lock(&subject, &d, writer, Vec::new());
        // The debugger steps without counting frames: the VGA's count.
        report.video_frame = s.m.bus.dev.vga.frames();
        let first = report.lines().first().cloned().unwrap_or_default();
        self.report = Some(report);
        Some(first)
    }
}

impl Observer for Live {
    fn hooks(&self, h: &mut Hooks) {
        self.watch.add_hooks(h);
    }

    fn seen(&mut self, core: &mut Session, log: Vec<HookRecord>, at_stop: bool) -> Option<String> {
        if self.report.is_some() || self.off.is_some() {
            return None;
        }
        // A restored checkpoint is a new session: watch its services again.
        if core.watch.is_none() {
            core.watch = Some(self.watch.service_watch());
        }
        let video_frame = core.m.bus.dev.vga.frames();
        let frame_point = self.watch.digest_log(&log, core, video_frame);
        if let Some(d) = self.watch.take_stream_divergence() {
            let subject = Subject {
                program: &self.program,
                profile: &self.chosen.profile.name,
                session: core,
            };
            let mut report = Report::stream(&subject, &d);
            report.video_frame = video_frame;
            let first = report.lines().first().cloned().unwrap_or_default();
            self.report = Some(report);
            return Some(first);
        }
        if !(at_stop && frame_point) {
            return None;
        }
        self.check(core)
    }

    fn forked(&mut self, cycle: u64) {
        if self.off.is_none() && self.report.is_none() {
            self.off = Some(format!(
                "the machine was changed at cycle {cycle}, before frame points already checked"
            ));
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::app::options::{DosOpts, MachineOpts};
    use crate::debug::engine::{Debugger, Stop};
    use crate::debug::{start, Start};

    fn replica() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../roms/replica/replica.exe")
    }

    /// The debugger on `program` (a 386, history kept) with the replica
    /// profile's lock-step check as its observer.
    fn debugger(program: &Path) -> Debugger {
        let machine = MachineOpts {
            cpu: Some(emu::CpuModel::I386),
            ..MachineOpts::default()
        };
        let dos = DosOpts {
            mount: program.parent().map(Path::to_path_buf),
            no_xms: false,
            no_ems: false,
            disk_quota: dos::quota::DEFAULT_QUOTA >> 20,
            cdrom: Vec::new(),
            cdrom_dir: Vec::new(),
        };
        let mut d = start(&Start {
            program,
            args: &[],
            machine: &machine,
            dos: &dos,
            load_state: None,
            history_mib: 256,
        })
        .expect("the debugger starts");
        let image = std::fs::read(program).expect("the program");
        let chosen = Chosen::open("replica").expect("the profile");
        let live = Live::new(chosen, &image, "REPLICA.EXE", &mut d.core).expect("the check");
        d.observer = Some(Box::new(live));
        d
    }

    fn live(d: &Debugger) -> &Live {
        d.observer
            .as_ref()
            .and_then(|o| o.as_any().downcast_ref::<Live>())
            .expect("the observer is the check")
    }

    #[test]
    fn the_replica_agrees_and_a_replay_is_not_checked_twice() {
        let mut d = debugger(&replica());
        let second = d.core.m.config().cpu_hz;
        assert!(matches!(d.cont(second), Stop::Limit));
        let (n, end) = (live(&d).checked, d.core.m.cycles());
        assert!(n > 50, "{}", live(&d).status());
        assert!(live(&d).frames.iter().all(|&(_, ok)| ok));
        // Back to the middle and forwards to the same cycle: nothing new.
        d.goto(end / 2).expect("goto");
        assert!(matches!(d.cont(end - d.core.m.cycles()), Stop::Limit));
        assert_eq!(
            live(&d).checked,
            n,
            "the replayed stretch was checked again"
        );
        // Past it: checked on.
        assert!(matches!(d.cont(second / 4), Stop::Limit));
        assert!(live(&d).checked > n);
        assert!(live(&d).report.is_none(), "{}", live(&d).status());
    }

    #[test]
    fn a_mutant_stops_at_its_slot_with_the_writer() {
        let dir = std::env::temp_dir().join(format!("tandem-live-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let mut b = std::fs::read(replica()).expect("replica");
        // Band 2's amplitude (136) made 120 (cli_check's mutant).
        b[0x20 + 0xDB6A + 2] = 120;
        let p = dir.join("AMP.EXE");
        std::fs::write(&p, b).expect("mutant");
        let mut d = debugger(&p);
        let stop = d.cont(10 * d.core.m.config().cpu_hz);
        let _ = std::fs::remove_dir_all(&dir);
        let Stop::Diverged(what) = stop else {
            panic!("no divergence: {stop:?}");
        };
        let r = live(&d).report.clone().expect("a report");
        assert_eq!(r.slot, Some(11), "{what}");
        let w = r.written_by.expect("a writer");
        assert!(w.instruction.contains(":DB64"), "{}", w.instruction);
        assert_eq!(d.cs_ip().1, 0xB0CE, "stopped at the frame point");
    }
}
