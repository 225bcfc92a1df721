//! Recorded input: a JSON-lines file of events stamped with the emulated
//! CPU cycle at which they reached the machine.
//!
//! The first line is a header naming the program and the machine; every
//! other line is one event:
//!
//! ```text
//! {"tandem":"record","version":1,"program":"replica (built-in)","cpu":"386","cpu_hz":33000000}
//! {"cycle":41250000,"key":{"code":25,"ext":false,"down":true}}
//! {"cycle":41580000,"mouse":{"dx":3,"dy":-1,"buttons":1}}
//! {"cycle":99000000,"end":{"frames":2100}}
//! ```
//!
//! `key` is a scan code set 1 make code (`ext`: E0h-prefixed); `mouse` is
//! a movement in mickeys and the button state (bit 0 left, 1 right, 2
//! middle); `end` is where the recorded run stopped before the program
//! terminated (a run that terminated has none: its replay terminates at the
//! same point by itself). Replaying delivers each event at its cycle, so
//! the run reaches the same state.

use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};

/// The header line.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Header {
    /// Always "record".
    pub tandem: String,
    /// Format version (1).
    pub version: u32,
    /// What ran (a host path or "replica (built-in)").
    pub program: String,
    /// CPU model name.
    pub cpu: String,
    /// CPU clock in Hz.
    pub cpu_hz: u64,
}

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

/// Reads a record: its header and events (in cycle order, or an error).
pub fn read(r: impl BufRead) -> Result<(Header, Vec<Event>), String> {
    let mut lines = r.lines().enumerate();
    let header: Header = loop {
        match lines.next() {
            None => return Err("empty record (no header line)".into()),
            Some((i, l)) => {
                let l = l.map_err(|e| e.to_string())?;
                if l.trim().is_empty() {
                    continue;
                }
                break serde_json::from_str(&l)
                    .map_err(|e| format!("line {}: not a record header: {e}", i + 1))?;
            }
        }
    };
    if header.tandem != "record" || header.version != 1 {
        return Err(format!(
            "not a version 1 tandem record (tandem={:?}, version={})",
            header.tandem, header.version
        ));
    }
    let mut events: Vec<Event> = Vec::new();
    for (i, l) in lines {
        let l = l.map_err(|e| e.to_string())?;
        if l.trim().is_empty() {
            continue;
        }
        let e: Event = serde_json::from_str(&l).map_err(|e| format!("line {}: {e}", i + 1))?;
        if let Some(prev) = events.last() {
            if e.cycle < prev.cycle {
                return Err(format!(
                    "line {}: cycle {} is before the previous event's {}",
                    i + 1,
                    e.cycle,
                    prev.cycle
                ));
            }
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
            version: 1,
            program: "x".into(),
            cpu: "386".into(),
            cpu_hz: 33_000_000,
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
        let (h, back) = read(text.as_bytes()).expect("read");
        assert_eq!(h, header);
        assert_eq!(back, evs);
        // Out of order is an error.
        let bad = format!(
            "{}\n{{\"cycle\":9,\"end\":{{\"frames\":1}}}}\n{{\"cycle\":8,\"end\":{{\"frames\":1}}}}\n",
            serde_json::to_string(&header).expect("json")
        );
        assert!(read(bad.as_bytes()).expect_err("order").contains("line 3"));
    }
}
