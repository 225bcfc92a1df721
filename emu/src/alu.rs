//! The arithmetic and logic unit: ADD/ADC/SUB/SBB/CMP/AND/OR/XOR/TEST,
//! INC/DEC/NEG/NOT and the shift and rotate group, with their flags (Intel
//! 8086 Family User's Manual, pp. 2-35 to 2-43).

use crate::cpu::Cpu;
use crate::flags::{parity, AF, CF, OF, PF, SF, ZF};
use crate::size::Size;
use crate::table::Op;

impl Cpu {
    #[inline]
    pub(crate) fn flag(&self, f: u32) -> bool {
        self.regs.flags & f != 0
    }

    #[inline]
    pub(crate) fn set_flag(&mut self, f: u32, on: bool) {
        if on {
            self.regs.flags |= f;
        } else {
            self.regs.flags &= !f;
        }
    }

    /// SF, ZF and PF from a result.
    #[inline]
    pub(crate) fn set_szp(&mut self, r: u32, sz: Size) {
        let r = r & sz.mask();
        self.set_flag(SF, r & sz.sign() != 0);
        self.set_flag(ZF, r == 0);
        self.set_flag(PF, parity(r as u8));
    }

    /// ADD/ADC: `a + b + carry`, all six status flags.
    #[inline]
    pub(crate) fn add(&mut self, a: u32, b: u32, carry: u32, sz: Size) -> u32 {
        let full = a as u64 + b as u64 + carry as u64;
        let r = full as u32 & sz.mask();
        self.set_flag(CF, full > sz.mask() as u64);
        self.set_flag(OF, (r ^ a) & (r ^ b) & sz.sign() != 0);
        self.set_flag(AF, (a ^ b ^ r) & 0x10 != 0);
        self.set_szp(r, sz);
        r
    }

    /// SUB/SBB/CMP: `a - b - borrow`, all six status flags.
    #[inline]
    pub(crate) fn sub(&mut self, a: u32, b: u32, borrow: u32, sz: Size) -> u32 {
        let r = a.wrapping_sub(b).wrapping_sub(borrow) & sz.mask();
        self.set_flag(CF, b as u64 + borrow as u64 > a as u64);
        self.set_flag(OF, (a ^ b) & (a ^ r) & sz.sign() != 0);
        self.set_flag(AF, (a ^ b ^ r) & 0x10 != 0);
        self.set_szp(r, sz);
        r
    }

    /// AND/OR/XOR/TEST: CF and OF clear, AF clear (undefined in the manual;
    /// the 8086 suite masks it), SF/ZF/PF from the result.
    #[inline]
    fn logic(&mut self, r: u32, sz: Size) -> u32 {
        self.regs.flags &= !(CF | OF | AF);
        self.set_szp(r, sz);
        r & sz.mask()
    }

    /// One of the eight ALU operations (and TEST). Returns the result; the
    /// caller stores it except for CMP and TEST.
    pub(crate) fn alu(&mut self, op: Op, a: u32, b: u32, sz: Size) -> u32 {
        let c = self.flag(CF) as u32;
        match op {
            Op::Add => self.add(a, b, 0, sz),
            Op::Adc => self.add(a, b, c, sz),
            Op::Sub | Op::Cmp => self.sub(a, b, 0, sz),
            Op::Sbb => self.sub(a, b, c, sz),
            Op::And | Op::Test => self.logic(a & b, sz),
            Op::Or => self.logic(a | b, sz),
            Op::Xor => self.logic(a ^ b, sz),
            _ => unreachable!("not an ALU operation: {op:?}"),
        }
    }

    /// INC: like ADD 1 but CF is kept.
    pub(crate) fn inc(&mut self, a: u32, sz: Size) -> u32 {
        let cf = self.flag(CF);
        let r = self.add(a, 1, 0, sz);
        self.set_flag(CF, cf);
        r
    }

    /// DEC: like SUB 1 but CF is kept.
    pub(crate) fn dec(&mut self, a: u32, sz: Size) -> u32 {
        let cf = self.flag(CF);
        let r = self.sub(a, 1, 0, sz);
        self.set_flag(CF, cf);
        r
    }

    /// NEG: 0 - a; CF set unless the operand was zero.
    pub(crate) fn neg(&mut self, a: u32, sz: Size) -> u32 {
        self.sub(0, a, 0, sz)
    }

    /// The shift/rotate group, one bit per iteration as the 8086 microcode
    /// does it: the count is not masked on the 8086 (the 286 and later mask
    /// it to 5 bits before calling this). A count of 0 changes nothing, not
    /// even the flags. OF is defined for a count of 1 and is left as the
    /// last iteration computes it otherwise.
    pub(crate) fn shift(&mut self, op: Op, val: u32, count: u32, sz: Size) -> u32 {
        if count == 0 {
            return val;
        }
        let mask = sz.mask();
        let sign = sz.sign();
        let mut v = val & mask;
        let mut cf = self.flag(CF);
        let mut of = self.flag(OF);
        for _ in 0..count {
            match op {
                Op::Rol => {
                    cf = v & sign != 0;
                    v = ((v << 1) | cf as u32) & mask;
                    of = (v & sign != 0) != cf;
                }
                Op::Ror => {
                    cf = v & 1 != 0;
                    v = (v >> 1) | if cf { sign } else { 0 };
                    of = ((v ^ (v << 1)) & sign) != 0;
                }
                Op::Rcl => {
                    let out = v & sign != 0;
                    v = ((v << 1) | cf as u32) & mask;
                    cf = out;
                    of = (v & sign != 0) != cf;
                }
                Op::Rcr => {
                    let out = v & 1 != 0;
                    v = (v >> 1) | if cf { sign } else { 0 };
                    cf = out;
                    of = ((v ^ (v << 1)) & sign) != 0;
                }
                Op::Shl => {
                    cf = v & sign != 0;
                    v = (v << 1) & mask;
                    of = (v & sign != 0) != cf;
                }
                Op::Shr => {
                    of = v & sign != 0;
                    cf = v & 1 != 0;
                    v >>= 1;
                }
                Op::Sar => {
                    cf = v & 1 != 0;
                    v = (v >> 1) | (v & sign);
                    of = false;
                }
                Op::Setmo => {
                    // Undocumented /6: the operand becomes all ones, as an
                    // OR with FFh/FFFFh would leave it.
                    v = mask;
                    cf = false;
                    of = false;
                }
                _ => unreachable!("not a shift: {op:?}"),
            }
        }
        self.set_flag(CF, cf);
        self.set_flag(OF, of);
        match op {
            Op::Rol | Op::Ror | Op::Rcl | Op::Rcr => {}
            _ => {
                self.set_szp(v, sz);
                self.set_flag(AF, false);
            }
        }
        v
    }

    /// SHLD/SHRD (80386 PRM): shifts `dest` by `count` (1-31), filling from
    /// `src`. CF is the last bit shifted out of `dest`, OF (defined for a
    /// count of 1) a change of sign, SF/ZF/PF from the result. A 16-bit
    /// count above 16 leaves the result undefined; tandem shifts through the
    /// 32-bit concatenation.
    pub(crate) fn double_shift(
        &mut self,
        left: bool,
        dest: u32,
        src: u32,
        count: u32,
        sz: Size,
    ) -> u32 {
        let bits = sz.bits();
        let mask = sz.mask() as u64;
        let (r, cf) = if left {
            let wide = (dest as u64 & mask) << bits | (src as u64 & mask);
            let shifted = wide << count;
            let r = (shifted >> bits) & mask;
            let cf = (wide >> (2 * bits - count)) & 1 != 0;
            (r as u32, cf)
        } else {
            let wide = (src as u64 & mask) << bits | (dest as u64 & mask);
            let r = (wide >> count) & mask;
            let cf = (wide >> (count - 1)) & 1 != 0;
            (r as u32, cf)
        };
        self.set_flag(CF, cf);
        self.set_flag(OF, (r ^ dest) & sz.sign() != 0);
        self.set_flag(AF, false);
        self.set_szp(r, sz);
        r
    }
}
