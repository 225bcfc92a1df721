//! The 286 real-mode sample files of `shared/sst/286`: every file parses,
//! its test count matches its header, the directory's metadata and
//! revocation list load, and the 286 model passes every test (registers and
//! memory). And `shared/sst/286-edge`, the suite's files whose tests cross
//! offset FFFFh: every test passes but the recording defects listed in
//! `tests/sst/286-edge-defects.txt`, which fail as described there.

mod common;

use std::path::PathBuf;

use emu::CpuModel;
use sst::{
    is_moo_name, model_for_cpu_name, parse_revocation_list, read_moo_file, DirContext, MooReg,
    Runner,
};

fn suite_dir(name: &str) -> PathBuf {
    common::data_dir(&format!("sst/{name}"))
}

#[test]
fn whole_286_sample_suite_passes() {
    let dir = suite_dir("286");
    common::run_suite(&dir, CpuModel::I286, 5, 25_000, 1.0);
}

/// The `*.MOO.gz` files of `dir`, sorted.
fn moo_files(dir: &PathBuf) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_moo_name)
        })
        .collect();
    files.sort();
    files
}

/// Counted tests run and failed over `files` under `ctx`, and the tests
/// skipped as revoked.
fn run_286(files: &[PathBuf], ctx: &DirContext) -> (u64, u64, u64) {
    let mut runner = Runner::new(CpuModel::I286);
    let (mut run, mut failed, mut revoked) = (0, 0, 0);
    for path in files {
        let moo = read_moo_file(path).unwrap_or_else(|e| panic!("{e}"));
        let r = runner.run_moo(&moo, path, ctx);
        if r.counted.failed > 0 {
            println!("FAIL {}: {} of {}", r.file, r.counted.failed, r.counted.run);
            if let Some(f) = &r.counted.first_failure {
                print!("{}", f.render("    "));
            }
        }
        run += r.counted.run as u64;
        failed += r.counted.failed as u64;
        revoked += r.revoked as u64;
    }
    (run, failed, revoked)
}

/// The 286 at the 64 KiB edge (word transfers, string operations, returns,
/// far pointers and BOUND at offset FFFFh, IP past FFFFh): all 25 files
/// pass but the listed recording defects, and exactly those fail.
#[test]
fn whole_286_edge_suite_passes() {
    let dir = suite_dir("286-edge");
    let files = moo_files(&dir);
    assert_eq!(files.len(), 25, "286-edge files in {}", dir.display());
    let list = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sst/286-edge-defects.txt");
    let text = std::fs::read_to_string(&list).unwrap_or_else(|e| panic!("{}: {e}", list.display()));
    let defects =
        parse_revocation_list(&text).unwrap_or_else(|e| panic!("{}: {e}", list.display()));
    let plain = DirContext::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let mut skipping = DirContext::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let listed = skipping.revoked.len() as u64;
    skipping.revoked.extend(defects.iter().copied());

    let (run, failed, revoked) = run_286(&files, &skipping);
    println!("286-edge: {run} counted tests, {failed} failed, {revoked} skipped");
    assert!(run >= 118_000, "only {run} counted tests");
    assert_eq!(
        revoked,
        listed + defects.len() as u64,
        "a listed defect is not in the suite"
    );
    assert_eq!(failed, 0, "{failed} tests of 286-edge failed");

    // The defects are skipped because they fail: they, and nothing else.
    let (_, failed, _) = run_286(&files, &plain);
    assert_eq!(
        failed,
        defects.len() as u64,
        "the listed defects no longer fail"
    );
}

#[test]
fn read_286_samples() {
    let dir = suite_dir("286");
    let ctx = DirContext::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let meta = ctx.metadata.as_ref().expect("286/metadata.json is present");
    assert!(meta.opcodes.len() > 200, "metadata holds too few opcodes");

    let files = moo_files(&dir);
    assert!(!files.is_empty(), "no MOO files in {}", dir.display());

    let mut total = 0usize;
    for path in &files {
        let moo = read_moo_file(path).unwrap_or_else(|e| panic!("{e}"));
        let name = path.display();
        assert_eq!(
            moo.tests.len(),
            moo.header.test_count as usize,
            "{name}: test count differs from the header"
        );
        assert_eq!(
            model_for_cpu_name(&moo.header.cpu_name),
            Some(CpuModel::I286),
            "{name}: CPU name '{}'",
            moo.header.cpu_name
        );
        for t in &moo.tests {
            assert!(t.hash.is_some(), "{name}: test {} has no HASH", t.index);
            assert_eq!(
                t.bytes.last(),
                Some(&0xF4),
                "{name}: test {} does not end with HLT",
                t.index
            );
            assert_eq!(
                t.init.regs.mask, 0x3FFF,
                "{name}: test {} INIT lacks registers",
                t.index
            );
            assert!(t.init.queue.is_empty(), "{name}: 286 tests record no queue");
            assert!(
                !t.cycles.is_empty(),
                "{name}: test {} has no cycles",
                t.index
            );
            if let Some(e) = t.exception {
                // The pushed FLAGS are part of the final RAM.
                assert!(
                    t.fina.ram.iter().any(|&(a, _)| a == e.flags_address),
                    "{name}: test {}: EXCP flags address not in FINA RAM",
                    t.index
                );
            }
            let _ = t.init.regs.get(MooReg::FLAGS);
        }
        total += moo.tests.len();
    }
    println!("read {} tests from {} 286 files", total, files.len());
}
