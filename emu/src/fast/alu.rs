//! The flag arithmetic of the fast handlers in closed form, one copy per
//! operand width `N` (8, 16 or 32 bits): the same results and flags as the
//! generic `Cpu::alu`, `Cpu::shift` and `Cpu::condition`, without their
//! per-size branches.

use crate::flags::{AF, CF, OF, PF, STATUS};
use crate::size::Size;
use crate::table::Op;

/// PF for every low result byte (set when the number of ones is even).
pub(super) static PARITY: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        if (i as u8).count_ones() & 1 == 0 {
            t[i] = PF as u8;
        }
        i += 1;
    }
    t
};

/// SF, ZF and PF of an `N`-bit result `r` (already masked).
#[inline(always)]
pub(super) fn szp<const N: u32>(r: u32) -> u32 {
    ((r >> (N - 8)) & 0x80) | (((r == 0) as u32) << 6) | PARITY[r as u8 as usize] as u32
}

/// The `N`-bit mask.
#[inline(always)]
pub(super) const fn mask<const N: u32>() -> u32 {
    (u32::MAX) >> (32 - N)
}

/// The `Size` of `N` bits.
#[inline(always)]
pub(super) const fn size<const N: u32>() -> Size {
    match N {
        8 => Size::Byte,
        16 => Size::Word,
        _ => Size::Dword,
    }
}

/// ADD/ADC of `N`-bit `a`, `b` and `c` (0 or 1): the result and its
/// status flags (as [`Cpu::add`]).
#[inline(always)]
pub(super) fn add_n<const N: u32>(a: u32, b: u32, c: u32) -> (u32, u32) {
    let full = a as u64 + b as u64 + c as u64;
    let r = full as u32 & mask::<N>();
    let cf = ((full >> N) & 1) as u32;
    let of = (((r ^ a) & (r ^ b)) >> (N - 1) & 1) << 11;
    (r, cf | of | ((a ^ b ^ r) & AF) | szp::<N>(r))
}

/// SUB/SBB/CMP of `N`-bit `a`, `b` and borrow `c`: the result and its
/// status flags (as [`Cpu::sub`]).
#[inline(always)]
pub(super) fn sub_n<const N: u32>(a: u32, b: u32, c: u32) -> (u32, u32) {
    let r = a.wrapping_sub(b).wrapping_sub(c) & mask::<N>();
    let cf = (b as u64 + c as u64 > a as u64) as u32;
    let of = (((a ^ b) & (a ^ r)) >> (N - 1) & 1) << 11;
    (r, cf | of | ((a ^ b ^ r) & AF) | szp::<N>(r))
}

/// ALU operation `op` on `N`-bit `a` and `b` with the carry flag `cf` (0
/// or 1): the result and the new status flags (as [`Cpu::alu`]: AND, OR,
/// XOR and TEST clear CF, OF and AF).
#[inline(always)]
pub(super) fn alu_n<const N: u32>(op: Op, a: u32, b: u32, cf: u32) -> (u32, u32) {
    match op {
        Op::Add => add_n::<N>(a, b, 0),
        Op::Adc => add_n::<N>(a, b, cf),
        Op::Sub | Op::Cmp => sub_n::<N>(a, b, 0),
        Op::Sbb => sub_n::<N>(a, b, cf),
        Op::Or => (a | b, szp::<N>(a | b)),
        Op::Xor => (a ^ b, szp::<N>(a ^ b)),
        _ => (a & b, szp::<N>(a & b)),
    }
}

/// A shift or rotate of `N`-bit `v` by `count` (at least 1) with carry
/// flag `cf` (0 or 1), in closed form for the counts below the width (up
/// to it for RCL/RCR): the result, the new status flags and the status
/// flags kept (as [`Cpu::shift`]'s bit-by-bit loop leaves them: CF and OF
/// from the last step, and for the shifts SF/ZF/PF from the result and AF
/// clear). `None` for the other counts, which the loop runs.
#[inline(always)]
pub(super) fn shift_n<const N: u32>(
    op: Op,
    v: u32,
    count: u32,
    cf: u32,
) -> Option<(u32, u32, u32)> {
    let m = mask::<N>();
    let c = count;
    let msb = |x: u32| (x >> (N - 1)) & 1;
    let of = |b: u32| b << 11;
    // Rotates keep SF, ZF, AF and PF.
    let rot_keep = STATUS & !(CF | OF);
    match op {
        Op::Shl if c < N => {
            let r = (v << c) & m;
            let cf = (v >> (N - c)) & 1;
            Some((r, cf | of(msb(r) ^ cf) | szp::<N>(r), 0))
        }
        Op::Shr if c < N => {
            let r = v >> c;
            let cf = (v >> (c - 1)) & 1;
            // OF is the operand's sign before the last step.
            Some((r, cf | of(msb(v >> (c - 1))) | szp::<N>(r), 0))
        }
        Op::Sar if c < N => {
            let sv = ((v << (32 - N)) as i32) >> (32 - N);
            let r = (sv >> c) as u32 & m;
            let cf = (sv >> (c - 1)) as u32 & 1;
            Some((r, cf | szp::<N>(r), 0))
        }
        Op::Rol if c < N => {
            let r = ((v << c) | (v >> (N - c))) & m;
            let cf = r & 1;
            Some((r, cf | of(msb(r) ^ cf), rot_keep))
        }
        Op::Ror if c < N => {
            let r = ((v >> c) | (v << (N - c))) & m;
            Some((r, msb(r) | of(msb(r ^ (r << 1))), rot_keep))
        }
        Op::Rcl | Op::Rcr if c <= N => {
            // The N + 1 bits CF:operand, rotated.
            let x = (cf as u64) << N | v as u64;
            let w = N + 1;
            let k = if op == Op::Rcl { c } else { w - c };
            let y = ((x << k) | (x >> (w - k))) & ((1u64 << w) - 1);
            let r = y as u32 & m;
            let cf = (y >> N) as u32 & 1;
            let o = if op == Op::Rcl {
                msb(r) ^ cf
            } else {
                msb(r ^ (r << 1))
            };
            Some((r, cf | of(o), rot_keep))
        }
        _ => None,
    }
}

/// Condition `cc` (the low nibble of a Jcc opcode) of `flags`, as
/// `Cpu::condition` evaluates it.
#[inline(always)]
pub(super) fn condition(flags: u32, cc: u8) -> bool {
    let bit = |n: u32| (flags >> n) & 1;
    let (cf, pf, zf, sf, of) = (bit(0), bit(2), bit(6), bit(7), bit(11));
    let r = match cc >> 1 {
        0 => of,
        1 => cf,
        2 => zf,
        3 => cf | zf,
        4 => sf,
        5 => pf,
        6 => sf ^ of,
        _ => zf | (sf ^ of),
    };
    r != (cc & 1) as u32
}
