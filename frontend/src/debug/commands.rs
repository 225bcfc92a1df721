//! The debugger's commands: one line in, text out. Shared by the
//! terminal, piped scripts and the protocol's `command` request.

use std::fmt::Write as _;

use emu::ExecAt;

use super::session::{parse_addr, parse_num, Addr, BpKind, Cond, Operand, Session, Stop};

/// What a command asks of the caller.
#[derive(Debug, Default)]
pub struct Outcome {
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
           ivt [FIRST [N]]   bt (call stack)   pit   pic   vga
files:     trace FILE | trace off   save FILE (save state)
           q|quit
ADDR is SEG:OFF (each hex or a register: cs:ip, ds:si) or a linear hex
address; numbers are hex (#N decimal). COND is REG|byte[ADDR]|word[ADDR]
OP VALUE with OP one of == != < <= > >=.";

/// Default time limit of a run command in emulated seconds.
pub const DEFAULT_SECONDS: u64 = 60;

fn split_cond(rest: &str) -> (&str, Option<&str>) {
    match rest.find(" if ") {
        Some(i) => (&rest[..i], Some(rest[i + 4..].trim())),
        None => (rest, None),
    }
}

/// Parses `LHS OP VALUE`.
pub fn parse_cond(s: &str) -> Result<Cond, String> {
    for op in ["==", "!=", "<=", ">=", "<", ">"] {
        if let Some((l, r)) = s.split_once(op) {
            let l = l.trim().to_ascii_lowercase();
            let lhs = if let Some(a) = l.strip_prefix("byte[").and_then(|x| x.strip_suffix(']')) {
                Operand::Byte(parse_addr(a)?)
            } else if let Some(a) = l.strip_prefix("word[").and_then(|x| x.strip_suffix(']')) {
                Operand::Word(parse_addr(a)?)
            } else {
                Operand::Reg(l)
            };
            return Ok(Cond {
                lhs,
                op: op.into(),
                rhs: parse_num(r.trim())?,
            });
        }
    }
    Err(format!(
        "'{s}': a condition is REG|byte[ADDR]|word[ADDR] OP VALUE"
    ))
}

fn exec_at(s: &Session, a: &Addr) -> Result<ExecAt, String> {
    Ok(match a {
        Addr::Linear(l) => ExecAt::Linear(*l),
        Addr::SegOff(seg, off) => ExecAt::SegOff(s.value(seg)? as u16, s.value(off)? as u16),
    })
}

fn rw(word: Option<&str>) -> Option<(bool, bool)> {
    match word {
        Some("r") => Some((true, false)),
        Some("w") => Some((false, true)),
        Some("rw") | Some("wr") => Some((true, true)),
        _ => None,
    }
}

fn seconds_cycles(s: &Session, secs: u64) -> u64 {
    secs.saturating_mul(s.m.config().cpu_hz)
}

fn ran(s: &mut Session, stop: Stop) -> String {
    let mut t = String::from_utf8_lossy(&std::mem::take(&mut s.output)).into_owned();
    if !t.is_empty() && !t.ends_with('\n') {
        t.push('\n');
    }
    t + &s.stop_text(&stop)
}

/// How deep `bload` scripts may load one another (a script that loads
/// itself ends here with an error, not with the host's stack).
pub const MAX_BLOAD_DEPTH: usize = 8;
/// The largest script `bload` reads.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;

/// Writes a save state of the session to `file`.
pub fn save_state(s: &Session, file: &std::path::Path) -> Result<(), String> {
    let meta = dos::state::Meta {
        tandem: env!("CARGO_PKG_VERSION").into(),
        program: String::new(),
        origin_cycle: s.m.cycles(),
    };
    dos::state::write_file(file, &s.m, &s.dos, &meta)
        .map_err(|e| format!("{}: {e}", file.display()))
}

/// Runs one command line.
pub fn execute(s: &mut Session, line: &str) -> Result<Outcome, String> {
    execute_nested(s, line, 0)
}

/// Reads a `bload` script: at most [`MAX_SCRIPT_BYTES`] of UTF-8 text.
fn read_script(f: &str) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(f).map_err(|e| format!("{f}: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_SCRIPT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{f}: {e}"))?;
    if bytes.len() as u64 > MAX_SCRIPT_BYTES {
        return Err(format!("{f}: longer than {MAX_SCRIPT_BYTES} bytes"));
    }
    String::from_utf8(bytes).map_err(|_| format!("{f}: not UTF-8 text"))
}

/// Runs one command line of a script loaded `depth` deep.
fn execute_nested(s: &mut Session, line: &str, depth: usize) -> Result<Outcome, String> {
    let line = line.trim();
    let (cmd, rest) = match line.split_once(char::is_whitespace) {
        Some((c, r)) => (c, r.trim()),
        None => (line, ""),
    };
    let args: Vec<&str> = rest.split_whitespace().collect();
    let limit = seconds_cycles(s, DEFAULT_SECONDS);
    let mut out = Outcome::default();
    let text = &mut out.text;
    match cmd.to_ascii_lowercase().as_str() {
        "" | "#" => {}
        c if c.starts_with('#') => {}
        "h" | "help" | "?" => text.push_str(HELP),
        "q" | "quit" | "exit" => out.quit = true,
        "s" | "step" | "si" => {
            let n = match args.first() {
                Some(a) => parse_num(a)? as u64,
                None => 1,
            };
            let stop = s.step(n.max(1));
            *text = ran(s, stop);
        }
        "n" | "next" | "over" => {
            let stop = s.step_over(limit);
            *text = ran(s, stop);
        }
        "finish" | "out" => {
            let stop = s.step_out(limit);
            *text = ran(s, stop);
        }
        "c" | "cont" | "continue" | "g" => {
            let secs = match args.first() {
                Some(a) => a
                    .trim_start_matches('#')
                    .parse::<u64>()
                    .map_err(|_| format!("'{a}' is not a number of seconds"))?,
                None => DEFAULT_SECONDS,
            };
            let stop = s.cont(seconds_cycles(s, secs));
            *text = ran(s, stop);
        }
        "go" | "until" => {
            let a = parse_addr(args.first().ok_or("go ADDR")?)?;
            let at = exec_at(s, &a)?;
            let stop = s.run_to(at, limit);
            *text = ran(s, stop);
        }
        "key" | "type" => {
            let mut t = rest.replace("\\n", "\n").into_bytes();
            if t.is_empty() {
                t.push(b'\n');
            }
            s.dos.type_text(&t);
            let _ = write!(text, "typed {} bytes", t.len());
        }
        "b" | "break" | "bp" => {
            let (a, cond) = split_cond(rest);
            let addr = parse_addr(a.trim())?;
            let at = exec_at(s, &addr)?;
            let cond = cond.map(parse_cond).transpose()?;
            let n = s.add_bp(BpKind::Exec(at), cond, format!("break {rest}"), false);
            let _ = write!(text, "#{n} break at {}", exec_text(at));
        }
        "watch" | "w" => {
            let (a, cond) = split_cond(rest);
            let mut words: Vec<&str> = a.split_whitespace().collect();
            let (read, write) = match rw(words.first().copied()) {
                Some(x) => {
                    words.remove(0);
                    x
                }
                None => (false, true),
            };
            let addr = parse_addr(words.first().ok_or("watch [r|w|rw] ADDR [LEN]")?)?;
            let len = match words.get(1) {
                Some(l) => parse_num(l)?.max(1),
                None => 1,
            };
            let start = s.linear(&addr)?;
            let cond = cond.map(parse_cond).transpose()?;
            let n = s.add_bp(
                BpKind::Mem {
                    read,
                    write,
                    start,
                    end: start + len - 1,
                },
                cond,
                format!("watch {rest}"),
                false,
            );
            let _ = write!(
                text,
                "#{n} watch {}{} {start:05X}-{:05X}",
                if read { "r" } else { "" },
                if write { "w" } else { "" },
                start + len - 1
            );
        }
        "port" => {
            let mut words = args.clone();
            let (read, write) = match rw(words.first().copied()) {
                Some(x) => {
                    words.remove(0);
                    x
                }
                None => (true, true),
            };
            let p = words.first().ok_or("port [r|w|rw] PORT[-PORT]")?;
            let (a, b) = match p.split_once('-') {
                Some((a, b)) => (parse_num(a)?, parse_num(b)?),
                None => (parse_num(p)?, parse_num(p)?),
            };
            let n = s.add_bp(
                BpKind::Port {
                    read,
                    write,
                    start: a as u16,
                    end: b as u16,
                },
                None,
                format!("port {rest}"),
                false,
            );
            let _ = write!(text, "#{n} port {a:04X}-{b:04X}");
        }
        "int" => {
            let v = parse_num(args.first().ok_or("int VEC [ah=XX] [al=XX]")?)? as u8;
            let mut ah = None;
            let mut al = None;
            for w in &args[1..] {
                let w = w.to_ascii_lowercase();
                if let Some(x) = w.strip_prefix("ah=") {
                    ah = Some(parse_num(x)? as u8);
                } else if let Some(x) = w.strip_prefix("al=") {
                    al = Some(parse_num(x)? as u8);
                } else {
                    return Err(format!("'{w}': expected ah=XX or al=XX"));
                }
            }
            let n = s.add_bp(
                BpKind::Int { vector: v, ah, al },
                None,
                format!("int {rest}"),
                false,
            );
            let _ = write!(text, "#{n} int {v:02X}h");
        }
        "bl" => {
            for (n, bp) in s.bps.iter().enumerate() {
                if let Some(bp) = bp {
                    if !bp.temp {
                        let _ = writeln!(text, "#{n} {} (hits {})", bp.text, bp.hits);
                    }
                }
            }
            if text.is_empty() {
                text.push_str("no breakpoints");
            }
        }
        "bd" | "delete" => {
            let a = args.first().ok_or("bd N|all")?;
            if *a == "all" {
                s.bps.clear();
            } else {
                let n = a
                    .trim_start_matches('#')
                    .parse::<usize>()
                    .map_err(|_| format!("'{a}' is not a breakpoint number"))?;
                match s.bps.get_mut(n) {
                    Some(b @ Some(_)) => *b = None,
                    _ => return Err(format!("no breakpoint #{n}")),
                }
            }
            text.push_str("deleted");
        }
        "bsave" => {
            let f = args.first().ok_or("bsave FILE")?;
            let lines: String = s
                .bps
                .iter()
                .flatten()
                .filter(|b| !b.temp)
                .map(|b| format!("{}\n", b.text))
                .collect();
            std::fs::write(f, lines).map_err(|e| format!("{f}: {e}"))?;
            let _ = write!(text, "saved to {f}");
        }
        "bload" => {
            let f = args.first().ok_or("bload FILE")?;
            if depth >= MAX_BLOAD_DEPTH {
                return Err(format!(
                    "bload {f}: scripts nest more than {MAX_BLOAD_DEPTH} deep (does it load itself?)"
                ));
            }
            let body = read_script(f)?;
            for (n, l) in body.lines().enumerate() {
                if l.trim().is_empty() {
                    continue;
                }
                let o = match execute_nested(s, l, depth + 1) {
                    Ok(o) => o,
                    // The innermost script's line says where it failed.
                    Err(e) if e.starts_with("bload ") || e.contains(": line ") => return Err(e),
                    Err(e) => return Err(format!("{f}: line {}: {e}", n + 1)),
                };
                let _ = writeln!(text, "{}", o.text);
            }
        }
        "r" | "regs" | "reg" => {
            if rest.is_empty() {
                *text = s.regs_text();
            } else {
                for a in &args {
                    let (n, v) = a.split_once('=').ok_or("r NAME=VALUE")?;
                    let v = s.value(v)?;
                    if !s.set_reg(n, v) {
                        return Err(format!("no register '{n}'"));
                    }
                }
                *text = s.regs_text();
            }
        }
        "x" | "d" | "dump" => {
            let a = parse_addr(args.first().copied().unwrap_or("ds:0"))?;
            let len = match args.get(1) {
                Some(l) => parse_num(l)?,
                None => 0x40,
            };
            let base = s.linear(&a)?;
            let bytes = s.read_mem(base, len.min(0x10000) as usize);
            *text = hexdump(&a, base, &bytes, s);
        }
        "e" | "poke" => {
            let a = parse_addr(args.first().ok_or("e ADDR BYTE...")?)?;
            let base = s.linear(&a)?;
            let mut bytes = Vec::new();
            for w in &args[1..] {
                if let Some(q) = w.strip_prefix('"').and_then(|x| x.strip_suffix('"')) {
                    bytes.extend(q.bytes());
                } else {
                    bytes.push(parse_num(w)? as u8);
                }
            }
            let n = s.write_mem(base, &bytes);
            let _ = write!(text, "wrote {n} of {} bytes at {base:05X}", bytes.len());
        }
        "u" | "disasm" => {
            let (cs, ip) = s.cs_ip();
            let (seg, mut off) = match args.first() {
                Some(a) => match parse_addr(a)? {
                    Addr::SegOff(x, y) => (s.value(&x)? as u16, s.value(&y)? as u16),
                    Addr::Linear(l) => ((l >> 4) as u16, (l & 0xF) as u16),
                },
                None => (cs, ip),
            };
            let n = match args.get(1) {
                Some(c) => parse_num(c)?,
                None => 10,
            };
            for _ in 0..n.min(1000) {
                let (l, len) = s.disasm_at(seg, off);
                let mark = if (seg, off) == (cs, ip) { "=>" } else { "  " };
                let _ = writeln!(text, "{mark} {l}");
                off = off.wrapping_add(len as u16);
            }
        }
        "ivt" => {
            let first = match args.first() {
                Some(a) => parse_num(a)?,
                None => 0,
            };
            let n = match args.get(1) {
                Some(c) => parse_num(c)?,
                None => 0x40,
            };
            for v in first..(first + n).min(0x100) {
                let off = s.m.peek16(v * 4);
                let seg = s.m.peek16(v * 4 + 2);
                let _ = write!(text, "{v:02X}: {seg:04X}:{off:04X}  ");
                if v % 4 == 3 {
                    text.push('\n');
                }
            }
        }
        "bt" | "stack" | "where" => *text = s.backtrace_text(),
        "pit" => {
            for (i, c) in s.m.bus.pit.channels.iter().enumerate() {
                let _ = writeln!(
                    text,
                    "channel {i}: mode {} count {:04X} out {} gate {} edges {}",
                    c.mode(),
                    c.count(),
                    c.out() as u8,
                    c.gate() as u8,
                    c.rising_edges()
                );
            }
        }
        "pic" => {
            for (n, p) in [
                ("master", &s.m.bus.pics.master),
                ("slave", &s.m.bus.pics.slave),
            ] {
                let _ = writeln!(
                    text,
                    "{n}: vector base {:02X}h IRR {:08b} ISR {:08b} IMR {:08b} lines {:08b}",
                    p.vector_base(),
                    p.irr,
                    p.isr,
                    p.imr,
                    p.lines()
                );
            }
        }
        "vga" => {
            let v = &s.m.bus.vga;
            let hex = |r: &[u8]| r.iter().map(|b| format!("{b:02X}")).collect::<Vec<_>>();
            let _ = writeln!(
                text,
                "BIOS mode {:02X}h  misc {:02X}",
                s.m.peek8(0x449),
                v.misc
            );
            let _ = writeln!(text, "sequencer  {}", hex(&v.seq.regs).join(" "));
            let _ = writeln!(text, "CRTC       {}", hex(&v.crtc.regs).join(" "));
            let _ = writeln!(text, "graphics   {}", hex(&v.gc.regs).join(" "));
            let _ = writeln!(text, "attribute  {}", hex(&v.attr.regs).join(" "));
        }
        "trace" => match args.first() {
            Some(&"off") => {
                s.set_trace(None)?;
                text.push_str("trace off");
            }
            Some(f) => {
                s.set_trace(Some(std::path::Path::new(f)))?;
                let _ = write!(text, "tracing to {f}");
            }
            None => return Err("trace FILE | trace off".into()),
        },
        "save" => {
            // The rest of the line is the path (it may hold spaces).
            if rest.is_empty() {
                return Err("save FILE".into());
            }
            save_state(s, std::path::Path::new(rest))?;
            let _ = write!(text, "state saved to {rest}");
        }
        other => return Err(format!("unknown command '{other}' (help lists them)")),
    }
    Ok(out)
}

fn exec_text(at: ExecAt) -> String {
    match at {
        ExecAt::SegOff(s, o) => format!("{s:04X}:{o:04X}"),
        ExecAt::Linear(l) => format!("{l:05X}"),
    }
}

fn hexdump(a: &Addr, base: u32, bytes: &[u8], s: &Session) -> String {
    let seg = match a {
        Addr::SegOff(x, _) => s.value(x).ok().map(|v| v as u16),
        Addr::Linear(_) => None,
    };
    let mut out = String::new();
    for (i, chunk) in bytes.chunks(16).enumerate() {
        let lin = base + 16 * i as u32;
        match seg {
            Some(sg) => {
                let off = lin.wrapping_sub((sg as u32) << 4) as u16;
                let _ = write!(out, "{sg:04X}:{off:04X}  ");
            }
            None => {
                let _ = write!(out, "{lin:05X}  ");
            }
        }
        for j in 0..16 {
            match chunk.get(j) {
                Some(b) => {
                    let _ = write!(out, "{b:02X} ");
                }
                None => out.push_str("   "),
            }
        }
        out.push(' ');
        for &b in chunk {
            out.push(if (0x20..0x7F).contains(&b) {
                b as char
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}
