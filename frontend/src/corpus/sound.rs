//! The corpus's sound check: a program whose entry has `music_from` plays
//! music from that second on. Its run writes OUT/NAME.wav (every sound
//! device mixed, as `tandem run --wav` writes it) and
//! OUT/NAME.spectrogram.png; the stretch from `music_from` to the end must
//! be loud enough, made of a few strong partials rather than noise, and
//! change notes (the measures of [`crate::spectrum::measures`]).

use std::path::Path;

use crate::app::error::Error;
use crate::spectrum::measures::{self, Music};
use crate::spectrum::{picture, wav_in, Spectrogram};

/// The least RMS level of music, in 16-bit sample units (about -36 dBFS;
/// the corpus's AdLib music measures 2000-6000).
pub const MIN_RMS: f64 = 500.0;
/// The greatest median spectral flatness of music (white noise measures
/// about 0.56, the corpus's AdLib music 0.03 or less).
pub const MAX_FLATNESS: f64 = 0.2;
/// The least count of different dominant notes: a tune, not a held tone.
pub const MIN_NOTES: usize = 3;
/// The least share of loud windows: music plays most of the time.
pub const MIN_LOUD: f64 = 0.5;

/// Measures the WAV at `wav` from second `from` on and draws its
/// spectrogram to `png`. The measures, or why the WAV cannot be judged.
pub fn measure(wav: &Path, png: &Path, from: f64) -> Result<Music, Error> {
    let sound = wav_in::read(wav).map_err(|e| format!("{}: {e}", wav.display()))?;
    let spec = Spectrogram::new(&sound);
    picture::write_png(png, &spec).map_err(|e| format!("{}: {e}", png.display()))?;
    Ok(measures::judge(&sound, &spec, from))
}

/// What keeps `m` from being music, in words (empty when it is music).
pub fn problems(m: &Music) -> Vec<String> {
    let mut p = Vec::new();
    if m.rms < MIN_RMS {
        p.push(format!("too quiet (RMS {:.0} < {MIN_RMS})", m.rms));
    }
    if m.loud < MIN_LOUD {
        p.push(format!(
            "silent most of the time ({:.0}% loud < {:.0}%)",
            m.loud * 100.0,
            MIN_LOUD * 100.0
        ));
    }
    if m.flatness > MAX_FLATNESS {
        p.push(format!(
            "noise, not tones (median flatness {:.3} > {MAX_FLATNESS})",
            m.flatness
        ));
    }
    if m.notes < MIN_NOTES {
        p.push(format!(
            "no tune ({} dominant notes < {MIN_NOTES})",
            m.notes
        ));
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_measure_can_fail_the_check() {
        let music = Music {
            rms: 2000.0,
            flatness: 0.02,
            notes: 6,
            loud: 0.9,
        };
        assert!(problems(&music).is_empty());
        for (bad, what) in [
            (
                Music {
                    rms: 100.0,
                    ..music
                },
                "too quiet",
            ),
            (Music { loud: 0.1, ..music }, "silent most"),
            (
                Music {
                    flatness: 0.5,
                    ..music
                },
                "noise",
            ),
            (Music { notes: 1, ..music }, "no tune"),
        ] {
            let p = problems(&bad);
            assert_eq!(p.len(), 1, "{p:?}");
            assert!(p[0].contains(what), "{p:?}");
        }
    }
}
