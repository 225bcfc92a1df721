//! Register values of the standard modes (IBM VGA Technical Reference,
//! "Video Modes" tables) and the default 256-colour palette.

pub(super) struct ModeTable {
    pub mode: u8,
    pub text: bool,
    pub misc: u8,
    pub seq: [u8; 5],
    pub crtc: [u8; 25],
    pub gc: [u8; 9],
    pub attr: [u8; 21],
}

pub(super) static MODES: [ModeTable; 3] = [
    // 03h: 80x25 text, 9x16 cells, 720x400 at 70 Hz.
    ModeTable {
        mode: 0x03,
        text: true,
        misc: 0x67,
        seq: [0x03, 0x00, 0x03, 0x00, 0x02],
        crtc: [
            0x5F, 0x4F, 0x50, 0x82, 0x55, 0x81, 0xBF, 0x1F, 0x00, 0x4F, 0x0D, 0x0E, 0x00, 0x00,
            0x00, 0x00, 0x9C, 0x8E, 0x8F, 0x28, 0x1F, 0x96, 0xB9, 0xA3, 0xFF,
        ],
        gc: [0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x0E, 0x00, 0xFF],
        attr: [
            0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x14, 0x07, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D,
            0x3E, 0x3F, 0x0C, 0x00, 0x0F, 0x08, 0x00,
        ],
    },
    // 12h: 640x480, 16 colours, planar, 60 Hz.
    ModeTable {
        mode: 0x12,
        text: false,
        misc: 0xE3,
        seq: [0x03, 0x01, 0x0F, 0x00, 0x06],
        crtc: [
            0x5F, 0x4F, 0x50, 0x82, 0x54, 0x80, 0x0B, 0x3E, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0xEA, 0x8C, 0xDF, 0x28, 0x00, 0xE7, 0x04, 0xE3, 0xFF,
        ],
        gc: [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x0F, 0xFF],
        attr: [
            0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x14, 0x07, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D,
            0x3E, 0x3F, 0x01, 0x00, 0x0F, 0x00, 0x00,
        ],
    },
    // 13h: 320x200, 256 colours, chain 4, 70 Hz.
    ModeTable {
        mode: 0x13,
        text: false,
        misc: 0x63,
        seq: [0x03, 0x01, 0x0F, 0x00, 0x0E],
        crtc: [
            0x5F, 0x4F, 0x50, 0x82, 0x54, 0x80, 0xBF, 0x1F, 0x00, 0x41, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x9C, 0x8E, 0x8F, 0x28, 0x40, 0x96, 0xB9, 0xA3, 0xFF,
        ],
        gc: [0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x05, 0x0F, 0xFF],
        attr: [
            0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D,
            0x0E, 0x0F, 0x41, 0x00, 0x0F, 0x00, 0x00,
        ],
    },
];

/// The VGA BIOS's default 256-colour palette: the 16 EGA colours, 16
/// greys, then 9 runs of 24 hues (three intensities by three saturations),
/// then 8 blacks.
pub(super) fn default_256_palette() -> Vec<[u8; 3]> {
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

/// The 64-byte entry of the video BIOS's parameter table (the table the
/// BIOS data area's save pointer, 40:A8h, leads to) for a standard mode we
/// have registers for: columns, rows - 1, character height, page length,
/// sequencer registers 1-4, miscellaneous output, CRTC 00h-18h, attribute
/// controller 00h-13h, graphics controller 00h-08h (IBM VGA Technical
/// Reference, "Video Parameter Table"). The geometry bytes are the IBM
/// table's for the mode.
pub fn parameter_entry(mode: u8) -> Option<[u8; 64]> {
    let t = MODES.iter().find(|m| m.mode == mode)?;
    let (cols, rows, height, page): (u8, u8, u8, u16) = match mode {
        0x03 => (80, 25, 16, 0x1000),
        0x12 => (80, 30, 16, 0xA000),
        0x13 => (40, 25, 8, 0x2000),
        _ => return None,
    };
    let mut e = [0u8; 64];
    e[0] = cols;
    e[1] = rows - 1;
    e[2] = height;
    e[3..5].copy_from_slice(&page.to_le_bytes());
    e[5..9].copy_from_slice(&t.seq[1..5]);
    e[9] = t.misc;
    e[10..35].copy_from_slice(&t.crtc);
    e[35..55].copy_from_slice(&t.attr[..20]);
    e[55..64].copy_from_slice(&t.gc);
    Some(e)
}
