//! Intel 8259A programmable interrupt controllers: the AT's master (ports
//! 20h/21h, IRQ0-7) and slave (A0h/A1h, IRQ8-15) cascaded on the master's
//! IR2.
//!
//! Section names refer to the Intel 8259A datasheet (order no. 231468).
//! Requests are edge triggered unless ICW1 selects level triggering; in
//! both modes a request must still be present at INTA, otherwise the chip
//! answers with IR7's vector without setting ISR ("spurious IRQ7/IRQ15").

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};

/// The AT BIOS programming of the pair (port, value): ICW1=11h (edge,
/// cascade, ICW4), vectors 08h/70h, master has a slave on IR2, slave ID 2,
/// ICW4=01h (8086).
pub const AT_BIOS_INIT: [(u16, u8); 8] = [
    (0x20, 0x11),
    (0x21, 0x08),
    (0x21, 0x04),
    (0x21, 0x01),
    (0xA0, 0x11),
    (0xA1, 0x70),
    (0xA1, 0x02),
    (0xA1, 0x01),
];

/// One 8259A.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Pic8259 {
    /// Interrupt request register.
    pub irr: u8,
    /// In-service register.
    pub isr: u8,
    /// Interrupt mask register (OCW1).
    pub imr: u8,
    /// Current levels of the IR inputs.
    lines: u8,
    /// ICW1 LTIM: level-triggered mode.
    level_mode: bool,
    /// ICW1 SNGL: no ICW3 (no cascade).
    single: bool,
    /// ICW1 IC4: ICW4 follows.
    icw4_needed: bool,
    /// ICW2: vector base (T7-T3).
    vector_base: u8,
    /// ICW3: slave mask (master) or slave ID (slave).
    icw3: u8,
    /// True for the slave chip (the AT ties SP/EN low on it).
    is_slave: bool,
    /// ICW4 AEOI.
    auto_eoi: bool,
    /// ICW4 SFNM.
    special_fully_nested: bool,
    /// OCW2 rotate-in-automatic-EOI mode.
    rotate_on_aeoi: bool,
    /// OCW3 special mask mode.
    special_mask: bool,
    /// OCW3 RIS: port A0=0 reads ISR (else IRR).
    read_isr: bool,
    /// OCW3 P: the next read of A0=0 is a poll.
    poll: bool,
    /// The IR with the lowest priority (7 after initialisation).
    lowest: u8,
    /// Initialisation step: 0 = operational, 2-4 = next ICW expected.
    init_step: u8,
}

impl Pic8259 {
    /// A chip in its power-on state (not initialised: vector base 0, all
    /// masked as a BIOS would find it before programming).
    pub fn new(is_slave: bool) -> Self {
        Pic8259 {
            irr: 0,
            isr: 0,
            imr: 0xFF,
            lines: 0,
            level_mode: false,
            single: false,
            icw4_needed: false,
            vector_base: 0,
            icw3: 0,
            is_slave,
            auto_eoi: false,
            special_fully_nested: false,
            rotate_on_aeoi: false,
            special_mask: false,
            read_isr: false,
            poll: false,
            lowest: 7,
            init_step: 0,
        }
    }

    /// The vector base programmed by ICW2.
    pub fn vector_base(&self) -> u8 {
        self.vector_base
    }

    /// Input levels of the IR lines.
    pub fn lines(&self) -> u8 {
        self.lines
    }

    /// Drives IR input `irq` (0-7) to `level`.
    pub fn set_line(&mut self, irq: u8, level: bool) {
        let bit = 1u8 << (irq & 7);
        let was = self.lines & bit != 0;
        if level {
            self.lines |= bit;
            if self.level_mode || !was {
                self.irr |= bit;
            }
        } else {
            self.lines &= !bit;
            // A request that goes away before INTA is lost (section
            // "Edge and Level Triggered Modes").
            self.irr &= !bit;
        }
    }

    /// The IR levels in priority order, highest first.
    fn priority_order(&self) -> impl Iterator<Item = u8> {
        let first = (self.lowest + 1) & 7;
        (0..8).map(move |i| (first + i) & 7)
    }

    /// The request that would be acknowledged now, if any: the highest
    /// priority unmasked IRR bit above every in-service level.
    fn pending(&self) -> Option<u8> {
        let req = self.irr & !self.imr;
        if req == 0 {
            return None;
        }
        // Special mask mode: masked in-service levels do not block.
        let mut isr = if self.special_mask {
            self.isr & !self.imr
        } else {
            self.isr
        };
        for ir in self.priority_order() {
            let bit = 1 << ir;
            let cascade = !self.is_slave && !self.single && self.icw3 & bit != 0;
            if req & bit != 0 && (isr & bit == 0 || (cascade && self.special_fully_nested)) {
                // SFNM: a slave in service does not block a higher request
                // from the same slave (section "Special Fully Nest Mode").
                return Some(ir);
            }
            if isr & bit != 0 {
                return None;
            }
            isr &= !bit;
        }
        None
    }

    /// The INT output. Sampled after every instruction, so the usual case
    /// (no unmasked request) is answered without the priority scan.
    #[inline]
    pub fn int_output(&self) -> bool {
        self.irr & !self.imr != 0 && self.init_step == 0 && self.pending().is_some()
    }

    /// Whether IR `ir` is a cascade input of this (master) chip.
    pub fn is_cascade(&self, ir: u8) -> bool {
        !self.is_slave && !self.single && self.icw3 & (1 << (ir & 7)) != 0
    }

    /// The acknowledge: sets ISR, clears IRR and returns the level, or
    /// `None` for a spurious request (no ISR bit set; the vector is IR7's).
    pub fn acknowledge(&mut self) -> Option<u8> {
        let ir = self.pending()?;
        let bit = 1 << ir;
        if !self.level_mode {
            self.irr &= !bit;
        } else {
            self.irr = self.lines;
        }
        if self.auto_eoi {
            if self.rotate_on_aeoi {
                self.lowest = ir;
            }
        } else {
            self.isr |= bit;
        }
        Some(ir)
    }

    /// The vector for an acknowledged level (IR7's for a spurious one).
    pub fn vector(&self, ir: Option<u8>) -> u8 {
        (self.vector_base & 0xF8) | ir.unwrap_or(7)
    }

    /// The highest priority in-service level.
    fn highest_in_service(&self) -> Option<u8> {
        self.priority_order().find(|&ir| self.isr & (1 << ir) != 0)
    }

    /// A write to the A0=0 port (20h/A0h): ICW1, OCW2 or OCW3.
    pub fn write_command(&mut self, v: u8) {
        if v & 0x10 != 0 {
            // ICW1 (section "Initialization Command Words"): IMR cleared,
            // IR7 lowest priority, special mask off, status read = IRR, edge
            // sense reset (a line already high needs a new rising edge). We
            // also clear ISR and IRR as most AT BIOSes assume.
            self.level_mode = v & 0x08 != 0;
            self.single = v & 0x02 != 0;
            self.icw4_needed = v & 0x01 != 0;
            self.imr = 0;
            self.isr = 0;
            self.irr = if self.level_mode { self.lines } else { 0 };
            self.lowest = 7;
            self.special_mask = false;
            self.read_isr = false;
            self.poll = false;
            self.auto_eoi = false;
            self.special_fully_nested = false;
            self.rotate_on_aeoi = false;
            self.init_step = 2;
            return;
        }
        if v & 0x08 != 0 {
            // OCW3.
            if v & 0x40 != 0 {
                self.special_mask = v & 0x20 != 0;
            }
            self.poll = v & 0x04 != 0;
            if v & 0x02 != 0 {
                self.read_isr = v & 0x01 != 0;
            }
            return;
        }
        // OCW2: R SL EOI L2 L1 L0.
        let level = v & 7;
        match v >> 5 {
            0b001 => {
                // Non-specific EOI.
                if let Some(ir) = self.highest_in_service() {
                    self.isr &= !(1 << ir);
                }
            }
            0b011 => self.isr &= !(1 << level),
            0b101 => {
                // Rotate on non-specific EOI.
                if let Some(ir) = self.highest_in_service() {
                    self.isr &= !(1 << ir);
                    self.lowest = ir;
                }
            }
            0b100 => self.rotate_on_aeoi = true,
            0b000 => self.rotate_on_aeoi = false,
            0b111 => {
                self.isr &= !(1 << level);
                self.lowest = level;
            }
            0b110 => self.lowest = level,
            _ => {} // 010: no operation
        }
    }

    /// A write to the A0=1 port (21h/A1h): ICW2-4 during initialisation,
    /// otherwise OCW1 (the mask).
    pub fn write_data(&mut self, v: u8) {
        match self.init_step {
            2 => {
                self.vector_base = v & 0xF8;
                self.init_step = if !self.single {
                    3
                } else if self.icw4_needed {
                    4
                } else {
                    0
                };
            }
            3 => {
                self.icw3 = v;
                self.init_step = if self.icw4_needed { 4 } else { 0 };
            }
            4 => {
                // ICW4: SFNM, BUF, M/S, AEOI, uPM (x86 mode assumed).
                self.auto_eoi = v & 0x02 != 0;
                self.special_fully_nested = v & 0x10 != 0;
                self.init_step = 0;
            }
            _ => self.imr = v,
        }
    }

    /// A read of the A0=0 port: the poll word after an OCW3 poll command,
    /// else IRR or ISR as OCW3 selected.
    pub fn read_command(&mut self) -> u8 {
        if self.poll {
            self.poll = false;
            // The poll acts as an INTA (section "The Poll Command").
            return match self.acknowledge() {
                Some(ir) => 0x80 | ir,
                None => 0,
            };
        }
        if self.read_isr {
            self.isr
        } else {
            self.irr
        }
    }

    /// A read of the A0=1 port: the mask.
    pub fn read_data(&self) -> u8 {
        self.imr
    }
}

/// The AT's two 8259As, the slave's INT wired to the master's IR2.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Pics {
    /// IRQ0-7 at ports 20h/21h.
    pub master: Pic8259,
    /// IRQ8-15 at ports A0h/A1h.
    pub slave: Pic8259,
}

impl Default for Pics {
    fn default() -> Self {
        Self::new()
    }
}

impl Pics {
    /// Both chips uninitialised.
    pub fn new() -> Self {
        Pics {
            master: Pic8259::new(false),
            slave: Pic8259::new(true),
        }
    }

    fn sync_cascade(&mut self) {
        let int = self.slave.int_output();
        if int != (self.master.lines() & 4 != 0) {
            self.master.set_line(2, int);
        }
    }

    /// Drives IRQ line `irq` (0-15).
    pub fn set_irq(&mut self, irq: u8, level: bool) {
        if irq < 8 {
            self.master.set_line(irq, level);
        } else {
            self.slave.set_line(irq & 7, level);
            self.sync_cascade();
        }
    }

    /// The CPU's INTR input.
    #[inline]
    pub fn intr(&self) -> bool {
        self.master.int_output()
    }

    /// The INTA sequence: the vector on the data bus. A spurious request on
    /// the master gives its IR7 vector; one on the slave gives the slave's
    /// IR7 vector (IRQ15) with the master's IR2 in service.
    pub fn inta(&mut self) -> u8 {
        let ir = self.master.acknowledge();
        let v = match ir {
            Some(ir) if self.master.is_cascade(ir) => {
                let s = self.slave.acknowledge();
                self.slave.vector(s)
            }
            _ => self.master.vector(ir),
        };
        self.sync_cascade();
        v
    }

    /// A write to ports 20h/21h/A0h/A1h (`port` is the full port number).
    pub fn write(&mut self, port: u16, v: u8) {
        let chip = if port & 0x80 != 0 {
            &mut self.slave
        } else {
            &mut self.master
        };
        if port & 1 == 0 {
            chip.write_command(v);
        } else {
            chip.write_data(v);
        }
        self.sync_cascade();
    }

    /// A read of ports 20h/21h/A0h/A1h.
    pub fn read(&mut self, port: u16) -> u8 {
        let v = {
            let chip = if port & 0x80 != 0 {
                &mut self.slave
            } else {
                &mut self.master
            };
            if port & 1 == 0 {
                chip.read_command()
            } else {
                chip.read_data()
            }
        };
        self.sync_cascade();
        v
    }
}

impl Device for Pics {
    const NAME: &'static str = "8259A pair";
    const PORTS: &'static [Ports] = &[0x20..=0x21, 0xA0..=0xA1];

    fn power_on(_: &MachineConfig) -> Self {
        Pics::new()
    }

    fn read(bus: &mut PcBus, port: u16, _: u64) -> u8 {
        bus.dev.pics.read(port)
    }

    fn write(bus: &mut PcBus, port: u16, v: u8, _: u64) {
        bus.dev.pics.write(port, v);
    }

    fn perturb(&mut self) {
        self.set_irq(3, true);
    }
}

#[cfg(test)]
mod tests {
    //! Every command word of the 8259A datasheet, driven through the ports.

    use super::*;

    fn at() -> Pics {
        let mut p = Pics::new();
        for (port, v) in AT_BIOS_INIT {
            p.write(port, v);
        }
        p
    }

    fn read_irr(p: &mut Pics, port: u16) -> u8 {
        p.write(port, 0x0A);
        p.read(port)
    }

    fn read_isr(p: &mut Pics, port: u16) -> u8 {
        p.write(port, 0x0B);
        p.read(port)
    }

    #[test]
    fn icw_sequence_sets_vectors_and_clears_mask() {
        let mut p = at();
        assert_eq!(p.read(0x21), 0x00);
        assert_eq!(p.read(0xA1), 0x00);
        p.set_irq(0, true);
        assert!(p.intr());
        assert_eq!(p.inta(), 0x08);
        p.write(0x20, 0x20);
        p.set_irq(9, true);
        assert_eq!(p.inta(), 0x71);
    }

    #[test]
    fn single_mode_skips_icw3_and_no_icw4() {
        let mut p = Pics::new();
        p.write(0x20, 0x12); // SNGL, no IC4
        p.write(0x21, 0x50); // ICW2 -> operational
        p.write(0x21, 0xFE); // this is OCW1 now
        assert_eq!(p.read(0x21), 0xFE);
        p.set_irq(0, true);
        assert_eq!(p.inta(), 0x50);
    }

    #[test]
    fn ocw1_mask_and_irr_isr_reads() {
        let mut p = at();
        p.write(0x21, 0x01); // mask IRQ0
        p.set_irq(0, true);
        assert!(!p.intr());
        assert_eq!(read_irr(&mut p, 0x20), 0x01);
        p.write(0x21, 0x00);
        assert!(p.intr());
        assert_eq!(p.inta(), 0x08);
        assert_eq!(read_irr(&mut p, 0x20), 0x00);
        assert_eq!(read_isr(&mut p, 0x20), 0x01);
        // The status-read selection persists until changed.
        assert_eq!(p.read(0x20), 0x01);
    }

    #[test]
    fn fully_nested_priority_and_non_specific_eoi() {
        let mut p = at();
        p.set_irq(1, true);
        assert_eq!(p.inta(), 0x09);
        // IRQ3 is lower than IRQ1 in service: held off.
        p.set_irq(3, true);
        assert!(!p.intr());
        // IRQ0 is higher: nests.
        p.set_irq(0, true);
        assert_eq!(p.inta(), 0x08);
        assert_eq!(read_isr(&mut p, 0x20), 0x03);
        p.write(0x20, 0x20); // EOI clears the highest in service: IR0
        assert_eq!(read_isr(&mut p, 0x20), 0x02);
        assert!(!p.intr());
        p.write(0x20, 0x20);
        assert!(p.intr());
        assert_eq!(p.inta(), 0x0B);
    }

    #[test]
    fn specific_eoi() {
        let mut p = at();
        p.set_irq(4, true);
        p.inta();
        p.set_irq(1, true);
        p.inta();
        p.write(0x20, 0x64); // specific EOI for IR4
        assert_eq!(read_isr(&mut p, 0x20), 0x02);
    }

    #[test]
    fn edge_triggering_needs_a_new_rising_edge() {
        let mut p = at();
        p.set_irq(0, true);
        assert_eq!(p.inta(), 0x08);
        p.write(0x20, 0x20);
        // The line is still high: no new request.
        assert!(!p.intr());
        p.set_irq(0, false);
        p.set_irq(0, true);
        assert!(p.intr());
    }

    #[test]
    fn level_triggering_repeats_while_high() {
        let mut p = Pics::new();
        p.write(0x20, 0x1B); // LTIM, SNGL, IC4
        p.write(0x21, 0x20);
        p.write(0x21, 0x01);
        p.set_irq(5, true);
        assert_eq!(p.inta(), 0x25);
        assert!(!p.intr()); // in service
        p.write(0x20, 0x20);
        assert!(p.intr()); // still high: requests again
        p.set_irq(5, false);
        assert!(!p.intr());
    }

    #[test]
    fn auto_eoi_leaves_isr_clear() {
        let mut p = Pics::new();
        p.write(0x20, 0x13); // edge, single, IC4
        p.write(0x21, 0x08);
        p.write(0x21, 0x03); // AEOI, 8086
        p.set_irq(3, true);
        assert_eq!(p.inta(), 0x0B);
        assert_eq!(read_isr(&mut p, 0x20), 0x00);
        p.set_irq(4, true);
        assert!(p.intr());
    }

    #[test]
    fn rotation_commands() {
        let mut p = at();
        // Set priority: IR3 lowest, so IR4 is highest.
        p.write(0x20, 0xC3);
        p.set_irq(0, true);
        p.set_irq(5, true);
        assert_eq!(p.inta(), 0x0D); // IR5 beats IR0 (order 4,5,6,7,0,..)
                                    // Rotate on non-specific EOI: IR5 becomes lowest, IR6 highest.
        p.write(0x20, 0xA0);
        assert_eq!(read_isr(&mut p, 0x20), 0);
        assert_eq!(p.inta(), 0x08); // IR0 now
                                    // Rotate on specific EOI for IR0: IR0 lowest, IR1 highest.
        p.write(0x20, 0xE0);
        p.set_irq(1, true);
        p.set_irq(7, true);
        assert_eq!(p.inta(), 0x09);
        // Rotate in AEOI mode: with AEOI each acknowledge rotates.
        let mut q = Pics::new();
        q.write(0x20, 0x13);
        q.write(0x21, 0x08);
        q.write(0x21, 0x03);
        q.write(0x20, 0x80); // rotate in AEOI set
        q.set_irq(2, true);
        q.set_irq(6, true);
        assert_eq!(q.inta(), 0x0A); // IR2; now lowest, IR3 highest
        q.set_irq(1, true);
        assert_eq!(q.inta(), 0x0E); // IR6 beats IR1 now
        q.write(0x20, 0x00); // rotate in AEOI clear
        q.set_irq(0, true);
        assert_eq!(q.inta(), 0x08); // order 7,0,1: IR0 before IR1
    }

    #[test]
    fn special_mask_mode_lets_lower_levels_in() {
        let mut p = at();
        p.set_irq(3, true);
        assert_eq!(p.inta(), 0x0B);
        p.set_irq(5, true);
        assert!(!p.intr()); // blocked by IR3 in service
        p.write(0x21, 0x08); // mask IR3
        p.write(0x20, 0x68); // set special mask
        assert!(p.intr());
        assert_eq!(p.inta(), 0x0D);
        p.write(0x20, 0x48); // reset special mask
        p.write(0x20, 0x65); // specific EOI IR5
        assert_eq!(read_isr(&mut p, 0x20), 0x08);
    }

    #[test]
    fn poll_command() {
        let mut p = at();
        p.write(0x20, 0x0C); // poll
        assert_eq!(p.read(0x20), 0x00);
        p.set_irq(6, true);
        p.write(0x20, 0x0C);
        assert_eq!(p.read(0x20), 0x86);
        assert_eq!(read_isr(&mut p, 0x20), 0x40);
    }

    #[test]
    fn spurious_irq7_and_irq15() {
        let mut p = at();
        // A request that vanishes before INTA: IR7's vector, no ISR bit.
        p.set_irq(4, true);
        assert!(p.intr());
        p.set_irq(4, false);
        assert_eq!(p.inta(), 0x0F);
        assert_eq!(read_isr(&mut p, 0x20), 0x00);
        // On the slave: the master acknowledges IR2, the slave answers
        // with its IR7 vector (IRQ15) and sets no ISR bit of its own.
        p.set_irq(12, true);
        assert!(p.intr());
        // The slave's request disappears while the master's IR2 stays
        // latched (the slave's INT fell after the master saw it).
        p.slave.set_line(4, false);
        assert_eq!(p.inta(), 0x77);
        assert_eq!(read_isr(&mut p, 0x20), 0x04);
        assert_eq!(read_isr(&mut p, 0xA0), 0x00);
    }

    #[test]
    fn cascade_and_special_fully_nested() {
        let mut p = at();
        p.set_irq(12, true);
        assert_eq!(p.inta(), 0x74);
        // Normal nesting: IRQ10 (higher on the slave) is blocked by the
        // master's IR2 in service.
        p.set_irq(10, true);
        assert!(!p.intr());
        // SFNM on the master lets it through.
        let mut q = Pics::new();
        for (port, v) in [
            (0x20, 0x11),
            (0x21, 0x08),
            (0x21, 0x04),
            (0x21, 0x11),
            (0xA0, 0x11),
            (0xA1, 0x70),
            (0xA1, 0x02),
            (0xA1, 0x01),
        ] {
            q.write(port, v);
        }
        q.set_irq(12, true);
        assert_eq!(q.inta(), 0x74);
        q.set_irq(10, true);
        assert!(q.intr());
        assert_eq!(q.inta(), 0x72);
        // EOI to both chips for the slave's interrupts.
        q.write(0xA0, 0x20);
        q.write(0xA0, 0x20);
        q.write(0x20, 0x20);
        assert_eq!(read_isr(&mut q, 0xA0), 0);
        assert_eq!(read_isr(&mut q, 0x20), 0);
    }
}
