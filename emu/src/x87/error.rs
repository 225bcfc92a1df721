//! How a pending unmasked exception reaches software (SDM vol. 1 §8.7 and
//! appendix D, "Guidelines for writing x87 FPU exception handlers").
//!
//! An unmasked exception sets ES (and B) in the status word; the unit then
//! drives its error output, ERROR# on a 287/387 and FERR# on the 486
//! ([`crate::Bus::ferr`], told after every ESC instruction). What happens
//! next depends on where the unit sits:
//!
//! - A 287/387 beside the CPU (PC/AT glue, SDM D.1): the board latches
//!   ERROR# into IRQ13 and holds the CPU's BUSY# input active until a
//!   write to port F0h. The CPU waits for BUSY# before every ESC, the
//!   no-wait forms included (they only skip the ERROR# check, and the
//!   board does not wire ERROR# to the CPU), and before WAIT; so the next
//!   coprocessor instruction stalls until the IRQ13 handler has written
//!   F0h ([`crate::Bus::coprocessor_busy`]).
//! - The 486's unit with CR0.NE = 0 (MS-DOS compatibility mode, SDM D.2.1):
//!   FERR# goes active at the instruction that raised the exception (the
//!   486 does not defer it to the next one, as the Pentium does) and the
//!   CPU freezes immediately before the next waiting x87 instruction or
//!   WAIT until IGNNE# goes active (the board asserts it on a write to
//!   F0h) or the error is cleared; the no-wait forms (FNINIT, FNCLEX,
//!   FNSTSW, FNSTCW, FNSTENV, FNSAVE) run.
//! - The 486 with CR0.NE = 1 (native mode, SDM §8.7.1): the next waiting
//!   x87 instruction or WAIT raises #MF (vector 16) instead, a fault at
//!   that instruction. FERR# still goes active at the same point (SDM
//!   D.4.2); keeping IRQ13 masked is the native-mode software's part.
//!
//! A frozen or stalled instruction is retried: CS:IP stays on it, and the
//! CPU takes interrupts at that boundary as usual (the IRQ13 handler runs
//! from there). With interrupts off it waits for ever, as the silicon does.

use super::decode::X87Op;
use crate::bus::Bus;
use crate::cpu::{Cpu, Fault};

/// #MF: the floating-point error fault (486, CR0.NE = 1).
pub(crate) const MF: Fault = Fault::Vector(16);
/// CR0.NE, the 486's numeric error bit.
const CR0_NE: u32 = 1 << 5;

/// Whether a coprocessor instruction may run now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gate {
    /// Run it.
    Run,
    /// Not yet: the CPU waits on BUSY# or is frozen by FERR#.
    Stall,
}

/// The no-wait forms, which never check for a pending error (SDM vol. 1
/// §8.3.11; the 387 and 486 treat FNENI/FNDISI/FNSETPM, decoded as
/// [`X87Op::Nop`], as FNOP, a waiting instruction).
pub(crate) fn is_no_wait(op: X87Op) -> bool {
    use X87Op::*;
    matches!(op, Init | Clex | Stcw | Stsw | StswAx | Stenv | Save)
}

impl Cpu {
    /// The error check before an ESC instruction (`op`) or WAIT (`None`).
    pub(crate) fn x87_gate<B: Bus>(
        &mut self,
        bus: &mut B,
        op: Option<X87Op>,
    ) -> Result<Gate, Fault> {
        let Some(f) = &self.fpu else {
            return Ok(Gate::Run);
        };
        if !self.model.caps().fpu_on_chip {
            return Ok(if bus.coprocessor_busy() {
                Gate::Stall
            } else {
                Gate::Run
            });
        }
        if !f.error_pending() || op.is_some_and(is_no_wait) {
            return Ok(Gate::Run);
        }
        if self.sys.cr0 & CR0_NE != 0 {
            return Err(MF);
        }
        Ok(if bus.ignne() { Gate::Run } else { Gate::Stall })
    }

    /// Leaves CS:IP on the current instruction so that it runs again at
    /// the next step (after any interrupt taken at this boundary).
    pub(crate) fn x87_retry(&mut self) {
        self.regs.ip = self.instr_ip;
    }
}
