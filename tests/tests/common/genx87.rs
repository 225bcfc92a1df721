//! The committed x87 and 486 vectors of `tools/genx87` (`tests/vectors/x87`,
//! `tests/vectors/486-real`): where they are and how the tables group them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use emu::CpuModel;
use sst::{read_vector_file, Departure, VectorRunner};

/// The committed vector directory `sub`, which must exist.
pub fn vector_dir(sub: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("vectors")
        .join(sub);
    assert!(dir.is_dir(), "committed vectors missing: {}", dir.display());
    dir
}

/// The family of a form, for the tables: the ESC byte with mem/reg, or the
/// 486 mnemonic.
pub fn family(form: &str) -> String {
    if form.starts_with('D') {
        let kind = if form.contains('_') || form.ends_with('r') {
            "reg"
        } else {
            "mem"
        };
        return format!("{} {kind}", &form[..2]);
    }
    let op = &form[form.len() - 2..];
    match op {
        "C0" | "C1" => "xadd",
        "B0" | "B1" => "cmpxchg",
        "08" => "invd",
        "09" => "wbinvd",
        _ => "bswap",
    }
    .to_string()
}

/// Per family: tests passed, failed, and skipped per departure code.
#[derive(Default)]
struct FamilyCount {
    passed: u32,
    failed: u32,
    skipped: BTreeMap<Departure, u32>,
}

/// Runs every vector file of `dir` as `model`, prints per family the tests
/// passed, failed and skipped by departure (and the first failure of each
/// failing form), and fails if any test without a departure fails or if
/// fewer than `min_files` files are there.
pub fn run_vectors(dir: &Path, model: CpuModel, min_files: usize) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".json.gz"))
        .collect();
    files.sort();
    assert!(
        files.len() >= min_files,
        "{} vector files in {}, expected {min_files}",
        files.len(),
        dir.display()
    );
    let mut runner = VectorRunner::new(model);
    let mut fams: BTreeMap<String, FamilyCount> = BTreeMap::new();
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let form = name.trim_end_matches(".json.gz");
        let tests = read_vector_file(path).unwrap_or_else(|e| panic!("{e}"));
        let out = runner.run_tests(&tests);
        let fam = fams.entry(family(form)).or_default();
        fam.passed += out.tally.passed;
        fam.failed += out.tally.failed;
        for (d, n) in out.skipped {
            *fam.skipped.entry(d).or_default() += n;
        }
        if let Some(f) = &out.tally.first_failure {
            failures.push(format!(
                "FAIL {form}: {} of {} failed\n{}",
                out.tally.failed,
                out.tally.run,
                f.render("    ")
            ));
        }
    }
    println!(
        "{} as {model:?}: family, passed, failed, skipped (by departure)",
        dir.display()
    );
    let mut total = FamilyCount::default();
    for (f, c) in &fams {
        let skipped: Vec<String> = c
            .skipped
            .iter()
            .map(|(d, n)| format!("{} {n}", d.name()))
            .collect();
        println!(
            "  {f:<8} {:>6} {:>6}  {}",
            c.passed,
            c.failed,
            skipped.join(", ")
        );
        total.passed += c.passed;
        total.failed += c.failed;
    }
    println!("  total    {:>6} {:>6}", total.passed, total.failed);
    for f in &failures {
        print!("{f}");
    }
    assert!(total.passed > 0, "no vector ran in {}", dir.display());
    assert_eq!(
        total.failed,
        0,
        "{} vectors without a departure failed in {}",
        total.failed,
        dir.display()
    );
}
