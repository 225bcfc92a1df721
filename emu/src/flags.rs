//! FLAGS bits (Intel 8086 Family User's Manual, figure 2-32) and the parity
//! table.
//!
//! Why plain `u32` constants and not a `bitflags` type: FLAGS is a register
//! image that the ALU computes arithmetically (carries, parity, sign and
//! overflow come out of additions and masks), that PUSHF/POPF, SAHF/LAHF and
//! interrupts move as a whole word, and that each model fixes and masks as
//! numbers ([`crate::Capabilities::flags_writable`] and `flags_fixed_ones`).
//! A flags type would wrap and unwrap that word on the hottest path of every
//! instruction for no check the compiler can make; CR0 and the MSW are
//! likewise stored as written and read back as numbers. So the workspace
//! does not depend on bitflags.

/// Carry.
pub const CF: u32 = 0x0001;
/// Always 1 on the 8086-386 (reserved bit 1).
pub const RESERVED1: u32 = 0x0002;
/// Parity of the low result byte (set when even).
pub const PF: u32 = 0x0004;
/// Auxiliary (BCD) carry out of bit 3.
pub const AF: u32 = 0x0010;
/// Zero.
pub const ZF: u32 = 0x0040;
/// Sign.
pub const SF: u32 = 0x0080;
/// Trap (single step).
pub const TF: u32 = 0x0100;
/// Interrupt enable.
pub const IF: u32 = 0x0200;
/// Direction.
pub const DF: u32 = 0x0400;
/// Overflow.
pub const OF: u32 = 0x0800;
/// The arithmetic status flags.
pub const STATUS: u32 = CF | PF | AF | ZF | SF | OF;

/// True when `v` has an even number of set bits (PF's definition).
#[inline]
pub fn parity(v: u8) -> bool {
    v.count_ones() & 1 == 0
}
