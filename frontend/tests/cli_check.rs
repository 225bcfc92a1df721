//! `tandem run --check` headless: the replica checked in lock-step finds
//! no divergence; an amplitude mutant stops at its slot with a report on
//! stderr and a reproduction bundle that `tandem compare --bundle` replays
//! to the same report; damaged bundles exit 2 naming what is wrong.

use std::path::{Path, PathBuf};

mod common;
use common::{headless, s, tandem, temp_dir, text};

/// The replica with band 2's amplitude (136) made 120, in `dir`.
fn amp_mutant(dir: &Path) -> PathBuf {
    common::amp_mutant(dir, "amp.exe")
}

/// The report lines of a `--check` run's stderr (without their prefix),
/// up to the bundle's line.
pub fn report_lines(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("tandem run: check: "))
        .take_while(|l| !l.starts_with("reproduction bundle"))
        .map(str::to_string)
        .collect()
}

/// The mutant checked headless with the replica's P pressed twice between
/// its last checkpoint (frame 41) and the divergence; the bundle goes to
/// `bundle`. Returns the report lines.
fn check_mutant(dir: &Path, bundle: &Path) -> Vec<String> {
    let m = amp_mutant(dir);
    let o = headless(&[
        "--check",
        "--profile",
        "replica",
        "--checkpoint-every",
        "20",
        "--bundle-out",
        s(bundle),
        "--seconds",
        "6",
        "--press",
        "0.6:p",
        "--press",
        "0.7:p",
        s(&m),
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("1 divergence"), "{err}");
    report_lines(&err)
}

/// `tandem compare --bundle DIR`: the status, stdout lines and stderr.
fn replay(bundle: &Path) -> (Option<i32>, Vec<String>, String) {
    let o = tandem(&["compare", "--bundle", s(bundle)]);
    let out = text(&o.stdout);
    let lines = out
        .lines()
        .take_while(|l| *l != "1 divergence")
        .map(str::to_string)
        .collect();
    (o.status.code(), lines, text(&o.stderr))
}

#[test]
fn a_check_of_the_replica_finds_no_divergence() {
    let dir = temp_dir("check-clean");
    let o = common::run_command(&[
        "--headless",
        "--frames",
        "300",
        "--check",
        "--profile",
        "replica",
    ])
    .current_dir(&dir)
    .output()
    .expect("tandem runs");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(124), "{err}");
    let line = err
        .lines()
        .find(|l| l.contains("frames checked"))
        .unwrap_or_else(|| panic!("no status line: {err}"));
    let n: u64 = line
        .trim_start_matches("tandem run: check: ")
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(n >= 250, "{line}");
    assert!(line.contains(", 0 divergences; "), "{line}");
    // The drawing interpreter, call by call: every event within tolerance.
    let draw = line
        .split("; draw: ")
        .nth(1)
        .unwrap_or_else(|| panic!("{line}"));
    let nums: Vec<u64> = draw
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    let [events, calls, exact, within] = nums[..] else {
        panic!("{line}");
    };
    assert!(calls >= 2500 && events > 5 * calls, "{line}");
    assert_eq!(within, events, "{line}");
    assert!(
        exact > 0 && exact < events,
        "the gates' vertices are within one: {line}"
    );
    // No divergence, no bundle.
    let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_mutant_stops_at_its_slot_and_its_bundle_replays_to_the_same_report() {
    let dir = temp_dir("check-mutant");
    let bundle = dir.join("bundle");
    let report = check_mutant(&dir, &bundle);
    let head = report.first().expect("a report");
    // Slot 11 carries band 2's amplitude (as `compare` finds it).
    assert!(head.contains("divergence at frame 56"), "{report:#?}");
    assert!(head.ends_with("slot 11"), "{report:#?}");
    assert!(
        report
            .iter()
            // The replica's code at its load segment: PSP 04B3h (MS-DOS
            // 6.22's layout, docs/dos.md) + 10h.
            .any(|l| l.contains("last written by 04C3:DB64  sub [di+7947h],dx")),
        "{report:#?}"
    );
    let recent = report
        .iter()
        .skip_while(|l| !l.contains("the last instructions"))
        .skip(1)
        .count();
    assert_eq!(recent, 16, "{report:#?}");
    // The bundle starts at the last checkpoint (frame 41) with the keys
    // pressed after it.
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(bundle.join("bundle.json")).expect("bundle.json"))
            .expect("JSON");
    assert_eq!(manifest["checkpoint_frames"], 41, "{manifest}");
    let input = std::fs::read_to_string(bundle.join("input.jsonl")).expect("input");
    assert_eq!(input.lines().filter(|l| l.contains("\"key\"")).count(), 4);

    let (code, lines, err) = replay(&bundle);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(lines, report);
    assert!(
        err.contains("the same report as the bundle's report.json"),
        "{err}"
    );

    // Without the keys the replay runs differently: the input is used.
    let keyless: String = input
        .lines()
        .filter(|l| !l.contains("\"key\""))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(bundle.join("input.jsonl"), keyless).expect("write");
    let (_, lines, _) = replay(&bundle);
    assert_ne!(lines, report);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Copies the bundle folder `from` to `to`.
fn copy_bundle(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("bundle") {
        let e = e.expect("entry");
        std::fs::copy(e.path(), to.join(e.file_name())).expect("copy");
    }
}

#[test]
fn bad_bundles_exit_2_naming_what_is_wrong() {
    let dir = temp_dir("check-bad");
    let good = dir.join("good");
    check_mutant(&dir, &good);
    type Damage = fn(&Path);
    let cases: &[(&str, Damage, &str)] = &[
        (
            "missing",
            |b| std::fs::remove_dir_all(b).expect("rm"),
            "is not a bundle folder",
        ),
        (
            "no-state",
            |b| std::fs::remove_file(b.join("state.bin")).expect("rm"),
            "state.bin: cannot be read",
        ),
        (
            "bad-json",
            |b| std::fs::write(b.join("bundle.json"), "{").expect("w"),
            "bundle.json",
        ),
        (
            "bad-state",
            |b| std::fs::write(b.join("state.bin"), b"not a state").expect("w"),
            "state.bin",
        ),
        (
            "short-tape",
            |b| {
                let t = std::fs::read(b.join("tape.bin")).expect("tape");
                std::fs::write(b.join("tape.bin"), &t[..t.len() - 3]).expect("w")
            },
            "tape.bin",
        ),
        (
            "bad-input",
            |b| std::fs::write(b.join("input.jsonl"), "nonsense\n").expect("w"),
            "input.jsonl",
        ),
        (
            "bad-reference",
            |b| std::fs::write(b.join("reference.bin"), b"MZ").expect("w"),
            "reference.bin",
        ),
    ];
    for (name, damage, says) in cases {
        let b = dir.join(name);
        copy_bundle(&good, &b);
        damage(&b);
        let o = tandem(&["compare", "--bundle", s(&b)]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(says), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
