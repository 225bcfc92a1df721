//! Processes and memory: INT 21h 00h, 31h, 48h-4Dh, 50h, 51h, 58h, 62h.

use crate::drive::{Resolved, ERR_ACCESS, ERR_FILE};
use crate::loader::{self, PspInit};
use crate::mcb::Strategy;
use crate::mem::{self, lin, rd16, read_bytes, wr16, Regs};
use crate::{Dos, Flow, Proc};
use hw::Machine;

impl Dos {
    /// Memory and process functions.
    pub(crate) fn int21_process(&mut self, m: &mut Machine, ah: u8) -> Flow {
        match ah {
            0x00 => return self.terminate(m, 0, 0),
            0x4C => {
                let code = m.al();
                return self.terminate(m, code, 0);
            }
            0x31 => {
                let (paras, code) = (m.dx().max(6), m.al());
                return self.tsr(m, paras, code);
            }
            0x48 => {
                let paras = m.bx();
                match self.arena.alloc(m, paras, self.psp, self.strategy) {
                    Ok(seg) => {
                        m.set_ax(seg);
                        mem::set_cf(m, false);
                    }
                    Err((e, largest)) => {
                        m.set_bx(largest);
                        self.fail(m, e);
                    }
                }
            }
            0x49 => {
                let seg = m.es();
                match self.arena.free(m, seg) {
                    Ok(()) => mem::set_cf(m, false),
                    Err(e) => self.fail(m, e),
                }
            }
            0x4A => {
                let (seg, paras) = (m.es(), m.bx());
                match self.arena.resize(m, seg, paras) {
                    Ok(()) => {
                        if seg == self.psp {
                            wr16(m, lin(seg, 2), seg.wrapping_add(paras));
                        }
                        mem::set_cf(m, false)
                    }
                    Err((e, max)) => {
                        m.set_bx(max);
                        self.fail(m, e);
                    }
                }
            }
            0x4B => return self.exec(m),
            0x4D => {
                m.set_ax(self.ret_code);
                self.ret_code = 0;
                mem::set_cf(m, false);
            }
            0x50 => self.psp = m.bx(),
            0x51 | 0x62 => m.set_bx(self.psp),
            0x58 => match m.al() {
                0x00 => {
                    let v = match self.strategy {
                        Strategy::First => 0,
                        Strategy::Best => 1,
                        Strategy::Last => 2,
                    };
                    m.set_ax(v);
                    mem::set_cf(m, false);
                }
                0x01 => {
                    self.strategy = match m.bl() & 0x3F {
                        1 => Strategy::Best,
                        2.. => Strategy::Last,
                        _ => Strategy::First,
                    };
                    mem::set_cf(m, false);
                }
                0x02 => {
                    m.set_al(0); // no UMBs linked
                    mem::set_cf(m, false);
                }
                0x03 => mem::set_cf(m, false),
                al => {
                    self.unimplemented(0x21, 0x58, al);
                    self.fail(m, 1);
                }
            },
            _ => unreachable!("dispatched by int21"),
        }
        Flow::Continue
    }

    /// Reads a program file through the drive.
    pub(crate) fn read_program(&mut self, path: &[u8]) -> Result<Vec<u8>, u16> {
        match self.drive.resolve(path)? {
            Resolved::Path {
                host, exists: true, ..
            } => {
                if host.is_dir() {
                    return Err(ERR_ACCESS);
                }
                std::fs::read(&host).map_err(|_| ERR_ACCESS)
            }
            Resolved::Path { .. } => Err(ERR_FILE),
            Resolved::Device(_) => Err(ERR_ACCESS),
        }
    }

    /// The program's full DOS path ("C:\DIR\NAME.EXE").
    fn full_path(&self, path: &[u8]) -> String {
        match self.drive.components(path) {
            Ok(c) => format!("C:\\{}", c.join("\\")),
            Err(_) => String::from_utf8_lossy(path).into_owned(),
        }
    }

    /// INT 21h 4Bh: AL = 00h load and execute, 01h load only, 03h overlay.
    fn exec(&mut self, m: &mut Machine) -> Flow {
        let al = m.al();
        let path = self.path_dsdx(m);
        let (es, bx) = (m.es(), m.bx());
        let file = match self.read_program(&path) {
            Ok(f) => f,
            Err(e) => {
                self.fail(m, e);
                return Flow::Continue;
            }
        };
        if al == 3 {
            let seg = rd16(m, lin(es, bx));
            let reloc = rd16(m, lin(es, bx.wrapping_add(2)));
            match loader::load_overlay(m, &file, seg, reloc) {
                Ok(()) => mem::set_cf(m, false),
                Err(e) => self.fail(m, e.dos_code()),
            }
            return Flow::Continue;
        }
        if al > 1 {
            self.fail(m, 1);
            return Flow::Continue;
        }
        let env_seg = rd16(m, lin(es, bx));
        let tail_off = rd16(m, lin(es, bx.wrapping_add(2)));
        let tail_seg = rd16(m, lin(es, bx.wrapping_add(4)));
        let tail_len = mem::rd8(m, lin(tail_seg, tail_off)).min(126) as usize;
        let tail = read_bytes(m, tail_seg, tail_off.wrapping_add(1), tail_len);
        let src_env = if env_seg == 0 {
            rd16(m, lin(self.psp, 0x2C))
        } else {
            env_seg
        };
        let env_src = loader::env_strings(m, src_env);
        let jft = self.inherit_jft(m, self.psp);
        let (ret_cs, ret_ip) = mem::frame_return(m);
        let mut vectors = self.current_vectors(m);
        vectors[0] = (ret_cs, ret_ip);
        let init = PspInit {
            parent: self.psp,
            tail: &tail,
            vectors,
            jft,
        };
        let full = self.full_path(&path);
        let l = match loader::load_program(
            m,
            &self.arena,
            &file,
            &env_src,
            &full,
            &init,
            self.strategy,
        ) {
            Ok(l) => l,
            Err(e) => {
                for s in jft.iter().filter(|&&s| s != 0xFF) {
                    self.sft.close(*s, 0);
                }
                self.fail(m, e.dos_code());
                return Flow::Continue;
            }
        };
        // The FCBs of the parameter block replace the parsed ones.
        for (k, dst) in [(6u16, 0x5Cu16), (10, 0x6C)] {
            let off = rd16(m, lin(es, bx.wrapping_add(k)));
            let seg = rd16(m, lin(es, bx.wrapping_add(k + 2)));
            if (seg, off) != (0, 0) && (seg, off) != (0xFFFF, 0xFFFF) {
                let fcb = read_bytes(m, seg, off, 12);
                mem::write_bytes(m, l.psp, dst, &fcb);
            }
        }
        let parent = self.psp;
        // The parent's stack (with the INT 21h frame) is kept in its PSP.
        let (ss, sp) = (m.ss(), m.sp());
        wr16(m, lin(parent, 0x2E), sp);
        wr16(m, lin(parent, 0x30), ss);
        if al == 1 {
            // Load only: the child's SS:SP (with AX pushed) and CS:IP go to
            // the parameter block; the child becomes the current PSP.
            let sp2 = l.sp.wrapping_sub(2);
            wr16(m, lin(l.ss, sp2), l.ax);
            wr16(m, lin(es, bx.wrapping_add(0x0E)), sp2);
            wr16(m, lin(es, bx.wrapping_add(0x10)), l.ss);
            wr16(m, lin(es, bx.wrapping_add(0x12)), l.ip);
            wr16(m, lin(es, bx.wrapping_add(0x14)), l.cs);
            self.procs.push(Proc {
                psp: l.psp,
                parent_psp: parent,
                parent_ss: ss,
                parent_sp: sp,
                parent_dta: self.dta,
                parent_regs: Some(m.cpu.regs.clone()),
            });
            self.psp = l.psp;
            self.dta = (l.psp, 0x80);
            mem::set_cf(m, false);
            return Flow::Continue;
        }
        self.procs.push(Proc {
            psp: l.psp,
            parent_psp: parent,
            parent_ss: ss,
            parent_sp: sp,
            parent_dta: self.dta,
            parent_regs: Some(m.cpu.regs.clone()),
        });
        self.start(m, &l);
        Flow::Continue
    }
}
