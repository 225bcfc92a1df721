//! Protocol requests: one JSON object parsed into a typed command, its
//! fields taken as JSON values (a path is the JSON string itself, spaces,
//! quotes and all; never a console line to split).

use std::path::PathBuf;

use serde_json::Value;

use crate::debug::breakpoints::BpKind;
use crate::debug::command::{
    BackCmd, BpSpec, BreakCmd, Budget, Command, FileCmd, HistoryCmd, MachineCmd, RunCmd, Val,
    ViewCmd, Which,
};
use crate::debug::console::DEFAULT_SECONDS;
use crate::debug::error::{Error, Result};
use crate::debug::parse::{parse_addr, parse_cond, parse_num, Addr};
use crate::debug::regs::RegName;

/// The most bytes one `read` returns.
const MAX_READ: u64 = 0x10_0000;

/// A request, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// A command for the engine.
    Engine(Command),
    /// `command`: a console line (the console parses it).
    Line(String),
}

/// `key` as a number: a JSON number, or a string the console would take
/// (hex, `#` decimal); None when absent or null.
fn num(req: &Value, key: &str) -> Result<Option<u64>> {
    let bad = |why| Error::BadField {
        field: key.into(),
        why,
    };
    match req.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_u64()
            .map(Some)
            .ok_or_else(|| bad("must be a non-negative integer")),
        Some(Value::String(t)) => parse_num(t).map(|v| Some(v as u64)),
        Some(_) => Err(bad("must be a number")),
    }
}

/// `key` as a number no larger than `max` (the field's width): a value
/// that does not fit is an error, never truncated.
fn num_max(req: &Value, key: &str, max: u64) -> Result<Option<u64>> {
    match num(req, key)? {
        Some(value) if value > max => Err(Error::OutOfRange {
            field: key.into(),
            value,
            max,
        }),
        v => Ok(v),
    }
}

/// A required string field.
fn text<'a>(req: &'a Value, key: &'static str) -> Result<&'a str> {
    req.get(key)
        .and_then(Value::as_str)
        .ok_or(Error::MissingField(key))
}

/// The `path` field: the JSON string as it is.
fn path(req: &Value) -> Result<PathBuf> {
    text(req, "path").map(PathBuf::from)
}

/// `addr`: a `"SEG:OFF"` (or linear hex) string or a linear number.
fn addr(req: &Value) -> Result<Addr> {
    match req.get("addr") {
        Some(Value::Number(_)) => Ok(Addr::Linear(
            num_max(req, "addr", u32::MAX as u64)?.unwrap_or(0) as u32,
        )),
        Some(Value::String(t)) => parse_addr(t),
        _ => Err(Error::MissingField("addr")),
    }
}

/// `cycles`, else `seconds` (default 60 emulated seconds).
fn budget(req: &Value) -> Result<Budget> {
    Ok(match num(req, "cycles")? {
        Some(c) => Budget::Cycles(c),
        None => Budget::Seconds(num(req, "seconds")?.unwrap_or(DEFAULT_SECONDS)),
    })
}

/// `hex`: pairs of hex digits.
fn hex_bytes(req: &Value) -> Result<Vec<u8>> {
    let hex = text(req, "hex")?;
    let bad = |why| Error::BadField {
        field: "hex".into(),
        why,
    };
    if hex.len() % 2 != 0 {
        return Err(bad("needs an even number of digits"));
    }
    (0..hex.len())
        .step_by(2)
        // By `get`: a non-ASCII character would put a byte slice inside
        // it (found by the protocol fuzz target).
        .map(|i| {
            hex.get(i..i + 2)
                .and_then(|d| u8::from_str_radix(d, 16).ok())
        })
        .collect::<Option<Vec<u8>>>()
        .ok_or(bad("is not hex"))
}

/// `regs`: {name: number}, each checked against its register's width.
fn reg_values(req: &Value) -> Result<Vec<(String, Val)>> {
    let regs = req
        .get("regs")
        .and_then(Value::as_object)
        .ok_or(Error::MissingField("regs"))?;
    regs.iter()
        .map(|(k, v)| {
            let name = RegName::parse(k).ok_or_else(|| Error::BadRegister(k.clone()))?;
            let value = v.as_u64().ok_or_else(|| Error::BadField {
                field: k.clone(),
                why: "must be a number",
            })?;
            if value > name.max() {
                return Err(Error::RegisterRange {
                    name: k.clone(),
                    value,
                });
            }
            Ok((k.clone(), Val::Num(value as u32)))
        })
        .collect()
}

/// `hook`: what the `kind` watches.
fn hook_spec(req: &Value) -> Result<BpSpec> {
    let kind = text(req, "kind")?;
    Ok(match kind {
        "exec" => BpSpec::Exec(addr(req)?),
        "read" | "write" | "access" => BpSpec::Mem {
            read: kind != "write",
            write: kind != "read",
            addr: addr(req)?,
            len: num_max(req, "len", u32::MAX as u64)?.unwrap_or(1) as u32,
        },
        "port_read" | "port_write" | "port" => {
            let start = num_max(req, "port", 0xFFFF)?.ok_or(Error::MissingField("port"))? as u16;
            BpSpec::Fixed(BpKind::Port {
                read: kind != "port_write",
                write: kind != "port_read",
                start,
                end: num_max(req, "end", 0xFFFF)?.map_or(start, |e| e as u16),
            })
        }
        "int" => BpSpec::Fixed(BpKind::Int {
            vector: num_max(req, "vector", 0xFF)?.ok_or(Error::MissingField("vector"))? as u8,
            ah: num_max(req, "ah", 0xFF)?.map(|v| v as u8),
            al: num_max(req, "al", 0xFF)?.map(|v| v as u8),
        }),
        other => return Err(Error::UnknownHookKind(other.into())),
    })
}

/// `hook`: a breakpoint, listed by the JSON that asked for it.
fn hook(req: &Value) -> Result<Command> {
    let cond = match req.get("if").and_then(Value::as_str) {
        Some(c) => Some(parse_cond(c)?),
        None => None,
    };
    Ok(Command::Break(BreakCmd::Add {
        spec: hook_spec(req)?,
        cond,
        text: req.to_string(),
    }))
}

/// `trace`: `path` a file, or null to stop.
fn trace(req: &Value) -> Result<Command> {
    let p = match req.get("path") {
        Some(Value::String(p)) => Some(PathBuf::from(p)),
        Some(Value::Null) => None,
        None => return Err(Error::MissingField("path")),
        Some(_) => {
            return Err(Error::BadField {
                field: "path".into(),
                why: "must be a string or null",
            })
        }
    };
    Ok(Command::File(FileCmd::Trace(p)))
}

/// `history`: {addr, len} for memory, {port} for a port, neither for what
/// the history holds.
fn history(req: &Value) -> Result<Command> {
    let c = if req.get("port").is_some() {
        HistoryCmd::Port(num_max(req, "port", 0xFFFF)?.unwrap_or(0) as u16)
    } else if req.get("addr").is_some() {
        HistoryCmd::Mem {
            addr: addr(req)?,
            len: num(req, "len")?.unwrap_or(1),
        }
    } else {
        HistoryCmd::Info
    };
    Ok(Command::History(c))
}

/// Parses one request object.
pub fn parse(req: &Value) -> Result<Request> {
    let cmd = text(req, "cmd")?;
    let c = match cmd {
        "command" => return Ok(Request::Line(text(req, "line")?.into())),
        "quit" => Command::Quit,
        "step" => Command::Run(RunCmd::Step(
            num(req, "count")?.unwrap_or(1).max(1),
            budget(req)?,
        )),
        "run" => Command::Run(RunCmd::Continue(budget(req)?)),
        "next" => Command::Run(RunCmd::Over(budget(req)?)),
        "finish" => Command::Run(RunCmd::Out(budget(req)?)),
        "go" => Command::Run(RunCmd::To(addr(req)?, budget(req)?)),
        "hook" => hook(req)?,
        "hooks" => Command::Break(BreakCmd::List),
        "unhook" => {
            let n = num(req, "hook")?.ok_or(Error::MissingField("hook"))?;
            Command::Break(BreakCmd::Delete(Which::One(n as usize)))
        }
        "clear_hooks" => Command::Break(BreakCmd::Delete(Which::All)),
        "regs" => Command::Machine(MachineCmd::Regs),
        "set_regs" => Command::Machine(MachineCmd::SetRegs(reg_values(req)?)),
        "read" => Command::Machine(MachineCmd::Read {
            addr: addr(req)?,
            len: num(req, "len")?.unwrap_or(1).min(MAX_READ) as usize,
        }),
        "write" => Command::Machine(MachineCmd::Write {
            addr: addr(req)?,
            bytes: hex_bytes(req)?,
        }),
        "key" => Command::Machine(MachineCmd::Key(text(req, "text")?.as_bytes().to_vec())),
        "disasm" => Command::View(ViewCmd::Disasm {
            at: req.get("addr").map(|_| addr(req)).transpose()?,
            count: num_max(req, "count", u32::MAX as u64)?.unwrap_or(10) as u32,
        }),
        "ivt" => Command::View(ViewCmd::Ivt {
            first: num_max(req, "first", 0xFF)?.unwrap_or(0) as u32,
            count: num_max(req, "count", 0x100)?.unwrap_or(0x100) as u32,
        }),
        "backtrace" => Command::View(ViewCmd::Backtrace),
        "pit" => Command::View(ViewCmd::Pit),
        "pic" => Command::View(ViewCmd::Pic),
        "vga" => Command::View(ViewCmd::Vga),
        "dac" => Command::View(ViewCmd::Dac {
            first: num_max(req, "first", 0xFF)?.unwrap_or(0) as u32,
            count: num_max(req, "count", 0x100)?.unwrap_or(0x100) as u32,
        }),
        "reverse_step" => Command::Back(BackCmd::Step(num(req, "count")?.unwrap_or(1).max(1))),
        "reverse_next" => Command::Back(BackCmd::Next),
        "reverse_continue" => Command::Back(BackCmd::Continue),
        "reverse_finish" => Command::Back(BackCmd::Finish),
        "goto" => Command::Back(BackCmd::Goto(
            num(req, "cycle")?.ok_or(Error::MissingField("cycle"))?,
        )),
        "history" => history(req)?,
        "trace" => trace(req)?,
        "save_state" => Command::File(FileCmd::SaveState(path(req)?)),
        "load_state" => Command::File(FileCmd::LoadState(path(req)?)),
        "screenshot" => Command::File(FileCmd::Screenshot(path(req)?)),
        other => return Err(Error::UnknownRequest(other.into())),
    };
    Ok(Request::Engine(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_path_is_the_json_string_itself() {
        let p = "dir with space/\"q\" état.sav";
        for (cmd, want) in [
            ("save_state", FileCmd::SaveState(p.into())),
            ("load_state", FileCmd::LoadState(p.into())),
            ("trace", FileCmd::Trace(Some(p.into()))),
        ] {
            let r = parse(&json!({"cmd": cmd, "path": p})).expect(cmd);
            assert_eq!(r, Request::Engine(Command::File(want)));
        }
        let off = parse(&json!({"cmd": "trace", "path": null})).expect("off");
        assert_eq!(off, Request::Engine(Command::File(FileCmd::Trace(None))));
        assert!(matches!(
            parse(&json!({"cmd": "save_state"})),
            Err(Error::MissingField("path"))
        ));
    }

    #[test]
    fn every_run_command_has_run_s_default_budget() {
        let default = Budget::Seconds(DEFAULT_SECONDS);
        assert_eq!(
            DEFAULT_SECONDS as f64,
            crate::play::prepare::HEADLESS_DEFAULT_SECONDS
        );
        let step = parse(&json!({"cmd": "step", "count": u64::MAX})).expect("step");
        assert_eq!(
            step,
            Request::Engine(Command::Run(RunCmd::Step(u64::MAX, default)))
        );
        for cmd in ["run", "next", "finish"] {
            let Request::Engine(Command::Run(c)) = parse(&json!({"cmd": cmd})).expect(cmd) else {
                panic!("{cmd}: not a run command");
            };
            assert!(
                matches!(c, RunCmd::Continue(b) | RunCmd::Over(b) | RunCmd::Out(b) if b == default),
                "{cmd}"
            );
        }
    }

    #[test]
    fn numbers_that_do_not_fit_are_errors() {
        assert!(matches!(
            parse(&json!({"cmd": "hook", "kind": "int", "vector": 300})),
            Err(Error::OutOfRange { .. })
        ));
        assert!(matches!(
            parse(&json!({"cmd": "set_regs", "regs": {"al": 256}})),
            Err(Error::RegisterRange { .. })
        ));
        assert!(matches!(
            parse(&json!({"cmd": "set_regs", "regs": {"zz": 1}})),
            Err(Error::BadRegister(_))
        ));
        assert!(matches!(
            parse(&json!({"cmd": "write", "addr": 0, "hex": "é0"})),
            Err(Error::BadField { .. })
        ));
    }
}
