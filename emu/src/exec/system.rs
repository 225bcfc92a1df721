//! Processor control: HLT, WAIT and the coprocessor escapes (no 8087 is
//! fitted), undefined opcodes, and the 286/386 system registers as real mode
//! sees them: SMSW/LMSW/CLTS, SGDT/SIDT/LGDT/LIDT and MOV to and from the
//! control, debug and test registers.

use crate::bus::Bus;
use crate::cpu::{Cpu, Fault, StepEvent, PROTECTED_MODE_UNSUPPORTED};
use crate::decode::Instruction;
use crate::eu_timing;
use crate::size::Size;
use crate::table::Op;

use super::{Exec, Loc, UD};

impl Cpu {
    /// HLT: stop until an interrupt.
    pub(super) fn hlt(&mut self) -> StepEvent {
        self.halted = true;
        StepEvent::Halted
    }

    /// WAIT and ESC. With an x87 fitted they go to `crate::x87`. With no
    /// coprocessor TEST/BUSY is inactive, so WAIT falls through; ESC still
    /// computes the address and reads the operand, then continues.
    pub(super) fn coprocessor<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        if self.fpu.is_some() {
            if ins.op == Op::Wait {
                return self.x87_wait(bus);
            }
            let mem = match self.rm_loc(bus, ins) {
                Loc::Mem(s, o) => Some((s, o)),
                Loc::Reg(_) => None,
            };
            return self.x87_esc(bus, ins, mem);
        }
        if ins.op == Op::Wait {
            return Ok(());
        }
        if ins.modrm.unwrap_or_default().is_reg() {
            self.x_script(bus, 0);
        } else {
            let loc = self.rm_loc(bus, ins);
            self.read_loc(bus, loc, Size::Word)?;
            self.x_script(bus, eu_timing::ESC_MEM_POST);
        }
        Ok(())
    }

    /// An opcode the model does not define: #UD from the 286 on; the 8086
    /// runs it as nothing.
    pub(super) fn invalid(&self) -> Exec {
        if self.model.caps().invalid_opcode_fault {
            Err(UD)
        } else {
            Ok(())
        }
    }

    /// SMSW, LMSW and CLTS: the machine status word (CR0's low 16 bits).
    pub(super) fn msw_op<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        match ins.op {
            Op::Smsw => {
                let loc = self.rm_loc(bus, ins);
                let v = self.sys.cr0;
                let size = if matches!(loc, Loc::Reg(_)) {
                    Size::wide(ins.opsize32)
                } else {
                    Size::Word
                };
                self.write_loc(bus, loc, size, v)
            }
            Op::Lmsw => {
                let loc = self.rm_loc(bus, ins);
                let v = self.read_loc(bus, loc, Size::Word)?;
                // LMSW loads PE, MP, EM and TS; it cannot clear PE.
                if v & 1 != 0 {
                    return Err(Fault::Unsupported(PROTECTED_MODE_UNSUPPORTED));
                }
                self.sys.cr0 = (self.sys.cr0 & !0xF) | (v & 0xE);
                Ok(())
            }
            _ => {
                self.sys.cr0 &= !0x8;
                Ok(())
            }
        }
    }

    /// The value CR0 takes when `v` is written: the model's writable bits
    /// (the 486 keeps NE, WP, AM, NW and CD) and its fixed ones. On the
    /// 486, NW set with CD clear is an invalid combination: #GP(0) (i486
    /// PRM, CR0 "NW").
    fn cr0_written(&self, v: u32) -> Result<u32, Fault> {
        const NW: u32 = 1 << 29;
        const CD: u32 = 1 << 30;
        let c = self.model.caps();
        if c.cr0_writable & NW != 0 && v & (NW | CD) == NW {
            return Err(Fault::Vector(13));
        }
        Ok((v & c.cr0_writable) | c.cr0_fixed_ones)
    }

    /// INVD, WBINVD and INVLPG (486): tandem models no cache and no paging,
    /// so they only take their clocks. INVLPG needs a memory operand (a
    /// register is #UD); real mode runs it (CPL 0).
    pub(super) fn cache_op<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        if ins.op == Op::Invlpg {
            self.mem_operand(bus, ins)?;
        }
        Ok(())
    }

    /// CPUID (later 486 steppings): leaf 0 gives the highest leaf (1) and
    /// the vendor "GenuineIntel" in EBX, EDX, ECX; leaf 1 (and any higher
    /// one) the signature in EAX and the feature flags in EDX (bit 0: an
    /// FPU is there; without one the signature is the 486SX's, see
    /// [`crate::capabilities::CpuidSignature::without_fpu`]). Without CPUID in the model's capabilities: #UD.
    pub(super) fn cpuid(&mut self) -> Exec {
        let c = self.model.caps();
        let Some(sig) = c.cpuid else {
            return Err(UD);
        };
        let g = &mut self.regs.gpr;
        // EAX, ECX, EDX, EBX are gpr[0], [1], [2], [3].
        if g[0] == 0 {
            g[0] = 1;
            g[3] = u32::from_le_bytes(*b"Genu");
            g[2] = u32::from_le_bytes(*b"ineI");
            g[1] = u32::from_le_bytes(*b"ntel");
        } else {
            // The FPU bit and the model follow the unit actually there:
            // without one the part is a 486SX (SX2).
            let fpu = self.fpu.is_some();
            let sig = if fpu { sig } else { sig.without_fpu() };
            let g = &mut self.regs.gpr;
            g[0] = sig.eax();
            g[3] = 0;
            g[1] = 0;
            g[2] = fpu as u32;
        }
        Ok(())
    }

    /// SGDT, SIDT, LGDT, LIDT: a 16-bit limit and a base.
    pub(super) fn descriptor_table_op<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Exec {
        let (seg, off) = self.mem_operand(bus, ins)?;
        let base_off = self.next_off(off, 2);
        let (base, limit) = if matches!(ins.op, Op::Sgdt | Op::Lgdt) {
            self.sys.gdtr
        } else {
            self.sys.idtr
        };
        if matches!(ins.op, Op::Sgdt | Op::Sidt) {
            // A 16-bit store writes 24 bits of base; the 286 fills the top
            // byte with ones, the 386 with the base's.
            let top = if self.model.caps().sgdt_top_byte_ones {
                0xFF00_0000 | base
            } else {
                base
            };
            self.write_mem(bus, seg, off, Size::Word, limit as u32)?;
            self.write_mem(bus, seg, base_off, Size::Dword, top)?;
        } else {
            let limit = self.read_mem(bus, seg, off, Size::Word)? as u16;
            let mut base = self.read_mem(bus, seg, base_off, Size::Dword)?;
            if !ins.opsize32 {
                base &= 0x00FF_FFFF;
            }
            if ins.op == Op::Lgdt {
                self.sys.gdtr = (base, limit);
            } else {
                self.sys.idtr = (base, limit);
            }
        }
        Ok(())
    }

    /// MOV to and from CR0-CR3, DR0-DR7 and TR6/TR7. Real mode runs at
    /// privilege 0, so all are allowed; setting CR0.PE would enter protected
    /// mode, which tandem does not emulate.
    pub(super) fn mov_cr(&mut self, ins: &Instruction) -> Exec {
        let m = ins.modrm.unwrap_or_default();
        let n = m.reg as usize;
        let kind = ins.opcode & 7; // 0/2 CR, 1/3 DR, 4/6 TR
        if ins.op == Op::MovFromCr {
            let v = match kind {
                0 => match n {
                    0 => self.sys.cr0,
                    2 => self.sys.cr2,
                    3 => self.sys.cr3,
                    _ => return Err(UD),
                },
                1 => self.sys.dr[n],
                _ => self.sys.tr[n],
            };
            self.regs.gpr[m.rm as usize] = v;
        } else {
            let v = self.regs.gpr[m.rm as usize];
            match kind {
                2 => match n {
                    0 => {
                        if v & 1 != 0 {
                            return Err(Fault::Unsupported(PROTECTED_MODE_UNSUPPORTED));
                        }
                        self.sys.cr0 = self.cr0_written(v)?;
                    }
                    2 => self.sys.cr2 = v,
                    3 => self.sys.cr3 = v,
                    _ => return Err(UD),
                },
                3 => self.sys.dr[n] = v,
                _ => self.sys.tr[n] = v,
            }
        }
        Ok(())
    }
}
