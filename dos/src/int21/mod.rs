//! INT 21h, the DOS function dispatcher. Functions are grouped by area:
//! [`console`] (01h-0Ch), [`files`] (handles), [`dirs`] (directories,
//! searches, drives, DTA), [`process`] (EXEC, termination, memory); the
//! rest (vectors, version, date and time, flags, country, errors) is here.
//! An unimplemented function logs one warning naming AH/AL and returns
//! carry with error 1 (invalid function).

pub mod console;
pub mod dirs;
pub mod files;
pub mod process;

use crate::loader::parse_fcb_name;
use crate::mem::{self, lin, rd16, wr16, wr8, write_bytes, Regs};
use crate::{Dos, Flow, DOS_SEG, INDOS_OFF, LOL_OFF};
use hw::Machine;

/// Services INT 21h with the guest's registers.
pub fn service(dos: &mut Dos, m: &mut Machine) -> Flow {
    let ah = m.ah();
    log::trace!(
        "INT 21h AX={:04X} BX={:04X} CX={:04X} DX={:04X} DS={:04X} ES={:04X}",
        m.ax(),
        m.bx(),
        m.cx(),
        m.dx(),
        m.ds(),
        m.es()
    );
    match ah {
        0x01..=0x0C => dos.int21_console(m, ah),
        0x0E | 0x19 | 0x1A | 0x2F | 0x36 | 0x39..=0x3B | 0x47 | 0x4E | 0x4F => {
            dos.int21_dirs(m, ah)
        }
        0x3C..=0x43 | 0x45 | 0x46 | 0x56 | 0x57 | 0x5A | 0x5B | 0x68 | 0x6A | 0x6C => {
            dos.int21_files(m, ah)
        }
        0x44 => dos.ioctl(m),
        0x00 | 0x31 | 0x48..=0x4D | 0x50 | 0x51 | 0x58 | 0x62 => dos.int21_process(m, ah),
        _ => {
            dos.int21_misc(m, ah);
            Flow::Continue
        }
    }
}

impl Dos {
    fn int21_misc(&mut self, m: &mut Machine, ah: u8) {
        match ah {
            0x0D => {}
            0x25 => {
                let v = m.al() as u32 * 4;
                let (ds, dx) = (m.ds(), m.dx());
                wr16(m, v, dx);
                wr16(m, v + 2, ds);
            }
            0x35 => {
                let v = m.al() as u32 * 4;
                let off = rd16(m, v);
                let seg = rd16(m, v + 2);
                m.set_bx(off);
                m.set_es(seg);
            }
            0x29 => self.parse_filename(m),
            0x2A => {
                let d = hw::cmos::DateTime::from_seconds(self.now_seconds(m));
                m.set_cx(d.year as u16);
                m.set_dh(d.month as u8);
                m.set_dl(d.day as u8);
                m.set_al((d.weekday() - 1) as u8);
            }
            0x2B | 0x2D => {
                let now = self.now_seconds(m);
                let mut d = hw::cmos::DateTime::from_seconds(now);
                if ah == 0x2B {
                    d.year = m.cx() as i32;
                    d.month = m.dh() as u32;
                    d.day = m.dl() as u32;
                    if !(1980..=2099).contains(&d.year)
                        || !(1..=12).contains(&d.month)
                        || !(1..=31).contains(&d.day)
                    {
                        m.set_al(0xFF);
                        return;
                    }
                } else {
                    d.hour = m.ch() as u32;
                    d.minute = m.cl() as u32;
                    d.second = m.dh() as u32;
                    if d.hour > 23 || d.minute > 59 || d.second > 59 {
                        m.set_al(0xFF);
                        return;
                    }
                }
                self.clock_offset += d.to_seconds() - now;
                m.set_al(0);
            }
            0x2C => {
                let s = self.now_seconds(m);
                let d = hw::cmos::DateTime::from_seconds(s);
                let cfg = m.config();
                let frac = m.cycles() % cfg.cpu_hz.max(1);
                let cs = (frac * 100 / cfg.cpu_hz.max(1)) as u8;
                m.set_ch(d.hour as u8);
                m.set_cl(d.minute as u8);
                m.set_dh(d.second as u8);
                m.set_dl(cs);
            }
            0x2E => self.verify = m.al() & 1 != 0,
            0x54 => m.set_al(self.verify as u8),
            0x30 => {
                // MS-DOS 5.00, OEM Microsoft; AL = 00h also for AL = 01h.
                m.set_ax(0x0005);
                m.set_bx(0xFF00);
                m.set_cx(0);
            }
            0x33 => match m.al() {
                0x00 => m.set_dl(self.break_flag as u8),
                0x01 => self.break_flag = m.dl() & 1 != 0,
                0x02 => {
                    let old = self.break_flag as u8;
                    self.break_flag = m.dl() & 1 != 0;
                    m.set_dl(old);
                }
                0x05 => m.set_dl(3),
                0x06 => {
                    m.set_bx(0x0005);
                    m.set_dx(0);
                }
                _ => m.set_al(0xFF),
            },
            0x34 => {
                m.set_es(DOS_SEG);
                m.set_bx(INDOS_OFF);
            }
            0x37 => match m.al() {
                0x00 => {
                    m.set_al(0);
                    m.set_dl(b'/');
                }
                _ => m.set_al(0xFF),
            },
            0x38 => {
                // United States: date format 0 (m/d/y), "$", "," thousands,
                // "." decimal, "/" date, ":" time, 12-hour clock.
                let (ds, dx) = (m.ds(), m.dx());
                let mut info = [0u8; 34];
                info[2] = b'$';
                info[7] = b',';
                info[9] = b'.';
                info[11] = b'-';
                info[13] = b':';
                info[16] = 2;
                info[18..22].copy_from_slice(&[0xF0, 0x04, 0x00, 0xF0]);
                info[22] = b',';
                if m.al() == 0 {
                    write_bytes(m, ds, dx, &info);
                    m.set_bx(1);
                    mem::set_cf(m, false);
                } else {
                    self.fail(m, 2);
                }
            }
            0x52 => {
                m.set_es(DOS_SEG);
                m.set_bx(LOL_OFF);
            }
            0x59 => {
                let code = self.ext_error;
                m.set_ax(code);
                let (class, action, locus) = match code {
                    2 | 3 => (8, 3, 2),
                    4 | 8 => (1, 4, 1),
                    5 => (3, 3, 2),
                    _ => (7, 4, 1),
                };
                m.set_bh(class);
                m.set_bl(action);
                m.set_ch(locus);
            }
            0x63 => {
                // No DBCS lead bytes: DS:SI -> an empty table.
                m.set_ds(DOS_SEG);
                m.set_si(0x0030);
                m.set_al(0);
            }
            0x66 => {
                if m.al() == 1 {
                    m.set_bx(437);
                    m.set_dx(437);
                }
                mem::set_cf(m, false);
            }
            0x67 => {
                if m.bx() <= 20 {
                    mem::set_cf(m, false);
                } else {
                    self.unimplemented(0x21, 0x67, 0);
                    self.fail(m, 8);
                }
            }
            0x71 => {
                // Long file names are a Windows 95 extension: unsupported.
                m.set_ax(0x7100);
                mem::set_cf(m, true);
            }
            _ => {
                let al = m.al();
                self.unimplemented(0x21, ah, al);
                self.fail(m, 1);
            }
        }
    }

    /// INT 21h 29h: parses a file name at DS:SI into the FCB at ES:DI.
    fn parse_filename(&mut self, m: &mut Machine) {
        let (ds, si) = (m.ds(), m.si());
        let src = mem::read_bytes(m, ds, si, 128);
        let (drive, name, valid, used) = parse_fcb_name(&src);
        let (es, di) = (m.es(), m.di());
        let flags = m.al();
        if drive != 0 || flags & 2 == 0 {
            wr8(m, lin(es, di), drive);
        }
        let old = mem::read_bytes(m, es, di.wrapping_add(1), 11);
        let mut out = name;
        if flags & 4 != 0 && name[..8].iter().all(|&c| c == b' ') {
            out[..8].copy_from_slice(&old[..8]);
        }
        if flags & 8 != 0 && name[8..].iter().all(|&c| c == b' ') {
            out[8..].copy_from_slice(&old[8..]);
        }
        write_bytes(m, es, di.wrapping_add(1), &out);
        m.set_si(si.wrapping_add(used as u16));
        let wild = out.contains(&b'?');
        m.set_al(if !valid {
            0xFF
        } else if wild {
            1
        } else {
            0
        });
    }
}
