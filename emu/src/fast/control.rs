//! Transfers of control (80386 PRM, section 3.5), 16-bit: Jcc, LOOP and
//! JCXZ, near and far CALL, RET, RETF, IRET, far JMP.

use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::flags::ZF;
use crate::regs::{Reg16, SegReg};
use crate::size::Size;
use crate::table::Op;

use super::alu::condition;
use super::{Fast, Kind};

impl Cpu {
    /// Jcc: whether the jump was taken.
    #[inline(always)]
    pub(super) fn f_jcc(&mut self, f: &Fast) -> bool {
        let taken = condition(self.regs.flags, f.r);
        if taken {
            self.regs.ip = self.regs.ip.wrapping_add(f.imm) & 0xFFFF;
        }
        taken
    }

    /// LOOP, LOOPE, LOOPNE (CX decremented first) and JCXZ, 16-bit:
    /// whether the jump was taken.
    #[inline(always)]
    pub(super) fn f_loop(&mut self, f: &Fast) -> bool {
        let cx = self.regs.reg16(Reg16::CX);
        let taken = if f.op == Op::Jcxz {
            cx == 0
        } else {
            let cx = cx.wrapping_sub(1);
            self.regs.set_reg16(Reg16::CX, cx);
            cx != 0
                && match f.op {
                    Op::Loope => self.flag(ZF),
                    Op::Loopne => !self.flag(ZF),
                    _ => true,
                }
        };
        if taken {
            self.regs.ip = self.regs.ip.wrapping_add(f.imm) & 0xFFFF;
        }
        taken
    }

    /// CALL near, 16-bit.
    #[inline(always)]
    pub(super) fn f_call<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let ip = self.regs.ip;
        self.push_frame(bus, Size::Word, (ip as u16).to_le_bytes())?;
        self.regs.ip = ip.wrapping_add(f.imm) & 0xFFFF;
        Some(())
    }

    /// RET / RET imm16 near, 16-bit.
    #[inline(always)]
    pub(super) fn f_ret<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let ip = u16::from_le_bytes(self.pop_bytes::<2, B>(bus, Size::Word)?) as u32;
        let sp = self.regs.reg16(Reg16::SP).wrapping_add(f.imm as u16);
        self.regs.set_reg16(Reg16::SP, sp);
        self.regs.ip = ip;
        Some(())
    }

    /// RETF / RETF imm16, 16-bit: both pops inside the limit or declined
    /// before the first.
    #[inline(always)]
    pub(super) fn f_retf<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        if self.regs.reg16(Reg16::SP) > 0xFFFC {
            return None;
        }
        let [i0, i1, c0, c1] = self.pop_bytes::<4, B>(bus, Size::Word)?;
        let sp = self.regs.reg16(Reg16::SP).wrapping_add(f.imm as u16);
        self.regs.set_reg16(Reg16::SP, sp);
        self.regs.ip = u16::from_le_bytes([i0, i1]) as u32;
        self.regs.set_sreg(SegReg::CS, u16::from_le_bytes([c0, c1]));
        Some(())
    }

    /// IRET, 16-bit: the three pops inside the limit or declined before
    /// the first.
    #[inline(always)]
    pub(super) fn f_iret<B: Bus>(&mut self, bus: &mut B) -> Option<()> {
        if self.regs.reg16(Reg16::SP) > 0xFFFA {
            return None;
        }
        let [i0, i1, c0, c1, f0, f1] = self.pop_bytes::<6, B>(bus, Size::Word)?;
        let (ip, cs) = (u16::from_le_bytes([i0, i1]), u16::from_le_bytes([c0, c1]));
        let fl = u16::from_le_bytes([f0, f1]) as u32;
        self.regs.ip = ip as u32;
        self.regs.set_sreg(SegReg::CS, cs);
        self.regs.flags = self.normalize_flags((self.regs.flags & 0xFFFF_0000) | fl);
        Some(())
    }

    /// CALL and JMP, far, direct or through memory, 16-bit: the pointer
    /// and the two pushes inside the limit (and clear of the 8086's
    /// wrap), or declined before anything.
    #[inline(always)]
    pub(super) fn f_far<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let call = matches!(f.kind, Kind::CallFar | Kind::CallFarM);
        if call && self.regs.reg16(Reg16::SP) < 4 {
            return None;
        }
        let (ip, cs) = if matches!(f.kind, Kind::CallFarM | Kind::JmpFarM) {
            let off = self.ea(f);
            if off > 0xFFFC {
                return None;
            }
            let ip = self.read_mem(bus, f.seg, off, Size::Word).ok()?;
            let cs = self.read_mem(bus, f.seg, off + 2, Size::Word).ok()?;
            (ip, cs as u16)
        } else {
            (f.imm, f.disp as u16)
        };
        if call {
            let [c0, c1] = self.regs.sreg(SegReg::CS).to_le_bytes();
            let [i0, i1] = (self.regs.ip as u16).to_le_bytes();
            self.push_frame(bus, Size::Word, [i0, i1, c0, c1])?;
        }
        self.regs.ip = ip;
        self.regs.set_sreg(SegReg::CS, cs);
        Some(())
    }
}
