//! Interrupt and exception entry (Intel 8086 Family User's Manual,
//! pp. 2-25 to 2-31): push FLAGS, clear IF and TF, push CS and IP, and load
//! CS:IP from the interrupt vector table at `vector * 4`.

use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::flags::{IF, TF};
use crate::regs::SegReg;
use crate::timing;

impl Cpu {
    /// Enters the handler for `vector`. The return address is the current
    /// CS:IP, which the caller has set (the next instruction for INT n and
    /// for the 8086's divide error).
    pub(crate) fn interrupt<B: Bus>(&mut self, bus: &mut B, vector: u8) {
        let flags = self.regs.flags as u16;
        self.push16(bus, flags);
        self.regs.flags &= !(IF | TF);
        let cs = self.regs.sreg(SegReg::CS);
        self.push16(bus, cs);
        let ip = self.regs.ip as u16;
        self.push16(bus, ip);
        let slot = (vector as u16) << 2;
        let new_ip = self.read16(bus, 0, slot);
        let new_cs = self.read16(bus, 0, slot.wrapping_add(2));
        self.regs.ip = new_ip as u32;
        self.regs.set_sreg(SegReg::CS, new_cs);
    }

    /// Raises a CPU exception from the instruction being executed. The 8086
    /// pushes the address of the next instruction (its IP is already past
    /// the instruction); the 286 and 386 restart at the faulting instruction
    /// (its first prefix).
    pub(crate) fn exception<B: Bus>(&mut self, bus: &mut B, vector: u8) {
        if self.model != crate::CpuModel::I8086 {
            self.regs.ip = self.instr_ip;
        }
        self.step_cycles += timing::EXCEPTION_ENTRY;
        self.interrupt(bus, vector);
    }

    /// The two INTA bus cycles of a maskable interrupt; returns the vector
    /// the interrupt controller supplies.
    pub(crate) fn inta<B: Bus>(&mut self, bus: &mut B) -> u8 {
        self.step_cycles += timing::INTR_ENTRY;
        bus.inta()
    }
}
