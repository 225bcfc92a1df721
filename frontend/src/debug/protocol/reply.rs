//! Protocol answers: the engine's data as JSON fields.

use emu::HookEvent;
use serde_json::{json, Map, Value};

use crate::debug::command::{Regs, Reply, Watched};
use crate::debug::engine::{Debugger, Stop};
use crate::debug::writes::{Write, Writer};

/// The register names a `regs` object holds.
const REG_FIELDS: [&str; 16] = [
    "ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "cs", "ds", "es", "ss", "fs", "gs", "ip",
    "flags",
];

/// `regs`: the 16-bit registers, `pc` (linear CS:IP) and `cycles`.
pub fn regs_json(regs: &Regs) -> Value {
    let mut m = Map::new();
    for n in REG_FIELDS {
        let v = crate::debug::regs::RegName::parse(n).map_or(0, |r| r.read(&regs.r));
        m.insert(n.into(), json!(v));
    }
    m.insert("pc".into(), json!(regs.pc));
    m.insert("cycles".into(), json!(regs.cycles));
    Value::Object(m)
}

fn event_json(ev: HookEvent) -> Value {
    match ev {
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
        HookEvent::Interrupt { vector, ax } => json!({"kind": "int", "vector": vector, "ax": ax}),
    }
}

/// A stop: why, the instruction at CS:IP, the registers and the guest's
/// output since the last stop.
fn stop_json(s: &Debugger, stop: Stop, output: &[u8]) -> Map<String, Value> {
    let mut m = Map::new();
    match stop {
        Stop::Stepped => {
            m.insert("stop".into(), json!("step"));
        }
        Stop::Limit => {
            m.insert("stop".into(), json!("limit"));
        }
        Stop::HistoryStart => {
            m.insert("stop".into(), json!("history_start"));
        }
        Stop::Diverged(what) => {
            m.insert("stop".into(), json!("divergence"));
            m.insert("message".into(), json!(what));
        }
        Stop::Exited(c) => {
            m.insert("stop".into(), json!("exited"));
            m.insert("code".into(), json!(c));
        }
        Stop::Stopped(why) => {
            m.insert("stop".into(), json!("stopped"));
            m.insert("message".into(), json!(why.to_string()));
        }
        Stop::Ended(end) => {
            m.insert("stop".into(), json!("stopped"));
            m.insert("message".into(), json!(end.to_string()));
        }
        Stop::Breakpoint(n, rec) => {
            m.insert("stop".into(), json!("hook"));
            m.insert("hook".into(), json!(n));
            m.insert("event".into(), event_json(rec.event));
            let by = s.insn_at(rec.cs, rec.ip).to_string();
            m.insert("by".into(), json!({"cs": rec.cs, "ip": rec.ip, "text": by}));
        }
    }
    m.insert("at".into(), json!(s.insn_now().to_string()));
    m.insert("regs".into(), regs_json(&s.regs()));
    m.insert(
        "output".into(),
        json!(String::from_utf8_lossy(output).into_owned()),
    );
    m
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The answer's fields for a reply.
pub fn json(s: &Debugger, r: Reply) -> Map<String, Value> {
    let v = match r {
        Reply::Stopped { stop, output } => return stop_json(s, stop, &output),
        Reply::BreakAdded { n, .. } => json!({"hook": n}),
        Reply::Breaks(list) => json!({"hooks": list
            .iter()
            .map(|(n, b)| json!({"hook": n, "text": b.text, "hits": b.hits}))
            .collect::<Vec<_>>()}),
        Reply::Deleted | Reply::Quit => json!({}),
        Reply::Regs(regs) => json!({"regs": regs_json(&regs)}),
        Reply::Memory { base, bytes, .. } => json!({"addr": base, "hex": hex(&bytes)}),
        Reply::Written { written, .. } => json!({"written": written}),
        Reply::Typed(n) => json!({"typed": n}),
        Reply::Disasm { insns, .. } => json!({"insns": insns
            .iter()
            .map(|i| json!({"cs": i.seg, "ip": i.off, "hex": hex(&i.bytes), "text": i.text}))
            .collect::<Vec<_>>()}),
        Reply::Ivt(list) => json!({"vectors": list
            .iter()
            .map(|e| json!({"vector": e.vector, "seg": e.seg, "off": e.off}))
            .collect::<Vec<_>>()}),
        Reply::Backtrace { at, frames } => json!({
            "at": {"cs": at.0, "ip": at.1},
            "frames": frames.iter().rev().map(|f| json!({
                "from": {"cs": f.from.0, "ip": f.from.1},
                "to": {"cs": f.to.0, "ip": f.to.1},
                "ss": f.ss, "sp": f.sp, "int": f.int,
            })).collect::<Vec<_>>(),
        }),
        _ => device_json(r),
    };
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// The answer of the device views and the file commands.
fn device_json(r: Reply) -> Value {
    match r {
        Reply::Pit(chans) => json!({"channels": chans
            .iter()
            .map(|c| json!({"mode": c.mode, "count": c.count, "out": c.out, "gate": c.gate, "edges": c.edges}))
            .collect::<Vec<_>>()}),
        Reply::Pic(pics) => json!({"pics": pics
            .iter()
            .map(|p| json!({"name": p.name, "vector_base": p.vector_base, "irr": p.irr, "isr": p.isr, "imr": p.imr, "lines": p.lines}))
            .collect::<Vec<_>>()}),
        Reply::Dac(list) => json!({"dac": list
            .iter()
            .map(|(i, c)| json!({"index": i, "r": c[0], "g": c[1], "b": c[2]}))
            .collect::<Vec<_>>()}),
        Reply::Vga(v) => json!({
            "bios_mode": v.bios_mode, "misc": v.misc, "sequencer": hex(&v.seq),
            "crtc": hex(&v.crtc), "graphics": hex(&v.gc), "attribute": hex(&v.attr),
        }),
        Reply::Writes { what, writes } => writes_json(what, &writes),
        Reply::History(h) => json!({
            "start": h.start, "end": h.end, "now": h.now, "checkpoints": h.checkpoints,
            "bytes": h.bytes, "budget_mib": h.budget_mib, "interval": h.interval,
        }),
        Reply::Trace(p) => json!({"path": p.map(|p| p.to_string_lossy().into_owned())}),
        Reply::StateSaved(p) | Reply::BreaksSaved(p) => json!({"path": p.to_string_lossy()}),
        Reply::StateLoaded(p, regs) => {
            json!({"path": p.to_string_lossy(), "regs": regs_json(&regs)})
        }
        Reply::Screenshot {
            path,
            width,
            height,
        } => json!({"width": width, "height": height, "path": path.to_string_lossy()}),
        _ => json!({}),
    }
}

/// A history query's answer: what was watched and every write, oldest
/// first (`by` is an instruction, a service or the user).
fn writes_json(what: Watched, writes: &[Write]) -> Value {
    let watched = match what {
        Watched::Mem { start, len } => json!({"addr": start, "len": len}),
        Watched::Port(p) => json!({"port": p}),
    };
    let list: Vec<Value> = writes
        .iter()
        .map(|w| {
            let by = match &w.by {
                Writer::Cpu(i) => json!({"kind": "cpu", "cs": i.seg, "ip": i.off, "text": i.text}),
                Writer::Service { name, caller } => json!({
                    "kind": "service", "name": name, "cs": caller.0, "ip": caller.1,
                }),
                Writer::User => json!({"kind": "user"}),
            };
            json!({
                "cycle": w.cycle, "seconds": w.seconds, "frame": w.frame, "addr": w.addr,
                "old": hex(&w.old), "new": hex(&w.new), "by": by,
            })
        })
        .collect();
    json!({"watched": watched, "writes": list})
}
