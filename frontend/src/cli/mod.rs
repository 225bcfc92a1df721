//! The `tandem` command line: one file per subcommand, each holding the
//! command's arguments and its printing; the work is done by the rooms of
//! the library (`app`, `input`, `golden`, `play`, `debug`, `corpus`,
//! `spectrum`).
//!
//! The subcommands: `run` (a DOS program in a window or headless; what
//! `tandem` with no subcommand does), `debug` (the debugger, its JSON-lines
//! protocol and GDB stub), `call`, `sweep`, `compare` and `trace` (the
//! golden master), `corpus` (real programs against approved frames), `sst`
//! (the single-step CPU suites), `bench` (emulation speed) and
//! `spectrogram` (a WAV's picture and measures). `-v` (repeatable) raises
//! the log level on stderr; `RUST_LOG` overrides it.

pub mod bench;
pub mod call;
pub mod compare;
pub mod corpus;
pub mod debug;
pub mod run;
pub mod spectrogram;
pub mod sst;
pub mod sweep;
pub mod trace;

use std::process::ExitCode;

use clap::{ArgAction, Parser, Subcommand};

use crate::app::exit;
use crate::golden::profile::GM_CPU;

/// tandem: a cycle-level x86 PC emulator for reverse engineering DOS games.
#[derive(Parser, Debug)]
#[command(name = "tandem", version, about, long_about = None, after_help = exit::HELP)]
struct Cli {
    /// More log output on stderr: -v info, -vv debug, -vvv trace (RUST_LOG
    /// overrides).
    #[arg(short, long, action = ArgAction::Count, global = true)]
    verbose: u8,

    /// With no subcommand: `tandem run` (the built-in replica demo).
    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
enum Command {
    /// Run single-step CPU tests (MOO suites, 386 vectors) against the CPU core.
    Sst(sst::SstArgs),
    /// Measure emulation speed: run a program headless and report emulated
    /// MHz and the speed relative to real time.
    Bench(bench::BenchArgs),
    /// Run one routine of a program in isolation until it returns and list
    /// its memory and port writes.
    Call(call::CallArgs),
    /// Run a routine over its whole input domain against its Rust model.
    Sweep(sweep::SweepArgs),
    /// Run a program in lock-step with the models; report the first
    /// divergence.
    Compare(compare::CompareArgs),
    /// Write an instruction trace with disassembly and registers.
    Trace(trace::TraceArgs),
    /// Run a DOS program (.EXE or .COM) in a window or headless, with
    /// tandem's DOS and BIOS; drive C: is a host folder. With no PROGRAM,
    /// the built-in replica demo.
    Run(Box<run::RunArgs>),
    /// Run the corpus of real DOS programs in a manifest headless with
    /// their scripted keys; compare each final frame with its golden and
    /// each outcome with the manifest; write a contact sheet beside the
    /// DOSBox screenshots (`--bless` approves the frames and outcomes).
    Corpus(corpus::CorpusArgs),
    /// Debug a DOS program: stops at its entry; breakpoints, watchpoints,
    /// stepping, registers and memory (docs/debugger.md). `--protocol
    /// stdio|PORT` serves the JSON-lines control protocol.
    Debug(debug::DebugArgs),
    /// Draw a WAV's spectrogram as a PNG and measure it (level, spectral
    /// flatness, notes): what `--wav` recorded, at a glance.
    Spectrogram(spectrogram::SpectrogramArgs),
}

impl Command {
    /// A `--fpu` the command's machine cannot take, or sound cards that
    /// cannot sit together: the option and why (`run` checks its own,
    /// whose CPU may come from a replayed record).
    fn machine_error(&self) -> Option<(&'static str, String)> {
        use emu::CpuModel::I8086;
        let (opts, default) = match self {
            Command::Bench(a) => (&a.machine, I8086),
            Command::Debug(a) => (&a.machine, I8086),
            Command::Call(a) => (&a.machine, GM_CPU),
            Command::Trace(a) => (&a.machine, GM_CPU),
            Command::Sweep(a) => (&a.golden.machine, GM_CPU),
            Command::Compare(a) => (&a.golden.machine, GM_CPU),
            Command::Sst(_) | Command::Run(_) | Command::Corpus(_) | Command::Spectrogram(_) => {
                return None
            }
        };
        let cpu = opts.cpu.unwrap_or(default);
        let fpu = opts.fpu_error(cpu).map(|e| ("--fpu", e));
        fpu.or_else(|| opts.card_error(cpu).map(|e| ("--sound", e)))
    }
}

fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => log::LevelFilter::Warn,
        1 => log::LevelFilter::Info,
        2 => log::LevelFilter::Debug,
        _ => log::LevelFilter::Trace,
    };
    env_logger::Builder::new()
        .filter_level(level)
        .parse_default_env()
        .format_timestamp(None)
        .init();
}

/// The `tandem` binary's `main`: parses the command line, sets up logging
/// and runs the subcommand.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.verbose);
    let command = match cli.command {
        Some(c) => c,
        None => match Cli::parse_from(["tandem", "run"]).command {
            Some(c) => c,
            None => unreachable!("`tandem run` parses as the run command"),
        },
    };
    if let Some((option, e)) = command.machine_error() {
        eprintln!("tandem: error: {option}: {e}");
        return ExitCode::from(exit::BAD_INPUT);
    }
    match command {
        Command::Sst(args) => sst::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Call(args) => call::run(&args),
        Command::Sweep(args) => sweep::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::Trace(args) => trace::run(&args),
        Command::Run(args) => run::run(&args),
        Command::Corpus(args) => corpus::run(&args),
        Command::Debug(args) => debug::run(&args),
        Command::Spectrogram(args) => spectrogram::run(&args),
    }
}
