//! A spectrogram as a picture: one column per short-time spectrum (time
//! runs left to right), one row per frequency on a logarithmic scale (low
//! at the bottom, so an octave is the same height everywhere), power in
//! decibels below the loudest bin as a colour from black through blue,
//! magenta, orange and yellow to white.

use std::path::Path;

use super::Spectrogram;

/// Rows of the picture.
pub const ROWS: usize = 360;
/// The frequencies of the bottom and top rows, in Hz (capped at half the
/// sample rate).
pub const RANGE: (f64, f64) = (40.0, 11_000.0);
/// Decibels below the loudest bin that still show (darker is black).
pub const DB_RANGE: f64 = 90.0;

/// The colour map: (position 0..1, RGB) stops, linearly interpolated.
const STOPS: [(f64, [f64; 3]); 6] = [
    (0.0, [0.0, 0.0, 0.0]),
    (0.25, [20.0, 10.0, 120.0]),
    (0.5, [150.0, 20.0, 150.0]),
    (0.7, [245.0, 90.0, 20.0]),
    (0.9, [255.0, 230.0, 40.0]),
    (1.0, [255.0, 255.0, 255.0]),
];

fn colour(t: f64) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0);
    for w in STOPS.windows(2) {
        let ((a, ca), (b, cb)) = (w[0], w[1]);
        if t <= b {
            let f = (t - a) / (b - a);
            return [0, 1, 2].map(|k| (ca[k] + (cb[k] - ca[k]) * f).round() as u8);
        }
    }
    [255, 255, 255]
}

/// The bins row `r` (0 = bottom) covers: from its frequency to the next
/// row's, at least one bin.
fn row_bins(spec: &Spectrogram, r: usize, bins: usize) -> (usize, usize) {
    let top = RANGE.1.min(f64::from(spec.rate) / 2.0);
    let hz = |r: f64| RANGE.0 * (top / RANGE.0).powf(r / ROWS as f64);
    let lo = (hz(r as f64) / spec.bin_hz()).round() as usize;
    let hi = (hz(r as f64 + 1.0) / spec.bin_hz()).round() as usize;
    let lo = lo.min(bins.saturating_sub(1));
    (lo, hi.clamp(lo + 1, bins))
}

/// The picture's RGB bytes, `spec.frames.len()` wide and [`ROWS`] high
/// (None when there are no spectra). Each pixel shows the strongest bin
/// of its row's frequency span.
pub fn render(spec: &Spectrogram) -> Option<(usize, usize, Vec<u8>)> {
    let width = spec.frames.len();
    let bins = spec.frames.first()?.len();
    let peak = spec
        .frames
        .iter()
        .flatten()
        .copied()
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    let spans: Vec<(usize, usize)> = (0..ROWS).map(|r| row_bins(spec, r, bins)).collect();
    let mut rgb = vec![0u8; width * ROWS * 3];
    for (x, frame) in spec.frames.iter().enumerate() {
        for (r, &(lo, hi)) in spans.iter().enumerate() {
            let p = frame[lo..hi].iter().copied().fold(0.0, f64::max);
            let db = 10.0 * (p.max(f64::MIN_POSITIVE) / peak).log10();
            let y = ROWS - 1 - r;
            let at = (y * width + x) * 3;
            rgb[at..at + 3].copy_from_slice(&colour(1.0 + db / DB_RANGE));
        }
    }
    Some((width, ROWS, rgb))
}

/// Why a spectrogram's picture could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// The sound has not one analysis window of samples.
    #[error("the sound is shorter than one analysis window")]
    TooShort,
    /// The file could not be created or written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The PNG encoder failed.
    #[error("{0}")]
    Png(#[from] png::EncodingError),
}

/// Writes the picture of `spec` as an RGB PNG.
pub fn write_png(path: &Path, spec: &Spectrogram) -> Result<(), PictureError> {
    let (w, h, rgb) = render(spec).ok_or(PictureError::TooShort)?;
    crate::app::output::write_png(path, w as u32, h as u32, &rgb)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spectrum::Sound;

    #[test]
    fn a_tone_is_one_bright_row_at_its_height() {
        let rate = 44_100;
        let samples = (0..rate / 2)
            .map(|n| {
                (8000.0 * (2.0 * std::f64::consts::PI * 440.0 * n as f64 / rate as f64).sin())
                    as f32
            })
            .collect();
        let spec = Spectrogram::new(&Sound { rate, samples });
        let (w, h, rgb) = render(&spec).expect("a picture");
        assert_eq!((w, h), (spec.frames.len(), ROWS));
        // The brightest row of the first column is 440 Hz's.
        let bright = |y: usize| {
            rgb[(y * w) * 3..(y * w) * 3 + 3]
                .iter()
                .map(|&c| u32::from(c))
                .sum::<u32>()
        };
        let y = (0..h).max_by_key(|&y| bright(y)).expect("rows");
        let expected = (ROWS as f64 * (440.0 / RANGE.0).ln() / (RANGE.1 / RANGE.0).ln()) as usize;
        let row = ROWS - 1 - y;
        assert!(
            row.abs_diff(expected) <= 2,
            "row {row}, expected {expected}"
        );
        // Far from the tone the picture is dark.
        assert!(bright(0) < 60 && bright(h - 1) < 60);
    }

    #[test]
    fn colours_run_from_black_to_white() {
        assert_eq!(colour(-1.0), [0, 0, 0]);
        assert_eq!(colour(1.0), [255, 255, 255]);
        assert_eq!(colour(0.5), [150, 20, 150]);
    }
}
