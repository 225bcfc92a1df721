//! Clock counts per instruction: the documented 8086 timings (Intel 8086
//! Family User's Manual, table 2-21, and the iAPX 86/88 User's Manual
//! instruction set reference), plus the effective-address times of table
//! 2-20. These are the register-level timings; the cycle-exact bus interface
//! unit of the 8086 replaces them with T-state accounting.
//!
//! Where the manual gives a range (MUL, DIV), the value here is the middle of
//! the range.

use crate::decode::{Instruction, ModRm};
use crate::table::{Form, Op};

/// Clocks added to an interrupt entry by an exception (divide error) beyond
/// the INT sequence it shares.
pub const EXCEPTION_ENTRY: u32 = 51;
/// Clocks of a maskable interrupt's INTA cycles and entry.
pub const INTR_ENTRY: u32 = 61;
/// Clocks of an NMI or single-step entry.
pub const NMI_ENTRY: u32 = 50;

/// Effective-address calculation clocks (table 2-20), with 2 more for a
/// segment override.
pub fn ea_clocks(m: ModRm, seg_override: bool) -> u32 {
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

/// Documented clocks of `ins` excluding EA time and repetition. `mem` says
/// whether the r/m operand is in memory; `taken` whether a conditional
/// transfer was taken.
pub fn base_clocks(ins: &Instruction, mem: bool, taken: bool) -> u32 {
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
        Op::Esc => {
            if mem {
                8
            } else {
                2
            }
        }
        Op::Prefix => 2,
    }
}

/// Clocks per iteration of a repeated string instruction, and the set-up
/// clocks of the REP form.
pub fn rep_clocks(op: Op) -> (u32, u32) {
    match op {
        Op::Movs => (9, 17),
        Op::Cmps => (9, 22),
        Op::Scas => (9, 15),
        Op::Lods => (9, 13),
        Op::Stos => (9, 10),
        _ => (0, 0),
    }
}

/// Clocks per bit of a shift or rotate by CL.
pub const SHIFT_PER_BIT: u32 = 4;
/// Clocks per prefix byte.
pub const PREFIX: u32 = 2;
