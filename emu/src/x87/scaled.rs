//! A result computed in quad and kept as `v * 2^scale`, so that values far
//! below the quad format's normal range keep their 113 bits, with the side
//! on which the neglected rest of the exact value lies; and its single
//! rounding to the extended format under RC, with PE, UE, OE and C1 (set
//! when the magnitude was rounded up; SDM vol. 1 §4.8.4 and §8.1.3.3).
//! The transcendental instructions deliver their results through it.

use super::state::{sw, F80, X87};
use rustc_apfloat::ieee::Quad;
use rustc_apfloat::{Float, Round};

/// Where the exact value lies, in magnitude, relative to the computed one
/// when the latter has no bits beyond the extended format's 64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tail {
    /// The value is exact.
    Exact,
    /// Just below (a series whose next term lowers the magnitude).
    Below,
    /// Just above.
    Above,
    /// An approximation of an irrational value: inexact, side unknown.
    Unknown,
}

/// The value `v * 2^scale`.
#[derive(Clone, Copy, Debug)]
pub struct Scaled {
    /// The quad value.
    pub v: Quad,
    /// The power of two it is to be multiplied by.
    pub scale: i32,
    /// Where the exact value lies.
    pub tail: Tail,
}

impl Scaled {
    /// An approximation of an irrational value, unscaled.
    pub fn approx(v: Quad) -> Self {
        Scaled {
            v,
            scale: 0,
            tail: Tail::Unknown,
        }
    }
}

/// (significand, exponent) of a finite non-zero quad: v = sig * 2^exp.
fn unpack(v: Quad) -> (u128, i32) {
    let b = v.to_bits();
    let e = ((b >> 112) & 0x7FFF) as i32;
    let frac = b & ((1 << 112) - 1);
    if e == 0 {
        (frac, -16382 - 112)
    } else {
        (frac | 1 << 112, e - 16383 - 112)
    }
}

/// The part of a magnitude below the rounding quantum.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rest {
    Zero,
    BelowHalf,
    Half,
    AboveHalf,
}

/// The smallest quantum of the extended format: 2^-16445.
const MIN_QUANTUM: i32 = -16382 - 63;

impl X87 {
    /// Rounds `s` once to the extended format under RC and raises its
    /// flags (an unmasked OE or UE still delivers the masked response).
    pub fn round_scaled(&mut self, s: Scaled) -> F80 {
        let neg = s.v.is_negative();
        self.status &= !sw::C1;
        if s.v.is_zero() {
            return F80::new(neg, 0, 0);
        }
        let (sig, e) = unpack(s.v);
        let e = e + s.scale;
        let top = e + 127 - sig.leading_zeros() as i32;
        let mut q = top.max(-16382) - 63;
        let shift = q - e;
        let (mut n, mut rest) = if shift <= 0 {
            (sig << -shift, Rest::Zero)
        } else if shift > 120 {
            (0, Rest::BelowHalf)
        } else {
            let half = 1u128 << (shift - 1);
            let r = sig & ((half << 1) - 1);
            let rest = match r.cmp(&half) {
                std::cmp::Ordering::Less if r == 0 => Rest::Zero,
                std::cmp::Ordering::Less => Rest::BelowHalf,
                std::cmp::Ordering::Equal => Rest::Half,
                std::cmp::Ordering::Greater => Rest::AboveHalf,
            };
            (sig >> shift, rest)
        };
        match (rest, s.tail) {
            (Rest::Zero, Tail::Below) => {
                // Just below n quanta: below a power of two the quantum halves.
                if n == 1 << 63 && q > MIN_QUANTUM {
                    n = u64::MAX as u128;
                    q -= 1;
                } else {
                    n -= 1;
                }
                rest = Rest::AboveHalf;
            }
            (Rest::Zero, Tail::Above | Tail::Unknown) => rest = Rest::BelowHalf,
            (Rest::Half, Tail::Below) => rest = Rest::BelowHalf,
            (Rest::Half, Tail::Above | Tail::Unknown) => rest = Rest::AboveHalf,
            _ => {}
        }
        let inexact = rest != Rest::Zero;
        let rc = self.rounding();
        let away = match rc {
            Round::NearestTiesToEven => {
                rest == Rest::AboveHalf || (rest == Rest::Half && n & 1 == 1)
            }
            Round::TowardNegative => neg && inexact,
            Round::TowardPositive => !neg && inexact,
            _ => false,
        };
        n += away as u128;
        if n >> 64 != 0 {
            n >>= 1;
            q += 1;
        }
        let biased = if n >> 63 != 0 { q + 63 + 16383 } else { 0 };
        let mut flags = if inexact { sw::PE } else { 0 };
        let result = if biased >= 0x7FFF {
            flags |= sw::OE;
            let to_inf = match rc {
                Round::NearestTiesToEven => true,
                Round::TowardNegative => neg,
                Round::TowardPositive => !neg,
                _ => false,
            };
            if to_inf {
                self.status |= sw::C1;
                F80::new(neg, 0x7FFF, 1 << 63)
            } else {
                F80::new(neg, 0x7FFE, u64::MAX)
            }
        } else {
            if biased == 0 && inexact {
                flags |= sw::UE;
            }
            if away {
                self.status |= sw::C1;
            }
            F80::new(neg, biased as u16, n as u64)
        };
        self.raise(flags);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(cw: u16, v: Quad, scale: i32, tail: Tail) -> (F80, u16) {
        let mut f = X87::new();
        f.load_control(cw);
        let r = f.round_scaled(Scaled { v, scale, tail });
        (r, f.status)
    }

    #[test]
    fn a_tail_below_a_power_of_two_rounds_into_the_lower_binade() {
        let one = Quad::from_u128(1).value;
        // Nearest: 1.0, rounded up; toward zero: the largest value below 1.
        let (r, s) = round(0x037F, one, 0, Tail::Below);
        assert_eq!(
            (r, s & (sw::PE | sw::C1)),
            (F80::new(false, 0x3FFF, 1 << 63), sw::PE | sw::C1)
        );
        let (r, _) = round(0x0F7F, one, 0, Tail::Below);
        assert_eq!(r, F80::new(false, 0x3FFE, u64::MAX));
    }

    #[test]
    fn far_below_the_quad_range_underflows_per_rc() {
        let one = Quad::from_u128(1).value;
        let (r, s) = round(0x037F, one, -20000, Tail::Exact);
        assert_eq!(
            (r, s & (sw::UE | sw::PE)),
            (F80::default(), sw::UE | sw::PE)
        );
        let (r, _) = round(0x0B7F, one, -20000, Tail::Exact);
        assert_eq!(r, F80::new(false, 0, 1));
        let (r, s) = round(0x0F7F, one, 20000, Tail::Exact);
        assert_eq!((r, s & sw::OE), (F80::new(false, 0x7FFE, u64::MAX), sw::OE));
    }
}
