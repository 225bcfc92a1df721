//! The event scheduler and the clock arithmetic that ties every device clock
//! to the CPU's cycle counter.
//!
//! Emulated time is the CPU's cycle count (`u64`, since reset). A device that
//! runs on its own crystal (the PIT's 1.193 MHz, the VGA dot clock, the RTC's
//! seconds) converts with [`ClockRatio`], exact integer arithmetic over
//! absolute counts so no remainder is ever lost.
//!
//! The scheduler holds one slot per kind of timed event (the next PIT output
//! edge, the next vertical retrace, the next keyboard byte, the next RTC
//! interrupt). The machine's run loop compares the cycle counter with
//! [`Scheduler::next`] once per instruction and touches devices only when an
//! event is due; devices also catch up lazily when their ports are accessed.

use crate::error::Error;

/// A device clock derived from the CPU clock: `device_hz` ticks per
/// `cpu_hz` CPU cycles. A saved ratio with a zero clock does not load (it
/// would divide by zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "SavedClockRatio")]
pub struct ClockRatio {
    /// Device clock in Hz (or any unit per second).
    pub device_hz: u64,
    /// CPU clock in Hz.
    pub cpu_hz: u64,
}

/// A [`ClockRatio`] as read from a save state, before it is checked.
#[derive(serde::Deserialize)]
struct SavedClockRatio {
    device_hz: u64,
    cpu_hz: u64,
}

impl TryFrom<SavedClockRatio> for ClockRatio {
    type Error = Error;

    fn try_from(r: SavedClockRatio) -> Result<Self, Error> {
        if r.device_hz == 0 || r.cpu_hz == 0 {
            return Err(Error::ZeroClock {
                device_hz: r.device_hz,
                cpu_hz: r.cpu_hz,
            });
        }
        Ok(ClockRatio {
            device_hz: r.device_hz,
            cpu_hz: r.cpu_hz,
        })
    }
}

impl ClockRatio {
    /// A ratio; both clocks must be non-zero (zero is replaced by one).
    pub fn new(device_hz: u64, cpu_hz: u64) -> Self {
        ClockRatio {
            device_hz: device_hz.max(1),
            cpu_hz: cpu_hz.max(1),
        }
    }

    /// Device ticks completed by CPU cycle `cycle`: floor(cycle * dev / cpu).
    #[inline]
    pub fn ticks_at(&self, cycle: u64) -> u64 {
        ((cycle as u128 * self.device_hz as u128) / self.cpu_hz as u128) as u64
    }

    /// The first CPU cycle at which `tick` device ticks have completed:
    /// ceil(tick * cpu / dev).
    #[inline]
    pub fn cycle_of_tick(&self, tick: u64) -> u64 {
        let n = tick as u128 * self.cpu_hz as u128;
        let d = self.device_hz as u128;
        n.div_ceil(d).min(u64::MAX as u128) as u64
    }
}

/// The kinds of timed events, in tie-break order (lower first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[repr(usize)]
pub enum Event {
    /// The next output edge of PIT channel 0 (IRQ0).
    Pit0 = 0,
    /// The next output edge of PIT channel 2 while the speaker is on.
    Pit2 = 1,
    /// The next RTC interrupt condition (periodic, alarm, update-ended).
    Rtc = 2,
    /// The next byte the keyboard sends to the 8042.
    Keyboard = 3,
    /// The next start of vertical retrace (start-address latch, frame end).
    VgaRetrace = 4,
    /// The Sound Blaster 16's next DMA frame (or E2h retry).
    Sb16 = 5,
    /// The Gravis UltraSound's next interrupt, timer overflow or DMA chunk.
    Gus = 6,
    /// The MPU-401 sequencer's next tick that matters.
    Mpu401 = 7,
}

impl Event {
    /// Every event kind, in tie-break order.
    pub const ALL: [Event; EVENT_KINDS] = [
        Event::Pit0,
        Event::Pit2,
        Event::Rtc,
        Event::Keyboard,
        Event::VgaRetrace,
        Event::Sb16,
        Event::Gus,
        Event::Mpu401,
    ];
}

/// Number of event kinds.
pub const EVENT_KINDS: usize = 8;

/// The event kinds a machine had before the sound cards: a slot beyond
/// them enters the state hash only while scheduled, so that a machine
/// that never uses the newer devices hashes as before.
const HASHED_ALWAYS: usize = 5;

/// One time slot per [`Event`]; `u64::MAX` means "not scheduled".
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Scheduler {
    at: [u64; EVENT_KINDS],
    next: u64,
}

impl Default for Scheduler {
    fn default() -> Self {
        Scheduler {
            at: [u64::MAX; EVENT_KINDS],
            next: u64::MAX,
        }
    }
}

impl std::hash::Hash for Scheduler {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.at[..HASHED_ALWAYS].hash(h);
        for (i, t) in self.at.iter().enumerate().skip(HASHED_ALWAYS) {
            if *t != u64::MAX {
                (i, t).hash(h);
            }
        }
        self.next.hash(h);
    }
}

impl Scheduler {
    /// An empty scheduler.
    pub fn new() -> Self {
        Self::default()
    }

    /// The cycle of the earliest scheduled event (`u64::MAX` if none).
    #[inline]
    pub fn next(&self) -> u64 {
        self.next
    }

    /// Schedules `ev` at `cycle` (replacing its previous time); `None`
    /// cancels it.
    pub fn set(&mut self, ev: Event, cycle: Option<u64>) {
        self.at[ev as usize] = cycle.unwrap_or(u64::MAX);
        self.next = self.at.iter().copied().min().unwrap_or(u64::MAX);
    }

    /// When `ev` is scheduled.
    pub fn get(&self, ev: Event) -> Option<u64> {
        let t = self.at[ev as usize];
        (t != u64::MAX).then_some(t)
    }

    /// The earliest event due at or before `now`, if any (ties go to the
    /// lower [`Event`] number). The slot is left set; the caller reschedules.
    pub fn due(&self, now: u64) -> Option<(Event, u64)> {
        if self.next > now {
            return None;
        }
        let mut best: Option<(Event, u64)> = None;
        for ev in Event::ALL {
            let t = self.at[ev as usize];
            let better = match best {
                Some((_, bt)) => t < bt,
                None => true,
            };
            if t <= now && better {
                best = Some((ev, t));
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_is_exact_over_long_runs() {
        let r = ClockRatio::new(1_193_180, 4_772_727);
        // One hour of CPU cycles: the tick count is floor(c * 1193180 / 4772727).
        let c = 4_772_727u64 * 3600;
        assert_eq!(r.ticks_at(c), 1_193_180 * 3600);
        for t in [0u64, 1, 2, 3, 1000, 123_456_789] {
            let c = r.cycle_of_tick(t);
            assert!(r.ticks_at(c) >= t);
            if c > 0 {
                assert!(r.ticks_at(c - 1) < t);
            }
        }
    }

    #[test]
    fn earliest_event_first_ties_by_kind() {
        let mut s = Scheduler::new();
        assert_eq!(s.due(u64::MAX - 1), None);
        s.set(Event::VgaRetrace, Some(100));
        s.set(Event::Pit0, Some(100));
        s.set(Event::Keyboard, Some(50));
        assert_eq!(s.next(), 50);
        assert_eq!(s.due(49), None);
        assert_eq!(s.due(100), Some((Event::Keyboard, 50)));
        s.set(Event::Keyboard, None);
        assert_eq!(s.due(100), Some((Event::Pit0, 100)));
        s.set(Event::Pit0, None);
        assert_eq!(s.due(100), Some((Event::VgaRetrace, 100)));
    }
}
