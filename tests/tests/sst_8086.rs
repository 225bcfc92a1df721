//! The whole 8086 single-step suite (`shared/sst/8086`) against the CPU core.
//! The bar is 99.9% of the counted forms; the core passes them all,
//! so any regression fails.

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
