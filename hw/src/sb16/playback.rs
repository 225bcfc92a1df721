//! A DSP DMA transfer in progress: its format, its frame clock and its
//! block count.
//!
//! Frame `k` (counted from the transfer's start, or from the last rate
//! change or continue) plays at the start's cycle plus `(k + 1)` frame
//! periods, rounded up to a whole cycle: the first sample is heard one
//! period after the command, and the block's last one (and its interrupt)
//! a whole block's duration after it. Each frame takes its units from the
//! 8237 when it plays; a channel that cannot transfer (masked, at its end)
//! stalls the DSP: the frame's time passes, the block count does not.

use super::dsp::{Mode, Rate};
use super::Slot;

/// An unsigned 8-bit sample as a signed 16-bit one (80h is silence).
pub fn unsigned8(v: u8) -> i16 {
    ((v as i16) - 128) << 8
}

/// The transfer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Playback {
    /// The format and block, as the command gave them.
    pub mode: Mode,
    /// Frames per second: `num / den`.
    num: u64,
    den: u64,
    /// The cycle the frame clock counts from.
    start: u64,
    /// Frames played (or stalled) since `start`.
    frames: u64,
    /// Samples left in the block.
    left: u32,
    /// D0h/D5h: paused (no frames until continued).
    pub paused: bool,
    /// D9h/DAh: the transfer ends at this block's end.
    pub exit_auto: bool,
    /// 80h: silence, nothing fetched.
    silence: bool,
}

impl Playback {
    /// A transfer of `mode` at `rate`, started at cycle `now`.
    pub fn new(mode: Mode, rate: Rate, now: u64) -> Self {
        let mut p = Playback {
            mode,
            num: 1,
            den: 1,
            start: now,
            frames: 0,
            left: mode.block,
            paused: false,
            exit_auto: false,
            silence: false,
        };
        p.rate(rate);
        p
    }

    /// 80h: `n` samples of silence.
    pub fn silence(n: u32, rate: Rate, now: u64) -> Self {
        let mode = Mode {
            bits16: false,
            stereo: false,
            signed: false,
            auto: false,
            block: n,
            old: true,
            high_speed: false,
        };
        Playback {
            silence: true,
            ..Playback::new(mode, rate, now)
        }
    }

    /// Takes the frame rate from `rate`: a time constant counts bytes, so
    /// an old command's stereo frame (two bytes) takes two periods (the
    /// SB Pro's way, which the SB16 keeps for those commands).
    fn rate(&mut self, rate: Rate) {
        let (num, den) = rate.per_second();
        let halve = matches!(rate, Rate::TimeConstant(_)) && self.mode.old && self.mode.stereo;
        self.num = num;
        self.den = den * if halve { 2 } else { 1 };
    }

    /// The cycle of frame `k` after the start (a damaged save state's zero
    /// clock or rate counts as 1, so the frames still move on).
    fn cycle_of(&self, k: u64, cpu_hz: u64) -> u64 {
        let per = self.den.max(1) as u128 * cpu_hz.max(1) as u128;
        let c = (k as u128 * per).div_ceil(self.num.max(1) as u128);
        self.start + c.min(u64::MAX as u128) as u64
    }

    /// The cycle the next frame plays at (none while paused).
    pub fn next_frame(&self, cpu_hz: u64) -> Option<u64> {
        (!self.paused).then(|| self.cycle_of(self.frames + 1, cpu_hz))
    }

    /// A new rate from cycle `now`: the frame clock restarts at the last
    /// frame played (the next one is a new period after it, or after
    /// `now` when no frame has played yet).
    pub fn set_rate(&mut self, rate: Rate, now: u64, cpu_hz: u64) {
        self.start = if self.frames == 0 {
            now
        } else {
            self.cycle_of(self.frames, cpu_hz)
        };
        self.frames = 0;
        self.rate(rate);
    }

    /// D0h/D5h.
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// D4h/D6h at cycle `now`: the next frame a period later.
    pub fn resume(&mut self, now: u64) {
        if self.paused {
            self.paused = false;
            self.start = now;
            self.frames = 0;
        }
    }

    /// Samples in one frame.
    fn channels(&self) -> u32 {
        1 + self.mode.stereo as u32
    }

    /// The frame's value from channel `ch` of the 8237 (none when it
    /// cannot supply the whole frame).
    pub(crate) fn fetch<S: Slot>(&self, bus: &mut S, ch: usize) -> Option<[i16; 2]> {
        if self.silence {
            return Some([0; 2]);
        }
        let bytes = self.channels() * (1 + self.mode.bits16 as u32);
        let need = bytes / S::dma_width(ch);
        let mut data = Vec::with_capacity(bytes as usize);
        let mut got = 0;
        // An auto-initialized channel reloads at its terminal count: a
        // frame may straddle the end of its buffer.
        for _ in 0..2 {
            let units = bus.dma_read(ch, need - got, &mut data);
            got += units;
            if got == need || units == 0 {
                break;
            }
        }
        if data.len() < bytes as usize {
            return None;
        }
        let samples: Vec<i16> = if self.mode.bits16 {
            data.chunks_exact(2)
                .map(|w| {
                    let v = u16::from_le_bytes([w[0], w[1]]);
                    if self.mode.signed {
                        v as i16
                    } else {
                        (v ^ 0x8000) as i16
                    }
                })
                .collect()
        } else if self.mode.signed {
            data.iter().map(|&b| (b as i8 as i16) << 8).collect()
        } else {
            data.iter().map(|&b| unsigned8(b)).collect()
        };
        let l = samples.first().copied().unwrap_or(0);
        Some([l, samples.get(1).copied().unwrap_or(l)])
    }

    /// One frame's time has passed (`played`: its samples came); true at
    /// the block's end.
    pub fn advance(&mut self, played: bool) -> bool {
        self.frames += 1;
        if !played {
            return false;
        }
        self.left = self.left.saturating_sub(self.channels());
        self.left == 0
    }

    /// An auto-initialized transfer's next block.
    pub fn restart_block(&mut self) {
        self.left = self.mode.block;
    }

    /// Frames per second as a fraction (numerator, denominator): the
    /// programmed rate, halved for an old command's stereo with a time
    /// constant.
    pub fn frame_rate(&self) -> (u64, u64) {
        (self.num, self.den)
    }

    /// Whether this is 80h's silence (nothing fetched).
    pub fn is_silence(&self) -> bool {
        self.silence
    }

    /// Samples left in the block.
    pub fn left(&self) -> u32 {
        self.left
    }
}
