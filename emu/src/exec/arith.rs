//! Arithmetic instructions: the ALU group (ADD, OR, ADC, SBB, AND, SUB, XOR,
//! CMP, TEST) in its operand forms, INC/DEC, NEG, MUL/IMUL, DIV/IDIV, the
//! decimal adjustments and CBW/CWD. The arithmetic itself is in
//! `crate::alu`, `crate::muldiv` and `crate::bcd`; this file moves the
//! operands and runs the exact mode's microcode scripts.

use crate::bus::Bus;
use crate::cpu::{Cpu, Fault};
use crate::decode::{in_memory, Instruction, Rep};
use crate::eu_timing;
use crate::flags;
use crate::regs::Reg16;
use crate::size::Size;
use crate::table::{Form, Op};

use super::{Exec, Loc, UD};

impl Cpu {
    /// The ALU group in its four operand forms.
    #[inline(always)]
    pub(super) fn alu_group<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let sz = Size::of(ins.w, ins.opsize32);
        let m = ins.modrm.unwrap_or_default();
        let mem = in_memory(ins);
        let stores = !matches!(ins.op, Op::Cmp | Op::Test);
        match ins.form {
            Form::EG => {
                let loc = self.rm_loc(bus, ins);
                let a = self.read_loc(bus, loc, sz)?;
                let b = self.get_reg(m.reg, sz);
                let r = self.alu(ins.op, a, b, sz);
                // Microcode 008-00A: the ALU lines, two more to write
                // memory back.
                self.x_script(bus, eu_timing::alu_eg(mem, stores));
                if stores {
                    self.write_loc(bus, loc, sz, r)?;
                }
            }
            Form::GE => {
                let loc = self.rm_loc(bus, ins);
                let a = self.get_reg(m.reg, sz);
                let b = self.read_loc(bus, loc, sz)?;
                let r = self.alu(ins.op, a, b, sz);
                self.x_script(bus, eu_timing::alu_ge(mem));
                if stores {
                    self.put_reg(m.reg, sz, r);
                }
            }
            Form::AccI => {
                self.x_imm(bus, ins);
                self.x_script(bus, eu_timing::alu_acc_imm(ins.w));
                let a = self.get_reg(0, sz);
                let r = self.alu(ins.op, a, ins.imm & sz.mask(), sz);
                if stores {
                    self.put_reg(0, sz, r);
                }
            }
            _ => {
                // EI / EIbs: the immediate groups and TEST r/m, imm.
                let loc = self.rm_loc(bus, ins);
                let a = self.read_loc(bus, loc, sz)?;
                let test = ins.op == Op::Test;
                self.x_script(bus, eu_timing::alu_ei_pre(mem, test));
                self.x_imm(bus, ins);
                self.x_script(bus, eu_timing::alu_ei(ins.opcode, mem, stores));
                let r = self.alu(ins.op, a, ins.imm & sz.mask(), sz);
                if stores {
                    self.write_loc(bus, loc, sz, r)?;
                }
            }
        }
        Ok(())
    }

    /// The 486's XADD and CMPXCHG r/m, reg (i486 PRM, instruction set):
    /// XADD sets the flags as ADD and leaves the sum in r/m and the old
    /// r/m in reg; CMPXCHG compares the accumulator with r/m as CMP does,
    /// then stores reg in r/m when equal, else loads r/m into the
    /// accumulator. A memory destination is written in both cases (the
    /// locked read is always followed by a write). LOCK with a register
    /// destination is #UD (SDM vol. 2, LOCK: "the destination operand is
    /// not a memory operand"), raised before anything is read.
    pub(super) fn exchange_arith<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        if ins.lock && !in_memory(ins) {
            return Err(UD);
        }
        let sz = Size::of(ins.w, ins.opsize32);
        let reg = ins.modrm.unwrap_or_default().reg;
        let loc = self.rm_loc(bus, ins);
        let dest = self.read_loc(bus, loc, sz)?;
        let src = self.get_reg(reg, sz);
        if ins.op == Op::Xadd {
            let sum = self.alu(Op::Add, dest, src, sz);
            // SRC <- DEST before DEST <- sum: XADD r, r with one register
            // leaves the sum.
            self.put_reg(reg, sz, dest);
            return self.write_loc(bus, loc, sz, sum);
        }
        let acc = self.get_reg(0, sz);
        self.alu(Op::Cmp, acc, dest, sz);
        if acc == dest {
            self.write_loc(bus, loc, sz, src)
        } else {
            if in_memory(ins) {
                self.write_loc(bus, loc, sz, dest)?;
            }
            self.put_reg(0, sz, dest);
            Ok(())
        }
    }

    /// Reads the r/m operand of a read-modify-write group member (NOT,
    /// NEG), with the exact mode's clocks before the write-back.
    #[inline(always)]
    pub(super) fn read_rmw<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
        sz: Size,
    ) -> Result<(Loc, u32), Fault> {
        let loc = self.rm_loc(bus, ins);
        let v = self.read_loc(bus, loc, sz)?;
        if in_memory(ins) {
            self.x_script(bus, eu_timing::RMW_MEM);
        }
        Ok((loc, v))
    }

    /// INC and DEC, of a register in the opcode or of r/m.
    #[inline(always)]
    pub(super) fn inc_dec<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let (loc, sz, a) = if ins.form == Form::Reg {
            self.x_script(bus, 0);
            let (loc, sz) = (Loc::Reg(ins.opcode & 7), Size::wide(ins.opsize32));
            (loc, sz, self.read_loc(bus, loc, sz)?)
        } else {
            let sz = Size::of(ins.w, ins.opsize32);
            let (loc, a) = self.read_rmw(bus, ins, sz)?;
            (loc, sz, a)
        };
        let r = if ins.op == Op::Inc {
            self.inc(a, sz)
        } else {
            self.dec(a, sz)
        };
        self.write_loc(bus, loc, sz, r)
    }

    /// NEG r/m.
    #[inline(always)]
    pub(super) fn neg_op<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let sz = Size::of(ins.w, ins.opsize32);
        let (loc, v) = self.read_rmw(bus, ins, sz)?;
        let r = self.neg(v, sz);
        self.write_loc(bus, loc, sz, r)
    }

    /// MUL and IMUL of the accumulator by r/m.
    pub(super) fn mul_op<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let sz = Size::of(ins.w, ins.opsize32);
        let loc = self.rm_loc(bus, ins);
        let src = self.read_loc(bus, loc, sz)?;
        let acc = self.get_reg(0, sz);
        let signed = ins.op == Op::Imul;
        let negate = self.rep_negates(ins) && signed;
        let (lo, hi) = self.multiply(acc, src, sz, signed, negate);
        if self.x.is_some() {
            let fits = !self.flag(flags::CF);
            let rep = ins.rep != Rep::None;
            let word = sz == Size::Word;
            let n = eu_timing::muldiv_pre(in_memory(ins))
                + eu_timing::mul(acc, src, word, signed, rep, fits);
            self.x_script(bus, n);
        }
        self.put_acc_pair(sz, lo, hi);
        Ok(())
    }

    /// A double-width result: AH:AL for a byte, DX:AX or EDX:EAX otherwise.
    pub(crate) fn put_acc_pair(&mut self, sz: Size, lo: u32, hi: u32) {
        match sz {
            Size::Byte => self.regs.set_reg16(Reg16::AX, (hi << 8 | lo) as u16),
            _ => {
                self.put_reg(0, sz, lo);
                self.put_reg(2, sz, hi);
            }
        }
    }

    /// IMUL r, r/m, imm (69h, 6Bh) and IMUL r, r/m (0F AFh).
    pub(super) fn imul3<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let wsz = Size::wide(ins.opsize32);
        let m = ins.modrm.unwrap_or_default();
        let loc = self.rm_loc(bus, ins);
        let src = self.read_loc(bus, loc, wsz)?;
        let other = if ins.form == Form::GE {
            self.get_reg(m.reg, wsz)
        } else {
            ins.imm2 & wsz.mask()
        };
        let (lo, _) = self.multiply(src, other, wsz, true, false);
        self.put_reg(m.reg, wsz, lo);
        Ok(())
    }

    /// DIV and IDIV of the double-width accumulator by r/m.
    pub(super) fn div_op<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let sz = Size::of(ins.w, ins.opsize32);
        let loc = self.rm_loc(bus, ins);
        let src = self.read_loc(bus, loc, sz)?;
        let (lo, hi) = match sz {
            Size::Byte => (self.regs.get8(0) as u32, self.regs.get8(4) as u32),
            _ => (self.get_reg(0, sz), self.get_reg(2, sz)),
        };
        let signed = ins.op == Op::Idiv;
        let negate = self.rep_negates(ins) && signed;
        let result = self.divide(lo, hi, src, sz, signed, negate);
        if self.model.caps().undefined_flags_of_8086_microcode
            && (self.x.is_some() || result.is_err())
        {
            // The microcode's walk: its clocks, and on a divide error the
            // flags it leaves (pushed by INT 0).
            let walk = eu_timing::div(lo, hi, src, sz == Size::Word, signed);
            if let eu_timing::DivClocks::Error(e) = &walk {
                self.divide_error_flags(e, sz);
            }
            self.x_script(bus, eu_timing::muldiv_pre(in_memory(ins)) + walk.clocks());
        }
        match result {
            Ok((q, r)) => {
                self.put_acc_pair(sz, q, r);
                Ok(())
            }
            Err(_) => Err(Fault::Vector(0)),
        }
    }

    /// On the 8086 a REP or REPNE prefix flips the microcode's sign flag for
    /// IMUL and IDIV, negating the result.
    fn rep_negates(&self, ins: &Instruction) -> bool {
        self.model.caps().rep_negates_imul_idiv && ins.rep != Rep::None
    }

    /// DAA, DAS, AAA, AAS, AAM and AAD.
    pub(super) fn decimal_adjust<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        match ins.op {
            Op::Daa => self.daa(),
            Op::Das => self.das(),
            Op::Aaa | Op::Aas => {
                let adj = self.regs.get8(0) & 0x0F > 9 || self.flag(flags::AF);
                self.x_script(bus, eu_timing::aaa(adj));
                if ins.op == Op::Aaa {
                    self.aaa()
                } else {
                    self.aas()
                }
            }
            Op::Aam => {
                if self.x.is_some() {
                    self.x_imm(bus, ins);
                    self.x_script(bus, eu_timing::aam(self.regs.get8(0), ins.imm as u8));
                }
                if !self.aam(ins.imm as u8) {
                    return Err(Fault::Vector(0));
                }
            }
            _ => {
                if self.x.is_some() {
                    self.x_imm(bus, ins);
                    self.x_script(bus, eu_timing::aad(ins.imm as u8));
                }
                self.aad(ins.imm as u8)
            }
        }
        Ok(())
    }

    /// CBW/CWDE (sign-extend AL or AX into the accumulator) and CWD/CDQ
    /// (sign-extend it into DX or EDX).
    #[inline(always)]
    pub(super) fn sign_extend_acc<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) {
        let wsz = Size::wide(ins.opsize32);
        if ins.op == Op::Cbw {
            if ins.opsize32 {
                self.regs.gpr[0] = self.regs.reg16(Reg16::AX) as i16 as i32 as u32;
            } else {
                let al = self.regs.get8(0) as i8 as i16 as u16;
                self.regs.set_reg16(Reg16::AX, al);
            }
        } else {
            let neg = self.get_reg(0, wsz) & wsz.sign() != 0;
            self.x_script(bus, eu_timing::cwd(neg));
            self.put_reg(2, wsz, if neg { wsz.mask() } else { 0 });
        }
    }
}
