//! The OPL3 as a [`Source`]: its 49716 Hz stereo samples (`hw::opl3`),
//! resampled to the output rate by linear interpolation in integers.
//! Output sample `k` is at `k / rate` s; the OPL's value there lies
//! between its samples `i` and `i + 1`, `i = floor(k * 49716 / rate)`.
//! With a Sound Blaster 16 the OPL3 is heard through the card's mixer:
//! each output sample takes the FM gain (FM volume, master, output gain)
//! in effect at its cycle.

use std::collections::VecDeque;

use hw::opl3::{CLOCKS_PER_SAMPLE, MASTER_HZ};
use hw::Machine;

use super::{Clock, Source};

/// The machine's OPL3, heard.
pub struct OplSource {
    clock: Clock,
    /// OPL samples not yet consumed; the first is OPL sample `first`.
    queue: VecDeque<[i16; 2]>,
    first: u64,
    /// The SB16 mixer's FM gain in effect (left, right, 1/32768ths), and
    /// its changes not yet reached (cycle, gain).
    gain: [u32; 2],
    gains: VecDeque<(u64, [u32; 2])>,
}

/// The gain of an OPL3 heard directly (an AdLib): 1.
const UNITY: u32 = 1 << 15;

impl OplSource {
    /// Hears `m`'s OPL from now on (switches its capture on).
    pub fn new(m: &mut Machine, clock: Clock) -> OplSource {
        m.capture_opl(true);
        let sb = &m.bus.dev.sb16;
        let gain = if sb.fitted() {
            sb.mixer().fm_gain()
        } else {
            [UNITY; 2]
        };
        OplSource {
            clock,
            queue: VecDeque::new(),
            first: m.bus.dev.opl.samples_rendered(),
            gain,
            gains: VecDeque::new(),
        }
    }

    /// OPL sample `n`, or the nearest one there is (silence if none).
    fn at(&self, n: u64) -> [i16; 2] {
        let i = n.saturating_sub(self.first) as usize;
        match self.queue.get(i).or(self.queue.back()) {
            Some(f) => *f,
            None => [0, 0],
        }
    }
}

impl Source for OplSource {
    fn take(&mut self, m: &mut Machine) {
        self.queue.extend(m.take_opl_samples());
        self.gains.extend(m.bus.dev.sb16.take_fm_gain());
    }

    fn mix(&mut self, first: u64, out: &mut [[i32; 2]], _end: bool) {
        let den = u128::from(CLOCKS_PER_SAMPLE) * u128::from(self.clock.rate);
        for (k, o) in (first..).zip(out.iter_mut()) {
            let cycle = self.clock.cycle_of(k);
            while let Some(&(_, g)) = self.gains.front().filter(|(t, _)| *t <= cycle) {
                self.gain = g;
                self.gains.pop_front();
            }
            let num = u128::from(k) * u128::from(MASTER_HZ);
            let idx = (num / den) as u64;
            let frac = (num % den) as i64;
            // OPL samples before `idx` are no longer needed.
            while idx > self.first && self.queue.len() > 1 {
                self.queue.pop_front();
                self.first += 1;
            }
            let (a, b) = (self.at(idx), self.at(idx + 1));
            for ch in 0..2 {
                let (a, b) = (i64::from(a[ch]), i64::from(b[ch]));
                let v = a + (b - a) * frac / den as i64;
                o[ch] += ((v * i64::from(self.gain[ch])) >> 15) as i32;
            }
        }
    }
}
