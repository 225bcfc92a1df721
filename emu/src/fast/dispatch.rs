//! The dispatch: one jump on [`Kind`] to the handler of a classified
//! instruction, and its clocks.

use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::flags::{CF, DF};
use crate::regs::Reg16;
use crate::size::Size;
use crate::table::Op;

use super::alu::condition;
use super::{Fast, Kind};

impl Cpu {
    /// Runs a classified instruction whose bytes are already past (IP at
    /// the next instruction): true when done, clocks counted; false, with
    /// nothing changed, when the generic path must run it.
    #[inline(always)]
    pub(crate) fn run_fast<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> bool {
        let start = self.step_cycles;
        match self.fast_kind(bus, f) {
            Some(taken) => {
                self.step_cycles += f.clocks[taken as usize];
                true
            }
            None => {
                self.step_cycles = start;
                false
            }
        }
    }

    /// INT n and INT3 (`Kind::Int`), which cannot fault in real mode: the
    /// interrupt entry of the generic `soft_interrupt` with the taken
    /// clocks. Returns the vector.
    #[inline(always)]
    pub(crate) fn fast_int<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> u8 {
        let v = f.imm as u8;
        self.interrupt(bus, v);
        self.step_cycles += f.clocks[1];
        v
    }

    /// The handlers: `Some(taken)` when done, `None` to decline.
    #[inline(always)]
    pub(super) fn fast_kind<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<bool> {
        match f.kind {
            Kind::AluRR => by_size!(f.size, N => self.f_alu_rr::<N>(f)),
            Kind::AluRI => by_size!(f.size, N => self.f_alu_ri::<N>(f)),
            Kind::AluRM => by_size!(f.size, N => self.f_alu_rm::<N, B>(bus, f)?),
            Kind::AluMR | Kind::AluMI => by_size!(f.size, N => self.f_alu_m::<N, B>(bus, f)?),
            Kind::MovRR => by_size!(f.size, N => self.rput::<N>(f.r, self.rget::<N>(f.s))),
            Kind::MovRI => by_size!(f.size, N => self.rput::<N>(f.r, f.imm)),
            Kind::MovRM => {
                let off = self.ea(f);
                let v = self.read_mem(bus, f.seg, off, f.size).ok()?;
                by_size!(f.size, N => self.rput::<N>(f.r, v));
            }
            Kind::MovMR | Kind::MovMI => {
                let off = self.ea(f);
                let v = if f.kind == Kind::MovMI {
                    f.imm
                } else {
                    by_size!(f.size, N => self.rget::<N>(f.r))
                };
                self.write_mem(bus, f.seg, off, f.size, v).ok()?;
            }
            Kind::IncR | Kind::DecR | Kind::NotR | Kind::NegR => {
                by_size!(f.size, N => self.f_unary::<N>(f))
            }
            Kind::XchgRR => by_size!(f.size, N => self.f_xchg::<N>(f)),
            Kind::Lea => {
                let off = self.ea(f);
                self.put_reg(f.r, f.size, off);
            }
            Kind::ShiftR => self.f_shift(f),
            Kind::UnaryM => by_size!(f.size, N => self.f_unary_m::<N, B>(bus, f)?),
            Kind::ShiftM => self.f_shift_m(bus, f)?,
            Kind::MulDivR => {
                let src = self.get_reg(f.r, f.size);
                self.f_muldiv(f, src)?;
            }
            Kind::MulDivM => {
                let off = self.ea(f);
                let src = self.read_mem(bus, f.seg, off, f.size).ok()?;
                self.f_muldiv(f, src)?;
            }
            Kind::MovRS => {
                let v = self.regs.seg[f.imm as usize % 6] as u32;
                self.put_reg(f.r, f.size, v);
            }
            Kind::MovMS => {
                let off = self.ea(f);
                let v = self.regs.seg[f.r as usize % 6] as u32;
                self.write_mem(bus, f.seg, off, Size::Word, v).ok()?;
            }
            Kind::MovSR => self.regs.seg[f.r as usize % 6] = self.regs.get16(f.s),
            Kind::MovSM => {
                let off = self.ea(f);
                let v = self.read_mem(bus, f.seg, off, Size::Word).ok()?;
                self.regs.seg[f.r as usize % 6] = v as u16;
            }
            Kind::MovxR | Kind::MovxM => self.f_movx(bus, f)?,
            Kind::Imul3R | Kind::Imul3M => self.f_imul3(bus, f)?,
            Kind::BtR | Kind::BtMI => self.f_bt(bus, f)?,
            Kind::SetccR => {
                let v = condition(self.regs.flags, f.imm as u8) as u8;
                self.regs.put8(f.r, v);
            }
            Kind::SetccM => {
                let off = self.ea(f);
                let v = condition(self.regs.flags, f.imm as u8) as u32;
                self.write_mem(bus, f.seg, off, Size::Byte, v).ok()?;
            }
            // The transfers and the stack, in the same jump table.
            Kind::Jcc => return Some(self.f_jcc(f)),
            Kind::Jmp => self.regs.ip = self.regs.ip.wrapping_add(f.imm) & 0xFFFF,
            Kind::Loop => return Some(self.f_loop(f)),
            Kind::Call => self.f_call(bus, f)?,
            Kind::Ret => self.f_ret(bus, f)?,
            Kind::PushR => self.f_push_r(bus, f)?,
            Kind::PopR => self.f_pop_r(bus, f)?,
            Kind::Retf => self.f_retf(bus, f)?,
            Kind::Iret => self.f_iret(bus)?,
            Kind::CallFar | Kind::CallFarM | Kind::JmpFar | Kind::JmpFarM => self.f_far(bus, f)?,
            _ => return self.fast_control(bus, f),
        }
        Some(false)
    }

    /// The rest: PUSH/POP of immediates, segments and flags, the flag
    /// instructions, CBW/CWD, LODS.
    #[inline(always)]
    pub(super) fn fast_control<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<bool> {
        match f.kind {
            Kind::PushI => self.push(bus, f.size, f.imm).ok()?,
            Kind::PushS => {
                let v = self.regs.seg[f.r as usize % 6] as u32;
                self.push(bus, f.size, v).ok()?;
            }
            Kind::PopS => {
                let v = self.pop(bus, f.size).ok()?;
                self.regs.seg[f.r as usize % 6] = v as u16;
            }
            Kind::FlagOp => {
                self.regs.flags = match f.op {
                    Op::Clc => self.regs.flags & !CF,
                    Op::Stc => self.regs.flags | CF,
                    Op::Cmc => self.regs.flags ^ CF,
                    Op::Cld => self.regs.flags & !DF,
                    _ => self.regs.flags | DF,
                }
            }
            Kind::Lahf => self.regs.put8(4, self.regs.flags as u8),
            Kind::Pushf => {
                // The 386's 32-bit push clears VM and RF in the image.
                let v = self.regs.flags & 0xFFFC_FFFF;
                self.push(bus, f.size, v).ok()?;
            }
            Kind::Popf => {
                let v = self.pop(bus, f.size).ok()?;
                let keep = if f.size == Size::Dword {
                    0
                } else {
                    self.regs.flags & 0xFFFF_0000
                };
                self.regs.flags = self.normalize_flags(keep | v);
            }
            Kind::Cbw => {
                if f.size == Size::Dword {
                    self.regs.gpr[0] = self.regs.reg16(Reg16::AX) as i16 as i32 as u32;
                } else {
                    let al = self.regs.get8(0) as i8 as i16 as u16;
                    self.regs.set_reg16(Reg16::AX, al);
                }
            }
            Kind::Cwd => {
                let sign = self.get_reg(0, f.size) & f.size.sign() != 0;
                let v = if sign { f.size.mask() } else { 0 };
                self.put_reg(2, f.size, v);
            }
            Kind::Lods => self.f_lods(bus, f)?,
            _ => return None,
        }
        Some(false)
    }
}
