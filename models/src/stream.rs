//! Event streams in lock-step: while the program runs, each call of an
//! event-stream routine (the drawing interpreter) is checked as it
//! happens. At the routine's entry its inputs are read from the CPU and
//! memory and the model computes the stream it expects, reading the
//! program's memory of that moment (the parameter table as the frame left
//! it); each hit of the event point is compared with the next expected
//! event within the tolerances; the next entry, or the next frame point,
//! finds a stream that stopped short.

use emu::Cpu;

use crate::events::{self, EventCounts, EventMismatch};
use crate::memory::{GuestMemory, Segments};
use crate::model::{Ctx, Event, Input, Point, MAX_FIELDS, MAX_INPUTS};
use crate::profile::{Routine, Seg};
use crate::sweep::Capturer;

/// A stream that went wrong: the routine, the call's inputs, what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamMismatch {
    /// The routine's name.
    pub routine: String,
    /// The call's inputs, as the model describes them.
    pub input: String,
    /// The first disagreement.
    pub mismatch: EventMismatch,
}

impl StreamMismatch {
    /// One line for a report.
    pub fn what(&self) -> String {
        format!(
            "routine {} ({}): {}",
            self.routine,
            self.input,
            self.mismatch.what()
        )
    }
}

/// The call being checked.
#[derive(Clone, Debug)]
struct Pending {
    input: String,
    expected: Vec<Event>,
    next: usize,
}

/// The lock-step watch of one event-stream routine.
#[derive(Clone)]
pub struct StreamWatch {
    /// The routine.
    pub routine: Routine,
    /// The linear address of its entry.
    pub entry: u32,
    /// The linear address of its event point.
    pub point: u32,
    segs: Segments,
    capturer: Capturer,
    tolerance: [u16; MAX_FIELDS],
    pending: Option<Pending>,
    /// Events compared so far.
    pub counts: EventCounts,
    /// Calls checked so far.
    pub calls: u64,
}

impl std::fmt::Debug for StreamWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamWatch")
            .field("routine", &self.routine.name)
            .field("calls", &self.calls)
            .field("counts", &self.counts)
            .finish()
    }
}

impl StreamWatch {
    /// The watch of `routine` in a program at `segs`; None when its model
    /// emits no events or the event point is not a code symbol.
    pub fn new(routine: Routine, segs: Segments) -> Option<StreamWatch> {
        let ev = routine.model.interface().events?;
        let (Seg::Code, point) = routine.symbol(ev.point)? else {
            return None;
        };
        Some(StreamWatch {
            entry: segs.code(routine.entry),
            point: segs.code(point),
            capturer: Capturer::new(&routine, segs, ev),
            tolerance: events::tolerances(ev, &routine),
            segs,
            pending: None,
            counts: EventCounts::default(),
            calls: 0,
            routine,
        })
    }

    /// The CPU stands at the routine's entry: the call before it must
    /// have ended its stream; this call's stream is computed.
    pub fn entered<M: GuestMemory>(&mut self, cpu: &Cpu, mem: &M) -> Option<StreamMismatch> {
        let short = self.close();
        let iface = self.routine.model.interface();
        let mut values = [0u16; MAX_INPUTS];
        for (k, input) in iface.inputs.iter().enumerate().take(MAX_INPUTS) {
            values[k] = match input {
                Input::Reg(r) => r.get(&cpu.regs),
                Input::Word(p) | Input::Clock(p) => {
                    let (seg, off) = self.routine.symbol(p.symbol).unwrap_or((Seg::Code, 0));
                    let ix = p.index.map_or(0, |i| self.routine.value(i));
                    mem.read16(self.segs.linear(seg, off.wrapping_add(2 * ix)))
                }
            };
        }
        let point = Point { values, tag: 0 };
        let ctx = Ctx {
            mem,
            segs: self.segs,
            routine: &self.routine,
        };
        let model = self.routine.model;
        self.pending = Some(Pending {
            input: model.describe(&ctx, &point),
            expected: model.events(&ctx, &point),
            next: 0,
        });
        self.calls += 1;
        short
    }

    /// The CPU stands at the event point: the next event is compared.
    pub fn hit<M: GuestMemory>(&mut self, cpu: &Cpu, mem: &M) -> Option<StreamMismatch> {
        let h = self.capturer.hit(cpu, mem);
        let ev = self.routine.model.interface().events?;
        let p = self.pending.as_mut()?;
        let at = p.next;
        p.next += 1;
        let (mut counts, m) = match p.expected.get(at) {
            Some(e) => events::compare(ev, &self.tolerance, std::slice::from_ref(e), &[h]),
            None => events::compare(ev, &self.tolerance, &[], &[h]),
        };
        let m = m.map(|m| renumber(m, at, p.expected.len()));
        counts.compared = counts.compared.min(1);
        self.counts.add(counts);
        let input = p.input.clone();
        m.map(|mismatch| StreamMismatch {
            routine: self.routine.name.clone(),
            input,
            mismatch,
        })
    }

    /// The event the CPU stands at (at the event point), as captured.
    pub fn capture<M: GuestMemory>(&self, cpu: &Cpu, mem: &M) -> crate::events::Hit {
        self.capturer.hit(cpu, mem)
    }

    /// Where the program's segments are.
    pub fn segs(&self) -> Segments {
        self.segs
    }

    /// The index of the next event of the call being checked.
    pub fn position(&self) -> usize {
        self.pending.as_ref().map_or(0, |p| p.next)
    }

    /// Events the call being checked expects (0 when none is).
    pub fn expected(&self) -> usize {
        self.pending.as_ref().map_or(0, |p| p.expected.len())
    }

    /// Ends the call being checked (at a frame point, or the next call):
    /// its stream must be complete.
    pub fn close(&mut self) -> Option<StreamMismatch> {
        let p = self.pending.take()?;
        (p.next < p.expected.len()).then(|| StreamMismatch {
            routine: self.routine.name.clone(),
            input: p.input,
            mismatch: EventMismatch::ProgramEnded {
                expected: p.expected.len(),
                actual: p.next,
            },
        })
    }
}

/// A one-event comparison's mismatch as event `at` of a stream of `len`.
fn renumber(m: EventMismatch, at: usize, len: usize) -> EventMismatch {
    match m {
        EventMismatch::Field {
            field,
            tolerance,
            expected,
            actual,
            command,
            at: where_,
            ..
        } => EventMismatch::Field {
            index: at,
            field,
            tolerance,
            expected,
            actual,
            command,
            at: where_,
        },
        EventMismatch::ModelEnded { command, at: w, .. } => EventMismatch::ModelEnded {
            expected: len,
            actual: at + 1,
            command,
            at: w,
        },
        other => other,
    }
}
