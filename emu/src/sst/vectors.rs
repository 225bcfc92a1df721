//! The 386 real-mode instruction vectors (`shared/vectors/386-real`, format
//! in `shared/tools/gen386/README.md`): gzip'd JSON arrays of tests, each one
//! instruction with its initial and final registers and memory, the flags
//! to compare, and the exception the instruction raises (recorded at the
//! fault, before delivery).
//!
//! The runner sets [`Cpu::stop_on_fault`] so that a fault leaves the state at
//! the faulting instruction, as the vectors record it, and compares the
//! vector number. Memory is a flat 2 MiB with no A20 wrap (the vectors reach
//! 10FFEFh).

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use serde::Deserialize;

use super::metadata::FormStatus;
use super::runner::{Failure, FileResult, RamDiff, RegDiff, SstError, Tally};
use crate::bus::FlatBus;
use crate::cpu::{Cpu, StepEvent};
use crate::disasm::disasm16;
use crate::model::CpuModel;
use crate::regs::SegReg;

/// One test of the vector format.
#[derive(Debug, Deserialize)]
pub struct Vector {
    /// Disassembly (informative).
    pub name: String,
    /// The instruction's bytes.
    pub bytes: Vec<u8>,
    /// The initial state.
    pub initial: VectorState,
    /// The final state (registers `null` only for an inconsistent record).
    #[serde(rename = "final")]
    pub fin: VectorFinal,
    /// The exception the instruction raises, if any.
    pub exception: Option<VectorException>,
    /// EFLAGS bits to compare.
    pub flags_mask: u32,
    /// Register bits NOT to compare, by register name.
    #[serde(default)]
    pub regs_undefined: HashMap<String, u32>,
    /// Written bytes whose value is undefined.
    #[serde(default)]
    pub ram_undefined: Vec<u32>,
}

/// Registers and memory.
#[derive(Debug, Deserialize)]
pub struct VectorState {
    /// Registers by name (`eax`... `gs`, `eip`, `eflags`).
    pub regs: HashMap<String, u32>,
    /// Memory bytes: linear address and value.
    pub ram: Vec<(u32, u8)>,
}

/// The final registers (possibly absent) and memory.
#[derive(Debug, Deserialize)]
pub struct VectorFinal {
    /// Registers by name.
    pub regs: Option<HashMap<String, u32>>,
    /// Final values of the bytes written.
    pub ram: Vec<(u32, u8)>,
}

/// A recorded exception.
#[derive(Debug, Deserialize)]
pub struct VectorException {
    /// Its vector number.
    pub vector: u8,
}

/// The register names of the format, in report order, with their place in
/// [`crate::Registers`]: general registers by ModR/M number (`Gpr`),
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

#[derive(Clone, Copy)]
enum Slot {
    Gpr(usize),
    Seg(SegReg),
    Ip,
    Flags,
}

fn get(cpu: &Cpu, s: Slot) -> u32 {
    match s {
        Slot::Gpr(i) => cpu.regs.gpr[i],
        Slot::Seg(r) => cpu.regs.sreg(r) as u32,
        Slot::Ip => cpu.regs.ip,
        Slot::Flags => cpu.regs.flags,
    }
}

fn set(cpu: &mut Cpu, s: Slot, v: u32) {
    match s {
        Slot::Gpr(i) => cpu.regs.gpr[i] = v,
        Slot::Seg(r) => cpu.regs.set_sreg(r, v as u16),
        Slot::Ip => cpu.regs.ip = v,
        Slot::Flags => cpu.regs.flags = v,
    }
}

/// True for a vector file name (`*.json.gz`, but not `index.json`).
pub fn is_vector_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.ends_with(".json.gz") || (l.ends_with(".json") && l != "index.json" && l != "metadata.json")
}

/// Reads a vector file (gzip'd or plain JSON).
pub fn read_vector_file(path: &Path) -> Result<Vec<Vector>, SstError> {
    let err = |m: String| SstError::Input {
        path: path.display().to_string(),
        message: m,
    };
    let raw = std::fs::read(path).map_err(|e| err(format!("cannot read: {e}")))?;
    let text = if raw.starts_with(&[0x1F, 0x8B]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .map_err(|e| err(format!("bad gzip data: {e}")))?;
        out
    } else {
        raw
    };
    serde_json::from_slice(&text).map_err(|e| err(format!("not a vector file: {e}")))
}

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
            tally.run += 1;
            match self.run_test(i as u32, t, detail) {
                Ok(()) => tally.passed += 1,
                Err(f) => {
                    tally.failed += 1;
                    if let Some(f) = f {
                        tally.first_failure = Some(*f);
                    }
                }
            }
        }
        Ok(FileResult {
            file: path.display().to_string(),
            cpu: "386".to_string(),
            model: self.model,
            form: None,
            status: Some(FormStatus::Normal),
            counted: tally,
            undefined: Tally::default(),
            revoked: 0,
            cycles_compared: false,
            status_cycles: Default::default(),
        })
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
            set(
                &mut cpu,
                slot,
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
            let got = get(&cpu, slot);
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
            index,
            name: t.name.clone(),
            bytes: t.bytes.clone(),
            disasm: disasm16(&t.bytes, ip as u32),
            cs,
            ip,
            event,
            panic: None,
            flags_mask: t.flags_mask as u16,
            regs,
            ram,
        })))
    }
}

fn name_static(name: &str) -> &'static str {
    REGS.iter()
        .find(|(n, _)| *n == name)
        .map(|(n, _)| *n)
        .unwrap_or("?")
}
