//! The BIOS data area (segment 40h) as an AT BIOS leaves it, and the timer
//! tick kept at 40:6Ch.

use crate::mem::{rd32, wr16, wr32, wr8};
use hw::Machine;

/// Timer ticks in a day (the BIOS's 1800B0h).
pub const TICKS_PER_DAY: u32 = 0x1800B0;

/// Fills the BIOS data area: equipment, memory size, keyboard buffer,
/// video state for mode 03h, and the tick count of the RTC's start time.
pub fn init(m: &mut Machine) {
    for a in 0x400..0x500 {
        wr8(m, a, 0);
    }
    // 40:00h-0Fh: no serial or parallel ports (INT 14h and 17h answer
    // "timeout"), no extended BIOS data area (40:0Eh = 0).
    let e = equipment(m);
    wr16(m, 0x410, e);
    wr16(m, 0x413, m.config().conventional_kib.min(640) as u16);
    // Printer (40:78h-7Bh) and serial (40:7Ch-7Fh) time-outs, as POST
    // sets them for every port.
    for i in 0..4 {
        wr8(m, 0x478 + i, 0x14);
        wr8(m, 0x47C + i, 0x01);
    }
    // Keyboard buffer 40:1E-40:3D.
    wr16(m, 0x41A, 0x1E);
    wr16(m, 0x41C, 0x1E);
    wr16(m, 0x480, 0x1E);
    wr16(m, 0x482, 0x3E);
    wr8(m, 0x496, 0x10); // 101/102-key keyboard

    // Video: mode 03h.
    wr8(m, 0x449, 0x03);
    wr16(m, 0x44A, 80);
    wr16(m, 0x44C, 0x1000);
    wr16(m, 0x44E, 0);
    wr16(m, 0x460, 0x0607);
    wr8(m, 0x462, 0);
    wr16(m, 0x463, 0x3D4);
    wr8(m, 0x465, 0x29);
    wr8(m, 0x466, 0x30);
    wr8(m, 0x484, 24);
    wr16(m, 0x485, 16);
    wr8(m, 0x487, 0x60);
    wr8(m, 0x488, 0x09);
    wr8(m, 0x489, 0x11);
    wr8(m, 0x48A, crate::bios::video::tables::DCC_VGA_COLOR);
    // The video save pointer table.
    wr16(m, 0x4A8, crate::bios::video::tables::SAVE_TABLE);
    wr16(m, 0x4AA, crate::bios::video::tables::SEG);
    // Time of day from the RTC's start.
    let s = m.config().rtc_start;
    let secs = (s.hour * 3600 + s.minute * 60 + s.second) as u64;
    wr32(m, 0x46C, (secs * TICKS_PER_DAY as u64 / 86400) as u32);
}

/// The equipment word (40:10h, INT 11h) as POST builds it from the CMOS
/// equipment byte (register 14h: diskette drives and their count, the
/// math coprocessor): bit 0 diskettes installed, bit 1 coprocessor, bits
/// 4-5 initial video mode (10b: 80x25 colour), bits 6-7 drives - 1, bits
/// 9-11 serial ports, bit 12 game port (set when the machine has one, as
/// POST finds by reading 201h), bits 14-15 parallel ports (no serial or
/// parallel port exists).
pub fn equipment(m: &mut Machine) -> u16 {
    let e = crate::bios::int1a::cmos_read(m, 0x14);
    let game = if m.bus.dev.gameport.fitted() {
        0x1000
    } else {
        0
    };
    (e & 0xC3) as u16 | 0x0020 | game
}

/// One IRQ0 tick: 40:6Ch counts up, wrapping at midnight with 40:70h set.
pub fn tick(m: &mut Machine) {
    let mut t = rd32(m, 0x46C).wrapping_add(1);
    if t >= TICKS_PER_DAY {
        t = 0;
        wr8(m, 0x470, 1);
    }
    wr32(m, 0x46C, t);
}
