//! The BIOS keyboard data that INT 09h (which fills it) and INT 16h (which
//! reads it) share, as the IBM AT/PS/2 BIOS keeps it in the BIOS data area
//! (IBM PS/2 and PC BIOS Interface Technical Reference, "Keyboard"): the
//! keyboard buffer (40:1Ah head, 40:1Ch tail, 40:80h/82h its start and
//! end), the shift flags (40:17h/18h, 40:96h) and LEDs (40:97h), and the
//! table of every key's scan/ASCII word ([`KEYS`], [`GREY`]).

use crate::mem::{rd16, rd8, wr16, wr8};
use hw::Machine;

/// 40:1Ah: the buffer's head (offset in segment 40h of the next key).
pub const BUFFER_HEAD: u32 = 0x41A;
/// 40:1Ch: the buffer's tail (where the next key goes).
pub const BUFFER_TAIL: u32 = 0x41C;
/// 40:80h: the buffer's start offset.
pub const BUFFER_START: u32 = 0x480;
/// 40:82h: the buffer's end offset (one past its last word).
pub const BUFFER_END: u32 = 0x482;
/// 40:17h: shift flags.
pub const FLAGS1: u32 = 0x417;
/// 40:18h: more shift flags (keys held, pause).
pub const FLAGS2: u32 = 0x418;
/// 40:19h: the Alt + keypad character being entered.
pub const ALT_INPUT: u32 = 0x419;
/// 40:71h: bit 7 set by Ctrl-Break.
pub const BREAK_FLAG: u32 = 0x471;
/// 40:72h: the reset flag (1234h: warm boot, skip the memory test).
pub const RESET_FLAG: u32 = 0x472;
/// 40:96h: keyboard mode and type (E0h/E1h seen, right Ctrl/Alt, 101 keys).
pub const FLAGS3: u32 = 0x496;
/// 40:97h: LEDs and the keyboard's command state.
pub const LED_FLAGS: u32 = 0x497;

/// 40:17h bits.
pub mod f1 {
    /// Right Shift down.
    pub const RSHIFT: u8 = 0x01;
    /// Left Shift down.
    pub const LSHIFT: u8 = 0x02;
    /// Either Ctrl down.
    pub const CTRL: u8 = 0x04;
    /// Either Alt down.
    pub const ALT: u8 = 0x08;
    /// Scroll Lock on.
    pub const SCROLL: u8 = 0x10;
    /// Num Lock on.
    pub const NUM: u8 = 0x20;
    /// Caps Lock on.
    pub const CAPS: u8 = 0x40;
    /// Insert on.
    pub const INSERT: u8 = 0x80;
}

/// 40:18h bits.
pub mod f2 {
    /// Left Ctrl down.
    pub const LCTRL: u8 = 0x01;
    /// Left Alt down.
    pub const LALT: u8 = 0x02;
    /// SysRq down.
    pub const SYSRQ: u8 = 0x04;
    /// Pause active.
    pub const PAUSE: u8 = 0x08;
    /// Scroll Lock down.
    pub const SCROLL: u8 = 0x10;
    /// Num Lock down.
    pub const NUM: u8 = 0x20;
    /// Caps Lock down.
    pub const CAPS: u8 = 0x40;
    /// Insert down.
    pub const INSERT: u8 = 0x80;
}

/// 40:96h bits.
pub mod f3 {
    /// The last byte was E1h.
    pub const E1: u8 = 0x01;
    /// The last byte was E0h.
    pub const E0: u8 = 0x02;
    /// Right Ctrl down.
    pub const RCTRL: u8 = 0x04;
    /// Right Alt down.
    pub const RALT: u8 = 0x08;
    /// A 101/102-key keyboard is installed.
    pub const KBX: u8 = 0x10;
}

/// 40:97h bits.
pub mod f4 {
    /// LED bits (Scroll, Num, Caps Lock).
    pub const LEDS: u8 = 0x07;
    /// The keyboard acknowledged (FAh).
    pub const ACK: u8 = 0x10;
    /// The keyboard asked for a resend (FEh).
    pub const RESEND: u8 = 0x20;
}

/// Scan/ASCII words of set 1 make codes 00h-58h without E0h, in the
/// columns normal, Shift, Ctrl, Alt (0: the combination gives no key).
/// Rows of the keypad's digit keys hold the cursor word (normal) and the
/// digit (Shift); Num Lock swaps them. xxF0h: a key only the extended INT
/// 16h functions return (as xx00h). IBM PS/2 Technical Reference,
/// "Keyboard: character codes".
#[rustfmt::skip]
pub const KEYS: [[u16; 4]; 0x59] = [
    [0, 0, 0, 0],                           // 00
    [0x011B, 0x011B, 0x011B, 0x01F0],       // 01 Esc
    [0x0231, 0x0221, 0, 0x7800],            // 02 1 !
    [0x0332, 0x0340, 0x0300, 0x7900],       // 03 2 @
    [0x0433, 0x0423, 0, 0x7A00],            // 04 3 #
    [0x0534, 0x0524, 0, 0x7B00],            // 05 4 $
    [0x0635, 0x0625, 0, 0x7C00],            // 06 5 %
    [0x0736, 0x075E, 0x071E, 0x7D00],       // 07 6 ^
    [0x0837, 0x0826, 0, 0x7E00],            // 08 7 &
    [0x0938, 0x092A, 0, 0x7F00],            // 09 8 *
    [0x0A39, 0x0A28, 0, 0x8000],            // 0A 9 (
    [0x0B30, 0x0B29, 0, 0x8100],            // 0B 0 )
    [0x0C2D, 0x0C5F, 0x0C1F, 0x8200],       // 0C - _
    [0x0D3D, 0x0D2B, 0, 0x8300],            // 0D = +
    [0x0E08, 0x0E08, 0x0E7F, 0x0EF0],       // 0E Backspace
    [0x0F09, 0x0F00, 0x9400, 0xA500],       // 0F Tab
    [0x1071, 0x1051, 0x1011, 0x1000],       // 10 q
    [0x1177, 0x1157, 0x1117, 0x1100],       // 11 w
    [0x1265, 0x1245, 0x1205, 0x1200],       // 12 e
    [0x1372, 0x1352, 0x1312, 0x1300],       // 13 r
    [0x1474, 0x1454, 0x1414, 0x1400],       // 14 t
    [0x1579, 0x1559, 0x1519, 0x1500],       // 15 y
    [0x1675, 0x1655, 0x1615, 0x1600],       // 16 u
    [0x1769, 0x1749, 0x1709, 0x1700],       // 17 i
    [0x186F, 0x184F, 0x180F, 0x1800],       // 18 o
    [0x1970, 0x1950, 0x1910, 0x1900],       // 19 p
    [0x1A5B, 0x1A7B, 0x1A1B, 0x1AF0],       // 1A [ {
    [0x1B5D, 0x1B7D, 0x1B1D, 0x1BF0],       // 1B ] }
    [0x1C0D, 0x1C0D, 0x1C0A, 0x1CF0],       // 1C Enter
    [0, 0, 0, 0],                           // 1D Ctrl
    [0x1E61, 0x1E41, 0x1E01, 0x1E00],       // 1E a
    [0x1F73, 0x1F53, 0x1F13, 0x1F00],       // 1F s
    [0x2064, 0x2044, 0x2004, 0x2000],       // 20 d
    [0x2166, 0x2146, 0x2106, 0x2100],       // 21 f
    [0x2267, 0x2247, 0x2207, 0x2200],       // 22 g
    [0x2368, 0x2348, 0x2308, 0x2300],       // 23 h
    [0x246A, 0x244A, 0x240A, 0x2400],       // 24 j
    [0x256B, 0x254B, 0x250B, 0x2500],       // 25 k
    [0x266C, 0x264C, 0x260C, 0x2600],       // 26 l
    [0x273B, 0x273A, 0, 0x27F0],            // 27 ; :
    [0x2827, 0x2822, 0, 0x28F0],            // 28 ' "
    [0x2960, 0x297E, 0, 0x29F0],            // 29 ` ~
    [0, 0, 0, 0],                           // 2A left Shift
    [0x2B5C, 0x2B7C, 0x2B1C, 0x2BF0],       // 2B \ |
    [0x2C7A, 0x2C5A, 0x2C1A, 0x2C00],       // 2C z
    [0x2D78, 0x2D58, 0x2D18, 0x2D00],       // 2D x
    [0x2E63, 0x2E43, 0x2E03, 0x2E00],       // 2E c
    [0x2F76, 0x2F56, 0x2F16, 0x2F00],       // 2F v
    [0x3062, 0x3042, 0x3002, 0x3000],       // 30 b
    [0x316E, 0x314E, 0x310E, 0x3100],       // 31 n
    [0x326D, 0x324D, 0x320D, 0x3200],       // 32 m
    [0x332C, 0x333C, 0, 0x33F0],            // 33 , <
    [0x342E, 0x343E, 0, 0x34F0],            // 34 . >
    [0x352F, 0x353F, 0, 0x35F0],            // 35 / ?
    [0, 0, 0, 0],                           // 36 right Shift
    [0x372A, 0x372A, 0x9600, 0x37F0],       // 37 keypad *
    [0, 0, 0, 0],                           // 38 Alt
    [0x3920, 0x3920, 0x3920, 0x3920],       // 39 Space
    [0, 0, 0, 0],                           // 3A Caps Lock
    [0x3B00, 0x5400, 0x5E00, 0x6800],       // 3B F1
    [0x3C00, 0x5500, 0x5F00, 0x6900],       // 3C F2
    [0x3D00, 0x5600, 0x6000, 0x6A00],       // 3D F3
    [0x3E00, 0x5700, 0x6100, 0x6B00],       // 3E F4
    [0x3F00, 0x5800, 0x6200, 0x6C00],       // 3F F5
    [0x4000, 0x5900, 0x6300, 0x6D00],       // 40 F6
    [0x4100, 0x5A00, 0x6400, 0x6E00],       // 41 F7
    [0x4200, 0x5B00, 0x6500, 0x6F00],       // 42 F8
    [0x4300, 0x5C00, 0x6600, 0x7000],       // 43 F9
    [0x4400, 0x5D00, 0x6700, 0x7100],       // 44 F10
    [0, 0, 0, 0],                           // 45 Num Lock
    [0, 0, 0, 0],                           // 46 Scroll Lock
    [0x4700, 0x4737, 0x7700, 0],            // 47 keypad 7 Home
    [0x4800, 0x4838, 0x8D00, 0],            // 48 keypad 8 Up
    [0x4900, 0x4939, 0x8400, 0],            // 49 keypad 9 PgUp
    [0x4A2D, 0x4A2D, 0x8E00, 0x4AF0],       // 4A keypad -
    [0x4B00, 0x4B34, 0x7300, 0],            // 4B keypad 4 Left
    [0x4CF0, 0x4C35, 0x8F00, 0],            // 4C keypad 5
    [0x4D00, 0x4D36, 0x7400, 0],            // 4D keypad 6 Right
    [0x4E2B, 0x4E2B, 0x9000, 0x4EF0],       // 4E keypad +
    [0x4F00, 0x4F31, 0x7500, 0],            // 4F keypad 1 End
    [0x5000, 0x5032, 0x9100, 0],            // 50 keypad 2 Down
    [0x5100, 0x5133, 0x7600, 0],            // 51 keypad 3 PgDn
    [0x5200, 0x5230, 0x9200, 0],            // 52 keypad 0 Ins
    [0x5300, 0x532E, 0x9300, 0],            // 53 keypad . Del
    [0, 0, 0, 0],                           // 54 SysRq
    [0, 0, 0, 0],                           // 55
    [0x565C, 0x567C, 0, 0],                 // 56 the 102nd key
    [0x8500, 0x8700, 0x8900, 0x8B00],       // 57 F11
    [0x8600, 0x8800, 0x8A00, 0x8C00],       // 58 F12
];

/// The grey keys (E0h-prefixed), columns as in [`KEYS`].
#[rustfmt::skip]
pub const GREY: [(u8, [u16; 4]); 12] = [
    (0x1C, [0xE00D, 0xE00D, 0xE00A, 0xA600]), // keypad Enter
    (0x35, [0xE02F, 0xE02F, 0x9500, 0xA400]), // keypad /
    (0x47, [0x47E0, 0x47E0, 0x77E0, 0x9700]), // Home
    (0x48, [0x48E0, 0x48E0, 0x8DE0, 0x9800]), // Up
    (0x49, [0x49E0, 0x49E0, 0x84E0, 0x9900]), // PgUp
    (0x4B, [0x4BE0, 0x4BE0, 0x73E0, 0x9B00]), // Left
    (0x4D, [0x4DE0, 0x4DE0, 0x74E0, 0x9D00]), // Right
    (0x4F, [0x4FE0, 0x4FE0, 0x75E0, 0x9F00]), // End
    (0x50, [0x50E0, 0x50E0, 0x91E0, 0xA000]), // Down
    (0x51, [0x51E0, 0x51E0, 0x76E0, 0xA100]), // PgDn
    (0x52, [0x52E0, 0x52E0, 0x92E0, 0xA200]), // Insert
    (0x53, [0x53E0, 0x53E0, 0x93E0, 0xA300]), // Delete
];

/// The key word a US keyboard produces for ASCII character `c` (the first
/// of normal, Shift, Ctrl columns that has it; scan code 0 when no key
/// does), for typing text into the buffer.
pub fn key_for_ascii(c: u8) -> u16 {
    (0..3)
        .flat_map(|col| KEYS.iter().map(move |row| row[col]))
        .find(|&k| k != 0 && k as u8 == c && k & 0xFF != 0)
        .unwrap_or(c as u16)
}

/// Sends the Caps/Num/Scroll Lock state to the keyboard's LEDs (command
/// EDh and its data byte) when 40:97h's LED bits differ from 40:17h's
/// toggles, and records them in 40:97h. The INT 16h services call it too,
/// so a program that changes 40:17h sees the LEDs follow, as on the AT.
pub fn update_leds(m: &mut Machine) {
    let want = (rd8(m, FLAGS1) >> 4) & f4::LEDS;
    let v = rd8(m, LED_FLAGS);
    if v & f4::LEDS == want {
        return;
    }
    wr8(m, LED_FLAGS, (v & !f4::LEDS) | want);
    m.out8(0x60, 0xED);
    m.out8(0x60, want);
}

/// The key at the head of the buffer (scan << 8 | ASCII), if any.
pub fn peek_key(m: &mut Machine) -> Option<u16> {
    let head = rd16(m, BUFFER_HEAD);
    let tail = rd16(m, BUFFER_TAIL);
    (head != tail).then(|| rd16(m, 0x400 + head as u32))
}

/// Removes and returns the key at the head of the buffer.
pub fn pop_key(m: &mut Machine) -> Option<u16> {
    let k = peek_key(m)?;
    let head = rd16(m, BUFFER_HEAD);
    let (start, end) = (rd16(m, BUFFER_START), rd16(m, BUFFER_END));
    let mut n = head + 2;
    if n >= end {
        n = start;
    }
    wr16(m, BUFFER_HEAD, n);
    Some(k)
}

/// Appends a key to the buffer; false when it is full.
pub fn push_key(m: &mut Machine, key: u16) -> bool {
    let tail = rd16(m, BUFFER_TAIL);
    let (start, end) = (rd16(m, BUFFER_START), rd16(m, BUFFER_END));
    let mut n = tail + 2;
    if n >= end {
        n = start;
    }
    if n == rd16(m, BUFFER_HEAD) {
        return false;
    }
    wr16(m, 0x400 + tail as u32, key);
    wr16(m, BUFFER_TAIL, n);
    true
}

/// Empties the buffer (head = tail = the buffer's start).
pub fn flush(m: &mut Machine) {
    let start = rd16(m, BUFFER_START);
    wr16(m, BUFFER_HEAD, start);
    wr16(m, BUFFER_TAIL, start);
}
