//! Clock counts per instruction, per model, as data: one [`ModelTiming`]
//! per model (the model's [`crate::Capabilities::timing`]), whose rows give
//! each operation its [`Cost`]. Sources: the documented 8086 timings (Intel
//! 8086 Family User's Manual, table 2-21) with the effective-address times
//! of table 2-20; the 80286 real-mode timings (80286 Programmer's Reference
//! Manual, appendix B); the 80386 real-mode timings (80386 Programmer's
//! Reference Manual, section 17.2.2.3); the i486 timings (i486
//! Microprocessor Programmer's Reference Manual, appendix "instruction
//! clock counts", real-address mode, cache hits). These are the register-level
//! timings; the cycle-exact bus interface unit of the 8086 replaces them
//! with T-state accounting.
//!
//! Where a manual gives a range (MUL, DIV, the 386's early-out multiply), the
//! value here is the middle of the range. Transfers of control on the 286
//! and 386 cost "+ m", the number of components of the next instruction;
//! tandem counts m = 1 (included in the rows below).

use crate::decode::{Instruction, ModRm};
use crate::model::CpuModel;
use crate::size::Size;
use crate::table::{Form, Op, OP_COUNT};

/// Clocks added to an interrupt entry by an exception (divide error) beyond
/// the INT sequence it shares.
pub const EXCEPTION_ENTRY: u32 = 51;
/// Clocks of a maskable interrupt's INTA cycles and entry.
pub const INTR_ENTRY: u32 = 61;
/// Clocks of an NMI or single-step entry.
pub const NMI_ENTRY: u32 = 50;

/// A set of operand forms (a bit per [`Form`]), to select a row of
/// [`Cost::Forms`].
pub type FormSet = u64;

/// Every form: the last row of a [`Cost::Forms`] list.
pub const ANY: FormSet = u64::MAX;

/// The bit of `form` in a [`FormSet`].
pub const fn form_bit(form: Form) -> FormSet {
    let i = match form {
        Form::None => 0,
        Form::EG => 1,
        Form::GE => 2,
        Form::AccI => 3,
        Form::E => 4,
        Form::EI => 5,
        Form::EIbs => 6,
        Form::E1 => 7,
        Form::ECl => 8,
        Form::ES => 9,
        Form::SE => 10,
        Form::GM => 11,
        Form::Reg => 12,
        Form::AccReg => 13,
        Form::Reg8I => 14,
        Form::Reg16I => 15,
        Form::Sreg => 16,
        Form::Rel8 => 17,
        Form::Rel16 => 18,
        Form::Far => 19,
        Form::Iw => 20,
        Form::Ib => 21,
        Form::AccMoffs => 22,
        Form::MoffsAcc => 23,
        Form::AccPort => 24,
        Form::AccDx => 25,
        Form::Group(_) => 26,
        Form::EIbu => 27,
        Form::Iv => 28,
        Form::Ibs => 29,
        Form::GEI => 30,
        Form::GEIb => 31,
        Form::GEb => 32,
        Form::GEw => 33,
        Form::EGIb => 34,
        Form::EGCl => 35,
        Form::IwIb => 36,
        Form::Cr => 37,
    };
    1 << i
}

const EG: FormSet = form_bit(Form::EG);
const GE: FormSet = form_bit(Form::GE);
const ACC_I: FormSet = form_bit(Form::AccI);
const EI: FormSet = form_bit(Form::EI);
const EIBS: FormSet = form_bit(Form::EIbs);
const EIBU: FormSet = form_bit(Form::EIbu);
const E1: FormSet = form_bit(Form::E1);
const ES: FormSet = form_bit(Form::ES);
const SE: FormSet = form_bit(Form::SE);
const ACC_REG: FormSet = form_bit(Form::AccReg);
const REG: FormSet = form_bit(Form::Reg);
const REG_I: FormSet = form_bit(Form::Reg8I) | form_bit(Form::Reg16I);
const IW: FormSet = form_bit(Form::Iw);
const ACC_MOFFS: FormSet = form_bit(Form::AccMoffs);
const MOFFS_ACC: FormSet = form_bit(Form::MoffsAcc);
const ACC_PORT: FormSet = form_bit(Form::AccPort);

/// How an operation's documented clocks vary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    /// The same count in every form.
    Fixed(u16),
    /// A register operand, a memory operand.
    RegMem(u16, u16),
    /// A conditional transfer (or INTO): taken, not taken.
    Taken(u16, u16),
    /// By operand width (byte, word, doubleword): register, memory.
    Width([(u16, u16); 3]),
    /// By form: the first row whose set holds the instruction's form
    /// (register, memory); the last row's set is [`ANY`].
    Forms(&'static [(FormSet, u16, u16)]),
}

impl Cost {
    /// The clocks of `ins`; `mem` says whether its r/m operand is in
    /// memory, `taken` whether a conditional transfer was taken.
    #[inline]
    pub fn of(self, ins: &Instruction, mem: bool, taken: bool) -> u32 {
        let pick = |r: u16, m: u16| (if mem { m } else { r }) as u32;
        match self {
            Cost::Fixed(n) => n as u32,
            Cost::RegMem(r, m) => pick(r, m),
            Cost::Taken(t, n) => (if taken { t } else { n }) as u32,
            Cost::Width(w) => {
                let (r, m) = w[Size::of(ins.w, ins.opsize32) as usize];
                pick(r, m)
            }
            Cost::Forms(rows) => {
                let bit = form_bit(ins.form);
                let mut last = (0, 0);
                for &(set, r, m) in rows {
                    last = (r, m);
                    if set & bit != 0 {
                        break;
                    }
                }
                pick(last.0, last.1)
            }
        }
    }
}

/// A row of a model's timing: the operations that share a [`Cost`].
pub type ClockRow = (&'static [Op], Cost);

/// A row of a model's REP timing: the string operations that share their
/// set-up clocks and clocks per iteration.
pub type RepRow = (&'static [Op], u16, u16);

/// One model's register-level timing.
#[derive(Debug)]
pub struct ModelTiming {
    /// The rows, as written (kept for the completeness test).
    pub rows: &'static [ClockRow],
    /// The REP rows.
    pub rep_rows: &'static [RepRow],
    /// Effective-address clocks by ModR/M `mode` (0, or 1-2) and `rm`.
    pub ea: [[u8; 8]; 2],
    /// Clocks a segment override adds to the effective address.
    pub ea_seg_override: u8,
    /// [`ModelTiming::rows`] indexed by operation.
    clocks: [Cost; OP_COUNT],
    /// [`ModelTiming::rep_rows`] indexed by operation.
    rep: [(u16, u16); OP_COUNT],
}

impl ModelTiming {
    const fn new(
        rows: &'static [ClockRow],
        rep_rows: &'static [RepRow],
        ea: [[u8; 8]; 2],
        ea_seg_override: u8,
    ) -> Self {
        let mut clocks = [Cost::Fixed(0); OP_COUNT];
        let mut i = 0;
        while i < rows.len() {
            let mut j = 0;
            while j < rows[i].0.len() {
                clocks[rows[i].0[j] as usize] = rows[i].1;
                j += 1;
            }
            i += 1;
        }
        let mut rep = [(0, 0); OP_COUNT];
        let mut i = 0;
        while i < rep_rows.len() {
            let mut j = 0;
            while j < rep_rows[i].0.len() {
                rep[rep_rows[i].0[j] as usize] = (rep_rows[i].1, rep_rows[i].2);
                j += 1;
            }
            i += 1;
        }
        ModelTiming {
            rows,
            rep_rows,
            ea,
            ea_seg_override,
            clocks,
            rep,
        }
    }

    /// The cost of `op`.
    #[inline(always)]
    pub fn cost(&self, op: Op) -> Cost {
        self.clocks[op as usize]
    }
}

/// Effective-address clocks: the 8086's table 2-20 (2 more with a segment
/// override); the 286 adds 1 for base + index + displacement; the 386 adds 1
/// for an index register (80386 PRM 17.2.2.3).
#[inline]
pub fn ea_clocks(model: CpuModel, m: ModRm, seg_override: bool) -> u32 {
    let t = model.caps().timing;
    let row = (m.mode != 0) as usize;
    t.ea[row][m.rm as usize & 7] as u32 + seg_override as u32 * t.ea_seg_override as u32
}

/// Documented clocks of `ins` on `model`, excluding EA time and
/// repetition. `mem` says whether the r/m operand is in memory; `taken`
/// whether a conditional transfer was taken.
#[inline]
pub fn clocks(model: CpuModel, ins: &Instruction, mem: bool, taken: bool) -> u32 {
    model.caps().timing.cost(ins.op).of(ins, mem, taken)
}

/// The set-up clocks of a REP string instruction and the clocks per
/// iteration.
#[inline]
pub fn rep_clocks(model: CpuModel, op: Op) -> (u32, u32) {
    let (setup, per) = model.caps().timing.rep[op as usize];
    (setup as u32, per as u32)
}

use Cost::{Fixed, Forms, RegMem, Taken, Width};
use Op::*;

/// The 8086's arithmetic group forms.
const ALU_8086: Cost = Forms(&[(EG, 3, 16), (GE, 3, 9), (ACC_I, 4, 4), (ANY, 4, 17)]);

/// The 8086 (Intel 8086 Family User's Manual, table 2-21).
pub static TIMING_8086: ModelTiming = ModelTiming::new(
    &[
        (&[Add, Or, Adc, Sbb, And, Sub, Xor], ALU_8086),
        (
            &[Cmp],
            Forms(&[(EG | GE, 3, 9), (ACC_I, 4, 4), (ANY, 4, 10)]),
        ),
        (&[Test], Forms(&[(EG, 3, 9), (ACC_I, 4, 4), (ANY, 5, 11)])),
        (
            &[Mov],
            Forms(&[
                (EG, 2, 9),
                (GE, 2, 8),
                (ES, 2, 9),
                (SE, 2, 8),
                (EI, 4, 10),
                (REG_I, 4, 4),
                (ACC_MOFFS | MOFFS_ACC, 10, 10),
                (ANY, 4, 4),
            ]),
        ),
        (&[PushSeg, Pushf], Fixed(10)),
        (&[PopSeg, Popf], Fixed(8)),
        (&[Push], Forms(&[(REG, 11, 11), (ANY, 11, 16)])),
        (&[Pop], Forms(&[(REG, 8, 8), (ANY, 8, 17)])),
        (&[Xchg], Forms(&[(ACC_REG, 3, 3), (ANY, 4, 17)])),
        (&[Inc, Dec], Forms(&[(REG, 2, 2), (ANY, 3, 15)])),
        (&[Not, Neg], RegMem(3, 16)),
        (&[Daa, Das, Aaa, Aas], Fixed(4)),
        (&[Aam], Fixed(83)),
        (&[Aad], Fixed(60)),
        (&[Cbw], Fixed(2)),
        (&[Cwd], Fixed(5)),
        (&[Mul], Width([(73, 79), (125, 131), (125, 131)])),
        (&[Imul], Width([(89, 95), (141, 147), (141, 147)])),
        (&[Div], Width([(85, 91), (153, 159), (153, 159)])),
        (&[Idiv], Width([(106, 112), (174, 180), (174, 180)])),
        (
            &[Rol, Ror, Rcl, Rcr, Shl, Shr, Sar, Setmo],
            Forms(&[(E1, 2, 15), (ANY, 8, 20)]),
        ),
        (&[Lea], Fixed(2)),
        (&[Les, Lds], Fixed(16)),
        (&[Lahf, Sahf], Fixed(4)),
        (&[Xlat], Fixed(11)),
        (&[In, Out], Forms(&[(ACC_PORT, 10, 10), (ANY, 8, 8)])),
        (&[Movs], Fixed(18)),
        (&[Cmps], Fixed(22)),
        (&[Scas], Fixed(15)),
        (&[Lods], Fixed(12)),
        (&[Stos], Fixed(11)),
        (&[Call], Fixed(19)),
        (&[CallFar], Fixed(28)),
        (&[CallInd], RegMem(16, 21)),
        (&[CallFarInd], Fixed(37)),
        (&[Jmp, JmpFar], Fixed(15)),
        (&[JmpInd], RegMem(11, 18)),
        (&[JmpFarInd], Fixed(24)),
        (&[Ret], Forms(&[(IW, 12, 12), (ANY, 8, 8)])),
        (&[Retf], Forms(&[(IW, 17, 17), (ANY, 18, 18)])),
        (&[Jcc], Taken(16, 4)),
        (&[Loop], Taken(17, 5)),
        (&[Loope], Taken(18, 6)),
        (&[Loopne], Taken(19, 5)),
        (&[Jcxz], Taken(18, 6)),
        (&[Int], Fixed(51)),
        (&[Int3], Fixed(52)),
        (&[Into], Taken(53, 4)),
        (&[Iret], Fixed(24)),
        (&[Clc, Stc, Cli, Sti, Cld, Std, Cmc, Hlt], Fixed(2)),
        (&[Wait], Fixed(3)),
        (&[Salc], Fixed(4)),
        (&[Esc], RegMem(2, 8)),
        (&[Prefix, Invalid], Fixed(2)),
        // The 186 and later operations never decode on the 8086.
        (
            &[
                Pusha, Popa, Bound, Imul3, Ins, Outs, Enter, Leave, Movzx, Movsx, Bt, Bts, Btr,
                Btc, Bsf, Bsr, Shld, Shrd, Setcc, Lss, Lfs, Lgs, MovFromCr, MovToCr, Sgdt, Sidt,
                Lgdt, Lidt, Smsw, Lmsw, Clts, Icebp, Bswap, Xadd, Cmpxchg, Invd, Wbinvd, Invlpg,
                Cpuid,
            ],
            Fixed(2),
        ),
    ],
    &[
        (&[Movs], 9, 17),
        (&[Cmps], 9, 22),
        (&[Scas], 9, 15),
        (&[Lods], 9, 13),
        (&[Stos, Ins, Outs], 9, 10),
    ],
    [[7, 8, 8, 7, 5, 5, 6, 5], [11, 12, 12, 11, 9, 9, 9, 9]],
    2,
);

/// The 80286 in real mode (80286 PRM, appendix B).
pub static TIMING_286: ModelTiming = ModelTiming::new(
    &[
        (
            &[Add, Or, Adc, Sbb, And, Sub, Xor],
            Forms(&[(ACC_I, 3, 3), (EI | EIBS, 3, 7), (ANY, 2, 7)]),
        ),
        (
            &[Cmp, Test],
            Forms(&[(ACC_I, 3, 3), (EI | EIBS, 3, 6), (ANY, 2, 6)]),
        ),
        (
            &[Mov],
            Forms(&[
                (GE | SE, 2, 5),
                (ACC_MOFFS, 5, 5),
                (MOFFS_ACC, 3, 3),
                (ANY, 2, 3),
            ]),
        ),
        (&[Movzx, Movsx, Setcc, Bsf, Bsr], RegMem(3, 6)),
        (&[PushSeg, Pushf], Fixed(3)),
        (&[PopSeg, Popf], Fixed(5)),
        (&[Pop], Fixed(5)),
        (&[Push], RegMem(3, 5)),
        (&[Pusha], Fixed(17)),
        (&[Popa], Fixed(19)),
        (&[Xchg], RegMem(3, 5)),
        (&[Inc, Dec, Not, Neg], RegMem(2, 7)),
        (&[Daa, Das, Aaa, Aas], Fixed(3)),
        (&[Aam], Fixed(16)),
        (&[Aad], Fixed(14)),
        (&[Cbw, Cwd], Fixed(2)),
        (&[Mul, Imul], Width([(13, 16), (21, 24), (21, 24)])),
        (&[Imul3], RegMem(21, 24)),
        (&[Div], Width([(14, 17), (22, 25), (22, 25)])),
        (&[Idiv], Width([(17, 20), (25, 28), (25, 28)])),
        (
            &[Rol, Ror, Rcl, Rcr, Shl, Shr, Sar, Setmo],
            Forms(&[(E1, 2, 7), (ANY, 5, 8)]),
        ),
        (&[Shld, Shrd, Bt, Bts, Btr, Btc], RegMem(3, 7)),
        (&[Lea], Fixed(3)),
        (&[Les, Lds, Lss, Lfs, Lgs], Fixed(7)),
        (&[Lahf, Sahf], Fixed(2)),
        (&[Xlat], Fixed(5)),
        (&[In], Fixed(5)),
        (&[Out], Fixed(3)),
        (&[Movs, Lods, Ins, Outs], Fixed(5)),
        (&[Cmps], Fixed(8)),
        (&[Scas], Fixed(7)),
        (&[Stos], Fixed(3)),
        (&[Call], Fixed(7 + 1)),
        (&[CallFar], Fixed(13 + 1)),
        (&[CallInd], RegMem(7 + 1, 11 + 1)),
        (&[CallFarInd], Fixed(16 + 1)),
        (&[Jmp], Fixed(7 + 1)),
        (&[JmpFar], Fixed(11 + 1)),
        (&[JmpInd], RegMem(7 + 1, 11 + 1)),
        (&[JmpFarInd], Fixed(15 + 1)),
        (&[Retf], Fixed(15 + 1)),
        (&[Ret], Fixed(11 + 1)),
        (&[Jcc], Taken(7 + 1, 3)),
        (&[Loop, Loope, Loopne, Jcxz], Taken(8 + 1, 4)),
        (&[Int, Int3, Icebp], Fixed(23 + 1)),
        (&[Into], Taken(24 + 1, 3)),
        (&[Iret], Fixed(17 + 1)),
        (&[Enter], Fixed(11)),
        (&[Leave], Fixed(5)),
        (&[Bound], Fixed(13)),
        (&[Hlt, Clc, Stc, Cli, Sti, Cld, Std, Cmc, Salc], Fixed(2)),
        (&[Wait], Fixed(3)),
        (&[Esc], Fixed(9)),
        (&[Smsw], RegMem(2, 3)),
        (&[Sgdt, Sidt, Lgdt, Lidt], Fixed(11)),
        (&[Lmsw], RegMem(3, 6)),
        (&[Clts], Fixed(2)),
        (&[MovFromCr, MovToCr], Fixed(6)),
        // The 486's operations never decode on the 286 (#UD).
        (
            &[
                Invalid, Prefix, Bswap, Xadd, Cmpxchg, Invd, Wbinvd, Invlpg, Cpuid,
            ],
            Fixed(2),
        ),
    ],
    &[
        (&[Movs, Lods, Ins, Outs], 5, 4),
        (&[Cmps], 5, 9),
        (&[Scas], 5, 8),
        (&[Stos], 4, 3),
    ],
    [[0; 8], [1, 1, 1, 1, 0, 0, 0, 0]],
    0,
);

/// The 80386 in real mode (80386 PRM, section 17.2.2.3).
pub static TIMING_386: ModelTiming = ModelTiming::new(
    &[
        (
            &[Add, Or, Adc, Sbb, And, Sub, Xor],
            Forms(&[(ACC_I, 2, 2), (GE, 2, 6), (ANY, 2, 7)]),
        ),
        (
            &[Cmp, Test],
            Forms(&[(ACC_I, 2, 2), (GE, 2, 6), (ANY, 2, 5)]),
        ),
        (
            &[Mov],
            Forms(&[(GE | ACC_MOFFS, 2, 4), (SE, 2, 5), (ANY, 2, 2)]),
        ),
        (&[Movzx, Movsx], RegMem(3, 6)),
        (&[Setcc], RegMem(4, 5)),
        (&[Bsf, Bsr], RegMem(10 + 16, 13 + 16)),
        (&[PushSeg], Fixed(2)),
        (&[Pushf], Fixed(4)),
        (&[PopSeg], Fixed(7)),
        (&[Popf], Fixed(5)),
        (&[Push], RegMem(2, 5)),
        (&[Pop], RegMem(4, 5)),
        (&[Pusha], Fixed(18)),
        (&[Popa], Fixed(24)),
        (&[Xchg], RegMem(3, 5)),
        (&[Inc, Dec, Not, Neg], RegMem(2, 6)),
        (&[Daa, Das, Aaa, Aas], Fixed(4)),
        (&[Aam], Fixed(17)),
        (&[Aad], Fixed(19)),
        (&[Cbw], Fixed(3)),
        (&[Cwd], Fixed(2)),
        (&[Mul, Imul, Imul3], Width([(12, 15), (16, 19), (24, 27)])),
        (&[Div], Width([(14, 17), (22, 25), (38, 41)])),
        (&[Idiv], Width([(19, 22), (27, 30), (43, 46)])),
        (&[Rcl, Rcr], RegMem(9, 10)),
        (&[Rol, Ror, Shl, Shr, Sar, Setmo], RegMem(3, 7)),
        (&[Shld, Shrd], RegMem(3, 7)),
        (&[Bt], Forms(&[(EIBU, 3, 6), (ANY, 3, 12)])),
        (&[Bts, Btr, Btc], Forms(&[(EIBU, 6, 8), (ANY, 6, 13)])),
        (&[Lea], Fixed(2)),
        (&[Les, Lds, Lss, Lfs, Lgs], Fixed(7)),
        (&[Lahf], Fixed(2)),
        (&[Sahf], Fixed(3)),
        (&[Xlat], Fixed(5)),
        (&[In], Forms(&[(ACC_PORT, 12, 12), (ANY, 13, 13)])),
        (&[Out], Forms(&[(ACC_PORT, 10, 10), (ANY, 11, 11)])),
        (&[Movs, Scas], Fixed(7)),
        (&[Cmps], Fixed(10)),
        (&[Lods], Fixed(5)),
        (&[Stos], Fixed(4)),
        (&[Ins], Fixed(15)),
        (&[Outs], Fixed(14)),
        (&[Call], Fixed(7 + 1)),
        (&[CallFar], Fixed(17 + 1)),
        (&[CallInd], RegMem(7 + 1, 10 + 1)),
        (&[CallFarInd], Fixed(22 + 1)),
        (&[Jmp], Fixed(7 + 1)),
        (&[JmpFar], Fixed(12 + 1)),
        (&[JmpInd], RegMem(7 + 1, 10 + 1)),
        (&[JmpFarInd], Fixed(17 + 1)),
        (&[Ret], Fixed(10 + 1)),
        (&[Retf], Fixed(18 + 1)),
        (&[Jcc], Taken(7 + 1, 3)),
        (&[Loop, Loope, Loopne], Taken(11 + 1, 4)),
        (&[Jcxz], Taken(9 + 1, 5)),
        (&[Int, Icebp], Fixed(37)),
        (&[Int3], Fixed(33)),
        (&[Into], Taken(35, 3)),
        (&[Iret], Fixed(22)),
        (&[Enter], Fixed(10)),
        (&[Leave], Fixed(4)),
        (&[Bound], Fixed(10)),
        (&[Hlt], Fixed(5)),
        (&[Cli, Sti], Fixed(3)),
        (&[Clc, Stc, Cld, Std, Cmc], Fixed(2)),
        (&[Wait], Fixed(6)),
        (&[Esc], Fixed(2)),
        (&[Salc], Fixed(2)),
        (&[Smsw], RegMem(10, 3)),
        (&[Lmsw], RegMem(10, 13)),
        (&[Sgdt, Sidt], Fixed(9)),
        (&[Lgdt, Lidt], Fixed(11)),
        (&[Clts], Fixed(5)),
        (&[MovFromCr], Fixed(6)),
        (&[MovToCr], Fixed(11)),
        // The 486's operations never decode on the 386 (#UD).
        (
            &[
                Invalid, Prefix, Bswap, Xadd, Cmpxchg, Invd, Wbinvd, Invlpg, Cpuid,
            ],
            Fixed(2),
        ),
    ],
    &[
        (&[Movs], 7, 4),
        (&[Cmps], 5, 9),
        (&[Scas], 5, 8),
        (&[Lods], 5, 6),
        (&[Stos], 5, 5),
        (&[Ins], 13, 6),
        (&[Outs], 12, 5),
    ],
    [[1, 1, 1, 1, 1, 0, 0, 0], [1, 1, 1, 1, 1, 0, 0, 0]],
    0,
);

/// The i486 in real mode (i486 PRM, appendix "instruction clock counts":
/// the real-address-mode column, assuming cache hits and no address
/// generation interlock). Ranges (MUL, BSF/BSR, RCL/RCR by a count) take
/// their middle; transfers of control have no "+ m" on the 486.
///
/// Every row was compared with a transcription of Intel's i486 counts, the
/// i486 real-mode column of MAME's i386 core cycle table
/// (`cpu/i386/cycles.h`), and each difference with two more: D. Jurgens'
/// HelpPC 2.10 (the PCGPE `INTEL.DOC` with its 808x/286/386/486 columns)
/// and the Norton Guides x86 reference. Where two agreed against the
/// earlier row it was changed (MOV Sreg,m 9; SETcc 3/4; MUL/IMUL by a
/// memory operand as by a register; shifts by an immediate 2 in a
/// register; BT m,imm 6 and m,r 12; INT n 30). Single-source
/// disagreements are kept: MOV CR0,r 17 (MAME 16), SHLD/SHRD by CL
/// (Norton 3/4), the REP set-up counts.
pub static TIMING_486: ModelTiming = ModelTiming::new(
    &[
        (
            &[Add, Or, Adc, Sbb, And, Sub, Xor],
            Forms(&[(ACC_I, 1, 1), (GE, 1, 2), (ANY, 1, 3)]),
        ),
        (&[Cmp, Test], RegMem(1, 2)),
        // MOV Sreg, r/m: register 3, memory 9.
        (&[Mov], Forms(&[(SE, 3, 9), (ES, 3, 3), (ANY, 1, 1)])),
        (&[Movzx, Movsx], Fixed(3)),
        (&[Setcc], RegMem(3, 4)),
        // BSF 6-42 (memory 7-43), BSR 6-103 (7-104).
        (&[Bsf], RegMem(24, 25)),
        (&[Bsr], RegMem(54, 55)),
        (&[PushSeg], Fixed(3)),
        (&[Pushf], Fixed(4)),
        (&[PopSeg], Fixed(3)),
        (&[Popf], Fixed(9)),
        (&[Push], RegMem(1, 4)),
        (&[Pop], RegMem(4, 6)),
        (&[Pusha], Fixed(11)),
        (&[Popa], Fixed(9)),
        (&[Xchg], Forms(&[(ACC_REG, 3, 3), (ANY, 3, 5)])),
        (&[Inc, Dec, Not, Neg], RegMem(1, 3)),
        (&[Daa, Das], Fixed(2)),
        (&[Aaa, Aas], Fixed(3)),
        (&[Aam], Fixed(15)),
        (&[Aad], Fixed(14)),
        (&[Cbw, Cwd], Fixed(3)),
        // MUL/IMUL: 13-18, 13-26, 13-42, the same with a memory operand.
        (&[Mul, Imul, Imul3], Width([(15, 15), (19, 19), (27, 27)])),
        (&[Div], Width([(16, 16), (24, 24), (40, 40)])),
        (&[Idiv], Width([(19, 20), (27, 28), (43, 44)])),
        // RCL/RCR by a count: 8-30 (memory 9-31).
        (&[Rcl, Rcr], Forms(&[(E1, 3, 4), (ANY, 19, 20)])),
        // By an immediate count a register takes 2.
        (
            &[Rol, Ror, Shl, Shr, Sar, Setmo],
            Forms(&[(EIBU, 2, 4), (ANY, 3, 4)]),
        ),
        (&[Shld, Shrd], RegMem(2, 3)),
        (&[Bt], Forms(&[(EIBU, 3, 6), (ANY, 3, 12)])),
        (&[Bts, Btr, Btc], Forms(&[(EIBU, 6, 8), (ANY, 6, 13)])),
        (&[Lea], Fixed(1)),
        (&[Les, Lds, Lss, Lfs, Lgs], Fixed(6)),
        (&[Lahf], Fixed(3)),
        (&[Sahf], Fixed(2)),
        (&[Xlat], Fixed(4)),
        (&[In], Fixed(14)),
        (&[Out], Fixed(16)),
        (&[Movs], Fixed(7)),
        (&[Cmps], Fixed(8)),
        (&[Scas], Fixed(6)),
        (&[Lods, Stos], Fixed(5)),
        (&[Ins, Outs], Fixed(17)),
        (&[Call], Fixed(3)),
        (&[CallFar], Fixed(18)),
        (&[CallInd], RegMem(5, 5)),
        (&[CallFarInd], Fixed(17)),
        (&[Jmp], Fixed(3)),
        (&[JmpFar], Fixed(17)),
        (&[JmpInd], RegMem(5, 5)),
        (&[JmpFarInd], Fixed(13)),
        (&[Ret], Fixed(5)),
        (&[Retf], Forms(&[(IW, 14, 14), (ANY, 13, 13)])),
        (&[Jcc], Taken(3, 1)),
        (&[Loop], Taken(7, 6)),
        (&[Loope, Loopne], Taken(9, 6)),
        (&[Jcxz], Taken(8, 5)),
        (&[Int], Fixed(30)),
        // ICEBP (undocumented) as INT 3, the other one-byte INT.
        (&[Int3, Icebp], Fixed(26)),
        (&[Into], Taken(28, 3)),
        (&[Iret], Fixed(15)),
        (&[Enter], Fixed(14)),
        (&[Leave], Fixed(5)),
        (&[Bound], Fixed(7)),
        (&[Hlt], Fixed(4)),
        (&[Cli, Sti], Fixed(5)),
        (&[Clc, Stc, Cld, Std, Cmc], Fixed(2)),
        // WAIT 1-3; ESC without a coprocessor model: its decode only.
        (&[Wait], Fixed(2)),
        (&[Esc], Fixed(2)),
        // SALC is undocumented: as CLC.
        (&[Salc], Fixed(2)),
        (&[Smsw], RegMem(2, 3)),
        (&[Lmsw], RegMem(13, 13)),
        (&[Sgdt, Sidt], Fixed(10)),
        (&[Lgdt, Lidt], Fixed(11)),
        (&[Clts], Fixed(7)),
        (&[MovFromCr], Fixed(4)),
        // MOV CR0, r32 17 (CR2/CR3: 4).
        (&[MovToCr], Fixed(17)),
        (&[Bswap], Fixed(1)),
        (&[Xadd], RegMem(3, 4)),
        // CMPXCHG 6, memory 7 (+3 when the comparison fails: not counted).
        (&[Cmpxchg], RegMem(6, 7)),
        (&[Invd], Fixed(4)),
        (&[Wbinvd], Fixed(5)),
        (&[Invlpg], Fixed(12)),
        (&[Cpuid], Fixed(14)),
        (&[Invalid, Prefix], Fixed(2)),
    ],
    &[
        // REP MOVS 12 + 3n, REP STOS/LODS 7 + 4n, REPE CMPS 7 + 7n, REPE
        // SCAS 7 + 5n, REP INS 16 + 8n, REP OUTS 17 + 5n.
        (&[Movs], 12, 3),
        (&[Stos, Lods], 7, 4),
        (&[Cmps], 7, 7),
        (&[Scas], 7, 5),
        (&[Ins], 16, 8),
        (&[Outs], 17, 5),
    ],
    // A base and an index register take one more clock.
    [[1, 1, 1, 1, 0, 0, 0, 0], [1, 1, 1, 1, 0, 0, 0, 0]],
    0,
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::ALL_OPS;

    const MODELS: [CpuModel; 5] = CpuModel::ALL;

    #[test]
    fn every_operation_has_exactly_one_row_per_model() {
        for model in MODELS {
            let t = model.caps().timing;
            for op in ALL_OPS {
                let n = t.rows.iter().filter(|r| r.0.contains(&op)).count();
                assert_eq!(n, 1, "{model}: {op:?} in {n} rows");
            }
            let strings = [
                Op::Movs,
                Op::Cmps,
                Op::Scas,
                Op::Lods,
                Op::Stos,
                Op::Ins,
                Op::Outs,
            ];
            for op in ALL_OPS {
                let n = t.rep_rows.iter().filter(|r| r.0.contains(&op)).count();
                assert_eq!(n, strings.contains(&op) as usize, "{model}: REP {op:?}");
            }
        }
    }

    #[test]
    fn every_forms_list_ends_with_any() {
        for model in MODELS {
            for (ops, cost) in model.caps().timing.rows {
                if let Cost::Forms(rows) = cost {
                    assert_eq!(rows.last().map(|r| r.0), Some(ANY), "{model}: {ops:?}");
                }
            }
        }
    }

    #[test]
    fn form_bits_are_distinct() {
        let forms = [
            Form::None,
            Form::EG,
            Form::GE,
            Form::AccI,
            Form::E,
            Form::EI,
            Form::EIbs,
            Form::E1,
            Form::ECl,
            Form::ES,
            Form::SE,
            Form::GM,
            Form::Reg,
            Form::AccReg,
            Form::Reg8I,
            Form::Reg16I,
            Form::Sreg,
            Form::Rel8,
            Form::Rel16,
            Form::Far,
            Form::Iw,
            Form::Ib,
            Form::AccMoffs,
            Form::MoffsAcc,
            Form::AccPort,
            Form::AccDx,
            Form::Group(0),
            Form::EIbu,
            Form::Iv,
            Form::Ibs,
            Form::GEI,
            Form::GEIb,
            Form::GEb,
            Form::GEw,
            Form::EGIb,
            Form::EGCl,
            Form::IwIb,
            Form::Cr,
        ];
        let all = forms.iter().fold(0u64, |acc, &f| {
            assert_eq!(acc & form_bit(f), 0, "{f:?}");
            acc | form_bit(f)
        });
        assert_eq!(all.count_ones() as usize, forms.len());
    }

    #[test]
    fn the_manuals_key_counts() {
        let ins = |op, form, w, op32| {
            let mut i = crate::decode::decode_bytes_for(CpuModel::I386, &[0x90]).expect("NOP");
            (i.op, i.form, i.w, i.opsize32) = (op, form, w, op32);
            i
        };
        // 8086 table 2-21: ADD mem, reg 16 + EA; MUL r16 118-133 (125).
        let add = ins(Op::Add, Form::EG, true, false);
        assert_eq!(clocks(CpuModel::I8086, &add, true, false), 16);
        let mul = ins(Op::Mul, Form::E, true, false);
        assert_eq!(clocks(CpuModel::I8086, &mul, false, false), 125);
        // 80386: DIV r32 38; Jcc taken 7 + m, not taken 3.
        let div = ins(Op::Div, Form::E, true, true);
        assert_eq!(clocks(CpuModel::I386, &div, false, false), 38);
        let jcc = ins(Op::Jcc, Form::Rel8, true, false);
        assert_eq!(clocks(CpuModel::I386, &jcc, false, true), 8);
        assert_eq!(clocks(CpuModel::I386, &jcc, false, false), 3);
        // 8086 table 2-20: [BP+DI] 7 (mode 0, rm 3), + 2 with an override.
        let m = ModRm::new(0x03);
        assert_eq!(ea_clocks(CpuModel::I8086, m, false), 7);
        assert_eq!(ea_clocks(CpuModel::I8086, m, true), 9);
        assert_eq!(rep_clocks(CpuModel::I8086, Op::Movs), (9, 17));
        // i486: ADD mem, reg 3; Jcc taken 3, not taken 1; DIV r32 40;
        // REP MOVS 12 + 3n; BSWAP 1.
        assert_eq!(clocks(CpuModel::I486, &add, true, false), 3);
        // i486 (form, memory operand, the manual's figure): MUL r16 and
        // m16 13-26 (19); INT n 30, INT 3 26; SHL r, imm8 2, SHL r, 1 3;
        // MOV DS, m16 9.
        let i486 = [
            (Op::Mul, Form::E, false, 19),
            (Op::Mul, Form::E, true, 19),
            (Op::Int, Form::Ib, false, 30),
            (Op::Int3, Form::None, false, 26),
            (Op::Shl, Form::EIbu, false, 2),
            (Op::Shl, Form::E1, false, 3),
            (Op::Mov, Form::SE, true, 9),
        ];
        for (op, form, mem, n) in i486 {
            let i = ins(op, form, true, false);
            assert_eq!(clocks(CpuModel::I486, &i, mem, false), n, "{op:?} {form:?}");
        }
        assert_eq!(clocks(CpuModel::I486, &jcc, false, true), 3);
        assert_eq!(clocks(CpuModel::I486, &jcc, false, false), 1);
        assert_eq!(clocks(CpuModel::I486, &div, false, false), 40);
        assert_eq!(rep_clocks(CpuModel::I486, Op::Movs), (12, 3));
        let bswap = ins(Op::Bswap, Form::Reg, true, true);
        assert_eq!(clocks(CpuModel::I486Cpuid, &bswap, false, false), 1);
    }
}
