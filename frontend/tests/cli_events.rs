//! Event streams in the golden master: the replica's drawing interpreter
//! (`draw`, roms/replica/replica.asm) swept over its definitions x six
//! parameter combinations x two projections and compared vertex by vertex
//! with its model (models/src/draw.rs): static vertices exactly, the
//! gates' within one pixel. A rounding mutant and a gate-factor mutant are
//! caught at their first event out of tolerance, named; an event point
//! that is never reached and a tolerance on an unknown field are one line
//! and status 2.

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::{repo, s, tandem, text};

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_str(text(&o.stdout).trim())
        .unwrap_or_else(|e| panic!("{e}: {}", text(&o.stdout)))
}

/// The replica with the bytes `from` (found once in the interpreter)
/// replaced by `to`.
fn mutant(name: &str, from: &[u8], to: &[u8]) -> PathBuf {
    let mut b = std::fs::read(common::replica()).expect("replica.exe");
    let hits: Vec<usize> = (0..b.len() - from.len())
        .filter(|&i| &b[i..i + from.len()] == from)
        .collect();
    assert_eq!(hits.len(), 1, "{name}: the pattern is found once");
    b[hits[0]..hits[0] + to.len()].copy_from_slice(to);
    let dir = std::env::temp_dir().join(format!("tandem-events-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, b).expect("write mutant");
    p
}

fn sweep(program: Option<&str>, profile: &str) -> Output {
    let mut args = vec!["sweep", "--profile", profile, "--routine", "draw", "--json"];
    args.extend(program);
    tandem(&args)
}

#[test]
fn the_drawing_interpreter_agrees_event_by_event_on_both_replicas() {
    for profile in ["replica", "replica-demo"] {
        let o = sweep(None, profile);
        assert_eq!(o.status.code(), Some(0), "{profile}: {o:?}");
        let v = json(&o);
        let e = &v["events"];
        let n = e["compared"].as_u64().expect("compared");
        assert!(n >= 400, "{profile}: {v}");
        assert_eq!(e["expected"], e["compared"], "{v}");
        assert_eq!(e["emitted"], e["compared"], "{v}");
        assert_eq!(e["within_tolerance"], e["compared"], "{v}");
        let exact = e["exact"].as_u64().expect("exact");
        assert!(
            exact < n && exact > n / 2,
            "the gates' vertices are within one: {v}"
        );
        assert_eq!(v["first_mismatch"], serde_json::Value::Null);
        assert_eq!(
            v["total"], 60,
            "5 definitions x 6 combinations x 2 projections"
        );
    }
}

#[test]
fn a_rounding_mutant_is_caught_at_its_first_static_vertex() {
    // ADD EAX, 2000h (the projection's round half up) made ADD EAX, 0.
    let m = mutant(
        "round.exe",
        &[0x66, 0x05, 0x00, 0x20, 0, 0],
        &[0x66, 0x05, 0x00, 0x00],
    );
    let o = sweep(Some(s(&m)), "replica");
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let v = json(&o);
    let f = &v["first_mismatch"];
    assert_eq!(
        f["input"], "definition 0, projection 1, cell state 00h",
        "{v}"
    );
    let out = f["output"].as_str().expect("output");
    assert!(out.starts_with("event 2 (command 31h from "), "{out}");
    assert!(out.ends_with("field y (exact)"), "{out}");
    assert_eq!((&f["expected"], &f["actual"]), (&104.into(), &105.into()));
    let e = &v["events"];
    assert!(
        e["within_tolerance"].as_u64() < e["compared"].as_u64(),
        "{v}"
    );
}

#[test]
fn a_gate_factor_mutant_is_caught_at_an_interpolated_vertex() {
    // SHR AX, 1 of the factor (uint16(param) >> 1) removed: the doors
    // open twice as far (modulo the table's values).
    let m = mutant(
        "factor.exe",
        &[0xD1, 0xE8, 0x66, 0x0F, 0xB7, 0xE8],
        &[0x90, 0x90],
    );
    let o = sweep(Some(s(&m)), "replica");
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let v = json(&o);
    let out = v["first_mismatch"]["output"].as_str().expect("output");
    assert!(out.contains("(command 38h from "), "{v}");
    assert!(out.contains("(within 1)"), "{out}");
    let input = v["first_mismatch"]["input"].as_str().expect("input");
    assert!(
        input.starts_with("definition 2,"),
        "the first gate: {input}"
    );
}

#[test]
fn event_errors_are_one_line_and_status_2() {
    let d = std::env::temp_dir().join(format!("tandem-events-bad-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("dir");
    let good =
        std::fs::read_to_string(repo().join("models/profiles/replica.toml")).expect("replica.toml");
    assert!(good.contains("emit = \"4300\"") && good.contains("tol_y = \"1\""));
    let exe = common::replica();
    let cases = [
        (
            "never.toml",
            // Inside the routine, never the start of an instruction.
            good.replace("emit = \"4300\"", "emit = \"4302\""),
            "never reached",
        ),
        (
            "tolz.toml",
            good.replace("tol_y = \"1\"", "tol_y = \"1\"\ntol_z = \"1\""),
            "tol_z",
        ),
    ];
    for (file, profile, needle) in cases {
        let p = d.join(file);
        std::fs::write(&p, profile).expect("write");
        let o = tandem(&["sweep", "--profile", s(&p), s(&exe), "--routine", "draw"]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{file}: {o:?}");
        assert_eq!(err.lines().count(), 1, "{file}: {err}");
        assert!(err.contains(needle), "{file}: {err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn call_and_trace_show_the_events_and_name_the_first_that_differs() {
    let exe = common::replica();
    // The fountain (definition 4), projection 1: twelve vertices.
    let args = |p: &str| {
        vec![
            "call".to_string(),
            "--profile".into(),
            "replica".into(),
            "--routine".into(),
            "draw".into(),
            "--reg".into(),
            "BX=4".into(),
            "--reg".into(),
            "AX=0001".into(),
            "--json".into(),
            p.to_string(),
        ]
    };
    let a = args(s(&exe));
    let o = tandem(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let v = json(&o);
    let e = &v["events"];
    assert_eq!(e["emitted"].as_array().map(Vec::len), Some(12), "{v}");
    assert_eq!((&e["expected"], &e["compared"]), (&12.into(), &12.into()));
    assert_eq!(e["emitted"][1]["command"], 0x33);
    assert_eq!(e["first_mismatch"], serde_json::Value::Null);
    // The rounding mutant: the call says where, and fails.
    let m = mutant(
        "round-call.exe",
        &[0x66, 0x05, 0x00, 0x20, 0, 0],
        &[0x66, 0x05, 0x00, 0x00],
    );
    let a = args(s(&m));
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let mut a = a.clone();
    a[6] = "BX=0";
    let o = tandem(&a);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let f = json(&o)["events"]["first_mismatch"].clone();
    assert!(
        f.as_str()
            .is_some_and(|f| f.contains("event 2 (command 31h")),
        "{f}"
    );
    // The trace of the running mutant: each event commented, the first
    // that differs said so (definition 0 in projection 1, the second call).
    let o = tandem(&[
        "trace",
        "--profile",
        "replica",
        "--routine",
        "draw",
        "--count",
        "3000",
        s(&m),
    ]);
    let out = text(&o.stdout);
    assert!(out.contains("; draw: the model expects 8 events"), "{out}");
    assert!(out.contains("; event 0: x=129 y=121 vertex=0 command=49 (agrees with the model)"));
    assert!(
        out.lines()
            .any(|l| l.starts_with("; event 2:") && l.contains("differs: event 2 (command 31h")),
        "{out}"
    );
}
