//! INT 16h keyboard services of an AT/PS/2 BIOS with a 101-key keyboard
//! (IBM PS/2 and PC BIOS Interface Technical Reference, "Keyboard
//! Services"), on the keyboard buffer and shift flags of
//! [`crate::bios::keyboard`]. The words in the buffer come from
//! [`crate::bios::int09`].

use crate::bios::keyboard::{
    f2, f3, peek_key, pop_key, push_key, update_leds, FLAGS1, FLAGS2, FLAGS3,
};
use crate::diag::Diagnostics;
use crate::mem::{self, rd8, Regs};
use crate::rom::{self, Flow};
use hw::Machine;

/// INT 16h 09h: 0300h, 0305h, 0306h, 0Ah and 10h-12h are supported (not
/// 0304h, nor the 122-key functions 20h-22h).
const CAPABILITIES: u8 = 0x3D;
/// INT 16h 0Ah: an MF2 keyboard behind a translating 8042 (the ID bytes
/// ABh 41h the keyboard answers to F2h).
const KEYBOARD_ID: u16 = 0x41AB;
/// The keyboard's power-on typematic setting: 500 ms delay (1), 10.9
/// characters per second (0Bh), as command F3h's data byte.
pub const TYPEMATIC_DEFAULT: u8 = 0x2B;

/// What INT 16h keeps outside guest memory.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Keyboard {
    /// The keyboard's typematic setting (INT 16h 03h), as command F3h's
    /// data byte.
    pub(crate) typematic: u8,
    /// 00h/10h is waiting for a key (its INT 15h 9002h is posted).
    pub(crate) key_wait: bool,
}

impl Default for Keyboard {
    fn default() -> Self {
        Keyboard {
            typematic: TYPEMATIC_DEFAULT,
            key_wait: false,
        }
    }
}

/// Removes and returns the key at the head of the buffer as function 10h
/// returns it (what MS-DOS's CON driver reads on an enhanced keyboard).
pub fn pop_extended(m: &mut Machine) -> Option<u16> {
    pop_key(m).map(extended)
}

/// Whether a buffer word is one only the extended functions (10h, 11h)
/// return: an F0h marker, or a scan code past the 84-key keyboard's.
fn extended_only(k: u16) -> bool {
    let (scan, ascii) = ((k >> 8) as u8, k as u8);
    scan != 0 && (ascii == 0xF0 || (scan > 0x84 && scan != 0xE0 && (ascii == 0 || ascii == 0xE0)))
}

/// The word the standard functions (00h, 01h) return for a buffer word:
/// grey keys as their 84-key twins (E0h ASCII becomes 00h; keypad Enter
/// and / get the main keys' scan codes).
fn standard(k: u16) -> u16 {
    let (scan, ascii) = ((k >> 8) as u8, k as u8);
    if scan == 0xE0 {
        let s = if ascii == 0x2F { 0x35 } else { 0x1C };
        (s as u16) << 8 | ascii as u16
    } else if ascii == 0xE0 && scan != 0 {
        k & 0xFF00
    } else {
        k
    }
}

/// The word the extended functions (10h, 11h) return: the F0h marker
/// becomes 00h.
fn extended(k: u16) -> u16 {
    if k as u8 == 0xF0 && k >> 8 != 0 {
        k & 0xFF00
    } else {
        k
    }
}

/// The key the standard functions see at the head of the buffer,
/// discarding the extended-only ones before it.
fn peek_standard(m: &mut Machine) -> Option<u16> {
    loop {
        let k = peek_key(m)?;
        if !extended_only(k) {
            return Some(standard(k));
        }
        pop_key(m);
    }
}

/// INT 16h 12h's AH: left Ctrl/Alt (40:18h bits 0-1), right Ctrl/Alt
/// (40:96h bits 2-3), Scroll/Num/Caps Lock held (40:18h bits 4-6), SysRq
/// held (40:18h bit 2).
fn extended_shift(m: &mut Machine) -> u8 {
    let (l, r) = (rd8(m, FLAGS2), rd8(m, FLAGS3));
    (l & (f2::LCTRL | f2::LALT))
        | (r & (f3::RCTRL | f3::RALT))
        | (l & (f2::SCROLL | f2::NUM | f2::CAPS))
        | if l & f2::SYSRQ != 0 { 0x80 } else { 0 }
}

/// Sends a typematic setting (command F3h) to the keyboard.
fn set_typematic(kb: &mut Keyboard, m: &mut Machine, v: u8) {
    kb.typematic = v & 0x7F;
    m.out8(0x60, 0xF3);
    m.out8(0x60, v & 0x7F);
}

/// No key yet for 00h/10h: the first time, INT 15h 9002h ("keyboard
/// busy", for a multitasker) is posted on the way to the idle loop, as the
/// AT BIOS does before it waits.
fn wait_key(kb: &mut Keyboard, m: &mut Machine) -> Flow {
    if kb.key_wait {
        return rom::wait(m, 0x16);
    }
    kb.key_wait = true;
    m.cpu.regs.set_sreg(emu::SegReg::CS, rom::SEG);
    m.cpu.regs.ip = rom::KEY_WAIT as u32;
    Flow::Continue
}

/// Services INT 16h.
pub fn service(kb: &mut Keyboard, diag: &mut Diagnostics, m: &mut Machine) -> Flow {
    update_leds(m);
    let ah = m.ah();
    match ah {
        0x00 => match peek_standard(m) {
            Some(k) => {
                pop_key(m);
                kb.key_wait = false;
                m.set_ax(k);
            }
            None => return wait_key(kb, m),
        },
        0x01 => match peek_standard(m) {
            Some(k) => {
                m.set_ax(k);
                mem::set_zf(m, false);
            }
            None => mem::set_zf(m, true),
        },
        0x10 => match pop_key(m) {
            Some(k) => {
                kb.key_wait = false;
                m.set_ax(extended(k));
            }
            None => return wait_key(kb, m),
        },
        0x11 => match peek_key(m) {
            Some(k) => {
                m.set_ax(extended(k));
                mem::set_zf(m, false);
            }
            None => mem::set_zf(m, true),
        },
        0x02 => {
            let f = rd8(m, FLAGS1);
            m.set_al(f);
        }
        0x12 => {
            let f = rd8(m, FLAGS1);
            let h = extended_shift(m);
            m.set_ax((h as u16) << 8 | f as u16);
        }
        0x03 => match m.al() {
            0x00 => set_typematic(kb, m, TYPEMATIC_DEFAULT),
            0x05 => {
                let v = (m.bh() & 3) << 5 | (m.bl() & 0x1F);
                set_typematic(kb, m, v);
            }
            0x06 => {
                m.set_bl(kb.typematic & 0x1F);
                m.set_bh(kb.typematic >> 5 & 3);
            }
            al => diag.unimplemented(0x16, ah, al),
        },
        0x05 => {
            let ok = push_key(m, m.cx());
            m.set_al(if ok { 0 } else { 1 });
        }
        0x09 => m.set_al(CAPABILITIES),
        0x0A => m.set_bx(KEYBOARD_ID),
        _ => {
            let al = m.al();
            diag.unimplemented(0x16, ah, al);
        }
    }
    Flow::Continue
}
