//! City-model state selection (`shared/design/target-game-facts.md`).
//!
//! A city-model header holds two signed 16-bit links relative to the
//! header: `+0` the next damage definition, `+2` the alternate definition.
//! If `state & 80h` the alternate link is followed first; then the damage
//! link `(state & mask) >> 5` times, with `mask` 20h for bank 30 and 60h for
//! banks 31 and 32. Special-object headers are not link records and must not
//! be followed.

use crate::memory::GuestMemory;

/// The damage mask of a bank (20h for 30, 60h for 31 and 32).
pub fn damage_mask(bank: u8) -> u8 {
    if bank == 30 {
        0x20
    } else {
        0x60
    }
}

/// The header selected from the header at offset `header` of the segment
/// whose linear base is `base`, for `state` in `bank`. Offsets wrap at 64 KiB
/// as 16-bit pointer arithmetic does.
pub fn select(
    mem: &(impl GuestMemory + ?Sized),
    base: u32,
    header: u16,
    state: u8,
    bank: u8,
) -> u16 {
    let link = |h: u16, at: u16| mem.read16(base + h.wrapping_add(at) as u32);
    let mut h = header;
    if state & 0x80 != 0 {
        h = h.wrapping_add(link(h, 2));
    }
    for _ in 0..((state & damage_mask(bank)) >> 5) {
        h = h.wrapping_add(link(h, 0));
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_relative_and_the_mask_counts_steps() {
        // Headers at 0x10 (damage +6, alt +0x20), 0x16 (damage +6), 0x1C
        // (damage 0), and the alternate at 0x30 (damage +6) and 0x36.
        let mut m = vec![0u8; 0x100];
        let mut put = |a: usize, v: i16| m[a..a + 2].copy_from_slice(&v.to_le_bytes());
        put(0x10, 6);
        put(0x12, 0x20);
        put(0x16, 6);
        put(0x1C, 0);
        put(0x30, 6);
        put(0x36, 0);
        assert_eq!(select(&m, 0, 0x10, 0x00, 31), 0x10);
        assert_eq!(select(&m, 0, 0x10, 0x20, 31), 0x16);
        assert_eq!(select(&m, 0, 0x10, 0x40, 31), 0x1C);
        assert_eq!(select(&m, 0, 0x10, 0x40, 30), 0x10, "bank 30 ignores bit 6");
        assert_eq!(select(&m, 0, 0x10, 0x80, 30), 0x30);
        assert_eq!(select(&m, 0, 0x10, 0xA0, 30), 0x36);
        assert_eq!(
            select(&m, 0, 0x10, 0x1F, 32),
            0x10,
            "low bits are not steps"
        );
    }
}
