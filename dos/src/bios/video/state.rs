//! INT 10h 12h (alternate select), 1Ah (display combination), 1Bh
//! (functionality and state information) and 1Ch (save and restore the
//! video state).

use super::{
    attr_read, bda, crtc_read, gc_read, mode::scan_lines, model, seq_read, seq_write, tables, Model,
};
use crate::diag::Diagnostics;
use crate::mem::{lin, rd8, wr16, wr8, Regs};
use hw::vga::ScanLines;
use hw::Machine;

/// Sets (`on`) or clears `bit` of the BIOS data area byte at `a`.
fn set_bit(m: &mut Machine, a: u32, bit: u8, on: bool) {
    let v = m.peek8(a);
    wr8(m, a, if on { v | bit } else { v & !bit });
}

/// INT 10h 12h, by BL.
pub(super) fn alternate_select(diag: &mut Diagnostics, m: &mut Machine) {
    let (al, bl) = (m.al(), m.bl());
    // Functions 30h-36h answer AL = 12h when they are supported.
    let ok = |m: &mut Machine| m.set_al(0x12);
    match bl {
        // EGA information: BH = 0 colour / 1 monochrome addressing, BL =
        // memory (3: 256 KiB), CH = feature bits, CL = switch settings.
        0x10 => {
            let mono = m.peek16(bda::CRTC_PORT) == 0x3B4;
            let sw = m.peek8(bda::EGA_SWITCHES);
            m.set_bh(mono as u8);
            m.set_bl(3);
            m.set_ch(sw >> 4);
            m.set_cl(sw & 0x0F);
        }
        // Alternate print screen routine: ours already handles every mode,
        // so there is nothing to switch.
        0x20 => ok(m),
        // Scan lines for the next text mode set: AL = 0 200, 1 350, 2 400.
        0x30 => {
            let f = m.peek8(bda::VGA_FLAGS) & !0x90;
            let bits = match al {
                0 => 0x80,
                1 => 0x00,
                2 => 0x10,
                _ => {
                    m.set_al(0);
                    return;
                }
            };
            wr8(m, bda::VGA_FLAGS, f | bits);
            ok(m);
        }
        // Default palette loading at mode sets: AL = 0 on, 1 off.
        0x31 => {
            set_bit(m, bda::VGA_FLAGS, 0x08, al & 1 != 0);
            ok(m);
        }
        // Video subsystem: AL = 0 enabled (it is); disabling it (the
        // adapter stops decoding memory and ports) is not modelled.
        0x32 => {
            if al == 0 {
                ok(m);
            } else {
                diag.unimplemented(0x10, 0x12, bl);
            }
        }
        // Grey-scale summing: AL = 0 on, 1 off.
        0x33 => {
            set_bit(m, bda::VGA_FLAGS, 0x02, al & 1 == 0);
            ok(m);
        }
        // Cursor emulation: AL = 0 on, 1 off (40:87h bit 0 = off).
        0x34 => {
            set_bit(m, bda::EGA_INFO, 0x01, al & 1 != 0);
            ok(m);
        }
        // Display switching between two adapters: there is one.
        0x35 => diag.unimplemented(0x10, 0x12, bl),
        // Screen refresh: AL = 0 on, 1 off (sequencer SR01 bit 5).
        0x36 => {
            let v = seq_read(m, 1);
            seq_write(m, 1, if al & 1 != 0 { v | 0x20 } else { v & !0x20 });
            ok(m);
        }
        _ => diag.unimplemented(0x10, 0x12, bl),
    }
}

/// INT 10h 1Ah: AL = 00h reads the display combination (BL active, BH
/// alternate), 01h writes it; AL = 1Ah on return.
pub(super) fn display_combination(diag: &mut Diagnostics, m: &mut Machine) {
    match m.al() {
        0x00 => {
            let i = m.peek8(bda::DCC_INDEX) as usize;
            let [alt, active] = tables::DCC_PAIRS.get(i).copied().unwrap_or([0, 0]);
            m.set_bl(active);
            m.set_bh(alt);
            m.set_al(0x1A);
        }
        0x01 => {
            let (active, alt) = (m.bl(), m.bh());
            let i = tables::DCC_PAIRS
                .iter()
                .position(|&p| p == [alt, active] || p == [active, alt]);
            wr8(m, bda::DCC_INDEX, i.map_or(0xFF, |i| i as u8));
            m.set_al(0x1A);
        }
        al => diag.unimplemented(0x10, 0x1A, al),
    }
}

/// INT 10h 1Bh, BX = 0: the 64-byte state at ES:DI (IBM's layout); AL =
/// 1Bh.
pub(super) fn functionality(diag: &mut Diagnostics, m: &mut Machine) {
    if m.bx() != 0 {
        let al = m.al();
        diag.unimplemented(0x10, 0x1B, al);
        return;
    }
    let base = lin(m.es(), m.di());
    let mut b = [0u8; 64];
    b[0..2].copy_from_slice(&tables::STATIC_TABLE.to_le_bytes());
    b[2..4].copy_from_slice(&tables::SEG.to_le_bytes());
    b[4] = m.peek8(bda::MODE);
    for (i, a) in (bda::COLS..bda::COLS + 4).enumerate() {
        b[5 + i] = m.peek8(a);
    }
    for i in 0..2 {
        b[9 + i] = m.peek8(bda::PAGE_START + i as u32);
    }
    for i in 0..16 {
        b[0x0B + i] = m.peek8(bda::CURSOR + i as u32);
    }
    // Cursor shape: end line, then start line.
    b[0x1B] = m.peek8(bda::CURSOR_SHAPE);
    b[0x1C] = m.peek8(bda::CURSOR_SHAPE + 1);
    b[0x1D] = m.peek8(bda::PAGE);
    b[0x1E] = m.peek8(bda::CRTC_PORT);
    b[0x1F] = m.peek8(bda::CRTC_PORT + 1);
    b[0x20] = m.peek8(bda::MODE_SELECT);
    b[0x21] = m.peek8(bda::PALETTE);
    b[0x22] = m.peek8(bda::ROWS).wrapping_add(1);
    b[0x23] = m.peek8(bda::CHAR_HEIGHT);
    b[0x24] = m.peek8(bda::CHAR_HEIGHT + 1);
    let i = m.peek8(bda::DCC_INDEX) as usize;
    let [alt, active] = tables::DCC_PAIRS.get(i).copied().unwrap_or([0, 0]);
    b[0x25] = active;
    b[0x26] = alt;
    let md = m.peek8(bda::MODE);
    let (colours, pages): (u16, u8) = match md {
        0..=3 => (16, 8),
        4 | 5 => (4, 1),
        6 => (2, 1),
        7 => (0, 8),
        0x0D => (16, 8),
        0x0E => (16, 4),
        0x0F => (0, 2),
        0x10 => (16, 2),
        0x11 => (2, 1),
        0x12 => (16, 1),
        _ => (256, 1),
    };
    b[0x27..0x29].copy_from_slice(&colours.to_le_bytes());
    b[0x29] = pages;
    // Scan lines: 0 200, 1 350, 2 400, 3 480.
    b[0x2A] = match md {
        0x11 | 0x12 => 3,
        0x0F | 0x10 => 1,
        _ if model(m) == Model::Text => match scan_lines(m) {
            ScanLines::L200 => 0,
            ScanLines::L350 => 1,
            ScanLines::L400 => 2,
        },
        _ => 0,
    };
    let sel = seq_read(m, 3);
    b[0x2B] = sel & 3 | (sel >> 2 & 4);
    b[0x2C] = (sel >> 2 & 3) | (sel >> 3 & 4);
    let flags = m.peek8(bda::VGA_FLAGS);
    let blink = attr_read(m, 0x10) & 0x08 != 0;
    b[0x2D] = (flags >> 4 & 1)
        | (flags & 0x02)
        | (flags & 0x04)
        | (flags & 0x08)
        | if m.peek8(bda::EGA_INFO) & 1 == 0 {
            0x10
        } else {
            0
        }
        | if blink { 0x20 } else { 0 };
    b[0x31] = 3; // 256 KiB
    for (i, v) in b.into_iter().enumerate() {
        wr8(m, base + i as u32, v);
    }
    m.set_al(0x1B);
}

/// Bytes of each state part in a 1Ch buffer (after its 32-byte header of
/// part offsets): the registers, the BIOS data area's video fields, the DAC.
const HW_SIZE: u16 = 0x46;
const BDA_SIZE: u16 = 0x3A;
const DAC_SIZE: u16 = 0x303;
const HEADER: u16 = 0x20;

/// The BIOS data area ranges 1Ch saves: 40:49h-66h, 40:84h-8Ah, the save
/// pointer at 40:A8h, and the INT 1Fh and INT 43h vectors.
fn bda_ranges() -> [(u32, u32); 5] {
    [
        (0x449, 0x467),
        (0x484, 0x48B),
        (0x4A8, 0x4AC),
        (0x1F * 4, 0x1F * 4 + 4),
        (0x43 * 4, 0x43 * 4 + 4),
    ]
}

/// INT 10h 1Ch: CX bits: 0 registers, 1 BIOS data, 2 DAC. AL = 00h: BX =
/// buffer size in 64-byte blocks; 01h save to ES:BX; 02h restore from
/// ES:BX. AL = 1Ch on return.
pub(super) fn save_restore(diag: &mut Diagnostics, m: &mut Machine) {
    let (al, cx) = (m.al(), m.cx());
    let base = lin(m.es(), m.bx());
    let at = |k: u16| base.wrapping_add(k as u32);
    match al {
        0x00 => {
            let mut n = HEADER;
            for (bit, size) in [(1, HW_SIZE), (2, BDA_SIZE), (4, DAC_SIZE)] {
                if cx & bit != 0 {
                    n += size;
                }
            }
            m.set_bx(n.div_ceil(64));
            m.set_al(0x1C);
        }
        0x01 => {
            let mut off = HEADER;
            for k in 0..HEADER {
                wr8(m, at(k), 0);
            }
            if cx & 1 != 0 {
                wr16(m, at(0), off);
                save_hw(m, at(off));
                off += HW_SIZE;
            }
            if cx & 2 != 0 {
                wr16(m, at(2), off);
                let mut k = off;
                for (s, e) in bda_ranges() {
                    for a in s..e {
                        let v = m.peek8(a);
                        wr8(m, at(k), v);
                        k += 1;
                    }
                }
                off += BDA_SIZE;
            }
            if cx & 4 != 0 {
                wr16(m, at(4), off);
                let d = &m.bus.vga.dac;
                let mut v = vec![d.state(), d.pel_mask, d.write_index()];
                for e in &d.entries {
                    v.extend(e);
                }
                for (k, b) in v.into_iter().enumerate() {
                    wr8(m, at(off + k as u16), b);
                }
            }
            m.set_al(0x1C);
        }
        0x02 => {
            let ptr =
                |m: &mut Machine, k: u16| rd8(m, at(k)) as u16 | (rd8(m, at(k + 1)) as u16) << 8;
            if cx & 1 != 0 {
                let o = ptr(m, 0);
                restore_hw(m, at(o));
            }
            if cx & 2 != 0 {
                let mut k = ptr(m, 2);
                for (s, e) in bda_ranges() {
                    for a in s..e {
                        let v = rd8(m, at(k));
                        wr8(m, a, v);
                        k += 1;
                    }
                }
            }
            if cx & 4 != 0 {
                let o = ptr(m, 4);
                let mask = rd8(m, at(o + 1));
                m.out8(0x3C6, mask);
                m.out8(0x3C8, 0);
                for k in 0..768 {
                    let v = rd8(m, at(o + 3 + k));
                    m.out8(0x3C9, v);
                }
                let (state, wi) = (rd8(m, at(o)), rd8(m, at(o + 2)));
                // The index register as it was: a read index when the DAC
                // was in read mode (it then points one past).
                if state == 3 {
                    m.out8(0x3C7, wi.wrapping_sub(1));
                } else {
                    m.out8(0x3C8, wi);
                }
            }
            m.set_al(0x1C);
        }
        _ => diag.unimplemented(0x10, 0x1C, al),
    }
}

/// The register part: the index registers (sequencer, CRTC, graphics,
/// attribute), misc output, feature control, SR00-04, CR00-18, AR00-14,
/// GR00-08, and the four latches.
fn save_hw(m: &mut Machine, a: u32) {
    let port = m.peek16(bda::CRTC_PORT);
    let port = if port == 0x3B4 { 0x3B4 } else { 0x3D4 };
    let mut v = vec![
        m.in8(0x3C4),
        m.in8(port),
        m.in8(0x3CE),
        m.bus.vga.attr.index,
        m.in8(0x3CC),
        m.in8(0x3CA),
    ];
    for i in 0..5 {
        v.push(seq_read(m, i));
    }
    for i in 0..25 {
        v.push(crtc_read(m, i));
    }
    for i in 0..21 {
        v.push(attr_read(m, i));
    }
    for i in 0..9 {
        v.push(gc_read(m, i));
    }
    v.extend(m.bus.vga.latches);
    put_indexes(m, port, &v);
    for (k, b) in v.into_iter().enumerate() {
        wr8(m, a + k as u32, b);
    }
}

fn restore_hw(m: &mut Machine, a: u32) {
    let v: Vec<u8> = (0..HW_SIZE as u32).map(|k| rd8(m, a + k)).collect();
    m.out8(0x3C2, v[4]);
    let port = if v[4] & 1 != 0 { 0x3D4 } else { 0x3B4 };
    m.out8(port + 6, v[5]);
    for i in 0..5 {
        seq_write(m, i as u8, v[6 + i]);
    }
    // CR11 bit 7 protects CR00-07: unlock, write, then CR11 last.
    m.out8(port, 0x11);
    m.out8(port + 1, v[11 + 0x11] & 0x7F);
    for i in 0..25u8 {
        if i != 0x11 {
            m.out8(port, i);
            m.out8(port + 1, v[11 + i as usize]);
        }
    }
    m.out8(port, 0x11);
    m.out8(port + 1, v[11 + 0x11]);
    m.in8(port + 6);
    for i in 0..21u8 {
        m.out8(0x3C0, i);
        m.out8(0x3C0, v[36 + i as usize]);
    }
    for i in 0..9u8 {
        m.out8(0x3CE, i);
        m.out8(0x3CF, v[57 + i as usize]);
    }
    m.bus.vga.latches.copy_from_slice(&v[66..70]);
    put_indexes(m, port, &v);
}

/// Puts the sequencer, CRTC, graphics and attribute index registers back
/// to the first four bytes of a saved hardware state (the attribute
/// controller's flip-flop left at index).
fn put_indexes(m: &mut Machine, port: u16, v: &[u8]) {
    m.out8(0x3C4, v[0]);
    m.out8(port, v[1]);
    m.out8(0x3CE, v[2]);
    m.in8(port + 6);
    m.out8(0x3C0, v[3]);
    m.in8(port + 6);
}
