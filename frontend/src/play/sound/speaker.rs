//! The PC speaker as samples: the speaker's level changes, logged with
//! their CPU cycle by the machine (`hw::ppi::Ppi::record`), become 16-bit
//! samples at the host rate. Each sample is the speaker's mean level over
//! its span of emulated cycles (a box filter, which keeps square waves above
//! the sample rate from aliasing into loud tones), then goes through the
//! output stage a PC has: the small cone and its driver pass little above
//! a few kHz, modelled as a fourth-order Butterworth low-pass at
//! [`CORNER_HZ`] (two biquads), so a carrier that programs leave on or use
//! for pulse-width sound (14-19 kHz) is its mean level, not a whistle; and
//! a DC blocker, so a speaker left high is silent.

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
    /// The output stage's low-pass.
    stage: [Biquad; 2],
    prev_in: f32,
    prev_out: f32,
}

/// Peak amplitude of the speaker.
const AMPLITUDE: f32 = 6000.0;

/// The output stage's corner frequency: beeps and tunes (up to 3 kHz)
/// pass within 0.1 dB; a 14.3 kHz carrier is 36 dB down.
pub const CORNER_HZ: f64 = 5000.0;

/// One second-order section (direct form I) of the output stage's
/// Butterworth low-pass, from the bilinear transform with prewarping.
#[derive(Clone, Debug)]
struct Biquad {
    b: [f32; 3],
    a: [f32; 2],
    x: [f32; 2],
    y: [f32; 2],
}

impl Biquad {
    /// A low-pass at `corner` Hz with quality `q` for samples at `rate` Hz
    /// (a corner at or past Nyquist passes everything).
    fn low_pass(corner: f64, q: f64, rate: f64) -> Biquad {
        if corner >= rate / 2.0 {
            return Biquad {
                b: [1.0, 0.0, 0.0],
                a: [0.0, 0.0],
                x: [0.0; 2],
                y: [0.0; 2],
            };
        }
        let k = (std::f64::consts::PI * corner / rate).tan();
        let norm = 1.0 / (1.0 + k / q + k * k);
        let b0 = k * k * norm;
        Biquad {
            b: [b0 as f32, (2.0 * b0) as f32, b0 as f32],
            a: [
                (2.0 * (k * k - 1.0) * norm) as f32,
                ((1.0 - k / q + k * k) * norm) as f32,
            ],
            x: [0.0; 2],
            y: [0.0; 2],
        }
    }

    /// Starts the section as if `v` had always been its input.
    fn settle(&mut self, v: f32) {
        self.x = [v; 2];
        self.y = [v; 2];
    }

    fn run(&mut self, x: f32) -> f32 {
        let y = self.b[0] * x + self.b[1] * self.x[0] + self.b[2] * self.x[1]
            - self.a[0] * self.y[0]
            - self.a[1] * self.y[1];
        self.x = [x, self.x[0]];
        self.y = [y, self.y[0]];
        y
    }
}

/// The two sections' qualities of a fourth-order Butterworth filter.
const BUTTERWORTH_4: [f64; 2] = [0.541_196_1, 1.306_563];

impl Speaker {
    /// Samples at `rate` Hz for a CPU at `cpu_hz`, starting at `cycle` with
    /// the speaker at `level`.
    pub fn new(cpu_hz: u64, rate: u64, cycle: u64, level: bool) -> Speaker {
        let r = rate.max(1) as f64;
        let mut stage = BUTTERWORTH_4.map(|q| Biquad::low_pass(CORNER_HZ, q, r));
        // The level held before the first sample is the filters' past (and
        // the DC blocker's), so the start is silent.
        let v = if level { 1.0 } else { 0.0 };
        for b in &mut stage {
            b.settle(v);
        }
        let mut s = Speaker {
            cpu_hz: cpu_hz.max(1),
            rate: rate.max(1),
            next: 0,
            level,
            stage,
            prev_in: v,
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
            let mean = high as f32 / (end - start).max(1) as f32;
            let x = self.stage.iter_mut().fold(mean, |v, b| b.run(v));
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

    /// The RMS of one second of a square wave of `divisor` PIT clocks per
    /// period on a 4.77 MHz PC, heard at 44.1 kHz (the first 0.1 s left
    /// out: the filters settle).
    fn rms_of_square(divisor: u64) -> f64 {
        let cpu = 4_772_727u64;
        let half = cpu * divisor / 1_193_182 / 2;
        let mut s = Speaker::new(cpu, 44_100, 0, false);
        let mut changes: Vec<(u64, bool)> = (1..)
            .map(|i| (i * half, i % 2 == 1))
            .take_while(|&(c, _)| c < cpu)
            .collect();
        let mut out = Vec::new();
        s.render(&mut changes, cpu, &mut out);
        let tail = &out[4410..];
        (tail.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() / tail.len() as f64).sqrt()
    }

    #[test]
    fn the_output_stage_passes_tunes_and_drops_a_carrier() {
        // 1 kHz (divisor 1193) and 3 kHz (398) keep a square wave's RMS
        // (about half the peak after the DC blocker); 14.4 kHz (83), which
        // programs leave on or use as a PWM carrier, is near silence.
        let tone = rms_of_square(1193);
        assert!(tone > 2500.0, "{tone}");
        let high_tune = rms_of_square(398);
        assert!(high_tune > 2000.0, "{high_tune}");
        let carrier = rms_of_square(83);
        assert!(carrier < tone / 40.0, "carrier {carrier} vs tone {tone}");
    }
}
