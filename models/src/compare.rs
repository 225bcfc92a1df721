//! Lock-step comparison: at every frame of the running program, the clock
//! must have advanced by the IRQ0 count and the parameter table must equal
//! what the models say. The first divergence is reported with its frame,
//! clock, slot, expected and actual values.
//!
//! The frame point is the entry of the program's per-frame update (profile
//! `code.frame_update`): there the previous frame's parameters are complete
//! and the snapshot word holds the clock they were computed for.

use crate::fountain::fountain_in;
use crate::landing::landing_update;
use crate::memory::{GuestMemory, Placement};
use crate::profile::Profile;

/// What went wrong at a frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The frame (0 = the first frame point).
    pub frame: u64,
    /// The clock word at that frame.
    pub clock: u16,
    /// The parameter slot that differs, or `None` for the clock itself.
    pub slot: Option<u8>,
    /// What the models say.
    pub expected: i64,
    /// What the program holds.
    pub actual: i64,
    /// A description.
    pub what: String,
}

/// The lock-step checker.
#[derive(Clone, Debug)]
pub struct LockStep {
    profile: Profile,
    frame: u64,
    last_counter: Option<u16>,
    last_irqs: u64,
    last_clock: u16,
    landing: Option<u16>,
    baseline: Vec<i16>,
    clocks: Vec<u16>,
}

impl LockStep {
    /// A checker for `profile`. `baseline` holds the parameter table as the
    /// reference program holds it before any frame (slots the models do not
    /// drive must keep these values).
    pub fn new(profile: Profile, baseline: Vec<i16>) -> Self {
        LockStep {
            profile,
            frame: 0,
            last_counter: None,
            last_irqs: 0,
            last_clock: 0,
            landing: None,
            baseline,
            clocks: Vec::new(),
        }
    }

    /// Reads the 256-entry parameter table of a program.
    pub fn table(mem: &(impl GuestMemory + ?Sized), profile: &Profile, at: Placement) -> Vec<i16> {
        (0..256u16)
            .map(|s| mem.read16(at.data(profile.data.params.wrapping_add(2 * s))) as i16)
            .collect()
    }

    /// Frames checked so far.
    pub fn frames(&self) -> u64 {
        self.frame
    }

    /// The clocks of the first 64 frames checked (a record of what was
    /// sampled, for reports and tests).
    pub fn clocks(&self) -> &[u16] {
        &self.clocks
    }

    /// Checks one frame point. `mem`/`at` are the running program; `reference`/
    /// `ref_at` the reference whose tables the models read. `irqs` is the
    /// number of IRQ0s since the last frame point and `advance` the sum of
    /// the step immediate's values at each of them (the caller reads the
    /// immediate as each IRQ0 is delivered, so a patch between two
    /// interrupts counts from the next one).
    pub fn check(
        &mut self,
        mem: &(impl GuestMemory + ?Sized),
        at: Placement,
        reference: &(impl GuestMemory + ?Sized),
        ref_at: Placement,
        irqs: u64,
        advance: u16,
    ) -> Result<(), Divergence> {
        let p = &self.profile;
        let frame = self.frame;
        let clock = mem.read16(at.code(p.code.clock));
        if self.clocks.len() < 64 {
            self.clocks.push(clock);
        }
        let diverge = |slot: Option<u8>, expected: i64, actual: i64, what: String| Divergence {
            frame,
            clock,
            slot,
            expected,
            actual,
            what,
        };
        // The clock: the counter advances by the step immediate per IRQ0
        // (the self-modifying ADD), and the snapshot catches up with it once
        // per frame.
        if let Some(counter) = p.code.counter {
            let now = mem.read16(at.code(counter));
            if let Some(last) = self.last_counter {
                let want = last.wrapping_add(advance);
                if now != want {
                    return Err(diverge(
                        None,
                        want as i64,
                        now as i64,
                        format!(
                            "the counter advanced by {} over {irqs} IRQ0s whose step immediates add up to {advance}",
                            now.wrapping_sub(last),
                        ),
                    ));
                }
            }
            self.last_counter = Some(now);
        }
        self.last_irqs += irqs;
        if frame == 0 {
            // Before the first update the table holds the program's start
            // values; the models take over from the next frame.
            self.last_clock = clock;
            self.frame += 1;
            if p.data.landing_slot.is_some() {
                self.landing = Some(0);
            }
            return Ok(());
        }
        let mut want: Vec<i16> = self.baseline.clone();
        let f = fountain_in(reference, p, ref_at, clock);
        let first = p.data.fountain_slot as usize;
        want[first..first + 6].copy_from_slice(&f);
        if let (Some(slot), Some(l)) = (p.data.landing_slot, self.landing) {
            let l = landing_update(l, clock.wrapping_sub(self.last_clock));
            self.landing = Some(l);
            want[slot as usize] = l as i16;
        }
        let got = LockStep::table(mem, p, at);
        if let Some(s) = (0..256).find(|&s| got[s] != want[s]) {
            return Err(diverge(
                Some(s as u8),
                want[s] as i64,
                got[s] as i64,
                format!("parameter slot {s} differs"),
            ));
        }
        self.last_clock = clock;
        self.frame += 1;
        Ok(())
    }
}
