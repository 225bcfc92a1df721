//! The engine carrying out typed commands: one function per family, each
//! returning data ([`Reply`]) for the front end to present.

use std::path::Path;

use super::breakpoints::BpKind;
use super::command::{
    BackCmd, BpSpec, BreakCmd, Budget, Command, FileCmd, HistoryCmd, HistoryInfo, Insn, IvtEntry,
    MachineCmd, Pic, PitChannel, Reply, RunCmd, Val, Vga, ViewCmd, Watched,
};
use super::console::MAX_SECONDS;
use super::engine::Debugger;
use super::error::{Error, Result};
use super::parse::Addr;
use super::writes::MAX_QUERY;

/// The most instructions one disassembly shows.
pub const MAX_DISASM: u32 = 1000;

impl Debugger {
    /// Carries out one command.
    pub fn execute(&mut self, cmd: Command) -> Result<Reply> {
        match cmd {
            Command::Run(c) => self.run_cmd(c),
            Command::Break(c) => self.break_cmd(c),
            Command::Machine(c) => self.machine_cmd(c),
            Command::View(c) => self.view_cmd(c),
            Command::File(c) => self.file_cmd(c),
            Command::Back(c) => self.back_cmd(c),
            Command::History(c) => self.history_cmd(c),
            // The trace is written whole, or its failure said, first.
            Command::Quit => self.set_trace(None).map(|_| Reply::Quit),
        }
    }

    /// CPU clocks in a budget, which may be at most
    /// [`MAX_SECONDS`](crate::debug::console::MAX_SECONDS) of emulated
    /// time: every command that runs the machine answers.
    pub fn cycles_of(&self, b: Budget) -> Result<u64> {
        let hz = self.core.m.config().cpu_hz;
        let max = MAX_SECONDS.saturating_mul(hz);
        let (cycles, asked) = match b {
            Budget::Cycles(c) => (c, format!("{c} cycles")),
            Budget::Seconds(s) => (s.saturating_mul(hz), format!("{s} s")),
        };
        if cycles > max {
            return Err(Error::BudgetTooLong {
                asked,
                max: MAX_SECONDS,
            });
        }
        Ok(cycles)
    }

    fn run_cmd(&mut self, c: RunCmd) -> Result<Reply> {
        let stop = match c {
            RunCmd::Step(n, b) => self.step_within(n.max(1), self.cycles_of(b)?),
            RunCmd::Over(b) => self.step_over(self.cycles_of(b)?),
            RunCmd::Out(b) => self.step_out(self.cycles_of(b)?),
            RunCmd::Continue(b) => self.cont(self.cycles_of(b)?),
            RunCmd::To(a, b) => {
                let at = self.exec_at(&a)?;
                self.run_to(at, self.cycles_of(b)?)
            }
        };
        self.trace_failure()?;
        Ok(Reply::Stopped {
            stop,
            output: self.take_output(),
        })
    }

    fn back_cmd(&mut self, c: BackCmd) -> Result<Reply> {
        let stop = match c {
            BackCmd::Step(n) => self.reverse_step(n)?,
            BackCmd::Next => self.reverse_next()?,
            BackCmd::Continue => self.reverse_continue()?,
            BackCmd::Finish => self.reverse_finish()?,
            BackCmd::Goto(cycle) => self.goto(cycle)?,
        };
        Ok(Reply::Stopped {
            stop,
            output: self.take_output(),
        })
    }

    fn history_cmd(&mut self, c: HistoryCmd) -> Result<Reply> {
        let (what, writes) = match c {
            HistoryCmd::Mem { addr, len } => {
                if len > MAX_QUERY {
                    return Err(Error::QueryTooLong {
                        len,
                        max: MAX_QUERY,
                    });
                }
                let start = self.linear(&addr)?;
                let len = len.max(1) as u32;
                (Watched::Mem { start, len }, self.history_mem(start, len)?)
            }
            HistoryCmd::Port(p) => (Watched::Port(p), self.history_port(p)?),
            HistoryCmd::Info => {
                let now = self.core.m.cycles();
                let h = self.kept()?;
                return Ok(Reply::History(HistoryInfo {
                    start: h.start().unwrap_or(now),
                    end: h.end().max(now),
                    now,
                    checkpoints: h.checkpoints(),
                    bytes: h.bytes(),
                    budget_mib: h.budget_mib(),
                    interval: h.interval(),
                }));
            }
        };
        Ok(Reply::Writes { what, writes })
    }

    /// What a breakpoint spec watches now (its addresses resolved).
    fn bp_kind(&self, spec: BpSpec) -> Result<BpKind> {
        Ok(match spec {
            BpSpec::Exec(a) => BpKind::Exec(self.exec_at(&a)?),
            BpSpec::Mem {
                read,
                write,
                addr,
                len,
            } => {
                let start = self.linear(&addr)?;
                let len = len.max(1);
                let end = start
                    .checked_add(len - 1)
                    .ok_or(Error::BadAddress { start, len })?;
                BpKind::Mem {
                    read,
                    write,
                    start,
                    end,
                }
            }
            BpSpec::Fixed(BpKind::Port { start, end, .. }) if end < start => {
                return Err(Error::BadPortRange { start, end })
            }
            BpSpec::Fixed(kind) => kind,
        })
    }

    fn break_cmd(&mut self, c: BreakCmd) -> Result<Reply> {
        match c {
            BreakCmd::Add { spec, cond, text } => {
                let kind = self.bp_kind(spec)?;
                let n = self.add_bp(kind.clone(), cond, text, false);
                Ok(Reply::BreakAdded { n, kind })
            }
            BreakCmd::List => Ok(Reply::Breaks(
                self.bps
                    .iter()
                    .enumerate()
                    .filter_map(|(n, b)| b.as_ref().filter(|b| !b.temp).map(|b| (n, b.clone())))
                    .collect(),
            )),
            BreakCmd::Delete(w) => {
                self.delete_bp(w)?;
                Ok(Reply::Deleted)
            }
            BreakCmd::Save(f) => {
                let lines: String = self
                    .bps
                    .iter()
                    .flatten()
                    .filter(|b| !b.temp)
                    .map(|b| format!("{}\n", b.text))
                    .collect();
                std::fs::write(&f, lines).map_err(|e| Error::io(&f, e))?;
                Ok(Reply::BreaksSaved(f))
            }
        }
    }

    fn machine_cmd(&mut self, c: MachineCmd) -> Result<Reply> {
        match c {
            MachineCmd::Regs => {}
            MachineCmd::SetRegs(list) => {
                for (name, v) in list {
                    let v = match v {
                        Val::Num(n) => n,
                        Val::Typed(t) => self.value(&t)?,
                    };
                    self.set_reg(&name, v)?;
                }
            }
            MachineCmd::Read { addr, len } => {
                let seg = match &addr {
                    Addr::SegOff(..) => Some(self.seg_off(&addr)?.0),
                    Addr::Linear(_) => None,
                };
                let base = self.linear(&addr)?;
                let bytes = self.read_mem(base, len);
                return Ok(Reply::Memory { seg, base, bytes });
            }
            MachineCmd::Write { addr, bytes } => {
                let base = self.linear(&addr)?;
                let written = self.write_mem(base, &bytes);
                return Ok(Reply::Written {
                    base,
                    written,
                    of: bytes.len(),
                });
            }
            MachineCmd::Key(text) => {
                self.core.dos.type_text(&text);
                self.touched();
                return Ok(Reply::Typed(text.len()));
            }
        }
        Ok(Reply::Regs(self.regs()))
    }

    fn view_cmd(&mut self, c: ViewCmd) -> Result<Reply> {
        Ok(match c {
            ViewCmd::Disasm { at, count } => {
                let current = self.cs_ip();
                let (seg, mut off) = match at {
                    Some(a) => self.seg_off(&a)?,
                    None => current,
                };
                let mut insns: Vec<Insn> = Vec::new();
                for _ in 0..count.min(MAX_DISASM) {
                    let i = self.insn_at(seg, off);
                    off = off.wrapping_add(i.bytes.len() as u16);
                    insns.push(i);
                }
                Reply::Disasm { current, insns }
            }
            ViewCmd::Ivt { first, count } => Reply::Ivt(
                (first..first.saturating_add(count).min(0x100))
                    .map(|v| IvtEntry {
                        vector: v as u8,
                        off: self.core.m.peek16(v * 4),
                        seg: self.core.m.peek16(v * 4 + 2),
                    })
                    .collect(),
            ),
            ViewCmd::Backtrace => Reply::Backtrace {
                at: self.cs_ip(),
                frames: self.frames.clone(),
            },
            ViewCmd::Pit => Reply::Pit(self.pit()),
            ViewCmd::Pic => Reply::Pic(self.pics()),
            ViewCmd::Vga => Reply::Vga(self.vga()),
            ViewCmd::Dac { first, count } => {
                let dac = &self.core.m.bus.dev.vga.dac;
                Reply::Dac(
                    (first..first.saturating_add(count).min(0x100))
                        .map(|i| (i as u8, dac.entry6(i as u8)))
                        .collect(),
                )
            }
        })
    }

    fn pit(&self) -> Vec<PitChannel> {
        self.core
            .m
            .bus
            .pit
            .channels
            .iter()
            .map(|c| PitChannel {
                mode: c.mode(),
                count: c.count(),
                out: c.out(),
                gate: c.gate(),
                edges: c.rising_edges(),
            })
            .collect()
    }

    fn pics(&self) -> Vec<Pic> {
        let p = &self.core.m.bus.pics;
        [("master", &p.master), ("slave", &p.slave)]
            .into_iter()
            .map(|(name, p)| Pic {
                name,
                vector_base: p.vector_base(),
                irr: p.irr,
                isr: p.isr,
                imr: p.imr,
                lines: p.lines(),
            })
            .collect()
    }

    fn vga(&self) -> Vga {
        let v = &self.core.m.bus.vga;
        Vga {
            bios_mode: self.core.m.peek8(0x449),
            misc: v.misc,
            seq: v.seq.regs.to_vec(),
            crtc: v.crtc.regs.to_vec(),
            gc: v.gc.regs.to_vec(),
            attr: v.attr.regs.to_vec(),
        }
    }

    fn file_cmd(&mut self, c: FileCmd) -> Result<Reply> {
        Ok(match c {
            FileCmd::Trace(p) => {
                self.set_trace(p.as_deref())?;
                Reply::Trace(p)
            }
            FileCmd::SaveState(p) => {
                self.save_state(&p)?;
                Reply::StateSaved(p)
            }
            FileCmd::LoadState(p) => {
                self.load_state(&p)?;
                Reply::StateLoaded(p, self.regs())
            }
            FileCmd::Screenshot(p) => {
                let f = self.core.m.render();
                write_png(&p, f.width as u32, f.height as u32, &f.rgb)?;
                Reply::Screenshot {
                    path: p,
                    width: f.width,
                    height: f.height,
                }
            }
        })
    }
}

fn write_png(path: &Path, w: u32, h: u32, rgb: &[u8]) -> Result<()> {
    let png_err = |e: png::EncodingError| Error::Png {
        path: path.into(),
        msg: e.to_string(),
    };
    crate::app::output::write_png(path, w, h, rgb).map_err(png_err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debug::command::{MachineCmd, Which};
    use crate::debug::engine::{End, Stop};
    use crate::debug::parse::Addr;

    /// roms/dos/hello.com (prints "Hello, world", exits with 7) at its
    /// entry.
    fn hello() -> Debugger {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../roms/dos");
        let image = std::fs::read(root.join("hello.com")).expect("roms/dos/hello.com");
        let mut dos = dos::Dos::new(dos::DosConfig::new(root.clone())).expect("mount");
        let mut m = hw::Machine::new(hw::MachineConfig::default());
        dos.install(&mut m);
        dos.load(&mut m, &image, "C:\\HELLO.COM", b"")
            .expect("loads");
        Debugger::new(m, dos, root)
    }

    #[test]
    fn commands_return_data_and_typed_errors() {
        let mut s = hello();
        let Ok(Reply::Regs(r)) = s.execute(Command::Machine(MachineCmd::SetRegs(vec![(
            "bx".into(),
            Val::Num(0x1234),
        )]))) else {
            panic!("registers")
        };
        assert_eq!(r.r.gpr[3] & 0xFFFF, 0x1234);
        let bad = s.execute(Command::Machine(MachineCmd::SetRegs(vec![(
            "zz".into(),
            Val::Num(1),
        )])));
        assert!(matches!(bad, Err(Error::BadRegister(n)) if n == "zz"));
        let gone = s.execute(Command::Break(BreakCmd::Delete(Which::One(3))));
        assert!(matches!(gone, Err(Error::NoSuchBreakpoint(3))));
        let past = s.execute(Command::Break(BreakCmd::Add {
            spec: BpSpec::Mem {
                read: true,
                write: false,
                addr: Addr::Linear(u32::MAX),
                len: 2,
            },
            cond: None,
            text: String::new(),
        }));
        assert!(matches!(past, Err(Error::BadAddress { .. })));
        let Ok(Reply::Disasm { current, insns }) =
            s.execute(Command::View(ViewCmd::Disasm { at: None, count: 2 }))
        else {
            panic!("disassembly")
        };
        assert_eq!((insns[0].seg, insns[0].off), current);
        assert_eq!(insns.len(), 2);
    }

    #[test]
    fn a_budget_over_the_longest_run_is_refused() {
        let s = hello();
        let hz = s.core.m.config().cpu_hz;
        assert_eq!(s.cycles_of(Budget::Seconds(2)).ok(), Some(2 * hz));
        let longest = MAX_SECONDS * hz;
        assert_eq!(s.cycles_of(Budget::Cycles(longest)).ok(), Some(longest));
        for b in [
            Budget::Cycles(longest + 1),
            Budget::Cycles(u64::MAX),
            Budget::Seconds(MAX_SECONDS + 1),
            Budget::Seconds(u64::MAX),
        ] {
            assert!(
                matches!(s.cycles_of(b), Err(Error::BudgetTooLong { .. })),
                "{b:?}"
            );
        }
    }

    #[test]
    fn a_step_stops_at_its_budget() {
        let mut s = hello();
        let r = s.execute(Command::Run(RunCmd::Step(u64::MAX, Budget::Cycles(500))));
        assert!(
            matches!(
                r,
                Ok(Reply::Stopped {
                    stop: Stop::Limit,
                    ..
                })
            ),
            "{r:?}"
        );
    }

    #[test]
    fn a_run_returns_its_stop_and_the_guest_output() {
        let mut s = hello();
        let r = s.execute(Command::Run(RunCmd::Continue(Budget::Seconds(10))));
        let Ok(Reply::Stopped { stop, output }) = r else {
            panic!("a stop")
        };
        assert!(matches!(stop, Stop::Exited(7)), "{stop:?}");
        assert!(String::from_utf8_lossy(&output).contains("Hello"));
        // The end is kept: a further run stops at once.
        let again = s.execute(Command::Run(RunCmd::Step(1, Budget::Seconds(1))));
        assert!(matches!(
            again,
            Ok(Reply::Stopped {
                stop: Stop::Ended(End::Exited(7)),
                ..
            })
        ));
    }
}
