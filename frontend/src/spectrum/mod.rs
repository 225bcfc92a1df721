//! What a sound looks like: short-time spectra of a WAV ([`Spectrogram`]),
//! a picture of them ([`picture`]) and the measures that tell music from
//! silence and noise ([`measures`]). Used by `tandem spectrogram` and by
//! the corpus's sound checks.

pub mod fft;
pub mod measures;
pub mod picture;
pub mod wav_in;

/// A sound: mono samples (in 16-bit sample units) at a rate.
#[derive(Clone, Debug, PartialEq)]
pub struct Sound {
    /// Samples per second.
    pub rate: u32,
    /// The samples.
    pub samples: Vec<f32>,
}

/// Samples per analysis window: 4096 at 44.1 kHz is 93 ms, bins of
/// 10.8 Hz, fine enough to tell semitones apart from about 200 Hz up.
pub const WINDOW: usize = 4096;
/// Samples between the starts of two windows (23 ms at 44.1 kHz).
pub const HOP: usize = 1024;

/// Short-time power spectra of a sound: Hann-windowed [`WINDOW`]-sample
/// slices every [`HOP`] samples, each as power per frequency bin
/// (`WINDOW / 2 + 1` bins of `rate / WINDOW` Hz).
#[derive(Clone, Debug)]
pub struct Spectrogram {
    /// The sound's rate.
    pub rate: u32,
    /// One spectrum per window, in time order.
    pub frames: Vec<Vec<f64>>,
    /// Each window's RMS level (before windowing), in sample units.
    pub levels: Vec<f64>,
}

impl Spectrogram {
    /// The spectra of `sound` (none if it is shorter than a window).
    pub fn new(sound: &Sound) -> Spectrogram {
        let hann: Vec<f64> = (0..WINDOW)
            .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / WINDOW as f64).cos())
            .collect();
        let mut frames = Vec::new();
        let mut levels = Vec::new();
        let mut start = 0;
        while start + WINDOW <= sound.samples.len() {
            let slice = &sound.samples[start..start + WINDOW];
            levels.push(measures::rms(slice));
            let mut re: Vec<f64> = slice
                .iter()
                .zip(&hann)
                .map(|(&s, w)| f64::from(s) * w)
                .collect();
            let mut im = vec![0.0; WINDOW];
            fft::fft(&mut re, &mut im);
            frames.push(
                re.iter()
                    .zip(&im)
                    .take(WINDOW / 2 + 1)
                    .map(|(r, i)| r * r + i * i)
                    .collect(),
            );
            start += HOP;
        }
        Spectrogram {
            rate: sound.rate,
            frames,
            levels,
        }
    }

    /// Hz per bin.
    pub fn bin_hz(&self) -> f64 {
        f64::from(self.rate) / WINDOW as f64
    }

    /// The time of frame `i`'s start, in seconds.
    pub fn time_of(&self, i: usize) -> f64 {
        (i * HOP) as f64 / f64::from(self.rate)
    }
}
