//! The bus interface unit as the execution unit sees it: segment:offset
//! address generation, memory and I/O transfers, instruction fetch and the
//! stack, each transfer going through one bus-cycle path that counts clocks.
//!
//! The register-level model charges each instruction its documented clock
//! count (see [`crate::timing`]); the BIU adds what the table leaves out: the
//! second bus cycle of a word transfer at an odd address (+4 clocks, Intel
//! 8086 Family User's Manual, table 2-21 note) and the wait states a device
//! inserts. The cycle-exact issue replaces this path by a T-state model.

use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::regs::SegReg;

/// Clocks of one extra bus cycle (T1-T4).
pub(crate) const BUS_CYCLE: u32 = 4;

impl Cpu {
    /// Reads a byte at `seg:off`.
    #[inline]
    pub(crate) fn read8<B: Bus>(&mut self, bus: &mut B, seg: u16, off: u16) -> u8 {
        let a = self.linear(seg, off);
        self.step_cycles += bus.mem_wait_states(a);
        bus.mem_read8(a)
    }

    /// Writes a byte at `seg:off`.
    #[inline]
    pub(crate) fn write8<B: Bus>(&mut self, bus: &mut B, seg: u16, off: u16, v: u8) {
        let a = self.linear(seg, off);
        self.step_cycles += bus.mem_wait_states(a);
        bus.mem_write8(a, v)
    }

    /// Reads a word at `seg:off`; the high byte comes from `off + 1` within
    /// the same segment (the offset wraps at FFFFh on the 8086). An odd
    /// address costs a second bus cycle.
    #[inline]
    pub(crate) fn read16<B: Bus>(&mut self, bus: &mut B, seg: u16, off: u16) -> u16 {
        if off & 1 != 0 {
            self.step_cycles += BUS_CYCLE;
        }
        let lo = self.read8(bus, seg, off) as u16;
        let hi = self.read8(bus, seg, off.wrapping_add(1)) as u16;
        lo | hi << 8
    }

    /// Writes a word at `seg:off` (low byte first).
    #[inline]
    pub(crate) fn write16<B: Bus>(&mut self, bus: &mut B, seg: u16, off: u16, v: u16) {
        if off & 1 != 0 {
            self.step_cycles += BUS_CYCLE;
        }
        self.write8(bus, seg, off, v as u8);
        self.write8(bus, seg, off.wrapping_add(1), (v >> 8) as u8);
    }

    /// Fetches the next instruction byte at CS:IP and advances IP (16-bit
    /// wrap in real mode).
    #[inline]
    pub(crate) fn fetch8<B: Bus>(&mut self, bus: &mut B) -> u8 {
        let cs = self.regs.sreg(SegReg::CS);
        let ip = self.regs.ip as u16;
        self.regs.ip = ip.wrapping_add(1) as u32;
        let a = self.linear(cs, ip);
        bus.mem_read8(a)
    }

    /// Pushes a word: SP -= 2, then the write at SS:SP.
    #[inline]
    pub(crate) fn push16<B: Bus>(&mut self, bus: &mut B, v: u16) {
        let sp = self.regs.get16(4).wrapping_sub(2);
        self.regs.put16(4, sp);
        let ss = self.regs.sreg(SegReg::SS);
        self.write16(bus, ss, sp, v);
    }

    /// Pops a word: the read at SS:SP, then SP += 2.
    #[inline]
    pub(crate) fn pop16<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let sp = self.regs.get16(4);
        let ss = self.regs.sreg(SegReg::SS);
        let v = self.read16(bus, ss, sp);
        self.regs.put16(4, sp.wrapping_add(2));
        v
    }

    /// Reads a port, a byte or a word; a word at an odd port takes two bus
    /// cycles.
    pub(crate) fn port_in<B: Bus>(&mut self, bus: &mut B, port: u16, word: bool) -> u16 {
        if word {
            if port & 1 != 0 {
                self.step_cycles += BUS_CYCLE;
            }
            bus.io_read16(port)
        } else {
            bus.io_read8(port) as u16
        }
    }

    /// Writes a port, a byte or a word.
    pub(crate) fn port_out<B: Bus>(&mut self, bus: &mut B, port: u16, v: u16, word: bool) {
        if word {
            if port & 1 != 0 {
                self.step_cycles += BUS_CYCLE;
            }
            bus.io_write16(port, v)
        } else {
            bus.io_write8(port, v as u8)
        }
    }
}
