//! The 8086's bus cycles against the suite's recording (cycle-exact mode):
//! a cycle as text, whether two cycles match, and where a test's cycle list
//! first diverges.

use std::fmt::Write as _;

use emu::biu::cycle::CycleRecord;
use serde::Serialize;

use crate::moo::{Cycle, MooTest};
use crate::report::{hex_bytes, ser_hex};

/// How one test's cycles compared (cycle-exact mode).
#[derive(Clone, Debug, Default)]
pub struct CycleOutcome {
    /// Every cycle matched.
    pub exact: bool,
    /// The number of cycles matched.
    pub count: bool,
    /// Details when not exact (and details were asked for).
    pub failure: Option<Box<CycleFailure>>,
}

/// The first divergent cycle of a test, side by side.
#[derive(Clone, Debug, Serialize)]
pub struct CycleFailure {
    /// The test's index in the file.
    pub index: u32,
    /// The test's name.
    pub name: String,
    /// The instruction bytes.
    #[serde(serialize_with = "ser_hex")]
    pub bytes: Vec<u8>,
    /// Cycles we produced.
    pub ours_len: usize,
    /// Cycles the silicon recorded.
    pub silicon_len: usize,
    /// Index of the first cycle that differs.
    pub first: usize,
    /// (cycle index, ours, silicon) around the divergence, rendered.
    pub window: Vec<(usize, String, String)>,
}

impl CycleFailure {
    /// A multi-line report, each line prefixed by `indent`.
    pub fn render(&self, indent: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{indent}first cycle divergence: test {} \"{}\"  bytes {}  at cycle {} (ours {} cycles, silicon {})",
            self.index,
            self.name,
            hex_bytes(&self.bytes),
            self.first,
            self.ours_len,
            self.silicon_len
        );
        let _ = writeln!(s, "{indent}     #  {:<34} silicon", "ours");
        for (i, a, b) in &self.window {
            let mark = if i == &self.first { '>' } else { ' ' };
            let _ = writeln!(s, "{indent} {mark}{i:>4}  {a:<34} {b}");
        }
        s
    }
}

const STATUS_NAMES: [&str; 8] = ["INTA", "IOR", "IOW", "MEMR", "MEMW", "HALT", "CODE", "PASV"];
const T_NAMES: [&str; 6] = ["Ti", "T1", "T2", "T3", "T4", "Tw"];
const Q_NAMES: [&str; 4] = ["-", "F", "E", "S"];

/// One of our cycles as text: T-state, status, latched address and BHE on
/// ALE, data in T3, queue operation and byte.
pub fn render_ours(c: &CycleRecord) -> String {
    render_cycle(
        c.t as u8,
        c.status as u8,
        c.ale,
        c.address,
        c.bhe,
        c.data,
        c.queue_op as u8,
        c.queue_byte,
    )
}

/// A recorded cycle as text, in the layout of [`render_ours`].
pub fn render_theirs(c: &Cycle) -> String {
    render_cycle(
        c.t_state,
        c.bus_status,
        c.pins & 1 != 0,
        c.address,
        c.bhe,
        c.data,
        c.queue_op,
        c.queue_byte,
    )
}

#[allow(clippy::too_many_arguments)]
fn render_cycle(t: u8, st: u8, ale: bool, addr: u32, bhe: u8, data: u16, q: u8, qb: u8) -> String {
    let mut s = format!(
        "{:<2} {:<4}",
        T_NAMES.get(t as usize).unwrap_or(&"T?"),
        STATUS_NAMES.get(st as usize).unwrap_or(&"?")
    );
    if ale {
        let _ = write!(s, " A:{addr:05X} BHE{bhe}");
    } else {
        s.push_str("            ");
    }
    if t == 3 {
        let _ = write!(s, " D:{data:04X}");
    } else {
        s.push_str("       ");
    }
    let _ = write!(s, " Q:{}", Q_NAMES.get(q as usize).unwrap_or(&"?"));
    if q == 1 || q == 3 {
        let _ = write!(s, " {qb:02X}");
    }
    s
}

/// Whether our cycle matches the recorded one: T-state, bus status, the
/// address and BHE latched on ALE, the data bus in T3 of a transfer, the
/// queue operation and the byte taken.
pub fn cycle_matches(ours: &CycleRecord, theirs: &Cycle) -> bool {
    if ours.t as u8 != theirs.t_state || ours.status as u8 != theirs.bus_status {
        return false;
    }
    let ale = theirs.pins & 1 != 0;
    if ours.ale != ale {
        return false;
    }
    if ale && ((ours.address ^ theirs.address) & 0xF_FFFF != 0 || ours.bhe != theirs.bhe) {
        return false;
    }
    if theirs.t_state == 3 && ours.data != theirs.data {
        return false;
    }
    if ours.queue_op as u8 != theirs.queue_op {
        return false;
    }
    !(matches!(theirs.queue_op, 1 | 3) && ours.queue_byte != theirs.queue_byte)
}

/// Compares a whole cycle list.
pub fn compare_cycles(
    ours: &[CycleRecord],
    theirs: &[Cycle],
    t: &MooTest,
    detail: bool,
) -> CycleOutcome {
    let count = ours.len() == theirs.len();
    let first = ours
        .iter()
        .zip(theirs)
        .position(|(a, b)| !cycle_matches(a, b))
        .or(if count {
            None
        } else {
            Some(ours.len().min(theirs.len()))
        });
    let Some(first) = first else {
        return CycleOutcome {
            exact: true,
            count,
            failure: None,
        };
    };
    let failure = detail.then(|| {
        let lo = first.saturating_sub(4);
        let hi = (first + 6).min(ours.len().max(theirs.len()));
        let window = (lo..hi)
            .map(|i| {
                (
                    i,
                    ours.get(i).map(render_ours).unwrap_or_default(),
                    theirs.get(i).map(render_theirs).unwrap_or_default(),
                )
            })
            .collect();
        Box::new(CycleFailure {
            index: t.index,
            name: t.name.clone(),
            bytes: t.bytes.clone(),
            ours_len: ours.len(),
            silicon_len: theirs.len(),
            first,
            window,
        })
    });
    CycleOutcome {
        exact: false,
        count,
        failure,
    }
}
