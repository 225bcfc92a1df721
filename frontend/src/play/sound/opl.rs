//! The OPL3 as a [`Source`]: its 49716 Hz stereo samples (`hw::opl3`),
//! resampled to the output rate by linear interpolation in integers.
//! Output sample `k` is at `k / rate` s; the OPL's value there lies
//! between its samples `i` and `i + 1`, `i = floor(k * 49716 / rate)`.

use std::collections::VecDeque;

use hw::opl3::{CLOCKS_PER_SAMPLE, MASTER_HZ};
use hw::Machine;

use super::{Clock, Source};

/// The machine's OPL3, heard.
pub struct OplSource {
    rate: u64,
    /// OPL samples not yet consumed; the first is OPL sample `first`.
    queue: VecDeque<[i16; 2]>,
    first: u64,
}

impl OplSource {
    /// Hears `m`'s OPL from now on (switches its capture on).
    pub fn new(m: &mut Machine, clock: Clock) -> OplSource {
        m.capture_opl(true);
        OplSource {
            rate: clock.rate,
            queue: VecDeque::new(),
            first: m.bus.dev.opl.samples_rendered(),
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
    }

    fn mix(&mut self, first: u64, out: &mut [[i32; 2]], _end: bool) {
        let den = u128::from(CLOCKS_PER_SAMPLE) * u128::from(self.rate);
        for (k, o) in (first..).zip(out.iter_mut()) {
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
                o[ch] += (a + (b - a) * frac / den as i64) as i32;
            }
        }
    }
}
