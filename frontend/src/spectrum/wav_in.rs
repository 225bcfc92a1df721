//! Reads a 16-bit PCM WAV (what `--wav` writes, or any mono/stereo
//! 16-bit RIFF WAVE file) into a mono [`Sound`].

use std::path::Path;

use super::Sound;

/// Why a WAV cannot be read, in a few words.
#[derive(Debug, thiserror::Error)]
pub enum WavError {
    /// The host could not read the file.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Not a regular file, or larger than [`MAX_BYTES`].
    #[error("{0}")]
    File(#[from] dos::input_file::InputFileError),
    /// It is no RIFF WAVE file.
    #[error("not a RIFF WAVE file")]
    NotWave,
    /// Its "fmt " chunk is cut short.
    #[error("a short fmt chunk")]
    ShortFmt,
    /// Its samples come before their format.
    #[error("data before the fmt chunk")]
    DataFirst,
    /// Samples of a format other than 16-bit PCM, mono or stereo.
    #[error(
        "format {tag}, {channels} channels, {bits} bits: only 16-bit PCM mono or stereo is read"
    )]
    Format {
        /// The format tag (1: PCM).
        tag: u16,
        /// Channels.
        channels: u16,
        /// Bits per sample.
        bits: u16,
    },
    /// It has no samples.
    #[error("no data chunk")]
    NoData,
}

/// The largest WAV read: about 50 minutes of 16-bit stereo at 44.1 kHz.
pub const MAX_BYTES: u64 = 512 << 20;

/// Reads the WAV at `path`: a regular file of at most [`MAX_BYTES`].
pub fn read(path: &Path) -> Result<Sound, WavError> {
    let bytes = dos::input_file::read_bounded(path, MAX_BYTES, "a WAV")?;
    parse(&bytes)
}

fn le16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes([*b.get(at)?, *b.get(at + 1)?]))
}

fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// Parses a RIFF WAVE file held in memory: its "fmt " chunk must say PCM,
/// one or two channels, 16 bits; the "data" chunk's samples are mixed to
/// mono ((L + R) / 2, in sample units).
pub fn parse(b: &[u8]) -> Result<Sound, WavError> {
    if b.get(0..4) != Some(b"RIFF") || b.get(8..12) != Some(b"WAVE") {
        return Err(WavError::NotWave);
    }
    let mut at = 12;
    let mut format: Option<(u16, u16, u32, u16)> = None;
    while let (Some(id), Some(len)) = (b.get(at..at + 4), le32(b, at + 4)) {
        let body = at + 8;
        let end = body.saturating_add(len as usize).min(b.len());
        match id {
            b"fmt " => {
                let f = (|| {
                    Some((
                        le16(b, body)?,
                        le16(b, body + 2)?,
                        le32(b, body + 4)?,
                        le16(b, body + 14)?,
                    ))
                })();
                format = Some(f.ok_or(WavError::ShortFmt)?);
            }
            b"data" => {
                let (tag, channels, rate, bits) = format.ok_or(WavError::DataFirst)?;
                if tag != 1 || bits != 16 || !(1..=2).contains(&channels) || rate == 0 {
                    return Err(WavError::Format {
                        tag,
                        channels,
                        bits,
                    });
                }
                return Ok(Sound {
                    rate,
                    samples: mono(&b[body..end], channels as usize),
                });
            }
            _ => {}
        }
        // Chunks are padded to an even length.
        at = body.saturating_add(len as usize + (len as usize & 1));
    }
    Err(WavError::NoData)
}

fn mono(data: &[u8], channels: usize) -> Vec<f32> {
    data.chunks_exact(2 * channels)
        .map(|frame| {
            let sum: f32 = frame
                .chunks_exact(2)
                .map(|s| f32::from(i16::from_le_bytes([s[0], s[1]])))
                .sum();
            sum / channels as f32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(channels: u16, samples: &[i16]) -> Vec<u8> {
        let data: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
        let mut b = b"RIFF\0\0\0\0WAVEfmt \x10\0\0\0".to_vec();
        b.extend(1u16.to_le_bytes());
        b.extend(channels.to_le_bytes());
        b.extend(8000u32.to_le_bytes());
        b.extend((8000 * 2 * u32::from(channels)).to_le_bytes());
        b.extend((2 * channels).to_le_bytes());
        b.extend(16u16.to_le_bytes());
        b.extend(b"LIST\x03\0\0\0abc\0");
        b.extend(b"data");
        b.extend((data.len() as u32).to_le_bytes());
        b.extend(data);
        b
    }

    #[test]
    fn mixes_stereo_to_mono_and_skips_other_chunks() {
        let s = parse(&wav(2, &[100, 300, -4, -8])).expect("parses");
        assert_eq!(s.rate, 8000);
        assert_eq!(s.samples, vec![200.0, -6.0]);
        let s = parse(&wav(1, &[7, -7])).expect("mono");
        assert_eq!(s.samples, vec![7.0, -7.0]);
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        assert!(parse(b"RIFX").is_err());
        let mut eight_bit = wav(1, &[1]);
        eight_bit[34] = 8;
        assert!(parse(&eight_bit)
            .unwrap_err()
            .to_string()
            .contains("8 bits"));
        assert!(parse(&wav(1, &[])[..36])
            .unwrap_err()
            .to_string()
            .contains("no data"));
    }
}
