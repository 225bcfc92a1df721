//! Graphics-mode pixels, characters and scrolling (INT 10h 0Ch/0Dh, and
//! 06h-0Ah, 0Eh, 13h in graphics modes), in each memory model:
//!
//! - CGA modes 04h-06h at B8000h: even pixel lines at offset 0, odd lines
//!   at 2000h, 80 bytes a line; 2 bits per pixel (04h/05h) or 1 (06h).
//! - Planar modes 0Dh-12h at A0000h (+ page x 40:4Ch): one bit per pixel
//!   in each of four planes, 40:4Ah bytes a line, written through the
//!   graphics controller (write mode 2 with the bit mask; XOR through the
//!   logical operation) and read plane by plane (read map select), as the
//!   IBM BIOS does. The controller is left in its default state.
//! - Mode 13h at A0000h: a byte per pixel, 320 a line.
//!
//! Colours with bit 7 set are XORed onto the screen (not in mode 13h,
//! where all 8 bits are the colour). Characters come from the font INT 43h
//! points at (in the CGA modes, characters 80h-FFh from INT 1Fh's), 40:85h
//! lines high, with background colour 0.

use super::{bda, char_height, cols, far_ptr, gc_write, model, scroll_rows, Model};
use crate::mem::{lin, rd8, wr8};
use hw::Machine;

/// The address of byte `x_byte` of pixel line `y` of `page`.
fn line_byte(m: &Machine, page: u8, y: u32, x_byte: u32) -> u32 {
    match model(m) {
        Model::Cga4 | Model::Cga2 => 0xB8000 + ((y & 1) * 0x2000 + (y >> 1) * 80 + x_byte) % 0x8000,
        Model::Planar => {
            let page_size = m.peek16(bda::PAGE_SIZE) as u32;
            let off = (page & 7) as u32 * page_size + y * cols(m) as u32 + x_byte;
            0xA0000 + off % 0x10000
        }
        _ => 0xA0000 + (y * 320 + x_byte) % 0x10000,
    }
}

/// Puts the graphics controller back in the BIOS's default state.
fn gc_defaults(m: &mut Machine) {
    gc_write(m, 3, 0x00);
    gc_write(m, 4, 0x00);
    gc_write(m, 5, 0x00);
    gc_write(m, 8, 0xFF);
}

/// INT 10h 0Ch: writes pixel (x, y) of `page` in `colour`.
pub(super) fn write_pixel(m: &mut Machine, page: u8, x: u16, y: u16, colour: u8) {
    let (x, y) = (x as u32, y as u32);
    let xor = colour & 0x80 != 0;
    match model(m) {
        Model::Cga4 => {
            let a = line_byte(m, page, y, x / 4);
            let shift = 6 - 2 * (x % 4);
            let v = (colour & 3) << shift;
            let old = rd8(m, a);
            let new = if xor {
                old ^ v
            } else {
                old & !(3 << shift) | v
            };
            wr8(m, a, new);
        }
        Model::Cga2 => {
            let a = line_byte(m, page, y, x / 8);
            let bit = 0x80u8 >> (x % 8);
            let old = rd8(m, a);
            let v = if colour & 1 != 0 { bit } else { 0 };
            let new = if xor { old ^ v } else { old & !bit | v };
            wr8(m, a, new);
        }
        Model::Planar => {
            let a = line_byte(m, page, y, x / 8);
            gc_write(m, 8, 0x80 >> (x % 8));
            gc_write(m, 5, 0x02);
            gc_write(m, 3, if xor { 0x18 } else { 0x00 });
            rd8(m, a); // load the latches
            wr8(m, a, colour & 0x0F);
            gc_defaults(m);
        }
        Model::Linear => {
            let a = line_byte(m, page, y, x);
            wr8(m, a, colour);
        }
        Model::Text => {}
    }
}

/// INT 10h 0Dh: the colour of pixel (x, y) of `page` (0 in text modes).
pub(super) fn read_pixel(m: &mut Machine, page: u8, x: u16, y: u16) -> u8 {
    let (x, y) = (x as u32, y as u32);
    match model(m) {
        Model::Cga4 => {
            let a = line_byte(m, page, y, x / 4);
            rd8(m, a) >> (6 - 2 * (x % 4)) & 3
        }
        Model::Cga2 => {
            let a = line_byte(m, page, y, x / 8);
            rd8(m, a) >> (7 - x % 8) & 1
        }
        Model::Planar => {
            let a = line_byte(m, page, y, x / 8);
            let mut c = 0;
            for p in 0..4 {
                gc_write(m, 4, p);
                c |= (rd8(m, a) >> (7 - x % 8) & 1) << p;
            }
            gc_defaults(m);
            c
        }
        Model::Linear => {
            let a = line_byte(m, page, y, x);
            rd8(m, a)
        }
        Model::Text => 0,
    }
}

/// The glyph rows of character `c` in the current graphics font.
fn glyph(m: &mut Machine, c: u8) -> Vec<u8> {
    let cga = matches!(model(m), Model::Cga4 | Model::Cga2);
    let h = if cga { 8 } else { char_height(m) as u32 };
    let (seg, off, index) = if cga && c >= 0x80 {
        let (s, o) = far_ptr(m, 0x1F * 4);
        (s, o, (c - 0x80) as u32)
    } else {
        let (s, o) = far_ptr(m, 0x43 * 4);
        (s, o, c as u32)
    };
    (0..h)
        .map(|i| rd8(m, lin(seg, off.wrapping_add((index * h + i) as u16))))
        .collect()
}

/// Draws character `c` in cell (row, col) of `page` in `colour` (bit 7:
/// XOR; background 0 otherwise).
pub(super) fn draw_char(m: &mut Machine, page: u8, row: u16, col: u16, c: u8, colour: u8) {
    let rows_px = glyph(m, c);
    let h = rows_px.len() as u32;
    let xor = colour & 0x80 != 0;
    let md = model(m);
    if md == Model::Planar {
        gc_write(m, 5, 0x02);
        gc_write(m, 3, if xor { 0x18 } else { 0x00 });
    }
    for (line, &bits) in rows_px.iter().enumerate() {
        let y = row as u32 * h + line as u32;
        match md {
            Model::Planar => {
                let a = line_byte(m, page, y, col as u32);
                if !xor {
                    gc_write(m, 8, !bits);
                    rd8(m, a);
                    wr8(m, a, 0);
                }
                gc_write(m, 8, bits);
                rd8(m, a);
                wr8(m, a, colour & 0x0F);
            }
            Model::Cga4 => {
                let a = line_byte(m, page, y, col as u32 * 2);
                let mut word = 0u16;
                for i in 0..8 {
                    if bits >> (7 - i) & 1 != 0 {
                        word |= ((colour & 3) as u16) << (14 - 2 * i);
                    }
                }
                for (k, v) in [(word >> 8) as u8, word as u8].into_iter().enumerate() {
                    let at = a + k as u32;
                    let new = if xor { rd8(m, at) ^ v } else { v };
                    wr8(m, at, new);
                }
            }
            Model::Cga2 => {
                let a = line_byte(m, page, y, col as u32);
                let v = if colour & 1 != 0 { bits } else { 0 };
                let new = if xor { rd8(m, a) ^ v } else { v };
                wr8(m, a, new);
            }
            Model::Linear => {
                let a = line_byte(m, page, y, col as u32 * 8);
                for i in 0..8 {
                    let on = bits >> (7 - i) & 1 != 0;
                    wr8(m, a + i, if on { colour } else { 0 });
                }
            }
            Model::Text => {}
        }
    }
    if md == Model::Planar {
        gc_defaults(m);
    }
}

/// INT 10h 08h in graphics modes: the character whose glyph matches the
/// cell's pixels (any colour but 0 is foreground), or 0.
pub(super) fn read_char(m: &mut Machine, page: u8, row: u16, col: u16) -> u8 {
    let cga = matches!(model(m), Model::Cga4 | Model::Cga2);
    let h = if cga { 8 } else { char_height(m) as u32 };
    let mut cell = Vec::with_capacity(h as usize);
    for line in 0..h {
        let y = row as u32 * h + line;
        let x0 = col as u32 * 8;
        let mut bits = 0u8;
        for i in 0..8 {
            if read_pixel(m, page, (x0 + i) as u16, y as u16) != 0 {
                bits |= 0x80 >> i;
            }
        }
        cell.push(bits);
    }
    (0..=255u8).find(|&c| glyph(m, c) == cell).unwrap_or(0)
}

/// Scrolls the window (top, left, bottom, right) in character cells of
/// `page` up or down by `n` rows, filling with `fill` (a colour in planar
/// and 256-colour modes, the byte itself in the CGA modes, as the PC BIOS
/// does).
pub(super) fn scroll(
    m: &mut Machine,
    page: u8,
    n: u16,
    fill: u8,
    (top, left, bottom, right): (u16, u16, u16, u16),
    up: bool,
) {
    let md = model(m);
    let h = if matches!(md, Model::Cga4 | Model::Cga2) {
        8
    } else {
        char_height(m) as u32
    };
    let per_cell = match md {
        Model::Cga4 => 2,
        Model::Linear => 8,
        _ => 1,
    };
    let (x0, x1) = (left as u32 * per_cell, (right as u32 + 1) * per_cell);
    for (r, src, from_inside) in scroll_rows(top, bottom, n, up) {
        for line in 0..h {
            let dy = r as u32 * h + line;
            let sy = src as u32 * h + line;
            if md == Model::Planar {
                if from_inside {
                    // Write mode 1 copies the four latches.
                    gc_write(m, 5, 0x01);
                    for x in x0..x1 {
                        let s = line_byte(m, page, sy, x);
                        let d = line_byte(m, page, dy, x);
                        rd8(m, s);
                        wr8(m, d, 0);
                    }
                } else {
                    gc_write(m, 5, 0x02);
                    gc_write(m, 8, 0xFF);
                    for x in x0..x1 {
                        let d = line_byte(m, page, dy, x);
                        wr8(m, d, fill & 0x0F);
                    }
                }
                gc_defaults(m);
            } else {
                for x in x0..x1 {
                    let d = line_byte(m, page, dy, x);
                    let v = if from_inside {
                        let s = line_byte(m, page, sy, x);
                        rd8(m, s)
                    } else {
                        fill
                    };
                    wr8(m, d, v);
                }
            }
        }
    }
}
