//! The x87's registers: the eight-register stack with its TOP pointer and
//! tag word, the status and control words, and the last instruction and
//! operand pointers (80387 Programmer's Reference Manual, chapter 2).

use rustc_apfloat::ieee::X87DoubleExtended;
use rustc_apfloat::Float;

/// An 80-bit extended real as stored: sign and 15-bit biased exponent, and
/// the 64-bit significand with its explicit integer bit.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct F80 {
    /// Bit 15: sign; bits 0-14: biased exponent (bias 16383).
    pub se: u16,
    /// The significand, integer bit in bit 63.
    pub sig: u64,
}

/// The real indefinite: the QNaN a masked invalid operation returns.
pub const INDEFINITE: F80 = F80 {
    se: 0xFFFF,
    sig: 0xC000_0000_0000_0000,
};

impl F80 {
    /// From sign, biased exponent and significand.
    pub const fn new(sign: bool, exp: u16, sig: u64) -> Self {
        F80 {
            se: ((sign as u16) << 15) | (exp & 0x7FFF),
            sig,
        }
    }

    /// The sign bit.
    pub fn sign(self) -> bool {
        self.se & 0x8000 != 0
    }

    /// The biased exponent.
    pub fn exp(self) -> u16 {
        self.se & 0x7FFF
    }

    /// The value in `rustc_apfloat`'s x87 format.
    pub fn to_ap(self) -> X87DoubleExtended {
        X87DoubleExtended::from_bits(((self.se as u128) << 64) | self.sig as u128)
    }

    /// From `rustc_apfloat`'s x87 format.
    pub fn from_ap(v: X87DoubleExtended) -> Self {
        let b = v.to_bits();
        F80 {
            se: (b >> 64) as u16,
            sig: b as u64,
        }
    }

    /// A NaN: the maximum exponent with a significand other than 1.0
    /// (unsupported encodings, an integer bit of zero, count as NaNs too).
    pub fn is_nan(self) -> bool {
        self.exp() == 0x7FFF && self.sig != 1 << 63
    }

    /// A signaling NaN: bit 62 clear.
    pub fn is_snan(self) -> bool {
        self.is_nan() && self.sig & (1 << 62) == 0
    }

    /// An infinity.
    pub fn is_inf(self) -> bool {
        self.exp() == 0x7FFF && self.sig == 1 << 63
    }

    /// A zero of either sign.
    pub fn is_zero(self) -> bool {
        self.exp() == 0 && self.sig == 0
    }

    /// A denormal (or pseudo-denormal): exponent 0, significand not 0.
    pub fn is_denormal(self) -> bool {
        self.exp() == 0 && self.sig != 0
    }

    /// An unnormal: exponent neither 0 nor maximum, integer bit clear. The
    /// 387 treats it as an unsupported format (an invalid operand).
    pub fn is_unsupported(self) -> bool {
        self.exp() != 0 && self.sig >> 63 == 0
    }

    /// The same value with the sign flipped.
    pub fn negated(self) -> Self {
        F80 {
            se: self.se ^ 0x8000,
            sig: self.sig,
        }
    }

    /// The same value with the sign cleared.
    pub fn abs(self) -> Self {
        F80 {
            se: self.se & 0x7FFF,
            sig: self.sig,
        }
    }

    /// A NaN made quiet (bit 62 set), as every operation delivers it.
    pub fn quiet(self) -> Self {
        F80 {
            se: self.se,
            sig: self.sig | (1 << 62),
        }
    }

    /// The tag this value gets in the tag word.
    pub fn tag(self) -> Tag {
        if self.is_zero() {
            Tag::Zero
        } else if self.exp() == 0 || self.exp() == 0x7FFF || self.sig >> 63 == 0 {
            Tag::Special
        } else {
            Tag::Valid
        }
    }
}

/// A register's two-bit tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    /// 00: a normal value.
    Valid = 0,
    /// 01: zero.
    Zero = 1,
    /// 10: NaN, infinity, denormal or unsupported.
    Special = 2,
    /// 11: empty.
    Empty = 3,
}

/// Status word bits.
pub mod sw {
    /// Invalid operation.
    pub const IE: u16 = 1 << 0;
    /// Denormal operand.
    pub const DE: u16 = 1 << 1;
    /// Zero divide.
    pub const ZE: u16 = 1 << 2;
    /// Overflow.
    pub const OE: u16 = 1 << 3;
    /// Underflow.
    pub const UE: u16 = 1 << 4;
    /// Precision (inexact result).
    pub const PE: u16 = 1 << 5;
    /// Stack fault (with IE; C1 tells overflow from underflow).
    pub const SF: u16 = 1 << 6;
    /// Error summary: an unmasked exception is pending.
    pub const ES: u16 = 1 << 7;
    /// Condition code C0.
    pub const C0: u16 = 1 << 8;
    /// Condition code C1.
    pub const C1: u16 = 1 << 9;
    /// Condition code C2.
    pub const C2: u16 = 1 << 10;
    /// Condition code C3.
    pub const C3: u16 = 1 << 14;
    /// Busy (the 387 mirrors ES here).
    pub const B: u16 = 1 << 15;
    /// All four condition codes.
    pub const CC: u16 = C0 | C1 | C2 | C3;
    /// The six exception flags.
    pub const EXCEPTIONS: u16 = 0x3F;
}

/// The control word after FNINIT: every exception masked, 64-bit
/// precision, round to nearest (and the reserved bit 6 set).
pub const CW_INIT: u16 = 0x037F;

/// The floating-point unit.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct X87 {
    /// The physical registers R0-R7; ST(i) is `regs[(top + i) & 7]`.
    pub regs: [F80; 8],
    /// The tag word, two bits per physical register.
    pub tags: u16,
    /// The status word without TOP (bits 11-13 are kept in `top`).
    pub status: u16,
    /// The stack top, 0-7.
    pub top: u8,
    /// The control word.
    pub control: u16,
    /// The last non-control instruction's linear address (real mode keeps
    /// the 20-bit linear address in the environment).
    pub fip: u32,
    /// The last instruction's opcode: the low three bits of its first byte
    /// and its ModR/M byte (11 bits).
    pub fop: u16,
    /// The last memory operand's linear address.
    pub foo: u32,
}

impl Default for X87 {
    fn default() -> Self {
        let mut f = X87 {
            regs: [F80::default(); 8],
            tags: 0,
            status: 0,
            top: 0,
            control: 0,
            fip: 0,
            fop: 0,
            foo: 0,
        };
        f.init();
        f
    }
}

impl X87 {
    /// A unit in its FNINIT state.
    pub fn new() -> Self {
        Self::default()
    }

    /// The status word as FNSTSW stores it, TOP in bits 11-13.
    pub fn status_word(&self) -> u16 {
        (self.status & !0x3800) | ((self.top as u16 & 7) << 11)
    }

    /// Loads the status word (FLDENV, FRSTOR) as it is, but for B, which
    /// the 387 and later only keep for the 8087's sake as a copy of ES
    /// (SDM vol. 1 §8.1.3; this file's `sw::B`).
    pub fn set_status_word(&mut self, v: u16) {
        self.top = ((v >> 11) & 7) as u8;
        self.status = v & !(0x3800 | sw::B);
        if v & sw::ES != 0 {
            self.status |= sw::B;
        }
    }

    /// An unmasked exception is pending: ES is set. On a PC this drives
    /// FERR#, which the board routes to IRQ13.
    pub fn error_pending(&self) -> bool {
        self.status & sw::ES != 0
    }

    /// The physical register number of ST(i).
    pub fn phys(&self, i: u8) -> usize {
        ((self.top + i) & 7) as usize
    }

    /// The tag of physical register `r`.
    pub fn tag_of(&self, r: usize) -> Tag {
        match (self.tags >> (2 * r)) & 3 {
            0 => Tag::Valid,
            1 => Tag::Zero,
            2 => Tag::Special,
            _ => Tag::Empty,
        }
    }

    pub(super) fn set_tag(&mut self, r: usize, t: Tag) {
        self.tags = (self.tags & !(3 << (2 * r))) | ((t as u16) << (2 * r));
    }

    /// True when ST(i) is empty.
    pub fn is_empty(&self, i: u8) -> bool {
        self.tag_of(self.phys(i)) == Tag::Empty
    }

    /// ST(i)'s value (whatever an empty register holds).
    pub fn st(&self, i: u8) -> F80 {
        self.regs[self.phys(i)]
    }

    /// Writes ST(i) and tags it from its value.
    pub fn set_st(&mut self, i: u8, v: F80) {
        let r = self.phys(i);
        self.regs[r] = v;
        self.set_tag(r, v.tag());
    }

    /// Marks ST(i) empty (FFREE).
    pub fn free(&mut self, i: u8) {
        let r = self.phys(i);
        self.set_tag(r, Tag::Empty);
    }

    /// Pops the stack: ST(0) becomes empty and TOP moves up.
    pub fn pop(&mut self) {
        self.free(0);
        self.top = (self.top + 1) & 7;
    }

    /// Pushes `v`; a full stack (ST(7) not empty) is a stack overflow: IE
    /// and SF with C1 set, and, masked, the indefinite is pushed. Returns
    /// false when the unmasked fault left the stack as it was.
    pub fn push(&mut self, v: F80) -> bool {
        if !self.is_empty(7) {
            self.stack_fault(true);
            if self.unmasked(sw::IE) {
                return false;
            }
            self.top = (self.top + 7) & 7;
            self.set_st(0, INDEFINITE);
            return true;
        }
        self.status &= !sw::C1;
        self.top = (self.top + 7) & 7;
        self.set_st(0, v);
        true
    }

    /// True when the control word leaves exception `flag` unmasked.
    pub fn unmasked(&self, flag: u16) -> bool {
        flag & !self.control & sw::EXCEPTIONS != 0
    }

    /// Sets exception flags; an unmasked one sets ES and B (FERR#).
    pub fn raise(&mut self, flags: u16) {
        self.status |= flags & (sw::EXCEPTIONS | sw::SF);
        if self.unmasked(flags) {
            self.status |= sw::ES | sw::B;
        }
    }

    /// A stack fault: IE and SF, C1 = 1 for overflow, 0 for underflow.
    pub fn stack_fault(&mut self, overflow: bool) {
        self.status = (self.status & !sw::C1) | if overflow { sw::C1 } else { 0 };
        self.raise(sw::IE | sw::SF);
    }

    /// Sets the condition codes under `mask` to `value`.
    pub fn set_cc(&mut self, mask: u16, value: u16) {
        self.status = (self.status & !mask) | (value & mask);
    }

    /// Precision control: the significand bits results are rounded to.
    pub fn precision(&self) -> u32 {
        match (self.control >> 8) & 3 {
            0 => 24,
            2 => 53,
            _ => 64,
        }
    }

    /// Rounding control, bits 10-11 of the control word.
    pub fn rounding(&self) -> rustc_apfloat::Round {
        use rustc_apfloat::Round;
        match (self.control >> 10) & 3 {
            0 => Round::NearestTiesToEven,
            1 => Round::TowardNegative,
            2 => Round::TowardPositive,
            _ => Round::TowardZero,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_and_pop_move_top_and_tags() {
        let mut f = X87::new();
        assert_eq!(f.tags, 0xFFFF);
        assert!(f.push(F80::new(false, 0x3FFF, 1 << 63)));
        assert_eq!(f.top, 7);
        assert_eq!(f.tag_of(7), Tag::Valid);
        assert_eq!(f.status_word() >> 11 & 7, 7);
        f.pop();
        assert_eq!(f.top, 0);
        assert_eq!(f.tags, 0xFFFF);
    }

    #[test]
    fn ninth_push_is_a_stack_overflow() {
        let mut f = X87::new();
        for _ in 0..8 {
            assert!(f.push(F80::default()));
        }
        assert!(f.push(F80::new(false, 0x3FFF, 1 << 63)));
        assert_eq!(f.st(0), INDEFINITE);
        assert_eq!(
            f.status & (sw::IE | sw::SF | sw::C1),
            sw::IE | sw::SF | sw::C1
        );
        assert!(!f.error_pending());
    }

    #[test]
    fn tags_follow_the_value_class() {
        assert_eq!(F80::new(true, 0, 0).tag(), Tag::Zero);
        assert_eq!(F80::new(false, 0, 5).tag(), Tag::Special);
        assert_eq!(F80::new(false, 0x7FFF, 1 << 63).tag(), Tag::Special);
        assert_eq!(F80::new(false, 0x4000, 1 << 63).tag(), Tag::Valid);
        assert_eq!(F80::new(false, 0x4000, 1 << 62).tag(), Tag::Special);
    }
}
