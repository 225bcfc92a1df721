//! The PC/AT's coprocessor error glue (IBM AT Technical Reference, system
//! board: the 80287 error latch; SDM vol. 1 appendix D, "MS-DOS
//! compatibility"): the x87's error output (ERROR# of a 287/387, FERR# of
//! the 486) sets a latch that drives IRQ13 on the slave 8259A (INT 75h)
//! and, for a coprocessor beside the CPU, holds the CPU's BUSY# input
//! active. A write of any value to port F0h clears the latch (releasing
//! IRQ13 and BUSY#) and, on a 486, asserts IGNNE# until FERR# goes
//! inactive (FNCLEX, FNINIT), so the frozen instruction can run.
//!
//! The latch is set by FERR#'s rising edge: clearing it while FERR# stays
//! active (the handler has not cleared the exception yet) does not raise
//! IRQ13 again. Port F0h reads float (FFh).

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};

/// IRQ13: the coprocessor's line on the slave PIC.
pub const IRQ: u8 = 13;

/// The latch and the lines it watches and drives.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FpuErrorLatch {
    /// FERR# (ERROR#) as the unit last drove it.
    pub ferr: bool,
    /// The latch: IRQ13 and BUSY# active.
    pub latched: bool,
    /// IGNNE#, asserted by a write to F0h while FERR# is active.
    pub ignne: bool,
}

/// The state hash covers the latch only once it has left its power-on
/// state, so that machines which never raise an x87 error hash as they
/// did before the latch was modelled.
impl std::hash::Hash for FpuErrorLatch {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        if *self != FpuErrorLatch::default() {
            (self.ferr, self.latched, self.ignne).hash(h);
        }
    }
}

impl FpuErrorLatch {
    /// The unit's error output is at `asserted` (after an ESC instruction).
    /// Returns the new IRQ13 level when it changed.
    pub fn set_ferr(&mut self, asserted: bool) -> Option<bool> {
        let rose = asserted && !self.ferr;
        self.ferr = asserted;
        if !asserted {
            self.ignne = false;
        }
        (rose && !self.latched).then(|| {
            self.latched = true;
            true
        })
    }

    /// A write to port F0h. Returns the new IRQ13 level when it changed.
    pub fn clear(&mut self) -> Option<bool> {
        self.ignne = self.ferr;
        std::mem::take(&mut self.latched).then_some(false)
    }
}

/// Drives IRQ13 from a change of the latch.
pub(crate) fn drive_irq(bus: &mut PcBus, level: Option<bool>) {
    if let Some(l) = level {
        bus.dev.pics.set_irq(IRQ, l);
    }
}

impl Device for FpuErrorLatch {
    const NAME: &'static str = "coprocessor error latch";
    const PORTS: &'static [Ports] = &[0xF0..=0xF0];

    fn power_on(_: &MachineConfig) -> Self {
        FpuErrorLatch::default()
    }

    fn read(_: &mut PcBus, _: u16, _: u64) -> u8 {
        0xFF
    }

    fn write(bus: &mut PcBus, _: u16, _: u8, _: u64) {
        let level = bus.dev.ferr.clear();
        drive_irq(bus, level);
    }

    fn perturb(&mut self) {
        self.ferr = true;
        self.latched = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edge_latches_and_f0h_clears() {
        let mut l = FpuErrorLatch::default();
        assert_eq!(l.set_ferr(false), None);
        assert_eq!(l.set_ferr(true), Some(true));
        assert_eq!(l.set_ferr(true), None, "a level, not a new edge");
        assert_eq!(l.clear(), Some(false));
        assert!(l.ignne, "IGNNE# while FERR# stays active");
        assert_eq!(l.set_ferr(true), None, "no new IRQ13 before FERR# drops");
        assert_eq!(l.set_ferr(false), None);
        assert!(!l.ignne, "IGNNE# ends with FERR#");
        assert_eq!(l.set_ferr(true), Some(true));
        assert_eq!(l.clear(), Some(false));
        assert_eq!(l.clear(), None);
    }
}
