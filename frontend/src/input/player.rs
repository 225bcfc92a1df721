//! A running program and the input that reaches it at chosen emulated
//! cycles: replayed records, scripted keys, the window's keys and mouse,
//! and the record of all of them. Shared by the headless run and the
//! window, so both step the same way and a frame means the same moment in
//! each. The run loop itself is [`dos::Session`]'s; a replayed record's
//! end is the player's own idea ([`Slice::ReplayEnd`]).

use std::collections::VecDeque;
use std::io::Write;

use dos::{Exit, Session};
use hw::kbc::Key;

use super::record::{Event, Input, Recorder};

/// Hands `e` to the machine (keys, the game port) or to DOS (the mouse
/// driver), now; an end mark does nothing. A stick or button the game port
/// lacks is ignored (records are checked when read).
pub fn apply(e: &Event, m: &mut hw::Machine, dos: &mut dos::Dos) {
    match e.input {
        Input::Key { code, ext, down } => {
            let key = if ext { Key::ext(code) } else { Key::new(code) };
            log::debug!("cycle {}: key {key:?} down={down}", e.cycle);
            m.key(e.cycle, key, down);
        }
        Input::Mouse { dx, dy, buttons } => {
            log::trace!("cycle {}: mouse {dx},{dy} buttons {buttons}", e.cycle);
            dos.mouse_input(dx, dy, buttons);
        }
        Input::Joy { stick, x, y } => {
            log::debug!("cycle {}: joystick {stick} x={x:?} y={y:?}", e.cycle);
            let base = (stick as usize).wrapping_sub(1).saturating_mul(2);
            for (axis, pos) in [(base, x), (base.saturating_add(1), y)] {
                if let Some(p) = pos.filter(|_| stick == 1 || stick == 2) {
                    m.joystick_axis(axis, p);
                }
            }
        }
        Input::JoyButton {
            stick,
            button,
            down,
        } => {
            log::debug!(
                "cycle {}: joystick {stick} button {button} down={down}",
                e.cycle
            );
            if (1..=2).contains(&stick) && (1..=2).contains(&button) {
                m.joystick_button(((stick - 1) * 2 + button - 1) as usize, down);
            }
        }
        Input::End { .. } => {}
    }
}

/// How a slice of a played run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slice {
    /// As the session's run ended ([`Exit::Limit`] only at the player's
    /// own limit, never at a replayed event's cycle).
    Exit(Exit),
    /// The record being replayed ended here (its end mark).
    ReplayEnd,
}

/// A session and its input streams.
pub struct Player {
    /// The machine, its DOS and the run loop.
    pub session: Session,
    replay: VecDeque<Event>,
    recorder: Option<Recorder>,
    /// The first write of the record that failed (the record ended there).
    record_error: Option<std::io::Error>,
    /// The events delivered since [`Player::start_log`] (`--check` keeps
    /// those since its last checkpoint).
    log: Option<Vec<Event>>,
    /// The first write of the guest's text that failed (not a closed
    /// pipe: the reader stopped reading on purpose).
    output_error: Option<std::io::Error>,
}

impl Player {
    /// Input streams for a session (DOS installed, a program loaded or a
    /// state restored).
    pub fn new(session: Session) -> Player {
        Player {
            session,
            replay: VecDeque::new(),
            recorder: None,
            record_error: None,
            output_error: None,
            log: None,
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
            cycle: self.session.m.cycles(),
            input,
        };
        self.deliver(e);
    }

    fn deliver(&mut self, e: Event) {
        apply(&e, &mut self.session.m, &mut self.session.dos);
        if matches!(e.input, Input::End { .. }) {
            return;
        }
        self.record(&e);
    }

    /// Keeps the events delivered from now on (dropping those kept).
    pub fn start_log(&mut self) {
        self.log = Some(Vec::new());
    }

    /// The events delivered since [`Player::start_log`].
    pub fn log(&self) -> &[Event] {
        self.log.as_deref().unwrap_or(&[])
    }

    fn record(&mut self, e: &Event) {
        if let Some(l) = self.log.as_mut() {
            if !matches!(e.input, Input::End { .. }) {
                l.push(*e);
            }
        }
        if let Some(r) = self.recorder.as_mut() {
            if let Err(err) = r.push(e) {
                self.record_error = Some(err);
                self.recorder = None;
            }
        }
    }

    /// Closes the record (if any), with an end mark at the current cycle
    /// when `end` (a run that stopped before the program terminated; one
    /// that terminated or failed replays to the same end by itself).
    /// The first write that failed, if one did: the record is incomplete.
    pub fn finish_record(&mut self, end: bool) -> std::io::Result<()> {
        if end {
            let e = Event {
                cycle: self.session.m.cycles(),
                input: Input::End {
                    frames: self.session.frames,
                },
            };
            self.record(&e);
        }
        if let Some(err) = self.record_error.take() {
            return Err(err);
        }
        match self.recorder.take() {
            Some(mut r) => r.flush(),
            None => Ok(()),
        }
    }

    /// Writes the guest's text so far to `out`; the first failure is
    /// kept for [`Player::output_error`].
    pub fn flush_output(&mut self, out: &mut impl Write) {
        let text = self.session.dos.take_output();
        if !text.is_empty() {
            let r = out.write_all(&text).and_then(|_| out.flush());
            match r {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    self.output_error.get_or_insert(e);
                }
                _ => {}
            }
        }
    }

    /// The first write of the guest's text that failed, if one did.
    pub fn output_error(&mut self) -> Option<std::io::Error> {
        self.output_error.take()
    }

    /// Runs until the next frame is complete, the cycle `limit`, the end of
    /// the replayed record ([`Slice::ReplayEnd`]), or the program's end.
    /// Replayed events are delivered at their cycles (the run stops there
    /// to deliver them).
    pub fn run_frame(&mut self, limit: u64) -> Slice {
        loop {
            let now = self.session.m.cycles();
            while let Some(e) = self.replay.front().copied() {
                if e.cycle > now {
                    break;
                }
                self.replay.pop_front();
                if let Input::End { .. } = e.input {
                    self.replay.clear();
                    return Slice::ReplayEnd;
                }
                self.deliver(e);
            }
            if now >= limit {
                return Slice::Exit(Exit::Limit);
            }
            let target = self.replay.front().map_or(limit, |e| e.cycle.min(limit));
            match self.session.run_frame(target) {
                // A slice that ends at a replayed event's cycle goes on.
                Exit::Limit => {}
                exit => return Slice::Exit(exit),
            }
        }
    }
}
