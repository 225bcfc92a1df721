//! The execution unit's dispatcher: decodes one instruction through the BIU
//! and carries it out, one arm per operation of [`crate::table::Op`].

use crate::alu::Size;
use crate::bus::Bus;
use crate::cpu::{Cpu, StepEvent};
use crate::decode::{decode, Instruction, ModRm, Rep};
use crate::flags::{self, CF, DF, IF, OF, PF, SF, ZF};
use crate::model::CpuModel;
use crate::regs::SegReg;
use crate::table::{Form, Op};
use crate::timing;

/// Where an r/m operand lives.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Loc {
    /// A register (its ModR/M number).
    Reg(u8),
    /// Memory at segment value : offset.
    Mem(u16, u16),
}

impl Cpu {
    /// The effective address of a memory ModR/M operand (table 2-20 of the
    /// 8086 Family User's Manual): the segment value (BP-based forms default
    /// to SS, the others to DS, unless overridden) and the 16-bit offset.
    pub(crate) fn effective_address(&self, ins: &Instruction, m: ModRm) -> (u16, u16) {
        let r = &self.regs;
        let (bx, bp, si, di) = (r.get16(3), r.get16(5), r.get16(6), r.get16(7));
        let (base, ss_default) = match m.rm {
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
        let seg = ins
            .seg
            .unwrap_or(if ss_default { SegReg::SS } else { SegReg::DS });
        (r.sreg(seg), base.wrapping_add(ins.disp))
    }

    /// The location of the r/m operand, charging EA clocks for memory.
    fn rm_loc(&mut self, ins: &Instruction) -> Loc {
        let m = ins.modrm.unwrap_or_default();
        if m.is_reg() {
            Loc::Reg(m.rm)
        } else {
            self.step_cycles += timing::ea_clocks(m, ins.seg.is_some());
            let (seg, off) = self.effective_address(ins, m);
            Loc::Mem(seg, off)
        }
    }

    fn read_loc<B: Bus>(&mut self, bus: &mut B, loc: Loc, sz: Size) -> u32 {
        match (loc, sz) {
            (Loc::Reg(r), Size::Byte) => self.regs.get8(r) as u32,
            (Loc::Reg(r), Size::Word) => self.regs.get16(r) as u32,
            (Loc::Mem(s, o), Size::Byte) => self.read8(bus, s, o) as u32,
            (Loc::Mem(s, o), Size::Word) => self.read16(bus, s, o) as u32,
        }
    }

    fn write_loc<B: Bus>(&mut self, bus: &mut B, loc: Loc, sz: Size, v: u32) {
        match (loc, sz) {
            (Loc::Reg(r), Size::Byte) => self.regs.put8(r, v as u8),
            (Loc::Reg(r), Size::Word) => self.regs.put16(r, v as u16),
            (Loc::Mem(s, o), Size::Byte) => self.write8(bus, s, o, v as u8),
            (Loc::Mem(s, o), Size::Word) => self.write16(bus, s, o, v as u16),
        }
    }

    fn get_reg(&self, r: u8, sz: Size) -> u32 {
        match sz {
            Size::Byte => self.regs.get8(r) as u32,
            Size::Word => self.regs.get16(r) as u32,
        }
    }

    fn put_reg(&mut self, r: u8, sz: Size, v: u32) {
        match sz {
            Size::Byte => self.regs.put8(r, v as u8),
            Size::Word => self.regs.put16(r, v as u16),
        }
    }

    /// A segment register from a ModR/M `reg` field: 2 bits wide on the
    /// 8086 (4-7 alias 0-3).
    fn sreg_field(&self, reg: u8) -> SegReg {
        SegReg::from_index(reg & 3)
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

    fn jump_rel(&mut self, disp: u16) {
        self.regs.ip = (self.regs.ip as u16).wrapping_add(disp) as u32;
    }

    /// Decodes and executes one instruction.
    pub(crate) fn execute_one<B: Bus>(&mut self, bus: &mut B) -> StepEvent {
        self.instr_ip = self.regs.ip;
        let decoded = decode(|| self.fetch8(bus), usize::MAX);
        let Some(ins) = decoded else {
            // Unreachable: decoding from the bus has no length limit.
            return StepEvent::Executed;
        };
        self.step_cycles += ins.prefixes as u32 * timing::PREFIX;
        self.execute(bus, &ins)
    }

    fn execute<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> StepEvent {
        let sz = Size::from_w(ins.w);
        let m = ins.modrm.unwrap_or_default();
        let mut mem = false;
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
                        let loc = self.rm_loc(ins);
                        mem = matches!(loc, Loc::Mem(..));
                        let a = self.read_loc(bus, loc, sz);
                        let b = self.get_reg(m.reg, sz);
                        let r = self.alu(ins.op, a, b, sz);
                        if stores {
                            self.write_loc(bus, loc, sz, r);
                        }
                    }
                    Form::GE => {
                        let loc = self.rm_loc(ins);
                        mem = matches!(loc, Loc::Mem(..));
                        let a = self.get_reg(m.reg, sz);
                        let b = self.read_loc(bus, loc, sz);
                        let r = self.alu(ins.op, a, b, sz);
                        if stores {
                            self.put_reg(m.reg, sz, r);
                        }
                    }
                    Form::AccI => {
                        let a = self.get_reg(0, sz);
                        let r = self.alu(ins.op, a, ins.imm as u32 & sz.mask(), sz);
                        if stores {
                            self.put_reg(0, sz, r);
                        }
                    }
                    _ => {
                        // EI / EIb: the immediate groups and TEST r/m, imm.
                        let loc = self.rm_loc(ins);
                        mem = matches!(loc, Loc::Mem(..));
                        let a = self.read_loc(bus, loc, sz);
                        let r = self.alu(ins.op, a, ins.imm as u32 & sz.mask(), sz);
                        if stores {
                            self.write_loc(bus, loc, sz, r);
                        }
                    }
                }
            }
            Op::PushSeg => {
                let s = SegReg::from_index((ins.opcode >> 3) & 3);
                let v = self.regs.sreg(s);
                self.push16(bus, v);
            }
            Op::PopSeg => {
                let s = SegReg::from_index((ins.opcode >> 3) & 3);
                let v = self.pop16(bus);
                self.load_sreg(s, v);
            }
            Op::Daa => self.daa(),
            Op::Das => self.das(),
            Op::Aaa => self.aaa(),
            Op::Aas => self.aas(),
            Op::Inc | Op::Dec => {
                let (loc, sz) = if ins.form == Form::Reg {
                    (Loc::Reg(ins.opcode & 7), Size::Word)
                } else {
                    (self.rm_loc(ins), sz)
                };
                mem = matches!(loc, Loc::Mem(..));
                let a = self.read_loc(bus, loc, sz);
                let r = if ins.op == Op::Inc {
                    self.inc(a, sz)
                } else {
                    self.dec(a, sz)
                };
                self.write_loc(bus, loc, sz, r);
            }
            Op::Push => {
                let v = if ins.form == Form::Reg {
                    let r = ins.opcode & 7;
                    if r == 4 && self.model == CpuModel::I8086 {
                        // The 8086 pushes SP as decremented (p. 2-33 note).
                        self.regs.get16(4).wrapping_sub(2)
                    } else {
                        self.regs.get16(r)
                    }
                } else {
                    let loc = self.rm_loc(ins);
                    mem = matches!(loc, Loc::Mem(..));
                    if matches!(loc, Loc::Reg(4)) && self.model == CpuModel::I8086 {
                        self.regs.get16(4).wrapping_sub(2)
                    } else {
                        self.read_loc(bus, loc, Size::Word) as u16
                    }
                };
                self.push16(bus, v);
            }
            Op::Pop => {
                let v = self.pop16(bus);
                if ins.form == Form::Reg {
                    self.regs.put16(ins.opcode & 7, v);
                } else {
                    let loc = self.rm_loc(ins);
                    mem = matches!(loc, Loc::Mem(..));
                    self.write_loc(bus, loc, Size::Word, v as u32);
                }
            }
            Op::Jcc => {
                taken = self.condition(ins.opcode & 0x0F);
                if taken {
                    self.jump_rel(ins.imm);
                }
            }
            Op::Xchg => {
                if ins.form == Form::AccReg {
                    let r = ins.opcode & 7;
                    let a = self.regs.get16(0);
                    let b = self.regs.get16(r);
                    self.regs.put16(0, b);
                    self.regs.put16(r, a);
                } else {
                    let loc = self.rm_loc(ins);
                    mem = matches!(loc, Loc::Mem(..));
                    let a = self.read_loc(bus, loc, sz);
                    let b = self.get_reg(m.reg, sz);
                    self.write_loc(bus, loc, sz, b);
                    self.put_reg(m.reg, sz, a);
                }
            }
            Op::Mov => match ins.form {
                Form::EG => {
                    let loc = self.rm_loc(ins);
                    mem = matches!(loc, Loc::Mem(..));
                    let v = self.get_reg(m.reg, sz);
                    self.write_loc(bus, loc, sz, v);
                }
                Form::GE => {
                    let loc = self.rm_loc(ins);
                    mem = matches!(loc, Loc::Mem(..));
                    let v = self.read_loc(bus, loc, sz);
                    self.put_reg(m.reg, sz, v);
                }
                Form::ES => {
                    let loc = self.rm_loc(ins);
                    mem = matches!(loc, Loc::Mem(..));
                    let v = self.regs.sreg(self.sreg_field(m.reg));
                    self.write_loc(bus, loc, Size::Word, v as u32);
                }
                Form::SE => {
                    let loc = self.rm_loc(ins);
                    mem = matches!(loc, Loc::Mem(..));
                    let v = self.read_loc(bus, loc, Size::Word) as u16;
                    let s = self.sreg_field(m.reg);
                    self.load_sreg(s, v);
                }
                Form::EI => {
                    let loc = self.rm_loc(ins);
                    mem = matches!(loc, Loc::Mem(..));
                    self.write_loc(bus, loc, sz, ins.imm as u32);
                }
                Form::Reg8I => self.regs.put8(ins.opcode & 7, ins.imm as u8),
                Form::Reg16I => self.regs.put16(ins.opcode & 7, ins.imm),
                Form::AccMoffs => {
                    let seg = self.regs.sreg(ins.seg.unwrap_or(SegReg::DS));
                    let v = if ins.w {
                        self.read16(bus, seg, ins.imm) as u32
                    } else {
                        self.read8(bus, seg, ins.imm) as u32
                    };
                    self.put_reg(0, sz, v);
                }
                _ => {
                    // MoffsAcc
                    let seg = self.regs.sreg(ins.seg.unwrap_or(SegReg::DS));
                    let v = self.get_reg(0, sz);
                    if ins.w {
                        self.write16(bus, seg, ins.imm, v as u16);
                    } else {
                        self.write8(bus, seg, ins.imm, v as u8);
                    }
                }
            },
            Op::Lea => {
                if !m.is_reg() {
                    self.step_cycles += timing::ea_clocks(m, ins.seg.is_some());
                    let (_, off) = self.effective_address(ins, m);
                    self.regs.put16(m.reg, off);
                }
            }
            Op::Les | Op::Lds => {
                if !m.is_reg() {
                    self.step_cycles += timing::ea_clocks(m, ins.seg.is_some());
                    let (seg, off) = self.effective_address(ins, m);
                    let o = self.read16(bus, seg, off);
                    let s = self.read16(bus, seg, off.wrapping_add(2));
                    self.regs.put16(m.reg, o);
                    let target = if ins.op == Op::Les {
                        SegReg::ES
                    } else {
                        SegReg::DS
                    };
                    self.regs.set_sreg(target, s);
                }
            }
            Op::Cbw => {
                let al = self.regs.get8(0) as i8 as i16 as u16;
                self.regs.put16(0, al);
            }
            Op::Cwd => {
                let dx = if self.regs.get16(0) & 0x8000 != 0 {
                    0xFFFF
                } else {
                    0
                };
                self.regs.put16(2, dx);
            }
            Op::CallFar => {
                let cs = self.regs.sreg(SegReg::CS);
                self.push16(bus, cs);
                let ip = self.regs.ip as u16;
                self.push16(bus, ip);
                self.regs.set_sreg(SegReg::CS, ins.imm2);
                self.regs.ip = ins.imm as u32;
            }
            Op::Wait => {
                // No coprocessor: TEST is inactive, WAIT falls through.
            }
            Op::Pushf => {
                let f = self.regs.flags as u16;
                self.push16(bus, f);
            }
            Op::Popf => {
                let v = self.pop16(bus) as u32;
                self.regs.flags = self.normalize_flags(v);
            }
            Op::Sahf => {
                let mask = SF | ZF | flags::AF | PF | CF;
                let ah = self.regs.get8(4) as u32;
                let f = (self.regs.flags & !mask) | (ah & mask);
                self.regs.flags = self.normalize_flags(f);
            }
            Op::Lahf => {
                let f = self.regs.flags as u8;
                self.regs.put8(4, f);
            }
            Op::Movs | Op::Cmps | Op::Stos | Op::Lods | Op::Scas => {
                self.string_op(bus, ins);
                return event;
            }
            Op::Ret => {
                let ip = self.pop16(bus);
                self.regs.ip = ip as u32;
                if ins.form == Form::Iw {
                    let sp = self.regs.get16(4).wrapping_add(ins.imm);
                    self.regs.put16(4, sp);
                }
            }
            Op::Retf => {
                let ip = self.pop16(bus);
                let cs = self.pop16(bus);
                self.regs.ip = ip as u32;
                self.regs.set_sreg(SegReg::CS, cs);
                if ins.form == Form::Iw {
                    let sp = self.regs.get16(4).wrapping_add(ins.imm);
                    self.regs.put16(4, sp);
                }
            }
            Op::Int3 => {
                self.interrupt(bus, 3);
                event = StepEvent::SoftwareInterrupt(3);
            }
            Op::Int => {
                self.interrupt(bus, ins.imm as u8);
                event = StepEvent::SoftwareInterrupt(ins.imm as u8);
            }
            Op::Into => {
                taken = self.flag(OF);
                if taken {
                    self.interrupt(bus, 4);
                    event = StepEvent::SoftwareInterrupt(4);
                }
            }
            Op::Iret => {
                let ip = self.pop16(bus);
                let cs = self.pop16(bus);
                let f = self.pop16(bus) as u32;
                self.regs.ip = ip as u32;
                self.regs.set_sreg(SegReg::CS, cs);
                self.regs.flags = self.normalize_flags(f);
            }
            Op::Rol | Op::Ror | Op::Rcl | Op::Rcr | Op::Shl | Op::Shr | Op::Setmo | Op::Sar => {
                let loc = self.rm_loc(ins);
                mem = matches!(loc, Loc::Mem(..));
                let count = if ins.form == Form::E1 {
                    1
                } else {
                    let cl = self.regs.get8(1) as u32;
                    self.step_cycles += cl * timing::SHIFT_PER_BIT;
                    if self.model == CpuModel::I8086 {
                        cl
                    } else {
                        cl & 0x1F
                    }
                };
                let v = self.read_loc(bus, loc, sz);
                let r = self.shift(ins.op, v, count, sz);
                if count != 0 {
                    self.write_loc(bus, loc, sz, r);
                }
            }
            Op::Aam => {
                if !self.aam(ins.imm as u8) {
                    self.step_cycles += timing::base_clocks(ins, false, false);
                    self.exception(bus, 0);
                    return StepEvent::Exception(0);
                }
            }
            Op::Aad => self.aad(ins.imm as u8),
            Op::Salc => {
                let v = if self.flag(CF) { 0xFF } else { 0 };
                self.regs.put8(0, v);
            }
            Op::Xlat => {
                let seg = self.regs.sreg(ins.seg.unwrap_or(SegReg::DS));
                let off = self.regs.get16(3).wrapping_add(self.regs.get8(0) as u16);
                let v = self.read8(bus, seg, off);
                self.regs.put8(0, v);
            }
            Op::Esc => {
                // No 8087: the 8086 still computes the address and reads
                // the operand, then continues.
                if !m.is_reg() {
                    mem = true;
                    let loc = self.rm_loc(ins);
                    self.read_loc(bus, loc, Size::Word);
                }
            }
            Op::Loop | Op::Loope | Op::Loopne => {
                let cx = self.regs.get16(1).wrapping_sub(1);
                self.regs.put16(1, cx);
                taken = cx != 0
                    && match ins.op {
                        Op::Loope => self.flag(ZF),
                        Op::Loopne => !self.flag(ZF),
                        _ => true,
                    };
                if taken {
                    self.jump_rel(ins.imm);
                }
            }
            Op::Jcxz => {
                taken = self.regs.get16(1) == 0;
                if taken {
                    self.jump_rel(ins.imm);
                }
            }
            Op::In => {
                let port = if ins.form == Form::AccPort {
                    ins.imm
                } else {
                    self.regs.get16(2)
                };
                let v = self.port_in(bus, port, ins.w);
                self.put_reg(0, sz, v as u32);
            }
            Op::Out => {
                let port = if ins.form == Form::AccPort {
                    ins.imm
                } else {
                    self.regs.get16(2)
                };
                let v = self.get_reg(0, sz) as u16;
                self.port_out(bus, port, v, ins.w);
            }
            Op::Call => {
                let ip = self.regs.ip as u16;
                self.push16(bus, ip);
                self.jump_rel(ins.imm);
            }
            Op::Jmp => self.jump_rel(ins.imm),
            Op::JmpFar => {
                self.regs.set_sreg(SegReg::CS, ins.imm2);
                self.regs.ip = ins.imm as u32;
            }
            Op::CallInd | Op::JmpInd => {
                let loc = self.rm_loc(ins);
                mem = matches!(loc, Loc::Mem(..));
                let target = self.read_loc(bus, loc, sz) as u16;
                if ins.op == Op::CallInd {
                    let ip = self.regs.ip as u16;
                    self.push16(bus, ip);
                }
                self.regs.ip = target as u32;
            }
            Op::CallFarInd | Op::JmpFarInd => {
                // A register operand has no far pointer to read; the 8086's
                // behaviour there is undocumented and tandem leaves it a
                // no-op.
                if !m.is_reg() {
                    let loc = self.rm_loc(ins);
                    mem = true;
                    if let Loc::Mem(seg, off) = loc {
                        let ip = self.read16(bus, seg, off);
                        let cs = self.read16(bus, seg, off.wrapping_add(2));
                        if ins.op == Op::CallFarInd {
                            let old_cs = self.regs.sreg(SegReg::CS);
                            self.push16(bus, old_cs);
                            let old_ip = self.regs.ip as u16;
                            self.push16(bus, old_ip);
                        }
                        self.regs.set_sreg(SegReg::CS, cs);
                        self.regs.ip = ip as u32;
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
                let loc = self.rm_loc(ins);
                mem = matches!(loc, Loc::Mem(..));
                let v = self.read_loc(bus, loc, sz);
                self.write_loc(bus, loc, sz, !v & sz.mask());
            }
            Op::Neg => {
                let loc = self.rm_loc(ins);
                mem = matches!(loc, Loc::Mem(..));
                let v = self.read_loc(bus, loc, sz);
                let r = self.neg(v, sz);
                self.write_loc(bus, loc, sz, r);
            }
            Op::Mul | Op::Imul => {
                let loc = self.rm_loc(ins);
                mem = matches!(loc, Loc::Mem(..));
                let src = self.read_loc(bus, loc, sz);
                let acc = self.get_reg(0, sz);
                let signed = ins.op == Op::Imul;
                let negate = self.rep_negates(ins) && signed;
                let (lo, hi) = self.multiply(acc, src, sz, signed, negate);
                match sz {
                    Size::Byte => self.regs.put16(0, (hi << 8 | lo) as u16),
                    Size::Word => {
                        self.regs.put16(0, lo as u16);
                        self.regs.put16(2, hi as u16);
                    }
                }
            }
            Op::Div | Op::Idiv => {
                let loc = self.rm_loc(ins);
                mem = matches!(loc, Loc::Mem(..));
                let src = self.read_loc(bus, loc, sz);
                let (lo, hi) = match sz {
                    Size::Byte => (self.regs.get8(0) as u32, self.regs.get8(4) as u32),
                    Size::Word => (self.regs.get16(0) as u32, self.regs.get16(2) as u32),
                };
                let signed = ins.op == Op::Idiv;
                let negate = self.rep_negates(ins) && signed;
                match self.divide(lo, hi, src, sz, signed, negate) {
                    Ok((q, r)) => match sz {
                        Size::Byte => self.regs.put16(0, (r << 8 | q) as u16),
                        Size::Word => {
                            self.regs.put16(0, q as u16);
                            self.regs.put16(2, r as u16);
                        }
                    },
                    Err(_) => {
                        self.step_cycles += timing::base_clocks(ins, mem, false);
                        self.exception(bus, 0);
                        return StepEvent::Exception(0);
                    }
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
            Op::Prefix => {}
        }
        self.step_cycles += timing::base_clocks(ins, mem, taken);
        event
    }

    /// On the 8086 a REP or REPNE prefix flips the microcode's sign flag for
    /// IMUL and IDIV, negating the result.
    fn rep_negates(&self, ins: &Instruction) -> bool {
        self.model == CpuModel::I8086 && ins.rep != Rep::None
    }
}
