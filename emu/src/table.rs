//! The opcode maps as data: for each opcode byte, the operation and the
//! shape of its operands; for the group opcodes, the operation per ModR/M
//! `reg` field. Three maps: the 8086's ([`OPCODES`]), the 80186/286/386
//! one-byte map ([`OPCODES_186`], which turns the 8086 aliases into the new
//! instructions), and the 386's two-byte 0Fh map ([`OPCODES_0F`]). Source: Intel 8086 Family User's Manual (1979), tables 4-12
//! and 4-13, with the undocumented encodings the silicon executes (see the
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
}

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

/// The group tables, indexed by [`Form::Group`].
pub static GROUPS: [GroupEntry; 8] = [
    // 0: 80h-83h immediate group (form set by the opcode: see `group_form`).
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
    GroupEntry {
        ops: [
            (Rol, F::E1),
            (Ror, F::E1),
            (Rcl, F::E1),
            (Rcr, F::E1),
            (Shl, F::E1),
            (Shr, F::E1),
            (Setmo, F::E1),
            (Sar, F::E1),
        ],
    },
    // 2: D2h/D3h shift by CL.
    GroupEntry {
        ops: [
            (Rol, F::ECl),
            (Ror, F::ECl),
            (Rcl, F::ECl),
            (Rcr, F::ECl),
            (Shl, F::ECl),
            (Shr, F::ECl),
            (Setmo, F::ECl),
            (Sar, F::ECl),
        ],
    },
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
    GroupEntry {
        ops: [
            (Inc, F::E),
            (Dec, F::E),
            (CallInd, F::E),
            (CallFarInd, F::E),
            (JmpInd, F::E),
            (JmpFarInd, F::E),
            (Push, F::E),
            (Push, F::E),
        ],
    },
    // 5: FFh.
    GroupEntry {
        ops: [
            (Inc, F::E),
            (Dec, F::E),
            (CallInd, F::E),
            (CallFarInd, F::E),
            (JmpInd, F::E),
            (JmpFarInd, F::E),
            (Push, F::E),
            (Push, F::E),
        ],
    },
    // 6: 8Fh: the 8086 ignores `reg` (all POP r/m).
    GroupEntry {
        ops: [
            (Pop, F::E),
            (Pop, F::E),
            (Pop, F::E),
            (Pop, F::E),
            (Pop, F::E),
            (Pop, F::E),
            (Pop, F::E),
            (Pop, F::E),
        ],
    },
    // 7: C6h/C7h: the 8086 ignores `reg` (all MOV r/m, imm).
    GroupEntry {
        ops: [
            (Mov, F::EI),
            (Mov, F::EI),
            (Mov, F::EI),
            (Mov, F::EI),
            (Mov, F::EI),
            (Mov, F::EI),
            (Mov, F::EI),
            (Mov, F::EI),
        ],
    },
];

/// The 8086 one-byte opcode map.
pub static OPCODES: [OpcodeEntry; 256] = {
    let mut t = [e(Prefix, F::None); 256];
    // 00h-3Fh: the ALU block, eight operations of six forms each.
    let alu = [Add, Or, Adc, Sbb, And, Sub, Xor, Cmp];
    let mut i = 0;
    while i < 8 {
        let b = i * 8;
        t[b] = e(alu[i], F::EG);
        t[b + 1] = e(alu[i], F::EG);
        t[b + 2] = e(alu[i], F::GE);
        t[b + 3] = e(alu[i], F::GE);
        t[b + 4] = e(alu[i], F::AccI);
        t[b + 5] = e(alu[i], F::AccI);
        i += 1;
    }
    t[0x06] = e(PushSeg, F::Sreg);
    t[0x07] = e(PopSeg, F::Sreg);
    t[0x0E] = e(PushSeg, F::Sreg);
    t[0x0F] = e(PopSeg, F::Sreg); // POP CS (8086 only)
    t[0x16] = e(PushSeg, F::Sreg);
    t[0x17] = e(PopSeg, F::Sreg);
    t[0x1E] = e(PushSeg, F::Sreg);
    t[0x1F] = e(PopSeg, F::Sreg);
    // 26h/2Eh/36h/3Eh segment overrides stay Prefix.
    t[0x27] = e(Daa, F::None);
    t[0x2F] = e(Das, F::None);
    t[0x37] = e(Aaa, F::None);
    t[0x3F] = e(Aas, F::None);
    let mut r = 0;
    while r < 8 {
        t[0x40 + r] = e(Inc, F::Reg);
        t[0x48 + r] = e(Dec, F::Reg);
        t[0x50 + r] = e(Push, F::Reg);
        t[0x58 + r] = e(Pop, F::Reg);
        t[0x90 + r] = e(Xchg, F::AccReg);
        t[0xB0 + r] = e(Mov, F::Reg8I);
        t[0xB8 + r] = e(Mov, F::Reg16I);
        t[0xD8 + r] = e(Esc, F::E);
        r += 1;
    }
    let mut c = 0;
    while c < 16 {
        t[0x60 + c] = e(Jcc, F::Rel8); // 8086 aliases of 70h-7Fh
        t[0x70 + c] = e(Jcc, F::Rel8);
        c += 1;
    }
    t[0x80] = e(Add, F::Group(0));
    t[0x81] = e(Add, F::Group(0));
    t[0x82] = e(Add, F::Group(0));
    t[0x83] = e(Add, F::Group(0));
    t[0x84] = e(Test, F::EG);
    t[0x85] = e(Test, F::EG);
    t[0x86] = e(Xchg, F::EG);
    t[0x87] = e(Xchg, F::EG);
    t[0x88] = e(Mov, F::EG);
    t[0x89] = e(Mov, F::EG);
    t[0x8A] = e(Mov, F::GE);
    t[0x8B] = e(Mov, F::GE);
    t[0x8C] = e(Mov, F::ES);
    t[0x8D] = e(Lea, F::GM);
    t[0x8E] = e(Mov, F::SE);
    t[0x8F] = e(Pop, F::Group(6));
    t[0x98] = e(Cbw, F::None);
    t[0x99] = e(Cwd, F::None);
    t[0x9A] = e(CallFar, F::Far);
    t[0x9B] = e(Wait, F::None);
    t[0x9C] = e(Pushf, F::None);
    t[0x9D] = e(Popf, F::None);
    t[0x9E] = e(Sahf, F::None);
    t[0x9F] = e(Lahf, F::None);
    t[0xA0] = e(Mov, F::AccMoffs);
    t[0xA1] = e(Mov, F::AccMoffs);
    t[0xA2] = e(Mov, F::MoffsAcc);
    t[0xA3] = e(Mov, F::MoffsAcc);
    t[0xA4] = e(Movs, F::None);
    t[0xA5] = e(Movs, F::None);
    t[0xA6] = e(Cmps, F::None);
    t[0xA7] = e(Cmps, F::None);
    t[0xA8] = e(Test, F::AccI);
    t[0xA9] = e(Test, F::AccI);
    t[0xAA] = e(Stos, F::None);
    t[0xAB] = e(Stos, F::None);
    t[0xAC] = e(Lods, F::None);
    t[0xAD] = e(Lods, F::None);
    t[0xAE] = e(Scas, F::None);
    t[0xAF] = e(Scas, F::None);
    t[0xC0] = e(Ret, F::Iw); // alias of C2h
    t[0xC1] = e(Ret, F::None); // alias of C3h
    t[0xC2] = e(Ret, F::Iw);
    t[0xC3] = e(Ret, F::None);
    t[0xC4] = e(Les, F::GM);
    t[0xC5] = e(Lds, F::GM);
    t[0xC6] = e(Mov, F::Group(7));
    t[0xC7] = e(Mov, F::Group(7));
    t[0xC8] = e(Retf, F::Iw); // alias of CAh
    t[0xC9] = e(Retf, F::None); // alias of CBh
    t[0xCA] = e(Retf, F::Iw);
    t[0xCB] = e(Retf, F::None);
    t[0xCC] = e(Int3, F::None);
    t[0xCD] = e(Int, F::Ib);
    t[0xCE] = e(Into, F::None);
    t[0xCF] = e(Iret, F::None);
    t[0xD0] = e(Rol, F::Group(1));
    t[0xD1] = e(Rol, F::Group(1));
    t[0xD2] = e(Rol, F::Group(2));
    t[0xD3] = e(Rol, F::Group(2));
    t[0xD4] = e(Aam, F::Ib);
    t[0xD5] = e(Aad, F::Ib);
    t[0xD6] = e(Salc, F::None);
    t[0xD7] = e(Xlat, F::None);
    t[0xE0] = e(Loopne, F::Rel8);
    t[0xE1] = e(Loope, F::Rel8);
    t[0xE2] = e(Loop, F::Rel8);
    t[0xE3] = e(Jcxz, F::Rel8);
    t[0xE4] = e(In, F::AccPort);
    t[0xE5] = e(In, F::AccPort);
    t[0xE6] = e(Out, F::AccPort);
    t[0xE7] = e(Out, F::AccPort);
    t[0xE8] = e(Call, F::Rel16);
    t[0xE9] = e(Jmp, F::Rel16);
    t[0xEA] = e(JmpFar, F::Far);
    t[0xEB] = e(Jmp, F::Rel8);
    t[0xEC] = e(In, F::AccDx);
    t[0xED] = e(In, F::AccDx);
    t[0xEE] = e(Out, F::AccDx);
    t[0xEF] = e(Out, F::AccDx);
    // F0h LOCK, F1h (LOCK alias), F2h REPNE, F3h REP stay Prefix.
    t[0xF4] = e(Hlt, F::None);
    t[0xF5] = e(Cmc, F::None);
    t[0xF6] = e(Test, F::Group(3));
    t[0xF7] = e(Test, F::Group(3));
    t[0xF8] = e(Clc, F::None);
    t[0xF9] = e(Stc, F::None);
    t[0xFA] = e(Cli, F::None);
    t[0xFB] = e(Sti, F::None);
    t[0xFC] = e(Cld, F::None);
    t[0xFD] = e(Std, F::None);
    t[0xFE] = e(Inc, F::Group(4));
    t[0xFF] = e(Inc, F::Group(5));
    t
};

/// The group tables of the 80186 and later (286, 386): the 8086's undefined
/// members raise #UD, shift /6 is SHL, and the 0Fh map adds groups 8-11.
pub static GROUPS_186: [GroupEntry; 12] = {
    let inv = (Invalid, F::E);
    let mut g = [GroupEntry { ops: [inv; 8] }; 12];
    g[0] = GROUPS[0];
    g[1] = GROUPS[1];
    g[1].ops[6] = (Shl, F::E1);
    g[2] = GROUPS[2];
    g[2].ops[6] = (Shl, F::ECl);
    g[3] = GROUPS[3];
    g[4].ops[0] = (Inc, F::E);
    g[4].ops[1] = (Dec, F::E);
    g[5] = GROUPS[5];
    g[5].ops[7] = inv;
    g[6].ops[0] = (Pop, F::E);
    g[7].ops[0] = (Mov, F::EI);
    // 8: C0h/C1h, shift by an immediate byte.
    g[8] = GroupEntry {
        ops: [
            (Rol, F::EIbu),
            (Ror, F::EIbu),
            (Rcl, F::EIbu),
            (Rcr, F::EIbu),
            (Shl, F::EIbu),
            (Shr, F::EIbu),
            (Shl, F::EIbu),
            (Sar, F::EIbu),
        ],
    };
    // 9: 0F 00h (SLDT, STR, LLDT, LTR, VERR, VERW): protected mode only,
    // #UD in real mode (80386 PRM, section 17.2).
    // 10: 0F 01h.
    g[10] = GroupEntry {
        ops: [
            (Sgdt, F::E),
            (Sidt, F::E),
            (Lgdt, F::E),
            (Lidt, F::E),
            (Smsw, F::E),
            inv,
            (Lmsw, F::E),
            inv,
        ],
    };
    // 11: 0F BAh, BT/BTS/BTR/BTC r/m, imm8.
    g[11] = GroupEntry {
        ops: [
            inv,
            inv,
            inv,
            inv,
            (Bt, F::EIbu),
            (Bts, F::EIbu),
            (Btr, F::EIbu),
            (Btc, F::EIbu),
        ],
    };
    g
};

/// The 80186/286/386 one-byte map: the 8086 map with 0Fh as the two-byte
/// escape, 60h-6Fh and C0h/C1h/C8h/C9h as the 186's new instructions. The
/// 386's prefixes 64h-67h are decoded before this table is consulted (on
/// the 286 they are #UD).
pub static OPCODES_186: [OpcodeEntry; 256] = {
    let mut t = OPCODES;
    t[0x0F] = e(Invalid, F::None); // two-byte escape, handled by the decoder
    t[0x60] = e(Pusha, F::None);
    t[0x61] = e(Popa, F::None);
    t[0x62] = e(Bound, F::GM);
    t[0x63] = e(Invalid, F::None); // ARPL: #UD in real mode
    t[0x64] = e(Invalid, F::None);
    t[0x65] = e(Invalid, F::None);
    t[0x66] = e(Invalid, F::None);
    t[0x67] = e(Invalid, F::None);
    t[0x68] = e(Push, F::Iv);
    t[0x69] = e(Imul3, F::GEI);
    t[0x6A] = e(Push, F::Ibs);
    t[0x6B] = e(Imul3, F::GEIb);
    t[0x6C] = e(Ins, F::None);
    t[0x6D] = e(Ins, F::None);
    t[0x6E] = e(Outs, F::None);
    t[0x6F] = e(Outs, F::None);
    t[0xC0] = e(Rol, F::Group(8));
    t[0xC1] = e(Rol, F::Group(8));
    t[0xC8] = e(Enter, F::IwIb);
    t[0xC9] = e(Leave, F::None);
    t
};

/// The 386's two-byte map (second byte after 0Fh). Entries left
/// [`Op::Invalid`] raise #UD; the 286 uses only 0F 00h, 0F 01h and 0F 06h.
pub static OPCODES_0F: [OpcodeEntry; 256] = {
    let mut t = [e(Invalid, F::None); 256];
    t[0x00] = e(Invalid, F::Group(9));
    t[0x01] = e(Invalid, F::Group(10));
    t[0x06] = e(Clts, F::None);
    t[0x20] = e(MovFromCr, F::Cr);
    t[0x21] = e(MovFromCr, F::Cr);
    t[0x22] = e(MovToCr, F::Cr);
    t[0x23] = e(MovToCr, F::Cr);
    t[0x24] = e(MovFromCr, F::Cr);
    t[0x26] = e(MovToCr, F::Cr);
    let mut c = 0;
    while c < 16 {
        t[0x80 + c] = e(Jcc, F::Rel16);
        t[0x90 + c] = e(Setcc, F::E);
        c += 1;
    }
    t[0xA0] = e(PushSeg, F::Sreg);
    t[0xA1] = e(PopSeg, F::Sreg);
    t[0xA3] = e(Bt, F::EG);
    t[0xA4] = e(Shld, F::EGIb);
    t[0xA5] = e(Shld, F::EGCl);
    t[0xA8] = e(PushSeg, F::Sreg);
    t[0xA9] = e(PopSeg, F::Sreg);
    t[0xAB] = e(Bts, F::EG);
    t[0xAC] = e(Shrd, F::EGIb);
    t[0xAD] = e(Shrd, F::EGCl);
    t[0xAF] = e(Imul3, F::GE);
    t[0xB2] = e(Lss, F::GM);
    t[0xB3] = e(Btr, F::EG);
    t[0xB4] = e(Lfs, F::GM);
    t[0xB5] = e(Lgs, F::GM);
    t[0xB6] = e(Movzx, F::GEb);
    t[0xB7] = e(Movzx, F::GEw);
    t[0xBA] = e(Invalid, F::Group(11));
    t[0xBB] = e(Btc, F::EG);
    t[0xBC] = e(Bsf, F::GE);
    t[0xBD] = e(Bsr, F::GE);
    t[0xBE] = e(Movsx, F::GEb);
    t[0xBF] = e(Movsx, F::GEw);
    t
};

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
