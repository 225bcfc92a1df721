//! Runs the 386 real-mode vectors and the x87 and 486 vectors
//! ([`crate::vectors`]) against the CPU core.
//!
//! An x87 test fits the CPU with a unit loaded from `initial.fpu` (the
//! FRSTOR equivalent, [`X87::from_saved`]) and compares `final.fpu` field by
//! field, leaving out the test's `fpu_unchecked`. Tests marked with
//! `departures` (where Unicorn departs from Intel's manual) are skipped and
//! counted per code.
//!
//! The runner sets [`Cpu::stop_on_fault`] so that a fault leaves the state at
//! the faulting instruction, as the vectors record it, and compares the
//! vector number. Memory is a flat 2 MiB with no A20 wrap (the vectors reach
//! 10FFEFh).

use std::collections::BTreeMap;
use std::path::Path;

use emu::x87::X87;
use emu::{Cpu, CpuModel, FlatBus, SegReg, StepEvent};

use crate::error::SstError;
use crate::metadata::FormStatus;
use crate::report::{Failure, FileResult, RamDiff, RegDiff, Tally};
use crate::vectors::{read_vector_file, Departure, FpuState, Vector};

use super::regs::Slot;

/// The register names of the format, in report order, with their place in
/// [`emu::Registers`]: general registers by ModR/M number (`Gpr`),
/// segment registers, EIP and EFLAGS.
const REGS: [(&str, Slot); 16] = [
    ("eax", Slot::Gpr(0)),
    ("ebx", Slot::Gpr(3)),
    ("ecx", Slot::Gpr(1)),
    ("edx", Slot::Gpr(2)),
    ("esi", Slot::Gpr(6)),
    ("edi", Slot::Gpr(7)),
    ("ebp", Slot::Gpr(5)),
    ("esp", Slot::Gpr(4)),
    ("cs", Slot::Seg(SegReg::CS)),
    ("ds", Slot::Seg(SegReg::DS)),
    ("es", Slot::Seg(SegReg::ES)),
    ("ss", Slot::Seg(SegReg::SS)),
    ("fs", Slot::Seg(SegReg::FS)),
    ("gs", Slot::Seg(SegReg::GS)),
    ("eip", Slot::Ip),
    ("eflags", Slot::Flags),
];

/// Runs the vectors of one file: the 386 set, and the x87 and 486 sets of
/// `tools/genx87` (an FPU is fitted when a test carries an FPU state).
pub struct VectorRunner {
    bus: FlatBus,
    model: CpuModel,
}

/// The outcome of a list of vectors: the tests run, and those skipped
/// because the recording departs from Intel's manual, per code.
#[derive(Debug, Default)]
pub struct VectorTally {
    /// The tests run (every test without a departure).
    pub tally: Tally,
    /// Tests skipped, per departure (a test with two codes counts twice).
    pub skipped: BTreeMap<Departure, u32>,
    /// Tests skipped in all.
    pub skipped_tests: u32,
}

impl VectorRunner {
    /// A runner for `model`.
    pub fn new(model: CpuModel) -> Self {
        VectorRunner {
            bus: FlatBus::new(1 << 21),
            model,
        }
    }

    /// Reads and runs one file.
    pub fn run_file(&mut self, path: &Path) -> Result<FileResult, SstError> {
        let tests = read_vector_file(path)?;
        let out = self.run_tests(&tests);
        let mut res = FileResult::new(path.display().to_string(), "386".to_string(), self.model);
        res.status = Some(FormStatus::Normal);
        res.counted = out.tally;
        res.departures = out.skipped.iter().map(|(d, n)| (d.name(), *n)).collect();
        Ok(res)
    }

    /// Runs `tests`, skipping (and counting) those marked with departures.
    pub fn run_tests(&mut self, tests: &[Vector]) -> VectorTally {
        let mut out = VectorTally::default();
        for (i, t) in tests.iter().enumerate() {
            if !t.departures.is_empty() {
                out.skipped_tests += 1;
                for d in &t.departures {
                    *out.skipped.entry(*d).or_default() += 1;
                }
                continue;
            }
            let detail = out.tally.first_failure.is_none();
            out.tally.record(self.run_test(i as u32, t, detail));
        }
        out
    }

    /// Runs one test; `Err(Some(..))` carries the details when `detail`.
    pub fn run_test(
        &mut self,
        index: u32,
        t: &Vector,
        detail: bool,
    ) -> Result<(), Option<Box<Failure>>> {
        let mut cpu = Cpu::new(self.model);
        cpu.stop_on_fault = true;
        for (name, slot) in REGS {
            slot.set(
                &mut cpu.regs,
                t.initial.regs.get(name).copied().unwrap_or(0),
            );
        }
        cpu.fpu = t.initial.fpu.as_ref().map(|f| X87::from_saved(f));
        let mask = self.bus.mask();
        for &(a, v) in &t.initial.ram {
            self.bus.mem[(a & mask) as usize] = v;
        }
        let info = cpu.step(&mut self.bus);
        let regs = compare_regs(t, &cpu);
        let ram = self.compare_ram(t);
        let fpu = compare_fpu(t, &cpu);
        let want = t.exception.as_ref().map(|e| e.vector);
        let got_exc = match info.event {
            StepEvent::Exception(v) => Some(v),
            _ => None,
        };
        let event_ok = want == got_exc;
        // Clear what this test wrote so the next starts from zeros.
        for &(a, _) in t.initial.ram.iter().chain(&t.fin.ram) {
            self.bus.mem[(a & mask) as usize] = 0;
        }
        if regs.is_empty() && ram.is_empty() && fpu.is_empty() && event_ok {
            return Ok(());
        }
        if !detail {
            return Err(None);
        }
        let ip = t.initial.regs.get("eip").copied().unwrap_or(0) as u16;
        let cs = t.initial.regs.get("cs").copied().unwrap_or(0) as u16;
        let event = if event_ok {
            format!("{:?}", info.event)
        } else {
            format!("{:?}, expected exception {:?}", info.event, want)
        };
        Err(Some(Box::new(Failure {
            event,
            flags_mask: t.flags_mask as u16,
            regs,
            ram,
            fpu,
            ..Failure::new(index, &t.name, &t.bytes, cs, ip)
        })))
    }

    /// The written bytes that differ from the expected ones.
    fn compare_ram(&self, t: &Vector) -> Vec<RamDiff> {
        let mask = self.bus.mask();
        let mut ram = Vec::new();
        for &(a, exp) in &t.fin.ram {
            if t.ram_undefined.contains(&a) {
                continue;
            }
            let got = self.bus.mem[(a & mask) as usize];
            if got != exp {
                ram.push(RamDiff {
                    address: a,
                    expected: exp,
                    got,
                    flags_mask: None,
                });
            }
        }
        ram
    }
}

/// The registers that differ from the expected ones, under the flags mask
/// and without the undefined bits.
fn compare_regs(t: &Vector, cpu: &Cpu) -> Vec<RegDiff> {
    let mut regs = Vec::new();
    let expected_regs = t.fin.regs.as_ref().unwrap_or(&t.initial.regs);
    for (name, slot) in REGS {
        let exp = expected_regs.get(name).copied().unwrap_or(0);
        let got = slot.get(&cpu.regs);
        let mut m = !t.regs_undefined.get(name).copied().unwrap_or(0);
        if name == "eflags" {
            m &= t.flags_mask;
        }
        if (exp ^ got) & m != 0 {
            regs.push(RegDiff {
                reg: name_static(name),
                expected: exp,
                got,
            });
        }
    }
    regs
}

/// The x87 fields that differ from the expected final state (all but the
/// test's `fpu_unchecked`), one line each; a missing unit differs in all.
fn compare_fpu(t: &Vector, cpu: &Cpu) -> Vec<String> {
    let Some(want) = &t.fin.fpu else {
        return Vec::new();
    };
    let Some(got) = cpu.fpu.as_ref().map(|f| FpuState(f.saved())) else {
        return vec!["no FPU after the step".to_string()];
    };
    let field = |name: &str, s: &FpuState| -> u128 {
        match name {
            "cw" => s.cw.into(),
            "sw" => s.sw.into(),
            "tw" => s.tw.into(),
            "fip" => s.fip.into(),
            "fop" => s.fop.into(),
            "fdp" => s.fdp.into(),
            st => st[2..].parse::<usize>().map_or(0, |i| {
                (u128::from(s.st[i].se) << 64) | u128::from(s.st[i].sig)
            }),
        }
    };
    want.differences(&got, &t.fpu_unchecked)
        .into_iter()
        .map(|n| {
            format!(
                "{n}: expected {:04X}, got {:04X}",
                field(n, want),
                field(n, &got)
            )
        })
        .collect()
}

fn name_static(name: &str) -> &'static str {
    REGS.iter()
        .find(|(n, _)| *n == name)
        .map(|(n, _)| *n)
        .unwrap_or("?")
}
