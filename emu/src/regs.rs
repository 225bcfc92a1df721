//! The register file: general registers, segment registers, IP and FLAGS.
//!
//! General registers are stored 32 bits wide so that the 386 model shares the
//! same file; the 8086 and 286 use the low 16 bits only.

/// A 16-bit general register, numbered as in the ModR/M `reg` field (Intel
/// 8086 Family User's Manual, table 4-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Reg16 {
    AX = 0,
    CX = 1,
    DX = 2,
    BX = 3,
    SP = 4,
    BP = 5,
    SI = 6,
    DI = 7,
}

/// A segment register, numbered as in the `sreg` field of MOV Sreg (ES=0,
/// CS=1, SS=2, DS=3; the 386 adds FS=4, GS=5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum SegReg {
    ES = 0,
    CS = 1,
    SS = 2,
    DS = 3,
    FS = 4,
    GS = 5,
}

impl SegReg {
    /// The segment register for a 2- or 3-bit `sreg` field. On the 8086 the
    /// field is 2 bits wide (values 4-7 alias 0-3).
    pub fn from_index(i: u8) -> SegReg {
        match i & 7 {
            0 | 6 => SegReg::ES,
            1 | 7 => SegReg::CS,
            2 => SegReg::SS,
            3 => SegReg::DS,
            4 => SegReg::FS,
            _ => SegReg::GS,
        }
    }

    /// Its assembler name.
    pub fn name(self) -> &'static str {
        ["es", "cs", "ss", "ds", "fs", "gs"][self as usize]
    }
}

/// The programmer-visible registers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Registers {
    /// General registers in ModR/M order: AX, CX, DX, BX, SP, BP, SI, DI.
    pub gpr: [u32; 8],
    /// Segment registers: ES, CS, SS, DS, FS, GS.
    pub seg: [u16; 6],
    /// Instruction pointer (IP; EIP on the 386).
    pub ip: u32,
    /// The flags register as the CPU would push it.
    pub flags: u32,
}

impl Registers {
    /// A 16-bit general register.
    #[inline]
    pub fn reg16(&self, r: Reg16) -> u16 {
        self.gpr[r as usize] as u16
    }
    /// Sets a 16-bit general register, keeping the upper half of the 32-bit
    /// register.
    #[inline]
    pub fn set_reg16(&mut self, r: Reg16, v: u16) {
        let g = &mut self.gpr[r as usize];
        *g = (*g & 0xFFFF_0000) | v as u32;
    }
    /// A 16-bit general register by ModR/M number 0-7.
    #[inline]
    pub fn get16(&self, i: u8) -> u16 {
        self.gpr[(i & 7) as usize] as u16
    }
    /// Sets a 16-bit general register by ModR/M number 0-7.
    #[inline]
    pub fn put16(&mut self, i: u8, v: u16) {
        let g = &mut self.gpr[(i & 7) as usize];
        *g = (*g & 0xFFFF_0000) | v as u32;
    }
    /// An 8-bit register by ModR/M number: 0-3 are AL, CL, DL, BL; 4-7 are
    /// AH, CH, DH, BH.
    #[inline]
    pub fn get8(&self, i: u8) -> u8 {
        let i = i & 7;
        if i < 4 {
            self.gpr[i as usize] as u8
        } else {
            (self.gpr[(i - 4) as usize] >> 8) as u8
        }
    }
    /// Sets an 8-bit register by ModR/M number.
    #[inline]
    pub fn put8(&mut self, i: u8, v: u8) {
        let i = i & 7;
        if i < 4 {
            let g = &mut self.gpr[i as usize];
            *g = (*g & !0xFF) | v as u32;
        } else {
            let g = &mut self.gpr[(i - 4) as usize];
            *g = (*g & !0xFF00) | (v as u32) << 8;
        }
    }
    /// A segment register.
    #[inline]
    pub fn sreg(&self, s: SegReg) -> u16 {
        self.seg[s as usize]
    }
    /// Sets a segment register.
    #[inline]
    pub fn set_sreg(&mut self, s: SegReg, v: u16) {
        self.seg[s as usize] = v;
    }
}
