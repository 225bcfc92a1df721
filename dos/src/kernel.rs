//! The DOS kernel's state outside guest memory and what more than one
//! service does with it.
//!
//! [`Kernel`] holds drive C: and its quota, the memory arena, the system
//! file table, the processes (current PSP, the EXEC chain, the DTA, the
//! return code), the allocation strategy, the Ctrl-Break and verify flags,
//! the extended error, the searches of find first/next and the clock's
//! offset. INT 21h ([`crate::int21`]) works on it; so do the loader of the
//! top-level program, termination by INT 20h/22h/23h/27h and the save
//! state. Everything a program can read (the PSPs, the MCB chain, DOS's
//! data segment) is in guest memory, not here.

use hw::Machine;

use crate::console::Console;
use crate::dosdata::{self, FIRST_MCB};
use crate::drive::Drive;
use crate::geometry::free_clusters;
use crate::layout;
use crate::loader::{self, Loaded, PspInit};
use crate::mcb::{Arena, Strategy};
use crate::mem::{self, lin, wr16, write_bytes, Regs};
use crate::mz::LoadError;
use crate::quota::Quota;
use crate::rom::{self, Flow};
use crate::sft::{jft_get, Sft, ERR_HANDLE};

/// A running process (one per EXEC level).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Proc {
    pub(crate) psp: u16,
    pub(crate) parent_psp: u16,
    pub(crate) parent_ss: u16,
    pub(crate) parent_sp: u16,
    pub(crate) parent_dta: (u16, u16),
    /// The parent's registers at its INT 21h 4Bh (restored on return, as
    /// DOS 3+ does from the parent's stack).
    pub(crate) parent_regs: Option<emu::Registers>,
}

/// Directories being searched (FindFirst/FindNext); the DTA holds the
/// index into this list and the position, so searches are re-entrant.
/// Each directory is kept as DOS components from the root and resolved
/// through the drive again at each find next (a save state holds no host
/// path, and a directory that went away just ends the search).
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Searches {
    pub(crate) dirs: Vec<Vec<String>>,
}

/// The DOS kernel's state.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Kernel {
    /// Drive C:, the sandbox every guest path goes through.
    pub(crate) drive: Drive,
    /// What the guest has added to drive C: against its limit.
    pub(crate) quota: Quota,
    /// The memory arena (the MCB chain is in guest memory).
    pub(crate) arena: Arena,
    /// The system file table.
    pub(crate) sft: Sft,
    /// The current PSP.
    pub(crate) psp: u16,
    /// COMMAND.COM's PSP, the parent of the top-level program.
    pub(crate) shell_psp: u16,
    /// The disk transfer area.
    pub(crate) dta: (u16, u16),
    /// The processes EXEC started, innermost last.
    pub(crate) procs: Vec<Proc>,
    /// The last child's return code and termination type (INT 21h 4Dh).
    pub(crate) ret_code: u16,
    /// The memory allocation strategy (INT 21h 58h).
    pub(crate) strategy: Strategy,
    /// The Ctrl-Break checking flag (INT 21h 33h).
    pub(crate) break_flag: bool,
    /// The verify flag (INT 21h 2Eh/54h).
    pub(crate) verify: bool,
    /// The extended error code (INT 21h 59h).
    pub(crate) ext_error: u16,
    /// Class, action and locus a program set with 5D0Ah for this error
    /// code.
    pub(crate) ext_detail: Option<(u16, u8, u8, u8)>,
    /// Seconds the program moved the clock by (INT 21h 2Bh/2Dh).
    pub(crate) clock_offset: i64,
    /// The directories of find first/next.
    pub(crate) searches: Searches,
    /// SS:SP of the INT 21h frame while a program's INT 23h handler runs.
    pub(crate) break_frame: Option<(u16, u16)>,
    /// The changes to drive C:'s folder, kept for the debugger's history
    /// (host-side: not saved).
    #[serde(skip)]
    pub(crate) journal: Option<crate::journal::SharedJournal>,
}

impl Kernel {
    /// The kernel of a machine not yet installed: drive C: with a quota of
    /// `disk_quota` bytes, no processes.
    pub fn new(drive: Drive, disk_quota: u64) -> Kernel {
        Kernel {
            drive,
            quota: Quota::new(disk_quota),
            arena: Arena { first: FIRST_MCB },
            sft: Sft::new(),
            psp: 0,
            shell_psp: 0,
            dta: (0, 0x80),
            procs: Vec::new(),
            ret_code: 0,
            strategy: Strategy::First,
            break_flag: false,
            verify: false,
            ext_error: 0,
            ext_detail: None,
            clock_offset: 0,
            searches: Searches::default(),
            break_frame: None,
            journal: None,
        }
    }

    /// The sandboxed drive.
    pub fn drive(&self) -> &Drive {
        &self.drive
    }

    /// The memory arena.
    pub fn arena(&self) -> Arena {
        self.arena
    }

    /// The current PSP.
    pub fn current_psp(&self) -> u16 {
        self.psp
    }

    /// The guest's DTA.
    pub fn dta(&self) -> (u16, u16) {
        self.dta
    }

    /// Sets the current directory of drive C: (a DOS path); false if it
    /// does not exist.
    pub fn chdir(&mut self, path: &str) -> bool {
        self.drive.chdir(path.as_bytes()).is_ok()
    }

    /// Sets up the arena (conventional memory up to `conv_top`), DOS's
    /// blocks and the shell as the machine's DOS layout has them
    /// ([`crate::layout`]): COMMAND.COM's PSP (its own parent) and the
    /// master environment of the layout's strings, `env` ("NAME=value")
    /// and the sound cards' settings (BLASTER, ULTRASND and ULTRADIR).
    pub(crate) fn install(&mut self, m: &mut Machine, conv_top: u16, env: &[String]) {
        self.sync_free_clusters(m);
        self.create_shell(m, conv_top, env);
    }

    /// The shell: COMMAND.COM's PSP (its own parent) and the master
    /// environment.
    fn create_shell(&mut self, m: &mut Machine, conv_top: u16, env_strings: &[String]) {
        let dos_layout = m.config().dos_layout;
        let mut env = Vec::new();
        // A Sound Blaster's settings, as its installation leaves them in
        // AUTOEXEC.BAT (P: the MPU-401's base, when there is one).
        let mpu = m.config().mpu401.map(|p| p.base);
        let blaster = m
            .config()
            .sb16
            .map(|c| format!("BLASTER={}", c.blaster(mpu)));
        // A Gravis UltraSound's, as its installation leaves them.
        let gus = m.config().gus.map(|c| {
            [
                format!("ULTRASND={}", c.ultrasnd()),
                r"ULTRADIR=C:\ULTRASND".to_string(),
            ]
        });
        let base = layout::shell_strings(dos_layout)
            .iter()
            .map(|s| s.to_string());
        let cards = blaster.into_iter().chain(gus.into_iter().flatten());
        for s in base.chain(env_strings.iter().cloned()).chain(cards) {
            env.extend(s.bytes());
            env.push(0);
        }
        env.push(0);
        let shell = layout::install(m, dos_layout, conv_top, env.len());
        self.arena = shell.arena;
        dosdata::set_first_mcb(m, shell.arena.first);
        let psp = shell.psp;
        write_bytes(m, shell.env, 0, &env);
        let init = PspInit {
            parent: psp,
            tail: b"",
            vectors: [
                (rom::SEG, rom::VEC_BASE + 0x22),
                (rom::SEG, rom::VEC_BASE + 0x23),
                (rom::SEG, rom::VEC_BASE + 0x24),
            ],
            jft: [
                1, 1, 1, 0, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                0xFF, 0xFF, 0xFF, 0xFF,
            ],
        };
        loader::build_psp(m, psp, shell.psp_end, shell.env, &init);
        self.shell_psp = psp;
        self.psp = psp;
        self.dta = (psp, 0x80);
        self.sft.init_std();
    }

    /// Loads `file` as the top-level program, the shell's child, and points
    /// the CPU at its entry (see [`crate::Dos::load`]).
    pub fn load(
        &mut self,
        m: &mut Machine,
        file: &[u8],
        dos_path: &str,
        tail: &[u8],
    ) -> Result<(), LoadError> {
        dosdata::set_current_dir(m, &self.drive.cwd_string());
        let env_seg = rd_env(m, self.shell_psp);
        let env_src = loader::env_strings(m, env_seg);
        let jft = self.inherit_jft(m, self.shell_psp);
        let init = PspInit {
            parent: self.shell_psp,
            tail,
            vectors: self.current_vectors(m),
            jft,
        };
        // DOSBox gives the first program's environment 9 paragraphs or
        // more (docs/dos.md), which puts its PSP at 0192h.
        let env_min = match m.config().dos_layout {
            hw::DosLayout::DosBox => layout::DOSBOX_ENV_PARAS,
            hw::DosLayout::MsDos => 0,
        };
        let l = loader::load_program(
            m,
            &self.arena,
            file,
            &env_src,
            dos_path,
            &init,
            self.strategy,
            env_min,
        )?;
        self.procs.push(Proc {
            psp: l.psp,
            parent_psp: self.shell_psp,
            parent_ss: 0,
            parent_sp: 0,
            parent_dta: self.dta,
            parent_regs: None,
        });
        self.start(m, &l);
        Ok(())
    }

    /// INT 22h-24h as the vectors hold them now: (segment, offset) each.
    pub(crate) fn current_vectors(&self, m: &mut Machine) -> [(u16, u16); 3] {
        let v = |m: &mut Machine, n: u32| (mem::rd16(m, n * 4 + 2), mem::rd16(m, n * 4));
        [v(m, 0x22), v(m, 0x23), v(m, 0x24)]
    }

    /// Points the CPU at a loaded program with MS-DOS 5's entry registers:
    /// AX = FCB drive validity, BX = 0, CX = 00FFh, DX = DS = ES = PSP, SI =
    /// IP, DI = SP, BP = 091Ch (DOSBox sets the same), and FLAGS as the
    /// machine's DOS layout hands them over ([`layout::entry_flags`]).
    pub(crate) fn start(&mut self, m: &mut Machine, l: &Loaded) {
        use emu::SegReg;
        self.psp = l.psp;
        self.dta = (l.psp, 0x80);
        let r = &mut m.cpu.regs;
        r.set_sreg(SegReg::CS, l.cs);
        r.ip = l.ip as u32;
        r.set_sreg(SegReg::SS, l.ss);
        r.set_sreg(SegReg::DS, l.psp);
        r.set_sreg(SegReg::ES, l.psp);
        for (i, v) in [l.ax, 0x00FF, l.psp, 0, l.sp, 0x091C, l.ip, l.sp]
            .into_iter()
            .enumerate()
        {
            r.gpr[i] = v as u32;
        }
        let f = m
            .cpu
            .normalize_flags(layout::entry_flags(m.config().dos_layout));
        m.cpu.regs.flags = f;
        m.cpu.halted = false;
    }

    /// Seconds since 1970 of the emulated wall clock.
    pub fn now_seconds(&self, m: &Machine) -> i64 {
        let cfg = m.config();
        cfg.rtc_start.to_seconds() + (m.cycles() / cfg.cpu_hz.max(1)) as i64 + self.clock_offset
    }

    /// Sets the INT 21h extended error and returns it with carry.
    pub fn fail(&mut self, m: &mut Machine, code: u16) {
        self.ext_error = code;
        mem::fail(m, code);
    }

    /// Ends an INT 21h function that returns AX: AX with carry clear, or
    /// the error code with carry set.
    pub(crate) fn finish_ax(&mut self, m: &mut Machine, r: Result<u16, u16>) -> Flow {
        match r {
            Ok(ax) => {
                m.set_ax(ax);
                mem::set_cf(m, false);
            }
            Err(e) => self.fail(m, e),
        }
        Flow::Continue
    }

    /// Reads the ASCIIZ path at DS:DX.
    pub(crate) fn path_dsdx(&self, m: &mut Machine) -> Vec<u8> {
        mem::read_asciiz(m, m.ds(), m.dx(), 128)
    }

    /// The SFT entry of the current process's handle `h`.
    pub(crate) fn handle(&mut self, m: &mut Machine, h: u16) -> Result<u8, u16> {
        let s = jft_get(m, self.psp, h).ok_or(ERR_HANDLE)?;
        self.sft.get(s).ok_or(ERR_HANDLE)?;
        Ok(s)
    }

    /// A child's job file table: the parent's handles (one more reference
    /// each), none where the parent has none.
    pub(crate) fn inherit_jft(&mut self, m: &mut Machine, parent: u16) -> [u8; 20] {
        let mut jft = [0xFFu8; 20];
        for (i, slot) in jft.iter_mut().enumerate() {
            let s = jft_get(m, parent, i as u16);
            if let Some(s) = s {
                if self.sft.inherit(s) {
                    *slot = s;
                }
            }
        }
        jft
    }

    /// Writes the free clusters the quota leaves into the DPB (1Fh/32h
    /// and the List of Lists show it) and returns them.
    pub(crate) fn sync_free_clusters(&mut self, m: &mut Machine) -> u16 {
        let free = free_clusters(self.quota.free());
        dosdata::set_free_clusters(m, free);
        free
    }

    /// Ends the current process with `code` and termination type `kind`
    /// (0 normal, 1 Ctrl-C, 3 resident): closes its files, frees its
    /// memory, restores INT 22h-24h, and returns to the parent (or ends
    /// the run, writing out a CR the console still holds).
    pub fn terminate(&mut self, con: &mut Console, m: &mut Machine, code: u8, kind: u8) -> Flow {
        let psp = self.psp;
        if kind != 3 {
            let handles = mem::rd16(m, lin(psp, 0x32));
            for h in 0..handles {
                if let Some(s) = jft_get(m, psp, h) {
                    self.sft.close(s, self.now_seconds(m));
                }
            }
            self.arena.free_owned(m, psp);
        }
        self.finish(con, m, code, kind)
    }

    /// Ends the current process but keeps `paras` paragraphs of its memory
    /// (INT 21h 31h, INT 27h).
    pub(crate) fn tsr(&mut self, con: &mut Console, m: &mut Machine, paras: u16, code: u8) -> Flow {
        let psp = self.psp;
        let _ = self.arena.resize(m, psp, paras);
        self.finish(con, m, code, 3)
    }

    fn finish(&mut self, con: &mut Console, m: &mut Machine, code: u8, kind: u8) -> Flow {
        let psp = self.psp;
        self.ret_code = (kind as u16) << 8 | code as u16;
        // Restore INT 22h-24h from the PSP.
        for i in 0..3u32 {
            let off = mem::rd16(m, lin(psp, 0x0A + 4 * i as u16));
            let seg = mem::rd16(m, lin(psp, 0x0C + 4 * i as u16));
            wr16(m, (0x22 + i) * 4, off);
            wr16(m, (0x22 + i) * 4 + 2, seg);
        }
        if self.procs.last().is_some_and(|p| p.psp != psp) {
            return self.leave_to_terminate_address(m, psp);
        }
        let Some(p) = self.procs.pop() else {
            return Flow::Exit(code);
        };
        log::debug!("process {:04X} ended with {code} (type {kind})", p.psp);
        self.psp = p.parent_psp;
        self.dta = p.parent_dta;
        if self.procs.is_empty() || p.parent_psp == self.shell_psp {
            con.flush_cr();
            return Flow::Exit(code);
        }
        // Back to the parent's INT 21h 4Bh: its registers as they were,
        // its frame at the saved SS:SP.
        use emu::{Reg16, SegReg};
        if let Some(saved) = p.parent_regs {
            let flags = m.cpu.regs.flags;
            m.cpu.regs = saved;
            m.cpu.regs.flags = flags;
        }
        // DOS returns through INT 22h, just restored from the PSP: the
        // EXEC's return address unless the program changed PSP:000Ah.
        let (seg, off) = (mem::rd16(m, 0x22 * 4 + 2), mem::rd16(m, 0x22 * 4));
        wr16(m, lin(p.parent_ss, p.parent_sp), off);
        wr16(m, lin(p.parent_ss, p.parent_sp.wrapping_add(2)), seg);
        let r = &mut m.cpu.regs;
        r.set_sreg(SegReg::SS, p.parent_ss);
        r.set_reg16(Reg16::SP, p.parent_sp);
        r.set_sreg(SegReg::CS, rom::SEG);
        r.ip = (rom::VEC_BASE + 0x21) as u32;
        mem::set_cf(m, false);
        Flow::Continue
    }

    /// Ends a process this DOS did not start with EXEC: a PSP built by
    /// INT 21h 26h or 55h and made current with 50h, as program loaders
    /// of their own do (Second Reality runs its parts so). As MS-DOS does:
    /// the parent named at PSP:0016h becomes the current process, its
    /// stack is the one it had at its last INT 21h call (PSP:002Eh), and
    /// execution goes on at the terminate address (INT 22h, restored from
    /// PSP:000Ah) through that call's IRET frame.
    fn leave_to_terminate_address(&mut self, m: &mut Machine, psp: u16) -> Flow {
        use emu::{Reg16, SegReg};
        let parent = mem::rd16(m, lin(psp, 0x16));
        log::debug!("process {psp:04X} ended; back to {parent:04X} through INT 22h");
        self.psp = parent;
        self.dta = (parent, 0x80);
        let saved_sp = mem::rd16(m, lin(parent, 0x2E));
        let ss = mem::rd16(m, lin(parent, 0x30));
        let (seg, off) = (mem::rd16(m, 0x22 * 4 + 2), mem::rd16(m, 0x22 * 4));
        if (ss, saved_sp) == (0, 0) {
            // A parent that never called INT 21h has no stack to go back
            // to: the terminate address on the present one.
            m.cpu.regs.set_sreg(SegReg::CS, seg);
            m.cpu.regs.ip = u32::from(off);
            return Flow::Continue;
        }
        // Past the nine registers DOS pushes on entry: the IRET frame.
        let sp = saved_sp.wrapping_add(18);
        wr16(m, lin(ss, sp), off);
        wr16(m, lin(ss, sp.wrapping_add(2)), seg);
        let r = &mut m.cpu.regs;
        r.set_sreg(SegReg::SS, ss);
        r.set_reg16(Reg16::SP, sp);
        r.set_sreg(SegReg::CS, rom::SEG);
        r.ip = (rom::VEC_BASE + 0x21) as u32;
        mem::set_cf(m, false);
        Flow::Continue
    }
}

fn rd_env(m: &mut Machine, psp: u16) -> u16 {
    mem::rd16(m, lin(psp, 0x2C))
}
