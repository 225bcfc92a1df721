//! The operand size of an instruction: byte, word or doubleword.
//!
//! A leaf of the crate: the decoder's users, the timing rows, the bus
//! interface and the handlers all speak of it.

/// An operand size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Size {
    Byte,
    Word,
    Dword,
}

impl Size {
    /// Byte, or the operand size (16 or 32 bits) for word operations.
    #[inline]
    pub(crate) fn of(w: bool, op32: bool) -> Size {
        match (w, op32) {
            (false, _) => Size::Byte,
            (true, false) => Size::Word,
            (true, true) => Size::Dword,
        }
    }
    /// The operand size of a word-only operation.
    #[inline]
    pub(crate) fn wide(op32: bool) -> Size {
        if op32 {
            Size::Dword
        } else {
            Size::Word
        }
    }
    /// Ones over the operand's bits.
    #[inline]
    pub(crate) fn mask(self) -> u32 {
        match self {
            Size::Byte => 0xFF,
            Size::Word => 0xFFFF,
            Size::Dword => 0xFFFF_FFFF,
        }
    }
    /// The operand's sign bit.
    #[inline]
    pub(crate) fn sign(self) -> u32 {
        match self {
            Size::Byte => 0x80,
            Size::Word => 0x8000,
            Size::Dword => 0x8000_0000,
        }
    }
    /// The operand's width in bits.
    #[inline]
    pub(crate) fn bits(self) -> u32 {
        match self {
            Size::Byte => 8,
            Size::Word => 16,
            Size::Dword => 32,
        }
    }
}
