//! Yamaha YM3812 (OPL2) as on the AdLib Music Synthesizer Card: port 388h
//! writes the register index and reads the status, port 389h writes the
//! data. Modelled: the 256-byte register file, timer 1 (80 us per step)
//! and timer 2 (320 us per step), their flags and the status register
//! (YM3812 Application Manual, "Timer" and "Status"), which is what every
//! AdLib detection routine checks. Not modelled yet: the FM synthesis; the
//! registers are kept for it.
//!
//! Time is the OPL's master clock (3.579545 MHz) derived from CPU cycles
//! with a [`ClockRatio`]; a timer steps every 288 (timer 1) or 1152
//! (timer 2) master clocks, from its preset up to 255, then sets its flag
//! and reloads the preset.

use crate::bus::PcBus;
use crate::device::{Device, Ports};
use crate::machine::MachineConfig;
use crate::scheduler::ClockRatio;

/// The OPL2's master clock on the AdLib card.
pub const MASTER_HZ: u64 = 3_579_545;

/// Master clocks per step of timer 1 (4 samples of 72 clocks) and timer 2.
const STEP: [u64; 2] = [288, 1152];

/// One of the two timers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
struct Timer {
    /// Register 02h or 03h: the value loaded at start and at overflow.
    preset: u8,
    /// Register 04h start bit.
    running: bool,
    /// Register 04h mask bit: an overflow does not set the flag.
    masked: bool,
    /// The status flag.
    flag: bool,
    /// Master clock of the next overflow while running.
    next_overflow: u64,
}

impl Timer {
    /// Master clocks from a load to the overflow.
    fn period(&self, k: usize) -> u64 {
        (256 - self.preset as u64) * STEP[k]
    }

    /// Runs the timer to master clock `now`.
    fn advance(&mut self, k: usize, now: u64) {
        if !self.running || now < self.next_overflow {
            return;
        }
        if !self.masked {
            self.flag = true;
        }
        // The flag is all an overflow leaves behind: skip to the last one.
        let p = self.period(k);
        let n = (now - self.next_overflow) / p + 1;
        self.next_overflow += n * p;
    }
}

/// The YM3812 register file, timers and status.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Opl2 {
    clock: ClockRatio,
    /// The register index last written to 388h.
    pub index: u8,
    /// Registers 00h-FFh as written.
    pub regs: Vec<u8>,
    timers: [Timer; 2],
    /// Master clocks counted so far.
    now: u64,
}

impl Opl2 {
    /// An OPL2 on a CPU clocked at `cpu_hz`, timers stopped.
    pub fn new(cpu_hz: u64) -> Self {
        Opl2 {
            clock: ClockRatio::new(MASTER_HZ, cpu_hz.max(1)),
            index: 0,
            regs: vec![0; 256],
            timers: Default::default(),
            now: 0,
        }
    }

    /// Brings the timers to CPU cycle `cycle`.
    pub fn advance_to(&mut self, cycle: u64) {
        self.now = self.now.max(self.clock.ticks_at(cycle));
        for (k, t) in self.timers.iter_mut().enumerate() {
            t.advance(k, self.now);
        }
    }

    /// 388h write: the register index.
    pub fn write_index(&mut self, v: u8) {
        self.index = v;
    }

    /// 389h write: data for the indexed register. The caller has advanced
    /// the OPL to the current cycle.
    pub fn write_data(&mut self, v: u8) {
        let i = self.index as usize;
        self.regs[i] = v;
        match i {
            0x02 | 0x03 => self.timers[i - 2].preset = v,
            0x04 => {
                if v & 0x80 != 0 {
                    // IRQ RESET: clears both flags; the other bits are
                    // ignored in this write.
                    for t in &mut self.timers {
                        t.flag = false;
                    }
                    return;
                }
                for (k, t) in self.timers.iter_mut().enumerate() {
                    t.masked = v & (0x40 >> k) != 0;
                    let start = v & (1 << k) != 0;
                    // A start loads the preset; the first step comes one
                    // step period later.
                    if start && !t.running {
                        t.next_overflow = self.now + t.period(k);
                    }
                    t.running = start;
                }
            }
            _ => {}
        }
    }

    /// 388h read: the status register. Bit 7 IRQ (either flag), bit 6
    /// timer 1 flag, bit 5 timer 2 flag; bits 2-1 read as 1 on the YM3812
    /// (the YMF262 reads 0 there, which is how programs tell an OPL3). The
    /// caller has advanced the OPL to the current cycle.
    pub fn status(&self) -> u8 {
        let (f1, f2) = (self.timers[0].flag, self.timers[1].flag);
        ((f1 || f2) as u8) << 7 | (f1 as u8) << 6 | (f2 as u8) << 5 | 0x06
    }
}

/// Without an AdLib ([`MachineConfig::adlib`] off) the ports float at FFh
/// and count as unhandled.
impl Device for Opl2 {
    const NAME: &'static str = "YM3812 (AdLib)";
    const PORTS: &'static [Ports] = &[0x388..=0x389];

    fn power_on(config: &MachineConfig) -> Self {
        Opl2::new(config.cpu_hz.max(1))
    }

    fn read(bus: &mut PcBus, port: u16, now: u64) -> u8 {
        if !bus.adlib || port != 0x388 {
            bus.note_unhandled(port);
            return 0xFF;
        }
        bus.dev.opl.advance_to(now);
        bus.dev.opl.status()
    }

    fn write(bus: &mut PcBus, port: u16, v: u8, now: u64) {
        if !bus.adlib {
            bus.note_unhandled(port);
        } else if port == 0x388 {
            bus.dev.opl.write_index(v);
        } else {
            bus.dev.opl.advance_to(now);
            bus.dev.opl.write_data(v);
        }
    }

    fn perturb(&mut self) {
        self.write_index(0x20);
        self.write_data(0x01);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CPU: u64 = 12_000_000;

    fn reg(o: &mut Opl2, i: u8, v: u8) {
        o.write_index(i);
        o.write_data(v);
    }

    /// CPU cycles of `master` OPL clocks.
    fn cycles(master: u64) -> u64 {
        ClockRatio::new(MASTER_HZ, CPU).cycle_of_tick(master)
    }

    #[test]
    fn adlib_detection_sequence() {
        // The AdLib programming guide's test: reset, start timer 1 at FFh,
        // wait more than 80 us, expect C0h in the top bits.
        let mut o = Opl2::new(CPU);
        reg(&mut o, 4, 0x60);
        reg(&mut o, 4, 0x80);
        assert_eq!(o.status() & 0xE0, 0x00);
        reg(&mut o, 2, 0xFF);
        reg(&mut o, 4, 0x21);
        o.advance_to(cycles(287));
        assert_eq!(o.status() & 0xE0, 0x00, "one step is 288 clocks");
        o.advance_to(cycles(288));
        assert_eq!(o.status() & 0xE0, 0xC0);
        assert_eq!(o.status() & 0x1F, 0x06);
        reg(&mut o, 4, 0x60);
        reg(&mut o, 4, 0x80);
        assert_eq!(o.status(), 0x06);
    }

    #[test]
    fn timer2_period_mask_and_reload() {
        let mut o = Opl2::new(CPU);
        reg(&mut o, 3, 0xFE); // two steps of 1152 clocks
        reg(&mut o, 4, 0x42); // start timer 2, timer 1 masked
        o.advance_to(cycles(2 * 1152 - 1));
        assert_eq!(o.status(), 0x06);
        o.advance_to(cycles(2 * 1152));
        assert_eq!(o.status(), 0xA6);
        reg(&mut o, 4, 0x80);
        // Reloaded: the next overflow is one period after the first.
        o.advance_to(cycles(4 * 1152 - 1));
        assert_eq!(o.status(), 0x06);
        o.advance_to(cycles(4 * 1152));
        assert_eq!(o.status(), 0xA6);
        // Masked, an overflow leaves no flag; stopped, nothing happens.
        reg(&mut o, 4, 0x80);
        reg(&mut o, 4, 0x22);
        o.advance_to(cycles(10 * 1152));
        assert_eq!(o.status(), 0x06);
        reg(&mut o, 4, 0x00);
        o.advance_to(cycles(20 * 1152));
        assert_eq!(o.status(), 0x06);
        assert_eq!(o.regs[4], 0x00);
        assert_eq!(o.regs[3], 0xFE);
    }
}
