//! The Gravis UltraSound as a [`Source`]: the GF1's frames (`hw::gus`,
//! one per frame at 617400/N Hz, logged with their cycle while capturing,
//! already panned), resampled to the output rate by linear interpolation
//! between the frames on either side of each output sample's cycle, so a
//! change of the active voices (and so of the frame rate) needs nothing
//! more.

use std::collections::VecDeque;

use hw::Machine;

use super::{Clock, Source};

/// The GF1's output as a [`Source`].
pub struct GusSource {
    clock: Clock,
    /// The last frame at or before the last sample mixed: (cycle, value).
    last: (u64, [i16; 2]),
    /// Frames not yet reached.
    pending: VecDeque<(u64, [i16; 2])>,
}

impl GusSource {
    /// Hears `m`'s UltraSound from its present cycle (switches its output
    /// log on).
    pub fn new(m: &mut Machine, clock: Clock) -> GusSource {
        m.capture_gus(false);
        m.capture_gus(true);
        GusSource {
            clock,
            last: (m.cycles(), [0; 2]),
            pending: VecDeque::new(),
        }
    }
}

impl Source for GusSource {
    fn take(&mut self, m: &mut Machine) {
        self.pending.extend(m.take_gus_output());
    }

    fn mix(&mut self, first: u64, out: &mut [[i32; 2]], _end: bool) {
        for (n, o) in (first..).zip(out.iter_mut()) {
            let c = self.clock.cycle_of(n);
            while let Some(&f) = self.pending.front().filter(|(t, _)| *t <= c) {
                self.last = f;
                self.pending.pop_front();
            }
            let (t0, a) = self.last;
            let v = match self.pending.front() {
                Some(&(t1, b)) if t1 > t0 => {
                    let (span, at) = (i64::try_from(t1 - t0), i64::try_from(c - t0));
                    let (span, at) = (span.unwrap_or(i64::MAX), at.unwrap_or(0));
                    [0, 1].map(|k| {
                        let (a, b) = (i64::from(a[k]), i64::from(b[k]));
                        (a + (b - a) * at / span) as i32
                    })
                }
                _ => a.map(i32::from),
            };
            o[0] += v[0];
            o[1] += v[1];
        }
    }
}
