//! The opcode maps as data: rows of opcodes that share an operation and
//! the shape of its operands ([`OpcodeRow`]); for the group opcodes, the
//! operation per ModR/M `reg` field ([`GroupEntry`]). The one-byte rows
//! every model shares are [`ROWS_COMMON`]; the bytes that differ are
//! [`ROWS_8086`] (the 8086's aliases and POP CS) and [`ROWS_186`] (the
//! 80186/286/386 instructions that replace them); the 386's two-byte map
//! is [`ROWS_0F`]. The lookup tables the decoder indexes ([`OPCODES`],
//! [`OPCODES_186`], [`OPCODES_0F`]) are built from the rows at compile time.
//! Source: Intel 8086 Family User's Manual (1979), tables 4-12 and 4-13,
//! with the undocumented encodings the silicon executes (see the
//! single-step suite's `metadata.json`: 60h-6Fh alias 70h-7Fh, C0h/C1h alias
//! C2h/C3h, C8h/C9h alias CAh/CBh, 0Fh is POP CS, D6h is SALC, F1h is a LOCK
//! prefix, 82h aliases 80h, F6h/F7h /1 alias TEST, FFh /7 aliases PUSH, and
//! D0h-D3h /6 is SETMO/SETMOC).

/// An operation class. The operand size comes from the instruction's `w`
/// bit; the operand locations from its [`Form`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Op {
    // ALU group, in `reg`-field order (ADD=0 ... CMP=7).
    Add,
    Or,
    Adc,
    Sbb,
    And,
    Sub,
    Xor,
    Cmp,
    PushSeg,
    PopSeg,
    Daa,
    Das,
    Aaa,
    Aas,
    Inc,
    Dec,
    Push,
    Pop,
    /// Conditional jump; the condition is the opcode's low nibble.
    Jcc,
    Test,
    Xchg,
    Mov,
    Lea,
    Les,
    Lds,
    Cbw,
    Cwd,
    CallFar,
    Wait,
    Pushf,
    Popf,
    Sahf,
    Lahf,
    Movs,
    Cmps,
    Stos,
    Lods,
    Scas,
    Ret,
    Retf,
    Int3,
    Int,
    Into,
    Iret,
    // Shift group, in `reg`-field order (ROL=0 ... SAR=7).
    Rol,
    Ror,
    Rcl,
    Rcr,
    Shl,
    Shr,
    /// Undocumented shift-group /6: sets the operand to all ones (SETMO;
    /// SETMOC when the count is CL and CL is non-zero).
    Setmo,
    Sar,
    Aam,
    Aad,
    /// Undocumented D6h: AL = CF ? FFh : 00h.
    Salc,
    Xlat,
    /// Coprocessor escape D8h-DFh: with no 8087 the CPU computes the address
    /// and reads the operand, then does nothing.
    Esc,
    Loopne,
    Loope,
    Loop,
    Jcxz,
    In,
    Out,
    Call,
    Jmp,
    JmpFar,
    CallInd,
    CallFarInd,
    JmpInd,
    JmpFarInd,
    Hlt,
    Cmc,
    Not,
    Neg,
    Mul,
    Imul,
    Div,
    Idiv,
    Clc,
    Stc,
    Cli,
    Sti,
    Cld,
    Std,
    /// A prefix byte (segment override, LOCK, REP/REPNE); consumed by the
    /// decoder, never executed on its own.
    Prefix,
    // 80186/286 additions.
    Pusha,
    Popa,
    Bound,
    /// IMUL with an immediate (69h, 6Bh) or the 386's IMUL r, r/m (0F AFh).
    Imul3,
    Ins,
    Outs,
    Enter,
    Leave,
    /// An opcode the model does not define: raises #UD (vector 6) on the 286
    /// and 386.
    Invalid,
    // 386 additions (0Fh map and friends).
    Movzx,
    Movsx,
    Bt,
    Bts,
    Btr,
    Btc,
    Bsf,
    Bsr,
    Shld,
    Shrd,
    /// SETcc r/m8; the condition is the opcode's low nibble.
    Setcc,
    Lss,
    Lfs,
    Lgs,
    /// MOV r32, CRn / DRn / TRn (0F 20h, 21h, 24h).
    MovFromCr,
    /// MOV CRn / DRn / TRn, r32 (0F 22h, 23h, 26h).
    MovToCr,
    /// 0F 01h group: SGDT, SIDT, LGDT, LIDT, SMSW, LMSW.
    Sgdt,
    Sidt,
    Lgdt,
    Lidt,
    Smsw,
    Lmsw,
    Clts,
    /// F1h on the 386: ICEBP, a one-byte INT 1.
    Icebp,
    // 486 additions (0Fh map).
    /// BSWAP r32 (0F C8h+r).
    Bswap,
    /// XADD r/m, reg (0F C0h/C1h).
    Xadd,
    /// CMPXCHG r/m, reg (0F B0h/B1h).
    Cmpxchg,
    /// INVD (0F 08h): invalidate the cache (none is modelled).
    Invd,
    /// WBINVD (0F 09h): write back and invalidate the cache.
    Wbinvd,
    /// INVLPG m (0F 01h /7): invalidate a TLB entry.
    Invlpg,
    /// CPUID (0F A2h), on the later 486 steppings.
    Cpuid,
}
/// The number of operations (the variants of [`Op`]).
pub const OP_COUNT: usize = Op::Cpuid as usize + 1;

/// Every operation, in declaration order (`ALL_OPS[op as usize] == op`).
pub const ALL_OPS: [Op; OP_COUNT] = [
    Op::Add,
    Op::Or,
    Op::Adc,
    Op::Sbb,
    Op::And,
    Op::Sub,
    Op::Xor,
    Op::Cmp,
    Op::PushSeg,
    Op::PopSeg,
    Op::Daa,
    Op::Das,
    Op::Aaa,
    Op::Aas,
    Op::Inc,
    Op::Dec,
    Op::Push,
    Op::Pop,
    Op::Jcc,
    Op::Test,
    Op::Xchg,
    Op::Mov,
    Op::Lea,
    Op::Les,
    Op::Lds,
    Op::Cbw,
    Op::Cwd,
    Op::CallFar,
    Op::Wait,
    Op::Pushf,
    Op::Popf,
    Op::Sahf,
    Op::Lahf,
    Op::Movs,
    Op::Cmps,
    Op::Stos,
    Op::Lods,
    Op::Scas,
    Op::Ret,
    Op::Retf,
    Op::Int3,
    Op::Int,
    Op::Into,
    Op::Iret,
    Op::Rol,
    Op::Ror,
    Op::Rcl,
    Op::Rcr,
    Op::Shl,
    Op::Shr,
    Op::Setmo,
    Op::Sar,
    Op::Aam,
    Op::Aad,
    Op::Salc,
    Op::Xlat,
    Op::Esc,
    Op::Loopne,
    Op::Loope,
    Op::Loop,
    Op::Jcxz,
    Op::In,
    Op::Out,
    Op::Call,
    Op::Jmp,
    Op::JmpFar,
    Op::CallInd,
    Op::CallFarInd,
    Op::JmpInd,
    Op::JmpFarInd,
    Op::Hlt,
    Op::Cmc,
    Op::Not,
    Op::Neg,
    Op::Mul,
    Op::Imul,
    Op::Div,
    Op::Idiv,
    Op::Clc,
    Op::Stc,
    Op::Cli,
    Op::Sti,
    Op::Cld,
    Op::Std,
    Op::Prefix,
    Op::Pusha,
    Op::Popa,
    Op::Bound,
    Op::Imul3,
    Op::Ins,
    Op::Outs,
    Op::Enter,
    Op::Leave,
    Op::Invalid,
    Op::Movzx,
    Op::Movsx,
    Op::Bt,
    Op::Bts,
    Op::Btr,
    Op::Btc,
    Op::Bsf,
    Op::Bsr,
    Op::Shld,
    Op::Shrd,
    Op::Setcc,
    Op::Lss,
    Op::Lfs,
    Op::Lgs,
    Op::MovFromCr,
    Op::MovToCr,
    Op::Sgdt,
    Op::Sidt,
    Op::Lgdt,
    Op::Lidt,
    Op::Smsw,
    Op::Lmsw,
    Op::Clts,
    Op::Icebp,
    Op::Bswap,
    Op::Xadd,
    Op::Cmpxchg,
    Op::Invd,
    Op::Wbinvd,
    Op::Invlpg,
    Op::Cpuid,
];

/// Where an instruction's operands are, in Intel's operand notation (E =
/// ModR/M r/m, G = ModR/M reg, I = immediate, S = segment register).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// No explicit operands.
    None,
    /// r/m destination, reg source (opcode bit 1 clear).
    EG,
    /// reg destination, r/m source (opcode bit 1 set).
    GE,
    /// AL/AX and an immediate of the operand size.
    AccI,
    /// r/m only (groups without immediates, POP r/m, ESC).
    E,
    /// r/m and an immediate of the operand size.
    EI,
    /// r/m and a sign-extended byte immediate (83h).
    EIbs,
    /// r/m shifted by 1.
    E1,
    /// r/m shifted by CL.
    ECl,
    /// r/m16 and a segment register (8Ch: MOV r/m, Sreg).
    ES,
    /// Segment register and r/m16 (8Eh: MOV Sreg, r/m).
    SE,
    /// reg and a memory operand's address (LEA, LES, LDS).
    GM,
    /// A 16-bit register in the opcode's low three bits.
    Reg,
    /// XCHG AX with the register in the opcode's low three bits.
    AccReg,
    /// An 8-bit register in the low three bits and an 8-bit immediate.
    Reg8I,
    /// A 16-bit register in the low three bits and a 16-bit immediate.
    Reg16I,
    /// A segment register in opcode bits 3-4.
    Sreg,
    /// An 8-bit relative displacement.
    Rel8,
    /// A 16-bit relative displacement.
    Rel16,
    /// A far pointer: offset then segment.
    Far,
    /// A 16-bit immediate (RET imm16, RETF imm16).
    Iw,
    /// An 8-bit immediate (INT, AAM, AAD).
    Ib,
    /// AL/AX loaded from a direct memory offset (A0h/A1h).
    AccMoffs,
    /// A direct memory offset stored from AL/AX (A2h/A3h).
    MoffsAcc,
    /// AL/AX and an 8-bit port number (E4h-E7h).
    AccPort,
    /// AL/AX and the port in DX (ECh-EFh).
    AccDx,
    /// A group opcode: the operation comes from the `reg` field through
    /// [`GROUPS`]; the operand form is the group's.
    Group(u8),
    /// r/m and an unsigned byte immediate (C0h/C1h shift counts, BT imm8).
    EIbu,
    /// An immediate of the operand size (PUSH imm, 68h).
    Iv,
    /// A sign-extended byte immediate (PUSH imm8, 6Ah).
    Ibs,
    /// reg, r/m and an immediate of the operand size (IMUL 69h).
    GEI,
    /// reg, r/m and a sign-extended byte immediate (IMUL 6Bh).
    GEIb,
    /// reg and a byte r/m, extended (MOVZX/MOVSX with a byte source).
    GEb,
    /// reg and a word r/m, extended (MOVZX/MOVSX with a word source).
    GEw,
    /// r/m, reg and a byte count (SHLD/SHRD imm8).
    EGIb,
    /// r/m, reg and CL (SHLD/SHRD CL).
    EGCl,
    /// ENTER: a word immediate and a byte immediate.
    IwIb,
    /// MOV to or from a control, debug or test register: ModR/M with the
    /// r/m field always a register.
    Cr,
}

impl Form {
    /// True when a ModR/M byte follows the opcode.
    pub fn has_modrm(self) -> bool {
        matches!(
            self,
            Form::EG
                | Form::GE
                | Form::E
                | Form::EI
                | Form::EIbs
                | Form::E1
                | Form::ECl
                | Form::ES
                | Form::SE
                | Form::GM
                | Form::Group(_)
                | Form::EIbu
                | Form::GEI
                | Form::GEIb
                | Form::GEb
                | Form::GEw
                | Form::EGIb
                | Form::EGCl
                | Form::Cr
        )
    }
}

/// One entry of the opcode map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpcodeEntry {
    /// The operation (for groups, [`Op::Prefix`] is never used; see
    /// [`GROUPS`]).
    pub op: Op,
    /// The operand form.
    pub form: Form,
}

const fn e(op: Op, form: Form) -> OpcodeEntry {
    OpcodeEntry { op, form }
}

use Form as F;
use Op::*;

/// A group: the form shared by its members and the operation per `reg`.
#[derive(Clone, Copy, Debug)]
pub struct GroupEntry {
    /// Operation per ModR/M `reg` field, and the form of each.
    pub ops: [(Op, Form); 8],
}

/// A shift group in `form`, with `six` as its undocumented /6 member
/// (SETMO on the 8086, SHL from the 186 on).
const fn shift_group(form: Form, six: Op) -> GroupEntry {
    let ops = [Rol, Ror, Rcl, Rcr, Shl, Shr, six, Sar];
    let mut g = GroupEntry {
        ops: [(Rol, form); 8],
    };
    let mut i = 0;
    while i < 8 {
        g.ops[i] = (ops[i], form);
        i += 1;
    }
    g
}

/// FFh: INC, DEC, CALL, CALL far, JMP, JMP far and PUSH r/m; `seven` is
/// /7 (the 8086 runs PUSH; the 186 and later raise #UD).
const fn ff_group(seven: (Op, Form)) -> GroupEntry {
    GroupEntry {
        ops: [
            (Inc, F::E),
            (Dec, F::E),
            (CallInd, F::E),
            (CallFarInd, F::E),
            (JmpInd, F::E),
            (JmpFarInd, F::E),
            (Push, F::E),
            seven,
        ],
    }
}

/// A group of one member (/0) the 186 and later define; the others #UD.
const fn only_reg0(op: Op, form: Form) -> GroupEntry {
    let mut g = GroupEntry { ops: [INV; 8] };
    g.ops[0] = (op, form);
    g
}

/// An undefined group member (#UD).
const INV: (Op, Form) = (Invalid, F::E);

/// The 8086's group tables, indexed by [`Form::Group`].
pub static GROUPS: [GroupEntry; 8] = [
    // 0: 80h-83h immediate group (form set by the opcode: see `group_member`).
    GroupEntry {
        ops: [
            (Add, F::EI),
            (Or, F::EI),
            (Adc, F::EI),
            (Sbb, F::EI),
            (And, F::EI),
            (Sub, F::EI),
            (Xor, F::EI),
            (Cmp, F::EI),
        ],
    },
    // 1: D0h/D1h shift by 1.
    shift_group(F::E1, Setmo),
    // 2: D2h/D3h shift by CL.
    shift_group(F::ECl, Setmo),
    // 3: F6h/F7h.
    GroupEntry {
        ops: [
            (Test, F::EI),
            (Test, F::EI),
            (Not, F::E),
            (Neg, F::E),
            (Mul, F::E),
            (Imul, F::E),
            (Div, F::E),
            (Idiv, F::E),
        ],
    },
    // 4: FEh. /2-/7 are undefined on a byte operand; the 8086 runs them as
    // the FFh operations on a byte (reported as `undefined` by the suite).
    ff_group((Push, F::E)),
    // 5: FFh.
    ff_group((Push, F::E)),
    // 6: 8Fh: the 8086 ignores `reg` (all POP r/m).
    GroupEntry {
        ops: [(Pop, F::E); 8],
    },
    // 7: C6h/C7h: the 8086 ignores `reg` (all MOV r/m, imm).
    GroupEntry {
        ops: [(Mov, F::EI); 8],
    },
];

/// INVLPG m, the 486's 0F 01h /7.
const INVLPG: (Op, Form) = (Invlpg, F::E);

/// 0F 01h: SGDT, SIDT, LGDT, LIDT, SMSW, LMSW, and `reg7` at /7 (#UD on
/// the 286 and 386, INVLPG on the 486).
const fn system_group(reg7: (Op, Form)) -> GroupEntry {
    GroupEntry {
        ops: [
            (Sgdt, F::E),
            (Sidt, F::E),
            (Lgdt, F::E),
            (Lidt, F::E),
            (Smsw, F::E),
            INV,
            (Lmsw, F::E),
            reg7,
        ],
    }
}

/// The group tables of the 80186 and later (286, 386), indexed by
/// [`Form::Group`]: the 8086's undefined members raise #UD, shift /6 is SHL,
/// 8Fh and C6h/C7h decode only /0, the 0Fh map adds groups 8-11 and the
/// 486's 0Fh map group 12.
pub static GROUPS_186: [GroupEntry; 13] = [
    GROUPS[0],
    shift_group(F::E1, Shl),
    shift_group(F::ECl, Shl),
    GROUPS[3],
    // 4: FEh.
    GroupEntry {
        ops: [(Inc, F::E), (Dec, F::E), INV, INV, INV, INV, INV, INV],
    },
    ff_group(INV),
    only_reg0(Pop, F::E),
    only_reg0(Mov, F::EI),
    // 8: C0h/C1h, shift by an immediate byte.
    shift_group(F::EIbu, Shl),
    // 9: 0F 00h (SLDT, STR, LLDT, LTR, VERR, VERW): protected mode only,
    // #UD in real mode (80386 PRM, section 17.2).
    GroupEntry { ops: [INV; 8] },
    // 10: 0F 01h.
    system_group(INV),
    // 11: 0F BAh, BT/BTS/BTR/BTC r/m, imm8.
    GroupEntry {
        ops: [
            INV,
            INV,
            INV,
            INV,
            (Bt, F::EIbu),
            (Bts, F::EIbu),
            (Btr, F::EIbu),
            (Btc, F::EIbu),
        ],
    },
    // 12: 0F 01h on the 486: group 10 and INVLPG m (/7).
    system_group(INVLPG),
];

/// A row of an opcode map: the opcodes `first..=last` share an operation
/// and an operand form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpcodeRow {
    /// The first opcode of the row.
    pub first: u8,
    /// The last opcode of the row (inclusive).
    pub last: u8,
    /// Their operation and form.
    pub entry: OpcodeEntry,
}

const fn r(first: u8, last: u8, op: Op, form: Form) -> OpcodeRow {
    OpcodeRow {
        first,
        last,
        entry: e(op, form),
    }
}

/// The one-byte opcodes every model decodes alike (all but 0Fh, 60h-6Fh,
/// C0h/C1h and C8h/C9h). The segment overrides, LOCK (and the 8086's F1h
/// alias), REP and REPNE are [`Op::Prefix`]; the decoder consumes them.
pub const ROWS_COMMON: &[OpcodeRow] = &[
    r(0x00, 0x01, Add, F::EG),
    r(0x02, 0x03, Add, F::GE),
    r(0x04, 0x05, Add, F::AccI),
    r(0x06, 0x06, PushSeg, F::Sreg),
    r(0x07, 0x07, PopSeg, F::Sreg),
    r(0x08, 0x09, Or, F::EG),
    r(0x0A, 0x0B, Or, F::GE),
    r(0x0C, 0x0D, Or, F::AccI),
    r(0x0E, 0x0E, PushSeg, F::Sreg),
    r(0x10, 0x11, Adc, F::EG),
    r(0x12, 0x13, Adc, F::GE),
    r(0x14, 0x15, Adc, F::AccI),
    r(0x16, 0x16, PushSeg, F::Sreg),
    r(0x17, 0x17, PopSeg, F::Sreg),
    r(0x18, 0x19, Sbb, F::EG),
    r(0x1A, 0x1B, Sbb, F::GE),
    r(0x1C, 0x1D, Sbb, F::AccI),
    r(0x1E, 0x1E, PushSeg, F::Sreg),
    r(0x1F, 0x1F, PopSeg, F::Sreg),
    r(0x20, 0x21, And, F::EG),
    r(0x22, 0x23, And, F::GE),
    r(0x24, 0x25, And, F::AccI),
    r(0x26, 0x26, Prefix, F::None), // ES:
    r(0x27, 0x27, Daa, F::None),
    r(0x28, 0x29, Sub, F::EG),
    r(0x2A, 0x2B, Sub, F::GE),
    r(0x2C, 0x2D, Sub, F::AccI),
    r(0x2E, 0x2E, Prefix, F::None), // CS:
    r(0x2F, 0x2F, Das, F::None),
    r(0x30, 0x31, Xor, F::EG),
    r(0x32, 0x33, Xor, F::GE),
    r(0x34, 0x35, Xor, F::AccI),
    r(0x36, 0x36, Prefix, F::None), // SS:
    r(0x37, 0x37, Aaa, F::None),
    r(0x38, 0x39, Cmp, F::EG),
    r(0x3A, 0x3B, Cmp, F::GE),
    r(0x3C, 0x3D, Cmp, F::AccI),
    r(0x3E, 0x3E, Prefix, F::None), // DS:
    r(0x3F, 0x3F, Aas, F::None),
    r(0x40, 0x47, Inc, F::Reg),
    r(0x48, 0x4F, Dec, F::Reg),
    r(0x50, 0x57, Push, F::Reg),
    r(0x58, 0x5F, Pop, F::Reg),
    r(0x70, 0x7F, Jcc, F::Rel8),
    r(0x80, 0x83, Add, F::Group(0)),
    r(0x84, 0x85, Test, F::EG),
    r(0x86, 0x87, Xchg, F::EG),
    r(0x88, 0x89, Mov, F::EG),
    r(0x8A, 0x8B, Mov, F::GE),
    r(0x8C, 0x8C, Mov, F::ES),
    r(0x8D, 0x8D, Lea, F::GM),
    r(0x8E, 0x8E, Mov, F::SE),
    r(0x8F, 0x8F, Pop, F::Group(6)),
    r(0x90, 0x97, Xchg, F::AccReg),
    r(0x98, 0x98, Cbw, F::None),
    r(0x99, 0x99, Cwd, F::None),
    r(0x9A, 0x9A, CallFar, F::Far),
    r(0x9B, 0x9B, Wait, F::None),
    r(0x9C, 0x9C, Pushf, F::None),
    r(0x9D, 0x9D, Popf, F::None),
    r(0x9E, 0x9E, Sahf, F::None),
    r(0x9F, 0x9F, Lahf, F::None),
    r(0xA0, 0xA1, Mov, F::AccMoffs),
    r(0xA2, 0xA3, Mov, F::MoffsAcc),
    r(0xA4, 0xA5, Movs, F::None),
    r(0xA6, 0xA7, Cmps, F::None),
    r(0xA8, 0xA9, Test, F::AccI),
    r(0xAA, 0xAB, Stos, F::None),
    r(0xAC, 0xAD, Lods, F::None),
    r(0xAE, 0xAF, Scas, F::None),
    r(0xB0, 0xB7, Mov, F::Reg8I),
    r(0xB8, 0xBF, Mov, F::Reg16I),
    r(0xC2, 0xC2, Ret, F::Iw),
    r(0xC3, 0xC3, Ret, F::None),
    r(0xC4, 0xC4, Les, F::GM),
    r(0xC5, 0xC5, Lds, F::GM),
    r(0xC6, 0xC7, Mov, F::Group(7)),
    r(0xCA, 0xCA, Retf, F::Iw),
    r(0xCB, 0xCB, Retf, F::None),
    r(0xCC, 0xCC, Int3, F::None),
    r(0xCD, 0xCD, Int, F::Ib),
    r(0xCE, 0xCE, Into, F::None),
    r(0xCF, 0xCF, Iret, F::None),
    r(0xD0, 0xD1, Rol, F::Group(1)),
    r(0xD2, 0xD3, Rol, F::Group(2)),
    r(0xD4, 0xD4, Aam, F::Ib),
    r(0xD5, 0xD5, Aad, F::Ib),
    r(0xD6, 0xD6, Salc, F::None),
    r(0xD7, 0xD7, Xlat, F::None),
    r(0xD8, 0xDF, Esc, F::E),
    r(0xE0, 0xE0, Loopne, F::Rel8),
    r(0xE1, 0xE1, Loope, F::Rel8),
    r(0xE2, 0xE2, Loop, F::Rel8),
    r(0xE3, 0xE3, Jcxz, F::Rel8),
    r(0xE4, 0xE5, In, F::AccPort),
    r(0xE6, 0xE7, Out, F::AccPort),
    r(0xE8, 0xE8, Call, F::Rel16),
    r(0xE9, 0xE9, Jmp, F::Rel16),
    r(0xEA, 0xEA, JmpFar, F::Far),
    r(0xEB, 0xEB, Jmp, F::Rel8),
    r(0xEC, 0xED, In, F::AccDx),
    r(0xEE, 0xEF, Out, F::AccDx),
    r(0xF0, 0xF3, Prefix, F::None), // LOCK, F1h, REPNE, REP
    r(0xF4, 0xF4, Hlt, F::None),
    r(0xF5, 0xF5, Cmc, F::None),
    r(0xF6, 0xF7, Test, F::Group(3)),
    r(0xF8, 0xF8, Clc, F::None),
    r(0xF9, 0xF9, Stc, F::None),
    r(0xFA, 0xFA, Cli, F::None),
    r(0xFB, 0xFB, Sti, F::None),
    r(0xFC, 0xFC, Cld, F::None),
    r(0xFD, 0xFD, Std, F::None),
    r(0xFE, 0xFE, Inc, F::Group(4)),
    r(0xFF, 0xFF, Inc, F::Group(5)),
];

/// The 8086's own one-byte opcodes: POP CS, and the undocumented aliases
/// (60h-6Fh of 70h-7Fh, C0h/C1h of C2h/C3h, C8h/C9h of CAh/CBh).
pub const ROWS_8086: &[OpcodeRow] = &[
    r(0x0F, 0x0F, PopSeg, F::Sreg),
    r(0x60, 0x6F, Jcc, F::Rel8),
    r(0xC0, 0xC0, Ret, F::Iw),
    r(0xC1, 0xC1, Ret, F::None),
    r(0xC8, 0xC8, Retf, F::Iw),
    r(0xC9, 0xC9, Retf, F::None),
];

/// The 80186's new one-byte opcodes, shared by the 286 and 386: 0Fh is the
/// two-byte escape (handled by the decoder); 63h (ARPL) is #UD in real mode;
/// 64h-67h are the 386's prefixes (decoded before this map; #UD on the 286).
pub const ROWS_186: &[OpcodeRow] = &[
    r(0x0F, 0x0F, Invalid, F::None),
    r(0x60, 0x60, Pusha, F::None),
    r(0x61, 0x61, Popa, F::None),
    r(0x62, 0x62, Bound, F::GM),
    r(0x63, 0x67, Invalid, F::None),
    r(0x68, 0x68, Push, F::Iv),
    r(0x69, 0x69, Imul3, F::GEI),
    r(0x6A, 0x6A, Push, F::Ibs),
    r(0x6B, 0x6B, Imul3, F::GEIb),
    r(0x6C, 0x6D, Ins, F::None),
    r(0x6E, 0x6F, Outs, F::None),
    r(0xC0, 0xC1, Rol, F::Group(8)),
    r(0xC8, 0xC8, Enter, F::IwIb),
    r(0xC9, 0xC9, Leave, F::None),
];

/// The 386's two-byte map (second byte after 0Fh); bytes no row names are
/// [`Op::Invalid`] and raise #UD. The 286 uses only 0F 00h, 0F 01h and
/// 0F 06h.
pub const ROWS_0F: &[OpcodeRow] = &[
    r(0x00, 0x00, Invalid, F::Group(9)),
    r(0x01, 0x01, Invalid, F::Group(10)),
    r(0x06, 0x06, Clts, F::None),
    r(0x20, 0x21, MovFromCr, F::Cr),
    r(0x22, 0x23, MovToCr, F::Cr),
    r(0x24, 0x24, MovFromCr, F::Cr),
    r(0x26, 0x26, MovToCr, F::Cr),
    r(0x80, 0x8F, Jcc, F::Rel16),
    r(0x90, 0x9F, Setcc, F::E),
    r(0xA0, 0xA0, PushSeg, F::Sreg),
    r(0xA1, 0xA1, PopSeg, F::Sreg),
    r(0xA3, 0xA3, Bt, F::EG),
    r(0xA4, 0xA4, Shld, F::EGIb),
    r(0xA5, 0xA5, Shld, F::EGCl),
    r(0xA8, 0xA8, PushSeg, F::Sreg),
    r(0xA9, 0xA9, PopSeg, F::Sreg),
    r(0xAB, 0xAB, Bts, F::EG),
    r(0xAC, 0xAC, Shrd, F::EGIb),
    r(0xAD, 0xAD, Shrd, F::EGCl),
    r(0xAF, 0xAF, Imul3, F::GE),
    r(0xB2, 0xB2, Lss, F::GM),
    r(0xB3, 0xB3, Btr, F::EG),
    r(0xB4, 0xB4, Lfs, F::GM),
    r(0xB5, 0xB5, Lgs, F::GM),
    r(0xB6, 0xB6, Movzx, F::GEb),
    r(0xB7, 0xB7, Movzx, F::GEw),
    r(0xBA, 0xBA, Invalid, F::Group(11)),
    r(0xBB, 0xBB, Btc, F::EG),
    r(0xBC, 0xBC, Bsf, F::GE),
    r(0xBD, 0xBD, Bsr, F::GE),
    r(0xBE, 0xBE, Movsx, F::GEb),
    r(0xBF, 0xBF, Movsx, F::GEw),
];

/// The 486's additions to the two-byte map (i486 PRM, appendix A), laid
/// over [`ROWS_0F`]: 0F 01h becomes group 12 for INVLPG. CPUID (0F A2h)
/// decodes on every 486 and is #UD where the capabilities have none.
pub const ROWS_0F_486: &[OpcodeRow] = &[
    r(0x01, 0x01, Invalid, F::Group(12)),
    r(0x08, 0x08, Invd, F::None),
    r(0x09, 0x09, Wbinvd, F::None),
    r(0xA2, 0xA2, Cpuid, F::None),
    r(0xB0, 0xB1, Cmpxchg, F::EG),
    r(0xC0, 0xC1, Xadd, F::EG),
    r(0xC8, 0xCF, Bswap, F::Reg),
];

/// An opcode map from its rows; bytes no row names are `default`.
const fn build(default: OpcodeEntry, parts: &[&[OpcodeRow]]) -> [OpcodeEntry; 256] {
    let mut t = [default; 256];
    let mut p = 0;
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            let row = parts[p][i];
            let mut b = row.first as usize;
            while b <= row.last as usize {
                t[b] = row.entry;
                b += 1;
            }
            i += 1;
        }
        p += 1;
    }
    t
}

/// The 8086 one-byte opcode map.
pub static OPCODES: [OpcodeEntry; 256] = build(e(Invalid, F::None), &[ROWS_COMMON, ROWS_8086]);

/// The 80186/286/386 one-byte map.
pub static OPCODES_186: [OpcodeEntry; 256] = build(e(Invalid, F::None), &[ROWS_COMMON, ROWS_186]);

/// The 386's two-byte map (second byte after 0Fh).
pub static OPCODES_0F: [OpcodeEntry; 256] = build(e(Invalid, F::None), &[ROWS_0F]);

/// The 486's two-byte map: the 386's with [`ROWS_0F_486`] laid over it.
pub static OPCODES_0F_486: [OpcodeEntry; 256] = build(e(Invalid, F::None), &[ROWS_0F, ROWS_0F_486]);

/// The operation and form of a group member: the group's table gives the
/// operation; the immediate group's form depends on the opcode (83h takes a
/// sign-extended byte). `i186` selects the 80186-and-later tables.
pub fn group_member(i186: bool, opcode: u8, group: u8, reg: u8) -> (Op, Form) {
    let table: &[GroupEntry] = if i186 { &GROUPS_186 } else { &GROUPS };
    let (op, form) = table[group as usize].ops[(reg & 7) as usize];
    if opcode == 0x83 && group == 0 {
        (op, Form::EIbs)
    } else {
        (op, form)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many rows of `parts` name byte `b`.
    fn rows_naming(parts: &[&[OpcodeRow]], b: u8) -> usize {
        parts
            .iter()
            .flat_map(|p| p.iter())
            .filter(|r| (r.first..=r.last).contains(&b))
            .count()
    }

    #[test]
    fn every_primary_opcode_has_exactly_one_row_per_model() {
        for (name, parts) in [
            ("8086", [ROWS_COMMON, ROWS_8086]),
            ("186", [ROWS_COMMON, ROWS_186]),
        ] {
            for b in 0..=255u8 {
                assert_eq!(rows_naming(&parts, b), 1, "{name}: opcode {b:02X}h");
            }
        }
    }

    #[test]
    fn two_byte_rows_do_not_overlap_and_rows_are_ordered() {
        for b in 0..=255u8 {
            assert!(rows_naming(&[ROWS_0F], b) <= 1, "0F {b:02X}h");
        }
        for b in 0..=255u8 {
            assert!(rows_naming(&[ROWS_0F_486], b) <= 1, "486: 0F {b:02X}h");
        }
        for rows in [ROWS_COMMON, ROWS_8086, ROWS_186, ROWS_0F, ROWS_0F_486] {
            for w in rows.windows(2) {
                assert!(w[0].first <= w[0].last && w[0].last < w[1].first, "{w:?}");
            }
        }
    }

    #[test]
    fn the_maps_hold_their_rows() {
        assert_eq!(OPCODES[0x0F].op, Op::PopSeg);
        assert_eq!(OPCODES_186[0x0F].op, Op::Invalid);
        assert_eq!(OPCODES[0x65], e(Jcc, F::Rel8));
        assert_eq!(OPCODES_186[0x69], e(Imul3, F::GEI));
        assert_eq!(OPCODES_0F[0xAF], e(Imul3, F::GE));
        assert_eq!(OPCODES_0F[0xFF].op, Op::Invalid);
        // The 486's rows are only in its map.
        for (b, op) in [(0xC8, Bswap), (0xC1, Xadd), (0xB0, Cmpxchg), (0x09, Wbinvd)] {
            assert_eq!(OPCODES_0F_486[b].op, op, "0F {b:02X}h");
            assert_eq!(OPCODES_0F[b].op, Op::Invalid, "0F {b:02X}h");
        }
        assert_eq!(OPCODES_0F_486[0xAF], OPCODES_0F[0xAF]);
        assert_eq!(GROUPS_186[12].ops[7], (Invlpg, F::E));
        assert_eq!(GROUPS_186[10].ops[7].0, Op::Invalid);
        for g in [0, 3] {
            assert_eq!(GROUPS_186[g].ops, GROUPS[g].ops);
        }
    }

    #[test]
    fn all_ops_lists_every_operation_in_order() {
        for (i, op) in ALL_OPS.iter().enumerate() {
            assert_eq!(*op as usize, i, "{op:?}");
        }
    }
}
