//! The engine's interface: typed commands in, data out. The console
//! (`commands.rs`) and the protocol (`protocol/`) each parse their own
//! input into a [`Command`] and present the [`Reply`] their own way.

use std::path::PathBuf;

use emu::Registers;

use super::breakpoints::{Bp, BpKind};
use super::engine::{Frame, Stop};
use super::parse::{Addr, Cond};
use super::writes::Write;

/// A command for the engine, by family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Run the program.
    Run(RunCmd),
    /// Set, list, delete or save breakpoints.
    Break(BreakCmd),
    /// Read or change registers, memory or the keyboard.
    Machine(MachineCmd),
    /// Look at code, tables and devices.
    View(ViewCmd),
    /// Files: trace, save states, screenshots.
    File(FileCmd),
    /// Run backwards, or move anywhere in the history.
    Back(BackCmd),
    /// Ask the history.
    History(HistoryCmd),
    /// Leave the debugger.
    Quit,
}

/// Commands that move the machine back (or anywhere) in its history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackCmd {
    /// Back N instructions.
    Step(u64),
    /// Back one instruction, over a routine that just returned.
    Next,
    /// Back to the most recent earlier stop of a breakpoint.
    Continue,
    /// Back to the call of the current routine.
    Finish,
    /// To this cycle of the history.
    Goto(u64),
}

/// Questions for the history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistoryCmd {
    /// Every write to `len` bytes from an address.
    Mem {
        /// The first byte.
        addr: Addr,
        /// How many.
        len: u64,
    },
    /// Every write to a port.
    Port(u16),
    /// What the history holds.
    Info,
}

/// What a history query watched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watched {
    /// Bytes of memory.
    Mem {
        /// The first (linear).
        start: u32,
        /// How many.
        len: u32,
    },
    /// A port.
    Port(u16),
}

/// What the history holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryInfo {
    /// Its first cycle.
    pub start: u64,
    /// Its last.
    pub end: u64,
    /// The cycle now.
    pub now: u64,
    /// Checkpoints kept.
    pub checkpoints: usize,
    /// Bytes they hold.
    pub bytes: usize,
    /// The budget in MiB.
    pub budget_mib: u64,
    /// Steps between checkpoints now.
    pub interval: u64,
}

/// How long a run may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many CPU clocks.
    Cycles(u64),
    /// This many emulated seconds.
    Seconds(u64),
}

/// Commands that run the program until a stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunCmd {
    /// Execute N instructions (at least one), within the budget.
    Step(u64, Budget),
    /// Step over a CALL, INT, LOOP or REP string instruction.
    Over(Budget),
    /// Run until the current routine returns.
    Out(Budget),
    /// Continue until a breakpoint or the end.
    Continue(Budget),
    /// Run until CS:IP reaches an address.
    To(Addr, Budget),
}

/// A breakpoint as asked for (addresses resolved when it is set).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BpSpec {
    /// Execution at an address: SEG:OFF matches CS and IP, a linear
    /// address the linear address.
    Exec(Addr),
    /// Memory reads and/or writes of `len` bytes from an address.
    Mem {
        /// Stop on reads.
        read: bool,
        /// Stop on writes.
        write: bool,
        /// The first byte.
        addr: Addr,
        /// How many bytes (at least one).
        len: u32,
    },
    /// A port range or an interrupt (nothing to resolve).
    Fixed(BpKind),
}

/// Which breakpoints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// This one.
    One(usize),
    /// All of them.
    All,
}

/// Breakpoint commands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BreakCmd {
    /// Set one.
    Add {
        /// What it watches.
        spec: BpSpec,
        /// Stop only when this holds.
        cond: Option<Cond>,
        /// How it was asked for (listed by `bl`, saved by `bsave`).
        text: String,
    },
    /// List them.
    List,
    /// Delete some.
    Delete(Which),
    /// Write their commands to a file, one per line.
    Save(PathBuf),
}

/// A value for a register: a number, or a register or number as typed
/// (read when the command runs, so `r ax=bx` copies BX).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    /// A number.
    Num(u32),
    /// A register name or a number as typed.
    Typed(String),
}

/// Commands on registers, memory and the keyboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MachineCmd {
    /// The registers.
    Regs,
    /// Set registers, in order; the registers after.
    SetRegs(Vec<(String, Val)>),
    /// Read `len` bytes of memory.
    Read {
        /// From here.
        addr: Addr,
        /// How many.
        len: usize,
    },
    /// Write bytes of RAM.
    Write {
        /// From here.
        addr: Addr,
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// Type on the keyboard.
    Key(Vec<u8>),
}

/// Commands that show code, tables and devices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewCmd {
    /// Disassemble `count` instructions from an address (default CS:IP).
    Disasm {
        /// From here (a linear address is taken as SEG = L/16).
        at: Option<Addr>,
        /// How many.
        count: u32,
    },
    /// Interrupt vectors from `first`.
    Ivt {
        /// The first vector.
        first: u32,
        /// How many (up to vector FFh).
        count: u32,
    },
    /// The call stack.
    Backtrace,
    /// The 8253/8254 timer's channels.
    Pit,
    /// The two 8259A interrupt controllers.
    Pic,
    /// The VGA's registers.
    Vga,
    /// The VGA DAC's colours from `first` (6-bit R, G, B as programmed).
    Dac {
        /// The first entry.
        first: u32,
        /// How many (up to entry FFh).
        count: u32,
    },
}

/// Commands that read or write files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileCmd {
    /// Trace every instruction to a file (None: stop tracing).
    Trace(Option<PathBuf>),
    /// Write a save state.
    SaveState(PathBuf),
    /// Replace the machine with a save state (breakpoints stay).
    LoadState(PathBuf),
    /// Write the screen as a PNG.
    Screenshot(PathBuf),
}

/// An instruction as disassembled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insn {
    /// Its segment.
    pub seg: u16,
    /// Its offset.
    pub off: u16,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Intel syntax, hex numbers with an `h` suffix.
    pub text: String,
}

impl std::fmt::Display for Insn {
    /// `SEG:OFF  BYTES  TEXT`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bytes: String = self.bytes.iter().map(|b| format!("{b:02X}")).collect();
        write!(
            f,
            "{:04X}:{:04X}  {bytes:<14} {}",
            self.seg, self.off, self.text
        )
    }
}

/// The registers at a moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regs {
    /// The registers.
    pub r: Registers,
    /// The linear address of CS:IP.
    pub pc: u32,
    /// The CPU clock.
    pub cycles: u64,
}

/// One interrupt vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IvtEntry {
    /// The vector.
    pub vector: u8,
    /// Its handler's segment.
    pub seg: u16,
    /// Its handler's offset.
    pub off: u16,
}

/// One channel of the timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PitChannel {
    /// The counter mode (0-5).
    pub mode: u8,
    /// The count now.
    pub count: u16,
    /// The OUT line.
    pub out: bool,
    /// The GATE line.
    pub gate: bool,
    /// Rising edges of OUT so far.
    pub edges: u64,
}

/// One interrupt controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pic {
    /// `master` or `slave`.
    pub name: &'static str,
    /// The vector of IR0.
    pub vector_base: u8,
    /// Interrupt request register.
    pub irr: u8,
    /// In-service register.
    pub isr: u8,
    /// Interrupt mask register.
    pub imr: u8,
    /// The IR input lines.
    pub lines: u8,
}

/// The VGA's register files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vga {
    /// The BIOS video mode (0040:0049).
    pub bios_mode: u8,
    /// The miscellaneous output register.
    pub misc: u8,
    /// Sequencer registers.
    pub seq: Vec<u8>,
    /// CRT controller registers.
    pub crtc: Vec<u8>,
    /// Graphics controller registers.
    pub gc: Vec<u8>,
    /// Attribute controller registers.
    pub attr: Vec<u8>,
}

/// What a command did or found.
#[derive(Clone, Debug)]
pub enum Reply {
    /// The program ran and stopped; what it printed on the way.
    Stopped {
        /// Why it stopped.
        stop: Stop,
        /// The guest's console output since the last stop.
        output: Vec<u8>,
    },
    /// A breakpoint was set.
    BreakAdded {
        /// Its number.
        n: usize,
        /// What it watches.
        kind: BpKind,
    },
    /// The breakpoints (not the temporary ones) by number.
    Breaks(Vec<(usize, Bp)>),
    /// Breakpoints were deleted.
    Deleted,
    /// The breakpoints were saved to a file.
    BreaksSaved(PathBuf),
    /// The registers.
    Regs(Regs),
    /// Memory.
    Memory {
        /// The segment the address was given in, if any.
        seg: Option<u16>,
        /// The linear address of the first byte.
        base: u32,
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// Memory was written.
    Written {
        /// The linear address of the first byte.
        base: u32,
        /// The bytes that landed in RAM.
        written: usize,
        /// The bytes asked for.
        of: usize,
    },
    /// Bytes were typed on the keyboard.
    Typed(usize),
    /// Instructions, and CS:IP to mark among them.
    Disasm {
        /// CS:IP.
        current: (u16, u16),
        /// The instructions.
        insns: Vec<Insn>,
    },
    /// Interrupt vectors.
    Ivt(Vec<IvtEntry>),
    /// The call stack: CS:IP and the frames, outermost first.
    Backtrace {
        /// CS:IP.
        at: (u16, u16),
        /// The frames.
        frames: Vec<Frame>,
    },
    /// The timer.
    Pit(Vec<PitChannel>),
    /// The interrupt controllers.
    Pic(Vec<Pic>),
    /// The VGA.
    Vga(Vga),
    /// DAC entries: index and 6-bit R, G, B.
    Dac(Vec<(u8, [u8; 3])>),
    /// Tracing is on to this file, or off.
    Trace(Option<PathBuf>),
    /// A save state was written.
    StateSaved(PathBuf),
    /// A save state was loaded; the registers now.
    StateLoaded(PathBuf, Regs),
    /// A screenshot was written.
    Screenshot {
        /// The file.
        path: PathBuf,
        /// Its width in pixels.
        width: usize,
        /// Its height.
        height: usize,
    },
    /// Writes found in the history.
    Writes {
        /// What was asked about.
        what: Watched,
        /// The writes, oldest first.
        writes: Vec<Write>,
    },
    /// What the history holds.
    History(HistoryInfo),
    /// The user asked to leave.
    Quit,
}
