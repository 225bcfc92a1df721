//! The Sound Blaster 16's mixer, the Creative CT1745 (Sound Blaster Series
//! Hardware Programming Guide, "Mixer chip CT1745"): an index written at
//! base+4, the register read and written at base+5.
//!
//! Modelled: the reset (any write to 00h), the volume registers 30h-3Bh
//! (5 bits in bits 7-3, 32 steps of 2 dB from -62 dB to 0 dB; the PC
//! speaker's 3Bh has 2 bits), the SB Pro compatibility registers (04h voice,
//! 0Ah mic, 22h master, 26h FM, 28h CD, 2Eh line: 4 bits per side, mapped
//! onto the 5-bit registers as the CT1745 does), the output gain 41h/42h
//! (x1, x2, x4, x8), the SB Pro output control 0Eh (bit 1: stereo for the
//! old 8-bit DMA commands), the IRQ select 80h, the DMA select 81h and the
//! interrupt status 82h. The other registers (input switches and gains,
//! AGC, tone controls) are storage: what they set is not heard.

use std::hash::Hash;

/// The registers' values after a write to 00h (the guide's "Reset"
/// column): master, voice and FM at 24 (-14 dB), the rest silent, tone
/// controls at 0 dB (8), the output switches all on.
const RESET: &[(u8, u8)] = &[
    (0x30, 0xC0),
    (0x31, 0xC0),
    (0x32, 0xC0),
    (0x33, 0xC0),
    (0x34, 0xC0),
    (0x35, 0xC0),
    (0x3C, 0x1F),
    (0x3D, 0x15),
    (0x3E, 0x0B),
    (0x44, 0x80),
    (0x45, 0x80),
    (0x46, 0x80),
    (0x47, 0x80),
];

/// A 5-bit level (0-31, -2 dB a step from 0 dB) as a gain in 1/32768ths:
/// round(32768 * 10^(-(31 - n) / 10)).
const GAIN_Q15: [u32; 32] = [
    26, 33, 41, 52, 65, 82, 104, 130, 164, 207, 260, 328, 413, 519, 654, 823, 1036, 1305, 1642,
    2068, 2603, 3277, 4125, 5193, 6538, 8231, 10362, 13045, 16423, 20675, 26029, 32768,
];

/// The SB Pro compatibility registers and the left register of the
/// CT1745 pair each one sets (the right one follows it).
const PRO_PAIRS: &[(u8, u8)] = &[
    (0x04, 0x32),
    (0x22, 0x30),
    (0x26, 0x34),
    (0x28, 0x36),
    (0x2E, 0x38),
];

/// The IRQ select bits of register 80h (bit n: the IRQ at index n).
pub const IRQ_SELECT: [u8; 4] = [2, 5, 7, 10];

/// The channels register 81h selects (bit n: channel n; 2 and 4 unused).
const DMA_CHANNELS: [u8; 6] = [0, 1, 3, 5, 6, 7];

/// The CT1745's registers.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Mixer {
    /// The index last written to base+4.
    pub index: u8,
    /// Registers 00h-FFh as written (80h-82h are kept by the card).
    #[serde(deserialize_with = "all_registers")]
    regs: Vec<u8>,
}

/// Where a register write changed something the card must act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Only the stored registers (perhaps the volumes).
    Levels,
    /// 80h: the IRQ line is now this one.
    Irq(u8),
    /// 81h: the 8-bit and 16-bit DMA channels.
    Dma(u8, u8),
}

impl Mixer {
    /// The mixer as a configured DOS leaves it: every volume at 0 dB
    /// (Creative's driver sets the levels at boot; a program that wants
    /// the CT1745's own reset values writes 00h).
    pub fn new() -> Self {
        let mut m = Mixer {
            index: 0,
            regs: vec![0; 256],
        };
        m.reset();
        for r in 0x30..=0x35 {
            m.regs[r] = 0xF8;
        }
        m
    }

    /// Register 00h: every register to its reset value.
    pub fn reset(&mut self) {
        for r in 0..0x80 {
            self.regs[r] = 0;
        }
        for &(r, v) in RESET {
            self.regs[r as usize] = v;
        }
    }

    /// A read of register `self.index` (80h-82h come from the card, which
    /// passes its IRQ, DMA channels and pending interrupts).
    pub fn read(&self, irq: u8, dma8: u8, dma16: u8, status: u8) -> u8 {
        let i = self.index;
        if let Some(&(_, l)) = PRO_PAIRS.iter().find(|&&(p, _)| p == i) {
            let (l, r) = (self.regs[l as usize], self.regs[l as usize + 1]);
            return (l & 0xF0) | (r >> 4);
        }
        match i {
            0x0A => self.regs[0x3A] >> 5,
            0x80 => select_bits(&IRQ_SELECT, &[irq]),
            0x81 => (1 << (dma8 & 7)) | (1 << (dma16 & 7)),
            0x82 => status & 0x07,
            _ => self.regs[i as usize],
        }
    }

    /// A write of `v` to register `self.index`.
    pub fn write(&mut self, v: u8) -> Effect {
        let i = self.index;
        if let Some(&(_, l)) = PRO_PAIRS.iter().find(|&&(p, _)| p == i) {
            // A 4-bit level n becomes the 5-bit level 2n + 1 (0 dB at Fh).
            self.regs[l as usize] = (v & 0xF0) | 0x08;
            self.regs[l as usize + 1] = (v << 4) | 0x08;
            return Effect::Levels;
        }
        match i {
            0x00 => self.reset(),
            0x0A => self.regs[0x3A] = (v & 0x07) << 5 | 0x10,
            0x80 => {
                if let Some(&irq) = IRQ_SELECT
                    .iter()
                    .enumerate()
                    .find_map(|(b, q)| (v >> b & 1 != 0).then_some(q))
                {
                    return Effect::Irq(irq);
                }
            }
            0x81 => {
                let on = |lo: bool| {
                    DMA_CHANNELS
                        .into_iter()
                        .find(|&c| (c < 4) == lo && v >> c & 1 != 0)
                };
                let (dma8, dma16) = (on(true), on(false));
                // Without a 16-bit channel the SB16 moves 16-bit data over
                // the 8-bit one.
                if let Some(d8) = dma8 {
                    return Effect::Dma(d8, dma16.unwrap_or(d8));
                }
            }
            0x82 => {}
            _ => self.regs[i as usize] = v,
        }
        Effect::Levels
    }

    /// A register as stored.
    pub fn reg(&self, i: u8) -> u8 {
        self.regs[i as usize]
    }

    /// The gain pair (left, right, in 1/32768ths) of the 5-bit level
    /// registers `l` and `l + 1`.
    fn pair(&self, l: u8) -> [u32; 2] {
        [0, 1].map(|k| GAIN_Q15[(self.regs[(l + k) as usize] >> 3) as usize])
    }

    /// What the card's output stage does to a source whose level pair
    /// starts at `l`: the source's volume, then master, then output gain
    /// (41h/42h bits 7-6: x1, x2, x4, x8), per side in 1/32768ths.
    fn path(&self, l: u8) -> [u32; 2] {
        let (src, master) = (self.pair(l), self.pair(0x30));
        [0, 1].map(|k| {
            let gain = 1 << (self.regs[0x41 + k] >> 6);
            (((src[k] as u64 * master[k] as u64) >> 15) as u32) * gain
        })
    }

    /// The digitized voice's (the DSP's) gain per side, in 1/32768ths.
    pub fn voice_gain(&self) -> [u32; 2] {
        self.path(0x32)
    }

    /// The FM (OPL3) gain per side, in 1/32768ths, for whoever renders
    /// the OPL3 behind this card.
    pub fn fm_gain(&self) -> [u32; 2] {
        self.path(0x34)
    }

    /// Register 0Eh bit 1: the old 8-bit DMA commands play stereo.
    pub fn pro_stereo(&self) -> bool {
        self.regs[0x0E] & 0x02 != 0
    }
}

impl Default for Mixer {
    fn default() -> Self {
        Mixer::new()
    }
}

/// The registers of a save state, 256 whatever the file says (a damaged
/// state must not index past them).
fn all_registers<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    let mut v = <Vec<u8> as serde::Deserialize>::deserialize(d)?;
    v.resize(256, 0);
    Ok(v)
}

/// Applies a gain in 1/32768ths to a sample, clamped to 16 bits.
pub fn apply(x: i16, gain: u32) -> i16 {
    let y = (x as i64 * gain as i64) >> 15;
    y.clamp(i16::MIN as i64, i16::MAX as i64) as i16
}

/// The select register's bits for `values` (bit n set when `table[n]` is
/// among them).
fn select_bits(table: &[u8], values: &[u8]) -> u8 {
    table
        .iter()
        .enumerate()
        .filter(|(_, v)| values.contains(v))
        .fold(0, |acc, (b, _)| acc | 1 << b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wr(m: &mut Mixer, i: u8, v: u8) -> Effect {
        m.index = i;
        m.write(v)
    }

    fn rd(m: &mut Mixer, i: u8) -> u8 {
        m.index = i;
        m.read(5, 1, 5, 0)
    }

    #[test]
    fn reset_gives_the_datasheet_values() {
        let mut m = Mixer::new();
        assert_eq!(rd(&mut m, 0x30), 0xF8, "power-on: 0 dB");
        assert_eq!(m.voice_gain(), [32768, 32768]);
        wr(&mut m, 0x00, 0x00);
        for (i, v) in [
            (0x30, 0xC0),
            (0x32, 0xC0),
            (0x35, 0xC0),
            (0x36, 0),
            (0x3C, 0x1F),
            (0x44, 0x80),
        ] {
            assert_eq!(rd(&mut m, i), v, "register {i:02X}h");
        }
        // -14 dB twice (voice and master): 10^(-28/20).
        let g = m.voice_gain()[0] as f64 / 32768.0;
        assert!((g - 10f64.powf(-28.0 / 20.0)).abs() < 0.001, "{g}");
    }

    #[test]
    fn pro_registers_map_onto_the_ct1745_pairs() {
        let mut m = Mixer::new();
        wr(&mut m, 0x04, 0x3C);
        assert_eq!(rd(&mut m, 0x32), 0x38, "left 3 -> level 7");
        assert_eq!(rd(&mut m, 0x33), 0xC8, "right C -> level 25");
        assert_eq!(rd(&mut m, 0x04), 0x3C);
        wr(&mut m, 0x22, 0xFF);
        assert_eq!(rd(&mut m, 0x30), 0xF8);
        wr(&mut m, 0x0A, 0x05);
        assert_eq!(rd(&mut m, 0x0A), 0x05);
        wr(&mut m, 0x31, 0x00);
        assert_eq!(rd(&mut m, 0x22) & 0x0F, 0x00);
        assert_eq!(m.voice_gain()[1], (GAIN_Q15[25] * GAIN_Q15[0]) >> 15);
    }

    #[test]
    fn output_gain_and_fm_gain() {
        let mut m = Mixer::new();
        wr(&mut m, 0x41, 0xC0);
        assert_eq!(m.voice_gain(), [8 * 32768, 32768]);
        wr(&mut m, 0x35, 0x00);
        assert_eq!(m.fm_gain(), [8 * 32768, GAIN_Q15[0]]);
        assert_eq!(apply(-32768, 8 * 32768), i16::MIN);
        assert_eq!(apply(1000, 16384), 500);
    }

    #[test]
    fn irq_and_dma_select() {
        let mut m = Mixer::new();
        assert_eq!(rd(&mut m, 0x80), 0x02, "IRQ 5");
        assert_eq!(rd(&mut m, 0x81), 0x22, "DMA 1 and 5");
        assert_eq!(wr(&mut m, 0x80, 0x08), Effect::Irq(10));
        assert_eq!(wr(&mut m, 0x80, 0x00), Effect::Levels, "no line: ignored");
        assert_eq!(wr(&mut m, 0x81, 0x48), Effect::Dma(3, 6));
        assert_eq!(wr(&mut m, 0x81, 0x01), Effect::Dma(0, 0));
        m.index = 0x82;
        assert_eq!(m.read(5, 1, 5, 0x03), 0x03);
    }
}
