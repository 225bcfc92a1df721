//! The whole 8086 single-step suite (`shared/sst/8086`) against the CPU core.
//! The bar is 99.9% of the counted forms; the core passes them all,
//! so any regression fails. In cycle-exact mode (`tandem sst --cycles`)
//! every counted test must match every recorded bus cycle.

mod common;

use emu::CpuModel;

#[test]
fn whole_8086_suite() {
    let dir = common::data_dir("sst/8086");
    let totals = common::run_suite(&dir, CpuModel::I8086, 300, 600_000, 1.0);
    assert!(totals.undefined_run > 0, "undefined forms were not run");
    assert_eq!(
        totals.undefined_passed, totals.undefined_run,
        "undefined forms regressed"
    );
}

/// The cycle-exact 8086 over the whole suite: every counted test (normal,
/// undocumented, alias and FPU forms) matches every recorded cycle: bus
/// status, T-state, address, data, queue operation and byte. The bar is
/// 99% cycle-exact and 99.9% of total counts in the normal,
/// undocumented and alias forms; the core matches them all, so any
/// regression names its file and first divergent cycle.
#[test]
fn whole_8086_suite_cycle_exact() {
    use sst::{RunOptions, Suite};
    let dir = common::data_dir("sst/8086");
    let suite = Suite::open(std::slice::from_ref(&dir)).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        suite.files().len() >= 300,
        "only {} files",
        suite.files().len()
    );
    let opts = RunOptions {
        model: Some(CpuModel::I8086),
        cycles: true,
    };
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut bad = Vec::new();
    let mut totals = sst::Totals::default();
    suite.run(&opts, jobs, |_, r| {
        let r = r.expect("readable file");
        assert!(r.cycles_compared, "{}: cycles were not compared", r.file);
        if r.counted.failed > 0 || r.counted.cycle_exact < r.counted.run {
            bad.push(format!(
                "{}: {} of {} cycle-exact, {} failed\n{}",
                r.file,
                r.counted.cycle_exact,
                r.counted.run,
                r.counted.failed,
                r.counted
                    .first_cycle_failure
                    .as_ref()
                    .map(|f| f.render("  "))
                    .unwrap_or_default()
            ));
        }
        totals.add(&r);
        true
    });
    assert!(totals.run >= 600_000, "only {} tests ran", totals.run);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert_eq!(totals.cycle_exact, totals.run);
    assert_eq!(totals.count_match, totals.run);
    // The by-status tally covers every counted test.
    let by_status: u64 = totals.status_cycles.values().map(|t| t.run).sum();
    assert_eq!(by_status, totals.run);
    for status in ["normal", "undocumented", "alias", "fpu"] {
        let t = totals
            .status_cycles
            .get(status)
            .copied()
            .unwrap_or_default();
        assert!(t.run > 0 && t.exact == t.run, "{status}: {t:?}");
    }
}
