//! The real-time clock's interrupt (IRQ8, INT 70h), as the AT BIOS uses it:
//! the periodic interrupt (1024 Hz) counts down the INT 15h 83h event wait
//! (40:98h the user's flag byte, 40:9Ch the microseconds left, 40:A0h the
//! wait state), and the alarm interrupt (INT 1Ah 06h) calls INT 4Ah.

use crate::bios::int1a::{cmos_read, cmos_write, unmask_irq8};
use crate::mem::{lin, rd16, rd32, rd8, wr16, wr32, wr8};
use hw::cmos::bits;
use hw::Machine;

/// 40:98h: far pointer to the event wait's user flag byte.
pub const USER_FLAG: u32 = 0x498;
/// 40:9Ch: microseconds left in the event wait (dword).
pub const WAIT_COUNT: u32 = 0x49C;
/// 40:A0h: the event wait's state: 01h active, 80h time elapsed and
/// posted, 00h none.
pub const WAIT_FLAG: u32 = 0x4A0;
/// Microseconds per periodic interrupt at the BIOS's 1024 Hz rate (the
/// AT BIOS subtracts 976).
pub const PERIOD_US: u32 = 976;

/// Whether an event wait is active.
pub fn wait_active(m: &mut Machine) -> bool {
    rd8(m, WAIT_FLAG) & 1 != 0
}

/// Starts an event wait of `us` microseconds that sets bit 7 of the byte
/// at `seg:off` when it ends: the periodic interrupt is enabled and IRQ8
/// unmasked.
pub fn start_wait(m: &mut Machine, seg: u16, off: u16, us: u32) {
    wr16(m, USER_FLAG, off);
    wr16(m, USER_FLAG + 2, seg);
    wr32(m, WAIT_COUNT, us);
    wr8(m, WAIT_FLAG, 1);
    let b = cmos_read(m, 0x0B);
    cmos_write(m, 0x0B, b | bits::PIE);
    unmask_irq8(m);
}

/// Cancels an event wait (the periodic interrupt off).
pub fn cancel_wait(m: &mut Machine) {
    wr8(m, WAIT_FLAG, 0);
    let b = cmos_read(m, 0x0B);
    cmos_write(m, 0x0B, b & !bits::PIE);
}

/// The INT 70h handler's work: reads register C (which acknowledges the
/// RTC), counts the event wait down on a periodic interrupt, and returns
/// whether the alarm rang (the ROM then calls INT 4Ah).
pub fn interrupt(m: &mut Machine) -> bool {
    let c = cmos_read(m, 0x0C);
    let b = cmos_read(m, 0x0B);
    // A program that enabled the periodic interrupt itself and chains here
    // keeps it.
    if c & bits::PF != 0 && b & bits::PIE != 0 && wait_active(m) {
        let left = rd32(m, WAIT_COUNT);
        if left < PERIOD_US {
            let a = lin(rd16(m, USER_FLAG + 2), rd16(m, USER_FLAG));
            let v = rd8(m, a);
            wr8(m, a, v | 0x80);
            wr32(m, WAIT_COUNT, 0);
            wr8(m, WAIT_FLAG, 0x80);
            cmos_write(m, 0x0B, b & !bits::PIE);
        } else {
            wr32(m, WAIT_COUNT, left - PERIOD_US);
        }
    }
    c & bits::AF != 0 && b & bits::AIE != 0
}
