//! Shared helpers for the CPU suite tests: where the data is, and a run of
//! a whole suite directory with per-form reporting.
//!
//! The data lives outside the repository, in `<repo>/../shared` (override
//! with the `TANDEM_SHARED` environment variable). Missing data fails the
//! test loudly: it is never skipped.

#![allow(dead_code)]

pub mod genx87;

use std::path::PathBuf;
use std::time::Instant;

use emu::CpuModel;
use sst::{FileResult, RunOptions, Suite, Totals};

/// The shared data directory.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("TANDEM_SHARED") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    }
}

/// A directory below the shared data, which must exist.
pub fn data_dir(rel: &str) -> PathBuf {
    let dir = shared_dir().join(rel);
    assert!(
        dir.is_dir(),
        "CPU test data not found at {} (set TANDEM_SHARED to the shared directory)",
        dir.display()
    );
    dir
}

fn jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Runs every file of `dir` as `model`, prints per-form failures and the
/// summary, and asserts that at least `min_tests` counted tests ran and that
/// the pass rate over counted forms is at least `required`.
pub fn run_suite(
    dir: &PathBuf,
    model: CpuModel,
    min_files: usize,
    min_tests: u64,
    required: f64,
) -> Totals {
    let start = Instant::now();
    let suite = Suite::open(std::slice::from_ref(dir)).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        suite.files().len() >= min_files,
        "only {} test files in {}",
        suite.files().len(),
        dir.display()
    );
    let opts = RunOptions {
        model: Some(model),
        cycles: false,
    };
    let mut results: Vec<FileResult> = Vec::new();
    let mut errors = Vec::new();
    suite.run(&opts, jobs(), |_, r| {
        match r {
            Ok(r) => results.push(r),
            Err(e) => errors.push(e.to_string()),
        }
        true
    });
    assert!(
        errors.is_empty(),
        "unreadable test files:\n{}",
        errors.join("\n")
    );
    assert_eq!(results.len(), suite.files().len());

    let mut totals = Totals::default();
    for r in &results {
        totals.add(r);
    }
    println!(
        "{}: {} files, {} counted tests, {} undefined-form tests in {:.2} s",
        dir.display(),
        totals.files,
        totals.run,
        totals.undefined_run,
        start.elapsed().as_secs_f64()
    );
    for r in &results {
        if r.counted.failed > 0 {
            println!(
                "FAIL {}: {} of {} failed{}",
                r.file,
                r.counted.failed,
                r.counted.run,
                r.status.map(|s| format!(" ({s})")).unwrap_or_default()
            );
            if let Some(f) = &r.counted.first_failure {
                print!("{}", f.render("    "));
            }
        }
    }
    for r in &results {
        if r.undefined.run > 0 {
            println!(
                "undefined forms in {} (not counted): {} of {} passed",
                r.file, r.undefined.passed, r.undefined.run
            );
        }
    }
    assert!(totals.run >= min_tests, "too few tests ran: {}", totals.run);
    let rate = totals.passed as f64 / totals.run as f64;
    println!(
        "{} passed, {} failed ({:.4}% of counted forms)",
        totals.passed,
        totals.failed,
        rate * 100.0
    );
    assert!(
        rate >= required,
        "pass rate {:.4}% is below {:.1}%: {} of {} counted tests failed",
        rate * 100.0,
        required * 100.0,
        totals.failed,
        totals.run
    );
    totals
}
