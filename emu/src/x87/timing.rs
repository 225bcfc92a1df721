//! The x87's execution clocks, as data: one [`FpuTiming`] per unit, the
//! 80387 beside a 386 and the 486's on-chip unit, chosen by the CPU model
//! ([`for_model`]). They are added to the CPU's own ESC count.
//!
//! Sources: the 80387 execution times (387DX datasheet / 80387 PRM) and the
//! i486 floating-point clock counts (i486 PRM, real-address mode, cache
//! hit), as transcribed by the Norton Guides x86 reference (387 and 486
//! columns), 86Box's `cpu/x87_timings.c` (387 and 486 tables) and MAME's
//! i386 core cycle table (`cpu/i386/cycles.h`, i486 column). Where a manual
//! gives a range, the table holds its lower bound: the counts depend on the
//! operands, which are not modelled here. The i486 gives FLDENV, FSTENV,
//! FRSTOR and FSAVE a real-mode and a protected-mode count; real mode's is
//! used.

use super::decode::{Arith, Format, X87Op};
use super::transcendental::Transc;
use crate::model::CpuModel;

/// What an x87 instruction's clocks depend on: the operation and, for the
/// arithmetic group and the loads and stores, the operand. `Mxx` is a
/// memory operand of xx bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// FADD, FSUB, FSUBR with ST(i) (and the popping forms).
    Fadd,
    /// FADD m32 real (and FSUB, FSUBR).
    FaddM32,
    /// FADD m64 real.
    FaddM64,
    /// FIADD m16 integer (and FISUB, FISUBR).
    FiaddM16,
    /// FIADD m32 integer.
    FiaddM32,
    /// FMUL with ST(i).
    Fmul,
    /// FMUL m32 real.
    FmulM32,
    /// FMUL m64 real.
    FmulM64,
    /// FIMUL m16 integer.
    FimulM16,
    /// FIMUL m32 integer.
    FimulM32,
    /// FDIV, FDIVR with ST(i).
    Fdiv,
    /// FDIV m32 real (and FDIVR).
    FdivM32,
    /// FDIV m64 real.
    FdivM64,
    /// FIDIV m16 integer (and FIDIVR).
    FidivM16,
    /// FIDIV m32 integer.
    FidivM32,
    /// FCOM, FCOMP with ST(i).
    Fcom,
    /// FCOM m32 real (and FCOMP).
    FcomM32,
    /// FCOM m64 real.
    FcomM64,
    /// FICOM m16 integer (and FICOMP).
    FicomM16,
    /// FICOM m32 integer.
    FicomM32,
    /// FLD m32 real.
    FldM32,
    /// FLD m64 real.
    FldM64,
    /// FLD m80 real.
    FldM80,
    /// FILD m16 integer.
    FildM16,
    /// FILD m32 integer.
    FildM32,
    /// FILD m64 integer.
    FildM64,
    /// FBLD m80 BCD.
    Fbld,
    /// FST, FSTP m32 real.
    FstM32,
    /// FST, FSTP m64 real.
    FstM64,
    /// FSTP m80 real.
    FstpM80,
    /// FIST, FISTP m16 integer.
    FistM16,
    /// FIST, FISTP m32 integer.
    FistM32,
    /// FISTP m64 integer.
    FistpM64,
    /// FBSTP m80 BCD.
    Fbstp,
    /// FLD ST(i).
    Fld,
    /// FST, FSTP ST(i).
    Fst,
    /// FXCH.
    Fxch,
    /// FUCOM, FUCOMP.
    Fucom,
    /// FCOMPP, FUCOMPP: compare and pop twice.
    Fcompp,
    /// FCHS.
    Fchs,
    /// FABS.
    Fabs,
    /// FTST.
    Ftst,
    /// FXAM.
    Fxam,
    /// FLD1.
    Fld1,
    /// FLDZ.
    Fldz,
    /// FLDPI, FLDL2T, FLDL2E, FLDLG2, FLDLN2.
    FldConst,
    /// FSQRT.
    Fsqrt,
    /// FRNDINT.
    Frndint,
    /// FSCALE.
    Fscale,
    /// FXTRACT.
    Fxtract,
    /// FPREM.
    Fprem,
    /// FPREM1.
    Fprem1,
    /// F2XM1.
    F2xm1,
    /// FYL2X.
    Fyl2x,
    /// FPTAN.
    Fptan,
    /// FPATAN.
    Fpatan,
    /// FYL2XP1.
    Fyl2xp1,
    /// FSINCOS.
    Fsincos,
    /// FSIN.
    Fsin,
    /// FCOS.
    Fcos,
    /// FINCSTP, FDECSTP.
    Fincstp,
    /// FFREE.
    Ffree,
    /// FNOP, and FENI, FDISI, FSETPM and the undefined encodings the unit
    /// ignores.
    Fnop,
    /// FNCLEX.
    Fclex,
    /// FNINIT.
    Finit,
    /// FLDCW.
    Fldcw,
    /// FNSTCW.
    Fstcw,
    /// FNSTSW m16.
    Fstsw,
    /// FNSTSW AX.
    FstswAx,
    /// FLDENV.
    Fldenv,
    /// FNSTENV.
    Fstenv,
    /// FRSTOR.
    Frstor,
    /// FNSAVE.
    Fsave,
}

use Key::*;

/// The number of [`Key`]s.
pub const KEY_COUNT: usize = Fsave as usize + 1;

/// The arithmetic group's keys by operation (add, mul, div, com) and
/// operand (ST(i), m32 real, m64 real, m16 integer, m32 integer).
const ARITH: [[Key; 5]; 4] = [
    [Fadd, FaddM32, FaddM64, FiaddM16, FiaddM32],
    [Fmul, FmulM32, FmulM64, FimulM16, FimulM32],
    [Fdiv, FdivM32, FdivM64, FidivM16, FidivM32],
    [Fcom, FcomM32, FcomM64, FicomM16, FicomM32],
];

/// The arithmetic key of `a` with operand column `col` of [`ARITH`].
fn arith(a: Arith, col: usize) -> Key {
    let row = match a {
        Arith::Add | Arith::Sub | Arith::Subr => 0,
        Arith::Mul => 1,
        Arith::Div | Arith::Divr => 2,
        Arith::Com | Arith::Comp => 3,
    };
    ARITH[row][col]
}

/// The key of a memory format in the load (`store` false) or store rows.
fn load_store(f: Format, store: bool) -> Key {
    let (load, st) = match f {
        Format::R32 => (FldM32, FstM32),
        Format::R64 => (FldM64, FstM64),
        Format::R80 => (FldM80, FstpM80),
        Format::I16 => (FildM16, FistM16),
        Format::I32 => (FildM32, FistM32),
        Format::I64 => (FildM64, FistpM64),
        Format::Bcd => (Fbld, Fbstp),
    };
    if store {
        st
    } else {
        load
    }
}

/// The row that times `op`.
pub fn key(op: X87Op) -> Key {
    use X87Op as O;
    match op {
        O::ArithMem(a, f) => {
            let col = match f {
                Format::R32 => 1,
                Format::R64 => 2,
                Format::I16 => 3,
                _ => 4,
            };
            arith(a, col)
        }
        O::ArithSt0(a) | O::ArithSti(a, _) => arith(a, 0),
        O::Load(f) => load_store(f, false),
        O::Store(f, _) => load_store(f, true),
        O::LoadSt => Fld,
        O::StoreSt(_) => Fst,
        O::Xch => Fxch,
        O::Ucom(_) => Fucom,
        O::Ucompp | O::Compp => Fcompp,
        O::Chs => Fchs,
        O::Abs => Fabs,
        O::Tst => Ftst,
        O::Xam => Fxam,
        O::Const(0) => Fld1,
        O::Const(6) => Fldz,
        O::Const(_) => FldConst,
        O::Sqrt => Fsqrt,
        O::Rndint => Frndint,
        O::Scale => Fscale,
        O::Xtract => Fxtract,
        O::Prem(false) => Fprem,
        O::Prem(true) => Fprem1,
        O::Transcendental(t) => match t {
            Transc::F2xm1 => F2xm1,
            Transc::Fyl2x => Fyl2x,
            Transc::Fptan => Fptan,
            Transc::Fpatan => Fpatan,
            Transc::Fyl2xp1 => Fyl2xp1,
            Transc::Fsincos => Fsincos,
            Transc::Fsin => Fsin,
            Transc::Fcos => Fcos,
        },
        O::Stp(_) => Fincstp,
        O::Free => Ffree,
        O::Nop | O::Ignored | O::Undefined => Fnop,
        O::Clex => Fclex,
        O::Init => Finit,
        O::Ldcw => Fldcw,
        O::Stcw => Fstcw,
        O::Stsw => Fstsw,
        O::StswAx => FstswAx,
        O::Ldenv => Fldenv,
        O::Stenv => Fstenv,
        O::Rstor => Frstor,
        O::Save => Fsave,
    }
}

/// One unit's execution clocks: a row per [`Key`].
#[derive(Debug)]
pub struct FpuTiming {
    /// The rows, as written (kept for the completeness test).
    #[cfg(test)]
    rows: &'static [(Key, u16)],
    /// [`FpuTiming::rows`] indexed by key.
    clocks: [u16; KEY_COUNT],
}

impl FpuTiming {
    const fn new(rows: &'static [(Key, u16)]) -> Self {
        let mut clocks = [0; KEY_COUNT];
        let mut i = 0;
        while i < rows.len() {
            clocks[rows[i].0 as usize] = rows[i].1;
            i += 1;
        }
        FpuTiming {
            #[cfg(test)]
            rows,
            clocks,
        }
    }

    /// The clocks of `op`.
    #[inline]
    pub fn clocks(&self, op: X87Op) -> u32 {
        self.clocks[key(op) as usize] as u32
    }
}

/// The unit a CPU of `model` works with: the 486's own when it is on the
/// chip, else a 387.
pub fn for_model(model: CpuModel) -> &'static FpuTiming {
    if model.caps().fpu_on_chip {
        &TIMING_486
    } else {
        &TIMING_387
    }
}

/// The clocks of `op` on the unit of `model`, on top of the CPU's own ESC
/// count. The 387's counts are the coprocessor's alone; the i486 manual's
/// are whole instructions, so the ESC row the CPU has already counted for
/// the decode is taken off them.
#[inline]
pub fn clocks(model: CpuModel, op: X87Op) -> u32 {
    let c = for_model(model).clocks(op);
    if !model.caps().fpu_on_chip {
        return c;
    }
    match model.caps().timing.cost(crate::table::Op::Esc) {
        crate::timing::Cost::Fixed(esc) => c.saturating_sub(esc as u32),
        _ => c,
    }
}

/// The 80387 (387DX datasheet, execution times; lower bounds of ranges).
pub static TIMING_387: FpuTiming = FpuTiming::new(&[
    (Fadd, 23),
    (FaddM32, 24),
    (FaddM64, 29),
    (FiaddM16, 71),
    (FiaddM32, 57),
    // 29-57 when ST(i) has 40 trailing zero bits; 46-57 otherwise.
    (Fmul, 46),
    (FmulM32, 27),
    (FmulM64, 32),
    (FimulM16, 76),
    (FimulM32, 61),
    (Fdiv, 88),
    (FdivM32, 89),
    (FdivM64, 94),
    (FidivM16, 136),
    (FidivM32, 120),
    (Fcom, 24),
    (FcomM32, 26),
    (FcomM64, 31),
    (FicomM16, 71),
    (FicomM32, 56),
    (FldM32, 20),
    (FldM64, 25),
    (FldM80, 44),
    (FildM16, 61),
    (FildM32, 45),
    (FildM64, 56),
    (Fbld, 266),
    (FstM32, 44),
    (FstM64, 45),
    (FstpM80, 53),
    (FistM16, 82),
    (FistM32, 79),
    (FistpM64, 80),
    (Fbstp, 512),
    (Fld, 14),
    (Fst, 11),
    (Fxch, 18),
    (Fucom, 24),
    (Fcompp, 24),
    (Fchs, 24),
    (Fabs, 22),
    (Ftst, 28),
    (Fxam, 30),
    (Fld1, 24),
    (Fldz, 20),
    (FldConst, 40),
    (Fsqrt, 122),
    (Frndint, 66),
    (Fscale, 67),
    (Fxtract, 70),
    (Fprem, 74),
    (Fprem1, 95),
    // The transcendentals' ranges depend on the operand; their lower
    // bounds, as everywhere here.
    (F2xm1, 211),
    (Fyl2x, 120),
    (Fptan, 191),
    (Fpatan, 314),
    (Fyl2xp1, 257),
    (Fsincos, 194),
    (Fsin, 122),
    (Fcos, 123),
    (Fincstp, 21),
    (Ffree, 18),
    (Fnop, 12),
    (Fclex, 11),
    (Finit, 33),
    (Fldcw, 19),
    (Fstcw, 15),
    (Fstsw, 15),
    (FstswAx, 13),
    (Fldenv, 71),
    (Fstenv, 103),
    (Frstor, 308),
    (Fsave, 375),
]);

/// The i486's on-chip unit (i486 PRM, floating-point clock counts, real
/// mode, cache hit; lower bounds of ranges), mostly far below the 387's.
pub static TIMING_486: FpuTiming = FpuTiming::new(&[
    // FADD/FSUB 8-20 in every real form.
    (Fadd, 8),
    (FaddM32, 8),
    (FaddM64, 8),
    (FiaddM16, 20),
    (FiaddM32, 19),
    (Fmul, 16),
    (FmulM32, 11),
    (FmulM64, 14),
    (FimulM16, 23),
    (FimulM32, 22),
    (Fdiv, 73),
    (FdivM32, 73),
    (FdivM64, 73),
    (FidivM16, 85),
    (FidivM32, 84),
    (Fcom, 4),
    (FcomM32, 4),
    (FcomM64, 4),
    (FicomM16, 16),
    (FicomM32, 15),
    (FldM32, 3),
    (FldM64, 3),
    (FldM80, 6),
    (FildM16, 13),
    (FildM32, 9),
    (FildM64, 10),
    (Fbld, 70),
    (FstM32, 7),
    (FstM64, 8),
    (FstpM80, 6),
    (FistM16, 29),
    (FistM32, 28),
    (FistpM64, 29),
    (Fbstp, 172),
    (Fld, 4),
    (Fst, 3),
    (Fxch, 4),
    (Fucom, 4),
    (Fcompp, 5),
    (Fchs, 6),
    (Fabs, 3),
    (Ftst, 4),
    (Fxam, 8),
    (Fld1, 4),
    (Fldz, 4),
    (FldConst, 8),
    (Fsqrt, 83),
    (Frndint, 21),
    (Fscale, 30),
    (Fxtract, 16),
    (Fprem, 70),
    (Fprem1, 72),
    (F2xm1, 140),
    (Fyl2x, 196),
    (Fptan, 200),
    (Fpatan, 218),
    (Fyl2xp1, 171),
    (Fsincos, 292),
    (Fsin, 257),
    (Fcos, 257),
    (Fincstp, 3),
    (Ffree, 3),
    (Fnop, 3),
    (Fclex, 7),
    (Finit, 17),
    (Fldcw, 4),
    (Fstcw, 3),
    (Fstsw, 3),
    (FstswAx, 3),
    // Real mode; protected mode 34, 56, 120, 143.
    (Fldenv, 44),
    (Fstenv, 67),
    (Frstor, 131),
    (Fsave, 154),
]);

#[cfg(test)]
mod tests {
    use super::super::decode::decode;
    use super::*;

    const TABLES: [(&str, &FpuTiming); 2] = [("387", &TIMING_387), ("486", &TIMING_486)];

    /// Every operation the decoder yields, from every ESC encoding.
    fn every_operation() -> Vec<X87Op> {
        let mut ops = Vec::new();
        for opcode in 0xD8..=0xDF {
            for modrm in 0..=0xFF {
                let op = decode(opcode, modrm);
                if !ops.contains(&op) {
                    ops.push(op);
                }
            }
        }
        ops
    }

    #[test]
    fn every_operation_has_exactly_one_row_per_table() {
        let ops = every_operation();
        assert!(ops.len() > 60, "only {} operations decoded", ops.len());
        for (name, t) in TABLES {
            for &op in &ops {
                let n = t.rows.iter().filter(|r| r.0 == key(op)).count();
                assert_eq!(n, 1, "{name}: {op:?} ({:?}) in {n} rows", key(op));
            }
        }
    }

    #[test]
    fn every_key_has_exactly_one_row_and_a_count() {
        for (name, t) in TABLES {
            assert_eq!(t.rows.len(), KEY_COUNT, "{name}: row count");
            for (i, (k, n)) in t.rows.iter().enumerate() {
                assert!(*n > 0, "{name}: {k:?} has no count");
                assert!(
                    t.rows[i + 1..].iter().all(|r| r.0 != *k),
                    "{name}: {k:?} twice"
                );
            }
        }
    }

    #[test]
    fn every_key_is_reachable_from_an_encoding() {
        let keys: Vec<Key> = every_operation().into_iter().map(key).collect();
        for (k, _) in TIMING_387.rows {
            assert!(keys.contains(k), "{k:?} times no encoding");
        }
    }

    #[test]
    fn the_unit_follows_the_model() {
        assert!(std::ptr::eq(for_model(CpuModel::I386), &TIMING_387));
        assert!(std::ptr::eq(for_model(CpuModel::I486), &TIMING_486));
        assert!(std::ptr::eq(for_model(CpuModel::I486Cpuid), &TIMING_486));
    }

    #[test]
    fn the_manuals_key_counts() {
        let c387 = |op| clocks(CpuModel::I386, op);
        let c486 = |op| for_model(CpuModel::I486).clocks(op);
        // 387: FADD ST(i) 23-34; FIDIVR m16 136-140; FBSTP 512-534; FLDZ
        // 20, FLD1 24, FLDPI 40; FSUB ST(i),ST 23.
        assert_eq!(c387(decode(0xD8, 0xC1)), 23);
        assert_eq!(c387(X87Op::ArithMem(Arith::Divr, Format::I16)), 136);
        assert_eq!(c387(X87Op::Store(Format::Bcd, true)), 512);
        assert_eq!(c387(decode(0xD9, 0xEE)), 20);
        assert_eq!(c387(decode(0xD9, 0xE8)), 24);
        assert_eq!(c387(decode(0xD9, 0xEB)), 40);
        assert_eq!(c387(X87Op::ArithSti(Arith::Sub, true)), 23);
        // i486: FADD 8-20, FMUL ST(i) 16, FMUL m32 11, FDIV 73, FSQRT
        // 83-87, FLD m32 3, FST m64 8, FXCH 4, FSAVE 154 (real mode).
        assert_eq!(c486(decode(0xD8, 0xC1)), 8);
        assert_eq!(c486(decode(0xDC, 0xC9)), 16);
        assert_eq!(c486(X87Op::ArithMem(Arith::Mul, Format::R32)), 11);
        assert_eq!(c486(decode(0xDE, 0xF9)), 73);
        assert_eq!(c486(decode(0xD9, 0xFA)), 83);
        assert_eq!(c486(X87Op::Load(Format::R32)), 3);
        assert_eq!(c486(X87Op::Store(Format::R64, false)), 8);
        assert_eq!(c486(decode(0xD9, 0xC9)), 4);
        assert_eq!(c486(X87Op::Save), 154);
        // The transcendentals, each its own row: 387 FSIN 122-771, FPATAN
        // 314-487; i486 F2XM1 140-279, FSINCOS 292-365.
        assert_eq!(c387(decode(0xD9, 0xFE)), 122);
        assert_eq!(c387(decode(0xD9, 0xF3)), 314);
        assert_eq!(c486(decode(0xD9, 0xF0)), 140);
        assert_eq!(c486(decode(0xD9, 0xFB)), 292);
    }
}
