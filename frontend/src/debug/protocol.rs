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
use std::time::Duration;

use serde_json::{json, Map, Value};

use super::commands;
use super::session::{parse_addr, BpKind, Session, Stop};
use emu::{ExecAt, HookEvent};

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
pub fn serve(mut s: Session, how: &str, token_file: Option<&Path>) -> ExitCode {
    if how == "stdio" {
        if token_file.is_some() {
            eprintln!(
                "tandem debug: error: --token-file is for --protocol PORT (stdio needs none)"
            );
            return ExitCode::from(2);
        }
        let stdin = std::io::stdin();
        let mut out = std::io::stdout();
        serve_stream(&mut s, stdin.lock(), &mut out, false);
        return ExitCode::SUCCESS;
    }
    let Ok(port) = how.parse::<u16>() else {
        eprintln!("tandem debug: error: --protocol {how}: expected stdio or a TCP port");
        return ExitCode::from(2);
    };
    let token = match new_token() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("tandem debug: error: no random token: {e}");
            return ExitCode::from(2);
        }
    };
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("tandem debug: error: port {port}: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(f) = token_file {
        if let Err(e) = write_token_file(f, &token) {
            eprintln!("tandem debug: error: {}: {e}", f.display());
            return ExitCode::from(2);
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
    ExitCode::SUCCESS
}

/// 128 random bits from the host as 32 hex digits. The token guards the
/// port and is no part of the emulation, so host randomness is right here.
fn new_token() -> std::io::Result<String> {
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
fn write_token_file(path: &Path, token: &str) -> std::io::Result<()> {
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
fn same_token(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// One TCP client: the hello, then requests; true when it asked to quit.
fn serve_conn(s: &mut Session, conn: TcpStream, token: &str) -> bool {
    let Ok(read) = conn.try_clone() else {
        return false;
    };
    let mut w = conn;
    let _ = w.set_read_timeout(Some(HELLO_TIMEOUT));
    let mut r = BufReader::new(read);
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
    let _ = w.set_read_timeout(None);
    serve_stream(s, r, &mut w, true)
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
fn parse_request(line: &str) -> Result<Value, String> {
    match serde_json::from_str::<Value>(line) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err("not a JSON object".into()),
        Err(e) => Err(format!("bad JSON: {e}")),
    }
}

/// Serves one stream; true when the client asked to quit. When `strict`
/// (a TCP client), a line that is not a JSON object, too long or not UTF-8
/// gets one error and closes the stream: it is not this protocol, and
/// nothing after it may run.
fn serve_stream(s: &mut Session, mut r: impl BufRead, w: &mut impl Write, strict: bool) -> bool {
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
                let mut quit = false;
                let mut resp = match handle(s, &req, &mut quit) {
                    Ok(Value::Object(m)) => m,
                    Ok(other) => {
                        let mut m = Map::new();
                        m.insert("result".into(), other);
                        m
                    }
                    Err(e) => {
                        let mut m = Map::new();
                        m.insert("ok".into(), json!(false));
                        m.insert("error".into(), json!(e));
                        m
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
            Err(e) => (json!({"id": null, "ok": false, "error": e}), false),
        };
        if writeln!(w, "{resp}").and_then(|_| w.flush()).is_err() {
            return false;
        }
        if quit {
            return true;
        }
    }
}

fn num(req: &Value, key: &str) -> Result<Option<u64>, String> {
    match req.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("'{key}' must be a non-negative integer")),
        Some(Value::String(t)) => super::session::parse_num(t).map(|v| Some(v as u64)),
        Some(_) => Err(format!("'{key}' must be a number")),
    }
}

/// `key` as a number no larger than `max` (the field's width): a value
/// that does not fit is an error, never truncated.
fn num_max(req: &Value, key: &str, max: u64) -> Result<Option<u64>, String> {
    match num(req, key)? {
        Some(v) if v > max => Err(format!("'{key}' {v:#x} is out of range (0-{max:#x})")),
        v => Ok(v),
    }
}

/// The width of register `name` as its largest value.
fn reg_max(name: &str) -> u64 {
    let n = name.to_ascii_lowercase();
    if ["al", "cl", "dl", "bl", "ah", "ch", "dh", "bh"].contains(&n.as_str()) {
        0xFF
    } else if n.starts_with('e') && n.len() == 3 && n != "es" {
        0xFFFF_FFFF
    } else {
        0xFFFF
    }
}

fn addr(s: &Session, req: &Value) -> Result<u32, String> {
    match req.get("addr") {
        Some(Value::Number(_)) => Ok(num_max(req, "addr", u32::MAX as u64)?.unwrap_or(0) as u32),
        Some(Value::String(t)) => s.linear(&parse_addr(t)?),
        _ => Err("'addr' (SEG:OFF string or linear number) is required".into()),
    }
}

fn regs_json(s: &Session) -> Value {
    let mut m = Map::new();
    for n in [
        "ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "cs", "ds", "es", "ss", "fs", "gs", "ip",
        "flags",
    ] {
        m.insert(n.into(), json!(s.reg(n).unwrap_or(0)));
    }
    m.insert("pc".into(), json!(s.pc()));
    m.insert("cycles".into(), json!(s.m.cycles()));
    Value::Object(m)
}

fn stop_json(s: &mut Session, stop: Stop) -> Value {
    let output = String::from_utf8_lossy(&std::mem::take(&mut s.output)).into_owned();
    let mut m = Map::new();
    match stop {
        Stop::Stepped => {
            m.insert("stop".into(), json!("step"));
        }
        Stop::Limit => {
            m.insert("stop".into(), json!("limit"));
        }
        Stop::Exited(c) => {
            m.insert("stop".into(), json!("exited"));
            m.insert("code".into(), json!(c));
        }
        Stop::Stopped(msg) => {
            m.insert("stop".into(), json!("stopped"));
            m.insert("message".into(), json!(msg));
        }
        Stop::Breakpoint(n, rec) => {
            m.insert("stop".into(), json!("hook"));
            m.insert("hook".into(), json!(n));
            let ev = match rec.event {
                HookEvent::Exec { linear, .. } => json!({"kind": "exec", "linear": linear}),
                HookEvent::MemRead {
                    linear,
                    size,
                    value,
                } => json!({"kind": "read", "linear": linear, "size": size, "value": value}),
                HookEvent::MemWrite {
                    linear,
                    size,
                    value,
                } => json!({"kind": "write", "linear": linear, "size": size, "value": value}),
                HookEvent::PortRead { port, size, value } => {
                    json!({"kind": "port_read", "port": port, "size": size, "value": value})
                }
                HookEvent::PortWrite { port, size, value } => {
                    json!({"kind": "port_write", "port": port, "size": size, "value": value})
                }
                HookEvent::Interrupt { vector, ax } => {
                    json!({"kind": "int", "vector": vector, "ax": ax})
                }
            };
            m.insert("event".into(), ev);
            m.insert(
                "by".into(),
                json!({"cs": rec.cs, "ip": rec.ip, "text": s.disasm_at(rec.cs, rec.ip).0}),
            );
        }
    }
    let (cs, ip) = s.cs_ip();
    m.insert("at".into(), json!(s.disasm_at(cs, ip).0));
    m.insert("regs".into(), regs_json(s));
    m.insert("output".into(), json!(output));
    Value::Object(m)
}

fn handle(s: &mut Session, req: &Value, quit: &mut bool) -> Result<Value, String> {
    let cmd = req
        .get("cmd")
        .and_then(Value::as_str)
        .ok_or("'cmd' is required")?;
    Ok(match cmd {
        "regs" => json!({"regs": regs_json(s)}),
        "set_regs" => {
            let regs = req
                .get("regs")
                .and_then(Value::as_object)
                .ok_or("'regs' object is required")?;
            for (k, v) in regs {
                let v = v
                    .as_u64()
                    .ok_or_else(|| format!("register {k}: not a number"))?;
                if v > reg_max(k) {
                    return Err(format!("register {k}: {v:#x} does not fit"));
                }
                if !s.set_reg(k, v as u32) {
                    return Err(format!("no register '{k}'"));
                }
            }
            json!({"regs": regs_json(s)})
        }
        "read" => {
            let a = addr(s, req)?;
            let len = num(req, "len")?.unwrap_or(1).min(0x10_0000) as usize;
            let hex: String = s
                .read_mem(a, len)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            json!({"addr": a, "hex": hex})
        }
        "write" => {
            let a = addr(s, req)?;
            let hex = req
                .get("hex")
                .and_then(Value::as_str)
                .ok_or("'hex' is required")?;
            if hex.len() % 2 != 0 {
                return Err("'hex' needs an even number of digits".into());
            }
            let bytes = (0..hex.len())
                .step_by(2)
                // By `get`: a non-ASCII character would put a byte slice
                // inside it (found by the protocol fuzz target).
                .map(|i| {
                    hex.get(i..i + 2)
                        .and_then(|d| u8::from_str_radix(d, 16).ok())
                })
                .collect::<Option<Vec<u8>>>()
                .ok_or("'hex' is not hex")?;
            json!({"written": s.write_mem(a, &bytes)})
        }
        "hook" => {
            let kind = req
                .get("kind")
                .and_then(Value::as_str)
                .ok_or("'kind' is required")?;
            let cond = match req.get("if").and_then(Value::as_str) {
                Some(c) => Some(commands::parse_cond(c)?),
                None => None,
            };
            let bp = match kind {
                "exec" => match req.get("addr") {
                    Some(Value::String(t)) if t.contains(':') => {
                        let (sg, off) = t.split_once(':').unwrap_or_default();
                        BpKind::Exec(ExecAt::SegOff(s.value(sg)? as u16, s.value(off)? as u16))
                    }
                    _ => BpKind::Exec(ExecAt::Linear(addr(s, req)?)),
                },
                "read" | "write" | "access" => {
                    let start = addr(s, req)?;
                    let len = num_max(req, "len", u32::MAX as u64)?.unwrap_or(1).max(1) as u32;
                    let end = start
                        .checked_add(len - 1)
                        .ok_or("'addr' + 'len' runs past 4 GiB")?;
                    BpKind::Mem {
                        read: kind != "write",
                        write: kind != "read",
                        start,
                        end,
                    }
                }
                "port_read" | "port_write" | "port" => {
                    let p = num_max(req, "port", 0xFFFF)?.ok_or("'port' is required")? as u16;
                    let end = num_max(req, "end", 0xFFFF)?.map_or(p, |e| e as u16);
                    if end < p {
                        return Err("'end' is below 'port'".into());
                    }
                    BpKind::Port {
                        read: kind != "port_write",
                        write: kind != "port_read",
                        start: p,
                        end,
                    }
                }
                "int" => BpKind::Int {
                    vector: num_max(req, "vector", 0xFF)?.ok_or("'vector' is required")? as u8,
                    ah: num_max(req, "ah", 0xFF)?.map(|v| v as u8),
                    al: num_max(req, "al", 0xFF)?.map(|v| v as u8),
                },
                other => return Err(format!("unknown hook kind '{other}'")),
            };
            let n = s.add_bp(bp, cond, format!("{req}"), false);
            json!({"hook": n})
        }
        "unhook" => {
            let n = num(req, "hook")?.ok_or("'hook' is required")? as usize;
            match s.bps.get_mut(n) {
                Some(b @ Some(_)) => *b = None,
                _ => return Err(format!("no hook {n}")),
            }
            json!({})
        }
        "clear_hooks" => {
            s.bps.clear();
            json!({})
        }
        "step" => {
            let n = num(req, "count")?.unwrap_or(1).max(1);
            let stop = s.step(n);
            stop_json(s, stop)
        }
        "run" => {
            let cycles = match num(req, "cycles")? {
                Some(c) => c,
                None => {
                    let secs = num(req, "seconds")?.unwrap_or(commands::DEFAULT_SECONDS);
                    secs.saturating_mul(s.m.config().cpu_hz)
                }
            };
            let stop = s.cont(cycles);
            stop_json(s, stop)
        }
        "key" => {
            let t = req
                .get("text")
                .and_then(Value::as_str)
                .ok_or("'text' is required")?;
            s.dos.type_text(t.as_bytes());
            json!({"typed": t.len()})
        }
        "screenshot" => {
            let path = req
                .get("path")
                .and_then(Value::as_str)
                .ok_or("'path' is required")?;
            let f = s.m.render();
            write_png(path, f.width as u32, f.height as u32, &f.rgb)?;
            json!({"width": f.width, "height": f.height, "path": path})
        }
        "command" => {
            let line = req
                .get("line")
                .and_then(Value::as_str)
                .ok_or("'line' is required")?;
            let o = commands::execute(s, line)?;
            if o.quit {
                *quit = true;
            }
            json!({"text": o.text})
        }
        "save_state" => {
            let path = req
                .get("path")
                .and_then(Value::as_str)
                .ok_or("'path' is required")?;
            // The path is the JSON string itself (spaces and all), never
            // a command line to split.
            commands::save_state(s, std::path::Path::new(path))?;
            json!({"path": path})
        }
        "quit" => {
            *quit = true;
            json!({})
        }
        other => {
            return Err(format!("unknown cmd '{other}'"));
        }
    })
}

fn write_png(path: &str, w: u32, h: u32, rgb: &[u8]) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut wr = enc.write_header().map_err(|e| format!("{path}: {e}"))?;
    wr.write_image_data(rgb)
        .map_err(|e| format!("{path}: {e}"))?;
    Ok(())
}
