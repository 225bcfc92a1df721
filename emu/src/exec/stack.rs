//! Stack instructions: PUSH and POP of a register, r/m, an immediate or a
//! segment register; PUSHA/POPA; ENTER and LEAVE. The stack accesses
//! themselves (`push`, `pop`) are the BIU's.

use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::decode::{in_memory, sreg_of_opcode, Instruction};
use crate::eu_timing;
use crate::regs::{Reg16, SegReg};
use crate::size::Size;
use crate::table::{Form, Op};

use super::{Exec, Loc};

impl Cpu {
    /// PUSH of a register in the opcode, an immediate or r/m.
    #[inline(always)]
    pub(super) fn push_op<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let wsz = Size::wide(ins.opsize32);
        let new_sp = self.model.caps().push_sp_pushes_new_value;
        let v = match ins.form {
            Form::Reg => {
                self.x_script(bus, eu_timing::PUSH_PRE);
                let r = ins.opcode & 7;
                if r == 4 && new_sp {
                    // The 8086 pushes SP as decremented (p. 2-33).
                    self.regs.reg16(Reg16::SP).wrapping_sub(2) as u32
                } else {
                    self.get_reg(r, wsz)
                }
            }
            Form::Iv | Form::Ibs => ins.imm & wsz.mask(),
            _ => {
                let loc = self.rm_loc(bus, ins);
                if matches!(loc, Loc::Reg(4)) && new_sp {
                    self.x_script(bus, eu_timing::push_rm(false));
                    self.regs.reg16(Reg16::SP).wrapping_sub(2) as u32
                } else {
                    let v = self.read_loc(bus, loc, wsz)?;
                    self.x_script(bus, eu_timing::push_rm(in_memory(ins)));
                    v
                }
            }
        };
        self.push(bus, wsz, v)
    }

    /// POP into a register in the opcode or into r/m.
    #[inline(always)]
    pub(super) fn pop_op<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let wsz = Size::wide(ins.opsize32);
        if ins.form == Form::Reg {
            let v = self.pop(bus, wsz)?;
            self.x_script(bus, eu_timing::POP_POST);
            self.put_reg(ins.opcode & 7, wsz, v);
            Ok(())
        } else if self.x.is_some() {
            // Exact 8086: the EA calculation comes first (its displacement
            // leaves the queue before the stack read; no 8086 addressing
            // form uses SP, so the address is the same either way).
            let loc = self.rm_loc(bus, ins);
            let mem = matches!(loc, Loc::Mem(..));
            self.x_script(bus, eu_timing::pop_rm_pre(mem));
            let v = self.pop(bus, wsz)?;
            self.x_script(bus, eu_timing::pop_rm_post(mem));
            self.write_loc(bus, loc, wsz, v)
        } else {
            // The 386 computes an SP-based address after the pop has
            // incremented SP (80386 PRM, POP).
            let v = self.pop(bus, wsz)?;
            let loc = self.rm_loc(bus, ins);
            self.write_loc(bus, loc, wsz, v)
        }
    }

    /// PUSH Sreg and POP Sreg.
    #[inline(always)]
    pub(super) fn push_pop_sreg<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let wsz = Size::wide(ins.opsize32);
        let s = sreg_of_opcode(ins);
        if ins.op == Op::PushSeg {
            self.x_script(bus, eu_timing::PUSH_PRE);
            let v = self.regs.sreg(s) as u32;
            self.push(bus, wsz, v)
        } else {
            let v = self.pop(bus, wsz)? as u16;
            self.x_script(bus, eu_timing::POP_POST);
            self.load_sreg(s, v);
            Ok(())
        }
    }

    /// PUSHA (AX, CX, DX, BX, the original SP, BP, SI, DI) and POPA (the
    /// reverse, discarding the SP image).
    pub(super) fn push_pop_all<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let wsz = Size::wide(ins.opsize32);
        if ins.op == Op::Pusha {
            let sp = self.get_reg(4, wsz);
            for r in 0..8u8 {
                let v = if r == 4 { sp } else { self.get_reg(r, wsz) };
                self.push(bus, wsz, v)?;
            }
        } else {
            for r in (0..8u8).rev() {
                let v = self.pop(bus, wsz)?;
                if r != 4 {
                    self.put_reg(r, wsz, v);
                }
            }
        }
        Ok(())
    }

    /// ENTER imm16, imm8 (80386 PRM, ENTER): push BP, copy `level - 1`
    /// frame pointers from the old frame, push the new frame pointer, and
    /// reserve `imm16` bytes.
    pub(super) fn enter<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let wsz = Size::wide(ins.opsize32);
        let n = (wsz.bits() / 8) as u16;
        let level = ins.imm2 & 0x1F;
        let bp = self.get_reg(5, wsz);
        self.push(bus, wsz, bp)?;
        let frame = self.regs.reg16(Reg16::SP);
        if level > 0 {
            let mut p = self.regs.reg16(Reg16::BP);
            for _ in 1..level {
                p = p.wrapping_sub(n);
                let v = self.read_mem(bus, SegReg::SS, p as u32, wsz)?;
                self.push(bus, wsz, v)?;
            }
            let f = if ins.opsize32 {
                (self.regs.gpr[4] & 0xFFFF_0000) | frame as u32
            } else {
                frame as u32
            };
            self.push(bus, wsz, f)?;
        }
        let sp = self.regs.reg16(Reg16::SP).wrapping_sub(ins.imm as u16);
        // Touch the lowest byte of the new frame, as the 386 checks it.
        self.check_limit(SegReg::SS, sp as u32, 1)?;
        if ins.opsize32 {
            self.regs.gpr[5] = (self.regs.gpr[5] & 0xFFFF_0000) | frame as u32;
        } else {
            self.regs.set_reg16(Reg16::BP, frame);
        }
        self.regs.set_reg16(Reg16::SP, sp);
        self.step_cycles += level * 4;
        Ok(())
    }

    /// LEAVE: SP = BP, then pop BP.
    pub(super) fn leave<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        // The read through BP comes first: a fault there leaves SP as it
        // was (the 286 keeps registers written before a fault).
        let wsz = Size::wide(ins.opsize32);
        let bp = self.get_reg(5, Size::Word) as u16;
        let v = self.read_mem(bus, SegReg::SS, bp as u32, wsz)?;
        let n = (wsz.bits() / 8) as u16;
        self.regs.set_reg16(Reg16::SP, bp.wrapping_add(n));
        self.put_reg(5, wsz, v);
        Ok(())
    }
}
