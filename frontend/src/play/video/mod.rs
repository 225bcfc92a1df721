//! `--video FILE`: every emulated frame at the display's own resolution
//! and refresh, lossless, with the mixed sound, as an AVI ([`avi`]) of
//! ZMBV video ([`zmbv`], DOSBox's capture codec, 8-bit palettized: the
//! VGA's DAC indices and its palette) and 16-bit stereo PCM.
//!
//! Time: frame `k` is the picture at the `k`-th vertical retrace since
//! the video began; the video's rate is the VGA's refresh as an exact
//! fraction (dot clock / (horizontal total x vertical total): 70.086 Hz
//! in mode 13h), and its sound starts at the first frame's retrace. So
//! frame `k` and sound sample `n` sit where emulated time puts them, and
//! stay together however long the run. The sound written with frame `k`
//! is the sound up to that frame's retrace: a frame waits until the mixer
//! (which stays 1 ms behind the machine) has it, i.e. until the next
//! frame.
//!
//! A file has one size and rate. When a frame's differ (a mode change),
//! the file ends at that frame's retrace, with the sound up to it, and the
//! video goes on in FILE-2.avi (then -3, ...) from the same instant, said
//! on stderr, as DOSBox does; the sound is continuous across the files.

pub mod avi;
pub mod zmbv;

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

use hw::vga::IndexedFrame;
use hw::Machine;

use super::sound::Clock;
use avi::{AviWriter, VideoFormat};
use zmbv::{Encoder, Picture};

/// A file's picture: its size and refresh (frames per second `rate /
/// scale`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    width: u32,
    height: u32,
    rate: u32,
    scale: u32,
}

impl Shape {
    /// The shape of `frame` on `m`'s VGA as it is timed now.
    fn of(frame: &IndexedFrame, m: &Machine) -> Shape {
        let (dots, per_frame) = m.bus.dev.vga.timing().refresh();
        let g = gcd(dots, per_frame).max(1);
        Shape {
            width: frame.width as u32,
            height: frame.height as u32,
            rate: (dots / g) as u32,
            scale: (per_frame / g).max(1) as u32,
        }
    }

    fn hz(&self) -> f64 {
        f64::from(self.rate) / f64::from(self.scale)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// One of the video's files being written.
struct Part {
    avi: AviWriter<BufWriter<File>>,
    enc: Encoder,
    shape: Shape,
}

/// A frame waiting for its sound.
struct Held {
    frame: IndexedFrame,
    shape: Shape,
    /// The cycle of its retrace.
    cycle: u64,
    /// Its number in the run's video (from 0).
    number: u64,
}

/// A video being written from a running machine.
pub struct VideoOut {
    path: PathBuf,
    /// Files begun (1: FILE itself).
    parts: u32,
    clock: Clock,
    file: Option<Part>,
    held: Option<Held>,
    /// A spare frame buffer (the held one's predecessor).
    spare: IndexedFrame,
    /// Sound not yet written, from output sample number `sound_first`.
    sound: VecDeque<[i16; 2]>,
    sound_first: u64,
    frames: u64,
    chunk: Vec<u8>,
}

impl VideoOut {
    /// A video to `path` (written from the first frame on) of a machine at
    /// `cpu_hz`, whose sound comes at `rate` Hz starting with output
    /// sample number `first_sample` (the mixer's next).
    pub fn new(path: &Path, cpu_hz: u64, rate: u32, first_sample: u64) -> VideoOut {
        VideoOut {
            path: path.to_path_buf(),
            parts: 0,
            clock: Clock::new(cpu_hz, u64::from(rate)),
            file: None,
            held: None,
            spare: IndexedFrame::default(),
            sound: VecDeque::new(),
            sound_first: first_sample,
            frames: 0,
            chunk: Vec::new(),
        }
    }

    /// The mixer's next samples, in order without gaps.
    pub fn sound(&mut self, samples: &[[i16; 2]]) {
        self.sound.extend(samples);
    }

    /// Takes the frame completed now (the machine stopped at a vertical
    /// retrace); writes the frame before it with its sound.
    pub fn frame(&mut self, m: &Machine) -> io::Result<()> {
        let mut frame = std::mem::take(&mut self.spare);
        m.render_indexed_into(&mut frame);
        let shape = Shape::of(&frame, m);
        let next = Held {
            frame,
            shape,
            cycle: m.cycles(),
            number: self.frames,
        };
        self.frames += 1;
        if let Some(h) = self.held.replace(next) {
            self.write(&h)?;
            self.spare = h.frame;
        }
        Ok(())
    }

    /// Ends the video at the machine's present: the held frame, the rest
    /// of the sound (`last`, the mixer's final samples) and the file's
    /// indexes. A run without a frame gets the screen as it is now.
    pub fn finish(mut self, m: &Machine, last: &[[i16; 2]]) -> io::Result<()> {
        self.sound(last);
        if self.held.is_none() && self.file.is_none() {
            self.frame(m)?;
        }
        if let Some(h) = self.held.take() {
            self.write(&h)?;
        }
        let Some(mut p) = self.file.take() else {
            return Ok(());
        };
        let rest: Vec<_> = self.sound.drain(..).collect();
        p.avi.audio(&rest)?;
        crate::app::output::finish(p.avi.finish()?)
    }

    /// Writes a held frame after the sound up to its retrace; a new file
    /// first when its shape is not the file's.
    fn write(&mut self, h: &Held) -> io::Result<()> {
        let upto = self.clock.sample_at(h.cycle).max(self.sound_first);
        let n = ((upto - self.sound_first) as usize).min(self.sound.len());
        let before: Vec<_> = self.sound.drain(..n).collect();
        self.sound_first += n as u64;
        if let Some(p) = self.file.as_mut().filter(|p| p.shape == h.shape) {
            p.avi.audio(&before)?;
        } else {
            if let Some(mut p) = self.file.take() {
                p.avi.audio(&before)?;
                crate::app::output::finish(p.avi.finish()?)?;
            }
            self.file = Some(self.open(h)?);
        }
        let Some(p) = self.file.as_mut() else {
            return Ok(());
        };
        let picture = Picture {
            width: h.frame.width,
            height: h.frame.height,
            pixels: &h.frame.pixels,
            palette: &h.frame.palette,
        };
        let key = p.enc.encode(&picture, &mut self.chunk);
        p.avi.video(&self.chunk, key)
    }

    /// The next file, for frames of `h`'s shape from `h` on.
    fn open(&mut self, h: &Held) -> io::Result<Part> {
        self.parts += 1;
        let path = part_path(&self.path, self.parts);
        let s = h.shape;
        if self.parts > 1 {
            eprintln!(
                "tandem run: video: frame {} is {}x{} at {:.3} Hz: going on in {}",
                h.number,
                s.width,
                s.height,
                s.hz(),
                path.display()
            );
        }
        let f = File::create(&path).map_err(|e| with_path(&path, e))?;
        let format = VideoFormat {
            width: s.width,
            height: s.height,
            rate: s.rate,
            scale: s.scale,
            codec: *b"ZMBV",
            bits: 8,
        };
        let rate = self.clock.rate as u32;
        let avi = AviWriter::new(BufWriter::new(f), format, rate)?;
        Ok(Part {
            avi,
            enc: Encoder::new(h.frame.width, h.frame.height),
            shape: s,
        })
    }
}

/// An I/O error naming the file.
fn with_path(p: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", p.display()))
}

/// The path of the video's file number `n`: FILE itself, then FILE-2.avi
/// (the number before the extension), FILE-3.avi, ...
pub fn part_path(path: &Path, n: u32) -> PathBuf {
    if n <= 1 {
        return path.to_path_buf();
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{n}"),
    };
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_files_are_numbered_before_the_extension() {
        let p = Path::new("/tmp/out/run.avi");
        assert_eq!(part_path(p, 1), p);
        assert_eq!(part_path(p, 2), Path::new("/tmp/out/run-2.avi"));
        assert_eq!(part_path(Path::new("x"), 3), Path::new("x-3"));
    }
}
