//! Time travel: the history the debugger keeps so that it can run
//! backwards (docs/debugger.md, "Time travel").
//!
//! tandem is deterministic, so the past is kept as whole-machine
//! checkpoints (`checkpoint.rs`: the save state's bincode in shared 4 KiB
//! chunks) taken every few hundred thousand steps, plus a record of the
//! most recent steps (where each began, and what kind of instruction it
//! was). Going back to a cycle restores the latest checkpoint at or before
//! it and steps forwards to it exactly as the debugger stepped the first
//! time (`reverse.rs`); questions about the past replay it with hooks
//! (`query.rs`).
//!
//! What the user changes (registers, memory, typed keys, a loaded state)
//! is not produced by running, so each change gets a checkpoint of its own
//! right after it: replaying forwards restores it when it reaches that
//! cycle, which replays the change, and a change made in the past forks
//! the timeline there (the recorded future is dropped).

pub mod bench;
pub mod checkpoint;
pub mod query;
mod record;
pub mod reverse;

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use iced_x86::{Instruction, Mnemonic};

use checkpoint::Checkpoint;

/// The default memory budget of the history: 4 GiB, a sixth of a 24 GiB
/// machine (`--history-mib`).
pub const DEFAULT_MIB: u64 = 4096;
/// The most step records kept (16 bytes each: 1 MiB, small enough to stay
/// out of the emulator's way in the caches); older steps are
/// found again by replaying from a checkpoint.
const MAX_STEPS: usize = 1 << 16;
/// Steps between checkpoints at the start; [`History`] adapts it.
const FIRST_INTERVAL: u64 = 200_000;
/// The fewest and the most steps between two checkpoints.
const INTERVAL_RANGE: (u64, u64) = (20_000, 8_000_000);
/// The host time replaying one interval should take at most: going back
/// one step replays at most this long.
const REPLAY_TARGET: Duration = Duration::from_millis(60);
/// A checkpoint may cost at most this fraction of the time forwards
/// execution takes between two (1/40: 2.5%).
const COST_SHARE: u32 = 40;

/// What kind of instruction a step began with (what `reverse-next` and
/// `reverse-finish` look for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// Anything else.
    Plain,
    /// CALL (near or far).
    Call,
    /// INT n, INT3, INTO, INT1.
    Int,
    /// LOOP, LOOPE, LOOPNE.
    Loop,
    /// A string instruction with a REP prefix.
    Rep,
    /// RET, RETF, IRET.
    Ret,
}

impl StepKind {
    /// The kind of `ins`.
    pub fn of(ins: &Instruction) -> StepKind {
        match ins.mnemonic() {
            Mnemonic::Call => StepKind::Call,
            Mnemonic::Int | Mnemonic::Int3 | Mnemonic::Into | Mnemonic::Int1 => StepKind::Int,
            Mnemonic::Loop | Mnemonic::Loope | Mnemonic::Loopne => StepKind::Loop,
            Mnemonic::Ret | Mnemonic::Retf | Mnemonic::Iret | Mnemonic::Iretd => StepKind::Ret,
            _ if ins.has_rep_prefix() || ins.has_repe_prefix() || ins.has_repne_prefix() => {
                StepKind::Rep
            }
            _ => StepKind::Plain,
        }
    }

    /// Whether `next` steps over it (runs until the instruction after it).
    pub fn stepped_over(self) -> bool {
        matches!(
            self,
            StepKind::Call | StepKind::Int | StepKind::Loop | StepKind::Rep
        )
    }
}

/// Where one step of the debugger began: an instruction boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepRecord {
    /// The CPU clock.
    pub cycle: u64,
    /// CS.
    pub cs: u16,
    /// IP.
    pub ip: u16,
    /// SS.
    pub ss: u16,
    /// SP.
    pub sp: u16,
    /// The instruction's length in bytes.
    pub len: u8,
    /// Its kind.
    pub kind: StepKind,
}

/// The history: checkpoints, the latest steps, and the memory they take.
pub struct History {
    /// Checkpoints by cycle (the first is the start of the history).
    pub(super) checkpoints: Vec<Checkpoint>,
    /// The steps that led to the current position, oldest first (at most
    /// [`MAX_STEPS`]; none before the first checkpoint).
    pub(super) steps: VecDeque<StepRecord>,
    /// Steps being gathered by a replay instead of kept.
    pub(super) gathering: Option<Vec<StepRecord>>,
    /// The memory budget in bytes.
    budget: usize,
    /// Bytes the checkpoints hold.
    held: usize,
    /// Steps between checkpoints.
    interval: u64,
    /// Steps since the last checkpoint, in new territory.
    since: u64,
    /// The latest cycle recorded: past it, running makes new history.
    pub(super) frontier: u64,
    /// The user changed the machine since the last checkpoint.
    pub(super) dirty: bool,
    /// When the last checkpoint was taken and how long it took (host time:
    /// where checkpoints fall, never what the machine does).
    last: Option<(Instant, Duration)>,
    /// The budget has been reached (said once).
    full: bool,
    /// The guest's changes to drive C:'s folder, taken back when a
    /// checkpoint is restored.
    pub(super) journal: dos::journal::SharedJournal,
}

impl History {
    /// An empty history that may hold `mib` MiB of checkpoints.
    pub fn new(mib: u64) -> History {
        History {
            checkpoints: Vec::new(),
            steps: VecDeque::new(),
            gathering: None,
            budget: (mib.saturating_mul(1 << 20)).min(usize::MAX as u64) as usize,
            held: 0,
            interval: FIRST_INTERVAL,
            since: 0,
            frontier: 0,
            dirty: false,
            last: None,
            full: false,
            journal: Default::default(),
        }
    }

    /// The cycle the history starts at (None before the first checkpoint).
    pub fn start(&self) -> Option<u64> {
        self.checkpoints.first().map(|c| c.cycle)
    }

    /// The latest cycle recorded.
    pub fn end(&self) -> u64 {
        self.frontier
    }

    /// The memory budget in MiB.
    pub fn budget_mib(&self) -> u64 {
        (self.budget >> 20) as u64
    }

    /// How many checkpoints are kept.
    pub fn checkpoints(&self) -> usize {
        self.checkpoints.len()
    }

    /// Bytes the checkpoints hold.
    pub fn bytes(&self) -> usize {
        self.held
    }

    /// Steps between checkpoints now.
    pub fn interval(&self) -> u64 {
        self.interval
    }

    /// The index of the latest checkpoint at or before `cycle`.
    pub(super) fn at_or_before(&self, cycle: u64) -> Option<usize> {
        let n = self.checkpoints.partition_point(|c| c.cycle <= cycle);
        n.checked_sub(1)
    }

    /// The index of the latest checkpoint strictly before `cycle`.
    pub(super) fn before(&self, cycle: u64) -> Option<usize> {
        let n = self.checkpoints.partition_point(|c| c.cycle < cycle);
        n.checked_sub(1)
    }

    /// A checkpoint of a change of the user's in `(from, to]`, if any.
    pub(super) fn change_in(&self, from: u64, to: u64) -> Option<usize> {
        let i = self.checkpoints.partition_point(|c| c.cycle <= from);
        (i..self.checkpoints.len())
            .take_while(|&k| self.checkpoints[k].cycle <= to)
            .find(|&k| self.checkpoints[k].change)
    }

    /// Keeps a step that ran (or gathers it during a replay).
    pub(super) fn push_step(&mut self, r: StepRecord) {
        if let Some(g) = self.gathering.as_mut() {
            g.push(r);
            return;
        }
        if self.steps.len() == MAX_STEPS {
            self.steps.pop_front();
        }
        self.steps.push_back(r);
    }

    /// Whether a periodic checkpoint is due after one more step in new
    /// territory.
    pub(super) fn due(&mut self) -> bool {
        self.since += 1;
        self.since >= self.interval
    }

    /// Drops everything recorded after `cycle` (the timeline forks there).
    pub(super) fn fork(&mut self, cycle: u64) {
        while self.checkpoints.last().is_some_and(|c| c.cycle > cycle) {
            if let Some(c) = self.checkpoints.pop() {
                self.held -= c.unshared_bytes();
            }
        }
        while self.steps.back().is_some_and(|s| s.cycle >= cycle) {
            self.steps.pop_back();
        }
        self.frontier = cycle;
        self.since = 0;
    }

    /// Keeps the steps before `cycle` (the position moved back to it).
    pub(super) fn truncate_steps(&mut self, cycle: u64) {
        while self.steps.back().is_some_and(|s| s.cycle >= cycle) {
            self.steps.pop_back();
        }
    }

    /// Adds a checkpoint (replacing one at the same cycle), adapts the
    /// interval to what it cost, and drops the oldest history past the
    /// budget. A line for the user when the budget is first reached.
    pub(super) fn add(&mut self, c: Checkpoint, cost: Duration) -> Option<String> {
        // Counted before the one it replaces goes: chunks the two share
        // stay counted once.
        let new = c.unshared_bytes();
        if self.checkpoints.last().is_some_and(|l| l.cycle == c.cycle) {
            if let Some(old) = self.checkpoints.pop() {
                self.held -= old.unshared_bytes();
            }
        }
        self.held += new;
        self.frontier = self.frontier.max(c.cycle);
        self.checkpoints.push(c);
        self.adapt(cost);
        self.since = 0;
        self.trim()
    }

    /// Sets the interval so that replaying one takes about
    /// [`REPLAY_TARGET`] and a checkpoint costs at most 1/[`COST_SHARE`]
    /// of the time between two.
    fn adapt(&mut self, cost: Duration) {
        let now = Instant::now();
        if let Some((then, _)) = self.last {
            let spent = now.saturating_duration_since(then).saturating_sub(cost);
            if self.since > 0 && !spent.is_zero() {
                let want = REPLAY_TARGET.max(cost * COST_SHARE);
                let per_step = spent.as_secs_f64() / self.since as f64;
                let steps = (want.as_secs_f64() / per_step) as u64;
                // Halfway there each time: one slow stretch does not
                // swing it.
                let next = (self.interval + steps) / 2;
                self.interval = next.clamp(INTERVAL_RANGE.0, INTERVAL_RANGE.1);
            }
        }
        self.last = Some((now, cost));
    }

    /// Drops the oldest checkpoints (and their steps) while the history
    /// holds more than its budget, keeping at least two.
    fn trim(&mut self) -> Option<String> {
        let mut dropped = false;
        while self.held > self.budget && self.checkpoints.len() > 2 {
            let c = self.checkpoints.remove(0);
            self.held -= c.unshared_bytes();
            dropped = true;
        }
        if !dropped {
            return None;
        }
        let start = self.start().unwrap_or(0);
        while self.steps.front().is_some_and(|s| s.cycle < start) {
            self.steps.pop_front();
        }
        if let Ok(mut j) = self.journal.lock() {
            j.forget_before(start);
        }
        if std::mem::replace(&mut self.full, true) {
            return None;
        }
        Some(format!(
            "history: the memory budget ({} MiB, --history-mib) is full: the oldest history is \
             dropped from now on (it starts at cycle {start})",
            self.budget >> 20
        ))
    }
}
