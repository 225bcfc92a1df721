//! A minimal W3C WebDriver client for the browser tests: it drives a
//! headless Chromium through `chromedriver`, speaking HTTP/1.1 over a
//! plain `TcpStream` (one request per connection, `Connection: close`)
//! with JSON bodies.
//!
//! Every call returns `Result<_, String>` with a message naming the
//! command and the driver's error; only the helpers meant for tests
//! (`skip_without_chromium`) panic.
//!
//! ```ignore
//! let b = Browser::start(800, 600)?;
//! b.goto("http://127.0.0.1:8080/")?;
//! b.find("#go")?.click()?;
//! let shot = b.screenshot()?;
//! ```
#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The key W3C WebDriver uses for an element reference.
pub const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The largest HTTP response accepted (a screenshot is a few MB).
const MAX_RESPONSE: u64 = 64 << 20;

/// How long one HTTP exchange with the driver may take.
const HTTP_TIMEOUT: Duration = Duration::from_secs(120);

/// How long `Browser::start` waits for chromedriver to be ready.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// How long `Browser::find` waits for its element to exist.
const FIND_TIMEOUT: Duration = Duration::from_secs(10);

/// The browser binary: `$TANDEM_CHROMIUM`, else `/usr/bin/chromium`.
pub fn chromium_binary() -> PathBuf {
    match std::env::var_os("TANDEM_CHROMIUM") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => PathBuf::from("/usr/bin/chromium"),
    }
}

/// `chromedriver` as found on `PATH` (or in `/usr/bin`).
fn chromedriver_path() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([PathBuf::from("/usr/bin")])
        .map(|d| d.join("chromedriver"))
        .find(|p| p.is_file())
}

/// Whether both chromedriver and the browser binary are present.
pub fn chromedriver_installed() -> bool {
    chromedriver_path().is_some() && chromium_binary().is_file()
}

/// For a browser test's first line: `true` (after a loud note on stderr)
/// when the test should be skipped because chromedriver or Chromium is
/// missing; panics instead when `$TANDEM_REQUIRE_CHROMIUM` is set.
pub fn skip_without_chromium(test: &str) -> bool {
    if chromedriver_installed() {
        return false;
    }
    let what = format!(
        "{test}: chromedriver or {} is not installed",
        chromium_binary().display()
    );
    if std::env::var_os("TANDEM_REQUIRE_CHROMIUM").is_some() {
        panic!("{what} (and TANDEM_REQUIRE_CHROMIUM is set)");
    }
    eprintln!("*** SKIPPED {what} (set TANDEM_REQUIRE_CHROMIUM to make this fail)");
    true
}

/// Polls `cond` every 50 ms until it gives `true` (Ok), an error (that
/// error), or `timeout` passes (an error saying so).
pub fn wait_until(
    timeout: Duration,
    mut cond: impl FnMut() -> Result<bool, String>,
) -> Result<(), String> {
    let end = Instant::now() + timeout;
    loop {
        if cond()? {
            return Ok(());
        }
        if Instant::now() >= end {
            return Err(format!("condition not met within {timeout:?}"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

// ---------------------------------------------------------------- HTTP

/// One HTTP/1.1 exchange with `127.0.0.1:port`, each read or write
/// allowed `timeout`: the status code and the body.
fn http(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
    timeout: Duration,
) -> Result<(u16, Vec<u8>), String> {
    let what = || format!("{method} {path}");
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5))
        .map_err(|e| format!("{}: connecting to chromedriver: {e}", what()))?;
    s.set_read_timeout(Some(timeout))
        .and_then(|()| s.set_write_timeout(Some(timeout)))
        .map_err(|e| format!("{}: {e}", what()))?;
    let payload = body.map(|b| b.to_string()).unwrap_or_default();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nAccept: application/json\r\n");
    if body.is_some() {
        req.push_str("Content-Type: application/json; charset=utf-8\r\n");
    }
    req.push_str(&format!("Content-Length: {}\r\n\r\n", payload.len()));
    req.push_str(&payload);
    s.write_all(req.as_bytes())
        .and_then(|()| s.flush())
        .map_err(|e| format!("{}: sending: {e}", what()))?;
    // chromedriver answers `Connection: close` in kind but may keep the
    // connection open: the response ends where its length says.
    let mut raw = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = s
            .read(&mut buf)
            .map_err(|e| format!("{}: reading the response: {e}", what()))?;
        raw.extend_from_slice(&buf[..n]);
        if raw.len() as u64 > MAX_RESPONSE {
            return Err(format!("{}: response over {MAX_RESPONSE} bytes", what()));
        }
        if let Some(r) = parse_response(&raw, n == 0).map_err(|e| format!("{}: {e}", what()))? {
            return Ok(r);
        }
    }
}

/// Splits a raw HTTP/1.1 response into its status and (de-chunked,
/// length-trimmed) body; `None` while more is to come (`eof`: nothing
/// more will).
fn parse_response(raw: &[u8], eof: bool) -> Result<Option<(u16, Vec<u8>)>, String> {
    let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
        return if eof {
            Err("the response ends in its headers".into())
        } else {
            Ok(None)
        };
    };
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| "response headers not UTF-8")?;
    let body = &raw[end + 4..];
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or("");
    let status: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("bad status line {status_line:?}"))?;
    let mut length = None;
    let mut chunked = false;
    for line in lines {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
        if k == "content-length" {
            length = Some(
                v.parse::<usize>()
                    .map_err(|_| format!("bad Content-Length {v:?}"))?,
            );
        } else if k == "transfer-encoding" && v.to_ascii_lowercase().contains("chunked") {
            chunked = true;
        }
    }
    let body = if chunked {
        dechunk(body)?
    } else if let Some(n) = length {
        (body.len() >= n).then(|| body[..n].to_vec())
    } else {
        eof.then(|| body.to_vec())
    };
    match body {
        Some(b) => Ok(Some((status, b))),
        None if eof => Err("the response's body is cut short".into()),
        None => Ok(None),
    }
}

/// The payload of a chunked body (`None` while it is incomplete).
fn dechunk(mut b: &[u8]) -> Result<Option<Vec<u8>>, String> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = b.windows(2).position(|w| w == b"\r\n") else {
            return Ok(None);
        };
        let size_text = std::str::from_utf8(&b[..eol]).map_err(|_| "bad chunk size")?;
        let size_text = size_text.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| format!("bad chunk size {size_text:?}"))?;
        b = &b[eol + 2..];
        if size == 0 {
            return Ok(Some(out));
        }
        if b.len() < size + 2 {
            return Ok(None);
        }
        out.extend_from_slice(&b[..size]);
        b = &b[size + 2..];
    }
}

/// A WebDriver command: the response's `value`, or the W3C error as text.
fn command(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    command_within(port, method, path, body, HTTP_TIMEOUT)
}

/// `command` with each read or write allowed `timeout`.
fn command_within(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
    timeout: Duration,
) -> Result<Value, String> {
    let (status, raw) = http(port, method, path, body, timeout)?;
    let what = format!("{method} {path}");
    let v: Value = match serde_json::from_slice(&raw) {
        Ok(v) => v,
        Err(e) => {
            let text = String::from_utf8_lossy(&raw[..raw.len().min(300)]).into_owned();
            return Err(format!("{what}: HTTP {status}, not JSON ({e}): {text:?}"));
        }
    };
    let value = v.get("value").cloned().unwrap_or(Value::Null);
    if let Some(err) = value.get("error").and_then(Value::as_str) {
        let msg = value.get("message").and_then(Value::as_str).unwrap_or("");
        return Err(format!("{what}: {err}: {msg}"));
    }
    if !(200..300).contains(&status) {
        return Err(format!("{what}: HTTP {status}: {v}"));
    }
    Ok(value)
}

/// The W3C error code at the start of an error from `command`, if any
/// (`"no such element"`, ...).
fn is_error(e: &str, code: &str) -> bool {
    e.split(": ").nth(1) == Some(code)
}

// ------------------------------------------------------------- session

/// A WebDriver session on a chromedriver port (cheap to clone; elements
/// carry one).
#[derive(Clone, Debug)]
struct Session {
    port: u16,
    id: String,
}

impl Session {
    fn cmd(&self, method: &str, suffix: &str, body: Option<Value>) -> Result<Value, String> {
        let path = format!("/session/{}{suffix}", self.id);
        command(self.port, method, &path, body.as_ref())
    }
    fn get(&self, suffix: &str) -> Result<Value, String> {
        self.cmd("GET", suffix, None)
    }
    fn post(&self, suffix: &str, body: Value) -> Result<Value, String> {
        self.cmd("POST", suffix, Some(body))
    }
    fn element(&self, v: &Value) -> Result<Element, String> {
        let id = v
            .get(ELEMENT_KEY)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("not an element reference: {v}"))?;
        Ok(Element {
            session: self.clone(),
            id: id.to_string(),
        })
    }
}

/// A headless Chromium under its own chromedriver, with one session.
/// Dropping it ends the session, kills chromedriver and removes the
/// browser's profile directory.
pub struct Browser {
    session: Session,
    driver: Child,
    profile: PathBuf,
}

impl std::fmt::Debug for Browser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Browser")
            .field("port", &self.session.port)
            .field("session", &self.session.id)
            .finish()
    }
}

/// A free localhost port (free when asked: chromedriver takes it soon
/// after).
fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .map_err(|e| format!("finding a free port: {e}"))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("finding a free port: {e}"))
}

/// A fresh, empty directory for a browser profile.
fn fresh_profile() -> Result<PathBuf, String> {
    static COUNT: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let d = std::env::temp_dir().join(format!(
        "tandem-chromium-{}-{}-{nanos}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).map_err(|e| format!("creating {}: {e}", d.display()))?;
    Ok(d)
}

impl Browser {
    /// Starts chromedriver on a free port and a headless Chromium session
    /// whose window (and viewport) is `width` x `height`.
    pub fn start(width: u32, height: u32) -> Result<Browser, String> {
        let driver_path = chromedriver_path().ok_or("chromedriver is not installed")?;
        let binary = chromium_binary();
        if !binary.is_file() {
            return Err(format!("{} is not installed", binary.display()));
        }
        let port = free_port()?;
        let profile = fresh_profile()?;
        let driver = match Command::new(&driver_path)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(c) => c,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&profile);
                return Err(format!("starting {}: {e}", driver_path.display()));
            }
        };
        // From here on, dropping `b` cleans up (the session id is empty
        // until there is one: no DELETE is sent for it).
        let mut b = Browser {
            session: Session {
                port,
                id: String::new(),
            },
            driver,
            profile,
        };
        b.wait_ready()?;
        let caps = json!({
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": {
                        "binary": binary.to_string_lossy(),
                        "args": [
                            "--headless=new",
                            "--no-sandbox",
                            "--disable-gpu",
                            "--disable-quic",
                            "--no-first-run",
                            "--disable-background-networking",
                            "--disable-component-update",
                            "--disable-sync",
                            "--disable-dev-shm-usage",
                            format!("--user-data-dir={}", b.profile.display()),
                            format!("--window-size={width},{height}"),
                            "--force-device-scale-factor=1",
                            "--hide-scrollbars",
                        ],
                    },
                },
            },
        });
        let v = command(port, "POST", "/session", Some(&caps))?;
        b.session.id = v
            .get("sessionId")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("POST /session: no sessionId in {v}"))?
            .to_string();
        b.fit_viewport(width, height)?;
        Ok(b)
    }

    /// The viewport's size in CSS pixels (`innerWidth`, `innerHeight`).
    pub fn viewport(&self) -> Result<(u32, u32), String> {
        let v = self.execute("return [window.innerWidth, window.innerHeight];", vec![])?;
        let n = |i: usize| v.get(i).and_then(Value::as_u64).map(|n| n as u32);
        n(0).zip(n(1))
            .ok_or_else(|| format!("viewport: not two numbers: {v}"))
    }

    /// Resizes the window so that its viewport is `width` x `height`
    /// (headless Chromium's window counts some browser furniture: a
    /// `--window-size` of 640x480 leaves a smaller viewport).
    pub fn fit_viewport(&self, width: u32, height: u32) -> Result<(), String> {
        for _ in 0..3 {
            let (vw, vh) = self.viewport()?;
            if (vw, vh) == (width, height) {
                return Ok(());
            }
            let r = self.session.get("/window/rect")?;
            let f = |k: &str| r.get(k).and_then(Value::as_i64).unwrap_or(0);
            let w = f("width") + i64::from(width) - i64::from(vw);
            let h = f("height") + i64::from(height) - i64::from(vh);
            self.session
                .post("/window/rect", json!({ "width": w, "height": h }))?;
        }
        let (vw, vh) = self.viewport()?;
        if (vw, vh) != (width, height) {
            return Err(format!("the viewport is {vw}x{vh}, not {width}x{height}"));
        }
        Ok(())
    }

    /// Waits for chromedriver's `GET /status` to say it is ready.
    fn wait_ready(&mut self) -> Result<(), String> {
        let end = Instant::now() + START_TIMEOUT;
        let port = self.session.port;
        loop {
            if let Ok(Some(status)) = self.driver.try_wait() {
                return Err(format!("chromedriver exited early ({status})"));
            }
            let answer = command_within(port, "GET", "/status", None, Duration::from_secs(2));
            let last = match answer {
                Ok(v) if v.get("ready") == Some(&Value::Bool(true)) => return Ok(()),
                Ok(v) => format!("not ready: {v}"),
                Err(e) => e,
            };
            if Instant::now() >= end {
                return Err(format!(
                    "chromedriver not ready within {START_TIMEOUT:?} ({last})"
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The chromedriver port.
    pub fn port(&self) -> u16 {
        self.session.port
    }

    /// Navigates to `url` (waiting for the page to load).
    pub fn goto(&self, url: &str) -> Result<(), String> {
        self.session.post("/url", json!({ "url": url })).map(drop)
    }

    /// The current page's URL.
    pub fn url(&self) -> Result<String, String> {
        let v = self.session.get("/url")?;
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("GET /url: not a string: {v}"))
    }

    /// The current page's title.
    pub fn title(&self) -> Result<String, String> {
        let v = self.session.get("/title")?;
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("GET /title: not a string: {v}"))
    }

    /// The first element matching the CSS selector, waiting up to 10 s
    /// for one to exist.
    pub fn find(&self, css: &str) -> Result<Element, String> {
        self.find_within(css, FIND_TIMEOUT)
    }

    /// The first element matching the CSS selector, waiting up to
    /// `timeout` for one to exist.
    pub fn find_within(&self, css: &str, timeout: Duration) -> Result<Element, String> {
        let end = Instant::now() + timeout;
        let body = json!({ "using": "css selector", "value": css });
        loop {
            match self.session.post("/element", body.clone()) {
                Ok(v) => return self.session.element(&v),
                Err(e) if is_error(&e, "no such element") => {
                    if Instant::now() >= end {
                        return Err(format!("no element matches {css:?} after {timeout:?}"));
                    }
                }
                Err(e) => return Err(e),
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// All elements matching the CSS selector now (perhaps none).
    pub fn find_all(&self, css: &str) -> Result<Vec<Element>, String> {
        let v = self.session.post(
            "/elements",
            json!({ "using": "css selector", "value": css }),
        )?;
        let list = v
            .as_array()
            .ok_or_else(|| format!("POST /elements: not a list: {v}"))?;
        list.iter().map(|e| self.session.element(e)).collect()
    }

    /// Runs `script` (a function body: `arguments[i]` are `args`,
    /// `return` gives the result) synchronously in the page.
    pub fn execute(&self, script: &str, args: Vec<Value>) -> Result<Value, String> {
        self.session
            .post("/execute/sync", json!({ "script": script, "args": args }))
    }

    /// Runs `script` asynchronously: it must call `arguments[args.len()]`
    /// (the callback) with its result.
    pub fn execute_async(&self, script: &str, args: Vec<Value>) -> Result<Value, String> {
        self.session
            .post("/execute/async", json!({ "script": script, "args": args }))
    }

    /// An element returned by `execute` (its JSON reference) as an
    /// `Element`.
    pub fn element_from(&self, v: &Value) -> Result<Element, String> {
        self.session.element(v)
    }

    /// The viewport as a decoded image.
    pub fn screenshot(&self) -> Result<Screenshot, String> {
        let v = self.session.get("/screenshot")?;
        let b64 = v.as_str().ok_or("GET /screenshot: not a string")?;
        let png = base64_decode(b64).map_err(|e| format!("GET /screenshot: {e}"))?;
        Screenshot::from_png(&png).map_err(|e| format!("GET /screenshot: {e}"))
    }

    /// Performs `actions` (the W3C `actions` list) and releases them.
    pub fn perform(&self, actions: Value) -> Result<(), String> {
        let done = self.session.post("/actions", json!({ "actions": actions }));
        let released = self.session.cmd("DELETE", "/actions", None);
        done.and(released).map(drop)
    }

    /// Drags with the mouse across `el` horizontally: presses at
    /// `from_x_offset` pixels from its centre (vertically centred), moves
    /// over 100 ms to `to_x_offset`, releases.
    pub fn drag(&self, el: &Element, from_x_offset: f64, to_x_offset: f64) -> Result<(), String> {
        let origin = el.as_arg();
        self.perform(json!([{
            "type": "pointer",
            "id": "mouse",
            "parameters": { "pointerType": "mouse" },
            "actions": [
                { "type": "pointerMove", "duration": 0, "origin": origin,
                  "x": from_x_offset.round() as i64, "y": 0 },
                { "type": "pointerDown", "button": 0 },
                { "type": "pointerMove", "duration": 100, "origin": origin,
                  "x": to_x_offset.round() as i64, "y": 0 },
                { "type": "pointerUp", "button": 0 },
            ],
        }]))
    }

    /// Clicks with the mouse at (`x_offset`, `y_offset`) pixels from
    /// `el`'s centre.
    pub fn click_at(&self, el: &Element, x_offset: f64, y_offset: f64) -> Result<(), String> {
        self.perform(json!([{
            "type": "pointer",
            "id": "mouse",
            "parameters": { "pointerType": "mouse" },
            "actions": [
                { "type": "pointerMove", "duration": 0, "origin": el.as_arg(),
                  "x": x_offset.round() as i64, "y": y_offset.round() as i64 },
                { "type": "pointerDown", "button": 0 },
                { "type": "pointerUp", "button": 0 },
            ],
        }]))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.id.is_empty() {
            let path = format!("/session/{}", self.session.id);
            let timeout = Duration::from_secs(20);
            let _ = command_within(self.session.port, "DELETE", &path, None, timeout);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        // Chromium may still be letting go of its profile for a moment.
        for _ in 0..20 {
            if std::fs::remove_dir_all(&self.profile).is_ok() || !self.profile.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

// ------------------------------------------------------------- element

/// An element of the page (a WebDriver reference; stale once the page
/// changes it away).
#[derive(Clone, Debug)]
pub struct Element {
    session: Session,
    id: String,
}

impl Element {
    /// The WebDriver element id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The reference as a script argument or action origin:
    /// `{"element-6066-11e4-a52e-4f735466cecf": id}`.
    pub fn as_arg(&self) -> Value {
        json!({ ELEMENT_KEY: self.id })
    }

    fn suffix(&self, rest: &str) -> String {
        format!("/element/{}{rest}", self.id)
    }

    /// Clicks its centre (scrolling it into view).
    pub fn click(&self) -> Result<(), String> {
        self.session
            .post(&self.suffix("/click"), json!({}))
            .map(drop)
    }

    /// Its rendered text.
    pub fn text(&self) -> Result<String, String> {
        let v = self.session.get(&self.suffix("/text"))?;
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("element text: not a string: {v}"))
    }

    /// An HTML attribute (`None` when absent).
    pub fn attr(&self, name: &str) -> Result<Option<String>, String> {
        let v = self
            .session
            .get(&self.suffix(&format!("/attribute/{name}")))?;
        Ok(match v {
            Value::Null => None,
            Value::String(s) => Some(s),
            other => Some(other.to_string()),
        })
    }

    /// A DOM property (`value`, `checked`, ...) as JSON.
    pub fn property(&self, name: &str) -> Result<Value, String> {
        self.session.get(&self.suffix(&format!("/property/{name}")))
    }

    /// Its bounding rectangle in CSS pixels relative to the document:
    /// (x, y, width, height).
    pub fn rect(&self) -> Result<(f64, f64, f64, f64), String> {
        let v = self.session.get(&self.suffix("/rect"))?;
        let f = |k: &str| {
            v.get(k)
                .and_then(Value::as_f64)
                .ok_or_else(|| format!("element rect: no {k} in {v}"))
        };
        Ok((f("x")?, f("y")?, f("width")?, f("height")?))
    }

    /// Types `text` into it (focusing it first).
    pub fn send_keys(&self, text: &str) -> Result<(), String> {
        self.session
            .post(&self.suffix("/value"), json!({ "text": text }))
            .map(drop)
    }

    /// Empties an editable element.
    pub fn clear(&self) -> Result<(), String> {
        self.session
            .post(&self.suffix("/clear"), json!({}))
            .map(drop)
    }

    /// Whether it is displayed.
    pub fn displayed(&self) -> Result<bool, String> {
        let v = self.session.get(&self.suffix("/displayed"))?;
        v.as_bool()
            .ok_or_else(|| format!("element displayed: not a boolean: {v}"))
    }

    /// The first descendant matching the CSS selector (no waiting).
    pub fn find(&self, css: &str) -> Result<Element, String> {
        let v = self.session.post(
            &self.suffix("/element"),
            json!({ "using": "css selector", "value": css }),
        )?;
        self.session.element(&v)
    }
}

// ---------------------------------------------------------- screenshot

/// A decoded screenshot: `rgba` holds `width * height` RGBA8 pixels,
/// row by row from the top.
#[derive(Clone, Debug)]
pub struct Screenshot {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl Screenshot {
    /// Decodes a PNG of any colour type and depth into RGBA8.
    pub fn from_png(data: &[u8]) -> Result<Screenshot, String> {
        let mut dec = png::Decoder::new(data);
        dec.set_transformations(png::Transformations::normalize_to_color8());
        let mut reader = dec.read_info().map_err(|e| format!("PNG: {e}"))?;
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader
            .next_frame(&mut buf)
            .map_err(|e| format!("PNG: {e}"))?;
        if info.bit_depth != png::BitDepth::Eight {
            return Err(format!(
                "PNG: unexpected depth {:?} after normalising",
                info.bit_depth
            ));
        }
        let (w, h) = (info.width as usize, info.height as usize);
        let channels = match info.color_type {
            png::ColorType::Grayscale => 1,
            png::ColorType::GrayscaleAlpha => 2,
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            other => {
                return Err(format!(
                    "PNG: unexpected colour type {other:?} after normalising"
                ))
            }
        };
        let mut rgba = Vec::with_capacity(w * h * 4);
        for row in buf.chunks(info.line_size).take(h) {
            for px in row[..w * channels].chunks_exact(channels) {
                rgba.extend_from_slice(&match *px {
                    [g] => [g, g, g, 255],
                    [g, a] => [g, g, g, a],
                    [r, g, b] => [r, g, b, 255],
                    [r, g, b, a] => [r, g, b, a],
                    _ => unreachable!("1 to 4 channels"),
                });
            }
        }
        if rgba.len() != w * h * 4 {
            return Err("PNG: image data cut short".into());
        }
        Ok(Screenshot {
            width: info.width,
            height: info.height,
            rgba,
        })
    }

    /// The RGBA of pixel (`x`, `y`); transparent black outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        if x >= self.width || y >= self.height {
            return [0; 4];
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }

    /// Writes it as an RGBA PNG (for looking at a failure).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let what = |e: &dyn std::fmt::Display| format!("saving {}: {e}", path.display());
        let file = std::fs::File::create(path).map_err(|e| what(&e))?;
        let mut enc = png::Encoder::new(std::io::BufWriter::new(file), self.width, self.height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(|e| what(&e))?;
        w.write_image_data(&self.rgba).map_err(|e| what(&e))?;
        w.finish().map_err(|e| what(&e))
    }
}

/// Decodes standard base64 (padding optional, whitespace ignored).
pub fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    fn sextet(c: u8) -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    let mut padding = false;
    for (i, c) in text.bytes().enumerate() {
        if c.is_ascii_whitespace() {
            continue;
        }
        if c == b'=' {
            padding = true;
            continue;
        }
        if padding {
            return Err(format!("base64: data after padding at byte {i}"));
        }
        let v = sextet(c).ok_or_else(|| format!("base64: bad byte {c:#04x} at {i}"))?;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if bits >= 6 {
        return Err("base64: truncated (a lone final character)".into());
    }
    Ok(out)
}
