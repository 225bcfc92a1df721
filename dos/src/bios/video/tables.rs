//! The video BIOS's ROM tables in the F000h segment: the 8x8, 8x14 and
//! 8x16 fonts (with the 8x8 font's first half also at F000:FA6Eh, where
//! the PC BIOS keeps it and old programs look), the video parameter table,
//! the video save pointer table (40:A8h points at it) with its secondary
//! table and the display combination code table, the static
//! functionality table (INT 10h 1Bh), and the empty 9-dot alternate font
//! tables, and the option ROM header at C000:0000.

use hw::vga::{font, PARAMS, PARAM_SIZE};
use hw::Machine;

/// Segment of every table.
pub const SEG: u16 = 0xF000;
/// The 8x8 font, 256 characters (INT 10h 1130h BH=3; INT 1Fh points at
/// its second half).
pub const FONT8: u16 = 0x9800;
/// The 8x16 font.
pub const FONT16: u16 = 0xA000;
/// The 8x14 font.
pub const FONT14: u16 = 0xB000;
/// The video parameter table (29 entries of 64 bytes).
pub const PARAM_TABLE: u16 = 0xC000;
/// The video save pointer table.
pub const SAVE_TABLE: u16 = 0xC780;
/// The secondary save pointer table.
pub const SECONDARY_SAVE_TABLE: u16 = 0xC7A0;
/// The display combination code table.
pub const DCC_TABLE: u16 = 0xC7C0;
/// The static functionality table.
pub const STATIC_TABLE: u16 = 0xC7F0;
/// The 9x14 and 9x16 alternate tables (no replacement glyphs: a 0 ends
/// them).
pub const ALT_FONT: u16 = 0xC800;
/// The PC BIOS's 8x8 font for characters 00h-7Fh.
pub const PC_FONT8: u16 = 0xFA6E;

/// Display combination codes: 00h none, 01h MDA, 02h CGA, 04h EGA colour,
/// 05h EGA mono, 06h PGA, 07h VGA mono, 08h VGA colour. The table holds
/// (active, alternate) pairs; 40:8Ah indexes it.
pub const DCC_PAIRS: [[u8; 2]; 16] = [
    [0x00, 0x00],
    [0x00, 0x01],
    [0x00, 0x02],
    [0x02, 0x01],
    [0x00, 0x04],
    [0x04, 0x01],
    [0x00, 0x05],
    [0x02, 0x05],
    [0x00, 0x06],
    [0x01, 0x06],
    [0x05, 0x06],
    [0x00, 0x08],
    [0x01, 0x08],
    [0x00, 0x07],
    [0x02, 0x07],
    [0x06, 0x07],
];

/// The DCC table index of a VGA with a colour display alone.
pub const DCC_VGA_COLOR: u8 = 0x0B;

/// The static functionality table: modes 00h-07h, 0Dh-13h; 200, 350 and
/// 400 scan lines in text modes; 8 font blocks, 2 active; every palette,
/// font, cursor emulation and summing function; save/restore state,
/// blink/intensity and display combination; of the save pointer table,
/// the dynamic save area and the two font overrides.
pub const STATIC_FUNCTIONALITY: [u8; 16] = [
    0xFF, 0xE0, 0x0F, 0x00, 0x00, 0x00, 0x00, 0x07, 0x08, 0x02, 0xFF, 0x0E, 0x00, 0x00, 0x0E, 0x00,
];

/// The video BIOS's option ROM header at C000:0000 (2 KiB): the 55h AAh
/// signature, its size in 512-byte blocks, an initialisation entry that
/// returns at once (the BIOS is already set up), "IBM" at offset 1Eh where
/// programs look for an IBM-compatible EGA/VGA BIOS, a name, and the
/// checksum byte that makes the bytes sum to 0.
pub fn option_rom() -> Vec<u8> {
    let mut rom = vec![0u8; 0x800];
    rom[..4].copy_from_slice(&[0x55, 0xAA, 0x04, 0xCB]);
    rom[0x1E..0x21].copy_from_slice(b"IBM");
    let name = b"tandem VGA BIOS (INT 10h in the emulator)";
    rom[0x40..0x40 + name.len()].copy_from_slice(name);
    let sum = rom.iter().fold(0u8, |a, &b| a.wrapping_add(b));
    rom[0x7FF] = sum.wrapping_neg();
    rom
}

/// Writes the tables into the ROM area.
pub fn install(m: &mut Machine) {
    m.load_rom(0xC0000, &option_rom());
    let at = |off: u16| 0xF0000 + off as u32;
    m.bus.mem.write_image(at(FONT8), font::FONT_8X8);
    m.bus.mem.write_image(at(PC_FONT8), &font::FONT_8X8[..1024]);
    m.bus.mem.write_image(at(FONT14), font::FONT_8X14);
    m.bus.mem.write_image(at(FONT16), font::FONT_8X16);
    let mut params = Vec::with_capacity(PARAMS.len() * PARAM_SIZE);
    for p in PARAMS.iter() {
        params.extend(p.map(|p| p.to_bytes()).unwrap_or([0; PARAM_SIZE]));
    }
    m.bus.mem.write_image(at(PARAM_TABLE), &params);
    // Save pointer table: parameter table, dynamic save area (none),
    // alphanumeric and graphics font overrides (none), secondary table.
    let mut save = Vec::new();
    for (seg, off) in [
        (SEG, PARAM_TABLE),
        (0, 0),
        (0, 0),
        (0, 0),
        (SEG, SECONDARY_SAVE_TABLE),
        (0, 0),
        (0, 0),
    ] {
        save.extend(off.to_le_bytes());
        save.extend(seg.to_le_bytes());
    }
    m.bus.mem.write_image(at(SAVE_TABLE), &save);
    // Secondary: its length, the DCC table, no overrides.
    let mut sec = vec![0x1A, 0x00];
    sec.extend(DCC_TABLE.to_le_bytes());
    sec.extend(SEG.to_le_bytes());
    sec.extend([0u8; 24]);
    m.bus.mem.write_image(at(SECONDARY_SAVE_TABLE), &sec);
    // DCC table: entry count, version, maximum code, reserved, pairs.
    let mut dcc = vec![DCC_PAIRS.len() as u8, 0x01, 0x08, 0x00];
    for p in DCC_PAIRS {
        dcc.extend(p);
    }
    m.bus.mem.write_image(at(DCC_TABLE), &dcc);
    m.bus
        .mem
        .write_image(at(STATIC_TABLE), &STATIC_FUNCTIONALITY);
    m.bus.mem.write_image(at(ALT_FONT), &[0, 0]);
}
