//! Decimal adjustment: DAA, DAS, AAA, AAS, AAM, AAD.
//!
//! The manual leaves some of their flags undefined; the 8086 single-step
//! suite records what the silicon does, and these routines reproduce it:
//! AAA and AAS leave SF and OF as the ALU's internal "AL +/- 6" sets them,
//! and DAA/DAS leave OF from their internal additions (characterised against
//! a real 8088 by the MartyPC project; confirmed here by `shared/sst/8086`).

use crate::cpu::Cpu;
use crate::flags::{parity, AF, CF, OF, PF, SF, ZF};
use crate::regs::Reg16;
use crate::size::Size;

impl Cpu {
    fn al(&self) -> u8 {
        self.regs.get8(0)
    }
    fn set_al(&mut self, v: u8) {
        self.regs.put8(0, v)
    }

    /// DAA: decimal adjust AL after addition.
    pub(crate) fn daa(&mut self) {
        if !self.model.caps().undefined_flags_of_8086_microcode {
            return self.decimal_adjust_286(true);
        }
        let (old_al, old_cf, old_af) = (self.al(), self.flag(CF), self.flag(AF));
        let of = if old_cf {
            (0x1A..=0x7F).contains(&old_al)
        } else {
            (0x7A..=0x7F).contains(&old_al)
        };
        let mut al = old_al;
        let af = (al & 0x0F) > 9 || old_af;
        if af {
            al = al.wrapping_add(6);
        }
        let limit = if old_af { 0x9F } else { 0x99 };
        let cf = old_al > limit || old_cf;
        if cf {
            al = al.wrapping_add(0x60);
        }
        self.set_al(al);
        self.set_flag(AF, af);
        self.set_flag(CF, cf);
        self.set_flag(OF, of);
        self.set_szp(al as u32, Size::Byte);
    }

    /// DAS: decimal adjust AL after subtraction.
    pub(crate) fn das(&mut self) {
        if !self.model.caps().undefined_flags_of_8086_microcode {
            return self.decimal_adjust_286(false);
        }
        let (old_al, old_cf, old_af) = (self.al(), self.flag(CF), self.flag(AF));
        let of = match (old_af, old_cf) {
            (false, false) => (0x9A..=0xDF).contains(&old_al),
            (true, false) => (0x80..=0x85).contains(&old_al) || (0xA0..=0xE5).contains(&old_al),
            (false, true) => (0x80..=0xDF).contains(&old_al),
            (true, true) => (0x80..=0xE5).contains(&old_al),
        };
        let mut al = old_al;
        let af = (al & 0x0F) > 9 || old_af;
        if af {
            al = al.wrapping_sub(6);
        }
        let limit = if old_af { 0x9F } else { 0x99 };
        let cf = old_al > limit || old_cf;
        if cf {
            al = al.wrapping_sub(0x60);
        }
        self.set_al(al);
        self.set_flag(AF, af);
        self.set_flag(CF, cf);
        self.set_flag(OF, of);
        self.set_szp(al as u32, Size::Byte);
    }

    /// AAA: ASCII adjust after addition.
    pub(crate) fn aaa(&mut self) {
        if !self.model.caps().undefined_flags_of_8086_microcode {
            return self.ascii_adjust_286(true);
        }
        let old_al = self.al();
        let adjust = (old_al & 0x0F) > 9 || self.flag(AF);
        // The microcode adds 6 to AL through the ALU; SF and OF come from
        // that addition whether or not the adjustment is kept.
        let plus6 = old_al.wrapping_add(6);
        let value = if adjust { plus6 } else { old_al };
        if adjust {
            let ah = self.regs.get8(4).wrapping_add(1);
            self.regs.put8(4, ah);
        }
        self.set_al(value & 0x0F);
        self.set_flag(AF, adjust);
        self.set_flag(CF, adjust);
        self.set_flag(SF, plus6 & 0x80 != 0);
        self.set_flag(OF, (0x7A..=0x7F).contains(&old_al));
        self.set_flag(ZF, value == 0);
        self.set_flag(PF, parity(value));
    }

    /// AAS: ASCII adjust after subtraction.
    pub(crate) fn aas(&mut self) {
        if !self.model.caps().undefined_flags_of_8086_microcode {
            return self.ascii_adjust_286(false);
        }
        let old_al = self.al();
        let old_af = self.flag(AF);
        let adjust = (old_al & 0x0F) > 9 || old_af;
        let value = if adjust {
            old_al.wrapping_sub(6)
        } else {
            old_al
        };
        if adjust {
            let ah = self.regs.get8(4).wrapping_sub(1);
            self.regs.put8(4, ah);
        }
        // SF and OF follow the ALU's "AL - 6" only when AF was set on entry.
        let flagged = if old_af {
            old_al.wrapping_sub(6)
        } else {
            old_al
        };
        self.set_al(value & 0x0F);
        self.set_flag(AF, adjust);
        self.set_flag(CF, adjust);
        self.set_flag(SF, flagged & 0x80 != 0);
        self.set_flag(OF, old_af && (0x80..=0x85).contains(&old_al));
        self.set_flag(ZF, value == 0);
        self.set_flag(PF, parity(value));
    }

    /// DAA/DAS on the 286 and later, as the Intel SDM's pseudo-code states
    /// it: the high-digit test uses the original AL against 99h (the 8086
    /// compares with 9Fh when AF is set), and DAS keeps the borrow of the
    /// low-digit subtraction in CF, where DAA's second step decides CF
    /// alone. OF is undefined; tandem clears it.
    fn decimal_adjust_286(&mut self, add: bool) {
        let (old_al, old_cf) = (self.al(), self.flag(CF));
        let mut al = old_al;
        let mut cf = false;
        let af = (al & 0x0F) > 9 || self.flag(AF);
        if af {
            if add {
                al = al.wrapping_add(6);
            } else {
                cf = old_cf || al < 6;
                al = al.wrapping_sub(6);
            }
        }
        if old_al > 0x99 || old_cf {
            al = if add {
                al.wrapping_add(0x60)
            } else {
                al.wrapping_sub(0x60)
            };
            cf = true;
        }
        self.set_al(al);
        self.set_flag(AF, af);
        self.set_flag(CF, cf);
        self.set_flag(OF, false);
        self.set_szp(al as u32, Size::Byte);
    }

    /// AAA/AAS on the 286 and later: AX is adjusted by +/-106h as one
    /// 16-bit value, so a carry or borrow out of AL reaches AH (80386 PRM,
    /// AAA; the 8086 adjusts AL and AH separately). OF, SF, ZF and PF are
    /// undefined; tandem sets SF, ZF and PF from the adjusted AL.
    fn ascii_adjust_286(&mut self, add: bool) {
        let adjust = (self.al() & 0x0F) > 9 || self.flag(AF);
        if adjust {
            let ax = self.regs.reg16(Reg16::AX);
            let ax = if add {
                ax.wrapping_add(0x106)
            } else {
                ax.wrapping_sub(0x106)
            };
            self.regs.set_reg16(Reg16::AX, ax);
        }
        let al = self.al() & 0x0F;
        self.set_al(al);
        self.set_flag(AF, adjust);
        self.set_flag(CF, adjust);
        self.set_szp(al as u32, Size::Byte);
    }

    /// AAM imm8: AH = AL / imm8, AL = AL mod imm8. Returns false for a zero
    /// divisor (the caller raises the divide error).
    pub(crate) fn aam(&mut self, base: u8) -> bool {
        if base == 0 {
            // The silicon leaves flags behind before taking the divide
            // error (CF, OF, AF clear), as the single-step suites record
            // (D4.MOO, divisor 0): the 8086 those of a zero result (ZF and
            // PF set); the 286 SF, ZF and PF of AL shifted right once, its
            // division loop's first step.
            self.regs.flags &= !(CF | OF | AF);
            let partial = if self.model.caps().undefined_flags_of_8086_microcode {
                0
            } else {
                self.al() >> 1
            };
            self.set_szp(partial as u32, Size::Byte);
            return false;
        }
        let al = self.al();
        self.regs.put8(4, al / base);
        self.set_al(al % base);
        // The 8086's division microcode leaves CF, OF and AF clear here.
        self.regs.flags &= !(CF | OF | AF);
        self.set_szp((al % base) as u32, Size::Byte);
        true
    }

    /// AAD imm8: AL = AL + AH * imm8, AH = 0; the flags are those of the
    /// final byte addition.
    pub(crate) fn aad(&mut self, base: u8) {
        let product = (self.regs.get8(4) as u32 * base as u32) & 0xFF;
        let al = self.add(self.al() as u32, product, 0, Size::Byte);
        self.set_al(al as u8);
        self.regs.put8(4, 0);
    }
}
