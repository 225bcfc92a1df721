//! `--wav FILE`: what a headless run would have sounded like, as a 16-bit
//! stereo PCM WAV at 44100 or 48000 Hz. The sources are the OPL3 (its
//! 49716 Hz samples, `hw::opl3`) and the PC speaker ([`Speaker`]), mixed
//! by addition. Everything is a function of emulated time: output sample
//! `k` is at `k / rate` s of the run's cycles, the OPL's value there is
//! interpolated linearly between its two neighbouring samples with integer
//! arithmetic, so the same run gives the same bytes every time.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

use hw::opl3::{CLOCKS_PER_SAMPLE, MASTER_HZ};
use hw::Machine;

use super::audio::Speaker;

/// The output rates `--wav-rate` takes.
pub const RATES: [u32; 2] = [44_100, 48_000];

/// Bytes of the RIFF/WAVE header before the samples.
const HEADER: u32 = 44;

/// A WAV file being written from a running machine.
pub struct WavOut {
    file: BufWriter<File>,
    rate: u64,
    speaker: Speaker,
    /// Speaker samples not yet written; the first is output sample `next`.
    mono: VecDeque<i16>,
    /// OPL samples not yet consumed; the first is OPL sample `opl_first`.
    opl: VecDeque<[i16; 2]>,
    opl_first: u64,
    /// The number (since cycle 0) of the next output sample.
    next: u64,
    /// Output samples written.
    written: u64,
}

impl WavOut {
    /// Starts a WAV at `path` at `rate` Hz from the machine's present
    /// cycle: switches the OPL's capture and the speaker log on.
    pub fn create(path: &Path, rate: u32, m: &mut Machine) -> io::Result<WavOut> {
        let mut file = BufWriter::new(File::create(path)?);
        file.write_all(&header(rate, 0))?;
        let (cpu_hz, now) = (m.config().cpu_hz.max(1), m.cycles());
        m.capture_opl(true);
        m.bus.ppi.record = true;
        m.bus.ppi.speaker_log.clear();
        let rate = u64::from(rate.max(1));
        Ok(WavOut {
            file,
            rate,
            speaker: Speaker::new(cpu_hz, rate, now, m.bus.ppi.speaker()),
            mono: VecDeque::new(),
            opl: VecDeque::new(),
            opl_first: m.bus.dev.opl.samples_rendered(),
            // The speaker's first sample: the first starting at or after now.
            next: (u128::from(now) * u128::from(rate)).div_ceil(u128::from(cpu_hz)) as u64,
            written: 0,
        })
    }

    /// Takes the sound of the emulated time since the last call and writes
    /// every output sample both sources now cover.
    pub fn pull(&mut self, m: &mut Machine) -> io::Result<()> {
        self.take(m);
        self.write_ready(false)
    }

    /// Writes the rest (the last samples with the OPL held at its last
    /// value) and completes the header.
    pub fn finish(mut self, m: &mut Machine) -> io::Result<()> {
        self.take(m);
        self.write_ready(true)?;
        let bytes = self
            .written
            .saturating_mul(4)
            .min(u64::from(u32::MAX - HEADER));
        self.file.seek(SeekFrom::Start(0))?;
        self.file
            .write_all(&header(self.rate as u32, bytes as u32))?;
        self.file.flush()
    }

    /// Moves the machine's new samples into the queues.
    fn take(&mut self, m: &mut Machine) {
        self.opl.extend(m.take_opl_samples());
        let log = std::mem::take(&mut m.bus.ppi.speaker_log);
        let mut buf = Vec::new();
        self.speaker.render(&log, m.cycles(), &mut buf);
        self.mono.extend(buf);
    }

    /// Writes the output samples whose speaker sample is there and whose
    /// two OPL neighbours are (or, at the `end`, whatever is there).
    fn write_ready(&mut self, end: bool) -> io::Result<()> {
        let den = u128::from(CLOCKS_PER_SAMPLE) * u128::from(self.rate);
        while let Some(&s) = self.mono.front() {
            let num = u128::from(self.next) * u128::from(MASTER_HZ);
            let idx = (num / den) as u64;
            let frac = (num % den) as i64;
            if !end && idx + 1 >= self.opl_first + self.opl.len() as u64 {
                break;
            }
            // OPL samples before `idx` are no longer needed.
            while idx > self.opl_first && self.opl.len() > 1 {
                self.opl.pop_front();
                self.opl_first += 1;
            }
            let (a, b) = (self.opl_at(idx), self.opl_at(idx + 1));
            let mut frame = [0u8; 4];
            for ch in 0..2 {
                let (a, b) = (i64::from(a[ch]), i64::from(b[ch]));
                let v = a + (b - a) * frac / den as i64 + i64::from(s);
                let v = v.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
                frame[ch * 2..ch * 2 + 2].copy_from_slice(&v.to_le_bytes());
            }
            self.file.write_all(&frame)?;
            self.mono.pop_front();
            self.next += 1;
            self.written += 1;
        }
        Ok(())
    }

    /// OPL sample `n`, or the nearest one there is (silence if none).
    fn opl_at(&self, n: u64) -> [i16; 2] {
        let i = n.saturating_sub(self.opl_first) as usize;
        match self.opl.get(i).or(self.opl.back()) {
            Some(f) => *f,
            None => [0, 0],
        }
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
