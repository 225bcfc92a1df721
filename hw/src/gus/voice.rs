//! One of the GF1's 32 voices: its wavetable address counter and its
//! volume ramp (UltraSound Lowlevel ToolKit, "Voice-specific registers").
//!
//! Addresses are kept as the chip counts them: a 20-bit DRAM address with
//! 9 fractional bits (29 bits). The frequency control (01h, bits 15-1) is
//! added to the current address once per frame; a 16-bit voice counts
//! samples, read at the translated byte address of
//! [`Voice::byte_address`]. The volume is 12 bits of a logarithmic scale
//! (4 bits of exponent, 8 of mantissa, [`gain`]); a ramp adds its
//! increment once every 1, 8, 64 or 512 frames (06h bits 7-6).

/// Voice control (00h/80h) and volume control (0Dh/8Dh) bits.
pub mod ctrl {
    /// Read: the voice (or ramp) is stopped.
    pub const STOPPED: u8 = 0x01;
    /// Write: stop the voice (or ramp).
    pub const STOP: u8 = 0x02;
    /// Voice control: 16-bit data. Volume control: roll over (the wave
    /// raises its interrupt at the end and goes on, neither looping nor
    /// stopping).
    pub const BIT16_ROLLOVER: u8 = 0x04;
    /// Loop at the end.
    pub const LOOP: u8 = 0x08;
    /// Loop back and forth.
    pub const BIDIRECTIONAL: u8 = 0x10;
    /// Interrupt at the end.
    pub const IRQ_ENABLE: u8 = 0x20;
    /// Counting down.
    pub const DECREASING: u8 = 0x40;
    /// Read: the voice's interrupt is pending.
    pub const IRQ_PENDING: u8 = 0x80;
}

/// Frames between ramp updates for the rate's bits 7-6.
const RAMP_DIVIDERS: [u16; 4] = [1, 8, 64, 512];

/// Left and right gain in 1/256ths for each pan position (0Ch, 0 full
/// left, 7 the centre, 15 full right): the far side is attenuated
/// linearly, the near one stays whole.
pub const PAN: [[u16; 2]; 16] = [
    [256, 0],
    [256, 37],
    [256, 73],
    [256, 110],
    [256, 146],
    [256, 183],
    [256, 219],
    [256, 256],
    [224, 256],
    [192, 256],
    [160, 256],
    [128, 256],
    [96, 256],
    [64, 256],
    [32, 256],
    [0, 256],
];

/// The linear gain of 12-bit volume `v` in 1/65536ths: (256 + mantissa)
/// shifted by the exponent, 6 dB per exponent step; 4095 is about unity,
/// 0 about -96 dB.
pub fn gain(v: u16) -> u32 {
    let (e, m) = (u32::from(v >> 8) & 15, u32::from(v & 0xFF));
    ((256 + m) << e) >> 8
}

/// What a frame's step raised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Raised {
    /// The wave reached its end with its interrupt enabled.
    pub wave: bool,
    /// The ramp reached its end with its interrupt enabled.
    pub ramp: bool,
}

/// A voice's registers and counters.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Voice {
    /// Voice control (00h) without the pending bit.
    pub ctrl: u8,
    /// Volume control (0Dh) without the pending bit.
    pub vctrl: u8,
    /// Frequency control (01h).
    pub fc: u16,
    /// Loop start, loop end and current address (29 bits: 20 of address,
    /// 9 of fraction).
    pub start: u32,
    /// See [`Voice::start`].
    pub end: u32,
    /// See [`Voice::start`].
    pub pos: u32,
    /// Ramp rate (06h), ramp start (07h) and end (08h).
    pub rate: u8,
    /// See [`Voice::rate`].
    pub ramp_start: u8,
    /// See [`Voice::rate`].
    pub ramp_end: u8,
    /// Current volume, 12 bits (09h bits 15-4).
    pub volume: u16,
    /// Pan position (0Ch), 0-15.
    pub pan: u8,
    /// Frames since the last ramp update.
    ramp_count: u16,
}

impl Default for Voice {
    /// As the GF1's reset leaves a voice: stopped, ramp stopped, silent,
    /// centred.
    fn default() -> Self {
        Voice {
            ctrl: ctrl::STOPPED | ctrl::STOP,
            vctrl: ctrl::STOPPED | ctrl::STOP,
            fc: 0x0400,
            start: 0,
            end: 0,
            pos: 0,
            rate: 0,
            ramp_start: 0,
            ramp_end: 0,
            volume: 0,
            pan: 7,
            ramp_count: 0,
        }
    }
}

impl Voice {
    /// The wave is running (neither stop bit set).
    pub fn running(&self) -> bool {
        self.ctrl & (ctrl::STOPPED | ctrl::STOP) == 0
    }

    /// The ramp is running.
    pub fn ramping(&self) -> bool {
        self.vctrl & (ctrl::STOPPED | ctrl::STOP) == 0
    }

    /// 16-bit samples.
    pub fn bits16(&self) -> bool {
        self.ctrl & ctrl::BIT16_ROLLOVER != 0
    }

    /// The DRAM byte address of sample `addr` (a 20-bit address): for a
    /// 16-bit voice the address counts words within its 256 KiB bank
    /// (the ToolKit's address translation).
    pub fn byte_address(&self, addr: u32) -> u32 {
        if self.bits16() {
            (addr & 0xC_0000) | ((addr & 0x1_FFFF) << 1)
        } else {
            addr & 0xF_FFFF
        }
    }

    /// The sample at the current address, interpolated linearly between
    /// it and the next by the 9 fractional bits, as a signed 16-bit value.
    pub fn sample(&self, dram: &[u8]) -> i32 {
        let at = |a: u32| -> i32 {
            let b = self.byte_address(a) as usize;
            let byte = |i: usize| dram.get(i & 0xF_FFFF).copied().unwrap_or(0);
            if self.bits16() {
                i32::from(i16::from_le_bytes([byte(b), byte(b + 1)]))
            } else {
                i32::from(byte(b) as i8) << 8
            }
        };
        let whole = self.pos >> 9;
        let frac = (self.pos & 0x1FF) as i32;
        let (a, b) = (at(whole), at(whole + 1));
        a + (((b - a) * frac) >> 9)
    }

    /// The voice's contribution (left, right) to the frame.
    pub fn output(&self, dram: &[u8]) -> [i32; 2] {
        let v = (i64::from(self.sample(dram)) * i64::from(gain(self.volume))) >> 16;
        let p = PAN[usize::from(self.pan & 15)];
        [0, 1].map(|k| ((v * i64::from(p[k])) >> 8) as i32)
    }

    /// Moves the address one frame on; true when the wave interrupt is
    /// raised.
    pub fn step_wave(&mut self) -> bool {
        if !self.running() {
            return false;
        }
        let inc = u32::from(self.fc >> 1);
        let (start, end) = (self.start, self.end);
        let down = self.ctrl & ctrl::DECREASING != 0;
        let (pos, past) = if down {
            let p = self.pos.wrapping_sub(inc) & 0x1FFF_FFFF;
            (
                p,
                (p <= start || p > self.pos).then(|| start.wrapping_sub(p) & 0x1FFF_FFFF),
            )
        } else {
            let p = (self.pos + inc) & 0x1FFF_FFFF;
            (
                p,
                (p >= end || p < self.pos).then(|| p.wrapping_sub(end) & 0x1FFF_FFFF),
            )
        };
        self.pos = pos;
        let Some(over) = past else {
            return false;
        };
        let irq = self.ctrl & ctrl::IRQ_ENABLE != 0;
        if self.vctrl & ctrl::BIT16_ROLLOVER != 0 {
            return irq;
        }
        if self.ctrl & ctrl::LOOP == 0 {
            self.ctrl |= ctrl::STOPPED;
            self.pos = if down { start } else { end };
            return irq;
        }
        let len = end.saturating_sub(start).max(1);
        let over = over % len;
        if self.ctrl & ctrl::BIDIRECTIONAL != 0 {
            self.ctrl ^= ctrl::DECREASING;
            self.pos = if down { start + over } else { end - over };
        } else {
            self.pos = if down { end - over } else { start + over };
        }
        irq
    }

    /// One frame of the volume ramp; true when its interrupt is raised.
    pub fn step_ramp(&mut self) -> bool {
        if !self.ramping() {
            return false;
        }
        self.ramp_count += 1;
        if self.ramp_count < RAMP_DIVIDERS[usize::from(self.rate >> 6)] {
            return false;
        }
        self.ramp_count = 0;
        let inc = i32::from(self.rate & 0x3F);
        let (lo, hi) = (
            i32::from(self.ramp_start) << 4,
            i32::from(self.ramp_end) << 4,
        );
        let down = self.vctrl & ctrl::DECREASING != 0;
        let v = i32::from(self.volume) + if down { -inc } else { inc };
        let reached = if down { v <= lo } else { v >= hi };
        if !reached {
            self.volume = v.clamp(0, 4095) as u16;
            return false;
        }
        let over = if down { lo - v } else { v - hi };
        let irq = self.vctrl & ctrl::IRQ_ENABLE != 0;
        if self.vctrl & ctrl::LOOP == 0 {
            self.vctrl |= ctrl::STOPPED;
            self.volume = (if down { lo } else { hi }).clamp(0, 4095) as u16;
        } else if self.vctrl & ctrl::BIDIRECTIONAL != 0 {
            self.vctrl ^= ctrl::DECREASING;
            let back = if down { lo + over } else { hi - over };
            self.volume = back.clamp(0, 4095) as u16;
        } else {
            let wrap = if down { hi - over } else { lo + over };
            self.volume = wrap.clamp(0, 4095) as u16;
        }
        irq
    }

    /// Frames until the wave's interrupt, when it is enabled and the wave
    /// runs (an estimate that is never late: the crossing frame or
    /// earlier).
    pub fn frames_to_wave_irq(&self) -> Option<u64> {
        if !self.running() || self.ctrl & ctrl::IRQ_ENABLE == 0 {
            return None;
        }
        let inc = u64::from(self.fc >> 1).max(1);
        let dist = if self.ctrl & ctrl::DECREASING != 0 {
            u64::from(self.pos.saturating_sub(self.start))
        } else {
            u64::from(self.end.saturating_sub(self.pos))
        };
        Some(dist.div_ceil(inc).max(1))
    }

    /// Frames until the ramp's interrupt, when it is enabled and the ramp
    /// runs (never late).
    pub fn frames_to_ramp_irq(&self) -> Option<u64> {
        if !self.ramping() || self.vctrl & ctrl::IRQ_ENABLE == 0 {
            return None;
        }
        let inc = u64::from(self.rate & 0x3F).max(1);
        let v = u64::from(self.volume);
        let dist = if self.vctrl & ctrl::DECREASING != 0 {
            v.saturating_sub(u64::from(self.ramp_start) << 4)
        } else {
            (u64::from(self.ramp_end) << 4).saturating_sub(v)
        };
        let div = u64::from(RAMP_DIVIDERS[usize::from(self.rate >> 6)]);
        let first = div.saturating_sub(u64::from(self.ramp_count));
        Some((first + dist.div_ceil(inc).saturating_sub(1) * div).max(1))
    }

    /// One frame: the ramp, then the address.
    pub fn step(&mut self) -> Raised {
        let ramp = self.step_ramp();
        let wave = self.step_wave();
        Raised { wave, ramp }
    }
}
