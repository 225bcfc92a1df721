//! The constants of FLD1, FLDL2T, FLDL2E, FLDPI, FLDLG2, FLDLN2 and FLDZ.
//! The 387 holds them to more than 64 bits and rounds them per the
//! rounding control (80387 PRM, FLDPI etc.: "rounded per RC"): each row
//! keeps the 64-bit significand rounded to nearest and whether the value
//! was rounded up to get it, so the directed modes can step down.

use super::state::{F80, X87};
use rustc_apfloat::Round;

/// One constant: biased exponent, the significand rounded to nearest, and
/// whether that rounding went up (the true value lies below it). `None`:
/// exact.
pub struct Constant {
    /// The biased exponent.
    pub exp: u16,
    /// The significand rounded to nearest.
    pub sig: u64,
    /// Some(true): rounded up; Some(false): rounded down; None: exact.
    pub rounded_up: Option<bool>,
}

/// The constants by the low three bits of D9 E8-EE.
pub const CONSTANTS: [Constant; 7] = [
    // E8 FLD1
    Constant {
        exp: 0x3FFF,
        sig: 0x8000_0000_0000_0000,
        rounded_up: None,
    },
    // E9 FLDL2T: log2(10) = 3.3219280948873623478703...
    Constant {
        exp: 0x4000,
        sig: 0xD49A_784B_CD1B_8AFE,
        rounded_up: Some(false),
    },
    // EA FLDL2E: log2(e) = 1.4426950408889634073599...
    Constant {
        exp: 0x3FFF,
        sig: 0xB8AA_3B29_5C17_F0BC,
        rounded_up: Some(true),
    },
    // EB FLDPI
    Constant {
        exp: 0x4000,
        sig: 0xC90F_DAA2_2168_C235,
        rounded_up: Some(true),
    },
    // EC FLDLG2: log10(2)
    Constant {
        exp: 0x3FFD,
        sig: 0x9A20_9A84_FBCF_F799,
        rounded_up: Some(true),
    },
    // ED FLDLN2: ln(2)
    Constant {
        exp: 0x3FFE,
        sig: 0xB172_17F7_D1CF_79AC,
        rounded_up: Some(true),
    },
    // EE FLDZ
    Constant {
        exp: 0,
        sig: 0,
        rounded_up: None,
    },
];

impl X87 {
    /// The constant `n` (0 = FLD1 ... 6 = FLDZ) as the rounding control
    /// delivers it.
    pub fn constant(&self, n: usize) -> F80 {
        let c = &CONSTANTS[n];
        let sig = match (c.rounded_up, self.rounding()) {
            (Some(true), Round::TowardNegative | Round::TowardZero) => c.sig - 1,
            (Some(false), Round::TowardPositive) => c.sig + 1,
            _ => c.sig,
        };
        F80::new(false, c.exp, sig)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pi_follows_the_rounding_control() {
        let mut f = X87::new();
        assert_eq!(f.constant(3).sig, 0xC90F_DAA2_2168_C235);
        f.load_control(0x037F | 0x0C00);
        assert_eq!(f.constant(3).sig, 0xC90F_DAA2_2168_C234);
        f.load_control(0x037F | 0x0800);
        assert_eq!(f.constant(3).sig, 0xC90F_DAA2_2168_C235);
        assert_eq!(f.constant(1).sig, 0xD49A_784B_CD1B_8AFF);
    }

    #[test]
    fn one_and_zero_are_exact() {
        let mut f = X87::new();
        f.load_control(0x0F7F);
        assert_eq!(f.constant(0), F80::new(false, 0x3FFF, 1 << 63));
        assert!(f.constant(6).is_zero());
    }
}
