//! INT 15h system services: C0h configuration, 86h wait, 87h block move,
//! 88h extended memory size, 4Fh keyboard intercept, 24h A20, E801h, 90h/91h.

use crate::mem::{self, lin, rd16, rd8, Regs};
use crate::{rom, Dos, Flow};
use hw::Machine;

/// Services INT 15h.
pub fn service(dos: &mut Dos, m: &mut Machine) -> Flow {
    let ah = m.ah();
    match ah {
        0x4F => mem::set_cf(m, true),
        0xC0 => {
            m.set_es(rom::SEG);
            m.set_bx(rom::CONFIG_TABLE);
            m.set_ah(0);
            mem::set_cf(m, false);
        }
        0x86 => {
            let us = (m.cx() as u64) << 16 | m.dx() as u64;
            let now = m.cycles();
            let target = match dos.wait_until {
                Some(t) => t,
                None => now + us * m.config().cpu_hz / 1_000_000,
            };
            if now < target {
                dos.wait_until = Some(target);
                return dos.wait(m, 0x15);
            }
            dos.wait_until = None;
            m.set_ah(0);
            mem::set_cf(m, false);
        }
        0x87 => {
            // Copy CX words between the 24-bit bases of descriptors 2 and 3
            // of the GDT at ES:SI.
            let (es, si) = (m.es(), m.si());
            let base = |m: &mut Machine, d: u16| {
                let a = lin(es, si.wrapping_add(d * 8 + 2));
                rd16(m, a) as u32 | (rd8(m, a + 2) as u32) << 16
            };
            let (src, dst) = (base(m, 2), base(m, 3));
            let n = m.cx() as u32 * 2;
            let data: Vec<u8> = (0..n).map(|k| crate::xms::read_phys(m, src + k)).collect();
            for (k, v) in data.into_iter().enumerate() {
                crate::xms::write_phys(m, dst + k as u32, v);
            }
            m.set_ah(0);
            mem::set_cf(m, false);
            mem::set_zf(m, true);
        }
        0x88 => {
            // With an XMS driver loaded the extended memory belongs to it,
            // and HIMEM.SYS answers 0 here.
            let kb = if dos.xms.is_some() {
                0
            } else {
                m.config().extended_kib.min(0xFFFF) as u16
            };
            m.set_ax(kb);
            mem::set_cf(m, false);
        }
        0x24 => {
            match m.al() {
                0 | 1 => {
                    let on = m.al() == 1;
                    let v = m.in8(0x92);
                    m.out8(0x92, if on { v | 2 } else { v & !2 } & !1);
                    m.set_ah(0);
                }
                2 => {
                    let on = m.bus.mem.a20();
                    m.set_ah(0);
                    m.set_al(on as u8);
                }
                _ => {
                    m.set_ah(0);
                    m.set_bx(2); // port 92h
                }
            }
            mem::set_cf(m, false);
        }
        0x90 | 0x91 => {
            m.set_ah(0);
            mem::set_cf(m, false);
        }
        0xE8 if m.al() == 0x01 => {
            let kb = if dos.xms.is_some() {
                0
            } else {
                m.config().extended_kib.min(15 * 1024) as u16
            };
            m.set_ax(kb);
            m.set_cx(kb);
            m.set_bx(0);
            m.set_dx(0);
            mem::set_cf(m, false);
        }
        _ => {
            m.set_ah(0x86);
            mem::set_cf(m, true);
        }
    }
    Flow::Continue
}
