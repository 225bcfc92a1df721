//! The GF1's two AdLib-compatible timers (ToolKit, "Timer control"):
//! timer 1 counts 80 us ticks, timer 2 320 us ticks, each from its count
//! (46h, 47h) up to 256, then reloads. An overflow sets the timer's flag
//! in the status (2X8) unless masked (2X9 bits 6 and 5), and its
//! interrupt (2X6 bits 2 and 3) when enabled in 45h (bits 2 and 3);
//! clearing the enable bit clears the interrupt.

/// Tick length of timer 1 and timer 2 in microseconds.
pub const TICK_US: [u64; 2] = [80, 320];

/// One timer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Timer {
    /// The count it starts from (46h or 47h).
    pub count: u8,
    /// Started (2X9 bit 0 or 1).
    pub running: bool,
    /// Overflows leave no status flag (2X9 bit 6 or 5).
    pub masked: bool,
    /// Status flag (2X8 bit 6 or 5).
    pub expired: bool,
    /// Interrupt enabled (45h bit 2 or 3).
    pub irq_enable: bool,
    /// Interrupt pending (2X6 bit 2 or 3).
    pub irq: bool,
    /// The cycle of the next overflow while running.
    pub next: u64,
}

impl Timer {
    /// Cycles per period: (256 - count) ticks of `tick` cycles.
    fn period(&self, tick: u64) -> u64 {
        (256 - u64::from(self.count)) * tick
    }

    /// Starts (or stops) the timer at cycle `now`, `tick` cycles a tick.
    pub fn set_running(&mut self, on: bool, now: u64, tick: u64) {
        if on && !self.running {
            self.next = now + self.period(tick);
        }
        self.running = on;
    }

    /// Runs to cycle `now`: every overflow due by then.
    pub fn advance(&mut self, now: u64, tick: u64) {
        while self.running && self.next <= now {
            if !self.masked {
                self.expired = true;
            }
            if self.irq_enable {
                self.irq = true;
            }
            self.next += self.period(tick).max(1);
        }
    }

    /// When it next matters to the interrupt line: the next overflow while
    /// it runs with its interrupt enabled.
    pub fn next_irq(&self) -> Option<u64> {
        (self.running && self.irq_enable).then_some(self.next)
    }
}
