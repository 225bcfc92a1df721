//! The control instructions: FNINIT, FNCLEX, FLDCW (FNSTCW and FNSTSW read
//! the words), FINCSTP, FDECSTP and FFREE. They leave the instruction and
//! operand pointers alone (80387 PRM, section 2.2.6).

use super::state::{sw, CW_INIT, X87};

impl X87 {
    /// FNINIT: control word 037Fh, status word 0, every register empty,
    /// pointers cleared.
    pub fn init(&mut self) {
        self.control = CW_INIT;
        self.status = 0;
        self.top = 0;
        self.tags = 0xFFFF;
        self.fip = 0;
        self.fop = 0;
        self.foo = 0;
    }

    /// FNCLEX: clears the exception flags, SF, ES and B.
    pub fn clear_exceptions(&mut self) {
        self.status &= !(sw::EXCEPTIONS | sw::SF | sw::ES | sw::B);
    }

    /// FLDCW: reserved bits read back as on the 387 (bit 6 set, 7 and
    /// 13-15 clear). Unmasking a flagged exception raises ES at once.
    pub fn load_control(&mut self, v: u16) {
        self.control = (v & 0x1F3F) | 0x0040;
        self.update_summary();
    }

    /// ES and B follow the flagged exceptions that are unmasked.
    pub fn update_summary(&mut self) {
        if self.unmasked(self.status & sw::EXCEPTIONS) {
            self.status |= sw::ES | sw::B;
        } else {
            self.status &= !(sw::ES | sw::B);
        }
    }

    /// FINCSTP and FDECSTP: TOP moves, the tags stay; C1 is cleared.
    pub fn rotate_top(&mut self, up: bool) {
        self.top = if up { self.top + 1 } else { self.top + 7 } & 7;
        self.status &= !sw::C1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fninit_gives_the_detection_values() {
        let mut f = X87::new();
        f.control = 0;
        f.status = 0xFFFF;
        f.init();
        assert_eq!(f.status_word(), 0);
        assert_eq!(f.control, 0x037F);
        assert_eq!(f.tags, 0xFFFF);
    }

    #[test]
    fn unmasking_a_flagged_exception_raises_es() {
        let mut f = X87::new();
        f.raise(sw::ZE);
        assert!(!f.error_pending());
        f.load_control(0x037B);
        assert!(f.error_pending());
        assert_eq!(f.control, 0x037B);
        f.clear_exceptions();
        assert!(!f.error_pending());
        assert_eq!(f.status_word(), 0);
    }

    #[test]
    fn fldcw_keeps_reserved_bits_as_the_387() {
        let mut f = X87::new();
        f.load_control(0xFFFF);
        assert_eq!(f.control, 0x1F7F);
        f.load_control(0);
        assert_eq!(f.control, 0x0040);
    }

    #[test]
    fn fincstp_and_fdecstp_wrap() {
        let mut f = X87::new();
        f.rotate_top(false);
        assert_eq!(f.top, 7);
        f.rotate_top(true);
        f.rotate_top(true);
        assert_eq!(f.top, 1);
    }
}
