//! The 387's execution clocks, added to the CPU's own ESC count when a
//! coprocessor is fitted (Intel 387DX User's Manual / datasheet, the
//! execution-time table; where it gives a range, the lower bound: the
//! counts depend on the operands, which this table does not model).

use super::decode::{Arith, Format, X87Op};

/// Clocks of an arithmetic group operation by operand: ST(i), m32 real,
/// m64 real, m16 integer, m32 integer.
struct ArithRow {
    st: u32,
    r32: u32,
    r64: u32,
    i16: u32,
    i32: u32,
}

const ADD: ArithRow = ArithRow {
    st: 23,
    r32: 24,
    r64: 29,
    i16: 71,
    i32: 57,
};
const MUL: ArithRow = ArithRow {
    st: 46,
    r32: 27,
    r64: 32,
    i16: 76,
    i32: 61,
};
const DIV: ArithRow = ArithRow {
    st: 88,
    r32: 89,
    r64: 94,
    i16: 136,
    i32: 120,
};
const COM: ArithRow = ArithRow {
    st: 24,
    r32: 26,
    r64: 31,
    i16: 71,
    i32: 56,
};

fn arith_row(a: Arith) -> &'static ArithRow {
    match a {
        Arith::Add | Arith::Sub | Arith::Subr => &ADD,
        Arith::Mul => &MUL,
        Arith::Div | Arith::Divr => &DIV,
        Arith::Com | Arith::Comp => &COM,
    }
}

/// Load clocks by format (FLD, FILD, FBLD).
fn load(f: Format) -> u32 {
    match f {
        Format::R32 => 20,
        Format::R64 => 25,
        Format::R80 => 44,
        Format::I16 => 61,
        Format::I32 => 45,
        Format::I64 => 56,
        Format::Bcd => 266,
    }
}

/// Store clocks by format (FST/FSTP, FIST/FISTP, FBSTP).
fn store(f: Format) -> u32 {
    match f {
        Format::R32 => 44,
        Format::R64 => 45,
        Format::R80 => 53,
        Format::I16 => 82,
        Format::I32 => 79,
        Format::I64 => 80,
        Format::Bcd => 512,
    }
}

/// The 387's clocks for `op`.
pub fn clocks(op: X87Op) -> u32 {
    use X87Op::*;
    match op {
        ArithMem(a, f) => {
            let r = arith_row(a);
            match f {
                Format::R32 => r.r32,
                Format::R64 => r.r64,
                Format::I16 => r.i16,
                _ => r.i32,
            }
        }
        ArithSt0(a) | ArithSti(a, _) => arith_row(a).st,
        Load(f) => load(f),
        Store(f, _) => store(f),
        LoadSt => 14,
        StoreSt(_) => 11,
        Xch => 18,
        Ucom(_) | Ucompp | Compp => 24,
        Chs => 24,
        Abs => 22,
        Tst => 28,
        Xam => 30,
        Const(0) => 24,
        Const(6) => 20,
        Const(_) => 40,
        Sqrt => 122,
        Rndint => 66,
        Scale => 67,
        Xtract => 70,
        Prem(false) => 74,
        Prem(true) => 95,
        Transcendental(_) => 122,
        Stp(_) => 21,
        Free => 18,
        Nop | Undefined => 12,
        Clex => 11,
        Init => 33,
        Ldcw => 19,
        Stcw => 15,
        Stsw => 15,
        StswAx => 13,
        Ldenv => 71,
        Stenv => 103,
        Rstor => 308,
        Save => 375,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_and_forms_have_their_rows() {
        assert_eq!(clocks(X87Op::Const(0)), 24);
        assert_eq!(clocks(X87Op::Const(6)), 20);
        assert_eq!(clocks(X87Op::Const(3)), 40);
        assert_eq!(clocks(X87Op::ArithMem(Arith::Divr, Format::I16)), 136);
        assert_eq!(clocks(X87Op::ArithSti(Arith::Sub, true)), 23);
        assert_eq!(clocks(X87Op::Store(Format::Bcd, true)), 512);
    }
}
