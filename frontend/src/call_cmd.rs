//! `tandem call PROGRAM --at SEG:OFF [--reg R=V]... [--mem ADDR=HEX]...
//! [--until-ret] [--io]`: loads the program, runs one routine in isolation
//! until it returns (RET or RETF), and lists its memory writes and port
//! writes in order (with `--io`, its port reads as well).
//!
//! The routine runs on the CPU alone: interrupts are off and DOS/BIOS
//! services are not called for it. DS and ES start as the program's SS
//! (the data group of a game where SS = DS) unless `--reg` sets them.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use emu::{HookAction, HookEvent, HookKind, SegReg};
use models::call::call_near;

use crate::machine_opts::MachineOpts;
use crate::session::{self, input_error, Loaded, Segs};

/// Arguments of `tandem call`.
#[derive(Args, Debug)]
#[command(after_help = crate::exit::HELP)]
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
    pub(crate) located: session::RoutineArgs,

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

fn set_reg(s: &mut Loaded, spec: &str) -> Result<(), String> {
    let bad = || format!("--reg '{spec}': expected R=V with V hexadecimal");
    let (r, v) = spec.split_once('=').ok_or_else(bad)?;
    let v = u32::from_str_radix(v.trim_start_matches("0x").trim_end_matches('h'), 16)
        .map_err(|_| bad())?;
    let regs = &mut s.session.m.cpu.regs;
    let r = r.to_ascii_lowercase();
    const R16: [&str; 8] = ["ax", "cx", "dx", "bx", "sp", "bp", "si", "di"];
    const R8: [&str; 8] = ["al", "cl", "dl", "bl", "ah", "ch", "dh", "bh"];
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
                return Err(format!(
                "--reg '{spec}': unknown register '{r}' (CS, SS, SP and IP are set by the call)"
            ))
            }
        }
    }
    Ok(())
}

fn linear(addr: &str, segs: &Segs) -> Result<u32, String> {
    if addr.contains(':') {
        let (s, o) = session::parse_addr(addr, segs)?;
        Ok(((s as u32) << 4) + o as u32)
    } else {
        u32::from_str_radix(addr.trim_end_matches('h'), 16)
            .map_err(|_| format!("'{addr}' is not an address"))
    }
}

fn set_mem(s: &mut Loaded, spec: &str, segs: &Segs) -> Result<(), String> {
    let (a, hex) = spec
        .split_once('=')
        .ok_or_else(|| format!("--mem '{spec}': expected ADDR=HEX"))?;
    let a = linear(a, segs)?;
    let hex: String = hex.chars().filter(|c| !c.is_whitespace()).collect();
    if !hex.len().is_multiple_of(2) || hex.is_empty() {
        return Err(format!("--mem '{spec}': HEX needs pairs of digits"));
    }
    for (i, pair) in hex.as_bytes().chunks(2).enumerate() {
        let b = u8::from_str_radix(std::str::from_utf8(pair).unwrap_or("?"), 16).map_err(|_| {
            format!(
                "--mem '{spec}': '{}' is not hexadecimal",
                String::from_utf8_lossy(pair)
            )
        })?;
        s.session.m.poke8(a + i as u32, b);
    }
    Ok(())
}

/// Runs `tandem call`.
pub fn run(args: &CallArgs) -> ExitCode {
    let name = args.program.display().to_string();
    let mut s = match Loaded::open(&args.program, &args.machine.config(session::GM_CPU)) {
        Ok(s) => s,
        Err(e) => return input_error("call", e),
    };
    let (located, entry) = match args.located.locate(&s, &name) {
        Ok(x) => x,
        Err(e) => return input_error("call", e),
    };
    let segs = s.segs(located.map(|l| l.code));
    let (cs, ip) = match (entry, &args.at) {
        (Some(e), _) => e,
        (None, Some(at)) => match session::parse_addr(at, &segs) {
            Ok(a) => a,
            Err(e) => return input_error("call", e),
        },
        (None, None) => return input_error("call", "--at or --routine is required"),
    };
    let ss = s.entry_ss;
    let ds = located.map_or(ss, |l| l.data);
    s.session.m.cpu.regs.set_sreg(SegReg::DS, ds);
    s.session.m.cpu.regs.set_sreg(SegReg::ES, ds);
    s.session.m.cpu.regs.flags = s.session.m.cpu.normalize_flags(0);
    for r in &args.regs {
        if let Err(e) = set_reg(&mut s, r) {
            return input_error("call", e);
        }
    }
    for m in &args.mems {
        if let Err(e) = set_mem(&mut s, m, &segs) {
            return input_error("call", e);
        }
    }
    let sp = s.session.m.cpu.regs.get16(4);
    {
        let h = s.session.m.cpu.hooks_mut();
        h.add(
            HookKind::MemWrite {
                start: 0,
                end: u32::MAX,
            },
            HookAction::Record,
        );
        h.add(
            HookKind::PortWrite {
                start: 0,
                end: 0xFFFF,
            },
            HookAction::Record,
        );
        if args.io {
            h.add(
                HookKind::PortRead {
                    start: 0,
                    end: 0xFFFF,
                },
                HookAction::Record,
            );
        }
    }
    let m = &mut s.session.m;
    // The far return frame the call pushes is not the routine's doing.
    let outcome = call_near(&mut m.cpu, &mut m.bus, cs, ip, ss, sp, args.max);
    let log = m.cpu.hooks.take().map(|h| h.log).unwrap_or_default();
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => {
            eprintln!("tandem call: stopped: {name}: {e}");
            return ExitCode::from(crate::exit::EMULATION_STOPPED);
        }
    };
    let mut writes = Vec::new();
    let mut ports = Vec::new();
    for r in &log {
        match r.event {
            HookEvent::MemWrite {
                linear,
                size,
                value,
            } => writes.push((r.cs, r.ip, linear, size, value)),
            HookEvent::PortWrite { port, size, value } => {
                ports.push((r.cs, r.ip, "<-", port, size, value))
            }
            HookEvent::PortRead { port, size, value } => {
                ports.push((r.cs, r.ip, "->", port, size, value))
            }
            _ => {}
        }
    }
    let hexv = |size: u8, v: u32| match size {
        1 => format!("{v:02X}h"),
        2 => format!("{v:04X}h"),
        _ => format!("{v:08X}h"),
    };
    if args.json {
        let w: Vec<_> = writes
            .iter()
            .map(|&(c, i, a, sz, v)| serde_json::json!({"at": format!("{c:04X}:{i:04X}"), "linear": a, "size": sz, "value": v}))
            .collect();
        let p: Vec<_> = ports
            .iter()
            .map(|&(c, i, d, port, sz, v)| {
                serde_json::json!({"at": format!("{c:04X}:{i:04X}"), "dir": if d == "<-" {"out"} else {"in"}, "port": port, "size": sz, "value": v})
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({"routine": format!("{cs:04X}:{ip:04X}"), "instructions": outcome.steps, "clocks": outcome.cycles, "memory_writes": w, "ports": p})
        );
    } else {
        println!(
            "call {cs:04X}:{ip:04X} in {name}: returned after {} instructions, {} clocks",
            outcome.steps, outcome.cycles
        );
        println!("memory writes:");
        for (c, i, a, sz, v) in &writes {
            println!("  {c:04X}:{i:04X}  [{a:05X}] <- {}", hexv(*sz, *v));
        }
        println!(
            "port {}:",
            if args.io {
                "reads and writes"
            } else {
                "writes"
            }
        );
        for (c, i, d, port, sz, v) in &ports {
            println!("  {c:04X}:{i:04X}  {port:02X}h {d} {}", hexv(*sz, *v));
        }
        println!(
            "{} memory writes, {} port accesses",
            writes.len(),
            ports.len()
        );
    }
    ExitCode::SUCCESS
}
