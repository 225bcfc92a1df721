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
//!
//! One file per concern: [`classify`] (the instruction to a [`Fast`]),
//! `dispatch` (the jump on [`Kind`]), `alu` (the flag arithmetic in closed
//! form), `operands` (registers and effective addresses), and the handlers
//! by family as in the 80386 PRM's chapter 3: `arith` (binary arithmetic),
//! `logic` (shifts, rotates, bit tests), `transfer` (data movement),
//! `stack`, `control` (transfers of control) and `string` (LODS).
//!
//! This file holds only the classification's types: the decode cache keeps
//! a [`Fast`] in every slot, so it must not reach the handlers (which
//! depend on the CPU, which owns the cache).

use crate::regs::SegReg;
use crate::size::Size;
use crate::table::Op;

/// Runs `$body` with the const `$n` bound to the bits of `$size`: one
/// monomorphised copy of a handler per operand size.
macro_rules! by_size {
    ($size:expr, $n:ident => $body:expr) => {
        match $size {
            $crate::size::Size::Byte => {
                const $n: u32 = 8;
                $body
            }
            $crate::size::Size::Word => {
                const $n: u32 = 16;
                $body
            }
            $crate::size::Size::Dword => {
                const $n: u32 = 32;
                $body
            }
        }
    };
}

mod alu;
mod arith;
mod classify;
mod control;
mod dispatch;
mod logic;
mod operands;
mod stack;
mod string;
#[cfg(test)]
mod tests;
mod transfer;

pub(crate) use classify::classify;

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
