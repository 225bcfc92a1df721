//! Files the user names are untrusted (issue 33): a FIFO or a device
//! (`/dev/zero`) given as a WAV, a save state, a record or a bundle's part
//! is refused at once in one line (exit 2) instead of hanging or filling
//! memory; a regular file over the bound of its kind is refused by its
//! size before it is read; and a bundle never chooses drive C: of its
//! replay.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

mod common;
use common::{headless, s, temp_dir, text, within};

/// `tandem ARGS`, which must end within 20 s (a reader stuck on a FIFO or
/// on `/dev/zero` never would).
fn bounded(args: &[&str], what: &str) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tandem runs");
    within(child, Duration::from_secs(20), what)
}

fn one_line_exit_2(o: &Output, file: &Path, says: &str, what: &str) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    assert_eq!(err.lines().count(), 1, "{what}: {err}");
    assert!(err.contains(s(file)) && err.contains(says), "{what}: {err}");
}

fn fifo(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    let st = Command::new("mkfifo")
        .arg(&p)
        .status()
        .expect("mkfifo runs");
    assert!(st.success(), "mkfifo {}", p.display());
    p
}

/// The commands that read a user's file, each with that file.
fn readers(file: &Path, bundle: &Path) -> Vec<(&'static str, Vec<String>)> {
    let f = s(file).to_string();
    let spin = s(&common::dos_rom("spin.com")).to_string();
    let png = s(&bundle.join("out.png")).to_string();
    let v = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        ("spectrogram", v(&["spectrogram", &f, &png])),
        (
            "--load-state",
            v(&[
                "run",
                "--headless",
                "--seconds",
                "1",
                "--load-state",
                &f,
                &spin,
            ]),
        ),
        ("--replay", v(&["run", "--headless", "--replay", &f])),
        ("a program", v(&["run", "--headless", "--seconds", "1", &f])),
    ]
}

#[test]
fn fifos_and_devices_are_refused_at_once() {
    let d = temp_dir("untrusted-fifo");
    let pipe = fifo(&d, "pipe");
    for file in [pipe.as_path(), Path::new("/dev/zero")] {
        let says = if file == pipe {
            "is a FIFO"
        } else {
            "is a device"
        };
        for (what, args) in readers(file, &d) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = bounded(&args, what);
            one_line_exit_2(&o, file, says, what);
        }
    }
    // A bundle's part.
    let b = d.join("bundle");
    std::fs::create_dir_all(&b).expect("mkdir");
    let part = fifo(&b, "bundle.json");
    let o = bounded(&["compare", "--bundle", s(&b)], "a bundle's part");
    one_line_exit_2(&o, &part, "is a FIFO", "a bundle's part");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_oversized_file_is_refused_by_its_size() {
    let d = temp_dir("untrusted-big");
    let big = d.join("big");
    // Sparse: 8 GiB that take no disk and would take all memory.
    let f = std::fs::File::create(&big).expect("create");
    f.set_len(8 << 30).expect("sparse");
    drop(f);
    for (what, args) in readers(&big, &d) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = bounded(&args, what);
        one_line_exit_2(&o, &big, "is 8589934592 bytes, more than the", what);
    }
    let b = d.join("bundle");
    std::fs::create_dir_all(&b).expect("mkdir");
    std::fs::File::create(b.join("bundle.json"))
        .and_then(|f| f.set_len(8 << 30))
        .expect("sparse part");
    let o = bounded(&["compare", "--bundle", s(&b)], "a bundle's part");
    one_line_exit_2(
        &o,
        &b.join("bundle.json"),
        "more than the",
        "a bundle's part",
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// A check bundle of the replica with band 2's amplitude changed, in
/// `dir/bundle`, with the run's drive C: at `dir`.
fn bundle(dir: &Path) -> PathBuf {
    let m = common::amp_mutant(dir, "amp.exe");
    let out = dir.join("bundle");
    let o = headless(&[
        "--check",
        "--profile",
        "replica",
        "--checkpoint-every",
        "20",
        "--bundle-out",
        s(&out),
        "--seconds",
        "6",
        s(&m),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    out
}

/// Every file under `dir` with its bytes and modification time.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>, std::time::SystemTime)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| {
            let p = e.expect("entry").path();
            let m = std::fs::metadata(&p)
                .and_then(|m| m.modified())
                .expect("mtime");
            (p.clone(), std::fs::read(&p).unwrap_or_default(), m)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn a_bundle_never_chooses_drive_c() {
    let d = temp_dir("untrusted-bundle");
    let b = bundle(&d);
    // The bundle names a folder of the user's as its drive C:.
    let victim = d.join("victim");
    std::fs::create_dir_all(&victim).expect("mkdir");
    std::fs::write(victim.join("KEEP.TXT"), b"mine").expect("write");
    let manifest = b.join("bundle.json");
    let mut m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&manifest).expect("bundle.json")).expect("json");
    m["mount"] = serde_json::Value::String(s(&victim).into());
    std::fs::write(&manifest, m.to_string()).expect("write");
    let before = snapshot(&victim);
    let o = bounded(&["compare", "--bundle", s(&b)], "the replay");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_eq!(snapshot(&victim), before, "the bundle's mount was touched");
    // The user's --mount is drive C:, and must be a folder.
    let o = bounded(&["compare", "--bundle", s(&b), "--mount", s(&d)], "--mount");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let none = d.join("none");
    let o = bounded(
        &["compare", "--bundle", s(&b), "--mount", s(&none)],
        "--mount",
    );
    one_line_exit_2(&o, &none, "is not a folder", "--mount none");
    let _ = std::fs::remove_dir_all(&d);
}
