//! `tandem debug --protocol stdio`: JSON lines in, JSON lines out.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

#[test]
fn json_lines_read_write_hook_run_and_screenshot() {
    let replica = Path::new(env!("CARGO_MANIFEST_DIR")).join("../roms/replica/replica.exe");
    let shot = std::env::temp_dir().join(format!("tandem-proto-{}.png", std::process::id()));
    let reqs = [
        r#"{"id":1,"cmd":"regs"}"#.to_string(),
        r#"{"id":2,"cmd":"hook","kind":"write","addr":"cs:0BF8","len":2}"#.into(),
        r#"{"id":3,"cmd":"run","seconds":10}"#.into(),
        r#"{"id":4,"cmd":"run","seconds":10}"#.into(),
        r#"{"id":5,"cmd":"read","addr":"cs:0BF8","len":2}"#.into(),
        r#"{"id":6,"cmd":"write","addr":"cs:0BF0","hex":"aabb"}"#.into(),
        r#"{"id":7,"cmd":"read","addr":"cs:0BF0","len":2}"#.into(),
        r#"{"id":8,"cmd":"set_regs","regs":{"bx":4660}}"#.into(),
        r#"{"id":9,"cmd":"step","count":2}"#.into(),
        format!(
            r#"{{"id":10,"cmd":"screenshot","path":{:?}}}"#,
            shot.to_str().expect("path")
        ),
        r#"{"id":11,"cmd":"nonsense"}"#.into(),
        "not json".into(),
        r#"{"id":12,"cmd":"command","line":"bl"}"#.into(),
        r#"{"id":13,"cmd":"quit"}"#.into(),
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(["debug", "--cpu", "386", "--protocol", "stdio"])
        .arg(&replica)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("tandem runs");
    let mut input = reqs.join("\n");
    input.push('\n');
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let o = child.wait_with_output().expect("exits");
    assert!(o.status.success(), "{o:?}");
    let out = String::from_utf8_lossy(&o.stdout);
    let resp: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(resp.len(), reqs.len(), "{out}");
    assert_eq!(resp[0]["regs"]["cs"], 0x138, "{out}");
    assert_eq!(resp[0]["regs"]["ip"], 0x100);
    assert_eq!(resp[1]["hook"], 0);
    assert_eq!(resp[2]["stop"], "hook");
    assert_eq!(resp[2]["event"]["linear"], 0x1F78);
    assert_eq!(resp[2]["by"]["ip"], 0x129);
    assert_eq!(resp[3]["stop"], "hook");
    assert_eq!(resp[3]["event"]["kind"], "write");
    assert_eq!(resp[4]["hex"], "0600", "{out}");
    assert_eq!(resp[6]["hex"], "aabb");
    assert_eq!(resp[7]["regs"]["bx"], 4660);
    assert_eq!(resp[8]["stop"], "step");
    assert_eq!(resp[9]["width"], 320);
    assert!(shot.exists());
    assert_eq!(resp[10]["ok"], false);
    assert_eq!(resp[11]["ok"], false);
    assert!(resp[12]["text"].as_str().expect("text").contains("#0"));
    assert_eq!(resp[13]["ok"], true);
    let _ = std::fs::remove_file(shot);
}

/// Issue 19, findings 10 and 11: `save_state` takes its path as the JSON
/// string (spaces and all); numbers that do not fit their field are errors,
/// never truncated.
#[test]
fn paths_are_json_strings_and_numbers_are_never_truncated() {
    let replica = Path::new(env!("CARGO_MANIFEST_DIR")).join("../roms/replica/replica.exe");
    let dir = std::env::temp_dir().join(format!("tandem-proto-sp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let state = dir.join("my state file.sav");
    let reqs = [
        format!(
            r#"{{"id":1,"cmd":"save_state","path":{:?}}}"#,
            state.to_str().expect("path")
        ),
        r#"{"id":2,"cmd":"read","addr":4294967296,"len":1}"#.into(),
        r#"{"id":3,"cmd":"hook","kind":"int","vector":300}"#.into(),
        r#"{"id":4,"cmd":"hook","kind":"port","port":65536}"#.into(),
        r#"{"id":5,"cmd":"set_regs","regs":{"ax":65536}}"#.into(),
        r#"{"id":6,"cmd":"hook","kind":"write","addr":4294967295,"len":2}"#.into(),
        r#"{"id":7,"cmd":"hook","kind":"int","vector":33}"#.into(),
        r#"{"id":8,"cmd":"quit"}"#.into(),
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(["debug", "--cpu", "386", "--protocol", "stdio"])
        .arg(&replica)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("tandem runs");
    let mut input = reqs.join("\n");
    input.push('\n');
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let o = child.wait_with_output().expect("exits");
    let out = String::from_utf8_lossy(&o.stdout);
    let resp: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(resp.len(), reqs.len(), "{out}");
    assert_eq!(resp[0]["ok"], true, "{out}");
    assert!(state.exists(), "{out}");
    assert!(!dir.join("my").exists());
    for (i, r) in resp.iter().enumerate().take(6).skip(1) {
        assert_eq!(r["ok"], false, "request {}: {out}", i + 1);
    }
    assert_eq!(resp[6]["ok"], true, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
