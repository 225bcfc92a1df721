//! INT 10h video services on the emulated VGA: mode sets program the
//! VGA's registers ([`hw::vga::Vga::set_mode`]), the cursor goes to the
//! CRTC, palette functions go through the attribute controller and DAC
//! ports, and text goes into display memory through the VGA's CPU window.
//! The BIOS data area keeps the mode, columns, rows and cursor positions.

use crate::mem::{self, lin, rd16, rd8, wr16, wr8, Regs};
use crate::{rom, Dos};
use hw::Machine;

fn mode(m: &Machine) -> u8 {
    m.peek8(0x449)
}

fn text_mode(m: &Machine) -> bool {
    mode(m) <= 3 || mode(m) == 7
}

fn cols(m: &Machine) -> u16 {
    m.peek16(0x44A).max(1)
}

fn rows(m: &Machine) -> u16 {
    m.peek8(0x484) as u16 + 1
}

fn cursor(m: &Machine, page: u8) -> (u8, u8) {
    let a = 0x450 + 2 * (page & 7) as u32;
    (m.peek8(a + 1), m.peek8(a))
}

fn cell_addr(m: &Machine, page: u8, row: u16, col: u16) -> u32 {
    let base = if mode(m) == 7 { 0xB0000 } else { 0xB8000 };
    base + (page as u32 * m.peek16(0x44C) as u32) + ((row * cols(m) + col) as u32) * 2
}

fn crtc(m: &mut Machine, idx: u8, v: u8) {
    m.out8(0x3D4, idx);
    m.out8(0x3D5, v);
}

/// Moves the cursor of `page` (and the hardware cursor if it is the
/// active page).
pub fn set_cursor(m: &mut Machine, page: u8, row: u8, col: u8) {
    let a = 0x450 + 2 * (page & 7) as u32;
    wr8(m, a, col);
    wr8(m, a + 1, row);
    if page == m.peek8(0x462) {
        let pos =
            (page as u32 * m.peek16(0x44C) as u32 / 2) as u16 + row as u16 * cols(m) + col as u16;
        crtc(m, 0x0E, (pos >> 8) as u8);
        crtc(m, 0x0F, pos as u8);
    }
}

/// Scrolls a text window up (or down) by `n` lines (0 = clear), filling
/// with `attr`.
#[allow(clippy::too_many_arguments)]
pub fn scroll(
    m: &mut Machine,
    page: u8,
    n: u8,
    attr: u8,
    top: u8,
    left: u8,
    bottom: u8,
    right: u8,
    up: bool,
) {
    if !text_mode(m) {
        return;
    }
    let bottom = (bottom as u16).min(rows(m) - 1);
    let right = (right as u16).min(cols(m) - 1);
    let (top, left) = (top as u16, left as u16);
    if top > bottom || left > right {
        return;
    }
    let height = bottom - top + 1;
    let n = if n == 0 || n as u16 > height {
        height
    } else {
        n as u16
    };
    let rows_iter: Vec<u16> = if up {
        (top..=bottom).collect()
    } else {
        (top..=bottom).rev().collect()
    };
    for &r in &rows_iter {
        let src = if up { r + n } else { r.wrapping_sub(n) };
        let from_inside = if up { src <= bottom } else { r >= top + n };
        for c in left..=right {
            let dst = cell_addr(m, page, r, c);
            let (ch, at) = if from_inside {
                let s = cell_addr(m, page, src, c);
                (mem::rd8(m, s), mem::rd8(m, s + 1))
            } else {
                (b' ', attr)
            };
            mem::wr8(m, dst, ch);
            mem::wr8(m, dst + 1, at);
        }
    }
}

/// Teletype output of `c` on the active page (BEL, BS, LF, CR handled),
/// scrolling at the bottom; `attr` colours the cell (None keeps it).
pub fn tty(m: &mut Machine, c: u8, attr: Option<u8>) {
    if !text_mode(m) {
        return;
    }
    let page = m.peek8(0x462);
    let (mut row, mut col) = cursor(m, page);
    let (ncols, nrows) = (cols(m) as u8, rows(m) as u8);
    match c {
        7 => return,
        8 => col = col.saturating_sub(1),
        b'\n' => row += 1,
        b'\r' => col = 0,
        _ => {
            let a = cell_addr(m, page, row as u16, col as u16);
            mem::wr8(m, a, c);
            if let Some(at) = attr {
                mem::wr8(m, a + 1, at);
            }
            col += 1;
            if col >= ncols {
                col = 0;
                row += 1;
            }
        }
    }
    if row >= nrows {
        let a = cell_addr(m, page, nrows as u16 - 1, 0);
        let at = mem::rd8(m, a + 1);
        scroll(m, page, 1, at, 0, 0, nrows - 1, ncols - 1, true);
        row = nrows - 1;
    }
    set_cursor(m, page, row, col);
}

/// Services INT 10h.
pub fn service(dos: &mut Dos, m: &mut Machine) {
    let ah = m.ah();
    match ah {
        0x00 => set_mode(dos, m),
        0x01 => {
            let (ch, cl) = (m.ch(), m.cl());
            wr16(m, 0x460, (ch as u16) << 8 | cl as u16);
            crtc(m, 0x0A, ch & 0x3F);
            crtc(m, 0x0B, cl & 0x1F);
        }
        0x02 => {
            let (p, r, c) = (m.bh(), m.dh(), m.dl());
            set_cursor(m, p, r, c);
        }
        0x03 => {
            let (r, c) = cursor(m, m.bh());
            m.set_dh(r);
            m.set_dl(c);
            let shape = rd16(m, 0x460);
            m.set_cx(shape);
        }
        0x05 => {
            let p = m.al() & 7;
            wr8(m, 0x462, p);
            let start = (p as u32 * m.peek16(0x44C) as u32 / 2) as u16;
            wr16(m, 0x44E, start * 2);
            crtc(m, 0x0C, (start >> 8) as u8);
            crtc(m, 0x0D, start as u8);
            let (r, c) = cursor(m, p);
            set_cursor(m, p, r, c);
        }
        0x06 | 0x07 => {
            let page = m.peek8(0x462);
            let (n, attr, top, left, bottom, right) =
                (m.al(), m.bh(), m.ch(), m.cl(), m.dh(), m.dl());
            scroll(m, page, n, attr, top, left, bottom, right, ah == 0x06);
        }
        0x08 => {
            let page = m.bh();
            let (r, c) = cursor(m, page);
            let a = cell_addr(m, page, r as u16, c as u16);
            let ch = mem::rd8(m, a);
            let at = mem::rd8(m, a + 1);
            m.set_ax((at as u16) << 8 | ch as u16);
        }
        0x09 | 0x0A => {
            if text_mode(m) {
                let page = m.bh();
                let (r, c) = cursor(m, page);
                let (ch, at, n) = (m.al(), m.bl(), m.cx());
                let start = r as u32 * cols(m) as u32 + c as u32;
                let limit = (rows(m) as u32 * cols(m) as u32).saturating_sub(start);
                let base = cell_addr(m, page, r as u16, c as u16);
                for i in 0..(n as u32).min(limit) {
                    mem::wr8(m, base + 2 * i, ch);
                    if ah == 0x09 {
                        mem::wr8(m, base + 2 * i + 1, at);
                    }
                }
            }
        }
        0x0E => {
            let c = m.al();
            tty(m, c, None);
            dos.emit(c);
        }
        0x0F => {
            m.set_al(mode(m));
            m.set_ah(cols(m) as u8);
            let p = m.peek8(0x462);
            m.set_bh(p);
        }
        0x10 => palette(dos, m),
        0x11 => font(dos, m),
        0x12 => {
            if m.bl() == 0x10 {
                m.set_bx(0x0003);
                m.set_cx(0x0009);
            } else {
                let al = m.al();
                dos.unimplemented(0x10, 0x12, al);
            }
        }
        0x13 => {
            let (flags, page, attr, n) = (m.al(), m.bh(), m.bl(), m.cx());
            let (es, bp) = (m.es(), m.bp());
            let saved = cursor(m, page);
            set_cursor(m, page, m.dh(), m.dl());
            let step = if flags & 2 != 0 { 2 } else { 1 };
            for i in 0..n {
                let off = bp.wrapping_add(i * step);
                let c = mem::rd8(m, lin(es, off));
                let at = if step == 2 {
                    mem::rd8(m, lin(es, off.wrapping_add(1)))
                } else {
                    attr
                };
                tty(m, c, Some(at));
                dos.emit(c);
            }
            if flags & 1 == 0 {
                set_cursor(m, page, saved.0, saved.1);
            }
        }
        0x1A => {
            if m.al() == 0 {
                m.set_al(0x1A);
                m.set_bx(0x0008);
            }
        }
        0x4F => m.set_ax(0x0100), // no VESA BIOS
        _ => {
            let al = m.al();
            dos.unimplemented(0x10, ah, al);
        }
    }
}

fn set_mode(dos: &mut Dos, m: &mut Machine) {
    let al = m.al();
    let md = al & 0x7F;
    let (hw_mode, cols, rows, height) = match md {
        0x00..=0x03 => (0x03, 80u16, 25u8, 16u8),
        0x12 => (0x12, 80, 30, 16),
        0x13 => (0x13, 40, 25, 8),
        _ => {
            dos.unimplemented(0x10, 0x00, al);
            return;
        }
    };
    let now = m.cycles();
    m.bus.vga.set_mode(hw_mode, now);
    wr8(m, 0x449, if md <= 3 { 3 } else { md });
    wr16(m, 0x44A, cols);
    wr16(m, 0x44C, if hw_mode == 0x03 { 0x1000 } else { 0 });
    wr16(m, 0x44E, 0);
    for p in 0..8 {
        wr16(m, 0x450 + 2 * p, 0);
    }
    wr8(m, 0x462, 0);
    wr8(m, 0x484, rows - 1);
    wr16(m, 0x485, height as u16);
    if hw_mode == 0x03 {
        set_cursor(m, 0, 0, 0);
    }
    m.set_al(if md == 0x13 { 0x20 } else { 0x30 });
}

fn palette(dos: &mut Dos, m: &mut Machine) {
    let al = m.al();
    let attr_write = |m: &mut Machine, idx: u8, v: u8| {
        m.in8(0x3DA);
        m.out8(0x3C0, idx);
        m.out8(0x3C0, v);
        m.out8(0x3C0, 0x20);
    };
    match al {
        0x00 => {
            let (i, v) = (m.bl(), m.bh());
            attr_write(m, i & 0x1F, v);
        }
        0x01 => {
            let v = m.bh();
            attr_write(m, 0x11, v);
        }
        0x02 => {
            let (es, dx) = (m.es(), m.dx());
            for i in 0..17u16 {
                let v = mem::rd8(m, lin(es, dx.wrapping_add(i)));
                attr_write(m, if i == 16 { 0x11 } else { i as u8 }, v);
            }
        }
        0x03 => {
            m.in8(0x3DA);
            m.out8(0x3C0, 0x10);
            let v = m.in8(0x3C1);
            let v = if m.bl() & 1 != 0 { v | 8 } else { v & !8 };
            m.out8(0x3C0, v);
            m.out8(0x3C0, 0x20);
        }
        0x07 => {
            m.in8(0x3DA);
            m.out8(0x3C0, m.bl() & 0x1F);
            let v = m.in8(0x3C1);
            m.out8(0x3C0, 0x20);
            m.set_bh(v);
        }
        0x10 => {
            let (i, r, g, b) = (m.bl(), m.dh(), m.ch(), m.cl());
            m.out8(0x3C8, i);
            for v in [r, g, b] {
                m.out8(0x3C9, v);
            }
        }
        0x12 => {
            let (start, n, es, dx) = (m.bx(), m.cx(), m.es(), m.dx());
            m.out8(0x3C8, start as u8);
            for i in 0..(n.min(256) * 3) {
                let v = mem::rd8(m, lin(es, dx.wrapping_add(i)));
                m.out8(0x3C9, v);
            }
        }
        0x15 => {
            m.out8(0x3C7, m.bl());
            let r = m.in8(0x3C9);
            let g = m.in8(0x3C9);
            let b = m.in8(0x3C9);
            m.set_dh(r);
            m.set_ch(g);
            m.set_cl(b);
        }
        0x17 => {
            let (start, n, es, dx) = (m.bx(), m.cx(), m.es(), m.dx());
            m.out8(0x3C7, start as u8);
            for i in 0..(n.min(256) * 3) {
                let v = m.in8(0x3C9);
                mem::wr8(m, lin(es, dx.wrapping_add(i)), v);
            }
        }
        _ => dos.unimplemented(0x10, 0x10, al),
    }
}

fn font(dos: &mut Dos, m: &mut Machine) {
    let al = m.al();
    if al != 0x30 {
        dos.unimplemented(0x10, 0x11, al);
        return;
    }
    let (seg, off) = match m.bh() {
        0 => (rd16(m, 0x1F * 4 + 2), rd16(m, 0x1F * 4)),
        1 => (rd16(m, 0x43 * 4 + 2), rd16(m, 0x43 * 4)),
        3 => (rom::SEG, rom::FONT8),
        4 => (rom::SEG, rom::FONT8 + 0x400),
        _ => (rom::SEG, rom::FONT16),
    };
    m.set_es(seg);
    m.cpu.regs.set_reg16(emu::Reg16::BP, off);
    let h = rd16(m, 0x485);
    m.set_cx(h);
    let r = rd8(m, 0x484);
    m.set_dl(r);
}
