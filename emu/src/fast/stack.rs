//! PUSH and POP of registers, and the stack frames of the transfers of
//! control: whole frames straight in plain RAM where they fit.

use crate::biu::BUS_CYCLE;
use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::regs::{Reg16, SegReg};
use crate::size::Size;

use super::Fast;

impl Cpu {
    /// PUSH r16/r32.
    #[inline(always)]
    pub(super) fn f_push_r<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        if f.size == Size::Word {
            let v = self.regs.get16(f.r);
            self.push_frame(bus, Size::Word, v.to_le_bytes())
        } else {
            let v = self.regs.gpr[(f.r & 7) as usize];
            self.push_frame(bus, Size::Dword, v.to_le_bytes())
        }
    }

    /// POP r16/r32 (POP SP: the value popped, SP's increment overwritten).
    #[inline(always)]
    pub(super) fn f_pop_r<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        if f.size == Size::Word {
            let v = u16::from_le_bytes(self.pop_bytes::<2, B>(bus, Size::Word)?);
            self.regs.put16(f.r, v);
        } else {
            let v = u32::from_le_bytes(self.pop_bytes::<4, B>(bus, Size::Dword)?);
            self.regs.gpr[(f.r & 7) as usize] = v;
        }
        Some(())
    }

    /// Pops `N` bytes at SS:SP, `unit` (a word or a doubleword) at a
    /// time, as [`Cpu::pop`] would: when all of them lie inside 64 KiB and
    /// in plain RAM of one block, straight from [`Bus::ram_mut`] (the
    /// stack's usual place; a stack in ROM goes the other way) with one
    /// bounds check for the whole frame, the same clocks
    /// (a unit at an odd SP costs another bus cycle) and the same bus time
    /// (`Bus::mem_direct_done`: nothing samples INTR between the pops);
    /// else unit by unit through `Cpu::pop`. `None` when a pop faulted
    /// (SP then moved by the units popped, as the generic path would
    /// leave it; callers decline only where no pop can fault).
    #[inline(always)]
    pub(super) fn pop_bytes<const N: usize, B: Bus>(
        &mut self,
        bus: &mut B,
        unit: Size,
    ) -> Option<[u8; N]> {
        let sp = self.regs.reg16(Reg16::SP);
        let k = unit.bits() as usize / 8;
        if let Some(a) = self.direct_addr(SegReg::SS, sp as u32, N as u32) {
            if let Some(&b) = bus.ram_mut(a, N as u32).and_then(|m| m.first_chunk::<N>()) {
                bus.mem_direct_done(N as u64);
                if sp & 1 != 0 {
                    self.step_cycles += BUS_CYCLE * (N / k) as u32;
                }
                self.regs.set_reg16(Reg16::SP, sp.wrapping_add(N as u16));
                return Some(b);
            }
        }
        let mut b = [0u8; N];
        for c in b.chunks_exact_mut(k) {
            let v = self.pop(bus, unit).ok()?;
            c.copy_from_slice(&v.to_le_bytes()[..k]);
        }
        Some(b)
    }

    /// Writes the `N` bytes `b` (in memory order) just below SS:SP and
    /// moves SP down by `N`: straight into plain RAM with one bounds check
    /// for the whole frame when it lies inside 64 KiB and in one block of
    /// plain RAM, with the bus time of the direct writes and the decode
    /// cache told; false, with nothing changed, otherwise. No clocks: the
    /// caller's.
    #[inline(always)]
    pub(crate) fn push_direct<const N: usize, B: Bus>(&mut self, bus: &mut B, b: [u8; N]) -> bool {
        let sp = self.regs.reg16(Reg16::SP).wrapping_sub(N as u16);
        let Some(a) = self.direct_addr(SegReg::SS, sp as u32, N as u32) else {
            return false;
        };
        let Some(m) = bus
            .ram_mut(a, N as u32)
            .and_then(|m| m.first_chunk_mut::<N>())
        else {
            return false;
        };
        *m = b;
        bus.mem_direct_done(N as u64);
        self.decode_cache.written(a, N as u32);
        self.regs.set_reg16(Reg16::SP, sp);
        true
    }

    /// Pushes the `N` bytes `b` (in memory order: the last unit pushed
    /// first), `unit` (a word or a doubleword) at a time, as [`Cpu::push`]
    /// would: at once through [`Cpu::push_direct`] with the clocks of the
    /// unit pushes (a unit at an odd SP costs another bus cycle), else
    /// unit by unit through `Cpu::push`. `None` when a push faulted.
    #[inline(always)]
    pub(super) fn push_frame<const N: usize, B: Bus>(
        &mut self,
        bus: &mut B,
        unit: Size,
        b: [u8; N],
    ) -> Option<()> {
        let k = unit.bits() as usize / 8;
        if self.push_direct(bus, b) {
            // (SP moved by an even count: its parity is the units'.)
            if self.regs.reg16(Reg16::SP) & 1 != 0 {
                self.step_cycles += BUS_CYCLE * (N / k) as u32;
            }
            return Some(());
        }
        for c in b.chunks_exact(k).rev() {
            let mut v = [0u8; 4];
            v[..k].copy_from_slice(c);
            self.push(bus, unit, u32::from_le_bytes(v)).ok()?;
        }
        Some(())
    }
}
