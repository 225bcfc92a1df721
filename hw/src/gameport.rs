//! The IBM Game Control Adapter (IBM PC Technical Reference, "Game Control
//! Adapter"): the game port at 201h, two joysticks of two axes and two
//! buttons each.
//!
//! Each of the four axes is a potentiometer (0-100 kOhm) timing one
//! section of an NE558 quad timer wired as a one-shot. A write of any
//! value to 201h triggers all four: their outputs (bits 0-3 of 201h) go to
//! 1 and each returns to 0 after
//!
//! ```text
//! t = 24.2 us + 0.011 us/Ohm * R
//! ```
//!
//! (the Technical Reference's formula), 24.2 us with the stick at one end
//! and 1124.2 us at the other, about 574 us at the centre (50 kOhm). The
//! time is counted in the machine's CPU cycles, so a program's own
//! counting loop reads values that grow with the CPU's speed as on the real
//! machine. Like a 555, a section already timing ignores a trigger: a
//! write does not restart a one-shot whose output is still 1. Until the
//! first trigger after power-on the outputs are 0. Bits 4-7 are the four
//! buttons, 0 while pressed.
//!
//! | bit | meaning | bit | meaning |
//! |---|---|---|---|
//! | 0 | stick A, X axis | 4 | stick A, button 1 |
//! | 1 | stick A, Y axis | 5 | stick A, button 2 |
//! | 2 | stick B, X axis | 6 | stick B, button 1 |
//! | 3 | stick B, Y axis | 7 | stick B, button 2 |
//!
//! Decode: the IBM card decodes 200h-207h with the low three address bits
//! ignored, but the game ports of the 1990s (on sound cards and multi-I/O
//! cards) answer at 201h only, and every program uses 201h; tandem decodes
//! 201h alone and leaves 200h and 202h-207h to other cards. Without the
//! adapter ([`MachineConfig::joystick`] false) 201h floats at FFh.
//!
//! No event is needed: the bits are computed from the cycle of the read.
//! Both sticks are always plugged in; their positions and buttons come from
//! the host ([`GamePort::set_axis`], [`GamePort::set_button`]) and start
//! centred and released.

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};

/// The adapter's port.
pub const PORT: u16 = 0x201;
/// The potentiometer's full resistance (ohms).
pub const FULL_OHMS: u64 = 100_000;
/// The one-shot's fixed part, in nanoseconds (24.2 us).
const BASE_NS: u64 = 24_200;
/// Nanoseconds per ohm of the potentiometer (0.011 us).
const NS_PER_OHM: u64 = 11;
/// The axes: stick A's X and Y, stick B's X and Y.
pub const AXES: usize = 4;

/// The game port: its sticks' positions and buttons, and when each
/// one-shot's output drops.
#[derive(Clone, Debug, Hash, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GamePort {
    /// The adapter is fitted.
    fitted: bool,
    /// The CPU clock that times the one-shots.
    cpu_hz: u64,
    /// Each axis's position, -32768 (left/up) to 32767 (right/down), as
    /// SDL reports a joystick's axis; 0 is about the centre.
    pub axes: [i16; AXES],
    /// The buttons held: bit n is port bit 4 + n (1 = pressed).
    pub buttons: u8,
    /// The cycle at which each one-shot's output returns to 0.
    ends: [u64; AXES],
}

impl GamePort {
    /// An adapter (or none, `fitted` false) timed by a `cpu_hz` clock, its
    /// sticks centred, no button held, the one-shots not triggered.
    pub fn new(fitted: bool, cpu_hz: u64) -> Self {
        GamePort {
            fitted,
            cpu_hz: cpu_hz.max(1),
            axes: [0; AXES],
            buttons: 0,
            ends: [0; AXES],
        }
    }

    /// True when the adapter is fitted.
    pub fn fitted(&self) -> bool {
        self.fitted
    }

    /// Sets axis `axis` (0-3: A-X, A-Y, B-X, B-Y; others are ignored) to
    /// `pos` (see [`GamePort::axes`]). A one-shot already timing keeps the
    /// time it started with.
    pub fn set_axis(&mut self, axis: usize, pos: i16) {
        if let Some(a) = self.axes.get_mut(axis) {
            *a = pos;
        }
    }

    /// Presses (`down`) or releases button `button` (0-3: A's 1 and 2,
    /// B's 1 and 2; others are ignored).
    pub fn set_button(&mut self, button: usize, down: bool) {
        if button < 4 {
            let bit = 1u8 << button;
            self.buttons = if down {
                self.buttons | bit
            } else {
                self.buttons & !bit
            };
        }
    }

    /// The potentiometer's resistance for a position (0 to [`FULL_OHMS`]).
    pub fn ohms(pos: i16) -> u64 {
        (pos as i64 + 32768) as u64 * FULL_OHMS / 65535
    }

    /// The length of axis `axis`'s one-shot now, in CPU cycles.
    pub fn pulse_cycles(&self, axis: usize) -> u64 {
        let ohms = Self::ohms(self.axes[axis % AXES]);
        let ns = BASE_NS + NS_PER_OHM * ohms;
        (ns as u128 * self.cpu_hz as u128 / 1_000_000_000) as u64
    }

    /// The port's value at cycle `now`: the one-shots still timing, the
    /// buttons not pressed.
    pub fn read(&self, now: u64) -> u8 {
        let timing = (0..AXES).fold(0u8, |v, i| v | ((now < self.ends[i]) as u8) << i);
        timing | (!self.buttons & 0x0F) << 4
    }

    /// A write at cycle `now`: triggers every one-shot not timing.
    pub fn trigger(&mut self, now: u64) {
        for i in 0..AXES {
            if now >= self.ends[i] {
                self.ends[i] = now + self.pulse_cycles(i);
            }
        }
    }
}

/// Without the adapter 201h floats at FFh and counts as unhandled.
impl Device for GamePort {
    const NAME: &'static str = "game port";
    const PORTS: &'static [Ports] = &[PORT..=PORT];

    fn power_on(config: &MachineConfig) -> Self {
        GamePort::new(config.joystick, config.cpu_hz)
    }

    fn read(bus: &mut PcBus, port: u16, now: u64) -> u8 {
        if !bus.dev.gameport.fitted {
            bus.note_unhandled(port);
            return 0xFF;
        }
        bus.dev.gameport.read(now)
    }

    fn write(bus: &mut PcBus, port: u16, _: u8, now: u64) {
        if !bus.dev.gameport.fitted {
            bus.note_unhandled(port);
            return;
        }
        bus.dev.gameport.trigger(now);
    }

    fn perturb(&mut self) {
        self.set_axis(1, -20_000);
        self.set_button(2, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Machine, MachineConfig};

    const HZ: u64 = 33_000_000;

    fn machine(joystick: bool) -> Machine {
        Machine::new(MachineConfig {
            joystick,
            ..MachineConfig::with_cpu(emu::CpuModel::I386, HZ)
        })
    }

    /// The cycle at which bit `bit` drops after a write at cycle 1000.
    fn drop_cycle(g: &mut GamePort, bit: u8) -> u64 {
        g.trigger(1000);
        let mut lo = 1000;
        let mut hi = 1000 + HZ;
        assert_eq!(g.read(lo) >> bit & 1, 1, "high just after the write");
        assert_eq!(g.read(hi) >> bit & 1, 0, "low a second later");
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if g.read(mid) >> bit & 1 == 1 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        hi - 1000
    }

    #[test]
    fn the_one_shot_follows_the_reference_formula() {
        for (pos, us) in [(-32768, 24.2), (0, 574.2), (32767, 1124.2)] {
            let mut g = GamePort::new(true, HZ);
            g.set_axis(2, pos);
            let cycles = drop_cycle(&mut g, 2);
            let expect = us * HZ as f64 / 1e6;
            assert!(
                (cycles as f64 - expect).abs() < 2.0,
                "{pos}: {cycles} cycles, expected {expect}"
            );
        }
        // Monotonic in the position, and scaled by the clock.
        let mut last = 0;
        for pos in (-32768..=32767).step_by(4096) {
            let mut g = GamePort::new(true, HZ);
            g.set_axis(0, pos as i16);
            let c = drop_cycle(&mut g, 0);
            assert!(c > last, "{pos}");
            last = c;
        }
        let slow = GamePort::new(true, 4_772_727);
        let fast = GamePort::new(true, HZ);
        assert!(fast.pulse_cycles(0) > 6 * slow.pulse_cycles(0));
    }

    #[test]
    fn outputs_start_low_and_a_timing_one_shot_ignores_a_trigger() {
        let mut g = GamePort::new(true, HZ);
        assert_eq!(g.read(0), 0xF0, "not triggered, no button");
        g.set_axis(0, -32768);
        g.trigger(0);
        let short = g.pulse_cycles(0);
        let centre = g.pulse_cycles(1);
        assert_eq!(g.read(short - 1), 0xFF);
        assert_eq!(g.read(short), 0xFE, "A-X dropped first");
        // A-Y still timing: a second write leaves it; A-X starts again.
        g.trigger(short + 10);
        assert_eq!(g.read(short + 11), 0xFF, "A-X timing again");
        assert_eq!(g.read(short + 10 + short), 0xFE);
        assert_eq!(g.read(centre - 1), 0xFE);
        assert_eq!(g.read(centre), 0xF0, "A-Y and B kept their first time");
    }

    #[test]
    fn buttons_read_0_while_pressed() {
        let mut g = GamePort::new(true, HZ);
        for (b, bit) in [(0, 0x10), (1, 0x20), (2, 0x40), (3, 0x80)] {
            g.set_button(b, true);
            assert_eq!(g.read(0), 0xF0 & !bit, "button {b}");
            g.set_button(b, false);
        }
        g.set_button(7, true);
        g.set_axis(9, 100);
        assert_eq!(g, GamePort::new(true, HZ), "out of range: ignored");
    }

    #[test]
    fn the_port_on_the_bus_and_without_an_adapter() {
        let mut m = machine(true);
        m.bus.dev.gameport.set_button(0, true);
        assert_eq!(m.in8(0x201), 0xE0);
        m.out8(0x201, 0x55);
        assert_eq!(m.in8(0x201), 0xEF);
        let mut none = machine(false);
        none.out8(0x201, 0);
        assert_eq!(none.in8(0x201), 0xFF);
        assert!(none.bus.unhandled_ports.contains(&0x201));
    }

    #[test]
    fn positions_are_in_the_hash_and_the_save_state() {
        let a = machine(true);
        let mut b = a.clone();
        b.bus.dev.gameport.set_axis(3, 1234);
        assert_ne!(a.state_hash(), b.state_hash());
        let bytes = bincode::serialize(&b).expect("serialize");
        let back: Machine = bincode::deserialize(&bytes).expect("deserialize");
        assert_eq!(back.bus.dev.gameport.axes[3], 1234);
        assert_eq!(back.state_hash(), b.state_hash());
    }
}
