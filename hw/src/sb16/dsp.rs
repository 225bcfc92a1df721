//! The Sound Blaster 16's DSP (version 4.05) as a program talks to it
//! (Sound Blaster Series Hardware Programming Guide, "Digital Sound
//! Processor"): the reset at base+6, commands and their parameters written
//! at base+Ch, answers read at base+Ah. This file parses the command
//! stream; what a command starts (a DMA transfer, an interrupt, a level
//! on the DAC) is an [`Action`] for the card to carry out.
//!
//! Commands the DSP accepts but tandem does not carry out: the ADPCM
//! transfers (16h, 17h, 1Fh, 74h-77h, 7Dh, 7Fh: their parameters are taken,
//! nothing plays), the DMA input transfers (24h, 2Ch, 98h, 99h and the
//! Bxh/Cxh commands with bit 3 set: accepted, no transfer, no interrupt)
//! and the MIDI commands (30h-38h: ignored). Direct input (20h) answers
//! 80h, silence. Any other command byte is ignored without parameters, as
//! DSPs do with the codes they do not define.

use std::collections::VecDeque;

/// The answer to E1h: DSP version 4.05, the SB16's (CT1745 boards).
pub const VERSION: [u8; 2] = [4, 5];

/// E3h's answer (the DSP's copyright notice), NUL-terminated.
const COPYRIGHT: &[u8] = b"COPYRIGHT (C) CREATIVE TECHNOLOGY LTD, 1992.\0";

/// What the DSP answers once a reset is over.
pub const READY: u8 = 0xAA;

/// Parameter bytes of the commands that take any (the guide's command
/// table); Bxh and Cxh take 3 (mode and length).
const PARAMS: &[(u8, usize)] = &[
    (0x10, 1),
    (0x14, 2),
    (0x16, 2),
    (0x17, 2),
    (0x24, 2),
    (0x40, 1),
    (0x41, 2),
    (0x42, 2),
    (0x48, 2),
    (0x74, 2),
    (0x75, 2),
    (0x76, 2),
    (0x77, 2),
    (0x80, 2),
    (0xE0, 1),
    (0xE2, 1),
    (0xE4, 1),
];

/// The E2h DMA identification (the sequence Creative's drivers check):
/// per step (the step count modulo 4) the bits of the parameter that add
/// their weight (the others subtract it) and the constant added last.
const E2_STEPS: [(u8, u8); 4] = [(0x69, 0x96), (0x5A, 0xA5), (0x96, 0x69), (0xA7, 0x5A)];

/// How the sample rate was programmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Rate {
    /// 40h: the time constant 256 - 1,000,000 / rate (one byte every
    /// 256 - tc microseconds).
    TimeConstant(u8),
    /// 41h/42h: the rate in Hz.
    Hz(u16),
}

impl Rate {
    /// DMA units (bytes of a channel) per second as a fraction
    /// (numerator, denominator).
    pub fn per_second(self) -> (u64, u64) {
        match self {
            Rate::TimeConstant(tc) => (1_000_000, 256 - tc as u64),
            // The SB16 plays 5000 to 44100 Hz; outside, the nearest end
            // (a little room at the top, as cards run slightly fast).
            Rate::Hz(hz) => (hz.clamp(5000, 45000) as u64, 1),
        }
    }
}

/// A DMA transfer a command starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Mode {
    /// 16-bit samples (Bxh) rather than 8-bit.
    pub bits16: bool,
    /// Two samples a frame, left first.
    pub stereo: bool,
    /// Signed samples (else unsigned, 80h or 8000h the middle).
    pub signed: bool,
    /// Auto-initialize: the block restarts at its end.
    pub auto: bool,
    /// Samples (not frames) in a block.
    pub block: u32,
    /// Started by an old 8-bit command (14h, 1Ch, 90h, 91h): with a time
    /// constant, a stereo frame takes two byte periods (SB Pro).
    pub old: bool,
    /// 90h/91h: the DSP takes no command until reset (91h: until the block
    /// ends).
    pub high_speed: bool,
}

/// What a command asks the card to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Start (or restart) a DMA transfer.
    Start(Mode),
    /// 80h: play `n` samples of silence, then the 8-bit interrupt.
    Silence(u32),
    /// D0h/D5h (16-bit when true): pause the transfer.
    Pause(bool),
    /// D4h/D6h: continue it.
    Continue(bool),
    /// DAh/D9h: end an auto-initialized transfer at its block's end.
    ExitAuto(bool),
    /// 10h: this unsigned 8-bit sample on the DAC now.
    Dac(u8),
    /// F2h/F3h: the 8-bit (false) or 16-bit interrupt now.
    Irq(bool),
    /// E2h: this byte to memory through the 8-bit DMA channel.
    Identify(u8),
    /// 40h-42h: the rate changed (a transfer in progress follows it).
    Rate,
}

/// The DSP's command interface.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Dsp {
    /// base+6 bit 0 as last written.
    reset_line: bool,
    /// When a reset ends: the cycle from which [`READY`] can be read.
    ready_at: Option<u64>,
    /// Answers waiting at base+Ah.
    answers: VecDeque<u8>,
    /// The byte base+Ah last gave (read again when nothing waits).
    last: u8,
    /// The command whose parameters are being collected, and those so far.
    command: Option<u8>,
    params: Vec<u8>,
    /// The programmed rate (40h-42h).
    pub rate: Rate,
    /// 48h: samples in a block of the old commands, less one.
    pub block_size: u16,
    /// D1h/D3h: the speaker (on the SB16 only a status, D8h: its DAC
    /// always reaches the mixer).
    pub speaker: bool,
    /// E4h/E8h.
    test: u8,
    /// E2h's running value and step count.
    e2: (u8, u8),
    /// In high-speed mode (90h/91h): commands are ignored.
    pub high_speed: bool,
}

impl Default for Dsp {
    fn default() -> Self {
        Dsp::new()
    }
}

impl Dsp {
    /// The DSP after power-on (its reset done, AAh read).
    pub fn new() -> Self {
        Dsp {
            reset_line: false,
            ready_at: None,
            answers: VecDeque::new(),
            last: READY,
            command: None,
            params: Vec::new(),
            rate: Rate::TimeConstant(0),
            block_size: 0x7FF,
            speaker: false,
            test: 0,
            e2: (0xAA, 0),
            high_speed: false,
        }
    }

    /// A write to base+6 at cycle `now`; `delay` is the reset's length in
    /// cycles. A 1 then 0 resets the DSP: true when the reset happened
    /// (the card stops its transfers).
    pub fn write_reset(&mut self, v: u8, now: u64, delay: u64) -> bool {
        let high = v & 1 != 0;
        let falling = self.reset_line && !high;
        self.reset_line = high;
        if falling {
            *self = Dsp {
                ready_at: Some(now + delay),
                last: self.last,
                ..Dsp::new()
            };
        }
        falling
    }

    /// Queues [`READY`] when the reset's delay is over at `now`.
    fn settle(&mut self, now: u64) {
        if self.ready_at.is_some_and(|t| now >= t) {
            self.ready_at = None;
            self.answers.push_back(READY);
        }
    }

    /// Whether the DSP is busy at `now` (in reset), for base+Ch.
    pub fn busy(&mut self, now: u64) -> bool {
        self.settle(now);
        self.reset_line || self.ready_at.is_some()
    }

    /// base+Eh bit 7: an answer waits at base+Ah.
    pub fn data_ready(&mut self, now: u64) -> bool {
        self.settle(now);
        !self.answers.is_empty()
    }

    /// A read of base+Ah: the next answer (the last one again when none
    /// waits).
    pub fn read_data(&mut self, now: u64) -> u8 {
        self.settle(now);
        if let Some(v) = self.answers.pop_front() {
            self.last = v;
        }
        self.last
    }

    /// A write to base+Ch: a command or a parameter.
    pub fn write(&mut self, v: u8, mixer_stereo: bool) -> Option<Action> {
        if self.reset_line || self.ready_at.is_some() || self.high_speed {
            return None;
        }
        let cmd = match self.command {
            Some(c) => {
                self.params.push(v);
                c
            }
            None => v,
        };
        let want = match cmd {
            0xB0..=0xCF => 3,
            _ => PARAMS
                .iter()
                .find(|&&(c, _)| c == cmd)
                .map_or(0, |&(_, n)| n),
        };
        if self.params.len() < want {
            self.command = Some(cmd);
            return None;
        }
        self.command = None;
        let params = std::mem::take(&mut self.params);
        self.execute(cmd, &params, mixer_stereo)
    }

    /// A complete command.
    fn execute(&mut self, cmd: u8, p: &[u8], mixer_stereo: bool) -> Option<Action> {
        let word = |i: usize| {
            p.get(i).copied().unwrap_or(0) as u16 | (p.get(i + 1).copied().unwrap_or(0) as u16) << 8
        };
        let old = |auto: bool, high_speed: bool, len: u16| Mode {
            bits16: false,
            stereo: mixer_stereo,
            signed: false,
            auto,
            block: len as u32 + 1,
            old: true,
            high_speed,
        };
        let answer = |s: &mut Self, bytes: &[u8]| {
            s.answers.extend(bytes);
            None
        };
        match cmd {
            0x10 => Some(Action::Dac(word(0) as u8)),
            0x14 => Some(Action::Start(old(false, false, word(0)))),
            0x1C => Some(Action::Start(old(true, false, self.block_size))),
            0x90 | 0x91 => {
                self.high_speed = true;
                Some(Action::Start(old(cmd == 0x90, true, self.block_size)))
            }
            0x20 => answer(self, &[0x80]),
            0x40 => {
                self.rate = Rate::TimeConstant(word(0) as u8);
                Some(Action::Rate)
            }
            // 41h/42h: the rate high byte first.
            0x41 | 0x42 => {
                self.rate = Rate::Hz(word(0).swap_bytes());
                Some(Action::Rate)
            }
            0x48 => {
                self.block_size = word(0);
                None
            }
            0x80 => Some(Action::Silence(word(0) as u32 + 1)),
            0xB0..=0xCF if cmd & 0x08 == 0 => Some(Action::Start(Mode {
                bits16: cmd < 0xC0,
                stereo: word(0) & 0x20 != 0,
                signed: word(0) & 0x10 != 0,
                auto: cmd & 0x04 != 0,
                block: word(1) as u32 + 1,
                old: false,
                high_speed: false,
            })),
            0xD0 | 0xD5 => Some(Action::Pause(cmd == 0xD5)),
            0xD4 | 0xD6 => Some(Action::Continue(cmd == 0xD6)),
            0xD9 | 0xDA => Some(Action::ExitAuto(cmd == 0xD9)),
            0xD1 | 0xD3 => {
                self.speaker = cmd == 0xD1;
                None
            }
            0xD8 => answer(self, &[if self.speaker { 0xFF } else { 0x00 }]),
            0xE0 => answer(self, &[!(word(0) as u8)]),
            0xE1 => answer(self, &VERSION),
            0xE2 => Some(Action::Identify(self.identify(word(0) as u8))),
            0xE3 => answer(self, COPYRIGHT),
            0xE4 => {
                self.test = word(0) as u8;
                None
            }
            0xE8 => answer(self, &[self.test]),
            0xF2 | 0xF3 => Some(Action::Irq(cmd == 0xF3)),
            _ => None,
        }
    }

    /// E2h with parameter `v`: the next value of the identification
    /// sequence.
    fn identify(&mut self, v: u8) -> u8 {
        let (value, step) = &mut self.e2;
        let (adds, constant) = E2_STEPS[(*step & 3) as usize];
        for bit in (0..8).filter(|b| v >> b & 1 != 0) {
            let w = 1u8 << bit;
            *value = if adds & w != 0 {
                value.wrapping_add(w)
            } else {
                value.wrapping_sub(w)
            };
        }
        *value = value.wrapping_add(constant);
        *step = step.wrapping_add(1);
        *value
    }

    /// Leaves high-speed mode (a 91h block ended).
    pub fn end_high_speed(&mut self) {
        self.high_speed = false;
    }

    /// Test hook: a change of the test register.
    pub fn perturb(&mut self) {
        self.test ^= 0x5A;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(d: &mut Dsp, bytes: &[u8]) -> Option<Action> {
        bytes.iter().fold(None, |_, &b| d.write(b, false))
    }

    fn answers(d: &mut Dsp) -> Vec<u8> {
        let mut v = Vec::new();
        while d.data_ready(u64::MAX) {
            v.push(d.read_data(u64::MAX));
        }
        v
    }

    #[test]
    fn reset_needs_one_then_zero_and_answers_after_the_delay() {
        let mut d = Dsp::new();
        assert!(!d.write_reset(0, 10, 100), "0 alone is no reset");
        assert!(!d.write_reset(1, 10, 100));
        assert!(d.busy(20));
        assert!(d.write_reset(0, 20, 100));
        assert!(!d.data_ready(119));
        assert!(d.busy(119));
        assert_eq!(cmd(&mut d, &[0xE1]), None);
        assert!(d.data_ready(120));
        assert!(!d.busy(120));
        assert_eq!(d.read_data(120), READY);
        assert!(!d.data_ready(121));
        assert_eq!(d.read_data(121), READY, "the last byte again");
        assert!(answers(&mut d).is_empty(), "E1h during the reset was lost");
    }

    #[test]
    fn answers_of_the_query_commands() {
        let mut d = Dsp::new();
        cmd(&mut d, &[0xE1]);
        assert_eq!(answers(&mut d), vec![4, 5]);
        cmd(&mut d, &[0xE0, 0x3C]);
        assert_eq!(answers(&mut d), vec![0xC3]);
        cmd(&mut d, &[0xE4, 0x77, 0xE8]);
        assert_eq!(answers(&mut d), vec![0x77]);
        cmd(&mut d, &[0xD8, 0xD1, 0xD8, 0xD3, 0xD8]);
        assert_eq!(answers(&mut d), vec![0x00, 0xFF, 0x00]);
        cmd(&mut d, &[0x20]);
        assert_eq!(answers(&mut d), vec![0x80]);
        cmd(&mut d, &[0xE3]);
        let s = answers(&mut d);
        assert!(s.starts_with(b"COPYRIGHT (C) CREATIVE"));
        assert_eq!(s.last(), Some(&0));
        // An unknown command takes no parameter: E1h right after works.
        cmd(&mut d, &[0x01, 0xE1]);
        assert_eq!(answers(&mut d), vec![4, 5]);
    }

    #[test]
    fn transfer_commands_and_rates() {
        let mut d = Dsp::new();
        assert_eq!(cmd(&mut d, &[0x41, 0xAC, 0x44]), Some(Action::Rate));
        assert_eq!(d.rate.per_second(), (44100, 1));
        cmd(&mut d, &[0x40, 0xA5]);
        assert_eq!(d.rate.per_second(), (1_000_000, 0x5B));
        let m = cmd(&mut d, &[0x14, 0xFF, 0x00]);
        assert!(matches!(
            m,
            Some(Action::Start(Mode {
                block: 256,
                auto: false,
                old: true,
                bits16: false,
                ..
            }))
        ));
        cmd(&mut d, &[0x48, 0x0F, 0x00]);
        let m = cmd(&mut d, &[0x1C]);
        assert!(matches!(
            m,
            Some(Action::Start(Mode {
                block: 16,
                auto: true,
                ..
            }))
        ));
        let m = cmd(&mut d, &[0xB6, 0x30, 0x03, 0x01]);
        let want = Mode {
            bits16: true,
            stereo: true,
            signed: true,
            auto: true,
            block: 0x104,
            old: false,
            high_speed: false,
        };
        assert_eq!(m, Some(Action::Start(want)));
        let m = cmd(&mut d, &[0xC0, 0x00, 0x09, 0x00]);
        assert!(matches!(
            m,
            Some(Action::Start(Mode {
                bits16: false,
                stereo: false,
                signed: false,
                auto: false,
                block: 10,
                ..
            }))
        ));
        assert_eq!(
            cmd(&mut d, &[0xCE, 0x00, 0x01, 0x00]),
            None,
            "input: not carried out"
        );
        assert_eq!(cmd(&mut d, &[0x80, 0x63, 0x00]), Some(Action::Silence(100)));
        assert_eq!(cmd(&mut d, &[0xD5]), Some(Action::Pause(true)));
        assert_eq!(cmd(&mut d, &[0xD4]), Some(Action::Continue(false)));
        assert_eq!(cmd(&mut d, &[0xDA]), Some(Action::ExitAuto(false)));
        assert_eq!(cmd(&mut d, &[0xF3]), Some(Action::Irq(true)));
        assert_eq!(cmd(&mut d, &[0x10, 0x40]), Some(Action::Dac(0x40)));
    }

    #[test]
    fn high_speed_ignores_commands_until_reset() {
        let mut d = Dsp::new();
        assert!(matches!(
            cmd(&mut d, &[0x90]),
            Some(Action::Start(Mode {
                high_speed: true,
                auto: true,
                ..
            }))
        ));
        assert_eq!(cmd(&mut d, &[0xE1]), None);
        assert!(answers(&mut d).is_empty());
        d.write_reset(1, 0, 1);
        d.write_reset(0, 0, 1);
        assert_eq!(answers(&mut d), vec![READY]);
        cmd(&mut d, &[0xE1]);
        assert_eq!(answers(&mut d), vec![4, 5]);
    }

    #[test]
    fn e2_identification_sequence() {
        let mut d = Dsp::new();
        // From AAh: step 0 with parameter 00h adds only the constant.
        assert_eq!(
            cmd(&mut d, &[0xE2, 0x00]),
            Some(Action::Identify(0xAA_u8.wrapping_add(0x96)))
        );
        // Step 1, parameter 01h: bit 0 subtracts 1, then A5h.
        let v = 0x40u8.wrapping_sub(1).wrapping_add(0xA5);
        assert_eq!(cmd(&mut d, &[0xE2, 0x01]), Some(Action::Identify(v)));
    }
}
