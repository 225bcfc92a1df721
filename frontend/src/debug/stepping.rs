//! Running under the debugger: one instruction at a time (DOS traps
//! serviced on the way, idle time jumped while halted), breakpoints armed
//! as CPU hooks and checked when one stops, the call stack tracked from
//! CALL/INT and the stack's unwinding, and the trace file written.

use std::io::Write as _;

use dos::Exit;
use emu::{ExecAt, HookAction, HookEvent, HookRecord, SegReg};
use iced_x86::{Formatter, Instruction, IntelFormatter, Mnemonic};

use super::breakpoints::BpKind;
use super::engine::{Debugger, End, Frame, Stop};
use super::history::{StepKind, StepRecord};
use super::parse::{Cond, Operand};

/// The deepest call stack kept (the oldest frames are dropped).
const MAX_FRAMES: usize = 4096;

impl Debugger {
    /// Rebuilds the CPU's hooks from the breakpoints.
    pub(super) fn arm(&mut self) {
        let resume = self.core.m.cpu.hooks.as_ref().and_then(|h| h.resume_at);
        let h = self.core.m.cpu.hooks_mut();
        h.clear();
        h.resume_at = resume;
        self.hook_bp.clear();
        for (n, bp) in self.bps.iter().enumerate() {
            let Some(bp) = bp else { continue };
            for k in bp.kind.hooks() {
                self.core.m.cpu.hooks_mut().add(k, HookAction::Stop);
                self.hook_bp.push(n);
            }
        }
        self.observer_first = self.hook_bp.len();
        if let Some(o) = self.observer.as_ref() {
            o.hooks(self.core.m.cpu.hooks_mut());
        }
        let none = self
            .core
            .m
            .cpu
            .hooks
            .as_ref()
            .is_none_or(|h| h.list.is_empty());
        if none && resume.is_none() {
            // No hooks: the CPU runs its hook-free step.
            self.core.m.cpu.hooks = None;
        }
    }

    fn cond_holds(&self, c: &Cond) -> bool {
        let v = match &c.lhs {
            Operand::Reg(r) => self.reg(r).unwrap_or(0),
            Operand::Byte(a) => self
                .linear(a)
                .map(|l| self.core.m.peek8(l) as u32)
                .unwrap_or(0),
            Operand::Word(a) => self
                .linear(a)
                .map(|l| self.core.m.peek16(l) as u32)
                .unwrap_or(0),
        };
        c.op.holds(v, c.rhs)
    }

    /// The breakpoint the hook stop `rec` is a stop of, if its AL filter
    /// and condition hold (nothing counted: running backwards asks too).
    pub(super) fn stop_of(&self, rec: &HookRecord) -> Option<usize> {
        let n = self.hook_bp.get(rec.hook).copied()?;
        let bp = self.bps.get(n)?.as_ref()?;
        let al_ok = match (&bp.kind, rec.event) {
            (BpKind::Int { al: Some(al), .. }, HookEvent::Interrupt { ax, .. }) => ax as u8 == *al,
            _ => true,
        };
        (al_ok && bp.cond.as_ref().is_none_or(|c| self.cond_holds(c))).then_some(n)
    }

    /// Whether the hook stop `rec` is a stop of its breakpoint; counts the
    /// hit and deletes a temporary breakpoint when so.
    fn breakpoint_hit(&mut self, rec: &HookRecord) -> Option<usize> {
        let n = self.stop_of(rec)?;
        if let Some(Some(bp)) = self.bps.get_mut(n) {
            bp.hits += 1;
            if bp.temp {
                self.bps[n] = None;
                self.arm();
            }
        }
        Some(n)
    }

    /// SS and SP now.
    pub(super) fn stack_now(&self) -> (u16, u16) {
        (
            self.core.m.cpu.regs.sreg(SegReg::SS),
            self.core.m.cpu.regs.gpr[4] as u16,
        )
    }

    /// Writes the trace line of the instruction about to run.
    fn trace_line(&mut self, ins: &Instruction, (cs, ip): (u16, u16)) {
        let Some(t) = self.trace.as_mut().filter(|t| t.failed.is_none()) else {
            return;
        };
        let r = &self.core.m.cpu.regs;
        let mut line = String::new();
        IntelFormatter::new().format(ins, &mut line);
        if let Err(e) = writeln!(
            t.out,
            "{:>12} {cs:04X}:{ip:04X} {line:<32} {}",
            self.core.m.cycles(),
            super::trace::registers(r)
        ) {
            t.failed = Some(e);
        }
    }

    /// Executes one instruction (servicing DOS traps on the way). Returns
    /// a stop when a breakpoint fired or the program ended.
    pub(super) fn step_insn(&mut self) -> Option<Stop> {
        if let Some(e) = &self.ended {
            return Some(Stop::Ended(e.clone()));
        }
        let (cs, ip) = self.cs_ip();
        let ins = self.decode(cs, ip);
        let stack0 = (
            self.core.m.cpu.regs.sreg(SegReg::SS),
            self.core.m.cpu.regs.gpr[4] as u16,
        );
        let rec = StepRecord {
            cycle: self.core.m.cycles(),
            cs,
            ip,
            ss: stack0.0,
            sp: stack0.1,
            len: ins.len() as u8,
            kind: StepKind::of(&ins),
        };
        self.trace_line(&ins, (cs, ip));
        let mut stop = self.run_one();
        if stop.is_none() {
            stop = self.observe(false);
        }
        let ran = match &stop {
            None => true,
            Some(Stop::Breakpoint(_, r)) => !matches!(r.event, HookEvent::Exec { .. }),
            Some(_) => false,
        };
        if ran {
            self.track_calls(&ins, (cs, ip), stack0);
        }
        if self.core.m.cycles() != rec.cycle {
            self.stepped(rec);
        }
        stop
    }

    /// Runs the machine for one instruction; while halted, up to the next
    /// device event (the core session services DOS traps on the way).
    fn run_one(&mut self) -> Option<Stop> {
        loop {
            let budget = if self.core.m.cpu.halted {
                self.core
                    .m
                    .bus
                    .sched
                    .next()
                    .saturating_sub(self.core.m.cycles())
                    .max(1)
            } else {
                1
            };
            let exit = self.core.run_for(budget);
            self.output.extend(self.core.dos.take_output());
            match exit {
                Exit::Limit | Exit::Frame => return None,
                Exit::Exited(code) => {
                    self.ended = Some(End::Exited(code));
                    return Some(Stop::Exited(code));
                }
                Exit::Stopped(why) => {
                    // Something not emulated does not end the program: it
                    // may be moved on (`r ip=...`).
                    if !matches!(why, dos::Stop::Unsupported { .. }) {
                        self.ended = Some(End::Stopped(why.clone()));
                    }
                    return Some(Stop::Stopped(why));
                }
                Exit::HookStop => {
                    let rec = self.core.m.cpu.hooks.as_ref().and_then(|h| h.stopped)?;
                    if let Some(n) = self.breakpoint_hit(&rec) {
                        return Some(Stop::Breakpoint(n, rec));
                    }
                    if rec.hook >= self.observer_first {
                        if let Some(stop) = self.observe(true) {
                            return Some(stop);
                        }
                    }
                    if !matches!(rec.event, HookEvent::Exec { .. }) {
                        return None;
                    }
                    // Condition false: execute the instruction.
                }
            }
        }
    }

    fn track_calls(&mut self, ins: &Instruction, at: (u16, u16), stack0: (u16, u16)) {
        let (ss, sp) = (
            self.core.m.cpu.regs.sreg(SegReg::SS),
            self.core.m.cpu.regs.gpr[4] as u16,
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
            if self.frames.len() > MAX_FRAMES {
                self.frames.remove(0);
            }
        }
    }

    /// Runs until `done` says so after an instruction, a breakpoint
    /// stops, the program ends, or `max_cycles` pass.
    pub fn run_until(&mut self, max_cycles: u64, mut done: impl FnMut(&Debugger) -> bool) -> Stop {
        if let Err(e) = self.settle() {
            self.lose_history(&e);
        }
        self.arm();
        let end = self.core.m.cycles().saturating_add(max_cycles);
        loop {
            if let Some(stop) = self.step_insn() {
                return stop;
            }
            if done(self) {
                return Stop::Stepped;
            }
            if self.core.m.cycles() >= end {
                return Stop::Limit;
            }
        }
    }

    /// Executes `n` instructions.
    pub fn step(&mut self, n: u64) -> Stop {
        self.step_within(n, u64::MAX)
    }

    /// Executes `n` instructions, at most `max_cycles`.
    pub fn step_within(&mut self, n: u64, max_cycles: u64) -> Stop {
        let mut left = n;
        self.run_until(max_cycles, |_| {
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
        let sp = self.core.m.cpu.regs.gpr[4] as u16;
        let ss = self.core.m.cpu.regs.sreg(SegReg::SS);
        self.run_until(max_cycles, move |s| {
            s.cs_ip() == (cs, next)
                && s.core.m.cpu.regs.sreg(SegReg::SS) == ss
                && s.core.m.cpu.regs.gpr[4] as u16 >= sp
        })
    }

    /// Runs until the current routine returns (a RET/RETF/IRET that pops
    /// the stack above where it is now).
    pub fn step_out(&mut self, max_cycles: u64) -> Stop {
        let ss = self.core.m.cpu.regs.sreg(SegReg::SS);
        let sp = self.core.m.cpu.regs.gpr[4] as u16;
        let mut was_ret = false;
        self.run_until(max_cycles, move |s| {
            let r = &s.core.m.cpu.regs;
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
}
