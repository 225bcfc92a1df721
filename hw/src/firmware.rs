//! The machine's own small firmware: the stubs it keeps in the BIOS ROM
//! area (a return trap, an IRET, IRQ handlers that send EOI, a reset vector
//! that halts), a minimal power-on self test, far calls and software
//! interrupts run to their return, and the option-ROM initialisation a
//! BIOS does. DOS's BIOS services (`dos::bios`) build on these.

use emu::{Reg16, SegReg};

use crate::error::Error;
use crate::machine::{Machine, RunExit};
use crate::memory::Memory;
use crate::option_rom::{self, OptionRom};

/// The segment of the machine's stubs (the BIOS ROM).
const STUB_SEG: u16 = 0xF000;
/// The return stub (`cli; hlt`) a far call returns to.
const STUB_RET: u16 = 0xFF00;
/// The IRET stub every unused vector points at after [`Machine::post`].
const STUB_IRET: u16 = 0xFF10;
/// IRQ handlers installed by post: EOI (and for IRQ1 a read of port 60h).
const STUB_IRQ_MASTER: u16 = 0xFF20;
const STUB_IRQ_SLAVE: u16 = 0xFF30;
const STUB_IRQ1: u16 = 0xFF40;
/// The reset vector, FFFF:0000.
const RESET_VECTOR: u32 = 0xFFFF0;

/// `cli; hlt`.
const CLI_HLT: [u8; 2] = [0xFA, 0xF4];

/// The interrupt vectors of the real-mode table at 0000:0000.
const VECTORS: u32 = 256;
/// Bytes per vector (offset, segment).
const VECTOR_BYTES: u32 = 4;

/// The offset of an option ROM's initialisation entry.
const OPTION_ROM_INIT: u16 = 3;
/// The stack an option ROM's initialisation runs on (0000:7C00, as a
/// BIOS leaves it).
const OPTION_ROM_SP: u16 = 0x7C00;

/// The linear address of the stub at `off` in [`STUB_SEG`].
fn stub(off: u16) -> u32 {
    ((STUB_SEG as u32) << 4) + off as u32
}

/// Writes the machine's stubs into the BIOS area of `mem`: a return trap,
/// an IRET and IRQ handlers, and a reset vector that halts.
pub(crate) fn install_stubs(mem: &mut Memory) {
    mem.write_image(stub(STUB_RET), &CLI_HLT);
    mem.write_image(stub(STUB_IRET), &[0xCF]); // iret
                                               // push ax; mov al,20h; out 20h,al; pop ax; iret
    mem.write_image(
        stub(STUB_IRQ_MASTER),
        &[0x50, 0xB0, 0x20, 0xE6, 0x20, 0x58, 0xCF],
    );
    // push ax; mov al,20h; out A0h,al; out 20h,al; pop ax; iret
    mem.write_image(
        stub(STUB_IRQ_SLAVE),
        &[0x50, 0xB0, 0x20, 0xE6, 0xA0, 0xE6, 0x20, 0x58, 0xCF],
    );
    // push ax; in al,60h; mov al,20h; out 20h,al; pop ax; iret
    mem.write_image(
        stub(STUB_IRQ1),
        &[0x50, 0xE4, 0x60, 0xB0, 0x20, 0xE6, 0x20, 0x58, 0xCF],
    );
    mem.write_image(RESET_VECTOR, &CLI_HLT);
}

impl Machine {
    /// What the BIOS power-on self test leaves behind, minimally: PICs at
    /// vectors 08h and 70h (IRQ0-2 unmasked), PIT channel 0 in mode 3 with
    /// divisor 65536 (18.2 Hz), channel 1 in mode 2 with count 18 (refresh),
    /// every interrupt vector at an IRET stub and IRQ vectors at stubs that
    /// send EOI (IRQ1's also reads port 60h).
    pub fn post(&mut self) {
        let pic_init = crate::pic::AT_BIOS_INIT.iter().copied();
        for (port, v) in pic_init.chain([
            (0x21, 0xF8),
            (0xA1, 0xFF),
            (0x43, 0x36),
            (0x40, 0x00),
            (0x40, 0x00),
            (0x43, 0x54),
            (0x41, 18),
        ]) {
            self.out8(port, v);
        }
        for v in 0..VECTORS {
            let off = match v {
                0x09 => STUB_IRQ1,
                0x08 | 0x0A..=0x0F => STUB_IRQ_MASTER,
                0x70..=0x77 => STUB_IRQ_SLAVE,
                _ => STUB_IRET,
            };
            self.poke16(v * VECTOR_BYTES, off);
            self.poke16(v * VECTOR_BYTES + 2, STUB_SEG);
        }
    }

    /// Far-calls `seg:off` on the current stack and runs until it returns
    /// (through a `cli; hlt` stub in the BIOS area), at most `max_cycles`.
    /// IF is restored afterwards.
    pub fn far_call(&mut self, seg: u16, off: u16, max_cycles: u64) -> Result<(), Error> {
        let flags = self.cpu.regs.flags;
        self.push16(STUB_SEG);
        self.push16(STUB_RET);
        self.cpu.regs.set_sreg(SegReg::CS, seg);
        self.cpu.regs.ip = off as u32;
        self.finish_call(flags, max_cycles)
    }

    /// Runs software interrupt `vector` as `int` would (FLAGS, CS, IP
    /// pushed; IF and TF cleared) with the current registers, until its
    /// IRET returns. IF is restored afterwards.
    pub fn call_interrupt(&mut self, vector: u8, max_cycles: u64) -> Result<(), Error> {
        let flags = self.cpu.regs.flags;
        self.push16(flags as u16);
        self.push16(STUB_SEG);
        self.push16(STUB_RET);
        self.cpu.regs.flags &= !(emu::flags::IF | emu::flags::TF);
        let v = vector as u32 * VECTOR_BYTES;
        let (ip, cs) = (self.peek16(v), self.peek16(v + 2));
        self.cpu.regs.set_sreg(SegReg::CS, cs);
        self.cpu.regs.ip = ip as u32;
        self.finish_call(flags, max_cycles)
    }

    /// Runs until the call returns to the return stub (past its `cli`, at
    /// its `hlt`), then restores IF from `flags`.
    fn finish_call(&mut self, flags: u32, max_cycles: u64) -> Result<(), Error> {
        self.cpu.halted = false;
        let exit = self.run_for(max_cycles);
        let (cs, ip) = (self.cpu.regs.sreg(SegReg::CS), self.cpu.regs.ip);
        let returned = ip == STUB_RET as u32 + CLI_HLT.len() as u32;
        if exit == RunExit::Halted && cs == STUB_SEG && returned {
            self.cpu.halted = false;
            let r = &mut self.cpu.regs;
            r.flags = (r.flags & !emu::flags::IF) | (flags & emu::flags::IF);
            Ok(())
        } else {
            Err(Error::NoReturn {
                exit,
                cs,
                ip,
                cycles: self.cpu.cycles,
            })
        }
    }

    /// Pushes a word on the current stack.
    fn push16(&mut self, v: u16) {
        let sp = self.cpu.regs.reg16(Reg16::SP).wrapping_sub(2);
        self.cpu.regs.set_reg16(Reg16::SP, sp);
        let ss = self.cpu.regs.sreg(SegReg::SS);
        let a = self.cpu.linear(ss, sp);
        self.poke16(a, v);
    }

    /// Scans C0000h-DFFFFh for option ROMs and initialises each valid one
    /// with a far call to its offset 3, on a stack at 0000:7C00, as a BIOS
    /// does. Returns what the scan found; an error if a ROM's init does not
    /// return within `max_cycles`.
    pub fn init_option_roms(&mut self, max_cycles: u64) -> Result<Vec<OptionRom>, Error> {
        let roms = option_rom::scan(&self.bus.mem);
        for r in roms.iter().filter(|r| r.checksum_ok) {
            self.cpu.regs.set_sreg(SegReg::SS, 0);
            self.cpu.regs.set_reg16(Reg16::SP, OPTION_ROM_SP);
            self.far_call(r.segment, OPTION_ROM_INIT, max_cycles)
                .map_err(|e| Error::OptionRom {
                    segment: r.segment,
                    source: Box::new(e),
                })?;
        }
        Ok(roms)
    }
}
