//! The video BIOS's data about the standard modes: the video parameter
//! table (IBM VGA Technical Reference, "BIOS Video Parameter Table": 29
//! entries of 64 bytes, indexed by mode and scan-line count) and the
//! default DAC tables the BIOS loads at a mode set.

/// One 64-byte entry of the video parameter table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModeParams {
    /// Text columns.
    pub cols: u8,
    /// Text rows minus one.
    pub rows_m1: u8,
    /// Character height in scan lines.
    pub char_height: u8,
    /// Bytes of display memory per page (the BIOS's 40:4Ch).
    pub page_size: u16,
    /// Sequencer registers 1-4 (SR00 is the reset register).
    pub seq: [u8; 4],
    /// Miscellaneous output register.
    pub misc: u8,
    /// CRTC registers 00h-18h.
    pub crtc: [u8; 25],
    /// Attribute controller registers 00h-13h (AR14 is 0 at a mode set).
    pub attr: [u8; 20],
    /// Graphics controller registers 0-8.
    pub gc: [u8; 9],
}

/// Bytes per parameter table entry.
pub const PARAM_SIZE: usize = 64;

impl ModeParams {
    /// The entry as the BIOS stores it.
    pub fn to_bytes(&self) -> [u8; PARAM_SIZE] {
        let mut b = [0u8; PARAM_SIZE];
        b[0] = self.cols;
        b[1] = self.rows_m1;
        b[2] = self.char_height;
        b[3..5].copy_from_slice(&self.page_size.to_le_bytes());
        b[5..9].copy_from_slice(&self.seq);
        b[9] = self.misc;
        b[10..35].copy_from_slice(&self.crtc);
        b[35..55].copy_from_slice(&self.attr);
        b[55..64].copy_from_slice(&self.gc);
        b
    }

    /// Parses an entry (as read from a parameter table in memory).
    pub fn from_bytes(b: &[u8; PARAM_SIZE]) -> Self {
        let mut p = ModeParams {
            cols: b[0],
            rows_m1: b[1],
            char_height: b[2],
            page_size: u16::from_le_bytes([b[3], b[4]]),
            seq: [0; 4],
            misc: b[9],
            crtc: [0; 25],
            attr: [0; 20],
            gc: [0; 9],
        };
        p.seq.copy_from_slice(&b[5..9]);
        p.crtc.copy_from_slice(&b[10..35]);
        p.attr.copy_from_slice(&b[35..55]);
        p.gc.copy_from_slice(&b[55..64]);
        p
    }

    /// True for an alphanumeric (text) mode (GR06 bit 0 clear).
    pub fn text(&self) -> bool {
        self.gc[6] & 1 == 0
    }
}

const GC_TEXT: [u8; 9] = [0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x0E, 0x00, 0xFF];
const GC_MONO_TEXT: [u8; 9] = [0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x0A, 0x00, 0xFF];
const GC_PLANAR: [u8; 9] = [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x0F, 0xFF];
const AR_CGA16: [u8; 16] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
];
const AR_EGA16: [u8; 16] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x14, 0x07, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F,
];
const AR_MONO: [u8; 16] = [
    0x00, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x10, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18,
];

const fn attr(pal: [u8; 16], mode: u8, overscan: u8, plane_enable: u8, pan: u8) -> [u8; 20] {
    let mut a = [0u8; 20];
    let mut i = 0;
    while i < 16 {
        a[i] = pal[i];
        i += 1;
    }
    a[16] = mode;
    a[17] = overscan;
    a[18] = plane_enable;
    a[19] = pan;
    a
}

/// CRTC values shared by the 40-column and 80-column text and CGA modes:
/// (horizontal part, vertical part) differ by scan lines.
const fn crtc(h: [u8; 6], v: [u8; 19]) -> [u8; 25] {
    let mut c = [0u8; 25];
    let mut i = 0;
    while i < 6 {
        c[i] = h[i];
        i += 1;
    }
    while i < 25 {
        c[i] = v[i - 6];
        i += 1;
    }
    c
}

const H40_TEXT: [u8; 6] = [0x2D, 0x27, 0x28, 0x90, 0x2B, 0xA0];
const H80_TEXT: [u8; 6] = [0x5F, 0x4F, 0x50, 0x82, 0x55, 0x81];
const H40_GFX: [u8; 6] = [0x2D, 0x27, 0x28, 0x90, 0x2B, 0x80];
const H80_GFX: [u8; 6] = [0x5F, 0x4F, 0x50, 0x82, 0x54, 0x80];

/// The vertical registers CR06-CR18 for 400-line (70 Hz) timing with the
/// given max scan line (CR09), cursor (CR0A, CR0B), offset (CR13),
/// underline (CR14) and mode control (CR17).
const fn v400(cr09: u8, cur: [u8; 2], off: u8, ul: u8, cr17: u8) -> [u8; 19] {
    [
        0xBF, 0x1F, 0x00, cr09, cur[0], cur[1], 0x00, 0x00, 0x00, 0x00, 0x9C, 0x8E, 0x8F, off, ul,
        0x96, 0xB9, cr17, 0xFF,
    ]
}

/// 350-line timing (as v400).
const fn v350(cr09: u8, cur: [u8; 2], off: u8, ul: u8, cr17: u8) -> [u8; 19] {
    [
        0xBF, 0x1F, 0x00, cr09, cur[0], cur[1], 0x00, 0x00, 0x00, 0x00, 0x83, 0x85, 0x5D, off, ul,
        0x63, 0xBA, cr17, 0xFF,
    ]
}

/// 480-line (60 Hz) timing.
const V480: [u8; 19] = [
    0x0B, 0x3E, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xEA, 0x8C, 0xDF, 0x28, 0x00, 0xE7,
    0x04, 0xE3, 0xFF,
];

#[allow(clippy::too_many_arguments)]
const fn p(
    cols: u8,
    rows_m1: u8,
    char_height: u8,
    page_size: u16,
    seq: [u8; 4],
    misc: u8,
    crtc: [u8; 25],
    attr: [u8; 20],
    gc: [u8; 9],
) -> Option<ModeParams> {
    Some(ModeParams {
        cols,
        rows_m1,
        char_height,
        page_size,
        seq,
        misc,
        crtc,
        attr,
        gc,
    })
}

/// The video parameter table in IBM's order: 00h-03h modes 0-3 with 200
/// lines, 04h-0Eh modes 4-0Eh (08h-0Ch, the PCjr modes, are empty), 0Fh-10h
/// modes 0Fh/10h for a 64 KiB EGA (empty), 11h-12h modes 0Fh/10h, 13h-16h
/// modes 0-3 with 350 lines, 17h modes 0/1 and 18h modes 2/3 with 400
/// lines, 19h mode 7 with 400 lines, 1Ah-1Ch modes 11h-13h.
pub static PARAMS: [Option<ModeParams>; 29] = {
    let t40_200 = p(
        40,
        24,
        8,
        0x0800,
        [0x09, 0x03, 0x00, 0x02],
        0x63,
        crtc(H40_TEXT, v400(0xC7, [0x06, 0x07], 0x14, 0x1F, 0xA3)),
        attr(AR_CGA16, 0x08, 0x00, 0x0F, 0x00),
        GC_TEXT,
    );
    let t80_200 = p(
        80,
        24,
        8,
        0x1000,
        [0x01, 0x03, 0x00, 0x02],
        0x63,
        crtc(H80_TEXT, v400(0xC7, [0x06, 0x07], 0x28, 0x1F, 0xA3)),
        attr(AR_CGA16, 0x08, 0x00, 0x0F, 0x00),
        GC_TEXT,
    );
    let cga4 = p(
        40,
        24,
        8,
        0x4000,
        [0x09, 0x03, 0x00, 0x02],
        0x63,
        crtc(H40_GFX, v400(0xC1, [0, 0], 0x14, 0x00, 0xA2)),
        attr(
            [
                0x00, 0x13, 0x15, 0x17, 0x02, 0x04, 0x06, 0x07, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
                0x16, 0x17,
            ],
            0x01,
            0x00,
            0x03,
            0x00,
        ),
        [0x00, 0x00, 0x00, 0x00, 0x00, 0x30, 0x0F, 0x00, 0xFF],
    );
    let t40_350 = p(
        40,
        24,
        14,
        0x0800,
        [0x09, 0x03, 0x00, 0x02],
        0xA3,
        crtc(H40_TEXT, v350(0x4D, [0x0B, 0x0C], 0x14, 0x1F, 0xA3)),
        attr(AR_EGA16, 0x08, 0x00, 0x0F, 0x00),
        GC_TEXT,
    );
    let t80_350 = p(
        80,
        24,
        14,
        0x1000,
        [0x01, 0x03, 0x00, 0x02],
        0xA3,
        crtc(H80_TEXT, v350(0x4D, [0x0B, 0x0C], 0x28, 0x1F, 0xA3)),
        attr(AR_EGA16, 0x08, 0x00, 0x0F, 0x00),
        GC_TEXT,
    );
    let g350 = crtc(H80_GFX, v350(0x40, [0, 0], 0x28, 0x0F, 0xE3));
    [
        t40_200,
        t40_200,
        t80_200,
        t80_200,
        cga4,
        cga4,
        // 06h: 640x200 two colours.
        p(
            80,
            24,
            8,
            0x4000,
            [0x01, 0x01, 0x00, 0x06],
            0x63,
            crtc(H80_GFX, v400(0xC1, [0, 0], 0x28, 0x00, 0xC2)),
            attr([0x17; 16], 0x01, 0x00, 0x01, 0x00),
            [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0D, 0x00, 0xFF],
        ),
        // 07h: 80x25 monochrome, 9x14 cells.
        p(
            80,
            24,
            14,
            0x1000,
            [0x00, 0x03, 0x00, 0x03],
            0xA6,
            crtc(H80_TEXT, v350(0x4D, [0x0B, 0x0C], 0x28, 0x0D, 0xA3)),
            attr(AR_MONO, 0x0E, 0x00, 0x0F, 0x08),
            GC_MONO_TEXT,
        ),
        None,
        None,
        None,
        None,
        None,
        // 0Dh: 320x200 16 colours.
        p(
            40,
            24,
            8,
            0x2000,
            [0x09, 0x0F, 0x00, 0x06],
            0x63,
            crtc(H40_GFX, v400(0xC0, [0, 0], 0x14, 0x00, 0xE3)),
            attr(AR_CGA16, 0x01, 0x00, 0x0F, 0x00),
            GC_PLANAR,
        ),
        // 0Eh: 640x200 16 colours.
        p(
            80,
            24,
            8,
            0x4000,
            [0x01, 0x0F, 0x00, 0x06],
            0x63,
            crtc(H80_GFX, v400(0xC0, [0, 0], 0x28, 0x00, 0xE3)),
            attr(AR_CGA16, 0x01, 0x00, 0x0F, 0x00),
            GC_PLANAR,
        ),
        None,
        None,
        // 0Fh: 640x350 monochrome graphics.
        p(
            80,
            24,
            14,
            0x8000,
            [0x01, 0x0F, 0x00, 0x06],
            0xA2,
            g350,
            attr(
                [
                    0x00, 0x08, 0x00, 0x00, 0x18, 0x18, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00,
                    0x18, 0x00, 0x00,
                ],
                0x0B,
                0x00,
                0x05,
                0x00,
            ),
            [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x05, 0xFF],
        ),
        // 10h: 640x350 16 colours.
        p(
            80,
            24,
            14,
            0x8000,
            [0x01, 0x0F, 0x00, 0x06],
            0xA3,
            g350,
            attr(AR_EGA16, 0x01, 0x00, 0x0F, 0x00),
            GC_PLANAR,
        ),
        t40_350,
        t40_350,
        t80_350,
        t80_350,
        // 17h: modes 0/1, 9x16 cells (360x400).
        p(
            40,
            24,
            16,
            0x0800,
            [0x08, 0x03, 0x00, 0x02],
            0x67,
            crtc(H40_TEXT, v400(0x4F, [0x0D, 0x0E], 0x14, 0x1F, 0xA3)),
            attr(AR_EGA16, 0x0C, 0x00, 0x0F, 0x08),
            GC_TEXT,
        ),
        // 18h: modes 2/3, 9x16 cells (720x400).
        p(
            80,
            24,
            16,
            0x1000,
            [0x00, 0x03, 0x00, 0x02],
            0x67,
            crtc(H80_TEXT, v400(0x4F, [0x0D, 0x0E], 0x28, 0x1F, 0xA3)),
            attr(AR_EGA16, 0x0C, 0x00, 0x0F, 0x08),
            GC_TEXT,
        ),
        // 19h: mode 7, 9x16 cells.
        p(
            80,
            24,
            16,
            0x1000,
            [0x00, 0x03, 0x00, 0x02],
            0x66,
            crtc(H80_TEXT, v400(0x4F, [0x0D, 0x0E], 0x28, 0x0F, 0xA3)),
            attr(AR_MONO, 0x0E, 0x00, 0x0F, 0x08),
            GC_MONO_TEXT,
        ),
        // 1Ah: mode 11h, 640x480 two colours.
        p(
            80,
            29,
            16,
            0xA000,
            [0x01, 0x0F, 0x00, 0x06],
            0xE3,
            crtc(H80_GFX, V480),
            attr(
                [
                    0x00, 0x3F, 0x00, 0x3F, 0x00, 0x3F, 0x00, 0x3F, 0x00, 0x3F, 0x00, 0x3F, 0x00,
                    0x3F, 0x00, 0x3F,
                ],
                0x01,
                0x00,
                0x0F,
                0x00,
            ),
            [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x01, 0xFF],
        ),
        // 1Bh: mode 12h, 640x480 16 colours.
        p(
            80,
            29,
            16,
            0xA000,
            [0x01, 0x0F, 0x00, 0x06],
            0xE3,
            crtc(H80_GFX, V480),
            attr(AR_EGA16, 0x01, 0x00, 0x0F, 0x00),
            GC_PLANAR,
        ),
        // 1Ch: mode 13h, 320x200 256 colours.
        p(
            40,
            24,
            8,
            0x2000,
            [0x01, 0x0F, 0x00, 0x0E],
            0x63,
            crtc(
                H80_GFX,
                [
                    0xBF, 0x1F, 0x00, 0x41, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x9C, 0x8E, 0x8F,
                    0x28, 0x40, 0x96, 0xB9, 0xA3, 0xFF,
                ],
            ),
            attr(
                [
                    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C,
                    0x0D, 0x0E, 0x0F,
                ],
                0x41,
                0x00,
                0x0F,
                0x00,
            ),
            [0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x05, 0x0F, 0xFF],
        ),
    ]
};

/// The scan-line setting of the text modes (INT 10h 12h BL=30h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanLines {
    /// 200 lines (CGA-compatible, 8x8 cells, double scanned).
    L200,
    /// 350 lines (EGA-compatible, 8x14 cells).
    L350,
    /// 400 lines (the VGA default, 9x16 cells).
    L400,
}

/// The parameter table index of standard `mode` (00h-07h, 0Dh-13h), with
/// `lines` choosing among the text modes' variants (mode 7 has no 200-line
/// form and gets 350).
pub fn param_index(mode: u8, lines: ScanLines) -> Option<usize> {
    Some(match (mode, lines) {
        (0..=3, ScanLines::L200) => mode as usize,
        (0..=3, ScanLines::L350) => 0x13 + mode as usize,
        (0 | 1, ScanLines::L400) => 0x17,
        (2 | 3, ScanLines::L400) => 0x18,
        (7, ScanLines::L400) => 0x19,
        (4..=7 | 0x0D | 0x0E, _) => mode as usize,
        (0x0F | 0x10, _) => mode as usize + 2,
        (0x11..=0x13, _) => mode as usize + 9,
        _ => return None,
    })
}

/// Which default DAC table a mode loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DacTable {
    /// 64 entries in the CGA pattern (bit 4 intensity, bits 2-0 RGB):
    /// 200-line modes.
    Cga,
    /// 64 entries rgbRGB: 350/400/480-line colour modes.
    Ega,
    /// 64 entries of grey (bit 3 video, bit 4 intensity): modes 07h, 0Fh.
    Mono,
    /// The 256-colour table: mode 13h.
    Vga256,
}

impl DacTable {
    /// The table a mode set of `mode` with parameters `p` loads: the
    /// 200-line (double-scanned) modes get the CGA pattern.
    pub fn for_mode(mode: u8, p: &ModeParams) -> DacTable {
        match mode {
            0x13 => DacTable::Vga256,
            0x07 | 0x0F => DacTable::Mono,
            0x04..=0x06 | 0x0D | 0x0E => DacTable::Cga,
            _ if p.crtc[9] & 0x80 != 0 => DacTable::Cga,
            _ => DacTable::Ega,
        }
    }

    /// The table's entries (64 or 256 of 6-bit red, green, blue).
    pub fn entries(self) -> Vec<[u8; 3]> {
        match self {
            DacTable::Cga => (0..64u8)
                .map(|i| {
                    let hi = (i >> 4 & 1) * 21;
                    let c = |b: u8| (i >> b & 1) * 42 + hi;
                    // Colour 6 is brown, not dark yellow.
                    if i & 0x17 == 0x06 {
                        [42, 21, 0]
                    } else {
                        [c(2), c(1), c(0)]
                    }
                })
                .collect(),
            DacTable::Ega => (0..64u8)
                .map(|i| {
                    let c = |lo: u8, hi: u8| (i >> lo & 1) * 42 + (i >> hi & 1) * 21;
                    [c(2, 5), c(1, 4), c(0, 3)]
                })
                .collect(),
            DacTable::Mono => (0..64u8)
                .map(|i| {
                    let v = (i >> 3 & 1) * 42 + (i >> 4 & 1) * 21;
                    [v, v, v]
                })
                .collect(),
            DacTable::Vga256 => default_256_palette(),
        }
    }
}

/// Sums a colour to grey as the BIOS does (30% red, 59% green, 11% blue,
/// rounded).
pub fn grey(c: [u8; 3]) -> u8 {
    let s = 30 * c[0] as u32 + 59 * c[1] as u32 + 11 * c[2] as u32 + 50;
    (s / 100).min(63) as u8
}

/// The VGA BIOS's default 256-colour palette: the 16 EGA colours, 16
/// greys, then 9 runs of 24 hues (three intensities by three saturations),
/// then 8 blacks.
pub fn default_256_palette() -> Vec<[u8; 3]> {
    let mut p = Vec::with_capacity(256);
    for i in 0..16u8 {
        let b = |lo: u8, hi: u8| (i >> lo & 1) * 42 + (i >> hi & 1) * 21;
        // The EGA colours as the BIOS sets them (brown for 6).
        let mut c = [b(2, 3), b(1, 3), b(0, 3)];
        if i == 6 {
            c = [42, 21, 0];
        }
        p.push(c);
    }
    for g in [
        0u8, 5, 8, 11, 14, 17, 20, 24, 28, 32, 36, 40, 45, 50, 56, 63,
    ] {
        p.push([g, g, g]);
    }
    let runs: [[u8; 5]; 9] = [
        [0, 16, 31, 47, 63],
        [31, 39, 47, 55, 63],
        [45, 49, 54, 58, 63],
        [0, 7, 14, 21, 28],
        [14, 17, 21, 24, 28],
        [20, 22, 24, 26, 28],
        [0, 4, 8, 12, 16],
        [8, 10, 12, 14, 16],
        [11, 12, 13, 15, 16],
    ];
    for s in runs {
        let (lo, hi) = (s[0], s[4]);
        // Blue -> magenta -> red -> yellow -> green -> cyan -> back.
        for k in 0..24 {
            let seg = k / 4;
            let up = s[k % 4];
            let down = s[4 - k % 4];
            let c = match seg {
                0 => [up, lo, hi],
                1 => [hi, lo, down],
                2 => [hi, up, lo],
                3 => [down, hi, lo],
                4 => [lo, hi, up],
                _ => [lo, down, hi],
            };
            p.push(c);
        }
    }
    while p.len() < 256 {
        p.push([0, 0, 0]);
    }
    p
}
