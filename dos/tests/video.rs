//! INT 10h, the VGA BIOS: each test sets registers, calls the service the
//! way the stub ROM's trap does, and checks registers, the BIOS data area,
//! display memory, the VGA's registers and the rendered frame.

mod common;

use dos::mem::{lin, rd8, wr8, Regs};
use dos::rom;
use dos::{Dos, DosConfig};
use emu::CpuModel;
use hw::vga::font;
use hw::{Machine, MachineConfig};

struct Bios {
    dos: Dos,
    m: Machine,
}

/// A buffer segment in conventional memory for ES:DI/ES:BP/ES:DX tables.
const BUF: u16 = 0x5000;

impl Bios {
    fn new() -> Bios {
        // One folder per machine: the tests run in parallel.
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = common::temp_dir(&format!("video{n}"));
        let mut m = Machine::new(MachineConfig::with_cpu(CpuModel::I386, 25_000_000));
        let mut dos = Dos::new(DosConfig::new(dir)).expect("mount");
        dos.install(&mut m);
        Bios { dos, m }
    }

    /// INT 10h with AX, BX, CX, DX (ES = BUF).
    fn int10(&mut self, ax: u16, bx: u16, cx: u16, dx: u16) {
        self.m.set_ax(ax);
        self.m.set_bx(bx);
        self.m.set_cx(cx);
        self.m.set_dx(dx);
        self.m.set_es(BUF);
        let addr = lin(rom::SEG, rom::VEC_BASE + 0x10);
        self.dos.service(&mut self.m, addr);
    }

    fn set_bp(&mut self, v: u16) {
        self.m.cpu.regs.set_reg16(emu::Reg16::BP, v);
    }

    fn bp(&self) -> u16 {
        self.m.cpu.regs.reg16(emu::Reg16::BP)
    }

    fn mode(&mut self, mode: u8) {
        self.int10(mode as u16, 0, 0, 0);
    }

    fn put_pixel(&mut self, x: u16, y: u16, c: u8) {
        self.int10(0x0C00 | c as u16, 0, x, y);
    }

    fn get_pixel(&mut self, x: u16, y: u16) -> u8 {
        self.int10(0x0D00, 0, x, y);
        self.m.al()
    }

    fn peek(&mut self, a: u32) -> u8 {
        rd8(&mut self.m, a)
    }

    fn peek16(&mut self, a: u32) -> u16 {
        self.peek(a) as u16 | (self.peek(a + 1) as u16) << 8
    }

    fn buf(&mut self, off: u16) -> u8 {
        rd8(&mut self.m, lin(BUF, off))
    }

    fn set_buf(&mut self, off: u16, data: &[u8]) {
        for (i, &b) in data.iter().enumerate() {
            wr8(&mut self.m, lin(BUF, off + i as u16), b);
        }
    }

    fn frame(&mut self) -> hw::vga::Frame {
        self.m.bus.vga.vertical_retrace_start();
        self.m.bus.vga.render()
    }
}

/// Every standard mode: the BIOS data area, what INT 10h 0Fh returns and
/// the display's resolution follow IBM's mode table.
#[test]
fn mode_set_programs_every_standard_mode() {
    // (mode, columns, rows, char height, page size, CRTC port, frame w x h)
    type Row = (u8, u16, u8, u16, u16, u16, (usize, usize));
    let modes: [Row; 16] = [
        (0x00, 40, 25, 16, 0x0800, 0x3D4, (360, 400)),
        (0x01, 40, 25, 16, 0x0800, 0x3D4, (360, 400)),
        (0x02, 80, 25, 16, 0x1000, 0x3D4, (720, 400)),
        (0x03, 80, 25, 16, 0x1000, 0x3D4, (720, 400)),
        (0x04, 40, 25, 8, 0x4000, 0x3D4, (320, 200)),
        (0x05, 40, 25, 8, 0x4000, 0x3D4, (320, 200)),
        (0x06, 80, 25, 8, 0x4000, 0x3D4, (640, 200)),
        (0x07, 80, 25, 16, 0x1000, 0x3B4, (720, 400)),
        (0x0D, 40, 25, 8, 0x2000, 0x3D4, (320, 200)),
        (0x0E, 80, 25, 8, 0x4000, 0x3D4, (640, 200)),
        (0x0F, 80, 25, 14, 0x8000, 0x3B4, (640, 350)),
        (0x10, 80, 25, 14, 0x8000, 0x3D4, (640, 350)),
        (0x11, 80, 30, 16, 0xA000, 0x3D4, (640, 480)),
        (0x12, 80, 30, 16, 0xA000, 0x3D4, (640, 480)),
        (0x13, 40, 25, 8, 0x2000, 0x3D4, (320, 200)),
        (0x03, 80, 25, 16, 0x1000, 0x3D4, (720, 400)),
    ];
    let mut b = Bios::new();
    for (mode, cols, rows, height, page, port, size) in modes {
        b.mode(mode);
        assert_eq!(b.peek(0x449), mode, "mode {mode:02X}");
        assert_eq!(b.peek16(0x44A), cols, "columns of mode {mode:02X}");
        assert_eq!(b.peek(0x484) + 1, rows, "rows of mode {mode:02X}");
        assert_eq!(b.peek16(0x485), height, "char height of mode {mode:02X}");
        assert_eq!(b.peek16(0x44C), page, "page size of mode {mode:02X}");
        assert_eq!(b.peek16(0x463), port, "CRTC port of mode {mode:02X}");
        assert_eq!(b.peek16(0x44E), 0);
        assert_eq!(b.peek(0x462), 0);
        // Equipment word: monochrome modes say so.
        let mono = port == 0x3B4;
        assert_eq!(b.peek16(0x410) & 0x30, if mono { 0x30 } else { 0x20 });
        assert_eq!(b.peek(0x487) & 0x80, 0, "memory cleared");
        b.int10(0x0F00, 0, 0, 0);
        assert_eq!(b.m.al(), mode);
        assert_eq!(b.m.ah() as u16, cols);
        assert_eq!(b.m.bh(), 0);
        let f = b.frame();
        assert_eq!((f.width, f.height), size, "resolution of mode {mode:02X}");
        // 70 Hz for the 200/350/400-line modes, 60 Hz for 480 lines.
        let (n, d) = b.m.bus.vga.timing().refresh();
        let hz = n as f64 / d as f64;
        let want = if size.1 == 480 { 59.94 } else { 70.09 };
        assert!(
            (hz - want).abs() < 0.1,
            "mode {mode:02X} refreshes at {hz} Hz"
        );
    }
    // Text modes: the cursor shape as INT 10h 03h reports it is the CGA
    // underline, emulated on lines 13-14 of the 16-line cells.
    b.int10(0x0300, 0, 0, 0);
    assert_eq!(b.m.cx(), 0x0607);
    assert_eq!(b.m.bus.vga.crtc.regs[0x0A] & 0x1F, 0x0D);
    assert_eq!(b.m.bus.vga.crtc.regs[0x0B] & 0x1F, 0x0E);
}

/// Bit 7 of AL keeps display memory; without it the mode set clears it.
#[test]
fn mode_set_bit7_keeps_memory() {
    let mut b = Bios::new();
    b.mode(0x13);
    b.put_pixel(10, 10, 0x2A);
    b.int10(0x0093, 0, 0, 0);
    assert_eq!(b.get_pixel(10, 10), 0x2A);
    assert_eq!(b.peek(0x487) & 0x80, 0x80);
    b.int10(0x0F00, 0, 0, 0);
    assert_eq!(b.m.al(), 0x93, "0Fh reports the kept-memory bit");
    b.mode(0x13);
    assert_eq!(b.get_pixel(10, 10), 0);
}

/// INT 10h 0Ch/0Dh in every graphics mode, with XOR (bit 7) where the mode
/// has it, and the pixels reach the screen.
#[test]
fn pixels_round_trip_in_every_graphics_mode() {
    let mut b = Bios::new();
    for (mode, w, h, colours) in [
        (0x04u8, 320u16, 200u16, 4u8),
        (0x05, 320, 200, 4),
        (0x06, 640, 200, 2),
        (0x0D, 320, 200, 16),
        (0x0E, 640, 200, 16),
        (0x0F, 640, 350, 4),
        (0x10, 640, 350, 16),
        (0x11, 640, 480, 2),
        (0x12, 640, 480, 16),
        (0x13, 320, 200, 255),
    ] {
        b.mode(mode);
        let points = [
            (0, 0),
            (1, 0),
            (7, 1),
            (8, 2),
            (w - 1, h - 1),
            (w / 2 + 3, h / 2 + 1),
        ];
        for (i, &(x, y)) in points.iter().enumerate() {
            let c = (i as u8 * 5 + 1) % colours;
            b.put_pixel(x, y, c);
            assert_eq!(b.get_pixel(x, y), c, "mode {mode:02X} pixel ({x},{y})");
        }
        // Neighbours stay 0.
        assert_eq!(b.get_pixel(2, 0), 0, "mode {mode:02X}");
        assert_eq!(b.get_pixel(9, 2), 0, "mode {mode:02X}");
        if mode != 0x13 {
            let top = colours - 1;
            b.put_pixel(20, 5, top);
            b.put_pixel(20, 5, 0x80 | top);
            assert_eq!(b.get_pixel(20, 5), 0, "XOR in mode {mode:02X}");
            b.put_pixel(20, 5, 0x80 | 1);
            assert_eq!(b.get_pixel(20, 5), 1);
        }
        // The graphics controller is back in its default state.
        let gc = &b.m.bus.vga.gc.regs;
        assert_eq!((gc[3], gc[4], gc[5] & 3, gc[8]), (0, 0, 0, 0xFF));
    }
    // On screen: CGA lines interleave (odd lines at B8000h + 2000h) and
    // colour 3 of mode 04h is bright white.
    b.mode(0x04);
    b.put_pixel(5, 1, 3);
    assert_eq!(b.peek(0xBA001), 0x03 << 4, "odd line in the second bank");
    let f = b.frame();
    assert_eq!(f.pixel(5, 1), [0xFF, 0xFF, 0xFF]);
    assert_eq!(f.pixel(5, 0), [0, 0, 0]);
    // Mode 12h pixel colour 4 is the default palette's red.
    b.mode(0x12);
    b.put_pixel(100, 50, 4);
    assert_eq!(b.frame().pixel(100, 50), [0xAA, 0, 0]);
    b.mode(0x13);
    b.put_pixel(100, 50, 0x28);
    let [r, g, bl] = b.m.bus.vga.dac.entries[0x28];
    let x = |c: u8| (c << 2) | (c >> 4);
    assert_eq!(b.frame().pixel(100, 50), [x(r), x(g), x(bl)]);
}

/// The cell's pixels in a graphics mode after drawing `c` at (row, col)
/// with character height `h`: 1 where the pixel is not 0.
fn cell(b: &mut Bios, row: u16, col: u16, h: u16) -> Vec<u8> {
    (0..h)
        .map(|line| {
            (0..8).fold(0u8, |acc, i| {
                let on = b.get_pixel(col * 8 + i, row * h + line) != 0;
                acc | (on as u8) << (7 - i)
            })
        })
        .collect()
}

/// Teletype, 09h and write string draw glyphs from the mode's font in
/// graphics modes, in the colour BL; 08h reads them back.
#[test]
fn text_in_graphics_modes() {
    let mut b = Bios::new();
    for (mode, h, colour) in [
        (0x13u8, 8u16, 0x2Cu8),
        (0x12, 16, 0x0E),
        (0x10, 14, 0x0C),
        (0x0D, 8, 0x03),
        (0x04, 8, 0x02),
        (0x06, 8, 0x01),
    ] {
        b.mode(mode);
        b.int10(0x0E41, colour as u16, 0, 0);
        let want = font::font(h as u8)[0x41 * h as usize..][..h as usize].to_vec();
        assert_eq!(cell(&mut b, 0, 0, h), want, "'A' in mode {mode:02X}");
        let c = (0..h).find(|&l| want[l as usize] & 0x40 != 0).unwrap_or(0);
        assert_eq!(b.get_pixel(1, c), colour, "colour in mode {mode:02X}");
        // The cursor moved on; 08h reads the character back.
        b.int10(0x0300, 0, 0, 0);
        assert_eq!(b.m.dx(), 0x0001);
        b.int10(0x0200, 0, 0, 0x0000);
        b.int10(0x0800, 0, 0, 0);
        assert_eq!(b.m.al(), 0x41, "08h in mode {mode:02X}");
        // 09h writes CX copies without moving the cursor; with bit 7 a
        // second write XORs them away.
        b.int10(0x0200, 0, 0, 0x0102);
        b.int10(0x09DB, colour as u16, 3, 0);
        let solid = font::font(h as u8)[0xDB * h as usize..][..h as usize].to_vec();
        assert_eq!(cell(&mut b, 1, 4, h), solid, "09h in mode {mode:02X}");
        if mode != 0x13 {
            // (In mode 13h all 8 bits of BL are the colour.)
            b.int10(0x09DB, 0x80 | colour as u16, 3, 0);
            assert_eq!(
                cell(&mut b, 1, 3, h),
                vec![0; h as usize],
                "XOR in mode {mode:02X}"
            );
        }
        // 13h: "Hi" at row 2, column 5, cursor moved.
        b.set_buf(0, b"Hi");
        b.set_bp(0);
        b.int10(0x1301, colour as u16, 2, 0x0205);
        let want_i = font::font(h as u8)[b'i' as usize * h as usize..][..h as usize].to_vec();
        assert_eq!(cell(&mut b, 2, 6, h), want_i, "13h in mode {mode:02X}");
        b.int10(0x0300, 0, 0, 0);
        assert_eq!(b.m.dx(), 0x0207);
    }
}

/// DOS console output in mode 13h lands on the screen (flagquiz's case):
/// INT 21h 09h goes through the BIOS teletype in white.
#[test]
fn dos_console_output_in_mode_13h() {
    let mut b = Bios::new();
    b.mode(0x13);
    b.dos.con_str(&mut b.m, b"X");
    let want = font::FONT_8X8[b'X' as usize * 8..][..8].to_vec();
    assert_eq!(cell(&mut b, 0, 0, 8), want);
    assert_eq!(b.get_pixel(0, 0), 0x0F);
}

/// Teletype at the bottom of a graphics screen scrolls the picture up one
/// text row.
#[test]
fn teletype_scrolls_graphics_modes() {
    let mut b = Bios::new();
    for (mode, h) in [(0x12u8, 16u16), (0x13, 8), (0x04, 8)] {
        b.mode(mode);
        let rows = b.peek(0x484) as u16 + 1;
        b.put_pixel(3, h + 2, 1);
        b.int10(0x0200, 0, 0, (rows - 1) << 8);
        b.int10(0x0E0A, 1, 0, 0);
        assert_eq!(
            b.get_pixel(3, 2),
            1,
            "row 1 moved to row 0 in mode {mode:02X}"
        );
        assert_eq!(b.get_pixel(3, h + 2), 0, "mode {mode:02X}");
        b.int10(0x0300, 0, 0, 0);
        assert_eq!(b.m.dh() as u16, rows - 1);
    }
}

/// Every palette subfunction: attribute registers, DAC, PEL mask, paging,
/// grey summing.
#[test]
fn palette_and_dac_round_trips() {
    let mut b = Bios::new();
    b.mode(0x12);
    // 00h / 07h.
    b.int10(0x1000, 0x2A05, 0, 0);
    b.int10(0x1007, 0x0005, 0, 0);
    assert_eq!(b.m.bh(), 0x2A);
    // 01h / 08h.
    b.int10(0x1001, 0x1500, 0, 0);
    b.int10(0x1008, 0, 0, 0);
    assert_eq!(b.m.bh(), 0x15);
    // 02h / 09h: 16 registers and the overscan.
    let regs: Vec<u8> = (0..17u8).map(|i| (i * 3 + 1) & 0x3F).collect();
    b.set_buf(0, &regs);
    b.int10(0x1002, 0, 0, 0);
    b.int10(0x1009, 0, 0, 0x40);
    for (i, &v) in regs.iter().enumerate() {
        assert_eq!(b.buf(0x40 + i as u16), v, "palette register {i}");
    }
    // 03h: blink off then on (AR10 bit 3).
    b.int10(0x1003, 0x0000, 0, 0);
    assert_eq!(b.m.bus.vga.attr.regs[0x10] & 8, 0);
    b.int10(0x1003, 0x0001, 0, 0);
    assert_eq!(b.m.bus.vga.attr.regs[0x10] & 8, 8);
    // 10h / 15h.
    b.int10(0x1010, 0x0033, 0x0A0B, 0x0C00);
    b.int10(0x1015, 0x0033, 0, 0);
    assert_eq!((b.m.dh(), b.m.ch(), b.m.cl()), (0x0C, 0x0A, 0x0B));
    // 12h / 17h: a block of 4.
    let block: Vec<u8> = (0..12u8).map(|i| i * 5).collect();
    b.set_buf(0x100, &block);
    b.int10(0x1012, 0x0080, 4, 0x100);
    b.int10(0x1017, 0x0080, 4, 0x200);
    for (i, &v) in block.iter().enumerate() {
        assert_eq!(b.buf(0x200 + i as u16), v);
    }
    // 18h / 19h.
    b.int10(0x1018, 0x00F0, 0, 0);
    b.int10(0x1019, 0, 0, 0);
    assert_eq!(b.m.bl(), 0xF0);
    // 13h / 1Ah: 16 pages of 16, page 9.
    b.int10(0x1013, 0x0100, 0, 0);
    b.int10(0x1013, 0x0901, 0, 0);
    b.int10(0x101A, 0, 0, 0);
    assert_eq!((b.m.bl(), b.m.bh()), (1, 9));
    assert_eq!(b.m.bus.vga.attr.regs[0x14], 9);
    // 1Bh: grey.
    b.int10(0x1010, 0x0040, 0x3F00, 0x0000);
    b.int10(0x101B, 0x0040, 1, 0);
    b.int10(0x1015, 0x0040, 0, 0);
    let g = b.m.dh();
    assert_eq!((b.m.ch(), b.m.cl()), (g, g));
    assert_eq!(g, 37, "59% of 63");
    // Summing on (12h BL=33h AL=0): DAC writes become grey.
    b.int10(0x1200, 0x0033, 0, 0);
    assert_eq!(b.m.al(), 0x12);
    b.int10(0x1010, 0x0041, 0x0000, 0x3F00);
    b.int10(0x1015, 0x0041, 0, 0);
    assert_eq!((b.m.dh(), b.m.ch(), b.m.cl()), (19, 19, 19));
    // ... and the mode set's default palette too.
    b.mode(0x03);
    b.int10(0x1015, 0x003F, 0, 0);
    assert_eq!((b.m.dh(), b.m.ch(), b.m.cl()), (63, 63, 63));
    b.int10(0x1015, 0x0001, 0, 0);
    assert_eq!((b.m.dh(), b.m.ch(), b.m.cl()), (5, 5, 5), "blue 42 summed");
}

/// 0Bh: the CGA palettes and background in mode 04h.
#[test]
fn cga_palette_select() {
    let mut b = Bios::new();
    b.mode(0x04);
    // The mode set leaves palette 1, bright (40:66h = 30h).
    assert_eq!(b.m.bus.vga.attr.regs[1..4], [0x13, 0x15, 0x17]);
    assert_eq!(b.peek(0x466), 0x30);
    b.int10(0x0B00, 0x0000, 0, 0);
    assert_eq!(
        b.m.bus.vga.attr.regs[1..4],
        [0x03, 0x05, 0x07],
        "not bright"
    );
    b.int10(0x0B00, 0x0100, 0, 0);
    assert_eq!(b.m.bus.vga.attr.regs[1..4], [0x02, 0x04, 0x06], "palette 0");
    b.int10(0x0B00, 0x0011, 0, 0);
    assert_eq!(b.m.bus.vga.attr.regs[0], 0x01, "background blue");
    assert_eq!(b.m.bus.vga.attr.regs[1..4], [0x12, 0x14, 0x16], "intensity");
}

/// 11h: loading a user font writes plane 2; the 1xh forms recalculate the
/// rows; 30h returns the ROM fonts.
#[test]
fn font_loading_and_information() {
    let mut b = Bios::new();
    b.mode(0x03);
    // 1100h: one 16-line glyph for 'A' into block 0.
    let glyph: Vec<u8> = (0..16u8).map(|i| i.wrapping_mul(17)).collect();
    b.set_buf(0x300, &glyph);
    b.set_bp(0x300);
    b.int10(0x1100, 0x1000, 1, 0x41);
    let plane2 = 2 * hw::vga::PLANE_SIZE;
    assert_eq!(
        &b.m.bus.vga.planes[plane2 + 0x41 * 32..][..16],
        &glyph[..],
        "plane 2 holds the new 'A'"
    );
    assert_eq!(
        &b.m.bus.vga.planes[plane2 + 0x42 * 32..][..16],
        font::glyph(0x42),
        "'B' unchanged"
    );
    // 1112h: 8x8 font, 50 rows.
    b.int10(0x1112, 0x0000, 0, 0);
    assert_eq!(b.peek(0x484), 49);
    assert_eq!(b.peek16(0x485), 8);
    assert_eq!(b.m.bus.vga.crtc.regs[9] & 0x1F, 7);
    assert_eq!(
        &b.m.bus.vga.planes[plane2 + 0x41 * 32..][..8],
        &font::FONT_8X8[0x41 * 8..][..8]
    );
    let f = b.frame();
    assert_eq!(f.height, 400);
    // 1111h: 8x14 into block 1, 28 rows.
    b.int10(0x1111, 0x0001, 0, 0);
    assert_eq!(b.peek(0x484), 27);
    let block1 = plane2 + 0x4000;
    assert_eq!(
        &b.m.bus.vga.planes[block1 + 0x41 * 32..][..14],
        &font::FONT_8X14[0x41 * 14..][..14]
    );
    // 1103h: block select goes to SR03.
    b.int10(0x1103, 0x0005, 0, 0);
    assert_eq!(b.m.bus.vga.seq.regs[3], 0x05);
    // 1130h: pointers to each ROM font, CX = height, DL = rows - 1.
    for (bh, data) in [
        (2u16, &font::FONT_8X14[..]),
        (3, &font::FONT_8X8[..]),
        (6, &font::FONT_8X16[..]),
    ] {
        b.int10(0x1130, bh << 8, 0, 0);
        let (es, bp) = (b.m.es(), b.bp());
        assert_eq!(b.m.cx(), 14);
        assert_eq!(b.m.dl(), 27);
        for (i, &v) in data.iter().enumerate().step_by(37) {
            assert_eq!(b.peek(lin(es, bp) + i as u32), v, "font BH={bh} byte {i}");
        }
    }
    // BH=4: the second half of the 8x8 font.
    b.int10(0x1130, 0x0400, 0, 0);
    assert_eq!(b.peek(lin(b.m.es(), b.bp())), font::FONT_8X8[0x400]);
    // 1123h: INT 43h = 8x8, 25 rows; 1130h BH=1 returns it.
    b.mode(0x12);
    b.int10(0x1123, 0x0002, 0, 0);
    assert_eq!(b.peek(0x484), 24);
    b.int10(0x1130, 0x0100, 0, 0);
    assert_eq!(b.m.cx(), 8);
    assert_eq!(
        b.peek(lin(b.m.es(), b.bp()) + 8 * 0x41),
        font::FONT_8X8[8 * 0x41]
    );
    // 1121h: a user graphics font; text then comes from it.
    let ones = [0xFFu8; 8 * 256];
    b.set_buf(0, &ones);
    b.set_bp(0);
    b.int10(0x1121, 0x0000, 8, 0x0010);
    assert_eq!(b.peek(0x484), 15);
    b.int10(0x0E21, 0x0007, 0, 0);
    assert_eq!(cell(&mut b, 0, 0, 8), vec![0xFF; 8]);
}

/// 12h alternate select: EGA information, scan lines for text modes,
/// cursor emulation, refresh.
#[test]
fn alternate_select() {
    let mut b = Bios::new();
    b.int10(0x1200, 0xFF10, 0, 0);
    assert_eq!((b.m.bh(), b.m.bl()), (0, 3));
    // 350 scan lines: mode 3 gets 8x14 cells.
    b.int10(0x1201, 0x0030, 0, 0);
    assert_eq!(b.m.al(), 0x12);
    b.mode(0x03);
    assert_eq!(b.peek16(0x485), 14);
    assert_eq!(b.frame().height, 350);
    // 200 scan lines: 8x8 cells, double scanned.
    b.int10(0x1200, 0x0030, 0, 0);
    b.mode(0x03);
    assert_eq!(b.peek16(0x485), 8);
    assert_eq!(
        &b.m.bus.vga.planes[2 * hw::vga::PLANE_SIZE + 0x41 * 32..][..8],
        &font::FONT_8X8[0x41 * 8..][..8]
    );
    b.int10(0x1202, 0x0030, 0, 0);
    b.mode(0x03);
    assert_eq!(b.peek16(0x485), 16);
    // Cursor emulation off: the shape goes to the CRTC as given.
    b.int10(0x1201, 0x0034, 0, 0);
    b.int10(0x0100, 0, 0x0607, 0);
    assert_eq!(b.m.bus.vga.crtc.regs[0x0A] & 0x1F, 6);
    b.int10(0x1200, 0x0034, 0, 0);
    b.int10(0x0100, 0, 0x0607, 0);
    assert_eq!(b.m.bus.vga.crtc.regs[0x0A] & 0x1F, 0x0D);
    // Refresh off and on.
    b.int10(0x1201, 0x0036, 0, 0);
    assert!(b.m.bus.vga.seq.screen_off());
    b.int10(0x1200, 0x0036, 0, 0);
    assert!(!b.m.bus.vga.seq.screen_off());
    // Default palette loading off: a mode set keeps the DAC.
    b.int10(0x1010, 0x0001, 0x0102, 0x0300);
    b.int10(0x1201, 0x0031, 0, 0);
    b.mode(0x03);
    b.int10(0x1015, 0x0001, 0, 0);
    assert_eq!((b.m.dh(), b.m.ch(), b.m.cl()), (3, 1, 2));
}

/// 1Ah and 1Bh; the option ROM header a detection routine finds.
#[test]
fn display_combination_and_state_information() {
    let mut b = Bios::new();
    assert_eq!((b.peek(0xC0000), b.peek(0xC0001)), (0x55, 0xAA));
    let len = b.peek(0xC0002) as u32 * 512;
    let sum = (0..len).fold(0u8, |a, i| a.wrapping_add(b.m.peek8(0xC0000 + i)));
    assert_eq!(sum, 0, "option ROM checksum");
    let ibm: Vec<u8> = (0..3).map(|i| b.peek(0xC001E + i)).collect();
    assert_eq!(ibm, b"IBM");
    b.int10(0x1A00, 0, 0, 0);
    assert_eq!((b.m.al(), b.m.bl(), b.m.bh()), (0x1A, 0x08, 0x00));
    b.int10(0x1A01, 0x0207, 0, 0);
    b.int10(0x1A00, 0, 0, 0);
    assert_eq!((b.m.bl(), b.m.bh()), (0x07, 0x02));
    b.int10(0x1A01, 0x0008, 0, 0);

    b.mode(0x12);
    b.int10(0x0200, 0, 0, 0x0304);
    b.m.set_di(0x80);
    b.int10(0x1B00, 0, 0, 0);
    assert_eq!(b.m.al(), 0x1B);
    assert_eq!(b.buf(0x80 + 4), 0x12);
    assert_eq!(b.buf(0x80 + 5), 80);
    assert_eq!(b.buf(0x80 + 0x0B), 4, "cursor column");
    assert_eq!(b.buf(0x80 + 0x0C), 3, "cursor row");
    assert_eq!(b.buf(0x80 + 0x22), 30, "rows");
    assert_eq!(b.buf(0x80 + 0x23), 16, "char height");
    assert_eq!(b.buf(0x80 + 0x25), 0x08, "active display");
    assert_eq!(b.buf(0x80 + 0x27), 16, "colours");
    assert_eq!(b.buf(0x80 + 0x2A), 3, "480 lines");
    assert_eq!(b.buf(0x80 + 0x31), 3, "256 KiB");
    // The static functionality table it points at: modes 12h, 13h.
    let off = b.buf(0x80) as u16 | (b.buf(0x81) as u16) << 8;
    let seg = b.buf(0x82) as u16 | (b.buf(0x83) as u16) << 8;
    let t = lin(seg, off);
    assert_eq!(b.peek(t), 0xFF, "modes 0-7");
    assert_eq!(b.peek(t + 2) & 0x0C, 0x0C, "modes 12h, 13h");
    assert_eq!(b.peek(t + 7), 0x07, "200/350/400 lines");
}

/// 1Ch: the three parts survive changes and come back.
#[test]
fn save_and_restore_state() {
    let mut b = Bios::new();
    b.mode(0x12);
    b.int10(0x1C00, 0, 7, 0);
    assert_eq!(b.m.al(), 0x1C);
    let blocks = b.m.bx();
    assert!(blocks >= (0x20u16 + 0x46 + 0x3A + 0x303).div_ceil(64));
    b.int10(0x1010, 0x0005, 0x0102, 0x0300);
    b.int10(0x0200, 0, 0, 0x0506);
    b.m.set_bx(0);
    b.m.set_ax(0x1C01);
    b.m.set_cx(7);
    b.m.set_es(BUF);
    b.dos.service(&mut b.m, lin(rom::SEG, rom::VEC_BASE + 0x10));
    assert_eq!(b.m.al(), 0x1C);
    let saved_crtc = b.m.bus.vga.crtc.regs;
    // Change all three parts.
    b.mode(0x03);
    b.int10(0x1010, 0x0005, 0, 0);
    assert_ne!(b.m.bus.vga.crtc.regs, saved_crtc);
    b.m.set_bx(0);
    b.m.set_ax(0x1C02);
    b.m.set_cx(7);
    b.m.set_es(BUF);
    b.dos.service(&mut b.m, lin(rom::SEG, rom::VEC_BASE + 0x10));
    assert_eq!(b.m.al(), 0x1C);
    assert_eq!(b.m.bus.vga.crtc.regs, saved_crtc);
    assert_eq!(b.peek(0x449), 0x12);
    assert_eq!(b.peek16(0x450), 0x0506);
    b.int10(0x1015, 0x0005, 0, 0);
    assert_eq!((b.m.dh(), b.m.ch(), b.m.cl()), (3, 1, 2));
    assert!(b.m.bus.vga.gc.graphics());
}

/// Scrolling a text window and paging.
#[test]
fn text_scroll_and_pages() {
    let mut b = Bios::new();
    b.mode(0x03);
    b.int10(0x0200, 0, 0, 0x0100);
    b.int10(0x0941, 0x001E, 1, 0);
    b.int10(0x0601, 0x7100, 0, 0x184F);
    assert_eq!(b.peek(0xB8000), 0x41);
    assert_eq!(b.peek(0xB8001), 0x1E);
    assert_eq!(b.peek(0xB8000 + 160 * 24 + 1), 0x71, "new line's attribute");
    // Page 2: start address and the cursor of that page.
    b.int10(0x0200, 0x0200, 0, 0x0A0B);
    b.int10(0x0502, 0, 0, 0);
    assert_eq!(b.peek16(0x44E), 0x2000);
    assert_eq!(b.m.bus.vga.crtc.start_address(), 0x1000);
    let pos = (b.m.bus.vga.crtc.regs[0x0E] as u16) << 8 | b.m.bus.vga.crtc.regs[0x0F] as u16;
    assert_eq!(pos, 0x1000 + 10 * 80 + 11);
    b.int10(0x0E5A, 0, 0, 0);
    assert_eq!(b.peek(0xB8000 + 0x2000 + (10 * 80 + 11) * 2), 0x5A);
}

/// roms/dos/video.asm: INT 10h from guest code (through the vector and the
/// stub ROM), results drawn in mode 13h by the BIOS teletype.
#[test]
fn video_com_in_guest_code() {
    let mount = common::temp_dir("videocom");
    let image = std::fs::read(common::roms_dir().join("dos/video.com")).expect("video.com");
    let (exit, out, _dos, mut m) = common::run(CpuModel::I386, &mount, "VIDEO.COM", &image, "", 10);
    assert_eq!(exit, dos::Exit::Exited(0), "output:\n{out}");
    for name in ["pix12", "pix13", "glyph", "dac", "state"] {
        assert!(out.contains(&format!("OK {name}\n")), "{name}: {out}");
    }
    // The result lines are on the mode 13h screen: "O" of row 0 in white.
    m.bus.vga.vertical_retrace_start();
    let f = m.render();
    assert_eq!((f.width, f.height), (320, 200));
    let o = &font::FONT_8X8[b'O' as usize * 8..][..8];
    for (y, row) in o.iter().enumerate() {
        for x in 0..8 {
            let on = row >> (7 - x) & 1 != 0;
            let want = if on { [255, 255, 255] } else { [0, 0, 0] };
            assert_eq!(f.pixel(x, y), want, "({x},{y})");
        }
    }
    let _ = std::fs::remove_dir_all(&mount);
}

/// A program's own save pointer table: the dynamic save area gets the
/// palette, the graphics font override becomes INT 43h, and a parameter
/// table of its own is what the mode set loads.
#[test]
fn save_pointer_table_in_ram() {
    let mut b = Bios::new();
    // Copy the ROM's table to BUF:0000 and point 40:A8h at it.
    let (soff, sseg) = (b.peek16(0x4A8), b.peek16(0x4AA));
    let rom: Vec<u8> = (0..28).map(|i| b.peek(lin(sseg, soff) + i)).collect();
    b.set_buf(0, &rom);
    // Entry 1: dynamic save area at BUF:0100h.
    b.set_buf(4, &[0x00, 0x01, BUF as u8, (BUF >> 8) as u8]);
    // Entry 3: graphics font override at BUF:0200h for mode 12h: 60 rows,
    // 8 bytes per character, font at BUF:0300h.
    b.set_buf(12, &[0x00, 0x02, BUF as u8, (BUF >> 8) as u8]);
    b.set_buf(
        0x200,
        &[
            60,
            8,
            0,
            0x00,
            0x03,
            BUF as u8,
            (BUF >> 8) as u8,
            0x12,
            0xFF,
        ],
    );
    wr8(&mut b.m, 0x4A8, 0);
    wr8(&mut b.m, 0x4A9, 0);
    wr8(&mut b.m, 0x4AA, BUF as u8);
    wr8(&mut b.m, 0x4AB, (BUF >> 8) as u8);
    b.mode(0x12);
    let ar: Vec<u8> = b.m.bus.vga.attr.regs[..16].to_vec();
    for (i, &v) in ar.iter().enumerate() {
        assert_eq!(b.buf(0x100 + i as u16), v, "saved palette register {i}");
    }
    b.int10(0x1000, 0x2B03, 0, 0);
    assert_eq!(b.buf(0x103), 0x2B);
    assert_eq!(b.peek(0x484), 59);
    assert_eq!(b.peek16(0x485), 8);
    assert_eq!((b.peek16(0x10C), b.peek16(0x10E)), (0x0300, BUF));
    // Entry 0: a parameter table whose mode 13h entry is 30 columns.
    let (poff, pseg) = (b.peek16(lin(sseg, soff)), b.peek16(lin(sseg, soff) + 2));
    let table: Vec<u8> = (0..29 * 64).map(|i| b.peek(lin(pseg, poff) + i)).collect();
    b.set_buf(0x1000, &table);
    b.set_buf(0x1000 + 0x1C * 64, &[30]);
    b.set_buf(0, &[0x00, 0x10, BUF as u8, (BUF >> 8) as u8]);
    b.mode(0x13);
    assert_eq!(b.peek16(0x44A), 30);
}

/// Mode 07h: monochrome text at B0000h, the CRTC at 3B4h.
#[test]
fn monochrome_text_mode() {
    let mut b = Bios::new();
    b.mode(0x07);
    b.int10(0x0200, 0, 0, 0x0203);
    b.int10(0x094D, 0x0070, 2, 0);
    assert_eq!(
        (
            b.peek(0xB0000 + (2 * 80 + 3) * 2),
            b.peek(0xB0000 + (2 * 80 + 3) * 2 + 1)
        ),
        (0x4D, 0x70)
    );
    assert_eq!(b.peek(0xB0000 + (2 * 80 + 4) * 2), 0x4D);
    b.int10(0x0800, 0, 0, 0);
    assert_eq!(b.m.ax(), 0x704D);
    let c = &b.m.bus.vga.crtc.regs;
    assert_eq!((c[0x0E] as u16) << 8 | c[0x0F] as u16, 2 * 80 + 3);
    // Reverse video (70h): the cell's background is the bright grey.
    let f = b.frame();
    assert_eq!(f.pixel(3 * 9 + 8, 2 * 16), [0xAA, 0xAA, 0xAA]);
}

/// An IBM VGA has no VESA BIOS extension: INT 10h AH=4Fh returns with the
/// registers as they were (AL is not 4Fh, so a program takes VBE as
/// absent), and it is the machine's answer, not a missing service.
#[test]
fn vesa_calls_find_no_vbe() {
    let mut b = Bios::new();
    for ax in [0x4F00u16, 0x4F01, 0x4F02, 0x4F05] {
        b.int10(ax, 0x0101, 0, 0);
        assert_eq!(b.m.ax(), ax, "AX after {ax:04X}h");
        assert_ne!(b.m.al(), 0x4F);
    }
    assert!(b.dos.warnings().is_empty(), "{:?}", b.dos.warnings());
}

/// A Hercules graphics driver probe (INT 10h AH=EFh with DX=FFFFh) finds
/// none: a VGA BIOS leaves the registers as they were, and it is not a
/// missing service.
#[test]
fn a_hercules_driver_probe_finds_a_vga() {
    let mut b = Bios::new();
    b.int10(0xEF00, 0x1234, 0x5678, 0xFFFF);
    assert_eq!(
        (b.m.ax(), b.m.bx(), b.m.cx(), b.m.dx()),
        (0xEF00, 0x1234, 0x5678, 0xFFFF)
    );
    assert!(b.dos.warnings().is_empty(), "{:?}", b.dos.warnings());
}
