//! The console's state outside guest memory: the guest's text for the
//! host's stdout, the line being typed for INT 21h 0Ah or a cooked read
//! from CON, the rest of such a line not read yet, and the text queued to
//! type on the keyboard (a headless run's stdin). The screen itself is the
//! VGA's memory; writing a character to both is
//! [`crate::int21::console::con_out`].

use std::collections::VecDeque;

use hw::Machine;

use crate::bios::keyboard::{key_for_ascii, peek_key, push_key};

/// The console: text for the host, the line editor and typed input.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Console {
    /// The guest's text for the host's stdout (CR LF as LF).
    out: Vec<u8>,
    /// A CR was written; the next byte decides whether it goes out (not
    /// before an LF).
    pending_cr: bool,
    /// The line being typed (INT 21h 0Ah, a cooked read from CON).
    pub(crate) line: Vec<u8>,
    /// Text queued to type, one key at a time.
    input: VecDeque<u8>,
    /// The bytes of a cooked line from CON that reads have not taken yet.
    pub(crate) con_pending: VecDeque<u8>,
}

impl Console {
    /// Queues text to type on the keyboard (a headless run's stdin): one
    /// key enters the BIOS buffer whenever it is empty and a keyboard
    /// service is called ([`Console::feed_keyboard`]). LF (or CR LF)
    /// becomes Enter.
    pub fn type_text(&mut self, text: &[u8]) {
        let mut prev = 0u8;
        for &c in text {
            if !(c == b'\n' && prev == b'\r') {
                self.input.push_back(if c == b'\n' { b'\r' } else { c });
            }
            prev = c;
        }
    }

    /// Puts the next typed key into the BIOS keyboard buffer if the buffer
    /// is empty.
    pub fn feed_keyboard(&mut self, m: &mut Machine) {
        if peek_key(m).is_none() {
            if let Some(c) = self.input.pop_front() {
                push_key(m, key_for_ascii(c));
            }
        }
    }

    /// Appends a byte to the text for the host's stdout (CR LF becomes LF).
    pub fn emit(&mut self, c: u8) {
        if self.pending_cr {
            self.pending_cr = false;
            if c != b'\n' {
                self.out.push(b'\r');
            }
        }
        if c == b'\r' {
            self.pending_cr = true;
        } else {
            self.out.push(c);
        }
    }

    /// Writes out a CR still held back (the top-level program ended).
    pub fn flush_cr(&mut self) {
        if self.pending_cr {
            self.pending_cr = false;
            self.out.push(b'\r');
        }
    }

    /// Takes the guest text written so far (for the host's stdout).
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }
}
