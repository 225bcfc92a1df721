//! INT 16h keyboard services and the scan-code translation the INT 09h
//! handler calls (US layout, scan code set 1), on the BIOS data area's
//! buffer (40:1Ah head, 40:1Ch tail, 40:1Eh-3Dh) and shift flags (40:17h).

use crate::mem::{self, rd16, rd8, wr16, wr8, Regs};
use crate::{Dos, Flow};
use hw::Machine;

/// (unshifted, shifted) ASCII for scan codes 00h-39h; 0 = none.
const ASCII: [(u8, u8); 0x3A] = [
    (0, 0),
    (0x1B, 0x1B),
    (b'1', b'!'),
    (b'2', b'@'),
    (b'3', b'#'),
    (b'4', b'$'),
    (b'5', b'%'),
    (b'6', b'^'),
    (b'7', b'&'),
    (b'8', b'*'),
    (b'9', b'('),
    (b'0', b')'),
    (b'-', b'_'),
    (b'=', b'+'),
    (8, 8),
    (9, 0),
    (b'q', b'Q'),
    (b'w', b'W'),
    (b'e', b'E'),
    (b'r', b'R'),
    (b't', b'T'),
    (b'y', b'Y'),
    (b'u', b'U'),
    (b'i', b'I'),
    (b'o', b'O'),
    (b'p', b'P'),
    (b'[', b'{'),
    (b']', b'}'),
    (b'\r', b'\r'),
    (0, 0),
    (b'a', b'A'),
    (b's', b'S'),
    (b'd', b'D'),
    (b'f', b'F'),
    (b'g', b'G'),
    (b'h', b'H'),
    (b'j', b'J'),
    (b'k', b'K'),
    (b'l', b'L'),
    (b';', b':'),
    (b'\'', b'"'),
    (b'`', b'~'),
    (0, 0),
    (b'\\', b'|'),
    (b'z', b'Z'),
    (b'x', b'X'),
    (b'c', b'C'),
    (b'v', b'V'),
    (b'b', b'B'),
    (b'n', b'N'),
    (b'm', b'M'),
    (b',', b'<'),
    (b'.', b'>'),
    (b'/', b'?'),
    (0, 0),
    (b'*', b'*'),
    (0, 0),
    (b' ', b' '),
];

const FLAGS: u32 = 0x417;
const E0_FLAG: u32 = 0x496;

/// The key at the head of the buffer (scan << 8 | ASCII), if any.
pub fn peek_key(m: &mut Machine) -> Option<u16> {
    let head = rd16(m, 0x41A);
    let tail = rd16(m, 0x41C);
    (head != tail).then(|| rd16(m, 0x400 + head as u32))
}

/// Removes and returns the key at the head of the buffer.
pub fn pop_key(m: &mut Machine) -> Option<u16> {
    let k = peek_key(m)?;
    let head = rd16(m, 0x41A);
    let (start, end) = (rd16(m, 0x480), rd16(m, 0x482));
    let mut n = head + 2;
    if n >= end {
        n = start;
    }
    wr16(m, 0x41A, n);
    Some(k)
}

/// Appends a key to the buffer; false when it is full.
pub fn push_key(m: &mut Machine, key: u16) -> bool {
    let tail = rd16(m, 0x41C);
    let (start, end) = (rd16(m, 0x480), rd16(m, 0x482));
    let mut n = tail + 2;
    if n >= end {
        n = start;
    }
    if n == rd16(m, 0x41A) {
        return false;
    }
    wr16(m, 0x400 + tail as u32, key);
    wr16(m, 0x41C, n);
    true
}

/// The buffer word (scan << 8 | ASCII) the US keyboard produces for an
/// ASCII character (scan code 0 when no key does).
pub fn key_for_ascii(c: u8) -> u16 {
    let scan = ASCII
        .iter()
        .position(|&(lo, hi)| c != 0 && (lo == c || hi == c))
        .or_else(|| {
            // Control characters: Ctrl plus the letter.
            (1..=26)
                .contains(&c)
                .then(|| ASCII.iter().position(|&(lo, _)| lo == c + 0x60))
                .flatten()
        })
        .unwrap_or(0);
    (scan as u16) << 8 | c as u16
}

/// Translates one scan code (from INT 09h) into the shift flags and the
/// buffer.
pub fn scan_code(m: &mut Machine, sc: u8) {
    if sc == 0xE0 || sc == 0xE1 {
        let f = rd8(m, E0_FLAG);
        wr8(m, E0_FLAG, f | 0x02);
        return;
    }
    let ext = rd8(m, E0_FLAG) & 0x02 != 0;
    let f = rd8(m, E0_FLAG);
    wr8(m, E0_FLAG, f & !0x02);
    let make = sc & 0x80 == 0;
    let code = sc & 0x7F;
    let mut flags = rd8(m, FLAGS);
    let bit = match code {
        0x36 => 0x01,
        0x2A if !ext => 0x02,
        0x1D => 0x04,
        0x38 => 0x08,
        _ => 0,
    };
    if bit != 0 {
        flags = if make { flags | bit } else { flags & !bit };
        wr8(m, FLAGS, flags);
        return;
    }
    if !make {
        return;
    }
    match code {
        0x3A => {
            wr8(m, FLAGS, flags ^ 0x40);
            return;
        }
        0x45 => {
            wr8(m, FLAGS, flags ^ 0x20);
            return;
        }
        0x46 => {
            wr8(m, FLAGS, flags ^ 0x10);
            return;
        }
        _ => {}
    }
    let shift = flags & 0x03 != 0;
    let ctrl = flags & 0x04 != 0;
    let alt = flags & 0x08 != 0;
    let caps = flags & 0x40 != 0;
    let key: u16 = if (code as usize) < ASCII.len() && !ext || code == 0x1C || code == 0x35 {
        let (lo, hi) = ASCII.get(code as usize).copied().unwrap_or((0, 0));
        let letter = lo.is_ascii_lowercase();
        let mut c = if shift ^ (caps && letter) { hi } else { lo };
        if ext && code == 0x35 {
            c = b'/';
        }
        if alt {
            c = 0;
        } else if ctrl {
            c = if letter { lo & 0x1F } else { 0 };
        }
        (code as u16) << 8 | c as u16
    } else {
        // Function keys, cursor keys, keypad: ASCII 0 (E0h for the
        // extended copies).
        let c = if ext { 0xE0 } else { 0 };
        let code = if shift && (0x3B..=0x44).contains(&code) {
            code + 0x19
        } else {
            code
        };
        (code as u16) << 8 | c
    };
    push_key(m, key);
}

/// Services INT 16h.
pub fn service(dos: &mut Dos, m: &mut Machine) -> Flow {
    let ah = m.ah();
    match ah {
        0x00 | 0x10 => match pop_key(m) {
            Some(k) => m.set_ax(if ah == 0x00 { strip_e0(k) } else { k }),
            None => return dos.wait(m, 0x16),
        },
        0x01 | 0x11 => match peek_key(m) {
            Some(k) => {
                m.set_ax(if ah == 0x01 { strip_e0(k) } else { k });
                mem::set_zf(m, false);
            }
            None => mem::set_zf(m, true),
        },
        0x02 => {
            let f = rd8(m, FLAGS);
            m.set_al(f);
        }
        0x12 => {
            let f = rd16(m, FLAGS);
            m.set_ax(f);
        }
        0x03 => {}
        0x05 => {
            let ok = push_key(m, m.cx());
            m.set_al(if ok { 0 } else { 1 });
        }
        _ => {
            let al = m.al();
            dos.unimplemented(0x16, ah, al);
        }
    }
    Flow::Continue
}

fn strip_e0(k: u16) -> u16 {
    if k & 0xFF == 0xE0 {
        k & 0xFF00
    } else {
        k
    }
}
