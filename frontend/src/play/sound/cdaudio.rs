//! The CD-ROM drives' Red Book audio as a [`Source`]: the sectors a drive
//! plays (`hw::cdaudio`), read from its disc and heard from the output
//! sample of the PLAY request's cycle on.
//!
//! The drive logs each start, stop and volume change with its cycle; a
//! play that starts at output sample `s0` puts CD frame `k` (588 a sector,
//! 44,100 a second) at output sample `s0 + k * rate / 44100`, each output
//! sample taking the CD frame it falls in (at 44.1 kHz, the WAV's default
//! rate, every frame once, unchanged). A play ends by itself after its
//! last sector. The volume of each channel (0-255, MSCDEX's audio channel
//! control) scales it.

use std::collections::VecDeque;
use std::sync::Arc;

use hw::cdaudio::{AudioSectors, Cue, CD_RATE, FRAMES_PER_SECTOR, RAW_SECTOR};
use hw::Machine;

use super::{Clock, Source};

/// One drive's play as heard.
#[derive(Clone, Copy)]
struct Voice {
    /// The output sample it starts at.
    start: u64,
    from: u32,
    to: u32,
    volume: [u8; 2],
}

/// One drive: its disc, its play, the last sector read.
struct Drive {
    disc: Option<Arc<dyn AudioSectors>>,
    voice: Option<Voice>,
    sector: Option<(u32, Box<[u8; RAW_SECTOR]>)>,
}

impl Drive {
    /// Frame `k` of sector `lba` (left, right).
    fn frame(&mut self, lba: u32, k: u32) -> [i32; 2] {
        let Some(disc) = &self.disc else {
            return [0, 0];
        };
        if self.sector.as_ref().map(|s| s.0) != Some(lba) {
            let mut buf = Box::new([0u8; RAW_SECTOR]);
            if !disc.read_audio(lba, &mut buf) {
                buf.fill(0);
            }
            self.sector = Some((lba, buf));
        }
        let Some((_, b)) = &self.sector else {
            return [0, 0];
        };
        let o = k as usize * 4;
        [
            i32::from(i16::from_le_bytes([b[o], b[o + 1]])),
            i32::from(i16::from_le_bytes([b[o + 2], b[o + 3]])),
        ]
    }
}

/// Every CD-ROM drive's audio.
pub struct CdAudioSource {
    clock: Clock,
    drives: Vec<Drive>,
    /// Cues taken and not yet reached: (output sample, cue).
    pending: VecDeque<(u64, Cue)>,
}

impl CdAudioSource {
    /// Hears the drives of `m` from its present (a play in progress, as
    /// after a save state, goes on).
    pub fn new(m: &mut Machine, clock: Clock) -> CdAudioSource {
        let cd = &mut m.bus.dev.cdaudio;
        cd.set_capture(true);
        let now = m.cycles();
        let cd = &m.bus.dev.cdaudio;
        let drives = (0..cd.drives.len())
            .map(|d| Drive {
                disc: cd.disc(d),
                voice: cd.playing(d, now).map(|(p, _)| Voice {
                    start: clock.sample_at(p.cycle),
                    from: p.from,
                    to: p.to,
                    volume: cd.drives[d].volume,
                }),
                sector: None,
            })
            .collect();
        CdAudioSource {
            clock,
            drives,
            pending: VecDeque::new(),
        }
    }

    fn apply(&mut self, at: u64, cue: Cue) {
        match cue {
            Cue::Play {
                drive,
                from,
                to,
                volume,
            } => {
                if let Some(d) = self.drives.get_mut(drive) {
                    d.voice = Some(Voice {
                        start: at,
                        from,
                        to,
                        volume,
                    });
                }
            }
            Cue::Stop { drive } => {
                if let Some(d) = self.drives.get_mut(drive) {
                    d.voice = None;
                }
            }
        }
    }
}

impl Source for CdAudioSource {
    fn take(&mut self, m: &mut Machine) {
        for (cycle, cue) in m.bus.dev.cdaudio.take_log() {
            self.pending.push_back((self.clock.sample_at(cycle), cue));
        }
    }

    fn mix(&mut self, first: u64, out: &mut [[i32; 2]], _end: bool) {
        let rate = self.clock.rate;
        for (i, acc) in out.iter_mut().enumerate() {
            let n = first + i as u64;
            while let Some(&(at, cue)) = self.pending.front() {
                if at > n {
                    break;
                }
                self.pending.pop_front();
                self.apply(at, cue);
            }
            for d in &mut self.drives {
                let Some(v) = d.voice else {
                    continue;
                };
                let k = (n - v.start.min(n)) * u64::from(CD_RATE) / rate;
                let sector = u64::from(v.from) + k / u64::from(FRAMES_PER_SECTOR);
                if sector >= u64::from(v.to) {
                    d.voice = None;
                    continue;
                }
                let f = d.frame(sector as u32, (k % u64::from(FRAMES_PER_SECTOR)) as u32);
                acc[0] += f[0] * i32::from(v.volume[0]) / 255;
                acc[1] += f[1] * i32::from(v.volume[1]) / 255;
            }
        }
    }
}
