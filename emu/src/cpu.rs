//! The CPU: registers, model, clock count and the instruction step.

use crate::bus::Bus;
use crate::flags;
use crate::model::CpuModel;
use crate::regs::{Registers, SegReg};

/// What happened during one [`Cpu::step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepEvent {
    /// One instruction ran to completion (a REP string instruction runs all
    /// its iterations unless an interrupt is pending).
    Executed,
    /// The CPU is halted and no interrupt woke it: idle clocks passed.
    Halted,
    /// The instruction raised a CPU exception: 0 divide error (the 8086
    /// pushes the address of the NEXT instruction, later models restart the
    /// faulting one), 5 BOUND range, 6 invalid opcode, 12 stack limit, 13
    /// general protection (real-mode segment limit).
    Exception(u8),
    /// A software interrupt instruction (INT n, INT3, INTO taken, ICEBP) ran.
    SoftwareInterrupt(u8),
    /// A hardware interrupt (NMI = 2, or a vector from INTA) or the single-step
    /// trap (1) was taken after the instruction.
    Interrupt(u8),
    /// The instruction needs something tandem does not emulate (entering
    /// protected mode). Nothing changed: CS:IP still points at it, and the
    /// run should stop with this message.
    Unsupported(&'static str),
    /// A hook asked to stop: before the instruction at CS:IP (an execution
    /// hook) or after the instruction that touched a watched address, port
    /// or interrupt. [`crate::Hooks::stopped`] says which.
    HookStop,
}

/// The result of one [`Cpu::step`]: the clocks it took and what happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepInfo {
    /// Clocks consumed by this step (instruction plus any interrupt entry).
    pub cycles: u32,
    /// What happened.
    pub event: StepEvent,
}

/// Why an instruction stopped before completing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// A CPU exception with this vector.
    Vector(u8),
    /// A feature outside tandem's scope.
    Unsupported(&'static str),
}

/// CR0 bits 5-30 of the 386, which read as ones whatever is written.
pub const CR0_386_RESERVED: u32 = 0x7FFF_FFE0;

/// The message for a MOV to CR0 or LMSW that sets PE.
pub const PROTECTED_MODE_UNSUPPORTED: &str = "protected mode is not supported";

/// The 386's system registers as far as real mode sees them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct SystemRegisters {
    /// CR0 (the 286's machine status word is its low 16 bits).
    pub cr0: u32,
    /// CR2 and CR3, kept as written.
    pub cr2: u32,
    /// Page directory base (unused in real mode).
    pub cr3: u32,
    /// DR0-DR7, kept as written.
    pub dr: [u32; 8],
    /// TR6 and TR7 (and the rest of the test register file), kept as written.
    pub tr: [u32; 8],
    /// GDTR base and limit (kept for LGDT/SGDT).
    pub gdtr: (u32, u16),
    /// IDTR base and limit: real-mode interrupts read their vector from
    /// `base + 4 * n` (80386 PRM, section 14.3), 0 and 3FFh after reset.
    pub idtr: (u32, u16),
}

/// An x86 CPU in real mode.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Cpu {
    /// The programmer-visible registers.
    pub regs: Registers,
    /// Control, debug and descriptor-table registers (286/386).
    pub sys: SystemRegisters,
    /// The chip being emulated.
    pub model: CpuModel,
    /// Total clocks since reset.
    pub cycles: u64,
    /// True after HLT until an interrupt arrives.
    pub halted: bool,
    /// When set, a fault (an exception raised by an instruction: #DE, #BR,
    /// #UD, #SS, #GP) is not delivered: the registers are left as at the
    /// start of the faulting instruction and `step` returns
    /// [`StepEvent::Exception`]. Debuggers and reference suites that record
    /// the state at the fault use it. The 8086's divide error, a trap, is
    /// always delivered.
    pub stop_on_fault: bool,
    /// An NMI edge has been latched and not yet serviced.
    pub(crate) nmi_latch: bool,
    /// Interrupts are held off for one instruction (after MOV SS / POP SS,
    /// Intel 8086 Family User's Manual p. 2-30, and after STI).
    pub(crate) irq_shadow: bool,
    /// Clocks spent by the current step. This and the three after it are
    /// the scratch of the step in progress, set before they are read:
    /// between steps they say nothing (the fast path does not even keep
    /// them), so they are not saved.
    #[serde(skip)]
    pub(crate) step_cycles: u32,
    /// IP of the first byte of the instruction being executed (its first
    /// prefix).
    #[serde(skip)]
    pub(crate) instr_ip: u32,
    /// The registers at the start of the instruction (or of the current REP
    /// iteration), restored when a 286/386 fault restarts it.
    #[serde(skip)]
    pub(crate) saved: Registers,
    /// An instruction fetch ran past the 64 KiB limit (286/386).
    #[serde(skip)]
    pub(crate) fetch_fault: bool,
    /// The x87 coprocessor (a 387 beside a 386, the 486DX's own), `None`
    /// when the machine has none: then ESC only addresses its operand and
    /// WAIT falls through.
    pub fpu: Option<crate::x87::X87>,
    /// Hooks; `None` (the default) costs one branch per step.
    #[serde(skip)]
    pub hooks: Option<Box<crate::hooks::Hooks>>,
    /// Memory accesses take the slow path (cycle-exact mode or hooks set,
    /// or `x_scripted` left over from an exact mode switched off);
    /// refreshed at the start of every step. Derived from the hooks and
    /// the mode, so not machine state: not saved (a state saved with a
    /// breakpoint set equals one saved without).
    #[serde(skip)]
    pub(crate) slow_mem: bool,
    /// The 8086's cycle-exact bus interface unit, when that mode is on
    /// ([`Cpu::set_cycle_exact`]); `None` runs the register-level timing.
    #[serde(skip)]
    pub(crate) x: Option<Box<crate::biu::cycle::BusUnit>>,
    /// Instructions already decoded from plain RAM/ROM (a memo of the
    /// decoder; not machine state).
    #[serde(skip)]
    pub(crate) decode_cache: crate::decode_cache::DecodeCache,
    /// Exact mode: bytes of the current instruction taken from the queue.
    pub(crate) x_taken: u32,
    /// Exact mode: the current instruction flushed the queue.
    pub(crate) x_flushed: bool,
    /// Exact mode: the current instruction has its own timing script (the
    /// documented-count fallback is not applied).
    pub(crate) x_scripted: bool,
}

impl Cpu {
    /// A CPU of the given model in its reset state (CS:IP = FFFF:0000).
    pub fn new(model: CpuModel) -> Self {
        let mut cpu = Cpu {
            regs: Registers::default(),
            sys: SystemRegisters::default(),
            model,
            cycles: 0,
            halted: false,
            stop_on_fault: false,
            nmi_latch: false,
            irq_shadow: false,
            step_cycles: 0,
            instr_ip: 0,
            saved: Registers::default(),
            fetch_fault: false,
            fpu: None,
            hooks: None,
            slow_mem: false,
            x: None,
            decode_cache: Default::default(),
            x_taken: 0,
            x_flushed: false,
            x_scripted: false,
        };
        cpu.reset();
        cpu
    }

    /// The RESET input: CS = FFFFh, IP, DS, SS, ES = 0, FLAGS clear (Intel
    /// 8086 Family User's Manual, table 2-4). The 286 and 386 start with
    /// the same real-mode view (their CS base FFFF0h/FFFFFFF0h quirk is not
    /// modelled: CS = FFFFh, IP = 0 reaches the same first byte below 1 MiB).
    pub fn reset(&mut self) {
        self.regs = Registers::default();
        self.regs.set_sreg(SegReg::CS, 0xFFFF);
        self.regs.flags = self.normalize_flags(0);
        self.sys = SystemRegisters {
            idtr: (0, 0x3FF),
            gdtr: (0, 0xFFFF),
            ..SystemRegisters::default()
        };
        self.sys.cr0 = self.model.caps().cr0_reset;
        self.halted = false;
        self.nmi_latch = false;
        self.irq_shadow = false;
        // The 387's RESET leaves it as FNINIT does.
        if let Some(f) = &mut self.fpu {
            f.init();
        }
    }

    /// Latches a rising edge on the NMI input; it is serviced after the
    /// current instruction.
    pub fn raise_nmi(&mut self) {
        self.nmi_latch = true;
    }

    /// FLAGS as this model stores them: the 8086 reads bits 12-15 as ones;
    /// the 286 in real mode keeps them clear; the 386 lets real-mode code
    /// write IOPL and NT (bits 12-14) and has no AC/ID, VM or RF there. Bit
    /// 1 is always set; bits 3 and 5 are always clear.
    #[inline]
    pub fn normalize_flags(&self, v: u32) -> u32 {
        let c = self.model.caps();
        (v & c.flags_writable) | c.flags_fixed_ones
    }

    /// Linear address of `seg:off` on this model's address bus.
    #[inline]
    pub fn linear(&self, seg: u16, off: u16) -> u32 {
        (((seg as u32) << 4) + off as u32) & self.model.address_mask()
    }

    /// Executes one instruction (or, when halted, waits for an interrupt) and
    /// services any interrupt pending after it.
    #[inline]
    pub fn step<B: Bus>(&mut self, bus: &mut B) -> StepInfo {
        // Two instances, so that a CPU without hooks runs a step with no
        // hook checks in it (see `emu/examples/hooks_cost.rs`).
        if cfg!(feature = "hooks") && self.hooks.is_some() {
            return self.step_hooked(bus);
        }
        self.step_with::<false, B>(bus)
    }

    #[cold]
    #[inline(never)]
    fn step_hooked<B: Bus>(&mut self, bus: &mut B) -> StepInfo {
        self.step_with::<true, B>(bus)
    }

    #[inline(always)]
    fn step_with<const HOOKED: bool, B: Bus>(&mut self, bus: &mut B) -> StepInfo {
        self.step_cycles = 0;
        // (`x_scripted` is only ever left set by an exact mode since
        // switched off: the generic path then skips the documented clocks,
        // which the decode cache's fast path does not check.)
        self.slow_mem = HOOKED || self.x.is_some() || self.x_scripted;
        // Anything may have written memory since the last step.
        self.decode_cache.memory_changed();
        if HOOKED {
            self.hook_step_start();
        }
        if let Some(x) = self.x.as_mut() {
            x.begin_step();
        }
        let event = if self.halted {
            match self.service_interrupts(bus) {
                Some(v) => StepEvent::Interrupt(v),
                None => {
                    // An idle bus clock (Ti) per step while halted.
                    self.step_cycles += 1;
                    StepEvent::Halted
                }
            }
        } else if HOOKED && self.hook_exec() {
            StepEvent::HookStop
        } else {
            self.run_instruction::<false, B>(bus)
        };
        if let Some(x) = self.x.as_mut() {
            // Exact mode: the clocks are the CLK periods that passed.
            self.step_cycles = x.ticks;
        }
        self.cycles += self.step_cycles as u64;
        let event = if HOOKED && event != StepEvent::HookStop && self.hook_stopped() {
            StepEvent::HookStop
        } else {
            event
        };
        StepInfo {
            cycles: self.step_cycles,
            event,
        }
    }

    /// True when [`Cpu::step_plain`] may run the next step: the CPU is not
    /// halted, has no NMI latched, has no hooks and runs the register-level
    /// timing (nor an exact mode's scripted clocks left over: see
    /// `Cpu::slow_mem`). Only HLT changes the answer during a step.
    #[inline]
    pub fn plain_path(&self) -> bool {
        !self.halted
            && !self.nmi_latch
            && self.hooks.is_none()
            && self.x.is_none()
            && !self.x_scripted
    }

    /// Tells the CPU that memory may have changed other than by its own
    /// writes (a device, a DMA transfer, the host) since its last step:
    /// [`Cpu::step_plain`] needs it (see there); [`Cpu::step`] assumes it.
    #[inline]
    pub fn memory_changed(&mut self) {
        self.decode_cache.memory_changed();
    }

    /// [`Cpu::step`] for a CPU on the plain path ([`Cpu::plain_path`]):
    /// the same instruction, interrupt sampling and clocks, without the
    /// checks for the halted, hooked and cycle-exact cases. Returns the
    /// step's event; its clocks are in [`Cpu::cycles`]. The caller calls
    /// [`Cpu::memory_changed`] whenever anything but the CPU may have
    /// written memory since the last step (the decoded instructions it
    /// keeps are checked against memory only after that or after a write
    /// of its own to their page).
    #[inline(always)]
    pub fn step_plain<B: Bus>(&mut self, bus: &mut B) -> StepEvent {
        debug_assert!(self.plain_path());
        self.step_cycles = 0;
        self.slow_mem = false;
        let event = self.run_instruction::<true, B>(bus);
        self.cycles += self.step_cycles as u64;
        event
    }

    /// One instruction of a CPU that is not halted, then what is
    /// recognised after it (single step, NMI, INTR). `PLAIN`: on the plain
    /// path, where no NMI is latched (only [`Cpu::raise_nmi`] latches one,
    /// between steps).
    #[inline(always)]
    fn run_instruction<const PLAIN: bool, B: Bus>(&mut self, bus: &mut B) -> StepEvent {
        let trap = self.regs.flags & flags::TF != 0;
        self.irq_shadow = false;
        let ev = self.execute_one(bus);
        let nmi = !PLAIN && self.nmi_latch;
        if matches!(ev, StepEvent::Executed) && !trap && !self.irq_shadow && !nmi {
            // The common case, as `after_instruction` decides it: only
            // INTR to sample.
            if self.regs.flags & flags::IF != 0 && bus.intr() {
                self.halted = false;
                let v = self.inta(bus);
                self.interrupt(bus, v);
                return StepEvent::Interrupt(v);
            }
            return StepEvent::Executed;
        }
        self.after_instruction(bus, trap, ev)
    }

    /// What is recognised after an instruction that ended with `ev` (it
    /// began with TF set when `trap`): nothing in an interrupt shadow, else
    /// the single-step trap, else NMI and INTR.
    #[inline(never)]
    fn after_instruction<B: Bus>(&mut self, bus: &mut B, trap: bool, ev: StepEvent) -> StepEvent {
        if self.irq_shadow || matches!(ev, StepEvent::Unsupported(_)) {
            // MOV SS / POP SS / STI: nothing is recognised until after
            // the next instruction.
            ev
        } else if trap && matches!(ev, StepEvent::Executed | StepEvent::Halted) {
            // Single step (type 1) after an instruction that began with
            // TF set (8086 Family User's Manual p. 2-29).
            self.halted = false;
            self.step_cycles += crate::timing::NMI_ENTRY;
            self.interrupt(bus, 1);
            StepEvent::Interrupt(1)
        } else if self.stop_on_fault && matches!(ev, StepEvent::Exception(_)) {
            ev
        } else {
            match self.service_interrupts(bus) {
                Some(v) if ev == StepEvent::Executed || ev == StepEvent::Halted => {
                    StepEvent::Interrupt(v)
                }
                _ => ev,
            }
        }
    }

    /// After an instruction (or while halted): NMI first, then INTR when IF
    /// is set. Returns the vector taken; a taken interrupt ends HLT.
    #[inline]
    fn service_interrupts<B: Bus>(&mut self, bus: &mut B) -> Option<u8> {
        if self.nmi_latch {
            self.nmi_latch = false;
            self.halted = false;
            self.step_cycles += crate::timing::NMI_ENTRY;
            self.interrupt(bus, 2);
            return Some(2);
        }
        if self.regs.flags & flags::IF != 0 && bus.intr() {
            self.halted = false;
            let v = self.inta(bus);
            self.interrupt(bus, v);
            return Some(v);
        }
        None
    }
}
