//! Lock-step comparison: at every frame of the running program, the clock
//! must have advanced by the IRQ0 count and the parameter table must equal
//! what the models say. The first divergence is reported with its frame,
//! clock, slot, expected and actual values.
//!
//! The frame point is the entry of the program's per-frame update (profile
//! `code.frame_update`): there the previous frame's parameters are complete
//! and the snapshot word holds the clock they were computed for.
//!
//! The models that take part are those of the profile's routine sections
//! whose model says what its outputs hold at a frame ([`Model::frame`]):
//! today the fountain and the landing. Their output words are slots of the
//! parameter table (`params`); every other slot must keep its start value.
//!
//! [`Model::frame`]: crate::model::Model::frame

use crate::error::Error;
use crate::memory::{GuestMemory, Placed, Segments};
use crate::model::{Ctx, FrameInput, Output, MAX_OUTPUTS};
use crate::profile::{Profile, Routine, PARAM_SLOTS};
use crate::sweep::Dyn;

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

/// What IRQ0 did between two frame points: how many came, and the sum of
/// the step immediate's values at each of them (read as each IRQ0 is
/// delivered, so a patch between two interrupts counts from the next one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ticks {
    /// IRQ0s since the frame point before.
    pub irqs: u64,
    /// The sum of the step immediates at those IRQ0s.
    pub advance: u16,
}

/// The lock-step checker.
#[derive(Clone, Debug)]
pub struct LockStep {
    profile: Profile,
    frame: u64,
    last_counter: Option<u16>,
    last_irqs: u64,
    last_clock: u16,
    routines: Vec<Routine>,
    states: Vec<i64>,
    baseline: Vec<i16>,
    clocks: Vec<u16>,
}

impl LockStep {
    /// A checker for `profile`. `baseline` holds the parameter table as the
    /// reference program holds it before any frame (slots the models do not
    /// drive must keep these values). A routine section whose symbols the
    /// profile lacks takes no part ([`LockStep::try_new`] says so instead).
    pub fn new(profile: Profile, baseline: Vec<i16>) -> Self {
        let routines = profile
            .routine_names()
            .iter()
            .filter_map(|n| profile.routine(n).ok())
            .collect();
        LockStep::with(profile, baseline, routines)
    }

    /// As [`LockStep::new`], but a routine section whose symbols the
    /// profile lacks is an error naming the routine and the symbol.
    pub fn try_new(profile: Profile, baseline: Vec<i16>) -> Result<Self, Error> {
        let routines = profile
            .routine_names()
            .iter()
            .map(|n| profile.routine(n))
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(LockStep::with(profile, baseline, routines))
    }

    fn with(profile: Profile, baseline: Vec<i16>, routines: Vec<Routine>) -> Self {
        LockStep {
            profile,
            frame: 0,
            last_counter: None,
            last_irqs: 0,
            last_clock: 0,
            states: vec![0; routines.len()],
            routines,
            baseline,
            clocks: Vec::new(),
        }
    }

    /// The routines whose models take part.
    pub fn routines(&self) -> Vec<&str> {
        self.routines.iter().map(|r| r.name.as_str()).collect()
    }

    /// Reads the parameter table of a program ([`PARAM_SLOTS`] words).
    pub fn table(mem: &(impl GuestMemory + ?Sized), profile: &Profile, at: Segments) -> Vec<i16> {
        (0..PARAM_SLOTS as u16)
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

    /// Checks one frame point of the running `program` against the models,
    /// which read their tables from `reference`; `ticks` is what IRQ0 did
    /// since the frame point before.
    pub fn check<P, R>(
        &mut self,
        program: &Placed<P>,
        reference: &Placed<R>,
        ticks: Ticks,
    ) -> Result<(), Divergence>
    where
        P: GuestMemory + ?Sized,
        R: GuestMemory + ?Sized,
    {
        let (mem, at) = (program.mem, program.segs);
        let Ticks { irqs, advance } = ticks;
        let (clock_off, counter) = (self.profile.code.clock, self.profile.code.counter);
        let frame = self.frame;
        let clock = mem.read16(at.code(clock_off));
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
        if let Some(counter) = counter {
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
            return Ok(());
        }
        let got = LockStep::table(mem, &self.profile, at);
        let (want, owner) = self.expected(reference, clock);
        if let Some(s) = (0..PARAM_SLOTS).find(|&s| got[s] != want[s]) {
            let by = owner[s].map_or(String::new(), |r| format!(" (routine {r})"));
            return Err(diverge(
                Some(s as u8),
                want[s] as i64,
                got[s] as i64,
                format!("parameter slot {s}{by} differs"),
            ));
        }
        self.last_clock = clock;
        self.frame += 1;
        Ok(())
    }

    /// The table the models say the program holds at this frame, and the
    /// routine that drives each slot.
    fn expected<R: GuestMemory + ?Sized>(
        &mut self,
        reference: &Placed<R>,
        clock: u16,
    ) -> (Vec<i16>, Vec<Option<&str>>) {
        let mut want = self.baseline.clone();
        want.resize(PARAM_SLOTS, 0);
        let mut owner = vec![None; PARAM_SLOTS];
        let at = FrameInput {
            clock,
            elapsed: clock.wrapping_sub(self.last_clock),
        };
        let mem = Dyn(reference.mem);
        let params = self.profile.symbol("params");
        for (r, state) in self.routines.iter().zip(self.states.iter_mut()) {
            let ctx = Ctx {
                mem: &mem,
                segs: reference.segs,
                routine: r,
            };
            let mut out = [0i64; MAX_OUTPUTS];
            if !r.model.frame(&ctx, &at, state, &mut out) {
                continue;
            }
            let mut k = 0;
            for o in r.model.interface().outputs {
                if let (Output::Words { place, count, .. }, Some((pseg, poff))) = (o, params) {
                    let (seg, off) = r.symbol(place.symbol).unwrap_or((pseg, 0));
                    let first = off.wrapping_add(2 * place.index.map_or(0, |i| r.value(i)));
                    for w in 0..*count {
                        let slot = first.wrapping_add(2 * w).wrapping_sub(poff) / 2;
                        if seg == pseg
                            && (slot as usize) < want.len()
                            && k + (w as usize) < out.len()
                        {
                            want[slot as usize] = out[k + w as usize] as i16;
                            owner[slot as usize] = Some(r.name.as_str());
                        }
                    }
                }
                k += o.len();
            }
        }
        (want, owner)
    }
}
