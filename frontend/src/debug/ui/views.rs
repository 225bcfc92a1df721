//! The views' data, one JSON object per refresh: registers and flags with
//! what changed, the code around CS:IP (or an address) with symbols and
//! breakpoints, the stack, a memory window with the bytes changed since
//! the last stop, the devices, the timeline and the golden master.

use emu::SegReg;
use serde_json::{json, Value};

use super::state::{Golden, Ui};
use crate::debug::breakpoints::BpKind;
use crate::debug::error::{Error, Result};
use crate::debug::parse::{parse_addr, parse_num, Addr};
use crate::debug::regs::RegName;

/// The most bytes the memory view shows at once.
pub const MAX_MEM_VIEW: usize = 4096;
/// The most lines the code view shows.
const MAX_CODE_LINES: usize = 200;

/// What a refresh asks to see.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// The memory view's address (an address or a symbol).
    pub mem: Option<String>,
    /// How many bytes it shows.
    pub mem_len: usize,
    /// The code view's first line (an address or a symbol); None: CS:IP.
    pub code: Option<String>,
    /// Move the code view to CS:IP when CS:IP is not on it.
    pub follow: bool,
    /// Lines of code.
    pub code_lines: usize,
}

impl Query {
    /// The query of a request's fields.
    pub fn of(v: &Value) -> Query {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let n = |k: &str, d: u64| v.get(k).and_then(Value::as_u64).unwrap_or(d) as usize;
        Query {
            mem: s("mem").filter(|t| !t.trim().is_empty()),
            mem_len: n("mem_len", 256).clamp(16, MAX_MEM_VIEW),
            code: s("code").filter(|t| !t.trim().is_empty()),
            follow: v.get("follow").and_then(Value::as_bool).unwrap_or(true),
            code_lines: n("code_lines", 32).clamp(1, MAX_CODE_LINES),
        }
    }
}

/// The 16-bit registers in the order the view shows them.
const REGS16: [&str; 14] = [
    "ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "cs", "ds", "es", "ss", "fs", "gs",
];
/// The flags the view shows: name and bit (Intel SDM vol. 1, 3.4.3).
const FLAGS: [(&str, u32); 9] = [
    ("OF", 11),
    ("DF", 10),
    ("IF", 9),
    ("TF", 8),
    ("SF", 7),
    ("ZF", 6),
    ("AF", 4),
    ("PF", 2),
    ("CF", 0),
];

impl Ui {
    /// An address the user typed: a symbol of the profile (`params`,
    /// `fountain+10`) or what the console takes (`ss:7935`, linear).
    pub fn resolve(&self, text: &str) -> Result<Addr> {
        let t = text.trim();
        let (name, plus) = match t.split_once('+') {
            Some((n, p)) => (n.trim(), Some(p.trim())),
            None => (t, None),
        };
        if let Some(sym) = self.symbols.as_ref().and_then(|s| s.get(name)) {
            let add = match plus {
                Some(p) => parse_num(p)? as u16,
                None => 0,
            };
            return Ok(Addr::SegOff(
                format!("{:X}", sym.seg),
                format!("{:X}", sym.off.wrapping_add(add)),
            ));
        }
        parse_addr(t)
    }

    /// Everything the views show now.
    pub fn view(&self, q: &Query) -> Result<Value> {
        let d = &self.d;
        let m = &d.core.m;
        let (cs, ip) = d.cs_ip();
        let hz = m.config().cpu_hz.max(1);
        Ok(json!({
            "running": self.running,
            "stop": self.last_stop,
            "cycle": m.cycles(),
            "seconds": m.cycles() as f64 / hz as f64,
            "video_frames": m.bus.dev.vga.frames(),
            "cpu": m.cpu.model.name(),
            "ended": d.ended.as_ref().map(|e| e.to_string()),
            "regs": self.regs_view(),
            "code": self.code_view(q, (cs, ip)).unwrap_or_else(|e| {
                let (anchor, lines) = self.around(cs, ip, q.code_lines);
                json!({"anchor": format!("{:04X}:{:04X}", anchor.0, anchor.1),
                    "lines": lines, "error": e.to_string()})
            }),
            "stack": self.stack_view(),
            "memory": self.mem_view(q).unwrap_or_else(|e| json!({"error": e.to_string(),
                "text": q.mem.clone().unwrap_or_default()})),
            "devices": super::devices::devices(d),
            "timeline": self.timeline(),
            "breakpoints": self.breakpoints(),
            "golden": self.golden_view(),
            "symbols": self.symbols.as_ref().map(|s| s.all().iter().map(|x| json!({
                "name": x.name, "seg": x.seg, "off": x.off, "routine": x.routine,
                "section": x.section.name(),
            })).collect::<Vec<_>>()),
            "output": self.output,
            "screen": self.screen_info(),
        }))
    }

    fn regs_view(&self) -> Value {
        let r = &self.d.core.m.cpu.regs;
        let (base, _) = self.base();
        let wide = !matches!(
            self.d.core.m.cpu.model,
            emu::CpuModel::I8086 | emu::CpuModel::I286
        );
        let list: Vec<Value> = REGS16
            .iter()
            .chain(["ip", "flags"].iter())
            .filter(|n| wide || !matches!(**n, "fs" | "gs"))
            .filter_map(|n| {
                let name = if wide && !matches!(*n, "cs" | "ds" | "es" | "ss" | "fs" | "gs") {
                    format!("e{n}")
                } else {
                    n.to_string()
                };
                let reg = RegName::parse(&name)?;
                let (now, was) = (reg.read(r), reg.read(&base.r));
                Some(json!({"name": name, "value": now, "changed": now != was,
                    "width": if name.starts_with('e') { 8 } else { 4 }}))
            })
            .collect();
        let flags: Vec<Value> = FLAGS
            .iter()
            .map(|&(n, b)| {
                json!({"name": n, "set": r.flags >> b & 1 != 0,
                    "changed": (r.flags ^ base.r.flags) >> b & 1 != 0})
            })
            .collect();
        json!({"list": list, "flags": flags, "pc": self.d.pc()})
    }

    fn code_view(&self, q: &Query, (cs, ip): (u16, u16)) -> Result<Value> {
        let d = &self.d;
        let at = |l: &[Value]| {
            l.iter()
                .position(|x| x["cs"] == json!(cs) && x["ip"] == json!(ip))
        };
        let (mut anchor, mut lines) = match &q.code {
            Some(t) => {
                let a = d.seg_off(&self.resolve(t)?)?;
                (a, self.disasm(a, q.code_lines))
            }
            None => self.around(cs, ip, q.code_lines),
        };
        if q.follow && q.code.is_some() && at(&lines).is_none() {
            (anchor, lines) = self.around(cs, ip, q.code_lines);
        }
        Ok(json!({"anchor": format!("{:04X}:{:04X}", anchor.0, anchor.1), "lines": lines}))
    }

    /// The code view around CS:IP: from the routine's symbol when CS:IP
    /// then shows with a few lines after it, else from CS:IP.
    fn around(&self, cs: u16, ip: u16, n: usize) -> ((u16, u16), Vec<Value>) {
        if let Some(sym) = self.symbols.as_ref().and_then(|s| s.nearest(cs, ip)) {
            let lines = self.disasm((cs, sym.off), n);
            let pos = lines
                .iter()
                .position(|x| x["cs"] == json!(cs) && x["ip"] == json!(ip));
            if pos.is_some_and(|p| p + 6 < n) {
                return ((cs, sym.off), lines);
            }
        }
        ((cs, ip), self.disasm((cs, ip), n))
    }

    fn disasm(&self, (seg, mut off): (u16, u16), n: usize) -> Vec<Value> {
        let d = &self.d;
        let now = d.cs_ip();
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let i = d.insn_at(seg, off);
            let linear = d.core.m.cpu.linear(seg, off);
            let bp = self.exec_bp(seg, off, linear);
            let label = self
                .symbols
                .as_ref()
                .and_then(|s| s.label(seg, off))
                .map(|s| s.name.clone());
            out.push(json!({
                "cs": seg, "ip": off, "linear": linear,
                "hex": i.bytes.iter().map(|b| format!("{b:02X}")).collect::<String>(),
                "text": i.text, "label": label, "bp": bp,
                "current": (seg, off) == now,
                "target": self.branch_symbol(&i.text, seg),
            }));
            off = off.wrapping_add(i.bytes.len().max(1) as u16);
        }
        out
    }

    /// The symbol a near CALL or JMP goes to, when it has one.
    fn branch_symbol(&self, text: &str, seg: u16) -> Option<String> {
        let s = self.symbols.as_ref()?;
        let (m, arg) = text.split_once(' ')?;
        if !m.starts_with('j') && m != "call" && m != "loop" {
            return None;
        }
        let hex = arg.trim().strip_suffix('h')?;
        let off = u16::from_str_radix(hex, 16).ok()?;
        s.describe(seg, off)
    }

    /// The number of the breakpoint on this instruction, if any.
    pub fn exec_bp(&self, seg: u16, off: u16, linear: u32) -> Option<usize> {
        self.d.bps.iter().enumerate().find_map(|(n, b)| {
            let b = b.as_ref()?;
            if b.temp {
                return None;
            }
            match b.kind {
                BpKind::Exec(emu::ExecAt::SegOff(s, o)) if (s, o) == (seg, off) => Some(n),
                BpKind::Exec(emu::ExecAt::Linear(l)) if l == linear => Some(n),
                _ => None,
            }
        })
    }

    fn stack_view(&self) -> Value {
        let d = &self.d;
        let r = &d.core.m.cpu.regs;
        let ss = r.sreg(SegReg::SS);
        let sp = r.gpr[4] as u16;
        let cs = r.sreg(SegReg::CS);
        let words: Vec<Value> = (0..24u16)
            .map(|i| {
                let off = sp.wrapping_add(2 * i);
                let v = d.core.m.peek16(d.core.m.cpu.linear(ss, off));
                // A word that is a return address into the code segment
                // with a symbol before it.
                let sym = self.symbols.as_ref().and_then(|s| s.describe(cs, v));
                json!({"off": off, "value": v, "symbol": sym})
            })
            .collect();
        let frames: Vec<Value> = d
            .frames
            .iter()
            .rev()
            .map(|f| {
                let name =
                    |(s, o): (u16, u16)| self.symbols.as_ref().and_then(|x| x.describe(s, o));
                json!({
                    "from": format!("{:04X}:{:04X}", f.from.0, f.from.1),
                    "to": format!("{:04X}:{:04X}", f.to.0, f.to.1),
                    "from_symbol": name(f.from), "to_symbol": name(f.to),
                    "int": f.int, "sp": f.sp,
                })
            })
            .collect();
        json!({"ss": ss, "sp": sp, "words": words, "frames": frames})
    }

    fn mem_view(&self, q: &Query) -> Result<Value> {
        let d = &self.d;
        let text = q.mem.clone().unwrap_or_else(|| "ds:0".into());
        let a = self.resolve(&text)?;
        let start = d.linear(&a)?;
        let seg = match &a {
            Addr::SegOff(..) => Some(d.seg_off(&a)?.0),
            Addr::Linear(_) => None,
        };
        let len = q.mem_len.min(MAX_MEM_VIEW);
        let bytes = d.read_mem(start, len);
        let (_, base) = self.base();
        let changed: Vec<usize> = (0..len)
            .filter(|&i| {
                let at = start as usize + i;
                at < base.len() && base[at] != bytes[i]
            })
            .collect();
        let watched: Vec<usize> = (0..len)
            .filter(|&i| self.watched(start.wrapping_add(i as u32)))
            .collect();
        let names: Vec<Value> = self
            .symbols
            .as_ref()
            .map(|s| {
                s.all()
                    .iter()
                    .filter(|x| x.linear() >= start && x.linear() < start + len as u32)
                    .map(|x| json!({"name": x.name, "index": x.linear() - start}))
                    .collect()
            })
            .unwrap_or_default();
        if start.checked_add(len as u32).is_none() {
            return Err(Error::BadAddress {
                start,
                len: len as u32,
            });
        }
        Ok(json!({
            "text": text, "linear": start, "seg": seg,
            "off": seg.map(|s| start.wrapping_sub((s as u32) << 4)),
            "hex": bytes.iter().map(|b| format!("{b:02X}")).collect::<String>(),
            "changed": changed, "watched": watched, "symbols": names,
        }))
    }

    fn watched(&self, linear: u32) -> bool {
        self.d.bps.iter().flatten().any(
            |b| matches!(b.kind, BpKind::Mem { start, end, .. } if (start..=end).contains(&linear)),
        )
    }

    fn timeline(&self) -> Value {
        let now = self.d.core.m.cycles();
        let (start, end) = match self.d.history.as_ref() {
            Some(h) => (h.start().unwrap_or(now), h.end().max(now)),
            None => (now, now),
        };
        json!({
            "kept": self.d.history.is_some(),
            "start": start, "end": end, "now": now,
            "markers": self.markers.iter().map(|m| json!({
                "cycle": m.cycle, "kind": m.kind, "text": m.text,
            })).collect::<Vec<_>>(),
        })
    }

    fn breakpoints(&self) -> Value {
        let list: Vec<Value> = self
            .d
            .bps
            .iter()
            .enumerate()
            .filter_map(|(n, b)| {
                let b = b.as_ref()?;
                (!b.temp).then(|| json!({"n": n, "text": b.text, "hits": b.hits}))
            })
            .collect();
        json!(list)
    }

    fn golden_view(&self) -> Value {
        let live = self
            .d
            .observer
            .as_ref()
            .and_then(|o| o.as_any().downcast_ref::<crate::golden::live::Live>())
            .map(|l| Golden {
                status: Some(l.status()),
                frames: l.frames.iter().copied().collect(),
                report: l.report.clone(),
                writer: l
                    .report
                    .as_ref()
                    .and_then(|r| r.written_by.as_ref())
                    .and_then(|w| super::divergence::seg_off(&w.instruction)),
            });
        let Some(g) = live.as_ref().or(self.golden.as_ref()) else {
            return Value::Null;
        };
        let report = g.report.as_ref().map(|r| {
            json!({
                "lines": r.lines(), "frame": r.frame, "cycle": r.cycle, "slot": r.slot,
                "expected": r.expected, "actual": r.actual, "what": r.what, "at": r.at,
                "written_by": r.written_by.as_ref().map(|w| json!({
                    "instruction": w.instruction, "cycle": w.cycle, "frame": w.frame,
                })),
            })
        });
        json!({
            "profile": self.symbols.as_ref().map(|s| s.profile.clone()),
            "status": g.status,
            "frames": g.frames.iter().rev().take(200).map(|&(c, ok)| json!({"cycle": c, "ok": ok})).collect::<Vec<_>>(),
            "report": report,
            "writer": g.writer.map(|(s, o)| format!("{s:04X}:{o:04X}")),
        })
    }

    fn screen_info(&self) -> Value {
        let v = &self.d.core.m.bus.dev.vga;
        let c = &v.crtc;
        json!({"frames": v.frames(), "graphics": v.gc.graphics(),
            "h_display": c.h_display(), "v_display": c.v_display()})
    }
}
