//! Recording the history while the debugger runs forwards: each step's
//! record, a checkpoint every so many steps in new territory, and, in
//! recorded territory, the user's changes replayed at their cycles.

use super::StepRecord;
use crate::debug::engine::Debugger;
use crate::debug::error::Error;

impl Debugger {
    /// After a step that ran: keeps its record; in recorded territory
    /// restores the checkpoint of a change of the user's made at this cycle
    /// (the recorded input, replayed), in new territory takes a checkpoint
    /// when one is due.
    pub(in crate::debug) fn stepped(&mut self, rec: StepRecord) {
        let now = self.core.m.cycles();
        let Some(h) = self.history.as_mut() else {
            return;
        };
        h.push_step(rec);
        if h.gathering.is_some() {
            return;
        }
        if rec.cycle < h.frontier {
            if let Some(k) = h.change_in(rec.cycle, now) {
                let at = h.checkpoints[k].cycle;
                if at == now {
                    if let Err(e) = self.restore(k) {
                        self.lose_history(&e);
                        return;
                    }
                    self.arm();
                } else {
                    // The replay went past the change's cycle without
                    // stopping there: the change cannot be replayed.
                    eprintln!(
                        "tandem debug: history: the change recorded at cycle {at} was not \
                         reached exactly; the recorded future after cycle {now} is dropped"
                    );
                    h.fork(now);
                }
            }
        }
        let Some(h) = self.history.as_mut() else {
            return;
        };
        if now > h.frontier {
            h.frontier = now;
            if h.due() {
                if let Err(e) = self.checkpoint(false) {
                    self.lose_history(&e);
                }
            }
        }
    }

    /// Stops keeping a history that failed (a checkpoint that could not be
    /// taken or restored), saying why.
    pub(in crate::debug) fn lose_history(&mut self, e: &Error) {
        if self.history.take().is_some() {
            eprintln!("tandem debug: history: {e}; no history is kept from here on");
        }
    }
}
