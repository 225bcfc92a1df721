//! Where the registers of the test formats live in the CPU core's register
//! file.

use emu::{Registers, SegReg};

use crate::moo::MooReg;

/// A place in [`Registers`]: a general register by ModR/M number, a segment
/// register, IP or FLAGS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    Gpr(usize),
    Seg(SegReg),
    Ip,
    Flags,
}

impl Slot {
    /// The value at this place (segment registers zero-extended).
    pub(super) fn get(self, r: &Registers) -> u32 {
        match self {
            Slot::Gpr(i) => r.gpr[i],
            Slot::Seg(s) => r.sreg(s) as u32,
            Slot::Ip => r.ip,
            Slot::Flags => r.flags,
        }
    }

    /// Writes `v` here (segment registers take its low 16 bits).
    pub(super) fn set(self, r: &mut Registers, v: u32) {
        match self {
            Slot::Gpr(i) => r.gpr[i] = v,
            Slot::Seg(s) => r.set_sreg(s, v as u16),
            Slot::Ip => r.ip = v,
            Slot::Flags => r.flags = v,
        }
    }
}

/// The place of a MOO register.
pub(super) fn moo_slot(m: MooReg) -> Slot {
    match m {
        MooReg::AX => Slot::Gpr(0),
        MooReg::CX => Slot::Gpr(1),
        MooReg::DX => Slot::Gpr(2),
        MooReg::BX => Slot::Gpr(3),
        MooReg::SP => Slot::Gpr(4),
        MooReg::BP => Slot::Gpr(5),
        MooReg::SI => Slot::Gpr(6),
        MooReg::DI => Slot::Gpr(7),
        MooReg::ES => Slot::Seg(SegReg::ES),
        MooReg::CS => Slot::Seg(SegReg::CS),
        MooReg::SS => Slot::Seg(SegReg::SS),
        MooReg::DS => Slot::Seg(SegReg::DS),
        MooReg::IP => Slot::Ip,
        MooReg::FLAGS => Slot::Flags,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_moo_register_has_its_own_place() {
        let mut r = Registers::default();
        for (i, m) in MooReg::ALL.into_iter().enumerate() {
            moo_slot(m).set(&mut r, 0x100 + i as u32);
        }
        for (i, m) in MooReg::ALL.into_iter().enumerate() {
            assert_eq!(moo_slot(m).get(&r), 0x100 + i as u32, "{}", m.name());
        }
        assert_eq!(
            r.gpr[3],
            0x100 + MooReg::ALL.iter().position(|&m| m == MooReg::BX).unwrap() as u32
        );
        assert_eq!(r.sreg(SegReg::CS) as u32, moo_slot(MooReg::CS).get(&r));
    }
}
