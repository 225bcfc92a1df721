//! `tandem trace PROGRAM [--from SEG:OFF] [--count N] [--out FILE]`: runs a
//! DOS program and writes an instruction trace: CS:IP, the bytes, the
//! iced-x86 disassembly and the registers before each instruction. With
//! `--from` the trace starts when execution first reaches that address.
//! DOS and BIOS services run as Rust code and show as one line each.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use dos::Exit;
use emu::{ExecAt, HookAction, HookKind};

use crate::machine_opts::MachineOpts;
use crate::session::{self, input_error, Loaded};

/// Arguments of `tandem trace`.
#[derive(Args, Debug)]
#[command(after_help = crate::exit::HELP)]
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
    pub(crate) located: session::RoutineArgs,

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

fn line(m: &hw::Machine) -> String {
    let r = &m.cpu.regs;
    let (cs, ip) = (r.seg[1], r.ip as u16);
    let lin = ((cs as u32) << 4) + ip as u32;
    let bytes: Vec<u8> = (0..15).map(|i| m.peek8(lin + i)).collect();
    let d = emu::disasm::disasm16(&bytes, ip as u32);
    let g = |i: u8| r.get16(i);
    format!(
        "{cs:04X}:{ip:04X}  {:<32} AX={:04X} BX={:04X} CX={:04X} DX={:04X} SI={:04X} DI={:04X} BP={:04X} SP={:04X} DS={:04X} ES={:04X} SS={:04X} FL={:04X}",
        d,
        g(0),
        g(3),
        g(1),
        g(2),
        g(6),
        g(7),
        g(5),
        g(4),
        r.seg[3],
        r.seg[0],
        r.seg[2],
        r.flags as u16
    )
}

/// Runs `tandem trace`.
pub fn run(args: &TraceArgs) -> ExitCode {
    let name = args.program.display().to_string();
    let mut s = match Loaded::open(&args.program, &args.machine.config(session::GM_CPU)) {
        Ok(s) => s,
        Err(e) => return input_error("trace", e),
    };
    let mut out: Box<dyn Write> = match &args.out {
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Box::new(std::io::BufWriter::new(f)),
            Err(e) => return input_error("trace", format!("{}: {e}", p.display())),
        },
        None => Box::new(std::io::stdout()),
    };
    let limit = args
        .seconds
        .saturating_mul(args.machine.config(session::GM_CPU).cpu_hz);
    let (located, entry) = match args.located.locate(&s, &name) {
        Ok(x) => x,
        Err(e) => return input_error("trace", e),
    };
    let start = match (entry, &args.from) {
        (Some(e), _) => Some(Ok(e)),
        (None, Some(from)) => Some(session::parse_addr(from, &s.segs(located.map(|l| l.code)))),
        (None, None) => None,
    };
    if let Some(start) = start {
        let from = args.from.clone().unwrap_or_else(|| "the routine".into());
        let (seg, off) = match start {
            Ok(a) => a,
            Err(e) => return input_error("trace", e),
        };
        s.session
            .m
            .cpu
            .hooks_mut()
            .add(HookKind::Exec(ExecAt::SegOff(seg, off)), HookAction::Stop);
        match s.session.run_for(limit) {
            Exit::HookStop => {}
            other => {
                eprintln!("tandem trace: stopped: {name}: {from} was not reached ({other:?})");
                return ExitCode::from(crate::exit::RUN_ENDED_FIRST);
            }
        }
        s.session.m.cpu.hooks = None;
    }
    let mut n = 0;
    while n < args.count {
        let text = line(&s.session.m);
        let before = s.session.m.cycles();
        let r = s.session.run_for(1);
        let ran = s.session.m.cycles() != before;
        if ran {
            n += 1;
            if writeln!(out, "{text}").is_err() {
                return input_error("trace", "cannot write the trace");
            }
        } else if !matches!(r, Exit::Limit) {
            // A service ran in Rust without executing an instruction.
        }
        match r {
            Exit::Exited(code) => {
                let _ = writeln!(out, "; the program exited with code {code}");
                break;
            }
            Exit::Stopped(msg) => {
                let _ = writeln!(out, "; the run stopped: {msg}");
                break;
            }
            _ => {}
        }
    }
    let _ = out.flush();
    println!("traced {n} instructions");
    ExitCode::SUCCESS
}
