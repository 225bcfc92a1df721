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

/// The cycle-exact 8086 (`tandem sst --cycles`): forms whose every test
/// matches every recorded bus cycle today (ALU with the accumulator, INC/DEC
/// reg, PUSH and POP reg/sreg, XCHG AX, MOV reg,imm, JMP rel16, IN AL,DX,
/// flag instructions, interrupts, ALU/MOV/shifts/INC/DEC with r/m, ESC)
/// must stay cycle-exact, and the whole comparison must run. The bar (99% of
/// tests cycle-exact) is not met yet: see docs/architecture.md.
#[test]
fn cycle_exact_forms() {
    let dir = common::data_dir("sst/8086");
    let names = [
        "04", "05", "06", "07", "0E", "17", "1F", "27", "37", "3D", "3F", "40", "4F", "50", "57",
        "58", "5F", "90", "97", "98", "99", "9A", "9C", "9D", "9E", "9F", "A0", "A1", "A2", "A3",
        "A8", "A9", "B0", "BF", "C1", "C2", "C3", "C8", "C9", "CA", "CB", "CC", "CD", "CE", "CF",
        "D6", "D7", "E4", "E5", "E6", "E7", "E8", "E9", "EA", "EC", "ED", "EE", "EF", "F5", "F8",
        "FD", "00", "01", "02", "03", "38", "3B", "80.0", "81.3", "83.7", "84", "85", "86", "87",
        "88", "89", "8A", "8B", "8C", "8D", "8E", "8F", "C4", "C5", "C6", "C7", "D0.4", "D1.0",
        "D2.7", "D3.5", "D8", "DF", "F6.0", "F6.3", "F7.0", "FE.1", "FF.1", "FF.2", "FF.3", "FF.4",
        "FF.5", "FF.6", "FF.7", "60", "6F", "70", "7E", "7F", "C0", "E0", "E1", "E2", "E3", "EB",
    ];
    let mut checked = 0;
    for r in cycle_results(&dir, &names) {
        assert!(r.cycles_compared, "{}: cycles were not compared", r.file);
        assert_eq!(r.counted.failed, 0, "{}: registers/memory", r.file);
        assert_eq!(
            r.counted.cycle_exact,
            r.counted.run,
            "{}: not cycle-exact\n{}",
            r.file,
            r.counted
                .first_cycle_failure
                .as_ref()
                .map(|f| f.render("  "))
                .unwrap_or_default()
        );
        checked += 1;
    }
    assert_eq!(checked, names.len());
}

/// Forms whose timing rests on the BIU's handover rules (the queue-policy
/// hold and the aborted prefetch, `emu/src/biu/cycle.rs`): each file must
/// stay at 99% cycle-exact or better (100% today). Forms still being
/// scripted can be added here with the floor they reach.
#[test]
fn cycle_exact_floors() {
    let dir = common::data_dir("sst/8086");
    let names = ["D1.1", "D3.0", "81.3", "C7", "E0"];
    let mut checked = 0;
    for r in cycle_results(&dir, &names) {
        assert_eq!(r.counted.failed, 0, "{}: registers/memory", r.file);
        let (exact, run) = (r.counted.cycle_exact, r.counted.run);
        assert!(
            run > 0 && exact * 100 >= run * 99,
            "{}: {exact} of {run} cycle-exact",
            r.file
        );
        checked += 1;
    }
    assert_eq!(checked, names.len());
}

/// Runs the named 8086 files with the cycle comparison and returns their
/// results.
fn cycle_results(dir: &std::path::Path, names: &[&str]) -> Vec<emu::sst::FileResult> {
    use emu::sst::{RunOptions, Suite};
    let paths: Vec<_> = names
        .iter()
        .map(|n| dir.join(format!("{n}.MOO.gz")))
        .collect();
    let suite = Suite::open(&paths).expect("suite files");
    let opts = RunOptions {
        model: Some(CpuModel::I8086),
        cycles: true,
    };
    let mut results = Vec::new();
    suite.run(&opts, 2, |_, r| {
        results.push(r.expect("readable file"));
        true
    });
    results
}
