//! Guest memory and register helpers used by every service.
//!
//! Services read and write guest memory through the machine's loader
//! access (`peek8`/`poke8`: RAM and ROM after the A20 gate) except for the
//! VGA window, which goes through the bus so planes and odd/even apply.

use emu::{Bus, Reg16, SegReg};
use hw::Machine;

/// Linear address of `seg:off` in real mode (20 bits plus the HMA).
#[inline]
pub fn lin(seg: u16, off: u16) -> u32 {
    ((seg as u32) << 4) + off as u32
}

/// Reads a byte of guest memory (the VGA window through the bus).
pub fn rd8(m: &mut Machine, a: u32) -> u8 {
    if (0xA0000..0xC0000).contains(&a) {
        m.bus.mem_read8(a)
    } else {
        m.peek8(a)
    }
}

/// Writes a byte of guest memory (the VGA window through the bus).
pub fn wr8(m: &mut Machine, a: u32, v: u8) {
    if (0xA0000..0xC0000).contains(&a) {
        m.bus.mem_write8(a, v)
    } else {
        m.poke8(a, v)
    }
}

/// Reads a little-endian word.
pub fn rd16(m: &mut Machine, a: u32) -> u16 {
    rd8(m, a) as u16 | (rd8(m, a + 1) as u16) << 8
}

/// Writes a little-endian word.
pub fn wr16(m: &mut Machine, a: u32, v: u16) {
    wr8(m, a, v as u8);
    wr8(m, a + 1, (v >> 8) as u8);
}

/// Reads a little-endian doubleword.
pub fn rd32(m: &mut Machine, a: u32) -> u32 {
    rd16(m, a) as u32 | (rd16(m, a + 2) as u32) << 16
}

/// Writes a little-endian doubleword.
pub fn wr32(m: &mut Machine, a: u32, v: u32) {
    wr16(m, a, v as u16);
    wr16(m, a + 2, (v >> 16) as u16);
}

/// Reads `n` bytes from `seg:off` (offsets wrap within the segment).
pub fn read_bytes(m: &mut Machine, seg: u16, off: u16, n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| rd8(m, lin(seg, off.wrapping_add(i as u16))))
        .collect()
}

/// Reads `n` bytes from linear address `a` on.
pub fn read_bytes_linear(m: &mut Machine, a: u32, n: usize) -> Vec<u8> {
    (0..n as u32).map(|i| rd8(m, a + i)).collect()
}

/// Writes bytes at `seg:off` (offsets wrap within the segment).
pub fn write_bytes(m: &mut Machine, seg: u16, off: u16, data: &[u8]) {
    for (i, &b) in data.iter().enumerate() {
        wr8(m, lin(seg, off.wrapping_add(i as u16)), b);
    }
}

/// Reads an ASCIIZ string of at most `max` bytes at `seg:off`.
pub fn read_asciiz(m: &mut Machine, seg: u16, off: u16, max: usize) -> Vec<u8> {
    let mut v = Vec::new();
    for i in 0..max {
        let b = rd8(m, lin(seg, off.wrapping_add(i as u16)));
        if b == 0 {
            break;
        }
        v.push(b);
    }
    v
}

/// The register accessors services use.
pub trait Regs {
    /// AX.
    fn ax(&self) -> u16;
    /// BX.
    fn bx(&self) -> u16;
    /// CX.
    fn cx(&self) -> u16;
    /// DX.
    fn dx(&self) -> u16;
    /// SI.
    fn si(&self) -> u16;
    /// DI.
    fn di(&self) -> u16;
    /// BP.
    fn bp(&self) -> u16;
    /// SP.
    fn sp(&self) -> u16;
    /// AH.
    fn ah(&self) -> u8 {
        (self.ax() >> 8) as u8
    }
    /// AL.
    fn al(&self) -> u8 {
        self.ax() as u8
    }
    /// BH.
    fn bh(&self) -> u8 {
        (self.bx() >> 8) as u8
    }
    /// BL.
    fn bl(&self) -> u8 {
        self.bx() as u8
    }
    /// CH.
    fn ch(&self) -> u8 {
        (self.cx() >> 8) as u8
    }
    /// CL.
    fn cl(&self) -> u8 {
        self.cx() as u8
    }
    /// DH.
    fn dh(&self) -> u8 {
        (self.dx() >> 8) as u8
    }
    /// DL.
    fn dl(&self) -> u8 {
        self.dx() as u8
    }
    /// DS.
    fn ds(&self) -> u16;
    /// ES.
    fn es(&self) -> u16;
    /// SS.
    fn ss(&self) -> u16;
    /// CS.
    fn cs(&self) -> u16;
    /// Sets AX.
    fn set_ax(&mut self, v: u16);
    /// Sets BX.
    fn set_bx(&mut self, v: u16);
    /// Sets CX.
    fn set_cx(&mut self, v: u16);
    /// Sets DX.
    fn set_dx(&mut self, v: u16);
    /// Sets SI.
    fn set_si(&mut self, v: u16);
    /// Sets DI.
    fn set_di(&mut self, v: u16);
    /// Sets ES.
    fn set_es(&mut self, v: u16);
    /// Sets DS.
    fn set_ds(&mut self, v: u16);
    /// Sets AL.
    fn set_al(&mut self, v: u8) {
        let a = self.ax();
        self.set_ax((a & 0xFF00) | v as u16);
    }
    /// Sets AH.
    fn set_ah(&mut self, v: u8) {
        let a = self.ax();
        self.set_ax((a & 0x00FF) | (v as u16) << 8);
    }
    /// Sets BL.
    fn set_bl(&mut self, v: u8) {
        let a = self.bx();
        self.set_bx((a & 0xFF00) | v as u16);
    }
    /// Sets BH.
    fn set_bh(&mut self, v: u8) {
        let a = self.bx();
        self.set_bx((a & 0x00FF) | (v as u16) << 8);
    }
    /// Sets CL.
    fn set_cl(&mut self, v: u8) {
        let a = self.cx();
        self.set_cx((a & 0xFF00) | v as u16);
    }
    /// Sets CH.
    fn set_ch(&mut self, v: u8) {
        let a = self.cx();
        self.set_cx((a & 0x00FF) | (v as u16) << 8);
    }
    /// Sets DL.
    fn set_dl(&mut self, v: u8) {
        let a = self.dx();
        self.set_dx((a & 0xFF00) | v as u16);
    }
    /// Sets DH.
    fn set_dh(&mut self, v: u8) {
        let a = self.dx();
        self.set_dx((a & 0x00FF) | (v as u16) << 8);
    }
}

impl Regs for Machine {
    fn ax(&self) -> u16 {
        self.cpu.regs.reg16(Reg16::AX)
    }
    fn bx(&self) -> u16 {
        self.cpu.regs.reg16(Reg16::BX)
    }
    fn cx(&self) -> u16 {
        self.cpu.regs.reg16(Reg16::CX)
    }
    fn dx(&self) -> u16 {
        self.cpu.regs.reg16(Reg16::DX)
    }
    fn si(&self) -> u16 {
        self.cpu.regs.reg16(Reg16::SI)
    }
    fn di(&self) -> u16 {
        self.cpu.regs.reg16(Reg16::DI)
    }
    fn bp(&self) -> u16 {
        self.cpu.regs.reg16(Reg16::BP)
    }
    fn sp(&self) -> u16 {
        self.cpu.regs.reg16(Reg16::SP)
    }
    fn ds(&self) -> u16 {
        self.cpu.regs.sreg(SegReg::DS)
    }
    fn es(&self) -> u16 {
        self.cpu.regs.sreg(SegReg::ES)
    }
    fn ss(&self) -> u16 {
        self.cpu.regs.sreg(SegReg::SS)
    }
    fn cs(&self) -> u16 {
        self.cpu.regs.sreg(SegReg::CS)
    }
    fn set_ax(&mut self, v: u16) {
        self.cpu.regs.set_reg16(Reg16::AX, v)
    }
    fn set_bx(&mut self, v: u16) {
        self.cpu.regs.set_reg16(Reg16::BX, v)
    }
    fn set_cx(&mut self, v: u16) {
        self.cpu.regs.set_reg16(Reg16::CX, v)
    }
    fn set_dx(&mut self, v: u16) {
        self.cpu.regs.set_reg16(Reg16::DX, v)
    }
    fn set_si(&mut self, v: u16) {
        self.cpu.regs.set_reg16(Reg16::SI, v)
    }
    fn set_di(&mut self, v: u16) {
        self.cpu.regs.set_reg16(Reg16::DI, v)
    }
    fn set_es(&mut self, v: u16) {
        self.cpu.regs.set_sreg(SegReg::ES, v)
    }
    fn set_ds(&mut self, v: u16) {
        self.cpu.regs.set_sreg(SegReg::DS, v)
    }
}

/// Linear address of the interrupt frame's FLAGS word (SS:SP+4) of a
/// vector service entered through INT.
fn frame_flags_addr(m: &Machine) -> u32 {
    lin(m.ss(), m.sp().wrapping_add(4))
}

/// Sets or clears flag bits in the FLAGS word the INT pushed, so the
/// service's IRET returns them.
pub fn set_frame_flag(m: &mut Machine, bit: u16, on: bool) {
    let a = frame_flags_addr(m);
    let f = rd16(m, a);
    wr16(m, a, if on { f | bit } else { f & !bit });
}

/// Carry in the returned FLAGS.
pub fn set_cf(m: &mut Machine, on: bool) {
    set_frame_flag(m, emu::flags::CF as u16, on);
}

/// Zero in the returned FLAGS.
pub fn set_zf(m: &mut Machine, on: bool) {
    set_frame_flag(m, emu::flags::ZF as u16, on);
}

/// The DOS error return: AX = code, carry set.
pub fn fail(m: &mut Machine, code: u16) {
    m.set_ax(code);
    set_cf(m, true);
}

/// The interrupt frame's return address (CS, IP).
pub fn frame_return(m: &mut Machine) -> (u16, u16) {
    let (ss, sp) = (m.ss(), m.sp());
    let ip = rd16(m, lin(ss, sp));
    let cs = rd16(m, lin(ss, sp.wrapping_add(2)));
    (cs, ip)
}
