//! One running program: the machine, its DOS, and the run loop every
//! command uses (`run` in the window and headless, `debug`, `call`, `sweep`,
//! `compare`, `trace`, `corpus`).
//!
//! The machine runs until something needs the outside world: a trap into
//! the high-level BIOS/DOS (serviced here, and the run goes on), the end of
//! a frame when asked for, a CPU hook, the cycle limit, the program's end,
//! or something that stops the emulation. [`Exit`] says which.

use std::fmt;

use hw::{Machine, RunExit};

use crate::mem::Regs;
use crate::rom::Flow;
use crate::Dos;

/// How a run of a [`Session`] ended. The one exit enum of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// A frame is complete: a vertical retrace began (only from
    /// [`Session::run_frame`]).
    Frame,
    /// The cycle limit was reached.
    Limit,
    /// The top-level program terminated (INT 21h 4Ch/00h/31h, INT 20h/27h)
    /// with this return code.
    Exited(u8),
    /// The emulation cannot go on.
    Stopped(Stop),
    /// A CPU hook asked to stop (`cpu.hooks().stopped` says which); running
    /// on resumes where it stopped.
    HookStop,
}

/// Why the emulation cannot go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The CPU halted with interrupts disabled at CS:IP: nothing can wake it.
    Halted {
        /// CS of the HLT's successor.
        cs: u16,
        /// IP of the HLT's successor.
        ip: u16,
    },
    /// The program pulsed the CPU's reset line (8042 or port 92h).
    Reset,
    /// The program did something tandem does not emulate, at CS:IP.
    Unsupported {
        /// What it was.
        what: &'static str,
        /// CS of the instruction.
        cs: u16,
        /// IP of the instruction.
        ip: u16,
    },
    /// The BIOS or DOS stopped the run (the message says why).
    Service(String),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Halted { cs, ip } => write!(
                f,
                "the CPU halted with interrupts disabled at {cs:04X}:{ip:04X}"
            ),
            Stop::Reset => f.write_str("the program reset the machine"),
            Stop::Unsupported { what, cs, ip } => write!(f, "{what} (at {cs:04X}:{ip:04X})"),
            Stop::Service(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for Stop {}

/// The machine, its DOS and the frames completed since the start.
pub struct Session {
    /// The PC.
    pub m: Machine,
    /// Its BIOS and DOS services.
    pub dos: Dos,
    /// Frames completed (vertical retraces seen by [`Session::run_frame`]).
    pub frames: u64,
    /// Watches the services' writes to a range of memory, when set (the
    /// debugger's history queries): nothing else costs anything.
    pub watch: Option<ServiceWatch>,
}

/// The BIOS and DOS services' writes to a range of memory: a service runs
/// on the host, so the CPU's memory hooks never see what it stores (a file
/// read into a buffer, a date, a drive's parameters).
#[derive(Clone, Debug, Default)]
pub struct ServiceWatch {
    /// The first linear address watched.
    pub start: u32,
    /// How many bytes.
    pub len: u32,
    before: Vec<u8>,
    ax: u16,
    caller: (u16, u16),
    /// The services that changed the range, oldest first.
    pub writes: Vec<ServiceWrite>,
}

/// One service call that changed the watched range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceWrite {
    /// The cycle of the call.
    pub cycle: u64,
    /// The VGA's frame count then.
    pub frame: u64,
    /// The trap's linear address (see [`crate::rom::decode`]).
    pub trap: u32,
    /// AX when the service was entered (AH is usually its function).
    pub ax: u16,
    /// The return address on the stack (CS:IP after the INT or CALL).
    pub caller: (u16, u16),
    /// The watched bytes before the call.
    pub old: Vec<u8>,
    /// The watched bytes after it.
    pub new: Vec<u8>,
}

impl ServiceWatch {
    /// A watch of `len` bytes from linear `start`.
    pub fn new(start: u32, len: u32) -> Self {
        ServiceWatch {
            start,
            len,
            ..ServiceWatch::default()
        }
    }

    fn bytes(&self, m: &Machine) -> Vec<u8> {
        (0..self.len)
            .map(|i| m.peek8(self.start.wrapping_add(i)))
            .collect()
    }

    fn before(&mut self, m: &Machine) {
        self.before = self.bytes(m);
        self.ax = m.cpu.regs.gpr[0] as u16;
        // The service was entered through INT or a far CALL: the return
        // address is at SS:SP.
        let sp = m.cpu.regs.gpr[4] as u16;
        let ss = m.cpu.regs.sreg(emu::SegReg::SS);
        let ip = m.peek16(m.cpu.linear(ss, sp));
        let cs = m.peek16(m.cpu.linear(ss, sp.wrapping_add(2)));
        self.caller = (cs, ip);
    }

    fn after(&mut self, m: &Machine, trap: u32) {
        let now = self.bytes(m);
        if now == self.before {
            return;
        }
        self.writes.push(ServiceWrite {
            cycle: m.cycles(),
            frame: m.bus.vga.frames(),
            trap,
            ax: self.ax,
            caller: self.caller,
            old: std::mem::take(&mut self.before),
            new: now,
        });
    }
}

impl Session {
    /// A session of a machine with DOS installed (and usually a program
    /// loaded, or restored from a save state).
    pub fn new(m: Machine, dos: Dos) -> Session {
        Session {
            m,
            dos,
            frames: 0,
            watch: None,
        }
    }

    /// Runs until the emulated cycle `end` (servicing traps on the way),
    /// the program's end, a hook stop or a stop.
    pub fn run_until(&mut self, end: u64) -> Exit {
        self.run(end, false)
    }

    /// Runs for at most `cycles` emulated cycles: [`Session::run_until`]
    /// from now.
    pub fn run_for(&mut self, cycles: u64) -> Exit {
        self.run(self.m.cycles().saturating_add(cycles), false)
    }

    /// Runs until the next frame is complete, or as [`Session::run_until`].
    pub fn run_frame(&mut self, end: u64) -> Exit {
        self.run(end, true)
    }

    /// The run loop: the machine runs in slices that end at a trap (which
    /// DOS services before the run goes on) or at something the caller
    /// must see.
    fn run(&mut self, end: u64, frames: bool) -> Exit {
        loop {
            let now = self.m.cycles();
            if now >= end {
                return Exit::Limit;
            }
            let exit = if frames {
                self.m.run_frame(end - now)
            } else {
                self.m.run_for(end - now)
            };
            match exit {
                RunExit::Trap(a) => match self.service(a) {
                    Flow::Continue => {}
                    Flow::Exit(code) => return Exit::Exited(code),
                    Flow::Stop(msg) => return Exit::Stopped(Stop::Service(msg)),
                },
                RunExit::CyclesElapsed => return Exit::Limit,
                RunExit::Frame => {
                    self.frames += 1;
                    return Exit::Frame;
                }
                RunExit::HookStop => return Exit::HookStop,
                RunExit::Halted => return Exit::Stopped(self.halted()),
                RunExit::Reset => return Exit::Stopped(Stop::Reset),
                RunExit::Unsupported(what) => {
                    let (cs, ip) = self.cs_ip();
                    return Exit::Stopped(Stop::Unsupported { what, cs, ip });
                }
            }
        }
    }

    /// Services the trap at `a`, watched when a [`ServiceWatch`] is set.
    fn service(&mut self, a: u32) -> Flow {
        let Some(w) = self.watch.as_mut() else {
            return self.dos.service(&mut self.m, a);
        };
        w.before(&self.m);
        let flow = self.dos.service(&mut self.m, a);
        if let Some(w) = self.watch.as_mut() {
            w.after(&self.m, a);
        }
        flow
    }

    fn halted(&self) -> Stop {
        let (cs, ip) = self.cs_ip();
        Stop::Halted { cs, ip }
    }

    /// CS:IP now.
    pub fn cs_ip(&self) -> (u16, u16) {
        (self.m.cs(), self.m.cpu.regs.ip as u16)
    }

    /// CS:IP as text (`1234:0100`).
    pub fn at(&self) -> String {
        let (cs, ip) = self.cs_ip();
        format!("{cs:04X}:{ip:04X}")
    }
}
