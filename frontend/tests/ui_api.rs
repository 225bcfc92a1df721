//! The debugger window's server without a browser (`tandem debug --ui`,
//! `tandem run --check --ui`): the token guards every request but the
//! page's script and style, the page never touches host files, the
//! pictures and the pixel probe agree, the lock-step check in the
//! debugger stops at a mutant's divergence, and `run --check --ui` opens
//! the window at the divergence with its report, its markers and the
//! writer reachable on the timeline.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use common::{replica, s, temp_dir};

/// A running `tandem` serving the window; killed when dropped.
struct Window {
    child: Child,
    port: u16,
    token: String,
    /// stderr before the address.
    before: String,
}

impl Drop for Window {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Window {
    /// Starts `tandem ARGS` and waits (up to `wait`) for the window's
    /// address on stderr.
    fn start(args: &[&str], wait: Duration) -> Window {
        let child = Command::new(env!("CARGO_BIN_EXE_tandem"))
            .args(args)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tandem starts");
        // Killed and waited for when dropped, panics included.
        let mut w = Window {
            child,
            port: 0,
            token: String::new(),
            before: String::new(),
        };
        let err = w.child.stderr.take().expect("stderr");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let end = Instant::now() + wait;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let Ok(line) = rx.recv_timeout(left) else {
                panic!("no window address; stderr:\n{}", w.before);
            };
            if let Some(url) = line.strip_prefix("tandem debug: window on http://127.0.0.1:") {
                let (port, token) = url.split_once("/?token=").expect("port and token");
                w.port = port.parse().expect("a port");
                w.token = token.to_string();
                return w;
            }
            w.before.push_str(&line);
            w.before.push('\n');
        }
    }

    /// One HTTP request; the status and the body.
    fn http(&self, request: &str, body: &[u8]) -> (u16, Vec<u8>) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(120)))
            .expect("timeout");
        s.write_all(request.as_bytes()).expect("send");
        s.write_all(body).expect("send body");
        let mut out = Vec::new();
        s.read_to_end(&mut out).expect("answer");
        let head_end = out
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a header");
        let head = String::from_utf8_lossy(&out[..head_end]).into_owned();
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .expect("a status");
        (status, out[head_end + 4..].to_vec())
    }

    fn get(&self, path: &str) -> (u16, Vec<u8>) {
        let req = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        self.http(&req, b"")
    }

    /// `POST /api` with `token` (None: no header); the status and JSON.
    fn post_as(&self, token: Option<&str>, body: &[u8]) -> (u16, Value) {
        let auth = token.map_or(String::new(), |t| format!("X-Tandem-Token: {t}\r\n"));
        let req = format!(
            "POST /api HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        let (status, b) = self.http(&req, body);
        (status, serde_json::from_slice(&b).unwrap_or(Value::Null))
    }

    /// A request that must succeed; its answer.
    fn api(&self, v: Value) -> Value {
        let (status, r) = self.post_as(Some(&self.token.clone()), v.to_string().as_bytes());
        assert_eq!(status, 200, "{v}: {r}");
        assert_eq!(r["ok"], json!(true), "{v}: {r}");
        r
    }

    fn view(&self, extra: Value) -> Value {
        let mut q = json!({"cmd": "view"});
        if let (Some(q), Some(e)) = (q.as_object_mut(), extra.as_object()) {
            q.extend(e.clone());
        }
        self.api(q)["view"].clone()
    }

    /// Runs until the program stops (at most `secs` host seconds).
    fn run_to_stop(&self, secs: u64) -> Value {
        self.api(json!({"cmd": "run"}));
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let v = self.view(json!({}));
            if v["running"] == json!(false) {
                return v;
            }
            assert!(Instant::now() < end, "still running: {}", v["stop"]);
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Asks to quit and waits for the exit status.
    fn quit(mut self) -> Option<i32> {
        let _ = self.post_as(Some(&self.token.clone()), br#"{"cmd":"quit"}"#);
        let end = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(Some(st)) = self.child.try_wait() {
                return st.code();
            }
            assert!(Instant::now() < end, "tandem did not end after quit");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The replica with band 2's amplitude (136) made 120, in `dir`
/// (cli_check.rs's mutant).
fn amp_mutant(dir: &Path) -> PathBuf {
    common::amp_mutant(dir, "AMP.EXE")
}

fn debug_ui(program: &Path) -> Window {
    Window::start(
        &[
            "debug",
            "--ui",
            "--no-browser",
            "--profile",
            "replica",
            "--cpu",
            "386",
            s(program),
        ],
        Duration::from_secs(60),
    )
}

#[test]
fn the_page_needs_the_token_and_never_touches_host_files() {
    let dir = temp_dir("ui-token");
    let w = debug_ui(&replica());
    assert_eq!(w.get("/").0, 403, "the page without a token");
    assert_eq!(w.get("/?token=00112233445566778899aabbccddeeff").0, 403);
    let (st, page) = w.get(&format!("/?token={}", w.token));
    assert_eq!(st, 200);
    assert!(String::from_utf8_lossy(&page).contains("tandem debugger"));
    assert_eq!(w.get("/ui.js").0, 200, "the script is no secret");
    assert_eq!(w.get("/screen.png").0, 403);
    assert_eq!(w.post_as(None, br#"{"cmd":"view"}"#).0, 403);
    assert_eq!(w.post_as(Some("nope"), br#"{"cmd":"step"}"#).0, 403);
    // Host files: refused, nothing written.
    let target = dir.join("state.bin");
    for req in [
        json!({"cmd": "save_state", "path": s(&target)}),
        json!({"cmd": "screenshot", "path": s(&target)}),
        json!({"cmd": "trace", "path": s(&target)}),
        json!({"cmd": "command", "line": format!("save {}", s(&target))}),
        json!({"cmd": "command", "line": format!("bsave {}", s(&target))}),
        json!({"cmd": "load_state", "path": s(&target)}),
    ] {
        let (st, r) = w.post_as(Some(&w.token), req.to_string().as_bytes());
        assert_eq!((st, &r["ok"]), (200, &json!(false)), "{req}: {r}");
        assert!(!target.exists(), "{req} wrote {}", target.display());
    }
    let (_, r) = w.post_as(Some(&w.token), b"[1,2]");
    assert_eq!(r["ok"], json!(false));
    let big = vec![b' '; 5 << 20];
    assert_eq!(w.post_as(Some(&w.token), &big).0, 413);
    // A bad address in one view is that view's error, not the others'.
    let v = w.view(json!({"mem": "nosuchsymbol", "code": "zz:zz"}));
    assert!(v["memory"]["error"].is_string(), "{}", v["memory"]);
    assert!(v["code"]["error"].is_string(), "{}", v["code"]);
    assert!(v["code"]["lines"].as_array().is_some_and(|l| !l.is_empty()));
    assert!(v["regs"]["list"].is_array());
    // Still serving: a step moves the machine.
    let c0 = w.view(json!({}))["cycle"].as_u64().expect("cycle");
    assert_eq!(w.api(json!({"cmd": "step"}))["stop"], json!("step"));
    assert!(w.view(json!({}))["cycle"].as_u64().expect("cycle") > c0);
    assert_eq!(w.quit(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_pixel_probe_agrees_with_the_screen_and_the_planes_are_pictures() {
    let w = debug_ui(&replica());
    let r = w.api(json!({"cmd": "toggle_break", "addr": "fountain"}));
    assert!(r["added"].is_u64(), "{r}");
    let v = w.run_to_stop(120);
    assert_eq!(v["stop"]["stop"], json!("hook"), "{}", v["stop"]);
    let v = w.run_to_stop(120);
    assert_eq!(v["code"]["lines"][0]["label"], json!("fountain"));
    let (st, png) = w.get(&format!("/screen.png?token={}", w.token));
    assert_eq!(st, 200);
    let dec = png::Decoder::new(std::io::Cursor::new(png));
    let mut r = dec.read_info().expect("a PNG");
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).expect("its pixels");
    assert_eq!((info.width, info.height), (320, 200), "mode 13h");
    // Every tenth pixel of a row through the bars.
    let mut coloured = 0;
    for x in (0..320).step_by(10) {
        let y = 150;
        let p = w.api(json!({"cmd": "pixel", "x": x, "y": y}))["pixel"].clone();
        let i = (y * 320 + x) * 3;
        let rgb = json!([buf[i], buf[i + 1], buf[i + 2]]);
        assert_eq!(p["rgb"], rgb, "({x},{y}): {p}");
        let a = p["cpu_address"].as_u64().expect("a CPU address");
        assert_eq!(a, 0xA0000 + (y * 320 + x) as u64, "chain 4: {p}");
        coloured += usize::from(p["value"] != json!(0));
    }
    assert!(coloured > 0, "the bars are drawn");
    assert_eq!(
        w.api(json!({"cmd": "pixel", "x": 320, "y": 0}))["pixel"]["inside"],
        json!(false)
    );
    for n in 0..4 {
        let (st, b) = w.get(&format!("/plane.png?token={}&n={n}", w.token));
        assert_eq!(st, 200);
        assert!(b.starts_with(b"\x89PNG"), "plane {n}");
    }
    assert_eq!(w.get(&format!("/plane.png?token={}&n=4", w.token)).0, 400);
    assert_eq!(w.quit(), Some(0));
}

#[test]
fn the_live_check_stops_a_mutant_at_its_divergence() {
    let dir = temp_dir("ui-live");
    let w = debug_ui(&amp_mutant(&dir));
    let v = w.run_to_stop(300);
    assert_eq!(v["stop"]["stop"], json!("divergence"), "{}", v["stop"]);
    let g = &v["golden"];
    let status = g["status"].as_str().expect("status");
    assert!(status.contains(", 1 divergence"), "{status}");
    assert_eq!(g["report"]["slot"], json!(11), "{g}");
    assert_eq!(g["writer"].as_str().map(|w| &w[4..]), Some(":DB64"), "{g}");
    let frames = g["frames"].as_array().expect("frames");
    assert!(frames.len() > 10 && frames[0]["ok"] == json!(false), "{g}");
    assert!(frames[1..].iter().all(|f| f["ok"] == json!(true)));
    let cycle = v["cycle"].as_u64().expect("cycle");
    let marks = v["timeline"]["markers"].as_array().expect("markers");
    assert!(
        marks
            .iter()
            .any(|m| m["kind"] == json!("divergence") && m["cycle"] == json!(cycle)),
        "{marks:?}"
    );
    assert_eq!(w.quit(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_check_opens_the_window_at_its_divergence() {
    let dir = temp_dir("ui-check");
    let m = amp_mutant(&dir);
    let bundle = dir.join("bundle");
    let w = Window::start(
        &[
            "run",
            "--headless",
            "--check",
            "--profile",
            "replica",
            "--checkpoint-every",
            "20",
            "--bundle-out",
            s(&bundle),
            "--seconds",
            "6",
            "--press",
            "0.6:p",
            "--press",
            "0.7:p",
            "--ui",
            "--no-browser",
            s(&m),
        ],
        Duration::from_secs(300),
    );
    // The report's frame point cycle, as stderr gives it.
    let at = w
        .before
        .lines()
        .find_map(|l| l.split_once("(the frame point), cycle "))
        .and_then(|(_, r)| r.split(',').next())
        .and_then(|c| c.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no cycle in:\n{}", w.before));
    let v = w.view(json!({}));
    assert_eq!(
        v["cycle"].as_u64(),
        Some(at),
        "the machine stands at the divergence"
    );
    assert_eq!(v["stop"]["stop"], json!("divergence"));
    assert_eq!(v["code"]["lines"][0]["label"], json!("frame_update"));
    let g = &v["golden"];
    assert_eq!(g["report"]["cycle"].as_u64(), Some(at), "{g}");
    assert!(g["status"]
        .as_str()
        .is_some_and(|s| s.contains(", 1 divergence")));
    // The writer is in the history: going there shows its instruction.
    let wc = g["report"]["written_by"]["cycle"].as_u64().expect("writer");
    let t = &v["timeline"];
    assert!(t["start"].as_u64() < Some(wc), "{t}");
    w.api(json!({"cmd": "goto", "cycle": wc}));
    let v = w.view(json!({}));
    let current = v["code"]["lines"]
        .as_array()
        .and_then(|l| l.iter().find(|x| x["current"] == json!(true)))
        .cloned()
        .expect("a current line");
    assert_eq!(current["ip"], json!(0xDB64), "{current}");
    assert_eq!(v["cycle"].as_u64(), Some(wc));
    assert_eq!(w.quit(), Some(1), "the run's status: a divergence");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_to_a_line_a_watch_on_a_selection_and_an_edit_in_place() {
    let w = debug_ui(&replica());
    // Run to a line: stops there, and leaves no breakpoint behind.
    w.api(json!({"cmd": "run_to", "addr": "fountain+5"}));
    let end = Instant::now() + Duration::from_secs(120);
    let v = loop {
        let v = w.view(json!({}));
        if v["running"] == json!(false) {
            break v;
        }
        assert!(Instant::now() < end, "run to did not stop");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(v["regs"]["list"][8]["name"], json!("cs"));
    let cs = v["regs"]["list"][8]["value"].as_u64().expect("cs");
    let current = v["code"]["lines"]
        .as_array()
        .and_then(|l| l.iter().find(|x| x["current"] == json!(true)))
        .cloned()
        .expect("a current line");
    assert_eq!(current["ip"], json!(0xDB1F), "{current}");
    assert_eq!(v["breakpoints"], json!([]), "the run-to breakpoint is gone");
    // A watch on the clock word (two bytes selected in the memory view):
    // the next write stops the run, after the instruction that made it.
    let clock = (cs << 4) + 0x0BF8;
    let r = w.api(json!({"cmd": "watch", "linear": clock, "len": 2, "access": "w"}));
    assert!(r["added"].is_u64(), "{r}");
    let v = w.run_to_stop(120);
    assert_eq!(v["stop"]["stop"], json!("hook"), "{}", v["stop"]);
    assert_eq!(v["stop"]["event"]["kind"], json!("write"));
    let m = w.view(json!({"mem": "cs:0bf8", "mem_len": 16}))["memory"].clone();
    assert_eq!(m["watched"], json!([0, 1]), "{m}");
    assert!(
        m["changed"].as_array().is_some_and(|c| !c.is_empty()),
        "the clock changed since the last stop: {m}"
    );
    // An edit in place: the byte is written and shows as changed.
    w.api(json!({"cmd": "write", "addr": clock + 4, "hex": "5a"}));
    let m = w.view(json!({"mem": "cs:0bf8", "mem_len": 16}))["memory"].clone();
    assert_eq!(&m["hex"].as_str().expect("hex")[8..10], "5A", "{m}");
    assert!(m["changed"]
        .as_array()
        .is_some_and(|c| c.contains(&json!(4))));
    assert_eq!(w.quit(), Some(0));
}
