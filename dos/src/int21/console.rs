//! Console I/O: INT 21h 01h-0Ch and reads from CON. Input comes from the
//! BIOS keyboard buffer (filled by the guest-visible INT 09h handler); a
//! function that must wait sends the CPU to an idle loop (`sti; hlt`) that
//! re-enters the service after the next interrupt.

use crate::bios::int16::{peek_key, pop_key};
use crate::mem::{self, lin, rd8, wr8, Regs};
use crate::{rom, Dos, Flow};
use hw::Machine;

impl Dos {
    /// Sends the CPU to the idle loop of `vector`: it sleeps until an
    /// interrupt and then calls the service again with the same registers.
    pub(crate) fn wait(&mut self, m: &mut Machine, vector: u8) -> Flow {
        m.cpu.regs.set_sreg(emu::SegReg::CS, rom::SEG);
        m.cpu.regs.ip = rom::idle_stub(vector) as u32;
        Flow::Continue
    }

    /// Console functions 01h-0Ch.
    pub(crate) fn int21_console(&mut self, m: &mut Machine, ah: u8) -> Flow {
        match ah {
            0x01 | 0x07 | 0x08 => match pop_key(m) {
                Some(k) => {
                    let c = k as u8;
                    if ah == 0x01 {
                        self.con_out(m, c);
                    }
                    m.set_al(c);
                }
                None => return self.wait(m, 0x21),
            },
            0x02 => {
                let c = m.dl();
                self.con_out(m, c);
                m.set_al(c);
            }
            0x03 => m.set_al(0),
            0x04 | 0x05 => {}
            0x06 => {
                if m.dl() == 0xFF {
                    match pop_key(m) {
                        Some(k) => {
                            m.set_al(k as u8);
                            mem::set_zf(m, false);
                        }
                        None => {
                            m.set_al(0);
                            mem::set_zf(m, true);
                        }
                    }
                } else {
                    let c = m.dl();
                    self.con_out(m, c);
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
                    self.con_out(m, c);
                }
                m.set_al(b'$');
            }
            0x0A => return self.buffered_input(m),
            0x0B => {
                let ready = peek_key(m).is_some();
                m.set_al(if ready { 0xFF } else { 0 });
            }
            0x0C => {
                while pop_key(m).is_some() {}
                let f = m.al();
                if matches!(f, 0x01 | 0x06 | 0x07 | 0x08 | 0x0A) {
                    m.set_ah(f);
                    let r = self.int21_console(m, f);
                    m.set_ah(0x0C);
                    return r;
                }
            }
            _ => unreachable!("dispatched by int21"),
        }
        Flow::Continue
    }

    /// Edits the line in `self.line` with the keys available; true when
    /// Enter ended it.
    fn edit_line(&mut self, m: &mut Machine, max: usize) -> bool {
        while let Some(k) = pop_key(m) {
            match k as u8 {
                b'\r' => {
                    self.con_out(m, b'\r');
                    return true;
                }
                8 => {
                    if self.line.pop().is_some() {
                        self.con_str(m, b"\x08 \x08");
                    }
                }
                0 => {}
                c => {
                    if self.line.len() + 1 < max {
                        self.line.push(c);
                        self.con_out(m, c);
                    } else {
                        self.con_out(m, 7);
                    }
                }
            }
        }
        false
    }

    fn buffered_input(&mut self, m: &mut Machine) -> Flow {
        let (ds, dx) = (m.ds(), m.dx());
        let max = rd8(m, lin(ds, dx)) as usize;
        if max == 0 {
            return Flow::Continue;
        }
        if !self.edit_line(m, max) {
            return self.wait(m, 0x21);
        }
        let line = std::mem::take(&mut self.line);
        wr8(m, lin(ds, dx.wrapping_add(1)), line.len() as u8);
        mem::write_bytes(m, ds, dx.wrapping_add(2), &line);
        wr8(m, lin(ds, dx.wrapping_add(2 + line.len() as u16)), b'\r');
        Flow::Continue
    }

    /// A read from CON: a cooked line (with CR LF) delivered up to `n`
    /// bytes at a time.
    pub(crate) fn con_read(&mut self, m: &mut Machine, n: u16, seg: u16, off: u16) -> Flow {
        if self.con_pending.is_empty() {
            if !self.edit_line(m, 128) {
                return self.wait(m, 0x21);
            }
            self.con_out(m, b'\n');
            let mut line = std::mem::take(&mut self.line);
            line.extend(b"\r\n");
            self.con_pending.extend(line);
        }
        let k = (n as usize).min(self.con_pending.len());
        for i in 0..k {
            let b = self.con_pending.pop_front().unwrap_or(0);
            wr8(m, lin(seg, off.wrapping_add(i as u16)), b);
        }
        m.set_ax(k as u16);
        mem::set_cf(m, false);
        Flow::Continue
    }

    /// A read from CON in binary mode: the keys typed so far (waiting for
    /// the first), without echo or line editing.
    pub(crate) fn con_read_raw(&mut self, m: &mut Machine, n: u16, seg: u16, off: u16) -> Flow {
        if n == 0 {
            m.set_ax(0);
            mem::set_cf(m, false);
            return Flow::Continue;
        }
        if peek_key(m).is_none() {
            return self.wait(m, 0x21);
        }
        let mut k = 0u16;
        while k < n {
            let Some(key) = pop_key(m) else { break };
            wr8(m, lin(seg, off.wrapping_add(k)), key as u8);
            k += 1;
        }
        m.set_ax(k);
        mem::set_cf(m, false);
        Flow::Continue
    }
}
