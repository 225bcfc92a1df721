//! FNSTENV, FLDENV, FNSAVE and FRSTOR in their real-mode layouts (80387
//! PRM, figures 6-? "environment, real mode"): 14 bytes with a 16-bit
//! operand size, 28 with a 32-bit one; FNSAVE/FRSTOR add the eight
//! registers, ST(0) first, 10 bytes each.

use super::state::{F80, X87};

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
        self.fip = (field(3) & 0xFFFF) | (((field(4) >> 12) & high_bits) << 16);
        self.fop = (field(4) & 0x7FF) as u16;
        self.foo = (field(5) & 0xFFFF) | (((field(6) >> 12) & high_bits) << 16);
        self.update_summary();
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

    /// FRSTOR: the environment, then ST(0)-ST(7) (the tags as loaded).
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
            (0x12345, 0x5E8, 0xABCDE, 7, 0x3FFF)
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
}
