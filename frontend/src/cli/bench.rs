//! `tandem bench [PROGRAM]`: how fast the emulated PC runs on this host.
//!
//! Runs a program headless on the machine (by default the built-in
//! benchmark, `roms/devices/bench.com`) until it halts with interrupts off
//! or the emulated time limit passes ([`crate::play::bench`]), and reports
//! emulated clocks per host second and guest instructions per host second
//! (guest MIPS).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::app::builtin;
use crate::app::error::{report, Error};
use crate::app::options::MachineOpts;
use crate::app::program;
use crate::play::bench;

/// Arguments of `tandem bench`.
#[derive(Args, Debug)]
#[command(after_help = crate::app::exit::HELP)]
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
    let (image, name) = match &args.program {
        None => (builtin::BENCH.to_vec(), "built-in bench.com".to_string()),
        Some(p) => match program::read(p) {
            Ok(x) => x,
            Err(e) => return report("bench", &e),
        },
    };
    let config = args.machine.config(emu::CpuModel::I8086);
    let r = match bench::measure(&image, &name, &config, args.seconds) {
        Ok(r) => r,
        Err(e @ Error::Stopped(_)) => {
            eprintln!("tandem bench: error: {name}: {e}");
            return ExitCode::from(e.exit_code());
        }
        Err(e) => return report("bench", &e),
    };
    let cpu_hz = config.cpu_hz;
    if args.json {
        let v = serde_json::json!({
            "program": name,
            "cpu": config.cpu_model.name(),
            "cpu_hz": cpu_hz,
            "end": r.end,
            "cycles": r.cycles,
            "emulated_seconds": r.emulated,
            "host_seconds": r.host,
            "emulated_mhz": r.mhz(),
            "instructions": r.instructions,
            "guest_mips": r.mips(),
            "times_real_time": r.realtime(),
        });
        println!("{v}");
    } else {
        println!("program: {name} ({})", r.end);
        println!(
            "machine: {} at {}.{:06} MHz",
            config.cpu_model,
            cpu_hz / 1_000_000,
            cpu_hz % 1_000_000
        );
        println!(
            "emulated: {} clocks = {:.3} s; host: {:.3} s",
            r.cycles, r.emulated, r.host
        );
        println!(
            "{:.1} emulated MHz, {:.1}x real time",
            r.mhz(),
            r.realtime()
        );
        println!(
            "guest: {} instructions, {:.1} MIPS",
            r.instructions,
            r.mips()
        );
    }
    ExitCode::SUCCESS
}
