//! FNSTENV, FLDENV, FNSAVE and FRSTOR in their real-mode layouts (80387
//! PRM, figures 6-? "environment, real mode"): 14 bytes with a 16-bit
//! operand size, 28 with a 32-bit one; FNSAVE/FRSTOR add the eight
//! registers, ST(0) first, 10 bytes each.

use super::state::{Tag, F80, X87};

/// The whole state as FNSAVE stores it, field by field (SDM vol. 1
/// §8.1.10): what a test harness loads before an instruction and reads
/// after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedState {
    /// The control word.
    pub cw: u16,
    /// The status word, TOP in bits 11-13.
    pub sw: u16,
    /// The full tag word, two bits per physical register.
    pub tw: u16,
    /// The instruction pointer (linear address).
    pub fip: u32,
    /// The 11-bit opcode.
    pub fop: u16,
    /// The operand pointer (linear address).
    pub fdp: u32,
    /// ST(0)..ST(7) in stack order.
    pub st: [F80; 8],
}

/// The size of the environment image.
pub fn env_size(op32: bool) -> usize {
    if op32 {
        28
    } else {
        14
    }
}

impl X87 {
    /// The environment as FNSTENV stores it. The pointers are the linear
    /// (20-bit, or 32-bit) addresses: bits 15-0 in one field, the rest in
    /// bits 15-12 (27-12) of the next, beside the opcode.
    pub fn env_image(&self, op32: bool) -> Vec<u8> {
        let fields = [
            self.control as u32,
            self.status_word() as u32,
            self.tags as u32,
            self.fip & 0xFFFF,
            ((self.fip >> 16) << 12) | (self.fop as u32 & 0x7FF),
            self.foo & 0xFFFF,
            (self.foo >> 16) << 12,
        ];
        let mut out = Vec::with_capacity(env_size(op32));
        for f in fields {
            if op32 {
                out.extend_from_slice(&f.to_le_bytes());
            } else {
                out.extend_from_slice(&(f as u16).to_le_bytes());
            }
        }
        out
    }

    /// FLDENV: loads the environment image.
    pub fn load_env(&mut self, b: &[u8], op32: bool) {
        let w = if op32 { 4 } else { 2 };
        let field = |i: usize| {
            b[i * w..i * w + w]
                .iter()
                .rev()
                .fold(0u32, |a, &x| (a << 8) | x as u32)
        };
        let high_bits = if op32 { 0xFFFF } else { 0xF };
        self.control = (field(0) as u16 & 0x1F3F) | 0x0040;
        self.set_status_word(field(1) as u16);
        self.tags = field(2) as u16;
        self.retag();
        self.fip = (field(3) & 0xFFFF) | (((field(4) >> 12) & high_bits) << 16);
        self.fop = (field(4) & 0x7FF) as u16;
        self.foo = (field(5) & 0xFFFF) | (((field(6) >> 12) & high_bits) << 16);
        // The status word is loaded as it is, ES and B included (SDM vol.
        // 2, FLDENV: "FPUStatusWord <- SRC[FPUStatusWord]").
    }

    /// The FNSAVE image: the environment and ST(0)-ST(7).
    pub fn save_image(&self, op32: bool) -> Vec<u8> {
        let mut out = self.env_image(op32);
        for i in 0..8 {
            let v = self.st(i);
            out.extend_from_slice(&v.sig.to_le_bytes());
            out.extend_from_slice(&v.se.to_le_bytes());
        }
        out
    }

    /// FLDENV and FRSTOR use the loaded tag word only to tell empty
    /// registers from full ones; a full register gets the tag of its
    /// contents (SDM vol. 1 §8.1.7).
    fn retag(&mut self) {
        for r in 0..8 {
            if self.tag_of(r) != Tag::Empty {
                self.set_tag(r, self.regs[r].tag());
            }
        }
    }

    /// FRSTOR: the environment, then ST(0)-ST(7), tagged from the loaded
    /// tag word's empty marks and their contents.
    pub fn restore(&mut self, b: &[u8], op32: bool) {
        self.load_env(b, op32);
        let base = env_size(op32);
        for i in 0..8u8 {
            let o = base + 10 * i as usize;
            let mut sig = [0; 8];
            sig.copy_from_slice(&b[o..o + 8]);
            let r = self.phys(i);
            self.regs[r] = F80 {
                sig: u64::from_le_bytes(sig),
                se: u16::from_le_bytes([b[o + 8], b[o + 9]]),
            };
        }
        self.retag();
    }
}

impl X87 {
    /// The FRSTOR equivalent: every word, pointer and register exactly as
    /// given (ST(i) into physical register (TOP + i) mod 8; the control
    /// word unmasked, ES and B as given), and the tags retagged as FRSTOR
    /// does (SDM vol. 1 §8.1.7).
    pub fn from_saved(s: &SavedState) -> X87 {
        let mut f = X87::new();
        f.control = s.cw;
        f.set_status_word(s.sw);
        f.tags = s.tw;
        f.fip = s.fip;
        f.fop = s.fop;
        f.foo = s.fdp;
        for (i, v) in (0u8..).zip(s.st) {
            let r = f.phys(i);
            f.regs[r] = v;
        }
        f.retag();
        f
    }

    /// The FNSAVE equivalent without the reinitialisation that follows it.
    pub fn saved(&self) -> SavedState {
        SavedState {
            cw: self.control,
            sw: self.status_word(),
            tw: self.tags,
            fip: self.fip,
            fop: self.fop,
            fdp: self.foo,
            st: std::array::from_fn(|i| self.st(i as u8)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnstenv_16_layout() {
        let mut f = X87::new();
        f.push(F80::new(false, 0x3FFF, 1 << 63));
        f.fip = 0x12345;
        f.fop = 0x5E8;
        f.foo = 0xABCDE;
        let b = f.env_image(false);
        assert_eq!(b.len(), 14);
        assert_eq!(&b[0..2], &[0x7F, 0x03]);
        assert_eq!(&b[2..4], &[0x00, 0x38]); // TOP = 7
        assert_eq!(&b[4..6], &[0xFF, 0x3F]); // R7 valid
        assert_eq!(&b[6..10], &[0x45, 0x23, 0xE8, 0x15]);
        assert_eq!(&b[10..14], &[0xDE, 0xBC, 0x00, 0xA0]);
        let mut g = X87::new();
        g.load_env(&b, false);
        assert_eq!(
            (g.fip, g.fop, g.foo, g.top, g.tags),
            // R7 is full in the image and holds zero in `g`: tagged zero.
            (0x12345, 0x5E8, 0xABCDE, 7, 0x7FFF)
        );
    }

    #[test]
    fn fnsave_frstor_round_trip_32() {
        let mut f = X87::new();
        f.push(F80::new(true, 0x4000, 0xC000_0000_0000_0000));
        f.push(F80::new(false, 0, 0));
        let img = f.save_image(true);
        assert_eq!(img.len(), 108);
        let mut g = X87::new();
        g.restore(&img, true);
        assert_eq!(g, f);
    }

    #[test]
    fn fldenv_keeps_only_the_empty_marks_of_the_tag_word() {
        // SDM vol. 1 §8.1.7: a non-empty tag is recomputed from the
        // register. R0 holds 1.0, R1 zero, R2 an infinity, R3-R7 empty; the
        // image claims R0 special, R1 valid, R2 zero and R3 valid.
        let mut f = X87::new();
        f.regs[0] = F80::new(false, 0x3FFF, 1 << 63);
        f.regs[2] = F80::new(false, 0x7FFF, 1 << 63);
        let mut img = X87::new().env_image(false);
        img[4..6].copy_from_slice(&0xFF12u16.to_le_bytes());
        f.load_env(&img, false);
        // R3 was 0 (zero) and claimed valid: tagged zero; R0 valid, R1
        // zero, R2 special.
        assert_eq!(f.tags, 0xFF00 | 0b01_10_01_00);
    }

    #[test]
    fn saved_state_puts_st_i_at_top_plus_i() {
        let one = F80::new(false, 0x3FFF, 1 << 63);
        let mut st = [F80::default(); 8];
        st[1] = one;
        let s = SavedState {
            cw: 0x0F7F,
            sw: 0x3000 | 0x0021, // TOP = 6, PE and IE
            tw: 0x1FFF,          // R6 (ST(0)) zero, R7 (ST(1)) valid
            fip: 0x12345,
            fop: 0x1E8,
            fdp: 0xFFFFF,
            st,
        };
        let f = X87::from_saved(&s);
        assert_eq!((f.top, f.status, f.control), (6, 0x0021, 0x0F7F));
        assert_eq!(f.regs[7], one);
        assert_eq!(f.saved(), s);
    }
}
