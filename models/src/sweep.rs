//! Sweeps: run a routine of the original program over its whole input
//! domain and compare every result with the model.
//!
//! The models read their tables from the memory of the *reference* program
//! (the golden master): normally the same program, loaded on its own; for a
//! built-in replica profile the pristine replica, so that an altered program
//! (a mutant, or a patched game) is compared against the original's data.
//!
//! - fountain: every clock of the 2,048-unit cycle x the six parameters
//!   (12,288 words);
//! - state selection: every state byte on every city-model definition of
//!   banks 30, 31 and 32 (special objects are not link records and are
//!   skipped).

use emu::{Bus, Cpu, SegReg};

use crate::call::call_near;
use crate::error::Error;
use crate::fountain::{fountain_in, CYCLE};
use crate::memory::{GuestMemory, Placement};
use crate::profile::Profile;
use crate::state::select;

/// The first disagreement of a sweep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// What was swept over at that point (for example `clock 0123h`).
    pub input: String,
    /// Which output differs (for example `slot 10`).
    pub output: String,
    /// What the model says.
    pub expected: i64,
    /// What the original code produced.
    pub actual: i64,
}

/// The result of a sweep.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Outputs that agree.
    pub equal: u64,
    /// Outputs compared.
    pub total: u64,
    /// The first disagreement, if any.
    pub first: Option<Mismatch>,
}

impl SweepReport {
    fn check(&mut self, ok: bool, m: impl FnOnce() -> Mismatch) {
        self.total += 1;
        if ok {
            self.equal += 1;
        } else if self.first.is_none() {
            self.first = Some(m());
        }
    }
}

/// Instructions allowed per call before a routine counts as stuck.
const MAX_STEPS: u64 = 100_000;

/// A sweep's setting: the CPU and bus running the program under test
/// (placed at `at`), and the reference program's memory its models read
/// (placed at `ref_at`).
pub struct Sweep<'a, B: Bus + GuestMemory, R: GuestMemory + ?Sized> {
    /// The CPU running the program under test.
    pub cpu: &'a mut Cpu,
    /// Its bus.
    pub bus: &'a mut B,
    /// The memory of the reference program (the golden master).
    pub reference: &'a R,
    /// Where the program keeps each routine and table.
    pub profile: &'a Profile,
    /// The program under test's segments.
    pub at: Placement,
    /// The reference program's segments.
    pub ref_at: Placement,
}

impl<B: Bus + GuestMemory, R: GuestMemory + ?Sized> Sweep<'_, B, R> {
    /// Calls the routine at `ip` of the code segment with the stack in the
    /// data group (near its top).
    fn call(&mut self, ip: u16) -> Result<(), Error> {
        let at = self.at;
        call_near(
            self.cpu,
            self.bus,
            at.code_seg,
            ip,
            at.data_seg,
            0xFFF0,
            MAX_STEPS,
        )?;
        Ok(())
    }

    /// Sweeps the fountain over all 2,048 clocks: for each, writes the
    /// clock word, calls the routine, and compares the six parameters with
    /// the model. `progress` gets the number of clocks done.
    pub fn fountain(&mut self, mut progress: impl FnMut(u64)) -> Result<SweepReport, Error> {
        let (profile, at) = (self.profile, self.at);
        let mut r = SweepReport::default();
        let clock_addr = at.code(profile.code.clock);
        let params = profile.fountain_params();
        for clock in 0..CYCLE {
            self.bus.mem_write8(clock_addr, clock as u8);
            self.bus.mem_write8(clock_addr + 1, (clock >> 8) as u8);
            self.cpu.regs.set_sreg(SegReg::DS, at.data_seg);
            self.cpu.regs.set_sreg(SegReg::ES, at.data_seg);
            self.call(profile.code.fountain)?;
            let want = fountain_in(self.reference, profile, self.ref_at, clock);
            for (k, &w) in want.iter().enumerate() {
                let got = self.bus.read16(at.data(params.wrapping_add(2 * k as u16))) as i16;
                r.check(got == w, || Mismatch {
                    input: format!("clock {clock:04X}h"),
                    output: format!("slot {}", profile.data.fountain_slot as usize + k),
                    expected: w as i64,
                    actual: got as i64,
                });
            }
            progress(clock as u64 + 1);
        }
        Ok(r)
    }

    /// Sweeps the state selection routine over every state byte of every
    /// city-model definition of banks 30, 31 and 32, as the program's bank
    /// directory lists them (profile `data.banks`, `code.state_select`).
    pub fn state_selection(&mut self, mut progress: impl FnMut(u64)) -> Result<SweepReport, Error> {
        let banks = self
            .profile
            .require(self.profile.data.banks, "data.banks")?;
        let routine = self
            .profile
            .require(self.profile.code.state_select, "code.state_select")?;
        let (reference, ref_at) = (self.reference, self.ref_at);
        let base = ref_at.data(0);
        let mut r = SweepReport::default();
        let mut done = 0;
        for (i, bank) in [30u8, 31, 32].into_iter().enumerate() {
            let table = reference.read16(ref_at.data(banks.wrapping_add(2 * i as u16)));
            let count = reference.read8(ref_at.data(table));
            for d in 0..count as u16 {
                let entry = table.wrapping_add(1 + 3 * d);
                let kind = reference.read8(ref_at.data(entry));
                let header = reference.read16(ref_at.data(entry.wrapping_add(1)));
                if kind != 0 {
                    continue; // a special object: not a link record
                }
                for state in 0..=255u8 {
                    self.cpu.regs.set_sreg(SegReg::DS, self.at.data_seg);
                    self.cpu.regs.put16(6, header);
                    self.cpu.regs.put16(0, (bank as u16) << 8 | state as u16);
                    self.call(routine)?;
                    let got = self.cpu.regs.get16(6);
                    let want = select(reference, base, header, state, bank);
                    r.check(got == want, || Mismatch {
                        input: format!(
                            "bank {bank}, definition {d} at {header:04X}h, state {state:02X}h"
                        ),
                        output: "selected header".to_string(),
                        expected: want as i64,
                        actual: got as i64,
                    });
                    done += 1;
                    progress(done);
                }
            }
        }
        Ok(r)
    }
}
