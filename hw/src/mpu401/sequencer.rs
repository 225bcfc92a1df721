//! The intelligent MPU-401's sequencer (Technical Reference, "Play",
//! "Conductor", "Clock to Host", "Tempo", "Timebase"): its clock, the
//! eight play tracks and the conductor, the clock-to-host messages, the
//! record counter and the play map.
//!
//! The clock ticks `timebase` times a beat at `tempo` beats a minute,
//! scaled by the relative tempo (E1h, 40h = 1:1): tempo 120 and timebase
//! 120 tick every 1/240 s. It runs while the MPU plays, records or sends
//! clock-to-host messages, on emulated time only: tick `k` after the
//! clock's anchor falls on CPU cycle `anchor + ceil(k * cpu_hz * 60 * 64
//! / (tempo * relative * timebase))`. The device catches up lazily (on
//! each port access) and schedules its event at the next tick that
//! matters: a track's or the conductor's event, a clock-to-host message,
//! a record timing overflow; ticks between them are counted in one step.
//!
//! Play: starting play asks each active track (ECh) for data (F0h-F7h)
//! and, with the conductor on (8Fh), the conductor (F9h). The MPU has
//! one request out at a time: the host's answer (written to the data
//! port) belongs to the last request sent, and the next request goes out
//! when it is complete. A track's play counter counts the clocks since its
//! last event; its event happens when the counter reaches the timing byte
//! (at once when the answer comes late), and the track asks again. When
//! every track (and the conductor) has ended with data end (FCh), the MPU
//! sends all end (FCh) to the host. Stopping play turns off the notes the
//! tracks left on (the play map); continuing play resumes the tracks where
//! they were; clearing the play counters (B8h) starts them again.
//!
//! Record: no MIDI IN is wired, so recording records nothing; the MPU
//! counts the record counter (ABh) and sends a timing overflow (F8h) to
//! the host every 240 clocks, as with nothing played into it.

use crate::scheduler::ClockRatio;

use super::track::{Phase, Step, Track};
use super::Mpu401;

/// Messages to the host.
pub const MSG_TRACK_REQUEST: u8 = 0xF0;
/// Timing overflow while recording.
pub const MSG_OVERFLOW: u8 = 0xF8;
/// Conductor data request.
pub const MSG_CONDUCTOR_REQUEST: u8 = 0xF9;
/// All end.
pub const MSG_ALL_END: u8 = 0xFC;
/// Clock to host.
pub const MSG_CLOCK_TO_HOST: u8 = 0xFD;

/// The pending-message bit of the conductor's request (tracks: 0-7).
const PENDING_CONDUCTOR: u16 = 1 << 8;
/// The pending-message bit of all end.
const PENDING_ALL_END: u16 = 1 << 9;
/// The pending bits of requests (tracks and conductor).
const PENDING_REQUESTS: u16 = 0x1FF;
/// The conductor's number where a track's would be (`awaiting`).
pub const CONDUCTOR: u8 = 8;

/// Tempo limits (Technical Reference, E0h: 8-240 beats per minute).
const TEMPO_MIN: u8 = 8;
const TEMPO_MAX: u8 = 240;
/// Relative tempo 1:1 (E1h, B1h).
pub const RELATIVE_ONE: u8 = 0x40;
/// Clocks a recording overflows after (F8h to the host).
const RECORD_OVERFLOW: u16 = 240;

/// Switch bits (commands 86h-9Fh: even off, odd on, bit (c - 86h) / 2).
pub mod switch {
    /// 86h/87h: bender (pitch bend, controllers) to host.
    pub const BENDER: u16 = 1 << 0;
    /// 88h/89h: MIDI thru.
    pub const THRU: u16 = 1 << 1;
    /// 8Ah/8Bh: data in stop mode.
    pub const DATA_IN_STOP: u16 = 1 << 2;
    /// 8Ch/8Dh: send measure end while recording.
    pub const MEASURE_END: u16 = 1 << 3;
    /// 8Eh/8Fh: the conductor.
    pub const CONDUCTOR: u16 = 1 << 4;
    /// 90h/91h: real time affection.
    pub const REAL_TIME: u16 = 1 << 5;
    /// 92h/93h: FSK resolution to MIDI.
    pub const FSK_MIDI: u16 = 1 << 6;
    /// 94h/95h: clock to host.
    pub const CLOCK_TO_HOST: u16 = 1 << 7;
    /// 96h/97h: exclusive to host.
    pub const EXCLUSIVE: u16 = 1 << 8;
    /// 98h-9Fh: channel reference tables A-D.
    pub const TABLE_A: u16 = 1 << 9;
    /// The switches after a reset: MIDI thru and measure end on.
    pub const RESET: u16 = THRU | MEASURE_END;
}

/// Recording: off, standing by (waiting for a MIDI start), on.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Record {
    /// Not recording.
    Off,
    /// Standing by.
    Standby,
    /// Recording.
    On,
}

/// The sequencer's state (reset by FFh and by entering UART mode).
#[derive(Clone, Debug, Hash, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sequencer {
    /// The CPU clock the sequencer's clock is counted against.
    pub cpu_hz: u64,
    /// Beats per minute (E0h; default 100).
    pub tempo: u8,
    /// Relative tempo, 40h = 1:1 (E1h).
    pub relative: u8,
    /// Graduation of relative tempo changes (E2h; kept, changes are
    /// immediate).
    pub graduation: u8,
    /// Clocks per beat (C2h-C8h: 48-192; default 120).
    pub timebase: u8,
    /// Quarter clocks per clock-to-host message (E7h; default 240: every
    /// 60 clocks; 0 counts as 256).
    pub cth_rate: u8,
    /// The on/off switches ([`switch`]).
    pub switches: u16,
    /// The clock source (80h internal, 81h FSK, 82h MIDI): 0, 1, 2; only
    /// the internal clock runs.
    pub clock_source: u8,
    /// Metronome (83h on, 84h off, 85h on with accents): 1, 0, 2.
    pub metronome: u8,
    /// MIDI clocks per metronome beat (E4h) and beats per measure (E6h).
    pub metronome_rate: (u8, u8),
    /// Active tracks (ECh): bit n, track n + 1.
    pub active: u8,
    /// Play counter mask (EDh).
    pub counter_mask: u8,
    /// MIDI channel mask (EEh: channels 1-8, EFh: 9-16).
    pub channel_mask: u16,
    /// Channel reference tables A-D (40h-7Fh).
    pub tables: [u8; 4],
    /// A command waiting for its data byte (E0h-EFh).
    pub param: Option<u8>,
    /// Playing.
    pub playing: bool,
    /// Recording.
    pub record: Record,
    /// The eight play tracks.
    pub tracks: [Track; 8],
    /// The conductor.
    pub conductor: Track,
    /// Messages waiting to go to the host (bits: requests of tracks 0-7,
    /// the conductor's, all end).
    pub pending: u16,
    /// The track (8: the conductor) whose answer the host writes.
    pub awaiting: Option<u8>,
    /// The cycle of the clock's tick 0 (at the last start or rate change).
    pub anchor: u64,
    /// Ticks counted since the anchor.
    pub ticks: u64,
    /// Quarter clocks towards the next clock-to-host message.
    pub cth_count: u16,
    /// The record counter: clocks since the last recorded event.
    pub record_counter: u16,
    /// Notes the tracks turned on and not off, per channel.
    pub play_map: [u128; 16],
}

impl Sequencer {
    /// The state after a reset, counting against a `cpu_hz` CPU.
    pub fn new(cpu_hz: u64) -> Self {
        Sequencer {
            cpu_hz: cpu_hz.max(1),
            tempo: 100,
            relative: RELATIVE_ONE,
            graduation: 0,
            timebase: 120,
            cth_rate: 240,
            switches: switch::RESET,
            clock_source: 0,
            metronome: 0,
            metronome_rate: (12, 8),
            active: 0,
            counter_mask: 0,
            channel_mask: 0xFFFF,
            tables: [0, 1, 2, 3],
            param: None,
            playing: false,
            record: Record::Off,
            tracks: Default::default(),
            conductor: Track::default(),
            pending: 0,
            awaiting: None,
            anchor: 0,
            ticks: 0,
            cth_count: 0,
            record_counter: 0,
            play_map: [0; 16],
        }
    }

    /// True when the switch bit `s` is on.
    pub fn on(&self, s: u16) -> bool {
        self.switches & s != 0
    }

    /// Clocks (ticks) a second: tempo * relative / 64 * timebase / 60, as
    /// a ratio against the CPU clock.
    pub fn ratio(&self) -> ClockRatio {
        let ticks = u64::from(self.tempo) * u64::from(self.relative) * u64::from(self.timebase);
        ClockRatio::new(ticks, self.cpu_hz * 60 * u64::from(RELATIVE_ONE))
    }

    /// True while the clock ticks: playing, recording or sending the
    /// clock to the host, on the internal clock.
    pub fn runs(&self) -> bool {
        self.clock_source == 0
            && (self.playing || self.record == Record::On || self.on(switch::CLOCK_TO_HOST))
    }

    /// The clock-to-host period in quarter clocks.
    fn cth_period(&self) -> u16 {
        match self.cth_rate {
            0 => 256,
            n => u16::from(n),
        }
    }

    /// The cycle of tick `k` after the anchor.
    fn cycle_of(&self, k: u64) -> u64 {
        self.anchor + self.ratio().cycle_of_tick(k)
    }

    /// Ticks from the last one counted to the next that matters (an event,
    /// a message to the host), if any.
    fn ticks_to_next(&self) -> Option<u64> {
        let mut next: Option<u64> = None;
        let mut at = |d: u64| next = Some(next.map_or(d, |n| n.min(d)));
        if self.playing {
            for t in self.tracks.iter().chain([&self.conductor]) {
                if let Some(d) = t.clocks_to_event() {
                    at(d);
                }
            }
        }
        if self.on(switch::CLOCK_TO_HOST) {
            let left = self.cth_period().saturating_sub(self.cth_count);
            at(u64::from(left.div_ceil(4)).max(1));
        }
        if self.record == Record::On {
            at(u64::from(RECORD_OVERFLOW.saturating_sub(self.record_counter)).max(1));
        }
        next
    }

    /// Counts `n` ticks on every counter.
    fn count(&mut self, n: u64) {
        let n16 = u16::try_from(n).unwrap_or(u16::MAX);
        if self.playing {
            for t in self.tracks.iter_mut().chain([&mut self.conductor]) {
                if t.playing() {
                    t.elapsed = t.elapsed.saturating_add(n16);
                }
            }
        }
        if self.on(switch::CLOCK_TO_HOST) {
            let q = u32::from(self.cth_count) + 4 * u32::from(n16);
            self.cth_count = u16::try_from(q).unwrap_or(u16::MAX);
        }
        if self.record == Record::On {
            self.record_counter = self.record_counter.saturating_add(n16);
        }
    }

    /// True when no track (nor the conductor) plays any more.
    fn all_ended(&self) -> bool {
        !self
            .tracks
            .iter()
            .chain([&self.conductor])
            .any(Track::playing)
    }

    /// Keeps a note on or off in the play map.
    pub(super) fn map(&mut self, msg: &[u8]) {
        let (Some(&status), Some(&note)) = (msg.first(), msg.get(1)) else {
            return;
        };
        let ch = usize::from(status & 0x0F);
        let bit = 1u128 << (note & 0x7F);
        match (status & 0xF0, msg.get(2)) {
            (0x90, Some(&v)) if v > 0 => self.play_map[ch] |= bit,
            (0x80 | 0x90, _) => self.play_map[ch] &= !bit,
            _ => {}
        }
    }
}

/// The cheap state the catch-up compares before and after a change.
type ClockKey = (bool, ClockRatio);

impl Mpu401 {
    fn clock_key(&self) -> ClockKey {
        (self.seq.runs(), self.seq.ratio())
    }

    /// Re-anchors the clock after a change at cycle `now`: a clock that
    /// starts counts from `now`; a running clock whose rate changed keeps
    /// its last tick as the new anchor.
    fn retime(&mut self, before: ClockKey, now: u64) {
        let s = &mut self.seq;
        match (before.0, s.runs()) {
            (false, true) => {
                s.anchor = now;
                s.ticks = 0;
            }
            (true, true) if before.1 != s.ratio() => {
                s.anchor += before.1.cycle_of_tick(s.ticks);
                s.ticks = 0;
            }
            _ => {}
        }
    }

    /// Runs the sequencer's clock up to cycle `now` (see the module doc).
    pub fn catch_up(&mut self, now: u64) {
        while self.seq.runs() {
            let s = &self.seq;
            let target = s.ratio().ticks_at(now.saturating_sub(s.anchor));
            if s.ticks >= target {
                return;
            }
            let left = target - s.ticks;
            let n = s.ticks_to_next().map_or(left, |d| d.min(left));
            self.seq.count(n);
            self.seq.ticks += n;
            let t = self.seq.cycle_of(self.seq.ticks);
            self.tick(t);
        }
    }

    /// The cycle of the next tick that matters, if the clock runs.
    pub fn next_event(&self) -> Option<u64> {
        if !self.seq.runs() {
            return None;
        }
        let d = self.seq.ticks_to_next()?;
        Some(self.seq.cycle_of(self.seq.ticks + d))
    }

    /// What happens on a tick at cycle `t`: due events, clock-to-host and
    /// record overflow messages.
    fn tick(&mut self, t: u64) {
        if self.seq.playing {
            if let Some(step) = self.seq.conductor.take_due() {
                self.conductor_step(step, t);
            }
            for i in 0..8 {
                if let Some(step) = self.seq.tracks[i].take_due() {
                    self.track_step(i, step, t);
                }
            }
        }
        let period = self.seq.cth_period();
        while self.seq.on(switch::CLOCK_TO_HOST) && self.seq.cth_count >= period {
            self.seq.cth_count -= period;
            self.send_host(MSG_CLOCK_TO_HOST);
        }
        if self.seq.record == Record::On && self.seq.record_counter >= RECORD_OVERFLOW {
            self.seq.record_counter -= RECORD_OVERFLOW;
            self.send_host(MSG_OVERFLOW);
        }
        self.pump();
    }

    /// Track `i`'s event at cycle `t`, then its next request (or, after
    /// data end, all end when nothing plays any more).
    fn track_step(&mut self, i: usize, step: Step, t: u64) {
        match step {
            Step::Message(msg) => {
                for &b in &msg {
                    self.out(b, t);
                }
                self.seq.map(&msg);
                self.seq.pending |= 1 << i;
            }
            Step::Nothing => self.seq.pending |= 1 << i,
            Step::End => self.ended(),
        }
    }

    /// The conductor's event at cycle `t`: a command (tempo and the like).
    fn conductor_step(&mut self, step: Step, t: u64) {
        match step {
            Step::Message(msg) => {
                if let [cmd, v] = msg[..] {
                    self.parameter(cmd, v, t);
                }
                self.seq.pending |= PENDING_CONDUCTOR;
            }
            Step::Nothing => self.seq.pending |= PENDING_CONDUCTOR,
            Step::End => self.ended(),
        }
    }

    /// A track or the conductor ended: all end once nothing plays.
    fn ended(&mut self) {
        if self.seq.all_ended() {
            self.seq.pending |= PENDING_ALL_END;
        }
    }

    /// Sends waiting messages: requests one at a time (the next only when
    /// the host has answered the last), conductor first, then tracks 1-8.
    pub(super) fn pump(&mut self) {
        while self.seq.awaiting.is_none() && self.seq.pending != 0 {
            let p = self.seq.pending;
            if p & PENDING_REQUESTS == 0 {
                self.seq.pending &= !PENDING_ALL_END;
                self.send_host(MSG_ALL_END);
                continue;
            }
            let who = if p & PENDING_CONDUCTOR != 0 {
                CONDUCTOR
            } else {
                p.trailing_zeros() as u8
            };
            self.seq.pending &= !(1 << who);
            self.seq.awaiting = Some(who);
            if who == CONDUCTOR {
                self.seq.conductor.request();
                self.send_host(MSG_CONDUCTOR_REQUEST);
            } else {
                self.seq.tracks[usize::from(who)].request();
                self.send_host(MSG_TRACK_REQUEST + who);
            }
        }
    }

    /// A data-port byte of the host's answer to the request out, at cycle
    /// `now`; false when no request is out.
    pub(super) fn answer(&mut self, v: u8, now: u64) -> bool {
        let Some(who) = self.seq.awaiting else {
            return false;
        };
        let conductor = who == CONDUCTOR;
        let track = if conductor {
            &mut self.seq.conductor
        } else {
            &mut self.seq.tracks[usize::from(who)]
        };
        if track.feed(v, conductor) {
            self.seq.awaiting = None;
            // An event already due (timing 0, or a late answer) happens now.
            if self.seq.playing {
                self.tick_one(who, now);
            }
            self.pump();
        }
        true
    }

    /// Track `who`'s event (8: the conductor's) at `now` if it is due.
    fn tick_one(&mut self, who: u8, now: u64) {
        if who == CONDUCTOR {
            if let Some(step) = self.seq.conductor.take_due() {
                self.conductor_step(step, now);
            }
        } else if let Some(step) = self.seq.tracks[usize::from(who)].take_due() {
            self.track_step(usize::from(who), step, now);
        }
    }

    /// Command 00h-2Fh at `now`: bits 0-1 MIDI (stop FCh, start FAh,
    /// continue FBh to MIDI OUT), bits 2-3 play (01 stop, 10 start), bits
    /// 4-5 record (01 stop, 10 standby, recording with a MIDI start or
    /// continue).
    pub(super) fn mode(&mut self, c: u8, now: u64) {
        let before = self.clock_key();
        let midi = c & 3;
        if let Some(rt) = [None, Some(0xFC), Some(0xFA), Some(0xFB)][usize::from(midi)] {
            self.out(rt, now);
        }
        match (c >> 2) & 3 {
            1 => self.stop_play(now),
            2 => self.start_play(),
            _ => {}
        }
        match (c >> 4) & 3 {
            1 => self.seq.record = Record::Off,
            2 if midi >= 2 => {
                self.seq.record = Record::On;
                self.seq.record_counter = 0;
            }
            2 => self.seq.record = Record::Standby,
            _ => {}
        }
        self.retime(before, now);
        self.pump();
    }

    /// Starts (or continues) play: asks the active tracks that are not
    /// waiting for their event, and the conductor when it is on.
    fn start_play(&mut self) {
        let s = &mut self.seq;
        s.playing = true;
        for (i, t) in s.tracks.iter_mut().enumerate() {
            if s.active & (1 << i) != 0 && matches!(t.phase, Phase::Idle | Phase::Requested) {
                t.phase = Phase::Requested;
                s.pending |= 1 << i;
            }
        }
        let c = &mut s.conductor;
        if s.switches & switch::CONDUCTOR != 0 && matches!(c.phase, Phase::Idle | Phase::Requested)
        {
            c.phase = Phase::Requested;
            s.pending |= PENDING_CONDUCTOR;
        }
    }

    /// Stops play at `now`: requests not answered are dropped (play
    /// continued asks again) and the notes left on are turned off.
    fn stop_play(&mut self, now: u64) {
        let s = &mut self.seq;
        s.playing = false;
        s.pending &= !(PENDING_REQUESTS | PENDING_ALL_END);
        if let Some(who) = s.awaiting.take() {
            let t = if who == CONDUCTOR {
                &mut s.conductor
            } else {
                &mut s.tracks[usize::from(who)]
            };
            t.drop_answer();
        }
        self.clear_play_map(now);
    }

    /// Command B8h: clears the play counters; the tracks start again (at
    /// once when playing).
    pub(super) fn clear_play_counters(&mut self) {
        let s = &mut self.seq;
        for t in s.tracks.iter_mut().chain([&mut s.conductor]) {
            t.clear();
        }
        s.pending &= !(PENDING_REQUESTS | PENDING_ALL_END);
        s.awaiting = None;
        if s.playing {
            self.start_play();
            self.pump();
        }
    }

    /// Command B9h (and stopping play): a note off at `now` for every
    /// note the tracks left on.
    pub(super) fn clear_play_map(&mut self, now: u64) {
        let map = std::mem::take(&mut self.seq.play_map);
        for (ch, notes) in (0u8..).zip(map) {
            for note in (0u8..128).filter(|&n| notes >> n & 1 != 0) {
                for b in [0x80 | ch, note, 0] {
                    self.out(b, now);
                }
            }
        }
    }

    /// A command's data byte (E0h-EFh, from the host or the conductor) at
    /// `now`.
    pub(super) fn parameter(&mut self, cmd: u8, v: u8, now: u64) {
        let before = self.clock_key();
        let s = &mut self.seq;
        match cmd {
            0xE0 => s.tempo = v.clamp(TEMPO_MIN, TEMPO_MAX),
            0xE1 => s.relative = v,
            0xE2 => s.graduation = v,
            0xE4 => s.metronome_rate.0 = v,
            0xE6 => s.metronome_rate.1 = v,
            0xE7 => s.cth_rate = v,
            0xEC => s.active = v,
            0xED => s.counter_mask = v,
            0xEE => s.channel_mask = (s.channel_mask & 0xFF00) | u16::from(v),
            0xEF => s.channel_mask = (s.channel_mask & 0x00FF) | u16::from(v) << 8,
            _ => {}
        }
        self.retime(before, now);
    }

    /// Commands that only set state (clock source, metronome, switches,
    /// timebase, reference tables, relative tempo reset) at `now`; false
    /// for any other.
    pub(super) fn setting(&mut self, c: u8, now: u64) -> bool {
        let before = self.clock_key();
        let s = &mut self.seq;
        match c {
            0x40..=0x7F => s.tables[usize::from((c - 0x40) >> 4)] = c & 0x0F,
            0x80..=0x82 => s.clock_source = c - 0x80,
            0x83 => s.metronome = 1,
            0x84 => s.metronome = 0,
            0x85 => s.metronome = 2,
            0x86..=0x9F => {
                let bit = 1 << ((c - 0x86) / 2);
                if c & 1 == 0 {
                    s.switches &= !bit;
                } else if s.switches & bit == 0 {
                    // Clock to host switched on counts a fresh period.
                    s.cth_count = 0;
                    s.switches |= bit;
                }
            }
            0xB1 => s.relative = RELATIVE_ONE,
            0xBA => s.record_counter = 0,
            0xC2..=0xC8 => s.timebase = 48 + 24 * (c - 0xC2),
            _ => return false,
        }
        self.retime(before, now);
        true
    }

    /// The data byte commands A0h-AFh answer after their acknowledge
    /// (None: the command answers nothing).
    pub(super) fn report(&mut self, c: u8) -> Option<u8> {
        let s = &mut self.seq;
        match c {
            0xA0..=0xA7 => Some(s.tracks[usize::from(c & 7)].elapsed.min(0xFF) as u8),
            0xAB => Some(std::mem::take(&mut s.record_counter).min(0xFF) as u8),
            0xAC => Some(0x15),
            0xAD => Some(0x01),
            0xAF => Some(s.tempo),
            _ => None,
        }
    }
}
