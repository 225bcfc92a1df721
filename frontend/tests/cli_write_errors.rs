//! Every output tandem writes reports a failed write (issue 33, finding
//! 6): `/dev/full` takes the open and refuses every byte, so a writer that
//! drops its errors (a `BufWriter` dropped unflushed, a logged error)
//! would claim a file it never wrote. The command line exits 2 naming the
//! file; the protocol answers an error.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

mod common;
use common::{dos_rom, s, text, within};

const FULL: &str = "/dev/full";

/// `tandem run --headless ARGS spin.com` with no display, within 60 s.
fn run_spin(args: &[&str], what: &str) -> std::process::Output {
    let spin = dos_rom("spin.com");
    let all = [&["--headless"], args, &[s(&spin)]].concat();
    within(
        common::spawn_run(&all, Stdio::null()),
        Duration::from_secs(60),
        what,
    )
}

fn exits_2_naming_full(o: &std::process::Output, what: &str) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    assert!(
        err.lines()
            .any(|l| l.contains("error") && l.contains(FULL) && l.contains("No space")),
        "{what}: {err}"
    );
}

fn have_full() -> bool {
    Path::new(FULL).exists()
}

#[test]
fn run_outputs_to_a_full_device_exit_2() {
    if !have_full() {
        return;
    }
    for (opt, secs) in [
        ("--screenshot", "0.2"),
        ("--record", "0.2"),
        ("--wav", "1"),
        ("--save-state", "0.2"),
        ("--video", "0.5"),
    ] {
        let o = run_spin(&["--seconds", secs, opt, FULL], opt);
        exits_2_naming_full(&o, opt);
    }
}

#[test]
fn spectrogram_to_a_full_device_exits_2() {
    if !have_full() {
        return;
    }
    let d = common::temp_dir("write-errors-spec");
    let wav = d.join("a.wav");
    let o = run_spin(&["--seconds", "1", "--wav", s(&wav)], "the WAV");
    assert_eq!(o.status.code(), Some(124), "{}", text(&o.stderr));
    let o = common::tandem(&["spectrogram", s(&wav), FULL]);
    exits_2_naming_full(&o, "spectrogram");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_trace_to_a_full_device_exits_2_naming_it() {
    if !have_full() {
        return;
    }
    let hello = dos_rom("hello.com");
    let o = common::tandem(&["trace", "--count", "5", "--out", FULL, s(&hello)]);
    exits_2_naming_full(&o, "trace --out");
}

#[test]
fn the_program_s_text_to_a_full_stdout_exits_2() {
    if !have_full() {
        return;
    }
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open(FULL)
        .expect("/dev/full opens");
    let child = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(["run", "--headless"])
        .arg(dos_rom("hello.com"))
        .env_remove("DISPLAY")
        .stdin(Stdio::null())
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .spawn()
        .expect("tandem runs");
    let o = within(child, Duration::from_secs(60), "hello.com to /dev/full");
    let err = text(&o.stderr);
    // hello.com exits with 7 when its text was written.
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("stdout") && err.contains("No space"), "{err}");
}

/// The protocol's answers to `requests` on spin.com (stdin closed after
/// them), within 60 s; and the exit status.
fn protocol(requests: &[&str]) -> (Option<i32>, Vec<serde_json::Value>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tandem"));
    cmd.args(["debug", "--cpu", "386", "--protocol", "stdio"])
        .arg(dos_rom("spin.com"));
    let mut child = common::spawn_piped(&mut cmd);
    let mut input = requests.join("\n");
    input.push('\n');
    use std::io::Write;
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("requests");
    drop(stdin);
    let o = within(child, Duration::from_secs(60), "the protocol");
    let out = text(&o.stdout);
    (o.status.code(), common::json_lines(&out), text(&o.stderr))
}

#[test]
fn protocol_screenshot_save_state_and_trace_to_a_full_device_answer_errors() {
    if !have_full() {
        return;
    }
    let (_, r, _) = protocol(&[
        r#"{"id":1,"cmd":"screenshot","path":"/dev/full"}"#,
        r#"{"id":2,"cmd":"save_state","path":"/dev/full"}"#,
        r#"{"id":3,"cmd":"trace","path":"/dev/full"}"#,
        r#"{"id":4,"cmd":"step","count":5000}"#,
        r#"{"id":5,"cmd":"quit"}"#,
    ]);
    assert_eq!(r.len(), 5, "{r:?}");
    for (i, what) in [(0, "screenshot"), (1, "save_state"), (3, "the traced step")] {
        assert_eq!(r[i]["ok"], false, "{what}: {}", r[i]);
        let e = r[i]["error"].as_str().unwrap_or_default();
        assert!(e.contains(FULL), "{what}: {e}");
    }
    assert_eq!(r[2]["ok"], true, "the trace starts: {}", r[2]);
    assert_eq!(r[4]["ok"], true, "then the trace is off: {}", r[4]);
}

#[test]
fn a_trace_left_on_at_the_end_that_cannot_be_written_exits_2() {
    if !have_full() {
        return;
    }
    // A short trace sits in the writer's buffer until the end.
    let (code, r, err) = protocol(&[
        r#"{"id":1,"cmd":"trace","path":"/dev/full"}"#,
        r#"{"id":2,"cmd":"step","count":3}"#,
    ]);
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!(r[1]["ok"], true, "{}", r[1]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(FULL), "{err}");
}

#[test]
fn console_shot_to_a_full_device_says_error() {
    if !have_full() {
        return;
    }
    let (_, out) = common::debug(&dos_rom("spin.com"), &[], "shot /dev/full\nq\n");
    assert!(
        out.lines().any(|l| l.contains("error") && l.contains(FULL)),
        "{out}"
    );
}
