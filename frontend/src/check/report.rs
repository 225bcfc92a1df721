//! The divergence report of a check: what `tandem run --check` prints on
//! stderr and shows in the window, what a bundle keeps as `report.json`,
//! and what `tandem compare --bundle` prints again.

use dos::Session;
use hw::Machine;
use models::compare::Divergence;
use serde::{Deserialize, Serialize};

use super::{Setup, Writer};

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
    /// The divergent slot, or none for the clock itself.
    pub slot: Option<u8>,
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
}

impl Report {
    /// The report of `d`, found in `s`.
    pub fn new(
        setup: &Setup,
        s: &Session,
        d: &Divergence,
        writer: Option<Writer>,
        recent: Vec<String>,
    ) -> Report {
        let written_by = writer.map(|w| WrittenBy {
            instruction: disasm_at(&s.m, w.cs, w.ip),
            cycle: w.cycle,
            frame: w.frame,
            video_frame: w.video_frame,
        });
        Report {
            program: setup.program.clone(),
            profile: setup.profile.name.clone(),
            frame: d.frame,
            video_frame: s.frames,
            cycle: s.m.cycles(),
            clock: d.clock,
            slot: d.slot,
            expected: d.expected,
            actual: d.actual,
            what: d.what.clone(),
            at: s.at(),
            written_by,
            recent,
        }
    }

    /// The report as lines of text.
    pub fn lines(&self) -> Vec<String> {
        let what = match self.slot {
            Some(slot) => format!("slot {slot}"),
            None => "clock".to_string(),
        };
        let mut l = vec![
            format!(
                "{} (profile {}): divergence at frame {}, clock {:04X}h, {what}",
                self.program, self.profile, self.frame, self.clock
            ),
            format!(
                "  {}: expected {} ({:04X}h), actual {} ({:04X}h)",
                self.what, self.expected, self.expected as u16, self.actual, self.actual as u16
            ),
            format!(
                "  at {} (the frame point), cycle {}, video frame {}",
                self.at, self.cycle, self.video_frame
            ),
        ];
        match &self.written_by {
            Some(w) => l.push(format!(
                "  last written by {} (cycle {}, before frame {}, video frame {})",
                w.instruction, w.cycle, w.frame, w.video_frame
            )),
            None if self.slot.is_some() => l.push("  not written since the start".into()),
            None => {}
        }
        l.push("  the last instructions before the frame point:".into());
        l.extend(self.recent.iter().map(|r| format!("    {r}")));
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
