//! The MPU-401's MIDI as a [`Source`]: a General MIDI synthesizer
//! (rustysynth, MIT) playing the bytes the program wrote in UART mode
//! (`hw::mpu401`) with a SoundFont found at run time.
//!
//! The byte stream is parsed as the MIDI 1.0 Detailed Specification has
//! it ([`Parser`]): running status, system real-time bytes (F8h-FFh)
//! anywhere without disturbing it, system exclusive messages skipped up
//! to EOX or the next status byte, system common messages skipped with
//! their data. Every channel message reaches the synthesizer at the
//! output sample of its write, `Clock::sample_at(cycle)`: the synthesizer
//! renders up to that sample, then takes the message. So the output is a
//! function of emulated time only, however often the mixer calls. (The
//! synthesizer renders in blocks of 64 samples, so a message is heard
//! from the next block boundary: at most 1.5 ms late, the same every run.)
//!
//! The SoundFont ([`load_soundfont`], once per process: it can weigh
//! 140 MB): `--soundfont FILE`, else the file in `TANDEM_SOUNDFONT`, else
//! the first of Debian's General MIDI SoundFonts ([`DEBIAN_SOUNDFONTS`],
//! or the files listed in `TANDEM_SOUNDFONT_SEARCH`, separated by `:`).
//! Without one the MIDI is dropped with one warning on stderr.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use hw::Machine;
use rustysynth::{SoundFont, Synthesizer, SynthesizerSettings};

use super::{Clock, Source};

/// Where Debian's General MIDI SoundFonts install (fluid-soundfont-gm,
/// timgm6mb-soundfont; default-GM.sf2 is the alternatives link to either),
/// in order of preference.
pub const DEBIAN_SOUNDFONTS: &[&str] = &[
    "/usr/share/sounds/sf2/FluidR3_GM.sf2",
    "/usr/share/sounds/sf2/TimGM6mb.sf2",
    "/usr/share/sounds/sf2/default-GM.sf2",
    "/usr/share/soundfonts/default.sf2",
];

/// The environment variable naming the SoundFont (after `--soundfont`).
pub const ENV_SOUNDFONT: &str = "TANDEM_SOUNDFONT";
/// The environment variable replacing [`DEBIAN_SOUNDFONTS`] (files
/// separated by `:`).
pub const ENV_SEARCH: &str = "TANDEM_SOUNDFONT_SEARCH";

/// Output value of a synthesizer sample of 1.0.
const SCALE: f32 = 32_767.0;

/// A SoundFont that cannot be used.
#[derive(Debug)]
pub struct FontError {
    /// The file.
    pub path: PathBuf,
    /// Why (not found, not a SoundFont, ...).
    pub why: String,
}

/// The process's SoundFont, or where it was looked for.
enum Font {
    Loaded(Arc<SoundFont>),
    Missing(Vec<PathBuf>),
}

static FONT: OnceLock<Font> = OnceLock::new();

/// Finds and loads the SoundFont, once per process (later calls do
/// nothing): `option` (`--soundfont`), else [`ENV_SOUNDFONT`], else the
/// first existing file of the search list. A file named by the option or
/// the variable must load; none found is not an error (the MIDI is then
/// dropped with one warning).
pub fn load_soundfont(option: Option<&Path>) -> Result<(), FontError> {
    if FONT.get().is_some() {
        return Ok(());
    }
    let font = find(option)?;
    let _ = FONT.set(font);
    Ok(())
}

/// The SoundFont `option` or the environment names, or the first of the
/// search list that exists.
fn find(option: Option<&Path>) -> Result<Font, FontError> {
    let named = option.map(Path::to_path_buf).or_else(|| {
        std::env::var_os(ENV_SOUNDFONT)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    });
    if let Some(p) = named {
        return read(&p).map(Font::Loaded);
    }
    let search: Vec<PathBuf> = match std::env::var_os(ENV_SEARCH) {
        Some(list) => std::env::split_paths(&list).collect(),
        None => DEBIAN_SOUNDFONTS.iter().map(PathBuf::from).collect(),
    };
    match search.iter().find(|p| p.is_file()) {
        Some(p) => read(p).map(Font::Loaded),
        None => Ok(Font::Missing(search)),
    }
}

/// The largest SoundFont read (the big General MIDI banks are a few
/// hundred MiB).
pub const MAX_FONT_BYTES: u64 = 1 << 30;

/// Loads the SoundFont at `path`. The crate's reader is not hardened
/// against every malformed file, so a panic in it is an error here too
/// (the panic message silenced).
pub(crate) fn read(path: &Path) -> Result<Arc<SoundFont>, FontError> {
    let err = |why: String| FontError {
        path: path.to_path_buf(),
        why,
    };
    // A device or a FIFO (/dev/zero) would never end.
    let bytes = dos::input_file::read_bounded(path, MAX_FONT_BYTES, "a SoundFont")
        .map_err(|e| err(e.to_string()))?;
    // The reader sizes its buffers by the chunks' claims: each is held
    // to the file first (a 100-byte file claiming 4 GiB).
    super::sf2_riff::check(&bytes).map_err(|e| err(format!("not a usable SoundFont: {e}")))?;
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let parsed = std::panic::catch_unwind(|| SoundFont::new(&mut bytes.as_slice()));
    std::panic::set_hook(hook);
    let font = match parsed {
        Ok(Ok(f)) => f,
        Ok(Err(e)) => return Err(err(format!("not a usable SoundFont: {e}"))),
        Err(_) => return Err(err("not a usable SoundFont: malformed".into())),
    };
    // The synthesizer falls back on preset 0 and needs one.
    if font.get_presets().is_empty() {
        return Err(err("not a usable SoundFont: it has no presets".into()));
    }
    Ok(Arc::new(font))
}

/// The process's SoundFont: the one [`load_soundfont`] found, or (when it
/// was not called) the one the environment and the search list give,
/// a file that does not load counting as none (with a warning).
fn font() -> &'static Font {
    FONT.get_or_init(|| {
        find(None).unwrap_or_else(|e| {
            eprintln!("tandem: warning: {}: {}", e.path.display(), e.why);
            Font::Missing(vec![e.path])
        })
    })
}

/// Set once the missing-SoundFont warning is printed.
static WARNED: AtomicBool = AtomicBool::new(false);

/// Says once per process that MIDI is dropped, and where the SoundFont
/// was looked for.
fn warn_missing(looked: &[PathBuf]) {
    if WARNED.swap(true, Ordering::Relaxed) {
        return;
    }
    let places: Vec<String> = looked.iter().map(|p| p.display().to_string()).collect();
    eprintln!(
        "tandem: warning: the MPU-401's MIDI is dropped: no SoundFont (looked at --soundfont, ${ENV_SOUNDFONT}, {}; install timgm6mb-soundfont or fluid-soundfont-gm, or pass --soundfont FILE)",
        places.join(", ")
    );
}

/// A channel message: status byte (kind and channel) and data bytes (the
/// second 0 for the one-byte kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message {
    /// Status: kind in bits 7-4, channel in bits 3-0.
    pub status: u8,
    /// First data byte.
    pub data1: u8,
    /// Second data byte (0 for program change and channel pressure).
    pub data2: u8,
}

/// Data bytes after a status byte (MIDI 1.0, "Summary of MIDI Messages"):
/// channel messages by kind, system common messages by status; system
/// exclusive and real-time messages are handled apart.
fn data_len(status: u8) -> usize {
    match status {
        0xC0..=0xDF => 1,
        0x80..=0xEF => 2,
        0xF1 | 0xF3 => 1,
        0xF2 => 2,
        _ => 0,
    }
}

/// The MIDI byte stream parser: bytes in, channel messages out.
#[derive(Clone, Debug, Default)]
pub struct Parser {
    /// The running status (or the system common message being skipped).
    status: Option<u8>,
    /// Data bytes of the message so far.
    data: [u8; 2],
    have: usize,
    /// Inside a system exclusive message.
    sysex: bool,
}

impl Parser {
    /// Takes one byte; a channel message when it completes one.
    pub fn feed(&mut self, b: u8) -> Option<Message> {
        match b {
            // Real-time: between any two bytes, changing nothing.
            0xF8..=0xFF => None,
            0xF0 => {
                self.sysex = true;
                self.status = None;
                None
            }
            // EOX, or any other status byte, ends a system exclusive
            // message; system common messages cancel the running status.
            0x80..=0xF7 => {
                self.sysex = false;
                self.status = (data_len(b) > 0).then_some(b);
                self.have = 0;
                None
            }
            _ if self.sysex => None,
            _ => self.data_byte(b),
        }
    }

    /// A data byte of the message under the running status (dropped when
    /// there is none).
    fn data_byte(&mut self, b: u8) -> Option<Message> {
        let status = self.status?;
        self.data[self.have] = b;
        self.have += 1;
        if self.have < data_len(status) {
            return None;
        }
        self.have = 0;
        if status >= 0xF0 {
            self.status = None;
            return None;
        }
        let data2 = if data_len(status) == 2 {
            self.data[1]
        } else {
            0
        };
        Some(Message {
            status,
            data1: self.data[0],
            data2,
        })
    }
}

/// The machine's MPU-401, heard through the General MIDI synthesizer.
pub struct MidiSource {
    clock: Clock,
    /// None without a SoundFont: the MIDI is dropped.
    synth: Option<Box<Synthesizer>>,
    /// Where the SoundFont was looked for (for the warning).
    looked: Vec<PathBuf>,
    parser: Parser,
    /// Messages not yet given to the synthesizer, each at its output
    /// sample, in order.
    events: VecDeque<(u64, Message)>,
    /// Scratch buffers for the synthesizer's output.
    left: Vec<f32>,
    right: Vec<f32>,
}

impl MidiSource {
    /// Hears `m`'s MPU-401 from now on (switches its MIDI log on), with the
    /// process's SoundFont ([`load_soundfont`]).
    pub fn new(m: &mut Machine, clock: Clock) -> MidiSource {
        m.bus.dev.mpu.set_capture(true);
        match font() {
            Font::Loaded(f) => MidiSource::with_font(clock, Some(f)),
            Font::Missing(looked) => MidiSource {
                looked: looked.clone(),
                ..MidiSource::with_font(clock, None)
            },
        }
    }

    /// A source playing with `font` (none: dropping the MIDI).
    fn with_font(clock: Clock, font: Option<&Arc<SoundFont>>) -> MidiSource {
        let rate = i32::try_from(clock.rate).unwrap_or(i32::MAX);
        let settings = SynthesizerSettings::new(rate);
        // The rate is the mixer's (44.1 or 48 kHz): within the crate's range.
        let synth = font.and_then(|f| Synthesizer::new(f, &settings).ok());
        MidiSource {
            clock,
            synth: synth.map(Box::new),
            looked: Vec::new(),
            parser: Parser::default(),
            events: VecDeque::new(),
            left: Vec::new(),
            right: Vec::new(),
        }
    }

    /// The MIDI bytes `bytes` (each with its cycle) arrived.
    fn receive(&mut self, bytes: &[(u64, u8)]) {
        if self.synth.is_none() {
            if !bytes.is_empty() {
                warn_missing(&self.looked);
            }
            return;
        }
        for &(cycle, b) in bytes {
            if let Some(msg) = self.parser.feed(b) {
                self.events.push_back((self.clock.sample_at(cycle), msg));
            }
        }
    }

    /// Renders `out.len()` samples onto `out`.
    fn render(&mut self, out: &mut [[i32; 2]]) {
        let Some(synth) = self.synth.as_mut() else {
            return;
        };
        self.left.resize(out.len(), 0.0);
        self.right.resize(out.len(), 0.0);
        synth.render(&mut self.left, &mut self.right);
        for ((o, l), r) in out.iter_mut().zip(&self.left).zip(&self.right) {
            o[0] += (l * SCALE) as i32;
            o[1] += (r * SCALE) as i32;
        }
    }
}

impl Source for MidiSource {
    fn take(&mut self, m: &mut Machine) {
        let bytes = m.bus.dev.mpu.take_midi();
        self.receive(&bytes);
    }

    fn mix(&mut self, first: u64, out: &mut [[i32; 2]], _end: bool) {
        let stop = first + out.len() as u64;
        let mut pos = first;
        while pos < stop {
            while let Some(&(_, msg)) = self.events.front().filter(|e| e.0 <= pos) {
                self.events.pop_front();
                if let Some(s) = self.synth.as_mut() {
                    let (kind, ch) = (msg.status & 0xF0, msg.status & 0x0F);
                    s.process_midi_message(
                        ch.into(),
                        kind.into(),
                        msg.data1.into(),
                        msg.data2.into(),
                    );
                }
            }
            let until = self.events.front().map_or(stop, |e| e.0.min(stop));
            let (a, b) = ((pos - first) as usize, (until - first) as usize);
            self.render(&mut out[a..b]);
            pos = until;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(bytes: &[u8]) -> Vec<Message> {
        let mut p = Parser::default();
        bytes.iter().filter_map(|&b| p.feed(b)).collect()
    }

    fn msg(status: u8, data1: u8, data2: u8) -> Message {
        Message {
            status,
            data1,
            data2,
        }
    }

    #[test]
    fn running_status_and_one_byte_messages() {
        assert_eq!(
            parse(&[0x90, 60, 100, 64, 90, 0xC1, 5, 6, 0xE0, 0, 0x40]),
            [
                msg(0x90, 60, 100),
                msg(0x90, 64, 90),
                msg(0xC1, 5, 0),
                msg(0xC1, 6, 0),
                msg(0xE0, 0, 0x40)
            ]
        );
    }

    #[test]
    fn real_time_bytes_interleave_without_breaking_a_message() {
        assert_eq!(
            parse(&[0x90, 0xF8, 60, 0xFE, 100, 0xFA, 61, 0xFF, 0]),
            [msg(0x90, 60, 100), msg(0x90, 61, 0)]
        );
    }

    #[test]
    fn sysex_and_system_common_are_skipped() {
        // GM System On, then a note; a SysEx cut short by a status byte; a
        // song position pointer cancelling the running status.
        let got = parse(&[
            0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7, 0x91, 1, 2, 0xF0, 0x41, 0x10, 0xB0, 7, 100, 0xF2,
            3, 4, 5, 6, 0xF6, 7, 0x80, 60, 0,
        ]);
        assert_eq!(got, [msg(0x91, 1, 2), msg(0xB0, 7, 100), msg(0x80, 60, 0)]);
        assert!(parse(&[1, 2, 3]).is_empty(), "data without a status");
    }

    /// The SoundFont the CLI tests use (CI installs timgm6mb-soundfont).
    fn test_font() -> Arc<SoundFont> {
        match find(None) {
            Ok(Font::Loaded(f)) => f,
            _ => panic!("no General MIDI SoundFont: apt-get install timgm6mb-soundfont"),
        }
    }

    /// A4 on at sample 1000, off at 5000, mixed in chunks of `chunk`.
    fn a4(font: &Arc<SoundFont>, chunk: usize) -> Vec<[i32; 2]> {
        let clock = Clock::new(1_000_000, 44_100);
        let mut s = MidiSource::with_font(clock, Some(font));
        let at = |n: u64| clock.cycle_of(n);
        s.receive(&[(at(1000), 0xC0), (at(1000), 0), (at(1000), 0x90)]);
        s.receive(&[(at(1000), 69), (at(1000), 100), (at(5000), 0x80)]);
        s.receive(&[(at(5000), 69), (at(5000), 0)]);
        let mut out = vec![[0; 2]; 8000];
        let mut n = 0;
        for c in out.chunks_mut(chunk) {
            s.mix(n, c, false);
            n += c.len() as u64;
        }
        out
    }

    #[test]
    fn notes_sound_from_their_sample_whatever_the_call_cadence() {
        let font = test_font();
        let whole = a4(&font, 8000);
        assert!(whole[..1000].iter().all(|f| *f == [0, 0]), "silent before");
        // The piano sample's attack starts within 10 ms.
        assert!(whole[1000..1441].iter().any(|f| f[0].abs() > 100));
        for chunk in [1, 37, 441, 1000] {
            assert!(a4(&font, chunk) == whole, "chunks of {chunk}");
        }
    }

    #[test]
    fn a_file_that_is_not_a_soundfont_is_an_error_naming_it() {
        let dir = std::env::temp_dir().join(format!("tandem-midi-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        let bad = dir.join("bad.sf2");
        for bytes in [
            &b"not a soundfont"[..],
            b"RIFF\x10\0\0\0sfbkLIST\xff\xff\xff\x7f",
        ] {
            std::fs::write(&bad, bytes).expect("write");
            let Err(e) = read(&bad) else {
                panic!("{bytes:?} read as a SoundFont")
            };
            assert_eq!(e.path, bad);
            assert!(e.why.starts_with("not a usable SoundFont"), "{}", e.why);
        }
        let Err(e) = read(&dir.join("none.sf2")) else {
            panic!("a missing file read as a SoundFont")
        };
        assert!(!e.why.is_empty());
        let Err(e) = read(Path::new("/dev/zero")) else {
            panic!("/dev/zero read as a SoundFont")
        };
        assert_eq!(e.why, "is a device, not a regular file");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
