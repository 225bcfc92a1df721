//! The console's presentation of the engine's data: stop reports,
//! register lines, hex dumps, disassembly, breakpoint and device views.

use std::fmt::Write as _;

use emu::{ExecAt, HookEvent};

use super::breakpoints::BpKind;
use super::command::{Regs, Reply, Watched};
use super::engine::{Changes, Debugger, Stop};
use super::writes::{Write, Writer};

/// The flag letters set in `f` (o d i t s z a p c).
pub fn flags_text(f: u32) -> String {
    const BITS: [(u32, char); 9] = [
        (11, 'o'),
        (10, 'd'),
        (9, 'i'),
        (8, 't'),
        (7, 's'),
        (6, 'z'),
        (4, 'a'),
        (2, 'p'),
        (0, 'c'),
    ];
    BITS.iter()
        .map(|&(b, c)| {
            if f >> b & 1 != 0 {
                c.to_ascii_uppercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// The two register lines.
pub fn regs_text(regs: &Regs) -> String {
    let r = &regs.r;
    let mut s = String::new();
    // AX BX CX DX SP BP SI DI, as DEBUG shows them.
    for (n, idx) in [
        ("AX", 0),
        ("BX", 3),
        ("CX", 1),
        ("DX", 2),
        ("SP", 4),
        ("BP", 5),
        ("SI", 6),
        ("DI", 7),
    ] {
        let _ = write!(s, "{n}={:04X} ", r.gpr[idx] & 0xFFFF);
    }
    s.pop();
    s.push('\n');
    // DS ES SS CS (indices into `seg`: ES CS SS DS FS GS).
    for (n, idx) in [("DS", 3), ("ES", 0), ("SS", 2), ("CS", 1)] {
        let _ = write!(s, "{n}={:04X} ", r.seg[idx]);
    }
    let _ = write!(
        s,
        "IP={:04X} FLAGS={:04X} {}  cycle {}",
        r.ip & 0xFFFF,
        r.flags & 0xFFFF,
        flags_text(r.flags),
        regs.cycles
    );
    s
}

/// One line per run of changed bytes.
pub fn changes_text(c: &Changes) -> String {
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02X}")).collect::<Vec<_>>();
    let mut out = String::new();
    for r in &c.runs {
        let _ = writeln!(
            out,
            "  {:05X} ({:04X}:{:04X}): {} -> {}",
            r.start,
            r.start >> 4,
            r.start & 0xF,
            hex(&r.old).join(" "),
            hex(&r.new).join(" ")
        );
    }
    if c.more > 0 {
        let _ = writeln!(out, "  ... {} more runs of changed bytes", c.more);
    }
    if out.is_empty() {
        "memory: no bytes changed\n".into()
    } else {
        format!("memory changed:\n{out}")
    }
}

/// What a hook event was, in words.
fn event_text(ev: HookEvent) -> String {
    match ev {
        HookEvent::Exec { .. } => "breakpoint".to_string(),
        HookEvent::MemRead {
            linear,
            size,
            value,
        } => format!("read of {linear:05X} ({size} bytes, {value:X}h)"),
        HookEvent::MemWrite {
            linear,
            size,
            value,
        } => format!("write of {value:X}h to {linear:05X} ({size} bytes)"),
        HookEvent::PortRead { port, value, .. } => format!("port read {port:04X}h -> {value:X}h"),
        HookEvent::PortWrite { port, value, .. } => {
            format!("port write {port:04X}h <- {value:X}h")
        }
        HookEvent::Interrupt { vector, ax } => format!("INT {vector:02X}h AX={ax:04X}"),
    }
}

/// The report printed at every stop: why, the instruction, the registers
/// and the bytes that changed since the previous report.
pub fn stop_text(s: &mut Debugger, stop: &Stop) -> String {
    let mut t = String::new();
    match stop {
        Stop::Stepped => {}
        Stop::Breakpoint(n, rec) => {
            let _ = writeln!(t, "stopped: #{n} {}", event_text(rec.event));
            if !matches!(rec.event, HookEvent::Exec { .. }) {
                let _ = writeln!(t, "by     {}", s.insn_at(rec.cs, rec.ip));
            }
        }
        Stop::Exited(c) => {
            let _ = writeln!(t, "the program exited with code {c}");
        }
        Stop::Stopped(why) => {
            let _ = writeln!(t, "stopped: {why}");
        }
        Stop::Ended(end) => {
            let _ = writeln!(t, "stopped: {end}");
        }
        Stop::Limit => {
            let _ = writeln!(t, "stopped: the command's time limit passed");
        }
        Stop::Diverged(what) => {
            let _ = writeln!(t, "the program diverged from the models: {what}");
        }
        Stop::HistoryStart => {
            let _ = writeln!(t, "stopped: the start of the history");
        }
    }
    let _ = writeln!(t, "=>     {}", s.insn_now());
    let _ = writeln!(t, "{}", regs_text(&s.regs()));
    t.push_str(&changes_text(&s.take_changes()));
    t
}

fn exec_text(at: ExecAt) -> String {
    match at {
        ExecAt::SegOff(s, o) => format!("{s:04X}:{o:04X}"),
        ExecAt::Linear(l) => format!("{l:05X}"),
    }
}

/// A breakpoint just set.
fn added_text(n: usize, kind: &BpKind) -> String {
    match *kind {
        BpKind::Exec(at) => format!("#{n} break at {}", exec_text(at)),
        BpKind::Mem {
            read,
            write,
            start,
            end,
        } => format!(
            "#{n} watch {}{} {start:05X}-{end:05X}",
            if read { "r" } else { "" },
            if write { "w" } else { "" },
        ),
        BpKind::Port { start, end, .. } => format!("#{n} port {start:04X}-{end:04X}"),
        BpKind::Int { vector, .. } => format!("#{n} int {vector:02X}h"),
    }
}

/// Sixteen bytes a line, addressed as SEG:OFF when the dump was asked for
/// that way, with their ASCII.
fn hexdump(seg: Option<u16>, base: u32, bytes: &[u8]) -> String {
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
        out.extend(chunk.iter().map(|&b| {
            if (0x20..0x7F).contains(&b) {
                b as char
            } else {
                '.'
            }
        }));
        out.push('\n');
    }
    out
}

/// The guest's output, ended by a newline, then the stop report.
fn ran_text(s: &mut Debugger, stop: &Stop, output: &[u8]) -> String {
    let mut t = String::from_utf8_lossy(output).into_owned();
    if !t.is_empty() && !t.ends_with('\n') {
        t.push('\n');
    }
    t + &stop_text(s, stop)
}

/// The console's text for a reply.
pub fn reply_text(s: &mut Debugger, r: &Reply) -> String {
    match r {
        Reply::Stopped { stop, output } => ran_text(s, stop, output),
        Reply::BreakAdded { n, kind } => added_text(*n, kind),
        Reply::Breaks(list) if list.is_empty() => "no breakpoints".into(),
        Reply::Breaks(list) => list
            .iter()
            .map(|(n, bp)| format!("#{n} {} (hits {})\n", bp.text, bp.hits))
            .collect(),
        Reply::Deleted => "deleted".into(),
        Reply::BreaksSaved(f) => format!("saved to {}", f.display()),
        Reply::Regs(regs) => regs_text(regs),
        Reply::Memory { seg, base, bytes } => hexdump(*seg, *base, bytes),
        Reply::Written { base, written, of } => {
            format!("wrote {written} of {of} bytes at {base:05X}")
        }
        Reply::Typed(n) => format!("typed {n} bytes"),
        Reply::Writes { what, writes } => writes_text(*what, writes),
        Reply::History(h) => format!(
            "history: cycles {} to {} (now {}), {} checkpoints, {:.1} MiB of {} MiB, \
             a checkpoint every {} steps",
            h.start,
            h.end,
            h.now,
            h.checkpoints,
            h.bytes as f64 / (1 << 20) as f64,
            h.budget_mib,
            h.interval
        ),
        _ => view_text(r),
    }
}

/// The writes a history query found, one line each: cycle, emulated
/// time, frame, who, where, old -> new.
fn writes_text(what: Watched, writes: &[Write]) -> String {
    let hex = |b: &[u8]| {
        b.iter()
            .map(|x| format!("{x:02X}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut t = match what {
        Watched::Mem { start, len } => format!(
            "{} writes to {start:05X}-{:05X} in the history\n",
            writes.len(),
            start.wrapping_add(len - 1)
        ),
        Watched::Port(p) => format!("{} writes to port {p:04X}h in the history\n", writes.len()),
    };
    for w in writes {
        let by = match &w.by {
            Writer::Cpu(i) => i.to_string(),
            Writer::Service { name, caller } => {
                format!("{name} (called from {:04X}:{:04X})", caller.0, caller.1)
            }
            Writer::User => "the debugger's user".into(),
        };
        let old = if w.old.is_empty() {
            "--".to_string()
        } else {
            hex(&w.old)
        };
        let _ = writeln!(
            t,
            "cycle {:>12}  {:>10.6} s  frame {:>6}  {:05X}: {old} -> {}  by {by}",
            w.cycle,
            w.seconds,
            w.frame,
            w.addr,
            hex(&w.new)
        );
    }
    t
}

/// The text of the views and file replies.
fn view_text(r: &Reply) -> String {
    let mut t = String::new();
    match r {
        Reply::Disasm { current, insns } => {
            for i in insns {
                let mark = if (i.seg, i.off) == *current {
                    "=>"
                } else {
                    "  "
                };
                let _ = writeln!(t, "{mark} {i}");
            }
        }
        Reply::Ivt(list) => {
            for e in list {
                let _ = write!(t, "{:02X}: {:04X}:{:04X}  ", e.vector, e.seg, e.off);
                if e.vector % 4 == 3 {
                    t.push('\n');
                }
            }
        }
        Reply::Backtrace { at, frames } => {
            let _ = writeln!(t, "#0  {:04X}:{:04X}", at.0, at.1);
            for (i, f) in frames.iter().rev().enumerate() {
                let _ = writeln!(
                    t,
                    "#{:<2} {:04X}:{:04X}  {} {:04X}:{:04X} (stack {:04X}:{:04X})",
                    i + 1,
                    f.from.0,
                    f.from.1,
                    if f.int { "int ->" } else { "call ->" },
                    f.to.0,
                    f.to.1,
                    f.ss,
                    f.sp
                );
            }
        }
        Reply::Pit(chans) => {
            for (i, c) in chans.iter().enumerate() {
                let _ = writeln!(
                    t,
                    "channel {i}: mode {} count {:04X} out {} gate {} edges {}",
                    c.mode, c.count, c.out as u8, c.gate as u8, c.edges
                );
            }
        }
        Reply::Pic(pics) => {
            for p in pics {
                let _ = writeln!(
                    t,
                    "{}: vector base {:02X}h IRR {:08b} ISR {:08b} IMR {:08b} lines {:08b}",
                    p.name, p.vector_base, p.irr, p.isr, p.imr, p.lines
                );
            }
        }
        Reply::Vga(v) => {
            let hex = |r: &[u8]| r.iter().map(|b| format!("{b:02X}")).collect::<Vec<_>>();
            let _ = writeln!(t, "BIOS mode {:02X}h  misc {:02X}", v.bios_mode, v.misc);
            let _ = writeln!(t, "sequencer  {}", hex(&v.seq).join(" "));
            let _ = writeln!(t, "CRTC       {}", hex(&v.crtc).join(" "));
            let _ = writeln!(t, "graphics   {}", hex(&v.gc).join(" "));
            let _ = writeln!(t, "attribute  {}", hex(&v.attr).join(" "));
        }
        Reply::Dac(list) => {
            // Four entries a line: `II: RR GG BB`, 6-bit values in hex.
            for row in list.chunks(4) {
                let cells: Vec<String> = row
                    .iter()
                    .map(|(i, c)| format!("{i:02X}: {:02X} {:02X} {:02X}", c[0], c[1], c[2]))
                    .collect();
                let _ = writeln!(t, "{}", cells.join("   "));
            }
        }
        _ => t = file_text(r),
    }
    t
}

/// The text of the file replies.
fn file_text(r: &Reply) -> String {
    match r {
        Reply::Trace(None) => "trace off".into(),
        Reply::Trace(Some(f)) => format!("tracing to {}", f.display()),
        Reply::StateSaved(f) => format!("state saved to {}", f.display()),
        Reply::StateLoaded(f, regs) => {
            format!("state loaded from {}\n{}", f.display(), regs_text(regs))
        }
        Reply::Screenshot {
            path,
            width,
            height,
        } => format!("{width}x{height} screen written to {}", path.display()),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_letters_are_upper_case_when_set() {
        assert_eq!(flags_text(0x0001), "--------C");
        assert_eq!(flags_text(0x0A40), "O-I--Z---");
    }

    #[test]
    fn a_dump_by_segment_shows_offsets_and_ascii() {
        let d = hexdump(Some(0x100), 0x1010, b"AB\x01");
        assert!(d.starts_with("0100:0010  41 42 01 "), "{d}");
        assert!(d.trim_end().ends_with("AB."), "{d}");
    }
}
