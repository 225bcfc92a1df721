//! A running program: the machine, DOS, and the input that reaches them at
//! chosen emulated cycles. Shared by the headless run and the window, so
//! both step the same way and a frame means the same moment in each.

use std::collections::VecDeque;
use std::io::Write;

use dos::{Dos, Flow};
use hw::kbc::Key;
use hw::{Machine, RunExit};

use super::record::{Event, Input, Recorder};

/// How a call to [`Session::run_frame`] ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A frame is complete (vertical retrace began).
    Frame,
    /// The cycle limit was reached.
    Limit,
    /// A replayed record ended here.
    ReplayEnd,
    /// The program terminated with this code.
    Exited(u8),
    /// The emulation cannot go on (the message says why).
    Stopped(String),
}

/// The machine, DOS and the input streams.
pub struct Session {
    /// The PC.
    pub m: Machine,
    /// DOS and BIOS services.
    pub dos: Dos,
    /// Frames completed since the start.
    pub frames: u64,
    replay: VecDeque<Event>,
    recorder: Option<Recorder>,
    record_error: bool,
}

impl Session {
    /// A session of a machine with DOS installed and a program loaded.
    pub fn new(m: Machine, dos: Dos) -> Session {
        Session {
            m,
            dos,
            frames: 0,
            replay: VecDeque::new(),
            recorder: None,
            record_error: false,
        }
    }

    /// Events to deliver at their cycles.
    pub fn set_replay(&mut self, events: Vec<Event>) {
        self.replay = events.into();
    }

    /// Adds scripted events (`--press`) to those delivered at their
    /// cycles, merged in cycle order after the ones already there at the
    /// same cycle; like replayed ones they are recorded when delivered.
    pub fn schedule(&mut self, events: impl IntoIterator<Item = Event>) {
        let mut all: Vec<Event> = self.replay.drain(..).collect();
        all.extend(events);
        // A stable sort keeps the given order of events at one cycle.
        all.sort_by_key(|e| e.cycle);
        self.replay = all.into();
    }

    /// Records every event delivered from now on.
    pub fn set_recorder(&mut self, r: Recorder) {
        self.recorder = Some(r);
    }

    /// Delivers `input` now (at the current cycle) and records it.
    pub fn input(&mut self, input: Input) {
        let e = Event {
            cycle: self.m.cycles(),
            input,
        };
        self.deliver(e);
    }

    fn deliver(&mut self, e: Event) {
        match e.input {
            Input::Key { code, ext, down } => {
                let key = if ext { Key::ext(code) } else { Key::new(code) };
                log::debug!("cycle {}: key {key:?} down={down}", e.cycle);
                self.m.key(e.cycle, key, down);
            }
            Input::Mouse { dx, dy, buttons } => {
                log::trace!("cycle {}: mouse {dx},{dy} buttons {buttons}", e.cycle);
                self.dos.mouse_input(dx, dy, buttons);
            }
            Input::End { .. } => {}
        }
        if matches!(e.input, Input::End { .. }) {
            return;
        }
        self.record(&e);
    }

    fn record(&mut self, e: &Event) {
        if let Some(r) = self.recorder.as_mut() {
            if let Err(err) = r.push(e) {
                if !self.record_error {
                    log::error!("writing the record failed: {err}");
                    self.record_error = true;
                }
            }
        }
    }

    /// Closes the record (if any), with an end mark at the current cycle
    /// when `end` (a run that stopped before the program terminated; one
    /// that terminated or failed replays to the same end by itself).
    pub fn finish_record(&mut self, end: bool) {
        if end {
            let e = Event {
                cycle: self.m.cycles(),
                input: Input::End {
                    frames: self.frames,
                },
            };
            self.record(&e);
        }
        if let Some(r) = self.recorder.as_mut() {
            if let Err(err) = r.flush() {
                log::error!("writing the record failed: {err}");
            }
        }
    }

    /// Writes the guest's text so far to `out`.
    pub fn flush_output(&mut self, out: &mut impl Write) {
        let text = self.dos.take_output();
        if !text.is_empty() {
            let _ = out.write_all(&text);
            let _ = out.flush();
        }
    }

    /// Runs until the next frame is complete, the cycle `limit`, the end of
    /// the replayed record, or the program's end. Replayed events are
    /// delivered at their cycles (the run stops there to deliver them).
    pub fn run_frame(&mut self, limit: u64) -> Step {
        loop {
            let now = self.m.cycles();
            while let Some(e) = self.replay.front().copied() {
                if e.cycle > now {
                    break;
                }
                self.replay.pop_front();
                if let Input::End { .. } = e.input {
                    self.replay.clear();
                    return Step::ReplayEnd;
                }
                self.deliver(e);
            }
            if now >= limit {
                return Step::Limit;
            }
            let target = self.replay.front().map_or(limit, |e| e.cycle.min(limit));
            match self.m.run_frame(target - now) {
                RunExit::Frame => {
                    self.frames += 1;
                    return Step::Frame;
                }
                RunExit::CyclesElapsed => {}
                RunExit::Trap(a) => match self.dos.service(&mut self.m, a) {
                    Flow::Continue => {}
                    Flow::Exit(code) => return Step::Exited(code),
                    Flow::Stop(msg) => return Step::Stopped(msg),
                },
                RunExit::Halted => {
                    return Step::Stopped(format!(
                        "the CPU halted with interrupts disabled at {}",
                        self.at()
                    ))
                }
                RunExit::Reset => return Step::Stopped("the program reset the machine".into()),
                RunExit::Unsupported(msg) => {
                    return Step::Stopped(format!("{msg} (at {})", self.at()))
                }
                // `tandem run` sets no hooks.
                RunExit::HookStop => {
                    return Step::Stopped(format!("a hook stopped the run (at {})", self.at()))
                }
            }
        }
    }

    /// CS:IP as text.
    pub fn at(&self) -> String {
        format!("{:04X}:{:04X}", self.m.cpu.regs.seg[1], self.m.cpu.regs.ip)
    }
}
