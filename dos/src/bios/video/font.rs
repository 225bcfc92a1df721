//! INT 10h 11h: character generator. 00h-04h load a font into a block of
//! plane 2, 10h-14h do the same and recalculate the text layout (the CRTC's
//! character height, cursor and displayed lines; rows and character height
//! in the BIOS data area), 03h selects the blocks the attribute's bit 3
//! chooses between, 20h-24h set the graphics fonts (INT 1Fh, INT 43h) and
//! the rows, 30h returns font pointers.

use super::{bda, cols, crtc_read, crtc_write, far_ptr, model, seq_write, set_far_ptr, tables};
use super::{text, Model};
use crate::diag::Diagnostics;
use crate::mem::{lin, rd8, wr16, wr8, Regs};
use hw::vga::font;
use hw::Machine;

/// Loads `count` characters from `first` of `height` rows (bytes at
/// linear `src`) into block `block`.
pub(super) fn load(m: &mut Machine, block: u8, first: u8, count: usize, height: usize, src: u32) {
    let data: Vec<u8> = (0..count * height)
        .map(|i| rd8(m, src.wrapping_add(i as u32)))
        .collect();
    m.bus.vga.load_font(block, first, count, height, &data);
}

/// Loads a ROM font entirely into block `block`.
fn load_rom(m: &mut Machine, block: u8, height: u8) {
    m.bus
        .vga
        .load_font(block, 0, 256, height as usize, font::font(height));
}

/// The 1xh recalculation for a font of `h` lines: the character height
/// (CR09), the cursor (CR0A/0B), and as many
/// rows as fit in the displayed scan lines, which become rows x h (CR12).
pub(super) fn recalc(m: &mut Machine, h: u8) {
    if model(m) != Model::Text || h == 0 {
        return;
    }
    let h = h.min(32);
    let cr09 = crtc_read(m, 0x09);
    crtc_write(m, 0x09, cr09 & 0xE0 | (h - 1));
    // 06h/07h for 8 lines, 0Bh/0Ch for 14, 0Dh/0Eh for 16 (the mode
    // tables' cursors).
    let (cs, ce) = match h {
        1..=2 => (0, h - 1),
        3..=8 => (h - 2, h - 1),
        _ => (h - 3, h - 2),
    };
    crtc_write(m, 0x0A, cs);
    crtc_write(m, 0x0B, ce);
    wr16(m, bda::CURSOR_SHAPE, (cs as u16) << 8 | ce as u16);
    let ov = crtc_read(m, 0x07);
    let lines =
        (crtc_read(m, 0x12) as u32 | (ov as u32 >> 1 & 1) << 8 | (ov as u32 >> 6 & 1) << 9) + 1;
    let lines = if cr09 & 0x80 != 0 { lines / 2 } else { lines };
    let rows = (lines / h as u32).clamp(1, 256);
    let mut end = rows * h as u32;
    if cr09 & 0x80 != 0 {
        end *= 2;
    }
    let end = end - 1;
    crtc_write(m, 0x12, end as u8);
    // CR07 is write-protected while CR11 bit 7 is set.
    let cr11 = crtc_read(m, 0x11);
    crtc_write(m, 0x11, cr11 & 0x7F);
    let ov = ov & !0x42 | ((end >> 8 & 1) << 1) as u8 | ((end >> 9 & 1) << 6) as u8;
    crtc_write(m, 0x07, ov);
    crtc_write(m, 0x11, cr11);
    wr8(m, bda::ROWS, (rows - 1) as u8);
    wr16(m, bda::CHAR_HEIGHT, h as u16);
    let page = rows * cols(m) as u32 * 2;
    wr16(m, bda::PAGE_SIZE, page.min(0x8000) as u16);
    let p = m.peek8(bda::PAGE);
    let (r, c) = super::cursor(m, p);
    text::set_cursor(m, p, r, c);
}

/// Rows for 20h-24h: BL = 0 DL rows, 1: 14, 2: 25, 3: 43.
fn set_graphics_rows(m: &mut Machine, height: u16) {
    let rows = match m.bl() {
        0 => m.dl(),
        1 => 14,
        2 => 25,
        _ => 43,
    };
    wr8(m, bda::ROWS, rows.saturating_sub(1));
    wr16(m, bda::CHAR_HEIGHT, height);
}

/// INT 10h 11h.
pub(super) fn service(diag: &mut Diagnostics, m: &mut Machine) {
    let al = m.al();
    let block = m.bl();
    match al {
        0x00 | 0x10 => {
            let (h, n, first) = (m.bh(), m.cx(), m.dx());
            let src = lin(m.es(), m.bp());
            let n = (n as usize).min(256usize.saturating_sub(first as usize & 0xFF));
            load(m, block, first as u8, n, h as usize, src);
            if al == 0x10 {
                recalc(m, h);
            }
        }
        0x01 | 0x11 => {
            load_rom(m, block, 14);
            if al == 0x11 {
                recalc(m, 14);
            }
        }
        0x02 | 0x12 => {
            load_rom(m, block, 8);
            if al == 0x12 {
                recalc(m, 8);
            }
        }
        0x04 | 0x14 => {
            load_rom(m, block, 16);
            if al == 0x14 {
                recalc(m, 16);
            }
        }
        // BL: the blocks for attribute bit 3 = 0 (bits 0, 1, 4) and = 1
        // (bits 2, 3, 5): the character map select register's layout.
        0x03 => seq_write(m, 3, block & 0x3F),
        0x20 => {
            let (es, bp) = (m.es(), m.bp());
            set_far_ptr(m, 0x1F * 4, es, bp);
        }
        0x21 => {
            let (es, bp, h) = (m.es(), m.bp(), m.cx());
            set_far_ptr(m, 0x43 * 4, es, bp);
            set_graphics_rows(m, h);
        }
        0x22..=0x24 => {
            let (off, h) = match al {
                0x22 => (tables::FONT14, 14),
                0x23 => (tables::FONT8, 8),
                _ => (tables::FONT16, 16),
            };
            set_far_ptr(m, 0x43 * 4, tables::SEG, off);
            set_graphics_rows(m, h);
        }
        0x30 => {
            let (seg, off) = match m.bh() {
                0 => far_ptr(m, 0x1F * 4),
                1 => far_ptr(m, 0x43 * 4),
                2 => (tables::SEG, tables::FONT14),
                3 => (tables::SEG, tables::FONT8),
                4 => (tables::SEG, tables::FONT8 + 0x400),
                5 | 7 => (tables::SEG, tables::ALT_FONT),
                6 => (tables::SEG, tables::FONT16),
                bh => {
                    diag.unimplemented(0x10, 0x11, bh);
                    return;
                }
            };
            m.set_es(seg);
            m.cpu.regs.set_reg16(emu::Reg16::BP, off);
            let h = m.peek16(bda::CHAR_HEIGHT);
            m.set_cx(h);
            let r = m.peek8(bda::ROWS);
            m.set_dl(r);
        }
        _ => diag.unimplemented(0x10, 0x11, al),
    }
}
