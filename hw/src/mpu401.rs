//! Roland MPU-401 as DOS games drive it: the UART ("dumb") mode of the
//! MPU-401 Technical Reference Manual, also all that the Sound Blaster
//! 16's MPU-401 interface offers. Two ports at the card's base (330h or
//! 300h): base+0 data (read: the next byte from the MPU, write: a MIDI
//! byte in UART mode), base+1 status (read) and command (write).
//!
//! Status (Technical Reference, "Status port"): bit 6 DRR, 0 when the MPU
//! is ready to accept a command or data byte (always: the emulated MPU
//! takes every byte at once); bit 7 DSR, 0 when a byte waits to be read.
//! The other bits are not driven by the card and read 1 (3Fh, as DOSBox
//! has them).
//!
//! Commands (Technical Reference, "Commands"):
//! - FFh reset: leaves UART mode, empties the input, and acknowledges
//!   with FEh in the data port, except when it arrives in UART mode,
//!   where the manual says no acknowledge follows (which is why drivers
//!   send FFh twice when they do not know the mode).
//! - 3Fh enter UART mode, acknowledged; from then on every data-port
//!   write is a MIDI byte for the synthesizer and FFh is the only command
//!   recognized (others are ignored without an acknowledge).
//! - ACh (request version) and ADh (request revision) acknowledge, then
//!   answer 15h (version 1.5) and 01h, which some drivers check.
//! - D0h-D7h (want to send data) and DFh (want to send system message),
//!   the intelligent mode's way out to MIDI OUT that drivers use without
//!   UART mode: acknowledged, then the data-port bytes of one message go
//!   straight out, a channel message (its status byte, or running status
//!   from the last one, and the one or two data bytes its status calls
//!   for) after D0h-D7h, a system message (exclusive F0h ... F7h, or a
//!   common message with its data bytes) after DFh.
//! - Every other intelligent-mode command (the sequencer, the conductor,
//!   the track counters) is acknowledged and otherwise ignored: tandem
//!   models the UART and the direct sends that games use, not the
//!   intelligent MPU's sequencer; other data-port writes outside UART
//!   mode are likewise ignored.
//!
//! Interrupt: the card's IRQ line is active while a byte waits to be read
//! (DSR low, the MPU-401's "data available" interrupt) and drops when the
//! last one is read. The default is IRQ 9: the Roland MIF-IPC interface
//! card's factory setting is IRQ 2, which an AT routes to IRQ 9 (configuring
//! IRQ 2 therefore drives IRQ 9, as on the AT's bus); DOSBox also uses 9.
//! IRQ 0 in the configuration means the line is not wired.
//!
//! The MIDI bytes written in UART mode are logged with their cycle while
//! capture is on ([`Mpu401::set_capture`], [`Mpu401::take_midi`]): the
//! output stage turns them into sound. The log is not part of the state
//! hash or the save state (only a listener observes it).

use std::collections::VecDeque;
use std::hash::{Hash, Hasher};

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};

/// The acknowledge byte (Technical Reference, "Acknowledge").
pub const ACK: u8 = 0xFE;

/// Command FFh: reset.
const CMD_RESET: u8 = 0xFF;
/// Command 3Fh: enter UART mode.
const CMD_UART: u8 = 0x3F;

/// Commands D0h-D7h: want to send data (one channel message).
const CMD_SEND_DATA: std::ops::RangeInclusive<u8> = 0xD0..=0xD7;
/// Command DFh: want to send system message.
const CMD_SEND_SYSTEM: u8 = 0xDF;

/// Commands answered with a data byte after the acknowledge: request
/// version (1.5, the MPU-401's last firmware) and request revision.
const ANSWERS: &[(u8, u8)] = &[(0xAC, 0x15), (0xAD, 0x01)];

/// Status bit 6: DRR, set while the MPU cannot take a byte.
pub const STATUS_DRR: u8 = 0x40;
/// Status bit 7: DSR, set while no byte waits to be read.
pub const STATUS_DSR: u8 = 0x80;
/// The status bits the card does not drive.
const STATUS_FLOAT: u8 = 0x3F;

/// Where the MPU-401 sits and which IRQ it drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Mpu401Config {
    /// The data port; the status/command port is the next. 330h (the
    /// default) or 300h, the two bases cards offer and the only ones
    /// tandem decodes: another base leaves the card unreachable.
    pub base: u16,
    /// The IRQ line (2 drives IRQ 9 as on the AT's bus; 0: none).
    pub irq: u8,
}

impl Default for Mpu401Config {
    fn default() -> Self {
        Mpu401Config {
            base: 0x330,
            irq: 9,
        }
    }
}

impl Mpu401Config {
    /// The IRQ line on the 8259A pair, if one is wired.
    fn line(self) -> Option<u8> {
        match self.irq {
            0 | 16.. => None,
            2 => Some(9),
            n => Some(n),
        }
    }
}

/// The MPU-401: its mode and the bytes waiting for the program. Its hash
/// covers them once they leave the power-on state (so machines that never
/// touch it hash as before it existed), not the MIDI log.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Mpu401 {
    /// Where it sits; `None`: no MPU-401 fitted (the ports float).
    config: Option<Mpu401Config>,
    /// In UART mode (command 3Fh).
    pub uart: bool,
    /// Bytes waiting to be read at the data port, oldest first.
    pub input: VecDeque<u8>,
    /// The byte last read from the data port (read again while the input
    /// is empty).
    pub data: u8,
    /// A message being sent after D0h-D7h or DFh: its bytes so far.
    #[serde(default)]
    pub sending: Option<Sending>,
    /// The last channel status sent that way (running status).
    #[serde(default)]
    pub running: u8,
    /// Keep the MIDI bytes for [`Mpu401::take_midi`].
    #[serde(skip)]
    capture: bool,
    /// MIDI bytes written in UART mode and not yet taken, with the cycle
    /// of each write.
    #[serde(skip)]
    midi: Vec<(u64, u8)>,
}

/// A message going straight to MIDI OUT after D0h-D7h (`channel`) or
/// DFh (a system message).
#[derive(Clone, Debug, Hash, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sending {
    /// After D0h-D7h: a channel message; after DFh: a system message.
    pub channel: bool,
    /// Its bytes so far (the status first).
    pub bytes: Vec<u8>,
}

impl Sending {
    fn new(channel: bool) -> Self {
        Sending {
            channel,
            bytes: Vec::new(),
        }
    }

    /// Whether the bytes so far are a whole message: the status's data
    /// bytes are all there, or an exclusive ended with F7h (a byte that is
    /// not a status where one is needed ends it too).
    fn complete(&self) -> bool {
        let Some(&status) = self.bytes.first() else {
            return false;
        };
        let data = self.bytes.len() - 1;
        match status {
            0x80..=0xBF | 0xE0..=0xEF => data >= 2,
            0xC0..=0xDF => data >= 1,
            0xF0 => data > 0 && self.bytes[self.bytes.len() - 1] == 0xF7,
            0xF1 | 0xF3 => data >= 1,
            0xF2 => data >= 2,
            _ => true,
        }
    }
}

impl Hash for Mpu401 {
    fn hash<H: Hasher>(&self, h: &mut H) {
        if self.uart || !self.input.is_empty() || self.data != ACK {
            (self.uart, &self.input, self.data).hash(h);
        }
        if self.sending.is_some() || self.running != 0 {
            (&self.sending, self.running).hash(h);
        }
    }
}

impl Mpu401 {
    /// An MPU-401 at `config` (`None`: not fitted) after reset: not in
    /// UART mode, nothing to read.
    pub fn new(config: Option<Mpu401Config>) -> Self {
        Mpu401 {
            config,
            uart: false,
            input: VecDeque::new(),
            data: ACK,
            sending: None,
            running: 0,
            capture: false,
            midi: Vec::new(),
        }
    }

    /// True when an MPU-401 is fitted.
    pub fn fitted(&self) -> bool {
        self.config.is_some()
    }

    /// Its configuration, when fitted.
    pub fn config(&self) -> Option<Mpu401Config> {
        self.config
    }

    /// The status port: DSR (bit 7) and DRR (bit 6), the rest 1.
    pub fn status(&self) -> u8 {
        let dsr = if self.input.is_empty() { STATUS_DSR } else { 0 };
        dsr | STATUS_FLOAT
    }

    /// A read of the data port: the next waiting byte, or the last one
    /// again when none waits.
    pub fn read_data(&mut self) -> u8 {
        if let Some(v) = self.input.pop_front() {
            self.data = v;
        }
        self.data
    }

    /// A write of the data port at cycle `now`: a MIDI byte in UART mode
    /// (logged while capturing), ignored otherwise.
    pub fn write_data(&mut self, v: u8, now: u64) {
        if self.uart {
            self.out(v, now);
            return;
        }
        let Some(mut msg) = self.sending.take() else {
            return;
        };
        if msg.bytes.is_empty() && msg.channel && v < 0x80 {
            // Running status: the last channel status goes out first
            // (without one, a data byte waits for a status).
            if self.running < 0x80 {
                self.sending = Some(msg);
                return;
            }
            msg.bytes.push(self.running);
            self.out(self.running, now);
        }
        msg.bytes.push(v);
        if msg.channel && (0x80..0xF0).contains(&msg.bytes[0]) {
            self.running = msg.bytes[0];
        }
        self.out(v, now);
        if !msg.complete() {
            self.sending = Some(msg);
        }
    }

    /// A byte for MIDI OUT at cycle `now` (logged while capturing).
    fn out(&mut self, v: u8, now: u64) {
        if self.capture {
            self.midi.push((now, v));
        }
    }

    /// A write of the command port (see the module doc).
    pub fn command(&mut self, v: u8) {
        if self.uart {
            if v == CMD_RESET {
                self.uart = false;
                self.input.clear();
            }
            return;
        }
        self.sending = None;
        match v {
            CMD_RESET => {
                self.input.clear();
                self.running = 0;
            }
            CMD_UART => self.uart = true,
            CMD_SEND_SYSTEM => self.sending = Some(Sending::new(false)),
            c if CMD_SEND_DATA.contains(&c) => self.sending = Some(Sending::new(true)),
            _ => {}
        }
        self.input.push_back(ACK);
        if let Some(&(_, answer)) = ANSWERS.iter().find(|(c, _)| *c == v) {
            self.input.push_back(answer);
        }
    }

    /// Logs (true) or drops (false, the default) the MIDI bytes; switching
    /// it off discards those not yet taken.
    pub fn set_capture(&mut self, on: bool) {
        self.capture = on;
        if !on {
            self.midi.clear();
        }
    }

    /// The MIDI bytes written since the last call, each with the CPU cycle
    /// of its write, in order (empty unless capturing).
    pub fn take_midi(&mut self) -> Vec<(u64, u8)> {
        std::mem::take(&mut self.midi)
    }

    /// The level of the IRQ line: a byte waits to be read (also the
    /// Sound Blaster 16 mixer's interrupt status bit 2).
    pub fn irq_level(&self) -> bool {
        !self.input.is_empty()
    }

    /// True when `port` is one of the fitted card's two.
    fn decodes(&self, port: u16) -> bool {
        self.config.is_some_and(|c| port & !1 == c.base)
    }
}

/// Drives the card's IRQ line when its level changed from `before`.
fn drive_irq(bus: &mut PcBus, before: bool) {
    let mpu = &bus.dev.mpu;
    let level = mpu.irq_level();
    if let Some(line) = mpu.config.and_then(Mpu401Config::line) {
        if level != before {
            bus.dev.pics.set_irq(line, level);
        }
    }
}

/// Without an MPU-401 ([`MachineConfig::mpu401`] `None`), and at the base
/// it is not configured for, the ports float at FFh and count as
/// unhandled.
impl Device for Mpu401 {
    const NAME: &'static str = "MPU-401 (UART)";
    const PORTS: &'static [Ports] = &[0x300..=0x301, 0x330..=0x331];

    fn power_on(config: &MachineConfig) -> Self {
        Mpu401::new(config.mpu401)
    }

    fn read(bus: &mut PcBus, port: u16, _now: u64) -> u8 {
        if !bus.dev.mpu.decodes(port) {
            bus.note_unhandled(port);
            return 0xFF;
        }
        if port & 1 != 0 {
            return bus.dev.mpu.status();
        }
        let before = bus.dev.mpu.irq_level();
        let v = bus.dev.mpu.read_data();
        drive_irq(bus, before);
        v
    }

    fn write(bus: &mut PcBus, port: u16, v: u8, now: u64) {
        if !bus.dev.mpu.decodes(port) {
            bus.note_unhandled(port);
            return;
        }
        if port & 1 == 0 {
            bus.dev.mpu.write_data(v, now);
            return;
        }
        let before = bus.dev.mpu.irq_level();
        bus.dev.mpu.command(v);
        drive_irq(bus, before);
    }

    fn perturb(&mut self) {
        self.command(CMD_UART);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Machine, MachineConfig};

    fn fitted() -> Mpu401 {
        let mut m = Mpu401::new(Some(Mpu401Config::default()));
        m.set_capture(true);
        m
    }

    #[test]
    fn reset_acknowledges_in_the_data_port() {
        let mut m = fitted();
        assert_eq!(m.status() & (STATUS_DSR | STATUS_DRR), STATUS_DSR);
        m.command(CMD_RESET);
        assert_eq!(m.status(), 0x3F, "DSR low: a byte waits, DRR low");
        assert_eq!(m.read_data(), ACK);
        assert_eq!(m.status(), 0xBF, "nothing left to read");
        assert_eq!(m.read_data(), ACK, "the data port keeps its last byte");
    }

    #[test]
    fn uart_mode_logs_midi_bytes_with_their_cycle() {
        let mut m = fitted();
        m.write_data(0x90, 5);
        assert!(m.take_midi().is_empty(), "intelligent mode: not MIDI");
        m.command(CMD_UART);
        assert_eq!(m.read_data(), ACK);
        assert!(m.uart);
        for (i, b) in [0xC0, 0x00, 0x90, 69, 100].into_iter().enumerate() {
            m.write_data(b, 100 + i as u64);
        }
        assert_eq!(
            m.take_midi(),
            vec![(100, 0xC0), (101, 0), (102, 0x90), (103, 69), (104, 100)]
        );
        assert!(m.take_midi().is_empty(), "taken once");
        m.set_capture(false);
        m.write_data(0x80, 200);
        assert!(m.take_midi().is_empty(), "not capturing");
    }

    #[test]
    fn in_uart_mode_only_reset_counts_and_is_not_acknowledged() {
        let mut m = fitted();
        m.command(CMD_UART);
        m.read_data();
        m.command(0xAC);
        assert_eq!(m.status() & STATUS_DSR, STATUS_DSR, "ignored");
        m.command(CMD_RESET);
        assert!(!m.uart);
        assert_eq!(m.status() & STATUS_DSR, STATUS_DSR, "no acknowledge");
        // The second reset of a driver that did not know the mode.
        m.command(CMD_RESET);
        assert_eq!(m.read_data(), ACK);
    }

    #[test]
    fn want_to_send_passes_one_message_to_midi_out() {
        let mut m = fitted();
        m.set_capture(true);
        // Outside UART mode a data byte alone goes nowhere.
        m.write_data(0x90, 1);
        assert!(m.take_midi().is_empty());
        // D0h: one channel message (note on), then nothing more.
        m.command(0xD0);
        for (i, b) in [0x90, 0x3C, 0x64, 0x45].into_iter().enumerate() {
            m.write_data(b, 10 + i as u64);
        }
        assert_eq!(m.take_midi(), [(10, 0x90), (11, 0x3C), (12, 0x64)]);
        // Running status: D0h then only the data bytes.
        m.command(0xD0);
        m.write_data(0x3C, 20);
        m.write_data(0x00, 21);
        assert_eq!(m.take_midi(), [(20, 0x90), (20, 0x3C), (21, 0x00)]);
        // A program change has one data byte.
        m.command(0xD1);
        m.write_data(0xC1, 30);
        m.write_data(0x05, 31);
        m.write_data(0x06, 32);
        assert_eq!(m.take_midi(), [(30, 0xC1), (31, 0x05)]);
        // DFh: an exclusive message to its F7h.
        m.command(0xDF);
        for b in [0xF0, 0x41, 0x10, 0xF7, 0x99] {
            m.write_data(b, 40);
        }
        assert_eq!(
            m.take_midi().iter().map(|&(_, b)| b).collect::<Vec<_>>(),
            [0xF0, 0x41, 0x10, 0xF7]
        );
        let acks = std::iter::from_fn(|| (m.status() & STATUS_DSR == 0).then(|| m.read_data()));
        assert!(acks.take(10).all(|b| b == ACK), "each command acknowledged");
    }

    #[test]
    fn version_and_other_commands() {
        let mut m = fitted();
        m.command(0xAC);
        m.command(0xAD);
        m.command(0x8A); // a sequencer command: acknowledged, ignored
        let got: Vec<u8> =
            std::iter::from_fn(|| (m.status() & STATUS_DSR == 0).then(|| m.read_data())).collect();
        assert_eq!(got, [ACK, 0x15, ACK, 0x01, ACK]);
        assert!(!m.uart);
    }

    fn machine(config: Option<Mpu401Config>) -> Machine {
        Machine::new(MachineConfig {
            mpu401: config,
            ..MachineConfig::with_cpu(emu::CpuModel::I386, 33_000_000)
        })
    }

    #[test]
    fn ports_at_the_configured_base_only() {
        let mut m = machine(Some(Mpu401Config {
            base: 0x300,
            irq: 9,
        }));
        assert_eq!(m.bus.port_read(0x331), 0xFF);
        assert!(m.bus.unhandled_ports.contains(&0x331));
        assert_eq!(m.bus.port_read(0x301) & 0xC0, 0x80);
        m.bus.port_write(0x301, CMD_RESET);
        assert_eq!(m.bus.port_read(0x301) & 0xC0, 0x00);
        assert_eq!(m.bus.port_read(0x300), ACK);
        let mut none = machine(None);
        none.bus.port_write(0x331, CMD_RESET);
        assert_eq!(none.bus.port_read(0x331), 0xFF);
        assert_eq!(none.bus.port_read(0x330), 0xFF);
        assert!(none.bus.dev.mpu.input.is_empty());
    }

    #[test]
    fn irq_line_follows_a_waiting_byte() {
        for (irq, line) in [(9, Some(9)), (2, Some(9)), (5, Some(5)), (0, None)] {
            let mut m = machine(Some(Mpu401Config { base: 0x330, irq }));
            let level = |m: &Machine| {
                let p = &m.bus.dev.pics;
                line.map(|l| {
                    if l < 8 {
                        p.master.lines() >> l & 1
                    } else {
                        p.slave.lines() >> (l - 8) & 1
                    }
                })
            };
            assert_eq!(level(&m), line.map(|_| 0));
            m.bus.port_write(0x331, 0xAC);
            assert_eq!(level(&m), line.map(|_| 1), "IRQ {irq}");
            assert_eq!(m.bus.port_read(0x330), ACK);
            assert_eq!(level(&m), line.map(|_| 1), "one byte still waits");
            assert_eq!(m.bus.port_read(0x330), 0x15);
            assert_eq!(level(&m), line.map(|_| 0), "IRQ {irq} drops");
            if line.is_none() {
                assert_eq!(m.bus.dev.pics.slave.lines(), 0);
            }
        }
    }

    #[test]
    fn power_on_state_is_not_hashed_and_uart_mode_survives_a_save_state() {
        let a = machine(None);
        let b = machine(Some(Mpu401Config::default()));
        assert_eq!(a.state_hash(), b.state_hash(), "an idle MPU hashes as none");
        let mut c = b.clone();
        c.bus.port_write(0x331, CMD_UART);
        assert_ne!(c.state_hash(), b.state_hash());
        let bytes = bincode::serialize(&c).expect("serialize");
        let back: Machine = bincode::deserialize(&bytes).expect("deserialize");
        assert!(back.bus.dev.mpu.uart);
        assert_eq!(back.bus.dev.mpu.config(), Some(Mpu401Config::default()));
        assert_eq!(back.state_hash(), c.state_hash());
    }
}
