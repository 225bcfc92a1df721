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
//! [`Dos`] holds its state in parts, and each service takes only the parts
//! it works on: the DOS kernel ([`kernel::Kernel`], INT 21h and the
//! loader), the BIOS's keyboard, mouse and wait state ([`bios::Bios`]),
//! the console ([`console::Console`]), the log of unimplemented functions
//! ([`diag::Diagnostics`]), and the XMS and EMS drivers.
//!
//! All guest file access goes through [`drive`], the sandbox of drive C:.

pub mod bios;
pub mod cdrom;
pub mod console;
pub mod cp437;
pub mod diag;
pub mod dosdata;
pub mod drive;
pub mod ems;
pub mod error;
pub mod exepack;
pub mod geometry;
pub mod input_file;
pub mod int21;
pub mod int2f;
pub mod journal;
pub mod kernel;
pub mod layout;
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

use std::path::PathBuf;

use hw::Machine;

use crate::bios::Bios;
use crate::console::Console;
use crate::diag::Diagnostics;
use crate::drive::Drive;
pub use crate::error::{Error, ErrorKind};
use crate::int21::console::con_str;
use crate::kernel::Kernel;
use crate::mcb::Arena;
use crate::mem::{wr16, Regs};
pub use crate::mz::{Executable, LoadError};
pub use crate::rom::Flow;
pub use crate::session::{Exit, ServiceWatch, ServiceWrite, Session, Stop};

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
    /// Environment strings of the shell ("NAME=value") after the DOS
    /// layout's own ([`layout::shell_strings`]) and before the sound
    /// cards'.
    pub env: Vec<String>,
    /// Bytes the guest may add to drive C:'s folder ([`quota`]).
    pub disk_quota: u64,
    /// The CD-ROM drives, D: and on (not saved: the resuming run's
    /// options attach theirs).
    #[serde(skip)]
    pub cdroms: Vec<cdrom::Source>,
}

impl DosConfig {
    /// Drive C: at `mount`, XMS and EMS on, a small default environment.
    pub fn new(mount: PathBuf) -> Self {
        DosConfig {
            mount,
            xms: true,
            ems: true,
            env: Vec::new(),
            disk_quota: quota::DEFAULT_QUOTA,
            cdroms: Vec::new(),
        }
    }
}

/// The DOS and BIOS services of one machine: the parts each service works
/// on, and the configuration they were installed with.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Dos {
    /// What DOS was made with (drive C:, XMS, EMS, the environment).
    cfg: DosConfig,
    /// The DOS kernel (INT 21h, the loader, termination).
    kernel: Kernel,
    /// The BIOS's keyboard, mouse and wait state.
    bios: Bios,
    /// The console: text for the host, the line editor, typed input.
    console: Console,
    /// The services asked for that are not implemented.
    diag: Diagnostics,
    /// The XMS driver (a 286 or later with `cfg.xms`).
    xms: Option<xms::Xms>,
    /// The expanded memory manager (with `cfg.ems`).
    ems: Option<ems::Ems>,
    /// MSCDEX and its CD-ROM drives.
    cdrom: cdrom::mscdex::Mscdex,
    /// The host folders unpacked from the images (removed with `Dos`).
    #[serde(skip)]
    unpacked: Vec<cdrom::Unpacked>,
}

impl Dos {
    /// DOS with drive C: at `cfg.mount` ([`Error::Mount`] if it is not a
    /// directory).
    pub fn new(cfg: DosConfig) -> Result<Dos, Error> {
        let mut drive = Drive::new(&cfg.mount, cfg.ems).map_err(|source| Error::Mount {
            path: cfg.mount.clone(),
            source,
        })?;
        let cds = cdrom::mount_all(&cfg.cdroms)?;
        drive.reattach(&cds.roots);
        Ok(Dos {
            kernel: Kernel::new(drive, cfg.disk_quota),
            bios: Bios::default(),
            console: Console::default(),
            diag: Diagnostics::default(),
            xms: None,
            ems: None,
            cdrom: cdrom::mscdex::Mscdex::new(cds.drives),
            unpacked: cds.unpacked,
            cfg,
        })
    }

    /// Attaches the CD-ROM drives of `sources` to a DOS from a save state
    /// (whose drives are not saved), keeping each drive's current
    /// directory; the machine's audio transport gets their discs.
    pub fn attach_cdroms(
        &mut self,
        m: &mut Machine,
        sources: &[cdrom::Source],
    ) -> Result<(), Error> {
        let cds = cdrom::mount_all(sources)?;
        self.kernel.drive.reattach(&cds.roots);
        self.cdrom.drives = cds.drives;
        self.unpacked = cds.unpacked;
        self.cfg.cdroms = sources.to_vec();
        if m.bus.dev.cdaudio.drives.len() != self.cdrom.drives.len() {
            m.bus.dev.cdaudio.set_drives(self.cdrom.drives.len());
        }
        self.cdrom.attach(m);
        Ok(())
    }

    /// The sandboxed drive.
    pub fn drive(&self) -> &Drive {
        self.kernel.drive()
    }

    /// The memory arena.
    pub fn arena(&self) -> Arena {
        self.kernel.arena()
    }

    /// The current PSP.
    pub fn current_psp(&self) -> u16 {
        self.kernel.current_psp()
    }

    /// The handles the current process has open and the files and
    /// devices they refer to (read only: see [`sft::Sft::open_files`]).
    pub fn open_files(&self, m: &Machine) -> Vec<sft::OpenFile> {
        self.kernel.sft.open_files(m, self.current_psp())
    }

    /// The guest's DTA.
    pub fn dta(&self) -> (u16, u16) {
        self.kernel.dta()
    }

    /// Sets the current directory of drive C: (a DOS path); false if it
    /// does not exist.
    pub fn chdir(&mut self, path: &str) -> bool {
        self.kernel.chdir(path)
    }

    /// The services the program asked for that are not implemented, one
    /// warning each (for the caller to show).
    pub fn warnings(&self) -> &[String] {
        self.diag.warnings()
    }

    /// Keeps (or with None stops keeping) a journal of the changes the
    /// guest makes to drive C:'s folder, for the debugger's history.
    pub fn set_journal(&mut self, j: Option<journal::SharedJournal>) {
        self.kernel.journal = j;
    }

    /// Queues text to type on the keyboard (a headless run's stdin): one
    /// key enters the BIOS buffer whenever it is empty and a keyboard
    /// service is called. LF (or CR LF) becomes Enter.
    pub fn type_text(&mut self, text: &[u8]) {
        self.console.type_text(text);
    }

    /// Takes the guest text written so far (for the host's stdout).
    pub fn take_output(&mut self) -> Vec<u8> {
        self.console.take_output()
    }

    /// Writes bytes to the console: the text screen and the host's stdout
    /// buffer.
    pub fn con_str(&mut self, m: &mut Machine, s: &[u8]) {
        con_str(&mut self.console, m, s);
    }

    /// The host reports the mouse: movement in mickeys and the buttons
    /// (see [`bios::int33::Mouse::input`]).
    pub fn mouse_input(&mut self, dx: i16, dy: i16, buttons: u16) {
        self.bios.mouse.input(dx, dy, buttons);
    }

    /// Sets the machine up as DOS 5 would leave it: the machine's POST
    /// state, the stub ROM, interrupt vectors, BIOS data area, DOS data,
    /// the memory arena with a shell process (COMMAND.COM's PSP and
    /// environment), XMS and EMS when configured, and the trap range.
    pub fn install(&mut self, m: &mut Machine) {
        m.post();
        rom::install(m);
        m.set_trap_range(Some(rom::TRAP_RANGE));
        self.install_vectors(m);
        bios::bda::init(m);
        dosdata::install(m, self.cfg.ems);
        let conv_top = (m.config().conventional_kib.min(640) * 64) as u16;
        self.kernel.install(m, conv_top, &self.cfg.env);
        // HIMEM.SYS needs a 286 or later (extended memory, A20).
        let xms = self.cfg.xms && m.cpu.model.has_extended_memory();
        self.xms = xms.then(|| xms::Xms::new(m));
        self.ems = self.cfg.ems.then(|| ems::Ems::new(m));
        self.cdrom.install(m, dosdata::CHAIN_END);
        dosdata::cd_drives(m, self.cdrom.drives.len() as u8);
    }

    /// Points the serviced vectors at the stub ROM, the hardware interrupts
    /// at their handlers and the font vectors at the fonts.
    fn install_vectors(&self, m: &mut Machine) {
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
        self.kernel.load(m, file, dos_path, tail)
    }

    /// Services the trap at linear address `addr`.
    pub fn service(&mut self, m: &mut Machine, addr: u32) -> Flow {
        match rom::decode(addr) {
            Some(rom::Trap::Vector(v)) => self.vector(m, v),
            Some(rom::Trap::Sub(k)) => self.subroutine(m, k),
            None => Flow::Continue,
        }
    }

    /// A subroutine trap the ROM's guest code calls (see [`rom`]).
    fn subroutine(&mut self, m: &mut Machine, k: u16) -> Flow {
        match k {
            rom::SUB_TICK => bios::bda::tick(m),
            rom::SUB_KEY => {
                let a = bios::int09::scan_code(m, m.al());
                m.set_ah(a as u8);
            }
            rom::SUB_KEY_REPLY => {
                let reply = bios::int09::reply(m, m.al());
                let f = &mut m.cpu.regs.flags;
                *f = if reply {
                    *f | emu::flags::CF
                } else {
                    *f & !emu::flags::CF
                };
            }
            rom::SUB_RTC => {
                let alarm = bios::int70::interrupt(m);
                m.set_ah(alarm as u8);
            }
            rom::SUB_XMS => match self.xms.as_mut() {
                Some(x) => x.call(m),
                None => {
                    m.set_ax(0);
                    m.set_bl(0x80);
                }
            },
            rom::SUB_BREAK => return self.kernel.ctrl_c_return(&mut self.console, m),
            rom::SUB_MOUSE => bios::int33::dispatch(&mut self.bios.mouse, m),
            rom::SUB_DISK => {
                // Absolute disk read/write: no such disk.
                m.set_ax(0x0201);
                m.cpu.regs.flags |= emu::flags::CF;
            }
            _ => {}
        }
        Flow::Continue
    }

    /// The service of vector `v`, with the parts it works on.
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
        let (k, con, diag) = (&mut self.kernel, &mut self.console, &mut self.diag);
        match v {
            0x00 => divide_overflow(con, m),
            0x06 => {
                let (cs, ip) = mem::frame_return(m);
                Flow::Stop(format!("invalid opcode (INT 6) at {cs:04X}:{ip:04X}"))
            }
            0x10 => {
                bios::video::service(con, diag, m);
                Flow::Continue
            }
            0x11..=0x14 | 0x17 => {
                bios::equipment(m, v);
                Flow::Continue
            }
            0x15 => bios::int15::service(&mut self.bios.wait_until, diag, self.xms.is_some(), m),
            0x16 => {
                con.feed_keyboard(m);
                bios::int16::service(&mut self.bios.keyboard, diag, m)
            }
            0x1A => {
                bios::int1a::service(diag, m);
                Flow::Continue
            }
            0x21 => {
                con.feed_keyboard(m);
                int21::service(k, con, diag, m)
            }
            0x20 | 0x22..=0x24 | 0x27..=0x2A => int21::other_vector(k, con, m, v),
            0x2F => {
                if m.ah() != 0x15 || !self.cdrom.service(m) {
                    int2f::service(self.xms.is_some(), diag, m);
                }
                Flow::Continue
            }
            0x33 => {
                bios::int33::service(&mut self.bios.mouse, diag, m);
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
}

/// INT 00h: DOS's message, and the run stops.
fn divide_overflow(con: &mut Console, m: &mut Machine) -> Flow {
    let (cs, ip) = mem::frame_return(m);
    con_str(con, m, b"\r\nDivide overflow\r\n");
    Flow::Stop(format!("divide overflow (INT 0) at {cs:04X}:{ip:04X}"))
}
