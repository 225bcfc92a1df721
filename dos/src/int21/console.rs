//! Console I/O: INT 21h 01h-0Ch, reads from and writes to CON, and Ctrl-C.
//! Input comes from the BIOS keyboard buffer (filled by the guest-visible
//! INT 09h handler); a function that must wait sends the CPU to an idle
//! loop (`sti; hlt`) that re-enters the service after the next interrupt.
//! Output goes to the screen (INT 10h's teletype) and to the console's
//! text for the host ([`Console`]).

use crate::bios::int16::pop_extended;
use crate::bios::keyboard::{peek_key, pop_key};
use crate::bios::video::tty;
use crate::console::Console;
use crate::dosdata::ALTAH_OFF;
use crate::dosdata::DOS_SEG;
use crate::kernel::Kernel;
use crate::mem::{self, lin, rd8, wr8, Regs};
use crate::rom::{self, Flow};
use hw::Machine;

/// Ctrl-C.
const CTRL_C: u8 = 0x03;

/// One byte from the keyboard as MS-DOS's CON driver reads it (CHRIN in
/// MSCON.ASM, with INT 16h 10h on an enhanced keyboard): a key's ASCII
/// code; for an extended key (ASCII 00h, or E0h with a scan code: the grey
/// keys) 00h, holding its scan code for the next read; 10h for
/// Ctrl-PrtSc (7200h). Empty words are skipped. None: no key yet.
pub(crate) fn con_key(m: &mut Machine) -> Option<u8> {
    let held = lin(DOS_SEG, ALTAH_OFF);
    let scan = rd8(m, held);
    if scan != 0 {
        wr8(m, held, 0);
        return Some(scan);
    }
    loop {
        let k = pop_extended(m)?;
        if k == 0 {
            continue;
        }
        if k == 0x7200 {
            return Some(0x10);
        }
        let (scan, ascii) = ((k >> 8) as u8, k as u8);
        if ascii == 0 || (ascii == 0xE0 && scan != 0) {
            wr8(m, held, scan);
            return Some(0);
        }
        return Some(ascii);
    }
}

/// Whether a read from the keyboard has a byte at once (a held scan code
/// or a key in the BIOS buffer).
pub(crate) fn con_ready(m: &mut Machine) -> bool {
    rd8(m, lin(DOS_SEG, ALTAH_OFF)) != 0 || peek_key(m).is_some()
}

/// Empties the keyboard as the CON driver's input flush does: reads the
/// BIOS buffer empty and drops the held scan code.
fn con_flush(m: &mut Machine) {
    while pop_key(m).is_some() {}
    wr8(m, lin(DOS_SEG, ALTAH_OFF), 0);
}

/// Writes a character to the console: the text screen and the host's
/// stdout buffer.
pub fn con_out(con: &mut Console, m: &mut Machine, c: u8) {
    tty(m, c, None);
    con.emit(c);
}

/// Writes bytes to the console.
pub fn con_str(con: &mut Console, m: &mut Machine, s: &[u8]) {
    for &c in s {
        con_out(con, m, c);
    }
}

/// How far a line being typed has come.
enum Line {
    /// Enter ended it.
    Done,
    /// More keys are needed.
    More,
    /// Ctrl-C was typed.
    Break,
}

/// Edits the line in `con.line` with the keys available.
fn edit_line(con: &mut Console, m: &mut Machine, max: usize) -> Line {
    while let Some(c) = con_key(m) {
        match c {
            b'\r' => {
                con_out(con, m, b'\r');
                return Line::Done;
            }
            CTRL_C => return Line::Break,
            8 => {
                if con.line.pop().is_some() {
                    con_str(con, m, b"\x08 \x08");
                }
            }
            // An extended key (an editing key of MS-DOS's line
            // editor, not emulated): its held scan code goes too.
            0 => {
                con_key(m);
            }
            c => {
                if con.line.len() + 1 < max {
                    con.line.push(c);
                    con_out(con, m, c);
                } else {
                    con_out(con, m, 7);
                }
            }
        }
    }
    Line::More
}

/// A read from CON in binary mode: the keys typed so far (waiting for
/// the first), without echo or line editing.
pub(crate) fn con_read_raw(m: &mut Machine, n: u16, seg: u16, off: u16) -> Flow {
    if n == 0 {
        m.set_ax(0);
        mem::set_cf(m, false);
        return Flow::Continue;
    }
    if !con_ready(m) {
        return rom::wait(m, 0x21);
    }
    let mut k = 0u16;
    while k < n {
        let Some(c) = con_key(m) else { break };
        wr8(m, lin(seg, off.wrapping_add(k)), c);
        k += 1;
    }
    m.set_ax(k);
    mem::set_cf(m, false);
    Flow::Continue
}

impl Kernel {
    /// Ctrl-C read by a function that checks for it (01h, 08h, 0Ah, a
    /// cooked read from CON): DOS echoes "^C" and a new line and issues
    /// INT 23h with the caller's registers. DOS's own handler ends the
    /// program; a program's handler runs as guest code, with a frame that
    /// returns to [`rom::SUB_BREAK`]: if it returns with IRET (or RETF
    /// and carry clear) the INT 21h function starts again, with RETF and
    /// carry set the program ends (MS-DOS Programmer's Reference, INT
    /// 23h).
    pub(crate) fn ctrl_c(&mut self, con: &mut Console, m: &mut Machine) -> Flow {
        con.line.clear();
        con_str(con, m, b"^C\r\n");
        let off = mem::rd16(m, 0x23 * 4);
        let seg = mem::rd16(m, 0x23 * 4 + 2);
        if (seg, off) == (rom::SEG, rom::VEC_BASE + 0x23) {
            return self.terminate(con, m, 0, 1);
        }
        let (ss, sp) = (m.ss(), m.sp());
        let flags = mem::rd16(m, lin(ss, sp.wrapping_add(4)));
        let new_sp = sp.wrapping_sub(6);
        mem::wr16(m, lin(ss, new_sp), rom::SUB_BASE + rom::SUB_BREAK);
        mem::wr16(m, lin(ss, new_sp.wrapping_add(2)), rom::SEG);
        mem::wr16(m, lin(ss, new_sp.wrapping_add(4)), flags);
        self.break_frame = Some((ss, sp));
        let r = &mut m.cpu.regs;
        r.set_reg16(emu::Reg16::SP, new_sp);
        r.set_sreg(emu::SegReg::CS, seg);
        r.ip = off as u32;
        r.flags &= !(emu::flags::IF | emu::flags::TF);
        Flow::Continue
    }

    /// A program's INT 23h handler returned (to [`rom::SUB_BREAK`]): with
    /// IRET the stack is back at the INT 21h frame; with RETF the FLAGS
    /// word is still on it (dropped here), and carry set in the flags the
    /// handler returned with asks DOS to end the program.
    pub(crate) fn ctrl_c_return(&mut self, con: &mut Console, m: &mut Machine) -> Flow {
        let (ss, sp) = (m.ss(), m.sp());
        if let Some((fss, fsp)) = self.break_frame.take() {
            if ss == fss && sp == fsp.wrapping_sub(2) {
                // RETF: the carry the handler returned with decides.
                m.cpu.regs.set_reg16(emu::Reg16::SP, fsp);
                if m.cpu.regs.flags & emu::flags::CF != 0 {
                    return self.terminate(con, m, 0, 1);
                }
            }
        }
        // Start the INT 21h function again.
        m.cpu.regs.set_sreg(emu::SegReg::CS, rom::SEG);
        m.cpu.regs.ip = (rom::VEC_BASE + 0x21) as u32;
        Flow::Continue
    }

    /// Console functions 01h-0Ch.
    pub(crate) fn int21_console(&mut self, con: &mut Console, m: &mut Machine, ah: u8) -> Flow {
        match ah {
            0x01 | 0x07 | 0x08 => match con_key(m) {
                // 01h and 08h check for Ctrl-C; 07h does not.
                Some(CTRL_C) if ah != 0x07 => return self.ctrl_c(con, m),
                Some(c) => {
                    if ah == 0x01 {
                        con_out(con, m, c);
                    }
                    m.set_al(c);
                }
                None => return rom::wait(m, 0x21),
            },
            0x02 => {
                let c = m.dl();
                con_out(con, m, c);
                m.set_al(c);
            }
            0x03 => m.set_al(0),
            0x04 | 0x05 => {}
            0x06 => {
                if m.dl() == 0xFF {
                    match con_key(m) {
                        Some(c) => {
                            m.set_al(c);
                            mem::set_zf(m, false);
                        }
                        None => {
                            m.set_al(0);
                            mem::set_zf(m, true);
                        }
                    }
                } else {
                    let c = m.dl();
                    con_out(con, m, c);
                    m.set_al(c);
                }
            }
            0x09 => {
                let (ds, dx) = (m.ds(), m.dx());
                for i in 0..0xFFFFu16 {
                    let c = rd8(m, lin(ds, dx.wrapping_add(i)));
                    if c == b'$' {
                        break;
                    }
                    con_out(con, m, c);
                }
                m.set_al(b'$');
            }
            0x0A => return self.buffered_input(con, m),
            0x0B => {
                let ready = con_ready(m);
                m.set_al(if ready { 0xFF } else { 0 });
            }
            0x0C => {
                con_flush(m);
                let f = m.al();
                if matches!(f, 0x01 | 0x06 | 0x07 | 0x08 | 0x0A) {
                    m.set_ah(f);
                    let r = self.int21_console(con, m, f);
                    m.set_ah(0x0C);
                    return r;
                }
            }
            _ => unreachable!("dispatched by int21"),
        }
        Flow::Continue
    }

    fn buffered_input(&mut self, con: &mut Console, m: &mut Machine) -> Flow {
        let (ds, dx) = (m.ds(), m.dx());
        let max = rd8(m, lin(ds, dx)) as usize;
        if max == 0 {
            return Flow::Continue;
        }
        match edit_line(con, m, max) {
            Line::Done => {}
            Line::More => return rom::wait(m, 0x21),
            Line::Break => return self.ctrl_c(con, m),
        }
        let line = std::mem::take(&mut con.line);
        wr8(m, lin(ds, dx.wrapping_add(1)), line.len() as u8);
        mem::write_bytes(m, ds, dx.wrapping_add(2), &line);
        wr8(m, lin(ds, dx.wrapping_add(2 + line.len() as u16)), b'\r');
        Flow::Continue
    }

    /// A read from CON: a cooked line (with CR LF) delivered up to `n`
    /// bytes at a time.
    pub(crate) fn con_read(
        &mut self,
        con: &mut Console,
        m: &mut Machine,
        n: u16,
        seg: u16,
        off: u16,
    ) -> Flow {
        if con.con_pending.is_empty() {
            match edit_line(con, m, 128) {
                Line::Done => {}
                Line::More => return rom::wait(m, 0x21),
                Line::Break => return self.ctrl_c(con, m),
            }
            con_out(con, m, b'\n');
            let mut line = std::mem::take(&mut con.line);
            line.extend(b"\r\n");
            con.con_pending.extend(line);
        }
        let k = (n as usize).min(con.con_pending.len());
        for i in 0..k {
            let b = con.con_pending.pop_front().unwrap_or(0);
            wr8(m, lin(seg, off.wrapping_add(i as u16)), b);
        }
        m.set_ax(k as u16);
        mem::set_cf(m, false);
        Flow::Continue
    }
}
