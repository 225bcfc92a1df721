//! `tandem sst`: runs single-step test files and reports per file.
//!
//! Output: one line per file (`FILE: run N, passed P, failed F`), the first
//! failure's details indented below it, and as the last line exactly
//! `N passed, M failed` over the counted forms (undefined forms are reported
//! but not counted). Exit status: 0 when nothing failed, 1 when a counted
//! test failed, 2 for unreadable input (with one error line on stderr).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use clap::Args;

use crate::app::options::parse_model;
use emu::CpuModel;
use sst::{CycleTally, FileResult, FormStatus, RunOptions, SstError, Suite, Tally, Totals};

/// Arguments of `tandem sst`.
#[derive(Args, Debug)]
#[command(after_help = crate::app::exit::HELP)]
pub struct SstArgs {
    /// Test files (*.MOO.gz, *.MOO, 386 vectors *.json.gz) or directories
    /// holding them; a directory's metadata.json and revocation_list.txt are
    /// used.
    #[arg(required = true, value_name = "PATHS")]
    paths: Vec<PathBuf>,

    /// Print one JSON object (per-file results and totals) instead of text.
    #[arg(long)]
    json: bool,

    /// CPU model to run as: 8086, 286, 386 or 486 (default: each file's header).
    #[arg(long, value_name = "MODEL", value_parser = parse_model)]
    cpu: Option<CpuModel>,

    /// Print only files with failures (without details) and the totals.
    #[arg(short, long)]
    quiet: bool,

    /// Run the 8086 cycle-exact and compare every recorded bus cycle: per
    /// file the cycle-exact and total-count match rates and the first
    /// divergent cycle (ours / silicon); the last line counts cycle-exact
    /// tests. 8086 files only.
    #[arg(long)]
    cycles: bool,

    /// Files run in parallel (default: the number of CPUs).
    #[arg(short, long, value_name = "N")]
    jobs: Option<usize>,
}

/// Panics of the CPU core are caught by the runner and reported as failures;
/// the hook shows the first few and counts the rest.
static PANICS: AtomicUsize = AtomicUsize::new(0);
const PANICS_SHOWN: usize = 3;

fn install_panic_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if PANICS.fetch_add(1, Ordering::Relaxed) < PANICS_SHOWN {
            default(info);
        }
    }));
}

/// Runs `tandem sst` and returns the exit status.
pub fn run(args: &SstArgs) -> ExitCode {
    let start = Instant::now();
    let suite = match Suite::open(&args.paths) {
        Ok(s) => s,
        Err(e) => return input_error(&e),
    };
    let opts = RunOptions {
        model: args.cpu,
        cycles: args.cycles,
    };
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    install_panic_hook();

    let mut totals = Totals::default();
    let mut results: Vec<FileResult> = Vec::new();
    let mut error: Option<SstError> = None;
    let stdout = std::io::stdout();
    suite.run(&opts, jobs, |_, r| match r {
        Ok(r) => {
            totals.add(&r);
            if !args.json {
                let mut out = stdout.lock();
                let _ = out.write_all(render_file(&r, args.quiet).as_bytes());
                let _ = out.flush();
            } else {
                results.push(r);
            }
            true
        }
        Err(e) => {
            error = Some(e);
            false
        }
    });
    if let Some(e) = error {
        return input_error(&e);
    }

    let panics = PANICS.load(Ordering::Relaxed);
    if panics > PANICS_SHOWN {
        eprintln!(
            "note: the CPU core panicked {panics} times (only the first {PANICS_SHOWN} shown)"
        );
    }
    log::info!(
        "{} files, {} tests in {:.2} s",
        totals.files,
        totals.run + totals.undefined_run,
        start.elapsed().as_secs_f64()
    );

    if args.json {
        let obj = serde_json::json!({
            "files": results,
            "totals": totals,
            "passed": totals.passed,
            "failed": totals.failed,
        });
        println!("{obj}");
    } else {
        print_totals(&totals, args.quiet);
    }
    if totals.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::app::exit::CHECK_FAILED)
    }
}

/// The text summary after the per-file lines; its last line is exactly
/// `N passed, M failed` (with `, K cycle-exact` when cycles were compared).
fn print_totals(totals: &Totals, quiet: bool) {
    if totals.undefined_run > 0 && !quiet {
        println!(
            "undefined forms (not counted): run {}, passed {}, failed {}",
            totals.undefined_run,
            totals.undefined_passed,
            totals.undefined_run - totals.undefined_passed
        );
    }
    if !totals.cycles_compared {
        println!("{} passed, {} failed", totals.passed, totals.failed);
        return;
    }
    let all = CycleTally {
        run: totals.run,
        exact: totals.cycle_exact,
        count: totals.count_match,
    };
    println!("cycles: {}", cycle_rates(&all, "total cycle count matches"));
    for (status, t) in &totals.status_cycles {
        println!("  {status:<13} {}", cycle_rates(t, "count"));
    }
    let mut bar = CycleTally::default();
    for t in ["normal", "undocumented", "alias"]
        .iter()
        .filter_map(|k| totals.status_cycles.get(k))
    {
        bar.add(t);
    }
    println!(
        "  normal+undocumented+alias: {}",
        cycle_rates(&bar, "count")
    );
    println!(
        "{} passed, {} failed, {} cycle-exact",
        totals.passed, totals.failed, totals.cycle_exact
    );
}

/// `E of N cycle-exact (E%), LABEL C (C%)` for a group of tests: how many
/// matched every cycle and how many the number of cycles.
fn cycle_rates(t: &CycleTally, count_label: &str) -> String {
    format!(
        "{} of {} cycle-exact ({}), {count_label} {} ({})",
        t.exact,
        t.run,
        pct(t.exact, t.run),
        t.count,
        pct(t.count, t.run)
    )
}

/// `a` of `b` as a percentage with four decimals.
fn pct(a: u64, b: u64) -> String {
    if b == 0 {
        "-".to_string()
    } else {
        format!("{:.4}%", 100.0 * a as f64 / b as f64)
    }
}

/// The suite cannot be read: bad input.
fn input_error(e: &SstError) -> ExitCode {
    crate::app::error::input_error("sst", e.to_string())
}

/// The text report of one file: one line per group of tests (counted,
/// undefined) with its first failure below it.
fn render_file(r: &FileResult, quiet: bool) -> String {
    let mut s = String::new();
    let mixed = r.counted.run > 0 && r.undefined.run > 0;
    let mut group = |t: &Tally, undefined: bool| {
        let cycles_bad = r.cycles_compared && t.cycle_exact < t.run;
        if quiet && t.failed == 0 && !cycles_bad {
            return;
        }
        s.push_str(&r.file);
        if mixed && undefined {
            s.push_str(" [undefined forms]");
        }
        s.push_str(&format!(
            ": run {}, passed {}, failed {}",
            t.run, t.passed, t.failed
        ));
        if undefined {
            s.push_str(" (undefined, not counted)");
        } else if let Some(st) = r.status.filter(|&st| st != FormStatus::Normal) {
            s.push_str(&format!(" ({st})"));
        }
        if r.revoked > 0 && !undefined {
            s.push_str(&format!(" ({} revoked tests skipped)", r.revoked));
        }
        if !r.departures.is_empty() && !undefined {
            let codes: Vec<String> = r
                .departures
                .iter()
                .map(|(d, n)| format!("{d} {n}"))
                .collect();
            s.push_str(&format!(" (skipped by departure: {})", codes.join(", ")));
        }
        if r.cycles_compared {
            s.push_str(&format!(
                "; cycle-exact {} ({}), count {} ({})",
                t.cycle_exact,
                pct(t.cycle_exact as u64, t.run as u64),
                t.count_match,
                pct(t.count_match as u64, t.run as u64)
            ));
        }
        s.push('\n');
        if !quiet {
            if let Some(f) = &t.first_failure {
                s.push_str(&f.render("  "));
            }
            if let Some(f) = &t.first_cycle_failure {
                s.push_str(&f.render("  "));
            }
        }
    };
    if r.counted.run > 0 || r.undefined.run == 0 {
        group(&r.counted, false);
    }
    if r.undefined.run > 0 {
        group(&r.undefined, true);
    }
    s
}
