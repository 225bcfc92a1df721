//! Fuzzes the control protocol's request parsing through the binary
//! (`tandem debug --protocol stdio`): mutated JSON lines, each of which
//! must get one JSON response within the time bound, and never a crash
//! (README: "Fuzzing"; `TANDEM_FUZZ_SECS` bounds the run).

#[path = "../src/fuzz/engine.rs"]
mod engine;

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Mutex;

/// A `tandem debug --protocol stdio` of roms/dos/hello.com.
struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Server {
    fn start(cwd: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
            .args(["debug", "--cpu", "386", "--protocol", "stdio"])
            .arg(common::dos_rom("hello.com"))
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tandem runs");
        let stdin = child.stdin.take().expect("stdin");
        let out = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Server {
            child,
            stdin,
            lines,
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request line: valid UTF-8 (a line that is not ends the stream by
/// design), one line, and no path separators or JSON escapes, so that
/// whatever path a mutant names stays in the test's folder.
fn sanitize(input: &[u8]) -> String {
    String::from_utf8_lossy(input)
        .chars()
        .map(|c| match c {
            '\n' | '\r' => ' ',
            '/' | '\\' => '_',
            c => c,
        })
        .collect()
}

#[test]
fn fuzz_protocol() {
    let cwd = common::temp_dir("fuzz-proto");
    let seeds = engine::text_seeds(&[
        r#"{"id":1,"cmd":"regs"}"#,
        r#"{"id":2,"cmd":"hook","kind":"write","addr":"cs:0100","len":2}"#,
        r#"{"id":3,"cmd":"hook","kind":"exec","addr":"cs:0103"}"#,
        r#"{"id":4,"cmd":"hook","kind":"int","vector":33,"ah":9}"#,
        r#"{"id":5,"cmd":"hook","kind":"port_write","port":97}"#,
        r#"{"id":6,"cmd":"unhook","hook":0}"#,
        r#"{"id":7,"cmd":"clear_hooks"}"#,
        r#"{"id":8,"cmd":"run","cycles":2000}"#,
        r#"{"id":9,"cmd":"step","count":3}"#,
        r#"{"id":10,"cmd":"read","addr":"cs:0100","len":16}"#,
        r#"{"id":11,"cmd":"write","addr":"ds:0200","hex":"aabbcc"}"#,
        r#"{"id":12,"cmd":"set_regs","regs":{"ax":4660,"flags":2}}"#,
        r#"{"id":13,"cmd":"key","text":"y"}"#,
        r#"{"id":14,"cmd":"command","line":"bl"}"#,
        r#"{"id":15,"cmd":"command","line":"r"}"#,
        r#"{"id":16,"cmd":"command","line":"u cs:100 4"}"#,
        r#"{"id":17,"cmd":"screenshot","path":"shot.png"}"#,
        r#"{"id":18,"cmd":"save_state","path":"fuzz.state"}"#,
        r#"{"id":19,"cmd":"read","addr":4294967296,"len":1}"#,
        "not json",
    ]);
    static DICT: &[&[u8]] = &[
        b"\"cmd\":\"quit\"",
        b"18446744073709551616",
        b"4294967295",
        b"-1",
        b"1e300",
        b"null",
        b"[]",
        b"{}",
        b"\"addr\":",
        b"\"len\":",
        b"\"count\":",
        b"ss:ffff",
    ];
    let dir = cwd.clone();
    let server = Mutex::new(Server::start(&cwd));
    let n = engine::run("protocol", 0x9e07, seeds, DICT, move |input| {
        let line = sanitize(input);
        if line.trim().is_empty() {
            return;
        }
        let mut s = server.lock().unwrap_or_else(|e| e.into_inner());
        let sent = writeln!(s.stdin, "{line}").and_then(|_| s.stdin.flush());
        let resp = match (sent, s.lines.recv_timeout(engine::PER_INPUT * 2)) {
            (Ok(()), Ok(r)) => r,
            (_, Err(RecvTimeoutError::Timeout)) => panic!("no response"),
            _ => {
                // The stream ended: only a quit (exit 0) may end it.
                let status = s.child.wait().expect("tandem's status");
                assert!(status.success(), "tandem ended with {status}");
                *s = Server::start(&dir);
                return;
            }
        };
        let v: serde_json::Value = serde_json::from_str(&resp)
            .unwrap_or_else(|e| panic!("a response that is not JSON ({e}): {resp}"));
        assert!(v["ok"].is_boolean(), "a response without ok: {resp}");
    });
    let _ = std::fs::remove_dir_all(&cwd);
    assert!(n > 0);
}
