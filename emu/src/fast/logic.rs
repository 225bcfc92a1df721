//! Shifts, rotates and bit tests (80386 PRM, section 3.4).

use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::flags::{CF, STATUS};
use crate::table::Op;

use super::alu::shift_n;
use super::{Fast, Kind};

impl Cpu {
    /// A shift or rotate of a register (as the generic shift group: the
    /// count masked by the model, its per-bit clocks, nothing written for
    /// a count of 0).
    #[inline(always)]
    pub(super) fn f_shift(&mut self, f: &Fast) {
        let caps = self.model.caps();
        let raw = if f.s == 2 {
            self.regs.get8(1) as u32
        } else {
            f.imm
        };
        let count = raw & caps.shift_count_mask;
        if f.s != 0 {
            self.step_cycles += count * caps.shift_clocks_per_bit;
        }
        if count == 0 {
            return;
        }
        let v = self.get_reg(f.r, f.size);
        let r = by_size!(f.size, N => match shift_n::<N>(f.op, v, count, self.regs.flags & CF) {
            Some((r, st, keep)) => {
                let fl = self.regs.flags;
                self.regs.flags = (fl & (!STATUS | keep)) | (st & !keep);
                r
            }
            None => self.shift(f.op, v, count, f.size),
        });
        self.put_reg(f.r, f.size, r);
    }

    /// A shift or rotate of memory (as [`Cpu::f_shift`]; the operand is
    /// read, and so checked, whatever the count).
    #[inline(always)]
    pub(super) fn f_shift_m<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let caps = self.model.caps();
        let raw = if f.r == 2 {
            self.regs.get8(1) as u32
        } else {
            f.imm
        };
        let count = raw & caps.shift_count_mask;
        if f.r != 0 {
            self.step_cycles += count * caps.shift_clocks_per_bit;
        }
        let off = self.ea(f);
        let v = self.read_mem(bus, f.seg, off, f.size).ok()?;
        if count == 0 {
            return Some(());
        }
        let cf = self.regs.flags & CF;
        let (r, flags) = by_size!(f.size, N => match shift_n::<N>(f.op, v, count, cf) {
            Some((r, st, keep)) => (r, (self.regs.flags & (!STATUS | keep)) | (st & !keep)),
            None => {
                // The loop sets the flags itself: run it on a copy.
                let saved = self.regs.flags;
                let r = self.shift(f.op, v, count, f.size);
                let flags = self.regs.flags;
                self.regs.flags = saved;
                (r, flags)
            }
        });
        self.write_mem(bus, f.seg, off, f.size, r).ok()?;
        self.regs.flags = flags;
        Some(())
    }

    /// BT, BTS, BTR, BTC of a register or (by imm) memory, as the generic
    /// `bit_test`: CF the bit, then the bit set, cleared or flipped; the
    /// memory operand written (and so checked) before CF changes.
    #[inline(always)]
    pub(super) fn f_bt<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let bit = if f.s == 8 || f.kind == Kind::BtMI {
            f.imm
        } else {
            self.get_reg(f.s, f.size) & (f.size.bits() - 1)
        };
        let off = self.ea(f);
        let v = if f.kind == Kind::BtR {
            self.get_reg(f.r, f.size)
        } else {
            self.read_mem(bus, f.seg, off, f.size).ok()?
        };
        let r = match f.op {
            Op::Bts => Some(v | 1 << bit),
            Op::Btr => Some(v & !(1 << bit)),
            Op::Btc => Some(v ^ 1 << bit),
            _ => None,
        };
        if let Some(r) = r {
            if f.kind == Kind::BtR {
                self.put_reg(f.r, f.size, r);
            } else {
                self.write_mem(bus, f.seg, off, f.size, r).ok()?;
            }
        }
        self.regs.flags = (self.regs.flags & !CF) | (v >> bit & 1);
        Some(())
    }
}
