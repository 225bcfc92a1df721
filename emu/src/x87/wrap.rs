//! The unmasked response to numeric overflow and underflow (SDM vol. 1
//! §4.9.1.4, §4.9.1.5 and §8.5.4, §8.5.5; 80387 PRM §3.2.5): when OE (UE)
//! is unmasked and the destination is a register, the unit stores the
//! true result rounded to the precision control's significand, with its
//! exponent divided (multiplied) by 2^24576, the "bias adjust", so that it
//! lands in the middle of the extended range and a handler can rescale it.
//! A memory destination (FST/FSTP m32/m64) is left unchanged instead
//! (`load_store`).
//!
//! The true result is computed with an exponent range wide enough for any
//! operation on extended operands (18 bits): the significand rounded once
//! to 64 bits, or for precision control 24 and 53 computed to 113 bits and
//! then rounded (innocuous double rounding, see `x87::arith`). Tininess is
//! detected before rounding, as the 387 does: on the result truncated to
//! the precision, whose exponent is the exact one's.

use super::arith::{apply, BinOp};
use super::state::{sw, F80, X87};
use rustc_apfloat::ieee::{IeeeFloat, Semantics, X87DoubleExtended};
use rustc_apfloat::{Float, FloatConvert, Round, Status, StatusAnd};

/// The exponent adjustment of the unmasked response.
pub const BIAS_ADJUST: i32 = 24576;

/// The extended format's largest exponent (of 2^e, unbiased) and smallest
/// normal one.
const MAX_EXP: i32 = 16383;
const MIN_NORMAL_EXP: i32 = -16382;

/// Declares a significand of `$p` bits with an 18-bit exponent.
macro_rules! wide_semantics {
    ($($name:ident: $p:literal),*) => {$(
        #[doc = concat!("A ", stringify!($p), "-bit significand with an 18-bit exponent.")]
        pub struct $name;
        impl Semantics for $name {
            const BITS: usize = $p + 18;
            const EXP_BITS: usize = 18;
        }
    )*};
}
wide_semantics!(Wide24S: 24, Wide53S: 53, Wide64S: 64, Wide113S: 113);

/// The operations whose result can leave the extended range.
#[derive(Clone, Copy, Debug)]
pub enum RangeOp {
    /// FADD, FSUB, FMUL, FDIV and their reversed forms: `a op b`.
    Bin(BinOp, F80, F80),
    /// FSCALE: `a` * 2^n.
    Scale(F80, i32),
}

fn wide<S: Semantics>(v: F80) -> IeeeFloat<S>
where
    X87DoubleExtended: FloatConvert<IeeeFloat<S>>,
{
    let mut lost = false;
    v.to_ap().convert(&mut lost).value
}

/// The true result rounded per `r` to `S`'s significand, and the same
/// truncated (for tininess and the direction of rounding).
fn rounded<S: Semantics>(op: RangeOp, r: Round) -> (StatusAnd<IeeeFloat<S>>, IeeeFloat<S>)
where
    X87DoubleExtended: FloatConvert<IeeeFloat<S>>,
    IeeeFloat<Wide113S>: FloatConvert<IeeeFloat<S>>,
{
    let at = |r: Round| -> StatusAnd<IeeeFloat<S>> {
        let mut lost = false;
        match op {
            RangeOp::Scale(a, n) => Status::OK.and(wide::<S>(a).scalbn(n)),
            RangeOp::Bin(o, a, b) if S::PRECISION == 64 => apply(o, wide(a), wide(b), r),
            RangeOp::Bin(o, a, b) => {
                let q = apply(o, wide::<Wide113S>(a), wide::<Wide113S>(b), r);
                let n: StatusAnd<IeeeFloat<S>> = q.value.convert_r(r, &mut lost);
                n.value.into_status(q.status | n.status)
            }
        }
    };
    (at(r), at(Round::TowardZero).value)
}

/// Rebuilds a `StatusAnd` with another status.
trait WithStatus: Sized {
    fn into_status(self, s: Status) -> StatusAnd<Self>;
}
impl<T> WithStatus for T {
    fn into_status(self, s: Status) -> StatusAnd<T> {
        s.and(self)
    }
}

/// What the unmasked response stores: the value and its flags (OE or UE,
/// PE when inexact) and C1 (rounded up); `None` when the result is in
/// range.
fn response<S: Semantics>(op: RangeOp, r: Round) -> Option<(F80, u16, bool)>
where
    X87DoubleExtended: FloatConvert<IeeeFloat<S>>,
    IeeeFloat<Wide113S>: FloatConvert<IeeeFloat<S>>,
    IeeeFloat<S>: FloatConvert<X87DoubleExtended>,
{
    let (res, trunc) = rounded::<S>(op, r);
    let v = res.value;
    if !v.is_finite_non_zero() {
        return None;
    }
    let (flag, adjust) = if v.ilogb() > MAX_EXP {
        (sw::OE, -BIAS_ADJUST)
    } else if trunc.ilogb() < MIN_NORMAL_EXP {
        (sw::UE, BIAS_ADJUST)
    } else {
        return None;
    };
    let inexact = res.status.contains(Status::INEXACT);
    let up = inexact && v.abs() != trunc.abs();
    let mut lost = false;
    let out: StatusAnd<X87DoubleExtended> = v.scalbn(adjust).convert(&mut lost);
    let pe = if inexact { sw::PE } else { 0 };
    Some((F80::from_ap(out.value), flag | pe, up))
}

impl X87 {
    /// The unmasked overflow or underflow response to `op`, when the
    /// result leaves the extended range and that exception is unmasked:
    /// `Some` with the value to store (flags raised, C1 set as rounded);
    /// `None` otherwise (the caller's usual delivery applies).
    pub fn range_response(&mut self, op: RangeOp) -> Option<F80> {
        if !self.unmasked(sw::OE | sw::UE) {
            return None;
        }
        let r = self.rounding();
        let (v, flags, up) = match (op, self.precision()) {
            (RangeOp::Scale(..), _) | (_, 64) => response::<Wide64S>(op, r),
            (_, 53) => response::<Wide53S>(op, r),
            _ => response::<Wide24S>(op, r),
        }?;
        if !self.unmasked(flags & (sw::OE | sw::UE)) {
            return None;
        }
        self.status = (self.status & !sw::C1) | if up { sw::C1 } else { 0 };
        self.raise(flags);
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::x87::state::CW_INIT;

    /// A unit with `cw` (on top of FNINIT's) and OE, UE unmasked.
    fn unit(cw_clear: u16) -> X87 {
        let mut f = X87::new();
        f.control = CW_INIT & !(sw::OE | sw::UE | cw_clear);
        f
    }

    /// 2^e as an extended real.
    fn pow2(e: i32) -> F80 {
        F80::new(false, (e + 16383) as u16, 1 << 63)
    }

    #[test]
    fn overflow_stores_the_exponent_minus_24576() {
        // 2^16383 * 4 = 2^16385: stored as 2^(16385 - 24576) = 2^-8191,
        // biased exponent 16385 + 16383 - 24576 = 8192 (2000h), exact.
        let mut f = unit(0);
        let v = f.binary(BinOp::Mul, pow2(16383), pow2(2));
        assert_eq!(v, Some(F80::new(false, 0x2000, 1 << 63)));
        assert_eq!(f.status & (sw::OE | sw::PE | sw::ES), sw::OE | sw::ES);
    }

    #[test]
    fn underflow_stores_the_exponent_plus_24576() {
        // 2^-16382 / 8 = 2^-16385, tiny: biased exponent -16385 + 16383 +
        // 24576 = 24574 (5FFEh).
        let mut f = unit(0);
        let v = f.binary(BinOp::Div, pow2(-16382), pow2(3));
        assert_eq!(v, Some(F80::new(false, 0x5FFE, 1 << 63)));
        assert_eq!(f.status & (sw::UE | sw::ES), sw::UE | sw::ES);
        // -0.75 / 2^16383 = -1.5 * 2^-16384: biased 24575 (5FFFh), the
        // significand 1.1b kept whole (a masked underflow would denormalise).
        let m075 = F80::new(true, 0x3FFE, 0xC000_0000_0000_0000);
        let v = unit(0).binary(BinOp::Div, m075, pow2(16383));
        assert_eq!(v, Some(F80::new(true, 0x5FFF, 0xC000_0000_0000_0000)));
    }

    #[test]
    fn the_wrapped_result_is_rounded_to_the_precision_control() {
        // (2 - 2^-63) * 2^16383 * 2^1: PC 24, round to nearest, gives 2.0
        // (rounded up, C1 and PE): 2^16385 stored as 2^-8191 (2000h).
        let max = F80::new(false, 0x7FFE, u64::MAX);
        let mut f = unit(0x0300); // PC = 00: 24 bits
        let v = f.binary(BinOp::Mul, max, pow2(1));
        assert_eq!(v, Some(F80::new(false, 0x2000, 1 << 63)));
        assert_eq!(
            f.status & (sw::OE | sw::PE | sw::C1),
            sw::OE | sw::PE | sw::C1
        );
        // Toward zero at 64 bits the significand is kept: all ones,
        // exponent 7FFEh + 1 - 6000h = 1FFFh, exact.
        let mut f = unit(0);
        f.control |= 0x0C00; // RC = 11: toward zero
        let v = f.binary(BinOp::Mul, max, pow2(1));
        assert_eq!(v, Some(F80::new(false, 0x1FFF, u64::MAX)));
        assert_eq!(f.status & (sw::PE | sw::C1), 0);
    }

    #[test]
    fn fscale_wraps_too_and_masked_stays_as_it_was() {
        // 1.0 * 2^20000: 2^(20000 - 24576), biased 16383 - 4576 = 11807
        // (2E1Fh).
        let mut f = unit(0);
        let n = crate::x87::load_store::from_int(20000);
        assert_eq!(f.scale(pow2(0), n), Some(F80::new(false, 0x2E1F, 1 << 63)));
        assert_ne!(f.status & sw::OE, 0);
        // Masked: infinity, no ES.
        let mut f = X87::new();
        let v = f.scale(pow2(0), n);
        assert_eq!(v, Some(F80::new(false, 0x7FFF, 1 << 63)));
        assert_eq!(f.status & sw::ES, 0);
    }

    #[test]
    fn a_store_to_memory_is_not_wrapped_but_left_alone() {
        use crate::x87::decode::Format;
        // 2^200 to a single real overflows: unmasked, nothing is written
        // (`None`) and ES is set; masked, +inf (7F800000h) is written.
        let mut f = unit(0);
        assert_eq!(f.store_value(Format::R32, pow2(200)), None);
        assert_eq!(f.status & (sw::OE | sw::ES), sw::OE | sw::ES);
        let mut f = X87::new();
        let b = f.store_value(Format::R32, pow2(200)).unwrap_or_default();
        assert_eq!(b[..4], 0x7F80_0000u32.to_le_bytes());
    }
}
