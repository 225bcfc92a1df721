//! The arithmetic: FADD, FSUB, FMUL, FDIV and their reversed forms, and the
//! one-operand FCHS, FABS, FSQRT, FRNDINT, FSCALE, FXTRACT, FPREM and
//! FPREM1, with the 387's NaN rules, precision and rounding control and
//! exception flags (80387 PRM, chapter 3 and section 2.2.6).

use super::state::{sw, F80, INDEFINITE, X87};
use super::wrap::RangeOp;
use rustc_apfloat::ieee::{IeeeFloat, Quad, Semantics, X87DoubleExtended};
use rustc_apfloat::{Float, FloatConvert, Round, Status, StatusAnd};

/// A 24-bit significand with the extended exponent range (precision
/// control 00). Below the extended format's normals the significand loses
/// bits from the bottom, as the 387 rounds a denormal's significand field
/// at the same fixed bit (bit 40) as a normal's: a tiny result keeps fewer
/// than 24 significant bits.
pub struct Ext24S;
impl Semantics for Ext24S {
    const BITS: usize = 39;
    const EXP_BITS: usize = 15;
}

/// A 53-bit significand with the extended exponent range (control 10),
/// rounded at bit 11 of the field, denormals included.
pub struct Ext53S;
impl Semantics for Ext53S {
    const BITS: usize = 68;
    const EXP_BITS: usize = 15;
}

/// The four dyadic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// a + b
    Add,
    /// a - b
    Sub,
    /// a * b
    Mul,
    /// a / b
    Div,
}

pub(super) fn apply<F: Float>(op: BinOp, a: F, b: F, r: Round) -> StatusAnd<F> {
    match op {
        BinOp::Add => a.add_r(b, r),
        BinOp::Sub => a.sub_r(b, r),
        BinOp::Mul => a.mul_r(b, r),
        BinOp::Div => a.div_r(b, r),
    }
}

/// The exact quad value of an extended one.
pub(super) fn to_quad(v: F80) -> Quad {
    let mut lost = false;
    v.to_ap().convert(&mut lost).value
}

/// Rounds a quad value to `S`'s significand and back to the 80-bit format.
fn narrow<S: Semantics>(q: StatusAnd<Quad>, r: Round) -> StatusAnd<X87DoubleExtended>
where
    Quad: FloatConvert<IeeeFloat<S>>,
{
    let mut lost = false;
    let n: StatusAnd<IeeeFloat<S>> = q.value.convert_r(r, &mut lost);
    let back: StatusAnd<X87DoubleExtended> = n.value.convert(&mut lost);
    back.value.into_status_and(q.status | n.status)
}

/// A helper to rebuild a `StatusAnd`.
trait IntoStatusAnd: Sized {
    fn into_status_and(self, s: Status) -> StatusAnd<Self>;
}
impl<T> IntoStatusAnd for T {
    fn into_status_and(self, s: Status) -> StatusAnd<T> {
        s.and(self)
    }
}

/// The NaN an operation on `a` and `b` returns when one is a NaN, quieted:
/// when both are, the QNaN of an SNaN and a QNaN, else the one with the
/// larger significand (SDM vol. 1 §4.8.3.5, table 4-7, x87 FPU column).
pub fn propagate_nan(a: F80, b: F80) -> F80 {
    let r = match (a.is_nan(), b.is_nan()) {
        (true, true) if a.is_snan() != b.is_snan() => {
            if a.is_snan() {
                b
            } else {
                a
            }
        }
        (true, true) if (b.sig & !(1 << 62)) > (a.sig & !(1 << 62)) => b,
        (true, _) => a,
        _ => b,
    };
    r.quiet()
}

impl X87 {
    /// A masked invalid operation's indefinite, or `None` (nothing stored)
    /// when IE is unmasked.
    pub fn invalid(&mut self) -> Option<F80> {
        self.raise(sw::IE);
        (!self.unmasked(sw::IE)).then_some(INDEFINITE)
    }

    /// The common operand checks: an unsupported encoding or a signaling
    /// NaN is invalid, a quiet NaN propagates, a denormal raises DE.
    /// `Some(result)` ends the operation.
    pub fn check_operands(&mut self, ops: &[F80]) -> Option<Option<F80>> {
        if ops.iter().any(|v| v.is_unsupported()) {
            return Some(self.invalid());
        }
        if ops.iter().any(|v| v.is_nan()) {
            let nan = match ops {
                [a, b] => propagate_nan(*a, *b),
                _ => ops[0].quiet(),
            };
            if ops.iter().any(|v| v.is_snan()) && self.invalid().is_none() {
                return Some(None);
            }
            return Some(Some(nan));
        }
        if ops.iter().any(|v| v.is_denormal()) {
            self.raise(sw::DE);
            if self.unmasked(sw::DE) {
                return Some(None);
            }
        }
        None
    }

    /// `a op b` rounded per the control word; `None` when an unmasked
    /// exception leaves the destination as it was.
    pub fn binary(&mut self, op: BinOp, a: F80, b: F80) -> Option<F80> {
        if let Some(r) = self.check_operands(&[a, b]) {
            return r;
        }
        if let Some(v) = self.range_response(RangeOp::Bin(op, a, b)) {
            return Some(v);
        }
        let r = self.rounding();
        let res = match self.precision() {
            64 => apply(op, a.to_ap(), b.to_ap(), r),
            53 => narrow::<Ext53S>(apply(op, to_quad(a), to_quad(b), r), r),
            _ => narrow::<Ext24S>(apply(op, to_quad(a), to_quad(b), r), r),
        };
        let mut exact = apply(op, to_quad(a), to_quad(b), Round::NearestTiesToEven).value;
        if exact.is_zero() && res.status.contains(Status::INEXACT) {
            // Below even the 113-bit format: still a tiny non-zero value.
            exact = Quad::SMALLEST.copy_sign(exact);
        }
        self.deliver(res, exact)
    }

    /// Maps a result's IEEE status onto the status word: IE, ZE, OE, UE,
    /// PE and C1 (set when the inexact result was rounded up in
    /// magnitude). `exact` is the result to 113 bits.
    pub fn deliver(&mut self, res: StatusAnd<X87DoubleExtended>, exact: Quad) -> Option<F80> {
        let s = res.status;
        if s.contains(Status::INVALID_OP) {
            return self.invalid();
        }
        if s.contains(Status::DIV_BY_ZERO) {
            self.raise(sw::ZE);
            return (!self.unmasked(sw::ZE)).then_some(F80::from_ap(res.value));
        }
        let v = F80::from_ap(res.value);
        let inexact = s.contains(Status::INEXACT);
        let mut flags = 0;
        // A directed rounding to the largest finite value overflows too,
        // which the softfloat reports as inexact only; and the result is
        // tiny when the exact value is below the smallest normal (so an
        // integral FRNDINT result never is) (SDM vol. 1 §8.5.4, §8.5.5).
        if s.contains(Status::OVERFLOW) || (exact.is_infinite() && !v.is_inf()) {
            flags |= sw::OE;
        }
        let tiny = v.exp() == 0 && !exact.is_zero() && exact.abs() < Quad::smallest_normalized();
        if tiny && (inexact || self.unmasked(sw::UE)) {
            flags |= sw::UE;
        }
        self.status &= !sw::C1;
        if inexact {
            flags |= sw::PE;
            if to_quad(v).abs() > exact.abs() {
                self.status |= sw::C1;
            }
        }
        self.raise(flags);
        Some(v)
    }

    /// FSQRT: the square root rounded per the control word; a negative
    /// operand other than -0 is invalid.
    pub fn sqrt(&mut self, a: F80) -> Option<F80> {
        if let Some(r) = self.check_operands(&[a]) {
            return r;
        }
        if a.is_zero() || (a.is_inf() && !a.sign()) {
            return Some(a);
        }
        if a.sign() {
            return self.invalid();
        }
        // Normalise a denormal, then take 67 root bits of the significand
        // digit by digit; the remainder is the sticky bit.
        let (e, sig) = normalise(a); // value = sig/2^63 * 2^e
        let sig = sig as u128;
        let odd = e.rem_euclid(2) == 1;
        let (root, sticky) = isqrt_bits(sig << (63 + odd as u32), 67);
        let half = (e - odd as i32) / 2;
        let r = self.rounding();
        let q = Quad::from_u128_r((root << 1) | sticky as u128, r).value;
        // The root is (2 * root + sticky) * 2^(half - 67).
        let q = q.scalbn(half - 67);
        let res = match self.precision() {
            64 => {
                let mut lost = false;
                q.convert_r(r, &mut lost)
            }
            53 => narrow::<Ext53S>(Status::OK.and(q), r),
            _ => narrow::<Ext24S>(Status::OK.and(q), r),
        };
        let mut res = res;
        if sticky {
            res.status |= Status::INEXACT;
        }
        self.deliver(res, q)
    }

    /// FRNDINT: ST(0) rounded to an integer per RC.
    pub fn round_int(&mut self, a: F80) -> Option<F80> {
        if let Some(r) = self.check_operands(&[a]) {
            return r;
        }
        let res = a.to_ap().round_to_integral(self.rounding());
        let exact = to_quad(a);
        self.deliver(res, exact)
    }

    /// FSCALE: ST(0) * 2^trunc(ST(1)).
    pub fn scale(&mut self, a: F80, b: F80) -> Option<F80> {
        if let Some(r) = self.check_operands(&[a, b]) {
            return r;
        }
        if b.is_inf() {
            // +inf scales a non-zero to infinity, -inf to zero; the other
            // pairs (0 * 2^inf, inf * 2^-inf) are invalid.
            return match (a.is_zero(), a.is_inf(), b.sign()) {
                (true, _, false) | (_, true, true) => self.invalid(),
                (_, _, false) => Some(F80::new(a.sign(), 0x7FFF, 1 << 63)),
                (_, _, true) => Some(F80::new(a.sign(), 0, 0)),
            };
        }
        if a.is_zero() || a.is_inf() {
            return Some(a);
        }
        let mut exact_int = false;
        let n = b
            .to_ap()
            .to_i128_r(32, Round::TowardZero, &mut exact_int)
            .value
            .clamp(-70000, 70000) as i32;
        if let Some(v) = self.range_response(RangeOp::Scale(a, n)) {
            return Some(v);
        }
        let mut q = to_quad(a).scalbn(n);
        let r = self.rounding();
        if q.is_zero() {
            // Scaled below even the 113-bit format: a tiny inexact result,
            // rounded per RC from just above zero (SDM vol. 2 FSCALE: #U).
            q = Quad::SMALLEST.copy_sign(to_quad(a));
        }
        let huge = q.is_infinite();
        if huge {
            // Beyond even the 113-bit format: rounded per RC from its largest.
            q = Quad::largest().copy_sign(q);
        }
        let mut lost = false;
        let res: StatusAnd<X87DoubleExtended> = q.convert_r(r, &mut lost);
        let mut res = res;
        if huge {
            res.status |= Status::OVERFLOW | Status::INEXACT;
        }
        self.deliver(res, q)
    }

    /// FXTRACT: (exponent as a real, significand with exponent 0).
    pub fn extract(&mut self, a: F80) -> Option<(F80, F80)> {
        if let Some(r) = self.check_operands(&[a]) {
            return r.map(|v| (v, v));
        }
        if a.is_zero() {
            // -inf exponent and the zero, with ZE.
            self.raise(sw::ZE);
            if self.unmasked(sw::ZE) {
                return None;
            }
            return Some((F80::new(true, 0x7FFF, 1 << 63), a));
        }
        if a.is_inf() {
            return Some((a.abs(), a));
        }
        let (e, sig) = normalise(a);
        let exp = X87DoubleExtended::from_i128(e as i128).value;
        Some((F80::from_ap(exp), F80::new(a.sign(), 0x3FFF, sig)))
    }
}

impl X87 {
    /// FPREM (`ieee` false: the quotient truncated) and FPREM1 (rounded to
    /// nearest): the exact remainder, the quotient's low bits in C0 (Q2),
    /// C3 (Q1) and C1 (Q0), C2 clear; when the exponents differ by 64 or
    /// more, a partial remainder with a truncated quotient that reduces
    /// the exponent by N = 32 + (D mod 32) bits, C2 set and C0, C3, C1
    /// clear (SDM vol. 2: N is implementation-dependent, 32 to 63).
    pub fn partial_remainder(&mut self, a: F80, b: F80, ieee: bool) -> Option<F80> {
        // A NaN or invalid result ends the reduction: C2 = 0 ("reduction
        // complete", SDM vol. 2 FPREM), so a `fprem; fnstsw ax; sahf; jp`
        // loop stops; C0, C1 and C3 (quotient bits) are undefined and kept.
        if let Some(r) = self.check_operands(&[a, b]) {
            self.set_cc(sw::C2, 0);
            return r;
        }
        if a.is_inf() || b.is_zero() {
            self.set_cc(sw::C2, 0);
            return self.invalid();
        }
        if b.is_inf() || a.is_zero() {
            self.set_cc(sw::CC, 0);
            return Some(a);
        }
        let (ea, ma) = normalise(a);
        let (eb, mb) = normalise(b);
        let d = ea - eb;
        if d < -1 || (d == -1 && !ieee) {
            self.set_cc(sw::CC, 0);
            return Some(a);
        }
        let partial = d >= 64;
        // Reduce b's exponent gap to n <= 63 bits per step.
        let (n, eb) = if partial {
            let n = 32 + d % 32;
            (n, eb + d - n)
        } else {
            (d, eb)
        };
        // a = N * 2^(eb - 64), b = D * 2^(eb - 64).
        let big_n = (ma as u128) << (n + 1);
        let big_d = (mb as u128) << 1;
        let mut q = big_n / big_d;
        let mut r = big_n % big_d;
        let mut sign = a.sign();
        if ieee && !partial && (2 * r > big_d || (2 * r == big_d && q & 1 == 1)) {
            q += 1;
            r = big_d - r;
            sign = !sign;
        }
        let rq = Quad::from_u128(r).value.scalbn(eb - 64);
        let mut lost = false;
        let res: StatusAnd<X87DoubleExtended> = rq.convert_r(self.rounding(), &mut lost);
        let cc = if partial {
            sw::C2
        } else {
            let bit = |k: u32, flag: u16| if q >> k & 1 == 1 { flag } else { 0 };
            // SDM vol. 2, FPREM: C0 = Q2, C3 = Q1, C1 = Q0.
            bit(2, sw::C0) | bit(1, sw::C3) | bit(0, sw::C1)
        };
        let v = self.deliver(res, rq);
        self.set_cc(sw::CC, cc);
        // A zero remainder keeps the dividend's sign.
        v.map(|v| {
            if r == 0 {
                F80::new(a.sign(), 0, 0)
            } else if sign {
                v.negated()
            } else {
                v
            }
        })
    }
}

/// (unbiased exponent, significand with its integer bit in bit 63) of a
/// finite non-zero value, denormals normalised.
fn normalise(a: F80) -> (i32, u64) {
    let shift = a.sig.leading_zeros() as i32;
    (a.exp().max(1) as i32 - 16383 - shift, a.sig << shift)
}

/// `bits` bits of the square root of the integer whose top bits are
/// `rad` (bit 127 or 126 first) followed by zeros, digit by digit; and
/// whether a remainder is left.
fn isqrt_bits(rad: u128, bits: u32) -> (u128, bool) {
    let mut rem: u128 = 0;
    let mut root: u128 = 0;
    for i in 0..bits {
        // The next two radicand bits: bits 127-2i and 126-2i of `rad`.
        let pair = if 2 * i + 1 < 128 {
            (rad >> (126 - 2 * i)) & 3
        } else {
            0
        };
        rem = (rem << 2) | pair;
        let trial = (root << 2) | 1;
        root <<= 1;
        if rem >= trial {
            rem -= trial;
            root |= 1;
        }
    }
    (root, rem != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: F80 = F80::new(false, 0x3FFF, 1 << 63);
    const THREE: F80 = F80::new(false, 0x4000, 0xC000_0000_0000_0000);

    fn f(cw: u16) -> X87 {
        let mut f = X87::new();
        f.load_control(cw);
        f
    }

    #[test]
    fn one_third_in_each_precision_and_rounding() {
        // 1/3 = 0.0101...b: nearest and down differ in the last bit.
        let cases = [
            (0x037F, 0x3FFD, 0xAAAA_AAAA_AAAA_AAAB),
            (0x077F, 0x3FFD, 0xAAAA_AAAA_AAAA_AAAA),
            (0x027F, 0x3FFD, 0xAAAA_AAAA_AAAA_A800),
            (0x007F, 0x3FFD, 0xAAAA_AB00_0000_0000),
            (0x047F, 0x3FFD, 0xAAAA_AA00_0000_0000),
        ];
        for (cw, exp, sig) in cases {
            let mut u = f(cw);
            let r = u.binary(BinOp::Div, ONE, THREE);
            assert_eq!(r, Some(F80::new(false, exp, sig)), "cw {cw:04X}");
            assert_ne!(u.status & sw::PE, 0);
        }
    }

    #[test]
    fn rounded_up_sets_c1() {
        let mut u = f(0x037F);
        u.binary(BinOp::Div, ONE, THREE);
        assert_ne!(u.status & sw::C1, 0);
        let mut u = f(0x077F);
        u.binary(BinOp::Div, ONE, THREE);
        assert_eq!(u.status & sw::C1, 0);
    }

    #[test]
    fn invalid_operations_give_the_indefinite() {
        let inf = F80::new(false, 0x7FFF, 1 << 63);
        let mut u = f(0x037F);
        assert_eq!(u.binary(BinOp::Sub, inf, inf), Some(INDEFINITE));
        assert_eq!(u.status & sw::IE, sw::IE);
        let zero = F80::default();
        assert_eq!(u.binary(BinOp::Div, zero, zero), Some(INDEFINITE));
        // Unmasked: nothing stored, ES set.
        let mut u = f(0x037E);
        assert_eq!(u.binary(BinOp::Mul, inf, zero), None);
        assert!(u.error_pending());
    }

    #[test]
    fn divide_by_zero_gives_signed_infinity() {
        let mut u = f(0x037F);
        let r = u.binary(BinOp::Div, ONE.negated(), F80::default());
        assert_eq!(r, Some(F80::new(true, 0x7FFF, 1 << 63)));
        assert_eq!(u.status & sw::ZE, sw::ZE);
    }

    #[test]
    fn nans_propagate_the_larger_significand_quietly() {
        let snan = F80::new(false, 0x7FFF, 0x8000_0000_0000_0001);
        let qnan = F80::new(true, 0x7FFF, 0xC000_0000_0000_0002);
        let mut u = f(0x037F);
        assert_eq!(u.binary(BinOp::Add, snan, qnan), Some(qnan));
        assert_eq!(u.status & sw::IE, sw::IE);
        let mut u = f(0x037F);
        assert_eq!(u.binary(BinOp::Add, ONE, snan), Some(snan.quiet()));
    }

    #[test]
    fn denormal_operand_and_underflow() {
        let den = F80::new(false, 0, 1);
        let mut u = f(0x037F);
        let r = u.binary(BinOp::Add, den, den);
        assert_eq!(r, Some(F80::new(false, 0, 2)));
        assert_eq!(u.status & sw::DE, sw::DE);
        let tiny = F80::new(false, 0x0001, 1 << 63);
        let mut u = f(0x037F);
        let r = u.binary(BinOp::Div, tiny, THREE);
        assert_eq!(r.map(|v| v.exp()), Some(0));
        assert_eq!(u.status & (sw::UE | sw::PE), sw::UE | sw::PE);
    }

    #[test]
    fn overflow_per_rounding() {
        let big = F80::new(false, 0x7FFE, u64::MAX);
        let mut u = f(0x037F);
        assert!(u.binary(BinOp::Add, big, big).is_some_and(|v| v.is_inf()));
        assert_eq!(u.status & (sw::OE | sw::PE), sw::OE | sw::PE);
        let mut u = f(0x0F7F);
        assert_eq!(u.binary(BinOp::Add, big, big), Some(big));
    }

    #[test]
    fn directed_overflow_to_the_largest_finite_sets_oe() {
        let big = F80::new(false, 0x7FFE, u64::MAX);
        let mut u = f(0x0F7F); // RC toward zero
        assert_eq!(u.binary(BinOp::Mul, big, big), Some(big));
        assert_eq!(u.status & (sw::OE | sw::PE), sw::OE | sw::PE);
        let mut u = f(0x0F7F);
        let huge = F80::new(false, 0x400D, 0xB011_87C5_E607_0222); // ~22530
        assert_eq!(u.scale(big.abs(), huge), Some(big));
        assert_eq!(u.status & (sw::OE | sw::PE), sw::OE | sw::PE);
    }

    #[test]
    fn underflow_below_the_113_bit_format() {
        let min = F80::new(false, 0x0001, 1 << 63);
        let mut u = f(0x0C7F);
        assert_eq!(u.binary(BinOp::Mul, min, min), Some(F80::new(false, 0, 0)));
        assert_eq!(u.status & (sw::UE | sw::PE), sw::UE | sw::PE);
        let mut u = f(0x087F); // RC up: the smallest denormal
        let minus_big = F80::new(true, 0x7FFE, u64::MAX);
        assert_eq!(u.scale(ONE, minus_big), Some(F80::new(false, 0, 1)));
        assert_eq!(u.status & (sw::UE | sw::PE), sw::UE | sw::PE);
    }

    #[test]
    fn frndint_never_underflows() {
        let small = F80::new(false, 0x3FF7, 0xF476_B1EC_27C4_4771);
        let mut u = f(0x067F);
        assert_eq!(u.round_int(small), Some(F80::new(false, 0, 0)));
        assert_eq!(u.status & (sw::UE | sw::PE), sw::PE);
    }

    #[test]
    fn a_qnan_beats_an_snan() {
        let snan = F80::new(true, 0x7FFF, 0x98EF_08E8_A45C_088D);
        let qnan = F80::new(false, 0x7FFF, 0xC000_0000_0000_0001);
        assert_eq!(propagate_nan(snan, qnan), qnan);
        assert_eq!(propagate_nan(qnan, snan), qnan);
        let snan2 = F80::new(false, 0x7FFF, 0x8000_0000_0000_0001);
        assert_eq!(propagate_nan(snan2, snan), snan.quiet());
    }

    #[test]
    fn square_roots() {
        let mut u = f(0x037F);
        let four = F80::new(false, 0x4001, 1 << 63);
        assert_eq!(u.sqrt(four), Some(F80::new(false, 0x4000, 1 << 63)));
        assert_eq!(u.status & sw::PE, 0);
        // sqrt(2) = 1.6A09E667F3BCC908B2FB...h: nearest rounds down.
        let two = F80::new(false, 0x4000, 1 << 63);
        assert_eq!(
            u.sqrt(two),
            Some(F80::new(false, 0x3FFF, 0xB504_F333_F9DE_6484))
        );
        assert_eq!(u.sqrt(THREE.negated()), Some(INDEFINITE));
        assert_eq!(u.sqrt(F80::new(true, 0, 0)), Some(F80::new(true, 0, 0)));
    }

    #[test]
    fn rndint_scale_extract() {
        let mut u = f(0x037F);
        let two_and_half = F80::new(false, 0x4000, 0xA000_0000_0000_0000);
        assert_eq!(
            u.round_int(two_and_half),
            Some(F80::new(false, 0x4000, 1 << 63))
        );
        let mut u = f(0x0B7F);
        assert_eq!(u.round_int(two_and_half), Some(THREE));
        assert_eq!(
            u.scale(THREE, THREE),
            Some(F80::new(false, 0x4003, 0xC000_0000_0000_0000))
        );
        let (e, s) = u.extract(THREE).unwrap_or_default();
        assert_eq!(e, ONE);
        assert_eq!(s, F80::new(false, 0x3FFF, 0xC000_0000_0000_0000));
    }

    #[test]
    fn fprem_and_fprem1() {
        let seven = F80::new(false, 0x4001, 0xE000_0000_0000_0000);
        let two = F80::new(false, 0x4000, 1 << 63);
        let mut u = f(0x037F);
        // 7 rem 2: q = 3, r = 1 (C3 = 1, C1 = 1, C0 = 0).
        assert_eq!(u.partial_remainder(seven, two, false), Some(ONE));
        assert_eq!(u.status & sw::CC, sw::C3 | sw::C1);
        // FPREM1: q = 4 (ties to even), r = -1.
        assert_eq!(u.partial_remainder(seven, two, true), Some(ONE.negated()));
        assert_eq!(u.status & sw::CC, sw::C0);
        // 6 rem 4: q = 1 (Q0 in C1), r = 2; 13 rem 2: q = 6 (Q2 in C0, Q1 in C3).
        let four = F80::new(false, 0x4001, 1 << 63);
        let six = F80::new(false, 0x4001, 0xC000_0000_0000_0000);
        assert_eq!(u.partial_remainder(six, four, false), Some(two));
        assert_eq!(u.status & sw::CC, sw::C1);
        let thirteen = F80::new(false, 0x4002, 0xD000_0000_0000_0000);
        assert_eq!(u.partial_remainder(thirteen, two, false), Some(ONE));
        assert_eq!(u.status & sw::CC, sw::C0 | sw::C3);
        let huge = F80::new(false, 0x4000 + 100, 1 << 63);
        u.partial_remainder(huge, THREE, false);
        assert_eq!(u.status & sw::C2, sw::C2);
    }
}
