//! Interrupt and exception entry (being written).
use crate::bus::Bus;
use crate::cpu::Cpu;

impl Cpu {
    pub(crate) fn interrupt<B: Bus>(&mut self, _bus: &mut B, _vector: u8) {}
    pub(crate) fn inta<B: Bus>(&mut self, bus: &mut B) -> u8 {
        bus.inta()
    }
}
