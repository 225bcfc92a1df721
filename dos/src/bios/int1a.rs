//! INT 1Ah: the tick count (00h, 01h) and the real-time clock (02h-05h),
//! from emulated time.

use crate::mem::{self, rd32, rd8, wr32, wr8, Regs};
use crate::Dos;
use hw::Machine;

fn bcd(v: u32) -> u8 {
    (((v / 10 % 10) << 4) | (v % 10)) as u8
}

fn unbcd(v: u8) -> u32 {
    (v >> 4) as u32 * 10 + (v & 15) as u32
}

/// Services INT 1Ah.
pub fn service(dos: &mut Dos, m: &mut Machine) {
    match m.ah() {
        0x00 => {
            let t = rd32(m, 0x46C);
            m.set_cx((t >> 16) as u16);
            m.set_dx(t as u16);
            let midnight = rd8(m, 0x470);
            wr8(m, 0x470, 0);
            m.set_al(midnight);
        }
        0x01 => {
            let t = (m.cx() as u32) << 16 | m.dx() as u32;
            wr32(m, 0x46C, t);
            wr8(m, 0x470, 0);
        }
        0x02 => {
            let d = hw::cmos::DateTime::from_seconds(dos.now_seconds(m));
            m.set_ch(bcd(d.hour));
            m.set_cl(bcd(d.minute));
            m.set_dh(bcd(d.second));
            m.set_dl(0);
            mem::set_cf(m, false);
        }
        0x04 => {
            let d = hw::cmos::DateTime::from_seconds(dos.now_seconds(m));
            m.set_ch(bcd(d.year as u32 / 100));
            m.set_cl(bcd(d.year as u32 % 100));
            m.set_dh(bcd(d.month));
            m.set_dl(bcd(d.day));
            mem::set_cf(m, false);
        }
        0x03 | 0x05 => {
            let now = dos.now_seconds(m);
            let mut d = hw::cmos::DateTime::from_seconds(now);
            if m.ah() == 0x03 {
                d.hour = unbcd(m.ch()).min(23);
                d.minute = unbcd(m.cl()).min(59);
                d.second = unbcd(m.dh()).min(59);
            } else {
                d.year = (unbcd(m.ch()) * 100 + unbcd(m.cl())) as i32;
                d.month = unbcd(m.dh()).clamp(1, 12);
                d.day = unbcd(m.dl()).clamp(1, 31);
            }
            dos.clock_offset += d.to_seconds() - now;
            mem::set_cf(m, false);
        }
        ah => {
            let al = m.al();
            dos.unimplemented(0x1A, ah, al);
            mem::set_cf(m, true);
        }
    }
}
