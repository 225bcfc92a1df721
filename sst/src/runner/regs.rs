//! The MOO registers in the CPU core's register file.

use emu::Registers;

use crate::moo::MooReg;

/// Reads a MOO register out of the register file.
pub(super) fn get_reg(r: &Registers, m: MooReg) -> u32 {
    match m {
        MooReg::AX => r.gpr[0],
        MooReg::CX => r.gpr[1],
        MooReg::DX => r.gpr[2],
        MooReg::BX => r.gpr[3],
        MooReg::SP => r.gpr[4],
        MooReg::BP => r.gpr[5],
        MooReg::SI => r.gpr[6],
        MooReg::DI => r.gpr[7],
        MooReg::ES => r.seg[0] as u32,
        MooReg::CS => r.seg[1] as u32,
        MooReg::SS => r.seg[2] as u32,
        MooReg::DS => r.seg[3] as u32,
        MooReg::IP => r.ip,
        MooReg::FLAGS => r.flags,
    }
}

/// Writes a MOO register into the register file.
pub(super) fn set_reg(r: &mut Registers, m: MooReg, v: u16) {
    let v32 = v as u32;
    match m {
        MooReg::AX => r.gpr[0] = v32,
        MooReg::CX => r.gpr[1] = v32,
        MooReg::DX => r.gpr[2] = v32,
        MooReg::BX => r.gpr[3] = v32,
        MooReg::SP => r.gpr[4] = v32,
        MooReg::BP => r.gpr[5] = v32,
        MooReg::SI => r.gpr[6] = v32,
        MooReg::DI => r.gpr[7] = v32,
        MooReg::ES => r.seg[0] = v,
        MooReg::CS => r.seg[1] = v,
        MooReg::SS => r.seg[2] = v,
        MooReg::DS => r.seg[3] = v,
        MooReg::IP => r.ip = v32,
        MooReg::FLAGS => r.flags = v32,
    }
}
