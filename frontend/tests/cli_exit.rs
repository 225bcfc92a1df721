//! Every documented exit status: the table `--help` prints is the one the
//! README and docs/architecture.md state, and each code comes out of the
//! situation it documents.

mod common;

use std::path::PathBuf;

use common::{headless, repo, s, tandem, text};

/// The codes of the exit status table `tandem --help` prints (rows
/// `  CODE  MEANING` after its "Exit status" line).
fn help_codes(text: &str) -> Vec<u8> {
    let start = text
        .find("Exit status")
        .unwrap_or_else(|| panic!("no 'Exit status' table in:\n{text}"));
    text[start..]
        .lines()
        .skip(1)
        .map_while(|l| l.split_whitespace().next()?.parse::<u8>().ok())
        .collect()
}

/// The codes of a Markdown table headed `| status | meaning |` in `text`
/// (rows whose first cell is a number).
fn doc_codes(text: &str) -> Vec<u8> {
    let start = text
        .find("| status | meaning |")
        .unwrap_or_else(|| panic!("no '| status | meaning |' table"));
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| {
            l.trim_matches('|')
                .split('|')
                .next()?
                .trim()
                .parse::<u8>()
                .ok()
        })
        .collect()
}

#[test]
fn help_readme_and_architecture_state_the_same_codes() {
    let help = text(&tandem(&["--help"]).stdout);
    let codes = help_codes(&help);
    assert_eq!(codes, [0, 1, 2, 124, 126], "{help}");
    for cmd in [
        "run",
        "call",
        "sweep",
        "compare",
        "trace",
        "corpus",
        "bench",
        "debug",
        "sst",
        "spectrogram",
    ] {
        let h = text(&tandem(&[cmd, "--help"]).stdout);
        assert!(
            h.contains(&help[help.find("Exit status").expect("table")..]),
            "tandem {cmd} --help:\n{h}"
        );
    }
    for doc in ["README.md", "docs/architecture.md"] {
        let text = std::fs::read_to_string(repo().join(doc)).expect(doc);
        assert_eq!(doc_codes(&text), codes, "{doc}'s exit status table");
    }
}

/// A .COM of `code` in a fresh folder.
fn com(name: &str, code: &[u8]) -> PathBuf {
    let d = common::temp_dir(name);
    let p = d.join("T.COM");
    std::fs::write(&p, code).expect("program written");
    p
}

#[test]
fn each_code_comes_from_its_situation() {
    // The program's own code: mov ax,4C07h; int 21h.
    let p = com("exit-own", &[0xB8, 0x07, 0x4C, 0xCD, 0x21]);
    let o = headless(&[s(&p)]);
    assert_eq!(o.status.code(), Some(7), "{o:?}");
    // 0: success (a trace that writes its lines).
    let o = tandem(&["trace", "--count", "1", s(&p)]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    // 1: a check failed: a_failed_check_exits_1.
    // 2: bad input.
    let o = headless(&["/nonexistent/X.EXE"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let o = tandem(&["run", "--no-such-option"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    // 124: the run ended first (jmp $ until the time limit).
    let p = com("exit-limit", &[0xEB, 0xFE]);
    let o = headless(&["--seconds", "0.1", s(&p)]);
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    // 126: the emulation cannot go on (cli; hlt).
    let p = com("exit-halt", &[0xFA, 0xF4]);
    let o = headless(&[s(&p)]);
    assert_eq!(o.status.code(), Some(126), "{o:?}");
}

#[test]
fn a_failed_check_exits_1() {
    // The fountain sweep of a replica with one amplitude byte changed
    // (code offset DB6Ah + 4, past the 32-byte header).
    let mut image = std::fs::read(repo().join("roms/replica/replica.exe")).expect("replica");
    image[0x20 + 0xDB6A + 4] = 86;
    let d = common::temp_dir("exit-check");
    let p = d.join("MUTANT.EXE");
    std::fs::write(&p, &image).expect("mutant written");
    let args = ["sweep", "--profile", "replica", "--routine", "fountain"];
    let o = tandem(&args);
    assert_eq!(o.status.code(), Some(0), "the pristine replica: {o:?}");
    let o = tandem(&[&args[..], &[s(&p)]].concat());
    assert_eq!(o.status.code(), Some(1), "{o:?}");
}
