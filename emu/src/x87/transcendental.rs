//! The transcendental instructions: F2XM1, FYL2X, FYL2XP1, FPTAN, FPATAN,
//! FSIN, FCOS and FSINCOS (Intel SDM vol. 2 per instruction; vol. 1
//! §8.3.10).
//!
//! # Method and error bound
//!
//! No host `f64` or libm: every value is computed in IEEE quad
//! (`rustc_apfloat`'s `Quad`, 113-bit significand, the extended format's
//! 15-bit exponent) with our own series, then rounded once to the 64-bit
//! significand under RC. Precision control does not apply to these
//! instructions (SDM vol. 1 §8.1.5.2).
//!
//! - 2^x - 1: `expm1(x ln 2)` by its Taylor series (|x ln 2| <= 0.694).
//! - log2: x = m * 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(s),
//!   s = (m - 1)/(m + 1), |s| <= 0.172; FYL2XP1 takes s = x/(2 + x)
//!   directly, so a tiny x keeps its relative accuracy.
//! - atan2: the smaller of |y|, |x| over the larger (<= 1), then
//!   atan(t) = pi/4 + atan((t - 1)/(t + 1)) for t > 0.4142, so the series
//!   runs on |u| <= 0.4143, and the quadrant fix-up with pi/2 and pi.
//! - sin, cos, tan: the argument is reduced as the x87 does, by a 66-bit
//!   pi (SDM vol. 1 §8.3.10): r = x - k * pi66/2 with k the nearest
//!   integer, computed exactly in 128-bit integers (x < 2^63 and pi66/2 =
//!   M * 2^-65 with M odd, so x * 2^65 and k * M are integers and r =
//!   (x * 2^65 - k * M) * 2^-65, |r| <= pi66/4, is exact); then the Taylor
//!   series of sin and cos on r and the quadrant k mod 4. Large arguments
//!   thus give the chip's results, not true sin(x).
//! - Tiny arguments (below 2^-40, and reduced arguments that small) skip
//!   the series: sin r = r, tan r = r, atan t = t and cos r = 1, the
//!   neglected rest (r^3/6, r^2/2, ...) being known to lie below or above;
//!   results far below the quad format's normal range (a denormal
//!   operand, y * log2 x for a tiny y, a tiny y/x) are carried as
//!   `v * 2^scale` so that they keep 113 bits. `scaled.rs` rounds the
//!   value once to the extended format, using that side when the quad
//!   value is itself representable (so directed rounding and C1 are
//!   right), and raises PE, UE and OE.
//!
//! Each series is summed until its term no longer changes the sum; each
//! quad operation errs by at most 2^-113 relative, and no step cancels more
//! than one bit, so the value before the final rounding is within about
//! 2^-105 relative of the defined result: at most 2^-41 of an extended ulp
//! before rounding, hence the result is within 1 ulp and correctly rounded
//! except when the exact value lies within 2^-41 ulp of a rounding
//! boundary. `tests/tests/x87_transcendental.rs` measures this against
//! mpmath references (`tools/genx87/gentransc.py`).

use super::arith::to_quad;
use super::scaled::{Scaled, Tail};
use super::state::{sw, F80, INDEFINITE, X87};
use rustc_apfloat::ieee::Quad;
use rustc_apfloat::{Float, FloatConvert, Round, Status};

/// The eight transcendental instructions, by their D9 second byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transc {
    /// D9 F0: ST(0) = 2^ST(0) - 1.
    F2xm1,
    /// D9 F1: ST(1) = ST(1) * log2(ST(0)), pop.
    Fyl2x,
    /// D9 F2: ST(0) = tan(ST(0)), push 1.0.
    Fptan,
    /// D9 F3: ST(1) = atan(ST(1) / ST(0)), pop.
    Fpatan,
    /// D9 F9: ST(1) = ST(1) * log2(ST(0) + 1), pop.
    Fyl2xp1,
    /// D9 FB: ST(0) = sin(ST(0)), push cos.
    Fsincos,
    /// D9 FE: ST(0) = sin(ST(0)).
    Fsin,
    /// D9 FF: ST(0) = cos(ST(0)).
    Fcos,
}

/// Quad bit patterns of the constants, correctly rounded to 113 bits.
const PI: u128 = 0x4000921FB54442D18469898CC51701B8;
const FRAC_PI_2: u128 = 0x3FFF921FB54442D18469898CC51701B8;
const FRAC_PI_4: u128 = 0x3FFE921FB54442D18469898CC51701B8;
const FRAC_3PI_4: u128 = 0x40002D97C7F3321D234F272993D1414A;
const LN_2: u128 = 0x3FFE62E42FEFA39EF35793C7673007E6;
const LOG2_E: u128 = 0x3FFF71547652B82FE1777D0FFDA0D23A;
/// The x87's 66-bit pi as an integer: pi66 = PI66 * 2^-64 (pi rounded to
/// 66 significant bits; SDM vol. 1 §8.3.10).
const PI66: u128 = 0x3_243F_6A88_85A3_08D3;

fn q(bits: u128) -> Quad {
    Quad::from_bits(bits)
}

fn int(n: i128) -> Quad {
    Quad::from_i128(n).value
}

/// The quad arithmetic, rounding to nearest.
fn add(a: Quad, b: Quad) -> Quad {
    (a + b).value
}
fn sub(a: Quad, b: Quad) -> Quad {
    (a - b).value
}
fn mul(a: Quad, b: Quad) -> Quad {
    (a * b).value
}
fn div(a: Quad, b: Quad) -> Quad {
    (a / b).value
}

/// Sums `first` + terms, each term the previous one times `step(k)`,
/// until a term no longer changes the sum.
fn series(first: Quad, mut step: impl FnMut(i128, Quad) -> Quad) -> Quad {
    let (mut sum, mut term) = (first, first);
    for k in 1..200 {
        term = step(k, term);
        let next = add(sum, term);
        if next == sum {
            break;
        }
        sum = next;
    }
    sum
}

/// e^t - 1 for |t| <= 0.7: t + t^2/2! + t^3/3! + ...
fn expm1(t: Quad) -> Quad {
    series(t, |k, term| div(mul(term, t), int(k + 1)))
}

/// 2 atanh(s) = ln((1 + s)/(1 - s)) for |s| <= 0.2: 2(s + s^3/3 + ...).
/// The odd powers are kept apart from their divisors.
fn two_atanh(s: Quad) -> Quad {
    let s2 = mul(s, s);
    let mut pow = s;
    let sum = series(s, |k, _| {
        pow = mul(pow, s2);
        div(pow, int(2 * k + 1))
    });
    add(sum, sum)
}

/// atan(u) for |u| <= 0.42: u - u^3/3 + u^5/5 - ...
fn atan_series(u: Quad) -> Quad {
    let u2 = -mul(u, u);
    let mut pow = u;
    series(u, |k, _| {
        pow = mul(pow, u2);
        div(pow, int(2 * k + 1))
    })
}

/// atan(t) for 0 <= t <= 1.
fn atan01(t: Quad) -> Quad {
    // tan(pi/8) = 0.41421...: above it, shift by pi/4.
    if t > div(int(41421), int(100000)) {
        let u = div(sub(t, int(1)), add(t, int(1)));
        add(q(FRAC_PI_4), atan_series(u))
    } else {
        atan_series(t)
    }
}

/// sin(r) and cos(r) for |r| <= 0.79 by their Taylor series.
fn sin_cos(r: Quad) -> (Quad, Quad) {
    let r2 = -mul(r, r);
    let s = series(r, |k, term| div(mul(term, r2), int((2 * k) * (2 * k + 1))));
    let c = series(int(1), |k, term| {
        div(mul(term, r2), int((2 * k - 1) * (2 * k)))
    });
    (s, c)
}

/// x = r + k * pi66/2 for |x| < 2^63: (r exactly, k mod 4).
fn reduce(x: F80) -> (Quad, u8) {
    let e = x.exp() as i32 - 16383;
    if e < -1 || x.sig == 0 {
        return (to_quad(x), 0);
    }
    // x * 2^65 = sig * 2^(e + 2) < 2^128 (e <= 62); pi66/2 = PI66 * 2^-65.
    let n = (x.sig as u128) << (e + 2);
    let (mut k, rem) = (n / PI66, n % PI66);
    let mut r = rem as i128;
    if 2 * rem > PI66 {
        k += 1;
        r -= PI66 as i128;
    }
    let r = int(r).scalbn(-65);
    let quadrant = (k & 3) as u8;
    if x.sign() {
        (-r, (4 - quadrant) & 3)
    } else {
        (r, quadrant)
    }
}

/// (significand in [1, 2), unbiased exponent) of a finite non-zero value,
/// denormals normalised.
fn split(x: F80) -> (Quad, i32) {
    let v = to_quad(x);
    let e = v.ilogb();
    (v.scalbn(-e).abs(), e)
}

/// Below 2^-40 an argument is tiny: the sine, tangent and arctangent are
/// the argument itself and the cosine 1, the rest lying to a known side
/// and far below the extended format's precision.
const TINY: i32 = -40;

/// log2(x) for a finite positive x, and whether it is exact.
fn log2(x: Quad) -> (Quad, bool) {
    let mut e = x.ilogb();
    let mut m = x.scalbn(-e);
    // m in [1, 2): fold the part above sqrt(2) down.
    if m > div(int(141421356), int(100000000)) {
        m = m.scalbn(-1);
        e += 1;
    }
    if m == int(1) {
        return (int(e as i128), true);
    }
    let s = div(sub(m, int(1)), add(m, int(1)));
    (add(int(e as i128), mul(two_atanh(s), q(LOG2_E))), false)
}

impl X87 {
    /// Executes one of the transcendental instructions.
    pub fn transcendental(&mut self, t: Transc) {
        use Transc::*;
        self.status &= !sw::C1;
        match t {
            F2xm1 | Fsin | Fcos => self.one_to_one(t),
            Fyl2x | Fyl2xp1 | Fpatan => self.two_to_one(t),
            Fptan | Fsincos => self.one_to_two(t),
        }
    }

    /// F2XM1, FSIN, FCOS: ST(0) = f(ST(0)).
    fn one_to_one(&mut self, t: Transc) {
        if self.is_empty(0) {
            self.stack_fault(false);
            if !self.unmasked(sw::IE) {
                self.set_st(0, INDEFINITE);
            }
            return;
        }
        let x = self.st(0);
        if t != Transc::F2xm1 {
            self.status &= !sw::C2;
            if out_of_range(x) {
                self.status |= sw::C2;
                return;
            }
        }
        let r = match self.check_operands(&[x]) {
            Some(r) => r,
            None if t == Transc::F2xm1 => Some(self.f2xm1(x)),
            None if x.is_inf() => self.invalid(),
            None if x.is_zero() => Some(if t == Transc::Fsin { x } else { ONE }),
            None => {
                let (s, c) = sin_cos_of(x);
                Some(self.round_scaled(if t == Transc::Fsin { s } else { c }))
            }
        };
        if let Some(v) = r {
            self.set_st(0, v);
        }
    }

    /// FYL2X, FYL2XP1, FPATAN: ST(1) = f(ST(1), ST(0)), pop.
    fn two_to_one(&mut self, t: Transc) {
        if self.is_empty(0) || self.is_empty(1) {
            self.stack_fault(false);
            if !self.unmasked(sw::IE) {
                self.set_st(1, INDEFINITE);
                self.pop();
            }
            return;
        }
        let (x, y) = (self.st(0), self.st(1));
        let r = match self.check_operands(&[x, y]) {
            Some(r) => r,
            None if t == Transc::Fpatan => Some(self.atan2(y, x)),
            None => self.y_log2(y, x, t == Transc::Fyl2xp1),
        };
        if let Some(v) = r {
            self.set_st(1, v);
            self.pop();
        }
    }

    /// FPTAN and FSINCOS: ST(0) = f(ST(0)), then push g(ST(0)). A stack
    /// fault (ST(0) empty or ST(7) full) leaves, masked, the indefinite in
    /// both.
    fn one_to_two(&mut self, t: Transc) {
        if self.is_empty(0) || !self.is_empty(7) {
            self.stack_fault(!self.is_empty(0));
            if !self.unmasked(sw::IE) {
                self.set_st(0, INDEFINITE);
                self.push_unchecked(INDEFINITE);
            }
            return;
        }
        let x = self.st(0);
        self.status &= !sw::C2;
        if out_of_range(x) {
            self.status |= sw::C2;
            return;
        }
        let tan = t == Transc::Fptan;
        let r = match self.check_operands(&[x]) {
            Some(r) => r.map(|nan| (nan, nan)),
            None if x.is_inf() => self.invalid().map(|v| (v, v)),
            None if x.is_zero() => Some((x, ONE)),
            None if tan => Some((self.round_scaled(tan_of(x)), ONE)),
            None => {
                let (s, c) = sin_cos_of(x);
                // C1 reports the last rounding, the cosine's.
                let s = self.round_scaled(s);
                Some((s, self.round_scaled(c)))
            }
        };
        if let Some((a, b)) = r {
            self.set_st(0, a);
            self.push_unchecked(b);
        }
    }

    /// Pushes onto a stack whose ST(7) is known to be empty, keeping C1.
    fn push_unchecked(&mut self, v: F80) {
        self.top = (self.top + 7) & 7;
        self.set_st(0, v);
    }

    /// F2XM1: 2^x - 1, defined for -1 <= x <= +1 (outside it the result
    /// is computed the same way; Intel leaves it undefined).
    fn f2xm1(&mut self, x: F80) -> F80 {
        if x.is_zero() {
            return x;
        }
        if x.is_inf() {
            return if x.sign() { ONE.negated() } else { x };
        }
        let (m, e) = split(x);
        let xq = to_quad(x);
        if e < -16000 {
            // 2^x - 1 = x ln 2 (1 + x ln 2 / 2 + ...): the rest is far below.
            let v = mul(m, q(LN_2));
            let tail = if x.sign() { Tail::Below } else { Tail::Above };
            let v = if x.sign() { -v } else { v };
            return self.round_scaled(Scaled { v, scale: e, tail });
        }
        let mut exact = false;
        let n = xq
            .to_i128_r(32, Round::NearestTiesToEven, &mut exact)
            .value
            .clamp(-20000, 20000);
        if exact {
            let v = sub(int(1).scalbn(n as i32 - 1), div(int(1), int(2)));
            let s = Scaled {
                v,
                scale: 1,
                tail: Tail::Exact,
            };
            return self.round_scaled(s);
        }
        if xq.abs() <= int(1) {
            return self.round_scaled(Scaled::approx(expm1(mul(xq, q(LN_2)))));
        }
        // Outside -1..1: 2^x = 2^n * 2^f with |f| <= 1/2.
        let f = sub(xq, int(n));
        let p = add(expm1(mul(f, q(LN_2))), int(1));
        let v = sub(p, int(1).scalbn(-(n as i32)));
        self.round_scaled(Scaled {
            v,
            scale: n as i32,
            tail: Tail::Unknown,
        })
    }

    /// FYL2X (`plus_one` false) and FYL2XP1: y * log2(x) or y *
    /// log2(x + 1), with the special operands of the SDM's tables.
    fn y_log2(&mut self, y: F80, x: F80, plus_one: bool) -> Option<F80> {
        let xq = to_quad(x);
        // The logarithm as l * 2^scale, and whether it is exact.
        let (l, scale, exact) = if plus_one {
            if x.is_zero() || (x.is_inf() && !x.sign()) {
                (xq, 0, true)
            } else if xq < int(-1) || x.is_inf() {
                return self.invalid();
            } else if xq == int(-1) {
                (-Quad::INFINITY, 0, true)
            } else if split(x).1 < TINY {
                // ln(1 + x) = x - x^2/2 + x^3/3 - ..., scaled by x's exponent.
                let (m, e) = split(x);
                let m = if x.sign() { -m } else { m };
                let m2 = mul(m, m).scalbn(e - 1);
                let m3 = div(mul(mul(m, m), m).scalbn(2 * e), int(3));
                (mul(add(sub(m, m2), m3), q(LOG2_E)), e, false)
            } else {
                let s = div(xq, add(int(2), xq));
                (mul(two_atanh(s), q(LOG2_E)), 0, false)
            }
        } else if x.sign() && !x.is_zero() {
            return self.invalid();
        } else if x.is_zero() {
            (-Quad::INFINITY, 0, true)
        } else if x.is_inf() {
            (xq, 0, true)
        } else {
            let (l, exact) = log2(xq);
            (l, 0, exact)
        };
        if l.is_infinite() && l.is_negative() && !y.is_zero() && !y.is_inf() {
            // A finite non-zero y times log2(0): divide by zero.
            self.raise(sw::ZE);
            return (!self.unmasked(sw::ZE)).then_some(F80::new(!y.sign(), 0x7FFF, 1 << 63));
        }
        if y.is_zero() || y.is_inf() || l.is_infinite() {
            // Zeros and infinities multiply exactly (0 * inf is invalid).
            let p = to_quad(y) * l;
            if p.status.contains(Status::INVALID_OP) {
                return self.invalid();
            }
            let mut lost = false;
            return Some(F80::from_ap(p.value.convert(&mut lost).value));
        }
        let (ym, ye) = split(y);
        let ym = if y.sign() { -ym } else { ym };
        let tail = if exact { Tail::Exact } else { Tail::Unknown };
        let v = mul(ym, l);
        Some(self.round_scaled(Scaled {
            v,
            scale: ye + scale,
            tail,
        }))
    }

    /// FPATAN: atan(y/x) in the quadrant of (x, y), with the IEEE values
    /// for zeros and infinities (SDM vol. 2, FPATAN table).
    fn atan2(&mut self, y: F80, x: F80) -> F80 {
        let neg_x = x.sign();
        let mut s = if y.is_zero() {
            if neg_x {
                Scaled::approx(q(PI))
            } else {
                return y;
            }
        } else if y.is_inf() && x.is_inf() {
            Scaled::approx(q(if neg_x { FRAC_3PI_4 } else { FRAC_PI_4 }))
        } else if y.is_inf() || x.is_zero() {
            Scaled::approx(q(FRAC_PI_2))
        } else if x.is_inf() {
            if neg_x {
                Scaled::approx(q(PI))
            } else {
                return F80::new(y.sign(), 0, 0);
            }
        } else {
            let ((ym, ye), (xm, xe)) = (split(y), split(x));
            if ye - xe < TINY {
                // atan(t) = t - t^3/3 + ... for a tiny t = |y/x|.
                let t = div(ym, xm);
                if neg_x {
                    Scaled::approx(sub(q(PI), t.scalbn(ye - xe)))
                } else {
                    Scaled {
                        v: t,
                        scale: ye - xe,
                        tail: Tail::Below,
                    }
                }
            } else if ye <= xe && (ye < xe || ym <= xm) {
                let a = atan01(div(ym, xm).scalbn(ye - xe));
                Scaled::approx(if neg_x { sub(q(PI), a) } else { a })
            } else {
                let a = atan01(div(xm, ym).scalbn(xe - ye));
                let v = if neg_x {
                    add(q(FRAC_PI_2), a)
                } else {
                    sub(q(FRAC_PI_2), a)
                };
                Scaled::approx(v)
            }
        };
        if y.sign() {
            s.v = -s.v;
        }
        self.round_scaled(s)
    }
}

const ONE: F80 = F80::new(false, 0x3FFF, 1 << 63);

/// A tiny value `v` (exact) whose exact function value lies just off it.
fn tiny(v: Quad, tail: Tail) -> Scaled {
    Scaled { v, scale: 0, tail }
}

/// (sin x, cos x) for a finite non-zero x with |x| < 2^63.
fn sin_cos_of(x: F80) -> (Scaled, Scaled) {
    let (r, k) = reduce(x);
    let (s, c) = if r.abs() < int(1).scalbn(TINY) {
        // sin r = r - r^3/6, cos r = 1 - r^2/2: both just below in magnitude.
        (tiny(r, Tail::Below), tiny(int(1), Tail::Below))
    } else {
        let (s, c) = sin_cos(r);
        (Scaled::approx(s), Scaled::approx(c))
    };
    let neg = |mut v: Scaled| {
        v.v = -v.v;
        v
    };
    match k {
        0 => (s, c),
        1 => (c, neg(s)),
        2 => (neg(s), neg(c)),
        _ => (neg(c), s),
    }
}

/// tan x for a finite non-zero x with |x| < 2^63.
fn tan_of(x: F80) -> Scaled {
    let (r, k) = reduce(x);
    let small = r.abs() < int(1).scalbn(TINY);
    match (small, k & 1) {
        // tan r = r + r^3/3.
        (true, 0) => tiny(r, Tail::Above),
        // -cot r = -(1/r - r/3 - ...).
        (true, _) => tiny(-sub(div(int(1), r), div(r, int(3))), Tail::Below),
        (false, 0) => {
            let (s, c) = sin_cos(r);
            Scaled::approx(div(s, c))
        }
        (false, _) => {
            let (s, c) = sin_cos(r);
            Scaled::approx(-div(c, s))
        }
    }
}

/// |x| >= 2^63: FSIN, FCOS, FSINCOS and FPTAN set C2 and leave ST(0).
fn out_of_range(x: F80) -> bool {
    !x.is_nan() && !x.is_inf() && x.exp() >= 16383 + 63
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(x: F80) -> X87 {
        let mut f = X87::new();
        f.push(x);
        f
    }

    const ONE: F80 = F80::new(false, 0x3FFF, 1 << 63);

    #[test]
    fn fsin_of_one_is_correctly_rounded() {
        // sin(1) = 0.D76AA47848677020C6E9E909C50F3C32...h
        let mut f = unit(ONE);
        f.transcendental(Transc::Fsin);
        assert_eq!(f.st(0), F80::new(false, 0x3FFE, 0xD76A_A478_4867_7021));
        assert_eq!(f.status & (sw::PE | sw::C1 | sw::C2), sw::PE | sw::C1);
    }

    #[test]
    fn fptan_pushes_one_and_huge_arguments_set_c2() {
        let mut f = unit(F80::default());
        f.transcendental(Transc::Fptan);
        assert_eq!((f.st(0), f.st(1)), (ONE, F80::default()));
        let huge = F80::new(false, 16383 + 63, 1 << 63);
        let mut f = unit(huge);
        f.transcendental(Transc::Fptan);
        assert_eq!((f.st(0), f.top), (huge, 7));
        assert_eq!(f.status & sw::C2, sw::C2);
    }

    #[test]
    fn fyl2x_of_a_power_of_two_is_exact() {
        let mut f = unit(F80::new(false, 0x4001, 0xC000_0000_0000_0000)); // y = 6
        f.push(F80::new(false, 0x4002, 1 << 63)); // x = 8
        f.transcendental(Transc::Fyl2x);
        assert_eq!(f.st(0), F80::new(false, 0x4003, 0x9000_0000_0000_0000));
        assert_eq!(f.status & sw::PE, 0);
    }

    #[test]
    fn f2xm1_ends_of_its_range() {
        let mut f = unit(ONE.negated());
        f.transcendental(Transc::F2xm1);
        assert_eq!(f.st(0), F80::new(true, 0x3FFE, 1 << 63));
        assert_eq!(f.status & sw::PE, 0);
    }
}
