//! `tandem debug --gdb PORT PROGRAM`: a GDB remote stub (gdbstub crate)
//! over the debugger's engine ([`Debugger`]).
//!
//! GDB sees a real-mode x86 through [`arch::RealMode`]: its program counter
//! is the linear address CS*16+IP. Software and hardware breakpoints become
//! execution breakpoints on that linear address, watchpoints become memory
//! breakpoints over the watched range: all of them the CPU hooks the
//! command-line debugger uses, so nothing is written into guest memory.
//! `monitor` runs the debugger's own commands, which take SEG:OFF
//! (`monitor b cs:db1a`, `monitor x ss:7935 16`, `monitor r`,
//! `monitor segs`, `monitor linear ds:si`).

pub mod arch;
pub mod packets;

use std::collections::HashMap;
use std::io::Write as _;
use std::net::TcpListener;
use std::process::ExitCode;

use emu::{ExecAt, HookEvent, SegReg};
use gdbstub::common::Signal;
use gdbstub::conn::ConnectionExt;
use gdbstub::stub::{run_blocking, DisconnectReason, GdbStub, SingleThreadStopReason};
use gdbstub::target::ext::base::reverse_exec::{
    ReplayLogPosition, ReverseCont, ReverseContOps, ReverseStep, ReverseStepOps,
};
use gdbstub::target::ext::base::singlethread::{
    SingleThreadBase, SingleThreadResume, SingleThreadResumeOps, SingleThreadSingleStep,
    SingleThreadSingleStepOps,
};
use gdbstub::target::ext::base::BaseOps;
use gdbstub::target::ext::breakpoints::{
    Breakpoints, BreakpointsOps, HwBreakpoint, HwBreakpointOps, HwWatchpoint, HwWatchpointOps,
    SwBreakpoint, SwBreakpointOps, WatchKind,
};
use gdbstub::target::ext::monitor_cmd::{outputln, ConsoleOutput, MonitorCmd, MonitorCmdOps};
use gdbstub::target::{Target, TargetResult};

use super::breakpoints::BpKind;
use super::command::{Command, FileCmd};
use super::console::{self, Line};
use super::engine::{Debugger, Stop};
use super::error::Result as DebugResult;
use super::parse::parse_addr;
use super::regs::RegName;
use arch::{RealMode, RealModeRegs, CS, EFLAGS, EIP};
use packets::Wire;

/// Emulated clocks run between two looks at the connection (for gdb's
/// interrupt, Ctrl-C) while continuing.
const POLL_CYCLES: u64 = 200_000;

/// What gdb asked for last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Resume {
    Continue,
    Step,
    ReverseStep,
    ReverseContinue,
}

/// The stub's target: the debugger session and gdb's breakpoints.
pub struct GdbTarget {
    s: Debugger,
    resume: Resume,
    /// gdb breakpoint (linear address) -> session breakpoint number.
    breaks: HashMap<u32, usize>,
    /// gdb watchpoint (address, length, kind) -> session breakpoint number.
    watches: HashMap<(u32, u32, u8), usize>,
}

fn watch_key(addr: u32, len: u32, kind: WatchKind) -> (u32, u32, u8) {
    let k = match kind {
        WatchKind::Write => 0,
        WatchKind::Read => 1,
        WatchKind::ReadWrite => 2,
    };
    (addr, len, k)
}

impl GdbTarget {
    /// A target over a session stopped at the program's entry.
    pub fn new(s: Debugger) -> Self {
        GdbTarget {
            s,
            resume: Resume::Continue,
            breaks: HashMap::new(),
            watches: HashMap::new(),
        }
    }

    /// Deletes session breakpoint `n`.
    fn delete(&mut self, n: usize) -> bool {
        match self.s.bps.get_mut(n) {
            Some(b) if b.is_some() => {
                *b = None;
                true
            }
            _ => false,
        }
    }

    /// Runs as gdb asked; the stop to report, or None when data came from
    /// gdb first (`incoming` says so between chunks of a continue).
    fn run(&mut self, mut incoming: impl FnMut() -> bool) -> Option<SingleThreadStopReason<u32>> {
        // Bytes gdb already sent go to gdbstub before the machine runs on
        // (it takes one at a time: a packet sent while continuing would
        // otherwise wait a chunk of emulated time per byte).
        if self.resume == Resume::Continue && incoming() {
            return None;
        }
        loop {
            let stop = match self.resume {
                Resume::Step => self.s.step(1),
                Resume::Continue => self.s.cont(POLL_CYCLES),
                Resume::ReverseStep => self.backwards(Debugger::reverse_step_one),
                Resume::ReverseContinue => self.backwards(Debugger::reverse_continue),
            };
            self.flush_output();
            let reason = match stop {
                Stop::Stepped => SingleThreadStopReason::DoneStep,
                Stop::Limit => {
                    if incoming() {
                        return None;
                    }
                    continue;
                }
                Stop::Breakpoint(_, rec) => match rec.event {
                    HookEvent::MemRead { linear, .. } => SingleThreadStopReason::Watch {
                        tid: (),
                        kind: WatchKind::Read,
                        addr: self.watched(linear),
                    },
                    HookEvent::MemWrite { linear, .. } => SingleThreadStopReason::Watch {
                        tid: (),
                        kind: WatchKind::Write,
                        addr: self.watched(linear),
                    },
                    HookEvent::Exec { linear, .. } if self.breaks.contains_key(&linear) => {
                        SingleThreadStopReason::SwBreak(())
                    }
                    // A `monitor` breakpoint (execution, port, interrupt):
                    // gdb shows a SIGTRAP.
                    _ => SingleThreadStopReason::Signal(Signal::SIGTRAP),
                },
                Stop::Exited(code) => SingleThreadStopReason::Exited(code),
                Stop::HistoryStart => SingleThreadStopReason::ReplayLog {
                    tid: None,
                    pos: ReplayLogPosition::Begin,
                },
                Stop::Diverged(what) => {
                    eprintln!("tandem debug: the program diverged from the models: {what}");
                    SingleThreadStopReason::Signal(Signal::SIGTRAP)
                }
                Stop::Stopped(why) => {
                    eprintln!("tandem debug: {why}");
                    SingleThreadStopReason::Terminated(Signal::SIGSTOP)
                }
                Stop::Ended(end) => {
                    eprintln!("tandem debug: {end}");
                    SingleThreadStopReason::Terminated(Signal::SIGSTOP)
                }
            };
            return Some(reason);
        }
    }

    /// Runs backwards; an error (no history before here) is the start of
    /// the replay log for gdb, and said on stderr.
    fn backwards(&mut self, go: fn(&mut Debugger) -> DebugResult<Stop>) -> Stop {
        match go(&mut self.s) {
            Ok(stop) => stop,
            Err(e) => {
                eprintln!("tandem debug: {e}");
                Stop::HistoryStart
            }
        }
    }

    /// The start of the gdb watchpoint that covers `linear` (gdb matches
    /// the reported address against its watchpoints' ranges).
    fn watched(&self, linear: u32) -> u32 {
        self.watches
            .keys()
            .find(|(a, l, _)| linear >= *a && linear < a.saturating_add(*l))
            .map_or(linear, |(a, _, _)| *a)
    }

    /// Prints what the guest wrote on its console.
    fn flush_output(&mut self) {
        let out = std::mem::take(&mut self.s.output);
        if !out.is_empty() {
            let mut o = std::io::stdout();
            let _ = o.write_all(&out);
            let _ = o.flush();
        }
    }

    fn add_exec(&mut self, addr: u32) -> bool {
        if !self.breaks.contains_key(&addr) {
            let n = self.s.add_bp(
                BpKind::Exec(ExecAt::Linear(addr)),
                None,
                format!("b {addr:X} (gdb)"),
                false,
            );
            self.breaks.insert(addr, n);
        }
        true
    }

    fn remove_exec(&mut self, addr: u32) -> bool {
        match self.breaks.remove(&addr) {
            Some(n) => self.delete(n),
            None => false,
        }
    }
}

impl Target for GdbTarget {
    type Arch = RealMode;
    /// Nothing the stub does is fatal to the session.
    type Error = std::convert::Infallible;

    fn base_ops(&mut self) -> BaseOps<'_, Self::Arch, Self::Error> {
        BaseOps::SingleThread(self)
    }

    fn support_breakpoints(&mut self) -> Option<BreakpointsOps<'_, Self>> {
        Some(self)
    }

    fn support_monitor_cmd(&mut self) -> Option<MonitorCmdOps<'_, Self>> {
        Some(self)
    }
}

impl SingleThreadBase for GdbTarget {
    fn read_registers(&mut self, regs: &mut RealModeRegs) -> TargetResult<(), Self> {
        let r = &self.s.core.m.cpu.regs;
        regs.gregs[..8].copy_from_slice(&r.gpr);
        regs.gregs[EIP] = self.s.pc();
        regs.gregs[EFLAGS] = r.flags;
        // gdb's order: cs, ss, ds, es, fs, gs.
        for (i, sr) in [
            SegReg::CS,
            SegReg::SS,
            SegReg::DS,
            SegReg::ES,
            SegReg::FS,
            SegReg::GS,
        ]
        .into_iter()
        .enumerate()
        {
            regs.gregs[CS + i] = r.sreg(sr) as u32;
        }
        regs.ip = r.ip as u16;
        Ok(())
    }

    fn write_registers(&mut self, regs: &RealModeRegs) -> TargetResult<(), Self> {
        let old_pc = self.s.pc();
        let old_ip = self.s.core.m.cpu.regs.ip as u16;
        for i in 0..8 {
            self.s.put_reg(RegName::Gpr32(i), regs.gregs[i]);
        }
        self.s.put_reg(RegName::Eflags, regs.gregs[EFLAGS]);
        // gdb's order cs, ss, ds, es, fs, gs as `seg` indices.
        for (i, seg) in [1, 2, 3, 0, 4, 5].into_iter().enumerate() {
            self.s.put_reg(RegName::Seg(seg), regs.gregs[CS + i]);
        }
        // A new $pc is a linear address: keep CS when the offset fits,
        // else CS = pc >> 4 (the canonical segment). Otherwise a new $ip
        // is the offset itself.
        let pc = regs.gregs[EIP];
        if pc != old_pc {
            let cs = self.s.core.m.cpu.regs.sreg(SegReg::CS) as u32;
            match pc.checked_sub(cs << 4).filter(|o| *o <= 0xFFFF) {
                Some(off) => self.s.put_reg(RegName::Ip, off),
                None => {
                    self.s.put_reg(RegName::Seg(1), (pc >> 4) & 0xFFFF);
                    self.s.put_reg(RegName::Ip, pc & 0xF)
                }
            };
        } else if regs.ip != old_ip {
            self.s.put_reg(RegName::Ip, regs.ip as u32);
        }
        Ok(())
    }

    fn read_addrs(&mut self, start_addr: u32, data: &mut [u8]) -> TargetResult<usize, Self> {
        let bytes = self.s.read_mem(start_addr, data.len());
        data.copy_from_slice(&bytes);
        Ok(data.len())
    }

    fn write_addrs(&mut self, start_addr: u32, data: &[u8]) -> TargetResult<(), Self> {
        // Bytes outside RAM (ROM, unmapped) are not written; gdb is told
        // the write failed.
        if self.s.write_mem(start_addr, data) == data.len() {
            Ok(())
        } else {
            Err(gdbstub::target::TargetError::NonFatal)
        }
    }

    fn support_resume(&mut self) -> Option<SingleThreadResumeOps<'_, Self>> {
        Some(self)
    }
}

impl SingleThreadResume for GdbTarget {
    fn resume(&mut self, _signal: Option<Signal>) -> Result<(), Self::Error> {
        self.resume = Resume::Continue;
        Ok(())
    }

    fn support_single_step(&mut self) -> Option<SingleThreadSingleStepOps<'_, Self>> {
        Some(self)
    }

    fn support_reverse_step(&mut self) -> Option<ReverseStepOps<'_, (), Self>> {
        Some(self)
    }

    fn support_reverse_cont(&mut self) -> Option<ReverseContOps<'_, (), Self>> {
        Some(self)
    }
}

impl ReverseStep<()> for GdbTarget {
    fn reverse_step(&mut self, _tid: ()) -> Result<(), Self::Error> {
        self.resume = Resume::ReverseStep;
        Ok(())
    }
}

impl ReverseCont<()> for GdbTarget {
    fn reverse_cont(&mut self) -> Result<(), Self::Error> {
        self.resume = Resume::ReverseContinue;
        Ok(())
    }
}

impl SingleThreadSingleStep for GdbTarget {
    fn step(&mut self, _signal: Option<Signal>) -> Result<(), Self::Error> {
        self.resume = Resume::Step;
        Ok(())
    }
}

impl Breakpoints for GdbTarget {
    fn support_sw_breakpoint(&mut self) -> Option<SwBreakpointOps<'_, Self>> {
        Some(self)
    }

    fn support_hw_breakpoint(&mut self) -> Option<HwBreakpointOps<'_, Self>> {
        Some(self)
    }

    fn support_hw_watchpoint(&mut self) -> Option<HwWatchpointOps<'_, Self>> {
        Some(self)
    }
}

impl SwBreakpoint for GdbTarget {
    fn add_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        Ok(self.add_exec(addr))
    }

    fn remove_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        Ok(self.remove_exec(addr))
    }
}

impl HwBreakpoint for GdbTarget {
    fn add_hw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        Ok(self.add_exec(addr))
    }

    fn remove_hw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        Ok(self.remove_exec(addr))
    }
}

impl HwWatchpoint for GdbTarget {
    fn add_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        let key = watch_key(addr, len, kind);
        if self.watches.contains_key(&key) || len == 0 {
            return Ok(len != 0);
        }
        let (read, write) = match kind {
            WatchKind::Write => (false, true),
            WatchKind::Read => (true, false),
            WatchKind::ReadWrite => (true, true),
        };
        let n = self.s.add_bp(
            BpKind::Mem {
                read,
                write,
                start: addr,
                end: addr.saturating_add(len - 1),
            },
            None,
            format!("watch {addr:X} {len:X} (gdb)"),
            false,
        );
        self.watches.insert(key, n);
        Ok(true)
    }

    fn remove_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        match self.watches.remove(&watch_key(addr, len, kind)) {
            Some(n) => Ok(self.delete(n)),
            None => Ok(false),
        }
    }
}

/// Whether a console line runs the machine or replaces it: gdb must do
/// that itself (`continue`, `stepi`, `kill`), or its view of the
/// registers goes stale.
fn runs_the_machine(line: &str) -> bool {
    matches!(
        console::parse(line),
        Ok(Line::Engine(
            Command::Run(_)
                | Command::Back(_)
                | Command::Quit
                | Command::File(FileCmd::LoadState(_))
        ))
    )
}

impl MonitorCmd for GdbTarget {
    fn handle_monitor_cmd(
        &mut self,
        cmd: &[u8],
        mut out: ConsoleOutput<'_>,
    ) -> Result<(), Self::Error> {
        let Ok(line) = std::str::from_utf8(cmd) else {
            outputln!(out, "error: the command is not UTF-8");
            return Ok(());
        };
        let line = line.trim();
        let word = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let text = match word.as_str() {
            "segs" => {
                let r = &self.s.core.m.cpu.regs;
                let (cs, ip) = self.s.cs_ip();
                format!(
                    "CS={cs:04X} DS={:04X} ES={:04X} SS={:04X} FS={:04X} GS={:04X}  CS:IP={cs:04X}:{ip:04X} = linear {:05X}\n",
                    r.sreg(SegReg::DS),
                    r.sreg(SegReg::ES),
                    r.sreg(SegReg::SS),
                    r.sreg(SegReg::FS),
                    r.sreg(SegReg::GS),
                    self.s.pc()
                )
            }
            "linear" => {
                let arg = line.split_whitespace().nth(1).unwrap_or("");
                match parse_addr(arg).and_then(|a| self.s.linear(&a)) {
                    Ok(l) => format!("{l:X}\n"),
                    Err(e) => format!("error: {e}\n"),
                }
            }
            "" | "help" | "h" | "?" => format!(
                "{}\nmonitor only: segs (segment registers and CS:IP), linear ADDR (SEG:OFF to linear)\n\
                 run with gdb's continue/stepi; $pc is linear CS*16+IP, $ip the offset\n",
                console::HELP
            ),
            w if runs_the_machine(line) => {
                format!(
                    "error: '{w}' moves the machine: use gdb's continue, stepi, \
                     reverse-continue, reverse-stepi or kill\n"
                )
            }
            _ => match console::execute(&mut self.s, line) {
                Ok(o) => o.text,
                Err(e) => format!("error: {e}\n"),
            },
        };
        for l in text.lines() {
            outputln!(out, "{l}");
        }
        Ok(())
    }
}

/// The event loop: runs the target between gdb's packets, on a connection
/// that outlives one gdbstub session (see [`serve`]).
struct EventLoop<'a, W>(std::marker::PhantomData<&'a W>);

impl<'a, W: Wire> run_blocking::BlockingEventLoop for EventLoop<'a, W> {
    type Target = GdbTarget;
    type Connection = packets::Link<'a, W>;
    type StopReason = SingleThreadStopReason<u32>;

    #[allow(clippy::type_complexity)]
    fn wait_for_stop_reason(
        target: &mut GdbTarget,
        conn: &mut packets::Link<'a, W>,
    ) -> Result<
        run_blocking::Event<SingleThreadStopReason<u32>>,
        run_blocking::WaitForStopReasonError<std::convert::Infallible, std::io::Error>,
    > {
        let mut failed = None;
        let stop = target.run(|| match conn.peek() {
            Ok(b) => b.is_some(),
            Err(e) => {
                failed = Some(e);
                true
            }
        });
        if let Some(e) = failed {
            return Err(run_blocking::WaitForStopReasonError::Connection(e));
        }
        match stop {
            Some(reason) => Ok(run_blocking::Event::TargetStopped(reason)),
            None => {
                let byte = conn
                    .read()
                    .map_err(run_blocking::WaitForStopReasonError::Connection)?;
                Ok(run_blocking::Event::IncomingData(byte))
            }
        }
    }

    fn on_interrupt(
        _target: &mut GdbTarget,
    ) -> Result<Option<SingleThreadStopReason<u32>>, std::convert::Infallible> {
        Ok(Some(SingleThreadStopReason::Signal(Signal::SIGINT)))
    }
}

/// Serves one gdb connection on 127.0.0.1:`port` (0: any free port; the
/// port is printed on stderr either way) until gdb detaches or kills.
pub fn serve(s: Debugger, port: u16) -> ExitCode {
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(l) => l,
        Err(e) => return crate::app::error::input_error("debug", format!("--gdb {port}: {e}")),
    };
    let bound = listener.local_addr().map(|a| a.port()).unwrap_or(port);
    eprintln!("tandem debug: waiting for gdb on 127.0.0.1:{bound} (target remote :{bound})");
    let conn = match listener.accept() {
        Ok((c, _)) => c,
        Err(e) => {
            return crate::app::error::input_error(
                "debug",
                format!("accepting a gdb connection: {e}"),
            )
        }
    };
    let _ = conn.set_nodelay(true);
    let mut target = GdbTarget::new(s);
    let mut checked = packets::Checked::new(conn);
    match session(&mut target, &mut checked) {
        Ok(reason) => {
            say_disconnect(reason);
            ExitCode::SUCCESS
        }
        // Like an output that cannot be written.
        Err(e) => crate::app::error::input_error("debug", format!("gdb stub: {e}")),
    }
}

/// Serves gdb on `checked` until it detaches, kills, or the program
/// exits; an error when the connection fails (or packet after packet
/// fails).
pub fn session<W: Wire>(
    target: &mut GdbTarget,
    checked: &mut packets::Checked<W>,
) -> std::io::Result<DisconnectReason> {
    // gdbstub ends its session on a packet it cannot handle (one it fails
    // to parse, or one it did not expect); the remote protocol wants an
    // error reply and the session going on. So such a packet gets `E16`
    // here and a new gdbstub session continues on the same connection and
    // target (no state of the debugger is lost); only the connection
    // failing, or packet after packet failing, ends it.
    let mut failures = 0u32;
    loop {
        let stub = GdbStub::new(packets::Link(&mut *checked));
        let e = match stub.run_blocking::<EventLoop<W>>(target) {
            Ok(reason) => return Ok(reason),
            Err(e) => e,
        };
        failures += 1;
        if e.is_connection_error() || e.is_target_error() || failures > MAX_FAILED_PACKETS {
            return Err(std::io::Error::other(e.to_string()));
        }
        log::warn!("gdb: a packet gdbstub could not handle ({e}): E16, going on");
        checked.refuse_last()?;
    }
}

/// Packets gdbstub may fail on before the session ends all the same (a
/// client that sends nothing else is not a debugger).
const MAX_FAILED_PACKETS: u32 = 10_000;

fn say_disconnect(reason: DisconnectReason) {
    match reason {
        DisconnectReason::Disconnect => eprintln!("tandem debug: gdb detached"),
        DisconnectReason::TargetExited(code) => {
            eprintln!("tandem debug: the program exited with code {code}")
        }
        DisconnectReason::TargetTerminated(sig) => {
            eprintln!("tandem debug: the program stopped ({sig})")
        }
        DisconnectReason::Kill => eprintln!("tandem debug: killed by gdb"),
    }
}

#[cfg(test)]
mod tests {
    use super::runs_the_machine;

    #[test]
    fn commands_that_run_the_machine_are_left_to_gdb() {
        for l in [
            "c",
            "g",
            "s 3",
            "until cs:100",
            "finish",
            "q",
            "load a state.sav",
        ] {
            assert!(runs_the_machine(l), "{l}");
        }
        for l in ["x ds:0", "b cs:100", "r ax=1", "bogus", "save a.sav"] {
            assert!(!runs_the_machine(l), "{l}");
        }
    }
}
