//! `tandem debug --protocol stdio`: JSON lines in, JSON lines out.

use std::io::Write;
use std::process::{Command, Stdio};

mod common;
use common::{json_lines, protocol, replica, s, temp_dir};

#[test]
fn json_lines_read_write_hook_run_and_screenshot() {
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
        format!(r#"{{"id":10,"cmd":"screenshot","path":{:?}}}"#, s(&shot)),
        r#"{"id":11,"cmd":"nonsense"}"#.into(),
        "not json".into(),
        r#"{"id":12,"cmd":"command","line":"bl"}"#.into(),
        r#"{"id":13,"cmd":"quit"}"#.into(),
    ];
    let (ok, out, resp) = protocol(&replica(), &reqs);
    assert!(ok, "{out}");
    assert_eq!(resp.len(), reqs.len(), "{out}");
    // At DOSBox's first program segment, 0192h (PSP), +10h.
    assert_eq!(resp[0]["regs"]["cs"], 0x1A2, "{out}");
    assert_eq!(resp[0]["regs"]["ip"], 0x100);
    assert_eq!(resp[1]["hook"], 0);
    assert_eq!(resp[2]["stop"], "hook");
    assert_eq!(resp[2]["event"]["linear"], 0x2618);
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

/// `save_state` takes its path as the JSON
/// string (spaces and all); numbers that do not fit their field are errors,
/// never truncated.
#[test]
fn paths_are_json_strings_and_numbers_are_never_truncated() {
    let dir = temp_dir("proto-sp");
    let state = dir.join("my state file.sav");
    let reqs = [
        format!(r#"{{"id":1,"cmd":"save_state","path":{:?}}}"#, s(&state)),
        r#"{"id":2,"cmd":"read","addr":4294967296,"len":1}"#.into(),
        r#"{"id":3,"cmd":"hook","kind":"int","vector":300}"#.into(),
        r#"{"id":4,"cmd":"hook","kind":"port","port":65536}"#.into(),
        r#"{"id":5,"cmd":"set_regs","regs":{"ax":65536}}"#.into(),
        r#"{"id":6,"cmd":"hook","kind":"write","addr":4294967295,"len":2}"#.into(),
        r#"{"id":7,"cmd":"hook","kind":"int","vector":33}"#.into(),
        r#"{"id":8,"cmd":"quit"}"#.into(),
    ];
    let (_, out, resp) = protocol(&replica(), &reqs);
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

/// `tandem debug --protocol 0` on the replica, its port and token read
/// from stderr (and the token file); killed when dropped.
struct Server {
    child: std::process::Child,
    port: u16,
    token: String,
    dir: std::path::PathBuf,
}

impl Server {
    fn start(name: &str) -> Server {
        use std::io::BufRead;
        let dir = temp_dir(&format!("proto-{name}"));
        let token_file = dir.join("token");
        let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
            .args(["debug", "--cpu", "386", "--protocol", "0", "--token-file"])
            .arg(&token_file)
            .arg(replica())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tandem runs");
        let mut err = std::io::BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        err.read_line(&mut line).expect("stderr line");
        // "tandem debug: protocol on 127.0.0.1:PORT token TOKEN"
        let rest = line
            .trim()
            .strip_prefix("tandem debug: protocol on 127.0.0.1:")
            .unwrap_or_else(|| panic!("no port line: {line:?}"));
        let (port, token) = rest.split_once(" token ").expect("a token");
        let port = port.parse().expect("a port");
        let token = token.to_string();
        assert_eq!(token.len(), 32, "{line}");
        let in_file = std::fs::read_to_string(&token_file).expect("token file");
        assert_eq!(in_file.trim(), token);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&token_file)
                .expect("meta")
                .permissions()
                .mode();
            assert_eq!(
                mode & 0o077,
                0,
                "the token file is the owner's only: {mode:o}"
            );
        }
        Server {
            child,
            port,
            token,
            dir,
        }
    }

    /// Sends `data`, closes the sending side, and returns every line the
    /// server answered before it closed the connection.
    fn talk(&self, data: &str) -> Vec<serde_json::Value> {
        use std::io::Read;
        let mut c = std::net::TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        c.set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .expect("timeout");
        c.write_all(data.as_bytes()).expect("send");
        c.shutdown(std::net::Shutdown::Write).expect("shutdown");
        let mut out = String::new();
        c.read_to_string(&mut out).expect("the server closes");
        json_lines(&out)
    }

    fn hello(&self) -> String {
        format!(r#"{{"hello":"tandem","token":"{}"}}"#, self.token)
    }

    /// A screenshot request to `name` in the test's folder.
    fn shot(&self, id: u32, name: &str) -> String {
        let p = self.dir.join(name);
        format!(r#"{{"id":{id},"cmd":"screenshot","path":{:?}}}"#, s(&p))
    }

    /// Asks the server to quit and waits for it.
    fn quit(mut self) {
        let r = self.talk(&format!(
            "{}\n{{\"id\":9,\"cmd\":\"quit\"}}\n",
            self.hello()
        ));
        assert_eq!(r.len(), 2, "{r:?}");
        assert_eq!(r[1]["ok"], true, "{r:?}");
        let st = self.child.wait().expect("exits");
        assert!(st.success(), "{st:?}");
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// a web page can POST to a local port. The request
/// line is not a hello, so the connection is closed with one error and the
/// JSON commands in the body (a screenshot, a save state, a debugger
/// command that writes a breakpoint file) never run.
#[test]
fn an_http_post_carrying_commands_is_refused_and_writes_nothing() {
    let srv = Server::start("http");
    let state = srv.dir.join("posted.sav");
    let bps = srv.dir.join("posted.bps");
    let body = format!(
        "{}\n{}\n{}\n{}\n",
        srv.hello(),
        srv.shot(1, "posted.png"),
        format_args!(r#"{{"id":2,"cmd":"save_state","path":{:?}}}"#, s(&state)),
        format_args!(r#"{{"id":3,"cmd":"command","line":"bsave {}"}}"#, s(&bps)),
    );
    let post = format!(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: text/plain\r\n\
         Content-Length: {}\r\n\r\n{body}",
        srv.port,
        body.len()
    );
    let r = srv.talk(&post);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0]["ok"], false, "{r:?}");
    let shot = srv.dir.join("posted.png");
    assert!(!shot.exists());
    assert!(!state.exists());
    assert!(!bps.exists());
    // The same screenshot after a good hello does run: the test can fail.
    let ok = srv.talk(&format!("{}\n{}\n", srv.hello(), srv.shot(4, "posted.png")));
    assert_eq!(ok.len(), 2, "{ok:?}");
    assert!(shot.exists(), "{ok:?}");
    srv.quit();
}

/// A hello with a wrong or missing token is refused with one error and the
/// requests after it never run; the right token works, and a line that is
/// not a JSON object closes that connection before anything after it runs.
#[test]
fn only_the_printed_token_opens_the_port() {
    let srv = Server::start("token");
    for hello in [
        r#"{"hello":"tandem","token":"00000000000000000000000000000000"}"#.to_string(),
        r#"{"hello":"tandem"}"#.into(),
        format!(r#"{{"hello":"other","token":"{}"}}"#, srv.token),
        format!(r#"{{"hello":"tandem","token":"{}0"}}"#, srv.token),
        format!(r#"{{"id":1,"cmd":"regs","token":"{}"}}"#, srv.token),
    ] {
        let r = srv.talk(&format!("{hello}\n{}\n", srv.shot(1, "wrong.png")));
        assert_eq!(r.len(), 1, "{hello}: {r:?}");
        assert_eq!(r[0]["ok"], false, "{hello}: {r:?}");
    }
    assert!(!srv.dir.join("wrong.png").exists());
    let r = srv.talk(&format!(
        "{}\n{{\"id\":1,\"cmd\":\"regs\"}}\n{}\nGET / HTTP/1.1\n{}\n",
        srv.hello(),
        srv.shot(2, "right.png"),
        srv.shot(3, "after.png")
    ));
    assert_eq!(r.len(), 4, "{r:?}");
    assert_eq!(r[0]["ok"], true, "{r:?}");
    assert_eq!(r[0]["hello"], "tandem");
    // The replica's code segment under MS-DOS 6.22's layout (PSP 04B3h).
    assert_eq!(r[1]["regs"]["cs"], 0x4C3, "{r:?}");
    assert_eq!(r[2]["ok"], true, "{r:?}");
    assert_eq!(r[3]["ok"], false, "{r:?}");
    assert!(srv.dir.join("right.png").exists());
    assert!(!srv.dir.join("after.png").exists());
    srv.quit();
}

/// The protocol parses its own JSON (never the console's line parser): a
/// save state written under a path with spaces, quotes and non-ASCII
/// letters loads back and the run resumes exactly where it was saved; a
/// trace file under such a path gets one line per instruction.
#[test]
fn a_state_under_a_path_with_spaces_saves_loads_and_resumes() {
    let dir = temp_dir("proto-state");
    let state = dir.join("my 'saved' \"state\" é.sav");
    let trace = dir.join("my trace é.txt");
    let st = serde_json::to_string(state.to_str().expect("path")).expect("json");
    let tr = serde_json::to_string(trace.to_str().expect("path")).expect("json");
    let reqs = [
        r#"{"id":1,"cmd":"step","count":200}"#.to_string(),
        format!(r#"{{"id":2,"cmd":"save_state","path":{st}}}"#),
        r#"{"id":3,"cmd":"regs"}"#.into(),
        r#"{"id":4,"cmd":"step","count":500}"#.into(),
        format!(r#"{{"id":5,"cmd":"load_state","path":{st}}}"#),
        r#"{"id":6,"cmd":"step","count":500}"#.into(),
        format!(r#"{{"id":7,"cmd":"trace","path":{tr}}}"#),
        r#"{"id":8,"cmd":"step","count":3}"#.into(),
        r#"{"id":9,"cmd":"trace","path":null}"#.into(),
        r#"{"id":10,"cmd":"quit"}"#.into(),
    ];
    let (ok, out, resp) = protocol(&replica(), &reqs);
    assert!(ok, "{out}");
    assert_eq!(resp.len(), reqs.len(), "{out}");
    for r in &resp {
        assert_eq!(r["ok"], true, "{out}");
    }
    assert!(state.exists(), "{out}");
    assert!(!dir.join("my").exists());
    assert_eq!(resp[1]["path"], state.to_str().expect("path"));
    // Loading puts the registers back to where they were saved...
    assert_eq!(resp[4]["regs"], resp[2]["regs"], "{out}");
    assert_ne!(resp[3]["regs"], resp[2]["regs"], "{out}");
    // ... and the same steps from there end in the same place.
    assert_eq!(resp[5]["regs"], resp[3]["regs"], "{out}");
    let lines = std::fs::read_to_string(&trace).expect("the trace file");
    assert_eq!(lines.lines().count(), 3, "{lines}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every request kind the engine offers answers with its data.
#[test]
fn each_request_kind_answers() {
    let hello = common::dos_rom("hello.com");
    let dir = temp_dir("proto-kinds");
    let shot = serde_json::to_string(dir.join("a shot.png").to_str().expect("p")).expect("json");
    let reqs = [
        r#"{"id":1,"cmd":"disasm","addr":"cs:100","count":3}"#.to_string(),
        r#"{"id":2,"cmd":"hook","kind":"int","vector":33,"ah":64}"#.into(),
        r#"{"id":3,"cmd":"hooks"}"#.into(),
        r#"{"id":4,"cmd":"run","seconds":5}"#.into(),
        r#"{"id":5,"cmd":"backtrace"}"#.into(),
        r#"{"id":6,"cmd":"next"}"#.into(),
        r#"{"id":7,"cmd":"finish","cycles":100000}"#.into(),
        r#"{"id":8,"cmd":"go","addr":"cs:12B"}"#.into(),
        r#"{"id":9,"cmd":"ivt","first":32,"count":2}"#.into(),
        r#"{"id":10,"cmd":"pit"}"#.into(),
        r#"{"id":11,"cmd":"pic"}"#.into(),
        r#"{"id":12,"cmd":"vga"}"#.into(),
        format!(r#"{{"id":13,"cmd":"screenshot","path":{shot}}}"#),
        r#"{"id":14,"cmd":"unhook","hook":7}"#.into(),
        r#"{"id":15,"cmd":"clear_hooks"}"#.into(),
        r#"{"id":16,"cmd":"key","text":"ab"}"#.into(),
        r#"{"id":17,"cmd":"quit"}"#.into(),
    ];
    let (ok, out, r) = protocol(&hello, &reqs);
    assert!(ok, "{out}");
    assert_eq!(r.len(), reqs.len(), "{out}");
    let insns = r[0]["insns"].as_array().expect("insns");
    assert_eq!(insns.len(), 3, "{out}");
    assert_eq!(insns[0]["ip"], 0x100, "{out}");
    assert_eq!(r[1]["hook"], 0, "{out}");
    assert_eq!(r[2]["hooks"][0]["hook"], 0, "{out}");
    assert_eq!(r[3]["stop"], "hook", "{out}");
    assert_eq!(r[3]["event"]["kind"], "int", "{out}");
    assert!(r[4]["frames"].is_array(), "{out}");
    assert!(r[5]["stop"].is_string(), "{out}");
    assert!(r[6]["stop"].is_string(), "{out}");
    assert!(r[7]["regs"].is_object(), "{out}");
    assert_eq!(r[8]["vectors"][1]["vector"], 33, "{out}");
    assert_eq!(r[9]["channels"].as_array().map(Vec::len), Some(3), "{out}");
    assert_eq!(r[10]["pics"][0]["name"], "master", "{out}");
    assert!(r[11]["crtc"].is_string(), "{out}");
    assert!(r[12]["width"].as_u64().unwrap_or(0) > 0, "{out}");
    assert!(dir.join("a shot.png").exists(), "{out}");
    assert_eq!(r[13]["ok"], false, "{out}");
    assert_eq!(r[13]["error"], "no breakpoint #7", "{out}");
    assert_eq!(r[14]["ok"], true, "{out}");
    assert_eq!(r[15]["typed"], 2, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The time-travel requests answer as docs/debugger.md says: the same stop
/// object as `step`/`run`, the history's writes oldest first, and one
/// clear error (the session going on) for a reverse request before any
/// history, a `goto` outside it, a query past 1 MiB or of a port past FFFFh.
#[test]
fn time_travel_requests_answer_with_stops_and_writes() {
    let reqs = [
        r#"{"id":1,"cmd":"reverse_step"}"#.to_string(),
        r#"{"id":2,"cmd":"goto","cycle":99999999999}"#.into(),
        r#"{"id":3,"cmd":"history","addr":0,"len":2097152}"#.into(),
        r#"{"id":4,"cmd":"history","port":65536}"#.into(),
        r#"{"id":5,"cmd":"hook","kind":"write","addr":"cs:0BF8","len":2}"#.into(),
        r#"{"id":6,"cmd":"run"}"#.into(),
        r#"{"id":7,"cmd":"run"}"#.into(),
        r#"{"id":8,"cmd":"run"}"#.into(),
        r#"{"id":9,"cmd":"reverse_continue"}"#.into(),
        r#"{"id":10,"cmd":"reverse_step","count":1}"#.into(),
        r#"{"id":11,"cmd":"history","addr":"cs:0BF8","len":2}"#.into(),
        r#"{"id":12,"cmd":"reverse_finish"}"#.into(),
        r#"{"id":13,"cmd":"reverse_next"}"#.into(),
        r#"{"id":14,"cmd":"goto","cycle":902860}"#.into(),
        r#"{"id":15,"cmd":"history"}"#.into(),
        r#"{"id":16,"cmd":"history","port":67}"#.into(),
        r#"{"id":17,"cmd":"quit"}"#.into(),
    ];
    let (ok, out, resp) = protocol(&replica(), &reqs);
    assert!(ok, "{out}");
    assert_eq!(resp.len(), reqs.len(), "{out}");
    for (i, why) in [
        (0, "no history before"),
        (1, "outside the history"),
        (2, "at most 0x100000 bytes"),
        (3, "out of range"),
    ] {
        assert_eq!(resp[i]["ok"], false, "{out}");
        assert!(
            resp[i]["error"].as_str().is_some_and(|e| e.contains(why)),
            "{why}: {out}"
        );
    }
    // Forwards: the clock word is written 0, 6 and 13 (0Dh).
    assert_eq!(resp[7]["event"]["value"], 13, "{out}");
    // Back to the ADD that wrote 13: stopped before it, by it.
    let rc = &resp[8];
    assert_eq!(rc["stop"], "hook", "{out}");
    assert_eq!(rc["by"]["ip"], 0xB0D7);
    assert_eq!(rc["regs"]["ip"], 0xB0D7);
    assert_eq!(rc["regs"]["cycles"], 902860);
    assert_eq!(resp[9]["stop"], "step");
    assert_eq!(resp[9]["regs"]["ip"], 0xB0D2);
    // The history before here: the 0 and the 6, each with its writer.
    let w = resp[10]["writes"].as_array().expect("writes");
    assert_eq!(w.len(), 2, "{out}");
    assert_eq!(
        (&w[0]["new"], &w[1]["new"]),
        (&"0000".into(), &"0600".into())
    );
    assert_eq!(w[1]["old"], "0000");
    assert_eq!(w[0]["by"]["ip"], 0x129);
    assert_eq!(w[1]["by"]["ip"], 0xB0D7);
    assert_eq!(w[1]["by"]["kind"], "cpu");
    assert!(w[0]["cycle"].as_u64() < w[1]["cycle"].as_u64());
    // Back to the CALL of the routine, then over the routine before it.
    assert_eq!(resp[11]["regs"]["ip"], 0x157, "{out}");
    assert!(resp[11]["at"].as_str().is_some_and(|a| a.contains("call")));
    assert_eq!(resp[12]["regs"]["ip"], 0x154, "{out}");
    // Anywhere in the history: the same machine as the reverse-continue.
    assert_eq!(resp[13]["regs"], rc["regs"], "{out}");
    assert_eq!(resp[14]["start"], 0, "{out}");
    assert!(resp[14]["checkpoints"].as_u64() >= Some(1));
    assert_eq!(resp[15]["writes"][0]["by"]["kind"], "cpu", "{out}");
    assert_eq!(resp[15]["writes"][0]["new"], "36", "{out}");
}
