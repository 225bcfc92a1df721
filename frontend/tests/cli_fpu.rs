//! `--fpu`: roms/devices/fpu.com runs the classic coprocessor detection
//! and prints a few x87 results, on a 386 without and with a 387.

mod common;

use common::{headless, repo, s, text};

fn fpu_program(fpu: &str) -> String {
    let prog = repo().join("roms/devices/fpu.com");
    let o = headless(&["--cpu", "386", "--fpu", fpu, s(&prog)]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    text(&o.stdout)
}

#[test]
fn without_an_fpu_the_detection_finds_none() {
    assert_eq!(fpu_program("none"), "no FPU\n");
}

#[test]
fn with_a_387_the_detection_finds_it_and_it_computes() {
    // sqrt(2) as a double, 7/3 as a single, FLDPI stored as an integer,
    // and the status word after 1/0 (ZE, PE from before, TOP = 7).
    let want = "FPU sqrt2=3FF6A09E667F3BCD third=40155555 pi=0003 sw=3824\n";
    assert_eq!(fpu_program("387"), want);
    assert_eq!(fpu_program("auto"), want);
}

#[test]
fn an_unknown_fpu_is_bad_usage() {
    let prog = repo().join("roms/devices/fpu.com");
    let o = headless(&["--fpu", "8087", s(&prog)]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}

/// roms/devices/ferr.com on `cpu` with `--fpu 387`: its line and status.
fn ferr_program(cpu: &str) -> (String, Option<i32>) {
    let prog = repo().join("roms/devices/ferr.com");
    let o = headless(&["--cpu", cpu, "--fpu", "387", "--seconds", "2", s(&prog)]);
    (text(&o.stdout), o.status.code())
}

#[test]
fn an_unmasked_exception_reaches_int_02h_through_irq13() {
    // The status word the INT 02h handler saw: B, TOP = 6 (1/0 did not
    // pop), ES and ZE.
    for cpu in ["286", "386"] {
        assert_eq!(ferr_program(cpu), ("IRQ13 n=1 sw=B084\n".into(), Some(1)));
    }
    // The 486 in native mode (CR0.NE = 1, IRQ13 masked): #MF at the FWAIT.
    let want = "IRQ13 n=1 sw=B084 MF n=1 at=fwait\n";
    assert_eq!(ferr_program("486"), (want.into(), Some(2)));
}

#[test]
fn a_387_beside_an_8086_is_refused_for_every_command() {
    let prog = repo().join("roms/devices/fpu.com");
    let o = headless(&["--cpu", "8086", "--fpu", "387", s(&prog)]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(text(&o.stderr).contains("8087"), "{o:?}");
    let o = common::tandem(&["bench", "--cpu", "8086", "--fpu", "387", s(&prog)]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    // A 286 takes it (the 287XL).
    let detect = repo().join("roms/devices/detect.com");
    let o = headless(&["--cpu", "286", "--fpu", "387", s(&detect)]);
    assert_eq!(text(&o.stdout), "CPU 286 FPU 387\n", "{o:?}");
}

#[test]
fn records_and_save_states_keep_the_fpu() {
    let dir = common::temp_dir("fpu-record");
    let prog = repo().join("roms/devices/fpu.com");
    let rec = dir.join("rec.jsonl");
    let o = headless(&[
        "--cpu",
        "386",
        "--fpu",
        "387",
        "--record",
        s(&rec),
        s(&prog),
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let header = std::fs::read_to_string(&rec).expect("record");
    let header: serde_json::Value =
        serde_json::from_str(header.lines().next().unwrap_or("")).expect("json");
    assert_eq!(header["version"], 3);
    assert_eq!(header["fpu"], "387");
    // The replay rebuilds the 387 without being told.
    let o = headless(&["--replay", s(&rec), s(&prog)]);
    assert_eq!(text(&o.stdout), fpu_program("387"), "{o:?}");
    // Asking for another FPU is refused.
    let o = headless(&["--replay", s(&rec), "--fpu", "none", s(&prog)]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(text(&o.stderr).contains("FPU 387"), "{o:?}");
    // A version 1 record (no fpu) still replays, on the machine of its
    // day: no FPU (the default then), whatever the default is now.
    let v1 = dir.join("v1.jsonl");
    let line = r#"{"tandem":"record","version":1,"program":"x","cpu":"386","cpu_hz":33000000}"#;
    std::fs::write(&v1, format!("{line}\n")).expect("write");
    let o = headless(&["--replay", s(&v1), s(&prog)]);
    assert_eq!(text(&o.stdout), fpu_program("none"), "{o:?}");
    let o = headless(&["--replay", s(&v1), "--fpu", "387", s(&prog)]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(text(&o.stderr).contains("FPU none"), "{o:?}");
    // A save state keeps its FPU; another --fpu cannot change it.
    let spin = common::dos_rom("spin.com");
    let state = dir.join("s.tss");
    let o = headless(
        &["--cpu", "386", "--fpu", "387", "--seconds", "1"]
            .iter()
            .copied()
            .chain(["--save-state", s(&state), s(&spin)])
            .collect::<Vec<_>>(),
    );
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    let o = headless(&[
        "--load-state",
        s(&state),
        "--fpu",
        "none",
        "--seconds",
        "1",
        s(&spin),
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(text(&o.stderr).contains("FPU 387"), "{o:?}");
    let o = headless(&[
        "--load-state",
        s(&state),
        "--fpu",
        "387",
        "--seconds",
        "1",
        s(&spin),
    ]);
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
