//! City-model state selection (`shared/design/target-game-facts.md`).
//!
//! A city-model header holds two signed 16-bit links relative to the
//! header: `+0` the next damage definition, `+2` the alternate definition.
//! If `state & 80h` the alternate link is followed first; then the damage
//! link `(state & mask) >> 5` times, with `mask` 20h for bank 30 and 60h for
//! banks 31 and 32. Special-object headers are not link records and must not
//! be followed.
//!
//! As a model ([`StateSelection`]): SI = the header and AX = bank << 8 |
//! state in, SI out; swept over every state byte of every city-model
//! definition of banks 30, 31 and 32 that the bank directory (`banks`: three
//! words, each the offset of a count byte and 3-byte entries: kind, header)
//! lists. Special objects (kind not 0) are skipped.

use crate::memory::GuestMemory;
use crate::model::{Ctx, Input, Interface, Model, Output, Point, Reg};

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

/// The state selection model.
pub struct StateSelection;

static INTERFACE: Interface = Interface {
    entry: "state_select",
    inputs: &[Input::Reg(Reg::SI), Input::Reg(Reg::AX)],
    outputs: &[Output::Reg(Reg::SI)],
    tables: &["banks"],
    fills: &[],
    values: &[],
    events: None,
};

/// The banks swept.
const BANKS: [u8; 3] = [30, 31, 32];

impl Model for StateSelection {
    fn name(&self) -> &'static str {
        "state-selection"
    }

    fn summary(&self) -> &'static str {
        "the city-model header a state byte selects (banks 30-32)"
    }

    fn interface(&self) -> &'static Interface {
        &INTERFACE
    }

    fn domain(&self, ctx: &Ctx) -> Option<Vec<Point>> {
        let seg = ctx.base("banks");
        let mut v = Vec::new();
        for (i, bank) in BANKS.into_iter().enumerate() {
            let table = ctx.read16("banks", 2 * i as u16);
            let count = ctx.mem.read8(seg + table as u32);
            for d in 0..count as u16 {
                let entry = table.wrapping_add(1 + 3 * d);
                if ctx.mem.read8(seg + entry as u32) != 0 {
                    continue; // a special object: not a link record
                }
                let header = ctx.mem.read16(seg + entry.wrapping_add(1) as u32);
                for state in 0..=255u16 {
                    v.push(Point {
                        values: [header, (bank as u16) << 8 | state, 0, 0],
                        tag: d as u32,
                    });
                }
            }
        }
        Some(v)
    }

    fn expect(&self, ctx: &Ctx, point: &Point, out: &mut [i64]) {
        let [header, ax, ..] = point.values;
        out[0] = select(
            ctx.mem,
            ctx.base("banks"),
            header,
            ax as u8,
            (ax >> 8) as u8,
        ) as i64;
    }

    fn describe(&self, _ctx: &Ctx, point: &Point) -> String {
        let [header, ax, ..] = point.values;
        format!(
            "bank {}, definition {} at {header:04X}h, state {:02X}h",
            ax >> 8,
            point.tag,
            ax as u8
        )
    }

    fn output_name(&self, _ctx: &Ctx, _k: usize) -> String {
        "selected header".into()
    }
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
