//! Every run has a bound that holds whatever input arrives: a stdin pipe that stays open, a record that never ends
//! (/dev/zero) or ends at the last cycle, a state saved by a run without a
//! time limit. Each run must end by itself within a host-time budget.

use std::process::Stdio;
use std::time::Duration;

mod common;
use common::{dos_rom, replica, run_bounded, s, spawn_run as spawn, temp_dir, text, within};

#[test]
fn a_stdin_pipe_that_stays_open_does_not_block_the_run() {
    let spin = dos_rom("spin.com");
    let mut child = spawn(&["--headless", "--seconds", "1", s(&spin)], Stdio::piped());
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
    let exe = replica();
    let mut child = spawn(
        &["--headless", "--cpu", "386", "--seconds", "600", s(&exe)],
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
    let spin = dos_rom("spin.com");
    let o = run_bounded(
        &["--headless", "--replay", "/dev/zero", s(&spin)],
        "/dev/zero",
    );
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    // A device is refused before anything is read (issue 33: readers take
    // regular files only).
    assert!(err.contains("not a regular file"), "{err}");
}

#[test]
fn a_record_ending_at_the_last_cycle_is_refused() {
    let d = temp_dir("far");
    let spin = dos_rom("spin.com");
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
    let o = run_bounded(&["--headless", "--replay", s(&rec), s(&spin)], "far end");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert_eq!(text(&o.stderr).lines().count(), 1, "{o:?}");
    // A clock of 0 Hz is refused too (finding 11).
    std::fs::write(
        &rec,
        "{\"tandem\":\"record\",\"version\":1,\"program\":\"x\",\"cpu\":\"8086\",\"cpu_hz\":0}\n",
    )
    .expect("write");
    let o = run_bounded(&["--headless", "--replay", s(&rec), s(&spin)], "zero hz");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(text(&o.stderr).contains("cpu_hz 0"), "{o:?}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_state_saved_without_a_time_limit_resumes_with_one() {
    let d = temp_dir("nolimit");
    std::fs::copy(dos_rom("spin.com"), d.join("SPIN.COM")).expect("copy");
    let prog = d.join("SPIN.COM");
    let state = d.join("s.state");
    let (state, prog) = (s(&state), s(&prog));
    // Saved after 5 frames, then resumed for one second: both end at their
    // limit.
    for (limit, value, state_opt, what) in [
        ("--frames", "5", "--save-state", "save"),
        ("--seconds", "1", "--load-state", "resume"),
    ] {
        let o = run_bounded(&["--headless", limit, value, state_opt, state, prog], what);
        assert_eq!(o.status.code(), Some(124), "{what}: {o:?}");
    }
    let _ = std::fs::remove_dir_all(&d);
}
