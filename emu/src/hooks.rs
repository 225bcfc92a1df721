//! Hooks: execution at CS:IP or at a linear address, memory reads and
//! writes in address ranges, port reads and writes, and interrupts (with an
//! AH filter). Each hook records the event, stops the run, or only counts.
//!
//! With no hooks set ([`Cpu::hooks`] is `None`) the core pays one predicted
//! branch per check; `emu/benches` and `tandem bench` show the cost.
//!
//! Execution hooks fire before the instruction runs (a breakpoint); the
//! others fire as the access happens and, for `Stop`, end the step after the
//! instruction completes (a watchpoint). A stopped step returns
//! [`StepEvent::HookStop`](crate::StepEvent::HookStop); the event that
//! stopped it is in [`Hooks::stopped`].

use crate::cpu::Cpu;
use crate::regs::{Reg16, SegReg};

/// What a hook does when it fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookAction {
    /// Count it and go on.
    Continue,
    /// Append the event to [`Hooks::log`] and go on.
    Record,
    /// Record the event and stop the run.
    Stop,
}

/// Where an execution hook fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecAt {
    /// At this CS:IP.
    SegOff(u16, u16),
    /// At this linear address (any CS:IP that maps to it).
    Linear(u32),
}

/// What a hook watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookKind {
    /// Execution reaching an address.
    Exec(ExecAt),
    /// Memory reads of any byte in `start..=end` (linear).
    MemRead { start: u32, end: u32 },
    /// Memory writes to any byte in `start..=end` (linear).
    MemWrite { start: u32, end: u32 },
    /// Port reads in `start..=end`.
    PortRead { start: u16, end: u16 },
    /// Port writes in `start..=end`.
    PortWrite { start: u16, end: u16 },
    /// Interrupt `vector` (software, hardware or exception), optionally only
    /// with this AH.
    Interrupt { vector: u8, ah: Option<u8> },
}

/// One hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hook {
    /// What it watches.
    pub kind: HookKind,
    /// What it does.
    pub action: HookAction,
    /// How many times it fired.
    pub hits: u64,
}

/// What happened when a hook fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookEvent {
    /// Execution reached CS:IP (linear address `linear`).
    Exec { cs: u16, ip: u16, linear: u32 },
    /// A memory read of `size` bytes at `linear` gave `value`.
    MemRead { linear: u32, size: u8, value: u32 },
    /// A memory write of `size` bytes at `linear` stored `value`.
    MemWrite { linear: u32, size: u8, value: u32 },
    /// A port read gave `value`.
    PortRead { port: u16, size: u8, value: u32 },
    /// A port write sent `value`.
    PortWrite { port: u16, size: u8, value: u32 },
    /// Interrupt `vector` was entered with AX = `ax`.
    Interrupt { vector: u8, ax: u16 },
}

/// A fired hook's event with where and when it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HookRecord {
    /// The index of the hook in [`Hooks::list`].
    pub hook: usize,
    /// The event.
    pub event: HookEvent,
    /// CS:IP of the instruction that caused it.
    pub cs: u16,
    /// IP of that instruction.
    pub ip: u16,
    /// CPU clocks since reset at the start of that instruction.
    pub cycle: u64,
}

/// The hooks of a CPU and what they saw.
#[derive(Clone, Debug, Default)]
pub struct Hooks {
    /// The hooks, in the order they were added.
    pub list: Vec<Hook>,
    /// Events of `Record` and `Stop` hooks, oldest first.
    pub log: Vec<HookRecord>,
    /// The event that stopped the last step, if any (cleared when the next
    /// step starts).
    pub stopped: Option<HookRecord>,
    /// An execution stop at this linear address is skipped once, so that a
    /// run resumed at a breakpoint moves past it.
    pub resume_at: Option<u32>,
    any_exec: bool,
    any_mem: bool,
    any_port: bool,
    any_int: bool,
}

impl Hooks {
    /// No hooks.
    pub fn new() -> Self {
        Hooks::default()
    }

    /// Adds a hook; returns its index.
    pub fn add(&mut self, kind: HookKind, action: HookAction) -> usize {
        self.list.push(Hook {
            kind,
            action,
            hits: 0,
        });
        match kind {
            HookKind::Exec(_) => self.any_exec = true,
            HookKind::MemRead { .. } | HookKind::MemWrite { .. } => self.any_mem = true,
            HookKind::PortRead { .. } | HookKind::PortWrite { .. } => self.any_port = true,
            HookKind::Interrupt { .. } => self.any_int = true,
        }
        self.list.len() - 1
    }

    /// Removes every hook and the log.
    pub fn clear(&mut self) {
        *self = Hooks::default();
    }

    fn fire(&mut self, i: usize, event: HookEvent, cs: u16, ip: u16, cycle: u64) {
        let h = &mut self.list[i];
        h.hits += 1;
        let rec = HookRecord {
            hook: i,
            event,
            cs,
            ip,
            cycle,
        };
        match h.action {
            HookAction::Continue => {}
            HookAction::Record => self.log.push(rec),
            HookAction::Stop => {
                self.log.push(rec);
                if self.stopped.is_none() {
                    self.stopped = Some(rec);
                }
            }
        }
    }
}

impl Cpu {
    /// The hooks, created empty on first use.
    pub fn hooks_mut(&mut self) -> &mut Hooks {
        self.hooks.get_or_insert_with(Box::default)
    }

    /// At the start of a step: what stopped the previous step stays in the
    /// log only.
    #[cold]
    #[inline(never)]
    pub(crate) fn hook_step_start(&mut self) {
        if let Some(h) = self.hooks.as_deref_mut() {
            h.stopped = None;
        }
    }

    /// Before an instruction: true when an execution hook stops here.
    #[cold]
    #[inline(never)]
    pub(crate) fn hook_exec(&mut self) -> bool {
        let cs = self.regs.sreg(SegReg::CS);
        let ip = self.regs.ip as u16;
        let linear = self.linear(cs, ip);
        let cycles = self.cycles;
        let Some(h) = self.hooks.as_deref_mut() else {
            return false;
        };
        if !h.any_exec {
            return false;
        }
        let resume = h.resume_at.take() == Some(linear);
        let mut stop = false;
        for i in 0..h.list.len() {
            let hit = match h.list[i].kind {
                HookKind::Exec(ExecAt::SegOff(s, o)) => s == cs && o == ip,
                HookKind::Exec(ExecAt::Linear(a)) => a == linear,
                _ => false,
            };
            if hit {
                if h.list[i].action == HookAction::Stop && resume {
                    h.list[i].hits += 1;
                    continue;
                }
                h.fire(i, HookEvent::Exec { cs, ip, linear }, cs, ip, cycles);
                stop |= h.list[i].action == HookAction::Stop;
            }
        }
        if stop {
            h.resume_at = Some(linear);
        }
        stop
    }

    /// After a memory access.
    #[cold]
    #[inline(never)]
    pub(crate) fn hook_mem(&mut self, write: bool, linear: u32, size: u8, value: u32) {
        let linear = linear & self.model.address_mask();
        let (cs, ip, cycles) = (
            self.regs.sreg(SegReg::CS),
            self.instr_ip as u16,
            self.cycles,
        );
        let Some(h) = self.hooks.as_deref_mut() else {
            return;
        };
        if !h.any_mem {
            return;
        }
        let last = linear.wrapping_add(size as u32 - 1);
        for i in 0..h.list.len() {
            let hit = match h.list[i].kind {
                HookKind::MemRead { start, end } if !write => linear <= end && last >= start,
                HookKind::MemWrite { start, end } if write => linear <= end && last >= start,
                _ => false,
            };
            if hit {
                let event = if write {
                    HookEvent::MemWrite {
                        linear,
                        size,
                        value,
                    }
                } else {
                    HookEvent::MemRead {
                        linear,
                        size,
                        value,
                    }
                };
                h.fire(i, event, cs, ip, cycles);
            }
        }
    }

    /// After a port access.
    #[cold]
    #[inline(never)]
    pub(crate) fn hook_port(&mut self, write: bool, port: u16, size: u8, value: u32) {
        let (cs, ip, cycles) = (
            self.regs.sreg(SegReg::CS),
            self.instr_ip as u16,
            self.cycles,
        );
        let Some(h) = self.hooks.as_deref_mut() else {
            return;
        };
        if !h.any_port {
            return;
        }
        for i in 0..h.list.len() {
            let hit = match h.list[i].kind {
                HookKind::PortRead { start, end } if !write => (start..=end).contains(&port),
                HookKind::PortWrite { start, end } if write => (start..=end).contains(&port),
                _ => false,
            };
            if hit {
                let event = if write {
                    HookEvent::PortWrite { port, size, value }
                } else {
                    HookEvent::PortRead { port, size, value }
                };
                h.fire(i, event, cs, ip, cycles);
            }
        }
    }

    /// When an interrupt is entered.
    #[cold]
    #[inline(never)]
    pub(crate) fn hook_interrupt(&mut self, vector: u8) {
        let (cs, ip, cycles) = (
            self.regs.sreg(SegReg::CS),
            self.instr_ip as u16,
            self.cycles,
        );
        let ax = self.regs.reg16(Reg16::AX);
        let Some(h) = self.hooks.as_deref_mut() else {
            return;
        };
        if !h.any_int {
            return;
        }
        for i in 0..h.list.len() {
            let hit = match h.list[i].kind {
                HookKind::Interrupt { vector: v, ah } => {
                    v == vector && ah.is_none_or(|a| a == (ax >> 8) as u8)
                }
                _ => false,
            };
            if hit {
                h.fire(i, HookEvent::Interrupt { vector, ax }, cs, ip, cycles);
            }
        }
    }

    /// After a step: true when a hook asked to stop during it.
    #[cold]
    #[inline(never)]
    pub(crate) fn hook_stopped(&self) -> bool {
        self.hooks.as_deref().is_some_and(|h| h.stopped.is_some())
    }
}
