//! Models on programs other than the built-in replicas: a .COM of its own
//! layout swept with a profile that names only the fountain's symbols, and
//! the worked example of docs/models.md (param-lookup, one file in
//! models/src) swept and compared with the commands unchanged.

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::{repo, s, tandem, text};

/// Builds roms/fountain-com/fountain.asm with nasm into a fresh folder for
/// `test`;
/// returns the program, a copy with amplitude byte 2 changed, and the
/// profile.
fn fountain_com(test: &str) -> (PathBuf, PathBuf, PathBuf) {
    // A folder per test: tests run in parallel.
    let d = common::temp_dir(&format!("fountain-com-{test}"));
    let src = repo().join("roms/fountain-com/fountain.asm");
    let com = d.join("FOUNTAIN.COM");
    let o = std::process::Command::new("nasm")
        .args(["-f", "bin", "-o", s(&com), s(&src)])
        .output()
        .expect("nasm runs (apt-get install nasm)");
    assert!(o.status.success(), "nasm: {}", text(&o.stderr));
    let mut b = std::fs::read(&com).expect("the .COM");
    b[0x250 - 0x100 + 2] = 76; // amplitude 2: 75 -> 76
    let mutant = d.join("MUTANT.COM");
    std::fs::write(&mutant, b).expect("write the mutant");
    (com, mutant, repo().join("roms/fountain-com/fountain.toml"))
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_str(text(&o.stdout).trim()).unwrap_or_else(|e| panic!("{e}: {o:?}"))
}

#[test]
fn a_com_of_its_own_sweeps_equal_and_a_changed_amplitude_names_its_slot() {
    let (com, mutant, profile) = fountain_com("sweep");
    let o = tandem(&[
        "sweep",
        "--profile",
        s(&profile),
        s(&com),
        "--routine",
        "fountain",
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(
        text(&o.stdout).trim_end().ends_with("12288 of 12288 equal"),
        "{}",
        text(&o.stdout)
    );
    let mutant_sweep = |threads: &str| {
        tandem(&[
            "sweep",
            "--profile",
            s(&profile),
            s(&mutant),
            "--reference",
            s(&com),
            "--routine",
            "fountain",
            "--threads",
            threads,
            "--json",
        ])
    };
    let o = mutant_sweep("1");
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let v = json(&o);
    assert_eq!(v["first_mismatch"]["output"], "slot 2", "{v}");
    assert!(v["equal"].as_u64() < Some(12_288), "{v}");
    // The same report on 3 threads (only the timing and the count differ).
    let mut w = json(&mutant_sweep("3"));
    assert_eq!(w["threads"], 3, "{w}");
    let mut v = v;
    for x in [&mut v, &mut w] {
        for k in ["seconds", "loop_seconds", "threads"] {
            x[k] = serde_json::Value::Null;
        }
    }
    assert_eq!(v, w);
    let _ = std::fs::remove_dir_all(com.parent().expect("folder"));
}

/// The profile names only the fountain: asking for another routine names
/// that routine's first missing symbol, in one line, exit 2.
#[test]
fn a_routine_the_profile_cannot_locate_names_its_missing_symbol() {
    let (com, _, profile) = fountain_com("missing");
    let o = tandem(&[
        "sweep",
        "--profile",
        s(&profile),
        s(&com),
        "--routine",
        "landing",
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("does not name 'landing_update', which routine landing needs"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(com.parent().expect("folder"));
}

/// A mutant of the replica's lookup (AND AL,31 becomes AND AL,63).
fn lookup_mutant() -> PathBuf {
    let mut b = std::fs::read(common::replica()).expect("replica");
    let at = 0x20 + 0x3300;
    assert_eq!(&b[at..at + 2], &[0x24, 0x1F], "AND AL,1Fh at 3300");
    b[at + 1] = 0x3F;
    let d = common::temp_dir("lookup-mutant");
    let p = d.join("LOOKUP.EXE");
    std::fs::write(&p, b).expect("write");
    p
}

#[test]
fn the_worked_example_sweeps_and_compares() {
    let o = tandem(&["sweep", "--profile", "replica", "--routine", "param-lookup"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(text(&o.stdout).contains("65536 of 65536 equal"), "{o:?}");
    let o = tandem(&[
        "compare",
        "--profile",
        "replica",
        "--seconds",
        "2",
        "--routine",
        "param-lookup",
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    // The sweep fills the table (the model's `fills`): a cell state with
    // bit 5 set selects another slot in the mutant.
    let m = lookup_mutant();
    let o = tandem(&[
        "sweep",
        "--profile",
        "replica",
        s(&m),
        "--routine",
        "param-lookup",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let v = json(&o);
    assert_eq!(v["equal"], 32_768, "{v}");
    assert_eq!(
        v["first_mismatch"]["input"], "cell state 20h, index 00h",
        "{v}"
    );
    // Compare spot-checks it on the table as the running program holds it.
    let o = tandem(&[
        "compare",
        "--profile",
        "replica",
        s(&m),
        "--seconds",
        "3",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let v = json(&o);
    assert_eq!(v["divergence"]["routine"], "param-lookup", "{v}");
    assert_eq!(v["divergence"]["output"], "AX", "{v}");
}

/// `call` and `trace` take a profile's routine: its entry in the code
/// segment the signature found (the .COM's PSP), DS the data segment.
#[test]
fn call_and_trace_find_a_routine_by_its_profile() {
    let (com, _, profile) = fountain_com("call");
    let o = tandem(&[
        "call",
        s(&com),
        "--profile",
        s(&profile),
        "--routine",
        "fountain",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let v = json(&o);
    let routine = v["routine"].as_str().unwrap_or_default().to_string();
    assert!(routine.ends_with(":0600"), "{v}");
    let seg = u32::from_str_radix(&routine[..4], 16).expect("segment");
    let heights = (seg << 4) + 0x2000;
    let writes = v["memory_writes"].as_array().expect("writes");
    assert!(
        writes
            .iter()
            .any(|w| w["linear"].as_u64() == Some(heights as u64)),
        "the six heights at PSP:2000: {v}"
    );
    let o = tandem(&[
        "trace",
        s(&com),
        "--profile",
        s(&profile),
        "--routine",
        "fountain",
        "--count",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(text(&o.stdout).contains(":0600  push bp"), "{o:?}");
    let _ = std::fs::remove_dir_all(com.parent().expect("folder"));
}
