//! The whole 8086 single-step suite (`shared/sst/8086`) against the CPU core.
//!
//! The data lives outside the repository, in `<repo>/../shared` (override
//! with the `TANDEM_SHARED` environment variable). Missing data fails the
//! test loudly: it is never skipped.

use std::path::PathBuf;
use std::time::Instant;

use emu::sst::{FileResult, RunOptions, Suite, Totals};

/// Required pass rate over the counted forms (normal, undocumented, alias,
/// fpu...; undefined forms are reported but not counted).
const REQUIRED_PASS_RATE: f64 = 0.999;

fn shared_dir() -> PathBuf {
    match std::env::var_os("TANDEM_SHARED") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    }
}

fn suite_dir(name: &str) -> PathBuf {
    let dir = shared_dir().join("sst").join(name);
    assert!(
        dir.is_dir(),
        "single-step test data not found at {} (set TANDEM_SHARED to the shared directory)",
        dir.display()
    );
    dir
}

fn jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

#[test]
fn whole_8086_suite() {
    let dir = suite_dir("8086");
    let start = Instant::now();
    let suite = Suite::open(std::slice::from_ref(&dir)).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        suite.files().len() > 300,
        "only {} test files in {}",
        suite.files().len(),
        dir.display()
    );

    let mut results: Vec<FileResult> = Vec::new();
    let mut errors = Vec::new();
    suite.run(&RunOptions::default(), jobs(), |_, r| {
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
        "8086 suite: {} files, {} counted tests, {} undefined-form tests in {:.2} s",
        totals.files,
        totals.run,
        totals.undefined_run,
        start.elapsed().as_secs_f64()
    );

    // Per-form failures, counted forms first.
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

    assert!(totals.run > 600_000, "too few tests ran: {}", totals.run);
    let rate = totals.passed as f64 / totals.run as f64;
    println!(
        "{} passed, {} failed ({:.4}% of counted forms)",
        totals.passed,
        totals.failed,
        rate * 100.0
    );
    assert!(
        rate >= REQUIRED_PASS_RATE,
        "pass rate {:.4}% is below {:.1}%: {} of {} counted tests failed",
        rate * 100.0,
        REQUIRED_PASS_RATE * 100.0,
        totals.failed,
        totals.run
    );
}
