//! INT 21h, the DOS function dispatcher. Functions are grouped by area:
//! [`console`] (01h-0Ch), [`fcb`] (file control blocks), [`files`]
//! (handles), [`ioctl`] (44h), [`dirs`] (directories, searches, DTA),
//! [`disk`] (drive C:'s description), [`country`] (38h, 63h, 65h, 66h),
//! [`truename`] (60h), [`process`] (EXEC, termination, memory, PSPs); the
//! rest (vectors, version, date and time, flags, errors, locking, the
//! network answers) is here, with DOS's other interrupts
//! ([`other_vector`]).
//!
//! The functions work on the DOS kernel's state ([`Kernel`], of which they
//! are methods) and are handed the [`Console`] or the [`Diagnostics`] only
//! where they use them. An unimplemented function logs one warning naming
//! AH/AL and returns carry with error 1 (invalid function).

pub mod console;
pub mod country;
pub mod dirs;
pub mod disk;
pub mod fcb;
pub mod files;
pub mod ioctl;
pub mod process;
mod readonly;
pub mod truename;

use crate::console::Console;
use crate::diag::Diagnostics;
use crate::dosdata::{DOS_SEG, INDOS_OFF, LOL_OFF};
use crate::kernel::Kernel;
use crate::loader::parse_fcb_name_with;
use crate::mem::{self, lin, rd16, wr16, wr8, write_bytes, Regs};
use crate::rom::Flow;
use hw::Machine;

/// Services INT 21h with the guest's registers: the kernel's functions,
/// the console's, and a warning for what is not implemented.
pub fn service(k: &mut Kernel, con: &mut Console, diag: &mut Diagnostics, m: &mut Machine) -> Flow {
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
    // DOS keeps the caller's stack (after its register pushes) in the PSP
    // on every call.
    let psp = k.current_psp();
    if psp != 0 {
        let sp = m.sp().wrapping_sub(18);
        wr16(m, lin(psp, 0x2E), sp);
        wr16(m, lin(psp, 0x30), m.ss());
    }
    if let Some(e) = k.read_only_refusal(m, ah) {
        k.fail(m, e);
        return Flow::Continue;
    }
    match ah {
        0x01..=0x0C => k.int21_console(con, m, ah),
        0x0E | 0x19 | 0x1A | 0x2F | 0x39..=0x3B | 0x47 | 0x4E | 0x4F => k.int21_dirs(m, ah),
        0x0F..=0x17 | 0x21..=0x24 | 0x27 | 0x28 => k.int21_fcb(con, m, ah),
        0x1B | 0x1C | 0x1F | 0x32 | 0x36 | 0x53 | 0x69 => k.int21_disk(diag, m, ah),
        0x38 | 0x63 | 0x65 | 0x66 => k.int21_country(m, ah),
        0x60 => k.int21_truename(m),
        0x3C..=0x43 | 0x45 | 0x46 | 0x56 | 0x57 | 0x5A | 0x5B | 0x68 | 0x6A | 0x6C => {
            k.int21_files(con, m, ah)
        }
        0x44 => k.ioctl(diag, m),
        0x00 | 0x26 | 0x31 | 0x48..=0x4D | 0x50 | 0x51 | 0x55 | 0x58 | 0x62 | 0x67 => {
            k.int21_process(con, diag, m, ah)
        }
        _ => {
            k.int21_misc(diag, m, ah);
            Flow::Continue
        }
    }
}

/// DOS's other interrupts: INT 20h (terminate), the default INT 22h
/// target, INT 23h (Ctrl-C) and INT 24h (critical error) handlers, INT
/// 27h (stay resident), INT 28h (idle), INT 29h (fast console output) and
/// INT 2Ah (network).
pub fn other_vector(k: &mut Kernel, con: &mut Console, m: &mut Machine, v: u8) -> Flow {
    match v {
        // The default INT 22h target (reached by a jump, not an INT),
        // and the default Ctrl-C handler: DOS ends the program (type 1
        // for Ctrl-C).
        0x20 | 0x22 => k.terminate(con, m, 0, 0),
        0x23 => k.terminate(con, m, 0, 1),
        // The default critical-error handler: COMMAND.COM would ask
        // "Abort, Retry, Fail?"; with no one to ask, Fail (AL = 03h).
        0x24 => {
            m.set_al(3);
            Flow::Continue
        }
        0x27 => {
            let paras = (m.dx() as u32).div_ceil(16).max(0x10) as u16;
            k.tsr(con, m, paras, 0)
        }
        0x29 => {
            let c = m.al();
            console::con_out(con, m, c);
            Flow::Continue
        }
        // DOS idle (INT 28h) and the network/critical-section hooks
        // (INT 2Ah; AH = 00h, the installation check, keeps AH = 00h:
        // no network) have no one behind them: IRET.
        _ => Flow::Continue,
    }
}

impl Kernel {
    /// The functions of no other area: vectors, version, date and time,
    /// flags, errors, locking, the network answers.
    fn int21_misc(&mut self, diag: &mut Diagnostics, m: &mut Machine, ah: u8) {
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
            0x2A => self.get_date(m),
            0x2B | 0x2D => self.set_date_time(m, ah),
            0x2C => self.get_time(m),
            0x2E => self.verify = m.al() & 1 != 0,
            0x54 => m.set_al(self.verify as u8),
            0x30 => version(m),
            // Unused functions that return AL = 00h in MS-DOS 5 (6Bh was
            // OS/2's IFS ioctl, 61h never used); 64h sets an internal
            // flag.
            0x61 | 0x6B => m.set_al(0),
            0x64 => {}
            0x33 => self.break_flag(m),
            0x34 => {
                m.set_es(DOS_SEG);
                m.set_bx(INDOS_OFF);
            }
            0x37 => switch_char(m),
            0x52 => {
                m.set_es(DOS_SEG);
                m.set_bx(LOL_OFF);
            }
            0x59 => self.extended_error(m),
            // CP/M compatibility functions that do nothing in MS-DOS.
            0x18 | 0x1D | 0x1E | 0x20 => m.set_al(0),
            0x5C => self.lock(m),
            0x5D => self.server_call(diag, m),
            0x5E | 0x5F => self.network(diag, m, ah),
            0x71 => {
                // Long file names are a Windows 95 extension: unsupported.
                m.set_ax(0x7100);
                mem::set_cf(m, true);
            }
            _ => {
                let al = m.al();
                diag.unimplemented(0x21, ah, al);
                self.fail(m, 1);
            }
        }
    }

    /// 2Ah: the date of the emulated clock (CX year, DH month, DL day, AL
    /// day of the week).
    fn get_date(&mut self, m: &mut Machine) {
        let d = hw::cmos::DateTime::from_seconds(self.now_seconds(m));
        m.set_cx(d.year as u16);
        m.set_dh(d.month as u8);
        m.set_dl(d.day as u8);
        m.set_al((d.weekday() - 1) as u8);
    }

    /// 2Bh (date) and 2Dh (time): moves the emulated clock by the
    /// difference (AL = FFh for an invalid date or time).
    fn set_date_time(&mut self, m: &mut Machine, ah: u8) {
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

    /// 2Ch: the time of the emulated clock (CH hours, CL minutes, DH
    /// seconds, DL hundredths).
    fn get_time(&mut self, m: &mut Machine) {
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

    /// 33h: the Ctrl-Break flag (00h-02h), the boot drive (05h) and the
    /// true version (06h).
    fn break_flag(&mut self, m: &mut Machine) {
        match m.al() {
            0x00 => m.set_dl(self.break_flag as u8),
            0x01 => self.break_flag = m.dl() & 1 != 0,
            0x02 => {
                let old = self.break_flag as u8;
                self.break_flag = m.dl() & 1 != 0;
                m.set_dl(old);
            }
            // 05h: boot drive C:. (03h/04h, DOS 4.0's code page
            // switching state, are gone in MS-DOS 5: AL = FFh.)
            0x05 => m.set_dl(3),
            0x06 => {
                m.set_bx(0x0005);
                m.set_dx(0);
            }
            _ => m.set_al(0xFF),
        }
    }

    /// 59h: the extended error, with the class, action and locus a
    /// program set with 5D0Ah for it or else DOS's own.
    fn extended_error(&mut self, m: &mut Machine) {
        let code = self.ext_error;
        let (class, action, locus) = match self.ext_detail {
            Some((c, class, action, locus)) if c == code => (class, action, locus),
            _ => error_class(code),
        };
        m.set_ax(code);
        m.set_bh(class);
        m.set_bl(action);
        m.set_ch(locus);
    }

    /// INT 21h 29h: parses a file name at DS:SI into the FCB at ES:DI.
    fn parse_filename(&mut self, m: &mut Machine) {
        let (ds, si) = (m.ds(), m.si());
        let src = mem::read_bytes(m, ds, si, 128);
        let flags = m.al();
        let (drive, name, valid, used) = parse_fcb_name_with(&src, flags & 1 != 0);
        let (es, di) = (m.es(), m.di());
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

    /// 5Ch: lock (AL = 00h) or unlock (01h) a region of a handle's file.
    /// The drive has one user and no SHARE: every lock succeeds.
    fn lock(&mut self, m: &mut Machine) {
        let (al, h) = (m.al(), m.bx());
        if al > 1 {
            self.fail(m, 1);
            return;
        }
        match self.handle(m, h) {
            Ok(_) => mem::set_cf(m, false),
            Err(e) => self.fail(m, e),
        }
    }

    /// 5Dh: the server call family. 06h gives the swappable data area
    /// (tandem's holds the critical-error and InDOS flags), 0Ah sets the
    /// extended error from a parameter list; 07h-09h (network printing)
    /// and 0Bh find no network.
    fn server_call(&mut self, diag: &mut Diagnostics, m: &mut Machine) {
        match m.al() {
            0x06 => {
                m.set_ds(DOS_SEG);
                m.set_si(INDOS_OFF - 1);
                m.set_cx(2);
                m.set_dx(2);
                mem::set_cf(m, false);
            }
            0x0A => {
                // DS:DX -> AX, BX, CX, DX, SI, DI, DS, ES, reserved,
                // computer id, PSP: the error code is AX; class BH,
                // action BL, locus CH.
                let (ds, dx) = (m.ds(), m.dx());
                let ax = rd16(m, lin(ds, dx));
                let bx = rd16(m, lin(ds, dx.wrapping_add(2)));
                let cx = rd16(m, lin(ds, dx.wrapping_add(4)));
                self.ext_error = ax;
                self.ext_detail = Some((ax, (bx >> 8) as u8, bx as u8, (cx >> 8) as u8));
            }
            0x07..=0x09 => self.fail(m, 1),
            al => {
                diag.unimplemented(0x21, 0x5D, al);
                self.fail(m, 1);
            }
        }
    }

    /// 5Eh/5Fh: networking, answered as MS-DOS without a redirector: the
    /// machine name is not set (5E00h CH = 0) and may be set; 5F07h/08h
    /// enable or disable a drive (only C: exists); everything else that
    /// needs the network fails with "invalid function", as DOS does when
    /// no redirector takes the call.
    fn network(&mut self, diag: &mut Diagnostics, m: &mut Machine, ah: u8) {
        match (ah, m.al()) {
            (0x5E, 0x00) => {
                m.set_cx(0);
                mem::set_cf(m, false);
            }
            (0x5E, 0x01) => mem::set_cf(m, false),
            (0x5F, 0x07 | 0x08) => {
                if m.dl() == 2 {
                    mem::set_cf(m, false);
                } else {
                    self.fail(m, crate::drive::ERR_DRIVE);
                }
            }
            (0x5E, 0x02..=0x05) | (0x5F, 0x00..=0x06) => self.fail(m, 1),
            (_, al) => {
                diag.unimplemented(0x21, ah, al);
                self.fail(m, 1);
            }
        }
    }
}

/// 30h: MS-DOS 5.00, OEM Microsoft (BH = FFh); with AL = 01h BH is the
/// version flag instead: 00h, DOS neither in ROM nor in the HMA.
fn version(m: &mut Machine) {
    let bh = if m.al() == 1 { 0 } else { 0xFF };
    m.set_ax(0x0005);
    m.set_bx((bh as u16) << 8);
    m.set_cx(0);
}

/// 37h: the switch character `/`; setting it is ignored (MS-DOS 5+);
/// AVAILDEV: "/DEV/" optional.
fn switch_char(m: &mut Machine) {
    match m.al() {
        0x00 => {
            m.set_al(0);
            m.set_dl(b'/');
        }
        0x01 | 0x03 => m.set_al(0),
        0x02 => {
            m.set_al(0);
            m.set_dl(0xFF);
        }
        _ => m.set_al(0xFF),
    }
}

/// Class, suggested action and locus of an extended error code (INT 21h
/// 59h; Ralf Brown's tables #01680-#01683).
pub fn error_class(code: u16) -> (u8, u8, u8) {
    match code {
        0 => (0, 0, 0),
        1 => (7, 4, 1),                   // invalid function: application error
        2 | 3 | 0x0F | 0x12 => (8, 3, 2), // not found, user, block device
        4 => (1, 4, 1),                   // too many files: out of resource
        5 | 0x10 | 0x13 => (3, 3, 2),     // access denied: authorization
        6 | 0x0C | 0x0D => (7, 4, 1),     // bad handle/access code/data
        7 => (7, 5, 5),                   // arena trashed: immediate abort, memory
        8 => (1, 4, 5),                   // insufficient memory
        9 => (7, 4, 5),                   // bad memory block
        0x0A | 0x0B => (9, 3, 1),         // bad environment or format
        0x11 => (0x0D, 3, 2),             // not the same device
        0x20 | 0x21 => (0x0A, 2, 2),      // sharing/lock violation: retry later
        0x50 => (0x0C, 3, 2),             // file exists
        _ => (0x0D, 4, 1),                // unknown
    }
}
