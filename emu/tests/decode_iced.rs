//! Cross-checks our 8086 decoder with iced-x86 on every encoding both
//! understand: every opcode, every ModR/M byte, several displacement and
//! immediate patterns, with and without prefixes. Length, operation and every
//! operand (registers, memory base/index/displacement/effective segment,
//! immediates, branch targets) must agree.
//!
//! Skipped, because the 8086 gives them another meaning than iced-x86's
//! 186+/386 decoding (see `emu::table`): 0Fh, 60h-6Fh, C0h/C1h, C8h/C9h, F1h,
//! the undocumented group members, 8Ch/8Eh with reg >= 4, and register forms
//! of memory-only instructions.

use emu::decode::{decode_bytes, Instruction};
use emu::table::{Form, Op};
use iced_x86::{Decoder, DecoderOptions, Mnemonic, OpKind, Register};

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Operand {
    Reg(Register),
    Mem {
        seg: Register,
        base: Register,
        index: Register,
        disp: u16,
    },
    Imm(u16),
    Near(u16),
    Far(u16, u16),
}

const R16: [Register; 8] = [
    Register::AX,
    Register::CX,
    Register::DX,
    Register::BX,
    Register::SP,
    Register::BP,
    Register::SI,
    Register::DI,
];
const R8: [Register; 8] = [
    Register::AL,
    Register::CL,
    Register::DL,
    Register::BL,
    Register::AH,
    Register::CH,
    Register::DH,
    Register::BH,
];
const SREG: [Register; 4] = [Register::ES, Register::CS, Register::SS, Register::DS];

fn reg(i: u8, w: bool) -> Register {
    if w {
        R16[i as usize & 7]
    } else {
        R8[i as usize & 7]
    }
}

/// The r/m operand as our decoder describes it.
fn rm(ins: &Instruction, w: bool) -> Operand {
    let m = ins.modrm.expect("form has ModR/M");
    if m.is_reg() {
        return Operand::Reg(reg(m.rm, w));
    }
    let (base, index) = match m.rm {
        0 => (Register::BX, Register::SI),
        1 => (Register::BX, Register::DI),
        2 => (Register::BP, Register::SI),
        3 => (Register::BP, Register::DI),
        4 => (Register::SI, Register::None),
        5 => (Register::DI, Register::None),
        6 if m.mode == 0 => (Register::None, Register::None),
        6 => (Register::BP, Register::None),
        _ => (Register::BX, Register::None),
    };
    let default = if base == Register::BP {
        Register::SS
    } else {
        Register::DS
    };
    Operand::Mem {
        seg: ins.seg.map_or(default, |s| SREG[s as usize]),
        base,
        index,
        disp: ins.disp,
    }
}

fn direct(ins: &Instruction) -> Operand {
    Operand::Mem {
        seg: ins.seg.map_or(Register::DS, |s| SREG[s as usize]),
        base: Register::None,
        index: Register::None,
        disp: ins.imm,
    }
}

/// Our operands in Intel order, or None where the operands are implicit
/// (string instructions, FPU escapes: only length and operation compared).
fn ours(ins: &Instruction, ip: u16) -> Option<Vec<Operand>> {
    let w = ins.w;
    let m = ins.modrm.unwrap_or_default();
    let acc = Operand::Reg(reg(0, w));
    let next = ip.wrapping_add(ins.len as u16);
    Some(match ins.form {
        Form::None => {
            let src = Operand::Mem {
                seg: ins.seg.map_or(Register::DS, |s| SREG[s as usize]),
                base: Register::SI,
                index: Register::None,
                disp: 0,
            };
            let dst = Operand::Mem {
                seg: Register::ES,
                base: Register::DI,
                index: Register::None,
                disp: 0,
            };
            match ins.op {
                Op::Movs => vec![dst, src],
                Op::Cmps => vec![src, dst],
                Op::Stos => vec![dst, acc],
                Op::Lods => vec![acc, src],
                Op::Scas => vec![acc, dst],
                Op::Xlat => vec![Operand::Mem {
                    seg: ins.seg.map_or(Register::DS, |s| SREG[s as usize]),
                    base: Register::BX,
                    index: Register::AL,
                    disp: 0,
                }],
                _ => vec![],
            }
        }
        Form::EG => vec![rm(ins, w), Operand::Reg(reg(m.reg, w))],
        Form::GE => vec![Operand::Reg(reg(m.reg, w)), rm(ins, w)],
        Form::AccI => vec![acc, Operand::Imm(ins.imm)],
        Form::E if ins.op == Op::Esc => return None,
        Form::E => vec![rm(ins, w)],
        Form::EI => vec![rm(ins, w), Operand::Imm(ins.imm)],
        Form::EIb => vec![rm(ins, w), Operand::Imm(ins.imm)],
        Form::E1 => vec![rm(ins, w), Operand::Imm(1)],
        Form::ECl => vec![rm(ins, w), Operand::Reg(Register::CL)],
        Form::ES => vec![rm(ins, true), Operand::Reg(SREG[m.reg as usize & 3])],
        Form::SE => vec![Operand::Reg(SREG[m.reg as usize & 3]), rm(ins, true)],
        Form::GM => vec![Operand::Reg(reg(m.reg, true)), rm(ins, true)],
        Form::Reg => vec![Operand::Reg(R16[ins.opcode as usize & 7])],
        Form::AccReg => vec![Operand::Reg(R16[ins.opcode as usize & 7]), acc],
        Form::Reg8I => vec![
            Operand::Reg(R8[ins.opcode as usize & 7]),
            Operand::Imm(ins.imm),
        ],
        Form::Reg16I => vec![
            Operand::Reg(R16[ins.opcode as usize & 7]),
            Operand::Imm(ins.imm),
        ],
        Form::Sreg => vec![Operand::Reg(SREG[(ins.opcode as usize >> 3) & 3])],
        Form::Rel8 | Form::Rel16 => vec![Operand::Near(next.wrapping_add(ins.imm))],
        Form::Far => vec![Operand::Far(ins.imm2, ins.imm)],
        Form::Iw | Form::Ib => vec![Operand::Imm(ins.imm)],
        Form::AccMoffs => vec![acc, direct(ins)],
        Form::MoffsAcc => vec![direct(ins), acc],
        Form::AccPort if ins.op == Op::In => vec![acc, Operand::Imm(ins.imm)],
        Form::AccPort => vec![Operand::Imm(ins.imm), acc],
        Form::AccDx if ins.op == Op::In => vec![acc, Operand::Reg(Register::DX)],
        Form::AccDx => vec![Operand::Reg(Register::DX), acc],
        Form::Group(_) => unreachable!("groups resolve to their member's form"),
    })
}

fn theirs(i: &iced_x86::Instruction) -> Vec<Operand> {
    (0..i.op_count())
        .map(|n| match i.op_kind(n) {
            OpKind::Register => Operand::Reg(i.op_register(n)),
            OpKind::Memory => Operand::Mem {
                seg: i.memory_segment(),
                base: i.memory_base(),
                index: i.memory_index(),
                disp: i.memory_displacement32() as u16,
            },
            OpKind::MemorySegSI => Operand::Mem {
                seg: i.memory_segment(),
                base: Register::SI,
                index: Register::None,
                disp: 0,
            },
            OpKind::MemoryESDI => Operand::Mem {
                seg: Register::ES,
                base: Register::DI,
                index: Register::None,
                disp: 0,
            },
            OpKind::Immediate8 => Operand::Imm(i.immediate8() as u16),
            OpKind::Immediate16 => Operand::Imm(i.immediate16()),
            OpKind::Immediate8to16 => Operand::Imm(i.immediate8to16() as u16),
            OpKind::NearBranch16 => Operand::Near(i.near_branch16()),
            OpKind::FarBranch16 => Operand::Far(i.far_branch_selector(), i.far_branch16()),
            k => panic!("unexpected operand kind {k:?} in {i}"),
        })
        .collect()
}

fn mnemonic(ins: &Instruction) -> Option<Mnemonic> {
    use Mnemonic as M;
    let w = ins.w;
    let pick = |b, wd| if w { wd } else { b };
    const JCC: [Mnemonic; 16] = [
        M::Jo,
        M::Jno,
        M::Jb,
        M::Jae,
        M::Je,
        M::Jne,
        M::Jbe,
        M::Ja,
        M::Js,
        M::Jns,
        M::Jp,
        M::Jnp,
        M::Jl,
        M::Jge,
        M::Jle,
        M::Jg,
    ];
    Some(match ins.op {
        Op::Add => M::Add,
        Op::Or => M::Or,
        Op::Adc => M::Adc,
        Op::Sbb => M::Sbb,
        Op::And => M::And,
        Op::Sub => M::Sub,
        Op::Xor => M::Xor,
        Op::Cmp => M::Cmp,
        Op::PushSeg | Op::Push => M::Push,
        Op::PopSeg | Op::Pop => M::Pop,
        Op::Daa => M::Daa,
        Op::Das => M::Das,
        Op::Aaa => M::Aaa,
        Op::Aas => M::Aas,
        Op::Inc => M::Inc,
        Op::Dec => M::Dec,
        Op::Jcc => JCC[ins.opcode as usize & 15],
        Op::Test => M::Test,
        Op::Xchg => M::Xchg,
        Op::Mov => M::Mov,
        Op::Lea => M::Lea,
        Op::Les => M::Les,
        Op::Lds => M::Lds,
        Op::Cbw => M::Cbw,
        Op::Cwd => M::Cwd,
        Op::CallFar | Op::Call | Op::CallInd | Op::CallFarInd => M::Call,
        Op::Jmp | Op::JmpFar | Op::JmpInd | Op::JmpFarInd => M::Jmp,
        Op::Wait => M::Wait,
        Op::Pushf => M::Pushf,
        Op::Popf => M::Popf,
        Op::Sahf => M::Sahf,
        Op::Lahf => M::Lahf,
        Op::Movs => pick(M::Movsb, M::Movsw),
        Op::Cmps => pick(M::Cmpsb, M::Cmpsw),
        Op::Stos => pick(M::Stosb, M::Stosw),
        Op::Lods => pick(M::Lodsb, M::Lodsw),
        Op::Scas => pick(M::Scasb, M::Scasw),
        Op::Ret => M::Ret,
        Op::Retf => M::Retf,
        Op::Int3 => M::Int3,
        Op::Int => M::Int,
        Op::Into => M::Into,
        Op::Iret => M::Iret,
        Op::Rol => M::Rol,
        Op::Ror => M::Ror,
        Op::Rcl => M::Rcl,
        Op::Rcr => M::Rcr,
        Op::Shl => M::Shl,
        Op::Shr => M::Shr,
        Op::Sar => M::Sar,
        Op::Aam => M::Aam,
        Op::Aad => M::Aad,
        Op::Salc => M::Salc,
        Op::Xlat => M::Xlatb,
        Op::Loopne => M::Loopne,
        Op::Loope => M::Loope,
        Op::Loop => M::Loop,
        Op::Jcxz => M::Jcxz,
        Op::In => M::In,
        Op::Out => M::Out,
        Op::Hlt => M::Hlt,
        Op::Cmc => M::Cmc,
        Op::Not => M::Not,
        Op::Neg => M::Neg,
        Op::Mul => M::Mul,
        Op::Imul => M::Imul,
        Op::Div => M::Div,
        Op::Idiv => M::Idiv,
        Op::Clc => M::Clc,
        Op::Stc => M::Stc,
        Op::Cli => M::Cli,
        Op::Sti => M::Sti,
        Op::Cld => M::Cld,
        Op::Std => M::Std,
        Op::Esc | Op::Setmo | Op::Prefix => return None,
    })
}

/// True where the 8086 meaning differs from iced-x86's (186+) decoding.
fn skipped(bytes: &[u8], ins: &Instruction) -> bool {
    let op = ins.opcode;
    let m = ins.modrm.unwrap_or_default();
    match op {
        0x0F | 0x60..=0x6F | 0xC0 | 0xC1 | 0xC8 | 0xC9 | 0xF1 => return true,
        0x8F | 0xC6 | 0xC7 if m.reg != 0 => return true,
        0xFE if m.reg >= 2 => return true,
        0xFF if m.reg == 7 => return true,
        0xD0..=0xD3 if m.reg == 6 => return true,
        0x8C | 0x8E if m.reg >= 4 => return true,
        // MOV CS, r/m: the 8086 executes it; the 186 and later reject it.
        0x8E if m.reg == 1 => return true,
        0x8D | 0xC4 | 0xC5 if m.is_reg() => return true,
        0xFF if (m.reg == 3 || m.reg == 5) && m.is_reg() => return true,
        // iced decodes 90h as NOP and 9Bh followed by an FPU op as one
        // instruction.
        0x90 | 0x9B => return true,
        _ => {}
    }
    bytes.contains(&0xF1)
}

fn check(bytes: &[u8], ip: u16, compared: &mut u32) {
    let Some(ours_ins) = decode_bytes(bytes) else {
        return;
    };
    if skipped(bytes, &ours_ins) {
        return;
    }
    let mut dec = Decoder::with_ip(16, bytes, ip as u64, DecoderOptions::NONE);
    let theirs_ins = dec.decode();
    if theirs_ins.is_invalid() {
        // Some ESC encodings are not 8087 instructions; the 8086 still treats
        // every D8h-DFh byte as an escape with a ModR/M operand.
        if ours_ins.op == Op::Esc {
            return;
        }
        panic!("iced-x86 rejects {bytes:02X?}, which we decode as {ours_ins:?}");
    }
    assert_eq!(
        ours_ins.len as usize,
        theirs_ins.len(),
        "length of {bytes:02X?} ({theirs_ins})"
    );
    if let Some(mn) = mnemonic(&ours_ins) {
        assert_eq!(
            mn,
            theirs_ins.mnemonic(),
            "operation of {bytes:02X?} ({theirs_ins})"
        );
    }
    if let Some(ops) = ours(&ours_ins, ip) {
        let mut t = theirs(&theirs_ins);
        let mut o = ops;
        if ours_ins.op == Op::Xchg {
            // XCHG is symmetric; iced orders the operands its own way.
            t.sort_by_key(|x| format!("{x:?}"));
            o.sort_by_key(|x| format!("{x:?}"));
        }
        assert_eq!(o, t, "operands of {bytes:02X?} ({theirs_ins})");
    }
    *compared += 1;
}

#[test]
fn decoder_agrees_with_iced_on_every_shared_encoding() {
    let tails: [[u8; 6]; 3] = [
        [0x34, 0x12, 0x78, 0x56, 0x9A, 0xBC],
        [0x80, 0xFF, 0x7F, 0x01, 0xFE, 0x00],
        [0xFF, 0x7F, 0x00, 0x80, 0x55, 0xAA],
    ];
    let prefixes: [&[u8]; 6] = [&[], &[0x26], &[0x2E], &[0x36, 0xF3], &[0x3E], &[0xF2]];
    let mut compared = 0u32;
    for op in 0u16..=255 {
        let op = op as u8;
        if emu::decode::is_prefix(op) {
            continue;
        }
        let has_modrm = emu::table::OPCODES[op as usize].form.has_modrm();
        let modrms: Vec<u8> = if has_modrm {
            (0..=255).collect()
        } else {
            vec![0x00]
        };
        for &mr in &modrms {
            for tail in &tails {
                for pre in prefixes {
                    // String instructions are the only ones where iced keeps a
                    // REP prefix; segment prefixes apply to memory operands.
                    let mut bytes: Vec<u8> = pre.to_vec();
                    bytes.push(op);
                    if has_modrm {
                        bytes.push(mr);
                    }
                    bytes.extend_from_slice(tail);
                    check(&bytes, 0x1234, &mut compared);
                }
            }
        }
    }
    // 224 non-prefix opcodes, about 30 with all 256 ModR/M bytes, three
    // tails, six prefix sets: anything far below this means the check
    // silently skipped most encodings.
    assert!(compared > 100_000, "only {compared} encodings compared");
    eprintln!("decoder cross-check: {compared} encodings agree with iced-x86");
}
