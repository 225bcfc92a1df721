//! INT 10h cursor, page and character functions: 01h-03h, 05h-0Ah, 0Eh,
//! 13h. In graphics modes characters are drawn by `graphics.rs`.

use super::{
    bda, char_height, cols, crtc_write, cursor, graphics, mode, model, rows, scroll_rows, Model,
};
use crate::console::Console;
use crate::diag::Diagnostics;
use crate::mem::{self, lin, rd16, wr16, wr8, Regs};
use hw::Machine;

/// Display memory of a text page's cell.
fn cell_addr(m: &Machine, page: u8, row: u16, col: u16) -> u32 {
    let base = if mode(m) == 7 { 0xB0000 } else { 0xB8000 };
    let page_size = m.peek16(bda::PAGE_SIZE) as u32;
    base + ((page & 7) as u32 * page_size + (row as u32 * cols(m) as u32 + col as u32) * 2) % 0x8000
}

/// The display start of `page` in CRTC address units (words in text
/// modes, bytes in graphics modes).
fn page_start(m: &Machine, page: u8) -> u16 {
    let bytes = (page & 7) as u32 * m.peek16(bda::PAGE_SIZE) as u32;
    if model(m) == Model::Text {
        (bytes / 2) as u16
    } else {
        bytes as u16
    }
}

/// Moves the cursor of `page` (and the hardware cursor if it is the
/// active page).
pub fn set_cursor(m: &mut Machine, page: u8, row: u8, col: u8) {
    let a = bda::CURSOR + 2 * (page & 7) as u32;
    wr8(m, a, col);
    wr8(m, a + 1, row);
    if page == m.peek8(bda::PAGE) {
        let pos = page_start(m, page)
            .wrapping_add(row as u16 * cols(m))
            .wrapping_add(col as u16);
        crtc_write(m, 0x0E, (pos >> 8) as u8);
        crtc_write(m, 0x0F, pos as u8);
    }
}

/// INT 10h 01h: the cursor shape. With cursor emulation on (40:87h bit 0
/// clear) a CGA-style shape for 8-line cells is moved to the same place
/// in taller cells: lines 4-7 count from the bottom (IBM VGA BIOS).
pub(super) fn set_cursor_shape(m: &mut Machine, start: u8, end: u8) {
    wr16(m, bda::CURSOR_SHAPE, (start as u16) << 8 | end as u16);
    let (mut s, mut e) = (start & 0x3F, end & 0x1F);
    let h = char_height(m) as u8;
    let emulate = m.peek8(bda::EGA_INFO) & 1 == 0 && model(m) == Model::Text;
    if emulate && start & 0x20 == 0 && h > 8 && s <= e && e < 8 {
        let map = |v: u8| if v >= 4 { h - 1 - (8 - v) } else { v };
        s = map(s);
        e = map(e);
    }
    crtc_write(m, 0x0A, s);
    crtc_write(m, 0x0B, e);
}

/// INT 10h 05h: the active page.
fn set_page(m: &mut Machine, page: u8) {
    let page = page & 7;
    wr8(m, bda::PAGE, page);
    let bytes = page as u32 * m.peek16(bda::PAGE_SIZE) as u32;
    wr16(m, bda::PAGE_START, bytes as u16);
    let start = page_start(m, page);
    crtc_write(m, 0x0C, (start >> 8) as u8);
    crtc_write(m, 0x0D, start as u8);
    let (r, c) = cursor(m, page);
    set_cursor(m, page, r, c);
}

/// Scrolls a window up (or down) by `n` lines (0 = clear), filling with
/// `attr` (the fill colour in graphics modes). Text modes scroll `page`;
/// graphics modes the active page.
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
    if model(m) != Model::Text {
        let page = m.peek8(bda::PAGE);
        graphics::scroll(m, page, n, attr, (top, left, bottom, right), up);
        return;
    }
    for (r, src, from_inside) in scroll_rows(top, bottom, n, up) {
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

/// Writes `c` at the cursor of `page` without moving it: in text modes
/// with `attr` (None keeps the cell's), in graphics modes in colour
/// `attr` (bit 7: XOR).
fn put_char(m: &mut Machine, page: u8, row: u8, col: u8, c: u8, attr: Option<u8>) {
    if model(m) == Model::Text {
        let a = cell_addr(m, page, row as u16, col as u16);
        mem::wr8(m, a, c);
        if let Some(at) = attr {
            mem::wr8(m, a + 1, at);
        }
    } else {
        let colour = attr.unwrap_or_else(|| default_colour(m));
        graphics::draw_char(m, page, row as u16, col as u16, c, colour);
    }
}

/// The colour of console text in graphics modes: the brightest the mode
/// has (what DOSBox's console uses when no colour is given: 3 in CGA 4
/// colours, 1 in 2 colours, 0Fh otherwise).
fn default_colour(m: &Machine) -> u8 {
    match model(m) {
        Model::Cga4 => 3,
        Model::Cga2 => 1,
        _ => 0x0F,
    }
}

/// Teletype output of `c` on the active page (BEL, BS, LF, CR handled),
/// scrolling at the bottom. `attr` colours the cell in text modes (None
/// keeps it) and is the foreground colour in graphics modes (None: the
/// console's colour).
pub fn tty(m: &mut Machine, c: u8, attr: Option<u8>) {
    let page = m.peek8(bda::PAGE);
    let (row, col) = cursor(m, page);
    let (row, col) = tty_step(m, page, (row, col), c, attr);
    set_cursor(m, page, row, col);
}

/// One character of teletype output at `(row, col)` of `page`: BEL does
/// nothing, BS, CR and LF move, anything else is drawn and advances with
/// a wrap; past the last row the page scrolls up one line. Returns the new
/// position (the cursor itself is left to the caller: 13h may keep it).
fn tty_step(m: &mut Machine, page: u8, at: (u8, u8), c: u8, attr: Option<u8>) -> (u8, u8) {
    let (mut row, mut col) = at;
    let (ncols, nrows) = (cols(m).min(255) as u8, rows(m).min(255) as u8);
    match c {
        7 => return at,
        8 => col = col.saturating_sub(1),
        b'\n' => row = row.saturating_add(1),
        b'\r' => col = 0,
        _ => {
            put_char(m, page, row, col, c, attr);
            col = col.saturating_add(1);
            if col >= ncols {
                col = 0;
                row = row.saturating_add(1);
            }
        }
    }
    if row >= nrows {
        // The new line takes the attribute of the cell at the cursor in
        // text modes; graphics modes fill with colour 0.
        let fill = if model(m) == Model::Text {
            let a = cell_addr(m, page, nrows as u16 - 1, col as u16);
            mem::rd8(m, a + 1)
        } else {
            0
        };
        scroll(m, page, 1, fill, 0, 0, nrows - 1, ncols - 1, true);
        row = nrows - 1;
    }
    (row, col)
}

/// INT 10h 01h-03h, 05h-0Ah, 0Eh, 13h.
pub(super) fn service(con: &mut Console, diag: &mut Diagnostics, m: &mut Machine) {
    let ah = m.ah();
    match ah {
        0x01 => {
            let (ch, cl) = (m.ch(), m.cl());
            set_cursor_shape(m, ch, cl);
        }
        0x02 => {
            let (p, r, c) = (m.bh(), m.dh(), m.dl());
            set_cursor(m, p, r, c);
        }
        0x03 => {
            let (r, c) = cursor(m, m.bh());
            m.set_dh(r);
            m.set_dl(c);
            let shape = rd16(m, bda::CURSOR_SHAPE);
            m.set_cx(shape);
        }
        0x05 => {
            let p = m.al();
            set_page(m, p);
        }
        0x06 | 0x07 => {
            let page = m.peek8(bda::PAGE);
            let (n, attr, top, left, bottom, right) =
                (m.al(), m.bh(), m.ch(), m.cl(), m.dh(), m.dl());
            scroll(m, page, n, attr, top, left, bottom, right, ah == 0x06);
        }
        0x08 => {
            let page = m.bh();
            let (r, c) = cursor(m, page);
            if model(m) == Model::Text {
                let a = cell_addr(m, page, r as u16, c as u16);
                let ch = mem::rd8(m, a);
                let at = mem::rd8(m, a + 1);
                m.set_ax((at as u16) << 8 | ch as u16);
            } else {
                let ch = graphics::read_char(m, page, r as u16, c as u16);
                m.set_ax(ch as u16);
            }
        }
        0x09 | 0x0A => {
            let page = m.bh();
            let (r, c) = cursor(m, page);
            let (ch, at, n) = (m.al(), m.bl(), m.cx());
            // Text: along the row and on into the next ones, up to the end
            // of the page; graphics: to the end of the row.
            let text = model(m) == Model::Text;
            let per_page = if text {
                rows(m) as u32 * cols(m) as u32
            } else {
                (r as u32 + 1) * cols(m) as u32
            };
            let start = r as u32 * cols(m) as u32 + c as u32;
            let count = (n as u32).min(per_page.saturating_sub(start));
            for i in 0..count {
                let p = start + i;
                let (row, col) = ((p / cols(m) as u32) as u8, (p % cols(m) as u32) as u8);
                let attr = if text && ah == 0x0A { None } else { Some(at) };
                put_char(m, page, row, col, ch, attr);
            }
        }
        0x0E => {
            let (c, colour) = (m.al(), m.bl());
            let attr = (model(m) != Model::Text).then_some(colour);
            tty(m, c, attr);
            con.emit(c);
        }
        0x13 => write_string(con, diag, m),
        _ => {
            let al = m.al();
            diag.unimplemented(0x10, ah, al);
        }
    }
}

/// INT 10h 13h: write string. AL bit 0 moves the cursor, bit 1 means the
/// string alternates characters and attributes; BH page, BL attribute,
/// CX length, DH/DL position, ES:BP string. BEL, BS, CR and LF act as in
/// teletype output.
fn write_string(con: &mut Console, diag: &mut Diagnostics, m: &mut Machine) {
    let (flags, page, attr, n) = (m.al(), m.bh(), m.bl(), m.cx());
    if flags > 3 {
        diag.unimplemented(0x10, 0x13, flags);
        return;
    }
    let (es, bp) = (m.es(), m.bp());
    let saved = cursor(m, page);
    let active = m.peek8(bda::PAGE);
    let (mut row, mut col) = (m.dh(), m.dl());
    let step = if flags & 2 != 0 { 2 } else { 1 };
    for i in 0..n {
        let off = bp.wrapping_add(i.wrapping_mul(step));
        let c = mem::rd8(m, lin(es, off));
        let at = if step == 2 {
            mem::rd8(m, lin(es, off.wrapping_add(1)))
        } else {
            attr
        };
        (row, col) = tty_step(m, page, (row, col), c, Some(at));
        if page == active {
            con.emit(c);
        }
    }
    if flags & 1 != 0 {
        set_cursor(m, page, row, col);
    } else {
        set_cursor(m, page, saved.0, saved.1);
    }
}
