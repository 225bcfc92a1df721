//! Operand access of the fast handlers: registers by ModR/M number at a
//! const width, the status flags, and effective addresses.

use crate::cpu::Cpu;
use crate::flags::STATUS;

use super::Fast;

impl Cpu {
    /// An `N`-bit register by its ModR/M number.
    #[inline(always)]
    pub(super) fn rget<const N: u32>(&self, r: u8) -> u32 {
        match N {
            8 => self.regs.get8(r) as u32,
            16 => self.regs.get16(r) as u32,
            _ => self.regs.gpr[(r & 7) as usize],
        }
    }

    /// Sets an `N`-bit register by its ModR/M number.
    #[inline(always)]
    pub(super) fn rput<const N: u32>(&mut self, r: u8, v: u32) {
        match N {
            8 => self.regs.put8(r, v as u8),
            16 => self.regs.put16(r, v as u16),
            _ => self.regs.gpr[(r & 7) as usize] = v,
        }
    }

    /// Replaces the status flags with `st`.
    #[inline(always)]
    pub(super) fn set_status(&mut self, st: u32) {
        self.regs.flags = (self.regs.flags & !STATUS) | st;
    }

    /// The offset of a memory operand (as [`Cpu::effective_address`]).
    #[inline(always)]
    pub(super) fn ea(&self, f: &Fast) -> u32 {
        if !f.a32 {
            return self.ea16(f);
        }
        let g = &self.regs.gpr;
        let base = if f.s < 8 { g[f.s as usize] } else { 0 };
        let index = if f.index < 8 {
            g[f.index as usize] << f.scale
        } else {
            0
        };
        base.wrapping_add(index).wrapping_add(f.disp)
    }

    /// The offset of a 16-bit-addressed memory operand.
    #[inline(always)]
    pub(super) fn ea16(&self, f: &Fast) -> u32 {
        let g = |i: usize| self.regs.gpr[i] as u16;
        let base = match f.s {
            0 => g(3).wrapping_add(g(6)),
            1 => g(3).wrapping_add(g(7)),
            2 => g(5).wrapping_add(g(6)),
            3 => g(5).wrapping_add(g(7)),
            4 => g(6),
            5 => g(7),
            6 => g(5),
            7 => g(3),
            _ => 0,
        };
        base.wrapping_add(f.disp as u16) as u32
    }
}
