//! Binary arithmetic (80386 PRM, section 3.2): the ALU group, INC, DEC,
//! NOT, NEG, and MUL, IMUL, DIV, IDIV.

use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::flags::{CF, STATUS};
use crate::size::Size;
use crate::table::Op;

use super::alu::{add_n, alu_n, mask, size, sub_n};
use super::{Fast, Kind};

impl Cpu {
    #[inline(always)]
    pub(super) fn f_alu_rr<const N: u32>(&mut self, f: &Fast) {
        let a = self.rget::<N>(f.r);
        let b = self.rget::<N>(f.s);
        self.f_alu_store::<N>(f, a, b);
    }

    #[inline(always)]
    pub(super) fn f_alu_ri<const N: u32>(&mut self, f: &Fast) {
        let a = self.rget::<N>(f.r);
        self.f_alu_store::<N>(f, a, f.imm);
    }

    /// The ALU operation on `a` and `b` into register `r` (unless CMP or
    /// TEST) and the flags.
    #[inline(always)]
    pub(super) fn f_alu_store<const N: u32>(&mut self, f: &Fast, a: u32, b: u32) {
        let (r, st) = alu_n::<N>(f.op, a, b, self.regs.flags & CF);
        if !matches!(f.op, Op::Cmp | Op::Test) {
            self.rput::<N>(f.r, r);
        }
        self.set_status(st);
    }

    /// ALU reg, memory.
    #[inline(always)]
    pub(super) fn f_alu_rm<const N: u32, B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let off = self.ea(f);
        let b = self.read_mem(bus, f.seg, off, size::<N>()).ok()?;
        let a = self.rget::<N>(f.r);
        self.f_alu_store::<N>(f, a, b);
        Some(())
    }

    /// ALU memory, reg or imm: the read checks the limit (a decline
    /// changes nothing); the store to the same operand then passes it.
    #[inline(always)]
    pub(super) fn f_alu_m<const N: u32, B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let off = self.ea(f);
        let a = self.read_mem(bus, f.seg, off, size::<N>()).ok()?;
        let b = if f.kind == Kind::AluMI {
            f.imm
        } else {
            self.rget::<N>(f.r)
        };
        let (r, st) = alu_n::<N>(f.op, a, b, self.regs.flags & CF);
        if !matches!(f.op, Op::Cmp | Op::Test) {
            self.write_mem(bus, f.seg, off, size::<N>(), r).ok()?;
        }
        self.set_status(st);
        Some(())
    }

    /// INC, DEC (CF kept), NOT (no flags) and NEG of a register.
    #[inline(always)]
    pub(super) fn f_unary<const N: u32>(&mut self, f: &Fast) {
        let a = self.rget::<N>(f.r);
        let (r, st, keep) = match f.kind {
            Kind::IncR => {
                let (r, st) = add_n::<N>(a, 1, 0);
                (r, st, CF)
            }
            Kind::DecR => {
                let (r, st) = sub_n::<N>(a, 1, 0);
                (r, st, CF)
            }
            Kind::NotR => (!a & mask::<N>(), 0, STATUS),
            _ => {
                let (r, st) = sub_n::<N>(0, a, 0);
                (r, st, 0)
            }
        };
        self.rput::<N>(f.r, r);
        let fl = self.regs.flags;
        self.regs.flags = (fl & (!STATUS | keep)) | (st & !keep);
    }

    /// INC, DEC, NOT, NEG of memory: the read checks the limit (a
    /// decline changes nothing); the store to the same operand then
    /// passes it.
    #[inline(always)]
    pub(super) fn f_unary_m<const N: u32, B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let off = self.ea(f);
        let a = self.read_mem(bus, f.seg, off, size::<N>()).ok()?;
        let (r, st, keep) = match f.op {
            Op::Inc => {
                let (r, st) = add_n::<N>(a, 1, 0);
                (r, st, CF)
            }
            Op::Dec => {
                let (r, st) = sub_n::<N>(a, 1, 0);
                (r, st, CF)
            }
            Op::Not => (!a & mask::<N>(), 0, STATUS),
            _ => {
                let (r, st) = sub_n::<N>(0, a, 0);
                (r, st, 0)
            }
        };
        self.write_mem(bus, f.seg, off, size::<N>(), r).ok()?;
        let fl = self.regs.flags;
        self.regs.flags = (fl & (!STATUS | keep)) | (st & !keep);
        Some(())
    }

    /// MUL, IMUL, DIV, IDIV of the accumulator by `src` (as the generic
    /// handlers without a REP prefix and outside exact mode): a divide
    /// error declines, before anything changed.
    #[inline(always)]
    pub(super) fn f_muldiv(&mut self, f: &Fast, src: u32) -> Option<()> {
        let sz = f.size;
        if matches!(f.op, Op::Mul | Op::Imul) {
            let acc = self.get_reg(0, sz);
            let (lo, hi) = self.multiply(acc, src, sz, f.op == Op::Imul, false);
            self.put_acc_pair(sz, lo, hi);
            return Some(());
        }
        let (lo, hi) = match sz {
            Size::Byte => (self.regs.get8(0) as u32, self.regs.get8(4) as u32),
            _ => (self.get_reg(0, sz), self.get_reg(2, sz)),
        };
        let (q, r) = self.divide(lo, hi, src, sz, f.op == Op::Idiv, false).ok()?;
        self.put_acc_pair(sz, q, r);
        Some(())
    }

    /// IMUL r, r/m, imm and IMUL r, r/m (`op` Imul: the register is the
    /// other factor): the low half of the product, flags as the generic
    /// multiply sets them.
    #[inline(always)]
    pub(super) fn f_imul3<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let src = if f.kind == Kind::Imul3R {
            self.get_reg(f.s, f.size)
        } else {
            let off = self.ea(f);
            self.read_mem(bus, f.seg, off, f.size).ok()?
        };
        let other = if f.op == Op::Imul {
            self.get_reg(f.r, f.size)
        } else {
            f.imm
        };
        let (lo, _) = self.multiply(src, other, f.size, true, false);
        self.put_reg(f.r, f.size, lo);
        Some(())
    }
}
