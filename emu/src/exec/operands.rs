//! Operands: the effective address of a ModR/M memory operand (8086 Family
//! User's Manual table 2-20; 80386 PRM section 17.2.1), reading and writing
//! an r/m location, the general and segment registers by their encoding.

use crate::bus::Bus;
use crate::cpu::{Cpu, Fault};
use crate::decode::{Instruction, ModRm};
use crate::regs::{Reg16, SegReg};
use crate::size::Size;
use crate::timing;

use super::{Exec, UD};

/// Where an r/m operand lives.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Loc {
    /// A register (its ModR/M number).
    Reg(u8),
    /// Memory at segment register : offset.
    Mem(SegReg, u32),
}

impl Cpu {
    /// The effective address of a memory ModR/M operand: its segment
    /// register (BP/EBP/ESP-based forms default to SS, the others to DS,
    /// unless overridden) and offset. 16-bit addressing follows table 2-20
    /// of the 8086 Family User's Manual and wraps at 64 KiB; 32-bit
    /// addressing (67h) adds base, scaled index and displacement (80386 PRM,
    /// section 17.2.1).
    pub(crate) fn effective_address(&self, ins: &Instruction, m: ModRm) -> (SegReg, u32) {
        let r = &self.regs;
        let (off, ss_default) = if !ins.addrsize32 {
            let (bx, bp, si, di) = (
                r.reg16(Reg16::BX),
                r.reg16(Reg16::BP),
                r.reg16(Reg16::SI),
                r.reg16(Reg16::DI),
            );
            let (base, ss) = match m.rm {
                0 => (bx.wrapping_add(si), false),
                1 => (bx.wrapping_add(di), false),
                2 => (bp.wrapping_add(si), true),
                3 => (bp.wrapping_add(di), true),
                4 => (si, false),
                5 => (di, false),
                6 if m.mode == 0 => (0, false),
                6 => (bp, true),
                _ => (bx, false),
            };
            (base.wrapping_add(ins.disp as u16) as u32, ss)
        } else if let Some(sib) = ins.sib {
            let scale = sib >> 6;
            let index = (sib >> 3) & 7;
            let base = sib & 7;
            let idx = if index == 4 {
                0
            } else {
                r.gpr[index as usize] << scale
            };
            let (b, ss) = if base == 5 && m.mode == 0 {
                (0, false)
            } else {
                (r.gpr[base as usize], base == 4 || base == 5)
            };
            (b.wrapping_add(idx).wrapping_add(ins.disp), ss)
        } else if m.rm == 5 && m.mode == 0 {
            (ins.disp, false)
        } else {
            (r.gpr[m.rm as usize].wrapping_add(ins.disp), m.rm == 5)
        };
        let seg = ins
            .seg
            .unwrap_or(if ss_default { SegReg::SS } else { SegReg::DS });
        (seg, off)
    }

    /// The effective address of a memory operand, charging its EA clocks
    /// (and running the exact mode's EA microcode).
    #[inline]
    pub(super) fn charged_address<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
        m: ModRm,
    ) -> (SegReg, u32) {
        if self.x.is_some() {
            self.x_ea(bus, m);
        }
        self.step_cycles += timing::ea_clocks(self.model, m, ins.seg.is_some());
        self.effective_address(ins, m)
    }

    /// The location of the r/m operand, charging EA clocks for memory.
    #[inline]
    pub(super) fn rm_loc<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Loc {
        let m = ins.modrm.unwrap_or_default();
        if m.is_reg() {
            Loc::Reg(m.rm)
        } else {
            let (seg, off) = self.charged_address(bus, ins, m);
            Loc::Mem(seg, off)
        }
    }

    /// The memory operand of a form that requires one (#UD for a register).
    pub(super) fn mem_operand<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
    ) -> Result<(SegReg, u32), Fault> {
        match self.rm_loc(bus, ins) {
            Loc::Mem(s, o) => Ok((s, o)),
            Loc::Reg(_) => Err(UD),
        }
    }

    #[inline]
    pub(super) fn read_loc<B: Bus>(
        &mut self,
        bus: &mut B,
        loc: Loc,
        sz: Size,
    ) -> Result<u32, Fault> {
        match loc {
            Loc::Reg(r) => Ok(self.get_reg(r, sz)),
            Loc::Mem(s, o) => self.read_mem(bus, s, o, sz),
        }
    }

    #[inline]
    pub(super) fn write_loc<B: Bus>(&mut self, bus: &mut B, loc: Loc, sz: Size, v: u32) -> Exec {
        match loc {
            Loc::Reg(r) => {
                self.put_reg(r, sz, v);
                Ok(())
            }
            Loc::Mem(s, o) => self.write_mem(bus, s, o, sz, v),
        }
    }

    #[inline]
    pub(crate) fn get_reg(&self, r: u8, sz: Size) -> u32 {
        match sz {
            Size::Byte => self.regs.get8(r) as u32,
            Size::Word => self.regs.get16(r) as u32,
            Size::Dword => self.regs.gpr[(r & 7) as usize],
        }
    }

    #[inline]
    pub(crate) fn put_reg(&mut self, r: u8, sz: Size, v: u32) {
        match sz {
            Size::Byte => self.regs.put8(r, v as u8),
            Size::Word => self.regs.put16(r, v as u16),
            Size::Dword => self.regs.gpr[(r & 7) as usize] = v,
        }
    }

    /// A segment register from a ModR/M `reg` field: 2 bits wide on the
    /// 8086 (4-7 alias 0-3); on the 286, 4-7 are #UD; on the 386, 4 and 5
    /// are FS and GS and 6-7 are #UD.
    pub(super) fn sreg_field(&self, reg: u8) -> Result<SegReg, Fault> {
        let c = self.model.caps();
        if !c.invalid_opcode_fault {
            Ok(SegReg::from_index(reg & 3))
        } else if reg < c.segment_registers {
            Ok(SegReg::from_index(reg))
        } else {
            Err(UD)
        }
    }

    /// Loads a segment register; loading SS holds off interrupts for one
    /// instruction so that SS:SP can be set as a pair.
    pub(super) fn load_sreg(&mut self, s: SegReg, v: u16) {
        self.regs.set_sreg(s, v);
        if s == SegReg::SS {
            self.irq_shadow = true;
        }
    }

    /// The offset `n` bytes after `off` (the next word of a far pointer or
    /// BOUND's upper limit): the 8086 and 286 add in 16 bits and wrap at
    /// 64 KiB, the 386 lets the limit check catch an operand that runs
    /// past it.
    pub(super) fn next_off(&self, off: u32, n: u32) -> u32 {
        if self.model.caps().offsets_wrap_at_64k {
            (off + n) & 0xFFFF
        } else {
            off.wrapping_add(n)
        }
    }

    /// Reads a far pointer (m16:16, or m16:32 with a 32-bit operand size):
    /// the offset, then `between` (the exact mode's clocks between the two
    /// reads), then the segment. The register form has no pointer to read:
    /// #UD on the 286 and 386; the 8086's behaviour is undocumented and
    /// tandem leaves it a no-op (`None`).
    #[inline]
    pub(super) fn read_far_pointer<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
        between: impl FnOnce(&mut Self, &mut B),
    ) -> Result<Option<(u16, u32)>, Fault> {
        if ins.modrm.unwrap_or_default().is_reg() {
            return if self.model.caps().invalid_opcode_fault {
                Err(UD)
            } else {
                Ok(None)
            };
        }
        let wsz = Size::wide(ins.opsize32);
        let (seg, off) = self.mem_operand(bus, ins)?;
        let o = self.read_mem(bus, seg, off, wsz)?;
        between(self, bus);
        let s = self.read16(bus, seg, self.next_off(off, wsz.bits() / 8))?;
        Ok(Some((s, o)))
    }
}
