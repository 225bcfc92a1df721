//! `--wav FILE`: what a headless run would have sounded like, as a 16-bit
//! stereo PCM WAV at 44100 or 48000 Hz: every sound device mixed by the
//! run's [`Mixer`](super::sound::Mixer), which is a function of emulated
//! time only, so the same run gives the same bytes every time.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

/// The output rates `--wav-rate` takes.
pub const RATES: [u32; 2] = [44_100, 48_000];

/// Bytes of the RIFF/WAVE header before the samples.
const HEADER: u32 = 44;

/// A WAV file being written from the mixer's samples.
pub struct WavOut {
    file: BufWriter<File>,
    rate: u32,
    /// Output samples written.
    written: u64,
}

impl WavOut {
    /// Starts a WAV at `path` at `rate` Hz.
    pub fn create(path: &Path, rate: u32) -> io::Result<WavOut> {
        let mut file = BufWriter::new(File::create(path)?);
        file.write_all(&header(rate, 0))?;
        Ok(WavOut {
            file,
            rate,
            written: 0,
        })
    }

    /// Writes the rest (`last`: the mixer's final samples) and completes
    /// the header.
    pub fn finish(mut self, last: &[[i16; 2]]) -> io::Result<()> {
        let rate = self.rate;
        self.write(last)?;
        let bytes = self
            .written
            .saturating_mul(4)
            .min(u64::from(u32::MAX - HEADER));
        self.file.seek(SeekFrom::Start(0))?;
        self.file.write_all(&header(rate, bytes as u32))?;
        crate::app::output::finish(self.file)
    }

    /// Writes the mixer's next samples.
    pub fn write(&mut self, frames: &[[i16; 2]]) -> io::Result<()> {
        for f in frames {
            let [l, r] = f.map(i16::to_le_bytes);
            self.file.write_all(&[l[0], l[1], r[0], r[1]])?;
        }
        self.written += frames.len() as u64;
        Ok(())
    }
}

/// The 44-byte header of a 16-bit stereo PCM WAV with `bytes` of samples.
fn header(rate: u32, bytes: u32) -> [u8; HEADER as usize] {
    let mut h = [0u8; HEADER as usize];
    let fields: [(&[u8], usize); 13] = [
        (b"RIFF", 0),
        (&(bytes + HEADER - 8).to_le_bytes(), 4),
        (b"WAVE", 8),
        (b"fmt ", 12),
        (&16u32.to_le_bytes(), 16),
        (&1u16.to_le_bytes(), 20), // PCM
        (&2u16.to_le_bytes(), 22), // stereo
        (&rate.to_le_bytes(), 24),
        (&(rate * 4).to_le_bytes(), 28), // bytes per second
        (&4u16.to_le_bytes(), 32),       // bytes per frame
        (&16u16.to_le_bytes(), 34),      // bits per sample
        (b"data", 36),
        (&bytes.to_le_bytes(), 40),
    ];
    for (b, at) in fields {
        h[at..at + b.len()].copy_from_slice(b);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_fields() {
        let h = header(48_000, 400);
        assert_eq!(&h[0..4], b"RIFF");
        assert_eq!(u32::from_le_bytes([h[4], h[5], h[6], h[7]]), 436);
        assert_eq!(u32::from_le_bytes([h[24], h[25], h[26], h[27]]), 48_000);
        assert_eq!(u32::from_le_bytes([h[28], h[29], h[30], h[31]]), 192_000);
        assert_eq!(&h[36..40], b"data");
        assert_eq!(u32::from_le_bytes([h[40], h[41], h[42], h[43]]), 400);
    }
}
