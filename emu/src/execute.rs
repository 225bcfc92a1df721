//! The execution unit's dispatcher: decodes one instruction through the BIU
//! and carries it out, one arm per operation of [`crate::table::Op`].
//! Operations raise faults as `Err(Fault)`; [`Cpu::fault`] delivers them.

use crate::alu::Size;
use crate::bus::Bus;
use crate::cpu::{Cpu, Fault, StepEvent, PROTECTED_MODE_UNSUPPORTED};
use crate::decode::{decode_for, Instruction, ModRm, Rep};
use crate::eu_timing;
use crate::flags::{self, CF, DF, IF, OF, PF, SF, ZF};
use crate::regs::SegReg;
use crate::table::{Form, Op};
use crate::timing;

/// Where an r/m operand lives.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Loc {
    /// A register (its ModR/M number).
    Reg(u8),
    /// Memory at segment register : offset.
    Mem(SegReg, u32),
}

/// #UD.
const UD: Fault = Fault::Vector(6);

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
            let (bx, bp, si, di) = (r.get16(3), r.get16(5), r.get16(6), r.get16(7));
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

    /// The location of the r/m operand, charging EA clocks for memory.
    fn rm_loc<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Loc {
        let m = ins.modrm.unwrap_or_default();
        if m.is_reg() {
            Loc::Reg(m.rm)
        } else {
            if self.x.is_some() {
                self.x_ea(bus, m);
            }
            self.step_cycles += timing::ea_clocks(self.model, m, ins.seg.is_some());
            let (seg, off) = self.effective_address(ins, m);
            Loc::Mem(seg, off)
        }
    }

    /// The memory operand of a form that requires one (#UD for a register).
    fn mem_operand<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
    ) -> Result<(SegReg, u32), Fault> {
        match self.rm_loc(bus, ins) {
            Loc::Mem(s, o) => Ok((s, o)),
            Loc::Reg(_) => Err(UD),
        }
    }

    fn read_loc<B: Bus>(&mut self, bus: &mut B, loc: Loc, sz: Size) -> Result<u32, Fault> {
        match loc {
            Loc::Reg(r) => Ok(self.get_reg(r, sz)),
            Loc::Mem(s, o) => self.read_mem(bus, s, o, sz),
        }
    }

    fn write_loc<B: Bus>(&mut self, bus: &mut B, loc: Loc, sz: Size, v: u32) -> Result<(), Fault> {
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
    fn sreg_field(&self, reg: u8) -> Result<SegReg, Fault> {
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
    fn load_sreg(&mut self, s: SegReg, v: u16) {
        self.regs.set_sreg(s, v);
        if s == SegReg::SS {
            self.irq_shadow = true;
        }
    }

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
    fn set_ip(&mut self, target: u32, op32: bool) -> Result<(), Fault> {
        let t = if op32 { target } else { target & 0xFFFF };
        if t > 0xFFFF {
            return Err(Fault::Vector(13));
        }
        self.regs.ip = t;
        Ok(())
    }

    fn jump_rel(&mut self, ins: &Instruction) -> Result<(), Fault> {
        let t = self.regs.ip.wrapping_add(ins.imm);
        self.set_ip(t, ins.opsize32)
    }

    /// CX or ECX, by address size.
    fn count_reg(&self, a32: bool) -> u32 {
        if a32 {
            self.regs.gpr[1]
        } else {
            self.regs.get16(1) as u32
        }
    }

    /// Decodes and executes one instruction.
    pub(crate) fn execute_one<B: Bus>(&mut self, bus: &mut B) -> StepEvent {
        self.instr_ip = self.regs.ip;
        if self.model.caps().faults_restart_instruction {
            self.saved = self.regs.clone();
        }
        self.fetch_fault = false;
        let model = self.model;
        let decoded = decode_for(model, || self.fetch8(bus), usize::MAX);
        let Some(ins) = decoded else {
            // Unreachable: decoding from the bus has no length limit.
            return StepEvent::Executed;
        };
        // The 286 rejects an instruction longer than 10 bytes, the 386 one
        // longer than 15 (prefixes included), with #GP (80286 PRM, 80386 PRM
        // section 17.1; the 286 suite records it for over-prefixed IMUL).
        let too_long = ins.len as u32 > model.caps().max_instruction_bytes;
        if self.fetch_fault || too_long {
            return self.fault(bus, Fault::Vector(13));
        }
        self.step_cycles += ins.prefixes as u32 * model.caps().prefix_clocks;
        let next_ip = self.regs.ip;
        let cs = self.regs.sreg(SegReg::CS);
        if self.x.is_some() {
            self.x_begin(bus, &ins);
        }
        let ev = match self.execute(bus, &ins) {
            Ok(ev) => ev,
            Err(f) => {
                self.step_cycles += timing::clocks(model, &ins, false, false);
                self.fault(bus, f)
            }
        };
        if self.x.is_some() {
            self.x_end(bus, &ins, next_ip, cs);
        }
        ev
    }

    fn execute<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Result<StepEvent, Fault> {
        let op32 = ins.opsize32;
        let a32 = ins.addrsize32;
        let sz = Size::of(ins.w, op32);
        let wsz = Size::wide(op32);
        let m = ins.modrm.unwrap_or_default();
        let mem = !m.is_reg() && ins.modrm.is_some();
        let mut taken = false;
        let mut event = StepEvent::Executed;
        match ins.op {
            Op::Add
            | Op::Or
            | Op::Adc
            | Op::Sbb
            | Op::And
            | Op::Sub
            | Op::Xor
            | Op::Cmp
            | Op::Test => {
                let stores = !matches!(ins.op, Op::Cmp | Op::Test);
                match ins.form {
                    Form::EG => {
                        let loc = self.rm_loc(bus, ins);
                        let a = self.read_loc(bus, loc, sz)?;
                        let b = self.get_reg(m.reg, sz);
                        let r = self.alu(ins.op, a, b, sz);
                        // Microcode 008-00A: the ALU lines, two more to
                        // write memory back.
                        let n = eu_timing::alu_eg(mem, stores);
                        self.x_script(bus, n);
                        if stores {
                            self.write_loc(bus, loc, sz, r)?;
                        }
                    }
                    Form::GE => {
                        let loc = self.rm_loc(bus, ins);
                        let a = self.get_reg(m.reg, sz);
                        let b = self.read_loc(bus, loc, sz)?;
                        let r = self.alu(ins.op, a, b, sz);
                        self.x_script(bus, eu_timing::alu_ge(mem));
                        if stores {
                            self.put_reg(m.reg, sz, r);
                        }
                    }
                    Form::AccI => {
                        self.x_imm(bus, ins);
                        self.x_script(bus, eu_timing::alu_acc_imm(ins.w));
                        let a = self.get_reg(0, sz);
                        let r = self.alu(ins.op, a, ins.imm & sz.mask(), sz);
                        if stores {
                            self.put_reg(0, sz, r);
                        }
                    }
                    _ => {
                        // EI / EIbs: the immediate groups and TEST r/m, imm.
                        let loc = self.rm_loc(bus, ins);
                        let a = self.read_loc(bus, loc, sz)?;
                        let test = ins.op == Op::Test;
                        self.x_script(bus, eu_timing::alu_ei_pre(mem, test));
                        self.x_imm(bus, ins);
                        self.x_script(bus, eu_timing::alu_ei(ins.opcode, mem, stores));
                        let r = self.alu(ins.op, a, ins.imm & sz.mask(), sz);
                        if stores {
                            self.write_loc(bus, loc, sz, r)?;
                        }
                    }
                }
            }
            Op::PushSeg => {
                self.x_script(bus, eu_timing::PUSH_PRE);
                let s = self.sreg_of_opcode(ins);
                let v = self.regs.sreg(s) as u32;
                self.push(bus, wsz, v)?;
            }
            Op::PopSeg => {
                let s = self.sreg_of_opcode(ins);
                let v = self.pop(bus, wsz)? as u16;
                self.x_script(bus, eu_timing::POP_POST);
                self.load_sreg(s, v);
            }
            Op::Daa => self.daa(),
            Op::Das => self.das(),
            Op::Aaa | Op::Aas => {
                let adj = self.regs.get8(0) & 0x0F > 9 || self.flag(flags::AF);
                self.x_script(bus, eu_timing::aaa(adj));
                if ins.op == Op::Aaa {
                    self.aaa()
                } else {
                    self.aas()
                }
            }
            Op::Inc | Op::Dec => {
                if ins.form == Form::Reg {
                    self.x_script(bus, 0);
                }
                let (loc, sz) = if ins.form == Form::Reg {
                    (Loc::Reg(ins.opcode & 7), wsz)
                } else {
                    (self.rm_loc(bus, ins), sz)
                };
                let a = self.read_loc(bus, loc, sz)?;
                if mem {
                    self.x_script(bus, eu_timing::RMW_MEM);
                }
                let r = if ins.op == Op::Inc {
                    self.inc(a, sz)
                } else {
                    self.dec(a, sz)
                };
                self.write_loc(bus, loc, sz, r)?;
            }
            Op::Push => {
                if ins.form == Form::Reg {
                    self.x_script(bus, eu_timing::PUSH_PRE);
                }
                let v = match ins.form {
                    Form::Reg => {
                        let r = ins.opcode & 7;
                        if r == 4 && self.model.caps().push_sp_pushes_new_value {
                            // The 8086 pushes SP as decremented (p. 2-33).
                            self.regs.get16(4).wrapping_sub(2) as u32
                        } else {
                            self.get_reg(r, wsz)
                        }
                    }
                    Form::Iv | Form::Ibs => ins.imm & wsz.mask(),
                    _ => {
                        let loc = self.rm_loc(bus, ins);
                        if matches!(loc, Loc::Reg(4)) && self.model.caps().push_sp_pushes_new_value
                        {
                            self.x_script(bus, eu_timing::push_rm(false));
                            self.regs.get16(4).wrapping_sub(2) as u32
                        } else {
                            // (The script runs in the 8086's exact mode only.)
                            let v = self.read_loc(bus, loc, wsz)?;
                            self.x_script(bus, eu_timing::push_rm(mem));
                            v
                        }
                    }
                };
                self.push(bus, wsz, v)?;
            }
            Op::Pop => {
                if ins.form == Form::Reg {
                    let v = self.pop(bus, wsz)?;
                    self.x_script(bus, eu_timing::POP_POST);
                    self.put_reg(ins.opcode & 7, wsz, v);
                } else if self.x.is_some() {
                    // Exact 8086: the EA calculation comes first (its
                    // displacement leaves the queue before the stack read;
                    // no 8086 addressing form uses SP, so the address is
                    // the same either way).
                    let loc = self.rm_loc(bus, ins);
                    let mem = matches!(loc, Loc::Mem(..));
                    self.x_script(bus, eu_timing::pop_rm_pre(mem));
                    let v = self.pop(bus, wsz)?;
                    self.x_script(bus, eu_timing::pop_rm_post(mem));
                    self.write_loc(bus, loc, wsz, v)?;
                } else {
                    // The 386 computes an SP-based address after the pop
                    // has incremented SP (80386 PRM, POP).
                    let v = self.pop(bus, wsz)?;
                    let loc = self.rm_loc(bus, ins);
                    self.write_loc(bus, loc, wsz, v)?;
                }
            }
            Op::Jcc => {
                taken = self.condition(ins.opcode & 0x0F);
                self.x_imm(bus, ins);
                if taken {
                    self.jump_rel(ins)?;
                    self.x_reljmp(bus, eu_timing::JCC_TAKEN);
                } else {
                    self.x_script(bus, eu_timing::JCC_NOT_TAKEN);
                }
            }
            Op::Setcc => {
                let v = self.condition(ins.opcode & 0x0F) as u32;
                let loc = self.rm_loc(bus, ins);
                self.write_loc(bus, loc, Size::Byte, v)?;
            }
            Op::Xchg => {
                if ins.form == Form::AccReg {
                    self.x_script(bus, 1);
                    let r = ins.opcode & 7;
                    let a = self.get_reg(0, wsz);
                    let b = self.get_reg(r, wsz);
                    self.put_reg(0, wsz, b);
                    self.put_reg(r, wsz, a);
                } else {
                    let loc = self.rm_loc(bus, ins);
                    let a = self.read_loc(bus, loc, sz)?;
                    let b = self.get_reg(m.reg, sz);
                    self.x_script(bus, eu_timing::xchg_rm(mem));
                    self.write_loc(bus, loc, sz, b)?;
                    self.put_reg(m.reg, sz, a);
                }
            }
            Op::Mov => self.mov(bus, ins, sz)?,
            Op::Lea => {
                if m.is_reg() {
                    if self.model.caps().invalid_opcode_fault {
                        return Err(UD);
                    }
                } else {
                    if self.x.is_some() {
                        self.x_ea(bus, m);
                    }
                    self.step_cycles += timing::ea_clocks(self.model, m, ins.seg.is_some());
                    let (_, off) = self.effective_address(ins, m);
                    self.x_script(bus, eu_timing::LEA_POST);
                    self.put_reg(m.reg, wsz, off);
                }
            }
            Op::Les | Op::Lds | Op::Lss | Op::Lfs | Op::Lgs => {
                if m.is_reg() {
                    if self.model.caps().invalid_opcode_fault {
                        return Err(UD);
                    }
                } else {
                    let (seg, off) = self.mem_operand(bus, ins)?;
                    let o = self.read_mem(bus, seg, off, wsz)?;
                    let n = if op32 { 4 } else { 2 };
                    self.x_script(bus, eu_timing::LDS_BETWEEN);
                    let s = self.read16(bus, seg, self.next_off(off, n, a32))?;
                    self.x_script(bus, eu_timing::LDS_POST);
                    self.put_reg(m.reg, wsz, o);
                    let target = match ins.op {
                        Op::Les => SegReg::ES,
                        Op::Lds => SegReg::DS,
                        Op::Lss => SegReg::SS,
                        Op::Lfs => SegReg::FS,
                        _ => SegReg::GS,
                    };
                    self.load_sreg(target, s);
                }
            }
            Op::Cbw => {
                if op32 {
                    self.regs.gpr[0] = self.regs.get16(0) as i16 as i32 as u32;
                } else {
                    let al = self.regs.get8(0) as i8 as i16 as u16;
                    self.regs.put16(0, al);
                }
            }
            Op::Cwd => {
                let neg = self.get_reg(0, wsz) & wsz.sign() != 0;
                self.x_script(bus, eu_timing::cwd(neg));
                self.put_reg(2, wsz, if neg { wsz.mask() } else { 0 });
            }
            Op::CallFar => {
                let cs = self.regs.sreg(SegReg::CS) as u32;
                self.x_imm(bus, ins);
                self.x_susp(bus, eu_timing::CALL_FAR_SUSP);
                self.x_script(bus, eu_timing::CALL_FAR_PUSH_CS);
                self.push(bus, wsz, cs)?;
                let ip = self.regs.ip;
                self.far_jump(ins.imm2 as u16, ins.imm, op32)?;
                self.x_flush_after(bus, eu_timing::CALL_TO_FLUSH);
                self.x_script(bus, eu_timing::CALL_PUSH_PRE);
                self.push(bus, wsz, ip)?;
            }
            Op::Wait => {
                // No coprocessor: TEST/BUSY is inactive, WAIT falls through.
            }
            Op::Pushf => {
                // The 386's 32-bit push clears VM and RF in the image.
                let f = self.regs.flags & 0xFFFC_FFFF;
                self.x_script(bus, eu_timing::PUSH_PRE);
                self.push(bus, wsz, f)?;
            }
            Op::Popf => {
                let v = self.pop(bus, wsz)?;
                self.x_script(bus, eu_timing::POP_POST);
                let keep = if op32 {
                    0
                } else {
                    self.regs.flags & 0xFFFF_0000
                };
                self.regs.flags = self.normalize_flags(keep | v);
            }
            Op::Sahf => {
                let mask = SF | ZF | flags::AF | PF | CF;
                let ah = self.regs.get8(4) as u32;
                let f = (self.regs.flags & !mask) | (ah & mask);
                self.regs.flags = self.normalize_flags(f);
            }
            Op::Lahf => {
                self.x_script(bus, 0);
                let f = self.regs.flags as u8;
                self.regs.put8(4, f);
            }
            Op::Movs | Op::Cmps | Op::Stos | Op::Lods | Op::Scas | Op::Ins | Op::Outs => {
                self.string_op(bus, ins)?;
                return Ok(event);
            }
            Op::Ret => {
                let iw = ins.form == Form::Iw;
                if iw {
                    self.x_imm(bus, ins);
                }
                self.x_susp_now(bus, eu_timing::ret_pre(iw));
                let ip = self.pop(bus, wsz)?;
                if iw {
                    let sp = self.regs.get16(4).wrapping_add(ins.imm as u16);
                    self.regs.put16(4, sp);
                }
                self.set_ip(ip, op32)?;
                self.x_flush_after(bus, eu_timing::ret_flush(iw));
            }
            Op::Retf => {
                let iw = ins.form == Form::Iw;
                if iw {
                    self.x_imm(bus, ins);
                }
                self.x_susp_now(bus, eu_timing::RETF_PRE);
                let ip = self.pop(bus, wsz)?;
                self.x_script(bus, eu_timing::RETF_BETWEEN);
                let cs = self.pop(bus, wsz)? as u16;
                if iw {
                    let sp = self.regs.get16(4).wrapping_add(ins.imm as u16);
                    self.regs.put16(4, sp);
                }
                self.far_jump(cs, ip, op32)?;
                self.x_flush_after(bus, eu_timing::RETF_TO_FLUSH);
            }
            Op::Int3 => {
                self.regs.ip &= 0xFFFF;
                self.x_script(bus, eu_timing::INT3_PRE);
                self.interrupt(bus, 3);
                event = StepEvent::SoftwareInterrupt(3);
            }
            Op::Icebp => {
                self.interrupt(bus, 1);
                event = StepEvent::SoftwareInterrupt(1);
            }
            Op::Int => {
                self.x_imm(bus, ins);
                self.x_susp(bus, eu_timing::INT_IMM_SUSP);
                self.interrupt(bus, ins.imm as u8);
                event = StepEvent::SoftwareInterrupt(ins.imm as u8);
            }
            Op::Into => {
                taken = self.flag(OF);
                self.x_script(bus, eu_timing::into(taken));
                if taken {
                    self.interrupt(bus, 4);
                    event = StepEvent::SoftwareInterrupt(4);
                }
            }
            Op::Iret => {
                self.x_susp_now(bus, eu_timing::RETF_PRE);
                let ip = self.pop(bus, wsz)?;
                self.x_script(bus, eu_timing::RETF_BETWEEN);
                let cs = self.pop(bus, wsz)? as u16;
                if self.x.is_some() {
                    // The 8086 (the only exact model) cannot fault in the
                    // flags pop: jump now, the flush comes before it.
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
            }
            Op::Rol | Op::Ror | Op::Rcl | Op::Rcr | Op::Shl | Op::Shr | Op::Setmo | Op::Sar => {
                let loc = self.rm_loc(bus, ins);
                let raw = match ins.form {
                    Form::E1 => 1,
                    Form::EIbu => ins.imm & 0xFF,
                    _ => self.regs.get8(1) as u32,
                };
                // The 8086 shifts by the whole count; the 186 and later mask
                // it to 5 bits (80386 PRM, SAL/SAR/SHL/SHR).
                let count = raw & self.model.caps().shift_count_mask;
                if ins.form != Form::E1 {
                    self.step_cycles += count * self.model.caps().shift_clocks_per_bit;
                }
                let v = self.read_loc(bus, loc, sz)?;
                if mem {
                    self.x_script(bus, eu_timing::shift_mem(ins.form == Form::E1, count));
                }
                let r = self.shift(ins.op, v, count, sz);
                // The 8086 writes a memory operand back even for a count of
                // zero (recorded by the suite); only exact mode shows it.
                if count != 0 || (mem && self.x.is_some()) {
                    self.write_loc(bus, loc, sz, r)?;
                }
            }
            Op::Shld | Op::Shrd => {
                let loc = self.rm_loc(bus, ins);
                let count = if ins.form == Form::EGIb {
                    ins.imm2 & 0x1F
                } else {
                    self.regs.get8(1) as u32 & 0x1F
                };
                let a = self.read_loc(bus, loc, sz)?;
                let b = self.get_reg(m.reg, sz);
                if count != 0 {
                    let r = self.double_shift(ins.op == Op::Shld, a, b, count, sz);
                    self.write_loc(bus, loc, sz, r)?;
                }
            }
            Op::Aam => {
                if self.x.is_some() {
                    self.x_imm(bus, ins);
                    self.x_script(bus, eu_timing::aam(self.regs.get8(0), ins.imm as u8));
                }
                if !self.aam(ins.imm as u8) {
                    return Err(Fault::Vector(0));
                }
            }
            Op::Aad => {
                if self.x.is_some() {
                    self.x_imm(bus, ins);
                    self.x_script(bus, eu_timing::aad(ins.imm as u8));
                }
                self.aad(ins.imm as u8)
            }
            Op::Salc => {
                self.x_script(bus, eu_timing::salc(self.flag(CF)));
                let v = if self.flag(CF) { 0xFF } else { 0 };
                self.regs.put8(0, v);
            }
            Op::Xlat => {
                let seg = ins.seg.unwrap_or(SegReg::DS);
                let al = self.regs.get8(0) as u32;
                let off = if a32 {
                    self.regs.gpr[3].wrapping_add(al)
                } else {
                    (self.regs.get16(3) as u32 + al) & 0xFFFF
                };
                self.x_script(bus, eu_timing::XLAT_PRE);
                let v = self.read_mem(bus, seg, off, Size::Byte)?;
                self.x_script(bus, eu_timing::XLAT_POST);
                self.regs.put8(0, v as u8);
            }
            Op::Esc => {
                // No coprocessor: the CPU still computes the address and
                // reads the operand, then continues.
                if !m.is_reg() {
                    let loc = self.rm_loc(bus, ins);
                    self.read_loc(bus, loc, Size::Word)?;
                    self.x_script(bus, eu_timing::ESC_MEM_POST);
                } else {
                    self.x_script(bus, 0);
                }
            }
            Op::Loop | Op::Loope | Op::Loopne => {
                let cx = self.count_reg(a32).wrapping_sub(1);
                if a32 {
                    self.regs.gpr[1] = cx;
                } else {
                    self.regs.put16(1, cx as u16);
                }
                taken = cx != 0
                    && match ins.op {
                        Op::Loope => self.flag(ZF),
                        Op::Loopne => !self.flag(ZF),
                        _ => true,
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
            }
            Op::Jcxz => {
                taken = self.count_reg(a32) == 0;
                self.x_script(bus, eu_timing::LOOP_PRE);
                self.x_imm(bus, ins);
                if taken {
                    self.jump_rel(ins)?;
                    self.x_reljmp(bus, eu_timing::loop_taken(false));
                } else {
                    self.x_script(bus, eu_timing::loop_not_taken(false));
                }
            }
            Op::In | Op::Out => {
                let port = if ins.form == Form::AccPort {
                    ins.imm as u16
                } else {
                    self.regs.get16(2)
                };
                let imm = ins.form == Form::AccPort;
                self.x_imm(bus, ins);
                if ins.op == Op::In {
                    self.x_script(bus, eu_timing::in_pre(imm));
                    let v = self.port_in(bus, port, sz);
                    self.x_script(bus, eu_timing::IN_POST);
                    self.put_reg(0, sz, v);
                } else {
                    let v = self.get_reg(0, sz);
                    self.x_script(bus, eu_timing::out_pre(imm));
                    self.port_out(bus, port, v, sz);
                }
            }
            Op::Call => {
                let ip = self.regs.ip;
                let t = ip.wrapping_add(ins.imm);
                let t = if op32 { t } else { t & 0xFFFF };
                if t > 0xFFFF {
                    return Err(Fault::Vector(13));
                }
                self.x_imm(bus, ins);
                self.x_susp(bus, 0);
                self.regs.ip = t;
                self.x_flush_after(bus, eu_timing::CALL_TO_FLUSH);
                self.x_script(bus, eu_timing::CALL_PUSH_PRE);
                self.push(bus, wsz, ip)?;
            }
            Op::Jmp => {
                self.x_imm(bus, ins);
                self.jump_rel(ins)?;
                let pre = if ins.opcode == 0xEB {
                    eu_timing::JMP_SHORT
                } else {
                    eu_timing::JMP_NEAR
                };
                self.x_reljmp(bus, pre);
            }
            Op::JmpFar => {
                self.x_imm(bus, ins);
                self.x_susp(bus, 0);
                self.far_jump(ins.imm2 as u16, ins.imm, op32)?;
                self.x_flush_after(bus, eu_timing::JMP_FAR_TO_FLUSH);
            }
            Op::CallInd | Op::JmpInd => {
                let loc = self.rm_loc(bus, ins);
                // FFh /2 and /4 read the operand size; the 8086 also runs
                // FEh /2 and /4, reading a byte (the 286 and 386 #UD).
                let target = self.read_loc(bus, loc, sz)?;
                if ins.op == Op::CallInd {
                    let t = if op32 { target } else { target & 0xFFFF };
                    if t > 0xFFFF {
                        return Err(Fault::Vector(13));
                    }
                    let ip = self.regs.ip;
                    self.x_susp(bus, eu_timing::call_ind_susp(mem));
                    self.set_ip(target, op32)?;
                    self.x_flush_after(bus, eu_timing::CALL_TO_FLUSH);
                    self.x_script(bus, eu_timing::CALL_PUSH_PRE);
                    self.push(bus, wsz, ip)?;
                } else {
                    self.x_susp(bus, eu_timing::jmp_ind_susp(mem));
                    self.set_ip(target, op32)?;
                    self.x_flush_after(bus, eu_timing::JMP_IND_TO_FLUSH);
                }
            }
            Op::CallFarInd | Op::JmpFarInd => {
                if m.is_reg() {
                    // No far pointer to read: #UD on the 286 and 386; the
                    // 8086's behaviour is undocumented and tandem leaves it
                    // a no-op.
                    if self.model.caps().invalid_opcode_fault {
                        return Err(UD);
                    }
                } else {
                    let (seg, off) = self.mem_operand(bus, ins)?;
                    let ip = self.read_mem(bus, seg, off, wsz)?;
                    let n = if op32 { 4 } else { 2 };
                    let far_call = ins.op == Op::CallFarInd;
                    if far_call {
                        self.x_script(bus, eu_timing::CALL_FAR_IND_BETWEEN);
                    } else {
                        self.x_susp(bus, eu_timing::JMP_FAR_IND_SUSP_PRE);
                        self.x_script(bus, eu_timing::JMP_FAR_IND_BETWEEN);
                    }
                    let cs = self.read16(bus, seg, self.next_off(off, n, a32))?;
                    if ins.op == Op::CallFarInd {
                        let old_cs = self.regs.sreg(SegReg::CS) as u32;
                        self.x_susp(bus, eu_timing::CALL_FAR_IND_SUSP);
                        self.x_script(bus, eu_timing::CALL_FAR_PUSH_CS);
                        self.push(bus, wsz, old_cs)?;
                        let old_ip = self.regs.ip;
                        self.far_jump(cs, ip, op32)?;
                        self.x_flush_after(bus, eu_timing::CALL_TO_FLUSH);
                        self.x_script(bus, eu_timing::CALL_PUSH_PRE);
                        self.push(bus, wsz, old_ip)?;
                    } else {
                        self.far_jump(cs, ip, op32)?;
                        self.x_flush_after(bus, eu_timing::JMP_FAR_IND_TO_FLUSH);
                    }
                }
            }
            Op::Hlt => {
                self.halted = true;
                event = StepEvent::Halted;
            }
            Op::Cmc => {
                let c = self.flag(CF);
                self.set_flag(CF, !c);
            }
            Op::Not => {
                let loc = self.rm_loc(bus, ins);
                let v = self.read_loc(bus, loc, sz)?;
                if mem {
                    self.x_script(bus, eu_timing::RMW_MEM);
                }
                self.write_loc(bus, loc, sz, !v & sz.mask())?;
            }
            Op::Neg => {
                let loc = self.rm_loc(bus, ins);
                let v = self.read_loc(bus, loc, sz)?;
                if mem {
                    self.x_script(bus, eu_timing::RMW_MEM);
                }
                let r = self.neg(v, sz);
                self.write_loc(bus, loc, sz, r)?;
            }
            Op::Mul | Op::Imul => {
                let loc = self.rm_loc(bus, ins);
                let src = self.read_loc(bus, loc, sz)?;
                let acc = self.get_reg(0, sz);
                let signed = ins.op == Op::Imul;
                let negate = self.rep_negates(ins) && signed;
                let (lo, hi) = self.multiply(acc, src, sz, signed, negate);
                if self.x.is_some() {
                    let fits = !self.flag(CF);
                    let rep = ins.rep != Rep::None;
                    let word = sz == Size::Word;
                    let n = eu_timing::muldiv_pre(mem)
                        + eu_timing::mul(acc, src, word, signed, rep, fits);
                    self.x_script(bus, n);
                }
                match sz {
                    Size::Byte => self.regs.put16(0, (hi << 8 | lo) as u16),
                    _ => {
                        self.put_reg(0, sz, lo);
                        self.put_reg(2, sz, hi);
                    }
                }
            }
            Op::Imul3 => {
                let loc = self.rm_loc(bus, ins);
                let src = self.read_loc(bus, loc, wsz)?;
                let other = if ins.form == Form::GE {
                    self.get_reg(m.reg, wsz)
                } else {
                    ins.imm2 & wsz.mask()
                };
                let (lo, _) = self.multiply(src, other, wsz, true, false);
                self.put_reg(m.reg, wsz, lo);
            }
            Op::Div | Op::Idiv => {
                let loc = self.rm_loc(bus, ins);
                let src = self.read_loc(bus, loc, sz)?;
                let (lo, hi) = match sz {
                    Size::Byte => (self.regs.get8(0) as u32, self.regs.get8(4) as u32),
                    _ => (self.get_reg(0, sz), self.get_reg(2, sz)),
                };
                let signed = ins.op == Op::Idiv;
                let negate = self.rep_negates(ins) && signed;
                let result = self.divide(lo, hi, src, sz, signed, negate);
                if self.model.caps().undefined_flags_of_8086_microcode
                    && (self.x.is_some() || result.is_err())
                {
                    // The microcode's walk: its clocks, and on a divide
                    // error the flags it leaves (pushed by INT 0).
                    let walk = eu_timing::div(lo, hi, src, sz == Size::Word, signed);
                    if let eu_timing::DivClocks::Error(e) = &walk {
                        self.divide_error_flags(e, sz);
                    }
                    self.x_script(bus, eu_timing::muldiv_pre(mem) + walk.clocks());
                }
                match result {
                    Ok((q, r)) => match sz {
                        Size::Byte => self.regs.put16(0, (r << 8 | q) as u16),
                        _ => {
                            self.put_reg(0, sz, q);
                            self.put_reg(2, sz, r);
                        }
                    },
                    Err(_) => return Err(Fault::Vector(0)),
                }
            }
            Op::Clc => self.set_flag(CF, false),
            Op::Stc => self.set_flag(CF, true),
            Op::Cli => self.set_flag(IF, false),
            Op::Sti => {
                // Interrupts are recognised only after the next instruction.
                if !self.flag(IF) {
                    self.irq_shadow = true;
                }
                self.set_flag(IF, true);
            }
            Op::Cld => self.set_flag(DF, false),
            Op::Std => self.set_flag(DF, true),
            Op::Pusha => {
                let sp = self.get_reg(4, wsz);
                for r in 0..8u8 {
                    let v = if r == 4 { sp } else { self.get_reg(r, wsz) };
                    self.push(bus, wsz, v)?;
                }
            }
            Op::Popa => {
                for r in (0..8u8).rev() {
                    let v = self.pop(bus, wsz)?;
                    if r != 4 {
                        self.put_reg(r, wsz, v);
                    }
                }
            }
            Op::Bound => {
                let (seg, off) = self.mem_operand(bus, ins)?;
                let n = if op32 { 4 } else { 2 };
                let lower = self.read_mem(bus, seg, off, wsz)?;
                let upper = self.read_mem(bus, seg, self.next_off(off, n, a32), wsz)?;
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
            }
            Op::Enter => self.enter(bus, ins)?,
            Op::Leave => {
                let bp = self.get_reg(5, Size::Word);
                self.regs.put16(4, bp as u16);
                let v = self.pop(bus, wsz)?;
                self.put_reg(5, wsz, v);
            }
            Op::Movzx | Op::Movsx => {
                let loc = self.rm_loc(bus, ins);
                let src_sz = if ins.form == Form::GEb {
                    Size::Byte
                } else {
                    Size::Word
                };
                let v = self.read_loc(bus, loc, src_sz)?;
                let v = if ins.op == Op::Movsx && v & src_sz.sign() != 0 {
                    v | !src_sz.mask()
                } else {
                    v
                };
                self.put_reg(m.reg, wsz, v);
            }
            Op::Bt | Op::Bts | Op::Btr | Op::Btc => self.bit_test(bus, ins, wsz)?,
            Op::Bsf | Op::Bsr => {
                let loc = self.rm_loc(bus, ins);
                let v = self.read_loc(bus, loc, wsz)?;
                if v == 0 {
                    self.set_flag(ZF, true);
                } else {
                    self.set_flag(ZF, false);
                    let i = if ins.op == Op::Bsf {
                        v.trailing_zeros()
                    } else {
                        31 - v.leading_zeros()
                    };
                    self.put_reg(m.reg, wsz, i);
                }
            }
            Op::MovFromCr | Op::MovToCr => self.mov_cr(ins)?,
            Op::Smsw => {
                let loc = self.rm_loc(bus, ins);
                let v = self.sys.cr0;
                let size = if matches!(loc, Loc::Reg(_)) {
                    wsz
                } else {
                    Size::Word
                };
                self.write_loc(bus, loc, size, v)?;
            }
            Op::Lmsw => {
                let loc = self.rm_loc(bus, ins);
                let v = self.read_loc(bus, loc, Size::Word)?;
                // LMSW loads PE, MP, EM and TS; it cannot clear PE.
                if v & 1 != 0 {
                    return Err(Fault::Unsupported(PROTECTED_MODE_UNSUPPORTED));
                }
                self.sys.cr0 = (self.sys.cr0 & !0xF) | (v & 0xE);
            }
            Op::Clts => self.sys.cr0 &= !0x8,
            Op::Sgdt | Op::Sidt | Op::Lgdt | Op::Lidt => {
                let (seg, off) = self.mem_operand(bus, ins)?;
                let base_off = self.next_off(off, 2, a32);
                let (base, limit) = if matches!(ins.op, Op::Sgdt | Op::Lgdt) {
                    self.sys.gdtr
                } else {
                    self.sys.idtr
                };
                if matches!(ins.op, Op::Sgdt | Op::Sidt) {
                    // A 16-bit store writes 24 bits of base; the 286 fills
                    // the top byte with ones, the 386 with the base's.
                    let top = if self.model.caps().sgdt_top_byte_ones {
                        0xFF00_0000 | base
                    } else {
                        base
                    };
                    self.write_mem(bus, seg, off, Size::Word, limit as u32)?;
                    self.write_mem(bus, seg, base_off, Size::Dword, top)?;
                } else {
                    let limit = self.read_mem(bus, seg, off, Size::Word)? as u16;
                    let mut base = self.read_mem(bus, seg, base_off, Size::Dword)?;
                    if !op32 {
                        base &= 0x00FF_FFFF;
                    }
                    if ins.op == Op::Lgdt {
                        self.sys.gdtr = (base, limit);
                    } else {
                        self.sys.idtr = (base, limit);
                    }
                }
            }
            Op::Invalid => {
                if self.model.caps().invalid_opcode_fault {
                    return Err(UD);
                }
            }
            Op::Prefix => {}
        }
        if !self.x_scripted {
            // (A scripted instruction in exact mode counts its clocks on
            // the bus; the documented count is only its pad otherwise.)
            self.step_cycles += timing::clocks(self.model, ins, mem, taken);
        }
        Ok(event)
    }

    /// The segment register of PUSH/POP Sreg: opcode bits 3-4 in the
    /// one-byte map, FS (0F A0h/A1h) or GS (0F A8h/A9h) in the two-byte map.
    fn sreg_of_opcode(&self, ins: &Instruction) -> SegReg {
        if ins.two_byte {
            if ins.opcode < 0xA8 {
                SegReg::FS
            } else {
                SegReg::GS
            }
        } else {
            SegReg::from_index((ins.opcode >> 3) & 3)
        }
    }

    /// The offset `n` bytes after `off`: the 8086 wraps at 64 KiB, the 286
    /// and 386 let the limit check catch an operand that runs past it.
    fn next_off(&self, off: u32, n: u32, _a32: bool) -> u32 {
        if self.model.caps().segment_limit_fault {
            off.wrapping_add(n)
        } else {
            (off + n) & 0xFFFF
        }
    }

    /// Loads CS:IP for a far transfer.
    fn far_jump(&mut self, cs: u16, ip: u32, op32: bool) -> Result<(), Fault> {
        let t = if op32 { ip } else { ip & 0xFFFF };
        if t > 0xFFFF {
            return Err(Fault::Vector(13));
        }
        self.regs.set_sreg(SegReg::CS, cs);
        self.regs.ip = t;
        Ok(())
    }

    /// The MOV forms, by operand form.
    fn mov<B: Bus>(&mut self, bus: &mut B, ins: &Instruction, sz: Size) -> Result<(), Fault> {
        let m = ins.modrm.unwrap_or_default();
        match ins.form {
            Form::EG => {
                let loc = self.rm_loc(bus, ins);
                let v = self.get_reg(m.reg, sz);
                // Microcode 000h-001h: four clocks before a store to memory.
                let mem = matches!(loc, Loc::Mem(..));
                self.x_script(bus, if mem { 4 } else { 0 });
                self.write_loc(bus, loc, sz, v)?;
            }
            Form::GE => {
                let loc = self.rm_loc(bus, ins);
                let mem = matches!(loc, Loc::Mem(..));
                let v = self.read_loc(bus, loc, sz)?;
                // After a memory operand, T4 and two clocks (microcode
                // 000h-001h) before the next instruction.
                self.x_script(bus, if mem { 3 } else { 0 });
                self.put_reg(m.reg, sz, v);
            }
            Form::ES => {
                let s = self.sreg_field(m.reg)?;
                let loc = self.rm_loc(bus, ins);
                let v = self.regs.sreg(s) as u32;
                self.x_script(bus, eu_timing::mov_sreg(matches!(loc, Loc::Mem(..))));
                // A register destination takes the operand size (the 386
                // zero-extends into a 32-bit register); memory takes 16 bits.
                let size = match loc {
                    Loc::Reg(_) if ins.opsize32 => Size::Dword,
                    _ => Size::Word,
                };
                self.write_loc(bus, loc, size, v)?;
            }
            Form::SE => {
                let s = self.sreg_field(m.reg)?;
                if s == SegReg::CS && !self.model.caps().loads_cs_by_mov_and_pop {
                    return Err(UD);
                }
                let loc = self.rm_loc(bus, ins);
                let mem = matches!(loc, Loc::Mem(..));
                let v = self.read_loc(bus, loc, Size::Word)? as u16;
                self.x_script(bus, eu_timing::mov_sreg(mem));
                self.load_sreg(s, v);
            }
            Form::EI => {
                let loc = self.rm_loc(bus, ins);
                let mem = matches!(loc, Loc::Mem(..));
                self.x_script(bus, eu_timing::mov_ei_pre(mem));
                self.x_imm(bus, ins);
                self.x_script(bus, eu_timing::mov_ei_post(mem) - ins.w as u32);
                self.write_loc(bus, loc, sz, ins.imm)?;
            }
            Form::Reg8I => self.regs.put8(ins.opcode & 7, ins.imm as u8),
            Form::Reg16I => self.put_reg(ins.opcode & 7, Size::wide(ins.opsize32), ins.imm),
            Form::AccMoffs => {
                let seg = ins.seg.unwrap_or(SegReg::DS);
                self.x_imm(bus, ins);
                self.x_script(bus, 0);
                let v = self.read_mem(bus, seg, ins.imm, sz)?;
                self.x_script(bus, eu_timing::MOV_MOFFS_POST);
                self.put_reg(0, sz, v);
            }
            _ => {
                // MoffsAcc
                let seg = ins.seg.unwrap_or(SegReg::DS);
                let v = self.get_reg(0, sz);
                self.x_imm(bus, ins);
                self.x_script(bus, eu_timing::MOV_MOFFS_STORE_PRE);
                self.write_mem(bus, seg, ins.imm, sz, v)?;
            }
        }
        Ok(())
    }

    /// ENTER imm16, imm8 (80386 PRM, ENTER): push BP, copy `level - 1`
    /// frame pointers from the old frame, push the new frame pointer, and
    /// reserve `imm16` bytes.
    fn enter<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Result<(), Fault> {
        let wsz = Size::wide(ins.opsize32);
        let n = (wsz.bits() / 8) as u16;
        let level = ins.imm2 & 0x1F;
        let bp = self.get_reg(5, wsz);
        self.push(bus, wsz, bp)?;
        let frame = self.regs.get16(4);
        if level > 0 {
            let mut p = self.regs.get16(5);
            for _ in 1..level {
                p = p.wrapping_sub(n);
                let v = self.read_mem(bus, SegReg::SS, p as u32, wsz)?;
                self.push(bus, wsz, v)?;
            }
            let f = if ins.opsize32 {
                (self.regs.gpr[4] & 0xFFFF_0000) | frame as u32
            } else {
                frame as u32
            };
            self.push(bus, wsz, f)?;
        }
        let sp = self.regs.get16(4).wrapping_sub(ins.imm as u16);
        // Touch the lowest byte of the new frame, as the 386 checks it.
        self.check_limit(SegReg::SS, sp as u32, 1)?;
        if ins.opsize32 {
            self.regs.gpr[5] = (self.regs.gpr[5] & 0xFFFF_0000) | frame as u32;
        } else {
            self.regs.put16(5, frame);
        }
        self.regs.put16(4, sp);
        self.step_cycles += level * 4;
        Ok(())
    }

    /// BT, BTS, BTR, BTC: CF = the selected bit, then set, clear or
    /// complement it. A register bit offset addresses memory beyond the
    /// operand (80386 PRM, BT): the address moves by the offset's signed
    /// quotient by the operand width.
    fn bit_test<B: Bus>(&mut self, bus: &mut B, ins: &Instruction, sz: Size) -> Result<(), Fault> {
        let m = ins.modrm.unwrap_or_default();
        let bits = sz.bits();
        let loc = self.rm_loc(bus, ins);
        let (loc, bit) = if ins.form == Form::EIbu {
            (loc, ins.imm & (bits - 1))
        } else {
            let off = self.get_reg(m.reg, sz);
            match loc {
                Loc::Reg(_) => (loc, off & (bits - 1)),
                Loc::Mem(seg, ea) => {
                    let signed = if sz == Size::Dword {
                        off as i32 as i64
                    } else {
                        off as u16 as i16 as i64
                    };
                    let bytes = signed.div_euclid(bits as i64) * (bits as i64 / 8);
                    let mut a = (ea as i64 + bytes) as u32;
                    if !ins.addrsize32 {
                        a &= 0xFFFF;
                    }
                    (Loc::Mem(seg, a), (signed.rem_euclid(bits as i64)) as u32)
                }
            }
        };
        let v = self.read_loc(bus, loc, sz)?;
        self.set_flag(CF, v >> bit & 1 != 0);
        let r = match ins.op {
            Op::Bts => v | 1 << bit,
            Op::Btr => v & !(1 << bit),
            Op::Btc => v ^ 1 << bit,
            _ => return Ok(()),
        };
        self.write_loc(bus, loc, sz, r)
    }

    /// MOV to and from CR0-CR3, DR0-DR7 and TR6/TR7. Real mode runs at
    /// privilege 0, so all are allowed; setting CR0.PE would enter protected
    /// mode, which tandem does not emulate.
    fn mov_cr(&mut self, ins: &Instruction) -> Result<(), Fault> {
        let m = ins.modrm.unwrap_or_default();
        let n = m.reg as usize;
        let kind = ins.opcode & 7; // 0/2 CR, 1/3 DR, 4/6 TR
        if ins.op == Op::MovFromCr {
            let v = match kind {
                0 => match n {
                    0 => self.sys.cr0,
                    2 => self.sys.cr2,
                    3 => self.sys.cr3,
                    _ => return Err(UD),
                },
                1 => self.sys.dr[n],
                _ => self.sys.tr[n],
            };
            self.regs.gpr[m.rm as usize] = v;
        } else {
            let v = self.regs.gpr[m.rm as usize];
            match kind {
                2 => match n {
                    0 => {
                        if v & 1 != 0 {
                            return Err(Fault::Unsupported(PROTECTED_MODE_UNSUPPORTED));
                        }
                        self.sys.cr0 =
                            (v & !crate::cpu::CR0_386_RESERVED) | crate::cpu::CR0_386_RESERVED;
                    }
                    2 => self.sys.cr2 = v,
                    3 => self.sys.cr3 = v,
                    _ => return Err(UD),
                },
                3 => self.sys.dr[n] = v,
                _ => self.sys.tr[n] = v,
            }
        }
        Ok(())
    }

    /// On the 8086 a REP or REPNE prefix flips the microcode's sign flag for
    /// IMUL and IDIV, negating the result.
    fn rep_negates(&self, ins: &Instruction) -> bool {
        self.model.caps().rep_negates_imul_idiv && ins.rep != Rep::None
    }
}
