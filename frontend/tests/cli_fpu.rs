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
