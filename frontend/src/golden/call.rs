//! `tandem call`: one routine of a program run in isolation until it
//! returns (RET or RETF), with what it wrote to memory and ports (and,
//! when asked, read from ports) in order.
//!
//! The routine runs on the CPU alone: interrupts are off and DOS/BIOS
//! services are not called for it. DS and ES start as the program's data
//! segment (its SS without a profile: the data group of a game where SS =
//! DS) unless a register setting says otherwise.

use std::path::Path;

use emu::{HookAction, HookEvent, HookKind, HookRecord, SegReg};
use models::call::call_near_watching;
use models::events::Hit;
use models::stream::StreamWatch;
use models::sweep::Capturer;

use super::profile::{Chosen, Found, RoutineArgs, GM_CPU};
use crate::app::address;
use crate::app::error::Error;
use crate::app::options::MachineOpts;
use crate::app::program::Loaded;

/// What to call and how.
pub struct Request<'a> {
    /// The routine: `SEG:OFF` (see [`address::parse`]), unless `located`
    /// names a routine.
    pub at: Option<&'a str>,
    /// `--profile`/`--routine`.
    pub located: &'a RoutineArgs,
    /// Registers before the call: `R=V`, V hexadecimal.
    pub regs: &'a [String],
    /// Memory before the call: `ADDR=HEX`.
    pub mems: &'a [String],
    /// Also keep port reads.
    pub io: bool,
    /// Instructions at most.
    pub max: u64,
    /// The machine.
    pub machine: &'a MachineOpts,
}

/// A memory or port access of the routine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// CS of the instruction.
    pub cs: u16,
    /// IP of the instruction.
    pub ip: u16,
    /// The linear address, or the port.
    pub addr: u32,
    /// Bytes.
    pub size: u8,
    /// The value.
    pub value: u32,
    /// A port read (`false`: a write).
    pub read: bool,
}

/// What the call did.
pub struct Called {
    /// The routine's CS:IP.
    pub entry: (u16, u16),
    /// Instructions executed.
    pub steps: u64,
    /// CPU clocks spent.
    pub cycles: u64,
    /// Memory writes, in order.
    pub writes: Vec<Access>,
    /// Port accesses, in order.
    pub ports: Vec<Access>,
    /// An event-stream routine's events against its model's.
    pub events: Option<CalledEvents>,
}

/// The events of an event-stream routine called with `--routine`.
pub struct CalledEvents {
    /// The fields' names.
    pub fields: Vec<&'static str>,
    /// What the program emitted, in order.
    pub hits: Vec<Hit>,
    /// Events the model expects for the call's inputs.
    pub expected: usize,
    /// Events compared, exact, within tolerance.
    pub counts: models::events::EventCounts,
    /// The first disagreement.
    pub mismatch: Option<String>,
}

/// Loads `program` and calls the routine `req` names.
pub fn call(program: &Path, req: &Request) -> Result<Called, Error> {
    let name = program.display().to_string();
    let mut s = Loaded::open(program, &req.machine.config(GM_CPU))?;
    let found = req.located.locate(&s, &name)?;
    let (cs, ip) = match (found.and_then(|f| f.entry), req.at) {
        (Some(e), _) => e,
        (None, Some(at)) => address::parse(at, &s.layout, found.as_ref().map(|f| &f.segs))?,
        (None, None) => return Err(Error::Input("--at or --routine is required".into())),
    };
    prepare(&mut s, found, req)?;
    let sp = s.session.m.cpu.regs.get16(4);
    // An event-stream routine: the model's stream for these inputs.
    let mut stream = match (found, &req.located.routine, &req.located.profile) {
        (Some(f), Some(r), Some(p)) => {
            let routine = Chosen::open(p)?.routine(r)?;
            StreamWatch::new(routine, f.segs)
        }
        _ => None,
    };
    let mut mismatch = stream
        .as_mut()
        .and_then(|w| w.entered(&s.session.m.cpu, &s.session.m));
    set_hooks(&mut s, req.io);
    let ss = s.layout.entry_ss;
    let m = &mut s.session.m;
    let mut hits = Vec::new();
    let capture = stream.as_ref().and_then(|w| {
        let ev = w.routine.model.interface().events?;
        Some(Capturer::new(&w.routine, w.segs(), ev))
    });
    // Each hit: kept, and compared at once (memory as it is then).
    let mut on_hit = |cpu: &emu::Cpu, bus: &hw::machine::PcBus| {
        if let (Some(c), Some(w)) = (&capture, stream.as_mut()) {
            hits.push(c.hit(cpu, bus));
            let found = w.hit(cpu, bus);
            mismatch = mismatch.take().or(found);
        }
    };
    let watch = capture.as_ref().and_then(|c| c.point).map(|at| {
        (
            at,
            &mut on_hit as &mut dyn FnMut(&emu::Cpu, &hw::machine::PcBus),
        )
    });
    // The far return frame the call pushes is not the routine's doing.
    let outcome = call_near_watching(&mut m.cpu, &mut m.bus, cs, ip, ss, sp, req.max, watch);
    let log = m.cpu.hooks.take().map(|h| h.log).unwrap_or_default();
    let outcome = outcome?;
    let (writes, ports) = accesses(&log);
    let events = stream.map(|mut w| {
        let expected = w.expected();
        mismatch = mismatch.take().or(w.close());
        CalledEvents {
            fields: w
                .routine
                .model
                .interface()
                .events
                .map_or(Vec::new(), |e| e.fields.iter().map(|f| f.name).collect()),
            expected,
            counts: w.counts,
            mismatch: mismatch.map(|m| m.what()),
            hits,
        }
    });
    Ok(Called {
        entry: (cs, ip),
        steps: outcome.steps,
        cycles: outcome.cycles,
        writes,
        ports,
        events,
    })
}

/// Sets DS, ES, FLAGS and what `--reg` and `--mem` ask for.
fn prepare(s: &mut Loaded, found: Option<Found>, req: &Request) -> Result<(), Error> {
    let ds = found.map_or(s.layout.entry_ss, |f| f.segs.data);
    let regs = &mut s.session.m.cpu.regs;
    regs.set_sreg(SegReg::DS, ds);
    regs.set_sreg(SegReg::ES, ds);
    s.session.m.cpu.regs.flags = s.session.m.cpu.normalize_flags(0);
    for r in req.regs {
        set_reg(s, r)?;
    }
    let segs = found.map(|f| f.segs);
    for m in req.mems {
        set_mem(s, m, segs.as_ref())?;
    }
    Ok(())
}

/// Records every memory write and port write (and port read with `io`).
fn set_hooks(s: &mut Loaded, io: bool) {
    let h = s.session.m.cpu.hooks_mut();
    let everywhere = HookKind::MemWrite {
        start: 0,
        end: u32::MAX,
    };
    h.add(everywhere, HookAction::Record);
    let ports = HookKind::PortWrite {
        start: 0,
        end: 0xFFFF,
    };
    h.add(ports, HookAction::Record);
    if io {
        let reads = HookKind::PortRead {
            start: 0,
            end: 0xFFFF,
        };
        h.add(reads, HookAction::Record);
    }
}

/// The memory writes and port accesses of a hook log.
fn accesses(log: &[HookRecord]) -> (Vec<Access>, Vec<Access>) {
    let mut writes = Vec::new();
    let mut ports = Vec::new();
    for r in log {
        let at = |addr: u32, size: u8, value: u32, read: bool| Access {
            cs: r.cs,
            ip: r.ip,
            addr,
            size,
            value,
            read,
        };
        match r.event {
            HookEvent::MemWrite {
                linear,
                size,
                value,
            } => writes.push(at(linear, size, value, false)),
            HookEvent::PortWrite { port, size, value } => {
                ports.push(at(port as u32, size, value, false))
            }
            HookEvent::PortRead { port, size, value } => {
                ports.push(at(port as u32, size, value, true))
            }
            _ => {}
        }
    }
    (writes, ports)
}

/// The 16-bit registers by number, then the 8-bit ones.
const R16: [&str; 8] = ["ax", "cx", "dx", "bx", "sp", "bp", "si", "di"];
const R8: [&str; 8] = ["al", "cl", "dl", "bl", "ah", "ch", "dh", "bh"];

/// Sets a register from `R=V` (V hexadecimal).
fn set_reg(s: &mut Loaded, spec: &str) -> Result<(), Error> {
    let bad = || Error::Input(format!("--reg '{spec}': expected R=V with V hexadecimal"));
    let (r, v) = spec.split_once('=').ok_or_else(bad)?;
    let v = u32::from_str_radix(v.trim_start_matches("0x").trim_end_matches('h'), 16)
        .map_err(|_| bad())?;
    let regs = &mut s.session.m.cpu.regs;
    let r = r.to_ascii_lowercase();
    if let Some(i) = R16.iter().position(|&n| n == r) {
        regs.put16(i as u8, v as u16);
    } else if let Some(i) = R16.iter().position(|&n| format!("e{n}") == r) {
        regs.gpr[i] = v;
    } else if let Some(i) = R8.iter().position(|&n| n == r) {
        regs.put8(i as u8, v as u8);
    } else {
        match r.as_str() {
            "ds" => regs.set_sreg(SegReg::DS, v as u16),
            "es" => regs.set_sreg(SegReg::ES, v as u16),
            "fs" => regs.set_sreg(SegReg::FS, v as u16),
            "gs" => regs.set_sreg(SegReg::GS, v as u16),
            "flags" => regs.flags = v,
            _ => {
                return Err(Error::Input(format!(
                    "--reg '{spec}': unknown register '{r}' (CS, SS, SP and IP are set by the call)"
                )))
            }
        }
    }
    Ok(())
}

/// Writes memory from `ADDR=HEX`.
fn set_mem(s: &mut Loaded, spec: &str, found: Option<&models::Segments>) -> Result<(), Error> {
    let (a, hex) = spec
        .split_once('=')
        .ok_or_else(|| Error::Input(format!("--mem '{spec}': expected ADDR=HEX")))?;
    let a = address::linear(a, &s.layout, found)?;
    let hex: String = hex.chars().filter(|c| !c.is_whitespace()).collect();
    if !hex.len().is_multiple_of(2) || hex.is_empty() {
        return Err(Error::Input(format!(
            "--mem '{spec}': HEX needs pairs of digits"
        )));
    }
    for (i, pair) in hex.as_bytes().chunks(2).enumerate() {
        let b = u8::from_str_radix(std::str::from_utf8(pair).unwrap_or("?"), 16).map_err(|_| {
            Error::Input(format!(
                "--mem '{spec}': '{}' is not hexadecimal",
                String::from_utf8_lossy(pair)
            ))
        })?;
        s.session.m.poke8(a + i as u32, b);
    }
    Ok(())
}
