//! LODS without a repeat prefix (the repeated string instructions run in
//! bursts in `crate::string`).

use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::flags::DF;
use crate::regs::Reg16;

use super::Fast;

impl Cpu {
    /// LODS: the element at seg:SI (ESI) into the accumulator, SI stepped
    /// by DF, as `string_once` does it. (Out of line: inlined, it moved
    /// the code of the whole run loop, 0.5% more host instructions on
    /// calls and mem.)
    #[inline(never)]
    pub(super) fn f_lods<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let n = f.size.bits() / 8;
        let si = if f.a32 {
            self.regs.gpr[6]
        } else {
            self.regs.reg16(Reg16::SI) as u32
        };
        let v = self.read_mem(bus, f.seg, si, f.size).ok()?;
        self.put_reg(0, f.size, v);
        let next = if self.flag(DF) {
            si.wrapping_sub(n)
        } else {
            si.wrapping_add(n)
        };
        if f.a32 {
            self.regs.gpr[6] = next;
        } else {
            self.regs.set_reg16(Reg16::SI, next as u16);
        }
        Some(())
    }
}
