//! Sweeps: run a routine of the original program over its model's whole
//! input domain and compare every result with the model, for any
//! registered model, on every core.
//!
//! The models read their tables from the memory of the *reference* program
//! (the golden master): normally the same program, loaded on its own; for a
//! built-in replica profile the pristine replica, so that an altered program
//! (a mutant, or a patched game) is compared against the original's data.
//!
//! Each point starts from the same state: the registers as the program
//! left them before the sweep, the model's inputs written, its output words
//! restored to the program's own. So the report is the same whatever the
//! number of threads: the domain is cut into one contiguous part per
//! thread, each runs on its own copy of the CPU and memory, and the parts
//! are joined in order (the first mismatch is the first in domain order).

use std::sync::atomic::{AtomicU64, Ordering};

use emu::{Bus, Cpu, FlatBus, SegReg};
use rayon::prelude::*;

use crate::call::{call_near, call_near_watching};
use crate::error::Error;
use crate::events::{self, EventCounts, Hit};
use crate::memory::{GuestMemory, Placed, Segments};
use crate::model::{fill_word, Capture, Ctx, Input, Output, Point, MAX_FIELDS, MAX_OUTPUTS};
use crate::profile::Routine;

/// The first disagreement of a sweep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// What was swept over at that point (for example `clock 0123h`).
    pub input: String,
    /// Which output differs (for example `slot 10`).
    pub output: String,
    /// What the model says.
    pub expected: i64,
    /// What the original code produced.
    pub actual: i64,
}

/// The result of a sweep.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Outputs that agree.
    pub equal: u64,
    /// Outputs compared.
    pub total: u64,
    /// The first disagreement, if any.
    pub first: Option<Mismatch>,
    /// An event-stream model's events: compared, exact, within tolerance.
    pub events: EventCounts,
    /// Events the program emitted.
    pub events_emitted: u64,
    /// Events the model expected.
    pub events_expected: u64,
}

/// Instructions allowed per call before a routine counts as stuck.
const MAX_STEPS: u64 = 100_000;
/// The stack pointer of each call (near the top of the stack segment).
const SWEEP_SP: u16 = 0xFFF0;
/// Points between two progress reports.
const PROGRESS_EVERY: usize = 64;

/// The program under test: its CPU and its first mebibyte of memory as
/// loaded (each thread runs on its own copy, [`flat_copy`]) and its
/// segments.
pub struct Program<'a> {
    /// The CPU, its registers as each call starts.
    pub cpu: &'a Cpu,
    /// The memory from linear address 0 (at most 1 MiB is used).
    pub mem: &'a [u8],
    /// Where its segments are.
    pub segs: Segments,
}

/// Size of a sweep's flat memory: the real-mode address space.
const FLAT_SIZE: usize = 1 << 20;
/// The unit [`flat_copy`] skips when it is all zeros (a page).
const PAGE: usize = 4096;
/// A page of zeros to compare with.
static ZERO_PAGE: [u8; PAGE] = [0; PAGE];

/// A flat 1 MiB bus holding `mem`'s first mebibyte. Pages of zeros are
/// not copied: the bus starts zeroed, and a page never written is never
/// touched (a process-wide sweep copies about a quarter of a DOS machine's
/// first mebibyte, the rest being empty).
pub fn flat_copy(mem: &[u8]) -> FlatBus {
    let mut bus = FlatBus::new(FLAT_SIZE);
    let n = mem.len().min(FLAT_SIZE);
    for (dst, src) in bus.mem[..n].chunks_mut(PAGE).zip(mem[..n].chunks(PAGE)) {
        // A comparison with a zero page is a memcmp: much faster than a
        // byte loop that may stop early.
        if src != &ZERO_PAGE[..src.len()] {
            dst.copy_from_slice(src);
        }
    }
    bus
}

/// The linear addresses of a routine's memory inputs and outputs in the
/// program under test (`None` for a register).
struct Wiring {
    inputs: Vec<Option<u32>>,
    outputs: Vec<Option<u32>>,
}

fn place_addr(r: &Routine, segs: Segments, p: &crate::model::Place) -> u32 {
    let (seg, off) = r.symbol(p.symbol).unwrap_or((crate::profile::Seg::Code, 0));
    let ix = p.index.map_or(0, |i| r.value(i));
    segs.linear(seg, off.wrapping_add(2 * ix))
}

impl Wiring {
    fn new(r: &Routine, segs: Segments) -> Wiring {
        let iface = r.model.interface();
        let inputs = iface
            .inputs
            .iter()
            .map(|i| match i {
                Input::Reg(_) => None,
                Input::Word(p) | Input::Clock(p) => Some(place_addr(r, segs, p)),
            })
            .collect();
        let outputs = iface
            .outputs
            .iter()
            .map(|o| match o {
                Output::Reg(_) => None,
                Output::Words { place, .. } => Some(place_addr(r, segs, place)),
            })
            .collect();
        Wiring { inputs, outputs }
    }
}

/// The domain of `routine`'s model, read from the reference: the points
/// a sweep runs, in order.
pub fn domain<R: GuestMemory + ?Sized>(
    routine: &Routine,
    reference: &Placed<R>,
) -> Result<Vec<Point>, Error> {
    let mem = Dyn(reference.mem);
    let ctx = Ctx {
        mem: &mem,
        segs: reference.segs,
        routine,
    };
    routine.model.domain(&ctx).ok_or(Error::NoDomain {
        model: routine.model.name(),
    })
}

/// Sweeps `routine` over its model's domain: the program runs each point,
/// the model computes it from the reference. `progress` gets the number of
/// points done so far (from any thread). Runs on the current rayon pool.
pub fn sweep<R>(
    routine: &Routine,
    program: &Program,
    reference: &Placed<R>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SweepReport, Error>
where
    R: GuestMemory + Sync + ?Sized,
{
    let points = domain(routine, reference)?;
    sweep_points(routine, program, reference, &points, progress)
}

/// [`sweep`] over given points (a domain from [`domain`]).
pub fn sweep_points<R>(
    routine: &Routine,
    program: &Program,
    reference: &Placed<R>,
    domain: &[Point],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SweepReport, Error>
where
    R: GuestMemory + Sync + ?Sized,
{
    let threads = rayon::current_num_threads().max(1);
    let part = domain.len().div_ceil(threads).max(1);
    let done = AtomicU64::new(0);
    let wiring = Wiring::new(routine, program.segs);
    // The model's fills, laid over what the model reads and over the
    // program's memory (each thread's copy, and the words restored).
    let ref_mem = Filled::new(reference.mem, routine, reference.segs);
    let reference = &Placed {
        mem: &ref_mem,
        segs: reference.segs,
    };
    let pristine = Filled::new(program.mem, routine, program.segs);
    let parts: Vec<Result<SweepReport, Error>> = domain
        .par_chunks(part)
        .map(|points| {
            let mut cpu = program.cpu.clone();
            let mut bus = flat_copy(program.mem);
            pristine.apply(&mut bus);
            let mut run = Runner {
                routine,
                program,
                pristine: &pristine,
                wiring: &wiring,
                cpu: &mut cpu,
                bus: &mut bus,
            };
            run.points(points, reference, &|n| {
                progress(done.fetch_add(n, Ordering::Relaxed) + n)
            })
        })
        .collect();
    let mut report = SweepReport::default();
    for p in parts {
        let p = p?;
        report.equal += p.equal;
        report.total += p.total;
        report.events.add(p.events);
        report.events_emitted += p.events_emitted;
        report.events_expected += p.events_expected;
        if report.first.is_none() {
            report.first = p.first;
        }
    }
    never_hit(routine, program.segs, &report)?;
    Ok(report)
}

/// An error when the routine's event point was never reached although
/// the model expected events: the profile names the wrong address.
pub fn never_hit(routine: &Routine, segs: Segments, r: &SweepReport) -> Result<(), Error> {
    let Some(ev) = routine.model.interface().events else {
        return Ok(());
    };
    if r.events_emitted > 0 || r.events_expected == 0 {
        return Ok(());
    }
    let (seg, off) = routine
        .symbol(ev.point)
        .unwrap_or((crate::profile::Seg::Code, 0));
    Err(Error::EventPointNeverHit {
        routine: routine.name.clone(),
        symbol: ev.point,
        seg: segs.get(seg),
        off,
        expected: r.events_expected,
    })
}

/// A memory with a model's fills ([`crate::model::Interface::fills`])
/// laid over it: each range reads as the pattern of [`fill_word`].
struct Filled<'a, M: ?Sized> {
    base: &'a M,
    /// Linear start and length in bytes of each fill.
    ranges: Vec<(u32, u32)>,
}

impl<'a, M: GuestMemory + ?Sized> Filled<'a, M> {
    /// `base` with `routine`'s fills at its places in `segs`.
    fn new(base: &'a M, routine: &Routine, segs: Segments) -> Self {
        let ranges = routine.model.interface().fills.iter();
        let ranges = ranges.map(|f| (place_addr(routine, segs, &f.place), 2 * f.words as u32));
        Filled {
            base,
            ranges: ranges.collect(),
        }
    }

    /// Writes the fills into `bus`.
    fn apply(&self, bus: &mut FlatBus) {
        for &(start, len) in &self.ranges {
            for a in start..start + len {
                bus.mem_write8(a, self.read8(a));
            }
        }
    }
}

impl<M: GuestMemory + ?Sized> GuestMemory for Filled<'_, M> {
    fn read8(&self, linear: u32) -> u8 {
        for &(start, len) in &self.ranges {
            let k = linear.wrapping_sub(start);
            if k < len {
                return (fill_word((k / 2) as u16) >> (8 * (k % 2))) as u8;
            }
        }
        self.base.read8(linear)
    }
}

/// A `?Sized` memory seen as a `dyn GuestMemory`.
pub(crate) struct Dyn<'a, M: ?Sized>(pub(crate) &'a M);

impl<M: GuestMemory + ?Sized> GuestMemory for Dyn<'_, M> {
    fn read8(&self, linear: u32) -> u8 {
        self.0.read8(linear)
    }

    fn read16(&self, linear: u32) -> u16 {
        self.0.read16(linear)
    }
}

/// One thread's part of a sweep.
struct Runner<'a> {
    routine: &'a Routine,
    program: &'a Program<'a>,
    /// The program's memory as each point starts (fills included).
    pristine: &'a Filled<'a, [u8]>,
    wiring: &'a Wiring,
    cpu: &'a mut Cpu,
    bus: &'a mut FlatBus,
}

impl Runner<'_> {
    fn points<R: GuestMemory + ?Sized>(
        &mut self,
        points: &[Point],
        reference: &Placed<R>,
        progress: &dyn Fn(u64),
    ) -> Result<SweepReport, Error> {
        let mem = Dyn(reference.mem);
        let ctx = Ctx {
            mem: &mem,
            segs: reference.segs,
            routine: self.routine,
        };
        let model = self.routine.model;
        let n = model.interface().output_len().min(MAX_OUTPUTS);
        let regs = self.program.cpu.regs.clone();
        let mut r = SweepReport::default();
        let (mut got, mut want) = ([0i64; MAX_OUTPUTS], [0i64; MAX_OUTPUTS]);
        let events = model.interface().events;
        let tolerance = events.map(|e| events::tolerances(e, self.routine));
        let mut hits = Vec::new();
        for (i, p) in points.iter().enumerate() {
            self.cpu.regs = regs.clone();
            hits.clear();
            self.run(p, &mut got, &mut hits)?;
            model.expect(&ctx, p, &mut want[..n]);
            if let (Some(ev), Some(tol)) = (events, tolerance.as_ref()) {
                let expected = model.events(&ctx, p);
                let (counts, m) = events::compare(ev, tol, &expected, &hits);
                r.events.add(counts);
                r.events_emitted += hits.len() as u64;
                r.events_expected += expected.len() as u64;
                if let (Some(m), None) = (m, &r.first) {
                    let (expected, actual) = m.values();
                    r.first = Some(Mismatch {
                        input: model.describe(&ctx, p),
                        output: m.what(),
                        expected,
                        actual,
                    });
                }
            }
            for k in 0..n {
                r.total += 1;
                if got[k] == want[k] {
                    r.equal += 1;
                } else if r.first.is_none() {
                    r.first = Some(Mismatch {
                        input: model.describe(&ctx, p),
                        output: model.output_name(&ctx, k),
                        expected: want[k],
                        actual: got[k],
                    });
                }
            }
            if (i + 1) % PROGRESS_EVERY == 0 || i + 1 == points.len() {
                progress((i % PROGRESS_EVERY + 1) as u64);
            }
        }
        Ok(r)
    }

    /// Sets the point's inputs, calls the routine and reads its outputs;
    /// an event-stream routine's events go to `hits`.
    fn run(
        &mut self,
        p: &Point,
        got: &mut [i64; MAX_OUTPUTS],
        hits: &mut Vec<Hit>,
    ) -> Result<(), Error> {
        let iface = self.routine.model.interface();
        let segs = self.program.segs;
        self.cpu.regs.flags = self.cpu.normalize_flags(0); // alone: no interrupts
        self.cpu.regs.set_sreg(SegReg::DS, segs.data);
        self.cpu.regs.set_sreg(SegReg::ES, segs.data);
        // Output words start as the program's own, so no point depends on
        // the one before (nor on how the domain was cut).
        for (o, a) in iface.outputs.iter().zip(&self.wiring.outputs) {
            if let Some(a) = *a {
                for b in 0..2 * o.len() as u32 {
                    self.bus.mem_write8(a + b, self.pristine.read8(a + b));
                }
            }
        }
        for (k, (input, a)) in iface.inputs.iter().zip(&self.wiring.inputs).enumerate() {
            let v = p.values[k];
            match (input, a) {
                (Input::Reg(r), _) => r.set(&mut self.cpu.regs, v),
                (_, Some(a)) => {
                    self.bus.mem_write8(*a, v as u8);
                    self.bus.mem_write8(a + 1, (v >> 8) as u8);
                }
                _ => {}
            }
        }
        match iface.events {
            None => {
                call_near(
                    self.cpu,
                    self.bus,
                    segs.code,
                    self.routine.entry,
                    segs.stack,
                    SWEEP_SP,
                    MAX_STEPS,
                )?;
            }
            Some(ev) => {
                let capture = Capturer::new(self.routine, segs, ev);
                let mut on_hit = |cpu: &Cpu, bus: &FlatBus| hits.push(capture.hit(cpu, bus));
                let watch = capture
                    .point
                    .map(|at| (at, &mut on_hit as &mut dyn FnMut(&Cpu, &FlatBus)));
                call_near_watching(
                    self.cpu,
                    self.bus,
                    segs.code,
                    self.routine.entry,
                    segs.stack,
                    SWEEP_SP,
                    MAX_STEPS,
                    watch,
                )?;
            }
        }
        let mut k = 0;
        for (o, a) in iface.outputs.iter().zip(&self.wiring.outputs) {
            match (o, a) {
                (Output::Reg(r), _) => {
                    got[k] = r.get(&self.cpu.regs) as i64;
                    k += 1;
                }
                (Output::Words { count, signed, .. }, Some(a)) => {
                    for w in 0..*count as u32 {
                        let v = self.bus.read16(a + 2 * w);
                        got[k] = if *signed { v as i16 as i64 } else { v as i64 };
                        k += 1;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// What an event point captures, resolved in one program.
#[derive(Clone, Debug)]
pub struct Capturer {
    /// The event point's offset in the code segment (None: the profile
    /// puts it elsewhere, and it is never reached by a near call).
    pub point: Option<u16>,
    fields: Vec<(Capture, bool, Option<u32>)>,
}

impl Capturer {
    /// The capture of `events` for `routine` in a program at `segs`.
    pub fn new(routine: &Routine, segs: Segments, events: &crate::model::Events) -> Capturer {
        let point = match routine.symbol(events.point) {
            Some((crate::profile::Seg::Code, off)) => Some(off),
            _ => None,
        };
        let fields = events
            .fields
            .iter()
            .take(MAX_FIELDS)
            .map(|f| {
                let addr = match f.capture {
                    Capture::Word(place) => Some(place_addr(routine, segs, &place)),
                    Capture::Reg(_) => None,
                };
                (f.capture, f.signed, addr)
            })
            .collect();
        Capturer { point, fields }
    }

    /// The event the CPU stands at (at the event point, before its first
    /// instruction): the fields, and the return address the call left
    /// at SS:SP (the instruction after the one that emitted it).
    pub fn hit<M: GuestMemory + ?Sized>(&self, cpu: &Cpu, mem: &M) -> Hit {
        let mut h = Hit::default();
        for (k, (c, signed, addr)) in self.fields.iter().enumerate() {
            let v = match (c, addr) {
                (Capture::Reg(r), _) => r.get(&cpu.regs),
                (Capture::Word(_), Some(a)) => mem.read16(*a),
                _ => 0,
            };
            h.values[k] = if *signed { v as i16 as i64 } else { v as i64 };
        }
        let sp = cpu.linear(cpu.regs.sreg(SegReg::SS), cpu.regs.get16(4));
        h.cs = cpu.regs.sreg(SegReg::CS);
        h.ip = mem.read16(sp);
        h
    }
}

/// Points a spot check runs at each frame.
pub const SPOT_POINTS: usize = 16;

/// A spot check at lock-step frame `frame`: [`SPOT_POINTS`] points of the
/// domain (a different, deterministic choice at each frame) run on a copy
/// of the running program, the model reading the same copy, so a routine
/// whose tables change while the program runs (the parameter table) is
/// checked on the data of the moment. The first mismatch, if any.
pub fn spot_check(
    routine: &Routine,
    program: &Program,
    domain: &[Point],
    frame: u64,
) -> Result<Option<Mismatch>, Error> {
    if domain.is_empty() {
        return Ok(None);
    }
    let pick: Vec<Point> = (0..SPOT_POINTS as u64)
        .map(|j| {
            let k = (frame * SPOT_POINTS as u64 + j).wrapping_mul(7919) % domain.len() as u64;
            domain[k as usize]
        })
        .collect();
    let (mut cpu, mut bus) = (program.cpu.clone(), flat_copy(program.mem));
    let wiring = Wiring::new(routine, program.segs);
    // No fills: the point is the data of the moment.
    let pristine = Filled {
        base: program.mem,
        ranges: Vec::new(),
    };
    let mut run = Runner {
        routine,
        program,
        pristine: &pristine,
        wiring: &wiring,
        cpu: &mut cpu,
        bus: &mut bus,
    };
    let reference = Placed {
        mem: program.mem,
        segs: program.segs,
    };
    Ok(run.points(&pick, &reference, &|_| {})?.first)
}
