//! Helpers shared by the debugger's command-line tests.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `tandem debug [EXTRA] PROGRAM` with `script` piped in; its exit
/// code and its stdout followed by its stderr.
pub fn debug(program: &Path, extra: &[&str], script: &str) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .arg("debug")
        .args(extra)
        .arg(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tandem debug runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("script written");
    let o = child.wait_with_output().expect("finishes");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}
