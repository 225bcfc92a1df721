//! VGA unit tests: memory access paths and timing.

use super::*;

fn out(v: &mut Vga, port: u16, val: u8) {
    v.io_write(port, val, 0);
}

fn seq(v: &mut Vga, i: u8, val: u8) {
    out(v, 0x3C4, i);
    out(v, 0x3C5, val);
}

fn gc(v: &mut Vga, i: u8, val: u8) {
    out(v, 0x3CE, i);
    out(v, 0x3CF, val);
}

fn crtc(v: &mut Vga, i: u8, val: u8) {
    out(v, 0x3D4, i);
    out(v, 0x3D5, val);
}

/// Mode 13h, then unchained (mode X): chain 4 off, byte mode.
fn mode_x() -> Vga {
    let mut v = Vga::new(4_772_727);
    v.set_mode(0x13, 0);
    seq(&mut v, 4, 0x06);
    crtc(&mut v, 0x14, 0x00);
    crtc(&mut v, 0x17, 0xE3);
    v
}

#[test]
fn chain4_writes_go_to_plane_addr_and_3() {
    let mut v = Vga::new(1_000_000);
    v.set_mode(0x13, 0);
    for i in 0..8u32 {
        v.mem_write(0xA0000 + i, 10 + i as u8);
    }
    assert_eq!(v.planes[0], 10);
    assert_eq!(v.planes[PLANE_SIZE], 11);
    assert_eq!(v.planes[3 * PLANE_SIZE], 13);
    assert_eq!(v.planes[4], 14);
    assert_eq!(v.mem_read(0xA0005), 15);
    v.dac.set_write_index(12);
    for c in [63, 0, 0] {
        v.dac.write_data(c);
    }
    v.vertical_retrace_start();
    let f = v.render();
    assert_eq!((f.width, f.height), (320, 200));
    assert_eq!(f.pixel(2, 0), [255, 0, 0]);
    v.mem_write(0xA0000 + 320 * 199 + 319, 12);
    assert_eq!(v.render().pixel(319, 199), [255, 0, 0]);
}

#[test]
fn mode_x_map_mask_latches_and_write_modes() {
    let mut v = mode_x();
    // Map mask 0101: planes 0 and 2.
    seq(&mut v, 2, 0x05);
    v.mem_write(0xA0010, 0xAB);
    assert_eq!(v.planes[0x10], 0xAB);
    assert_eq!(v.planes[PLANE_SIZE + 0x10], 0x00);
    assert_eq!(v.planes[2 * PLANE_SIZE + 0x10], 0xAB);
    // Read map select.
    gc(&mut v, 4, 2);
    assert_eq!(v.mem_read(0xA0010), 0xAB);
    gc(&mut v, 4, 1);
    assert_eq!(v.mem_read(0xA0010), 0x00);
    // Write mode 1 copies the latches (4 pixels at once).
    seq(&mut v, 2, 0x0F);
    gc(&mut v, 5, 0x41);
    v.mem_read(0xA0010);
    v.mem_write(0xA0020, 0x00);
    for p in 0..4 {
        assert_eq!(
            v.planes[p * PLANE_SIZE + 0x20],
            v.planes[p * PLANE_SIZE + 0x10]
        );
    }
    // Write mode 2: each plane gets the CPU bit p expanded, through the bit
    // mask; the rest from the latches.
    gc(&mut v, 5, 0x42);
    gc(&mut v, 8, 0xF0);
    v.mem_read(0xA0030); // latches = 0
    v.mem_write(0xA0030, 0b1001);
    assert_eq!(v.planes[0x30], 0xF0);
    assert_eq!(v.planes[PLANE_SIZE + 0x30], 0x00);
    assert_eq!(v.planes[3 * PLANE_SIZE + 0x30], 0xF0);
    // Write mode 0 with set/reset and the XOR operation.
    gc(&mut v, 5, 0x40);
    gc(&mut v, 8, 0xFF);
    gc(&mut v, 0, 0x0F);
    gc(&mut v, 1, 0x01); // plane 0 from set/reset
    gc(&mut v, 3, 0x18); // XOR
    v.mem_read(0xA0030);
    v.mem_write(0xA0030, 0x0F);
    assert_eq!(v.planes[0x30], 0x0F); // F0 ^ FF
    assert_eq!(v.planes[PLANE_SIZE + 0x30], 0x0F); // 00 ^ 0F
    assert_eq!(v.planes[3 * PLANE_SIZE + 0x30], 0xFF); // F0 ^ 0F
                                                       // Rotate: AND with data rotated right by 4.
    gc(&mut v, 1, 0);
    gc(&mut v, 3, 0x0C); // AND, rotate 4
    v.mem_read(0xA0030);
    v.mem_write(0xA0030, 0x0F); // rotated F0
    assert_eq!(v.planes[3 * PLANE_SIZE + 0x30], 0xF0);
    // Write mode 3: set/reset through (rotated data & bit mask).
    gc(&mut v, 3, 0x00);
    gc(&mut v, 5, 0x43);
    gc(&mut v, 0, 0x02);
    v.mem_read(0xA0040);
    v.mem_write(0xA0040, 0x3C);
    assert_eq!(v.planes[0x40], 0x00);
    assert_eq!(v.planes[PLANE_SIZE + 0x40], 0x3C);
}

#[test]
fn read_mode_1_color_compare() {
    let mut v = mode_x();
    seq(&mut v, 2, 0x01);
    v.mem_write(0xA0000, 0xF0);
    seq(&mut v, 2, 0x04);
    v.mem_write(0xA0000, 0x3C);
    gc(&mut v, 5, 0x48);
    gc(&mut v, 2, 0x05); // colour 5 = planes 0 and 2
    gc(&mut v, 7, 0x0F);
    assert_eq!(v.mem_read(0xA0000), 0x30);
    gc(&mut v, 7, 0x01); // only plane 0 matters
    assert_eq!(v.mem_read(0xA0000), 0xF0);
}

#[test]
fn mode_x_start_address_is_latched_at_retrace() {
    let mut v = mode_x();
    seq(&mut v, 2, 0x01);
    v.mem_write(0xA0000 + 0x4000, 9); // pixel (0,0) of a page at 4000h
    crtc(&mut v, 0x0C, 0x40);
    crtc(&mut v, 0x0D, 0x00);
    assert_eq!(v.render().pixel(0, 0), v.dac.rgb(0));
    v.vertical_retrace_start();
    assert_eq!(v.render().pixel(0, 0), v.dac.rgb(9));
}

#[test]
fn mode13_refresh_is_70_hz_and_status_bits_follow_the_beam() {
    let cpu = 4_772_727u64;
    let mut v = Vga::new(cpu);
    v.set_mode(0x13, 0);
    let t = v.timing();
    assert_eq!((t.line_dots, t.lines), (800, 449));
    // 25.175 MHz / (800 * 449) = 70.086 Hz.
    assert_eq!(t.dot_hz * 1000 / t.frame_dots(), 70_086);
    // Retrace starts at line 412 and lasts 2 lines.
    let r0 = v.next_retrace(0);
    assert_eq!(v.input_status1(r0) & 8, 8);
    assert_eq!(v.input_status1(r0 - 1) & 8, 0);
    assert_eq!(v.beam_position(r0).0, 412);
    let r1 = v.next_retrace(r0);
    let period = r1 - r0;
    assert!((68_090..=68_100).contains(&period), "{period}");
    // Display enable: visible area at the top left.
    assert_eq!(v.input_status1(0), 0);
    let (line, _) = v.beam_position(r0 + 10);
    assert!(line >= 412);
    assert_eq!(v.input_status1(r0 + 10) & 1, 1);
}

#[test]
fn text_mode_renders_glyphs_through_palette() {
    let mut v = Vga::new(1_000_000);
    v.set_mode(0x03, 0);
    crtc(&mut v, 0x0F, 80); // cursor on the second row
    v.mem_write(0xB8000, b'A');
    v.mem_write(0xB8001, 0x1E); // yellow on blue
    let f = v.render();
    assert_eq!((f.width, f.height), (720, 400));
    let g = font::glyph(b'A');
    let yellow = [255, 255, 85];
    let blue = [0, 0, 170];
    for (y, row) in g.iter().enumerate() {
        for x in 0..8 {
            let want = if row >> (7 - x) & 1 != 0 {
                yellow
            } else {
                blue
            };
            assert_eq!(f.pixel(x, y), want, "({x},{y})");
        }
        assert_eq!(f.pixel(8, y), blue);
    }
    // The next cell is the blank space, grey on black.
    assert_eq!(f.pixel(9, 0), [0, 0, 0]);
    assert_eq!(v.mem_read(0xB8000), b'A');
    assert_eq!(v.mem_read(0xB8001), 0x1E);
    // The cursor (scan lines 13-14 of cell 80) blinks with the frame count.
    assert_eq!(f.pixel(0, 16 + 13), [170, 170, 170]);
    assert_eq!(f.pixel(0, 16 + 12), [0, 0, 0]);
    for _ in 0..16 {
        v.vertical_retrace_start();
    }
    assert_eq!(v.render().pixel(0, 16 + 13), [0, 0, 0]);
}

#[test]
fn dac_indexes_and_pel_mask() {
    let mut v = Vga::new(1_000_000);
    out(&mut v, 0x3C8, 0xFF);
    for c in [1, 2, 3, 4, 5, 6] {
        out(&mut v, 0x3C9, c | 0xC0);
    }
    assert_eq!(v.io_read(0x3C8, 0), 0x01);
    assert_eq!(v.io_read(0x3C7, 0), 0);
    out(&mut v, 0x3C7, 0xFF);
    assert_eq!(v.io_read(0x3C7, 0), 3);
    let got: Vec<u8> = (0..6).map(|_| v.io_read(0x3C9, 0)).collect();
    assert_eq!(got, [1, 2, 3, 4, 5, 6]);
    out(&mut v, 0x3C6, 0x0F);
    assert_eq!(v.dac.rgb(0xF0), v.dac.rgb(0x00));
}

#[test]
fn attribute_flip_flop_resets_on_status_read() {
    let mut v = Vga::new(1_000_000);
    out(&mut v, 0x3C0, 0x05);
    v.io_read(0x3DA, 0);
    out(&mut v, 0x3C0, 0x31); // index 11h with PAS
    out(&mut v, 0x3C0, 0x2A);
    assert_eq!(v.attr.regs[0x11], 0x2A);
    assert_eq!(v.io_read(0x3C1, 0), 0x2A);
}

/// Writes attribute controller register `i` (with PAS set, so the display
/// stays on).
fn attr(v: &mut Vga, i: u8, val: u8) {
    v.io_read(0x3DA, 0);
    out(v, 0x3C0, 0x20 | i);
    out(v, 0x3C0, val);
}

/// Sets the line compare (CR18, CR07 bit 4, CR09 bit 6) to `n`.
fn line_compare(v: &mut Vga, n: u16) {
    let (o, m) = (v.crtc.regs[7], v.crtc.regs[9]);
    crtc(v, 0x18, n as u8);
    crtc(v, 0x07, (o & !0x10) | ((n >> 8) as u8 & 1) << 4);
    crtc(v, 0x09, (m & !0x40) | ((n >> 9) as u8 & 1) << 6);
}

/// Mode 13h with pixel values 1, 2, 3... along the first two rows.
fn mode13_ramp() -> Vga {
    let mut v = Vga::new(1_000_000);
    v.set_mode(0x13, 0);
    for i in 0..640u32 {
        v.mem_write(0xA0000 + i, (i % 200) as u8 + 1);
    }
    v
}

#[test]
fn pel_panning_shifts_256_colour_lines_by_half_the_value() {
    let mut v = mode13_ramp();
    let unpanned = v.render();
    attr(&mut v, 0x13, 4); // two pixels in 256-colour mode
                           // Latched at vertical retrace, like the start address.
    assert_eq!(v.render(), unpanned);
    v.vertical_retrace_start();
    let f = v.render();
    for x in 0..318 {
        assert_eq!(f.pixel(x, 0), unpanned.pixel(x + 2, 0), "x {x}");
    }
    // The right edge shows the next character's pixels (the start of the
    // next row in mode 13h's memory layout).
    assert_eq!(f.pixel(318, 0), unpanned.pixel(0, 1));
    attr(&mut v, 0x13, 7); // odd values: the even value below
    v.vertical_retrace_start();
    assert_eq!(v.render().pixel(0, 0), unpanned.pixel(3, 0));
}

#[test]
fn pixel_pan_mode_keeps_the_split_screen_still() {
    let mut v = mode13_ramp();
    // Split after scan line 199 (row 100 of 200, lines are doubled).
    line_compare(&mut v, 199);
    let unpanned = v.render();
    assert_eq!(unpanned.pixel(5, 100), unpanned.pixel(5, 0));
    attr(&mut v, 0x13, 2);
    v.vertical_retrace_start();
    let f = v.render();
    assert_eq!(f.pixel(5, 0), unpanned.pixel(6, 0));
    assert_eq!(f.pixel(5, 100), unpanned.pixel(6, 0), "AR10 bit 5 clear");
    attr(&mut v, 0x10, 0x41 | 0x20);
    let f = v.render();
    assert_eq!(f.pixel(5, 0), unpanned.pixel(6, 0));
    assert_eq!(f.pixel(5, 100), unpanned.pixel(5, 0), "AR10 bit 5 set");
}

/// Mode 03h with "AB" at the top left, light grey on black.
fn text_ab() -> Vga {
    let mut v = Vga::new(1_000_000);
    v.set_mode(0x03, 0);
    crtc(&mut v, 0x0A, 0x20); // cursor off
    for (i, c) in [b'A', b'B'].into_iter().enumerate() {
        v.mem_write(0xB8000 + 2 * i as u32, c);
    }
    v
}

#[test]
fn text_pel_panning_in_nine_dot_characters() {
    let mut v = text_ab();
    let unpanned = v.render();
    // The BIOS value 8 shifts nothing; 0 shifts one dot, 3 four.
    assert_eq!(v.latched_panning(), 8);
    for (p, dots) in [(0u8, 1usize), (3, 4), (7, 8)] {
        attr(&mut v, 0x13, p);
        v.vertical_retrace_start();
        let f = v.render();
        for y in 0..16 {
            for x in 0..20 {
                assert_eq!(
                    f.pixel(x, y),
                    unpanned.pixel(x + dots, y),
                    "p {p} ({x},{y})"
                );
            }
        }
    }
}

#[test]
fn preset_row_scan_and_byte_panning() {
    let mut v = text_ab();
    let plain = v.render();
    crtc(&mut v, 0x08, 0x03); // preset row scan 3
    let f = v.render();
    for y in 0..13 {
        for x in 0..18 {
            assert_eq!(f.pixel(x, y), plain.pixel(x, y + 3), "({x},{y})");
        }
    }
    // The second character row starts at its scan line 0.
    assert_eq!(f.pixel(0, 13), plain.pixel(0, 16));
    crtc(&mut v, 0x08, 0x20); // byte panning 1: "B" is at the left
    let f = v.render();
    for y in 0..16 {
        for x in 0..9 {
            assert_eq!(f.pixel(x, y), plain.pixel(x + 9, y), "({x},{y})");
        }
    }
}

#[test]
fn text_line_compare_restarts_at_address_zero() {
    let mut v = text_ab();
    crtc(&mut v, 0x0C, 0x01); // start 100h: the top shows row 3.2
    v.vertical_retrace_start();
    let plain = {
        let mut w = text_ab();
        w.vertical_retrace_start();
        w.render()
    };
    assert_ne!(v.render().pixel(1, 4), plain.pixel(1, 4));
    // Split after scan line 31 (the end of the second character row).
    line_compare(&mut v, 31);
    let f = v.render();
    for y in 0..16 {
        for x in 0..18 {
            assert_eq!(f.pixel(x, 32 + y), plain.pixel(x, y), "({x},{y})");
        }
    }
}

/// A frame reused across modes and palette changes (as the window reuses
/// one) equals a fresh rendering each time, and the PEL mask applies
/// through the colours looked up once per frame.
#[test]
fn render_into_a_reused_frame_equals_a_fresh_one() {
    let mut f = Frame::default();
    let text = text_ab();
    text.render_into(&mut f);
    assert_eq!((f.width, f.height), (720, 400));
    assert_eq!(f, text.render());
    let mut v = mode13_ramp();
    v.render_into(&mut f);
    assert_eq!((f.width, f.height), (320, 200));
    assert_eq!(f, v.render());
    // Pixel (16, 0) holds 17; with the PEL mask at 0Fh it shows DAC 1.
    let unmasked = f.pixel(16, 0);
    out(&mut v, 0x3C6, 0x0F);
    v.render_into(&mut f);
    assert_eq!(f.pixel(16, 0), v.dac.rgb(1));
    assert_ne!(f.pixel(16, 0), unmasked);
    assert_eq!(f, v.render());
}

/// A CPU write through the general path alone (write mode, rotation,
/// set/reset, logical operation and bit mask applied), the reference for
/// the plain-write shortcut.
fn general_write(v: &mut Vga, addr: u32, b: u8) {
    let Some(off) = v.window_offset(addr) else {
        return;
    };
    let (planes, o) = v.decode_write(off);
    let mask = planes & v.seq.map_mask();
    if mask != 0 {
        v.write_planes(mask, o, b);
    }
}

/// `mem_write_n` (one look at the registers for a plain write) and
/// `mem_write` against the general path byte by byte, over modes 13h, 03h and X, every write mode,
/// rotation, logical operation, set/reset, bit mask and map mask tried:
/// the planes and the rendered frame end the same.
#[test]
fn multi_byte_writes_match_byte_writes() {
    let bases = [
        {
            let mut v = Vga::new(1_000_000);
            v.set_mode(0x13, 0);
            v
        },
        {
            let mut v = Vga::new(1_000_000);
            v.set_mode(0x03, 0);
            v
        },
        mode_x(),
    ];
    // (GR01 enable set/reset, GR03 rotate/op, GR05 write mode, GR08 bit
    // mask, SR02 map mask): the first is the plain write.
    let regs = [
        (0, 0x00, 0, 0xFF, 0x0F),
        (0, 0x00, 0, 0xFF, 0x05),
        (0, 0x00, 0, 0x7F, 0x0F),
        (0, 0x01, 0, 0xFF, 0x0F),
        (0, 0x18, 0, 0xFF, 0x0F),
        (0x03, 0x00, 0, 0xFF, 0x0F),
        (0, 0x00, 1, 0xFF, 0x0F),
        (0, 0x00, 2, 0xF0, 0x0B),
        (0, 0x08, 3, 0xFF, 0x0F),
    ];
    for (b, base) in bases.iter().enumerate() {
        for &(esr, rot, mode, mask, map) in &regs {
            let mut v = base.clone();
            gc(&mut v, 0, 0x0A);
            gc(&mut v, 1, esr);
            gc(&mut v, 3, rot);
            let gr5 = v.gc.regs[5] & !3 | mode;
            gc(&mut v, 5, gr5);
            gc(&mut v, 8, mask);
            seq(&mut v, 2, map);
            v.latches = [0x11, 0x22, 0x44, 0x88];
            let mut bytewise = v.clone();
            let mut general = v.clone();
            let mut x = 0x1234_5678u32;
            for i in 0..3000u32 {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let n = [1, 2, 4][(x >> 20) as usize % 3];
                let addr = 0xA0000 + (i * 37 + (x >> 8)) % 0x20000;
                v.mem_write_n(addr, n, x);
                for k in 0..n {
                    bytewise.mem_write(addr + k, (x >> (8 * k)) as u8);
                    general_write(&mut general, addr + k, (x >> (8 * k)) as u8);
                }
            }
            let what = format!("base {b}, regs {esr:x} {rot:x} {mode} {mask:x} {map:x}");
            assert!(v.planes == general.planes, "{what}: planes differ");
            assert!(bytewise.planes == general.planes, "{what}: byte path");
            assert_eq!(v.render(), general.render(), "{what}: frames differ");
        }
    }
}

/// Fills the planes with a pattern no two neighbours share.
fn scramble(v: &mut Vga) {
    let mut x: u32 = 0x1234_5678;
    for b in v.planes.iter_mut() {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        *b = x as u8;
    }
}

#[test]
fn a_probe_agrees_with_the_picture_and_the_cpu_reads_its_byte() {
    for mode in [0x13u8, 0x12, 0x0D, 0x04, 0x03, 0xFF] {
        let mut v = if mode == 0xFF {
            mode_x()
        } else {
            let mut v = Vga::new(4_772_727);
            v.set_mode(mode, 0);
            v
        };
        scramble(&mut v);
        // Keep text cells from blinking (attribute bit 7) out of the test.
        v.attr.regs[0x10] &= !0x08;
        let f = v.render();
        let mut checked = 0;
        for y in (0..f.height).step_by(7) {
            for x in (0..f.width).step_by(5) {
                let p = v.probe(x, y).expect("inside the frame");
                assert_eq!(p.rgb, f.pixel(x, y), "mode {mode:02X} at ({x},{y})");
                assert_eq!(p.rgb, v.dac.rgb(p.dac_index));
                let byte = v.planes[p.plane as usize * PLANE_SIZE + p.offset as usize];
                if let Some(a) = p.cpu_address {
                    gc(&mut v, 4, p.plane);
                    assert_eq!(v.mem_read(a), byte, "mode {mode:02X} at ({x},{y}): {a:05X}");
                    checked += 1;
                }
            }
        }
        assert!(
            checked > 100,
            "mode {mode:02X}: {checked} addresses checked"
        );
        assert_eq!(v.probe(f.width, 0), None);
    }
}

/// The indexed rendering's pixels through its palette are the RGB
/// rendering, in text, 256-colour and planar modes, with the PEL mask and
/// with the screen blanked.
#[test]
fn indexed_frames_through_their_palette_are_the_rgb_frames() {
    let through = |f: &super::IndexedFrame| {
        let rgb = f
            .pixels
            .iter()
            .flat_map(|&i| f.palette[i as usize])
            .collect();
        Frame {
            width: f.width,
            height: f.height,
            rgb,
        }
    };
    let mut masked = mode13_ramp();
    out(&mut masked, 0x3C6, 0x0F);
    let mut blank = mode13_ramp();
    seq(&mut blank, 1, 0x21);
    let mut f = super::IndexedFrame::default();
    for v in [text_ab(), mode13_ramp(), mode_x(), masked, blank] {
        v.render_indexed_into(&mut f);
        assert_eq!(through(&f), v.render());
    }
    // The ramp's pixel (16, 0) is index 17 whatever the mask.
    mode13_ramp().render_indexed_into(&mut f);
    assert_eq!(f.pixels[16], 17);
}

/// Mode 13h filled with colour 15, CR00-CR07 unprotected.
fn mode13_filled() -> Vga {
    let mut v = Vga::new(1_000_000);
    v.set_mode(0x13, 0);
    for i in 0..64_000u32 {
        v.mem_write(0xA0000 + i, 15);
    }
    let r = v.crtc.regs[0x11];
    crtc(&mut v, 0x11, r & 0x7F);
    v
}

fn border() -> View {
    View { border: true }
}

#[test]
fn blanking_runs_from_its_start_to_the_end_match() {
    // Mode 13h across: total 100, display 80, blanking 80 to 22h (34).
    let a = geometry::Axis::new(100, 80, 0x50, 0x22, 0x3F);
    assert_eq!((a.before, a.after), (2, 0));
    assert!(a.blanked(80) && a.blanked(97) && !a.blanked(98) && !a.blanked(79));
    // Blanking past the total goes on into the next line's counts.
    let w = geometry::Axis::new(100, 80, 90, 0x05, 0x3F);
    assert!(w.blanked(99) && w.blanked(0) && w.blanked(4) && !w.blanked(5));
    assert_eq!((w.before, w.after), (0, 10));
    // A start past the total never blanks: the whole line is border.
    let n = geometry::Axis::new(100, 80, 120, 0, 0x3F);
    assert_eq!((n.before, n.after), (0, 20));
    // End equal to the start's low bits: a full 64 counts.
    let f = geometry::Axis::new(200, 80, 100, 100 & 0x3F, 0x3F);
    assert!(f.blanked(163) && !f.blanked(164));
}

#[test]
fn standard_modes_keep_their_frames_and_show_no_black() {
    for mode in [0x01, 0x03, 0x04, 0x0D, 0x10, 0x12, 0x13] {
        let mut v = Vga::new(1_000_000);
        v.set_mode(mode, 0);
        let f = v.render();
        assert_eq!((f.width, f.height), render::size(&v), "mode {mode:02X}h");
        let fr = geometry::Axis::new(
            v.crtc.h_total(),
            v.crtc.h_display(),
            v.crtc.h_blank_start(),
            v.crtc.h_blank_end(),
            0x3F,
        );
        assert!(
            (0..v.crtc.h_display()).all(|c| !fr.blanked(c)),
            "mode {mode:02X}h blanks inside its display"
        );
    }
}

#[test]
fn columns_past_the_start_of_blanking_are_black() {
    // An intro's tweak: display end 47h (288 pixels), blanking at 3Fh.
    let mut v = mode13_ramp();
    let r = v.crtc.regs[0x11];
    crtc(&mut v, 0x11, r & 0x7F);
    crtc(&mut v, 0x13, 0x24);
    crtc(&mut v, 0x01, 0x47);
    crtc(&mut v, 0x02, 0x3F);
    let f = v.render();
    assert_eq!((f.width, f.height), (288, 200));
    // Column 251 is the ramp's byte 251; from 252 on black, not the
    // left edge again.
    assert_eq!(f.pixel(251, 0), v.dac.rgb(251 % 200 + 1));
    assert_ne!(v.dac.rgb(251 % 200 + 1), [0; 3]);
    for x in 252..288 {
        assert_eq!(f.pixel(x, 0), [0, 0, 0], "x {x}");
    }
    let mut ix = super::IndexedFrame::default();
    v.render_indexed_into(&mut ix);
    assert_eq!(ix.pixel(260, 0), [0, 0, 0]);
    assert_eq!(ix.pixel(251, 0), f.pixel(251, 0));
}

#[test]
fn lines_past_the_start_of_vertical_blanking_are_black() {
    let mut v = mode13_filled();
    // Vertical blanking from scan line 256 (frame line 128).
    let (o, m) = (v.crtc.regs[7], v.crtc.regs[9]);
    crtc(&mut v, 0x15, 0x00);
    crtc(&mut v, 0x07, o | 0x08);
    crtc(&mut v, 0x09, m & !0x20);
    crtc(&mut v, 0x16, 0x20);
    let f = v.render();
    assert_eq!((f.width, f.height), (320, 200));
    assert_eq!(f.pixel(5, 127), v.dac.rgb(15));
    assert_eq!(f.pixel(5, 128), [0, 0, 0]);
    // Blanking ends at the line whose low 8 bits are 20h: 288 (row 144).
    assert_eq!(f.pixel(5, 143), [0, 0, 0]);
    assert_eq!(f.pixel(5, 144), v.dac.rgb(15));
    crtc(&mut v, 0x16, 0xB9);
    assert_eq!(v.render().pixel(319, 199), [0, 0, 0]);
}

#[test]
fn the_border_shows_the_overscan_colour_where_blanking_is_off() {
    let mut v = mode13_filled();
    attr(&mut v, 0x11, 4);
    let plain = v.render();
    let mut f = Frame::default();
    v.render_view_into(&mut f, border());
    // Mode 13h: 2 characters (8 pixels) before the display, none after;
    // 8 scan lines (4 frame lines) above, 6 (3) below.
    assert_eq!((f.width, f.height), (328, 207));
    assert_eq!(render::view_size(&v, border()), (328, 207));
    let red = v.dac.rgb(4);
    assert_ne!(red, v.dac.rgb(15));
    assert_eq!(f.pixel(0, 0), red);
    assert_eq!(f.pixel(7, 100), red);
    assert_eq!(f.pixel(327, 206), red);
    assert_eq!(f.pixel(8, 4), plain.pixel(0, 0));
    assert_eq!(f.pixel(327, 203), plain.pixel(319, 199));
    // Display end before blanking: the gap is border on the right.
    crtc(&mut v, 0x01, 0x4B);
    v.render_view_into(&mut f, border());
    assert_eq!(f.width, 328);
    assert_eq!(f.pixel(8 + 303, 10), v.dac.rgb(15));
    assert_eq!(f.pixel(8 + 304, 10), red);
    // A blanked display is black, border and all.
    seq(&mut v, 1, 0x21);
    v.render_view_into(&mut f, border());
    assert_eq!(f.pixel(0, 0), [0, 0, 0]);
}

#[test]
fn indexed_blanking_finds_a_black_index_when_the_dac_has_none() {
    let mut v = mode13_filled();
    v.dac.set_write_index(0);
    for i in 0..768 {
        v.dac.write_data(if i % 3 == 2 {
            10 + (i / 3 % 50) as u8
        } else {
            0
        });
    }
    crtc(&mut v, 0x02, 0x40);
    crtc(&mut v, 0x01, 0x4F);
    let mut f = super::IndexedFrame::default();
    v.render_indexed_into(&mut f);
    assert_eq!(f.pixel(300, 0), [0, 0, 0]);
    assert_eq!(f.pixel(0, 0), v.dac.rgb(15));
    let rgb = v.render();
    assert_eq!(rgb.pixel(300, 0), [0, 0, 0]);
    assert_eq!(rgb.pixel(255, 0), f.pixel(255, 0));
}
