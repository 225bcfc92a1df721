//! The x87 opcode map (D8h-DFh) as data: memory forms by opcode and the
//! ModR/M reg field, register forms by opcode and the whole ModR/M byte
//! (80387 PRM, appendix A; Intel SDM vol. 2, table ).

/// The six arithmetic operations and the two compares of the D8/DC/DA/DE
/// groups, in reg-field order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    /// FADD
    Add,
    /// FMUL
    Mul,
    /// FCOM
    Com,
    /// FCOMP
    Comp,
    /// FSUB: dest - src
    Sub,
    /// FSUBR: src - dest
    Subr,
    /// FDIV: dest / src
    Div,
    /// FDIVR: src / dest
    Divr,
}

/// A memory operand's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// 16-bit two's complement integer.
    I16,
    /// 32-bit integer.
    I32,
    /// 64-bit integer.
    I64,
    /// Single real.
    R32,
    /// Double real.
    R64,
    /// Extended real.
    R80,
    /// 18-digit packed BCD.
    Bcd,
}

impl Format {
    /// Its size in bytes.
    pub fn bytes(self) -> usize {
        match self {
            Format::I16 => 2,
            Format::I32 | Format::R32 => 4,
            Format::I64 | Format::R64 => 8,
            Format::R80 | Format::Bcd => 10,
        }
    }
}

/// What one x87 encoding does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum X87Op {
    /// ST(0) op= memory operand.
    ArithMem(Arith, Format),
    /// ST(0) op= ST(i).
    ArithSt0(Arith),
    /// ST(i) op= ST(0) (DC group, where SUB/SUBR and DIV/DIVR swap),
    /// popping for the DE group.
    ArithSti(Arith, bool),
    /// FLD memory.
    Load(Format),
    /// FST/FSTP memory (the flag pops), FIST/FISTP, FBSTP.
    Store(Format, bool),
    /// FLD ST(i).
    LoadSt,
    /// FST/FSTP ST(i).
    StoreSt(bool),
    /// FXCH ST(i).
    Xch,
    /// FUCOM/FUCOMP ST(i) (the count of pops).
    Ucom(u8),
    /// FUCOMPP.
    Ucompp,
    /// FCOMPP.
    Compp,
    /// FCHS.
    Chs,
    /// FABS.
    Abs,
    /// FTST.
    Tst,
    /// FXAM.
    Xam,
    /// FLD1 ... FLDZ (the index into `consts::CONSTANTS`).
    Const(u8),
    /// FSQRT.
    Sqrt,
    /// FRNDINT.
    Rndint,
    /// FSCALE.
    Scale,
    /// FXTRACT.
    Xtract,
    /// FPREM (false) and FPREM1 (true).
    Prem(bool),
    /// F2XM1, FYL2X, FPTAN, FPATAN, FYL2XP1, FSINCOS, FSIN, FCOS.
    Transcendental(Transc),
    /// FDECSTP (false), FINCSTP (true).
    Stp(bool),
    /// FFREE ST(i).
    Free,
    /// FNOP.
    Nop,
    /// FNENI, FNDISI (8087) and FNSETPM (287): control instructions the 387
    /// ignores.
    Ignored,
    /// FNCLEX.
    Clex,
    /// FNINIT.
    Init,
    /// FLDCW m16.
    Ldcw,
    /// FNSTCW m16.
    Stcw,
    /// FNSTSW m16.
    Stsw,
    /// FNSTSW AX.
    StswAx,
    /// FLDENV.
    Ldenv,
    /// FNSTENV.
    Stenv,
    /// FRSTOR.
    Rstor,
    /// FNSAVE.
    Save,
    /// An encoding the 387 does not define (#UD on the 486 would be
    /// raised by the CPU; the 387 ignores it).
    Undefined,
}

use super::transcendental::Transc;
use Arith as A;
use Format as F;
use Transc as T;
use X87Op::*;

/// The arithmetic group of D8h, DAh, DCh and DEh with memory operands of
/// format `f`, in reg-field order.
const fn arith_group(f: Format) -> [X87Op; 8] {
    [
        ArithMem(A::Add, f),
        ArithMem(A::Mul, f),
        ArithMem(A::Com, f),
        ArithMem(A::Comp, f),
        ArithMem(A::Sub, f),
        ArithMem(A::Subr, f),
        ArithMem(A::Div, f),
        ArithMem(A::Divr, f),
    ]
}

/// Memory forms: `MEM[opcode - D8h][reg]`.
pub const MEM: [[X87Op; 8]; 8] = [
    // D8: arithmetic with a single real
    arith_group(F::R32),
    // D9
    [
        Load(F::R32),
        Undefined,
        Store(F::R32, false),
        Store(F::R32, true),
        Ldenv,
        Ldcw,
        Stenv,
        Stcw,
    ],
    // DA: arithmetic with a 32-bit integer
    arith_group(F::I32),
    // DB
    [
        Load(F::I32),
        Undefined,
        Store(F::I32, false),
        Store(F::I32, true),
        Undefined,
        Load(F::R80),
        Undefined,
        Store(F::R80, true),
    ],
    // DC: arithmetic with a double real
    arith_group(F::R64),
    // DD
    [
        Load(F::R64),
        Undefined,
        Store(F::R64, false),
        Store(F::R64, true),
        Rstor,
        Undefined,
        Save,
        Stsw,
    ],
    // DE: arithmetic with a 16-bit integer
    arith_group(F::I16),
    // DF
    [
        Load(F::I16),
        Undefined,
        Store(F::I16, false),
        Store(F::I16, true),
        Load(F::Bcd),
        Load(F::I64),
        Store(F::Bcd, true),
        Store(F::I64, true),
    ],
];

/// Register forms: (opcode, first ModR/M, last ModR/M, operation); the
/// first row that covers a byte wins, a byte no row covers is undefined.
pub const REG: &[(u8, u8, u8, X87Op)] = &[
    (0xD8, 0xC0, 0xC7, ArithSt0(A::Add)),
    (0xD8, 0xC8, 0xCF, ArithSt0(A::Mul)),
    (0xD8, 0xD0, 0xD7, ArithSt0(A::Com)),
    (0xD8, 0xD8, 0xDF, ArithSt0(A::Comp)),
    (0xD8, 0xE0, 0xE7, ArithSt0(A::Sub)),
    (0xD8, 0xE8, 0xEF, ArithSt0(A::Subr)),
    (0xD8, 0xF0, 0xF7, ArithSt0(A::Div)),
    (0xD8, 0xF8, 0xFF, ArithSt0(A::Divr)),
    (0xD9, 0xC0, 0xC7, LoadSt),
    (0xD9, 0xC8, 0xCF, Xch),
    (0xD9, 0xD0, 0xD0, Nop),
    (0xD9, 0xE0, 0xE0, Chs),
    (0xD9, 0xE1, 0xE1, Abs),
    (0xD9, 0xE4, 0xE4, Tst),
    (0xD9, 0xE5, 0xE5, Xam),
    (0xD9, 0xE8, 0xE8, Const(0)),
    (0xD9, 0xE9, 0xE9, Const(1)),
    (0xD9, 0xEA, 0xEA, Const(2)),
    (0xD9, 0xEB, 0xEB, Const(3)),
    (0xD9, 0xEC, 0xEC, Const(4)),
    (0xD9, 0xED, 0xED, Const(5)),
    (0xD9, 0xEE, 0xEE, Const(6)),
    (0xD9, 0xF0, 0xF0, Transcendental(T::F2xm1)),
    (0xD9, 0xF1, 0xF1, Transcendental(T::Fyl2x)),
    (0xD9, 0xF2, 0xF2, Transcendental(T::Fptan)),
    (0xD9, 0xF3, 0xF3, Transcendental(T::Fpatan)),
    (0xD9, 0xF4, 0xF4, Xtract),
    (0xD9, 0xF5, 0xF5, Prem(true)),
    (0xD9, 0xF6, 0xF6, Stp(false)),
    (0xD9, 0xF7, 0xF7, Stp(true)),
    (0xD9, 0xF8, 0xF8, Prem(false)),
    (0xD9, 0xF9, 0xF9, Transcendental(T::Fyl2xp1)),
    (0xD9, 0xFA, 0xFA, Sqrt),
    (0xD9, 0xFB, 0xFB, Transcendental(T::Fsincos)),
    (0xD9, 0xFC, 0xFC, Rndint),
    (0xD9, 0xFD, 0xFD, Scale),
    (0xD9, 0xFE, 0xFE, Transcendental(T::Fsin)),
    (0xD9, 0xFF, 0xFF, Transcendental(T::Fcos)),
    (0xDA, 0xE9, 0xE9, Ucompp),
    (0xDB, 0xE0, 0xE1, Ignored),
    (0xDB, 0xE2, 0xE2, Clex),
    (0xDB, 0xE3, 0xE3, Init),
    (0xDB, 0xE4, 0xE4, Ignored),
    (0xDC, 0xC0, 0xC7, ArithSti(A::Add, false)),
    (0xDC, 0xC8, 0xCF, ArithSti(A::Mul, false)),
    (0xDC, 0xD0, 0xD7, ArithSt0(A::Com)),
    (0xDC, 0xD8, 0xDF, ArithSt0(A::Comp)),
    (0xDC, 0xE0, 0xE7, ArithSti(A::Subr, false)),
    (0xDC, 0xE8, 0xEF, ArithSti(A::Sub, false)),
    (0xDC, 0xF0, 0xF7, ArithSti(A::Divr, false)),
    (0xDC, 0xF8, 0xFF, ArithSti(A::Div, false)),
    (0xDD, 0xC0, 0xC7, Free),
    (0xDD, 0xC8, 0xCF, Xch),
    (0xDD, 0xD0, 0xD7, StoreSt(false)),
    (0xDD, 0xD8, 0xDF, StoreSt(true)),
    (0xDD, 0xE0, 0xE7, Ucom(0)),
    (0xDD, 0xE8, 0xEF, Ucom(1)),
    (0xDE, 0xC0, 0xC7, ArithSti(A::Add, true)),
    (0xDE, 0xC8, 0xCF, ArithSti(A::Mul, true)),
    (0xDE, 0xD0, 0xD7, ArithSt0(A::Comp)),
    (0xDE, 0xD9, 0xD9, Compp),
    (0xDE, 0xE0, 0xE7, ArithSti(A::Subr, true)),
    (0xDE, 0xE8, 0xEF, ArithSti(A::Sub, true)),
    (0xDE, 0xF0, 0xF7, ArithSti(A::Divr, true)),
    (0xDE, 0xF8, 0xFF, ArithSti(A::Div, true)),
    (0xDF, 0xC8, 0xCF, Xch),
    (0xDF, 0xD0, 0xDF, StoreSt(true)),
    (0xDF, 0xE0, 0xE0, StswAx),
];

/// The operation of `opcode` (D8h-DFh) with ModR/M byte `modrm`.
pub fn decode(opcode: u8, modrm: u8) -> X87Op {
    if modrm < 0xC0 {
        return MEM[(opcode & 7) as usize][((modrm >> 3) & 7) as usize];
    }
    REG.iter()
        .find(|r| r.0 == opcode && (r.1..=r.2).contains(&modrm))
        .map_or(Undefined, |r| r.3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_detection_encodings() {
        assert_eq!(decode(0xDB, 0xE3), Init);
        assert_eq!(decode(0xDD, 0x3E), Stsw);
        assert_eq!(decode(0xD9, 0x3E), Stcw);
        assert_eq!(decode(0xDF, 0xE0), StswAx);
    }

    #[test]
    fn register_forms_by_whole_byte() {
        assert_eq!(decode(0xDE, 0xC1), ArithSti(Arith::Add, true));
        assert_eq!(decode(0xDC, 0xE9), ArithSti(Arith::Sub, false));
        assert_eq!(decode(0xD9, 0xEB), Const(3));
        assert_eq!(decode(0xDE, 0xD8), Undefined);
        assert_eq!(decode(0xD9, 0xD1), Undefined);
        assert_eq!(decode(0xDB, 0x2E), Load(Format::R80));
    }
}
