//! Logical and bit instructions: NOT, the shift and rotate group, SHLD and
//! SHRD, the bit tests (BT, BTS, BTR, BTC) and scans (BSF, BSR). The
//! arithmetic of shifts is in `crate::alu`.

use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::decode::{in_memory, Instruction};
use crate::eu_timing;
use crate::flags::{CF, ZF};
use crate::size::Size;
use crate::table::{Form, Op};

use super::{Exec, Loc};

impl Cpu {
    /// NOT r/m.
    #[inline(always)]
    pub(super) fn not_op<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let sz = Size::of(ins.w, ins.opsize32);
        let (loc, v) = self.read_rmw(bus, ins, sz)?;
        self.write_loc(bus, loc, sz, !v & sz.mask())
    }

    /// The shift and rotate group, by 1, by CL or by an immediate byte.
    #[inline(always)]
    pub(super) fn shift_op<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let sz = Size::of(ins.w, ins.opsize32);
        let mem = in_memory(ins);
        let loc = self.rm_loc(bus, ins);
        let raw = match ins.form {
            Form::E1 => 1,
            Form::EIbu => ins.imm & 0xFF,
            _ => self.regs.get8(1) as u32,
        };
        // The 8086 shifts by the whole count; the 186 and later mask it to
        // 5 bits (80386 PRM, SAL/SAR/SHL/SHR).
        let caps = self.model.caps();
        let count = raw & caps.shift_count_mask;
        if ins.form != Form::E1 {
            self.step_cycles += count * caps.shift_clocks_per_bit;
        }
        let v = self.read_loc(bus, loc, sz)?;
        if mem {
            self.x_script(bus, eu_timing::shift_mem(ins.form == Form::E1, count));
        }
        let r = self.shift(ins.op, v, count, sz);
        // The 8086 writes a memory operand back even for a count of zero
        // (recorded by the suite); only exact mode shows it.
        if count != 0 || (mem && self.x.is_some()) {
            self.write_loc(bus, loc, sz, r)?;
        }
        Ok(())
    }

    /// SHLD and SHRD, by an immediate byte or by CL (count masked to 5
    /// bits; a zero count changes nothing).
    pub(super) fn double_shift_op<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let sz = Size::of(ins.w, ins.opsize32);
        let m = ins.modrm.unwrap_or_default();
        let loc = self.rm_loc(bus, ins);
        let count = if ins.form == Form::EGIb {
            ins.imm2 & 0x1F
        } else {
            self.regs.get8(1) as u32 & 0x1F
        };
        let a = self.read_loc(bus, loc, sz)?;
        let b = self.get_reg(m.reg, sz);
        if count != 0 {
            let r = self.double_shift(ins.op == Op::Shld, a, b, count, sz);
            self.write_loc(bus, loc, sz, r)?;
        }
        Ok(())
    }

    /// BT, BTS, BTR, BTC: CF = the selected bit, then set, clear or
    /// complement it. A register bit offset addresses memory beyond the
    /// operand (80386 PRM, BT): the address moves by the offset's signed
    /// quotient by the operand width.
    pub(super) fn bit_test<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let sz = Size::wide(ins.opsize32);
        let m = ins.modrm.unwrap_or_default();
        let bits = sz.bits();
        let loc = self.rm_loc(bus, ins);
        let (loc, bit) = if ins.form == Form::EIbu {
            (loc, ins.imm & (bits - 1))
        } else {
            let off = self.get_reg(m.reg, sz);
            match loc {
                Loc::Reg(_) => (loc, off & (bits - 1)),
                Loc::Mem(seg, ea) => {
                    let signed = if sz == Size::Dword {
                        off as i32 as i64
                    } else {
                        off as u16 as i16 as i64
                    };
                    let bytes = signed.div_euclid(bits as i64) * (bits as i64 / 8);
                    let mut a = (ea as i64 + bytes) as u32;
                    if !ins.addrsize32 {
                        a &= 0xFFFF;
                    }
                    (Loc::Mem(seg, a), (signed.rem_euclid(bits as i64)) as u32)
                }
            }
        };
        let v = self.read_loc(bus, loc, sz)?;
        self.set_flag(CF, v >> bit & 1 != 0);
        let r = match ins.op {
            Op::Bts => v | 1 << bit,
            Op::Btr => v & !(1 << bit),
            Op::Btc => v ^ 1 << bit,
            _ => return Ok(()),
        };
        self.write_loc(bus, loc, sz, r)
    }

    /// BSF and BSR: the index of the lowest or highest set bit; ZF set and
    /// the destination unchanged for a zero source.
    pub(super) fn bit_scan<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let wsz = Size::wide(ins.opsize32);
        let m = ins.modrm.unwrap_or_default();
        let loc = self.rm_loc(bus, ins);
        let v = self.read_loc(bus, loc, wsz)?;
        if v == 0 {
            self.set_flag(ZF, true);
        } else {
            self.set_flag(ZF, false);
            let i = if ins.op == Op::Bsf {
                v.trailing_zeros()
            } else {
                31 - v.leading_zeros()
            };
            self.put_reg(m.reg, wsz, i);
        }
        Ok(())
    }
}
