//! The CD-ROM drives' audio transport: where each drive's head is while it
//! plays Red Book audio, as a function of emulated time.
//!
//! A CD plays 75 sectors a second (Red Book: 2352 bytes, 588 stereo 16-bit
//! frames at 44,100 Hz each), so a play started at cycle `c0` on sector
//! `from` is on sector `from + (now - c0) * 75 / cpu_hz` at cycle `now`,
//! and ends by itself at sector `to`. The drive itself sits behind a
//! software interface (MSCDEX's device driver in `dos`, which owns the
//! disc and answers the program); this device holds only what must follow
//! emulated time and be in the state hash and the save state: per drive,
//! the play in progress (its cycle and range), the paused position, the
//! range of the last play (what "audio status" reports) and the output
//! volumes. It decodes no port and owns no event: the position is
//! computed when asked.
//!
//! What the output stage needs is logged while capture is on
//! ([`CdAudio::set_capture`], [`CdAudio::take_log`]): each start, stop and
//! volume change with its cycle. The audio sectors themselves come from
//! the disc through [`AudioSectors`], which the host attaches
//! ([`CdAudio::attach`]); neither the log nor the discs are machine state.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};

/// Sectors a CD plays per second (Red Book).
pub const SECTORS_PER_SECOND: u64 = 75;
/// Stereo frames in one audio sector (2352 bytes / 4).
pub const FRAMES_PER_SECTOR: u32 = 588;
/// Red Book audio's sample rate.
pub const CD_RATE: u32 = 44_100;
/// Bytes in a raw (Red Book) sector.
pub const RAW_SECTOR: usize = 2352;

/// A disc's audio sectors as the output stage reads them.
pub trait AudioSectors: Send + Sync {
    /// Raw sector `lba` (LBA 0 is MSF 00:02:00) of an audio track: 588
    /// stereo frames, little-endian signed 16-bit, left first. False when
    /// the sector is not audio or cannot be read (heard as silence).
    fn read_audio(&self, lba: u32, out: &mut [u8; RAW_SECTOR]) -> bool;
}

/// A play in progress.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Play {
    /// The cycle it started (or resumed).
    pub cycle: u64,
    /// The sector it started on.
    pub from: u32,
    /// The sector after its last.
    pub to: u32,
}

/// One drive's audio state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct CdDrive {
    /// The play in progress (it may have run out: see [`CdAudio::playing`]).
    pub play: Option<Play>,
    /// Paused at this sector, with the end of the paused play (STOP AUDIO
    /// once; a second stop or a new play clears it).
    pub paused: Option<(u32, u32)>,
    /// The range (from, to) of the last PLAY or RESUME request.
    pub last: (u32, u32),
    /// Output volume of the left and right channel (0-255).
    pub volume: [u8; 2],
    /// The audio channel control block (input channel and volume of
    /// output channels 0-3) as the program last set it.
    pub channels: [u8; 8],
    /// Where the head is when no play is in progress (a seek, a read,
    /// the end of a play).
    pub head: u32,
    /// The door is locked.
    pub locked: bool,
    /// The tray is open (no disc can be read).
    pub open: bool,
    /// The disc changed since the program last asked (IOCTL "media
    /// changed").
    pub changed: bool,
}

impl Default for CdDrive {
    fn default() -> Self {
        CdDrive {
            play: None,
            paused: None,
            last: (0, 0),
            volume: [0xFF, 0xFF],
            channels: [0, 0xFF, 1, 0xFF, 2, 0, 3, 0],
            head: 0,
            locked: false,
            open: false,
            changed: false,
        }
    }
}

/// What the output stage is told, with its cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cue {
    /// Drive `drive` plays sectors `from..to` from this cycle at `volume`.
    Play {
        /// The drive's index.
        drive: usize,
        /// First sector.
        from: u32,
        /// The sector after the last.
        to: u32,
        /// Left and right volume (0-255).
        volume: [u8; 2],
    },
    /// Drive `drive` stops (stop, pause, a seek or a data read).
    Stop {
        /// The drive's index.
        drive: usize,
    },
}

/// The discs the host attached, one per drive (not machine state).
#[derive(Clone, Default)]
pub struct Discs(pub Vec<Option<Arc<dyn AudioSectors>>>);

impl fmt::Debug for Discs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Discs({})", self.0.len())
    }
}

/// The CD-ROM drives' audio.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CdAudio {
    /// The CPU clock, which turns cycles into sectors.
    cpu_hz: u64,
    /// Each drive's state (none until the drives are attached).
    pub drives: Vec<CdDrive>,
    #[serde(skip)]
    capture: bool,
    #[serde(skip)]
    log: Vec<(u64, Cue)>,
    #[serde(skip)]
    discs: Discs,
}

/// Hashes the drives once any leaves its power-on state, so a machine
/// whose CD is never played hashes as one without a drive.
impl Hash for CdAudio {
    fn hash<H: Hasher>(&self, h: &mut H) {
        if self.drives.iter().any(|d| *d != CdDrive::default()) {
            self.drives.hash(h);
        }
    }
}

impl CdAudio {
    /// `n` drives, none playing.
    pub fn set_drives(&mut self, n: usize) {
        self.drives = vec![CdDrive::default(); n];
    }

    /// Attaches the disc of every drive (the host's side: after power-on
    /// and after a save state is loaded).
    pub fn attach(&mut self, discs: Vec<Option<Arc<dyn AudioSectors>>>) {
        self.discs = Discs(discs);
    }

    /// The disc in drive `drive`, for the output stage.
    pub fn disc(&self, drive: usize) -> Option<Arc<dyn AudioSectors>> {
        self.discs.0.get(drive).cloned().flatten()
    }

    /// The sector `play` is on at cycle `now`.
    fn sector_at(&self, play: &Play, now: u64) -> u32 {
        let done = u128::from(now.saturating_sub(play.cycle)) * u128::from(SECTORS_PER_SECOND)
            / u128::from(self.cpu_hz.max(1));
        (u128::from(play.from) + done).min(u128::from(play.to)) as u32
    }

    /// Where drive `d`'s head is at `now`.
    pub fn head(&self, d: usize, now: u64) -> u32 {
        match (self.playing(d, now), self.drives.get(d)) {
            (Some((_, at)), _) => at,
            (None, Some(x)) => match x.play {
                Some(p) => p.to,
                None => x.head,
            },
            (None, None) => 0,
        }
    }

    /// The play drive `d` has in progress at `now` and the sector it is
    /// on; `None` when it is not playing (never started, stopped, paused
    /// or run to its end).
    pub fn playing(&self, d: usize, now: u64) -> Option<(Play, u32)> {
        let p = self.drives.get(d)?.play?;
        let at = self.sector_at(&p, now);
        (at < p.to).then_some((p, at))
    }

    /// Drive `d` plays sectors `from..to` from cycle `now` (a play in
    /// progress is replaced, a pause forgotten).
    pub fn play(&mut self, d: usize, from: u32, to: u32, now: u64) {
        let Some(drive) = self.drives.get_mut(d) else {
            return;
        };
        drive.play = Some(Play {
            cycle: now,
            from,
            to,
        });
        drive.paused = None;
        drive.last = (from, to);
        let volume = drive.volume;
        self.cue(
            now,
            Cue::Play {
                drive: d,
                from,
                to,
                volume,
            },
        );
    }

    /// STOP AUDIO: a play in progress pauses where it is (true); a
    /// paused or finished drive forgets its pause (false).
    pub fn stop(&mut self, d: usize, now: u64) -> bool {
        let at = self.playing(d, now);
        let Some(drive) = self.drives.get_mut(d) else {
            return false;
        };
        if let Some(p) = drive.play.take() {
            drive.head = p.to;
        }
        match at {
            Some((p, sector)) => {
                drive.head = sector;
                drive.paused = Some((sector, p.to));
                self.cue(now, Cue::Stop { drive: d });
                true
            }
            None => {
                drive.paused = None;
                false
            }
        }
    }

    /// A seek or a data read ending on `head`: the audio stops without a
    /// pause to resume.
    pub fn halt(&mut self, d: usize, head: u32, now: u64) {
        let was = self.playing(d, now).is_some();
        if let Some(drive) = self.drives.get_mut(d) {
            drive.play = None;
            drive.paused = None;
            drive.head = head;
        }
        if was {
            self.cue(now, Cue::Stop { drive: d });
        }
    }

    /// RESUME AUDIO: the paused play goes on from where it paused; false
    /// when the drive is not paused.
    pub fn resume(&mut self, d: usize, now: u64) -> bool {
        let Some((at, to)) = self.drives.get(d).and_then(|x| x.paused) else {
            return false;
        };
        self.play(d, at, to, now);
        true
    }

    /// Sets drive `d`'s output volumes (a play in progress goes on at the
    /// new volume from `now`).
    pub fn set_volume(&mut self, d: usize, volume: [u8; 2], now: u64) {
        let at = self.playing(d, now);
        let Some(drive) = self.drives.get_mut(d) else {
            return;
        };
        drive.volume = volume;
        if let Some((p, sector)) = at {
            let last = drive.last;
            drive.play = Some(Play {
                cycle: now,
                from: sector,
                to: p.to,
            });
            self.cue(
                now,
                Cue::Play {
                    drive: d,
                    from: sector,
                    to: p.to,
                    volume,
                },
            );
            if let Some(drive) = self.drives.get_mut(d) {
                drive.last = last;
            }
        }
    }

    fn cue(&mut self, now: u64, c: Cue) {
        if self.capture {
            self.log.push((now, c));
        }
    }

    /// Logs (true) or drops (false, the default) the cues; switching it
    /// off discards those not yet taken.
    pub fn set_capture(&mut self, on: bool) {
        self.capture = on;
        if !on {
            self.log.clear();
        }
    }

    /// The cues logged since the last call, oldest first.
    pub fn take_log(&mut self) -> Vec<(u64, Cue)> {
        std::mem::take(&mut self.log)
    }
}

impl Device for CdAudio {
    const NAME: &'static str = "CD-ROM audio";
    const PORTS: &'static [Ports] = &[];

    fn power_on(config: &MachineConfig) -> Self {
        CdAudio {
            cpu_hz: config.cpu_hz,
            drives: Vec::new(),
            capture: false,
            log: Vec::new(),
            discs: Discs::default(),
        }
    }

    fn read(_bus: &mut PcBus, _port: u16, _now: u64) -> u8 {
        0xFF
    }

    fn write(_bus: &mut PcBus, _port: u16, _v: u8, _now: u64) {}

    fn perturb(&mut self) {
        if self.drives.is_empty() {
            self.set_drives(1);
        }
        self.play(0, 16, 91, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn audio() -> CdAudio {
        let mut a = CdAudio::power_on(&MachineConfig::with_cpu(emu::CpuModel::I386, 7_500_000));
        a.set_drives(1);
        a
    }

    #[test]
    fn the_head_moves_75_sectors_a_second_and_stops_at_the_end() {
        let mut a = audio();
        a.play(0, 1000, 1150, 500);
        // 100,000 cycles a sector at 7.5 MHz.
        assert_eq!(a.playing(0, 500).map(|x| x.1), Some(1000));
        assert_eq!(a.playing(0, 500 + 99_999).map(|x| x.1), Some(1000));
        assert_eq!(a.playing(0, 500 + 100_000).map(|x| x.1), Some(1001));
        assert_eq!(a.playing(0, 500 + 14_900_000).map(|x| x.1), Some(1149));
        assert_eq!(a.playing(0, 500 + 15_000_000), None);
    }

    #[test]
    fn stop_pauses_then_resets_and_resume_goes_on() {
        let mut a = audio();
        a.set_capture(true);
        a.play(0, 100, 200, 0);
        assert!(a.stop(0, 1_000_000)); // 10 sectors in
        assert_eq!(a.drives[0].paused, Some((110, 200)));
        assert!(a.resume(0, 2_000_000));
        assert_eq!(a.playing(0, 2_000_000).map(|x| x.1), Some(110));
        assert!(a.stop(0, 2_100_000));
        assert!(!a.stop(0, 2_200_000));
        assert_eq!(a.drives[0].paused, None);
        assert!(!a.resume(0, 2_300_000));
        let log = a.take_log();
        assert_eq!(log.len(), 4);
        assert_eq!(log[1], (1_000_000, Cue::Stop { drive: 0 }));
    }

    #[test]
    fn an_untouched_drive_hashes_as_none() {
        use std::hash::BuildHasher;
        let s = std::hash::BuildHasherDefault::<crate::hash::Fnv64>::default();
        let mut none = audio();
        none.drives.clear();
        let mut played = audio();
        assert_eq!(s.hash_one(&none), s.hash_one(audio()));
        played.play(0, 0, 10, 0);
        assert_ne!(s.hash_one(&none), s.hash_one(&played));
    }
}
