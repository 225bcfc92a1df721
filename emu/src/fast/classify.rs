//! Classification: what the decode cache runs through [`classify`] once
//! per slot, so that the handlers find the operands, the operation and the
//! whole clock count ready.

use crate::decode::{sreg_of_opcode, Instruction, ModRm, Rep};
use crate::model::CpuModel;
use crate::regs::SegReg;
use crate::size::Size;
use crate::table::{Form, Op};
use crate::timing;

use super::{Fast, Kind};

/// True for the ALU group's operations.
fn is_alu(op: Op) -> bool {
    matches!(
        op,
        Op::Add | Op::Or | Op::Adc | Op::Sbb | Op::And | Op::Sub | Op::Xor | Op::Cmp | Op::Test
    )
}

/// Classifies `ins` for `model`, whose documented clocks (not taken,
/// taken) are `clocks`.
pub(crate) fn classify(model: CpuModel, ins: &Instruction, clocks: [u32; 2]) -> Fast {
    let caps = model.caps();
    let generic = Fast {
        len: ins.len,
        ..Fast::GENERIC
    };
    if ins.len as u32 > caps.max_instruction_bytes || ins.lock || ins.rep != Rep::None {
        return generic;
    }
    let pre = ins.prefixes as u32 * caps.prefix_clocks;
    let mut f = Fast {
        size: Size::of(ins.w, ins.opsize32),
        op: ins.op,
        clocks: clocks.map(|c| c + pre),
        ..generic
    };
    let mem = match ins.modrm {
        Some(m) if !m.is_reg() && ins.form.has_modrm() => {
            let ss = if ins.addrsize32 {
                classify_ea32(ins, m, &mut f)
            } else {
                let plain = m.mode == 0 && m.rm == 6;
                f.s = if plain { 8 } else { m.rm };
                f.disp = ins.disp & 0xFFFF;
                !plain && matches!(m.rm, 2 | 3 | 6)
            };
            f.seg = ins.seg.unwrap_or(if ss { SegReg::SS } else { SegReg::DS });
            let ea = timing::ea_clocks(model, m, ins.seg.is_some());
            f.clocks = f.clocks.map(|c| c + ea);
            true
        }
        _ => false,
    };
    let (rm, reg) = ins.modrm.map_or((0, 0), |m| (m.rm, m.reg));
    f.kind = if is_alu(ins.op) {
        classify_alu(ins, &mut f, mem, rm, reg)
    } else {
        classify_other(model, ins, &mut f, mem, rm, reg)
    };
    if f.kind == Kind::Generic {
        return generic;
    }
    f
}

/// A 32-bit-addressed memory operand (80386 PRM, section 17.2.1, as
/// [`Cpu::effective_address`]): its base, index, scale and displacement
/// into `f`; true when it defaults to SS (an EBP or ESP base).
fn classify_ea32(ins: &Instruction, m: ModRm, f: &mut Fast) -> bool {
    f.a32 = true;
    f.disp = ins.disp;
    if let Some(sib) = ins.sib {
        let base = sib & 7;
        let index = (sib >> 3) & 7;
        f.index = if index == 4 { 8 } else { index };
        f.scale = sib >> 6;
        if base == 5 && m.mode == 0 {
            f.s = 8;
            false
        } else {
            f.s = base;
            base == 4 || base == 5
        }
    } else if m.rm == 5 && m.mode == 0 {
        f.s = 8;
        false
    } else {
        f.s = m.rm;
        m.rm == 5
    }
}

/// The ALU group's forms.
fn classify_alu(ins: &Instruction, f: &mut Fast, mem: bool, rm: u8, reg: u8) -> Kind {
    let mask = f.size.mask();
    match (ins.form, mem) {
        (Form::EG, false) => {
            (f.r, f.s) = (rm, reg);
            Kind::AluRR
        }
        (Form::GE, false) => {
            (f.r, f.s) = (reg, rm);
            Kind::AluRR
        }
        (Form::EG, true) => {
            f.r = reg;
            Kind::AluMR
        }
        (Form::GE, true) => {
            f.r = reg;
            Kind::AluRM
        }
        (Form::AccI, _) => {
            (f.r, f.imm) = (0, ins.imm & mask);
            Kind::AluRI
        }
        (Form::EI | Form::EIbs, false) => {
            (f.r, f.imm) = (rm, ins.imm & mask);
            Kind::AluRI
        }
        (Form::EI | Form::EIbs, true) => {
            f.imm = ins.imm & mask;
            Kind::AluMI
        }
        _ => Kind::Generic,
    }
}

/// MOV and the 16-bit offset forms of MOV acc, moffs.
fn classify_mov(ins: &Instruction, f: &mut Fast, mem: bool, rm: u8, reg: u8) -> Kind {
    let wide = Size::wide(ins.opsize32);
    match (ins.form, mem) {
        (Form::EG, false) => (f.r, f.s) = (rm, reg),
        (Form::GE, false) => (f.r, f.s) = (reg, rm),
        (Form::EG, true) => {
            f.r = reg;
            return Kind::MovMR;
        }
        (Form::GE, true) => {
            f.r = reg;
            return Kind::MovRM;
        }
        (Form::EI, false) => {
            (f.r, f.imm) = (rm, ins.imm & f.size.mask());
            return Kind::MovRI;
        }
        (Form::EI, true) => {
            f.imm = ins.imm & f.size.mask();
            return Kind::MovMI;
        }
        (Form::Reg8I, _) => {
            (f.r, f.imm, f.size) = (ins.opcode & 7, ins.imm & 0xFF, Size::Byte);
            return Kind::MovRI;
        }
        (Form::Reg16I, _) => {
            (f.r, f.imm, f.size) = (ins.opcode & 7, ins.imm & wide.mask(), wide);
            return Kind::MovRI;
        }
        (Form::AccMoffs | Form::MoffsAcc, _) if !ins.addrsize32 => {
            // No ModR/M: no EA clocks, the offset is the immediate.
            (f.r, f.s, f.disp) = (0, 8, ins.imm & 0xFFFF);
            f.seg = ins.seg.unwrap_or(SegReg::DS);
            return if ins.form == Form::AccMoffs {
                Kind::MovRM
            } else {
                Kind::MovMR
            };
        }
        _ => return Kind::Generic,
    }
    Kind::MovRR
}

/// MOV r/m, Sreg (8Ch) and MOV Sreg, r/m (8Eh) for the segment registers
/// the model decodes without a fault (as `Cpu::sreg_field`); loads of CS
/// and SS stay generic.
fn classify_mov_sreg(model: CpuModel, ins: &Instruction, f: &mut Fast, mem: bool) -> Kind {
    let c = model.caps();
    let Some(m) = ins.modrm else {
        return Kind::Generic;
    };
    let sreg = if !c.invalid_opcode_fault {
        SegReg::from_index(m.reg & 3)
    } else if m.reg < c.segment_registers {
        SegReg::from_index(m.reg)
    } else {
        return Kind::Generic;
    };
    if ins.form == Form::ES {
        if mem {
            (f.r, f.size) = (sreg as u8, Size::Word);
            return Kind::MovMS;
        }
        // A register destination takes the operand size.
        (f.r, f.imm, f.size) = (m.rm, sreg as u32, Size::wide(ins.opsize32));
        return Kind::MovRS;
    }
    if matches!(sreg, SegReg::CS | SegReg::SS) {
        return Kind::Generic;
    }
    f.r = sreg as u8;
    f.size = Size::Word;
    if mem {
        Kind::MovSM
    } else {
        f.s = m.rm;
        Kind::MovSR
    }
}

/// Everything but the ALU group.
fn classify_other(
    model: CpuModel,
    ins: &Instruction,
    f: &mut Fast,
    mem: bool,
    rm: u8,
    reg: u8,
) -> Kind {
    let wide = Size::wide(ins.opsize32);
    match ins.op {
        Op::Mov if matches!(ins.form, Form::ES | Form::SE) => classify_mov_sreg(model, ins, f, mem),
        Op::Mov => classify_mov(ins, f, mem, rm, reg),
        Op::Inc | Op::Dec | Op::Not | Op::Neg | Op::Mul | Op::Imul | Op::Div | Op::Idiv => {
            classify_unary(ins, f, mem, rm)
        }
        Op::Xchg if ins.form == Form::AccReg => {
            (f.r, f.s, f.size) = (0, ins.opcode & 7, wide);
            Kind::XchgRR
        }
        Op::Xchg if ins.modrm.is_some() && !mem => {
            (f.r, f.s) = (rm, reg);
            Kind::XchgRR
        }
        Op::Lea if mem => {
            (f.r, f.size) = (reg, wide);
            Kind::Lea
        }
        Op::Rol | Op::Ror | Op::Rcl | Op::Rcr | Op::Shl | Op::Shr | Op::Sar
            if ins.modrm.is_some() =>
        {
            classify_shift(ins, f, mem, rm)
        }
        Op::Push | Op::Pop | Op::PushSeg | Op::PopSeg | Op::Pushf | Op::Popf => {
            classify_stack(model, ins, f)
        }
        Op::Clc | Op::Stc | Op::Cmc | Op::Cld | Op::Std => Kind::FlagOp,
        Op::Lahf => Kind::Lahf,
        Op::Int | Op::Int3 => {
            f.imm = if ins.op == Op::Int { ins.imm & 0xFF } else { 3 };
            Kind::Int
        }
        Op::Cbw | Op::Cwd => {
            // Word-only: the opcode's bit 0 is no size bit here.
            f.size = wide;
            if ins.op == Op::Cbw {
                Kind::Cbw
            } else {
                Kind::Cwd
            }
        }
        Op::Lods => {
            f.seg = ins.seg.unwrap_or(SegReg::DS);
            f.a32 = ins.addrsize32;
            Kind::Lods
        }
        _ => classify_two_byte(ins, f, mem, rm, reg),
    }
}

/// INC, DEC, NOT, NEG (a register, from the opcode or ModR/M, or memory)
/// and MUL, IMUL, DIV, IDIV of the accumulator by r/m.
fn classify_unary(ins: &Instruction, f: &mut Fast, mem: bool, rm: u8) -> Kind {
    let Some(_) = ins.modrm else {
        // INC/DEC r16/r32 (40h-4Fh): the register is in the opcode.
        if ins.form != Form::Reg || !matches!(ins.op, Op::Inc | Op::Dec) {
            return Kind::Generic;
        }
        (f.r, f.size) = (ins.opcode & 7, Size::wide(ins.opsize32));
        return if ins.op == Op::Inc {
            Kind::IncR
        } else {
            Kind::DecR
        };
    };
    if mem {
        return match ins.op {
            Op::Inc | Op::Dec | Op::Not | Op::Neg => Kind::UnaryM,
            _ => Kind::MulDivM,
        };
    }
    f.r = rm;
    match ins.op {
        Op::Inc => Kind::IncR,
        Op::Dec => Kind::DecR,
        Op::Not => Kind::NotR,
        Op::Neg => Kind::NegR,
        _ => Kind::MulDivR,
    }
}

/// The shift and rotate group: by 1, by imm8 or by CL.
fn classify_shift(ins: &Instruction, f: &mut Fast, mem: bool, rm: u8) -> Kind {
    // The count's form goes in `r` for memory (`s` holds the base there),
    // in `s` for a register.
    let (form, imm) = match ins.form {
        Form::E1 => (0, 1),
        Form::EIbu => (1, ins.imm & 0xFF),
        Form::ECl => (2, 0),
        _ => return Kind::Generic,
    };
    f.imm = imm;
    if mem {
        f.r = form;
        Kind::ShiftM
    } else {
        (f.r, f.s) = (rm, form);
        Kind::ShiftR
    }
}

/// PUSH imm, PUSH and POP of a register (from the opcode) or a segment
/// register, PUSHF and POPF.
fn classify_stack(model: CpuModel, ins: &Instruction, f: &mut Fast) -> Kind {
    let wide = Size::wide(ins.opsize32);
    let reg_form = ins.form == Form::Reg;
    match ins.op {
        Op::Push if matches!(ins.form, Form::Iv | Form::Ibs) => {
            (f.size, f.imm) = (wide, ins.imm & wide.mask());
            Kind::PushI
        }
        Op::PushSeg | Op::PopSeg => {
            let sreg = sreg_of_opcode(ins);
            (f.r, f.size) = (sreg as u8, wide);
            if ins.op == Op::PushSeg {
                Kind::PushS
            } else if matches!(sreg, SegReg::CS | SegReg::SS) {
                // POP CS (8086) and POP SS (the interrupt shadow).
                Kind::Generic
            } else {
                Kind::PopS
            }
        }
        Op::Push if reg_form => {
            (f.r, f.size) = (ins.opcode & 7, wide);
            // The 8086 pushes SP as decremented: the generic path does it.
            if f.r == 4 && model.caps().push_sp_pushes_new_value {
                return Kind::Generic;
            }
            Kind::PushR
        }
        Op::Pop if reg_form => {
            (f.r, f.size) = (ins.opcode & 7, wide);
            Kind::PopR
        }
        Op::Pushf => {
            f.size = wide;
            Kind::Pushf
        }
        Op::Popf => {
            f.size = wide;
            Kind::Popf
        }
        _ => Kind::Generic,
    }
}

/// MOVZX/MOVSX, IMUL with an immediate or two operands, the bit tests
/// and SETcc; then the transfers of control.
fn classify_two_byte(ins: &Instruction, f: &mut Fast, mem: bool, rm: u8, reg: u8) -> Kind {
    let wide = Size::wide(ins.opsize32);
    match ins.op {
        Op::Movzx | Op::Movsx if ins.modrm.is_some() => {
            (f.r, f.size) = (reg, wide);
            f.imm = if ins.form == Form::GEb { 1 } else { 2 };
            if mem {
                Kind::MovxM
            } else {
                f.s = rm;
                Kind::MovxR
            }
        }
        Op::Imul3 if ins.modrm.is_some() => {
            (f.r, f.size) = (reg, wide);
            if ins.form == Form::GE {
                // The two-operand form multiplies by the register itself.
                f.op = Op::Imul;
            } else {
                f.imm = ins.imm2 & wide.mask();
            }
            if mem {
                Kind::Imul3M
            } else {
                f.s = rm;
                Kind::Imul3R
            }
        }
        Op::Bt | Op::Bts | Op::Btr | Op::Btc if ins.modrm.is_some() => {
            f.size = wide;
            let imm = ins.form == Form::EIbu;
            if imm {
                f.imm = ins.imm & (wide.bits() - 1);
            }
            match (mem, imm) {
                (false, _) => {
                    (f.r, f.s) = (rm, if imm { 8 } else { reg });
                    Kind::BtR
                }
                (true, true) => Kind::BtMI,
                // A register offset moves the address: generic.
                (true, false) => Kind::Generic,
            }
        }
        Op::Setcc if ins.modrm.is_some() => {
            f.imm = (ins.opcode & 0x0F) as u32;
            if mem {
                Kind::SetccM
            } else {
                f.r = rm;
                Kind::SetccR
            }
        }
        _ => classify_transfer(ins, f, mem),
    }
}

/// The transfers of control (16-bit operand size).
fn classify_transfer(ins: &Instruction, f: &mut Fast, mem: bool) -> Kind {
    let op16 = !ins.opsize32;
    match ins.op {
        Op::Iret if op16 => Kind::Iret,
        Op::CallFar | Op::JmpFar if op16 => {
            (f.imm, f.disp) = (ins.imm & 0xFFFF, ins.imm2 & 0xFFFF);
            if ins.op == Op::CallFar {
                Kind::CallFar
            } else {
                Kind::JmpFar
            }
        }
        Op::CallFarInd if op16 && mem => Kind::CallFarM,
        Op::JmpFarInd if op16 && mem => Kind::JmpFarM,
        Op::Retf if op16 => {
            f.imm = if ins.form == Form::Iw { ins.imm } else { 0 };
            Kind::Retf
        }
        Op::Jcc if op16 => {
            (f.r, f.imm) = (ins.opcode & 0x0F, ins.imm);
            Kind::Jcc
        }
        Op::Jmp if op16 => {
            f.imm = ins.imm;
            Kind::Jmp
        }
        Op::Loop | Op::Loope | Op::Loopne | Op::Jcxz if op16 && !ins.addrsize32 => {
            f.imm = ins.imm;
            Kind::Loop
        }
        Op::Call if op16 => {
            f.imm = ins.imm;
            Kind::Call
        }
        Op::Ret if op16 => {
            f.imm = if ins.form == Form::Iw { ins.imm } else { 0 };
            Kind::Ret
        }
        _ => Kind::Generic,
    }
}
