//! Running backwards: every reverse command finds the cycle it goes to
//! (from the kept step records, or by replaying older stretches of the
//! history), then lands there: restores the latest checkpoint at or before
//! it and steps forwards to it exactly as the debugger steps.

use dos::Exit;
use emu::HookRecord;

use super::{History, StepKind, StepRecord};
use crate::debug::engine::{Debugger, Stop};
use crate::debug::error::{Error, Result};

/// The most step records one search back gathers (16 bytes each: 256 MiB).
const MAX_SEARCH: usize = 1 << 24;

impl Debugger {
    /// The history, or the error of a session that keeps none.
    pub(in crate::debug) fn kept(&self) -> Result<&History> {
        self.history.as_ref().ok_or(Error::NoHistory)
    }

    /// Steps from the position now to the first instruction boundary at or
    /// after `target` (no breakpoints, no trace, the guest's output
    /// dropped); the records of the steps.
    pub(in crate::debug) fn replay_to(&mut self, target: u64) -> Result<Vec<StepRecord>> {
        let trace = self.trace.take();
        let shown = self.output.len();
        self.core.m.cpu.hooks = None;
        if let Some(h) = self.history.as_mut() {
            h.gathering = Some(Vec::new());
        }
        let mut ended = None;
        while self.core.m.cycles() < target {
            if let Some(stop) = self.step_insn() {
                ended = Some(stop);
                break;
            }
        }
        self.output.truncate(shown);
        self.trace = trace;
        let recs = self
            .history
            .as_mut()
            .and_then(|h| h.gathering.take())
            .unwrap_or_default();
        match ended {
            Some(stop) if self.core.m.cycles() < target => Err(Error::History(format!(
                "replaying the history stopped at cycle {} before cycle {target} ({stop:?})",
                self.core.m.cycles()
            ))),
            _ => Ok(recs),
        }
    }

    /// Moves the whole machine to cycle `target` of the history (the first
    /// instruction boundary at or after it).
    pub(in crate::debug) fn land(&mut self, target: u64) -> Result<()> {
        let h = self.kept()?;
        let k = h.at_or_before(target).ok_or(Error::OutsideHistory {
            cycle: target,
            start: h.start().unwrap_or(0),
            end: h.end(),
        })?;
        let from = h.checkpoints[k].cycle;
        let covered = h.steps.front().is_some_and(|s| s.cycle <= from);
        self.restore(k)?;
        let recs = self.replay_to(target)?;
        // A change of the user's made at the cycle landed on is part of
        // the position (the replay stops just before it).
        let now = self.core.m.cycles();
        if let Some(c) = self.kept()?.change_in(now.saturating_sub(1), now) {
            self.restore(c)?;
        }
        if let Some(h) = self.history.as_mut() {
            if covered {
                h.truncate_steps(from);
            } else {
                h.steps.clear();
            }
            for r in recs {
                h.push_step(r);
            }
        }
        // Running on from here does not stop at a breakpoint on this very
        // instruction again (as after a forward stop).
        let pc = self.pc();
        self.core.m.cpu.hooks_mut().resume_at = Some(pc);
        Ok(())
    }

    /// Settles pending changes and checks there is history before the
    /// position now; the cycle the history starts at.
    fn begin_reverse(&mut self) -> Result<u64> {
        self.settle()?;
        let start = self.kept()?.start().ok_or(Error::NoHistory)?;
        if self.core.m.cycles() <= start {
            return Err(Error::HistoryStart(start));
        }
        Ok(start)
    }

    /// Lands on `target`, or on the start of the history when the search
    /// found nothing.
    fn arrive(&mut self, target: Option<u64>, start: u64) -> Result<Stop> {
        match target {
            Some(t) => {
                self.land(t)?;
                Ok(Stop::Stepped)
            }
            None => {
                self.land(start)?;
                Ok(Stop::HistoryStart)
            }
        }
    }

    /// Walks the steps before the position now, newest last, until `pick`
    /// finds its cycle among them: first the kept records, then older
    /// stretches replayed from their checkpoints. None when the history
    /// ran out. (The machine is left anywhere: the caller lands.)
    fn search_back(
        &mut self,
        mut pick: impl FnMut(&[StepRecord]) -> Option<u64>,
    ) -> Result<Option<u64>> {
        let now = self.core.m.cycles();
        let mut recs: Vec<StepRecord> = self.kept()?.steps.iter().copied().collect();
        loop {
            if let Some(t) = pick(&recs) {
                return Ok(Some(t));
            }
            let before = recs.first().map_or(now, |r| r.cycle);
            let Some(k) = self.kept()?.before(before) else {
                return Ok(None);
            };
            if recs.len() > MAX_SEARCH {
                return Err(Error::History(format!(
                    "searched {} steps back without finding it",
                    recs.len()
                )));
            }
            self.restore(k)?;
            let mut older = self.replay_to(before)?;
            older.append(&mut recs);
            recs = older;
        }
    }

    /// `reverse-step N`: back N instructions (to the start of the history
    /// if it holds fewer).
    pub fn reverse_step(&mut self, n: u64) -> Result<Stop> {
        let start = self.begin_reverse()?;
        let now = self.core.m.cycles();
        // Counted stretch by stretch, newest first, keeping only the one
        // the target falls in (N may reach far back).
        let mut left = n.max(1);
        let mut recs: Vec<StepRecord> = self.kept()?.steps.iter().copied().collect();
        loop {
            let have = recs.len() as u64;
            if have >= left {
                let target = recs[(have - left) as usize].cycle;
                return self.arrive(Some(target), start);
            }
            left -= have;
            let before = recs.first().map_or(now, |r| r.cycle);
            let Some(k) = self.kept()?.before(before) else {
                return self.arrive(None, start);
            };
            self.restore(k)?;
            recs = self.replay_to(before)?;
        }
    }

    /// Back one instruction (gdb's `reverse-stepi`).
    pub fn reverse_step_one(&mut self) -> Result<Stop> {
        self.reverse_step(1)
    }

    /// `reverse-next`: back one instruction, over a whole routine when the
    /// previous instruction returned from it (to its CALL or INT), and over
    /// all the iterations of a REP string instruction.
    pub fn reverse_next(&mut self) -> Result<Stop> {
        let start = self.begin_reverse()?;
        let (cs, ip) = self.cs_ip();
        let (ss, sp) = self.stack_now();
        let mut prev: Option<StepRecord> = None;
        let target = self.search_back(|r| {
            let last = *r.last()?;
            prev.get_or_insert(last);
            match last.kind {
                StepKind::Ret => r
                    .iter()
                    .rev()
                    .find(|c| {
                        matches!(c.kind, StepKind::Call | StepKind::Int)
                            && (c.cs, c.ip.wrapping_add(c.len as u16)) == (cs, ip)
                            && c.ss == ss
                            && c.sp <= sp
                    })
                    .map(|c| c.cycle),
                StepKind::Rep => {
                    let same = r
                        .iter()
                        .rev()
                        .take_while(|c| (c.cs, c.ip, c.kind) == (last.cs, last.ip, last.kind))
                        .count();
                    // All the iterations kept: the first (or look further
                    // back when they reach the oldest record).
                    (same < r.len()).then(|| r[r.len() - same].cycle)
                }
                _ => Some(last.cycle),
            }
        });
        // A routine whose call is older than the history: back into it.
        let target = match target? {
            None => prev.map(|p| p.cycle),
            t => t,
        };
        self.arrive(target, start)
    }

    /// `reverse-finish`: back to the CALL or INT of the routine the
    /// position is in (the innermost frame of the call stack).
    pub fn reverse_finish(&mut self) -> Result<Stop> {
        let start = self.begin_reverse()?;
        let f = *self.frames.last().ok_or(Error::NoCaller)?;
        let target = self.search_back(|r| {
            r.iter()
                .rev()
                .find(|c| (c.cs, c.ip) == f.from && c.ss == f.ss && c.sp > f.sp)
                .map(|c| c.cycle)
        })?;
        self.arrive(target, start)
    }

    /// `reverse-continue`: back to the most recent earlier stop of any
    /// breakpoint, watchpoint, port or interrupt hook (a watchpoint's stop
    /// is before the instruction that made the access), else to the start
    /// of the history.
    pub fn reverse_continue(&mut self) -> Result<Stop> {
        let start = self.begin_reverse()?;
        let mut end = self.core.m.cycles();
        while let Some(k) = self.kept()?.before(end) {
            self.restore(k)?;
            if let Some((n, rec)) = self.last_stop_before(end)? {
                // An execution stop is at its instruction; for an access,
                // the instruction that made it began at this cycle too.
                self.land(rec.cycle)?;
                return Ok(Stop::Breakpoint(n, rec));
            }
            end = self.kept()?.checkpoints[k].cycle;
        }
        self.land(start)?;
        Ok(Stop::HistoryStart)
    }

    /// Runs from the position now to cycle `end` with the breakpoints
    /// armed; the last stop of one on the way (whose condition held).
    fn last_stop_before(&mut self, end: u64) -> Result<Option<(usize, HookRecord)>> {
        self.arm();
        let mut last = None;
        loop {
            let exit = self.core.run_until(end);
            self.core.dos.take_output();
            match exit {
                Exit::HookStop => {
                    let rec = self.core.m.cpu.hooks.as_ref().and_then(|h| h.stopped);
                    if let Some(rec) = rec {
                        if let Some(n) = self.stop_of(&rec) {
                            last = Some((n, rec));
                        }
                    }
                }
                Exit::Limit | Exit::Frame if self.core.m.cycles() < end => {}
                _ => break,
            }
        }
        self.core.m.cpu.hooks = None;
        Ok(last)
    }

    /// `goto CYCLE`: the whole machine to that cycle of the history (the
    /// first instruction boundary at or after it).
    pub fn goto(&mut self, cycle: u64) -> Result<Stop> {
        self.settle()?;
        let h = self.kept()?;
        let (start, end) = (h.start().unwrap_or(0), h.end());
        if cycle < start || cycle > end {
            return Err(Error::OutsideHistory { cycle, start, end });
        }
        self.land(cycle)?;
        Ok(Stop::Stepped)
    }
}
