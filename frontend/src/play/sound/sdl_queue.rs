//! The window's sound: the [`Mixer`]'s samples through an SDL audio queue.
//!
//! The samples come from emulated time, so sound follows the picture and
//! stops when emulation pauses. The queue is primed with [`PRIME_MS`] of
//! sound before it plays; when it runs dry while playing, that is an
//! underrun: it is counted, and the queue is primed again. More than
//! [`MAX_MS`] queued (the host fell behind and caught up) is dropped to keep
//! the latency bounded.

use sdl2::audio::{AudioQueue, AudioSpecDesired};

use hw::Machine;

use super::Mixer;

/// The rate asked of SDL (it may give another; the mixer follows).
const RATE: i32 = 44_100;
/// Sound queued before playing starts.
pub const PRIME_MS: u32 = 60;
/// Most sound kept queued.
pub const MAX_MS: u32 = 250;

/// The machine's sound devices through SDL audio.
pub struct SdlSound {
    queue: AudioQueue<i16>,
    mixer: Mixer,
    buf: Vec<i16>,
    /// Playing (primed), as opposed to filling up.
    playing: bool,
    /// Emulation is paused by the user: the queue is held.
    held: bool,
    underruns: u64,
    frames: u64,
}

impl SdlSound {
    /// Opens the default audio device (stereo, 16-bit), or None (with a
    /// log line) when there is none.
    pub fn open(sdl: &sdl2::Sdl, m: &mut Machine) -> Option<SdlSound> {
        let audio = sdl.audio().map_err(|e| log::info!("no sound: {e}")).ok()?;
        let want = AudioSpecDesired {
            freq: Some(RATE),
            channels: Some(2),
            samples: Some(1024),
        };
        let queue: AudioQueue<i16> = audio
            .open_queue(None, &want)
            .map_err(|e| log::info!("no sound: {e}"))
            .ok()?;
        let rate = queue.spec().freq.max(1) as u32;
        log::info!("sound: {} at {rate} Hz", audio.current_audio_driver());
        Some(SdlSound {
            queue,
            mixer: Mixer::new(m, rate),
            buf: Vec::new(),
            playing: false,
            held: false,
            underruns: 0,
            frames: 0,
        })
    }

    /// Bytes of `ms` milliseconds of queued sound.
    fn bytes(&self, ms: u32) -> u32 {
        self.mixer.rate() * 4 * ms / 1000
    }

    /// Queues the sound of the emulated time since the last call.
    pub fn frame(&mut self, m: &mut Machine) {
        let frames = self.mixer.pull(m);
        if frames.is_empty() {
            return;
        }
        let queued = self.queue.size();
        if self.playing && queued == 0 {
            self.underruns += 1;
            log::debug!("sound: underrun {}", self.underruns);
            self.playing = false;
            self.queue.pause();
        }
        if queued > self.bytes(MAX_MS) {
            self.queue.clear();
        }
        self.buf.clear();
        self.buf.extend(frames.iter().flatten());
        if let Err(e) = self.queue.queue_audio(&self.buf) {
            log::debug!("sound: {e}");
        }
        self.frames += frames.len() as u64;
        if !self.playing && self.queue.size() >= self.bytes(PRIME_MS) {
            self.playing = true;
            if !self.held {
                self.queue.resume();
            }
        }
    }

    /// The user paused (true) or resumed emulation: the queue holds still.
    pub fn hold(&mut self, held: bool) {
        self.held = held;
        if held {
            self.queue.pause();
        } else if self.playing {
            self.queue.resume();
        }
    }

    /// Underruns so far: times the queue ran dry while playing.
    pub fn underruns(&self) -> u64 {
        self.underruns
    }

    /// Seconds of sound queued so far.
    pub fn seconds(&self) -> f64 {
        self.frames as f64 / f64::from(self.mixer.rate())
    }
}
