//! The debugger's engine, shared by the command line, the control
//! protocol and the GDB stub: a machine with DOS, breakpoints mapped onto
//! the CPU's hooks, stepping one instruction at a time (DOS traps
//! serviced on the way), a call stack built from CALL/RET, the bytes
//! changed between stops, and an optional trace file.

use std::fmt::Write as _;
use std::io::Write as _;

use dos::{Dos, Flow};
use emu::{ExecAt, HookAction, HookEvent, HookKind, HookRecord, SegReg};
use hw::{Machine, RunExit};
use iced_x86::{Decoder, DecoderOptions, Formatter, Instruction, IntelFormatter, Mnemonic};

/// Register names in the order the register line shows them.
pub const REG_NAMES: [&str; 8] = ["ax", "cx", "dx", "bx", "sp", "bp", "si", "di"];

/// What a breakpoint watches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BpKind {
    /// Execution at an address.
    Exec(ExecAt),
    /// Memory reads and/or writes in a linear range (inclusive).
    Mem {
        read: bool,
        write: bool,
        start: u32,
        end: u32,
    },
    /// Port reads and/or writes in a range (inclusive).
    Port {
        read: bool,
        write: bool,
        start: u16,
        end: u16,
    },
    /// An interrupt, optionally only for one AH and AL.
    Int {
        vector: u8,
        ah: Option<u8>,
        al: Option<u8>,
    },
}

/// A value a condition reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A 16-bit register (or a segment register, IP, FLAGS).
    Reg(String),
    /// A byte of memory at a linear address.
    Byte(Addr),
    /// A word of memory.
    Word(Addr),
}

/// An address as typed: SEG:OFF (either may be a register) or linear.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Addr {
    /// Segment and offset: each a number or a register name.
    SegOff(String, String),
    /// A linear address.
    Linear(u32),
}

/// A breakpoint condition: OPERAND OP VALUE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cond {
    /// What is compared.
    pub lhs: Operand,
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    pub op: String,
    /// With this.
    pub rhs: u32,
}

/// A breakpoint.
#[derive(Clone, Debug)]
pub struct Bp {
    /// What it watches.
    pub kind: BpKind,
    /// Stop only when this holds.
    pub cond: Option<Cond>,
    /// The command that set it (for listing and saving).
    pub text: String,
    /// Times it stopped the program.
    pub hits: u64,
    /// A temporary breakpoint (step over, run to): deleted when it stops.
    pub temp: bool,
}

/// Why a run stopped.
#[derive(Clone, Debug)]
pub enum Stop {
    /// The requested steps were done.
    Stepped,
    /// A breakpoint stopped it (its number and the CPU's record).
    Breakpoint(usize, HookRecord),
    /// The program terminated with this code.
    Exited(u8),
    /// The run stopped (halt with IF clear, reset, unsupported).
    Stopped(String),
    /// The cycle budget of the command ran out.
    Limit,
}

/// One frame of the call stack.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    /// Where the CALL or INT was.
    pub from: (u16, u16),
    /// Where it went.
    pub to: (u16, u16),
    /// SS:SP after the return address was pushed.
    pub ss: u16,
    /// See `ss`.
    pub sp: u16,
    /// An INT (IRET returns) rather than a CALL.
    pub int: bool,
}

/// The debugger's state.
pub struct Session {
    /// The PC.
    pub m: Machine,
    /// DOS.
    pub dos: Dos,
    /// Breakpoints by number (None: deleted).
    pub bps: Vec<Option<Bp>>,
    /// The call stack.
    pub frames: Vec<Frame>,
    /// Memory at the previous stop.
    prev_mem: Vec<u8>,
    /// The trace file, when on.
    trace: Option<std::io::BufWriter<std::fs::File>>,
    /// Hook index -> breakpoint number.
    hook_bp: Vec<usize>,
    /// The program has ended (no more running).
    pub ended: Option<String>,
    /// Guest text not yet shown.
    pub output: Vec<u8>,
}

/// How much memory the changed-bytes report compares: the first MiB and
/// the HMA.
const DIFF_LEN: usize = 0x11_0000;

impl Session {
    /// A session over a machine with its program loaded.
    pub fn new(m: Machine, dos: Dos) -> Self {
        let mut s = Session {
            m,
            dos,
            bps: Vec::new(),
            frames: Vec::new(),
            prev_mem: Vec::new(),
            trace: None,
            hook_bp: Vec::new(),
            ended: None,
            output: Vec::new(),
        };
        s.prev_mem = s.mem_snapshot();
        s
    }

    fn mem_snapshot(&self) -> Vec<u8> {
        let b = self.m.bus.mem.bytes();
        b[..b.len().min(DIFF_LEN)].to_vec()
    }

    /// CS and IP.
    pub fn cs_ip(&self) -> (u16, u16) {
        (self.m.cpu.regs.sreg(SegReg::CS), self.m.cpu.regs.ip as u16)
    }

    /// The linear address of CS:IP.
    pub fn pc(&self) -> u32 {
        let (cs, ip) = self.cs_ip();
        self.m.cpu.linear(cs, ip)
    }

    /// Reads a register by name (16-bit GPRs, 8-bit halves, segment
    /// registers, ip, flags, and e-prefixed 32-bit GPRs).
    pub fn reg(&self, name: &str) -> Option<u32> {
        let r = &self.m.cpu.regs;
        let n = name.to_ascii_lowercase();
        if let Some(i) = REG_NAMES.iter().position(|&x| x == n) {
            return Some(r.gpr[i] & 0xFFFF);
        }
        if let Some(i) = n
            .strip_prefix('e')
            .and_then(|x| REG_NAMES.iter().position(|&y| y == x))
        {
            return Some(r.gpr[i]);
        }
        let half = ["al", "cl", "dl", "bl", "ah", "ch", "dh", "bh"];
        if let Some(i) = half.iter().position(|&x| x == n) {
            return Some(r.get8(i as u8) as u32);
        }
        let segs = ["es", "cs", "ss", "ds", "fs", "gs"];
        if let Some(i) = segs.iter().position(|&x| x == n) {
            return Some(r.seg[i] as u32);
        }
        match n.as_str() {
            "ip" => Some(r.ip & 0xFFFF),
            "eip" => Some(r.ip),
            "flags" | "fl" => Some(r.flags & 0xFFFF),
            "eflags" => Some(r.flags),
            _ => None,
        }
    }

    /// Writes a register by name; false for an unknown name.
    pub fn set_reg(&mut self, name: &str, v: u32) -> bool {
        let n = name.to_ascii_lowercase();
        let flags = self.m.cpu.normalize_flags(v);
        let r = &mut self.m.cpu.regs;
        if let Some(i) = REG_NAMES.iter().position(|&x| x == n) {
            r.put16(i as u8, v as u16);
        } else if let Some(i) = n
            .strip_prefix('e')
            .and_then(|x| REG_NAMES.iter().position(|&y| y == x))
        {
            r.gpr[i] = v;
        } else if let Some(i) = ["al", "cl", "dl", "bl", "ah", "ch", "dh", "bh"]
            .iter()
            .position(|&x| x == n)
        {
            r.put8(i as u8, v as u8);
        } else if let Some(i) = ["es", "cs", "ss", "ds", "fs", "gs"]
            .iter()
            .position(|&x| x == n)
        {
            r.seg[i] = v as u16;
        } else {
            match n.as_str() {
                "ip" | "eip" => r.ip = v,
                "flags" | "fl" | "eflags" => r.flags = flags,
                _ => return false,
            }
        }
        if n == "cs" || n == "ip" || n == "eip" {
            self.m.cpu.halted = false;
        }
        true
    }

    /// A number or register: hex by default (`0x`/`h` accepted, `#` for
    /// decimal).
    pub fn value(&self, s: &str) -> Result<u32, String> {
        if let Some(v) = self.reg(s) {
            return Ok(v);
        }
        parse_num(s)
    }

    /// The linear address of `a` now.
    pub fn linear(&self, a: &Addr) -> Result<u32, String> {
        match a {
            Addr::Linear(l) => Ok(*l),
            Addr::SegOff(s, o) => {
                let seg = self.value(s)? as u16;
                let off = self.value(o)? as u16;
                Ok(self.m.cpu.linear(seg, off))
            }
        }
    }

    /// Reads `len` bytes at linear `addr` (VGA memory reads FFh).
    pub fn read_mem(&self, addr: u32, len: usize) -> Vec<u8> {
        (0..len as u32)
            .map(|i| self.m.peek8(addr.wrapping_add(i)))
            .collect()
    }

    /// Writes bytes of RAM at linear `addr`; the count that landed in RAM.
    pub fn write_mem(&mut self, addr: u32, bytes: &[u8]) -> usize {
        let mut n = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if self.m.bus.mem.poke(addr.wrapping_add(i as u32), b) {
                n += 1;
            }
        }
        n
    }

    /// Decodes the instruction at `seg:off`.
    pub fn decode(&self, seg: u16, off: u16) -> Instruction {
        let bytes: Vec<u8> = (0..15u16)
            .map(|i| self.m.peek8(self.m.cpu.linear(seg, off.wrapping_add(i))))
            .collect();
        Decoder::with_ip(16, &bytes, off as u64, DecoderOptions::NONE).decode()
    }

    /// `SEG:OFF  bytes  text` for the instruction at `seg:off`; its length.
    pub fn disasm_at(&self, seg: u16, off: u16) -> (String, usize) {
        let ins = self.decode(seg, off);
        let mut text = String::new();
        let mut f = IntelFormatter::new();
        f.options_mut().set_hex_prefix("");
        f.options_mut().set_hex_suffix("h");
        f.options_mut().set_uppercase_hex(true);
        f.format(&ins, &mut text);
        let len = ins.len().max(1);
        let bytes: String = (0..len as u16)
            .map(|i| {
                format!(
                    "{:02X}",
                    self.m.peek8(self.m.cpu.linear(seg, off.wrapping_add(i)))
                )
            })
            .collect();
        (format!("{seg:04X}:{off:04X}  {bytes:<14} {text}"), len)
    }

    /// The register lines.
    pub fn regs_text(&self) -> String {
        let r = &self.m.cpu.regs;
        let mut s = String::new();
        for (i, n) in ["AX", "BX", "CX", "DX", "SP", "BP", "SI", "DI"]
            .iter()
            .enumerate()
        {
            let idx = [0, 3, 1, 2, 4, 5, 6, 7][i];
            let _ = write!(s, "{n}={:04X} ", r.gpr[idx] & 0xFFFF);
        }
        s.pop();
        s.push('\n');
        for (n, sr) in [
            ("DS", SegReg::DS),
            ("ES", SegReg::ES),
            ("SS", SegReg::SS),
            ("CS", SegReg::CS),
        ] {
            let _ = write!(s, "{n}={:04X} ", r.sreg(sr));
        }
        let _ = write!(
            s,
            "IP={:04X} FLAGS={:04X} {}  cycle {}",
            r.ip & 0xFFFF,
            r.flags & 0xFFFF,
            flags_text(r.flags),
            self.m.cycles()
        );
        s
    }

    /// Bytes of memory changed since the previous call (and takes a new
    /// snapshot): one line per run of changed bytes.
    pub fn changes_text(&mut self) -> String {
        let now = self.mem_snapshot();
        let mut out = String::new();
        let mut runs = 0;
        let mut i = 0;
        while i < now.len().min(self.prev_mem.len()) {
            if now[i] == self.prev_mem[i] {
                i += 1;
                continue;
            }
            let start = i;
            while i < now.len() && now[i] != self.prev_mem[i] && i - start < 16 {
                i += 1;
            }
            runs += 1;
            if runs <= 16 {
                let old: Vec<String> = self.prev_mem[start..i]
                    .iter()
                    .map(|b| format!("{b:02X}"))
                    .collect();
                let new: Vec<String> = now[start..i].iter().map(|b| format!("{b:02X}")).collect();
                let _ = writeln!(
                    out,
                    "  {:05X} ({:04X}:{:04X}): {} -> {}",
                    start,
                    start >> 4,
                    start & 0xF,
                    old.join(" "),
                    new.join(" ")
                );
            }
        }
        if runs > 16 {
            let _ = writeln!(out, "  ... {} more runs of changed bytes", runs - 16);
        }
        self.prev_mem = now;
        if out.is_empty() {
            "memory: no bytes changed\n".into()
        } else {
            format!("memory changed:\n{out}")
        }
    }

    /// The report printed at every stop: why, the instruction, the
    /// registers and the bytes that changed.
    pub fn stop_text(&mut self, stop: &Stop) -> String {
        let mut s = String::new();
        match stop {
            Stop::Stepped => {}
            Stop::Breakpoint(n, rec) => {
                let what = match rec.event {
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
                    HookEvent::PortRead { port, value, .. } => {
                        format!("port read {port:04X}h -> {value:X}h")
                    }
                    HookEvent::PortWrite { port, value, .. } => {
                        format!("port write {port:04X}h <- {value:X}h")
                    }
                    HookEvent::Interrupt { vector, ax } => {
                        format!("INT {vector:02X}h AX={ax:04X}")
                    }
                };
                let _ = writeln!(s, "stopped: #{n} {what}");
                if !matches!(rec.event, HookEvent::Exec { .. }) {
                    let (line, _) = self.disasm_at(rec.cs, rec.ip);
                    let _ = writeln!(s, "by     {line}");
                }
            }
            Stop::Exited(c) => {
                let _ = writeln!(s, "the program exited with code {c}");
            }
            Stop::Stopped(msg) => {
                let _ = writeln!(s, "stopped: {msg}");
            }
            Stop::Limit => {
                let _ = writeln!(s, "stopped: the command's time limit passed");
            }
        }
        let (cs, ip) = self.cs_ip();
        let (line, _) = self.disasm_at(cs, ip);
        let _ = writeln!(s, "=>     {line}");
        let _ = writeln!(s, "{}", self.regs_text());
        s.push_str(&self.changes_text());
        s
    }

    /// Rebuilds the CPU's hooks from the breakpoints.
    fn arm(&mut self) {
        let resume = self.m.cpu.hooks.as_ref().and_then(|h| h.resume_at);
        let h = self.m.cpu.hooks_mut();
        h.clear();
        h.resume_at = resume;
        self.hook_bp.clear();
        let mut any = false;
        for (n, bp) in self.bps.iter().enumerate() {
            let Some(bp) = bp else { continue };
            let kinds: Vec<HookKind> = match &bp.kind {
                BpKind::Exec(at) => vec![HookKind::Exec(*at)],
                BpKind::Mem {
                    read,
                    write,
                    start,
                    end,
                } => {
                    let mut v = Vec::new();
                    if *read {
                        v.push(HookKind::MemRead {
                            start: *start,
                            end: *end,
                        });
                    }
                    if *write {
                        v.push(HookKind::MemWrite {
                            start: *start,
                            end: *end,
                        });
                    }
                    v
                }
                BpKind::Port {
                    read,
                    write,
                    start,
                    end,
                } => {
                    let mut v = Vec::new();
                    if *read {
                        v.push(HookKind::PortRead {
                            start: *start,
                            end: *end,
                        });
                    }
                    if *write {
                        v.push(HookKind::PortWrite {
                            start: *start,
                            end: *end,
                        });
                    }
                    v
                }
                BpKind::Int { vector, ah, .. } => vec![HookKind::Interrupt {
                    vector: *vector,
                    ah: *ah,
                }],
            };
            for k in kinds {
                self.m.cpu.hooks_mut().add(k, HookAction::Stop);
                self.hook_bp.push(n);
                any = true;
            }
        }
        if !any {
            // No hooks: the CPU runs its hook-free step.
            if resume.is_none() {
                self.m.cpu.hooks = None;
            }
        }
    }

    /// Adds a breakpoint; its number.
    pub fn add_bp(&mut self, kind: BpKind, cond: Option<Cond>, text: String, temp: bool) -> usize {
        self.bps.push(Some(Bp {
            kind,
            cond,
            text,
            hits: 0,
            temp,
        }));
        self.bps.len() - 1
    }

    fn cond_holds(&self, c: &Cond) -> bool {
        let v = match &c.lhs {
            Operand::Reg(r) => self.reg(r).unwrap_or(0),
            Operand::Byte(a) => self.linear(a).map(|l| self.m.peek8(l) as u32).unwrap_or(0),
            Operand::Word(a) => self.linear(a).map(|l| self.m.peek16(l) as u32).unwrap_or(0),
        };
        match c.op.as_str() {
            "==" => v == c.rhs,
            "!=" => v != c.rhs,
            "<" => v < c.rhs,
            "<=" => v <= c.rhs,
            ">" => v > c.rhs,
            ">=" => v >= c.rhs,
            _ => false,
        }
    }

    /// Executes one instruction (servicing DOS traps on the way). Returns
    /// a stop when a breakpoint fired or the program ended.
    fn step_insn(&mut self) -> Option<Stop> {
        if let Some(e) = &self.ended {
            return Some(Stop::Stopped(e.clone()));
        }
        let (cs, ip) = self.cs_ip();
        let ins = self.decode(cs, ip);
        let (ss0, sp0) = (
            self.m.cpu.regs.sreg(SegReg::SS),
            self.m.cpu.regs.gpr[4] as u16,
        );
        if let Some(t) = self.trace.as_mut() {
            let r = &self.m.cpu.regs;
            let line = {
                let mut text = String::new();
                IntelFormatter::new().format(&ins, &mut text);
                text
            };
            let _ = writeln!(
                t,
                "{:>12} {cs:04X}:{ip:04X} {line:<32} AX={:04X} BX={:04X} CX={:04X} DX={:04X} SI={:04X} DI={:04X} BP={:04X} SP={:04X} DS={:04X} ES={:04X} SS={:04X} FL={:04X}",
                self.m.cycles(),
                r.gpr[0] as u16, r.gpr[3] as u16, r.gpr[1] as u16, r.gpr[2] as u16,
                r.gpr[6] as u16, r.gpr[7] as u16, r.gpr[5] as u16, r.gpr[4] as u16,
                r.seg[3], r.seg[0], r.seg[2], r.flags as u16
            );
        }
        loop {
            let budget = if self.m.cpu.halted {
                self.m
                    .bus
                    .sched
                    .next()
                    .saturating_sub(self.m.cycles())
                    .max(1)
            } else {
                1
            };
            let exit = self.m.run_for(budget);
            self.output.extend(self.dos.take_output());
            match exit {
                RunExit::Trap(a) => match self.dos.service(&mut self.m, a) {
                    Flow::Continue => {
                        self.output.extend(self.dos.take_output());
                        continue;
                    }
                    Flow::Exit(code) => {
                        self.output.extend(self.dos.take_output());
                        self.ended = Some(format!("the program exited with code {code}"));
                        return Some(Stop::Exited(code));
                    }
                    Flow::Stop(msg) => {
                        self.ended = Some(msg.clone());
                        return Some(Stop::Stopped(msg));
                    }
                },
                RunExit::CyclesElapsed | RunExit::Frame => break,
                RunExit::HookStop => {
                    let rec = self.m.cpu.hooks.as_ref().and_then(|h| h.stopped);
                    if let Some(rec) = rec {
                        let n = self.hook_bp.get(rec.hook).copied().unwrap_or(usize::MAX);
                        let stop = match self.bps.get(n).and_then(|b| b.as_ref()) {
                            Some(bp) => {
                                let al_ok = match (&bp.kind, rec.event) {
                                    (
                                        BpKind::Int { al: Some(al), .. },
                                        HookEvent::Interrupt { ax, .. },
                                    ) => ax as u8 == *al,
                                    _ => true,
                                };
                                al_ok && bp.cond.as_ref().is_none_or(|c| self.cond_holds(c))
                            }
                            None => false,
                        };
                        if stop {
                            if let Some(Some(bp)) = self.bps.get_mut(n) {
                                bp.hits += 1;
                                if bp.temp {
                                    self.bps[n] = None;
                                    self.arm();
                                }
                            }
                            return Some(Stop::Breakpoint(n, rec));
                        }
                        if matches!(rec.event, HookEvent::Exec { .. }) {
                            // Condition false: execute the instruction.
                            continue;
                        }
                    }
                    break;
                }
                RunExit::Halted => {
                    let msg = format!(
                        "the CPU halted with interrupts disabled at {:04X}:{:04X}",
                        cs, ip
                    );
                    self.ended = Some(msg.clone());
                    return Some(Stop::Stopped(msg));
                }
                RunExit::Reset => {
                    self.ended = Some("the program reset the machine".into());
                    return Some(Stop::Stopped("the program reset the machine".into()));
                }
                RunExit::Unsupported(msg) => {
                    return Some(Stop::Stopped(format!("{msg} (at {cs:04X}:{ip:04X})")))
                }
            }
        }
        self.track_calls(&ins, (cs, ip), (ss0, sp0));
        None
    }

    fn track_calls(&mut self, ins: &Instruction, at: (u16, u16), stack0: (u16, u16)) {
        let (ss, sp) = (
            self.m.cpu.regs.sreg(SegReg::SS),
            self.m.cpu.regs.gpr[4] as u16,
        );
        // Unwind frames whose return address has been popped.
        while let Some(f) = self.frames.last() {
            if f.ss == ss && sp > f.sp {
                self.frames.pop();
            } else {
                break;
            }
        }
        let is_call = matches!(ins.mnemonic(), Mnemonic::Call);
        let is_int = matches!(
            ins.mnemonic(),
            Mnemonic::Int | Mnemonic::Int3 | Mnemonic::Into | Mnemonic::Int1
        );
        if (is_call || is_int) && ss == stack0.0 && sp < stack0.1 {
            let to = self.cs_ip();
            self.frames.push(Frame {
                from: at,
                to,
                ss,
                sp,
                int: is_int,
            });
            if self.frames.len() > 4096 {
                self.frames.remove(0);
            }
        }
    }

    /// Runs until `done` says so after an instruction, a breakpoint
    /// stops, the program ends, or `max_cycles` pass.
    pub fn run_until(&mut self, max_cycles: u64, mut done: impl FnMut(&Session) -> bool) -> Stop {
        self.arm();
        let end = self.m.cycles().saturating_add(max_cycles);
        loop {
            if let Some(stop) = self.step_insn() {
                return stop;
            }
            if done(self) {
                return Stop::Stepped;
            }
            if self.m.cycles() >= end {
                return Stop::Limit;
            }
        }
    }

    /// Executes `n` instructions.
    pub fn step(&mut self, n: u64) -> Stop {
        let mut left = n;
        self.run_until(u64::MAX, |_| {
            left = left.saturating_sub(1);
            left == 0
        })
    }

    /// Continues until a breakpoint or the end, at most `max_cycles`.
    pub fn cont(&mut self, max_cycles: u64) -> Stop {
        self.run_until(max_cycles, |_| false)
    }

    /// Steps over a CALL, INT, LOOP or REP string instruction (runs until
    /// the next instruction); otherwise steps one.
    pub fn step_over(&mut self, max_cycles: u64) -> Stop {
        let (cs, ip) = self.cs_ip();
        let ins = self.decode(cs, ip);
        let over = matches!(
            ins.mnemonic(),
            Mnemonic::Call
                | Mnemonic::Int
                | Mnemonic::Int3
                | Mnemonic::Into
                | Mnemonic::Loop
                | Mnemonic::Loope
                | Mnemonic::Loopne
        ) || ins.has_rep_prefix()
            || ins.has_repe_prefix()
            || ins.has_repne_prefix();
        if !over {
            return self.step(1);
        }
        let next = ip.wrapping_add(ins.len() as u16);
        let sp = self.m.cpu.regs.gpr[4] as u16;
        let ss = self.m.cpu.regs.sreg(SegReg::SS);
        self.run_until(max_cycles, move |s| {
            s.cs_ip() == (cs, next)
                && s.m.cpu.regs.sreg(SegReg::SS) == ss
                && s.m.cpu.regs.gpr[4] as u16 >= sp
        })
    }

    /// Runs until the current routine returns (a RET/RETF/IRET that pops
    /// the stack above where it is now).
    pub fn step_out(&mut self, max_cycles: u64) -> Stop {
        let ss = self.m.cpu.regs.sreg(SegReg::SS);
        let sp = self.m.cpu.regs.gpr[4] as u16;
        let mut was_ret = false;
        self.run_until(max_cycles, move |s| {
            let r = &s.m.cpu.regs;
            let hit = was_ret && r.sreg(SegReg::SS) == ss && (r.gpr[4] as u16) > sp;
            let (cs, ip) = s.cs_ip();
            was_ret = matches!(
                s.decode(cs, ip).mnemonic(),
                Mnemonic::Ret | Mnemonic::Retf | Mnemonic::Iret
            );
            hit
        })
    }

    /// Runs until CS:IP reaches `at`.
    pub fn run_to(&mut self, at: ExecAt, max_cycles: u64) -> Stop {
        let n = self.add_bp(BpKind::Exec(at), None, String::new(), true);
        let stop = self.cont(max_cycles);
        if self.bps.get(n).is_some_and(|b| b.is_some()) {
            self.bps[n] = None;
        }
        stop
    }

    /// Starts (or with None stops) the trace file.
    pub fn set_trace(&mut self, path: Option<&std::path::Path>) -> Result<(), String> {
        if let Some(mut t) = self.trace.take() {
            let _ = t.flush();
        }
        if let Some(p) = path {
            let f = std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?;
            self.trace = Some(std::io::BufWriter::new(f));
        }
        Ok(())
    }

    /// The call stack, innermost first.
    pub fn backtrace_text(&self) -> String {
        let mut s = String::new();
        let (cs, ip) = self.cs_ip();
        let _ = writeln!(s, "#0  {cs:04X}:{ip:04X}");
        for (i, f) in self.frames.iter().rev().enumerate() {
            let _ = writeln!(
                s,
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
        s
    }
}

/// The flag letters set in `f` (o d i t s z a p c).
pub fn flags_text(f: u32) -> String {
    let bits = [
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
    bits.iter()
        .map(|&(b, c)| {
            if f >> b & 1 != 0 {
                c.to_ascii_uppercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// A number: hex by default (`0x` prefix or `h` suffix accepted), `#N`
/// decimal.
pub fn parse_num(s: &str) -> Result<u32, String> {
    let t = s.trim();
    let r = if let Some(d) = t.strip_prefix('#') {
        d.parse::<u32>().map_err(|_| ())
    } else {
        let h = t
            .strip_prefix("0x")
            .or_else(|| t.strip_prefix("0X"))
            .or_else(|| t.strip_suffix('h'))
            .or_else(|| t.strip_suffix('H'))
            .unwrap_or(t);
        u32::from_str_radix(h, 16).map_err(|_| ())
    };
    r.map_err(|_| format!("'{s}' is not a number (hex, or #decimal) or a register"))
}

/// Parses `SEG:OFF` or a linear address.
pub fn parse_addr(s: &str) -> Result<Addr, String> {
    match s.split_once(':') {
        Some((a, b)) => Ok(Addr::SegOff(a.trim().into(), b.trim().into())),
        None => Ok(Addr::Linear(parse_num(s)?)),
    }
}
