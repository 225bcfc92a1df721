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
//! - every key's scan/ASCII word from one table ([`KEYS`], [`GREY`] in
//!   [`crate::bios::keyboard`]):
//!   grey keys carry E0h in the ASCII byte (or the scan byte for keypad
//!   Enter and /), keys only the extended functions may return carry F0h
//!   (see [`crate::bios::int16`]);
//! - Alt + keypad digits enter a character code (40:19h);
//! - Ctrl-Break, Pause, Print Screen, SysRq, Ctrl-Alt-Del, and the INT 15h
//!   91h "key stored" post: what must run as guest code (INT 1Bh, INT 05h,
//!   INT 15h 85h/91h, the pause loop, the reset, the beep of a full
//!   buffer) is returned as an
//!   [`Action`] for the ROM handler to perform.

use crate::bios::keyboard::{
    f1, f2, f3, f4, flush, push_key, update_leds, ALT_INPUT, BREAK_FLAG, FLAGS1, FLAGS2, FLAGS3,
    GREY, KEYS, LED_FLAGS, RESET_FLAG,
};
use crate::mem::{rd8, wr16, wr8};
use hw::Machine;

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
