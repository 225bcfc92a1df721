//! Recorded input: a JSON-lines file of events stamped with the emulated
//! CPU cycle at which they reached the machine.
//!
//! The first line is a header naming the program and the machine; every
//! other line is one event:
//!
//! ```text
//! {"tandem":"record","version":3,"program":"replica (built-in)","cpu":"386","cpu_hz":33000000,"fpu":"387","joystick":true}
//! {"cycle":41250000,"key":{"code":25,"ext":false,"down":true}}
//! {"cycle":41580000,"mouse":{"dx":3,"dy":-1,"buttons":1}}
//! {"cycle":50000000,"joy":{"stick":1,"x":-32767,"y":16384}}
//! {"cycle":51000000,"joybutton":{"stick":2,"button":1,"down":true}}
//! {"cycle":99000000,"end":{"frames":2100}}
//! ```
//!
//! `key` is a scan code set 1 make code (`ext`: E0h-prefixed); `mouse` is
//! a movement in mickeys and the button state (bit 0 left, 1 right, 2
//! middle); `joy` moves joystick 1 or 2 of the game port (an axis left
//! out stays where it is; -32768..32767, 0 the centre, as SDL reports
//! axes); `joybutton` presses or releases button 1 or 2 of stick 1 or 2;
//! `end` is where the recorded run stopped before the program
//! terminated (a run that terminated has none: its replay terminates at the
//! same point by itself). Replaying delivers each event at its cycle, so
//! the run reaches the same state.
//!
//! Version 2 adds `fpu` to the header (`none`, `387`, `builtin`:
//! [`hw::Fpu::name`]), so that a replay rebuilds the machine's x87 too.
//! Version 1 records, from before it, still load: they name no FPU and were
//! made when tandem fitted none unless asked, so they replay without one.
//! The header names the sound cards (`--sound`, `--blaster`): `"adlib":true`
//! for an OPL3 at 388h, `sb16`, `mpu401` and `gus` with their settings. Each is
//! written only when fitted, so a record without them (all those from
//! before the cards existed) replays on a machine without them.
//!
//! Version 3 adds the game port: `"joystick":true` in the header when the
//! machine has one (a record without it, as every version 1 and 2 record,
//! replays on a machine without), and the `joy` and `joybutton` events.
//! A header names the DOS layout when it is not the default
//! (`"dos_layout":"dosbox"`); a record without it replays on msdos (records
//! made before the layouts existed saw tandem's earlier start-up, PSP at
//! 0192h with MS-DOS's FLAGS, and may replay differently).

use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};

/// The header line.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Header {
    /// Always "record".
    pub tandem: String,
    /// Format version ([`VERSION`]; 1 is read too).
    pub version: u32,
    /// What ran (a host path or "replica (built-in)").
    pub program: String,
    /// CPU model name.
    pub cpu: String,
    /// CPU clock in Hz.
    pub cpu_hz: u64,
    /// The x87 ([`hw::Fpu::name`]); absent in version 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fpu: Option<String>,
    /// An AdLib was fitted (`--adlib`); written only when true, so a record
    /// without one reads as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub adlib: bool,
    /// The Sound Blaster 16's settings, when one was fitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sb16: Option<hw::Sb16Config>,
    /// The MPU-401's settings, when one was fitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mpu401: Option<hw::mpu401::Mpu401Config>,
    /// The machine had a game port; written only when true (version 3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub joystick: bool,
    /// The Gravis UltraSound's settings, when one was fitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gus: Option<hw::GusConfig>,
    /// The DOS layout (`--dos-layout`), written only when it is not the
    /// default (msdos), which a record without it replays on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dos_layout: Option<String>,
}

impl Header {
    /// The header of a record of a run on `config`, of `program`.
    pub fn of(config: &hw::MachineConfig, program: &str) -> Header {
        Header {
            tandem: "record".into(),
            version: VERSION,
            program: program.to_string(),
            cpu: config.cpu_model.name().into(),
            cpu_hz: config.cpu_hz,
            fpu: Some(config.fpu.name().into()),
            adlib: config.adlib,
            sb16: config.sb16,
            mpu401: config.mpu401,
            joystick: config.joystick,
            gus: config.gus,
            dos_layout: (config.dos_layout != hw::DosLayout::default())
                .then(|| config.dos_layout.name().to_string()),
        }
    }
}

/// The record format this build writes.
pub const VERSION: u32 = 3;

/// One input event.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Input {
    /// A key press or release.
    Key {
        /// Set 1 make code.
        code: u8,
        /// E0h-prefixed.
        ext: bool,
        /// Pressed (true) or released.
        down: bool,
    },
    /// Mouse movement (mickeys) and buttons.
    Mouse {
        /// Horizontal movement.
        dx: i16,
        /// Vertical movement (down is positive).
        dy: i16,
        /// Buttons held: bit 0 left, 1 right, 2 middle.
        buttons: u16,
    },
    /// A joystick moved: its axes' new positions.
    Joy {
        /// The stick: 1 (the game port's A) or 2 (B).
        stick: u8,
        /// The X axis, -32768 (left) to 32767 (right); absent: unchanged.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        x: Option<i16>,
        /// The Y axis, -32768 (up) to 32767 (down); absent: unchanged.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        y: Option<i16>,
    },
    /// A joystick button was pressed or released.
    JoyButton {
        /// The stick: 1 or 2.
        stick: u8,
        /// Its button: 1 or 2.
        button: u8,
        /// Pressed (true) or released.
        down: bool,
    },
    /// The recorded run stopped here, after this many frames.
    End {
        /// Frames completed.
        frames: u64,
    },
}

/// An event and its cycle.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Event {
    /// Emulated CPU cycle of delivery.
    pub cycle: u64,
    /// What happened.
    #[serde(flatten)]
    pub input: Input,
}

/// A record being written.
pub struct Recorder {
    out: Box<dyn Write>,
}

impl Recorder {
    /// Starts a record with its header.
    pub fn new(mut out: Box<dyn Write>, header: &Header) -> std::io::Result<Recorder> {
        writeln!(out, "{}", serde_json::to_string(header)?)?;
        Ok(Recorder { out })
    }

    /// Appends an event.
    pub fn push(&mut self, e: &Event) -> std::io::Result<()> {
        writeln!(self.out, "{}", serde_json::to_string(e)?)
    }

    /// Flushes the file.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The longest line a record may have (an event is under 100 bytes).
pub const MAX_LINE: usize = 4096;
/// The most events a record may hold (hours of typing and mouse movement).
pub const MAX_EVENTS: usize = 1_000_000;
/// The latest emulated time an event may have: a day. A replay ends at its
/// record's end, so this bounds every replayed run.
pub const MAX_SECONDS: u64 = 24 * 3600;
/// The fastest CPU clock a record may name (1 GHz).
pub const MAX_CPU_HZ: u64 = 1_000_000_000;

/// Why a record cannot be replayed: what is wrong, and on which line.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The record has no header line.
    #[error("empty record (no header line)")]
    Empty,
    /// The header names another format or version.
    #[error("not a version 1 to {VERSION} tandem record (tandem={tandem:?}, version={version})")]
    NotARecord {
        /// The header's `tandem` field.
        tandem: String,
        /// The header's `version` field.
        version: u32,
    },
    /// Something wrong on one line.
    #[error("line {line}: {why}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        why: LineError,
    },
}

/// What is wrong with one line of a record.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// The host could not read it.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// It is longer than [`MAX_LINE`] bytes.
    #[error("longer than {MAX_LINE} bytes")]
    TooLong,
    /// It is not UTF-8.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// The first line is not a header.
    #[error("not a record header: {0}")]
    Header(serde_json::Error),
    /// The header's FPU is none tandem knows.
    #[error("{0}")]
    Fpu(String),
    /// The header's clock is out of range.
    #[error("cpu_hz {0} is not a clock from 1 Hz to {MAX_CPU_HZ} Hz")]
    Clock(u64),
    /// An event line is not an event.
    #[error("{0}")]
    Event(serde_json::Error),
    /// An event comes before the one above it.
    #[error("cycle {cycle} is before the previous event's {previous}")]
    OutOfOrder {
        /// Its cycle.
        cycle: u64,
        /// The cycle of the event before.
        previous: u64,
    },
    /// A joystick event names a stick or button the game port lacks.
    #[error(
        "joystick {stick} button {button}: the game port has sticks 1 and 2 with buttons 1 and 2"
    )]
    Joystick {
        /// The stick named.
        stick: u8,
        /// The button named (1 for an axis event).
        button: u8,
    },
    /// An event lies past [`MAX_SECONDS`].
    #[error("cycle {0} is more than {MAX_SECONDS} emulated seconds from the start")]
    TooLate(u64),
    /// More than [`MAX_EVENTS`] events.
    #[error("more than {MAX_EVENTS} events")]
    TooMany,
}

/// A [`LineError`] on line `line`.
fn at(line: usize) -> impl Fn(LineError) -> RecordError {
    move |why| RecordError::Line { line, why }
}

/// The next line of `r` (without its end), None at the end, or an error
/// for a line longer than [`MAX_LINE`] or not UTF-8.
fn next_line(r: &mut impl BufRead, n: usize) -> Result<Option<String>, RecordError> {
    let mut buf = Vec::new();
    let got = std::io::Read::take(&mut *r, MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut buf)
        .map_err(|e| at(n)(LineError::Io(e)))?;
    if got == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if buf.len() > MAX_LINE {
        return Err(at(n)(LineError::TooLong));
    }
    String::from_utf8(buf)
        .map(Some)
        .map_err(|_| at(n)(LineError::NotUtf8))
}

/// Reads a record: its header and events (in cycle order, or an error).
/// The record is untrusted input: its lines, its number of events, its
/// clock and its cycles are bounded.
pub fn read(mut r: impl BufRead) -> Result<(Header, Vec<Event>), RecordError> {
    let mut n = 0;
    let header: Header = loop {
        n += 1;
        match next_line(&mut r, n)? {
            None => return Err(RecordError::Empty),
            Some(l) if l.trim().is_empty() => continue,
            Some(l) => break serde_json::from_str(&l).map_err(|e| at(n)(LineError::Header(e)))?,
        }
    };
    if header.tandem != "record" || !(1..=VERSION).contains(&header.version) {
        return Err(RecordError::NotARecord {
            tandem: header.tandem.clone(),
            version: header.version,
        });
    }
    if let Some(f) = &header.fpu {
        f.parse::<hw::Fpu>()
            .map_err(|e| at(n)(LineError::Fpu(e.to_string())))?;
    }
    if header.cpu_hz == 0 || header.cpu_hz > MAX_CPU_HZ {
        return Err(at(n)(LineError::Clock(header.cpu_hz)));
    }
    let last_cycle = header.cpu_hz.saturating_mul(MAX_SECONDS);
    let mut events: Vec<Event> = Vec::new();
    while let Some(l) = {
        n += 1;
        next_line(&mut r, n)?
    } {
        if l.trim().is_empty() {
            continue;
        }
        let e: Event = serde_json::from_str(&l).map_err(|e| at(n)(LineError::Event(e)))?;
        if let Some(prev) = events.last() {
            if e.cycle < prev.cycle {
                return Err(at(n)(LineError::OutOfOrder {
                    cycle: e.cycle,
                    previous: prev.cycle,
                }));
            }
        }
        if let Input::Joy { stick, .. } | Input::JoyButton { stick, .. } = e.input {
            let button = match e.input {
                Input::JoyButton { button, .. } => button,
                _ => 1,
            };
            if !(1..=2).contains(&stick) || !(1..=2).contains(&button) {
                return Err(at(n)(LineError::Joystick { stick, button }));
            }
        }
        if e.cycle > last_cycle {
            return Err(at(n)(LineError::TooLate(e.cycle)));
        }
        if events.len() == MAX_EVENTS {
            return Err(at(n)(LineError::TooMany));
        }
        events.push(e);
    }
    Ok((header, events))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_round_trip() {
        let header = Header {
            tandem: "record".into(),
            version: VERSION,
            program: "x".into(),
            cpu: "386".into(),
            cpu_hz: 33_000_000,
            fpu: Some("387".into()),
            adlib: false,
            sb16: None,
            mpu401: None,
            joystick: true,
            gus: None,
            dos_layout: None,
        };
        let evs = [
            Event {
                cycle: 5,
                input: Input::Key {
                    code: 0x48,
                    ext: true,
                    down: true,
                },
            },
            Event {
                cycle: 9,
                input: Input::Mouse {
                    dx: -3,
                    dy: 2,
                    buttons: 1,
                },
            },
            Event {
                cycle: 11,
                input: Input::Joy {
                    stick: 2,
                    x: None,
                    y: Some(-32768),
                },
            },
            Event {
                cycle: 12,
                input: Input::JoyButton {
                    stick: 1,
                    button: 2,
                    down: true,
                },
            },
            Event {
                cycle: 20,
                input: Input::End { frames: 3 },
            },
        ];
        let buf = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        struct W(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
        impl Write for W {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.borrow_mut().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut r = Recorder::new(Box::new(W(buf.clone())), &header).expect("header");
        for e in &evs {
            r.push(e).expect("push");
        }
        let text = String::from_utf8(buf.borrow().clone()).expect("utf8");
        assert!(text.lines().nth(1).expect("line").contains("\"key\""));
        assert!(text.contains(r#"{"cycle":11,"joy":{"stick":2,"y":-32768}}"#));
        let (h, back) = read(text.as_bytes()).expect("read");
        assert_eq!(h, header);
        assert_eq!(back, evs);
        // Out of order is an error.
        let bad = format!(
            "{}\n{{\"cycle\":9,\"end\":{{\"frames\":1}}}}\n{{\"cycle\":8,\"end\":{{\"frames\":1}}}}\n",
            serde_json::to_string(&header).expect("json")
        );
        assert!(read(bad.as_bytes())
            .expect_err("order")
            .to_string()
            .contains("line 3"));
    }

    #[test]
    fn hostile_records_are_refused() {
        let head = r#"{"tandem":"record","version":1,"program":"x","cpu":"386","cpu_hz":33000000}"#;
        // A line without end (/dev/zero).
        let zeros = vec![0u8; 100_000];
        assert!(read(&zeros[..])
            .expect_err("long")
            .to_string()
            .contains("longer than"));
        // An end at the last cycle.
        let far = format!("{head}\n{{\"cycle\":18446744073709551615,\"end\":{{\"frames\":1}}}}\n");
        assert!(read(far.as_bytes())
            .expect_err("far")
            .to_string()
            .contains("line 2"));
        // An FPU no machine has.
        let bad_fpu = head.replace("}", r#","fpu":"8087"}"#);
        assert!(read(bad_fpu.as_bytes())
            .expect_err("fpu")
            .to_string()
            .contains("8087"));
        // A clock of 0.
        let zero = head.replace("33000000", "0");
        assert!(read(zero.as_bytes())
            .expect_err("hz")
            .to_string()
            .contains("cpu_hz 0"));
        // A third stick, a third button.
        for bad in [
            r#"{"cycle":1,"joy":{"stick":3,"x":0}}"#,
            r#"{"cycle":1,"joybutton":{"stick":1,"button":0,"down":true}}"#,
        ] {
            let e = read(format!("{head}\n{bad}\n").as_bytes()).expect_err(bad);
            assert!(e.to_string().contains("game port has sticks"), "{e}");
        }
        // Too many events.
        let mut many = format!("{head}\n");
        for _ in 0..=MAX_EVENTS {
            many.push_str("{\"cycle\":1,\"end\":{\"frames\":1}}\n");
        }
        assert!(read(many.as_bytes())
            .expect_err("many")
            .to_string()
            .contains("more than"));
    }
}
