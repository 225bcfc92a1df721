//! Event streams: a routine that emits values one by one (a drawing
//! interpreter's vertices) is checked event by event against its model's
//! stream, each field within its tolerance (exact by default; a model may
//! make an event exact whatever the tolerances). The report names the
//! first event out of tolerance: its index, the command that produced it,
//! the field, expected and actual, and CS:IP; or where one stream ended
//! before the other.

use crate::model::{Event, Events, Field, MAX_FIELDS};
use crate::profile::Routine;

/// One event as the program emitted it: the captured values and where.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hit {
    /// The captured values, in field order.
    pub values: [i64; MAX_FIELDS],
    /// CS of the instruction the event point returns to (the caller that
    /// emitted the event).
    pub cs: u16,
    /// Its IP.
    pub ip: u16,
}

/// How many events agreed, and how.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventCounts {
    /// Events compared (both streams had one at that index).
    pub compared: u64,
    /// Of them, every field equal.
    pub exact: u64,
    /// Of them, every field within its tolerance (the exact included).
    pub within: u64,
}

impl EventCounts {
    /// Adds another's counts.
    pub fn add(&mut self, o: EventCounts) {
        self.compared += o.compared;
        self.exact += o.exact;
        self.within += o.within;
    }
}

/// The first disagreement of two event streams.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventMismatch {
    /// Event `index` has a field out of its tolerance.
    Field {
        /// The event's index in the stream (0 = the first).
        index: usize,
        /// The field.
        field: &'static str,
        /// Its tolerance (0: exact).
        tolerance: u16,
        /// What the model says.
        expected: i64,
        /// What the program emitted.
        actual: i64,
        /// The command field's value, when the events have one.
        command: Option<i64>,
        /// Where the event point was hit.
        at: (u16, u16),
    },
    /// The program's stream ended first: it emitted `actual` events, the
    /// model `expected`.
    ProgramEnded {
        /// Events the model expects.
        expected: usize,
        /// Events the program emitted.
        actual: usize,
    },
    /// The model's stream ended first.
    ModelEnded {
        /// Events the model expects.
        expected: usize,
        /// Events the program emitted.
        actual: usize,
        /// The first extra event's command, when the events have one.
        command: Option<i64>,
        /// Where it was emitted.
        at: (u16, u16),
    },
}

impl EventMismatch {
    /// What differs, for a report (`event 12 (command 38h at
    /// 013A:4188), field x (within 1)`).
    pub fn what(&self) -> String {
        let cmd = |c: &Option<i64>| c.map_or(String::new(), |c| format!("command {c:02X}h "));
        match self {
            EventMismatch::Field {
                index,
                field,
                tolerance,
                command,
                at,
                ..
            } => {
                let tol = if *tolerance == 0 {
                    "exact".to_string()
                } else {
                    format!("within {tolerance}")
                };
                format!(
                    "event {index} ({}from {:04X}:{:04X}), field {field} ({tol})",
                    cmd(command),
                    at.0,
                    at.1
                )
            }
            EventMismatch::ProgramEnded { actual, .. } => {
                format!("the event stream: the program emitted no event {actual}")
            }
            EventMismatch::ModelEnded {
                expected,
                command,
                at,
                ..
            } => format!(
                "the event stream: the model expects no event {expected}, the program emitted one ({}from {:04X}:{:04X})",
                cmd(command),
                at.0,
                at.1
            ),
        }
    }

    /// Expected and actual values (for the ends: the streams' lengths).
    pub fn values(&self) -> (i64, i64) {
        match self {
            EventMismatch::Field {
                expected, actual, ..
            } => (*expected, *actual),
            EventMismatch::ProgramEnded { expected, actual }
            | EventMismatch::ModelEnded {
                expected, actual, ..
            } => (*expected as i64, *actual as i64),
        }
    }
}

/// The tolerance of each field of `events` for `routine` (its values).
pub fn tolerances(events: &Events, routine: &Routine) -> [u16; MAX_FIELDS] {
    let mut t = [0; MAX_FIELDS];
    for (k, f) in events.fields.iter().enumerate().take(MAX_FIELDS) {
        t[k] = f.tolerance.map_or(0, |name| routine.value(name));
    }
    t
}

/// Walks both streams: the counts, and the first disagreement.
pub fn compare(
    events: &Events,
    tolerance: &[u16; MAX_FIELDS],
    expected: &[Event],
    actual: &[Hit],
) -> (EventCounts, Option<EventMismatch>) {
    let mut counts = EventCounts::default();
    let mut first = None;
    let command = |h: &Hit| events.command.map(|c| h.values[c]);
    for (index, (e, h)) in expected.iter().zip(actual).enumerate() {
        counts.compared += 1;
        let mut exact = true;
        let mut within = true;
        for (k, f) in events.fields.iter().enumerate().take(MAX_FIELDS) {
            let tol = if e.exact { 0 } else { tolerance[k] };
            let d = e.values[k].abs_diff(h.values[k]);
            exact &= d == 0;
            if d > tol as u64 {
                within = false;
                if first.is_none() {
                    first = Some(field_mismatch(index, f, tol, e, h, command(h), k));
                }
            }
        }
        counts.exact += u64::from(exact);
        counts.within += u64::from(within);
    }
    if first.is_none() {
        if actual.len() < expected.len() {
            first = Some(EventMismatch::ProgramEnded {
                expected: expected.len(),
                actual: actual.len(),
            });
        } else if let Some(h) = actual.get(expected.len()) {
            first = Some(EventMismatch::ModelEnded {
                expected: expected.len(),
                actual: actual.len(),
                command: command(h),
                at: (h.cs, h.ip),
            });
        }
    }
    (counts, first)
}

fn field_mismatch(
    index: usize,
    f: &Field,
    tolerance: u16,
    e: &Event,
    h: &Hit,
    command: Option<i64>,
    k: usize,
) -> EventMismatch {
    EventMismatch::Field {
        index,
        field: f.name,
        tolerance,
        expected: e.values[k],
        actual: h.values[k],
        command,
        at: (h.cs, h.ip),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Capture, Reg};

    static FIELDS: [Field; 2] = [
        Field {
            name: "x",
            capture: Capture::Reg(Reg::AX),
            signed: true,
            tolerance: Some("tol"),
        },
        Field {
            name: "command",
            capture: Capture::Reg(Reg::R8(2)),
            signed: false,
            tolerance: None,
        },
    ];
    static EVENTS: Events = Events {
        point: "emit",
        fields: &FIELDS,
        command: Some(1),
    };

    fn hit(x: i64, c: i64) -> Hit {
        let mut h = Hit {
            cs: 0x13A,
            ip: 0x4300,
            ..Hit::default()
        };
        h.values[0] = x;
        h.values[1] = c;
        h
    }

    #[test]
    fn fields_within_their_tolerance_agree_and_the_first_outside_is_named() {
        let tol = [1, 0, 0, 0, 0, 0, 0, 0];
        let want = [
            Event::new(&[10, 0x31], true),
            Event::new(&[20, 0x38], false),
            Event::new(&[30, 0x38], false),
        ];
        let got = [hit(10, 0x31), hit(21, 0x38), hit(32, 0x38)];
        let (c, m) = compare(&EVENTS, &tol, &want, &got);
        assert_eq!((c.compared, c.exact, c.within), (3, 1, 2));
        let m = m.expect("the third is out");
        assert_eq!(m.values(), (30, 32));
        assert_eq!(
            m.what(),
            "event 2 (command 38h from 013A:4300), field x (within 1)"
        );
        // An exact event allows nothing.
        let (_, m) = compare(
            &EVENTS,
            &tol,
            &[Event::new(&[10, 0x31], true)],
            &[hit(11, 0x31)],
        );
        assert!(m.is_some_and(|m| m.what().contains("(exact)")));
    }

    #[test]
    fn a_stream_that_ends_early_on_either_side_is_named() {
        let tol = [0; MAX_FIELDS];
        let want = [Event::new(&[1, 0x31], true), Event::new(&[2, 0x31], true)];
        let (c, m) = compare(&EVENTS, &tol, &want, &[hit(1, 0x31)]);
        assert_eq!(c.compared, 1);
        assert_eq!(
            m,
            Some(EventMismatch::ProgramEnded {
                expected: 2,
                actual: 1
            })
        );
        let (_, m) = compare(&EVENTS, &tol, &want[..1], &[hit(1, 0x31), hit(5, 0x33)]);
        let m = m.expect("the model ended first");
        assert!(m.what().contains("command 33h"), "{}", m.what());
    }
}
