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
    /// The instruction raised a CPU exception (0 divide error on the 8086,
    /// which pushes the address of the NEXT instruction).
    Exception(u8),
    /// A software interrupt instruction (INT n, INT3, INTO taken) ran.
    SoftwareInterrupt(u8),
    /// A hardware interrupt (NMI = 2, or a vector from INTA) or the single-step
    /// trap (1) was taken after the instruction.
    Interrupt(u8),
}

/// The result of one [`Cpu::step`]: the clocks it took and what happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepInfo {
    /// Clocks consumed by this step (instruction plus any interrupt entry).
    pub cycles: u32,
    /// What happened.
    pub event: StepEvent,
}

/// An x86 CPU in real mode.
#[derive(Clone, Debug)]
pub struct Cpu {
    /// The programmer-visible registers.
    pub regs: Registers,
    /// The chip being emulated.
    pub model: CpuModel,
    /// Total clocks since reset.
    pub cycles: u64,
    /// True after HLT until an interrupt arrives.
    pub halted: bool,
    /// An NMI edge has been latched and not yet serviced.
    pub(crate) nmi_latch: bool,
    /// Interrupts are held off for one instruction (after MOV SS / POP SS,
    /// Intel 8086 Family User's Manual p. 2-30, and after a segment prefix).
    pub(crate) irq_shadow: bool,
    /// Clocks spent by the current step.
    pub(crate) step_cycles: u32,
    /// IP of the first byte of the instruction being executed (its first
    /// prefix).
    pub(crate) instr_ip: u32,
}

impl Cpu {
    /// A CPU of the given model in its reset state (CS:IP = FFFF:0000).
    pub fn new(model: CpuModel) -> Self {
        let mut cpu = Cpu {
            regs: Registers::default(),
            model,
            cycles: 0,
            halted: false,
            nmi_latch: false,
            irq_shadow: false,
            step_cycles: 0,
            instr_ip: 0,
        };
        cpu.reset();
        cpu
    }

    /// The RESET input: CS = FFFFh, IP, DS, SS, ES = 0, FLAGS clear (Intel
    /// 8086 Family User's Manual, table 2-4).
    pub fn reset(&mut self) {
        self.regs = Registers::default();
        self.regs.set_sreg(SegReg::CS, 0xFFFF);
        self.regs.flags = self.normalize_flags(0);
        self.halted = false;
        self.nmi_latch = false;
        self.irq_shadow = false;
    }

    /// Latches a rising edge on the NMI input; it is serviced after the
    /// current instruction.
    pub fn raise_nmi(&mut self) {
        self.nmi_latch = true;
    }

    /// FLAGS as this model stores them: on the 8086 bits 12-15 read as 1 and
    /// bits 1/3/5 are fixed; the 286 in real mode keeps 12-15 clear.
    #[inline]
    pub fn normalize_flags(&self, v: u32) -> u32 {
        let v = (v & 0x0FD5) | flags::RESERVED1;
        match self.model {
            CpuModel::I8086 => v | 0xF000,
            CpuModel::I286 => v,
            CpuModel::I386 => v,
        }
    }

    /// Linear address of `seg:off` on this model's address bus.
    #[inline]
    pub fn linear(&self, seg: u16, off: u16) -> u32 {
        (((seg as u32) << 4) + off as u32) & self.model.address_mask()
    }

    /// Executes one instruction (or, when halted, waits for an interrupt) and
    /// services any interrupt pending after it.
    pub fn step<B: Bus>(&mut self, bus: &mut B) -> StepInfo {
        self.step_cycles = 0;
        let event = if self.halted {
            match self.service_interrupts(bus) {
                Some(v) => StepEvent::Interrupt(v),
                None => {
                    // An idle bus clock (Ti) per step while halted.
                    self.step_cycles += 1;
                    StepEvent::Halted
                }
            }
        } else {
            let trap = self.regs.flags & flags::TF != 0;
            self.irq_shadow = false;
            let ev = self.execute_one(bus);
            if self.irq_shadow {
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
            } else {
                match self.service_interrupts(bus) {
                    Some(v) if ev == StepEvent::Executed || ev == StepEvent::Halted => {
                        StepEvent::Interrupt(v)
                    }
                    _ => ev,
                }
            }
        };
        self.cycles += self.step_cycles as u64;
        StepInfo {
            cycles: self.step_cycles,
            event,
        }
    }

    /// After an instruction (or while halted): NMI first, then INTR when IF
    /// is set. Returns the vector taken; a taken interrupt ends HLT.
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
