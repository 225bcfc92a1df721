//! The window's sound: the [`Mixer`]'s samples through an SDL audio device
//! (its own mixer's, or those of the run's mixer when `--video` has one).
//!
//! The samples come from emulated time, so sound follows the picture and
//! stops when emulation pauses. They wait in a buffer the device's callback
//! drains. The buffer is primed with [`PRIME_MS`] of sound before it
//! plays; when the callback finds less than it needs while playing, that is
//! an underrun: it is counted (exactly, in the callback), the gap is
//! silence, and the buffer is primed again. More than [`MAX_MS`] buffered
//! (the host fell behind and caught up) is dropped, oldest first, to keep
//! the latency bounded.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use sdl2::audio::{AudioCallback, AudioDevice, AudioSpecDesired};

use hw::Machine;

use super::Mixer;

/// The rate asked of SDL (which converts to the device's own).
const RATE: i32 = 44_100;
/// Sound buffered before playing starts.
pub const PRIME_MS: u32 = 60;
/// Most sound kept buffered.
pub const MAX_MS: u32 = 250;

/// What the emulation thread and the audio callback share.
#[derive(Default)]
struct Shared {
    /// Interleaved stereo samples waiting to play.
    buf: VecDeque<i16>,
    /// Playing (primed), as opposed to filling up.
    playing: bool,
    underruns: u64,
}

/// The audio callback: plays what is buffered.
struct Drain(Arc<Mutex<Shared>>);

impl AudioCallback for Drain {
    type Channel = i16;

    fn callback(&mut self, out: &mut [i16]) {
        let mut s = lock(&self.0);
        let n = if s.playing {
            out.len().min(s.buf.len())
        } else {
            0
        };
        for (o, v) in out.iter_mut().zip(s.buf.drain(..n)) {
            *o = v;
        }
        out[n..].fill(0);
        if s.playing && n < out.len() {
            s.underruns += 1;
            s.playing = false;
        }
    }
}

/// Locks the shared buffer (a panicked holder left it usable).
fn lock(m: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The machine's sound devices through SDL audio.
pub struct SdlSound {
    device: AudioDevice<Drain>,
    shared: Arc<Mutex<Shared>>,
    /// Its own mixer, or None when it is given the run's samples.
    mixer: Option<Mixer>,
    rate: u32,
    frames: u64,
}

impl SdlSound {
    /// Opens the default audio device (stereo, 16-bit), or None (with a
    /// log line) when there is none. `given`: the rate of the samples the
    /// run's mixer will give to [`SdlSound::frame`]; None: it hears `m`
    /// with a mixer of its own.
    pub fn open(sdl: &sdl2::Sdl, m: &mut Machine, given: Option<u32>) -> Option<SdlSound> {
        let audio = sdl.audio().map_err(|e| log::info!("no sound: {e}")).ok()?;
        let want = AudioSpecDesired {
            freq: Some(given.map_or(RATE, |r| r as i32)),
            channels: Some(2),
            samples: Some(1024),
        };
        let shared = Arc::new(Mutex::new(Shared::default()));
        let device = audio
            .open_playback(None, &want, |_| Drain(shared.clone()))
            .map_err(|e| log::info!("no sound: {e}"))
            .ok()?;
        let rate = device.spec().freq.max(1) as u32;
        log::info!("sound: {} at {rate} Hz", audio.current_audio_driver());
        device.resume();
        Some(SdlSound {
            device,
            shared,
            mixer: given.is_none().then(|| Mixer::new(m, rate)),
            rate,
            frames: 0,
        })
    }

    /// Interleaved samples in `ms` milliseconds.
    fn samples(&self, ms: u32) -> usize {
        (self.rate * 2 * ms / 1000) as usize
    }

    /// Buffers the sound of the emulated time since the last call: from
    /// its own mixer, else `given` (the run's mixer's samples).
    pub fn frame(&mut self, m: &mut Machine, given: &[[i16; 2]]) {
        let frames = match self.mixer.as_mut() {
            Some(x) => x.pull(m),
            None => given.to_vec(),
        };
        self.frames += frames.len() as u64;
        let (prime, max) = (self.samples(PRIME_MS), self.samples(MAX_MS));
        let mut s = lock(&self.shared);
        s.buf.extend(frames.iter().flatten());
        if s.buf.len() > max {
            let excess = s.buf.len() - max;
            s.buf.drain(..excess);
        }
        if self.frames % 44_100 < frames.len() as u64 {
            log::debug!(
                "sound: {} buffered, {} underruns, playing {}",
                s.buf.len(),
                s.underruns,
                s.playing
            );
        }
        if !s.playing && s.buf.len() >= prime {
            s.playing = true;
        }
    }

    /// The user paused (true) or resumed emulation: the device holds still.
    pub fn hold(&mut self, held: bool) {
        if held {
            self.device.pause();
        } else {
            self.device.resume();
        }
    }

    /// How far to move the host's pacing so that the buffer stays near
    /// [`PRIME_MS`]: the audio device's clock and the host's differ (by
    /// 1% for SDL's disk driver), and only following the device keeps the
    /// buffer from running dry or over. Seconds to add to the pacing's
    /// start (positive: the buffer is fuller than it should be, so
    /// emulation slows down), at most 0.5 ms a frame (3.5% at 70 Hz).
    pub fn pacing_nudge(&self) -> f64 {
        let s = lock(&self.shared);
        if !s.playing {
            return 0.0;
        }
        let level = s.buf.len() as f64 / self.samples(1000) as f64;
        let error = level - f64::from(PRIME_MS) / 1000.0;
        (error * 0.05).clamp(-0.0005, 0.0005)
    }

    /// Underruns so far: times the device wanted more than was buffered.
    pub fn underruns(&self) -> u64 {
        lock(&self.shared).underruns
    }

    /// Seconds of sound produced so far.
    pub fn seconds(&self) -> f64 {
        self.frames as f64 / f64::from(self.rate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_callback_counts_underruns_only_while_playing() {
        let shared = Arc::new(Mutex::new(Shared::default()));
        let mut drain = Drain(shared.clone());
        let mut out = [7i16; 8];
        // Not primed: silence, no underrun, nothing taken.
        lock(&shared).buf.extend([1, 2, 3]);
        drain.callback(&mut out);
        assert_eq!((out, lock(&shared).underruns), ([0; 8], 0));
        assert_eq!(lock(&shared).buf.len(), 3);
        // Playing with enough: played in order.
        {
            let mut s = lock(&shared);
            s.buf.extend(4..=10);
            s.playing = true;
        }
        drain.callback(&mut out);
        assert_eq!(out, [1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(lock(&shared).underruns, 0);
        // Two left for eight wanted: an underrun, the rest silent, and
        // the buffer must be primed again.
        drain.callback(&mut out);
        assert_eq!(out, [9, 10, 0, 0, 0, 0, 0, 0]);
        let s = lock(&shared);
        assert_eq!((s.underruns, s.playing), (1, false));
    }
}
