//! The debugger's shared syntax: numbers, addresses and breakpoint
//! conditions as the console types them (the protocol takes the same
//! address and condition strings in its JSON fields).

use super::error::{Error, Result};

/// An address as typed: SEG:OFF (either may be a register) or linear.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Addr {
    /// Segment and offset: each a number or a register name, read when
    /// the command runs.
    SegOff(String, String),
    /// A linear address.
    Linear(u32),
}

/// A value a condition reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A register (16-bit, 8-bit half, e-register, segment, IP, FLAGS).
    Reg(String),
    /// A byte of memory.
    Byte(Addr),
    /// A word of memory.
    Word(Addr),
}

/// How a condition compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The operators as typed, the two-character ones first so `<=` is
    /// not read as `<`.
    const TABLE: [(&'static str, CmpOp); 6] = [
        ("==", CmpOp::Eq),
        ("!=", CmpOp::Ne),
        ("<=", CmpOp::Le),
        (">=", CmpOp::Ge),
        ("<", CmpOp::Lt),
        (">", CmpOp::Gt),
    ];

    /// Whether `a OP b` holds.
    pub fn holds(self, a: u32, b: u32) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

/// A breakpoint condition: OPERAND OP VALUE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cond {
    /// What is compared.
    pub lhs: Operand,
    /// How.
    pub op: CmpOp,
    /// With this.
    pub rhs: u32,
}

/// A number: hex by default (`0x` prefix or `h` suffix accepted), `#N`
/// decimal.
pub fn parse_num(s: &str) -> Result<u32> {
    let t = s.trim();
    let r = match t.strip_prefix('#') {
        Some(d) => d.parse::<u32>().ok(),
        None => {
            let h = t
                .strip_prefix("0x")
                .or_else(|| t.strip_prefix("0X"))
                .or_else(|| t.strip_suffix('h'))
                .or_else(|| t.strip_suffix('H'))
                .unwrap_or(t);
            u32::from_str_radix(h, 16).ok()
        }
    };
    r.ok_or_else(|| Error::BadNumber(s.into()))
}

/// Parses `SEG:OFF` or a linear address.
pub fn parse_addr(s: &str) -> Result<Addr> {
    match s.split_once(':') {
        Some((a, b)) => Ok(Addr::SegOff(a.trim().into(), b.trim().into())),
        None => Ok(Addr::Linear(parse_num(s)?)),
    }
}

/// Parses `LHS OP VALUE`.
pub fn parse_cond(s: &str) -> Result<Cond> {
    for (text, op) in CmpOp::TABLE {
        if let Some((l, r)) = s.split_once(text) {
            let l = l.trim().to_ascii_lowercase();
            let lhs = if let Some(a) = l.strip_prefix("byte[").and_then(|x| x.strip_suffix(']')) {
                Operand::Byte(parse_addr(a)?)
            } else if let Some(a) = l.strip_prefix("word[").and_then(|x| x.strip_suffix(']')) {
                Operand::Word(parse_addr(a)?)
            } else {
                Operand::Reg(l)
            };
            return Ok(Cond {
                lhs,
                op,
                rhs: parse_num(r.trim())?,
            });
        }
    }
    Err(Error::BadCondition(s.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_hex_unless_marked_decimal() {
        assert_eq!(parse_num("10").ok(), Some(16));
        assert_eq!(parse_num("0x10").ok(), Some(16));
        assert_eq!(parse_num("10h").ok(), Some(16));
        assert_eq!(parse_num("#10").ok(), Some(10));
        assert!(matches!(parse_num("zz"), Err(Error::BadNumber(t)) if t == "zz"));
    }

    #[test]
    fn conditions_read_the_longest_operator() {
        let c = parse_cond("byte[ds:10] <= 7").expect("a condition");
        assert_eq!(c.op, CmpOp::Le);
        assert_eq!(c.lhs, Operand::Byte(Addr::SegOff("ds".into(), "10".into())));
        assert_eq!(c.rhs, 7);
        assert!(c.op.holds(7, 7) && !c.op.holds(8, 7));
        assert!(matches!(parse_cond("ax"), Err(Error::BadCondition(_))));
    }
}
