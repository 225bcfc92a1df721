//! Questions about the past: every write to a range of memory, or to a
//! port, within the kept history. The history is replayed from its first
//! checkpoint with a hook on the range; the BIOS and DOS services' writes
//! are watched too (they run on the host, where the CPU's hooks do not see
//! them), and so are the user's changes. Then the machine returns to where
//! it was.

use dos::{Exit, ServiceWatch, ServiceWrite};
use emu::{HookAction, HookEvent, HookKind, HookRecord};

use crate::debug::engine::Debugger;
use crate::debug::error::{Error, Result};
pub use crate::debug::writes::{Write, Writer, MAX_QUERY};

/// What a replay saw.
enum Seen<'a> {
    /// The replay starts (the first checkpoint is restored).
    Start,
    /// Hook events of instructions.
    Cpu(&'a [HookRecord]),
    /// Service calls that changed the watched range.
    Services(Vec<ServiceWrite>),
    /// A change of the user's was restored.
    Change,
}

impl Debugger {
    /// Every write to `len` bytes from linear `start` within the history,
    /// oldest first.
    pub fn history_mem(&mut self, start: u32, len: u32) -> Result<Vec<Write>> {
        let len = len.max(1);
        if len as u64 > MAX_QUERY {
            return Err(Error::QueryTooLong {
                len: len as u64,
                max: MAX_QUERY,
            });
        }
        let last = start
            .checked_add(len - 1)
            .ok_or(Error::BadAddress { start, len })?;
        let hook = HookKind::MemWrite { start, end: last };
        let mut shadow: Vec<u8> = Vec::new();
        let mut out = Vec::new();
        self.replay_history(hook, Some((start, len)), &mut |s, seen| {
            let sh = &mut shadow;
            match seen {
                Seen::Start => *sh = s.read_mem(start, len as usize),
                Seen::Cpu(recs) => {
                    for r in recs {
                        if let HookEvent::MemWrite {
                            linear,
                            size,
                            value,
                        } = r.event
                        {
                            out.extend(s.cpu_write(r, (linear, size, value), start, sh));
                        }
                    }
                }
                Seen::Services(ws) => {
                    for w in ws {
                        out.extend(diff(s, w.cycle, w.frame, service(&w), start, sh, &w.new));
                    }
                }
                Seen::Change => {
                    let now = s.read_mem(start, len as usize);
                    let cycle = s.core.m.cycles();
                    let frame = s.core.m.bus.vga.frames();
                    out.extend(diff(s, cycle, frame, Writer::User, start, sh, &now));
                }
            }
        })?;
        Ok(out)
    }

    /// Every write to `port` within the history, oldest first (`old` is
    /// the value written before, when there was one).
    pub fn history_port(&mut self, port: u16) -> Result<Vec<Write>> {
        let hook = HookKind::PortWrite {
            start: port,
            end: port,
        };
        let mut prev: Vec<u8> = Vec::new();
        let mut out = Vec::new();
        self.replay_history(hook, None, &mut |s, seen| {
            let Seen::Cpu(recs) = seen else { return };
            for r in recs {
                if let HookEvent::PortWrite { size, value, .. } = r.event {
                    let new = value.to_le_bytes()[..size.clamp(1, 4) as usize].to_vec();
                    out.push(Write {
                        cycle: r.cycle,
                        seconds: s.seconds(r.cycle),
                        frame: s.core.m.bus.vga.frames(),
                        by: Writer::Cpu(s.insn_at(r.cs, r.ip)),
                        addr: port as u32,
                        old: std::mem::replace(&mut prev, new.clone()),
                        new,
                    });
                }
            }
        })?;
        Ok(out)
    }

    /// Emulated seconds since power-on at `cycle`.
    pub fn seconds(&self, cycle: u64) -> f64 {
        cycle as f64 / self.core.m.config().cpu_hz.max(1) as f64
    }

    /// The write of an instruction's hook event `(linear, size, value)`,
    /// as far as it falls in the range from `start` (`shadow` its bytes).
    fn cpu_write(
        &self,
        r: &HookRecord,
        (linear, size, value): (u32, u8, u32),
        start: u32,
        shadow: &mut [u8],
    ) -> Option<Write> {
        let (mut old, mut new, mut first) = (Vec::new(), Vec::new(), None);
        for i in 0..size.min(4) as u32 {
            let at = linear.wrapping_add(i).wrapping_sub(start) as usize;
            if let Some(b) = shadow.get_mut(at) {
                first.get_or_insert(linear.wrapping_add(i));
                old.push(*b);
                *b = (value >> (8 * i)) as u8;
                new.push(*b);
            }
        }
        Some(Write {
            cycle: r.cycle,
            seconds: self.seconds(r.cycle),
            frame: self.core.m.bus.vga.frames(),
            by: Writer::Cpu(self.insn_at(r.cs, r.ip)),
            addr: first?,
            old,
            new,
        })
    }

    /// Replays the history from its start to the position now with `hook`
    /// (and a service watch over `watch`), telling `seen` what happened;
    /// then returns to the position.
    fn replay_history(
        &mut self,
        hook: HookKind,
        watch: Option<(u32, u32)>,
        seen: &mut dyn FnMut(&mut Debugger, Seen),
    ) -> Result<()> {
        self.settle()?;
        let here = self.core.m.cycles();
        self.restore(0)?;
        seen(self, Seen::Start);
        let r = self.replay_watched(here, hook, watch, seen);
        let back = self.land(here);
        r.and(back)
    }

    fn replay_watched(
        &mut self,
        here: u64,
        hook: HookKind,
        watch: Option<(u32, u32)>,
        seen: &mut dyn FnMut(&mut Debugger, Seen),
    ) -> Result<()> {
        loop {
            let now = self.core.m.cycles();
            let next = self
                .kept()?
                .checkpoints
                .iter()
                .enumerate()
                .find(|(_, c)| c.change && c.cycle > now && c.cycle <= here)
                .map(|(k, c)| (k, c.cycle));
            self.watched_run(next.map_or(here, |n| n.1), hook, watch, seen);
            let Some((k, _)) = next else {
                return Ok(());
            };
            self.restore(k)?;
            seen(self, Seen::Change);
        }
    }

    /// Runs to cycle `end` with `hook` stopping the run at each event.
    fn watched_run(
        &mut self,
        end: u64,
        hook: HookKind,
        watch: Option<(u32, u32)>,
        seen: &mut dyn FnMut(&mut Debugger, Seen),
    ) {
        self.core.m.cpu.hooks = None;
        self.core.m.cpu.hooks_mut().add(hook, HookAction::Stop);
        self.core.watch = watch.map(|(s, l)| ServiceWatch::new(s, l));
        loop {
            let exit = self.core.run_until(end);
            self.core.dos.take_output();
            let services = self
                .core
                .watch
                .as_mut()
                .map(|w| std::mem::take(&mut w.writes))
                .unwrap_or_default();
            if !services.is_empty() {
                seen(self, Seen::Services(services));
            }
            let log = self
                .core
                .m
                .cpu
                .hooks
                .as_mut()
                .map(|h| std::mem::take(&mut h.log))
                .unwrap_or_default();
            if !log.is_empty() {
                seen(self, Seen::Cpu(&log));
            }
            match exit {
                Exit::HookStop => {}
                Exit::Limit | Exit::Frame if self.core.m.cycles() < end => {}
                _ => break,
            }
        }
        self.core.watch = None;
        self.core.m.cpu.hooks = None;
    }
}

/// A service call as a writer.
fn service(w: &ServiceWrite) -> Writer {
    let name = match dos::rom::decode(w.trap) {
        Some(dos::rom::Trap::Vector(v)) => format!("INT {v:02X}h AX={:04X}h", w.ax),
        Some(dos::rom::Trap::Sub(k)) => format!("BIOS subroutine {k:X}h"),
        None => format!("service at {:05X}", w.trap),
    };
    Writer::Service {
        name,
        caller: w.caller,
    }
}

/// The write that turned `shadow` (the range from `start`) into `now`, if
/// any byte changed (the changed bytes from the first to the last).
fn diff(
    s: &Debugger,
    cycle: u64,
    frame: u64,
    by: Writer,
    start: u32,
    shadow: &mut Vec<u8>,
    now: &[u8],
) -> Option<Write> {
    let first = shadow.iter().zip(now).position(|(a, b)| a != b)?;
    let last = shadow.iter().zip(now).rposition(|(a, b)| a != b)?;
    let w = Write {
        cycle,
        seconds: s.seconds(cycle),
        frame,
        by,
        addr: start.wrapping_add(first as u32),
        old: shadow[first..=last].to_vec(),
        new: now[first..=last].to_vec(),
    };
    *shadow = now.to_vec();
    Some(w)
}
