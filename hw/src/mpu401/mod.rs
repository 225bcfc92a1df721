//! Roland MPU-401 as DOS games drive it, in both of its modes (MPU-401
//! Technical Reference Manual, Roland, 1984-85): the intelligent mode it
//! starts in, with its sequencer ([`sequencer`], [`track`]), and the UART
//! ("dumb") mode of command 3Fh, all that the Sound Blaster 16's MPU-401
//! interface offers. Two ports at the card's base (330h or 300h): base+0
//! data (read: the next byte from the MPU, write: a byte for it), base+1
//! status (read) and command (write).
//!
//! Status (Technical Reference, "Status port"): bit 6 DRR, 0 when the MPU
//! is ready to accept a command or data byte (always: the emulated MPU
//! takes every byte at once); bit 7 DSR, 0 when a byte waits to be read.
//! The other bits are not driven by the card and read 1 (3Fh, as DOSBox
//! has them).
//!
//! Commands (Technical Reference, "Commands"), each acknowledged with FEh
//! in the data port before anything it sends:
//! - FFh reset: back to the intelligent mode's reset state, the input
//!   emptied; in UART mode no acknowledge follows (which is why drivers
//!   send FFh twice when they do not know the mode).
//! - 3Fh enter UART mode: from then on every data-port write is a MIDI
//!   byte for the synthesizer and FFh is the only command recognized
//!   (others are ignored without an acknowledge); the sequencer stops.
//! - ACh (version) and ADh (revision) answer 15h (version 1.5) and 01h;
//!   AFh the tempo, A0h-A7h a track's play counter, ABh the record
//!   counter (then cleared).
//! - D0h-D7h (want to send data) and DFh (want to send system message):
//!   the data-port bytes of one message go straight to MIDI OUT, a channel
//!   message (its status byte, or running status from the last one, and
//!   the one or two data bytes its status calls for) after D0h-D7h, a
//!   system message (exclusive F0h ... F7h, or a common message with its
//!   data bytes) after DFh.
//! - 00h-2Fh start, stop and continue play and record; E0h tempo, E1h
//!   relative tempo, E2h graduation, E4h/E6h metronome, E7h clock-to-host
//!   rate, ECh active tracks, EDh play counter mask, EEh/EFh channel masks
//!   (each followed by its data byte); C2h-C8h timebase 48-192; 80h-82h
//!   clock source; 83h-85h metronome; 86h-9Fh switches (bender, MIDI thru,
//!   conductor, clock to host, reference tables...); 40h-7Fh channel
//!   reference tables; B1h reset relative tempo; B8h clear play counters;
//!   B9h clear play map; BAh clear record counter: see [`sequencer`].
//!   Other bytes are acknowledged and otherwise ignored.
//!
//! Data-port writes in the intelligent mode go to a pending command's
//! data byte, else to the message after D0h-D7h/DFh, else to the answer
//! of the track data request out; others are ignored.
//!
//! Not modelled: MIDI IN (nothing is wired to it: recording records
//! nothing, MIDI thru passes nothing, the channel masks and reference
//! tables filter nothing), the FSK and MIDI clock sources (the clock
//! stops on them), the metronome's click, graduated relative tempo
//! changes (they are immediate), the MPU's processing time (answers are
//! there at once). At most [`INPUT_MAX`] bytes wait for the program;
//! messages beyond are lost, as a real MPU holds only the latch.
//!
//! Interrupt: the card's IRQ line is active while a byte waits to be read
//! (DSR low, the MPU-401's "data available" interrupt) and drops when the
//! last one is read. The default is IRQ 9: the Roland MIF-IPC interface
//! card's factory setting is IRQ 2, which an AT routes to IRQ 9 (configuring
//! IRQ 2 therefore drives IRQ 9, as on the AT's bus); DOSBox also uses 9.
//! IRQ 0 in the configuration means the line is not wired.
//!
//! The MIDI bytes sent to MIDI OUT (UART mode, want to send, the tracks'
//! events at their clock tick) are logged with their cycle while capture
//! is on ([`Mpu401::set_capture`], [`Mpu401::take_midi`]): the output
//! stage turns them into sound. The log is not part of the state hash or
//! the save state (only a listener observes it).

pub mod sequencer;
#[cfg(test)]
mod tests;
pub mod track;

use std::collections::VecDeque;
use std::hash::{Hash, Hasher};

use sequencer::Sequencer;

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

/// Commands E0h-EFh: followed by a data byte.
const CMD_WITH_DATA: std::ops::RangeInclusive<u8> = 0xE0..=0xEF;
/// Command B8h: clear play counters.
const CMD_CLEAR_COUNTERS: u8 = 0xB8;
/// Command B9h: clear play map.
const CMD_CLEAR_MAP: u8 = 0xB9;

/// The most bytes waiting for the program (further messages are lost).
pub const INPUT_MAX: usize = 64;

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

/// The MPU-401: its mode, the bytes waiting for the program and the
/// intelligent mode's sequencer. Its hash covers them once they leave the
/// power-on state (so machines that never
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
    /// The intelligent mode's sequencer.
    pub seq: Sequencer,
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
        if self.seq != Sequencer::new(self.seq.cpu_hz) {
            self.seq.hash(h);
        }
    }
}

impl Mpu401 {
    /// An MPU-401 at `config` (`None`: not fitted) after reset, its clock
    /// counted against a `cpu_hz` CPU: not in UART mode, nothing to read.
    pub fn new(config: Option<Mpu401Config>, cpu_hz: u64) -> Self {
        Mpu401 {
            config,
            uart: false,
            input: VecDeque::new(),
            data: ACK,
            sending: None,
            running: 0,
            seq: Sequencer::new(cpu_hz),
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
    /// (logged while capturing); in the intelligent mode a command's data
    /// byte, a byte of a message sent straight out, or of the answer to a
    /// data request (see the module doc), ignored otherwise.
    pub fn write_data(&mut self, v: u8, now: u64) {
        if self.uart {
            self.out(v, now);
            return;
        }
        if let Some(cmd) = self.seq.param.take() {
            self.parameter(cmd, v, now);
            return;
        }
        if self.sending.is_none() {
            self.answer(v, now);
            return;
        }
        self.send_byte(v, now);
    }

    /// A byte of the message after D0h-D7h or DFh, straight to MIDI OUT.
    fn send_byte(&mut self, v: u8, now: u64) {
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
        } else if msg.channel {
            self.seq.map(&msg.bytes);
        }
    }

    /// A message byte for the program (lost when [`INPUT_MAX`] wait).
    fn send_host(&mut self, v: u8) {
        if self.input.len() < INPUT_MAX {
            self.input.push_back(v);
        }
    }

    /// A byte for MIDI OUT at cycle `now` (logged while capturing).
    fn out(&mut self, v: u8, now: u64) {
        if self.capture {
            self.midi.push((now, v));
        }
    }

    /// A write of the command port at cycle `now` (see the module doc).
    pub fn command(&mut self, v: u8, now: u64) {
        if self.uart {
            if v == CMD_RESET {
                self.uart = false;
                self.input.clear();
            }
            return;
        }
        self.sending = None;
        self.seq.param = None;
        if v == CMD_RESET {
            self.input.clear();
            self.running = 0;
            self.seq = Sequencer::new(self.seq.cpu_hz);
        }
        self.send_host(ACK);
        if let Some(answer) = self.report(v) {
            self.send_host(answer);
            return;
        }
        match v {
            CMD_RESET => {}
            CMD_UART => {
                self.uart = true;
                self.seq = Sequencer::new(self.seq.cpu_hz);
            }
            0x00..=0x2F => self.mode(v, now),
            CMD_SEND_SYSTEM => self.sending = Some(Sending::new(false)),
            c if CMD_SEND_DATA.contains(&c) => self.sending = Some(Sending::new(true)),
            c if CMD_WITH_DATA.contains(&c) => self.seq.param = Some(c),
            CMD_CLEAR_COUNTERS => self.clear_play_counters(),
            CMD_CLEAR_MAP => self.clear_play_map(now),
            c => {
                self.setting(c, now);
            }
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

    /// The IRQ line it drives on the 8259A pair, if fitted and wired.
    pub fn irq_line(&self) -> Option<u8> {
        self.config.and_then(Mpu401Config::line)
    }

    /// True when `port` is one of the fitted card's two.
    pub fn decodes(&self, port: u16) -> bool {
        self.config.is_some_and(|c| port & !1 == c.base)
    }
}
