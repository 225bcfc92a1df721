//! `tandem trace PROGRAM [--from SEG:OFF] [--count N] [--out FILE]`: runs a
//! DOS program and writes an instruction trace ([`crate::debug::trace`]):
//! CS:IP, the iced-x86 disassembly and the registers before each
//! instruction. With `--from` (or `--routine`) the trace starts when
//! execution first reaches that address.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::app::address;
use crate::app::error::{report, Error};
use crate::app::exit;
use crate::app::options::MachineOpts;
use crate::app::program::Loaded;
use crate::debug::trace;
use crate::golden::profile::Chosen;
use crate::golden::profile::{RoutineArgs, GM_CPU};
use models::stream::StreamWatch;

/// Arguments of `tandem trace`.
#[derive(Args, Debug)]
#[command(after_help = exit::HELP)]
pub struct TraceArgs {
    /// The DOS program.
    #[arg(value_name = "PROGRAM")]
    program: PathBuf,

    /// Start tracing when execution reaches SEG:OFF (SEG hexadecimal or cs,
    /// ss, psp, load: PSP+10h for an .EXE, the PSP for a .COM, whose entry
    /// is load:0100; code with --profile), or at --routine's entry.
    #[arg(long, value_name = "SEG:OFF")]
    from: Option<String>,

    #[command(flatten)]
    located: RoutineArgs,

    /// Instructions to trace.
    #[arg(long, value_name = "N", default_value_t = 100)]
    count: u64,

    /// Write the trace to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Emulated seconds at most to reach --from.
    #[arg(long, value_name = "S", default_value_t = 60)]
    seconds: u64,

    #[command(flatten)]
    pub(crate) machine: MachineOpts,
}

/// Where the trace starts: `--routine`'s entry, `--from`, or the program's
/// entry (`None`).
fn start(args: &TraceArgs, s: &Loaded, name: &str) -> Result<Option<(u16, u16)>, Error> {
    let found = args.located.locate(s, name)?;
    Ok(match (found.and_then(|f| f.entry), &args.from) {
        (Some(e), _) => Some(e),
        (None, Some(from)) => Some(address::parse(
            from,
            &s.layout,
            found.as_ref().map(|f| &f.segs),
        )?),
        (None, None) => None,
    })
}

/// Runs `tandem trace`.
pub fn run(args: &TraceArgs) -> ExitCode {
    let name = args.program.display().to_string();
    let config = args.machine.config(GM_CPU);
    let mut s = match Loaded::open(&args.program, &config) {
        Ok(s) => s,
        Err(e) => return report("trace", &e),
    };
    let mut out: Box<dyn Write> = match &args.out {
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Box::new(std::io::BufWriter::new(f)),
            Err(e) => return report("trace", &Error::file(p, e)),
        },
        None => Box::new(std::io::stdout()),
    };
    let at = match start(args, &s, &name) {
        Ok(a) => a,
        Err(e) => return report("trace", &e),
    };
    if let Some(at) = at {
        let limit = args.seconds.saturating_mul(config.cpu_hz);
        if let Err(other) = trace::run_to(&mut s.session, at, limit) {
            let from = args.from.clone().unwrap_or_else(|| "the routine".into());
            eprintln!("tandem trace: stopped: {name}: {from} was not reached ({other:?})");
            return ExitCode::from(exit::RUN_ENDED_FIRST);
        }
    }
    let mut stream = match events_of(args, &s, &name) {
        Ok(w) => w,
        Err(e) => return report("trace", &e),
    };
    let mut note = |s: &dos::Session| stream.as_mut().and_then(|w| note_event(w, s));
    match trace::write_noting(&mut s.session, args.count, &mut out, &mut note) {
        Ok(n) => {
            println!("traced {n} instructions");
            ExitCode::SUCCESS
        }
        // The file it could not write, named.
        Err(e) => match &args.out {
            Some(p) => report("trace", &Error::bad(p.display(), e)),
            None => report("trace", &e),
        },
    }
}

/// The event stream of `--routine` when its model emits events.
fn events_of(args: &TraceArgs, s: &Loaded, name: &str) -> Result<Option<StreamWatch>, Error> {
    let (Some(p), Some(r)) = (&args.located.profile, &args.located.routine) else {
        return Ok(None);
    };
    let Some(found) = args.located.locate(s, name)? else {
        return Ok(None);
    };
    Ok(StreamWatch::new(Chosen::open(p)?.routine(r)?, found.segs))
}

/// A trace comment at the routine's entry (the stream the model expects)
/// and at its event point (the event, and whether it agrees).
fn note_event(w: &mut StreamWatch, s: &dos::Session) -> Option<String> {
    let m = &s.m;
    let (cs, ip) = s.cs_ip();
    let at = m.cpu.linear(cs, ip);
    let fields: Vec<&str> = w
        .routine
        .model
        .interface()
        .events?
        .fields
        .iter()
        .map(|f| f.name)
        .collect();
    if at == w.entry {
        let short = w.entered(&m.cpu, m);
        let mut t = format!(
            "{}: the model expects {} events",
            w.routine.name,
            w.expected()
        );
        if let Some(x) = short {
            t.push_str(&format!("; the call before differs: {}", x.what()));
        }
        return Some(t);
    }
    if at != w.point {
        return None;
    }
    let h = w.capture(&m.cpu, m);
    let index = w.position();
    let values: Vec<String> = fields
        .iter()
        .zip(h.values)
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    let verdict = match w.hit(&m.cpu, m) {
        None => "agrees with the model".to_string(),
        Some(x) => format!("differs: {}", x.mismatch.what()),
    };
    Some(format!("event {index}: {} ({verdict})", values.join(" ")))
}
