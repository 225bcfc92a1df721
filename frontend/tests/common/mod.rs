//! Helpers shared by the command-line tests (each test file uses some).
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `tandem debug [EXTRA] PROGRAM` with `script` piped in; its exit
/// code and its stdout followed by its stderr.
pub fn debug(program: &Path, extra: &[&str], script: &str) -> (Option<i32>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tandem"));
    cmd.arg("debug").args(extra).arg(program);
    let o = piped(cmd, script);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

/// A fresh empty folder for one test (the process id keeps test binaries
/// running at once apart).
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tandem-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `tandem run ARGS` with no stdin and no display; its output.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tandem"))
        .arg("run")
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .output()
        .expect("tandem runs")
}

/// Runs `tandem debug --cpu 386 --protocol stdio PROGRAM` with `requests`
/// piped in, one per line; whether it exited with success, its stdout,
/// and each stdout line as JSON.
pub fn protocol(program: &Path, requests: &[String]) -> (bool, String, Vec<serde_json::Value>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tandem"));
    cmd.args(["debug", "--cpu", "386", "--protocol", "stdio"])
        .arg(program);
    let o = piped(cmd, &(requests.join("\n") + "\n"));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let resp = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    (o.status.success(), out, resp)
}

/// Runs `cmd` with `input` on its stdin; its output (stdout and stderr
/// captured).
fn piped(mut cmd: Command, input: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tandem runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    child.wait_with_output().expect("finishes")
}
