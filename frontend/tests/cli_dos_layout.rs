//! `--dos-layout`: `tandem run` hands the program MS-DOS 6.22's start-up
//! by default and DOSBox's when asked; a record carries the layout to its
//! replay and a save state keeps its own; asking for another with either
//! is refused with one line, exit 2, as is a name that is no layout.

use std::process::Output;

mod common;
use common::{dir_with, dos_rom, headless, s, state_hash, temp_dir, text};

/// startup.com's report (its stdout) under `extra` options.
fn report(extra: &[&str]) -> String {
    let (d, p) = dir_with(
        &format!("layout-{}", extra.join("-")),
        &dos_rom("startup.com"),
    );
    let o = headless(&[extra, &["--seconds", "1", s(&p)]].concat());
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let _ = std::fs::remove_dir_all(&d);
    text(&o.stdout)
}

/// One line on stderr, exit 2, naming `what`.
fn refused(o: &Output, what: &str) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(err.contains(what), "{err}");
}

#[test]
fn run_starts_the_program_as_ms_dos_6_22_or_dosbox_does() {
    let msdos = report(&[]);
    assert_eq!(msdos, report(&["--dos-layout", "msdos"]));
    assert!(msdos.starts_with("FL=F246 "), "{msdos}");
    assert!(msdos.contains("TOP=A000 PARENT=03D7"), "{msdos}");
    assert!(msdos.contains("E=PATH=C:\\DOS"), "{msdos}");
    let dosbox = report(&["--dos-layout", "dosbox"]);
    assert!(dosbox.contains("DX=0192"), "{dosbox}");
    assert!(dosbox.contains("TOP=9FFF PARENT=0118"), "{dosbox}");
    assert!(dosbox.contains("E=COMSPEC=Z:\\COMMAND.COM"), "{dosbox}");
    refused(
        &headless(&["--dos-layout", "pcdos", s(&dos_rom("startup.com"))]),
        "unknown DOS layout 'pcdos'",
    );
}

#[test]
fn a_record_replays_on_its_layout_and_a_state_keeps_its_own() {
    let d = temp_dir("layout-rec");
    let (rec, state) = (d.join("r.jsonl"), d.join("s.state"));
    let base = ["--cpu", "386", "--seconds", "2", "--state-hash"];
    let whole = headless(&[&base[..], &["--dos-layout", "dosbox", "--record", s(&rec)]].concat());
    assert_eq!(whole.status.code(), Some(124), "{whole:?}");
    let header = std::fs::read_to_string(&rec).expect("record");
    assert!(header
        .lines()
        .next()
        .unwrap_or("")
        .contains("\"dos_layout\":\"dosbox\""));
    // The replay needs no option: the record names the layout.
    let replay = headless(&[&base[..], &["--replay", s(&rec)]].concat());
    assert_eq!(
        state_hash(&text(&replay.stderr)),
        state_hash(&text(&whole.stderr))
    );
    let msdos = headless(&base);
    assert_ne!(
        state_hash(&text(&msdos.stderr)),
        state_hash(&text(&whole.stderr))
    );
    refused(
        &headless(&[&base[..], &["--dos-layout", "msdos", "--replay", s(&rec)]].concat()),
        "recorded with --dos-layout dosbox",
    );
    // A state started on DOSBox's layout resumes on it; another is refused.
    let first = headless(&[
        "--cpu",
        "386",
        "--seconds",
        "1",
        "--dos-layout",
        "dosbox",
        "--save-state",
        s(&state),
    ]);
    assert_eq!(first.status.code(), Some(124), "{first:?}");
    refused(
        &headless(&[
            "--load-state",
            s(&state),
            "--dos-layout",
            "msdos",
            "--seconds",
            "1",
        ]),
        "started with --dos-layout dosbox",
    );
    let _ = std::fs::remove_dir_all(&d);
}
