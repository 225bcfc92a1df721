//! Transfers of control: conditional jumps, LOOP/JCXZ, JMP and CALL (near,
//! far, indirect), RET/RETF, IRET, the software interrupts (INT, INT3,
//! INTO, ICEBP) and BOUND, which raises #BR.

use crate::bus::Bus;
use crate::cpu::{Cpu, Fault};
use crate::decode::{in_memory, Instruction};
use crate::eu_timing;
use crate::flags::{CF, OF, PF, SF, ZF};
use crate::regs::{Reg16, SegReg};
use crate::size::Size;
use crate::table::{Form, Op};

use super::Exec;

impl Cpu {
    /// Evaluates condition `cc` (the low nibble of a Jcc opcode).
    pub(crate) fn condition(&self, cc: u8) -> bool {
        let f = |x| self.flag(x);
        let r = match cc >> 1 {
            0 => f(OF),
            1 => f(CF),
            2 => f(ZF),
            3 => f(CF) || f(ZF),
            4 => f(SF),
            5 => f(PF),
            6 => f(SF) != f(OF),
            _ => f(ZF) || (f(SF) != f(OF)),
        };
        r != (cc & 1 != 0)
    }

    /// Loads IP with a new value. The 8086 has a 16-bit IP; with a 16-bit
    /// operand size the 286/386 truncate EIP to 16 bits; a 32-bit target past
    /// the real-mode CS limit raises #GP.
    fn set_ip(&mut self, target: u32, op32: bool) -> Exec {
        let t = if op32 { target } else { target & 0xFFFF };
        if t > 0xFFFF {
            return Err(Fault::Vector(13));
        }
        self.regs.ip = t;
        Ok(())
    }

    /// Loads CS:IP for a far transfer.
    fn far_jump(&mut self, cs: u16, ip: u32, op32: bool) -> Exec {
        self.set_ip(ip, op32)?;
        self.regs.set_sreg(SegReg::CS, cs);
        Ok(())
    }

    fn jump_rel(&mut self, ins: &Instruction) -> Exec {
        let t = self.regs.ip.wrapping_add(ins.imm);
        self.set_ip(t, ins.opsize32)
    }

    /// CX or ECX, by address size.
    fn count_reg(&self, a32: bool) -> u32 {
        if a32 {
            self.regs.gpr[1]
        } else {
            self.regs.reg16(Reg16::CX) as u32
        }
    }

    /// Jcc rel8 / rel16; returns whether the jump was taken.
    #[inline(always)]
    pub(super) fn jcc<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Result<bool, Fault> {
        let taken = self.condition(ins.opcode & 0x0F);
        self.x_imm(bus, ins);
        if taken {
            self.jump_rel(ins)?;
            self.x_reljmp(bus, eu_timing::JCC_TAKEN);
        } else {
            self.x_script(bus, eu_timing::JCC_NOT_TAKEN);
        }
        Ok(taken)
    }

    /// LOOP, LOOPE, LOOPNE (decrement CX or ECX first) and JCXZ; returns
    /// whether the jump was taken.
    pub(super) fn loop_op<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
    ) -> Result<bool, Fault> {
        let a32 = ins.addrsize32;
        let taken = if ins.op == Op::Jcxz {
            self.count_reg(a32) == 0
        } else {
            let cx = self.count_reg(a32).wrapping_sub(1);
            if a32 {
                self.regs.gpr[1] = cx;
            } else {
                self.regs.set_reg16(Reg16::CX, cx as u16);
            }
            cx != 0
                && match ins.op {
                    Op::Loope => self.flag(ZF),
                    Op::Loopne => !self.flag(ZF),
                    _ => true,
                }
        };
        let plain = ins.op == Op::Loop;
        self.x_script(bus, eu_timing::LOOP_PRE);
        self.x_imm(bus, ins);
        if taken {
            self.jump_rel(ins)?;
            self.x_reljmp(bus, eu_timing::loop_taken(plain));
        } else {
            self.x_script(bus, eu_timing::loop_not_taken(plain));
        }
        Ok(taken)
    }

    /// JMP rel8/rel16 and JMP ptr16:16.
    pub(super) fn jmp<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        self.x_imm(bus, ins);
        if ins.op == Op::JmpFar {
            self.x_susp(bus, 0);
            self.far_jump(ins.imm2 as u16, ins.imm, ins.opsize32)?;
            self.x_flush_after(bus, eu_timing::JMP_FAR_TO_FLUSH);
        } else {
            self.jump_rel(ins)?;
            let pre = if ins.opcode == 0xEB {
                eu_timing::JMP_SHORT
            } else {
                eu_timing::JMP_NEAR
            };
            self.x_reljmp(bus, pre);
        }
        Ok(())
    }

    /// The end of every CALL: the queue flush at the target, then the push
    /// of the return IP.
    fn call_push_return<B: Bus>(&mut self, bus: &mut B, ins: &Instruction, ip: u32) -> Exec {
        self.x_flush_after(bus, eu_timing::CALL_TO_FLUSH);
        self.x_script(bus, eu_timing::CALL_PUSH_PRE);
        self.push(bus, Size::wide(ins.opsize32), ip)
    }

    /// CALL rel16 and CALL ptr16:16.
    pub(super) fn call<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let op32 = ins.opsize32;
        if ins.op == Op::CallFar {
            let cs = self.regs.sreg(SegReg::CS) as u32;
            self.x_imm(bus, ins);
            self.x_susp(bus, eu_timing::CALL_FAR_SUSP);
            self.x_script(bus, eu_timing::CALL_FAR_PUSH_CS);
            self.push(bus, Size::wide(op32), cs)?;
            let ip = self.regs.ip;
            self.far_jump(ins.imm2 as u16, ins.imm, op32)?;
            self.call_push_return(bus, ins, ip)
        } else {
            let ip = self.regs.ip;
            let t = ip.wrapping_add(ins.imm);
            let t = if op32 { t } else { t & 0xFFFF };
            if t > 0xFFFF {
                return Err(Fault::Vector(13));
            }
            self.x_imm(bus, ins);
            self.x_susp(bus, 0);
            self.regs.ip = t;
            self.call_push_return(bus, ins, ip)
        }
    }

    /// CALL r/m and JMP r/m (FFh /2, /4; on the 8086 also FEh, reading a
    /// byte; the 286 and 386 #UD there).
    pub(super) fn near_indirect<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let op32 = ins.opsize32;
        let mem = in_memory(ins);
        let loc = self.rm_loc(bus, ins);
        let target = self.read_loc(bus, loc, Size::of(ins.w, op32))?;
        if ins.op == Op::CallInd {
            let t = if op32 { target } else { target & 0xFFFF };
            if t > 0xFFFF {
                return Err(Fault::Vector(13));
            }
            let ip = self.regs.ip;
            self.x_susp(bus, eu_timing::call_ind_susp(mem));
            self.set_ip(target, op32)?;
            self.call_push_return(bus, ins, ip)
        } else {
            self.x_susp(bus, eu_timing::jmp_ind_susp(mem));
            self.set_ip(target, op32)?;
            self.x_flush_after(bus, eu_timing::JMP_IND_TO_FLUSH);
            Ok(())
        }
    }

    /// CALL m16:16 and JMP m16:16 (FFh /3, /5).
    pub(super) fn far_indirect<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let op32 = ins.opsize32;
        let far_call = ins.op == Op::CallFarInd;
        let between = |cpu: &mut Self, bus: &mut B| {
            if far_call {
                cpu.x_script(bus, eu_timing::CALL_FAR_IND_BETWEEN);
            } else {
                cpu.x_susp(bus, eu_timing::JMP_FAR_IND_SUSP_PRE);
                cpu.x_script(bus, eu_timing::JMP_FAR_IND_BETWEEN);
            }
        };
        let Some((cs, ip)) = self.read_far_pointer(bus, ins, between)? else {
            return Ok(());
        };
        if far_call {
            let old_cs = self.regs.sreg(SegReg::CS) as u32;
            self.x_susp(bus, eu_timing::CALL_FAR_IND_SUSP);
            self.x_script(bus, eu_timing::CALL_FAR_PUSH_CS);
            self.push(bus, Size::wide(op32), old_cs)?;
            let old_ip = self.regs.ip;
            self.far_jump(cs, ip, op32)?;
            self.call_push_return(bus, ins, old_ip)
        } else {
            self.far_jump(cs, ip, op32)?;
            self.x_flush_after(bus, eu_timing::JMP_FAR_IND_TO_FLUSH);
            Ok(())
        }
    }

    /// RET and RETF, with or without an immediate that releases stack.
    pub(super) fn ret<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let wsz = Size::wide(ins.opsize32);
        let iw = ins.form == Form::Iw;
        if iw {
            self.x_imm(bus, ins);
        }
        let far = ins.op == Op::Retf;
        let pre = if far {
            eu_timing::RETF_PRE
        } else {
            eu_timing::ret_pre(iw)
        };
        self.x_susp_now(bus, pre);
        let ip = self.pop(bus, wsz)?;
        let cs = if far {
            self.x_script(bus, eu_timing::RETF_BETWEEN);
            Some(self.pop(bus, wsz)? as u16)
        } else {
            None
        };
        if iw {
            let sp = self.regs.reg16(Reg16::SP).wrapping_add(ins.imm as u16);
            self.regs.set_reg16(Reg16::SP, sp);
        }
        match cs {
            Some(cs) => {
                self.far_jump(cs, ip, ins.opsize32)?;
                self.x_flush_after(bus, eu_timing::RETF_TO_FLUSH);
            }
            None => {
                self.set_ip(ip, ins.opsize32)?;
                self.x_flush_after(bus, eu_timing::ret_flush(iw));
            }
        }
        Ok(())
    }

    /// IRET: pop IP, CS and FLAGS.
    pub(super) fn iret<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let op32 = ins.opsize32;
        let wsz = Size::wide(op32);
        self.x_susp_now(bus, eu_timing::RETF_PRE);
        let ip = self.pop(bus, wsz)?;
        self.x_script(bus, eu_timing::RETF_BETWEEN);
        let cs = self.pop(bus, wsz)? as u16;
        if self.x.is_some() {
            // The 8086 (the only exact model) cannot fault in the flags
            // pop: jump now, the flush comes before it.
            self.far_jump(cs, ip, op32)?;
            self.x_flush_after(bus, eu_timing::RETF_TO_FLUSH);
            self.x_script(bus, eu_timing::IRET_FLAGS);
        }
        let f = self.pop(bus, wsz)?;
        let keep = if op32 {
            0
        } else {
            self.regs.flags & 0xFFFF_0000
        };
        self.far_jump(cs, ip, op32)?;
        self.regs.flags = self.normalize_flags(keep | f);
        Ok(())
    }

    /// INT3, INT n, INTO and ICEBP; returns the vector when the interrupt
    /// is taken (INTO only with OF set).
    pub(super) fn soft_interrupt<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Option<u8> {
        let v = match ins.op {
            Op::Int3 => {
                self.regs.ip &= 0xFFFF;
                self.x_script(bus, eu_timing::INT3_PRE);
                3
            }
            Op::Icebp => 1,
            Op::Int => {
                self.x_imm(bus, ins);
                self.x_susp(bus, eu_timing::INT_IMM_SUSP);
                ins.imm as u8
            }
            _ => {
                let taken = self.flag(OF);
                self.x_script(bus, eu_timing::into(taken));
                if !taken {
                    return None;
                }
                4
            }
        };
        self.interrupt(bus, v);
        Some(v)
    }

    /// BOUND r, m: #BR (vector 5) unless lower <= r <= upper, signed.
    pub(super) fn bound<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let op32 = ins.opsize32;
        let wsz = Size::wide(op32);
        let m = ins.modrm.unwrap_or_default();
        let (seg, off) = self.mem_operand(bus, ins)?;
        let lower = self.read_mem(bus, seg, off, wsz)?;
        let upper = self.read_mem(bus, seg, self.next_off(off, wsz.bits() / 8), wsz)?;
        let v = self.get_reg(m.reg, wsz);
        let s = |x: u32| -> i64 {
            if op32 {
                x as i32 as i64
            } else {
                x as u16 as i16 as i64
            }
        };
        if s(v) < s(lower) || s(v) > s(upper) {
            return Err(Fault::Vector(5));
        }
        Ok(())
    }
}
