//! The committed x87 and 486 vectors (`tests/vectors/x87`, `tests/vectors/486-real`,
//! recorded with Unicorn by `tools/genx87/genx87.py`): every file parses, every form the
//! generator's README promises is there and nothing else, each x87 form covers the 4
//! rounding x 3 precision modes, and the departure marks sit where the README says. The
//! counts per family are printed for the note. `vectors_x87.rs` and `vectors_486.rs` run them
//! against the core.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use sst::{read_vector_file, Departure, Vector};

mod common;

use common::genx87::{family, vector_dir};

/// The x87 forms of the README: memory forms `op.reg`, register forms `op.regr`
/// (ST(i) in R/M) and fixed forms `op_byte`.
fn x87_forms() -> BTreeSet<String> {
    let mut f = BTreeSet::new();
    let mem: [(u8, &[u8]); 8] = [
        (0xD8, &[0, 1, 2, 3, 4, 5, 6, 7]),
        (0xD9, &[0, 2, 3, 4, 5, 6, 7]),
        (0xDA, &[0, 1, 2, 3, 4, 5, 6, 7]),
        (0xDB, &[0, 2, 3, 5, 7]),
        (0xDC, &[0, 1, 2, 3, 4, 5, 6, 7]),
        (0xDD, &[0, 2, 3, 4, 6, 7]),
        (0xDE, &[0, 1, 2, 3, 4, 5, 6, 7]),
        (0xDF, &[0, 2, 3, 4, 5, 6, 7]),
    ];
    for (op, regs) in mem {
        f.extend(regs.iter().map(|r| format!("{op:02X}.{r}")));
    }
    let reg: [(u8, &[u8]); 5] = [
        (0xD8, &[0, 1, 2, 3, 4, 5, 6, 7]),
        (0xD9, &[0, 1]),
        (0xDC, &[0, 1, 4, 5, 6, 7]),
        (0xDD, &[0, 2, 3, 4, 5]),
        (0xDE, &[0, 1, 4, 5, 6, 7]),
    ];
    for (op, regs) in reg {
        f.extend(regs.iter().map(|r| format!("{op:02X}.{r}r")));
    }
    let d9 = [0xD0u8, 0xE0, 0xE1, 0xE4, 0xE5]
        .into_iter()
        .chain(0xE8..=0xEE)
        .chain(0xF0..=0xFF);
    f.extend(d9.map(|b| format!("D9_{b:02X}")));
    f.extend((0xE0u8..=0xE4).map(|b| format!("DB_{b:02X}")));
    f.extend(["DA_E9", "DE_D9", "DF_E0"].map(String::from));
    f
}

/// The 486 forms of the README.
fn i486_forms() -> BTreeSet<String> {
    let mut f = BTreeSet::new();
    for pre in [
        "", "66_", "67_", "66_67_", "F0_", "F0_66_", "F3_", "26_", "64_",
    ] {
        for op in [0xC0u8, 0xC1, 0xB0, 0xB1] {
            if !(pre.contains("66") && (op == 0xC0 || op == 0xB0)) {
                f.insert(format!("{pre}0F_{op:02X}"));
            }
        }
    }
    for pre in ["", "66_", "F3_"] {
        f.extend((0xC8u8..=0xCF).map(|op| format!("{pre}0F_{op:02X}")));
        f.extend([0x08u8, 0x09].map(|op| format!("{pre}0F_{op:02X}")));
    }
    f
}

/// Reads every file of `dir`, checks the set of forms and returns the tests by form.
fn read_all(dir: &PathBuf, expected: &BTreeSet<String>) -> BTreeMap<String, Vec<Vector>> {
    let mut out = BTreeMap::new();
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("readable directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let Some(form) = name.strip_suffix(".json.gz") else {
            assert_eq!(name, "index.json", "unexpected file {}", path.display());
            continue;
        };
        let tests = read_vector_file(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(!tests.is_empty(), "{} holds no test", path.display());
        out.insert(form.to_string(), tests);
    }
    let found: BTreeSet<String> = out.keys().cloned().collect();
    let missing: Vec<_> = expected.difference(&found).collect();
    let extra: Vec<_> = found.difference(expected).collect();
    assert!(
        missing.is_empty(),
        "forms missing in {}: {missing:?}",
        dir.display()
    );
    assert!(
        extra.is_empty(),
        "unexpected forms in {}: {extra:?}",
        dir.display()
    );
    out
}

/// Prints the tests and departures per family and returns the total.
fn print_table(title: &str, forms: &BTreeMap<String, Vec<Vector>>) -> usize {
    let mut fams: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    let mut deps: BTreeMap<Departure, usize> = BTreeMap::new();
    for (form, tests) in forms {
        let e = fams.entry(family(form)).or_default();
        e.0 += 1;
        e.1 += tests.len();
        e.2 += tests.iter().filter(|t| t.departures.is_empty()).count();
        for d in tests.iter().flat_map(|t| &t.departures) {
            *deps.entry(*d).or_default() += 1;
        }
    }
    println!("{title}: family, forms, tests, tests without departure");
    for (f, (n, t, clean)) in &fams {
        println!("  {f:<8} {n:>4} {t:>7} {clean:>7}");
    }
    let total: usize = fams.values().map(|v| v.1).sum();
    println!("  total    {:>4} {total:>7}", forms.len());
    for (d, n) in &deps {
        println!("  departure {:<20} {n:>6}", d.name());
    }
    total
}

#[test]
fn x87_vector_files_parse_and_cover_every_form() {
    let forms = read_all(&vector_dir("x87"), &x87_forms());
    let total = print_table("x87", &forms);
    assert!(total >= 100 * forms.len(), "{total} x87 tests only");
    let transcendental = [
        "D9_F0", "D9_F1", "D9_F2", "D9_F3", "D9_F9", "D9_FB", "D9_FE", "D9_FF",
    ];
    for (form, tests) in &forms {
        let mut modes = BTreeSet::new();
        for t in tests {
            let (Some(init), Some(fin)) = (&t.initial.fpu, &t.fin.fpu) else {
                panic!("{form}: an x87 test without its FPU state");
            };
            assert!(fin.tw >> 14 < 4 && init.top() < 8);
            modes.insert((init.cw >> 8) & 0xF);
        }
        // RC x PC: 4 rounding controls x precision 24, 53, 64 bits (PC 0, 2, 3)
        assert_eq!(
            modes.len(),
            12,
            "{form}: rounding x precision modes {modes:?}"
        );
        let marked = |d: Departure| tests.iter().all(|t| t.departures.contains(&d));
        if transcendental.contains(&form.as_str()) {
            assert!(marked(Departure::Transcendental), "{form} not marked");
        }
        if form == "D9_F5" || form == "D9_F8" {
            assert!(marked(Departure::Fprem), "{form} not marked");
        }
    }
}

#[test]
fn i486_vector_files_parse_and_cover_every_form() {
    let forms = read_all(&vector_dir("486-real"), &i486_forms());
    let total = print_table("486", &forms);
    assert!(total >= 50 * forms.len(), "{total} 486 tests only");
    for (form, tests) in &forms {
        for t in tests {
            assert!(t.initial.fpu.is_none(), "{form}: FPU state in a 486 test");
            assert!(t.fin.regs.is_some(), "{form}: final registers missing");
            if t.departures.contains(&Departure::LockRegister) {
                assert!(
                    form.starts_with("F0_"),
                    "{form}: lock-register without LOCK"
                );
            }
        }
        if form.starts_with("66_0F_C") && family(form) == "bswap" {
            assert!(tests.iter().all(|t| !t.regs_undefined.is_empty()));
        }
    }
}

#[test]
fn every_departure_is_listed_in_the_generator_readme() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/genx87/README.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for d in Departure::ALL {
        let row = format!("| `{}` |", d.name());
        let line = text.lines().find(|l| l.starts_with(&row));
        let line = line.unwrap_or_else(|| panic!("{} not in the README's table", d.name()));
        assert!(line.contains("SDM"), "{}: no manual section", d.name());
    }
}
