//! INT 10h, the VGA BIOS (IBM PS/2 and PC BIOS Interface Technical
//! Reference, "Video"; Ralf Brown's list), on the emulated VGA: mode sets
//! load the video parameter table's registers, text goes into display
//! memory through the VGA's CPU window, and in graphics modes glyphs and
//! pixels go through the graphics controller as the BIOS's own code does.
//! The BIOS data area keeps the video state a program can read.
//!
//! | file | functions |
//! |---|---|
//! | `mode.rs` | 00h mode set (the BIOS data area, fonts, DAC), 0Fh |
//! | `text.rs` | 01h-03h cursor, 05h page, 06h/07h scroll, 08h-0Ah, 0Eh, 13h |
//! | `graphics.rs` | 0Ch/0Dh pixels, glyphs and scrolling in graphics modes |
//! | `palette.rs` | 10h attribute palette and DAC |
//! | `font.rs` | 11h font loading and information |
//! | `state.rs` | 12h alternate select, 1Ah, 1Bh, 1Ch |
//! | `tables.rs` | the ROM tables (fonts, parameters, functionality) |

mod font;
mod graphics;
mod mode;
mod palette;
mod state;
pub mod tables;
mod text;

pub use text::{scroll, set_cursor, tty};

use crate::console::Console;
use crate::diag::Diagnostics;
use crate::mem::{rd16, wr16, Regs};
use hw::Machine;

/// BIOS data area fields (segment 40h, IBM's names).
pub(crate) mod bda {
    /// Current video mode.
    pub const MODE: u32 = 0x449;
    /// Columns on screen.
    pub const COLS: u32 = 0x44A;
    /// Bytes per page.
    pub const PAGE_SIZE: u32 = 0x44C;
    /// Start offset of the active page.
    pub const PAGE_START: u32 = 0x44E;
    /// Cursor positions of pages 0-7 (column, row).
    pub const CURSOR: u32 = 0x450;
    /// Cursor shape (end line, start line), as INT 10h 01h was given it.
    pub const CURSOR_SHAPE: u32 = 0x460;
    /// Active page.
    pub const PAGE: u32 = 0x462;
    /// CRTC index port (3B4h or 3D4h).
    pub const CRTC_PORT: u32 = 0x463;
    /// The CGA mode select register's value (3x8h).
    pub const MODE_SELECT: u32 = 0x465;
    /// The CGA palette register's value (3x9h).
    pub const PALETTE: u32 = 0x466;
    /// Rows on screen minus one.
    pub const ROWS: u32 = 0x484;
    /// Character height in scan lines.
    pub const CHAR_HEIGHT: u32 = 0x485;
    /// EGA information: bit 7 memory kept at the last mode set, bits 6-5
    /// memory size, bit 0 cursor emulation disabled.
    pub const EGA_INFO: u32 = 0x487;
    /// EGA switch settings and feature bits.
    pub const EGA_SWITCHES: u32 = 0x488;
    /// VGA flags: bits 7/4 scan lines (00 350, 01 400, 10 200), bit 3
    /// default palette loading disabled, bit 2 monochrome display, bit 1
    /// grey-scale summing, bit 0 VGA active.
    pub const VGA_FLAGS: u32 = 0x489;
    /// Index of the display combination in the DCC table.
    pub const DCC_INDEX: u32 = 0x48A;
    /// Far pointer to the video save pointer table.
    pub const SAVE_PTR: u32 = 0x4A8;
}

/// How display memory holds pixels in the current mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Model {
    /// Character and attribute cells.
    Text,
    /// CGA 4 colours: 2 bits per pixel, even lines at B8000h, odd at BA000h.
    Cga4,
    /// CGA 2 colours: 1 bit per pixel, interleaved the same way.
    Cga2,
    /// Four planes, one bit per pixel each, through the graphics controller.
    Planar,
    /// One byte per pixel (mode 13h).
    Linear,
}

/// The current mode number (40:49h).
pub(crate) fn mode(m: &Machine) -> u8 {
    m.peek8(bda::MODE)
}

/// The memory model of the current mode.
pub(crate) fn model(m: &Machine) -> Model {
    match mode(m) {
        0..=3 | 7 => Model::Text,
        4 | 5 => Model::Cga4,
        6 => Model::Cga2,
        0x0D..=0x12 => Model::Planar,
        0x13 => Model::Linear,
        // A mode the BIOS did not set: ask the hardware.
        _ if !m.bus.vga.gc.graphics() => Model::Text,
        _ if m.bus.vga.gc.shift256() => Model::Linear,
        _ => Model::Planar,
    }
}

/// Columns (40:4Ah), at least 1.
pub(crate) fn cols(m: &Machine) -> u16 {
    m.peek16(bda::COLS).max(1)
}

/// Rows (40:84h + 1).
pub(crate) fn rows(m: &Machine) -> u16 {
    m.peek8(bda::ROWS) as u16 + 1
}

/// Character height (40:85h), at least 1.
pub(crate) fn char_height(m: &Machine) -> u16 {
    m.peek16(bda::CHAR_HEIGHT).clamp(1, 32)
}

/// The cursor (row, column) of `page`.
pub(crate) fn cursor(m: &Machine, page: u8) -> (u8, u8) {
    let a = bda::CURSOR + 2 * (page & 7) as u32;
    (m.peek8(a + 1), m.peek8(a))
}

/// The rows a scroll of `n` rows up or down within `top..=bottom` writes,
/// in an order that reads every row before it is overwritten: (row, the
/// row it takes, whether that row is inside the window; if not, the row is
/// blanked).
pub(crate) fn scroll_rows(top: u16, bottom: u16, n: u16, up: bool) -> Vec<(u16, u16, bool)> {
    let order: Vec<u16> = if up {
        (top..=bottom).collect()
    } else {
        (top..=bottom).rev().collect()
    };
    order
        .into_iter()
        .map(|r| {
            let src = if up { r + n } else { r.wrapping_sub(n) };
            let from_inside = if up { src <= bottom } else { r >= top + n };
            (r, src, from_inside)
        })
        .collect()
}

/// Writes register `idx` of the VGA unit whose index port is `port` (its
/// data port is the next).
fn indexed_write(m: &mut Machine, port: u16, idx: u8, v: u8) {
    m.out8(port, idx);
    m.out8(port + 1, v);
}

/// Reads register `idx` of the VGA unit whose index port is `port`.
fn indexed_read(m: &mut Machine, port: u16, idx: u8) -> u8 {
    m.out8(port, idx);
    m.in8(port + 1)
}

/// Writes CRTC register `idx` through the port the BIOS data area names.
pub(crate) fn crtc_write(m: &mut Machine, idx: u8, v: u8) {
    let port = crtc_port(m);
    indexed_write(m, port, idx, v);
}

/// Reads CRTC register `idx`.
pub(crate) fn crtc_read(m: &mut Machine, idx: u8) -> u8 {
    let port = crtc_port(m);
    indexed_read(m, port, idx)
}

fn crtc_port(m: &Machine) -> u16 {
    match m.peek16(bda::CRTC_PORT) {
        0x3B4 => 0x3B4,
        _ => 0x3D4,
    }
}

/// Writes attribute controller register `idx` and turns the display back
/// on (palette address source set), as the BIOS leaves it.
pub(crate) fn attr_write(m: &mut Machine, idx: u8, v: u8) {
    let status = crtc_port(m) + 6;
    m.in8(status);
    m.out8(0x3C0, idx & 0x1F);
    m.out8(0x3C0, v);
    m.out8(0x3C0, 0x20);
}

/// Reads attribute controller register `idx`.
pub(crate) fn attr_read(m: &mut Machine, idx: u8) -> u8 {
    let status = crtc_port(m) + 6;
    m.in8(status);
    m.out8(0x3C0, idx & 0x1F);
    let v = m.in8(0x3C1);
    m.in8(status);
    m.out8(0x3C0, 0x20);
    v
}

/// Writes sequencer register `idx`.
pub(crate) fn seq_write(m: &mut Machine, idx: u8, v: u8) {
    indexed_write(m, 0x3C4, idx, v);
}

/// Reads sequencer register `idx`.
pub(crate) fn seq_read(m: &mut Machine, idx: u8) -> u8 {
    indexed_read(m, 0x3C4, idx)
}

/// Writes graphics controller register `idx`.
pub(crate) fn gc_write(m: &mut Machine, idx: u8, v: u8) {
    indexed_write(m, 0x3CE, idx, v);
}

/// Reads graphics controller register `idx`.
pub(crate) fn gc_read(m: &mut Machine, idx: u8) -> u8 {
    indexed_read(m, 0x3CE, idx)
}

/// A far pointer stored at linear `a` as (segment, offset).
pub(crate) fn far_ptr(m: &mut Machine, a: u32) -> (u16, u16) {
    (rd16(m, a + 2), rd16(m, a))
}

/// Stores a far pointer at linear `a`.
pub(crate) fn set_far_ptr(m: &mut Machine, a: u32, seg: u16, off: u16) {
    wr16(m, a, off);
    wr16(m, a + 2, seg);
}

/// Entry `i` of the video save pointer table (0 parameter table, 1
/// dynamic save area, 2 alphanumeric font override, 3 graphics font
/// override, 4 secondary table), as a linear address, or None when it is
/// a null pointer.
pub(crate) fn save_entry(m: &mut Machine, i: u32) -> Option<u32> {
    let (s, o) = far_ptr(m, bda::SAVE_PTR);
    let (seg, off) = far_ptr(m, crate::mem::lin(s, o) + 4 * i);
    (seg != 0 || off != 0).then(|| crate::mem::lin(seg, off))
}

/// Keeps palette register `idx` (0-15, 17h = 16 for the overscan) in the
/// dynamic save area when a program set one up (save pointer entry 1).
pub(crate) fn save_palette(m: &mut Machine, idx: u8, v: u8) {
    let slot = match idx {
        0..=15 => idx as u32,
        0x11 => 16,
        _ => return,
    };
    if let Some(a) = save_entry(m, 1) {
        crate::mem::wr8(m, a + slot, v);
    }
}

/// Services INT 10h; text written by teletype output (0Eh, 13h) goes to
/// the console's text for the host too.
pub fn service(con: &mut Console, diag: &mut Diagnostics, m: &mut Machine) {
    let ah = m.ah();
    match ah {
        0x00 => mode::set_mode(diag, m),
        0x01..=0x03 | 0x05..=0x0A | 0x0E | 0x13 => text::service(con, diag, m),
        0x0B => palette::cga_palette(m),
        0x0C => {
            let (page, x, y, c) = (m.bh(), m.cx(), m.dx(), m.al());
            graphics::write_pixel(m, page, x, y, c);
        }
        0x0D => {
            let (page, x, y) = (m.bh(), m.cx(), m.dx());
            let c = graphics::read_pixel(m, page, x, y);
            m.set_al(c);
        }
        0x0F => mode::get_mode(m),
        0x10 => palette::service(diag, m),
        0x11 => font::service(diag, m),
        0x12 => state::alternate_select(diag, m),
        0x1A => state::display_combination(diag, m),
        0x1B => state::functionality(diag, m),
        0x1C => state::save_restore(diag, m),
        // The VESA BIOS extension: this is an IBM VGA, which has none. Its
        // BIOS returns from a function it does not know with the registers
        // as they were, so AL is not 4Fh and the program takes VBE as
        // absent (VBE 1.2/2.0, "Supplemental VGA BIOS Functions": AL = 4Fh
        // means supported). The machine's answer, not a missing service.
        0x4F => log::info!(
            "INT 10h AX={:04X}h: a VESA BIOS call; this VGA has no VBE",
            m.ax()
        ),
        // The Hercules graphics driver's probe (MSHERC.COM / QBHERC: AH =
        // EFh answers DL = the adapter, DX no longer FFFFh). A VGA BIOS has
        // no such function and returns with the registers as they were, so
        // the program finds no Hercules driver: the machine's answer.
        0xEF => log::info!("INT 10h AH=EFh: a Hercules driver probe; this is a VGA"),
        _ => {
            let al = m.al();
            diag.unimplemented(0x10, ah, al);
        }
    }
}
