//! Measures that tell music from silence and from noise: the level (RMS),
//! the spectral flatness of each short-time spectrum (music is a few
//! strong partials, noise spreads its power over every bin) and how many
//! different notes dominate over time (a melody changes; a stuck tone or a
//! hum does not).

use super::{Sound, Spectrogram};

/// The band the spectral measures look at, in Hz: where the fundamentals
/// and strong partials of AdLib music lie, above what a window resolves.
pub const BAND: (f64, f64) = (60.0, 8000.0);
/// A window at least this loud (RMS, 16-bit sample units: about -50 dBFS)
/// is sound; quieter ones are silence or a fading tail.
pub const LOUD: f64 = 100.0;
/// A note counts when it dominates at least this share of the loud
/// windows.
pub const NOTE_SHARE: f64 = 0.02;

/// The RMS level of `s`, in sample units (0 for no samples).
pub fn rms(s: &[f32]) -> f64 {
    if s.is_empty() {
        return 0.0;
    }
    let sum: f64 = s.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
    (sum / s.len() as f64).sqrt()
}

/// The bins of `power` inside [`BAND`].
fn band(power: &[f64], bin_hz: f64) -> &[f64] {
    let lo = ((BAND.0 / bin_hz).ceil() as usize).min(power.len());
    let hi = ((BAND.1 / bin_hz).floor() as usize + 1).clamp(lo, power.len());
    &power[lo..hi]
}

/// The spectral flatness (Wiener entropy) of one power spectrum over
/// [`BAND`]: the geometric mean of the power over its arithmetic mean. It
/// is 1 for a perfectly flat spectrum, about 0.56 for one windowed
/// estimate of white noise, and near 0 for a few tones. Each bin is
/// floored at 10^-10 of the strongest (-100 dB), so an empty bin counts as
/// very quiet rather than as minus infinity. 1 for an all-zero band.
pub fn flatness(power: &[f64], bin_hz: f64) -> f64 {
    let b = band(power, bin_hz);
    let peak = b.iter().copied().fold(0.0, f64::max);
    if b.is_empty() || peak <= 0.0 {
        return 1.0;
    }
    let floor = peak * 1e-10;
    let n = b.len() as f64;
    let log_mean = b.iter().map(|&p| p.max(floor).ln()).sum::<f64>() / n;
    let mean = b.iter().map(|&p| p.max(floor)).sum::<f64>() / n;
    log_mean.exp() / mean
}

/// The MIDI note number (69 = A4 = 440 Hz, 12 per octave) nearest to the
/// strongest bin of `power` inside [`BAND`].
pub fn dominant_note(power: &[f64], bin_hz: f64) -> Option<i32> {
    let lo = (BAND.0 / bin_hz).ceil() as usize;
    let (i, &p) = band(power, bin_hz)
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))?;
    if p <= 0.0 {
        return None;
    }
    let hz = (lo + i) as f64 * bin_hz;
    Some((69.0 + 12.0 * (hz / 440.0).log2()).round() as i32)
}

/// What a stretch of sound is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Music {
    /// RMS level of the stretch, in sample units.
    pub rms: f64,
    /// Median spectral flatness of its loud windows (1 when none is loud).
    pub flatness: f64,
    /// How many different notes dominate at least [`NOTE_SHARE`] of its
    /// loud windows.
    pub notes: usize,
    /// The share of its windows that are loud.
    pub loud: f64,
}

impl std::fmt::Display for Music {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "RMS {:.0}, median flatness {:.3}, {} notes, {:.0}% loud",
            self.rms,
            self.flatness,
            self.notes,
            self.loud * 100.0
        )
    }
}

/// Measures `sound` (with its spectra `spec`) from second `from` to its
/// end.
pub fn judge(sound: &Sound, spec: &Spectrogram, from: f64) -> Music {
    let first = ((from.max(0.0) * f64::from(sound.rate)) as usize).min(sound.samples.len());
    let frames: Vec<usize> = (0..spec.frames.len())
        .filter(|&i| spec.time_of(i) >= from)
        .collect();
    let loud: Vec<usize> = frames
        .iter()
        .copied()
        .filter(|&i| spec.levels[i] >= LOUD)
        .collect();
    let bin_hz = spec.bin_hz();
    let mut flat: Vec<f64> = loud
        .iter()
        .map(|&i| flatness(&spec.frames[i], bin_hz))
        .collect();
    flat.sort_by(f64::total_cmp);
    let mut counts = std::collections::BTreeMap::new();
    for &i in &loud {
        if let Some(n) = dominant_note(&spec.frames[i], bin_hz) {
            *counts.entry(n).or_insert(0usize) += 1;
        }
    }
    let need = (loud.len() as f64 * NOTE_SHARE).ceil().max(1.0) as usize;
    Music {
        rms: rms(&sound.samples[first..]),
        flatness: flat.get(flat.len() / 2).copied().unwrap_or(1.0),
        notes: counts.values().filter(|&&c| c >= need).count(),
        loud: if frames.is_empty() {
            0.0
        } else {
            loud.len() as f64 / frames.len() as f64
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RATE: u32 = 44_100;

    fn tone(hz: f64, seconds: f64) -> Vec<f32> {
        (0..(seconds * f64::from(RATE)) as usize)
            .map(|n| {
                (8000.0 * (2.0 * std::f64::consts::PI * hz * n as f64 / f64::from(RATE)).sin())
                    as f32
            })
            .collect()
    }

    fn measure(samples: Vec<f32>) -> Music {
        let sound = Sound {
            rate: RATE,
            samples,
        };
        let spec = Spectrogram::new(&sound);
        judge(&sound, &spec, 0.0)
    }

    #[test]
    fn a_melody_is_music() {
        // A C major arpeggio: C4 E4 G4 C5, half a second each.
        let mut s = Vec::new();
        for hz in [261.63, 329.63, 392.0, 523.25] {
            s.extend(tone(hz, 0.5));
        }
        let m = measure(s);
        assert!(m.flatness < 0.05, "{m}");
        assert_eq!(m.notes, 4, "{m}");
        assert!((m.rms - 8000.0 / 2f64.sqrt()).abs() < 50.0, "{m}");
        assert!(m.loud > 0.99, "{m}");
    }

    #[test]
    fn a_held_tone_is_one_note() {
        let m = measure(tone(440.0, 2.0));
        assert_eq!(m.notes, 1, "{m}");
        let spec = Spectrogram::new(&Sound {
            rate: RATE,
            samples: tone(440.0, 0.2),
        });
        assert_eq!(dominant_note(&spec.frames[0], spec.bin_hz()), Some(69));
    }

    #[test]
    fn noise_is_flat_and_silence_is_quiet() {
        // White noise from a linear congruential generator.
        let mut x: u32 = 12345;
        let noise: Vec<f32> = (0..RATE)
            .map(|_| {
                x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                f32::from((x >> 16) as u16 as i16) / 4.0
            })
            .collect();
        let m = measure(noise);
        assert!(m.flatness > 0.4, "{m}");
        let m = measure(vec![0.0; RATE as usize]);
        assert_eq!((m.rms, m.loud, m.notes, m.flatness), (0.0, 0.0, 0, 1.0));
    }
}
