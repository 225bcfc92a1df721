//! `tandem trace`'s instruction trace: CS:IP, the bytes' disassembly and
//! the registers before each instruction, from an address on. DOS and
//! BIOS services run as Rust code and show as nothing (the trace lists
//! instructions the CPU executed).

use std::io::Write;

use dos::{Exit, Session};
use emu::{ExecAt, HookAction, HookKind, Reg16, Registers, SegReg};

use crate::app::error::Error;

/// One trace line: the instruction at CS:IP and the registers before it.
pub fn line(m: &hw::Machine) -> String {
    let r = &m.cpu.regs;
    let (cs, ip) = (r.sreg(SegReg::CS), r.ip as u16);
    let lin = ((cs as u32) << 4) + ip as u32;
    let bytes: Vec<u8> = (0..15).map(|i| m.peek8(lin + i)).collect();
    let d = emu::disasm::disasm16(&bytes, ip as u32);
    format!("{cs:04X}:{ip:04X}  {d:<32} {}", registers(r))
}

/// The registers of a trace line: the 16-bit general registers, DS, ES,
/// SS and FLAGS (the debugger's `trace` file uses them too).
pub fn registers(r: &Registers) -> String {
    let g = |reg: Reg16| r.reg16(reg);
    format!(
        "AX={:04X} BX={:04X} CX={:04X} DX={:04X} SI={:04X} DI={:04X} BP={:04X} SP={:04X} DS={:04X} ES={:04X} SS={:04X} FL={:04X}",
        g(Reg16::AX),
        g(Reg16::BX),
        g(Reg16::CX),
        g(Reg16::DX),
        g(Reg16::SI),
        g(Reg16::DI),
        g(Reg16::BP),
        g(Reg16::SP),
        r.sreg(SegReg::DS),
        r.sreg(SegReg::ES),
        r.sreg(SegReg::SS),
        r.flags as u16
    )
}

/// Runs `s` until execution reaches `seg:off`, at most `limit` cycles;
/// how the run ended otherwise.
pub fn run_to(s: &mut Session, (seg, off): (u16, u16), limit: u64) -> Result<(), Exit> {
    s.m.cpu
        .hooks_mut()
        .add(HookKind::Exec(ExecAt::SegOff(seg, off)), HookAction::Stop);
    let r = s.run_for(limit);
    s.m.cpu.hooks = None;
    match r {
        Exit::HookStop => Ok(()),
        other => Err(other),
    }
}

/// Writes `count` instructions of `s` to `out`, one line each, and a last
/// line when the program ends or the run stops first. Returns the
/// instructions traced.
pub fn write(s: &mut Session, count: u64, out: &mut dyn Write) -> Result<u64, Error> {
    write_noting(s, count, out, &mut |_| None)
}

/// [`write`], with `note`'s comment (when it has one for the instruction
/// about to run) on a line of its own before it.
pub fn write_noting(
    s: &mut Session,
    count: u64,
    out: &mut dyn Write,
    note: &mut dyn FnMut(&Session) -> Option<String>,
) -> Result<u64, Error> {
    let cannot = |e: std::io::Error| Error::Input(format!("cannot write the trace: {e}"));
    let mut n = 0;
    while n < count {
        if let Some(c) = note(s) {
            writeln!(out, "; {c}").map_err(cannot)?;
        }
        let text = line(&s.m);
        let before = s.m.cycles();
        let r = s.run_for(1);
        // A service that ran in Rust executed no instruction.
        if s.m.cycles() != before {
            n += 1;
            writeln!(out, "{text}").map_err(cannot)?;
        }
        match r {
            Exit::Exited(code) => {
                writeln!(out, "; the program exited with code {code}").map_err(cannot)?;
                break;
            }
            Exit::Stopped(msg) => {
                writeln!(out, "; the run stopped: {msg}").map_err(cannot)?;
                break;
            }
            _ => {}
        }
    }
    out.flush().map_err(cannot)?;
    Ok(n)
}
