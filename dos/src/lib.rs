//! High-level BIOS and DOS services for tandem's PC, and the program
//! loader.
//!
//! [`Dos`] plugs into a [`hw::Machine`]: [`Dos::install`] writes a small
//! stub ROM (see [`rom`]), points the interrupt vectors at it, sets up the
//! BIOS data area, the DOS memory arena and a shell process, and asks the
//! machine to stop whenever CS:IP enters the stub ROM's trap block.
//! [`Session`] owns the machine and its DOS and runs them: it services each
//! trap through [`Dos::service`] in Rust — reading
//! and writing the guest's registers and memory, results in FLAGS through
//! the FLAGS word the INT pushed — before the CPU executes the stub's IRET.
//! Hardware interrupt handlers (INT 08h, 09h) are guest code in the ROM that
//! calls into Rust only for the bookkeeping, so hooked INT 1Ch and INT 15h
//! 4Fh run as on a real BIOS. See `docs/dos.md`.
//!
//! All guest file access goes through [`drive`], the sandbox of drive C:.

pub mod bios;
pub mod cp437;
pub mod dosdata;
pub mod drive;
pub mod ems;
pub mod error;
pub mod exepack;
pub mod geometry;
pub mod int21;
pub mod int2f;
pub mod loader;
pub mod mcb;
pub mod mem;
pub mod mz;
pub mod quota;
pub mod rom;
pub mod session;
pub mod sft;
pub mod state;
pub mod xms;

use std::collections::BTreeSet;
use std::path::PathBuf;

use hw::Machine;

use crate::dosdata::FIRST_MCB;
use crate::drive::Drive;
pub use crate::error::{Error, ErrorKind};
use crate::mcb::{Arena, Strategy};
use crate::mem::{lin, wr16, wr8, write_bytes, Regs};
pub use crate::mz::{Executable, LoadError};
pub use crate::rom::Flow;
pub use crate::session::{Exit, Session, Stop};
use crate::sft::Sft;

/// The DOS configuration.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct DosConfig {
    /// The host folder that is drive C: (not saved in a save state: the
    /// resuming run's mount takes its place).
    #[serde(skip)]
    pub mount: PathBuf,
    /// Provide an XMS 3.0 driver (INT 2Fh 43h); never on the 8086, which
    /// has no extended memory.
    pub xms: bool,
    /// Provide EMS 4.0 (INT 67h) with a page frame at E000h.
    pub ems: bool,
    /// Environment strings of the shell ("NAME=value").
    pub env: Vec<String>,
    /// Bytes the guest may add to drive C:'s folder ([`quota`]).
    pub disk_quota: u64,
}

impl DosConfig {
    /// Drive C: at `mount`, XMS and EMS on, a small default environment.
    pub fn new(mount: PathBuf) -> Self {
        DosConfig {
            mount,
            xms: true,
            ems: true,
            env: vec![
                "COMSPEC=C:\\COMMAND.COM".into(),
                "PATH=C:\\".into(),
                "PROMPT=$p$g".into(),
            ],
            disk_quota: quota::DEFAULT_QUOTA,
        }
    }
}

/// A running process (one per EXEC level).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Proc {
    psp: u16,
    parent_psp: u16,
    parent_ss: u16,
    parent_sp: u16,
    parent_dta: (u16, u16),
    /// The parent's registers at its INT 21h 4Bh (restored on return, as
    /// DOS 3+ does from the parent's stack).
    parent_regs: Option<emu::Registers>,
}

/// The DOS and BIOS services of one machine.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Dos {
    cfg: DosConfig,
    drive: Drive,
    arena: Arena,
    sft: Sft,
    psp: u16,
    shell_psp: u16,
    dta: (u16, u16),
    procs: Vec<Proc>,
    out: Vec<u8>,
    pending_cr: bool,
    warned: BTreeSet<(u8, u8, u8)>,
    ret_code: u16,
    strategy: Strategy,
    break_flag: bool,
    verify: bool,
    ext_error: u16,
    /// Class, action and locus a program set with 5D0Ah for this error
    /// code.
    ext_detail: Option<(u16, u8, u8, u8)>,
    clock_offset: i64,
    searches: int21::dirs::Searches,
    /// What the guest has added to drive C: against its limit.
    pub(crate) quota: quota::Quota,
    xms: Option<xms::Xms>,
    ems: Option<ems::Ems>,
    mouse: bios::int33::Mouse,
    wait_until: Option<u64>,
    /// SS:SP of the INT 21h frame while a program's INT 23h handler runs.
    break_frame: Option<(u16, u16)>,
    line: Vec<u8>,
    input: std::collections::VecDeque<u8>,
    con_pending: std::collections::VecDeque<u8>,
    /// The keyboard's typematic setting (INT 16h 03h), as command F3h's
    /// data byte.
    typematic: u8,
    /// INT 16h 00h/10h is waiting for a key (its INT 15h 9002h is posted).
    key_wait: bool,
    /// Log of services not implemented (for the caller to show).
    pub warnings: Vec<String>,
}

impl Dos {
    /// DOS with drive C: at `cfg.mount` ([`Error::Mount`] if it is not a
    /// directory).
    pub fn new(cfg: DosConfig) -> Result<Dos, Error> {
        let drive = Drive::new(&cfg.mount, cfg.ems).map_err(|source| Error::Mount {
            path: cfg.mount.clone(),
            source,
        })?;
        Ok(Dos {
            drive,
            arena: Arena { first: FIRST_MCB },
            sft: Sft::new(),
            psp: 0,
            shell_psp: 0,
            dta: (0, 0x80),
            procs: Vec::new(),
            out: Vec::new(),
            pending_cr: false,
            warned: BTreeSet::new(),
            ret_code: 0,
            strategy: Strategy::First,
            break_flag: false,
            verify: false,
            ext_error: 0,
            ext_detail: None,
            clock_offset: 0,
            searches: Default::default(),
            quota: quota::Quota::new(cfg.disk_quota),
            xms: None,
            ems: None,
            mouse: Default::default(),
            wait_until: None,
            break_frame: None,
            line: Vec::new(),
            input: Default::default(),
            con_pending: Default::default(),
            typematic: bios::int16::TYPEMATIC_DEFAULT,
            key_wait: false,
            warnings: Vec::new(),
            cfg,
        })
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

    /// Sets the machine up as DOS 5 would leave it: the machine's POST
    /// state, the stub ROM, interrupt vectors, BIOS data area, DOS data,
    /// the memory arena with a shell process (COMMAND.COM's PSP and
    /// environment), XMS and EMS when configured, and the trap range.
    pub fn install(&mut self, m: &mut Machine) {
        m.post();
        rom::install(m);
        m.set_trap_range(Some(rom::TRAP_RANGE));
        let trap = |v: u8| (rom::SEG, rom::VEC_BASE + v as u16);
        use bios::video::tables as video;
        let mut vectors: Vec<(u8, (u16, u16))> = vec![
            (0x08, (rom::SEG, rom::INT08)),
            (0x09, (rom::SEG, rom::INT09)),
            (0x70, (rom::SEG, rom::INT70)),
            (0x1F, (video::SEG, video::FONT8 + 0x400)),
            (0x43, (video::SEG, video::FONT8)),
            (0x25, (rom::SEG, rom::DISK_STUB)),
            (0x26, (rom::SEG, rom::DISK_STUB)),
        ];
        for v in [
            0x00, 0x06, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x1A, 0x20, 0x21, 0x22,
            0x23, 0x24, 0x27, 0x28, 0x29, 0x2A, 0x2F, 0x33,
        ] {
            vectors.push((v, trap(v)));
        }
        if self.cfg.ems {
            vectors.push((0x67, (rom::EMS_SEG, rom::EMS_OFF)));
        }
        if m.config().fpu.fitted() {
            // The AT POST points INT 75h at its handler and unmasks IRQ13
            // when it finds a coprocessor.
            vectors.push((0x75, (rom::SEG, rom::INT75)));
            let mask = m.in8(0xA1);
            m.out8(0xA1, mask & !(1 << (hw::fpu_error::IRQ - 8)));
        }
        for (v, (seg, off)) in vectors {
            wr16(m, v as u32 * 4, off);
            wr16(m, v as u32 * 4 + 2, seg);
        }
        bios::bda::init(m);
        dosdata::install(m, self.cfg.ems);
        self.sync_free_clusters(m);
        let conv_top = (m.config().conventional_kib.min(640) * 64) as u16;
        self.arena = Arena::init(m, FIRST_MCB, conv_top);
        self.create_shell(m);
        // HIMEM.SYS needs a 286 or later (extended memory, A20).
        let xms = self.cfg.xms && m.cpu.model.has_extended_memory();
        self.xms = xms.then(|| xms::Xms::new(m));
        self.ems = self.cfg.ems.then(|| ems::Ems::new(m));
    }

    /// The shell: COMMAND.COM's PSP (its own parent) and the master
    /// environment.
    fn create_shell(&mut self, m: &mut Machine) {
        let psp = self
            .arena
            .alloc(m, 0x10, 0, Strategy::First)
            .unwrap_or(FIRST_MCB + 1);
        wr16(m, lin(psp - 1, 1), psp);
        let mut env = Vec::new();
        // A Sound Blaster's settings, as its installation leaves them in
        // AUTOEXEC.BAT (P: the MPU-401's base, when there is one).
        let mpu = m.config().mpu401.map(|p| p.base);
        let blaster = m
            .config()
            .sb16
            .map(|c| format!("BLASTER={}", c.blaster(mpu)));
        for s in self.cfg.env.iter().chain(&blaster) {
            env.extend(s.bytes());
            env.push(0);
        }
        env.push(0);
        let env_paras = (env.len() as u16).div_ceil(16).max(0x10);
        let env_seg = self
            .arena
            .alloc(m, env_paras, psp, Strategy::First)
            .unwrap_or(0);
        write_bytes(m, env_seg, 0, &env);
        let init = loader::PspInit {
            parent: psp,
            tail: b"",
            vectors: [
                (rom::SEG, rom::VEC_BASE + 0x22),
                (rom::SEG, rom::VEC_BASE + 0x23),
                (rom::SEG, rom::VEC_BASE + 0x24),
            ],
            jft: [
                0, 0, 0, 1, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                0xFF, 0xFF, 0xFF, 0xFF,
            ],
        };
        loader::build_psp(m, psp, env_seg.wrapping_add(env_paras), env_seg, &init);
        mcb::set_name(m, psp, b"COMMAND");
        self.shell_psp = psp;
        self.psp = psp;
        self.dta = (psp, 0x80);
        self.sft.init_std();
    }

    /// Loads `file` (a DOS program's bytes) as the top-level program, as
    /// COMMAND.COM would run it with `tail` as its command line, and points
    /// the CPU at its entry. `dos_path` is the program's full DOS path
    /// (e.g. `C:\GAME.EXE`), stored in its environment.
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
        let init = loader::PspInit {
            parent: self.shell_psp,
            tail,
            vectors: self.current_vectors(m),
            jft,
        };
        let l = loader::load_program(
            m,
            &self.arena,
            file,
            &env_src,
            dos_path,
            &init,
            self.strategy,
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

    pub(crate) fn current_vectors(&self, m: &mut Machine) -> [(u16, u16); 3] {
        let v = |m: &mut Machine, n: u32| (mem::rd16(m, n * 4 + 2), mem::rd16(m, n * 4));
        [v(m, 0x22), v(m, 0x23), v(m, 0x24)]
    }

    /// Points the CPU at a loaded program with MS-DOS 5's entry registers:
    /// AX = FCB drive validity, BX = 0, CX = 00FFh, DX = DS = ES = PSP, SI =
    /// IP, DI = SP, BP = 091Ch, IF set.
    fn start(&mut self, m: &mut Machine, l: &loader::Loaded) {
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
        let f = m.cpu.normalize_flags(emu::flags::IF);
        m.cpu.regs.flags = f;
        m.cpu.halted = false;
    }

    /// Services the trap at linear address `addr`.
    pub fn service(&mut self, m: &mut Machine, addr: u32) -> Flow {
        use rom::Trap;
        match rom::decode(addr) {
            Some(Trap::Vector(v)) => self.vector(m, v),
            Some(Trap::Sub(rom::SUB_TICK)) => {
                bios::bda::tick(m);
                Flow::Continue
            }
            Some(Trap::Sub(rom::SUB_KEY)) => {
                let a = bios::int09::scan_code(m, m.al());
                m.set_ah(a as u8);
                Flow::Continue
            }
            Some(Trap::Sub(rom::SUB_KEY_REPLY)) => {
                let reply = bios::int09::reply(m, m.al());
                let f = &mut m.cpu.regs.flags;
                *f = if reply {
                    *f | emu::flags::CF
                } else {
                    *f & !emu::flags::CF
                };
                Flow::Continue
            }
            Some(Trap::Sub(rom::SUB_RTC)) => {
                let alarm = bios::int70::interrupt(m);
                m.set_ah(alarm as u8);
                Flow::Continue
            }
            Some(Trap::Sub(rom::SUB_XMS)) => {
                match self.xms.as_mut() {
                    Some(x) => x.call(m),
                    None => {
                        m.set_ax(0);
                        m.set_bl(0x80);
                    }
                }
                Flow::Continue
            }
            Some(Trap::Sub(rom::SUB_BREAK)) => self.ctrl_c_return(m),
            Some(Trap::Sub(rom::SUB_MOUSE)) => {
                bios::int33::dispatch(self, m);
                Flow::Continue
            }
            Some(Trap::Sub(rom::SUB_DISK)) => {
                // Absolute disk read/write: no such disk.
                m.set_ax(0x0201);
                m.cpu.regs.flags |= emu::flags::CF;
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }

    fn vector(&mut self, m: &mut Machine, v: u8) -> Flow {
        if v != 0x21 {
            log::trace!(
                "INT {v:02X}h AX={:04X} BX={:04X} CX={:04X} DX={:04X}",
                m.ax(),
                m.bx(),
                m.cx(),
                m.dx()
            );
        }
        match v {
            0x00 => {
                let (cs, ip) = mem::frame_return(m);
                self.con_str(m, b"\r\nDivide overflow\r\n");
                Flow::Stop(format!("divide overflow (INT 0) at {cs:04X}:{ip:04X}"))
            }
            0x06 => {
                let (cs, ip) = mem::frame_return(m);
                Flow::Stop(format!("invalid opcode (INT 6) at {cs:04X}:{ip:04X}"))
            }
            0x10 => {
                bios::video::service(self, m);
                Flow::Continue
            }
            // INT 11h and 12h answer what the BIOS data area holds, so a
            // program that changed it reads its own values back.
            0x11 => {
                let e = mem::rd16(m, 0x410);
                m.set_ax(e);
                Flow::Continue
            }
            0x12 => {
                let k = mem::rd16(m, 0x413);
                m.set_ax(k);
                Flow::Continue
            }
            0x13 => {
                // No disks: "bad command" / invalid drive.
                m.set_ah(0x01);
                mem::set_cf(m, true);
                Flow::Continue
            }
            0x14 => {
                m.set_ah(0x80);
                Flow::Continue
            }
            0x15 => bios::int15::service(self, m),
            0x16 => {
                self.feed_input(m);
                bios::int16::service(self, m)
            }
            0x17 => {
                m.set_ah(0x30);
                Flow::Continue
            }
            0x1A => {
                bios::int1a::service(self, m);
                Flow::Continue
            }
            0x20 => self.terminate(m, 0, 0),
            0x21 => {
                self.feed_input(m);
                int21::service(self, m)
            }
            // The default INT 22h target (reached by a jump, not an INT),
            // and the default Ctrl-C handler: DOS ends the program (type 1
            // for Ctrl-C).
            0x22 => self.terminate(m, 0, 0),
            0x23 => self.terminate(m, 0, 1),
            // The default critical-error handler: COMMAND.COM would ask
            // "Abort, Retry, Fail?"; with no one to ask, Fail (AL = 03h).
            0x24 => {
                m.set_al(3);
                Flow::Continue
            }
            // DOS idle (INT 28h) and the network/critical-section hooks
            // (INT 2Ah; AH = 00h, the installation check, keeps AH = 00h:
            // no network) have no one behind them: IRET.
            0x28 | 0x2A => Flow::Continue,
            0x27 => {
                let paras = (m.dx() as u32).div_ceil(16).max(0x10) as u16;
                self.tsr(m, paras, 0)
            }
            0x29 => {
                let c = m.al();
                self.con_out(m, c);
                Flow::Continue
            }
            0x2F => {
                self.int2f(m);
                Flow::Continue
            }
            0x33 => {
                bios::int33::service(self, m);
                Flow::Continue
            }
            0x67 => {
                match self.ems.as_mut() {
                    Some(e) => e.service(m),
                    None => m.set_ah(0x84),
                }
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }

    /// Queues text to type on the keyboard (a headless run's stdin): one
    /// key enters the BIOS buffer whenever it is empty and a keyboard
    /// service is called. LF (or CR LF) becomes Enter.
    pub fn type_text(&mut self, text: &[u8]) {
        let mut prev = 0u8;
        for &c in text {
            if !(c == b'\n' && prev == b'\r') {
                self.input.push_back(if c == b'\n' { b'\r' } else { c });
            }
            prev = c;
        }
    }

    fn feed_input(&mut self, m: &mut Machine) {
        use bios::keyboard::{key_for_ascii, peek_key, push_key};
        if peek_key(m).is_none() {
            if let Some(c) = self.input.pop_front() {
                push_key(m, key_for_ascii(c));
            }
        }
    }

    /// Writes a character to the console: the text screen and the host's
    /// stdout buffer.
    pub fn con_out(&mut self, m: &mut Machine, c: u8) {
        bios::video::tty(m, c, None);
        self.emit(c);
    }

    /// Writes bytes to the console.
    pub fn con_str(&mut self, m: &mut Machine, s: &[u8]) {
        for &c in s {
            self.con_out(m, c);
        }
    }

    /// Appends a byte to the text for the host's stdout (CR LF becomes LF).
    pub fn emit(&mut self, c: u8) {
        if self.pending_cr {
            self.pending_cr = false;
            if c != b'\n' {
                self.out.push(b'\r');
            }
        }
        if c == b'\r' {
            self.pending_cr = true;
        } else {
            self.out.push(c);
        }
    }

    /// Takes the guest text written so far (for the host's stdout).
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    /// Logs one warning per unimplemented (interrupt, AH, AL).
    pub fn unimplemented(&mut self, int: u8, ah: u8, al: u8) {
        if self.warned.insert((int, ah, al)) {
            let msg = format!("INT {int:02X}h AH={ah:02X}h AL={al:02X}h is not implemented");
            log::warn!("{msg}");
            self.warnings.push(msg);
        }
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

    pub(crate) fn inherit_jft(&mut self, m: &mut Machine, parent: u16) -> [u8; 20] {
        let mut jft = [0xFFu8; 20];
        for (i, slot) in jft.iter_mut().enumerate() {
            let s = sft::jft_get(m, parent, i as u16);
            if let Some(s) = s {
                if self.sft.inherit(s) {
                    *slot = s;
                }
            }
        }
        jft
    }

    /// Ends the current process with `code` and termination type `kind`
    /// (0 normal, 3 resident): closes its files, frees its memory, restores
    /// INT 22h-24h, and returns to the parent (or ends the run).
    pub fn terminate(&mut self, m: &mut Machine, code: u8, kind: u8) -> Flow {
        let psp = self.psp;
        if kind != 3 {
            let handles = mem::rd16(m, lin(psp, 0x32));
            for h in 0..handles {
                if let Some(s) = sft::jft_get(m, psp, h) {
                    self.sft.close(s, self.now_seconds(m));
                }
            }
            self.arena.free_owned(m, psp);
        }
        self.finish(m, code, kind)
    }

    fn tsr(&mut self, m: &mut Machine, paras: u16, code: u8) -> Flow {
        let psp = self.psp;
        let _ = self.arena.resize(m, psp, paras);
        self.finish(m, code, 3)
    }

    fn finish(&mut self, m: &mut Machine, code: u8, kind: u8) -> Flow {
        let psp = self.psp;
        self.ret_code = (kind as u16) << 8 | code as u16;
        // Restore INT 22h-24h from the PSP.
        for i in 0..3u32 {
            let off = mem::rd16(m, lin(psp, 0x0A + 4 * i as u16));
            let seg = mem::rd16(m, lin(psp, 0x0C + 4 * i as u16));
            wr16(m, (0x22 + i) * 4, off);
            wr16(m, (0x22 + i) * 4 + 2, seg);
        }
        let Some(p) = self.procs.pop() else {
            return Flow::Exit(code);
        };
        log::debug!("process {:04X} ended with {code} (type {kind})", p.psp);
        self.psp = p.parent_psp;
        self.dta = p.parent_dta;
        if self.procs.is_empty() || p.parent_psp == self.shell_psp {
            self.out_flush_cr();
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
        let r = &mut m.cpu.regs;
        r.set_sreg(SegReg::SS, p.parent_ss);
        r.set_reg16(Reg16::SP, p.parent_sp);
        r.set_sreg(SegReg::CS, rom::SEG);
        r.ip = (rom::VEC_BASE + 0x21) as u32;
        mem::set_cf(m, false);
        Flow::Continue
    }

    fn out_flush_cr(&mut self) {
        if self.pending_cr {
            self.pending_cr = false;
            self.out.push(b'\r');
        }
    }

    /// Sets the current directory of drive C: (a DOS path); false if it
    /// does not exist.
    pub fn chdir(&mut self, path: &str) -> bool {
        self.drive.chdir(path.as_bytes()).is_ok()
    }

    /// The guest's DTA.
    pub fn dta(&self) -> (u16, u16) {
        self.dta
    }
}

fn rd_env(m: &mut Machine, psp: u16) -> u16 {
    mem::rd16(m, lin(psp, 0x2C))
}

/// Writes the byte `v` at `seg:off` (helper for services).
pub fn poke(m: &mut Machine, seg: u16, off: u16, v: u8) {
    wr8(m, lin(seg, off), v);
}
