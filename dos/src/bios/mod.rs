//! BIOS services: [`bda`] (the BIOS data area and the timer tick),
//! [`keyboard`] (the keyboard buffer, shift flags and key table),
//! [`int09`] (the keyboard interrupt's translation), [`video`] (INT 10h),
//! [`int16`] (keyboard), [`int1a`] (time), [`int70`] (the RTC interrupt),
//! [`int15`] (system services), [`int33`] (mouse driver); INT 11h-14h and
//! 17h are [`equipment`].

use hw::Machine;

use crate::mem::{self, Regs};

pub mod bda;
pub mod int09;
pub mod int15;
pub mod int16;
pub mod int1a;
pub mod int33;
pub mod int70;
pub mod keyboard;
pub mod video;

/// The BIOS's state outside guest memory: what the keyboard services, the
/// mouse driver and the INT 15h wait keep between calls.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Bios {
    /// INT 16h: the typematic setting and the key wait.
    pub(crate) keyboard: int16::Keyboard,
    /// INT 33h: the mouse driver.
    pub(crate) mouse: int33::Mouse,
    /// INT 15h 86h: the emulated cycle its wait ends at, while it waits.
    pub(crate) wait_until: Option<u64>,
}

/// INT 11h (equipment list) and 12h (memory size) answer what the BIOS
/// data area holds, so a program that changed it reads its own values
/// back; there are no disks (INT 13h), serial ports (14h) or printers
/// (17h) to reach.
pub fn equipment(m: &mut Machine, v: u8) {
    match v {
        0x11 => {
            let e = mem::rd16(m, 0x410);
            m.set_ax(e);
        }
        0x12 => {
            let k = mem::rd16(m, 0x413);
            m.set_ax(k);
        }
        0x13 => {
            // No disks: "bad command" / invalid drive.
            m.set_ah(0x01);
            mem::set_cf(m, true);
        }
        0x14 => m.set_ah(0x80),
        0x17 => m.set_ah(0x30),
        _ => {}
    }
}
