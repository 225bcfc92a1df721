//! Every run has a bound that holds whatever input arrives (issue 19,
//! finding 6): a stdin pipe that stays open, a record that never ends
//! (/dev/zero) or ends at the last cycle, a state saved by a run without a
//! time limit. Each run must end by itself within a host-time budget.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::temp_dir;

fn roms() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../roms/dos")
}

fn spawn(args: &[&str], stdin: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tandem"))
        .arg("run")
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn")
}

/// Waits for `child` at most `budget`; kills it and fails when it runs on.
fn within(mut child: Child, budget: Duration, what: &str) -> Output {
    let t = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if t.elapsed() > budget {
            let _ = child.kill();
            let o = child.wait_with_output().expect("output");
            panic!("{what}: still running after {budget:?}: {o:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn a_stdin_pipe_that_stays_open_does_not_block_the_run() {
    let spin = roms().join("spin.com");
    let mut child = spawn(
        &["--headless", "--seconds", "1", spin.to_str().expect("path")],
        Stdio::piped(),
    );
    // Hold the pipe open (never write, never close) while the run goes.
    let pipe = child.stdin.take().expect("stdin");
    let o = within(child, Duration::from_secs(30), "open stdin");
    drop(pipe);
    assert_eq!(o.status.code(), Some(124), "{o:?}");
}

#[test]
fn keys_that_arrive_later_on_an_open_pipe_are_typed() {
    // The replica quits on Esc; the Esc comes after the run has started,
    // with the pipe still open.
    let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("../roms/replica/replica.exe");
    let mut child = spawn(
        &[
            "--headless",
            "--cpu",
            "386",
            "--seconds",
            "600",
            exe.to_str().expect("path"),
        ],
        Stdio::piped(),
    );
    let mut pipe = child.stdin.take().expect("stdin");
    std::thread::sleep(Duration::from_millis(800));
    use std::io::Write;
    pipe.write_all(b"\x1b").expect("write");
    pipe.flush().expect("flush");
    let o = within(child, Duration::from_secs(60), "late key");
    drop(pipe);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
}

#[test]
fn a_replay_of_dev_zero_is_refused_in_one_line() {
    let spin = roms().join("spin.com");
    let child = spawn(
        &[
            "--headless",
            "--replay",
            "/dev/zero",
            spin.to_str().expect("path"),
        ],
        Stdio::null(),
    );
    let o = within(child, Duration::from_secs(30), "/dev/zero");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("longer than"), "{err}");
}

#[test]
fn a_record_ending_at_the_last_cycle_is_refused() {
    let d = temp_dir("far");
    let spin = roms().join("spin.com");
    let rec = d.join("far.jsonl");
    std::fs::write(
        &rec,
        format!(
            "{{\"tandem\":\"record\",\"version\":1,\"program\":\"x\",\"cpu\":\"8086\",\"cpu_hz\":4772727}}\n\
             {{\"cycle\":{},\"end\":{{\"frames\":1}}}}\n",
            u64::MAX
        ),
    )
    .expect("write");
    let child = spawn(
        &[
            "--headless",
            "--replay",
            rec.to_str().expect("path"),
            spin.to_str().expect("path"),
        ],
        Stdio::null(),
    );
    let o = within(child, Duration::from_secs(30), "far end");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert_eq!(text(&o.stderr).lines().count(), 1, "{o:?}");
    // A clock of 0 Hz is refused too (finding 11).
    std::fs::write(
        &rec,
        "{\"tandem\":\"record\",\"version\":1,\"program\":\"x\",\"cpu\":\"8086\",\"cpu_hz\":0}\n",
    )
    .expect("write");
    let child = spawn(
        &[
            "--headless",
            "--replay",
            rec.to_str().expect("path"),
            spin.to_str().expect("path"),
        ],
        Stdio::null(),
    );
    let o = within(child, Duration::from_secs(30), "zero hz");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(text(&o.stderr).contains("cpu_hz 0"), "{o:?}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_state_saved_without_a_time_limit_resumes_with_one() {
    let d = temp_dir("nolimit");
    std::fs::copy(roms().join("spin.com"), d.join("SPIN.COM")).expect("copy");
    let prog = d.join("SPIN.COM");
    let state = d.join("s.state");
    let child = spawn(
        &[
            "--headless",
            "--frames",
            "5",
            "--save-state",
            state.to_str().expect("path"),
            prog.to_str().expect("path"),
        ],
        Stdio::null(),
    );
    let o = within(child, Duration::from_secs(30), "save");
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    let child = spawn(
        &[
            "--headless",
            "--seconds",
            "1",
            "--load-state",
            state.to_str().expect("path"),
            prog.to_str().expect("path"),
        ],
        Stdio::null(),
    );
    let o = within(child, Duration::from_secs(30), "resume");
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    let _ = std::fs::remove_dir_all(&d);
}
