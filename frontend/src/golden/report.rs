//! The report of a divergence, the one `compare`, `run --check` and a
//! bundle's replay all give: what `run --check` prints on stderr and
//! draws in the window, what a bundle keeps as `report.json`, what
//! `compare` prints as text ([`Report::lines`]) or JSON (serde).

use dos::Session;
use hw::Machine;
use models::compare::Divergence;
use models::sweep::Mismatch;
use serde::{Deserialize, Serialize};

use super::watch::Writer;

/// The instruction that last wrote the divergent slot.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct WrittenBy {
    /// CS:IP and its disassembly.
    pub instruction: String,
    /// The CPU cycle at its start.
    pub cycle: u64,
    /// The frame point it ran before.
    pub frame: u64,
    /// Video frames completed when it ran.
    pub video_frame: u64,
}

/// A spot-checked routine that disagreed with its model.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SpotCheck {
    /// The routine.
    pub routine: String,
    /// The input point, as the sweep names it.
    pub input: String,
    /// The output that differs.
    pub output: String,
}

/// A divergence and where it happened.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Report {
    /// The program (for messages).
    pub program: String,
    /// The profile's name.
    pub profile: String,
    /// The frame point (0 = the first).
    pub frame: u64,
    /// Video frames completed.
    pub video_frame: u64,
    /// The CPU cycle of the frame point.
    pub cycle: u64,
    /// The clock word.
    pub clock: u16,
    /// The divergent slot, or none for the clock or a spot check.
    pub slot: Option<u8>,
    /// The spot-checked routine that disagreed, when one did (its fields
    /// `routine`, `input` and `output` sit beside the others in JSON).
    #[serde(flatten)]
    pub spot: Option<SpotCheck>,
    /// What the models say.
    pub expected: i64,
    /// What the program holds.
    pub actual: i64,
    /// What differs.
    pub what: String,
    /// CS:IP at the frame point.
    pub at: String,
    /// The instruction that last wrote the slot, when one did.
    pub written_by: Option<WrittenBy>,
    /// The instructions before the frame point, oldest first.
    pub recent: Vec<String>,
    /// An event stream's call disagreed (the machine stands at the
    /// routine's event point or entry, not at a frame point).
    #[serde(default)]
    pub stream: bool,
}

/// Where and when a divergence was found: the program, the profile and
/// the session standing at the frame point.
pub struct Subject<'a> {
    /// The program's name.
    pub program: &'a str,
    /// The profile's name.
    pub profile: &'a str,
    /// The running session, at the frame point.
    pub session: &'a Session,
}

impl Report {
    /// The report of the lock-step divergence `d`; `writer` last wrote its
    /// slot, `recent` are the instructions before the frame point.
    pub fn lock(
        f: &Subject,
        d: &Divergence,
        writer: Option<Writer>,
        recent: Vec<String>,
    ) -> Report {
        let m = &f.session.m;
        let written_by = writer.map(|w| WrittenBy {
            instruction: match w.service {
                None => disasm_at(m, w.cs, w.ip),
                Some(sv) => format!(
                    "{} AX={:04X}h (a service called from {:04X}:{:04X})",
                    sv.vector
                        .map_or("a BIOS subroutine".to_string(), |v| format!("INT {v:02X}h")),
                    sv.ax,
                    w.cs,
                    w.ip
                ),
            },
            cycle: w.cycle,
            frame: w.frame,
            video_frame: w.video_frame,
        });
        Report {
            slot: d.slot,
            spot: None,
            expected: d.expected,
            actual: d.actual,
            what: d.what.clone(),
            written_by,
            recent,
            ..Report::at(f, d.frame, d.clock)
        }
    }

    /// The report of a spot check's mismatch at frame point `frame`.
    pub fn spot(f: &Subject, frame: u64, clock: u16, routine: &str, m: &Mismatch) -> Report {
        Report {
            spot: Some(SpotCheck {
                routine: routine.to_string(),
                input: m.input.clone(),
                output: m.output.clone(),
            }),
            expected: m.expected,
            actual: m.actual,
            what: format!("routine {routine} at {}: {} differs", m.input, m.output),
            ..Report::at(f, frame, clock)
        }
    }

    fn at(f: &Subject, frame: u64, clock: u16) -> Report {
        Report {
            program: f.program.to_string(),
            profile: f.profile.to_string(),
            frame,
            video_frame: f.session.frames,
            cycle: f.session.m.cycles(),
            clock,
            slot: None,
            spot: None,
            expected: 0,
            actual: 0,
            what: String::new(),
            at: f.session.at(),
            written_by: None,
            recent: Vec::new(),
            stream: false,
        }
    }

    /// The report of an event stream's disagreement `d` (mid-frame, at the
    /// event point or the routine's entry).
    pub fn stream(f: &Subject, d: &Divergence) -> Report {
        Report {
            stream: true,
            ..Report::lock(f, d, None, Vec::new())
        }
    }

    /// The report as lines of text.
    pub fn lines(&self) -> Vec<String> {
        let what = match (&self.spot, self.slot) {
            (Some(s), _) => format!("routine {}", s.routine),
            (None, Some(slot)) => format!("slot {slot}"),
            (None, None) if self.stream => "an event stream".to_string(),
            (None, None) => "clock".to_string(),
        };
        let values = format!(
            "expected {} ({:04X}h), actual {} ({:04X}h)",
            self.expected, self.expected as u16, self.actual, self.actual as u16
        );
        let mut l = vec![format!(
            "{} (profile {}): divergence at frame {}, clock {:04X}h, {what}",
            self.program, self.profile, self.frame, self.clock
        )];
        l.push(match &self.spot {
            Some(s) => format!("  at {}: {}: {values}", s.input, s.output),
            None => format!("  {}: {values}", self.what),
        });
        let point = if self.stream {
            "the event"
        } else {
            "the frame point"
        };
        l.push(format!(
            "  at {} ({point}), cycle {}, video frame {}",
            self.at, self.cycle, self.video_frame
        ));
        match &self.written_by {
            Some(w) => l.push(format!(
                "  last written by {} (cycle {}, before frame {}, video frame {})",
                w.instruction, w.cycle, w.frame, w.video_frame
            )),
            None if self.slot.is_some() => l.push("  not written since the start".into()),
            None => {}
        }
        if !self.recent.is_empty() {
            l.push("  the last instructions before the frame point:".into());
            l.extend(self.recent.iter().map(|r| format!("    {r}")));
        }
        l
    }

    /// The report as text, one line each.
    pub fn text(&self) -> String {
        let mut t = self.lines().join("\n");
        t.push('\n');
        t
    }
}

/// `CS:IP  disassembly` of the instruction at `cs:ip` in `m`.
pub fn disasm_at(m: &Machine, cs: u16, ip: u16) -> String {
    let lin = ((cs as u32) << 4) + ip as u32;
    let bytes: Vec<u8> = (0..15).map(|i| m.peek8(lin + i)).collect();
    format!(
        "{cs:04X}:{ip:04X}  {}",
        emu::disasm::disasm16(&bytes, ip as u32)
    )
}
