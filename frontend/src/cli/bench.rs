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
use crate::app::tempdir::TempDir;
use crate::debug::history::bench::measure;
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

    /// Measure the debugger's time travel instead: PROGRAM (a DOS program;
    /// by default the built-in replica on a 386) runs in the debugger for
    /// --seconds (default here 60) without and with its history, then
    /// reverse-step and a goto halfway are timed.
    #[arg(long)]
    time_travel: bool,

    /// Measure what the debugger window costs instead: PROGRAM (a DOS
    /// program; by default the built-in replica on a 386, with the replica
    /// profile's lock-step check) runs in the debugger for --seconds
    /// (default here 20) alone and serving the window to a client that
    /// refreshes it as the page does, three times each, alternating.
    #[arg(long, conflicts_with = "time_travel")]
    ui: bool,

    /// The history's memory budget for --time-travel, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = crate::debug::history::DEFAULT_MIB,
          requires = "time_travel")]
    history_mib: u64,
}

/// The program of a debugger benchmark: PROGRAM, or the built-in
/// replica written to `temp`.
fn debugger_program(args: &BenchArgs, temp: &TempDir) -> Result<PathBuf, Error> {
    match &args.program {
        Some(p) => Ok(p.clone()),
        None => {
            let p = temp.path().join("REPLICA.EXE");
            std::fs::write(&p, builtin::REPLICA).map_err(|e| Error::File {
                path: p.clone(),
                source: e,
            })?;
            Ok(p)
        }
    }
}

/// What a debugger benchmark runs: a temporary folder (drive C:), the
/// program in it, the machine (a 386 unless `--cpu`) and the emulated
/// seconds (`default` unless `--seconds` moved them from the speed
/// benchmark's own default of 120).
fn debugger_setup(
    args: &BenchArgs,
    default: u64,
) -> Result<(TempDir, PathBuf, MachineOpts, u64), Error> {
    let temp =
        TempDir::new("bench").map_err(|e| Error::Input(format!("a temporary folder: {e}")))?;
    let program = debugger_program(args, &temp)?;
    let mut machine = args.machine.clone();
    machine.cpu = machine.cpu.or(Some(emu::CpuModel::I386));
    let seconds = if args.seconds == 120 {
        default
    } else {
        args.seconds
    };
    Ok((temp, program, machine, seconds))
}

/// Runs `tandem bench --ui`.
fn window(args: &BenchArgs) -> ExitCode {
    let (temp, program, machine, seconds) = match debugger_setup(args, 20) {
        Ok(x) => x,
        Err(e) => return report("bench", &e),
    };
    let profile = args.program.is_none().then_some("replica");
    let r = match crate::debug::ui::bench::measure(
        &program,
        &machine,
        temp.path(),
        seconds,
        3,
        profile,
    ) {
        Ok(r) => r,
        Err(e) => return report("bench", &e),
    };
    if args.json {
        let v = serde_json::json!({
            "program": program.display().to_string(),
            "emulated_seconds": r.seconds,
            "seconds_alone": r.alone.as_secs_f64(),
            "seconds_with_window": r.window.as_secs_f64(),
            "slowdown_percent": r.slowdown_percent(),
            "refreshes": r.refreshes,
        });
        println!("{v}");
    } else {
        println!(
            "program: {} for {} emulated seconds in the debugger",
            program.display(),
            r.seconds
        );
        println!(
            "alone: {:.2} s; serving the window: {:.2} s ({:+.1}%, {} refreshes of every view and the screen)",
            r.alone.as_secs_f64(),
            r.window.as_secs_f64(),
            r.slowdown_percent(),
            r.refreshes
        );
    }
    ExitCode::SUCCESS
}

/// Runs `tandem bench --time-travel`.
fn time_travel(args: &BenchArgs) -> ExitCode {
    let (temp, program, machine, seconds) = match debugger_setup(args, 60) {
        Ok(x) => x,
        Err(e) => return report("bench", &e),
    };
    let r = match measure(&program, &machine, temp.path(), seconds, args.history_mib) {
        Ok(r) => r,
        Err(e) => return report("bench", &e),
    };
    if args.json {
        let v = serde_json::json!({
            "program": program.display().to_string(),
            "emulated_seconds": r.seconds,
            "forwards_seconds_without_history": r.plain.as_secs_f64(),
            "forwards_seconds_with_history": r.kept.as_secs_f64(),
            "overhead_percent": r.overhead_percent(),
            "checkpoints": r.checkpoints,
            "history_bytes": r.bytes,
            "steps_between_checkpoints": r.interval,
            "reverse_step_seconds": r.reverse_step.as_secs_f64(),
            "reverse_step_max_seconds": r.reverse_step_max.as_secs_f64(),
            "goto_half_seconds": r.goto_half.as_secs_f64(),
        });
        println!("{v}");
    } else {
        println!(
            "program: {} for {} emulated seconds",
            program.display(),
            r.seconds
        );
        println!(
            "forwards: {:.2} s without history, {:.2} s with it ({:+.1}%)",
            r.plain.as_secs_f64(),
            r.kept.as_secs_f64(),
            r.overhead_percent()
        );
        println!(
            "history: {} checkpoints, {:.1} MiB, a checkpoint every {} steps",
            r.checkpoints,
            r.bytes as f64 / (1 << 20) as f64,
            r.interval
        );
        println!(
            "reverse-step: {:.3} s (median), {:.3} s (slowest); goto halfway: {:.3} s",
            r.reverse_step.as_secs_f64(),
            r.reverse_step_max.as_secs_f64(),
            r.goto_half.as_secs_f64()
        );
    }
    ExitCode::SUCCESS
}

/// Runs `tandem bench`.
pub fn run(args: &BenchArgs) -> ExitCode {
    if args.time_travel {
        return time_travel(args);
    }
    if args.ui {
        return window(args);
    }
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
