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

use crate::app::error::{report, Error};
use crate::app::exit;
use crate::golden::profile::{GoldenArgs, GoldenSetup};
use crate::golden::sweep::{self, Swept};

/// Arguments of `tandem sweep`.
#[derive(Args, Debug)]
#[command(after_help = exit::HELP)]
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

/// Runs the sweep on the current rayon pool, with a progress bar on
/// stderr when it is a terminal.
fn run_sweep(args: &SweepArgs, g: &GoldenSetup, routine: &Routine) -> Result<Swept, Error> {
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(0);
        if let Ok(st) = ProgressStyle::with_template("{bar:40} {pos}/{len} points {elapsed}") {
            b.set_style(st);
        }
        b
    } else {
        ProgressBar::hidden()
    };
    let swept = sweep::sweep(
        g,
        routine,
        &args.golden.machine(),
        &|n| bar.set_length(n),
        &|n| bar.set_position(n),
    );
    bar.finish_and_clear();
    swept
}

/// Runs `tandem sweep`.
pub fn run(args: &SweepArgs) -> ExitCode {
    let start = Instant::now();
    let g = match GoldenSetup::new(&args.golden) {
        Ok(g) => g,
        Err(e) => return report("sweep", &e),
    };
    let routine = match g.chosen.routine(&args.routine) {
        Ok(r) => r,
        Err(e) => return report("sweep", &e),
    };
    let swept = match args.threads {
        Some(0) => {
            return report(
                "sweep",
                &Error::Input("--threads must be at least 1".into()),
            )
        }
        Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
            Ok(pool) => pool.install(|| run_sweep(args, &g, &routine)),
            Err(e) => return report("sweep", &Error::bad(format!("--threads {n}"), e)),
        },
        None => run_sweep(args, &g, &routine),
    };
    let w = match swept {
        Ok(w) => w,
        Err(e) => return report("sweep", &e),
    };
    print_report(args, &g, &w, start.elapsed().as_secs_f64());
    let r = &w.report;
    if r.first.is_none() && r.equal == r.total && r.total > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(exit::CHECK_FAILED)
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
                "profile": g.profile().name, "program": name, "routine": routine,
                "code_segment": format!("{:04X}", w.segs.code), "data_segment": format!("{:04X}", w.segs.data),
                "equal": r.equal, "total": r.total, "first_mismatch": first, "seconds": secs,
                "loop_seconds": w.loop_secs, "threads": w.threads,
                "events": (r.events_expected + r.events_emitted > 0).then(|| serde_json::json!({
                    "compared": r.events.compared, "exact": r.events.exact,
                    "within_tolerance": r.events.within, "expected": r.events_expected,
                    "emitted": r.events_emitted,
                })),
            })
        );
        return;
    }
    println!(
        "{routine} of {name} (profile {}, code segment {:04X}, data segment {:04X}): sweep loop {:.3} ms on {} thread{}, {:.3} s in all",
        g.profile().name,
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
    if r.events_expected + r.events_emitted > 0 {
        println!(
            "events: {} compared, {} exact, {} within tolerance ({} expected, {} emitted)",
            r.events.compared, r.events.exact, r.events.within, r.events_expected, r.events_emitted
        );
    }
    println!("{} of {} equal", r.equal, r.total);
}
