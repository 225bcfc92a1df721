//! Clock counts per instruction, per model: the documented 8086 timings
//! (Intel 8086 Family User's Manual, table 2-21) with the effective-address
//! times of table 2-20; the 80286 real-mode timings (80286 Programmer's
//! Reference Manual, appendix B); the 80386 real-mode timings (80386
//! Programmer's Reference Manual, section 17.2.2.3). These are the
//! register-level timings; the cycle-exact bus interface unit of the 8086
//! replaces them with T-state accounting.
//!
//! Where a manual gives a range (MUL, DIV, the 386's early-out multiply), the
//! value here is the middle of the range. Transfers of control on the 286
//! and 386 cost "+ m", the number of components of the next instruction;
//! tandem counts m = 1.

use crate::decode::{Instruction, ModRm};
use crate::model::CpuModel;
use crate::table::{Form, Op};

/// Clocks added to an interrupt entry by an exception (divide error) beyond
/// the INT sequence it shares.
pub const EXCEPTION_ENTRY: u32 = 51;
/// Clocks of a maskable interrupt's INTA cycles and entry.
pub const INTR_ENTRY: u32 = 61;
/// Clocks of an NMI or single-step entry.
pub const NMI_ENTRY: u32 = 50;

/// Effective-address clocks: the 8086's table 2-20 (2 more with a segment
/// override); the 286 adds 1 for base + index + displacement; the 386 adds 1
/// for an index register (80386 PRM 17.2.2.3).
pub fn ea_clocks(model: CpuModel, m: ModRm, seg_override: bool) -> u32 {
    match model {
        CpuModel::I8086 => ea_clocks_8086(m, seg_override),
        CpuModel::I286 => (m.mode != 0 && m.rm < 4) as u32,
        // rm 0-3: base + index (16-bit); rm 4: a SIB byte (32-bit).
        CpuModel::I386 => (m.rm <= 4) as u32,
    }
}

fn ea_clocks_8086(m: ModRm, seg_override: bool) -> u32 {
    let base = match (m.mode, m.rm) {
        (0, 6) => 6,
        (0, 0) | (0, 3) => 7,
        (0, 1) | (0, 2) => 8,
        (0, _) => 5,
        (_, 0) | (_, 3) => 11,
        (_, 1) | (_, 2) => 12,
        (_, _) => 9,
    };
    base + if seg_override { 2 } else { 0 }
}

/// Documented clocks of `ins` on `model`, excluding EA time and
/// repetition. `mem` says whether the r/m operand is in memory; `taken`
/// whether a conditional transfer was taken.
pub fn clocks(model: CpuModel, ins: &Instruction, mem: bool, taken: bool) -> u32 {
    match model {
        CpuModel::I8086 => clocks_8086(ins, mem, taken),
        CpuModel::I286 => clocks_286(ins, mem, taken),
        CpuModel::I386 => clocks_386(ins, mem, taken),
    }
}

/// Register form, memory form.
fn rm(mem: bool, r: u32, m: u32) -> u32 {
    if mem {
        m
    } else {
        r
    }
}

fn clocks_286(ins: &Instruction, mem: bool, taken: bool) -> u32 {
    const M: u32 = 1;
    let t = |a, b| if taken { a } else { b };
    match ins.op {
        Op::Add | Op::Or | Op::Adc | Op::Sbb | Op::And | Op::Sub | Op::Xor => match ins.form {
            Form::AccI => 3,
            Form::EI | Form::EIbs => rm(mem, 3, 7),
            _ => rm(mem, 2, 7),
        },
        Op::Cmp | Op::Test => match ins.form {
            Form::AccI => 3,
            Form::EI | Form::EIbs => rm(mem, 3, 6),
            _ => rm(mem, 2, 6),
        },
        Op::Mov => match ins.form {
            Form::GE | Form::SE => rm(mem, 2, 5),
            Form::AccMoffs => 5,
            Form::MoffsAcc => 3,
            _ => rm(mem, 2, 3),
        },
        Op::Movzx | Op::Movsx | Op::Setcc | Op::Bsf | Op::Bsr => rm(mem, 3, 6),
        Op::PushSeg | Op::Pushf => 3,
        Op::PopSeg | Op::Popf => 5,
        Op::Push => rm(mem, 3, 5),
        Op::Pop => 5,
        Op::Pusha => 17,
        Op::Popa => 19,
        Op::Xchg => rm(mem, 3, 5),
        Op::Inc | Op::Dec | Op::Not | Op::Neg => rm(mem, 2, 7),
        Op::Daa | Op::Das | Op::Aaa | Op::Aas => 3,
        Op::Aam => 16,
        Op::Aad => 14,
        Op::Cbw | Op::Cwd => 2,
        Op::Mul | Op::Imul => match (ins.w, mem) {
            (false, false) => 13,
            (false, true) => 16,
            (true, false) => 21,
            (true, true) => 24,
        },
        Op::Imul3 => rm(mem, 21, 24),
        Op::Div => match (ins.w, mem) {
            (false, false) => 14,
            (false, true) => 17,
            (true, false) => 22,
            (true, true) => 25,
        },
        Op::Idiv => match (ins.w, mem) {
            (false, false) => 17,
            (false, true) => 20,
            (true, false) => 25,
            (true, true) => 28,
        },
        Op::Rol | Op::Ror | Op::Rcl | Op::Rcr | Op::Shl | Op::Shr | Op::Sar | Op::Setmo => {
            match ins.form {
                Form::E1 => rm(mem, 2, 7),
                _ => rm(mem, 5, 8),
            }
        }
        Op::Shld | Op::Shrd | Op::Bt | Op::Bts | Op::Btr | Op::Btc => rm(mem, 3, 7),
        Op::Lea => 3,
        Op::Les | Op::Lds | Op::Lss | Op::Lfs | Op::Lgs => 7,
        Op::Lahf | Op::Sahf => 2,
        Op::Xlat => 5,
        Op::In => 5,
        Op::Out => 3,
        Op::Movs | Op::Lods | Op::Ins | Op::Outs => 5,
        Op::Cmps => 8,
        Op::Scas => 7,
        Op::Stos => 3,
        Op::Call => 7 + M,
        Op::CallFar => 13 + M,
        Op::CallInd => rm(mem, 7, 11) + M,
        Op::CallFarInd => 16 + M,
        Op::Jmp => 7 + M,
        Op::JmpFar => 11 + M,
        Op::JmpInd => rm(mem, 7, 11) + M,
        Op::JmpFarInd => 15 + M,
        Op::Ret => 11 + M,
        Op::Retf => 15 + M,
        Op::Jcc => t(7 + M, 3),
        Op::Loop | Op::Loope | Op::Loopne | Op::Jcxz => t(8 + M, 4),
        Op::Int | Op::Int3 | Op::Icebp => 23 + M,
        Op::Into => t(24 + M, 3),
        Op::Iret => 17 + M,
        Op::Enter => 11,
        Op::Leave => 5,
        Op::Bound => 13,
        Op::Hlt | Op::Clc | Op::Stc | Op::Cli | Op::Sti | Op::Cld | Op::Std | Op::Cmc => 2,
        Op::Wait => 3,
        Op::Esc => 9,
        Op::Salc => 2,
        Op::Smsw => rm(mem, 2, 3),
        Op::Lmsw => rm(mem, 3, 6),
        Op::Sgdt | Op::Sidt => 11,
        Op::Lgdt | Op::Lidt => 11,
        Op::Clts => 2,
        Op::MovFromCr | Op::MovToCr => 6,
        Op::Invalid | Op::Prefix => 2,
    }
}

fn clocks_386(ins: &Instruction, mem: bool, taken: bool) -> u32 {
    const M: u32 = 1;
    let t = |a, b| if taken { a } else { b };
    let op32 = ins.opsize32;
    match ins.op {
        Op::Add | Op::Or | Op::Adc | Op::Sbb | Op::And | Op::Sub | Op::Xor => match ins.form {
            Form::AccI => 2,
            Form::GE => rm(mem, 2, 6),
            _ => rm(mem, 2, 7),
        },
        Op::Cmp | Op::Test => match ins.form {
            Form::AccI => 2,
            Form::GE => rm(mem, 2, 6),
            _ => rm(mem, 2, 5),
        },
        Op::Mov => match ins.form {
            Form::GE | Form::AccMoffs => rm(mem, 2, 4),
            Form::SE => rm(mem, 2, 5),
            _ => 2,
        },
        Op::Movzx | Op::Movsx => rm(mem, 3, 6),
        Op::Setcc => rm(mem, 4, 5),
        Op::Bsf | Op::Bsr => rm(mem, 10, 13) + 16,
        Op::PushSeg => 2,
        Op::Pushf => 4,
        Op::PopSeg => 7,
        Op::Popf => 5,
        Op::Push => rm(mem, 2, 5),
        Op::Pop => rm(mem, 4, 5),
        Op::Pusha => 18,
        Op::Popa => 24,
        Op::Xchg => rm(mem, 3, 5),
        Op::Inc | Op::Dec | Op::Not | Op::Neg => rm(mem, 2, 6),
        Op::Daa | Op::Das | Op::Aaa | Op::Aas => 4,
        Op::Aam => 17,
        Op::Aad => 19,
        Op::Cbw => 3,
        Op::Cwd => 2,
        Op::Mul | Op::Imul | Op::Imul3 => {
            let r = match (ins.w, op32) {
                (false, _) => 12,
                (true, false) => 16,
                (true, true) => 24,
            };
            rm(mem, r, r + 3)
        }
        Op::Div => {
            let r = match (ins.w, op32) {
                (false, _) => 14,
                (true, false) => 22,
                (true, true) => 38,
            };
            rm(mem, r, r + 3)
        }
        Op::Idiv => {
            let r = match (ins.w, op32) {
                (false, _) => 19,
                (true, false) => 27,
                (true, true) => 43,
            };
            rm(mem, r, r + 3)
        }
        Op::Rcl | Op::Rcr => rm(mem, 9, 10),
        Op::Rol | Op::Ror | Op::Shl | Op::Shr | Op::Sar | Op::Setmo => rm(mem, 3, 7),
        Op::Shld | Op::Shrd => rm(mem, 3, 7),
        Op::Bt => match ins.form {
            Form::EIbu => rm(mem, 3, 6),
            _ => rm(mem, 3, 12),
        },
        Op::Bts | Op::Btr | Op::Btc => match ins.form {
            Form::EIbu => rm(mem, 6, 8),
            _ => rm(mem, 6, 13),
        },
        Op::Lea => 2,
        Op::Les | Op::Lds | Op::Lss | Op::Lfs | Op::Lgs => 7,
        Op::Lahf => 2,
        Op::Sahf => 3,
        Op::Xlat => 5,
        Op::In => match ins.form {
            Form::AccPort => 12,
            _ => 13,
        },
        Op::Out => match ins.form {
            Form::AccPort => 10,
            _ => 11,
        },
        Op::Movs | Op::Scas => 7,
        Op::Cmps => 10,
        Op::Lods => 5,
        Op::Stos => 4,
        Op::Ins => 15,
        Op::Outs => 14,
        Op::Call => 7 + M,
        Op::CallFar => 17 + M,
        Op::CallInd => rm(mem, 7, 10) + M,
        Op::CallFarInd => 22 + M,
        Op::Jmp => 7 + M,
        Op::JmpFar => 12 + M,
        Op::JmpInd => rm(mem, 7, 10) + M,
        Op::JmpFarInd => 17 + M,
        Op::Ret => 10 + M,
        Op::Retf => 18 + M,
        Op::Jcc => t(7 + M, 3),
        Op::Loop | Op::Loope | Op::Loopne => t(11 + M, 4),
        Op::Jcxz => t(9 + M, 5),
        Op::Int | Op::Icebp => 37,
        Op::Int3 => 33,
        Op::Into => t(35, 3),
        Op::Iret => 22,
        Op::Enter => 10,
        Op::Leave => 4,
        Op::Bound => 10,
        Op::Hlt => 5,
        Op::Cli | Op::Sti => 3,
        Op::Clc | Op::Stc | Op::Cld | Op::Std | Op::Cmc => 2,
        Op::Wait => 6,
        Op::Esc => 2,
        Op::Salc => 2,
        Op::Smsw => rm(mem, 10, 3),
        Op::Lmsw => rm(mem, 10, 13),
        Op::Sgdt | Op::Sidt => 9,
        Op::Lgdt | Op::Lidt => 11,
        Op::Clts => 5,
        Op::MovFromCr => 6,
        Op::MovToCr => 11,
        Op::Invalid | Op::Prefix => 2,
    }
}

fn clocks_8086(ins: &Instruction, mem: bool, taken: bool) -> u32 {
    let w = ins.w;
    match ins.op {
        Op::Add | Op::Or | Op::Adc | Op::Sbb | Op::And | Op::Sub | Op::Xor => match ins.form {
            Form::EG if mem => 16,
            Form::GE if mem => 9,
            Form::EG | Form::GE => 3,
            Form::AccI => 4,
            _ if mem => 17,
            _ => 4,
        },
        Op::Cmp => match ins.form {
            Form::EG | Form::GE if mem => 9,
            Form::EG | Form::GE => 3,
            Form::AccI => 4,
            _ if mem => 10,
            _ => 4,
        },
        Op::Test => match ins.form {
            Form::EG if mem => 9,
            Form::EG => 3,
            Form::AccI => 4,
            _ if mem => 11,
            _ => 5,
        },
        Op::Mov => match ins.form {
            Form::EG if mem => 9,
            Form::GE if mem => 8,
            Form::EG | Form::GE => 2,
            Form::ES if mem => 9,
            Form::SE if mem => 8,
            Form::ES | Form::SE => 2,
            Form::EI if mem => 10,
            Form::EI | Form::Reg8I | Form::Reg16I => 4,
            Form::AccMoffs | Form::MoffsAcc => 10,
            _ => 4,
        },
        Op::PushSeg => 10,
        Op::PopSeg => 8,
        Op::Push => match ins.form {
            Form::Reg => 11,
            _ if mem => 16,
            _ => 11,
        },
        Op::Pop => match ins.form {
            Form::Reg => 8,
            _ if mem => 17,
            _ => 8,
        },
        Op::Xchg => match ins.form {
            Form::AccReg => 3,
            _ if mem => 17,
            _ => 4,
        },
        Op::Inc | Op::Dec => match ins.form {
            Form::Reg => 2,
            _ if mem => 15,
            _ => 3,
        },
        Op::Not | Op::Neg => {
            if mem {
                16
            } else {
                3
            }
        }
        Op::Daa | Op::Das | Op::Aaa | Op::Aas => 4,
        Op::Aam => 83,
        Op::Aad => 60,
        Op::Cbw => 2,
        Op::Cwd => 5,
        Op::Mul => match (w, mem) {
            (false, false) => 73,
            (false, true) => 79,
            (true, false) => 125,
            (true, true) => 131,
        },
        Op::Imul => match (w, mem) {
            (false, false) => 89,
            (false, true) => 95,
            (true, false) => 141,
            (true, true) => 147,
        },
        Op::Div => match (w, mem) {
            (false, false) => 85,
            (false, true) => 91,
            (true, false) => 153,
            (true, true) => 159,
        },
        Op::Idiv => match (w, mem) {
            (false, false) => 106,
            (false, true) => 112,
            (true, false) => 174,
            (true, true) => 180,
        },
        Op::Rol | Op::Ror | Op::Rcl | Op::Rcr | Op::Shl | Op::Shr | Op::Sar | Op::Setmo => {
            match (ins.form, mem) {
                (Form::E1, false) => 2,
                (Form::E1, true) => 15,
                (_, false) => 8,
                (_, true) => 20,
            }
        }
        Op::Lea => 2,
        Op::Les | Op::Lds => 16,
        Op::Lahf | Op::Sahf => 4,
        Op::Pushf => 10,
        Op::Popf => 8,
        Op::Xlat => 11,
        Op::In | Op::Out => match ins.form {
            Form::AccPort => 10,
            _ => 8,
        },
        Op::Movs => 18,
        Op::Cmps => 22,
        Op::Scas => 15,
        Op::Lods => 12,
        Op::Stos => 11,
        Op::Call => 19,
        Op::CallFar => 28,
        Op::CallInd => {
            if mem {
                21
            } else {
                16
            }
        }
        Op::CallFarInd => 37,
        Op::Jmp | Op::JmpFar => 15,
        Op::JmpInd => {
            if mem {
                18
            } else {
                11
            }
        }
        Op::JmpFarInd => 24,
        Op::Ret => match ins.form {
            Form::Iw => 12,
            _ => 8,
        },
        Op::Retf => match ins.form {
            Form::Iw => 17,
            _ => 18,
        },
        Op::Jcc => {
            if taken {
                16
            } else {
                4
            }
        }
        Op::Loop => {
            if taken {
                17
            } else {
                5
            }
        }
        Op::Loope => {
            if taken {
                18
            } else {
                6
            }
        }
        Op::Loopne => {
            if taken {
                19
            } else {
                5
            }
        }
        Op::Jcxz => {
            if taken {
                18
            } else {
                6
            }
        }
        Op::Int => 51,
        Op::Int3 => 52,
        Op::Into => {
            if taken {
                53
            } else {
                4
            }
        }
        Op::Iret => 24,
        Op::Clc | Op::Stc | Op::Cli | Op::Sti | Op::Cld | Op::Std | Op::Cmc => 2,
        Op::Hlt => 2,
        Op::Wait => 3,
        Op::Salc => 4,
        Op::Esc if mem => 8,
        Op::Esc => 2,
        Op::Prefix => 2,
        // 186+ operations never decode on the 8086.
        _ => 2,
    }
}

/// The set-up clocks of a REP string instruction and the clocks per
/// iteration.
pub fn rep_clocks(model: CpuModel, op: Op) -> (u32, u32) {
    match model {
        CpuModel::I8086 => match op {
            Op::Movs => (9, 17),
            Op::Cmps => (9, 22),
            Op::Scas => (9, 15),
            Op::Lods => (9, 13),
            Op::Stos => (9, 10),
            _ => (9, 10),
        },
        CpuModel::I286 => match op {
            Op::Movs | Op::Lods | Op::Ins | Op::Outs => (5, 4),
            Op::Cmps => (5, 9),
            Op::Scas => (5, 8),
            _ => (4, 3),
        },
        CpuModel::I386 => match op {
            Op::Movs => (7, 4),
            Op::Cmps => (5, 9),
            Op::Scas => (5, 8),
            Op::Lods => (5, 6),
            Op::Stos => (5, 5),
            Op::Ins => (13, 6),
            _ => (12, 5),
        },
    }
}
