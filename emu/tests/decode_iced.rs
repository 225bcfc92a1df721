//! Cross-checks our decoder with iced-x86 on every encoding both understand,
//! for the 8086 map and for the 386's real-mode maps (one-byte, 0Fh, with
//! 66h/67h): every opcode, every ModR/M byte, several displacement/immediate
//! patterns, with and without prefixes. Length, operation and every operand
//! (registers, memory segment/base/index/scale/displacement, immediates,
//! branch targets) must agree.
//!
//! Skipped, because our model gives them another meaning than iced-x86's
//! decoding (see `emu::table`): on the 8086 the 186+ encodings (0Fh, 60h-6Fh,
//! C0h/C1h, C8h/C9h, F1h), the undocumented group members, 8Ch/8Eh with
//! reg >= 4, MOV CS; on the 386 the opcodes we raise #UD for (iced decodes
//! later CPUs' instructions there), 0F 00h (protected mode only), the test
//! registers, and two-byte opcodes behind F2h/F3h (iced reads those as SSE
//! mandatory prefixes). Register forms of memory-only instructions are
//! skipped on both.

use emu::decode::{decode_bytes_for, is_prefix_for, Instruction};
use emu::table::{Form, Op, OPCODES, OPCODES_0F, OPCODES_0F_486, OPCODES_186};
use emu::CpuModel;
use iced_x86::{Decoder, DecoderOptions, Mnemonic, OpKind, Register};

#[derive(Debug, PartialEq, Eq, Clone, Copy, PartialOrd, Ord)]
enum Operand {
    Reg(Register),
    Mem {
        seg: Register,
        base: Register,
        index: Register,
        scale: u32,
        disp: u32,
    },
    Imm(u32),
    Near(u32),
    Far(u16, u32),
}

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
const R32: [Register; 8] = [
    Register::EAX,
    Register::ECX,
    Register::EDX,
    Register::EBX,
    Register::ESP,
    Register::EBP,
    Register::ESI,
    Register::EDI,
];
const SREG: [Register; 6] = [
    Register::ES,
    Register::CS,
    Register::SS,
    Register::DS,
    Register::FS,
    Register::GS,
];

/// Operand width in bytes: 1, 2 or 4.
fn reg(i: u8, width: u32) -> Register {
    match width {
        1 => R8[i as usize & 7],
        2 => R16[i as usize & 7],
        _ => R32[i as usize & 7],
    }
}

fn seg_of(ins: &Instruction, default: Register) -> Register {
    ins.seg.map_or(default, |s| SREG[s as usize])
}

/// The r/m operand as our decoder describes it.
fn rm(ins: &Instruction, width: u32) -> Operand {
    let m = ins.modrm.expect("form has ModR/M");
    if m.is_reg() {
        return Operand::Reg(reg(m.rm, width));
    }
    if ins.addrsize32 {
        let (base, index, scale) = match ins.sib {
            Some(sib) => {
                let b = sib & 7;
                let i = (sib >> 3) & 7;
                let base = if b == 5 && m.mode == 0 {
                    Register::None
                } else {
                    R32[b as usize]
                };
                let index = if i == 4 {
                    Register::None
                } else {
                    R32[i as usize]
                };
                (base, index, 1u32 << (sib >> 6))
            }
            None if m.rm == 5 && m.mode == 0 => (Register::None, Register::None, 1),
            None => (R32[m.rm as usize], Register::None, 1),
        };
        let default = if base == Register::ESP || base == Register::EBP {
            Register::SS
        } else {
            Register::DS
        };
        return Operand::Mem {
            seg: seg_of(ins, default),
            base,
            index,
            scale: if index == Register::None { 1 } else { scale },
            disp: ins.disp,
        };
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
        seg: seg_of(ins, default),
        base,
        index,
        scale: 1,
        disp: ins.disp & 0xFFFF,
    }
}

fn direct(ins: &Instruction) -> Operand {
    Operand::Mem {
        seg: seg_of(ins, Register::DS),
        base: Register::None,
        index: Register::None,
        scale: 1,
        disp: ins.imm,
    }
}

/// The implicit operands of the string instructions (and XLAT): DS:SI
/// (or its override) and ES:DI, in 16- or 32-bit addressing.
fn string_operands(ins: &Instruction, acc: Operand) -> Vec<Operand> {
    let (si, di, bx) = if ins.addrsize32 {
        (Register::ESI, Register::EDI, Register::EBX)
    } else {
        (Register::SI, Register::DI, Register::BX)
    };
    let at = |seg, base, index| Operand::Mem {
        seg,
        base,
        index,
        scale: 1,
        disp: 0,
    };
    let src = at(seg_of(ins, Register::DS), si, Register::None);
    let dst = at(Register::ES, di, Register::None);
    match ins.op {
        Op::Movs => vec![dst, src],
        Op::Cmps => vec![src, dst],
        Op::Stos => vec![dst, acc],
        Op::Lods => vec![acc, src],
        Op::Scas => vec![acc, dst],
        Op::Ins => vec![dst, Operand::Reg(Register::DX)],
        Op::Outs => vec![Operand::Reg(Register::DX), src],
        Op::Xlat => vec![at(seg_of(ins, Register::DS), bx, Register::AL)],
        _ => vec![],
    }
}

/// MOV to or from a control or debug register (0F 20h-23h): the special
/// register named by ModR/M reg, the 32-bit register by rm.
fn control_register_operands(ins: &Instruction) -> Vec<Operand> {
    const CR: [Register; 4] = [Register::CR0, Register::CR1, Register::CR2, Register::CR3];
    const DR: [Register; 8] = [
        Register::DR0,
        Register::DR1,
        Register::DR2,
        Register::DR3,
        Register::DR4,
        Register::DR5,
        Register::DR6,
        Register::DR7,
    ];
    let m = ins.modrm.unwrap_or_default();
    let special = match ins.opcode & 7 {
        0 | 2 => CR[m.reg as usize & 3],
        _ => DR[m.reg as usize],
    };
    let gpr = Operand::Reg(R32[m.rm as usize]);
    if ins.op == Op::MovFromCr {
        vec![gpr, Operand::Reg(special)]
    } else {
        vec![Operand::Reg(special), gpr]
    }
}

/// Our operands in Intel order, or None where only length and operation are
/// compared (FPU escapes).
fn ours(ins: &Instruction, ip: u32) -> Option<Vec<Operand>> {
    let wide = if ins.opsize32 { 4 } else { 2 };
    let width = if ins.w { wide } else { 1 };
    let m = ins.modrm.unwrap_or_default();
    let acc = Operand::Reg(reg(0, width));
    let mask = if ins.opsize32 { u32::MAX } else { 0xFFFF };
    let next = ip.wrapping_add(ins.len as u32) & 0xFFFF;
    let imm = Operand::Imm(ins.imm);
    let imm2 = Operand::Imm(ins.imm2);
    let g = |w| Operand::Reg(reg(m.reg, w));
    Some(match ins.form {
        Form::None => string_operands(ins, acc),
        Form::EG => vec![rm(ins, width), g(width)],
        Form::GE => vec![g(width), rm(ins, width)],
        Form::AccI => vec![acc, imm],
        Form::E if ins.op == Op::Esc => return None,
        Form::E if ins.op == Op::Setcc => vec![rm(ins, 1)],
        Form::E if matches!(ins.op, Op::Smsw | Op::Lmsw) && m.is_reg() => vec![rm(ins, wide)],
        Form::E if matches!(ins.op, Op::Smsw | Op::Lmsw) => vec![rm(ins, 2)],
        Form::E => vec![rm(ins, width)],
        Form::EI | Form::EIbs | Form::EIbu => vec![rm(ins, width), imm],
        Form::E1 => vec![rm(ins, width), Operand::Imm(1)],
        Form::ECl => vec![rm(ins, width), Operand::Reg(Register::CL)],
        Form::ES => vec![
            rm(ins, if m.is_reg() { wide } else { 2 }),
            Operand::Reg(SREG[m.reg as usize % 6]),
        ],
        Form::SE => vec![
            Operand::Reg(SREG[m.reg as usize % 6]),
            rm(ins, if m.is_reg() { wide } else { 2 }),
        ],
        Form::GM => vec![g(wide), rm(ins, wide)],
        Form::Reg => vec![Operand::Reg(reg(ins.opcode, wide))],
        Form::AccReg => vec![Operand::Reg(reg(ins.opcode, wide)), acc],
        Form::Reg8I => vec![Operand::Reg(R8[ins.opcode as usize & 7]), imm],
        Form::Reg16I => vec![Operand::Reg(reg(ins.opcode, wide)), imm],
        Form::Sreg if ins.two_byte => {
            vec![Operand::Reg(if ins.opcode < 0xA8 {
                Register::FS
            } else {
                Register::GS
            })]
        }
        Form::Sreg => vec![Operand::Reg(SREG[(ins.opcode as usize >> 3) & 3])],
        Form::Rel8 | Form::Rel16 => {
            let t = next.wrapping_add(ins.imm);
            vec![Operand::Near(t & mask)]
        }
        Form::Far => vec![Operand::Far(ins.imm2 as u16, ins.imm)],
        Form::Iw | Form::Ib | Form::Iv | Form::Ibs => vec![imm],
        Form::AccMoffs => vec![acc, direct(ins)],
        Form::MoffsAcc => vec![direct(ins), acc],
        Form::AccPort if ins.op == Op::In => vec![acc, imm],
        Form::AccPort => vec![imm, acc],
        Form::AccDx if ins.op == Op::In => vec![acc, Operand::Reg(Register::DX)],
        Form::AccDx => vec![Operand::Reg(Register::DX), acc],
        Form::GEI | Form::GEIb => vec![g(wide), rm(ins, wide), imm2],
        Form::GEb => vec![g(wide), rm(ins, 1)],
        Form::GEw => vec![g(wide), rm(ins, 2)],
        Form::EGIb => vec![rm(ins, wide), g(wide), imm2],
        Form::EGCl => vec![rm(ins, wide), g(wide), Operand::Reg(Register::CL)],
        Form::IwIb => vec![imm, imm2],
        Form::Cr => control_register_operands(ins),
        Form::Group(_) => unreachable!("groups resolve to their member's form"),
    })
}

/// iced-x86's operands, immediates masked to their width.
fn theirs(i: &iced_x86::Instruction) -> Vec<Operand> {
    (0..i.op_count())
        .map(|n| match i.op_kind(n) {
            OpKind::Register => Operand::Reg(i.op_register(n)),
            OpKind::Memory => Operand::Mem {
                seg: i.memory_segment(),
                base: i.memory_base(),
                index: i.memory_index(),
                scale: i.memory_index_scale(),
                disp: if i.memory_displ_size() == 4
                    || R32.contains(&i.memory_base())
                    || R32.contains(&i.memory_index())
                {
                    i.memory_displacement32()
                } else {
                    i.memory_displacement32() & 0xFFFF
                },
            },
            // The string operands: (seg:)SI/ESI and ES:DI/EDI.
            kind @ (OpKind::MemorySegSI
            | OpKind::MemorySegESI
            | OpKind::MemoryESDI
            | OpKind::MemoryESEDI) => {
                let (seg, base) = match kind {
                    OpKind::MemorySegSI => (i.memory_segment(), Register::SI),
                    OpKind::MemorySegESI => (i.memory_segment(), Register::ESI),
                    OpKind::MemoryESDI => (Register::ES, Register::DI),
                    _ => (Register::ES, Register::EDI),
                };
                Operand::Mem {
                    seg,
                    base,
                    index: Register::None,
                    scale: 1,
                    disp: 0,
                }
            }
            OpKind::Immediate8 => Operand::Imm(i.immediate8() as u32),
            OpKind::Immediate8_2nd => Operand::Imm(i.immediate8_2nd() as u32),
            OpKind::Immediate16 => Operand::Imm(i.immediate16() as u32),
            OpKind::Immediate32 => Operand::Imm(i.immediate32()),
            OpKind::Immediate8to16 => Operand::Imm(i.immediate8to16() as u16 as u32),
            OpKind::Immediate8to32 => Operand::Imm(i.immediate8to32() as u32),
            OpKind::NearBranch16 => Operand::Near(i.near_branch16() as u32),
            OpKind::NearBranch32 => Operand::Near(i.near_branch32()),
            OpKind::FarBranch16 => Operand::Far(i.far_branch_selector(), i.far_branch16() as u32),
            OpKind::FarBranch32 => Operand::Far(i.far_branch_selector(), i.far_branch32()),
            k => panic!("unexpected operand kind {k:?} in {i}"),
        })
        .collect()
}

/// Our immediates are sign-extended to 32 bits; iced's carry the operand
/// width. Mask ours to the width iced reports for the same operand.
fn align_immediates(o: &mut [Operand], t: &[Operand], i: &iced_x86::Instruction) {
    for (n, (ours, theirs)) in o.iter_mut().zip(t).enumerate() {
        if let (Operand::Imm(a), Operand::Imm(_)) = (ours, theirs) {
            let mask = match i.op_kind(n as u32) {
                OpKind::Immediate8 | OpKind::Immediate8_2nd => 0xFF,
                OpKind::Immediate16 | OpKind::Immediate8to16 => 0xFFFF,
                _ => u32::MAX,
            };
            *a &= mask;
        }
    }
}

/// The operations iced-x86 names by one mnemonic whatever the operand size.
const ONE_MNEMONIC: &[(Op, Mnemonic)] = &[
    (Op::Add, Mnemonic::Add),
    (Op::Or, Mnemonic::Or),
    (Op::Adc, Mnemonic::Adc),
    (Op::Sbb, Mnemonic::Sbb),
    (Op::And, Mnemonic::And),
    (Op::Sub, Mnemonic::Sub),
    (Op::Xor, Mnemonic::Xor),
    (Op::Cmp, Mnemonic::Cmp),
    (Op::PushSeg, Mnemonic::Push),
    (Op::Push, Mnemonic::Push),
    (Op::PopSeg, Mnemonic::Pop),
    (Op::Pop, Mnemonic::Pop),
    (Op::Daa, Mnemonic::Daa),
    (Op::Das, Mnemonic::Das),
    (Op::Aaa, Mnemonic::Aaa),
    (Op::Aas, Mnemonic::Aas),
    (Op::Inc, Mnemonic::Inc),
    (Op::Dec, Mnemonic::Dec),
    (Op::Test, Mnemonic::Test),
    (Op::Xchg, Mnemonic::Xchg),
    (Op::Mov, Mnemonic::Mov),
    (Op::MovFromCr, Mnemonic::Mov),
    (Op::MovToCr, Mnemonic::Mov),
    (Op::Lea, Mnemonic::Lea),
    (Op::Les, Mnemonic::Les),
    (Op::Lds, Mnemonic::Lds),
    (Op::Lss, Mnemonic::Lss),
    (Op::Lfs, Mnemonic::Lfs),
    (Op::Lgs, Mnemonic::Lgs),
    (Op::CallFar, Mnemonic::Call),
    (Op::Call, Mnemonic::Call),
    (Op::CallInd, Mnemonic::Call),
    (Op::CallFarInd, Mnemonic::Call),
    (Op::Jmp, Mnemonic::Jmp),
    (Op::JmpFar, Mnemonic::Jmp),
    (Op::JmpInd, Mnemonic::Jmp),
    (Op::JmpFarInd, Mnemonic::Jmp),
    (Op::Wait, Mnemonic::Wait),
    (Op::Sahf, Mnemonic::Sahf),
    (Op::Lahf, Mnemonic::Lahf),
    (Op::Ret, Mnemonic::Ret),
    (Op::Retf, Mnemonic::Retf),
    (Op::Int3, Mnemonic::Int3),
    (Op::Icebp, Mnemonic::Int1),
    (Op::Int, Mnemonic::Int),
    (Op::Into, Mnemonic::Into),
    (Op::Rol, Mnemonic::Rol),
    (Op::Ror, Mnemonic::Ror),
    (Op::Rcl, Mnemonic::Rcl),
    (Op::Rcr, Mnemonic::Rcr),
    (Op::Shl, Mnemonic::Shl),
    (Op::Shr, Mnemonic::Shr),
    (Op::Sar, Mnemonic::Sar),
    (Op::Shld, Mnemonic::Shld),
    (Op::Shrd, Mnemonic::Shrd),
    (Op::Aam, Mnemonic::Aam),
    (Op::Aad, Mnemonic::Aad),
    (Op::Salc, Mnemonic::Salc),
    (Op::Xlat, Mnemonic::Xlatb),
    (Op::Loopne, Mnemonic::Loopne),
    (Op::Loope, Mnemonic::Loope),
    (Op::Loop, Mnemonic::Loop),
    (Op::Jcxz, Mnemonic::Jcxz),
    (Op::In, Mnemonic::In),
    (Op::Out, Mnemonic::Out),
    (Op::Hlt, Mnemonic::Hlt),
    (Op::Cmc, Mnemonic::Cmc),
    (Op::Not, Mnemonic::Not),
    (Op::Neg, Mnemonic::Neg),
    (Op::Mul, Mnemonic::Mul),
    (Op::Imul, Mnemonic::Imul),
    (Op::Imul3, Mnemonic::Imul),
    (Op::Div, Mnemonic::Div),
    (Op::Idiv, Mnemonic::Idiv),
    (Op::Clc, Mnemonic::Clc),
    (Op::Stc, Mnemonic::Stc),
    (Op::Cli, Mnemonic::Cli),
    (Op::Sti, Mnemonic::Sti),
    (Op::Cld, Mnemonic::Cld),
    (Op::Std, Mnemonic::Std),
    (Op::Bound, Mnemonic::Bound),
    (Op::Enter, Mnemonic::Enter),
    (Op::Leave, Mnemonic::Leave),
    (Op::Movzx, Mnemonic::Movzx),
    (Op::Movsx, Mnemonic::Movsx),
    (Op::Bt, Mnemonic::Bt),
    (Op::Bts, Mnemonic::Bts),
    (Op::Btr, Mnemonic::Btr),
    (Op::Btc, Mnemonic::Btc),
    (Op::Bsf, Mnemonic::Bsf),
    (Op::Bsr, Mnemonic::Bsr),
    (Op::Sgdt, Mnemonic::Sgdt),
    (Op::Sidt, Mnemonic::Sidt),
    (Op::Lgdt, Mnemonic::Lgdt),
    (Op::Lidt, Mnemonic::Lidt),
    (Op::Smsw, Mnemonic::Smsw),
    (Op::Lmsw, Mnemonic::Lmsw),
    (Op::Clts, Mnemonic::Clts),
    (Op::Bswap, Mnemonic::Bswap),
    (Op::Xadd, Mnemonic::Xadd),
    (Op::Cmpxchg, Mnemonic::Cmpxchg),
    (Op::Invd, Mnemonic::Invd),
    (Op::Wbinvd, Mnemonic::Wbinvd),
    (Op::Invlpg, Mnemonic::Invlpg),
    (Op::Cpuid, Mnemonic::Cpuid),
];

const JCC: [Mnemonic; 16] = [
    Mnemonic::Jo,
    Mnemonic::Jno,
    Mnemonic::Jb,
    Mnemonic::Jae,
    Mnemonic::Je,
    Mnemonic::Jne,
    Mnemonic::Jbe,
    Mnemonic::Ja,
    Mnemonic::Js,
    Mnemonic::Jns,
    Mnemonic::Jp,
    Mnemonic::Jnp,
    Mnemonic::Jl,
    Mnemonic::Jge,
    Mnemonic::Jle,
    Mnemonic::Jg,
];
const SETCC: [Mnemonic; 16] = [
    Mnemonic::Seto,
    Mnemonic::Setno,
    Mnemonic::Setb,
    Mnemonic::Setae,
    Mnemonic::Sete,
    Mnemonic::Setne,
    Mnemonic::Setbe,
    Mnemonic::Seta,
    Mnemonic::Sets,
    Mnemonic::Setns,
    Mnemonic::Setp,
    Mnemonic::Setnp,
    Mnemonic::Setl,
    Mnemonic::Setge,
    Mnemonic::Setle,
    Mnemonic::Setg,
];

/// iced-x86's mnemonic for our decoding of `ins` (`None` where iced has no
/// equivalent).
fn mnemonic(ins: &Instruction) -> Option<Mnemonic> {
    use Mnemonic as M;
    let w = ins.w;
    let d = ins.opsize32;
    let sized = |b, wd, dd| {
        if !w {
            b
        } else if d {
            dd
        } else {
            wd
        }
    };
    let wd = |wd, dd| if d { dd } else { wd };
    Some(match ins.op {
        Op::Jcc => JCC[ins.opcode as usize & 15],
        Op::Setcc => SETCC[ins.opcode as usize & 15],
        Op::Cbw => wd(M::Cbw, M::Cwde),
        Op::Cwd => wd(M::Cwd, M::Cdq),
        Op::Pushf => wd(M::Pushf, M::Pushfd),
        Op::Popf => wd(M::Popf, M::Popfd),
        Op::Pusha => wd(M::Pusha, M::Pushad),
        Op::Popa => wd(M::Popa, M::Popad),
        Op::Movs => sized(M::Movsb, M::Movsw, M::Movsd),
        Op::Cmps => sized(M::Cmpsb, M::Cmpsw, M::Cmpsd),
        Op::Stos => sized(M::Stosb, M::Stosw, M::Stosd),
        Op::Lods => sized(M::Lodsb, M::Lodsw, M::Lodsd),
        Op::Scas => sized(M::Scasb, M::Scasw, M::Scasd),
        Op::Ins => sized(M::Insb, M::Insw, M::Insd),
        Op::Outs => sized(M::Outsb, M::Outsw, M::Outsd),
        Op::Iret => wd(M::Iret, M::Iretd),
        // Shift /6 on the 186+ is SHL; iced calls it SAL.
        Op::Shl if ins.modrm.is_some_and(|m| m.reg == 6) => M::Sal,
        Op::Jcxz if ins.addrsize32 => M::Jecxz,
        Op::Esc | Op::Setmo | Op::Prefix | Op::Invalid => return None,
        op => ONE_MNEMONIC.iter().find(|(o, _)| *o == op)?.1,
    })
}

/// True where our model's meaning differs from iced-x86's decoding.
fn skipped(model: CpuModel, bytes: &[u8], ins: &Instruction) -> bool {
    let op = ins.opcode;
    let m = ins.modrm.unwrap_or_default();
    if ins.op == Op::Invalid || ins.op == Op::Setmo {
        return true;
    }
    // iced decodes 90h as NOP and 9Bh followed by an FPU op as one
    // instruction.
    if !ins.two_byte && (op == 0x90 || op == 0x9B) {
        return true;
    }
    let memory_only = matches!(
        ins.op,
        Op::Lea
            | Op::Les
            | Op::Lds
            | Op::Lss
            | Op::Lfs
            | Op::Lgs
            | Op::Bound
            | Op::CallFarInd
            | Op::JmpFarInd
            | Op::Sgdt
            | Op::Sidt
            | Op::Lgdt
            | Op::Lidt
            | Op::Invlpg
    );
    if memory_only && m.is_reg() {
        return true;
    }
    if model == CpuModel::I8086 {
        return match op {
            0x0F | 0x60..=0x6F | 0xC0 | 0xC1 | 0xC8 | 0xC9 | 0xF1 => true,
            0x8F | 0xC6 | 0xC7 if m.reg != 0 => true,
            0xFE if m.reg >= 2 => true,
            0xFF if m.reg == 7 => true,
            0x8C | 0x8E if m.reg >= 4 => true,
            // MOV CS, r/m: the 8086 executes it; later CPUs reject it.
            0x8E if m.reg == 1 => true,
            _ => bytes.contains(&0xF1),
        };
    }
    if ins.two_byte {
        // F2h/F3h in front of 0Fh opcodes are SSE mandatory prefixes to iced.
        if ins.rep != emu::decode::Rep::None {
            return true;
        }
        // Test registers need a decoder option; CR1 and CR4+ do not exist.
        if matches!(op, 0x24 | 0x26) {
            return true;
        }
        if matches!(op, 0x20 | 0x22) && !matches!(m.reg, 0 | 2 | 3) {
            return true;
        }
    }
    matches!(op, 0x8C | 0x8E if !ins.two_byte && m.reg >= 6)
        || (!ins.two_byte && op == 0x8E && m.reg == 1)
}

fn check(model: CpuModel, bytes: &[u8], ip: u32, compared: &mut u32) {
    let Some(ours_ins) = decode_bytes_for(model, bytes) else {
        return;
    };
    if skipped(model, bytes, &ours_ins) {
        return;
    }
    let mut dec = Decoder::with_ip(16, bytes, ip as u64, DecoderOptions::NONE);
    let theirs_ins = dec.decode();
    if theirs_ins.is_invalid() {
        // Some ESC encodings are not 8087 instructions; the CPU still treats
        // every D8h-DFh byte as an escape with a ModR/M operand.
        if ours_ins.op == Op::Esc {
            return;
        }
        panic!("iced-x86 rejects {bytes:02X?}, which we decode as {ours_ins:?}");
    }
    assert_eq!(
        ours_ins.len as usize,
        theirs_ins.len(),
        "{model}: length of {bytes:02X?} ({theirs_ins}; ours {ours_ins:?})"
    );
    if let Some(mn) = mnemonic(&ours_ins) {
        assert_eq!(
            mn,
            theirs_ins.mnemonic(),
            "{model}: operation of {bytes:02X?} ({theirs_ins})"
        );
    }
    if let Some(mut o) = ours(&ours_ins, ip) {
        let mut t = theirs(&theirs_ins);
        align_immediates(&mut o, &t, &theirs_ins);
        if ours_ins.op == Op::Xchg {
            // XCHG is symmetric; iced orders the operands its own way.
            t.sort();
            o.sort();
        }
        assert_eq!(o, t, "{model}: operands of {bytes:02X?} ({theirs_ins})");
    }
    *compared += 1;
}

/// Runs every opcode of a map through `check` with all ModR/M bytes, three
/// tails and the given prefix sets.
fn sweep(
    model: CpuModel,
    escape: &[u8],
    has_modrm: impl Fn(u8) -> bool,
    prefixes: &[&[u8]],
) -> u32 {
    let tails: [[u8; 7]; 3] = [
        [0x34, 0x12, 0x78, 0x56, 0x9A, 0xBC, 0xDE],
        [0x80, 0xFF, 0x7F, 0x01, 0xFE, 0x00, 0x11],
        [0xFF, 0x7F, 0x00, 0x80, 0x55, 0xAA, 0x22],
    ];
    let mut compared = 0u32;
    for op in 0u16..=255 {
        let op = op as u8;
        if escape.is_empty()
            && (is_prefix_for(model, op) || (model != CpuModel::I8086 && op == 0x0F))
        {
            continue;
        }
        let modrms: Vec<u8> = if has_modrm(op) {
            (0..=255).collect()
        } else {
            vec![0x00]
        };
        for &mr in &modrms {
            for tail in &tails {
                for pre in prefixes {
                    let mut bytes: Vec<u8> = pre.to_vec();
                    bytes.extend_from_slice(escape);
                    bytes.push(op);
                    if has_modrm(op) {
                        bytes.push(mr);
                    }
                    bytes.extend_from_slice(tail);
                    check(model, &bytes, 0x1234, &mut compared);
                }
            }
        }
    }
    compared
}

#[test]
fn decoder_agrees_with_iced_on_every_shared_8086_encoding() {
    let prefixes: [&[u8]; 6] = [&[], &[0x26], &[0x2E], &[0x36, 0xF3], &[0x3E], &[0xF2]];
    let n = sweep(
        CpuModel::I8086,
        &[],
        |op| OPCODES[op as usize].form.has_modrm(),
        &prefixes,
    );
    // 224 non-prefix opcodes, about 30 with all 256 ModR/M bytes, three
    // tails, six prefix sets: far fewer means most encodings were skipped.
    assert!(n > 100_000, "only {n} encodings compared");
    eprintln!("8086 decoder cross-check: {n} encodings agree with iced-x86");
}

#[test]
fn decoder_agrees_with_iced_on_every_shared_386_encoding() {
    let prefixes: [&[u8]; 7] = [
        &[],
        &[0x66],
        &[0x67],
        &[0x66, 0x67],
        &[0x64, 0x66],
        &[0x65, 0x67, 0xF3],
        &[0x36, 0xF2],
    ];
    let one = sweep(
        CpuModel::I386,
        &[],
        |op| OPCODES_186[op as usize].form.has_modrm(),
        &prefixes,
    );
    let two = sweep(
        CpuModel::I386,
        &[0x0F],
        |op| OPCODES_0F[op as usize].form.has_modrm(),
        &prefixes,
    );
    assert!(one > 150_000, "only {one} one-byte encodings compared");
    assert!(two > 50_000, "only {two} two-byte encodings compared");
    eprintln!(
        "386 decoder cross-check: {one} one-byte and {two} two-byte encodings agree with iced-x86"
    );
}

#[test]
fn decoder_agrees_with_iced_on_every_486_two_byte_encoding() {
    let prefixes: [&[u8]; 4] = [&[], &[0x66], &[0x67], &[0x64, 0x66, 0x67]];
    let n = sweep(
        CpuModel::I486,
        &[0x0F],
        |op| OPCODES_0F_486[op as usize].form.has_modrm(),
        &prefixes,
    );
    assert!(n > 30_000, "only {n} two-byte encodings compared");
    eprintln!("486 decoder cross-check: {n} two-byte encodings agree with iced-x86");
}

/// Every operation has its iced-x86 mnemonic: a row of [`ONE_MNEMONIC`],
/// or a case of its own in [`mnemonic`] (by size, condition or none).
#[test]
fn every_operation_has_a_mnemonic_row_or_case() {
    let own_case = [
        Op::Jcc,
        Op::Setcc,
        Op::Cbw,
        Op::Cwd,
        Op::Pushf,
        Op::Popf,
        Op::Pusha,
        Op::Popa,
        Op::Movs,
        Op::Cmps,
        Op::Stos,
        Op::Lods,
        Op::Scas,
        Op::Ins,
        Op::Outs,
        Op::Iret,
        Op::Esc,
        Op::Setmo,
        Op::Prefix,
        Op::Invalid,
    ];
    for op in emu::table::ALL_OPS {
        let rows = ONE_MNEMONIC.iter().filter(|(o, _)| *o == op).count();
        let expected = usize::from(!own_case.contains(&op));
        assert_eq!(rows, expected, "{op:?}");
    }
}
