//! The memory formats and FLD/FST, FILD/FIST, FBLD/FBSTP: 16-, 32- and
//! 64-bit integers, single, double and extended reals and 18-digit packed
//! BCD (80387 PRM, section 2.4), converted in both directions with the
//! exceptions each conversion raises.

use super::decode::Format;
use super::state::{sw, F80, X87};
use rustc_apfloat::ieee::{Double, Single, X87DoubleExtended};
use rustc_apfloat::{Float, FloatConvert, Round, Status, StatusAnd};

/// The integer indefinite (stored by a masked invalid FIST): the most
/// negative integer of the format.
const INT_INDEFINITE: i64 = i64::MIN;

/// The packed BCD indefinite: FFFFh, then C0h and seven zero bytes
/// (little-endian here).
const BCD_INDEFINITE: [u8; 10] = [0, 0, 0, 0, 0, 0, 0, 0xC0, 0xFF, 0xFF];

fn le(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0, |a, &b| (a << 8) | b as u64)
}

/// (fraction bits, exponent bits) of the single and double formats.
fn ieee_shape(fmt: Format) -> (u32, u32) {
    if fmt == Format::R32 {
        (23, 8)
    } else {
        (52, 11)
    }
}

impl X87 {
    /// The value of a memory operand in format `fmt` (the first
    /// `fmt.bytes()` of `bytes`, little-endian), with the exceptions a load
    /// raises: IE for a signaling NaN (made quiet), DE for a single or
    /// double denormal. `None` when an unmasked exception stops the load.
    pub fn load_value(&mut self, fmt: Format, bytes: &[u8]) -> Option<F80> {
        let raw = le(&bytes[..fmt.bytes().min(8)]);
        match fmt {
            Format::I16 => Some(from_int(raw as u16 as i16 as i64)),
            Format::I32 => Some(from_int(raw as u32 as i32 as i64)),
            Format::I64 => Some(from_int(raw as i64)),
            Format::R80 => Some(F80 {
                sig: raw,
                se: u16::from_le_bytes([bytes[8], bytes[9]]),
            }),
            Format::Bcd => Some(from_bcd(bytes)),
            Format::R32 | Format::R64 => self.load_real(fmt, raw),
        }
    }

    fn load_real(&mut self, fmt: Format, raw: u64) -> Option<F80> {
        let (frac_bits, exp_bits) = ieee_shape(fmt);
        let exp_max = (1u64 << exp_bits) - 1;
        let exp = (raw >> frac_bits) & exp_max;
        let frac = raw & ((1 << frac_bits) - 1);
        let sign = raw >> (frac_bits + exp_bits) & 1 != 0;
        if exp == exp_max && frac != 0 {
            let nan = F80::new(sign, 0x7FFF, (1 << 63) | (frac << (63 - frac_bits)));
            if !nan.is_snan() {
                return Some(nan);
            }
            self.raise(sw::IE);
            return (!self.unmasked(sw::IE)).then_some(nan.quiet());
        }
        if exp == 0 && frac != 0 {
            self.raise(sw::DE);
            if self.unmasked(sw::DE) {
                return None;
            }
        }
        let mut lost = false;
        let v: X87DoubleExtended = if fmt == Format::R32 {
            Single::from_bits(raw as u128).convert(&mut lost).value
        } else {
            Double::from_bits(raw as u128).convert(&mut lost).value
        };
        Some(F80::from_ap(v))
    }

    /// `v` in format `fmt` as little-endian bytes (the first `fmt.bytes()`),
    /// rounded per RC, with the exceptions the store raises; `None` when
    /// an unmasked exception stops the store (memory is left as it was).
    pub fn store_value(&mut self, fmt: Format, v: F80) -> Option<[u8; 10]> {
        match fmt {
            Format::R80 => {
                let mut b = [0; 10];
                b[..8].copy_from_slice(&v.sig.to_le_bytes());
                b[8..].copy_from_slice(&v.se.to_le_bytes());
                Some(b)
            }
            Format::R32 | Format::R64 => self.store_real(fmt, v),
            Format::Bcd => self.store_bcd(v),
            _ => self.store_int(fmt, v),
        }
    }

    fn store_real(&mut self, fmt: Format, v: F80) -> Option<[u8; 10]> {
        let (frac_bits, exp_bits) = ieee_shape(fmt);
        if v.is_nan() || v.is_unsupported() {
            if v.is_snan() || v.is_unsupported() {
                self.raise(sw::IE);
                if self.unmasked(sw::IE) {
                    return None;
                }
            }
            // The NaN's top fraction bits, quiet, or the indefinite.
            let q = if v.is_unsupported() {
                super::state::INDEFINITE
            } else {
                v.quiet()
            };
            let bits = ((q.sign() as u64) << (frac_bits + exp_bits))
                | (((1u64 << exp_bits) - 1) << frac_bits)
                | ((q.sig << 1) >> (64 - frac_bits));
            return Some(bytes_of(bits));
        }
        let r = self.rounding();
        let mut lost = false;
        let ap = v.to_ap();
        // The stored value widened back, to tell a rounding up (C1).
        let (bits, status, back): (u64, Status, X87DoubleExtended) = if fmt == Format::R32 {
            let s: StatusAnd<Single> = ap.convert_r(r, &mut lost);
            (
                s.value.to_bits() as u64,
                s.status,
                s.value.convert(&mut lost).value,
            )
        } else {
            let s: StatusAnd<Double> = ap.convert_r(r, &mut lost);
            (
                s.value.to_bits() as u64,
                s.status,
                s.value.convert(&mut lost).value,
            )
        };
        self.status &= !sw::C1;
        if status.contains(Status::INEXACT) && back.abs() > ap.abs() {
            self.status |= sw::C1;
        }
        if v.is_denormal() {
            self.raise(sw::DE);
        }
        let mut flags = 0;
        // At 2^(emax + 1) and beyond a directed rounding to the largest
        // finite value overflows too (SDM vol. 1 §8.5.4), which the
        // softfloat reports as inexact only.
        let emax = (1i32 << (exp_bits - 1)) - 1;
        let beyond = !v.is_inf() && i32::from(v.exp()) - 0x3FFF > emax;
        if status.contains(Status::OVERFLOW) || beyond {
            flags |= sw::OE;
        }
        if status.contains(Status::UNDERFLOW) {
            flags |= sw::UE;
        }
        if status.contains(Status::INEXACT) {
            flags |= sw::PE;
        }
        self.raise(flags);
        // Unmasked overflow and underflow leave memory alone.
        if self.unmasked(flags & (sw::OE | sw::UE | sw::DE)) {
            return None;
        }
        Some(bytes_of(bits))
    }

    fn store_int(&mut self, fmt: Format, v: F80) -> Option<[u8; 10]> {
        let width = fmt.bytes() * 8;
        let mut exact = false;
        let r = if v.is_nan() || v.is_unsupported() || v.is_inf() {
            None
        } else {
            let s = v.to_ap().to_i128_r(width, self.rounding(), &mut exact);
            (!s.status.contains(Status::INVALID_OP)).then_some((s.value as i64, exact))
        };
        let n = match r {
            Some((n, exact)) => {
                if !exact {
                    self.raise(sw::PE);
                }
                n
            }
            None => {
                self.raise(sw::IE);
                if self.unmasked(sw::IE) {
                    return None;
                }
                INT_INDEFINITE >> (64 - width)
            }
        };
        Some(bytes_of(n as u64))
    }

    fn store_bcd(&mut self, v: F80) -> Option<[u8; 10]> {
        let mut exact = false;
        let n = if v.is_nan() || v.is_unsupported() || v.is_inf() {
            None
        } else {
            let s = v.to_ap().round_to_integral(self.rounding());
            let mut lost = false;
            exact = !s.status.contains(Status::INEXACT);
            let abs = s
                .value
                .abs()
                .to_u128_r(64, Round::TowardZero, &mut lost)
                .value;
            (abs < 1_000_000_000_000_000_000).then_some(abs)
        };
        let Some(mut abs) = n else {
            self.raise(sw::IE);
            return (!self.unmasked(sw::IE)).then_some(BCD_INDEFINITE);
        };
        if !exact {
            self.raise(sw::PE);
        }
        let mut b = [0u8; 10];
        for byte in b.iter_mut().take(9) {
            *byte = (abs % 10) as u8 | (((abs / 10) % 10) as u8) << 4;
            abs /= 100;
        }
        b[9] = (v.sign() as u8) << 7;
        Some(b)
    }
}

fn bytes_of(v: u64) -> [u8; 10] {
    let mut b = [0; 10];
    b[..8].copy_from_slice(&v.to_le_bytes());
    b
}

/// An integer as an extended real (always exact).
pub fn from_int(n: i64) -> F80 {
    F80::from_ap(X87DoubleExtended::from_i128(n as i128).value)
}

/// An 18-digit packed BCD value (the sign in bit 79); digits above 9 are
/// taken at face value, as the 387's "undefined" result.
fn from_bcd(b: &[u8]) -> F80 {
    let mut n: i64 = 0;
    for &byte in b[..9].iter().rev() {
        n = n * 100 + (byte >> 4) as i64 * 10 + (byte & 0xF) as i64;
    }
    let v = from_int(n);
    if b[9] & 0x80 != 0 {
        // -0 stays -0.
        v.negated()
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(cw: u16) -> X87 {
        let mut f = X87::new();
        f.load_control(cw);
        f
    }

    #[test]
    fn a_store_chopped_to_the_largest_finite_overflows() {
        let mut u = f(0x0C7F); // RC toward zero
        let v = F80::new(true, 0x795B, 0x9953_66C3_BF3D_7766);
        let got = u.store_real(Format::R32, v);
        assert_eq!(
            got.map(|b| [b[0], b[1], b[2], b[3]]),
            Some([0xFF, 0xFF, 0x7F, 0xFF])
        );
        assert_eq!(u.status & (sw::OE | sw::PE), sw::OE | sw::PE);
        // Just above the largest single, chopped: inexact only.
        let mut u = f(0x0C7F);
        let v = F80::new(false, 0x3FFF + 127, u64::MAX);
        assert!(u.store_real(Format::R32, v).is_some());
        assert_eq!(u.status & (sw::OE | sw::PE), sw::PE);
    }

    #[test]
    fn reals_load_exactly() {
        let mut u = f(0x037F);
        let one = 1.0f32.to_bits().to_le_bytes();
        assert_eq!(
            u.load_value(Format::R32, &one),
            Some(F80::new(false, 0x3FFF, 1 << 63))
        );
        let tenth = 0x3FB9_9999_9999_999Au64.to_le_bytes();
        assert_eq!(
            u.load_value(Format::R64, &tenth),
            Some(F80::new(false, 0x3FFB, 0xCCCC_CCCC_CCCC_D000))
        );
        assert_eq!(u.status, 0);
        let den = 1u32.to_le_bytes();
        assert_eq!(
            u.load_value(Format::R32, &den),
            Some(F80::new(false, 0x3F6A, 1 << 63))
        );
        assert_eq!(u.status & sw::DE, sw::DE);
    }

    #[test]
    fn snan_loads_quiet_with_ie() {
        let mut u = f(0x037F);
        let snan = 0x7F80_0001u32.to_le_bytes();
        let v = u.load_value(Format::R32, &snan);
        assert_eq!(v, Some(F80::new(false, 0x7FFF, 0xC000_0100_0000_0000)));
        assert_eq!(u.status & sw::IE, sw::IE);
    }

    #[test]
    fn stores_round_per_rc() {
        // 1/3 to single: nearest 3EAAAAABh, chop 3EAAAAAAh.
        let third = F80::new(false, 0x3FFD, 0xAAAA_AAAA_AAAA_AAAB);
        let mut u = f(0x037F);
        assert_eq!(
            le(&u.store_value(Format::R32, third).unwrap_or_default()[..4]),
            0x3EAA_AAAB
        );
        assert_eq!(u.status & sw::PE, sw::PE);
        let mut u = f(0x0F7F);
        assert_eq!(
            le(&u.store_value(Format::R32, third).unwrap_or_default()[..4]),
            0x3EAA_AAAA
        );
    }

    #[test]
    fn integers_round_and_overflow_to_the_indefinite() {
        let two_and_half = F80::new(false, 0x4000, 0xA000_0000_0000_0000);
        let mut u = f(0x037F);
        assert_eq!(
            le(&u.store_value(Format::I16, two_and_half).unwrap_or_default()[..2]),
            2
        );
        let mut u = f(0x0B7F);
        assert_eq!(
            le(&u.store_value(Format::I16, two_and_half).unwrap_or_default()[..2]),
            3
        );
        let big = from_int(40000);
        assert_eq!(
            le(&u.store_value(Format::I16, big).unwrap_or_default()[..2]),
            0x8000
        );
        assert_eq!(u.status & sw::IE, sw::IE);
        assert_eq!(from_int(-5), F80::new(true, 0x4001, 0xA000_0000_0000_0000));
        let bytes = (-123456789i32).to_le_bytes();
        assert_eq!(
            u.load_value(Format::I32, &bytes),
            Some(from_int(-123456789))
        );
    }

    #[test]
    fn bcd_both_ways() {
        let mut u = f(0x037F);
        let b = u
            .store_value(Format::Bcd, from_int(-1234))
            .unwrap_or_default();
        assert_eq!(b, [0x34, 0x12, 0, 0, 0, 0, 0, 0, 0, 0x80]);
        assert_eq!(u.load_value(Format::Bcd, &b), Some(from_int(-1234)));
        let huge = F80::new(false, 0x403E, 1 << 63);
        assert_eq!(u.store_value(Format::Bcd, huge), Some(BCD_INDEFINITE));
    }
}
