//! Interrupt and exception entry (Intel 8086 Family User's Manual,
//! pp. 2-25 to 2-31; 80386 PRM, section 14.3): push FLAGS, clear IF and TF,
//! push CS and IP, and load CS:IP from the interrupt vector table at
//! `IDTR.base + vector * 4` (base 0 unless LIDT moved it).

use crate::biu::cycle::{BusStatus, Transfer};
use crate::bus::Bus;
use crate::cpu::{Cpu, Fault};
use crate::eu_timing;
use crate::flags::{IF, TF};
use crate::regs::{Reg16, SegReg};
use crate::timing;

impl Cpu {
    /// Enters the handler for `vector`. The return address is the current
    /// CS:IP, which the caller has set (the next instruction for INT n and
    /// for the 8086's divide error). The pushes wrap SP at 64 KiB whatever
    /// the model: a stack fault during delivery would be a double fault,
    /// which real-mode code cannot handle either way.
    pub(crate) fn interrupt<B: Bus>(&mut self, bus: &mut B, vector: u8) {
        if cfg!(feature = "hooks") && self.hooks.is_some() {
            self.hook_interrupt(vector);
        }
        if self.x.is_some() {
            self.x_interrupt(bus, vector);
            return;
        }
        let flags = self.regs.flags as u16;
        let cs = self.regs.sreg(SegReg::CS);
        let ip = self.regs.ip as u16;
        let [i0, i1] = ip.to_le_bytes();
        let [c0, c1] = cs.to_le_bytes();
        let [f0, f1] = flags.to_le_bytes();
        // The whole frame at once into plain RAM, else word by word.
        if !self.push_direct(bus, [i0, i1, c0, c1, f0, f1]) {
            self.push_frame_words(bus, [flags, cs, ip]);
        }
        self.regs.flags &= !(IF | TF);
        let slot = self.sys.idtr.0.wrapping_add((vector as u32) << 2);
        let (new_ip, new_cs) = self.read_vector(bus, slot);
        self.regs.ip = new_ip as u32;
        self.regs.set_sreg(SegReg::CS, new_cs);
    }

    /// The interrupt frame's words (pushed in this order) at SS:SP - 2,
    /// SS:SP - 4, SS:SP - 6 (SP wraps at 64 KiB); SP moved below them.
    #[inline(never)]
    fn push_frame_words<B: Bus>(&mut self, bus: &mut B, words: [u16; 3]) {
        let mut sp = self.regs.reg16(Reg16::SP);
        for v in words {
            sp = sp.wrapping_sub(2);
            self.push_frame_word(bus, sp, v);
        }
        self.regs.set_reg16(Reg16::SP, sp);
    }

    /// One word of an interrupt frame at SS:`sp` (SP wraps at 64 KiB), with
    /// no clocks of its own (the entry's count has them): plain RAM
    /// directly, anything else byte by byte. (The direct write's bus time,
    /// `Bus::mem_write_direct`, is not observed: after an entry nothing in
    /// the step samples INTR or touches a port.)
    #[inline(always)]
    fn push_frame_word<B: Bus>(&mut self, bus: &mut B, sp: u16, v: u16) {
        if let Some(a) = self.direct_addr(SegReg::SS, sp as u32, 2) {
            if bus.mem_write_direct(a, 2, v as u32) {
                self.decode_cache.written(a, 2);
                return;
            }
        }
        let ss = (self.regs.sreg(SegReg::SS) as u32) << 4;
        let mask = self.model.address_mask();
        for (i, b) in v.to_le_bytes().into_iter().enumerate() {
            let a = ss.wrapping_add(sp.wrapping_add(i as u16) as u32) & mask;
            bus.mem_write8(a, b);
            self.decode_cache.written(a, 1);
        }
    }

    /// The vector's IP and CS at physical `slot`: from the bus's window
    /// when it holds all four bytes (plain RAM or ROM, the usual place),
    /// else word by word.
    #[inline(always)]
    fn read_vector<B: Bus>(&mut self, bus: &mut B, slot: u32) -> (u16, u16) {
        if !self.slow_mem && self.x.is_none() {
            let m = self.model.address_mask();
            if slot & m <= m - 3 {
                if let Some(&[a, b, c, d, ..]) = bus.code_window(slot & m) {
                    return (u16::from_le_bytes([a, b]), u16::from_le_bytes([c, d]));
                }
            }
        }
        let new_ip = self.read_phys16(bus, slot);
        let new_cs = self.read_phys16(bus, slot.wrapping_add(2));
        (new_ip, new_cs)
    }

    /// Exact mode: the microcode's INTR routine, the one entry sequence of
    /// INT n, INT3, INTO, the divide error and (after their own lines) the
    /// hardware interrupts. The caller has spent its own clocks (INT n its
    /// SUSP, INTO and INT3 their jumps). Microcode 019Dh-01A6h: the vector's
    /// IP and CS words are read, SUSP (waiting for a code fetch on the bus),
    /// FLAGS is pushed and IF/TF cleared; then FARCALL2: the CS push, the
    /// flush at the new CS:IP and the push of the return IP behind the new
    /// code fetch.
    fn x_interrupt<B: Bus>(&mut self, bus: &mut B, vector: u8) {
        self.x_scripted = true;
        self.eu_cycles(bus, eu_timing::INTR_PRE);
        let slot = self.sys.idtr.0.wrapping_add((vector as u32) << 2);
        let new_ip = self.read_phys16(bus, slot);
        self.eu_cycles(bus, eu_timing::INTR_VECTOR_GAP);
        let new_cs = self.read_phys16(bus, slot.wrapping_add(2));
        self.x_susp(bus, 0);
        self.eu_cycles(bus, eu_timing::INTR_PUSH_FLAGS);
        let flags = self.regs.flags as u16;
        self.x_push16(bus, flags);
        self.regs.flags &= !(IF | TF);
        self.eu_cycles(bus, eu_timing::INTR_PUSH_CS);
        let cs = self.regs.sreg(SegReg::CS);
        self.x_push16(bus, cs);
        let ip = self.regs.ip as u16;
        self.regs.ip = new_ip as u32;
        self.regs.set_sreg(SegReg::CS, new_cs);
        self.x_flush_after(bus, eu_timing::CALL_TO_FLUSH);
        self.eu_cycles(bus, eu_timing::CALL_PUSH_PRE);
        self.x_push16(bus, ip);
    }

    /// Exact mode: a word pushed on the stack (SP wraps at 64 KiB).
    fn x_push16<B: Bus>(&mut self, bus: &mut B, v: u16) {
        let ss = (self.regs.sreg(SegReg::SS) as u32) << 4;
        let sp = self.regs.reg16(Reg16::SP).wrapping_sub(2);
        self.x_mem(bus, BusStatus::Memw, ss, sp as u32, 2, v as u32);
        self.regs.set_reg16(Reg16::SP, sp);
    }

    /// Delivers a fault raised by the instruction being executed. The 8086
    /// pushes the address of the next instruction (its IP is already past
    /// the instruction); the 286 and 386 push the instruction's own
    /// address, so the handler can restart it. The 386 also restores the
    /// other registers of the instruction's start; the 286 keeps what its
    /// microcode had written before the faulting transfer
    /// ([`crate::Capabilities::fault_restores_registers`]). With
    /// [`Cpu::stop_on_fault`] nothing is pushed.
    pub(crate) fn fault<B: Bus>(&mut self, bus: &mut B, fault: Fault) -> crate::StepEvent {
        match fault {
            Fault::Unsupported(msg) => {
                self.regs = self.saved.clone();
                crate::StepEvent::Unsupported(msg)
            }
            Fault::Vector(v) => {
                let caps = self.model.caps();
                if caps.fault_restores_registers {
                    self.regs = self.saved.clone();
                } else if caps.faults_restart_instruction {
                    self.regs.ip = self.saved.ip;
                }
                if caps.faults_restart_instruction && self.stop_on_fault {
                    return crate::StepEvent::Exception(v);
                }
                self.step_cycles += timing::EXCEPTION_ENTRY;
                self.interrupt(bus, v);
                crate::StepEvent::Exception(v)
            }
        }
    }

    /// The two INTA bus cycles of a maskable interrupt; returns the vector
    /// the interrupt controller supplies.
    pub(crate) fn inta<B: Bus>(&mut self, bus: &mut B) -> u8 {
        self.step_cycles += timing::INTR_ENTRY;
        if self.x.is_some() {
            return self.x_inta(bus);
        }
        bus.inta()
    }

    /// Exact mode: the IRQ routine's two INTA bus cycles (8086 datasheet,
    /// "Interrupt acknowledge"; the controller puts the vector on D0-D7 in
    /// the second), then SUSP and two clocks (microcode 019Bh-019Ch)
    /// before the INTR routine. Not measured: the suite has no hardware
    /// interrupt.
    fn x_inta<B: Bus>(&mut self, bus: &mut B) -> u8 {
        self.x_bus(bus, Transfer::new(BusStatus::Inta, 0, true, 0));
        let v = bus.inta();
        self.x_bus(bus, Transfer::new(BusStatus::Inta, 0, true, v as u16));
        self.x_susp(bus, eu_timing::IRQ_SUSP);
        self.eu_cycles(bus, eu_timing::IRQ_TO_INTR);
        v
    }
}
