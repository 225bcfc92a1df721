//! The keyboard interrupt's translation (INT 09h, called by the ROM's
//! handler with the byte read from port 60h), as the IBM AT/PS/2 BIOS does
//! it for a 101/102-key keyboard in scan code set 1 (IBM PS/2 and PC BIOS
//! Interface Technical Reference, "Keyboard"; Ralf Brown's INT 09h and INT
//! 16h notes):
//!
//! - the shift flags at 40:17h/18h and 40:96h kept bit for bit (left and
//!   right Shift, Ctrl and Alt, the Caps/Num/Scroll Lock toggles and their
//!   "held" bits, Insert), the keyboard's LEDs (40:97h bits 0-2) sent with
//!   the EDh command whenever the toggles differ from them;
//! - every key's scan/ASCII word from one table ([`KEYS`], [`GREY`]):
//!   grey keys carry E0h in the ASCII byte (or the scan byte for keypad
//!   Enter and /), keys only the extended functions may return carry F0h
//!   (see [`crate::bios::int16`]);
//! - Alt + keypad digits enter a character code (40:19h);
//! - Ctrl-Break, Pause, Print Screen, SysRq, Ctrl-Alt-Del, and the INT 15h
//!   91h "key stored" post: what must run as guest code (INT 1Bh, INT 05h,
//!   INT 15h 85h/91h, the pause loop, the reset, the beep of a full
//!   buffer) is returned as an
//!   [`Action`] for the ROM handler to perform.

use crate::bios::int16::{flush, push_key};
use crate::mem::{rd8, wr16, wr8};
use hw::Machine;

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

/// What the ROM's INT 09h handler does after the translation (returned in
/// AH; the handler has sent the EOI first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Action {
    /// Nothing more.
    None = 0,
    /// Ctrl-Break: INT 1Bh.
    Break = 1,
    /// Print Screen: INT 05h.
    PrintScreen = 2,
    /// SysRq pressed: INT 15h AX=8500h.
    SysRqMake = 3,
    /// SysRq released: INT 15h AX=8501h.
    SysRqBreak = 4,
    /// A key entered the buffer: INT 15h AX=9102h (the "interrupt
    /// complete" post of the keyboard device).
    Stored = 5,
    /// Pause: loop with interrupts on until 40:18h bit 3 clears.
    Pause = 6,
    /// Ctrl-Alt-Del: 40:72h = 1234h and the CPU is reset through the
    /// 8042 (a real BIOS jumps to its reset code; tandem stops the run
    /// with "the program reset the machine").
    Reset = 7,
    /// The buffer was full: the key is dropped and the speaker beeps.
    Beep = 8,
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

/// Whether make code `code` (no E0h) is a letter, which Caps Lock shifts.
fn is_letter(code: u8) -> bool {
    matches!(code, 0x10..=0x19 | 0x1E..=0x26 | 0x2C..=0x32)
}

/// The digit of a keypad key (no E0h) for Alt + keypad entry.
fn keypad_digit(code: u8) -> Option<u8> {
    Some(match code {
        0x47 => 7,
        0x48 => 8,
        0x49 => 9,
        0x4B => 4,
        0x4C => 5,
        0x4D => 6,
        0x4F => 1,
        0x50 => 2,
        0x51 => 3,
        0x52 => 0,
        _ => return None,
    })
}

/// The key word a US keyboard produces for ASCII character `c` (the first
/// of normal, Shift, Ctrl columns that has it; scan code 0 when no key
/// does), for typing text into the buffer.
pub fn key_for_ascii(c: u8) -> u16 {
    (0..3)
        .flat_map(|col| KEYS.iter().map(move |row| row[col]))
        .find(|&k| k != 0 && k as u8 == c && k & 0xFF != 0)
        .unwrap_or(c as u16)
}

/// Handles a keyboard reply before the INT 15h 4Fh intercept, as the AT
/// BIOS does: ACK (FAh) and Resend (FEh) set 40:97h bits 4/5, an overrun
/// (00h or FFh) is dropped. True when `byte` was one of them (not a key).
pub fn reply(m: &mut Machine, byte: u8) -> bool {
    let bit = match byte {
        0xFA => f4::ACK,
        0xFE => f4::RESEND,
        0x00 | 0xFF => 0,
        _ => return false,
    };
    let v = rd8(m, LED_FLAGS);
    wr8(m, LED_FLAGS, v | bit);
    true
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

fn set(m: &mut Machine, a: u32, bit: u8, on: bool) {
    let v = rd8(m, a);
    wr8(m, a, if on { v | bit } else { v & !bit });
}

/// 40:17h bits 2 and 3 are the OR of the left and right Ctrl and Alt keys.
fn merge_ctrl_alt(m: &mut Machine) {
    let (l, r) = (rd8(m, FLAGS2), rd8(m, FLAGS3));
    set(
        m,
        FLAGS1,
        f1::CTRL,
        l & f2::LCTRL != 0 || r & f3::RCTRL != 0,
    );
    set(m, FLAGS1, f1::ALT, l & f2::LALT != 0 || r & f3::RALT != 0);
}

fn stored(m: &mut Machine, key: u16) -> Action {
    if push_key(m, key) {
        Action::Stored
    } else {
        Action::Beep
    }
}

/// Translates one byte from the keyboard (after the INT 15h 4Fh intercept)
/// into the shift flags and the buffer; returns what the ROM handler does
/// next.
pub fn scan_code(m: &mut Machine, sc: u8) -> Action {
    let a = translate(m, sc);
    update_leds(m);
    a
}

/// One key event after its prefixes, with the shift flags as they were
/// before it.
struct Key {
    /// The make code (bit 7 clear).
    code: u8,
    /// It came after E0h (a grey key).
    e0: bool,
    /// Pressed (not released).
    make: bool,
    /// 40:17h.
    fl1: u8,
    /// 40:18h.
    fl2: u8,
}

impl Key {
    fn ctrl(&self) -> bool {
        self.fl1 & f1::CTRL != 0
    }

    fn alt(&self) -> bool {
        self.fl1 & f1::ALT != 0
    }
}

/// A byte in four stages, each of which may consume it: the prefixes and
/// Pause, the shift keys, the lock and system keys, and last a keystroke
/// for the buffer.
fn translate(m: &mut Machine, sc: u8) -> Action {
    let fl3 = rd8(m, FLAGS3);
    if let Some(a) = prefix(m, sc, fl3) {
        return a;
    }
    wr8(m, FLAGS3, fl3 & !f3::E0);
    let k = Key {
        code: sc & 0x7F,
        e0: fl3 & f3::E0 != 0,
        make: sc & 0x80 == 0,
        fl1: rd8(m, FLAGS1),
        fl2: rd8(m, FLAGS2),
    };
    if let Some(a) = modifier(m, &k) {
        return a;
    }
    if let Some(a) = lock_or_system(m, &k) {
        return a;
    }
    keystroke(m, &k)
}

/// The E0h and E1h prefixes (kept in 40:96h) and the byte after E1h (only
/// Pause sends it).
fn prefix(m: &mut Machine, sc: u8, fl3: u8) -> Option<Action> {
    match sc {
        0xE0 => {
            wr8(m, FLAGS3, (fl3 | f3::E0) & !f3::E1);
            return Some(Action::None);
        }
        0xE1 => {
            wr8(m, FLAGS3, (fl3 | f3::E1) & !f3::E0);
            return Some(Action::None);
        }
        _ => {}
    }
    if fl3 & f3::E1 == 0 {
        return None;
    }
    // Pause sends E1 1D 45 E1 9D C5: the 1D/9D keep the E1 state, 45
    // pauses, C5 is nothing.
    let code = sc & 0x7F;
    if code == 0x1D {
        return Some(Action::None);
    }
    wr8(m, FLAGS3, fl3 & !(f3::E0 | f3::E1));
    Some(if code == 0x45 && sc & 0x80 == 0 {
        pause(m)
    } else {
        Action::None
    })
}

/// Shift, Ctrl and Alt (left and right), and the character entered with
/// Alt + keypad when Alt is released.
fn modifier(m: &mut Machine, k: &Key) -> Option<Action> {
    let make = k.make;
    match (k.code, k.e0) {
        // The keyboard's "fake shifts" around grey keys.
        (0x2A | 0x36, true) => {}
        (0x2A, false) => set(m, FLAGS1, f1::LSHIFT, make),
        (0x36, false) => set(m, FLAGS1, f1::RSHIFT, make),
        (0x1D, e0) => {
            if e0 {
                set(m, FLAGS3, f3::RCTRL, make);
            } else {
                set(m, FLAGS2, f2::LCTRL, make);
            }
            merge_ctrl_alt(m);
        }
        (0x38, e0) => {
            if e0 {
                set(m, FLAGS3, f3::RALT, make);
            } else {
                set(m, FLAGS2, f2::LALT, make);
            }
            merge_ctrl_alt(m);
            if !make {
                // Releasing Alt enters the character typed on the keypad.
                let v = rd8(m, ALT_INPUT);
                if v != 0 {
                    wr8(m, ALT_INPUT, 0);
                    return Some(stored(m, v as u16));
                }
            }
        }
        _ => return None,
    }
    Some(Action::None)
}

/// Ctrl-Break, Pause, the lock toggles, SysRq, key releases, the key that
/// ends a pause, Ctrl-Alt-Del and Print Screen.
fn lock_or_system(m: &mut Machine, k: &Key) -> Option<Action> {
    let (code, e0, make, fl1, fl2) = (k.code, k.e0, k.make, k.fl1, k.fl2);
    // Ctrl-Break (Ctrl + Scroll Lock, or the Break key's E0 46).
    if code == 0x46 && make && k.ctrl() {
        if fl2 & f2::PAUSE != 0 {
            set(m, FLAGS2, f2::PAUSE, false);
            return Some(Action::None);
        }
        flush(m);
        wr8(m, BREAK_FLAG, 0x80);
        push_key(m, 0x0000);
        return Some(Action::Break);
    }
    // Ctrl-Num Lock is Pause on the 84-key keyboard.
    if code == 0x45 && make && k.ctrl() && !e0 && fl2 & f2::PAUSE == 0 {
        return Some(pause(m));
    }
    // Toggles: only the first make of a held key toggles.
    let toggle = match (code, e0) {
        (0x3A, false) => Some((f1::CAPS, f2::CAPS)),
        (0x45, false) => Some((f1::NUM, f2::NUM)),
        (0x46, false) => Some((f1::SCROLL, f2::SCROLL)),
        _ => None,
    };
    if let Some((on, held)) = toggle {
        if make {
            if fl2 & held == 0 {
                wr8(m, FLAGS2, fl2 | held);
                wr8(m, FLAGS1, fl1 ^ on);
            }
        } else {
            wr8(m, FLAGS2, fl2 & !held);
        }
        return Some(Action::None);
    }
    if code == 0x54 && !e0 {
        // SysRq (Alt + Print Screen).
        return Some(if !make {
            wr8(m, FLAGS2, fl2 & !f2::SYSRQ);
            Action::SysRqBreak
        } else if fl2 & f2::SYSRQ != 0 {
            Action::None
        } else {
            wr8(m, FLAGS2, fl2 | f2::SYSRQ);
            Action::SysRqMake
        });
    }
    if !make {
        if code == 0x52 {
            wr8(m, FLAGS2, fl2 & !f2::INSERT);
        }
        return Some(Action::None);
    }
    // Any other key ends a pause, and is not a keystroke.
    if fl2 & f2::PAUSE != 0 {
        wr8(m, FLAGS2, fl2 & !f2::PAUSE);
        return Some(Action::None);
    }
    if k.ctrl() && k.alt() && code == 0x53 {
        wr16(m, RESET_FLAG, 0x1234);
        return Some(Action::Reset);
    }
    if e0 && code == 0x37 {
        return Some(if k.ctrl() {
            stored(m, 0x7200)
        } else {
            Action::PrintScreen
        });
    }
    None
}

/// A key pressed: its word from [`KEYS`] or [`GREY`] in the column the
/// shift state picks (Num Lock and Caps Lock swap normal and Shift), into
/// the buffer; a keypad digit with Alt held goes to 40:19h instead.
fn keystroke(m: &mut Machine, k: &Key) -> Action {
    let (code, fl1, fl2) = (k.code, k.fl1, k.fl2);
    let shift = fl1 & (f1::LSHIFT | f1::RSHIFT) != 0;
    let column = if k.alt() {
        3
    } else if k.ctrl() {
        2
    } else {
        shift as usize
    };
    let key = if k.e0 {
        match GREY.iter().find(|g| g.0 == code) {
            Some(g) => g.1[column],
            None => return Action::None,
        }
    } else {
        let Some(row) = KEYS.get(code as usize) else {
            return Action::None;
        };
        let mut col = column;
        if let Some(d) = keypad_digit(code) {
            if k.alt() {
                let v = rd8(m, ALT_INPUT);
                wr8(m, ALT_INPUT, v.wrapping_mul(10).wrapping_add(d));
                return Action::None;
            }
            if !k.ctrl() && fl1 & f1::NUM != 0 {
                col ^= 1;
            }
        } else if col < 2 && is_letter(code) && fl1 & f1::CAPS != 0 {
            col ^= 1;
        }
        row[col]
    };
    if key == 0 {
        return Action::None;
    }
    if code == 0x52 && (key == 0x5200 || key == 0x52E0) {
        // Insert toggles once per press (a held Insert does not repeat).
        if fl2 & f2::INSERT != 0 {
            return Action::None;
        }
        wr8(m, FLAGS2, fl2 | f2::INSERT);
        set(m, FLAGS1, f1::INSERT, fl1 & f1::INSERT == 0);
    }
    stored(m, key)
}

fn pause(m: &mut Machine) -> Action {
    set(m, FLAGS2, f2::PAUSE, true);
    Action::Pause
}
