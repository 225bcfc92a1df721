//! FCOM, FCOMP, FCOMPP, FICOM, FICOMP, FUCOM, FUCOMP, FUCOMPP, FTST and
//! FXAM: the comparison result in C3, C2 and C0 (80387 PRM, tables 4-?
//! "condition code interpretation"), C1 cleared.

use super::state::{sw, F80, X87};
use std::cmp::Ordering;

/// C3 C2 C0 for greater, less, equal and unordered.
const GREATER: u16 = 0;
const LESS: u16 = sw::C0;
const EQUAL: u16 = sw::C3;
const UNORDERED: u16 = sw::C3 | sw::C2 | sw::C0;

impl X87 {
    /// Compares ST(0) with `b`; `unordered_ok` (FUCOM) raises IE only for
    /// signaling NaNs, FCOM for every NaN. Returns false when an unmasked
    /// exception stops the instruction (nothing popped).
    pub fn compare(&mut self, a: F80, b: F80, unordered_ok: bool) -> bool {
        let bad = |v: F80| v.is_unsupported() || (v.is_nan() && (!unordered_ok || v.is_snan()));
        if bad(a) || bad(b) {
            self.raise(sw::IE);
            if self.unmasked(sw::IE) {
                return false;
            }
        } else if a.is_denormal() || b.is_denormal() {
            self.raise(sw::DE);
            if self.unmasked(sw::DE) {
                return false;
            }
        }
        let cc = if a.is_nan() || b.is_nan() || a.is_unsupported() || b.is_unsupported() {
            UNORDERED
        } else {
            match a.to_ap().partial_cmp(&b.to_ap()) {
                Some(Ordering::Greater) => GREATER,
                Some(Ordering::Less) => LESS,
                Some(Ordering::Equal) => EQUAL,
                None => UNORDERED,
            }
        };
        self.set_cc(sw::CC, cc);
        true
    }

    /// FXAM: the class of ST(0) in C3 C2 C0, its sign in C1 (also for an
    /// empty register).
    pub fn examine(&mut self) {
        let v = self.st(0);
        let class = if self.is_empty(0) {
            sw::C3 | sw::C0
        } else if v.is_unsupported() {
            0
        } else if v.is_nan() {
            sw::C0
        } else if v.is_inf() {
            sw::C2 | sw::C0
        } else if v.is_zero() {
            sw::C3
        } else if v.is_denormal() {
            sw::C3 | sw::C2
        } else {
            sw::C2
        };
        let c1 = if v.sign() { sw::C1 } else { 0 };
        self.set_cc(sw::CC, class | c1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: F80 = F80::new(false, 0x3FFF, 1 << 63);
    const QNAN: F80 = F80::new(false, 0x7FFF, 0xC000_0000_0000_0000);

    #[test]
    fn compare_orders() {
        let mut f = X87::new();
        f.compare(ONE, F80::default(), false);
        assert_eq!(f.status & sw::CC, GREATER);
        f.compare(ONE.negated(), F80::default(), false);
        assert_eq!(f.status & sw::CC, LESS);
        f.compare(F80::new(true, 0, 0), F80::default(), false);
        assert_eq!(f.status & sw::CC, EQUAL);
    }

    #[test]
    fn fucom_quiet_nan_is_unordered_without_ie() {
        let mut f = X87::new();
        assert!(f.compare(ONE, QNAN, true));
        assert_eq!(f.status & sw::CC, UNORDERED);
        assert_eq!(f.status & sw::IE, 0);
        assert!(f.compare(ONE, QNAN, false));
        assert_eq!(f.status & sw::IE, sw::IE);
    }

    #[test]
    fn fxam_classes() {
        let mut f = X87::new();
        f.examine();
        assert_eq!(f.status & sw::CC, sw::C3 | sw::C0);
        f.push(ONE.negated());
        f.examine();
        assert_eq!(f.status & sw::CC, sw::C2 | sw::C1);
        f.set_st(0, F80::new(false, 0, 1));
        f.examine();
        assert_eq!(f.status & sw::CC, sw::C3 | sw::C2);
        f.set_st(0, QNAN);
        f.examine();
        assert_eq!(f.status & sw::CC, sw::C0);
    }
}
