//! Our own 8086 decoder: prefixes, opcode, ModR/M, displacement and
//! immediates, driven by the opcode map in [`crate::table`].
//!
//! iced-x86 has no 8086 aliases (60h-6Fh, C0h/C1h/C8h/C9h, D6h, 0Fh as POP CS,
//! F1h), so the core decodes for itself; a test cross-checks this decoder with
//! iced-x86 on every encoding both understand.

use crate::regs::SegReg;
use crate::table::{group_member, Form, Op, OPCODES};

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
    /// The opcode byte (after the prefixes).
    pub opcode: u8,
    /// The operation.
    pub op: Op,
    /// Its operand form (for group members, the member's form).
    pub form: Form,
    /// Word operation (opcode bit 0 in most encodings).
    pub w: bool,
    /// ModR/M byte, when the form has one.
    pub modrm: Option<ModRm>,
    /// Displacement (sign-extended to 16 bits for 8-bit displacements).
    pub disp: u16,
    /// First immediate (the offset of a far pointer; sign-extended for 83h
    /// and for relative jumps).
    pub imm: u16,
    /// Second immediate (the segment of a far pointer).
    pub imm2: u16,
    /// Segment override prefix (the last one given wins).
    pub seg: Option<SegReg>,
    /// Repeat prefix (the last one given wins).
    pub rep: Rep,
    /// LOCK (F0h or its alias F1h) was given.
    pub lock: bool,
    /// Number of prefix bytes.
    pub prefixes: u8,
    /// Total length in bytes, prefixes included.
    pub len: u8,
}

/// True for the bytes the 8086 treats as prefixes.
#[inline]
pub fn is_prefix(b: u8) -> bool {
    matches!(b, 0x26 | 0x2E | 0x36 | 0x3E | 0xF0 | 0xF1 | 0xF2 | 0xF3)
}

/// Whether the operation uses the word size: most encodings use opcode bit 0;
/// register-in-opcode and segment forms are fixed.
fn word_size(opcode: u8, form: Form) -> bool {
    match form {
        Form::Reg | Form::AccReg | Form::Reg16I | Form::Sreg | Form::ES | Form::SE | Form::GM => {
            true
        }
        Form::Reg8I => false,
        Form::Rel8 | Form::Rel16 | Form::Far | Form::Iw | Form::Ib => true,
        _ => opcode & 1 != 0,
    }
}

/// Decodes one 8086 instruction, reading its bytes from `next` in order.
/// Prefixes are unlimited, as on the 8086 (no 15-byte limit). `max_len`
/// bounds the bytes read for callers that decode from a buffer: a longer
/// instruction returns `None` (it never happens on the CPU, which passes
/// `usize::MAX`).
pub fn decode<F: FnMut() -> u8>(next: F, max_len: usize) -> Option<Instruction> {
    let mut r = Reader {
        next,
        len: 0,
        max_len,
    };
    let mut seg = None;
    let mut rep = Rep::None;
    let mut lock = false;
    let mut prefixes = 0u8;
    let opcode = loop {
        let b = r.byte()?;
        match b {
            0x26 => seg = Some(SegReg::ES),
            0x2E => seg = Some(SegReg::CS),
            0x36 => seg = Some(SegReg::SS),
            0x3E => seg = Some(SegReg::DS),
            0xF0 | 0xF1 => lock = true,
            0xF2 => rep = Rep::Repne,
            0xF3 => rep = Rep::Rep,
            _ => break b,
        }
        prefixes = prefixes.saturating_add(1);
    };
    let entry = OPCODES[opcode as usize];
    let (mut op, mut form) = (entry.op, entry.form);
    let modrm = if form.has_modrm() {
        let m = ModRm::new(r.byte()?);
        if let Form::Group(g) = form {
            (op, form) = group_member(opcode, g, m.reg);
        }
        Some(m)
    } else {
        None
    };
    let w = word_size(opcode, form);
    let disp = match modrm.map_or(0, ModRm::disp_len) {
        1 => r.byte()? as i8 as i16 as u16,
        2 => r.word()?,
        _ => 0,
    };
    let (imm, imm2) = match form {
        Form::AccI | Form::EI if w => (r.word()?, 0),
        Form::AccI | Form::EI => (r.byte()? as u16, 0),
        Form::EIb | Form::Rel8 => (r.byte()? as i8 as i16 as u16, 0),
        Form::Reg8I | Form::Ib | Form::AccPort => (r.byte()? as u16, 0),
        Form::Reg16I | Form::Rel16 | Form::Iw | Form::AccMoffs | Form::MoffsAcc => (r.word()?, 0),
        Form::Far => (r.word()?, r.word()?),
        _ => (0, 0),
    };
    Some(Instruction {
        opcode,
        op,
        form,
        w,
        modrm,
        disp,
        imm,
        imm2,
        seg,
        rep,
        lock,
        prefixes,
        len: r.len.min(255) as u8,
    })
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
}

/// Decodes from a byte slice; `None` when the slice ends inside the
/// instruction.
pub fn decode_bytes(bytes: &[u8]) -> Option<Instruction> {
    let mut i = 0;
    decode(
        || {
            let b = bytes.get(i).copied().unwrap_or(0);
            i += 1;
            b
        },
        bytes.len(),
    )
}
