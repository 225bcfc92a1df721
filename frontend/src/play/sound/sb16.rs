//! The Sound Blaster 16's DSP as samples: its output level changes
//! (`hw::sb16`, logged with their cycle while capturing) held from each
//! change to the next, and read at each output sample's cycle (a
//! sample-and-hold: the DAC's steps, no filter). Its OPL3 is the OPL
//! source's.

use std::collections::VecDeque;

use hw::Machine;

use super::{Clock, Source};

/// The DSP's output as a [`Source`].
pub struct Sb16Source {
    clock: Clock,
    /// The level held now (the last change at or before the last sample
    /// mixed).
    level: [i16; 2],
    /// Level changes not yet reached: (cycle, left and right).
    pending: VecDeque<(u64, [i16; 2])>,
}

impl Sb16Source {
    /// Hears `m`'s Sound Blaster 16 from its present cycle (switches its
    /// output log on).
    pub fn new(m: &mut Machine, clock: Clock) -> Sb16Source {
        m.capture_sb16(false);
        m.capture_sb16(true);
        Sb16Source {
            clock,
            level: m.bus.dev.sb16.level(),
            pending: VecDeque::new(),
        }
    }
}

impl Source for Sb16Source {
    fn take(&mut self, m: &mut Machine) {
        self.pending.extend(m.take_sb16_output());
    }

    fn mix(&mut self, first: u64, out: &mut [[i32; 2]], _end: bool) {
        for (n, o) in (first..).zip(out.iter_mut()) {
            let c = self.clock.cycle_of(n);
            while let Some(&(_, v)) = self.pending.front().filter(|(t, _)| *t <= c) {
                self.level = v;
                self.pending.pop_front();
            }
            o[0] += i32::from(self.level[0]);
            o[1] += i32::from(self.level[1]);
        }
    }
}
