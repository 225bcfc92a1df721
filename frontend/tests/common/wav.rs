//! WAV files as the sound tests read them: the samples of `--wav`, and
//! where their spectrum peaks.

use std::path::Path;

/// (sample rate, left channel) of a 16-bit stereo PCM WAV, its header
/// checked.
pub fn read_wav(p: &Path) -> (u32, Vec<i16>) {
    let b = std::fs::read(p).expect("the WAV");
    let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    assert_eq!(&b[0..4], b"RIFF");
    assert_eq!(&b[8..16], b"WAVEfmt ");
    assert_eq!(
        (u16_at(20), u16_at(22), u16_at(34)),
        (1, 2, 16),
        "PCM, stereo, 16-bit"
    );
    assert_eq!(&b[36..40], b"data");
    assert_eq!(u32_at(40) as usize, b.len() - 44, "the data size");
    assert_eq!(u32_at(4) as usize, b.len() - 8, "the RIFF size");
    let left = b[44..]
        .chunks_exact(4)
        .map(|f| i16::from_le_bytes([f[0], f[1]]))
        .collect();
    (u32_at(24), left)
}

/// The power of `x` at `hz` (a plain DFT bin, `rate` samples per second).
pub fn power(x: &[i16], hz: f64, rate: u32) -> f64 {
    let w = 2.0 * std::f64::consts::PI * hz / rate as f64;
    let (re, im) = x.iter().enumerate().fold((0.0, 0.0), |(re, im), (i, &v)| {
        let (sn, cs) = (w * i as f64).sin_cos();
        (re + v as f64 * cs, im + v as f64 * sn)
    });
    re * re + im * im
}

/// The frequency of the strongest component of `x` between 50 and 4000 Hz:
/// 10 Hz steps, then 0.1 Hz steps around the best.
pub fn spectral_peak(x: &[i16], rate: u32) -> f64 {
    let best = |freqs: &mut dyn Iterator<Item = f64>| {
        freqs
            .map(|f| (power(x, f, rate), f))
            .fold((f64::MIN, 0.0), |a, b| if b.0 > a.0 { b } else { a })
            .1
    };
    let coarse = best(&mut (5..400).map(|k| k as f64 * 10.0));
    best(&mut (-100..=100).map(|k| coarse + k as f64 * 0.1))
}
