//! Something that watches the program as the debugger runs it forwards
//! into new territory: the golden master's lock-step check
//! ([`crate::golden::live::Live`], `tandem debug --ui --profile`). Its
//! hooks are armed after the breakpoints' (a stop of its own is never a
//! breakpoint); what they saw reaches it once, the first time the machine
//! runs there, never again when the history replays that stretch.

use emu::{HookRecord, Hooks};

/// A watcher of the program's first run through each stretch.
pub trait Observer {
    /// Adds its hooks (recording ones, and stopping ones where it must
    /// look at the machine before an instruction runs).
    fn hooks(&self, h: &mut Hooks);
    /// Takes in what its hooks saw, oldest first; `at_stop`: the CPU stands
    /// at one of its stopping hooks. Returns a divergence, which stops the
    /// run.
    fn seen(
        &mut self,
        core: &mut dos::Session,
        log: Vec<HookRecord>,
        at_stop: bool,
    ) -> Option<String>;
    /// The user changed the machine at `cycle`, before what was watched:
    /// the watch's own state no longer matches the timeline.
    fn forked(&mut self, cycle: u64);
    /// Itself, for a front end that knows its type.
    fn as_any(&self) -> &dyn std::any::Any;
}

impl super::engine::Debugger {
    /// Hands the observer what its hooks saw, the first time the machine
    /// runs there (`at_stop`: the CPU stands at one of its stopping
    /// hooks); a divergence it reports is the stop.
    pub(super) fn observe(&mut self, at_stop: bool) -> Option<super::engine::Stop> {
        let first = self.observer_first;
        let obs = self.observer.as_mut()?;
        let h = self.core.m.cpu.hooks.as_mut()?;
        if h.log.is_empty() && !at_stop {
            return None;
        }
        let (own, rest): (Vec<HookRecord>, Vec<HookRecord>) = std::mem::take(&mut h.log)
            .into_iter()
            .partition(|r| r.hook >= first);
        h.log = rest;
        let now = self.core.m.cycles();
        // A replay of the history (reverse commands, queries) sees what
        // was seen before.
        if self.history.as_ref().is_some_and(|h| h.gathering.is_some()) {
            return None;
        }
        let seen_to = self.observed_to;
        let stop_seen = self.observed_stop;
        if at_stop && stop_seen.is_some_and(|c| now <= c) {
            return None;
        }
        let own: Vec<HookRecord> = own
            .into_iter()
            .filter(|r| seen_to.is_none_or(|c| r.cycle >= c))
            .filter(|r| {
                !(matches!(r.event, emu::HookEvent::Exec { .. })
                    && stop_seen.is_some_and(|c| r.cycle <= c))
            })
            .collect();
        if own.is_empty() && !at_stop {
            return None;
        }
        let r = obs.seen(&mut self.core, own, at_stop);
        self.observed_to = Some(seen_to.map_or(now, |c| c.max(now)));
        if at_stop {
            self.observed_stop = Some(now);
        }
        r.map(super::engine::Stop::Diverged)
    }
}
