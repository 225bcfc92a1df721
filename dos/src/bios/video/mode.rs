//! INT 10h 00h (set mode) and 0Fh (get mode).

use super::{bda, crtc_read, far_ptr, set_far_ptr, tables, text, Model};
use crate::diag::Diagnostics;
use crate::mem::{rd8, wr16, wr8, Regs};
use hw::vga::{font, tables::grey, DacTable, ModeParams, ScanLines, PARAM_SIZE};
use hw::Machine;

/// The CGA mode select register value of modes 00h-07h (40:65h).
const MODE_SELECT: [u8; 8] = [0x2C, 0x28, 0x2D, 0x29, 0x2A, 0x2E, 0x1E, 0x29];

/// The scan-line setting for text modes (40:89h bits 7 and 4).
pub(super) fn scan_lines(m: &Machine) -> ScanLines {
    let f = m.peek8(bda::VGA_FLAGS);
    match (f & 0x80 != 0, f & 0x10 != 0) {
        (true, _) => ScanLines::L200,
        (false, true) => ScanLines::L400,
        (false, false) => ScanLines::L350,
    }
}

/// The parameter table entry `index`, read through the save pointer table
/// at 40:A8h (a program may point it at its own table, as on a real
/// BIOS).
fn params(m: &mut Machine, index: usize) -> Option<ModeParams> {
    let (sseg, soff) = far_ptr(m, bda::SAVE_PTR);
    let (pseg, poff) = far_ptr(m, crate::mem::lin(sseg, soff));
    let base = crate::mem::lin(pseg, poff) + (index * PARAM_SIZE) as u32;
    let mut b = [0u8; PARAM_SIZE];
    for (i, v) in b.iter_mut().enumerate() {
        *v = rd8(m, base + i as u32);
    }
    // An empty entry (a PCjr mode) has no columns.
    (b[0] != 0).then(|| ModeParams::from_bytes(&b))
}

/// Loads `table` into the DAC from entry 0, summed to grey when 40:89h
/// bit 1 asks for it.
pub(super) fn load_dac(m: &mut Machine, table: &[[u8; 3]]) {
    let sum = m.peek8(bda::VGA_FLAGS) & 0x02 != 0;
    m.out8(0x3C8, 0);
    for &c in table {
        let c = if sum { [grey(c); 3] } else { c };
        for v in c {
            m.out8(0x3C9, v);
        }
    }
}

/// INT 10h 00h: AL = mode, bit 7 set keeps display memory.
pub(super) fn set_mode(diag: &mut Diagnostics, m: &mut Machine) {
    let al = m.al();
    let md = al & 0x7F;
    let keep = al & 0x80 != 0;
    let Some(p) = hw::vga::tables::param_index(md, scan_lines(m)).and_then(|i| params(m, i)) else {
        diag.unimplemented(0x10, 0x00, al);
        return;
    };
    let mono = matches!(md, 0x07 | 0x0F);
    // Equipment word bits 5-4: the initial video mode (11b monochrome).
    let eq = m.peek16(0x410) & !0x30 | if mono { 0x30 } else { 0x20 };
    wr16(m, 0x410, eq);
    let now = m.cycles();
    m.bus.vga.load_params(&p, now);
    if m.peek8(bda::VGA_FLAGS) & 0x08 == 0 {
        m.out8(0x3C6, 0xFF);
        let table = DacTable::for_mode(md, &p).entries();
        let mut full = table.clone();
        full.resize(256, [0; 3]);
        load_dac(m, &full);
    }
    if !keep {
        m.bus.vga.clear_memory(p.text());
    }
    if p.text() {
        let h = p.char_height;
        m.bus.vga.load_font(0, 0, 256, h as usize, font::font(h));
    }
    // The BIOS data area.
    wr8(m, bda::MODE, md);
    wr16(m, bda::COLS, p.cols as u16);
    wr16(m, bda::PAGE_SIZE, p.page_size);
    wr16(m, bda::PAGE_START, 0);
    for pg in 0..8 {
        wr16(m, bda::CURSOR + 2 * pg, 0);
    }
    wr8(m, bda::PAGE, 0);
    wr16(m, bda::CRTC_PORT, if mono { 0x3B4 } else { 0x3D4 });
    if let Some(&v) = MODE_SELECT.get(md as usize) {
        wr8(m, bda::MODE_SELECT, v);
    }
    wr8(m, bda::PALETTE, if md == 6 { 0x3F } else { 0x30 });
    wr8(m, bda::ROWS, p.rows_m1);
    wr16(m, bda::CHAR_HEIGHT, p.char_height as u16);
    let info = m.peek8(bda::EGA_INFO) & 0x7F | if keep { 0x80 } else { 0 };
    wr8(m, bda::EGA_INFO, info);
    let flags = m.peek8(bda::VGA_FLAGS) & !0x04 | if mono { 0x04 } else { 0 };
    wr8(m, bda::VGA_FLAGS, flags);
    if p.text() {
        // The CGA underline cursor, emulated for the cell height.
        text::set_cursor_shape(m, 6, 7);
    } else {
        let (start, end) = (crtc_read(m, 0x0A), crtc_read(m, 0x0B));
        wr16(m, bda::CURSOR_SHAPE, (start as u16) << 8 | end as u16);
    }
    // INT 43h: the graphics font of the mode's character height (the 8x8
    // font in text modes).
    let f = match (super::model(m), p.char_height) {
        (Model::Text, _) | (_, 8) => tables::FONT8,
        (_, 14) => tables::FONT14,
        _ => tables::FONT16,
    };
    set_far_ptr(m, 0x43 * 4, tables::SEG, f);
    text::set_cursor(m, 0, 0, 0);
    overrides(m, md, &p);
    // AL on return (Phoenix and AMI BIOSes; some programs look): 20h for
    // modes above 7, 3Fh for mode 6, 30h otherwise.
    m.set_al(match md {
        0x08.. => 0x20,
        6 => 0x3F,
        _ => 0x30,
    });
}

/// What the save pointer table asks of a mode set (IBM's "Video Save
/// Pointer Table"): the palette registers and overscan go to the dynamic
/// save area; the alphanumeric font override (height, block, count, first
/// character, font pointer, rows, modes ending in FFh) loads its font in
/// the text modes it lists; the graphics font override (rows, bytes per
/// character, font pointer, modes) becomes INT 43h in its modes.
fn overrides(m: &mut Machine, md: u8, p: &ModeParams) {
    let lists = |m: &mut Machine, a: u32| {
        (0..32u32)
            .map(|i| rd8(m, a + i))
            .take_while(|&v| v != 0xFF)
            .any(|v| v == md)
    };
    for i in 0..16u8 {
        super::save_palette(m, i, p.attr[i as usize]);
    }
    super::save_palette(m, 0x11, p.attr[0x11]);
    if p.text() {
        if let Some(a) = super::save_entry(m, 2) {
            if lists(m, a + 11) {
                let (h, block) = (rd8(m, a), rd8(m, a + 1));
                let count = crate::mem::rd16(m, a + 2) as usize;
                let first = rd8(m, a + 4);
                let (seg, off) = far_ptr(m, a + 6);
                let count = count.min(256 - first as usize);
                super::font::load(
                    m,
                    block,
                    first,
                    count,
                    h as usize,
                    crate::mem::lin(seg, off),
                );
                if block == 0 {
                    super::font::recalc(m, h);
                }
            }
        }
    } else if let Some(a) = super::save_entry(m, 3) {
        if lists(m, a + 7) {
            let rows = rd8(m, a);
            let height = crate::mem::rd16(m, a + 1);
            let (seg, off) = far_ptr(m, a + 3);
            set_far_ptr(m, 0x43 * 4, seg, off);
            wr8(m, bda::ROWS, rows.saturating_sub(1));
            wr16(m, bda::CHAR_HEIGHT, height);
        }
    }
}

/// INT 10h 0Fh: AL = mode (bit 7 = memory kept at the mode set), AH =
/// columns, BH = active page.
pub(super) fn get_mode(m: &mut Machine) {
    let md = m.peek8(bda::MODE) | m.peek8(bda::EGA_INFO) & 0x80;
    m.set_al(md);
    m.set_ah(super::cols(m) as u8);
    let p = m.peek8(bda::PAGE);
    m.set_bh(p);
}
