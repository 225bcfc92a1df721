//! `tandem run --save-state / --load-state / --state-hash`: a run split in
//! two at a save state ends in the same state as one long run, for the
//! replica and for a program with files open; damaged, truncated and
//! foreign state files exit 2 with one line.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{run as tandem, temp_dir};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn hash(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    err.lines()
        .find_map(|l| l.strip_prefix("tandem run: state hash "))
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("no state hash in {o:?}"))
        .to_string()
}

/// Runs `program` (copied into two fresh folders) for 20 s, and for 10 s
/// + a save state + 10 s from the state; returns both folders.
fn split_equals_whole(name: &str, program: &Path, cpu: &str) -> (PathBuf, PathBuf) {
    let file = program.file_name().expect("name");
    let (a, b) = (
        temp_dir(&format!("{name}-a")),
        temp_dir(&format!("{name}-b")),
    );
    std::fs::copy(program, a.join(file)).expect("copy");
    std::fs::copy(program, b.join(file)).expect("copy");
    let (pa, pb) = (a.join(file), b.join(file));
    let (pa, pb) = (pa.to_str().expect("path"), pb.to_str().expect("path"));
    let state = b.join("S.state");
    let state = state.to_str().expect("path");
    let whole = tandem(&[
        "--headless",
        "--cpu",
        cpu,
        "--seconds",
        "20",
        "--state-hash",
        pa,
    ]);
    let first = tandem(&[
        "--headless",
        "--cpu",
        cpu,
        "--seconds",
        "10",
        "--save-state",
        state,
        pb,
    ]);
    assert_eq!(first.status.code(), Some(124), "{first:?}");
    let second = tandem(&[
        "--headless",
        "--load-state",
        state,
        "--seconds",
        "10",
        "--state-hash",
        pb,
    ]);
    assert_eq!(second.status.code(), Some(124), "{second:?}");
    assert_eq!(hash(&whole), hash(&second), "{whole:?}\n{second:?}");
    (a, b)
}

#[test]
fn replica_split_at_a_save_state_ends_as_one_run() {
    let replica = repo().join("roms/replica/replica.exe");
    let (a, b) = split_equals_whole("replica", &replica, "386");
    let _ = std::fs::remove_dir_all(a);
    let _ = std::fs::remove_dir_all(b);
}

#[test]
fn open_files_survive_a_save_state() {
    let files = repo().join("roms/dos/files.com");
    let (a, b) = split_equals_whole("files", &files, "8086");
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
    let d = temp_dir("bad");
    let hello = repo().join("roms/dos/hello.com");
    std::fs::copy(&hello, d.join("hello.com")).expect("copy");
    let prog = d.join("hello.com");
    let prog = prog.to_str().expect("path");
    let good = d.join("good.state");
    let o = tandem(&[
        "--headless",
        "--save-state",
        good.to_str().expect("path"),
        prog,
    ]);
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
        let o = tandem(&[
            "--headless",
            "--load-state",
            f.to_str().expect("path"),
            prog,
        ]);
        assert_eq!(o.status.code(), Some(2), "{name}: {o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.contains(msg) && err.contains(&format!("{name}.state")),
            "{name}: {err}"
        );
    }
    // A missing file.
    let missing = d.join("missing.state");
    let o = tandem(&[
        "--headless",
        "--load-state",
        missing.to_str().expect("path"),
        prog,
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let _ = std::fs::remove_dir_all(d);
}

/// `state` with the saved path of its open file (the string ending with
/// `marker`, after its bincode length) replaced by `path`.
fn with_open_path(state: &[u8], marker: &[u8], path: &[u8]) -> Vec<u8> {
    let raw = dos::state::unseal(state).expect("unseal");
    let (start, end) = (marker.len()..=raw.len())
        .rev()
        .filter(|&e| raw[e - marker.len()..e] == *marker)
        .find_map(|e| {
            (8..e - marker.len() + 1)
                .rev()
                .find(|&s| {
                    let len = u64::from_le_bytes(raw[s - 8..s].try_into().expect("8 bytes"));
                    len == (e - s) as u64
                })
                .map(|s| (s, e))
        })
        .expect("the open file's path is in the state");
    let mut edited = raw[..start - 8].to_vec();
    edited.extend((path.len() as u64).to_le_bytes());
    edited.extend(path);
    edited.extend(&raw[end..]);
    dos::state::seal(&edited).expect("seal")
}

#[test]
fn a_state_naming_a_file_outside_the_mount_exits_2() {
    let d = temp_dir("escape");
    let mnt = d.join("mnt");
    std::fs::create_dir_all(&mnt).expect("mkdir");
    std::fs::copy(repo().join("roms/dos/files.com"), mnt.join("files.com")).expect("copy");
    let outside = d.join("OUT.TXT");
    std::fs::write(&outside, b"secret").expect("write");
    let prog = mnt.join("files.com");
    let prog = prog.to_str().expect("path");
    let good = d.join("good.state");
    let o = tandem(&[
        "--headless",
        "--cpu",
        "8086",
        "--seconds",
        "2",
        "--save-state",
        good.to_str().expect("path"),
        prog,
    ]);
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    let bytes = std::fs::read(&good).expect("state written");
    let abs = outside.to_str().expect("path").as_bytes().to_vec();
    for (i, attack) in [b"..\\OUT.TXT".to_vec(), b"../OUT.TXT".to_vec(), abs]
        .into_iter()
        .enumerate()
    {
        let bad = d.join(format!("bad{i}.state"));
        std::fs::write(&bad, with_open_path(&bytes, b"LOG.TXT", &attack)).expect("write");
        let o = tandem(&[
            "--headless",
            "--load-state",
            bad.to_str().expect("path"),
            "--seconds",
            "2",
            prog,
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{o:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("cannot reopen"), "{err}");
    }
    assert_eq!(std::fs::read(&outside).expect("read"), b"secret");
    let _ = std::fs::remove_dir_all(d);
}
