//! The control protocol: JSON lines over stdin/stdout or a local TCP port
//! (docs/debugger.md, tools/tandem_client.py). One request per line, one
//! response per line with the request's `id`:
//!
//! `{"id":1,"cmd":"regs"}` -> `{"id":1,"ok":true,"regs":{...}}`; errors
//! are `{"id":1,"ok":false,"error":"..."}`.
//!
//! A TCP port is reachable by anything on the host, web pages included (a
//! browser may POST to `127.0.0.1`), so a connection must first prove it
//! may talk: its first line is `{"hello":"tandem","token":"..."}` with the
//! token printed at start. Any line that is not one JSON object then closes
//! the connection at once, so nothing found later in, say, an HTTP request
//! ever runs. stdin is the user's own and needs neither.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

pub(crate) mod reply;
pub(crate) mod request;

use super::command::Reply;
use super::console;
use super::engine::Debugger;
use super::error::{Error, Result};
use crate::app::error::input_error;
use request::Request;

/// The longest request line: a `write` of 1 MiB is 2 MiB of hex.
const MAX_LINE: usize = 16 << 20;
/// The longest hello line; the hello is small.
const MAX_HELLO: usize = 4096;
/// How long a new connection has to say hello before it is dropped, so a
/// silent client cannot hold the (single-client) port.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// Random bytes in a token (128 bits).
const TOKEN_BYTES: usize = 16;

/// Serves the protocol on `stdio` or the local TCP port `how`; for a port,
/// the token is also written to `token_file` when given.
pub fn serve(mut s: Debugger, how: &str, token_file: Option<&Path>) -> ExitCode {
    if how == "stdio" {
        if token_file.is_some() {
            return input_error(
                "debug",
                "--token-file is for --protocol PORT (stdio needs none)",
            );
        }
        let stdin = std::io::stdin();
        let mut out = std::io::stdout();
        serve_stream(&mut s, stdin.lock(), &mut out, false);
        return end(&mut s);
    }
    let Ok(port) = how.parse::<u16>() else {
        return input_error(
            "debug",
            format!("--protocol {how}: expected stdio or a TCP port"),
        );
    };
    let token = match new_token() {
        Ok(t) => t,
        Err(e) => {
            return input_error("debug", format!("no random token: {e}"));
        }
    };
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(l) => l,
        Err(e) => {
            return input_error("debug", format!("port {port}: {e}"));
        }
    };
    if let Some(f) = token_file {
        if let Err(e) = write_token_file(f, &token) {
            return input_error("debug", Error::io(f, e));
        }
    }
    eprintln!(
        "tandem debug: protocol on 127.0.0.1:{} token {token}",
        listener.local_addr().map(|a| a.port()).unwrap_or(port)
    );
    for conn in listener.incoming() {
        let Ok(conn) = conn else { continue };
        if serve_conn(&mut s, conn, &token) {
            break;
        }
    }
    end(&mut s)
}

/// The end of a session: a trace still on is written whole, or its
/// failure said (exit status 2).
fn end(s: &mut Debugger) -> ExitCode {
    match s.set_trace(None) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::app::error::report("debug", &e.into()),
    }
}

/// 128 random bits from the host as 32 hex digits. The token guards the
/// port and is no part of the emulation, so host randomness is right here.
pub(crate) fn new_token() -> std::io::Result<String> {
    let mut b = [0u8; TOKEN_BYTES];
    match std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut b)) {
        Ok(()) => {}
        Err(_) => {
            // No /dev/urandom (Windows): std seeds each `RandomState` from
            // the OS generator.
            use std::hash::{BuildHasher, Hasher};
            for (i, chunk) in b.chunks_mut(8).enumerate() {
                let mut h = std::collections::hash_map::RandomState::new().build_hasher();
                h.write_usize(i);
                chunk.copy_from_slice(&h.finish().to_le_bytes()[..chunk.len()]);
            }
        }
    }
    if b.iter().all(|&x| x == 0) {
        return Err(std::io::Error::other("the host gave only zeros"));
    }
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// Writes the token (one line) readable by the owner only.
pub(crate) fn write_token_file(path: &Path, token: &str) -> std::io::Result<()> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    let mut f = o.open(path)?;
    writeln!(f, "{token}")
}

/// True when `a` and `b` are equal, in a time that does not depend on
/// where they differ.
pub(crate) fn same_token(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// One TCP client: the hello, then requests; true when it asked to quit.
fn serve_conn(s: &mut Debugger, conn: TcpStream, token: &str) -> bool {
    let Ok(read) = conn.try_clone() else {
        return false;
    };
    let mut w = conn;
    // One deadline from the accept for the whole hello, however its bytes
    // trickle in (a read timeout alone restarts with each byte).
    let mut r = BufReader::new(Deadline {
        conn: read,
        until: Some(Instant::now() + HELLO_TIMEOUT),
    });
    let refuse = |w: &mut TcpStream, why: &str| {
        let _ = writeln!(w, "{}", json!({"id": null, "ok": false, "error": why}));
        let _ = w.flush();
        let _ = w.shutdown(std::net::Shutdown::Both);
    };
    let hello = match read_line(&mut r, MAX_HELLO) {
        Ok(Some(l)) => l,
        Ok(None) => return false,
        Err(e) => {
            refuse(&mut w, &format!("no hello: {e}; connection closed"));
            return false;
        }
    };
    let req = match parse_request(&hello) {
        Ok(v) => v,
        Err(e) => {
            refuse(&mut w, &format!("{e}; expected {{\"hello\":\"tandem\",\"token\":\"...\"}} first; connection closed"));
            return false;
        }
    };
    let ok_hello = req.get("hello").and_then(Value::as_str) == Some("tandem");
    let tok = req.get("token").and_then(Value::as_str).unwrap_or("");
    if !ok_hello || !same_token(tok.as_bytes(), token.as_bytes()) {
        refuse(&mut w, "the first line must be {\"hello\":\"tandem\",\"token\":TOKEN} with the token printed at start; connection closed");
        return false;
    }
    let id = req.get("id").cloned().unwrap_or(Value::Null);
    let ack = json!({"id": id, "ok": true, "hello": "tandem"});
    if writeln!(w, "{ack}").and_then(|_| w.flush()).is_err() {
        return false;
    }
    r.get_mut().until = None;
    let _ = r.get_ref().conn.set_read_timeout(None);
    serve_stream(s, r, &mut w, true)
}

/// A connection read until an absolute time (None: without one).
struct Deadline {
    conn: TcpStream,
    until: Option<Instant>,
}

impl Read for Deadline {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(until) = self.until {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("no whole hello line within {HELLO_TIMEOUT:?}"),
                ));
            }
            self.conn.set_read_timeout(Some(left))?;
        }
        self.conn.read(buf)
    }
}

/// One line of at most `max` bytes without its end; None at the end of
/// the stream. A longer line is an error, so a client cannot make the
/// server hold an endless line.
fn read_line(r: &mut impl BufRead, max: usize) -> std::io::Result<Option<String>> {
    let mut buf = Vec::new();
    let n = r
        .by_ref()
        .take(max as u64 + 1)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if buf.len() > max {
        return Err(std::io::Error::other(format!(
            "a line longer than {max} bytes"
        )));
    }
    String::from_utf8(buf)
        .map(Some)
        .map_err(|_| std::io::Error::other("a line that is not UTF-8"))
}

/// A request line as one JSON object (nothing before or after it).
fn parse_request(line: &str) -> Result<Value> {
    match serde_json::from_str::<Value>(line) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(Error::BadRequest("not a JSON object".into())),
        Err(e) => Err(Error::BadRequest(format!("bad JSON: {e}"))),
    }
}

/// Serves one stream; true when the client asked to quit. When `strict`
/// (a TCP client), a line that is not a JSON object, too long or not UTF-8
/// gets one error and closes the stream: it is not this protocol, and
/// nothing after it may run.
fn serve_stream(s: &mut Debugger, mut r: impl BufRead, w: &mut impl Write, strict: bool) -> bool {
    loop {
        let line = match read_line(&mut r, MAX_LINE) {
            Ok(Some(l)) => l,
            Ok(None) => return false,
            Err(e) => {
                let resp =
                    json!({"id": null, "ok": false, "error": format!("{e}; connection closed")});
                let _ = writeln!(w, "{resp}").and_then(|_| w.flush());
                return false;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let (resp, quit) = match parse_request(&line) {
            Ok(req) => {
                let id = req.get("id").cloned().unwrap_or(Value::Null);
                let (mut resp, quit) = match handle(s, &req) {
                    Ok((m, quit)) => (m, quit),
                    Err(e) => {
                        let mut m = Map::new();
                        m.insert("ok".into(), json!(false));
                        m.insert("error".into(), json!(e.to_string()));
                        (m, false)
                    }
                };
                resp.entry("ok").or_insert(json!(true));
                resp.insert("id".into(), id);
                (Value::Object(resp), quit)
            }
            Err(e) if strict => {
                let resp = json!({"id": null, "ok": false, "error": format!("{e}: not this protocol; connection closed")});
                let _ = writeln!(w, "{resp}").and_then(|_| w.flush());
                return false;
            }
            Err(e) => (
                json!({"id": null, "ok": false, "error": e.to_string()}),
                false,
            ),
        };
        if writeln!(w, "{resp}").and_then(|_| w.flush()).is_err() {
            return false;
        }
        if quit {
            return true;
        }
    }
}

/// Carries out one request; the answer's fields and whether the client
/// asked to quit.
fn handle(s: &mut Debugger, req: &Value) -> Result<(Map<String, Value>, bool)> {
    match request::parse(req)? {
        // The console's own line, on purpose: the `command` request.
        Request::Line(line) => {
            let o = console::execute(s, &line)?;
            let mut m = Map::new();
            m.insert("text".into(), json!(o.text));
            Ok((m, o.quit))
        }
        Request::Engine(cmd) => {
            let r = s.execute(cmd)?;
            let quit = matches!(r, Reply::Quit);
            Ok((reply::json(s, r), quit))
        }
    }
}
