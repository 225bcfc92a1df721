//! `tandem run --save-state / --load-state / --state-hash`: a run split in
//! two at a save state ends in the same state as one long run, for the
//! replica and for a program with files open; damaged, truncated and
//! foreign state files exit 2 with one line.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{dir_with, dos_rom, headless, replica, s, state_hash, temp_dir, text};

#[path = "../../dos/tests/common.rs"]
mod dos_common;
use dos_common::with_open_path;

/// The hash of the run's `tandem run: state hash` line.
fn hash(o: &Output) -> String {
    let err = text(&o.stderr);
    assert!(err.contains("tandem run: state hash "), "{o:?}");
    state_hash(&err)
}

/// Runs `program` (copied into two fresh folders) for 20 s, and for 10 s
/// + a save state + 10 s from the state; returns both folders.
fn split_equals_whole(name: &str, program: &Path, cpu: &str) -> (PathBuf, PathBuf) {
    let (a, pa) = dir_with(&format!("{name}-a"), program);
    let (b, pb) = dir_with(&format!("{name}-b"), program);
    let state = b.join("S.state");
    let (pa, pb, state) = (s(&pa), s(&pb), s(&state));
    let whole = headless(&["--cpu", cpu, "--seconds", "20", "--state-hash", pa]);
    let first = headless(&["--cpu", cpu, "--seconds", "10", "--save-state", state, pb]);
    assert_eq!(first.status.code(), Some(124), "{first:?}");
    let second = headless(&["--load-state", state, "--seconds", "10", "--state-hash", pb]);
    assert_eq!(second.status.code(), Some(124), "{second:?}");
    assert_eq!(hash(&whole), hash(&second), "{whole:?}\n{second:?}");
    (a, b)
}

#[test]
fn replica_split_at_a_save_state_ends_as_one_run() {
    let (a, b) = split_equals_whole("replica", &replica(), "386");
    let _ = std::fs::remove_dir_all(a);
    let _ = std::fs::remove_dir_all(b);
}

#[test]
fn open_files_survive_a_save_state() {
    let (a, b) = split_equals_whole("files", &dos_rom("files.com"), "8086");
    let la = std::fs::read(a.join("LOG.TXT")).expect("LOG.TXT");
    let lb = std::fs::read(b.join("LOG.TXT")).expect("LOG.TXT");
    // One byte per tick: 20 s is 364 ticks.
    assert!(la.len() > 300, "{}", la.len());
    assert_eq!(la, lb);
    let _ = std::fs::remove_dir_all(a);
    let _ = std::fs::remove_dir_all(b);
}

#[test]
fn bad_state_files_exit_2_with_one_line() {
    let (d, prog) = dir_with("bad", &dos_rom("hello.com"));
    let prog = s(&prog);
    let good = d.join("good.state");
    let o = headless(&["--save-state", s(&good), prog]);
    assert_eq!(o.status.code(), Some(7), "{o:?}");
    let bytes = std::fs::read(&good).expect("state written");
    let mut damaged = bytes.clone();
    let mid = bytes.len() / 2;
    damaged[mid] ^= 0x55;
    let mut version = bytes.clone();
    version[8] = 99;
    let cases: [(&str, Vec<u8>, &str); 5] = [
        ("damaged", damaged, "checksum"),
        ("truncated", bytes[..bytes.len() - 10].to_vec(), "truncated"),
        ("header", bytes[..12].to_vec(), "truncated"),
        (
            "foreign",
            b"MZ this is not a state".to_vec(),
            "not a tandem save state",
        ),
        ("version", version, "version 99"),
    ];
    for (name, content, msg) in cases {
        let f = d.join(format!("{name}.state"));
        std::fs::write(&f, content).expect("write");
        let o = headless(&["--load-state", s(&f), prog]);
        assert_eq!(o.status.code(), Some(2), "{name}: {o:?}");
        let err = text(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.contains(msg) && err.contains(&format!("{name}.state")),
            "{name}: {err}"
        );
    }
    // A missing file.
    let missing = d.join("missing.state");
    let o = headless(&["--load-state", s(&missing), prog]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn a_state_naming_a_file_outside_the_mount_exits_2() {
    let d = temp_dir("escape");
    let mnt = d.join("mnt");
    std::fs::create_dir_all(&mnt).expect("mkdir");
    std::fs::copy(dos_rom("files.com"), mnt.join("files.com")).expect("copy");
    let outside = d.join("OUT.TXT");
    std::fs::write(&outside, b"secret").expect("write");
    let prog = mnt.join("files.com");
    let prog = s(&prog);
    let good = d.join("good.state");
    let two_seconds = ["--cpu", "8086", "--seconds", "2"];
    let o = headless(&[&two_seconds[..], &["--save-state", s(&good), prog]].concat());
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    let bytes = std::fs::read(&good).expect("state written");
    let abs = s(&outside).as_bytes().to_vec();
    for (i, attack) in [b"..\\OUT.TXT".to_vec(), b"../OUT.TXT".to_vec(), abs]
        .into_iter()
        .enumerate()
    {
        let bad = d.join(format!("bad{i}.state"));
        std::fs::write(&bad, with_open_path(&bytes, b"LOG.TXT", &attack)).expect("write");
        let o = headless(&["--load-state", s(&bad), "--seconds", "2", prog]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{o:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("cannot reopen"), "{err}");
    }
    assert_eq!(std::fs::read(&outside).expect("read"), b"secret");
    let _ = std::fs::remove_dir_all(d);
}
