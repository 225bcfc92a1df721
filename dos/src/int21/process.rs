//! Processes and memory: INT 21h 00h, 31h, 48h-4Dh, 50h, 51h, 58h, 62h.

use crate::console::Console;
use crate::diag::Diagnostics;
use crate::drive::{Resolved, ERR_ACCESS, ERR_FILE};
use crate::kernel::{Kernel, Proc};
use crate::loader::{self, Loaded, PspInit};
use crate::mcb::Strategy;
use crate::mem::{self, lin, rd16, read_bytes, wr16, Regs};
use crate::rom::Flow;
use hw::Machine;

impl Kernel {
    /// Memory and process functions.
    pub(crate) fn int21_process(
        &mut self,
        con: &mut Console,
        diag: &mut Diagnostics,
        m: &mut Machine,
        ah: u8,
    ) -> Flow {
        match ah {
            0x00 => return self.terminate(con, m, 0, 0),
            0x4C => {
                let code = m.al();
                return self.terminate(con, m, code, 0);
            }
            0x31 => {
                let (paras, code) = (m.dx().max(6), m.al());
                return self.tsr(con, m, paras, code);
            }
            0x48 => self.allocate(m),
            0x49 => {
                let seg = m.es();
                match self.arena.free(m, seg) {
                    Ok(()) => mem::set_cf(m, false),
                    Err(e) => self.fail(m, e),
                }
            }
            0x4A => self.resize(m),
            0x4B => return self.exec(diag, m),
            0x4D => {
                m.set_ax(self.ret_code);
                self.ret_code = 0;
                mem::set_cf(m, false);
            }
            0x50 => self.psp = m.bx(),
            0x26 => self.new_psp(m),
            0x55 => self.child_psp(m),
            0x67 => self.handle_count(m),
            0x51 | 0x62 => m.set_bx(self.psp),
            0x58 => self.strategy(diag, m),
            _ => unreachable!("dispatched by int21"),
        }
        Flow::Continue
    }

    /// 48h: allocates BX paragraphs (AX the segment; BX the largest block
    /// when there is no room).
    fn allocate(&mut self, m: &mut Machine) {
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

    /// 4Ah: resizes the block at ES to BX paragraphs (BX the most it can
    /// have when it cannot); a process's own block moves its PSP's top of
    /// memory.
    fn resize(&mut self, m: &mut Machine) {
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

    /// 58h: the allocation strategy (00h get, 01h set) and the UMB link
    /// state (02h get, 03h set).
    fn strategy(&mut self, diag: &mut Diagnostics, m: &mut Machine) {
        match m.al() {
            0x00 => {
                let v = match self.strategy {
                    Strategy::First => 0,
                    Strategy::Best => 1,
                    Strategy::Last => 2,
                };
                m.set_ax(v);
                mem::set_cf(m, false);
            }
            // BL bits 6-7 (UMBs first/only) do not matter without
            // UMBs; a fit other than 0-2 is an invalid function.
            0x01 => match (m.bh(), m.bl() & 0x3F) {
                (0, fit @ 0..=2) => {
                    self.strategy = match fit {
                        1 => Strategy::Best,
                        2 => Strategy::Last,
                        _ => Strategy::First,
                    };
                    mem::set_cf(m, false);
                }
                _ => self.fail(m, 1),
            },
            0x02 => {
                m.set_al(0); // no UMBs linked
                mem::set_cf(m, false);
            }
            // No UMBs (HIMEM without EMM386, no DOS=UMB): unlinking is
            // accepted, linking fails as in MS-DOS.
            0x03 if m.bx() == 0 => mem::set_cf(m, false),
            0x03 if m.bx() == 1 => self.fail(m, 1),
            0x03 => self.fail(m, 1),
            al => {
                diag.unimplemented(0x21, 0x58, al);
                self.fail(m, 1);
            }
        }
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

    /// INT 21h 4Bh: AL = 00h load and execute, 01h load only, 03h
    /// overlay, 05h set execution state.
    fn exec(&mut self, diag: &mut Diagnostics, m: &mut Machine) -> Flow {
        let al = m.al();
        match al {
            0x05 => {
                // Set execution state (DOS 5+, after 4B01h): DS:DX -> a
                // structure whose first word must be 0. DOS only records
                // it.
                let reserved = rd16(m, lin(m.ds(), m.dx()));
                if reserved == 0 {
                    mem::set_cf(m, false);
                } else {
                    self.fail(m, 1);
                }
            }
            0x00 | 0x01 | 0x03 => {
                let path = self.path_dsdx(m);
                match self.read_program(&path) {
                    Ok(file) if al == 3 => self.load_overlay(m, &file),
                    Ok(file) => self.exec_program(m, &path, &file, al == 1),
                    Err(e) => self.fail(m, e),
                }
            }
            _ => {
                diag.unimplemented(0x21, 0x4B, al);
                self.fail(m, 1);
            }
        }
        Flow::Continue
    }

    /// 4B03h: loads an overlay at the segment and with the relocation
    /// factor of the parameter block at ES:BX.
    fn load_overlay(&mut self, m: &mut Machine, file: &[u8]) {
        let (es, bx) = (m.es(), m.bx());
        let seg = rd16(m, lin(es, bx));
        let reloc = rd16(m, lin(es, bx.wrapping_add(2)));
        match loader::load_overlay(m, file, seg, reloc) {
            Ok(()) => mem::set_cf(m, false),
            Err(e) => self.fail(m, e.dos_code()),
        }
    }

    /// 4B00h/4B01h: loads `file` (from `path`) as a child of the current
    /// process with the parameter block at ES:BX, and starts it, or with
    /// `load_only` hands its entry back in the parameter block.
    fn exec_program(&mut self, m: &mut Machine, path: &[u8], file: &[u8], load_only: bool) {
        let (es, bx) = (m.es(), m.bx());
        let Some(l) = self.load_child(m, path, file) else {
            return;
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
        self.procs.push(Proc {
            psp: l.psp,
            parent_psp: parent,
            parent_ss: ss,
            parent_sp: sp,
            parent_dta: self.dta,
            parent_regs: Some(m.cpu.regs.clone()),
        });
        if load_only {
            // The child's SS:SP (with AX pushed) and CS:IP go to the
            // parameter block; the child becomes the current PSP.
            let sp2 = l.sp.wrapping_sub(2);
            wr16(m, lin(l.ss, sp2), l.ax);
            wr16(m, lin(es, bx.wrapping_add(0x0E)), sp2);
            wr16(m, lin(es, bx.wrapping_add(0x10)), l.ss);
            wr16(m, lin(es, bx.wrapping_add(0x12)), l.ip);
            wr16(m, lin(es, bx.wrapping_add(0x14)), l.cs);
            self.psp = l.psp;
            self.dta = (l.psp, 0x80);
            mem::set_cf(m, false);
            return;
        }
        self.start(m, &l);
    }

    /// Places the child: its environment (the parameter block's, or the
    /// parent's), command tail, inherited handles and INT 22h (the
    /// parent's return address). None, with the error set, when the
    /// loader refuses it.
    fn load_child(&mut self, m: &mut Machine, path: &[u8], file: &[u8]) -> Option<Loaded> {
        let (es, bx) = (m.es(), m.bx());
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
        let full = self.full_path(path);
        let loaded = loader::load_program(
            m,
            &self.arena,
            file,
            &env_src,
            &full,
            &init,
            self.strategy,
            0,
        );
        match loaded {
            Ok(l) => Some(l),
            Err(e) => {
                for s in jft.iter().filter(|&&s| s != 0xFF) {
                    self.sft.close(*s, 0);
                }
                self.fail(m, e.dos_code());
                None
            }
        }
    }

    /// 26h: copies the current PSP to DX:0000 and puts the current INT
    /// 22h-24h vectors in it (the DOS 1 way to start a process).
    fn new_psp(&mut self, m: &mut Machine) {
        let seg = m.dx();
        let psp = read_bytes(m, self.psp, 0, 0x100);
        mem::write_bytes(m, seg, 0, &psp);
        for (i, (vs, vo)) in self.current_vectors(m).into_iter().enumerate() {
            wr16(m, lin(seg, 0x0A + 4 * i as u16), vo);
            wr16(m, lin(seg, 0x0C + 4 * i as u16), vs);
        }
    }

    /// 55h: builds a child PSP at DX with SI its top of memory: the
    /// current process is its parent, handles are inherited, and it
    /// becomes the current PSP (as MS-DOS 5 does).
    fn child_psp(&mut self, m: &mut Machine) {
        let (seg, top) = (m.dx(), m.si());
        let jft = self.inherit_jft(m, self.psp);
        let env = rd16(m, lin(self.psp, 0x2C));
        let init = PspInit {
            parent: self.psp,
            tail: b"",
            vectors: self.current_vectors(m),
            jft,
        };
        loader::build_psp(m, seg, top, env, &init);
        self.psp = seg;
        mem::set_cf(m, false);
    }

    /// 67h: sets the number of handles of the current process. More than
    /// 20 moves the job file table into a block of memory the process
    /// owns (its open handles copied, the rest closed); 20 or fewer moves
    /// it back into the PSP.
    fn handle_count(&mut self, m: &mut Machine) {
        let want = m.bx();
        let psp = self.psp;
        let size = rd16(m, lin(psp, 0x32));
        let (off, seg) = (rd16(m, lin(psp, 0x34)), rd16(m, lin(psp, 0x36)));
        let old: Vec<u8> = read_bytes(m, seg, off, size as usize);
        let n = want.max(20);
        // Open handles beyond the new size: too many open files.
        if old.iter().skip(n as usize).any(|&s| s != 0xFF) {
            self.fail(m, crate::sft::ERR_TOO_MANY);
            return;
        }
        let mut table = vec![0xFFu8; n as usize];
        let keep = old.len().min(n as usize);
        table[..keep].copy_from_slice(&old[..keep]);
        let (new_seg, new_off) = if n <= 20 {
            (psp, 0x18)
        } else if n == size && (seg, off) != (psp, 0x18) {
            mem::set_cf(m, false);
            return;
        } else {
            match self.arena.alloc(m, n.div_ceil(16), psp, self.strategy) {
                Ok(b) => (b, 0),
                Err((e, _)) => {
                    self.fail(m, e);
                    return;
                }
            }
        };
        mem::write_bytes(m, new_seg, new_off, &table);
        if (seg, off) != (psp, 0x18) && (seg, off) != (new_seg, new_off) {
            let _ = self.arena.free(m, seg);
        }
        wr16(m, lin(psp, 0x32), n);
        wr16(m, lin(psp, 0x34), new_off);
        wr16(m, lin(psp, 0x36), new_seg);
        mem::set_cf(m, false);
    }
}
