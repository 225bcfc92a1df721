//! Data transfer: MOV in its forms, XCHG, LEA, the far-pointer loads (LES,
//! LDS, LSS, LFS, LGS), MOVZX/MOVSX and XLAT.

use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::decode::{in_memory, Instruction};
use crate::eu_timing;
use crate::regs::{Reg16, SegReg};
use crate::size::Size;
use crate::table::{Form, Op};

use super::{Exec, Loc, UD};

impl Cpu {
    /// The MOV forms, by operand form.
    #[inline(always)]
    pub(super) fn mov<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let sz = Size::of(ins.w, ins.opsize32);
        let m = ins.modrm.unwrap_or_default();
        let mem = in_memory(ins);
        match ins.form {
            Form::EG => {
                let loc = self.rm_loc(bus, ins);
                let v = self.get_reg(m.reg, sz);
                // Microcode 000h-001h: four clocks before a store to memory.
                self.x_script(bus, if mem { 4 } else { 0 });
                self.write_loc(bus, loc, sz, v)?;
            }
            Form::GE => {
                let loc = self.rm_loc(bus, ins);
                let v = self.read_loc(bus, loc, sz)?;
                // After a memory operand, T4 and two clocks (microcode
                // 000h-001h) before the next instruction.
                self.x_script(bus, if mem { 3 } else { 0 });
                self.put_reg(m.reg, sz, v);
            }
            Form::ES | Form::SE => self.mov_sreg(bus, ins)?,
            Form::EI => {
                let loc = self.rm_loc(bus, ins);
                self.x_script(bus, eu_timing::mov_ei_pre(mem));
                self.x_imm(bus, ins);
                self.x_script(bus, eu_timing::mov_ei_post(mem) - ins.w as u32);
                self.write_loc(bus, loc, sz, ins.imm)?;
            }
            Form::Reg8I => self.regs.put8(ins.opcode & 7, ins.imm as u8),
            Form::Reg16I => self.put_reg(ins.opcode & 7, Size::wide(ins.opsize32), ins.imm),
            Form::AccMoffs => {
                let seg = ins.seg.unwrap_or(SegReg::DS);
                self.x_imm(bus, ins);
                self.x_script(bus, 0);
                let v = self.read_mem(bus, seg, ins.imm, sz)?;
                self.x_script(bus, eu_timing::MOV_MOFFS_POST);
                self.put_reg(0, sz, v);
            }
            _ => {
                // MoffsAcc
                let seg = ins.seg.unwrap_or(SegReg::DS);
                let v = self.get_reg(0, sz);
                self.x_imm(bus, ins);
                self.x_script(bus, eu_timing::MOV_MOFFS_STORE_PRE);
                self.write_mem(bus, seg, ins.imm, sz, v)?;
            }
        }
        Ok(())
    }

    /// MOV r/m, Sreg (8Ch) and MOV Sreg, r/m (8Eh).
    fn mov_sreg<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let m = ins.modrm.unwrap_or_default();
        let s = self.sreg_field(m.reg)?;
        if ins.form == Form::ES {
            let loc = self.rm_loc(bus, ins);
            let v = self.regs.sreg(s) as u32;
            self.x_script(bus, eu_timing::mov_sreg(matches!(loc, Loc::Mem(..))));
            // A register destination takes the operand size (the 386
            // zero-extends into a 32-bit register); memory takes 16 bits.
            let size = match loc {
                Loc::Reg(_) if ins.opsize32 => Size::Dword,
                _ => Size::Word,
            };
            self.write_loc(bus, loc, size, v)
        } else {
            if s == SegReg::CS && !self.model.caps().loads_cs_by_mov_and_pop {
                return Err(UD);
            }
            let loc = self.rm_loc(bus, ins);
            let v = self.read_loc(bus, loc, Size::Word)? as u16;
            self.x_script(bus, eu_timing::mov_sreg(matches!(loc, Loc::Mem(..))));
            self.load_sreg(s, v);
            Ok(())
        }
    }

    /// XCHG of the accumulator with a register, or of r/m with a register.
    #[inline(always)]
    pub(super) fn xchg<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        if ins.form == Form::AccReg {
            let wsz = Size::wide(ins.opsize32);
            self.x_script(bus, 1);
            let r = ins.opcode & 7;
            let a = self.get_reg(0, wsz);
            let b = self.get_reg(r, wsz);
            self.put_reg(0, wsz, b);
            self.put_reg(r, wsz, a);
        } else {
            let sz = Size::of(ins.w, ins.opsize32);
            let m = ins.modrm.unwrap_or_default();
            let loc = self.rm_loc(bus, ins);
            let a = self.read_loc(bus, loc, sz)?;
            let b = self.get_reg(m.reg, sz);
            self.x_script(bus, eu_timing::xchg_rm(in_memory(ins)));
            self.write_loc(bus, loc, sz, b)?;
            self.put_reg(m.reg, sz, a);
        }
        Ok(())
    }

    /// BSWAP r32: reverses the register's bytes. With a 16-bit operand
    /// (66h in 32-bit code, none in real mode's 16-bit default) Intel calls
    /// the result undefined; a real 486 clears the low word and keeps the
    /// high one, which tandem does.
    pub(super) fn bswap(&mut self, ins: &Instruction) {
        let r = (ins.opcode & 7) as usize;
        let v = self.regs.gpr[r];
        self.regs.gpr[r] = if ins.opsize32 {
            v.swap_bytes()
        } else {
            v & 0xFFFF_0000
        };
    }

    /// LEA: the offset of a memory operand. A register operand is #UD on
    /// the 286 and later; the 8086 leaves it a no-op.
    #[inline(always)]
    pub(super) fn lea<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let m = ins.modrm.unwrap_or_default();
        if m.is_reg() {
            if self.model.caps().invalid_opcode_fault {
                return Err(UD);
            }
        } else {
            let (_, off) = self.charged_address(bus, ins, m);
            self.x_script(bus, eu_timing::LEA_POST);
            self.put_reg(m.reg, Size::wide(ins.opsize32), off);
        }
        Ok(())
    }

    /// LES, LDS, LSS, LFS, LGS: a far pointer into a register and a segment
    /// register.
    pub(super) fn load_far_pointer<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let between = |cpu: &mut Self, bus: &mut B| cpu.x_script(bus, eu_timing::LDS_BETWEEN);
        let Some((s, o)) = self.read_far_pointer(bus, ins, between)? else {
            return Ok(());
        };
        self.x_script(bus, eu_timing::LDS_POST);
        let m = ins.modrm.unwrap_or_default();
        self.put_reg(m.reg, Size::wide(ins.opsize32), o);
        let target = match ins.op {
            Op::Les => SegReg::ES,
            Op::Lds => SegReg::DS,
            Op::Lss => SegReg::SS,
            Op::Lfs => SegReg::FS,
            _ => SegReg::GS,
        };
        self.load_sreg(target, s);
        Ok(())
    }

    /// MOVZX and MOVSX: a byte or word source, zero- or sign-extended.
    pub(super) fn mov_extend<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let m = ins.modrm.unwrap_or_default();
        let loc = self.rm_loc(bus, ins);
        let src_sz = if ins.form == Form::GEb {
            Size::Byte
        } else {
            Size::Word
        };
        let v = self.read_loc(bus, loc, src_sz)?;
        let v = if ins.op == Op::Movsx && v & src_sz.sign() != 0 {
            v | !src_sz.mask()
        } else {
            v
        };
        self.put_reg(m.reg, Size::wide(ins.opsize32), v);
        Ok(())
    }

    /// XLAT: AL = [seg:BX + AL] (EBX with a 32-bit address size).
    pub(super) fn xlat<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let seg = ins.seg.unwrap_or(SegReg::DS);
        let al = self.regs.get8(0) as u32;
        let off = if ins.addrsize32 {
            self.regs.gpr[3].wrapping_add(al)
        } else {
            (self.regs.reg16(Reg16::BX) as u32 + al) & 0xFFFF
        };
        self.x_script(bus, eu_timing::XLAT_PRE);
        let v = self.read_mem(bus, seg, off, Size::Byte)?;
        self.x_script(bus, eu_timing::XLAT_POST);
        self.regs.put8(0, v as u8);
        Ok(())
    }
}
