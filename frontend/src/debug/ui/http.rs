//! The window's HTTP side: the page and its scripts, the pictures, and
//! one JSON endpoint (`POST /api`) for everything else. Every request but
//! the page's static files must carry the session's token (the page's
//! address holds it; the scripts send it as `X-Tandem-Token`), compared
//! in constant time, so that no other page in a browser and no other user
//! of the host can drive the debugger.

use std::io::Read;

use serde_json::{json, Map, Value};
use tiny_http::{Header, Method, Request, Response};

use super::api;
use super::state::Ui;
use crate::debug::protocol::same_token;

/// The largest request body taken.
const MAX_BODY: u64 = 4 << 20;

/// The page, its script and its style, built in.
const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/ui.js");
const STYLE: &str = include_str!("assets/ui.css");

/// Whether the window's session should end after this request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// Go on serving.
    Serve,
    /// The user asked to quit.
    Quit,
}

fn header(k: &str, v: &str) -> Header {
    Header::from_bytes(k.as_bytes(), v.as_bytes()).unwrap_or_else(|_| {
        Header::from_bytes(&b"X-Tandem"[..], &b"1"[..]).expect("a constant header is valid")
    })
}

fn respond(req: Request, status: u16, kind: &str, body: Vec<u8>) {
    let r = Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", kind))
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header("Referrer-Policy", "no-referrer"));
    // A client that went away is no error of ours.
    let _ = req.respond(r);
}

fn json_response(req: Request, status: u16, v: &Value) {
    respond(req, status, "application/json", v.to_string().into_bytes());
}

/// The query parameter `key` of a URL.
fn param<'a>(url: &'a str, key: &str) -> Option<&'a str> {
    let q = url.split_once('?')?.1;
    q.split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
}

/// Answers one request.
pub fn answer(ui: &mut Ui, mut req: Request, token: &str) -> After {
    let url = req.url().to_string();
    let path = url.split('?').next().unwrap_or("").to_string();
    let by_header = req
        .headers()
        .iter()
        .find(|h| h.field.equiv("X-Tandem-Token"))
        .map(|h| h.value.as_str().to_string());
    let given = by_header.or_else(|| param(&url, "token").map(str::to_string));
    let allowed = given.is_some_and(|t| same_token(t.as_bytes(), token.as_bytes()));
    match (req.method(), path.as_str()) {
        (Method::Get, "/ui.js") => respond(req, 200, "text/javascript", SCRIPT.into()),
        (Method::Get, "/ui.css") => respond(req, 200, "text/css", STYLE.into()),
        _ if !allowed => respond(
            req,
            403,
            "text/plain",
            b"tandem: this page needs the token printed when `tandem debug --ui` started\n"
                .to_vec(),
        ),
        (Method::Get, "/") | (Method::Get, "/index.html") => {
            respond(req, 200, "text/html; charset=utf-8", INDEX.into())
        }
        (Method::Get, "/screen.png") => {
            picture(req, super::pictures::screen(&ui.d.core.m.bus.dev.vga))
        }
        (Method::Get, "/plane.png") => {
            let n = param(&url, "n")
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| n < 4);
            match n {
                Some(n) => picture(req, super::pictures::plane(&ui.d.core.m.bus.dev.vga, n)),
                None => respond(req, 400, "text/plain", b"plane: n must be 0-3\n".to_vec()),
            }
        }
        (Method::Post, "/api") => {
            let mut body = Vec::new();
            let read = req.as_reader().take(MAX_BODY + 1).read_to_end(&mut body);
            if read.is_err() || body.len() as u64 > MAX_BODY {
                json_response(
                    req,
                    413,
                    &json!({"ok": false, "error": "request too large"}),
                );
                return After::Serve;
            }
            let (resp, after) = match serde_json::from_slice::<Value>(&body) {
                Ok(v @ Value::Object(_)) => match api::handle(ui, &v) {
                    Ok((mut m, after)) => {
                        m.entry("ok").or_insert(json!(true));
                        (Value::Object(m), after)
                    }
                    Err(e) => (json!({"ok": false, "error": e.to_string()}), After::Serve),
                },
                _ => (
                    json!({"ok": false, "error": "the body must be one JSON object"}),
                    After::Serve,
                ),
            };
            json_response(req, 200, &resp);
            return after;
        }
        _ => respond(req, 404, "text/plain", b"not found\n".to_vec()),
    }
    After::Serve
}

fn picture(req: Request, png: Result<Vec<u8>, png::EncodingError>) {
    match png {
        Ok(b) => respond(req, 200, "image/png", b),
        Err(e) => respond(req, 500, "text/plain", format!("png: {e}\n").into_bytes()),
    }
}

/// An empty answer's fields.
pub fn fields() -> Map<String, Value> {
    Map::new()
}
