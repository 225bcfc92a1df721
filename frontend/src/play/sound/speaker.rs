//! The PC speaker as samples: the speaker's level changes, logged with
//! their CPU cycle by the machine (`hw::ppi::Ppi::record`), become 16-bit
//! samples at the host rate. Each sample is the speaker's mean level over
//! its span of emulated cycles (a box filter, which keeps square waves above
//! the sample rate from aliasing into loud tones), through a DC blocker so
//! a speaker left high is silent.

use std::collections::VecDeque;

use hw::Machine;

use super::{Clock, Source};

/// The PC speaker as a [`Source`]: both channels carry it.
pub struct SpeakerSource {
    clock: Clock,
    speaker: Speaker,
    /// Samples rendered and not yet mixed, up to sample `speaker.next`.
    queue: VecDeque<i16>,
    /// Level changes not yet rendered.
    pending: Vec<(u64, bool)>,
}

impl SpeakerSource {
    /// Hears `m`'s speaker from its present cycle (switches the speaker
    /// log on).
    pub fn new(m: &mut Machine, clock: Clock) -> SpeakerSource {
        m.bus.ppi.record = true;
        m.bus.ppi.speaker_log.clear();
        let speaker = Speaker::new(clock.cpu_hz, clock.rate, m.cycles(), m.bus.ppi.speaker());
        SpeakerSource {
            clock,
            speaker,
            queue: VecDeque::new(),
            pending: Vec::new(),
        }
    }
}

impl Source for SpeakerSource {
    fn take(&mut self, m: &mut Machine) {
        self.pending.append(&mut m.bus.ppi.speaker_log);
        let mut buf = Vec::new();
        self.speaker.render(&mut self.pending, m.cycles(), &mut buf);
        self.queue.extend(buf);
    }

    fn mix(&mut self, first: u64, out: &mut [[i32; 2]], end: bool) {
        let want = first + out.len() as u64;
        if end && self.speaker.next < want {
            // Render the missing samples with the level held.
            let mut buf = Vec::new();
            let to = self.clock.cycle_of(want);
            self.speaker.render(&mut self.pending, to, &mut buf);
            self.queue.extend(buf);
        }
        // The queue's first sample is number `speaker.next - len`.
        while self.speaker.next - (self.queue.len() as u64) < first {
            if self.queue.pop_front().is_none() {
                break;
            }
        }
        for o in out.iter_mut() {
            let Some(s) = self.queue.pop_front() else {
                break;
            };
            o[0] += i32::from(s);
            o[1] += i32::from(s);
        }
    }
}

/// Converts speaker level changes into samples.
#[derive(Clone, Debug)]
pub struct Speaker {
    cpu_hz: u64,
    rate: u64,
    /// The next sample to produce (its number since cycle 0).
    next: u64,
    level: bool,
    prev_in: f32,
    prev_out: f32,
}

/// Peak amplitude of the speaker.
const AMPLITUDE: f32 = 6000.0;

impl Speaker {
    /// Samples at `rate` Hz for a CPU at `cpu_hz`, starting at `cycle` with
    /// the speaker at `level`.
    pub fn new(cpu_hz: u64, rate: u64, cycle: u64, level: bool) -> Speaker {
        let mut s = Speaker {
            cpu_hz: cpu_hz.max(1),
            rate: rate.max(1),
            next: 0,
            level,
            prev_in: 0.0,
            prev_out: 0.0,
        };
        s.next = s.sample_at(cycle);
        s
    }

    /// The number of the first sample starting at or after `cycle`.
    fn sample_at(&self, cycle: u64) -> u64 {
        ((cycle as u128 * self.rate as u128).div_ceil(self.cpu_hz as u128)) as u64
    }

    /// The cycle sample `n` starts at.
    fn cycle_of(&self, n: u64) -> u64 {
        (n as u128 * self.cpu_hz as u128 / self.rate as u128) as u64
    }

    /// Appends the samples whose span ends by cycle `now`, given the level
    /// changes (cycle, level) since the last call, in order; the changes
    /// not yet reached (in the span of the next sample) stay in `changes`
    /// for the next call, so the samples do not depend on when it comes.
    /// (cycle, level) since the last call, in order.
    pub fn render(&mut self, pending: &mut Vec<(u64, bool)>, now: u64, out: &mut Vec<i16>) {
        let mut used = 0;
        let mut changes = pending.iter().peekable();
        loop {
            let start = self.cycle_of(self.next);
            let end = self.cycle_of(self.next + 1);
            if end > now {
                break;
            }
            // The mean level over [start, end).
            let mut high = 0u64;
            let mut at = start;
            while let Some(&&(c, l)) = changes.peek() {
                if c >= end {
                    break;
                }
                let c = c.max(at);
                if self.level {
                    high += c - at;
                }
                at = c;
                self.level = l;
                changes.next();
                used += 1;
            }
            if self.level {
                high += end - at;
            }
            let x = high as f32 / (end - start).max(1) as f32;
            // DC blocker: y[n] = x[n] - x[n-1] + 0.995 y[n-1].
            let y = x - self.prev_in + 0.995 * self.prev_out;
            self.prev_in = x;
            self.prev_out = y;
            out.push((y * AMPLITUDE).clamp(-32767.0, 32767.0) as i16);
            self.next += 1;
        }
        pending.drain(..used);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_wave_becomes_a_tone() {
        // 1 MHz CPU, 10 kHz samples, a 1 kHz square wave for 10 ms.
        let mut s = Speaker::new(1_000_000, 10_000, 0, false);
        let changes: Vec<(u64, bool)> = (0..20).map(|i| (i * 500, i % 2 == 0)).collect();
        let mut out = Vec::new();
        s.render(&mut changes.clone(), 10_000, &mut out);
        assert_eq!(out.len(), 100);
        // Five samples high, five low, alternating (after the DC blocker:
        // positive then negative).
        assert!(out[1] > 0 && out[6] < 0, "{out:?}");
        // Silence: a speaker held high decays to zero.
        let mut s = Speaker::new(1_000_000, 10_000, 0, true);
        let mut out = Vec::new();
        s.render(&mut Vec::new(), 1_000_000, &mut out);
        assert_eq!(out.len(), 10_000);
        assert!(out[9_999].abs() < 5, "{}", out[9_999]);
        // Spans that do not divide evenly: every sample is produced once.
        let mut s = Speaker::new(4_772_727, 44_100, 0, false);
        let mut out = Vec::new();
        s.render(&mut Vec::new(), 4_772_727 / 70, &mut out);
        let a = out.len();
        s.render(&mut Vec::new(), 4_772_727, &mut out);
        assert_eq!(out.len(), 44_100, "{a}");
    }
}
