//! Country information: INT 21h 38h, 63h, 65h, 66h. tandem is MS-DOS 5/6
//! as installed in the United States: country 001, code page 437, no
//! COUNTRY.SYS or NLSFUNC (so no other country or code page can be
//! selected), no double-byte characters. The tables 65h hands out are in
//! DOS's data segment (see [`dosdata`]).

use hw::Machine;

use crate::dosdata::DOS_SEG;
use crate::dosdata::{self, upper_437};
use crate::kernel::Kernel;
use crate::mem::{self, lin, rd8, wr8, write_bytes, Regs};
use crate::rom::Flow;

/// The only country.
pub const COUNTRY: u16 = 1;
/// The only code page.
pub const CODE_PAGE: u16 = 437;
/// DOS error: file not found (the country is not in COUNTRY.SYS).
const ERR_NO_COUNTRY: u16 = 2;

/// The 34 bytes of INT 21h 38h for the United States: date format 0
/// (m-d-y), "$", "," thousands, "." decimal, "-" date and ":" time
/// separators, currency before the amount, 2 decimals, 12-hour clock, the
/// case-map routine, "," data-list separator.
pub fn country_info() -> [u8; 34] {
    let mut info = [0u8; 34];
    info[2] = b'$';
    info[7] = b',';
    info[9] = b'.';
    info[11] = b'-';
    info[13] = b':';
    info[15] = 0;
    info[16] = 2;
    info[17] = 0;
    info[18..20].copy_from_slice(&dosdata::CASEMAP_OFF.to_le_bytes());
    info[20..22].copy_from_slice(&DOS_SEG.to_le_bytes());
    info[22] = b',';
    info
}

/// Yes/no answer of 6523h: 1 yes, 0 no, 2 neither.
fn yes_no(c: u8) -> u16 {
    match c {
        b'Y' | b'y' => 1,
        b'N' | b'n' => 0,
        _ => 2,
    }
}

impl Kernel {
    /// INT 21h 38h, 63h, 65h, 66h.
    pub(crate) fn int21_country(&mut self, m: &mut Machine, ah: u8) -> Flow {
        match ah {
            0x38 => self.country_38(m),
            0x63 => match m.al() {
                // DBCS lead-byte table: empty.
                0x00 => {
                    m.set_ds(DOS_SEG);
                    m.set_si(dosdata::DBCS_OFF + 2);
                    m.set_al(0);
                    mem::set_cf(m, false);
                }
                // Interim console flag: get DL = 0; set accepted.
                0x01 => {
                    m.set_al(0);
                    mem::set_cf(m, false);
                }
                0x02 => {
                    m.set_dl(0);
                    m.set_al(0);
                    mem::set_cf(m, false);
                }
                _ => self.fail(m, 1),
            },
            0x65 => self.country_65(m),
            0x66 => match m.al() {
                0x01 => {
                    m.set_bx(CODE_PAGE);
                    m.set_dx(CODE_PAGE);
                    mem::set_cf(m, false);
                }
                0x02 if m.bx() == CODE_PAGE => mem::set_cf(m, false),
                0x02 => self.fail(m, ERR_NO_COUNTRY),
                _ => self.fail(m, 1),
            },
            _ => unreachable!("dispatched by int21"),
        }
        Flow::Continue
    }

    /// 38h: get (DS:DX buffer) or, with DX = FFFFh, set the country; AL
    /// the country code (FFh: in BX; 00h: the current one).
    fn country_38(&mut self, m: &mut Machine) {
        let code = match m.al() {
            0 => COUNTRY,
            0xFF => m.bx(),
            c => c as u16,
        };
        if code != COUNTRY {
            self.fail(m, ERR_NO_COUNTRY);
            return;
        }
        if m.dx() != 0xFFFF {
            let (ds, dx) = (m.ds(), m.dx());
            write_bytes(m, ds, dx, &country_info());
        }
        m.set_bx(COUNTRY);
        m.set_ax(COUNTRY);
        mem::set_cf(m, false);
    }

    /// 65h: extended country information (01h-07h into ES:DI, CX bytes at
    /// most) and character capitalisation (20h-22h, A0h-A2h), 23h yes/no.
    fn country_65(&mut self, m: &mut Machine) {
        let al = m.al();
        if matches!(al, 0x01..=0x07) {
            let (bx, dx) = (m.bx(), m.dx());
            if !matches!(bx, 0xFFFF | CODE_PAGE) || !matches!(dx, 0xFFFF | COUNTRY) {
                self.fail(m, ERR_NO_COUNTRY);
                return;
            }
            let table = match al {
                0x02 => Some(dosdata::UPPER_OFF),
                0x04 => Some(dosdata::FUPPER_OFF),
                0x05 => Some(dosdata::TERM_OFF),
                0x06 => Some(dosdata::COLLATE_OFF),
                0x07 => Some(dosdata::DBCS_OFF),
                _ => None,
            };
            let data: Vec<u8> = match (al, table) {
                (0x01, _) => {
                    let mut v = vec![1];
                    v.extend(38u16.to_le_bytes());
                    v.extend(COUNTRY.to_le_bytes());
                    v.extend(CODE_PAGE.to_le_bytes());
                    v.extend(country_info());
                    v
                }
                (_, Some(off)) => {
                    let mut v = vec![al];
                    v.extend(off.to_le_bytes());
                    v.extend(DOS_SEG.to_le_bytes());
                    v
                }
                // 03h does not exist in MS-DOS.
                _ => {
                    self.fail(m, 1);
                    return;
                }
            };
            let cx = m.cx() as usize;
            if cx < 5 {
                self.fail(m, 1);
                return;
            }
            let n = data.len().min(cx);
            let (es, di) = (m.es(), m.di());
            write_bytes(m, es, di, &data[..n]);
            m.set_cx(n as u16);
            mem::set_cf(m, false);
            return;
        }
        match al & 0x7F {
            0x20 => {
                let c = upper_437(m.dl());
                m.set_dl(c);
            }
            0x21 | 0x22 => {
                let (ds, dx) = (m.ds(), m.dx());
                let n = if al & 0x7F == 0x21 { m.cx() } else { 0xFFFF };
                for i in 0..n {
                    let a = lin(ds, dx.wrapping_add(i));
                    let c = rd8(m, a);
                    if al & 0x7F == 0x22 && c == 0 {
                        break;
                    }
                    wr8(m, a, upper_437(c));
                }
            }
            0x23 if al == 0x23 => {
                let v = yes_no(m.dl());
                m.set_ax(v);
            }
            _ => {
                self.fail(m, 1);
                return;
            }
        }
        mem::set_cf(m, false);
    }
}
