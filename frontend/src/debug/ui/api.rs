//! `POST /api`: the window's requests. The views' refresh (`view`),
//! running and pausing, breakpoints from the code view, watchpoints from a
//! memory selection, the pixel probe; everything else is a control
//! protocol request (docs/debugger.md), answered the same way, except
//! those that read or write host files (save and load states, traces,
//! screenshots, console lines): a web page never touches the host's files.

use serde_json::{json, Map, Value};

use super::http::After;
use super::state::Ui;
use super::views::Query;
use crate::debug::breakpoints::BpKind;
use crate::debug::command::{BreakCmd, Command, FileCmd};
use crate::debug::error::{Error, Result};
use crate::debug::protocol::request::{self, Request};

/// The most bytes a watchpoint set from a selection covers.
const MAX_WATCH: u64 = 0x1_0000;

fn text<'a>(v: &'a Value, key: &'static str) -> Result<&'a str> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or(Error::MissingField(key))
}

fn number(v: &Value, key: &'static str) -> Result<u64> {
    v.get(key)
        .and_then(Value::as_u64)
        .ok_or(Error::MissingField(key))
}

/// Carries out one request; its answer's fields and what comes after.
pub fn handle(ui: &mut Ui, v: &Value) -> Result<(Map<String, Value>, After)> {
    let cmd = text(v, "cmd")?;
    let mut m = Map::new();
    match cmd {
        "view" => {
            m.insert("view".into(), ui.view(&Query::of(v))?);
        }
        "run" => {
            if let Some(e) = &ui.d.ended {
                return Err(Error::BadRequest(format!("the program has ended: {e}")));
            }
            ui.running = true;
        }
        "pause" => ui.pause(),
        "toggle_break" => {
            let a = ui.resolve(text(v, "addr")?)?;
            let (seg, off) = ui.d.seg_off(&a)?;
            let linear = ui.d.core.m.cpu.linear(seg, off);
            match ui.exec_bp(seg, off, linear) {
                Some(n) => {
                    ui.d.bps[n] = None;
                    m.insert("removed".into(), json!(n));
                }
                None => {
                    let kind = BpKind::Exec(emu::ExecAt::SegOff(seg, off));
                    let n =
                        ui.d.add_bp(kind, None, format!("b {seg:04X}:{off:04X}"), false);
                    m.insert("added".into(), json!(n));
                }
            }
        }
        "run_to" => {
            let a = ui.resolve(text(v, "addr")?)?;
            let (seg, off) = ui.d.seg_off(&a)?;
            let kind = BpKind::Exec(emu::ExecAt::SegOff(seg, off));
            ui.temp_bp = Some(ui.d.add_bp(kind, None, String::new(), true));
            ui.running = true;
        }
        "watch" => {
            let start = number(v, "linear")? as u32;
            let len = number(v, "len")?.clamp(1, MAX_WATCH) as u32;
            let access = v.get("access").and_then(Value::as_str).unwrap_or("w");
            let (read, write) = match access {
                "r" => (true, false),
                "w" => (false, true),
                "rw" => (true, true),
                _ => return Err(Error::BadRequest("access must be r, w or rw".into())),
            };
            let end = start
                .checked_add(len - 1)
                .ok_or(Error::BadAddress { start, len })?;
            let kind = BpKind::Mem {
                read,
                write,
                start,
                end,
            };
            let text = format!("watch {access} {start:X} {len:X}");
            m.insert("added".into(), json!(ui.d.add_bp(kind, None, text, false)));
        }
        "pixel" => {
            let (x, y) = (number(v, "x")? as usize, number(v, "y")? as usize);
            m.insert(
                "pixel".into(),
                super::pictures::pixel(&ui.d.core.m.bus.dev.vga, x, y),
            );
        }
        "resolve" => {
            let a = ui.resolve(text(v, "addr")?)?;
            let (seg, off) = ui.d.seg_off(&a)?;
            m.insert("linear".into(), json!(ui.d.linear(&a)?));
            m.insert("seg".into(), json!(seg));
            m.insert("off".into(), json!(off));
        }
        _ => return protocol(ui, v),
    }
    Ok((m, After::Serve))
}

/// A control protocol request.
fn protocol(ui: &mut Ui, v: &Value) -> Result<(Map<String, Value>, After)> {
    if ui.running {
        ui.pause();
    }
    match request::parse(v)? {
        Request::Line(_) => Err(Error::BadRequest(
            "the window takes no console lines (they may name host files)".into(),
        )),
        Request::Engine(Command::File(f)) => {
            let what = match f {
                FileCmd::Trace(_) => "trace",
                FileCmd::SaveState(_) => "save_state",
                FileCmd::LoadState(_) => "load_state",
                FileCmd::Screenshot(_) => "screenshot",
            };
            Err(Error::BadRequest(format!(
                "{what}: the window never touches host files; use the console or --protocol"
            )))
        }
        Request::Engine(Command::Break(BreakCmd::Save(_))) => Err(Error::BadRequest(
            "bsave: the window never touches host files; use the console".into(),
        )),
        Request::Engine(Command::Quit) => Ok((Map::new(), After::Quit)),
        Request::Engine(cmd) => Ok((ui.execute(cmd)?, After::Serve)),
    }
}
