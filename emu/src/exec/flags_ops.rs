//! The flag instructions: CLC, STC, CMC, CLI, STI, CLD, STD, PUSHF/POPF,
//! SAHF/LAHF, the undocumented SALC, and SETcc.

use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::decode::Instruction;
use crate::eu_timing;
use crate::flags::{AF, CF, DF, IF, PF, SF, ZF};
use crate::size::Size;
use crate::table::Op;

use super::Exec;

impl Cpu {
    /// CLC, STC, CMC, CLI, STI, CLD, STD.
    #[inline(always)]
    pub(super) fn flag_op(&mut self, op: Op) {
        match op {
            Op::Clc => self.set_flag(CF, false),
            Op::Stc => self.set_flag(CF, true),
            Op::Cmc => {
                let c = self.flag(CF);
                self.set_flag(CF, !c);
            }
            Op::Cli => self.set_flag(IF, false),
            Op::Sti => {
                // Interrupts are recognised only after the next instruction.
                if !self.flag(IF) {
                    self.irq_shadow = true;
                }
                self.set_flag(IF, true);
            }
            Op::Cld => self.set_flag(DF, false),
            _ => self.set_flag(DF, true),
        }
    }

    /// PUSHF and POPF. POPF with a 16-bit operand keeps the upper half of
    /// EFLAGS; every write goes through the model's fixed bits.
    pub(super) fn push_pop_flags<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let wsz = Size::wide(ins.opsize32);
        if ins.op == Op::Pushf {
            // The 386's 32-bit push clears VM and RF in the image.
            let f = self.regs.flags & 0xFFFC_FFFF;
            self.x_script(bus, eu_timing::PUSH_PRE);
            self.push(bus, wsz, f)
        } else {
            let v = self.pop(bus, wsz)?;
            self.x_script(bus, eu_timing::POP_POST);
            let keep = if ins.opsize32 {
                0
            } else {
                self.regs.flags & 0xFFFF_0000
            };
            self.regs.flags = self.normalize_flags(keep | v);
            Ok(())
        }
    }

    /// SAHF (AH into the low status flags), LAHF (the low flags into AH)
    /// and SALC (AL = CF ? FFh : 00h).
    #[inline(always)]
    pub(super) fn flags_to_acc<B: Bus>(&mut self, bus: &mut B, op: Op) {
        match op {
            Op::Sahf => {
                let mask = SF | ZF | AF | PF | CF;
                let ah = self.regs.get8(4) as u32;
                let f = (self.regs.flags & !mask) | (ah & mask);
                self.regs.flags = self.normalize_flags(f);
            }
            Op::Lahf => {
                self.x_script(bus, 0);
                let f = self.regs.flags as u8;
                self.regs.put8(4, f);
            }
            _ => {
                self.x_script(bus, eu_timing::salc(self.flag(CF)));
                let v = if self.flag(CF) { 0xFF } else { 0 };
                self.regs.put8(0, v);
            }
        }
    }

    /// SETcc r/m8: 1 when the condition holds, else 0.
    pub(super) fn setcc<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let v = self.condition(ins.opcode & 0x0F) as u32;
        let loc = self.rm_loc(bus, ins);
        self.write_loc(bus, loc, Size::Byte, v)
    }
}
