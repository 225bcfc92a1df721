//! The debugger's console: one line in, text out. Parses a line into a
//! typed [`Command`], has the engine carry it out and shows the reply
//! (`text.rs`). Shared by the terminal, piped scripts, `bload` scripts,
//! the protocol's `command` request and gdb's `monitor`.

use std::path::{Path, PathBuf};

use super::breakpoints::BpKind;
use super::command::{
    BackCmd, BpSpec, BreakCmd, Budget, Command, FileCmd, HistoryCmd, MachineCmd, Reply, RunCmd,
    Val, ViewCmd, Which,
};
use super::engine::Debugger;
use super::error::{Error, Result};
use super::parse::{parse_addr, parse_cond, parse_num};
use super::text;

/// What a command asks of the caller.
#[derive(Debug, Default)]
pub struct Answer {
    /// Text to show.
    pub text: String,
    /// Leave the debugger.
    pub quit: bool,
}

/// The help text.
pub const HELP: &str = "\
running:   s|step [N]   n|next (step over)   finish|out (step out)
           c|cont [SECONDS]   go ADDR (run to)   key TEXT (type on the keyboard)
breaks:    b|break ADDR [if COND]      watch [r|w|rw] ADDR [LEN] [if COND]
           port [r|w|rw] PORT[-PORT]   int VEC [ah=XX] [al=XX]
           bl (list)   bd N|all (delete)   bsave FILE   bload FILE
show:      r|regs   r NAME=VALUE   x ADDR [LEN]   e ADDR BYTE...   u [ADDR] [N]
           ivt [FIRST [N]]   bt (call stack)   pit   pic   vga   dac [FIRST [N]]
back:      rs|reverse-step [N]   rn|reverse-next   rc|reverse-continue
           rf|reverse-finish   goto CYCLE (decimal, 0x hex)
           history ADDR [LEN]   history port PORT   history (what is kept)
files:     trace FILE | trace off   save FILE (save state)   load FILE (load state)
           shot FILE (screenshot, PNG)
           q|quit
ADDR is SEG:OFF (each hex or a register: cs:ip, ds:si) or a linear hex
address; numbers are hex (#N decimal). COND is REG|byte[ADDR]|word[ADDR]
OP VALUE with OP one of == != < <= > >=. A FILE is the rest of the line.";

/// Default time limit of a run command in emulated seconds: `tandem
/// run`'s (a command that names none must still answer).
pub const DEFAULT_SECONDS: u64 = crate::play::prepare::HEADLESS_DEFAULT_SECONDS as u64;
/// The longest run one command may ask for, in emulated seconds: a day,
/// the longest replay (`input::record::MAX_SECONDS`).
pub const MAX_SECONDS: u64 = crate::input::record::MAX_SECONDS;
/// The run budget of a command that names none.
const DEFAULT_BUDGET: Budget = Budget::Seconds(DEFAULT_SECONDS);

/// How deep `bload` scripts may load one another (a script that loads
/// itself ends here with an error, not with the host's stack).
pub const MAX_BLOAD_DEPTH: usize = 8;
/// The largest script `bload` reads.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;
/// The most bytes `x` shows.
const MAX_DUMP: u32 = 0x10000;

/// A console line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// Empty, or a `#` comment.
    Nothing,
    /// `help`.
    Help,
    /// `bload FILE`: run the file's lines as commands.
    Script(PathBuf),
    /// A command for the engine.
    Engine(Command),
}

/// `rest` before ` if `, and the condition after it.
fn split_cond(rest: &str) -> (&str, Option<&str>) {
    match rest.find(" if ") {
        Some(i) => (&rest[..i], Some(rest[i + 4..].trim())),
        None => (rest, None),
    }
}

/// `r`, `w` or `rw` as (read, write).
fn rw(word: Option<&str>) -> Option<(bool, bool)> {
    match word {
        Some("r") => Some((true, false)),
        Some("w") => Some((false, true)),
        Some("rw") | Some("wr") => Some((true, true)),
        _ => None,
    }
}

/// A leading `r|w|rw` of `words` (removed), else `default`.
fn take_rw(words: &mut Vec<&str>, default: (bool, bool)) -> (bool, bool) {
    match rw(words.first().copied()) {
        Some(x) => {
            words.remove(0);
            x
        }
        None => default,
    }
}

/// An optional number argument.
fn num_or(arg: Option<&&str>, default: u32) -> Result<u32> {
    arg.map_or(Ok(default), |a| parse_num(a))
}

/// The rest of the line as a path (spaces and all).
fn path(rest: &str, usage: &'static str) -> Result<PathBuf> {
    if rest.is_empty() {
        return Err(Error::Usage(usage));
    }
    Ok(PathBuf::from(rest))
}

/// `b ADDR [if COND]`.
fn parse_break(rest: &str) -> Result<Command> {
    let (a, cond) = split_cond(rest);
    let spec = BpSpec::Exec(parse_addr(a.trim())?);
    add(spec, cond, format!("break {rest}"))
}

/// `watch [r|w|rw] ADDR [LEN] [if COND]`.
fn parse_watch(rest: &str) -> Result<Command> {
    let (a, cond) = split_cond(rest);
    let mut words: Vec<&str> = a.split_whitespace().collect();
    let (read, write) = take_rw(&mut words, (false, true));
    let addr = parse_addr(
        words
            .first()
            .ok_or(Error::Usage("watch [r|w|rw] ADDR [LEN]"))?,
    )?;
    let len = num_or(words.get(1), 1)?.max(1);
    let spec = BpSpec::Mem {
        read,
        write,
        addr,
        len,
    };
    add(spec, cond, format!("watch {rest}"))
}

/// `port [r|w|rw] PORT[-PORT]`.
fn parse_port(rest: &str) -> Result<Command> {
    let mut words: Vec<&str> = rest.split_whitespace().collect();
    let (read, write) = take_rw(&mut words, (true, true));
    let p = words
        .first()
        .ok_or(Error::Usage("port [r|w|rw] PORT[-PORT]"))?;
    let (a, b) = match p.split_once('-') {
        Some((a, b)) => (parse_num(a)?, parse_num(b)?),
        None => (parse_num(p)?, parse_num(p)?),
    };
    let spec = BpSpec::Fixed(BpKind::Port {
        read,
        write,
        start: a as u16,
        end: b as u16,
    });
    add(spec, None, format!("port {rest}"))
}

/// `int VEC [ah=XX] [al=XX]`.
fn parse_int(rest: &str) -> Result<Command> {
    let args: Vec<&str> = rest.split_whitespace().collect();
    let vector = parse_num(
        args.first()
            .ok_or(Error::Usage("int VEC [ah=XX] [al=XX]"))?,
    )? as u8;
    let (mut ah, mut al) = (None, None);
    for w in &args[1..] {
        let w = w.to_ascii_lowercase();
        if let Some(x) = w.strip_prefix("ah=") {
            ah = Some(parse_num(x)? as u8);
        } else if let Some(x) = w.strip_prefix("al=") {
            al = Some(parse_num(x)? as u8);
        } else {
            return Err(Error::BadArgument {
                arg: w,
                expected: "ah=XX or al=XX",
            });
        }
    }
    add(
        BpSpec::Fixed(BpKind::Int { vector, ah, al }),
        None,
        format!("int {rest}"),
    )
}

fn add(spec: BpSpec, cond: Option<&str>, text: String) -> Result<Command> {
    let cond = cond.map(parse_cond).transpose()?;
    Ok(Command::Break(BreakCmd::Add { spec, cond, text }))
}

/// `bd N|all`.
fn parse_delete(arg: Option<&&str>) -> Result<Command> {
    let a = arg.ok_or(Error::Usage("bd N|all"))?;
    let w = if *a == "all" {
        Which::All
    } else {
        let n = a.trim_start_matches('#').parse::<usize>();
        Which::One(n.map_err(|_| Error::BadBreakpointNumber(a.to_string()))?)
    };
    Ok(Command::Break(BreakCmd::Delete(w)))
}

/// `r [NAME=VALUE...]`.
fn parse_regs(args: &[&str]) -> Result<Command> {
    if args.is_empty() {
        return Ok(Command::Machine(MachineCmd::Regs));
    }
    let list = args
        .iter()
        .map(|a| {
            let (n, v) = a.split_once('=').ok_or(Error::Usage("r NAME=VALUE"))?;
            Ok((n.to_string(), Val::Typed(v.to_string())))
        })
        .collect::<Result<_>>()?;
    Ok(Command::Machine(MachineCmd::SetRegs(list)))
}

/// `e ADDR BYTE...` (a `"TEXT"` word is its bytes).
fn parse_poke(args: &[&str]) -> Result<Command> {
    let addr = parse_addr(args.first().ok_or(Error::Usage("e ADDR BYTE..."))?)?;
    let mut bytes = Vec::new();
    for w in &args[1..] {
        match w.strip_prefix('"').and_then(|x| x.strip_suffix('"')) {
            Some(q) => bytes.extend(q.bytes()),
            None => bytes.push(parse_num(w)? as u8),
        }
    }
    Ok(Command::Machine(MachineCmd::Write { addr, bytes }))
}

/// `c [SECONDS]` (decimal seconds).
fn parse_cont(arg: Option<&&str>) -> Result<Command> {
    let secs = match arg {
        Some(a) => a
            .trim_start_matches('#')
            .parse::<u64>()
            .map_err(|_| Error::BadSeconds(a.to_string()))?,
        None => DEFAULT_SECONDS,
    };
    Ok(Command::Run(RunCmd::Continue(Budget::Seconds(secs))))
}

/// A cycle: decimal as the registers line shows it, or `0x` hex.
fn parse_cycle(arg: Option<&&str>) -> Result<u64> {
    let a = arg.ok_or(Error::Usage("goto CYCLE"))?;
    let a = a.trim_start_matches('#');
    let v = match a.strip_prefix("0x").or_else(|| a.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => a.parse::<u64>(),
    };
    v.map_err(|_| Error::BadArgument {
        arg: a.to_string(),
        expected: "a cycle (decimal, or 0x hex)",
    })
}

/// `history [ADDR [LEN] | port PORT]`.
fn parse_history(args: &[&str]) -> Result<Command> {
    let c = match args {
        [] => HistoryCmd::Info,
        ["port", p] => {
            let v = parse_num(p)?;
            if v > 0xFFFF {
                return Err(Error::OutOfRange {
                    field: "port".into(),
                    value: v as u64,
                    max: 0xFFFF,
                });
            }
            HistoryCmd::Port(v as u16)
        }
        [a] => HistoryCmd::Mem {
            addr: parse_addr(a)?,
            len: 1,
        },
        [a, n] => HistoryCmd::Mem {
            addr: parse_addr(a)?,
            len: parse_num(n)? as u64,
        },
        _ => return Err(Error::Usage("history [ADDR [LEN] | port PORT]")),
    };
    Ok(Command::History(c))
}

/// `key TEXT` (`\n` is Enter; no text types Enter).
fn key_bytes(rest: &str) -> Vec<u8> {
    let mut t = rest.replace("\\n", "\n").into_bytes();
    if t.is_empty() {
        t.push(b'\n');
    }
    t
}

/// Parses one console line.
pub fn parse(line: &str) -> Result<Line> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((c, r)) => (c, r.trim()),
        None => (line, ""),
    };
    let args: Vec<&str> = rest.split_whitespace().collect();
    let first = args.first();
    let cmd = match word.to_ascii_lowercase().as_str() {
        "" => return Ok(Line::Nothing),
        c if c.starts_with('#') => return Ok(Line::Nothing),
        "h" | "help" | "?" => return Ok(Line::Help),
        "bload" => return Ok(Line::Script(path(rest, "bload FILE")?)),
        "q" | "quit" | "exit" => Command::Quit,
        "s" | "step" | "si" => Command::Run(RunCmd::Step(num_or(first, 1)? as u64, DEFAULT_BUDGET)),
        "n" | "next" | "over" => Command::Run(RunCmd::Over(DEFAULT_BUDGET)),
        "finish" | "out" => Command::Run(RunCmd::Out(DEFAULT_BUDGET)),
        "c" | "cont" | "continue" | "g" => parse_cont(first)?,
        "go" | "until" => {
            let a = parse_addr(first.ok_or(Error::Usage("go ADDR"))?)?;
            Command::Run(RunCmd::To(a, DEFAULT_BUDGET))
        }
        "key" | "type" => Command::Machine(MachineCmd::Key(key_bytes(rest))),
        "rs" | "reverse-step" | "rsi" => Command::Back(BackCmd::Step(num_or(first, 1)? as u64)),
        "rn" | "reverse-next" => Command::Back(BackCmd::Next),
        "rc" | "reverse-continue" => Command::Back(BackCmd::Continue),
        "rf" | "reverse-finish" => Command::Back(BackCmd::Finish),
        "goto" => Command::Back(BackCmd::Goto(parse_cycle(first)?)),
        "history" => parse_history(&args)?,
        "b" | "break" | "bp" => parse_break(rest)?,
        "watch" | "w" => parse_watch(rest)?,
        "port" => parse_port(rest)?,
        "int" => parse_int(rest)?,
        "bl" => Command::Break(BreakCmd::List),
        "bd" | "delete" => parse_delete(first)?,
        "bsave" => Command::Break(BreakCmd::Save(path(rest, "bsave FILE")?)),
        "r" | "regs" | "reg" => parse_regs(&args)?,
        "x" | "d" | "dump" => Command::Machine(MachineCmd::Read {
            addr: parse_addr(first.copied().unwrap_or("ds:0"))?,
            len: num_or(args.get(1), 0x40)?.min(MAX_DUMP) as usize,
        }),
        "e" | "poke" => parse_poke(&args)?,
        "u" | "disasm" => Command::View(ViewCmd::Disasm {
            at: first.map(|a| parse_addr(a)).transpose()?,
            count: num_or(args.get(1), 10)?,
        }),
        "ivt" => Command::View(ViewCmd::Ivt {
            first: num_or(first, 0)?,
            count: num_or(args.get(1), 0x40)?,
        }),
        "bt" | "stack" | "where" => Command::View(ViewCmd::Backtrace),
        "pit" => Command::View(ViewCmd::Pit),
        "pic" => Command::View(ViewCmd::Pic),
        "vga" => Command::View(ViewCmd::Vga),
        "dac" => Command::View(ViewCmd::Dac {
            first: num_or(first, 0)?.min(0xFF),
            count: num_or(args.get(1), 0x100)?,
        }),
        "trace" if rest == "off" => Command::File(FileCmd::Trace(None)),
        "trace" => Command::File(FileCmd::Trace(Some(path(rest, "trace FILE | trace off")?))),
        "save" => Command::File(FileCmd::SaveState(path(rest, "save FILE")?)),
        "load" => Command::File(FileCmd::LoadState(path(rest, "load FILE")?)),
        "shot" => Command::File(FileCmd::Screenshot(path(rest, "shot FILE")?)),
        other => return Err(Error::UnknownCommand(other.into())),
    };
    Ok(Line::Engine(cmd))
}

/// Runs one command line.
pub fn execute(s: &mut Debugger, line: &str) -> Result<Answer> {
    execute_nested(s, line, 0)
}

/// Runs one command line of a script loaded `depth` deep.
fn execute_nested(s: &mut Debugger, line: &str, depth: usize) -> Result<Answer> {
    match parse(line)? {
        Line::Nothing => Ok(Answer::default()),
        Line::Help => Ok(Answer {
            text: HELP.into(),
            quit: false,
        }),
        Line::Script(f) => Ok(Answer {
            text: bload(s, &f, depth)?,
            quit: false,
        }),
        Line::Engine(c) => {
            let r = s.execute(c)?;
            Ok(Answer {
                text: text::reply_text(s, &r),
                quit: matches!(r, Reply::Quit),
            })
        }
    }
}

/// Reads a `bload` script: at most [`MAX_SCRIPT_BYTES`] of UTF-8 text.
fn read_script(f: &Path) -> Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(f).map_err(|e| Error::io(f, e))?;
    let mut bytes = Vec::new();
    file.take(MAX_SCRIPT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(f, e))?;
    if bytes.len() as u64 > MAX_SCRIPT_BYTES {
        return Err(Error::ScriptTooLong {
            path: f.into(),
            max: MAX_SCRIPT_BYTES,
        });
    }
    String::from_utf8(bytes).map_err(|_| Error::ScriptNotText { path: f.into() })
}

/// Runs the lines of script `f`, loaded `depth` deep; their text.
fn bload(s: &mut Debugger, f: &Path, depth: usize) -> Result<String> {
    if depth >= MAX_BLOAD_DEPTH {
        return Err(Error::ScriptNesting {
            path: f.into(),
            max: MAX_BLOAD_DEPTH,
        });
    }
    let body = read_script(f)?;
    let mut text = String::new();
    for (n, l) in body.lines().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        match execute_nested(s, l, depth + 1) {
            Ok(o) => {
                text.push_str(&o.text);
                text.push('\n');
            }
            // The innermost script's line says where it failed.
            Err(e @ (Error::ScriptNesting { .. } | Error::ScriptLine { .. })) => return Err(e),
            Err(e) => {
                return Err(Error::ScriptLine {
                    path: f.into(),
                    line: n + 1,
                    source: Box::new(e),
                })
            }
        }
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debug::parse::Addr;

    #[test]
    fn paths_are_the_rest_of_the_line() {
        assert_eq!(
            parse("save my state.sav").ok(),
            Some(Line::Engine(Command::File(FileCmd::SaveState(
                "my state.sav".into()
            ))))
        );
        assert_eq!(
            parse("trace off").ok(),
            Some(Line::Engine(Command::File(FileCmd::Trace(None))))
        );
        assert!(matches!(parse("save"), Err(Error::Usage("save FILE"))));
    }

    #[test]
    fn lines_parse_to_typed_commands() {
        assert_eq!(
            parse("watch rw ds:10 2").ok(),
            Some(Line::Engine(Command::Break(BreakCmd::Add {
                spec: BpSpec::Mem {
                    read: true,
                    write: true,
                    addr: Addr::SegOff("ds".into(), "10".into()),
                    len: 2
                },
                cond: None,
                text: "watch rw ds:10 2".into()
            })))
        );
        assert_eq!(
            parse("s 10").ok(),
            Some(Line::Engine(Command::Run(RunCmd::Step(16, DEFAULT_BUDGET))))
        );
        assert_eq!(parse("# note").ok(), Some(Line::Nothing));
        assert!(matches!(parse("bogus"), Err(Error::UnknownCommand(w)) if w == "bogus"));
        assert!(matches!(
            parse("int 21 bx=1"),
            Err(Error::BadArgument { .. })
        ));
    }
}
