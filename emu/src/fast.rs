//! The fast path of the register-level core: the frequent instruction
//! forms, classified once when the decode cache fills a slot ([`classify`])
//! and carried out by specialised code ([`Cpu::run_fast`]) instead of the
//! generic [`Cpu::execute`](crate::exec) and its family handlers.
//!
//! Same results, same clocks: each handler does what the generic handler
//! of its form does on the register-level path (no exact-mode scripts, no
//! hooks: the caller only comes here when `slow_mem` is off), and the
//! instruction's whole clock count (documented clocks, prefix clocks, EA
//! clocks) is computed at classification. A handler that declines
//! (returns `None`: an operand would fault, a divide error, a stack or
//! pointer at the 64 KiB limit) has changed no register, flag or memory
//! ([`Cpu::run_fast`] puts the step's clocks back): a memory operand's
//! limit check is its first fallible step, a store the last step before
//! the registers are written, and the transfers check the stack and the
//! pointer before the first access. The generic path then runs the
//! instruction from the start, with the registers at instruction start
//! saved for a fault's restart; that is why the fast path does not copy
//! the registers at all. (Only a divide error declines after a memory
//! read, so the generic path reads that operand again: plain memory, or
//! the VGA's, whose latches load the same bytes again.)
//!
//! Memory operands use 16-bit addressing only (32-bit addressing, LOCK and
//! REP prefixes, and 32-bit transfers of control take the generic path).

use crate::alu::Size;
use crate::biu::BUS_CYCLE;
use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::decode::{Instruction, Rep};
use crate::flags::{AF, CF, DF, STATUS, ZF};
use crate::model::CpuModel;
use crate::regs::SegReg;
use crate::table::{Form, Op};
use crate::timing;

/// The shape of a classified instruction (see the module notes). `R`: a
/// register; `I`: an immediate; `M`: a 16-bit-addressed memory operand;
/// destination first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Not classified: the generic path runs it.
    Generic,
    /// INT n / INT3 (vector `imm`): ends the step with
    /// `StepEvent::SoftwareInterrupt`, so `Cpu::execute_one` runs it
    /// itself ([`Cpu::fast_int`]); it sits beside `Generic` so that one
    /// compare sends both off the common path.
    Int,
    /// ALU op (`op`) reg `r`, reg `s`.
    AluRR,
    /// ALU op reg `r`, imm.
    AluRI,
    /// ALU op reg `r`, memory.
    AluRM,
    /// ALU op memory, reg `r`.
    AluMR,
    /// ALU op memory, imm.
    AluMI,
    /// MOV reg `r`, reg `s`.
    MovRR,
    /// MOV reg `r`, imm.
    MovRI,
    /// MOV reg `r`, memory (also MOV acc, moffs).
    MovRM,
    /// MOV memory, reg `r` (also MOV moffs, acc).
    MovMR,
    /// MOV memory, imm.
    MovMI,
    /// INC reg `r`.
    IncR,
    /// DEC reg `r`.
    DecR,
    /// NOT reg `r`.
    NotR,
    /// NEG reg `r`.
    NegR,
    /// XCHG reg `r`, reg `s`.
    XchgRR,
    /// LEA reg `r`, memory.
    Lea,
    /// A shift or rotate (`op`) of reg `r`: by 1 (`s` = 0), by imm (`s` =
    /// 1) or by CL (`s` = 2).
    ShiftR,
    /// INC, DEC, NOT, NEG (`op`) of memory.
    UnaryM,
    /// MUL, IMUL, DIV, IDIV (`op`) of the accumulator by reg `r`.
    MulDivR,
    /// MUL, IMUL, DIV, IDIV (`op`) of the accumulator by memory.
    MulDivM,
    /// A shift or rotate of memory (count as in `ShiftR`).
    ShiftM,
    /// MOV reg `r`, Sreg `imm`.
    MovRS,
    /// MOV memory, Sreg `r`.
    MovMS,
    /// MOV Sreg `r` (ES, DS, FS or GS), reg `s`.
    MovSR,
    /// MOV Sreg `r` (ES, DS, FS or GS), memory.
    MovSM,
    /// PUSH imm.
    PushI,
    /// PUSH Sreg `r`.
    PushS,
    /// POP Sreg `r` (ES, DS, FS or GS).
    PopS,
    /// RETF / RETF imm16 with a 16-bit operand size.
    Retf,
    /// IRET with a 16-bit operand size.
    Iret,
    /// CALL ptr16:16 (offset `imm`, segment `disp`).
    CallFar,
    /// CALL m16:16.
    CallFarM,
    /// JMP ptr16:16 (offset `imm`, segment `disp`).
    JmpFar,
    /// JMP m16:16.
    JmpFarM,
    /// Jcc (condition `r`) with a 16-bit operand size.
    Jcc,
    /// JMP rel8/rel16 with a 16-bit operand size.
    Jmp,
    /// LOOP, LOOPE, LOOPNE, JCXZ (`op`) with 16-bit sizes.
    Loop,
    /// CALL rel16 with a 16-bit operand size.
    Call,
    /// RET / RET imm16 (near) with a 16-bit operand size.
    Ret,
    /// PUSH reg `r`.
    PushR,
    /// POP reg `r`.
    PopR,
    /// CLC, STC, CMC, CLD, STD (`op`).
    FlagOp,
    /// LAHF.
    Lahf,
    /// MOVZX/MOVSX (`op`) reg `r` (size `size`), reg `s` (a byte when
    /// `imm` is 1, else a word).
    MovxR,
    /// MOVZX/MOVSX reg `r`, memory (sizes as `MovxR`).
    MovxM,
    /// SETcc (condition `imm`) of byte reg `r`.
    SetccR,
    /// SETcc (condition `imm`) of a memory byte.
    SetccM,
    /// IMUL reg `r`, reg `s`, imm (`op` Imul3) or IMUL reg `r`, reg `s`
    /// (`op` Imul: 0F AFh).
    Imul3R,
    /// IMUL reg `r`, memory, imm or IMUL reg `r`, memory (as `Imul3R`).
    Imul3M,
    /// BT, BTS, BTR, BTC (`op`) of reg `r` by reg `s` or (`s` = 8) by imm.
    BtR,
    /// BT, BTS, BTR, BTC of memory by imm.
    BtMI,
    /// PUSHF.
    Pushf,
    /// POPF.
    Popf,
    /// CBW / CWDE.
    Cbw,
    /// CWD / CDQ.
    Cwd,
    /// LODS without a repeat prefix (`seg`: the source segment; `a32`:
    /// ESI).
    Lods,
}

/// A classified instruction: what its handler needs, nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fast {
    /// The handler.
    pub(crate) kind: Kind,
    /// The instruction's length in bytes, prefixes included.
    pub(crate) len: u8,
    /// The operand size.
    size: Size,
    /// The operation (ALU, shift, loop and flag kinds).
    op: Op,
    /// The destination register (or the condition of a Jcc).
    r: u8,
    /// The source register, a shift's count form; for a memory operand
    /// its base (16-bit addressing: the ModR/M rm, 8 for none; 32-bit
    /// addressing: the base register, 8 for none).
    s: u8,
    /// A memory operand in 32-bit addressing (67h): base `s`, index
    /// `index` (8 for none) scaled by 2^`scale`, displacement `disp`.
    a32: bool,
    /// The index register of 32-bit addressing (8 for none).
    index: u8,
    /// The index's scale, as a shift count.
    scale: u8,
    /// A memory operand's segment (the override, or the base's default).
    seg: SegReg,
    /// A memory operand's displacement (16 bits in 16-bit addressing).
    disp: u32,
    /// The immediate (masked to the operand size), a jump's displacement
    /// or RET's release.
    imm: u32,
    /// The whole clock count, not taken and taken.
    clocks: [u32; 2],
}

impl Fast {
    /// The classification of every instruction the fast path does not run.
    pub(crate) const GENERIC: Fast = Fast {
        kind: Kind::Generic,
        len: 0,
        size: Size::Byte,
        op: Op::Invalid,
        r: 0,
        s: 0,
        a32: false,
        index: 8,
        scale: 0,
        seg: SegReg::DS,
        disp: 0,
        imm: 0,
        clocks: [0, 0],
    };
}

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
fn classify_ea32(ins: &Instruction, m: crate::decode::ModRm, f: &mut Fast) -> bool {
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
    let reg_form = ins.form == Form::Reg;
    match ins.op {
        Op::Mov if matches!(ins.form, Form::ES | Form::SE) => classify_mov_sreg(model, ins, f, mem),
        Op::Mov => classify_mov(ins, f, mem, rm, reg),
        Op::Inc | Op::Dec | Op::Not | Op::Neg if mem => Kind::UnaryM,
        Op::Mul | Op::Imul | Op::Div | Op::Idiv if ins.modrm.is_some() => {
            if mem {
                Kind::MulDivM
            } else {
                f.r = rm;
                Kind::MulDivR
            }
        }
        Op::Inc | Op::Dec if reg_form || (ins.modrm.is_some() && !mem) => {
            if reg_form {
                (f.r, f.size) = (ins.opcode & 7, wide);
            } else {
                f.r = rm;
            }
            if ins.op == Op::Inc {
                Kind::IncR
            } else {
                Kind::DecR
            }
        }
        Op::Not | Op::Neg if ins.modrm.is_some() && !mem => {
            f.r = rm;
            if ins.op == Op::Not {
                Kind::NotR
            } else {
                Kind::NegR
            }
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
            // The count's form goes in `r` for memory (`s` holds the
            // base there), in `s` for a register.
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
        Op::Push if matches!(ins.form, Form::Iv | Form::Ibs) => {
            (f.size, f.imm) = (wide, ins.imm & wide.mask());
            Kind::PushI
        }
        Op::PushSeg | Op::PopSeg => {
            let sreg = crate::exec::sreg_of_opcode(ins);
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
        Op::Clc | Op::Stc | Op::Cmc | Op::Cld | Op::Std => Kind::FlagOp,
        Op::Lahf => Kind::Lahf,
        Op::Pushf | Op::Popf => {
            f.size = wide;
            if ins.op == Op::Pushf {
                Kind::Pushf
            } else {
                Kind::Popf
            }
        }
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

/// PF for every low result byte (set when the number of ones is even).
static PARITY: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        if (i as u8).count_ones() & 1 == 0 {
            t[i] = crate::flags::PF as u8;
        }
        i += 1;
    }
    t
};

/// SF, ZF and PF of an `N`-bit result `r` (already masked).
#[inline(always)]
fn szp<const N: u32>(r: u32) -> u32 {
    ((r >> (N - 8)) & 0x80) | (((r == 0) as u32) << 6) | PARITY[r as u8 as usize] as u32
}

/// The `N`-bit mask.
#[inline(always)]
const fn mask<const N: u32>() -> u32 {
    (u32::MAX) >> (32 - N)
}

/// The `Size` of `N` bits.
#[inline(always)]
const fn size<const N: u32>() -> Size {
    match N {
        8 => Size::Byte,
        16 => Size::Word,
        _ => Size::Dword,
    }
}

/// ADD/ADC of `N`-bit `a`, `b` and `c` (0 or 1): the result and its
/// status flags (as [`Cpu::add`]).
#[inline(always)]
fn add_n<const N: u32>(a: u32, b: u32, c: u32) -> (u32, u32) {
    let full = a as u64 + b as u64 + c as u64;
    let r = full as u32 & mask::<N>();
    let cf = ((full >> N) & 1) as u32;
    let of = (((r ^ a) & (r ^ b)) >> (N - 1) & 1) << 11;
    (r, cf | of | ((a ^ b ^ r) & AF) | szp::<N>(r))
}

/// SUB/SBB/CMP of `N`-bit `a`, `b` and borrow `c`: the result and its
/// status flags (as [`Cpu::sub`]).
#[inline(always)]
fn sub_n<const N: u32>(a: u32, b: u32, c: u32) -> (u32, u32) {
    let r = a.wrapping_sub(b).wrapping_sub(c) & mask::<N>();
    let cf = (b as u64 + c as u64 > a as u64) as u32;
    let of = (((a ^ b) & (a ^ r)) >> (N - 1) & 1) << 11;
    (r, cf | of | ((a ^ b ^ r) & AF) | szp::<N>(r))
}

/// ALU operation `op` on `N`-bit `a` and `b` with the carry flag `cf` (0
/// or 1): the result and the new status flags (as [`Cpu::alu`]: AND, OR,
/// XOR and TEST clear CF, OF and AF).
#[inline(always)]
fn alu_n<const N: u32>(op: Op, a: u32, b: u32, cf: u32) -> (u32, u32) {
    match op {
        Op::Add => add_n::<N>(a, b, 0),
        Op::Adc => add_n::<N>(a, b, cf),
        Op::Sub | Op::Cmp => sub_n::<N>(a, b, 0),
        Op::Sbb => sub_n::<N>(a, b, cf),
        Op::Or => (a | b, szp::<N>(a | b)),
        Op::Xor => (a ^ b, szp::<N>(a ^ b)),
        _ => (a & b, szp::<N>(a & b)),
    }
}

/// A shift or rotate of `N`-bit `v` by `count` (at least 1) with carry
/// flag `cf` (0 or 1), in closed form for the counts below the width (up
/// to it for RCL/RCR): the result, the new status flags and the status
/// flags kept (as [`Cpu::shift`]'s bit-by-bit loop leaves them: CF and OF
/// from the last step, and for the shifts SF/ZF/PF from the result and AF
/// clear). `None` for the other counts, which the loop runs.
#[inline(always)]
fn shift_n<const N: u32>(op: Op, v: u32, count: u32, cf: u32) -> Option<(u32, u32, u32)> {
    let m = mask::<N>();
    let c = count;
    let msb = |x: u32| (x >> (N - 1)) & 1;
    let of = |b: u32| b << 11;
    // Rotates keep SF, ZF, AF and PF.
    let rot_keep = STATUS & !(CF | crate::flags::OF);
    match op {
        Op::Shl if c < N => {
            let r = (v << c) & m;
            let cf = (v >> (N - c)) & 1;
            Some((r, cf | of(msb(r) ^ cf) | szp::<N>(r), 0))
        }
        Op::Shr if c < N => {
            let r = v >> c;
            let cf = (v >> (c - 1)) & 1;
            // OF is the operand's sign before the last step.
            Some((r, cf | of(msb(v >> (c - 1))) | szp::<N>(r), 0))
        }
        Op::Sar if c < N => {
            let sv = ((v << (32 - N)) as i32) >> (32 - N);
            let r = (sv >> c) as u32 & m;
            let cf = (sv >> (c - 1)) as u32 & 1;
            Some((r, cf | szp::<N>(r), 0))
        }
        Op::Rol if c < N => {
            let r = ((v << c) | (v >> (N - c))) & m;
            let cf = r & 1;
            Some((r, cf | of(msb(r) ^ cf), rot_keep))
        }
        Op::Ror if c < N => {
            let r = ((v >> c) | (v << (N - c))) & m;
            Some((r, msb(r) | of(msb(r ^ (r << 1))), rot_keep))
        }
        Op::Rcl | Op::Rcr if c <= N => {
            // The N + 1 bits CF:operand, rotated.
            let x = (cf as u64) << N | v as u64;
            let w = N + 1;
            let k = if op == Op::Rcl { c } else { w - c };
            let y = ((x << k) | (x >> (w - k))) & ((1u64 << w) - 1);
            let r = y as u32 & m;
            let cf = (y >> N) as u32 & 1;
            let o = if op == Op::Rcl {
                msb(r) ^ cf
            } else {
                msb(r ^ (r << 1))
            };
            Some((r, cf | of(o), rot_keep))
        }
        _ => None,
    }
}

/// Condition `cc` (the low nibble of a Jcc opcode) of `flags`, as
/// `Cpu::condition` evaluates it.
#[inline(always)]
fn condition(flags: u32, cc: u8) -> bool {
    let bit = |n: u32| (flags >> n) & 1;
    let (cf, pf, zf, sf, of) = (bit(0), bit(2), bit(6), bit(7), bit(11));
    let r = match cc >> 1 {
        0 => of,
        1 => cf,
        2 => zf,
        3 => cf | zf,
        4 => sf,
        5 => pf,
        6 => sf ^ of,
        _ => zf | (sf ^ of),
    };
    r != (cc & 1) as u32
}

/// Runs `$body` with the const `$n` bound to the bits of `$size`.
macro_rules! by_size {
    ($size:expr, $n:ident => $body:expr) => {
        match $size {
            Size::Byte => {
                const $n: u32 = 8;
                $body
            }
            Size::Word => {
                const $n: u32 = 16;
                $body
            }
            Size::Dword => {
                const $n: u32 = 32;
                $body
            }
        }
    };
}

impl Cpu {
    /// LODS: the element at seg:SI (ESI) into the accumulator, SI stepped
    /// by DF, as `string_once` does it. (Out of line: inlined, it moved
    /// the code of the whole run loop, 0.5% more host instructions on
    /// calls and mem.)
    #[inline(never)]
    fn f_lods<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let n = f.size.bits() / 8;
        let si = if f.a32 {
            self.regs.gpr[6]
        } else {
            self.regs.get16(6) as u32
        };
        let v = self.read_mem(bus, f.seg, si, f.size).ok()?;
        self.put_reg(0, f.size, v);
        let next = if self.flag(DF) {
            si.wrapping_sub(n)
        } else {
            si.wrapping_add(n)
        };
        if f.a32 {
            self.regs.gpr[6] = next;
        } else {
            self.regs.put16(6, next as u16);
        }
        Some(())
    }

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
    fn fast_kind<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<bool> {
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
            Kind::XchgRR => by_size!(f.size, N => {
                let a = self.rget::<N>(f.r);
                let b = self.rget::<N>(f.s);
                self.rput::<N>(f.r, b);
                self.rput::<N>(f.s, a);
            }),
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
            Kind::Imul3R | Kind::Imul3M => {
                let src = if f.kind == Kind::Imul3R {
                    self.get_reg(f.s, f.size)
                } else {
                    let off = self.ea(f);
                    self.read_mem(bus, f.seg, off, f.size).ok()?
                };
                let other = if f.op == Op::Imul {
                    self.get_reg(f.r, f.size)
                } else {
                    f.imm
                };
                let (lo, _) = self.multiply(src, other, f.size, true, false);
                self.put_reg(f.r, f.size, lo);
            }
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

    /// Jcc: whether the jump was taken.
    #[inline(always)]
    fn f_jcc(&mut self, f: &Fast) -> bool {
        let taken = condition(self.regs.flags, f.r);
        if taken {
            self.regs.ip = self.regs.ip.wrapping_add(f.imm) & 0xFFFF;
        }
        taken
    }

    /// CALL near, 16-bit.
    #[inline(always)]
    fn f_call<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let ip = self.regs.ip;
        self.push_frame(bus, Size::Word, (ip as u16).to_le_bytes())?;
        self.regs.ip = ip.wrapping_add(f.imm) & 0xFFFF;
        Some(())
    }

    /// RET / RET imm16 near, 16-bit.
    #[inline(always)]
    fn f_ret<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let ip = u16::from_le_bytes(self.pop_bytes::<2, B>(bus, Size::Word)?) as u32;
        let sp = self.regs.get16(4).wrapping_add(f.imm as u16);
        self.regs.put16(4, sp);
        self.regs.ip = ip;
        Some(())
    }

    /// PUSH r16/r32.
    #[inline(always)]
    fn f_push_r<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
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
    fn f_pop_r<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        if f.size == Size::Word {
            let v = u16::from_le_bytes(self.pop_bytes::<2, B>(bus, Size::Word)?);
            self.regs.put16(f.r, v);
        } else {
            let v = u32::from_le_bytes(self.pop_bytes::<4, B>(bus, Size::Dword)?);
            self.regs.gpr[(f.r & 7) as usize] = v;
        }
        Some(())
    }

    /// BT, BTS, BTR, BTC of a register or (by imm) memory, as the generic
    /// `bit_test`: CF the bit, then the bit set, cleared or flipped; the
    /// memory operand written (and so checked) before CF changes.
    #[inline(always)]
    fn f_bt<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
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

    /// MOVZX and MOVSX (as the generic `mov_extend`): the source read
    /// (and checked) before the register is written.
    #[inline(always)]
    fn f_movx<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let src = if f.imm == 1 { Size::Byte } else { Size::Word };
        let v = if f.kind == Kind::MovxR {
            self.get_reg(f.s, src)
        } else {
            let off = self.ea(f);
            self.read_mem(bus, f.seg, off, src).ok()?
        };
        let v = if f.op == Op::Movsx && v & src.sign() != 0 {
            v | !src.mask()
        } else {
            v
        };
        self.put_reg(f.r, f.size, v);
        Some(())
    }

    /// The rest: PUSH/POP of immediates, segments and flags, the flag
    /// instructions, CBW/CWD, LODS.
    #[inline(always)]
    fn fast_control<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<bool> {
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
                    self.regs.gpr[0] = self.regs.get16(0) as i16 as i32 as u32;
                } else {
                    let al = self.regs.get8(0) as i8 as i16 as u16;
                    self.regs.put16(0, al);
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

    /// An `N`-bit register by its ModR/M number.
    #[inline(always)]
    fn rget<const N: u32>(&self, r: u8) -> u32 {
        match N {
            8 => self.regs.get8(r) as u32,
            16 => self.regs.get16(r) as u32,
            _ => self.regs.gpr[(r & 7) as usize],
        }
    }

    /// Sets an `N`-bit register by its ModR/M number.
    #[inline(always)]
    fn rput<const N: u32>(&mut self, r: u8, v: u32) {
        match N {
            8 => self.regs.put8(r, v as u8),
            16 => self.regs.put16(r, v as u16),
            _ => self.regs.gpr[(r & 7) as usize] = v,
        }
    }

    /// Replaces the status flags with `st`.
    #[inline(always)]
    fn set_status(&mut self, st: u32) {
        self.regs.flags = (self.regs.flags & !STATUS) | st;
    }

    /// The offset of a memory operand (as [`Cpu::effective_address`]).
    #[inline(always)]
    fn ea(&self, f: &Fast) -> u32 {
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
    fn ea16(&self, f: &Fast) -> u32 {
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

    #[inline(always)]
    fn f_alu_rr<const N: u32>(&mut self, f: &Fast) {
        let a = self.rget::<N>(f.r);
        let b = self.rget::<N>(f.s);
        self.f_alu_store::<N>(f, a, b);
    }

    #[inline(always)]
    fn f_alu_ri<const N: u32>(&mut self, f: &Fast) {
        let a = self.rget::<N>(f.r);
        self.f_alu_store::<N>(f, a, f.imm);
    }

    /// The ALU operation on `a` and `b` into register `r` (unless CMP or
    /// TEST) and the flags.
    #[inline(always)]
    fn f_alu_store<const N: u32>(&mut self, f: &Fast, a: u32, b: u32) {
        let (r, st) = alu_n::<N>(f.op, a, b, self.regs.flags & CF);
        if !matches!(f.op, Op::Cmp | Op::Test) {
            self.rput::<N>(f.r, r);
        }
        self.set_status(st);
    }

    /// ALU reg, memory.
    #[inline(always)]
    fn f_alu_rm<const N: u32, B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let off = self.ea(f);
        let b = self.read_mem(bus, f.seg, off, size::<N>()).ok()?;
        let a = self.rget::<N>(f.r);
        self.f_alu_store::<N>(f, a, b);
        Some(())
    }

    /// ALU memory, reg or imm: the read checks the limit (a decline
    /// changes nothing); the store to the same operand then passes it.
    #[inline(always)]
    fn f_alu_m<const N: u32, B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let off = self.ea(f);
        let a = self.read_mem(bus, f.seg, off, size::<N>()).ok()?;
        let b = if f.kind == Kind::AluMI {
            f.imm
        } else {
            self.rget::<N>(f.r)
        };
        let (r, st) = alu_n::<N>(f.op, a, b, self.regs.flags & CF);
        if !matches!(f.op, Op::Cmp | Op::Test) {
            self.write_mem(bus, f.seg, off, size::<N>(), r).ok()?;
        }
        self.set_status(st);
        Some(())
    }

    /// INC, DEC (CF kept), NOT (no flags) and NEG of a register.
    #[inline(always)]
    fn f_unary<const N: u32>(&mut self, f: &Fast) {
        let a = self.rget::<N>(f.r);
        let (r, st, keep) = match f.kind {
            Kind::IncR => {
                let (r, st) = add_n::<N>(a, 1, 0);
                (r, st, CF)
            }
            Kind::DecR => {
                let (r, st) = sub_n::<N>(a, 1, 0);
                (r, st, CF)
            }
            Kind::NotR => (!a & mask::<N>(), 0, STATUS),
            _ => {
                let (r, st) = sub_n::<N>(0, a, 0);
                (r, st, 0)
            }
        };
        self.rput::<N>(f.r, r);
        let fl = self.regs.flags;
        self.regs.flags = (fl & (!STATUS | keep)) | (st & !keep);
    }

    /// A shift or rotate of a register (as the generic shift group: the
    /// count masked by the model, its per-bit clocks, nothing written for
    /// a count of 0).
    #[inline(always)]
    fn f_shift(&mut self, f: &Fast) {
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

    /// INC, DEC, NOT, NEG of memory: the read checks the limit (a
    /// decline changes nothing); the store to the same operand then
    /// passes it.
    #[inline(always)]
    fn f_unary_m<const N: u32, B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let off = self.ea(f);
        let a = self.read_mem(bus, f.seg, off, size::<N>()).ok()?;
        let (r, st, keep) = match f.op {
            Op::Inc => {
                let (r, st) = add_n::<N>(a, 1, 0);
                (r, st, CF)
            }
            Op::Dec => {
                let (r, st) = sub_n::<N>(a, 1, 0);
                (r, st, CF)
            }
            Op::Not => (!a & mask::<N>(), 0, STATUS),
            _ => {
                let (r, st) = sub_n::<N>(0, a, 0);
                (r, st, 0)
            }
        };
        self.write_mem(bus, f.seg, off, size::<N>(), r).ok()?;
        let fl = self.regs.flags;
        self.regs.flags = (fl & (!STATUS | keep)) | (st & !keep);
        Some(())
    }

    /// A shift or rotate of memory (as [`Cpu::f_shift`]; the operand is
    /// read, and so checked, whatever the count).
    #[inline(always)]
    fn f_shift_m<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
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

    /// MUL, IMUL, DIV, IDIV of the accumulator by `src` (as the generic
    /// handlers without a REP prefix and outside exact mode): a divide
    /// error declines, before anything changed.
    #[inline(always)]
    fn f_muldiv(&mut self, f: &Fast, src: u32) -> Option<()> {
        let sz = f.size;
        if matches!(f.op, Op::Mul | Op::Imul) {
            let acc = self.get_reg(0, sz);
            let (lo, hi) = self.multiply(acc, src, sz, f.op == Op::Imul, false);
            self.put_acc_pair(sz, lo, hi);
            return Some(());
        }
        let (lo, hi) = match sz {
            Size::Byte => (self.regs.get8(0) as u32, self.regs.get8(4) as u32),
            _ => (self.get_reg(0, sz), self.get_reg(2, sz)),
        };
        let (q, r) = self.divide(lo, hi, src, sz, f.op == Op::Idiv, false).ok()?;
        self.put_acc_pair(sz, q, r);
        Some(())
    }

    /// IRET, 16-bit: the three pops inside the limit or declined before
    /// the first.
    #[inline(always)]
    fn f_iret<B: Bus>(&mut self, bus: &mut B) -> Option<()> {
        if self.regs.get16(4) > 0xFFFA {
            return None;
        }
        let [i0, i1, c0, c1, f0, f1] = self.pop_bytes::<6, B>(bus, Size::Word)?;
        let (ip, cs) = (u16::from_le_bytes([i0, i1]), u16::from_le_bytes([c0, c1]));
        let fl = u16::from_le_bytes([f0, f1]) as u32;
        self.regs.ip = ip as u32;
        self.regs.seg[SegReg::CS as usize] = cs;
        self.regs.flags = self.normalize_flags((self.regs.flags & 0xFFFF_0000) | fl);
        Some(())
    }

    /// CALL and JMP, far, direct or through memory, 16-bit: the pointer
    /// and the two pushes inside the limit (and clear of the 8086's
    /// wrap), or declined before anything.
    #[inline(always)]
    fn f_far<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let call = matches!(f.kind, Kind::CallFar | Kind::CallFarM);
        if call && self.regs.get16(4) < 4 {
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
            let [c0, c1] = self.regs.seg[SegReg::CS as usize].to_le_bytes();
            let [i0, i1] = (self.regs.ip as u16).to_le_bytes();
            self.push_frame(bus, Size::Word, [i0, i1, c0, c1])?;
        }
        self.regs.ip = ip;
        self.regs.seg[SegReg::CS as usize] = cs;
        Some(())
    }

    /// RETF / RETF imm16, 16-bit: both pops inside the limit or declined
    /// before the first.
    #[inline(always)]
    fn f_retf<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        if self.regs.get16(4) > 0xFFFC {
            return None;
        }
        let [i0, i1, c0, c1] = self.pop_bytes::<4, B>(bus, Size::Word)?;
        let sp = self.regs.get16(4).wrapping_add(f.imm as u16);
        self.regs.put16(4, sp);
        self.regs.ip = u16::from_le_bytes([i0, i1]) as u32;
        self.regs.seg[SegReg::CS as usize] = u16::from_le_bytes([c0, c1]);
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
    fn pop_bytes<const N: usize, B: Bus>(&mut self, bus: &mut B, unit: Size) -> Option<[u8; N]> {
        let sp = self.regs.get16(4);
        let k = unit.bits() as usize / 8;
        if let Some(a) = self.direct_addr(SegReg::SS, sp as u32, N as u32) {
            if let Some(&b) = bus.ram_mut(a, N as u32).and_then(|m| m.first_chunk::<N>()) {
                bus.mem_direct_done(N as u64);
                if sp & 1 != 0 {
                    self.step_cycles += BUS_CYCLE * (N / k) as u32;
                }
                self.regs.put16(4, sp.wrapping_add(N as u16));
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
        let sp = self.regs.get16(4).wrapping_sub(N as u16);
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
        self.regs.put16(4, sp);
        true
    }

    /// Pushes the `N` bytes `b` (in memory order: the last unit pushed
    /// first), `unit` (a word or a doubleword) at a time, as [`Cpu::push`]
    /// would: at once through [`Cpu::push_direct`] with the clocks of the
    /// unit pushes (a unit at an odd SP costs another bus cycle), else
    /// unit by unit through `Cpu::push`. `None` when a push faulted.
    #[inline(always)]
    fn push_frame<const N: usize, B: Bus>(
        &mut self,
        bus: &mut B,
        unit: Size,
        b: [u8; N],
    ) -> Option<()> {
        let k = unit.bits() as usize / 8;
        if self.push_direct(bus, b) {
            // (SP moved by an even count: its parity is the units'.)
            if self.regs.get16(4) & 1 != 0 {
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

    /// LOOP, LOOPE, LOOPNE (CX decremented first) and JCXZ, 16-bit:
    /// whether the jump was taken.
    #[inline(always)]
    fn f_loop(&mut self, f: &Fast) -> bool {
        let cx = self.regs.get16(1);
        let taken = if f.op == Op::Jcxz {
            cx == 0
        } else {
            let cx = cx.wrapping_sub(1);
            self.regs.put16(1, cx);
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
}

#[cfg(test)]
mod tests {
    use crate::bus::Bus;
    use crate::{Cpu, CpuModel, FlatBus, Hooks, SegReg, StepEvent};

    /// xorshift64: a fixed, dependency-free stream of test values.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn byte(&mut self) -> u8 {
            self.next() as u8
        }
        fn pick<T: Copy>(&mut self, v: &[T]) -> T {
            v[self.next() as usize % v.len()]
        }
    }

    /// Opcodes of the forms the fast path runs (and neighbours it leaves
    /// to the generic path: the groups' other members, far and 32-bit
    /// transfers, memory forms of INC/DEC/shifts).
    fn opcodes() -> Vec<u8> {
        let mut v: Vec<u8> = (0x00..=0x3F).filter(|b| b & 7 < 6).collect();
        v.extend(0x40..=0x5F);
        v.extend(0x70..=0x7F);
        v.extend(0x80..=0x8B);
        v.extend([0x8D, 0x98, 0x99, 0x9F, 0xC2, 0xC3, 0xC6, 0xC7, 0xE8, 0xE9]);
        v.extend(0x90..=0x97);
        v.extend(0xA0..=0xA3);
        v.extend(0xB0..=0xBF);
        v.extend([0xC0, 0xC1, 0xD0, 0xD1, 0xD2, 0xD3, 0xE0, 0xE1, 0xE2, 0xE3]);
        v.extend([0xEB, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFC, 0xFD, 0xFE, 0xFF]);
        v.extend([
            0x06, 0x07, 0x0E, 0x16, 0x17, 0x1E, 0x1F, 0x8C, 0x8E, 0x8C, 0x8E,
        ]);
        v.extend([
            0x68, 0x6A, 0xCA, 0xCB, 0xCA, 0xCB, 0x0F, 0xCF, 0xCF, 0x9A, 0xEA, 0x0F, 0x0F,
        ]);
        // LODS, and its neighbours that stay generic.
        v.extend([0xAC, 0xAD, 0xAC, 0xAD, 0xA4, 0xA7, 0xAE]);
        v.extend([0x9C, 0x9D, 0x9C, 0x9D, 0xCC, 0xCD, 0xCD, 0xCE, 0x69, 0x6B]);
        v
    }

    /// A random machine state with a random instruction at CS:IP.
    fn setup(rng: &mut Rng, model: CpuModel, ops: &[u8]) -> (Cpu, FlatBus) {
        let mut bus = FlatBus::new(0x10000);
        for b in bus.mem.iter_mut() {
            *b = rng.byte();
        }
        let mut cpu = Cpu::new(model);
        let wide = model.caps().has_32bit_operands;
        // Half the time small 32-bit registers, so that 32-bit addressing
        // reaches memory inside the 64 KiB limit.
        let small = rng.byte() < 128;
        for r in 0..8 {
            let v = rng.next() as u32;
            cpu.regs.gpr[r] = if !wide {
                v & 0xFFFF
            } else if small {
                v & 0x3FFF
            } else {
                v
            };
        }
        for s in 0..6 {
            cpu.regs.seg[s] = rng.next() as u16;
        }
        // Sometimes a stack at the limit.
        if rng.byte() < 64 {
            cpu.regs.gpr[4] = rng.pick(&[0, 1, 2, 0xFFFE, 0xFFFF]);
        }
        // Sometimes an instruction that runs to the 64 KiB limit.
        cpu.regs.ip = if rng.byte() < 16 {
            0xFFF0 + (rng.byte() as u32 & 0xF)
        } else {
            rng.next() as u32 & 0xFFFF
        };
        let flags = rng.next() as u32 & !crate::flags::TF;
        cpu.regs.flags = cpu.normalize_flags(flags);
        let mut code = Vec::new();
        let prefixes = [0x66, 0x67, 0x26, 0x2E, 0x36, 0x3E, 0x64, 0x65, 0xF3, 0xF0];
        while rng.byte() < 48 {
            code.push(rng.pick(&prefixes));
        }
        let op = rng.pick(ops);
        code.push(op);
        if op == 0x0F {
            // PUSH/POP FS/GS, or whatever else the two-byte map holds.
            let any = rng.byte();
            let setcc = 0x90 | (rng.byte() & 0x0F);
            code.push(rng.pick(&[
                0xA0, 0xA1, 0xA8, 0xA9, 0xB6, 0xB7, 0xBE, 0xBF, setcc, 0xAF, 0xA3, 0xAB, 0xB3,
                0xBB, 0xBA, 0xBA, any,
            ]));
        }
        code.extend((0..12).map(|_| rng.byte()));
        let at = cpu.linear(cpu.regs.sreg(SegReg::CS), cpu.regs.ip as u16);
        for (i, b) in code.iter().enumerate() {
            bus.mem[(at as usize + i) & 0xFFFF] = *b;
        }
        (cpu, bus)
    }

    /// Steps on the plain path ([`Cpu::step_plain`], which reuses decoded
    /// instructions whose page the CPU has not written since their bytes
    /// were last compared) end as generic steps do, when the instructions
    /// write their own code and the next: half the time the data, extra
    /// and stack segments and the pointer registers point at the code.
    /// Each case runs three steps, then three more from its first
    /// instruction again over the memory as they left it. (Checked to fail
    /// when a write path does not count its page.)
    #[test]
    fn plain_steps_see_their_own_writes() {
        let ops = opcodes();
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for model in [
            CpuModel::I8086,
            CpuModel::I286,
            CpuModel::I386,
            CpuModel::I486,
        ] {
            for n in 0..2_000 {
                let (mut fast, small) = setup(&mut rng, model, &ops);
                // 1 MiB, so that no two addresses below it alias (the
                // page stamps' assumption), holding the 64 KiB 16 times.
                let mut bus_f = FlatBus::new(0x10_0000);
                for (i, b) in bus_f.mem.iter_mut().enumerate() {
                    *b = small.mem[i & 0xFFFF];
                }
                let (cs, ip) = (fast.regs.sreg(SegReg::CS), fast.regs.ip);
                if rng.byte() < 128 {
                    for s in [SegReg::DS, SegReg::ES, SegReg::SS] {
                        fast.regs.set_sreg(s, cs);
                    }
                    for r in [3, 5, 6, 7] {
                        fast.regs.gpr[r] = (ip + rng.byte() as u32 % 24) & 0xFFFF;
                    }
                    fast.regs.gpr[4] = (ip + 6 + rng.byte() as u32 % 24) & 0xFFFF;
                }
                fast.stop_on_fault = n % 2 == 0;
                let mut slow = fast.clone();
                let mut bus_s = bus_f.clone();
                slow.hooks = Some(Box::new(Hooks::new()));
                for step in 0..6 {
                    if step == 3 {
                        for c in [&mut fast, &mut slow] {
                            c.regs.set_sreg(SegReg::CS, cs);
                            c.regs.ip = ip;
                        }
                    }
                    let a = if fast.plain_path() {
                        fast.step_plain(&mut bus_f)
                    } else {
                        fast.step(&mut bus_f).event
                    };
                    let b = slow.step(&mut bus_s).event;
                    let what = format!("{model:?} case {n} step {step}");
                    assert_eq!(a, b, "{what}: event");
                    assert_eq!(fast.regs, slow.regs, "{what}: registers");
                    assert_eq!(fast.cycles, slow.cycles, "{what}: clocks");
                }
                assert!(bus_f.mem == bus_s.mem, "{model:?} case {n}: memory");
            }
        }
    }

    /// The fast path's condition evaluation agrees with the generic one
    /// for every condition and every combination of the flags it reads.
    #[test]
    fn conditions_match() {
        let mut cpu = Cpu::new(CpuModel::I386);
        for bits in 0..32u32 {
            let flags = [0, 2, 6, 7, 11]
                .iter()
                .enumerate()
                .fold(2, |f, (i, b)| f | ((bits >> i) & 1) << b);
            cpu.regs.flags = flags;
            for cc in 0..16 {
                assert_eq!(
                    super::condition(flags, cc),
                    cpu.condition(cc),
                    "{flags:X} {cc}"
                );
            }
        }
    }

    /// Every step on the fast path (a plain CPU on a bus with a code
    /// window) ends as on the generic path (the same CPU with empty
    /// hooks, which fetches byte by byte and runs `execute`): registers,
    /// memory, clocks and the step's event. (Checked to fail when a fast
    /// handler is broken.)
    #[test]
    fn the_fast_path_matches_the_generic_path() {
        let ops = opcodes();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for model in [
            CpuModel::I8086,
            CpuModel::I286,
            CpuModel::I386,
            CpuModel::I486,
        ] {
            for n in 0..6_000 {
                let (mut fast, mut bus_f) = setup(&mut rng, model, &ops);
                fast.stop_on_fault = n % 2 == 0;
                let mut slow = fast.clone();
                let mut bus_s = bus_f.clone();
                slow.hooks = Some(Box::new(Hooks::new()));
                for step in 0..3 {
                    let a = fast.step(&mut bus_f);
                    let b = slow.step(&mut bus_s);
                    let what = format!("{model:?} case {n} step {step}");
                    assert_eq!(a, b, "{what}: step");
                    assert_eq!(fast.regs, slow.regs, "{what}: registers");
                    assert_eq!(fast.cycles, slow.cycles, "{what}: clocks");
                    assert!(bus_f.mem == bus_s.mem, "{what}: memory");
                }
            }
        }
    }

    /// A flat bus that counts the memory bytes it is told the time of
    /// (`Bus::mem_wait_states` per byte on the byte path, the direct
    /// accesses' and `Bus::mem_direct_done`'s bytes), as the PC's bus
    /// moves its clock by them.
    #[derive(Clone)]
    struct Timed(FlatBus, u64);

    impl Bus for Timed {
        fn mem_read8(&mut self, addr: u32) -> u8 {
            self.0.mem_read8(addr)
        }
        fn mem_write8(&mut self, addr: u32, value: u8) {
            self.0.mem_write8(addr, value)
        }
        fn code_window(&self, addr: u32) -> Option<&[u8]> {
            self.0.code_window(addr)
        }
        fn mem_read_direct(&mut self, addr: u32, n: u32) -> Option<u32> {
            let v = self.0.mem_read_direct(addr, n)?;
            self.1 += n as u64;
            Some(v)
        }
        fn mem_write_direct(&mut self, addr: u32, n: u32, v: u32) -> bool {
            let done = self.0.mem_write_direct(addr, n, v);
            self.1 += done as u64 * n as u64;
            done
        }
        fn data_window(&self, addr: u32) -> Option<&[u8]> {
            self.0.data_window(addr)
        }
        fn ram_mut(&mut self, addr: u32, n: u32) -> Option<&mut [u8]> {
            self.0.ram_mut(addr, n)
        }
        fn mem_direct_done(&mut self, bytes: u64) {
            self.1 += bytes;
        }
        fn mem_wait_states(&mut self, _addr: u32) -> u32 {
            self.1 += 1;
            0
        }
        fn io_read8(&mut self, port: u16) -> u8 {
            self.0.io_read8(port)
        }
        fn io_write8(&mut self, port: u16, value: u8) {
            self.0.io_write8(port, value)
        }
    }

    /// The stack and transfer handlers (PUSH, POP, near and far CALL,
    /// RET, RETF, IRET; their frames in one piece through
    /// `Bus::ram_mut` when they can) account the same
    /// memory bytes as the generic path, which goes byte by byte, and end
    /// as it does. (Steps that enter an interrupt or exception are left
    /// out: such a frame has no bus time on the hooked path.) (Checked to fail when `Cpu::push_direct` or
    /// `Cpu::pop_bytes` leaves out `Bus::mem_direct_done`, or
    /// `Cpu::push_frame` the odd-SP bus cycles.)
    #[test]
    fn stack_frames_take_the_generic_bus_time() {
        let ops = [
            0x50, 0x53, 0x54, 0x5C, 0x58, 0x5B, 0xE8, 0xC3, 0xC2, 0xCA, 0xCB, 0xCF, 0x9A, 0xFF,
        ];
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut direct = 0;
        for model in [CpuModel::I8086, CpuModel::I286, CpuModel::I386] {
            for n in 0..4_000 {
                let (mut fast, bus) = setup(&mut rng, model, &ops);
                let mut bus_f = Timed(bus, 0);
                let mut slow = fast.clone();
                let mut bus_s = bus_f.clone();
                slow.hooks = Some(Box::new(Hooks::new()));
                for step in 0..3 {
                    let sp = fast.regs.get16(4);
                    let a = fast.step(&mut bus_f);
                    let b = slow.step(&mut bus_s);
                    let what = format!("{model:?} case {n} step {step}");
                    assert_eq!(a, b, "{what}: step");
                    assert_eq!(fast.regs, slow.regs, "{what}: registers");
                    assert_eq!(fast.cycles, slow.cycles, "{what}: clocks");
                    if a.event == StepEvent::Executed {
                        assert_eq!(bus_f.1, bus_s.1, "{what}: bus bytes");
                    }
                    (bus_f.1, bus_s.1) = (0, 0);
                    assert!(bus_f.0.mem == bus_s.0.mem, "{what}: memory");
                    direct += (sp != fast.regs.get16(4)) as u32;
                }
            }
        }
        assert!(direct > 10_000, "{direct} steps moved SP");
    }
}
