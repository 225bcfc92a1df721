//! MUL, IMUL, DIV, IDIV (Intel 8086 Family User's Manual, pp. 2-37, 2-38).
//!
//! 8086 details recorded by the single-step suite and the microcode listing:
//! a REP/REPNE prefix sets the microcode's internal sign flag, so it negates
//! the product of IMUL and the quotient of IDIV; IDIV raises the divide error
//! for a quotient of -128 (-32768), which the 286 accepts, by a test that
//! also passes some larger quotients ([`min_quotient_286`]).

use crate::cpu::Cpu;
use crate::flags::{CF, OF};
use crate::size::Size;

/// A divide error: the quotient does not fit or the divisor is zero.
pub(crate) struct DivideError;

fn sext(v: u32, sz: Size) -> i64 {
    match sz {
        Size::Byte => v as u8 as i8 as i64,
        Size::Word => v as u16 as i16 as i64,
        Size::Dword => v as i32 as i64,
    }
}

/// The 286's test for an IDIV quotient of -2^(n-1) (`n` operand bits)
/// after the magnitudes `a` / `d` gave a larger one: the difference
/// a - d * 2^(n-1) must be below `d`, but the test sees only the
/// difference's sign and its bits n to 2n-3, so a difference of
/// 2^(2n-2) + x with x < d also passes: the quotient is then -2^(n-1)
/// and the remainder's magnitude x (80286 single-step suite, F6 /7: AX =
/// 81C1h / 7Ch gives AX = C180h, no divide error). Returns x.
fn min_quotient_286(a: u128, d: u128, n: u32) -> Option<u128> {
    let width = 2 * n;
    let diff = a.wrapping_sub(d << (n - 1)) & ((1u128 << width) - 1);
    let sign = 1u128 << (width - 1);
    let seen = ((1u128 << (width - 2)) - 1) & !((1u128 << n) - 1);
    let low = diff & ((1u128 << n) - 1);
    (diff & (sign | seen) == 0 && low < d).then_some(low)
}

impl Cpu {
    /// MUL/IMUL of the accumulator by `src`. Returns (low, high) halves:
    /// AL/AH for bytes, AX/DX for words. CF = OF = the high half carries
    /// significance; SF, ZF, PF, AF are undefined (left as the product's
    /// high half sets them on the 8086).
    pub(crate) fn multiply(
        &mut self,
        acc: u32,
        src: u32,
        sz: Size,
        signed: bool,
        negate: bool,
    ) -> (u32, u32) {
        let bits = sz.bits();
        let mask = sz.mask();
        let product: u64 = if signed {
            let mut p = sext(acc, sz).wrapping_mul(sext(src, sz));
            if negate {
                p = p.wrapping_neg();
            }
            p as u64
        } else {
            let p = (acc & mask) as u64 * (src & mask) as u64;
            if negate {
                p.wrapping_neg()
            } else {
                p
            }
        };
        let lo = (product as u32) & mask;
        let hi = ((product >> bits) as u32) & mask;
        let significant = if signed {
            let lo_ext = if lo & sz.sign() != 0 { mask } else { 0 };
            hi != lo_ext
        } else {
            hi != 0
        };
        self.set_flag(CF, significant);
        self.set_flag(OF, significant);
        self.set_szp(hi, sz);
        (lo, hi)
    }

    /// DIV/IDIV of the double-width dividend `hi:lo` by `src`. Returns
    /// (quotient, remainder) or the divide error.
    pub(crate) fn divide(
        &mut self,
        lo: u32,
        hi: u32,
        src: u32,
        sz: Size,
        signed: bool,
        negate: bool,
    ) -> Result<(u32, u32), DivideError> {
        let bits = sz.bits();
        let mask = sz.mask();
        let src = src & mask;
        if src == 0 {
            return Err(DivideError);
        }
        let dividend = ((hi & mask) as u128) << bits | (lo & mask) as u128;
        if !signed {
            let q = dividend / src as u128;
            let r = dividend % src as u128;
            if q > mask as u128 {
                return Err(DivideError);
            }
            return Ok((q as u32, r as u32));
        }
        let dividend: i128 = match sz {
            Size::Byte => dividend as u16 as i16 as i128,
            Size::Word => dividend as u32 as i32 as i128,
            Size::Dword => dividend as u64 as i64 as i128,
        };
        let divisor = sext(src, sz) as i128;
        let mag_q = dividend.unsigned_abs() / divisor.unsigned_abs();
        let mag_r = dividend.unsigned_abs() % divisor.unsigned_abs();
        // The 8086 rejects a quotient magnitude with the top bit set; the
        // 286 and later accept exactly -2^(n-1).
        let q_negative = (dividend < 0) != (divisor < 0);
        let limit = sz.sign() as u128;
        let fits = if q_negative && self.model.caps().idiv_accepts_min_quotient {
            mag_q <= limit
        } else {
            mag_q < limit
        };
        if !fits {
            let caps = self.model.caps();
            if q_negative && caps.idiv_min_quotient_partial_test {
                let a = dividend.unsigned_abs();
                if let Some(r) = min_quotient_286(a, divisor.unsigned_abs(), bits) {
                    let r = if dividend < 0 { r.wrapping_neg() } else { r };
                    return Ok((sz.sign(), r as u32 & mask));
                }
            }
            return Err(DivideError);
        }
        let q_negative = q_negative != negate;
        let q = if q_negative {
            (mag_q as i64).wrapping_neg()
        } else {
            mag_q as i64
        };
        let r = if dividend < 0 {
            (mag_r as i64).wrapping_neg()
        } else {
            mag_r as i64
        };
        Ok((q as u32 & mask, r as u32 & mask))
    }
}

impl Cpu {
    /// The 8086's flags at a divide error of DIV/IDIV: those of the
    /// microcode's last flag-setting subtraction, CF cleared when POSTIDIV
    /// rejected the quotient (recorded by the suite in the pushed FLAGS).
    pub(crate) fn divide_error_flags(&mut self, e: &crate::eu_timing::DivError, sz: Size) {
        self.alu(crate::table::Op::Cmp, e.a, e.b, sz);
        if e.clear_cf {
            self.set_flag(CF, false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::min_quotient_286;

    #[test]
    fn the_286_quotient_test_misses_the_second_highest_bit() {
        // -128 exactly: 128 * 7Ch + 4Fh, remainder 4Fh.
        assert_eq!(min_quotient_286(0x3E4F, 0x7C, 8), Some(0x4F));
        // A difference of 4000h + 3Fh passes as well (the suite's 81C1h / 7Ch).
        assert_eq!(min_quotient_286(0x7E3F, 0x7C, 8), Some(0x3F));
        // One over the remainder range, a difference with bits 8-13, or a
        // negative difference does not.
        assert_eq!(min_quotient_286(0x3E7C, 0x7C, 8), None);
        assert_eq!(min_quotient_286(0x3F00, 0x7C, 8), None);
        assert_eq!(min_quotient_286(0x0010, 0x80, 8), None);
        // The word form: bits 16-29 and the sign.
        assert_eq!(
            min_quotient_286(0x4000_0000 + 0x8000 * 3 + 2, 3, 16),
            Some(2)
        );
    }
}
