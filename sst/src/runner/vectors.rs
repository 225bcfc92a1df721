//! Runs the 386 real-mode vectors ([`crate::vectors`]) against the CPU
//! core.
//!
//! The runner sets [`Cpu::stop_on_fault`] so that a fault leaves the state at
//! the faulting instruction, as the vectors record it, and compares the
//! vector number. Memory is a flat 2 MiB with no A20 wrap (the vectors reach
//! 10FFEFh).

use std::path::Path;

use emu::{Cpu, CpuModel, FlatBus, SegReg, StepEvent};

use crate::error::SstError;
use crate::metadata::FormStatus;
use crate::report::{Failure, FileResult, RamDiff, RegDiff, Tally};
use crate::vectors::{read_vector_file, Vector};

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

/// Runs the 386 vectors of one file.
pub struct VectorRunner {
    bus: FlatBus,
    model: CpuModel,
}

impl VectorRunner {
    /// A runner for `model` (the vectors are recorded for the 386).
    pub fn new(model: CpuModel) -> Self {
        VectorRunner {
            bus: FlatBus::new(1 << 21),
            model,
        }
    }

    /// Reads and runs one file.
    pub fn run_file(&mut self, path: &Path) -> Result<FileResult, SstError> {
        let tests = read_vector_file(path)?;
        let mut tally = Tally::default();
        for (i, t) in tests.iter().enumerate() {
            let detail = tally.first_failure.is_none();
            tally.record(self.run_test(i as u32, t, detail));
        }
        let mut res = FileResult::new(path.display().to_string(), "386".to_string(), self.model);
        res.status = Some(FormStatus::Normal);
        res.counted = tally;
        Ok(res)
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
        let mask = self.bus.mask();
        for &(a, v) in &t.initial.ram {
            self.bus.mem[(a & mask) as usize] = v;
        }
        let info = cpu.step(&mut self.bus);
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
        if regs.is_empty() && ram.is_empty() && event_ok {
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
            ..Failure::new(index, &t.name, &t.bytes, cs, ip)
        })))
    }
}

fn name_static(name: &str) -> &'static str {
    REGS.iter()
        .find(|(n, _)| *n == name)
        .map(|(n, _)| *n)
        .unwrap_or("?")
}
