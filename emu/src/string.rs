//! String instructions MOVS, CMPS, SCAS, LODS, STOS and their REP forms
//! (Intel 8086 Family User's Manual, pp. 2-42 to 2-45).
//!
//! The source is DS:SI (segment override allowed), the destination ES:DI
//! (never overridden). With a repeat prefix the CPU checks for interrupts
//! between iterations; when one is pending it stops with CX, SI and DI
//! updated and IP pointing back at the instruction, so the loop resumes after
//! IRET. The 8086 resumes at the LAST prefix byte only, losing any earlier
//! prefix (a documented 8086 erratum; the 286 restarts at the first prefix).

use crate::alu::Size;
use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::decode::{Instruction, Rep};
use crate::flags::{DF, IF, ZF};
use crate::model::CpuModel;
use crate::regs::SegReg;
use crate::table::Op;
use crate::timing;

impl Cpu {
    /// One iteration: the transfer and the SI/DI steps.
    fn string_once<B: Bus>(&mut self, bus: &mut B, op: Op, sz: Size, src_seg: u16) {
        let es = self.regs.sreg(SegReg::ES);
        let step: u16 = match (sz, self.flag(DF)) {
            (Size::Byte, false) => 1,
            (Size::Byte, true) => 0xFFFF,
            (Size::Word, false) => 2,
            (Size::Word, true) => 0xFFFE,
        };
        let si = self.regs.get16(6);
        let di = self.regs.get16(7);
        let read = |cpu: &mut Cpu, bus: &mut B, seg: u16, off: u16| -> u32 {
            match sz {
                Size::Byte => cpu.read8(bus, seg, off) as u32,
                Size::Word => cpu.read16(bus, seg, off) as u32,
            }
        };
        let write = |cpu: &mut Cpu, bus: &mut B, off: u16, v: u32| match sz {
            Size::Byte => cpu.write8(bus, es, off, v as u8),
            Size::Word => cpu.write16(bus, es, off, v as u16),
        };
        let acc = self.regs.gpr[0] & sz.mask();
        match op {
            Op::Movs => {
                let v = read(self, bus, src_seg, si);
                write(self, bus, di, v);
                self.regs.put16(6, si.wrapping_add(step));
                self.regs.put16(7, di.wrapping_add(step));
            }
            Op::Cmps => {
                let a = read(self, bus, src_seg, si);
                let b = read(self, bus, es, di);
                self.sub(a, b, 0, sz);
                self.regs.put16(6, si.wrapping_add(step));
                self.regs.put16(7, di.wrapping_add(step));
            }
            Op::Scas => {
                let b = read(self, bus, es, di);
                self.sub(acc, b, 0, sz);
                self.regs.put16(7, di.wrapping_add(step));
            }
            Op::Lods => {
                let v = read(self, bus, src_seg, si);
                match sz {
                    Size::Byte => self.regs.put8(0, v as u8),
                    Size::Word => self.regs.put16(0, v as u16),
                }
                self.regs.put16(6, si.wrapping_add(step));
            }
            Op::Stos => {
                write(self, bus, di, acc);
                self.regs.put16(7, di.wrapping_add(step));
            }
            _ => unreachable!("not a string operation: {op:?}"),
        }
    }

    /// Executes a string instruction with its prefixes.
    pub(crate) fn string_op<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) {
        let sz = Size::from_w(ins.w);
        let src_seg = self.regs.sreg(ins.seg.unwrap_or(SegReg::DS));
        let op = ins.op;
        if ins.rep == Rep::None {
            self.string_once(bus, op, sz, src_seg);
            self.step_cycles += timing::base_clocks(ins, false, false);
            return;
        }
        let (setup, per) = timing::rep_clocks(op);
        self.step_cycles += setup;
        let compares = matches!(op, Op::Cmps | Op::Scas);
        loop {
            let cx = self.regs.get16(1);
            if cx == 0 {
                break;
            }
            self.string_once(bus, op, sz, src_seg);
            self.step_cycles += per;
            self.regs.put16(1, cx.wrapping_sub(1));
            if compares {
                let zf = self.flag(ZF);
                match ins.rep {
                    Rep::Rep if !zf => break,
                    Rep::Repne if zf => break,
                    _ => {}
                }
            }
            if self.regs.get16(1) == 0 {
                break;
            }
            if self.nmi_latch || (self.flag(IF) && bus.intr()) {
                self.regs.ip = self.string_restart_ip(ins);
                break;
            }
        }
    }

    /// Where an interrupted REP string instruction resumes.
    fn string_restart_ip(&self, ins: &Instruction) -> u32 {
        let start = self.instr_ip as u16;
        let back = if self.model == CpuModel::I8086 && ins.prefixes > 0 {
            ins.prefixes as u16 - 1
        } else {
            0
        };
        start.wrapping_add(back) as u32
    }
}
