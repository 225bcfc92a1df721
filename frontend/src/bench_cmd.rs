//! `tandem bench [PROGRAM]`: how fast the emulated PC runs on this host.
//!
//! Runs a program headless on the machine (by default the built-in
//! benchmark, `roms/devices/bench.com`: a CPU-bound loop with IRQ0 at about
//! 1 kHz and video-memory writes) until it halts with interrupts off or the
//! emulated time limit passes, and reports emulated clocks per host second
//! and guest instructions per host second (guest MIPS).
//! The host clock is read only around the run, to measure the host.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use hw::{Machine, RunExit};

use crate::machine_opts::MachineOpts;

/// The built-in benchmark program.
const BENCH_COM: &[u8] = include_bytes!("../../roms/devices/bench.com");

/// Arguments of `tandem bench`.
#[derive(Args, Debug)]
#[command(after_help = crate::exit::HELP)]
pub struct BenchArgs {
    /// A flat binary (.COM-style, loaded at 1000:0100h) to run instead of the
    /// built-in benchmark. It should end with CLI; HLT.
    #[arg(value_name = "PROGRAM")]
    program: Option<PathBuf>,

    #[command(flatten)]
    pub(crate) machine: MachineOpts,

    /// Emulated seconds at most.
    #[arg(long, value_name = "S", default_value_t = 120)]
    seconds: u64,

    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `tandem bench`.
pub fn run(args: &BenchArgs) -> ExitCode {
    let (name, image) = match &args.program {
        None => ("built-in bench.com".to_string(), BENCH_COM.to_vec()),
        Some(p) => match std::fs::read(p) {
            Ok(b) => (p.display().to_string(), b),
            Err(e) => {
                eprintln!("tandem bench: error: {}: {e}", p.display());
                return ExitCode::from(crate::exit::BAD_INPUT);
            }
        },
    };
    let config = args.machine.config(emu::CpuModel::I8086);
    let cpu_hz = config.cpu_hz;
    let mut m = Machine::new(config.clone());
    if let Err(e) = m.load_com(&image, 0x1000) {
        eprintln!("tandem bench: error: {name}: {e}");
        return ExitCode::from(crate::exit::BAD_INPUT);
    }
    let limit = args.seconds.saturating_mul(cpu_hz);
    let start = Instant::now();
    let exit = m.run_for(limit);
    let host = start.elapsed().as_secs_f64().max(1e-9);
    let cycles = m.cycles();
    let emulated = cycles as f64 / cpu_hz as f64;
    let mhz = cycles as f64 / host / 1e6;
    let realtime = emulated / host;
    let instructions = m.instructions();
    let mips = instructions as f64 / host / 1e6;
    let how = match exit {
        RunExit::Halted => "halted",
        RunExit::CyclesElapsed => "time limit",
        RunExit::Reset => "reset",
        RunExit::Frame => "frame",
        RunExit::Trap(_) => "trap",
        RunExit::HookStop => "hook",
        RunExit::Unsupported(msg) => {
            eprintln!(
                "tandem bench: error: {name}: {msg} (at {:04X}:{:04X})",
                m.cpu.regs.seg[1], m.cpu.regs.ip
            );
            return ExitCode::from(crate::exit::EMULATION_STOPPED);
        }
    };
    if args.json {
        let v = serde_json::json!({
            "program": name,
            "cpu": config.cpu_model.name(),
            "cpu_hz": cpu_hz,
            "end": how,
            "cycles": cycles,
            "emulated_seconds": emulated,
            "host_seconds": host,
            "emulated_mhz": mhz,
            "instructions": instructions,
            "guest_mips": mips,
            "times_real_time": realtime,
        });
        println!("{v}");
    } else {
        println!("program: {name} ({how})");
        println!(
            "machine: {} at {}.{:06} MHz",
            config.cpu_model,
            cpu_hz / 1_000_000,
            cpu_hz % 1_000_000
        );
        println!("emulated: {cycles} clocks = {emulated:.3} s; host: {host:.3} s");
        println!("{mhz:.1} emulated MHz, {realtime:.1}x real time");
        println!("guest: {instructions} instructions, {mips:.1} MIPS");
    }
    ExitCode::SUCCESS
}
