//! The 286 real-mode sample files of `shared/sst/286`: every file parses,
//! its test count matches its header, the directory's metadata and
//! revocation list load, and the 286 model passes every test (registers and
//! memory).

mod common;

use std::path::PathBuf;

use emu::CpuModel;
use sst::{is_moo_name, model_for_cpu_name, read_moo_file, DirContext, MooReg};

fn suite_dir(name: &str) -> PathBuf {
    common::data_dir(&format!("sst/{name}"))
}

#[test]
fn whole_286_sample_suite_passes() {
    let dir = suite_dir("286");
    common::run_suite(&dir, CpuModel::I286, 5, 25_000, 1.0);
}

#[test]
fn read_286_samples() {
    let dir = suite_dir("286");
    let ctx = DirContext::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let meta = ctx.metadata.as_ref().expect("286/metadata.json is present");
    assert!(meta.opcodes.len() > 200, "metadata holds too few opcodes");

    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_moo_name)
        })
        .collect();
    files.sort();
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
