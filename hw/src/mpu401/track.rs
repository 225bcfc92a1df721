//! A play track (or the conductor) of the intelligent MPU-401 and the
//! host's answer to its data request (Technical Reference, "Track Data
//! Request", "Conductor"): a timing byte, then a MIDI channel message (a
//! command for the conductor) or a mark.
//!
//! Timing byte: 00h-EFh, the clocks from the track's last event to this
//! one; F8h in its place is a timing overflow: 240 clocks pass with no
//! event, and the track asks again. After a timing byte: a channel message
//! (its status, or running status from the track's last one, and its data
//! bytes), or a mark: F8h no operation, F9h measure end, FCh data end (the
//! track ends). The conductor takes E0h-EFh commands with their data byte
//! (tempo and the like) or other one-byte commands in place of the MIDI
//! message. Bytes outside these forms (a system message F0h-F7h, an
//! unknown mark) make the event a no operation.

/// Clocks a timing overflow (F8h as the timing byte) stands for.
pub const OVERFLOW_CLOCKS: u16 = 240;
/// The largest timing byte.
const TIMING_MAX: u8 = 0xEF;
/// Mark or timing byte F8h: no operation / timing overflow.
const MARK_NOP: u8 = 0xF8;
/// Mark F9h: measure end.
const MARK_MEASURE: u8 = 0xF9;
/// Mark FCh: data end.
const MARK_END: u8 = 0xFC;

/// What a track does when its event's time comes.
#[derive(Clone, Debug, Hash, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Step {
    /// A MIDI channel message for MIDI OUT (for the conductor: a command
    /// and its data byte, if any).
    Message(Vec<u8>),
    /// Nothing: a timing overflow, a no-operation or measure-end mark.
    Nothing,
    /// Data end: the track has finished.
    End,
}

/// Where a track is in its request/answer cycle.
#[derive(Clone, Debug, Hash, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    /// Not asked since the reset or the last clear of the play counters.
    Idle,
    /// Asked (or about to be asked) for data; the answer is not complete.
    Requested,
    /// Answered: `step` happens when the play counter reaches `at`.
    Waiting {
        /// The timing byte (clocks after the track's last event).
        at: u16,
        /// What happens then.
        step: Step,
    },
    /// Finished with data end (FCh).
    Ended,
}

/// One track: its phase, its play counter and the answer being written.
#[derive(Clone, Debug, Hash, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Track {
    /// Where it is in its request/answer cycle.
    pub phase: Phase,
    /// The play counter: clocks since the track's last event (commands
    /// A0h-A7h read it).
    pub elapsed: u16,
    /// The track's last channel status (running status in its data).
    pub running: u8,
    /// The host's answer so far (the timing byte first).
    answer: Vec<u8>,
}

impl Default for Track {
    fn default() -> Self {
        Track {
            phase: Phase::Idle,
            elapsed: 0,
            running: 0,
            answer: Vec::new(),
        }
    }
}

/// Data bytes after a channel status byte (MIDI 1.0).
fn data_len(status: u8) -> usize {
    match status {
        0xC0..=0xDF => 1,
        _ => 2,
    }
}

impl Track {
    /// True while the track takes part in play (asked or answered).
    pub fn playing(&self) -> bool {
        matches!(self.phase, Phase::Requested | Phase::Waiting { .. })
    }

    /// Clocks until its event, when answered (at least 1: an event due
    /// now has already happened).
    pub fn clocks_to_event(&self) -> Option<u64> {
        match self.phase {
            Phase::Waiting { at, .. } => Some(u64::from(at.saturating_sub(self.elapsed)).max(1)),
            _ => None,
        }
    }

    /// Back to idle with its counter cleared (command B8h, reset).
    pub fn clear(&mut self) {
        self.phase = Phase::Idle;
        self.elapsed = 0;
        self.answer.clear();
    }

    /// Drops a half-written answer (play stopped while the host wrote it).
    pub fn drop_answer(&mut self) {
        self.answer.clear();
    }

    /// Asks for data: the track's next answer starts.
    pub fn request(&mut self) {
        self.phase = Phase::Requested;
        self.answer.clear();
    }

    /// One byte of the host's answer; true when it completes it (the
    /// track is then waiting for its event). `conductor`: the answer is
    /// the conductor's (commands in place of MIDI messages).
    pub fn feed(&mut self, v: u8, conductor: bool) -> bool {
        let Some(&timing) = self.answer.first() else {
            if v <= TIMING_MAX {
                self.answer.push(v);
                return false;
            }
            // F8h, timing overflow (and any other byte where a timing
            // byte belongs).
            return self.answered(OVERFLOW_CLOCKS, Step::Nothing);
        };
        let at = u16::from(timing);
        if self.answer.len() == 1 {
            return self.first_byte(at, v, conductor);
        }
        self.answer.push(v);
        let status = self.answer[1];
        let need = if conductor { 1 } else { data_len(status) };
        if self.answer.len() - 2 < need {
            return false;
        }
        let msg = self.answer[1..].to_vec();
        self.answered(at, Step::Message(msg))
    }

    /// The byte after the timing byte: a message's status (or running
    /// status data), a command, or a mark.
    fn first_byte(&mut self, at: u16, v: u8, conductor: bool) -> bool {
        match v {
            MARK_NOP | MARK_MEASURE => self.answered(at, Step::Nothing),
            MARK_END => self.answered(at, Step::End),
            0xE0..=0xEF if conductor => {
                self.answer.push(v);
                false
            }
            _ if conductor => self.answered(at, Step::Message(vec![v])),
            0x80..=0xEF => {
                self.running = v;
                self.answer.push(v);
                false
            }
            0x00..=0x7F if self.running >= 0x80 => {
                let status = self.running;
                self.answer.push(status);
                self.feed(v, false)
            }
            _ => self.answered(at, Step::Nothing),
        }
    }

    fn answered(&mut self, at: u16, step: Step) -> bool {
        self.answer.clear();
        self.phase = Phase::Waiting { at, step };
        true
    }

    /// When the play counter has reached the event's time: takes the
    /// event (the counter keeps the clocks past it), the track going back
    /// to requested (or ended after data end).
    pub fn take_due(&mut self) -> Option<Step> {
        let Phase::Waiting { at, .. } = self.phase else {
            return None;
        };
        if self.elapsed < at {
            return None;
        }
        self.elapsed -= at;
        let Phase::Waiting { step, .. } = std::mem::replace(&mut self.phase, Phase::Requested)
        else {
            return None;
        };
        if step == Step::End {
            self.phase = Phase::Ended;
        }
        Some(step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(t: &mut Track, bytes: &[u8], conductor: bool) -> Vec<bool> {
        bytes.iter().map(|&b| t.feed(b, conductor)).collect()
    }

    #[test]
    fn a_note_a_running_status_a_mark_and_an_overflow() {
        let mut t = Track::default();
        t.request();
        assert_eq!(
            answer(&mut t, &[10, 0x90, 60, 100], false),
            [false, false, false, true]
        );
        assert_eq!(
            t.phase,
            Phase::Waiting {
                at: 10,
                step: Step::Message(vec![0x90, 60, 100])
            }
        );
        t.elapsed = 12;
        assert_eq!(t.take_due(), Some(Step::Message(vec![0x90, 60, 100])));
        assert_eq!((t.elapsed, &t.phase), (2, &Phase::Requested));
        // Running status: two data bytes after the timing byte.
        assert_eq!(answer(&mut t, &[5, 60, 0], false), [false, false, true]);
        assert!(
            matches!(&t.phase, Phase::Waiting { at: 5, step: Step::Message(m) } if m == &[0x90, 60, 0])
        );
        assert_eq!(t.clocks_to_event(), Some(3));
        t.elapsed = 5;
        assert!(t.take_due().is_some());
        // A program change has one data byte.
        assert_eq!(answer(&mut t, &[0, 0xC1, 7], false), [false, false, true]);
        assert_eq!(t.take_due(), Some(Step::Message(vec![0xC1, 7])));
        // F8h as the timing byte: 240 clocks.
        assert_eq!(answer(&mut t, &[0xF8], false), [true]);
        assert_eq!(t.clocks_to_event(), Some(240));
        t.elapsed = 240;
        assert_eq!(t.take_due(), Some(Step::Nothing));
        // Data end.
        assert_eq!(answer(&mut t, &[3, 0xFC], false), [false, true]);
        t.elapsed = 3;
        assert_eq!(t.take_due(), Some(Step::End));
        assert_eq!(t.phase, Phase::Ended);
    }

    #[test]
    fn the_conductor_takes_commands() {
        let mut t = Track::default();
        t.request();
        assert_eq!(answer(&mut t, &[0, 0xE0, 60], true), [false, false, true]);
        assert!(
            matches!(&t.phase, Phase::Waiting { at: 0, step: Step::Message(m) } if m == &[0xE0, 60])
        );
        t.take_due();
        assert_eq!(answer(&mut t, &[20, 0xF9], true), [false, true]);
        assert_eq!(t.clocks_to_event(), Some(20));
    }
}
