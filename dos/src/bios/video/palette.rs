//! INT 10h 0Bh (CGA colour palette) and 10h (attribute palette and DAC),
//! through the attribute controller (3C0h/3C1h) and DAC ports.

use super::{attr_read, attr_write, bda, model, save_palette, Model};
use crate::diag::Diagnostics;
use crate::mem::{lin, rd8, wr8, Regs};
use hw::vga::tables::grey;
use hw::Machine;

/// INT 10h 0Bh. BH=00h: BL = background (graphics) / border (text)
/// colour, bit 4 the intensity of the CGA palette; BH=01h: BL = CGA
/// palette 0 (green, red, brown) or 1 (cyan, magenta, white). Kept in
/// 40:66h as the CGA's colour select register.
pub(super) fn cga_palette(m: &mut Machine) {
    let (bh, bl) = (m.bh(), m.bl());
    let mut sel = m.peek8(bda::PALETTE);
    if bh == 0 {
        sel = sel & 0xE0 | bl & 0x1F;
        // The colour as an EGA palette value: intensity is bit 4.
        let ega = bl & 0x07 | (bl & 0x08) << 1;
        attr_write(m, 0x11, ega);
        if model(m) != Model::Text {
            attr_write(m, 0x00, ega);
        }
    } else {
        sel = sel & !0x20 | if bl & 1 != 0 { 0x20 } else { 0 };
    }
    wr8(m, bda::PALETTE, sel);
    if matches!(model(m), Model::Cga4) {
        // Palette entries 1-3 from the palette choice and intensity.
        let bright = if sel & 0x10 != 0 { 0x10 } else { 0 };
        let base = if sel & 0x20 != 0 {
            [3, 5, 7]
        } else {
            [2, 4, 6]
        };
        for (i, c) in base.into_iter().enumerate() {
            attr_write(m, i as u8 + 1, c | bright);
        }
    }
}

/// Writes DAC entry `i` (summed to grey when 40:89h bit 1 is set).
fn dac_write(m: &mut Machine, i: u8, c: [u8; 3]) {
    let c = if m.peek8(bda::VGA_FLAGS) & 0x02 != 0 {
        [grey(c); 3]
    } else {
        c
    };
    m.out8(0x3C8, i);
    for v in c {
        m.out8(0x3C9, v);
    }
}

fn dac_read(m: &mut Machine, i: u8) -> [u8; 3] {
    m.out8(0x3C7, i);
    [m.in8(0x3C9), m.in8(0x3C9), m.in8(0x3C9)]
}

/// INT 10h 10h.
pub(super) fn service(diag: &mut Diagnostics, m: &mut Machine) {
    let al = m.al();
    match al {
        0x00..=0x03 => set_attributes(m, al),
        0x07..=0x09 => read_attributes(m, al),
        0x10 | 0x12 | 0x15 | 0x17..=0x19 | 0x1B => dac(m, al),
        0x13 => select_colour_page(diag, m),
        0x1A => colour_page_state(m),
        _ => diag.unimplemented(0x10, 0x10, al),
    }
}

/// 00h-03h: the attribute controller's palette registers, overscan and
/// blink bit.
fn set_attributes(m: &mut Machine, al: u8) {
    let (es, dx) = (m.es(), m.dx());
    match al {
        // Set one palette register: BL = register, BH = value.
        0x00 => {
            let (i, v) = (m.bl(), m.bh());
            if i <= 0x14 {
                attr_write(m, i, v);
                save_palette(m, i, v);
            }
        }
        // Overscan (border) colour: BH.
        0x01 => {
            let v = m.bh();
            attr_write(m, 0x11, v);
            save_palette(m, 0x11, v);
        }
        // All 16 palette registers and the overscan from ES:DX.
        0x02 => {
            for i in 0..17u16 {
                let v = rd8(m, lin(es, dx.wrapping_add(i)));
                let idx = if i == 16 { 0x11 } else { i as u8 };
                attr_write(m, idx, v);
                save_palette(m, idx, v);
            }
        }
        // BL = 0: attribute bit 7 is background intensity; 1: blink.
        _ => {
            let v = attr_read(m, 0x10);
            let v = if m.bl() & 1 != 0 { v | 8 } else { v & !8 };
            attr_write(m, 0x10, v);
        }
    }
}

/// 07h-09h: reads the palette registers and the overscan.
fn read_attributes(m: &mut Machine, al: u8) {
    match al {
        // Read one palette register BL into BH.
        0x07 => {
            let v = attr_read(m, m.bl());
            m.set_bh(v);
        }
        // Read the overscan register into BH.
        0x08 => {
            let v = attr_read(m, 0x11);
            m.set_bh(v);
        }
        // Read all 16 palette registers and the overscan to ES:DX.
        _ => {
            let (es, dx) = (m.es(), m.dx());
            for i in 0..17u16 {
                let v = attr_read(m, if i == 16 { 0x11 } else { i as u8 });
                wr8(m, lin(es, dx.wrapping_add(i)), v);
            }
        }
    }
}

/// 10h, 12h, 15h, 17h-19h, 1Bh: the DAC's colour registers and PEL mask.
fn dac(m: &mut Machine, al: u8) {
    let (es, dx) = (m.es(), m.dx());
    match al {
        // One DAC register: BX = index, DH/CH/CL = red/green/blue.
        0x10 => {
            let (i, c) = (m.bl(), [m.dh(), m.ch(), m.cl()]);
            dac_write(m, i, c);
        }
        // A block of DAC registers: BX = first, CX = count, ES:DX = table.
        0x12 => {
            let (first, n) = (m.bx(), m.cx());
            for k in 0..n.min(256) {
                let o = dx.wrapping_add(3 * k);
                let c = [0u16, 1, 2].map(|j| rd8(m, lin(es, o.wrapping_add(j))));
                dac_write(m, (first + k) as u8, c);
            }
        }
        // Read DAC register BL into DH/CH/CL.
        0x15 => {
            let [r, g, b] = dac_read(m, m.bl());
            m.set_dh(r);
            m.set_ch(g);
            m.set_cl(b);
        }
        // Read a block: BX = first, CX = count, to ES:DX.
        0x17 => {
            let (first, n) = (m.bx(), m.cx());
            for k in 0..n.min(256) {
                let c = dac_read(m, (first + k) as u8);
                for (j, v) in c.into_iter().enumerate() {
                    wr8(m, lin(es, dx.wrapping_add(3 * k + j as u16)), v);
                }
            }
        }
        // PEL mask: set from BL, read into BL.
        0x18 => {
            let v = m.bl();
            m.out8(0x3C6, v);
        }
        0x19 => {
            let v = m.in8(0x3C6);
            m.set_bl(v);
        }
        // Sum BX.. (CX registers) to grey.
        _ => {
            let (first, n) = (m.bx(), m.cx());
            for k in 0..n.min(256) {
                let i = (first + k) as u8;
                let g = grey(dac_read(m, i));
                m.out8(0x3C8, i);
                for _ in 0..3 {
                    m.out8(0x3C9, g);
                }
            }
        }
    }
}

/// 13h, colour paging: BL = 0 selects the mode (BH = 0: 4 pages of 64,
/// 1: 16 of 16, AR10 bit 7), BL = 1 the page BH (AR14).
fn select_colour_page(diag: &mut Diagnostics, m: &mut Machine) {
    let (bl, bh) = (m.bl(), m.bh());
    let mc = attr_read(m, 0x10);
    if bl == 0 {
        let v = if bh & 1 != 0 { mc | 0x80 } else { mc & 0x7F };
        attr_write(m, 0x10, v);
    } else if bl == 1 {
        let v = if mc & 0x80 != 0 {
            bh & 0x0F
        } else {
            (bh & 3) << 2
        };
        attr_write(m, 0x14, v);
    } else {
        diag.unimplemented(0x10, 0x10, 0x13);
    }
}

/// 1Ah, colour page state: BL = paging mode, BH = current page.
fn colour_page_state(m: &mut Machine) {
    let mc = attr_read(m, 0x10);
    let cs = attr_read(m, 0x14);
    let (mode16, page) = if mc & 0x80 != 0 {
        (1, cs & 0x0F)
    } else {
        (0, cs >> 2 & 3)
    };
    m.set_bl(mode16);
    m.set_bh(page);
}
