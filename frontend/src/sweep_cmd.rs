//! `tandem sweep --profile NAME [PROGRAM] --routine NAME [--threads N]`:
//! runs one of the program's routines over its model's whole input domain
//! and compares every result with the model, on every core (or N threads:
//! the result is the same). A progress bar shows on stderr when it is a
//! terminal. Last line: `N of M equal`; exit 0 when all are equal, 1
//! otherwise, 2 for bad input.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use models::profile::Routine;
use models::sweep::{self, Program, Reference, SweepReport};
use models::Segments;

use crate::session::{self, input_error, GoldenArgs, GoldenSetup, Loaded};

/// Arguments of `tandem sweep`.
#[derive(Args, Debug)]
#[command(after_help = crate::exit::HELP)]
pub struct SweepArgs {
    #[command(flatten)]
    pub(crate) golden: GoldenArgs,

    /// The routine to sweep: a routine section of the profile or a
    /// registered model (fountain, landing, state-selection, param-lookup).
    #[arg(long, value_name = "NAME")]
    routine: String,

    /// Threads (default: one per core). The result does not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,

    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// A finished sweep: the report, where the program was, and the time of
/// the sweep loop alone.
struct Swept {
    report: SweepReport,
    segs: Segments,
    loop_secs: f64,
    threads: usize,
}

/// Loads the program, runs the sweep on the current rayon pool.
fn run_sweep(args: &SweepArgs, g: &GoldenSetup, routine: &Routine) -> Result<Swept, String> {
    let name = &g.name;
    // The reference is loaded and nothing has run: when it is the program
    // itself, its load serves for both.
    let own;
    let s = if g.reference_is_program {
        &g.reference
    } else {
        own = Loaded::start(&g.image, name, None, &args.golden.machine(), b"")
            .map_err(|e| e.to_string())?;
        &own
    };
    let segs = s.locate(&g.profile, name).map_err(|e| e.to_string())?;
    let program = Program {
        cpu: &s.session.m.cpu,
        mem: s.memory(),
        segs,
    };
    let reference = Reference {
        mem: g.reference.memory(),
        segs: g.ref_segs,
    };
    let points = sweep::domain(routine, &reference).map_err(|e| e.to_string())?;
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(points.len() as u64);
        if let Ok(st) = ProgressStyle::with_template("{bar:40} {pos}/{len} points {elapsed}") {
            b.set_style(st);
        }
        b
    } else {
        ProgressBar::hidden()
    };
    // The pool's threads start before the clock does: their start-up is
    // the process's, not the sweep loop's.
    rayon::broadcast(|_| ());
    let start = Instant::now();
    let report = sweep::sweep_points(routine, &program, &reference, &points, &|n| {
        bar.set_position(n)
    })
    .map_err(|e| format!("{name}: {e}"))?;
    let loop_secs = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    Ok(Swept {
        report,
        segs,
        loop_secs,
        threads: rayon::current_num_threads(),
    })
}

/// Runs `tandem sweep`.
pub fn run(args: &SweepArgs) -> ExitCode {
    let start = Instant::now();
    let g = match session::golden_setup(&args.golden) {
        Ok(g) => g,
        Err(e) => return input_error("sweep", e),
    };
    let routine = match session::routine(&g.profile, &args.golden.profile, &args.routine) {
        Ok(r) => r,
        Err(e) => return input_error("sweep", e),
    };
    let swept = match args.threads {
        Some(0) => return input_error("sweep", "--threads must be at least 1"),
        Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
            Ok(pool) => pool.install(|| run_sweep(args, &g, &routine)),
            Err(e) => return input_error("sweep", format!("--threads {n}: {e}")),
        },
        None => run_sweep(args, &g, &routine),
    };
    let w = match swept {
        Ok(w) => w,
        Err(e) => return input_error("sweep", e),
    };
    print_report(args, &g, &w, start.elapsed().as_secs_f64());
    let r = &w.report;
    if r.equal == r.total && r.total > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::exit::CHECK_FAILED)
    }
}

fn print_report(args: &SweepArgs, g: &GoldenSetup, w: &Swept, secs: f64) {
    let (r, name, routine) = (&w.report, &g.name, &args.routine);
    if args.json {
        let first = r.first.as_ref().map(|m| {
            serde_json::json!({"input": m.input, "output": m.output, "expected": m.expected, "actual": m.actual})
        });
        println!(
            "{}",
            serde_json::json!({
                "profile": g.profile.name, "program": name, "routine": routine,
                "code_segment": format!("{:04X}", w.segs.code), "data_segment": format!("{:04X}", w.segs.data),
                "equal": r.equal, "total": r.total, "first_mismatch": first, "seconds": secs,
                "loop_seconds": w.loop_secs, "threads": w.threads,
            })
        );
        return;
    }
    println!(
        "{routine} of {name} (profile {}, code segment {:04X}, data segment {:04X}): sweep loop {:.3} ms on {} thread{}, {:.3} s in all",
        g.profile.name,
        w.segs.code,
        w.segs.data,
        w.loop_secs * 1e3,
        w.threads,
        if w.threads == 1 { "" } else { "s" },
        secs
    );
    if let Some(m) = &r.first {
        println!(
            "first difference: {} {}: expected {} ({:04X}h), got {} ({:04X}h)",
            m.input, m.output, m.expected, m.expected as u16, m.actual, m.actual as u16
        );
    }
    println!("{} of {} equal", r.equal, r.total);
}
