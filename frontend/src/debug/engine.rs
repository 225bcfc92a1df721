//! The debugger's engine, shared by the console, the control protocol and
//! the GDB stub: the core session ([`dos::Session`]: the machine, its DOS
//! and the run loop), breakpoints mapped onto the CPU's hooks, stepping
//! one instruction at a time (`stepping.rs`), a call
//! stack built from CALL/RET, the bytes changed between stops, and an
//! optional trace file. It returns data; the front ends present it.

use std::path::{Path, PathBuf};

use dos::{Dos, Session};
use emu::ExecAt;
use hw::Machine;
use iced_x86::{Decoder, DecoderOptions, Formatter, Instruction, IntelFormatter};

use super::breakpoints::{Bp, BpKind};
use super::command::{Insn, Regs, Which};
use super::error::{Error, Result};
use super::history::checkpoint::Checkpoint;
use super::history::History;
use super::observer::Observer;
use super::parse::{parse_num, Addr, Cond};
pub use super::position::{End, Frame};
use super::regs::RegName;

/// Why a run stopped.
#[derive(Clone, Debug)]
pub enum Stop {
    /// The requested steps were done.
    Stepped,
    /// A breakpoint stopped it (its number and the CPU's record).
    Breakpoint(usize, emu::HookRecord),
    /// The program terminated with this code.
    Exited(u8),
    /// The emulation cannot go on (halt with IF clear, reset, something
    /// not emulated, a DOS stop): the core session's reason.
    Stopped(dos::Stop),
    /// The program had ended before this run: how.
    Ended(End),
    /// The cycle budget of the command ran out.
    Limit,
    /// Running backwards reached the start of the history.
    HistoryStart,
    /// The observer (the golden master's lock-step check) found the
    /// program diverging from its models: what differs.
    Diverged(String),
}

/// A run of bytes that changed between two stops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The linear address of its first byte.
    pub start: u32,
    /// The bytes before.
    pub old: Vec<u8>,
    /// The bytes now.
    pub new: Vec<u8>,
}

/// The memory that changed since the previous look.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// The first [`MAX_CHANGE_RUNS`] runs (each at most 16 bytes).
    pub runs: Vec<Change>,
    /// How many more runs changed.
    pub more: usize,
}

/// The runs of changed bytes a [`Changes`] lists.
pub const MAX_CHANGE_RUNS: usize = 16;
/// The longest run of changed bytes listed as one.
const MAX_RUN_BYTES: usize = 16;
/// How much memory the changed-bytes report compares: the first MiB and
/// the HMA.
const DIFF_LEN: usize = 0x11_0000;

/// The trace file (`trace FILE`): where it goes, its writer and the
/// first write that failed (the lines after it are dropped).
pub(super) struct TraceFile {
    path: std::path::PathBuf,
    pub(super) out: std::io::BufWriter<std::fs::File>,
    pub(super) failed: Option<std::io::Error>,
}

impl TraceFile {
    /// Ends the file: its first failed write, or the flush's and sync's.
    fn close(self) -> Result<()> {
        let path = self.path;
        match self.failed {
            Some(e) => Err(Error::io(path, e)),
            None => crate::app::output::finish(self.out).map_err(|e| Error::io(path, e)),
        }
    }
}

/// The debugger's state.
pub struct Debugger {
    /// The machine, its DOS and the run loop.
    pub core: Session,
    /// The host folder that is drive C: (a loaded state mounts it too).
    mount: PathBuf,
    /// Breakpoints by number (None: deleted).
    pub bps: Vec<Option<Bp>>,
    /// The call stack.
    pub frames: Vec<Frame>,
    /// Memory at the previous stop.
    prev_mem: Vec<u8>,
    /// The trace file, when on.
    pub(super) trace: Option<TraceFile>,
    /// Hook index -> breakpoint number.
    pub(super) hook_bp: Vec<usize>,
    /// The program has ended (no more running).
    pub ended: Option<End>,
    /// Guest text not yet shown.
    pub output: Vec<u8>,
    /// The history for running backwards, when kept.
    pub history: Option<History>,
    /// The watcher of the program's first run (a lock-step check).
    pub observer: Option<Box<dyn Observer>>,
    /// The index of the observer's first hook (after the breakpoints').
    pub(super) observer_first: usize,
    /// The cycle up to which the observer has seen the program.
    pub(super) observed_to: Option<u64>,
    /// The cycle of the observer's last stop it has seen.
    pub(super) observed_stop: Option<u64>,
}

impl Debugger {
    /// A debugger over a machine with its program loaded, drive C: at
    /// `mount`.
    pub fn new(m: Machine, dos: Dos, mount: PathBuf) -> Self {
        let mut s = Debugger {
            core: Session::new(m, dos),
            mount,
            bps: Vec::new(),
            frames: Vec::new(),
            prev_mem: Vec::new(),
            trace: None,
            hook_bp: Vec::new(),
            ended: None,
            output: Vec::new(),
            history: None,
            observer: None,
            observer_first: usize::MAX,
            observed_to: None,
            observed_stop: None,
        };
        s.prev_mem = s.mem_snapshot();
        s
    }

    /// Keeps a history of up to `mib` MiB from here on, so that the
    /// session can run backwards (0: none).
    pub fn keep_history(&mut self, mib: u64) -> Result<()> {
        self.history = None;
        self.core.dos.set_journal(None);
        if mib > 0 {
            let h = History::new(mib);
            self.core.dos.set_journal(Some(h.journal.clone()));
            self.history = Some(h);
            self.checkpoint(false)?;
        }
        Ok(())
    }

    /// Takes a checkpoint of the position now (`change`: right after a
    /// change of the user's).
    pub(super) fn checkpoint(&mut self, change: bool) -> Result<()> {
        let Some(h) = self.history.as_ref() else {
            return Ok(());
        };
        let t = std::time::Instant::now();
        let c = Checkpoint::take(
            &self.core,
            &self.frames,
            self.ended.as_ref(),
            h.checkpoints.last(),
            change,
        )
        .map_err(|e| Error::History(e.to_string()))?;
        let cost = t.elapsed();
        if let Some(line) = self.history.as_mut().and_then(|h| h.add(c, cost)) {
            eprintln!("tandem debug: {line}");
        }
        Ok(())
    }

    /// Puts the machine, DOS and the call stack back as checkpoint `k`
    /// holds them (breakpoints are armed again when a run starts).
    pub(super) fn restore(&mut self, k: usize) -> Result<()> {
        let h = self.history.as_ref().ok_or(Error::NoHistory)?;
        let c = h.checkpoints.get(k).ok_or(Error::NoHistory)?;
        // The folder first: the state reopens its files.
        if let Ok(mut j) = h.journal.lock() {
            for e in j.undo_to(c.cycle) {
                eprintln!("tandem debug: history: a file of drive C: could not be put back: {e}");
            }
        }
        let mut core = c
            .restore(&self.mount)
            .map_err(|e| Error::History(e.to_string()))?;
        core.dos.set_journal(Some(h.journal.clone()));
        self.frames = c.frames.clone();
        self.ended = c.ended.clone();
        self.core = core;
        Ok(())
    }

    /// Notes a change of the user's to the machine: the history takes a
    /// checkpoint of it before the machine runs again.
    pub fn touched(&mut self) {
        if let Some(h) = self.history.as_mut() {
            h.dirty = true;
        }
    }

    /// Records a pending change of the user's: the timeline forks here and
    /// a checkpoint keeps the change.
    pub(super) fn settle(&mut self) -> Result<()> {
        let now = self.core.m.cycles();
        let Some(h) = self.history.as_mut() else {
            return Ok(());
        };
        if !std::mem::replace(&mut h.dirty, false) {
            return Ok(());
        }
        h.fork(now);
        if self.observed_to.is_some_and(|c| now < c) {
            if let Some(o) = self.observer.as_mut() {
                o.forked(now);
            }
        }
        self.checkpoint(true)
    }

    fn mem_snapshot(&self) -> Vec<u8> {
        let b = self.core.m.bus.mem.bytes();
        b[..b.len().min(DIFF_LEN)].to_vec()
    }

    /// The host folder that is drive C:.
    pub fn mount_path(&self) -> PathBuf {
        self.mount.clone()
    }

    /// CS and IP.
    pub fn cs_ip(&self) -> (u16, u16) {
        self.core.cs_ip()
    }

    /// The linear address of CS:IP.
    pub fn pc(&self) -> u32 {
        let (cs, ip) = self.cs_ip();
        self.core.m.cpu.linear(cs, ip)
    }

    /// The registers now.
    pub fn regs(&self) -> Regs {
        Regs {
            r: self.core.m.cpu.regs.clone(),
            pc: self.pc(),
            cycles: self.core.m.cycles(),
        }
    }

    /// Reads a register by name (see [`RegName`]).
    pub fn reg(&self, name: &str) -> Option<u32> {
        RegName::parse(name).map(|n| n.read(&self.core.m.cpu.regs))
    }

    /// Writes a register by name.
    pub fn set_reg(&mut self, name: &str, v: u32) -> Result<()> {
        let n = RegName::parse(name).ok_or_else(|| Error::BadRegister(name.into()))?;
        self.put_reg(n, v);
        Ok(())
    }

    /// Writes a register (a new CS:IP wakes a halted CPU).
    pub fn put_reg(&mut self, n: RegName, v: u32) {
        let flags = self.core.m.cpu.normalize_flags(v);
        let before = self.core.m.cpu.regs.clone();
        n.write(&mut self.core.m.cpu.regs, v, flags);
        if self.core.m.cpu.regs != before {
            self.touched();
        }
        if n.moves_pc() {
            self.core.m.cpu.halted = false;
        }
    }

    /// A number or register: hex by default (`0x`/`h` accepted, `#` for
    /// decimal).
    pub fn value(&self, s: &str) -> Result<u32> {
        match self.reg(s) {
            Some(v) => Ok(v),
            None => parse_num(s),
        }
    }

    /// The segment and offset of `a` now (a linear address as L/16:L%16).
    pub fn seg_off(&self, a: &Addr) -> Result<(u16, u16)> {
        match a {
            Addr::Linear(l) => Ok(((l >> 4) as u16, (l & 0xF) as u16)),
            Addr::SegOff(s, o) => Ok((self.value(s)? as u16, self.value(o)? as u16)),
        }
    }

    /// The linear address of `a` now.
    pub fn linear(&self, a: &Addr) -> Result<u32> {
        match a {
            Addr::Linear(l) => Ok(*l),
            Addr::SegOff(..) => {
                let (seg, off) = self.seg_off(a)?;
                Ok(self.core.m.cpu.linear(seg, off))
            }
        }
    }

    /// Where an execution breakpoint on `a` matches: CS and IP for
    /// SEG:OFF, else the linear address.
    pub fn exec_at(&self, a: &Addr) -> Result<ExecAt> {
        Ok(match a {
            Addr::Linear(l) => ExecAt::Linear(*l),
            Addr::SegOff(..) => {
                let (seg, off) = self.seg_off(a)?;
                ExecAt::SegOff(seg, off)
            }
        })
    }

    /// Reads `len` bytes at linear `addr` (VGA memory reads FFh).
    pub fn read_mem(&self, addr: u32, len: usize) -> Vec<u8> {
        (0..len as u32)
            .map(|i| self.core.m.peek8(addr.wrapping_add(i)))
            .collect()
    }

    /// Writes bytes of RAM at linear `addr`; the count that landed in RAM.
    pub fn write_mem(&mut self, addr: u32, bytes: &[u8]) -> usize {
        let mut n = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let a = addr.wrapping_add(i as u32);
            if self.core.m.peek8(a) != b {
                self.touched();
            }
            if self.core.m.bus.mem.poke(a, b) {
                n += 1;
            }
        }
        n
    }

    /// Decodes the instruction at `seg:off`.
    pub fn decode(&self, seg: u16, off: u16) -> Instruction {
        let bytes = self.code_bytes(seg, off, 15);
        Decoder::with_ip(16, &bytes, off as u64, DecoderOptions::NONE).decode()
    }

    fn code_bytes(&self, seg: u16, off: u16, len: usize) -> Vec<u8> {
        (0..len as u16)
            .map(|i| {
                self.core
                    .m
                    .peek8(self.core.m.cpu.linear(seg, off.wrapping_add(i)))
            })
            .collect()
    }

    /// The instruction at `seg:off`, disassembled (an undecodable byte is
    /// one byte long).
    pub fn insn_at(&self, seg: u16, off: u16) -> Insn {
        let ins = self.decode(seg, off);
        let mut text = String::new();
        let mut f = IntelFormatter::new();
        f.options_mut().set_hex_prefix("");
        f.options_mut().set_hex_suffix("h");
        f.options_mut().set_uppercase_hex(true);
        f.format(&ins, &mut text);
        Insn {
            seg,
            off,
            bytes: self.code_bytes(seg, off, ins.len().max(1)),
            text,
        }
    }

    /// The instruction at CS:IP.
    pub fn insn_now(&self) -> Insn {
        let (cs, ip) = self.cs_ip();
        self.insn_at(cs, ip)
    }

    /// The bytes changed since the previous call (which takes a new
    /// snapshot).
    pub fn take_changes(&mut self) -> Changes {
        let now = self.mem_snapshot();
        let prev = std::mem::replace(&mut self.prev_mem, now);
        let now = &self.prev_mem;
        let mut out = Changes::default();
        let mut i = 0;
        while i < now.len().min(prev.len()) {
            if now[i] == prev[i] {
                i += 1;
                continue;
            }
            let start = i;
            while i < now.len() && now[i] != prev[i] && i - start < MAX_RUN_BYTES {
                i += 1;
            }
            if out.runs.len() < MAX_CHANGE_RUNS {
                out.runs.push(Change {
                    start: start as u32,
                    old: prev[start..i].to_vec(),
                    new: now[start..i].to_vec(),
                });
            } else {
                out.more += 1;
            }
        }
        out
    }

    /// The guest's console output not yet taken.
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.output)
    }

    /// Adds a breakpoint; its number.
    pub fn add_bp(&mut self, kind: BpKind, cond: Option<Cond>, text: String, temp: bool) -> usize {
        self.bps.push(Some(Bp {
            kind,
            cond,
            text,
            hits: 0,
            temp,
        }));
        self.bps.len() - 1
    }

    /// Deletes breakpoints.
    pub fn delete_bp(&mut self, which: Which) -> Result<()> {
        match which {
            Which::All => self.bps.clear(),
            Which::One(n) => match self.bps.get_mut(n) {
                Some(b @ Some(_)) => *b = None,
                _ => return Err(Error::NoSuchBreakpoint(n)),
            },
        }
        Ok(())
    }

    /// Starts (or with None stops) the trace file. Ending one whose
    /// writes failed is that failure.
    pub fn set_trace(&mut self, path: Option<&Path>) -> Result<()> {
        if let Some(t) = self.trace.take() {
            t.close()?;
        }
        if let Some(p) = path {
            let f = std::fs::File::create(p).map_err(|e| Error::io(p, e))?;
            self.trace = Some(TraceFile {
                path: p.to_path_buf(),
                out: std::io::BufWriter::new(f),
                failed: None,
            });
        }
        Ok(())
    }

    /// A trace write that failed, as the error of the command that ran
    /// (the trace is then off).
    pub(super) fn trace_failure(&mut self) -> Result<()> {
        if self.trace.as_ref().is_some_and(|t| t.failed.is_some()) {
            if let Some(t) = self.trace.take() {
                return t.close();
            }
        }
        Ok(())
    }

    /// Writes a save state of the machine and DOS to `file`.
    pub fn save_state(&self, file: &Path) -> Result<()> {
        let meta = dos::state::Meta {
            tandem: env!("CARGO_PKG_VERSION").into(),
            program: String::new(),
            origin_cycle: self.core.m.cycles(),
        };
        dos::state::write_file(file, &self.core.m, &self.core.dos, &meta)
            .map_err(|e| Error::State(format!("{}: {e}", file.display())))
    }

    /// Replaces the machine and DOS with a save state (drive C: stays
    /// mounted where it is). Breakpoints stay; the call stack, the
    /// changed-bytes snapshot and any ended state start afresh.
    pub fn load_state(&mut self, file: &Path) -> Result<()> {
        let snap = crate::app::savestate::load(file, &self.mount)
            .map_err(|e| Error::State(e.to_string()))?;
        self.core = Session::new(snap.machine, snap.dos);
        self.frames.clear();
        self.ended = None;
        self.output.clear();
        self.prev_mem = self.mem_snapshot();
        // A loaded state has a clock of its own: the history starts anew
        // from it.
        if let Some(h) = self.history.take() {
            self.keep_history(h.budget_mib())?;
        }
        Ok(())
    }
}
