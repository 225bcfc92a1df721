//! `tandem call PROGRAM --at SEG:OFF [--reg R=V]... [--mem ADDR=HEX]...
//! [--until-ret] [--io]`: loads the program, runs one routine in isolation
//! until it returns (RET or RETF), and lists its memory writes and port
//! writes in order (with `--io`, its port reads as well); the work is
//! [`crate::golden::call`]'s.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::app::error::{report, Error};
use crate::app::options::MachineOpts;
use crate::golden::call::{self, Access, Called, CalledEvents, Request};
use crate::golden::profile::RoutineArgs;

/// Arguments of `tandem call`.
#[derive(Args, Debug)]
#[command(after_help = crate::app::exit::HELP)]
pub struct CallArgs {
    /// The DOS program.
    #[arg(value_name = "PROGRAM")]
    program: PathBuf,

    /// The routine: SEG:OFF with SEG hexadecimal or cs (entry CS), ss
    /// (entry SS), psp, load (PSP+10h for an .EXE, the PSP for a .COM,
    /// whose entry is load:0100), code (with --profile). Or --routine.
    #[arg(long, value_name = "SEG:OFF", required_unless_present = "routine")]
    at: Option<String>,

    #[command(flatten)]
    located: RoutineArgs,

    /// A register before the call: R=V with V hexadecimal (ax..di, eax..edi,
    /// al..bh, ds, es, fs, gs, flags); repeatable.
    #[arg(long = "reg", value_name = "R=V")]
    regs: Vec<String>,

    /// Memory before the call: ADDR=HEX, ADDR as SEG:OFF (as for --at) or a
    /// linear hexadecimal address, HEX the bytes; repeatable.
    #[arg(long = "mem", value_name = "ADDR=HEX")]
    mems: Vec<String>,

    /// Run until the routine returns (the default; kept for scripts).
    #[arg(long)]
    until_ret: bool,

    /// Also list port reads.
    #[arg(long)]
    io: bool,

    /// Instructions at most.
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    max: u64,

    #[command(flatten)]
    pub(crate) machine: MachineOpts,

    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `tandem call`.
pub fn run(args: &CallArgs) -> ExitCode {
    let req = Request {
        at: args.at.as_deref(),
        located: &args.located,
        regs: &args.regs,
        mems: &args.mems,
        io: args.io,
        max: args.max,
        machine: &args.machine,
    };
    let name = args.program.display().to_string();
    let called = match call::call(&args.program, &req) {
        Ok(c) => c,
        Err(e @ Error::Call(_)) => {
            eprintln!("tandem call: stopped: {name}: {e}");
            return ExitCode::from(e.exit_code());
        }
        Err(e) => return report("call", &e),
    };
    if args.json {
        print_json(&called);
    } else {
        print_text(&called, &name, args.io);
        if let Some(e) = &called.events {
            print_events(e);
        }
    }
    // An event stream that disagrees with its model is a finding.
    if called.events.as_ref().is_some_and(|e| e.mismatch.is_some()) {
        return ExitCode::from(crate::app::exit::CHECK_FAILED);
    }
    ExitCode::SUCCESS
}

/// The events of an event-stream routine, and how they compare.
fn print_events(e: &CalledEvents) {
    println!("events:");
    for (i, h) in e.hits.iter().enumerate() {
        let fields: Vec<String> = e
            .fields
            .iter()
            .zip(h.values)
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        println!(
            "  {i:4}  {}  (from {:04X}:{:04X})",
            fields.join(" "),
            h.cs,
            h.ip
        );
    }
    let c = e.counts;
    println!(
        "{} events emitted, {} expected by the model: {} compared, {} exact, {} within tolerance",
        e.hits.len(),
        e.expected,
        c.compared,
        c.exact,
        c.within
    );
    if let Some(m) = &e.mismatch {
        println!("first difference: {m}");
    }
}

fn events_json(e: &CalledEvents) -> serde_json::Value {
    let hits: Vec<_> = e
        .hits
        .iter()
        .map(|h| {
            let mut m = serde_json::Map::new();
            for (n, v) in e.fields.iter().zip(h.values) {
                m.insert((*n).into(), v.into());
            }
            m.insert("from".into(), format!("{:04X}:{:04X}", h.cs, h.ip).into());
            serde_json::Value::Object(m)
        })
        .collect();
    serde_json::json!({
        "emitted": hits, "expected": e.expected, "compared": e.counts.compared,
        "exact": e.counts.exact, "within_tolerance": e.counts.within,
        "first_mismatch": e.mismatch,
    })
}

fn hex(size: u8, v: u32) -> String {
    match size {
        1 => format!("{v:02X}h"),
        2 => format!("{v:04X}h"),
        _ => format!("{v:08X}h"),
    }
}

fn print_json(c: &Called) {
    let at = |a: &Access| format!("{:04X}:{:04X}", a.cs, a.ip);
    let w: Vec<_> = c
        .writes
        .iter()
        .map(|a| serde_json::json!({"at": at(a), "linear": a.addr, "size": a.size, "value": a.value}))
        .collect();
    let p: Vec<_> = c
        .ports
        .iter()
        .map(|a| {
            serde_json::json!({"at": at(a), "dir": if a.read {"in"} else {"out"}, "port": a.addr, "size": a.size, "value": a.value})
        })
        .collect();
    let (cs, ip) = c.entry;
    println!(
        "{}",
        serde_json::json!({"routine": format!("{cs:04X}:{ip:04X}"), "instructions": c.steps, "clocks": c.cycles, "memory_writes": w, "ports": p,
            "events": c.events.as_ref().map(events_json)})
    );
}

fn print_text(c: &Called, name: &str, io: bool) {
    let (cs, ip) = c.entry;
    println!(
        "call {cs:04X}:{ip:04X} in {name}: returned after {} instructions, {} clocks",
        c.steps, c.cycles
    );
    println!("memory writes:");
    for a in &c.writes {
        println!(
            "  {:04X}:{:04X}  [{:05X}] <- {}",
            a.cs,
            a.ip,
            a.addr,
            hex(a.size, a.value)
        );
    }
    println!("port {}:", if io { "reads and writes" } else { "writes" });
    for a in &c.ports {
        let d = if a.read { "->" } else { "<-" };
        println!(
            "  {:04X}:{:04X}  {:02X}h {d} {}",
            a.cs,
            a.ip,
            a.addr,
            hex(a.size, a.value)
        );
    }
    println!(
        "{} memory writes, {} port accesses",
        c.writes.len(),
        c.ports.len()
    );
}
