//! Intel 8042 keyboard controller (ports 60h/64h) with the keyboard behind
//! it, IRQ1, and the output port's A20 and reset lines.
//!
//! The keyboard speaks scan code set 1 (what the 8042 delivers with the
//! command byte's translate bit set, as every PC BIOS leaves it). Key
//! presses enter through [`Kbc::push_key`] stamped with the CPU cycle at
//! which they happen; the keyboard sends one byte at a time, each taking
//! [`Kbc::byte_cycles`] on the serial line, and only while the output
//! buffer is empty (the 8042 holds the clock line low while OBF is set).

use std::collections::VecDeque;

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};
use crate::scheduler::Event;

/// Status register bits (port 64h read).
pub mod status {
    /// Output buffer full: port 60h has a byte.
    pub const OBF: u8 = 0x01;
    /// Input buffer full (never set: commands are taken at once).
    pub const IBF: u8 = 0x02;
    /// System flag (command byte bit 2; set after a good self-test).
    pub const SYS: u8 = 0x04;
    /// The last write went to port 64h (a command).
    pub const CMD: u8 = 0x08;
    /// Keyboard not inhibited (the keylock switch).
    pub const UNLOCKED: u8 = 0x10;
}

/// A key as scan code set 1 knows it: the make code and whether it has the
/// E0h prefix (the "grey" keys of the 101-key keyboard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Key {
    /// Set 1 make code (the break code is this | 80h).
    pub code: u8,
    /// E0h-prefixed extended key.
    pub extended: bool,
}

impl Key {
    /// A plain key.
    pub const fn new(code: u8) -> Key {
        Key {
            code,
            extended: false,
        }
    }
    /// An E0h-prefixed key.
    pub const fn ext(code: u8) -> Key {
        Key {
            code,
            extended: true,
        }
    }
    /// Escape.
    pub const ESC: Key = Key::new(0x01);
    /// Enter (main).
    pub const ENTER: Key = Key::new(0x1C);
    /// Space bar.
    pub const SPACE: Key = Key::new(0x39);
    /// Left Ctrl.
    pub const LCTRL: Key = Key::new(0x1D);
    /// Right Ctrl (E0 1D).
    pub const RCTRL: Key = Key::ext(0x1D);
    /// Left Shift.
    pub const LSHIFT: Key = Key::new(0x2A);
    /// Left Alt.
    pub const LALT: Key = Key::new(0x38);
    /// Cursor up (E0 48).
    pub const UP: Key = Key::ext(0x48);
    /// Cursor down (E0 50).
    pub const DOWN: Key = Key::ext(0x50);
    /// Cursor left (E0 4B).
    pub const LEFT: Key = Key::ext(0x4B);
    /// Cursor right (E0 4D).
    pub const RIGHT: Key = Key::ext(0x4D);
    /// Keypad Enter (E0 1C).
    pub const KP_ENTER: Key = Key::ext(0x1C);
    /// The Pause key (no break code; see [`Key::bytes`]).
    pub const PAUSE: Key = Key::ext(0x45);

    /// The bytes the keyboard sends for a press (`down`) or release, in
    /// set 1. Pause sends E1 1D 45 E1 9D C5 on press and nothing on release.
    pub fn bytes(self, down: bool) -> Vec<u8> {
        if self == Key::PAUSE {
            return if down {
                vec![0xE1, 0x1D, 0x45, 0xE1, 0x9D, 0xC5]
            } else {
                Vec::new()
            };
        }
        let c = if down { self.code } else { self.code | 0x80 };
        if self.extended {
            vec![0xE0, c]
        } else {
            vec![c]
        }
    }
}

/// One byte on its way from the keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
struct TxByte {
    /// The cycle from which it may be sent.
    at: u64,
    byte: u8,
    /// A scan code (dropped while scanning is disabled), not a reply.
    scancode: bool,
}

/// The 8042 and the keyboard.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Kbc {
    command_byte: u8,
    output_port: u8,
    out_buf: Option<u8>,
    last_was_command: bool,
    /// A controller command waiting for its data byte on port 60h.
    pending_cmd: Option<u8>,
    /// Controller replies, ahead of keyboard bytes.
    ctrl_out: VecDeque<u8>,
    /// Keyboard bytes in order of sending.
    tx: VecDeque<TxByte>,
    /// The keyboard may send its next byte from this cycle on.
    tx_ready_at: u64,
    /// Cycles one byte takes on the keyboard's serial line.
    byte_cycles: u64,
    /// A keyboard command waiting for its parameter (EDh, F0h, F3h).
    kbd_expect: Option<u8>,
    scanning: bool,
    last_sent: u8,
    irq1: bool,
    reset_pulse: bool,
    now: u64,
    /// The keyboard's LEDs (command EDh: bit 0 Scroll, 1 Num, 2 Caps Lock).
    leds: u8,
}

impl Kbc {
    /// A controller after the BIOS has set it up: command byte 45h
    /// (translate, system flag, IRQ1 on), A20 off, scanning on. One byte
    /// takes `byte_cycles` CPU cycles to arrive (about 1 ms).
    pub fn new(byte_cycles: u64) -> Self {
        Kbc {
            command_byte: 0x45,
            output_port: 0x01,
            out_buf: None,
            last_was_command: false,
            pending_cmd: None,
            ctrl_out: VecDeque::new(),
            tx: VecDeque::new(),
            tx_ready_at: 0,
            byte_cycles: byte_cycles.max(1),
            kbd_expect: None,
            scanning: true,
            last_sent: 0,
            irq1: false,
            reset_pulse: false,
            now: 0,
            leds: 0,
        }
    }

    /// Cycles per keyboard byte.
    pub fn byte_cycles(&self) -> u64 {
        self.byte_cycles
    }

    /// The keyboard's LEDs as the last EDh command set them (bit 0 Scroll,
    /// 1 Num, 2 Caps Lock).
    pub fn leds(&self) -> u8 {
        self.leds
    }

    /// The IRQ1 line (output buffer full with the interrupt enabled).
    pub fn irq1(&self) -> bool {
        self.irq1
    }

    /// The output port's A20 bit (bit 1).
    pub fn a20(&self) -> bool {
        self.output_port & 0x02 != 0
    }

    /// True once after the controller pulsed the CPU reset line (output
    /// port bit 0 low); reading clears it.
    pub fn take_reset(&mut self) -> bool {
        std::mem::take(&mut self.reset_pulse)
    }

    /// The command byte (read with command 20h).
    pub fn command_byte(&self) -> u8 {
        self.command_byte
    }

    /// Queues a key press or release happening at `cycle`.
    pub fn push_key(&mut self, cycle: u64, key: Key, down: bool) {
        self.push_scancodes(cycle, &key.bytes(down));
    }

    /// Queues raw scan code bytes the keyboard sends from `cycle` on (kept
    /// in cycle order; equal cycles keep their order of arrival).
    pub fn push_scancodes(&mut self, cycle: u64, bytes: &[u8]) {
        let pos = self.tx.iter().position(|b| b.at > cycle);
        let pos = pos.unwrap_or(self.tx.len());
        for (i, &byte) in bytes.iter().enumerate() {
            self.tx.insert(
                pos + i,
                TxByte {
                    at: cycle,
                    byte,
                    scancode: true,
                },
            );
        }
    }

    fn interface_enabled(&self) -> bool {
        self.command_byte & 0x10 == 0
    }

    fn load_obf(&mut self, v: u8) {
        self.out_buf = Some(v);
        self.irq1 = self.command_byte & 0x01 != 0;
    }

    /// Moves the next byte into the output buffer if one is due by `now`.
    pub fn advance_to(&mut self, now: u64) {
        self.now = self.now.max(now);
        if self.out_buf.is_some() {
            return;
        }
        if let Some(v) = self.ctrl_out.pop_front() {
            self.load_obf(v);
            return;
        }
        if !self.interface_enabled() {
            return;
        }
        while let Some(b) = self.tx.front().copied() {
            let t = b.at.max(self.tx_ready_at);
            if t > self.now {
                return;
            }
            self.tx.pop_front();
            if b.scancode && !self.scanning {
                continue;
            }
            self.last_sent = b.byte;
            self.load_obf(b.byte);
            return;
        }
    }

    /// The cycle at which the next keyboard byte lands in the output
    /// buffer, if one can.
    pub fn next_event(&self) -> Option<u64> {
        if self.out_buf.is_some() || !self.interface_enabled() {
            return None;
        }
        self.tx.front().map(|b| b.at.max(self.tx_ready_at))
    }

    /// Port 64h read: the status register.
    pub fn read_status(&self) -> u8 {
        let mut s = status::UNLOCKED;
        if self.out_buf.is_some() {
            s |= status::OBF;
        }
        if self.command_byte & 0x04 != 0 {
            s |= status::SYS;
        }
        if self.last_was_command {
            s |= status::CMD;
        }
        s
    }

    /// Port 60h read: the output buffer (the last byte again when empty).
    pub fn read_data(&mut self) -> u8 {
        match self.out_buf.take() {
            Some(v) => {
                self.irq1 = false;
                self.last_sent = v;
                self.tx_ready_at = self.now + self.byte_cycles;
                self.advance_to(self.now);
                v
            }
            None => self.last_sent,
        }
    }

    fn reply(&mut self, v: u8) {
        self.ctrl_out.push_back(v);
        self.advance_to(self.now);
    }

    fn kbd_reply(&mut self, bytes: &[u8]) {
        // Replies follow the command byte's own transfer.
        let at = self.now + self.byte_cycles;
        let pos = self.tx.iter().position(|b| b.scancode);
        let pos = pos.unwrap_or(self.tx.len());
        for (i, &byte) in bytes.iter().enumerate() {
            self.tx.insert(
                pos + i,
                TxByte {
                    at,
                    byte,
                    scancode: false,
                },
            );
        }
    }

    /// Port 64h write: a controller command.
    pub fn write_command(&mut self, cmd: u8) {
        self.last_was_command = true;
        self.pending_cmd = None;
        match cmd {
            0x20 => self.reply(self.command_byte),
            0x60 | 0xD1 | 0xD2 | 0xD3 | 0xD4 => self.pending_cmd = Some(cmd),
            0xA7 => self.command_byte |= 0x20,
            0xA8 => self.command_byte &= !0x20,
            0xA9 => self.reply(0x00),
            0xAA => {
                // Self-test passed: 55h, and the system flag is set.
                self.command_byte |= 0x04;
                self.reply(0x55);
            }
            0xAB => self.reply(0x00),
            0xAD => self.command_byte |= 0x10,
            0xAE => {
                self.command_byte &= !0x10;
                self.advance_to(self.now);
            }
            0xC0 => self.reply(0xA0),
            0xD0 => {
                let mut p = self.output_port & 0x03;
                if self.out_buf.is_some() {
                    p |= 0x10;
                }
                self.reply(p | 0xC0);
            }
            0xDD => self.output_port &= !0x02,
            0xDF => self.output_port |= 0x02,
            0xE0 => self.reply(0x00),
            // Pulse output port bits 0-3 low where the command's bit is 0:
            // bit 0 is the CPU reset.
            0xF0..=0xFF if cmd & 1 == 0 => self.reset_pulse = true,
            _ => {}
        }
    }

    /// Port 60h write: a data byte for a pending controller command, or a
    /// byte for the keyboard.
    pub fn write_data(&mut self, v: u8) {
        self.last_was_command = false;
        match self.pending_cmd.take() {
            Some(0x60) => {
                self.command_byte = v;
                self.irq1 = self.out_buf.is_some() && v & 1 != 0;
            }
            Some(0xD1) => {
                self.output_port = v;
                if v & 1 == 0 {
                    self.reset_pulse = true;
                }
            }
            Some(0xD2) => self.reply(v),
            Some(0xD3) | Some(0xD4) => {} // no mouse
            _ => self.keyboard_command(v),
        }
    }

    fn keyboard_command(&mut self, v: u8) {
        // Sending to the keyboard enables its interface.
        self.command_byte &= !0x10;
        if let Some(c) = self.kbd_expect.take() {
            match c {
                0xF0 if v == 0 => {
                    let set = if self.command_byte & 0x40 != 0 {
                        0x41
                    } else {
                        0x02
                    };
                    self.kbd_reply(&[0xFA, set]);
                }
                0xED => {
                    self.leds = v & 7;
                    self.kbd_reply(&[0xFA]);
                }
                _ => self.kbd_reply(&[0xFA]),
            }
            return;
        }
        match v {
            0xED | 0xF0 | 0xF3 => {
                self.kbd_expect = Some(v);
                self.kbd_reply(&[0xFA]);
            }
            0xEE => self.kbd_reply(&[0xEE]),
            0xF2 => {
                let id2 = if self.command_byte & 0x40 != 0 {
                    0x41
                } else {
                    0x83
                };
                self.kbd_reply(&[0xFA, 0xAB, id2]);
            }
            0xF4 => {
                self.scanning = true;
                self.kbd_reply(&[0xFA]);
            }
            0xF5 => {
                self.scanning = false;
                self.kbd_reply(&[0xFA]);
            }
            0xF6 => {
                self.scanning = true;
                self.kbd_reply(&[0xFA]);
            }
            0xF7..=0xFD => self.kbd_reply(&[0xFA]),
            0xFE => {
                let b = self.last_sent;
                self.kbd_reply(&[b]);
            }
            0xFF => {
                // Reset: ACK, then the basic assurance test passed.
                self.scanning = true;
                self.tx.retain(|b| !b.scancode);
                self.kbd_reply(&[0xFA, 0xAA]);
            }
            _ => self.kbd_reply(&[0xFE]),
        }
    }
}

/// The 8042's outputs after any access or event: IRQ1, the A20 gate, the
/// reset line, and the time of the keyboard's next byte.
fn sync(bus: &mut PcBus) {
    let kbc = &mut bus.dev.kbc;
    bus.dev.pics.set_irq(1, kbc.irq1());
    bus.mem.set_kbc_a20(kbc.a20());
    if kbc.take_reset() {
        bus.reset_requested = true;
    }
    bus.sched.set(Event::Keyboard, kbc.next_event());
}

impl Device for Kbc {
    const NAME: &'static str = "8042 keyboard controller";
    const PORTS: &'static [Ports] = &[0x60..=0x60, 0x64..=0x64];
    /// The keyboard's next byte on the serial line.
    const EVENTS: &'static [Event] = &[Event::Keyboard];

    fn power_on(config: &MachineConfig) -> Self {
        Kbc::new(config.cpu_hz.max(1) / 1000)
    }

    fn read(bus: &mut PcBus, port: u16, now: u64) -> u8 {
        bus.dev.kbc.advance_to(now);
        if port == 0x60 {
            let v = bus.dev.kbc.read_data();
            sync(bus);
            v
        } else {
            sync(bus);
            bus.dev.kbc.read_status()
        }
    }

    fn write(bus: &mut PcBus, port: u16, v: u8, now: u64) {
        let kbc = &mut bus.dev.kbc;
        kbc.advance_to(now);
        if port == 0x60 {
            kbc.write_data(v);
        } else {
            kbc.write_command(v);
        }
        sync(bus);
    }

    fn fire(bus: &mut PcBus, _: Event, t: u64) {
        let d = &mut bus.dev;
        d.kbc.advance_to(t);
        d.pics.set_irq(1, d.kbc.irq1());
        bus.sched.set(Event::Keyboard, d.kbc.next_event());
    }

    fn perturb(&mut self) {
        // Disable the keyboard interface (command byte bit 4).
        self.write_command(0xAD);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(k: &mut Kbc, t: u64) {
        k.advance_to(t);
    }

    #[test]
    fn self_test_and_command_byte() {
        let mut k = Kbc::new(100);
        k.write_command(0xAA);
        assert_eq!(k.read_status() & (status::OBF | status::CMD), 0x09);
        assert_eq!(k.read_data(), 0x55);
        assert_eq!(k.read_status() & status::OBF, 0);
        k.write_command(0x60);
        k.write_data(0x65);
        k.write_command(0x20);
        assert_eq!(k.read_data(), 0x65);
        k.write_command(0xAB);
        assert_eq!(k.read_data(), 0x00);
    }

    #[test]
    fn keys_arrive_at_their_cycle_one_byte_at_a_time() {
        let mut k = Kbc::new(100);
        k.push_key(1000, Key::UP, true);
        run(&mut k, 999);
        assert_eq!(k.next_event(), Some(1000));
        assert!(!k.irq1());
        run(&mut k, 1000);
        assert!(k.irq1());
        assert_eq!(k.next_event(), None); // OBF full: nothing more comes
        run(&mut k, 5000);
        assert_eq!(k.read_data(), 0xE0);
        assert!(!k.irq1());
        assert_eq!(k.next_event(), Some(5100));
        run(&mut k, 5100);
        assert_eq!(k.read_data(), 0x48);
        k.push_key(6000, Key::UP, false);
        run(&mut k, 6000);
        assert_eq!(k.read_data(), 0xE0);
        run(&mut k, 6100);
        assert_eq!(k.read_data(), 0xC8);
    }

    #[test]
    fn keyboard_commands_ack() {
        let mut k = Kbc::new(10);
        k.advance_to(100);
        k.write_data(0xED);
        run(&mut k, 110);
        assert_eq!(k.read_data(), 0xFA);
        k.write_data(0x07);
        run(&mut k, 130);
        assert_eq!(k.read_data(), 0xFA);
        k.write_data(0xF2);
        run(&mut k, 150);
        assert_eq!(k.read_data(), 0xFA);
        run(&mut k, 170);
        assert_eq!(k.read_data(), 0xAB);
        run(&mut k, 190);
        assert_eq!(k.read_data(), 0x41);
        k.write_data(0xEE);
        run(&mut k, 210);
        assert_eq!(k.read_data(), 0xEE);
        k.write_data(0xFF);
        run(&mut k, 230);
        assert_eq!(k.read_data(), 0xFA);
        run(&mut k, 250);
        assert_eq!(k.read_data(), 0xAA);
    }

    #[test]
    fn disabled_interface_holds_bytes_and_f5_drops_keys() {
        let mut k = Kbc::new(10);
        k.write_command(0xAD);
        k.push_key(5, Key::ESC, true);
        run(&mut k, 100);
        assert_eq!(k.read_status() & status::OBF, 0);
        k.write_command(0xAE);
        assert_eq!(k.read_data(), 0x01);
        k.advance_to(200);
        k.write_data(0xF5);
        k.push_key(205, Key::ESC, false);
        run(&mut k, 300);
        assert_eq!(k.read_data(), 0xFA);
        run(&mut k, 400);
        assert_eq!(k.read_status() & status::OBF, 0);
    }

    #[test]
    fn output_port_a20_and_reset() {
        let mut k = Kbc::new(10);
        assert!(!k.a20());
        k.write_command(0xD1);
        k.write_data(0x03);
        assert!(k.a20());
        k.write_command(0xD0);
        assert_eq!(k.read_data() & 0x03, 0x03);
        k.write_command(0xDD);
        assert!(!k.a20());
        assert!(!k.take_reset());
        k.write_command(0xFE);
        assert!(k.take_reset());
    }

    #[test]
    fn pause_and_extended_sequences() {
        assert_eq!(Key::PAUSE.bytes(true), [0xE1, 0x1D, 0x45, 0xE1, 0x9D, 0xC5]);
        assert!(Key::PAUSE.bytes(false).is_empty());
        assert_eq!(Key::RCTRL.bytes(false), [0xE0, 0x9D]);
        assert_eq!(Key::new(0x1E).bytes(true), [0x1E]);
    }
}
