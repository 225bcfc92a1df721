//! Our own x86 real-mode decoder: prefixes, opcode (one byte, or 0Fh and a
//! second byte on the 386), ModR/M, SIB, displacement and immediates, driven
//! by the opcode maps in [`crate::table`] for the configured CPU model.
//!
//! iced-x86 has no 8086 aliases (60h-6Fh, C0h/C1h/C8h/C9h, D6h, 0Fh as POP CS,
//! F1h), so the core decodes for itself; a test cross-checks this decoder with
//! iced-x86 on every encoding both understand.

use crate::model::CpuModel;
use crate::regs::SegReg;
use crate::table::{
    group_member, Form, Op, OpcodeEntry, OPCODES, OPCODES_0F, OPCODES_0F_486, OPCODES_186,
};
/// The repeat prefix of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rep {
    /// No repeat prefix.
    #[default]
    None,
    /// F3h: REP / REPE / REPZ.
    Rep,
    /// F2h: REPNE / REPNZ.
    Repne,
}

/// A decoded ModR/M byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ModRm {
    /// Bits 7-6: 0-2 memory with no, byte or word displacement; 3 register.
    pub mode: u8,
    /// Bits 5-3: a register or a group's operation.
    pub reg: u8,
    /// Bits 2-0: the register or the addressing form.
    pub rm: u8,
}

impl ModRm {
    /// Splits a ModR/M byte.
    #[inline]
    pub fn new(b: u8) -> Self {
        ModRm {
            mode: b >> 6,
            reg: (b >> 3) & 7,
            rm: b & 7,
        }
    }
    /// True for a register operand (mod = 11).
    #[inline]
    pub fn is_reg(self) -> bool {
        self.mode == 3
    }
    /// Bytes of displacement that follow in 16-bit addressing.
    #[inline]
    pub fn disp_len(self) -> u8 {
        match self.mode {
            0 if self.rm == 6 => 2,
            1 => 1,
            2 => 2,
            _ => 0,
        }
    }
}

/// A decoded instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// The opcode byte (after the prefixes; the second byte after 0Fh for
    /// two-byte opcodes).
    pub opcode: u8,
    /// A two-byte (0Fh) opcode.
    pub two_byte: bool,
    /// The operation.
    pub op: Op,
    /// Its operand form (for group members, the member's form).
    pub form: Form,
    /// Word (or doubleword) operation, opcode bit 0 in most encodings.
    pub w: bool,
    /// ModR/M byte, when the form has one.
    pub modrm: Option<ModRm>,
    /// SIB byte (32-bit addressing only).
    pub sib: Option<u8>,
    /// Displacement, sign-extended to 32 bits for 8-bit displacements (16-bit
    /// displacements are kept as 16-bit values).
    pub disp: u32,
    /// First immediate (the offset of a far pointer; sign-extended for 83h,
    /// 6Ah, 6Bh and for relative jumps).
    pub imm: u32,
    /// Second immediate (the segment of a far pointer, ENTER's level, the
    /// count of SHLD/SHRD imm8, the immediate of IMUL r, r/m, imm).
    pub imm2: u32,
    /// Segment override prefix (the last one given wins).
    pub seg: Option<SegReg>,
    /// Repeat prefix (the last one given wins).
    pub rep: Rep,
    /// LOCK (F0h, or its 8086 alias F1h) was given.
    pub lock: bool,
    /// 32-bit operand size (a 66h prefix in real mode, 386 only).
    pub opsize32: bool,
    /// 32-bit address size (a 67h prefix in real mode, 386 only).
    pub addrsize32: bool,
    /// Number of prefix bytes.
    pub prefixes: u8,
    /// Total length in bytes, prefixes included.
    pub len: u8,
}

/// True when the instruction's r/m operand is in memory.
#[inline(always)]
pub(crate) fn in_memory(ins: &Instruction) -> bool {
    matches!(ins.modrm, Some(m) if !m.is_reg())
}

/// The segment register of PUSH/POP Sreg: opcode bits 3-4 in the one-byte
/// map, FS (0F A0h/A1h) or GS (0F A8h/A9h) in the two-byte map.
pub(crate) fn sreg_of_opcode(ins: &Instruction) -> SegReg {
    if ins.two_byte {
        if ins.opcode < 0xA8 {
            SegReg::FS
        } else {
            SegReg::GS
        }
    } else {
        SegReg::from_index((ins.opcode >> 3) & 3)
    }
}

/// True for the bytes the 8086 treats as prefixes.
#[inline]
pub fn is_prefix(b: u8) -> bool {
    matches!(b, 0x26 | 0x2E | 0x36 | 0x3E | 0xF0 | 0xF1 | 0xF2 | 0xF3)
}

/// True for the bytes `model` treats as prefixes.
#[inline]
pub fn is_prefix_for(model: CpuModel, b: u8) -> bool {
    let c = model.caps();
    match b {
        0x26 | 0x2E | 0x36 | 0x3E | 0xF0 | 0xF2 | 0xF3 => true,
        0xF1 => c.f1_is_lock_prefix,
        0x64..=0x67 => c.has_32bit_operands,
        _ => false,
    }
}

/// Whether the operation uses the word size: most encodings use opcode bit 0;
/// register-in-opcode, segment and two-byte forms are fixed.
fn word_size(opcode: u8, two_byte: bool, op: Op, form: Form) -> bool {
    if two_byte {
        // CMPXCHG and XADD have byte forms (B0h, C0h) like the one-byte ALU.
        return match op {
            Op::Setcc => false,
            Op::Cmpxchg | Op::Xadd => opcode & 1 != 0,
            _ => true,
        };
    }
    match form {
        Form::Reg
        | Form::AccReg
        | Form::Reg16I
        | Form::Sreg
        | Form::ES
        | Form::SE
        | Form::GM
        | Form::GEI
        | Form::GEIb
        | Form::Iv
        | Form::Ibs => true,
        Form::Reg8I => false,
        Form::Rel8 | Form::Rel16 | Form::Far | Form::Iw | Form::Ib | Form::IwIb => true,
        _ => opcode & 1 != 0,
    }
}

/// The displacement that follows ModR/M (and the SIB byte of 32-bit
/// addressing, which it reads first): the displacement and the SIB byte.
#[inline(always)]
fn displacement<F: FnMut() -> u8>(
    r: &mut Reader<F>,
    modrm: Option<ModRm>,
    form: Form,
    addrsize32: bool,
) -> Option<(u32, Option<u8>)> {
    let Some(m) = modrm else {
        return Some((0, None));
    };
    if form == Form::Cr || m.is_reg() {
        return Some((0, None));
    }
    if !addrsize32 {
        let disp = match m.disp_len() {
            1 => r.byte()? as i8 as i16 as u16 as u32,
            2 => r.word()? as u32,
            _ => 0,
        };
        return Some((disp, None));
    }
    let mut sib = None;
    let mut base = m.rm;
    if m.rm == 4 {
        let s = r.byte()?;
        sib = Some(s);
        base = s & 7;
    }
    let disp = match m.mode {
        0 if base == 5 => r.dword()?,
        1 => r.byte()? as i8 as i32 as u32,
        2 => r.dword()?,
        _ => 0,
    };
    Some((disp, sib))
}

/// The immediates of `form` (`w`: a word operation; the operand and
/// address sizes): the first and the second.
#[inline(always)]
fn immediates<F: FnMut() -> u8>(
    r: &mut Reader<F>,
    form: Form,
    w: bool,
    opsize32: bool,
    addrsize32: bool,
) -> Option<(u32, u32)> {
    let wide = |r: &mut Reader<F>| -> Option<u32> {
        if opsize32 {
            r.dword()
        } else {
            r.word().map(u32::from)
        }
    };
    let sext8 = |b: u8| b as i8 as i32 as u32;
    Some(match form {
        Form::AccI | Form::EI if w => (wide(r)?, 0),
        Form::AccI | Form::EI => (r.byte()? as u32, 0),
        Form::EIbs | Form::Rel8 | Form::Ibs => (sext8(r.byte()?), 0),
        Form::Reg8I | Form::Ib | Form::AccPort | Form::EIbu => (r.byte()? as u32, 0),
        Form::Reg16I | Form::Rel16 | Form::Iv => (wide(r)?, 0),
        Form::Iw => (r.word()? as u32, 0),
        Form::AccMoffs | Form::MoffsAcc if addrsize32 => (r.dword()?, 0),
        Form::AccMoffs | Form::MoffsAcc => (r.word()? as u32, 0),
        Form::Far => (wide(r)?, r.word()? as u32),
        Form::IwIb => (r.word()? as u32, r.byte()? as u32),
        Form::GEI => (0, wide(r)?),
        Form::GEIb => (0, sext8(r.byte()?)),
        Form::EGIb => (0, r.byte()? as u32),
        _ => (0, 0),
    })
}

/// Decodes one instruction for `model`, reading its bytes from `next` in
/// order. Prefixes are unlimited, as on the 8086 (the CPU enforces the 286
/// and 386 length limits of 10 and 15 bytes after decoding). `max_len` bounds the bytes read for
/// callers that decode from a buffer: a longer instruction returns `None`
/// (the CPU passes `usize::MAX`).
pub fn decode_for<F: FnMut() -> u8>(
    model: CpuModel,
    next: F,
    max_len: usize,
) -> Option<Instruction> {
    let mut r = Reader {
        next,
        len: 0,
        max_len,
    };
    let caps = model.caps();
    let i186 = caps.has_80186_instructions;
    let mut seg = None;
    let mut rep = Rep::None;
    let mut lock = false;
    let mut opsize32 = false;
    let mut addrsize32 = false;
    let mut prefixes = 0u8;
    let opcode = loop {
        let b = r.byte()?;
        if !is_prefix_for(model, b) {
            break b;
        }
        match b {
            0x26 => seg = Some(SegReg::ES),
            0x2E => seg = Some(SegReg::CS),
            0x36 => seg = Some(SegReg::SS),
            0x3E => seg = Some(SegReg::DS),
            0x64 => seg = Some(SegReg::FS),
            0x65 => seg = Some(SegReg::GS),
            0x66 => opsize32 = true,
            0x67 => addrsize32 = true,
            0xF0 | 0xF1 => lock = true,
            0xF2 => rep = Rep::Repne,
            _ => rep = Rep::Rep,
        }
        prefixes = prefixes.saturating_add(1);
    };
    let (opcode, two_byte, entry) = if i186 && opcode == 0x0F {
        let b = r.byte()?;
        // The 286 has only the system instructions of the 0Fh map.
        let entry = if caps.has_486_instructions {
            OPCODES_0F_486[b as usize]
        } else if caps.has_32bit_operands || (caps.has_msw && matches!(b, 0x00 | 0x01 | 0x06)) {
            OPCODES_0F[b as usize]
        } else {
            OPCODES_0F[0xFF]
        };
        (b, true, entry)
    } else if i186 {
        let mut entry = OPCODES_186[opcode as usize];
        if opcode == 0xF1 && caps.f1_is_icebp {
            entry = OpcodeEntry {
                op: Op::Icebp,
                form: Form::None,
            };
        }
        (opcode, false, entry)
    } else {
        (opcode, false, OPCODES[opcode as usize])
    };
    let (mut op, mut form) = (entry.op, entry.form);
    let modrm = if form.has_modrm() {
        let m = ModRm::new(r.byte()?);
        if let Form::Group(g) = form {
            (op, form) = group_member(i186, opcode, g, m.reg);
        }
        Some(m)
    } else {
        None
    };
    let w = word_size(opcode, two_byte, op, form);
    let (disp, sib) = displacement(&mut r, modrm, form, addrsize32)?;
    let (imm, imm2) = immediates(&mut r, form, w, opsize32, addrsize32)?;
    Some(Instruction {
        opcode,
        two_byte,
        op,
        form,
        w,
        modrm,
        sib,
        disp,
        imm,
        imm2,
        seg,
        rep,
        lock,
        opsize32,
        addrsize32,
        prefixes,
        len: r.len.min(255) as u8,
    })
}

/// Decodes one 8086 instruction (see [`decode_for`]).
pub fn decode<F: FnMut() -> u8>(next: F, max_len: usize) -> Option<Instruction> {
    decode_for(CpuModel::I8086, next, max_len)
}

/// Reads instruction bytes, counting them against a limit.
struct Reader<F> {
    next: F,
    len: usize,
    max_len: usize,
}

impl<F: FnMut() -> u8> Reader<F> {
    #[inline]
    fn byte(&mut self) -> Option<u8> {
        if self.len >= self.max_len {
            return None;
        }
        self.len += 1;
        Some((self.next)())
    }
    #[inline]
    fn word(&mut self) -> Option<u16> {
        let lo = self.byte()? as u16;
        Some(lo | (self.byte()? as u16) << 8)
    }
    #[inline]
    fn dword(&mut self) -> Option<u32> {
        let lo = self.word()? as u32;
        Some(lo | (self.word()? as u32) << 16)
    }
}

/// Decodes an 8086 instruction from a byte slice; `None` when the slice
/// ends inside the instruction.
pub fn decode_bytes(bytes: &[u8]) -> Option<Instruction> {
    decode_bytes_for(CpuModel::I8086, bytes)
}

/// Decodes an instruction for `model` from a byte slice.
pub fn decode_bytes_for(model: CpuModel, bytes: &[u8]) -> Option<Instruction> {
    let mut i = 0;
    decode_for(
        model,
        || {
            let b = bytes.get(i).copied().unwrap_or(0);
            i += 1;
            b
        },
        bytes.len(),
    )
}
