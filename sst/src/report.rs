//! The results of a run and their text: per group of tests a [`Tally`], per
//! file a [`FileResult`], over many files [`Totals`], and the details of a
//! failing test ([`Failure`]) with its human-readable report. All of them
//! serialise to JSON (`tandem sst --json`).

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use emu::disasm::disasm16;
use emu::CpuModel;
use serde::{Serialize, Serializer};

use crate::cycles::{CycleFailure, CycleOutcome};
use crate::metadata::{FileForm, FormStatus};

/// Results of one group of tests (the counted or the undefined ones of a
/// file).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Tally {
    /// Tests run.
    pub run: u32,
    /// Tests passed.
    pub passed: u32,
    /// Tests failed.
    pub failed: u32,
    /// Details of the first failing test.
    pub first_failure: Option<Failure>,
    /// With cycle comparison: tests whose every recorded cycle matched.
    pub cycle_exact: u32,
    /// With cycle comparison: tests whose total cycle count matched.
    pub count_match: u32,
    /// With cycle comparison: the first test whose cycles differ.
    pub first_cycle_failure: Option<CycleFailure>,
}

impl Tally {
    /// Counts one test's outcome, keeping the first failure's details.
    pub(crate) fn record(&mut self, outcome: Result<(), Option<Box<Failure>>>) {
        self.run += 1;
        match outcome {
            Ok(()) => self.passed += 1,
            Err(f) => {
                self.failed += 1;
                if self.first_failure.is_none() {
                    self.first_failure = f.map(|b| *b);
                }
            }
        }
    }

    /// Counts one test's cycle comparison, keeping the first divergence's
    /// details.
    pub(crate) fn record_cycles(&mut self, o: CycleOutcome) {
        self.cycle_exact += o.exact as u32;
        self.count_match += o.count as u32;
        if let Some(f) = o.failure {
            self.first_cycle_failure = Some(*f);
        }
    }
}

/// The result of one test file.
#[derive(Clone, Debug, Serialize)]
pub struct FileResult {
    /// The file's path as given (or as found in a directory).
    pub file: String,
    /// The CPU name from the file's header.
    pub cpu: String,
    /// The model the tests ran as.
    #[serde(serialize_with = "ser_model")]
    pub model: CpuModel,
    /// The opcode (and reg) from the file name, if it follows the suite's
    /// naming.
    pub form: Option<FileForm>,
    /// The status shared by all tests of the file, `None` when the file mixes
    /// forms (e.g. `8F.MOO.gz` holds every reg field) or holds no tests.
    pub status: Option<FormStatus>,
    /// Tests of counted forms (everything but undefined).
    pub counted: Tally,
    /// Tests of undefined forms: run, reported, not counted.
    pub undefined: Tally,
    /// Tests skipped because their hash is revoked.
    pub revoked: u32,
    /// Vector tests skipped because the recording departs from Intel's
    /// manual, per departure code (a test with two codes counts under both).
    pub departures: BTreeMap<&'static str, u32>,
    /// Cycles were compared (8086 in cycle-exact mode).
    pub cycles_compared: bool,
    /// With cycle comparison: the counted tests by form status (the
    /// bar counts normal, undocumented and alias forms).
    pub status_cycles: BTreeMap<&'static str, CycleTally>,
}

impl FileResult {
    /// The result of `file` (header CPU name `cpu`, run as `model`) before
    /// any test ran.
    pub(crate) fn new(file: String, cpu: String, model: CpuModel) -> FileResult {
        FileResult {
            file,
            cpu,
            model,
            form: None,
            status: None,
            counted: Tally::default(),
            undefined: Tally::default(),
            revoked: 0,
            departures: BTreeMap::new(),
            cycles_compared: false,
            status_cycles: BTreeMap::new(),
        }
    }

    /// Tests run, counted and undefined.
    pub fn run(&self) -> u32 {
        self.counted.run + self.undefined.run
    }
}

/// Cycle-comparison counts of a group of tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CycleTally {
    /// Tests run.
    pub run: u64,
    /// Tests whose every recorded cycle matched.
    pub exact: u64,
    /// Tests whose total cycle count matched.
    pub count: u64,
}

impl CycleTally {
    /// Counts one test: whether every cycle matched (`exact`) and whether
    /// the number of cycles did (`count`).
    pub(crate) fn record(&mut self, exact: bool, count: bool) {
        self.run += 1;
        self.exact += exact as u64;
        self.count += count as u64;
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &CycleTally) {
        self.run += other.run;
        self.exact += other.exact;
        self.count += other.count;
    }
}

/// Totals over many files.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Files run.
    pub files: u32,
    /// Counted tests run.
    pub run: u64,
    /// Counted tests passed.
    pub passed: u64,
    /// Counted tests failed.
    pub failed: u64,
    /// Undefined-form tests run (not counted above).
    pub undefined_run: u64,
    /// Undefined-form tests passed.
    pub undefined_passed: u64,
    /// Revoked tests skipped.
    pub revoked: u64,
    /// Counted tests whose cycles all matched (cycle comparison only).
    pub cycle_exact: u64,
    /// Counted tests whose total cycle count matched.
    pub count_match: u64,
    /// Undefined-form tests whose cycles all matched.
    pub undefined_cycle_exact: u64,
    /// Whether cycles were compared.
    pub cycles_compared: bool,
    /// Counted tests by form status, with cycle comparison.
    pub status_cycles: BTreeMap<&'static str, CycleTally>,
}

impl Totals {
    /// Adds one file's result.
    pub fn add(&mut self, r: &FileResult) {
        self.files += 1;
        self.run += r.counted.run as u64;
        self.passed += r.counted.passed as u64;
        self.failed += r.counted.failed as u64;
        self.undefined_run += r.undefined.run as u64;
        self.undefined_passed += r.undefined.passed as u64;
        self.revoked += r.revoked as u64;
        self.cycle_exact += r.counted.cycle_exact as u64;
        self.count_match += r.counted.count_match as u64;
        self.undefined_cycle_exact += r.undefined.cycle_exact as u64;
        self.cycles_compared |= r.cycles_compared;
        for (k, v) in &r.status_cycles {
            self.status_cycles.entry(k).or_default().add(v);
        }
    }
}

/// A register that differs from the expected final state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RegDiff {
    /// Register name (`ax` ... `ip`, `flags`).
    pub reg: &'static str,
    /// Expected value.
    pub expected: u32,
    /// The CPU's value.
    pub got: u32,
}

/// A RAM byte that differs from the expected final state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RamDiff {
    /// Physical address.
    pub address: u32,
    /// Expected value.
    pub expected: u8,
    /// The value in memory.
    pub got: u8,
    /// `Some(mask)` when the byte is half of the FLAGS an exception pushed and
    /// was compared under that byte of the flags mask.
    pub flags_mask: Option<u8>,
}

/// Details of a failing test.
#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    /// The test's index in the file.
    pub index: u32,
    /// The test's name (its disassembly in the file).
    pub name: String,
    /// The instruction bytes.
    #[serde(serialize_with = "ser_hex")]
    pub bytes: Vec<u8>,
    /// iced-x86 disassembly of the bytes at the initial IP.
    pub disasm: String,
    /// Initial CS.
    pub cs: u16,
    /// Initial IP.
    pub ip: u16,
    /// The event the (first) step reported, e.g. `Executed`.
    pub event: String,
    /// The panic message if the CPU core panicked.
    pub panic: Option<String>,
    /// The form's flags mask.
    pub flags_mask: u16,
    /// Differing registers.
    pub regs: Vec<RegDiff>,
    /// Differing RAM bytes.
    pub ram: Vec<RamDiff>,
    /// Differing x87 fields, one line each (`st0: expected .., got ..`).
    pub fpu: Vec<String>,
}

/// Flag letters from bit 11 down to bit 0, with the bit of each.
const FLAG_BITS: [(char, u32); 9] = [
    ('o', 11),
    ('d', 10),
    ('i', 9),
    ('t', 8),
    ('s', 7),
    ('z', 6),
    ('a', 4),
    ('p', 2),
    ('c', 0),
];

/// The flags as letters `odItszaPc`: upper case when set, lower case when
/// clear.
pub fn flag_letters(v: u32) -> String {
    FLAG_BITS
        .iter()
        .map(|&(c, b)| {
            if v >> b & 1 != 0 {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect()
}

/// The letters of the flags that differ between `a` and `b` under `mask`,
/// space separated (e.g. `o z c`); bits without a letter show as `bN`.
pub fn flag_diff(a: u32, b: u32, mask: u32) -> String {
    let d = (a ^ b) & mask & 0xFFFF;
    let mut out: Vec<String> = Vec::new();
    for bit in (0..16).rev() {
        if d >> bit & 1 != 0 {
            match FLAG_BITS.iter().find(|&&(_, b)| b == bit) {
                Some(&(c, _)) => out.push(c.to_string()),
                None => out.push(format!("b{bit}")),
            }
        }
    }
    out.join(" ")
}

/// How many RAM differences [`Failure::render`] lists before summarising.
const MAX_RAM_LINES: usize = 16;

impl Failure {
    /// The failure of test `index` (`name`, instruction `bytes` at `cs:ip`)
    /// with nothing found wrong yet: the caller fills in the event, the
    /// flags mask and the differences.
    pub(crate) fn new(index: u32, name: &str, bytes: &[u8], cs: u16, ip: u16) -> Failure {
        Failure {
            index,
            name: name.to_string(),
            bytes: bytes.to_vec(),
            disasm: disasm16(bytes, ip as u32),
            cs,
            ip,
            event: String::new(),
            panic: None,
            flags_mask: 0xFFFF,
            regs: Vec::new(),
            ram: Vec::new(),
            fpu: Vec::new(),
        }
    }

    /// A multi-line human-readable report, each line prefixed by `indent`.
    pub fn render(&self, indent: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{indent}first failure: test {} \"{}\"  bytes {}  ({} at {:04X}:{:04X})",
            self.index,
            self.name,
            hex_bytes(&self.bytes),
            self.disasm,
            self.cs,
            self.ip
        );
        let _ = writeln!(s, "{indent}  event: {}", self.event);
        if let Some(p) = &self.panic {
            let _ = writeln!(s, "{indent}  CPU panicked: {p}");
        }
        for r in &self.regs {
            self.render_reg(&mut s, indent, r);
        }
        for line in &self.fpu {
            let _ = writeln!(s, "{indent}  fpu {line}");
        }
        for d in self.ram.iter().take(MAX_RAM_LINES) {
            let _ = write!(
                s,
                "{indent}  ram[{:05X}]: expected {:02X}, got {:02X}",
                d.address, d.expected, d.got
            );
            if let Some(m) = d.flags_mask {
                let _ = write!(s, " (pushed FLAGS byte, mask {m:02X})");
            }
            s.push('\n');
        }
        if self.ram.len() > MAX_RAM_LINES {
            let _ = writeln!(
                s,
                "{indent}  ... and {} more RAM bytes",
                self.ram.len() - MAX_RAM_LINES
            );
        }
        s
    }

    /// One register's line: FLAGS as letters with the bits that differ.
    fn render_reg(&self, s: &mut String, indent: &str, r: &RegDiff) {
        if r.reg != "flags" {
            let _ = writeln!(
                s,
                "{indent}  {}: expected {:04X}, got {:04X}",
                r.reg, r.expected, r.got
            );
            return;
        }
        let _ = write!(
            s,
            "{indent}  flags: expected {:04X} {}, got {:04X} {}, differ: {}",
            r.expected,
            flag_letters(r.expected),
            r.got,
            flag_letters(r.got),
            flag_diff(r.expected, r.got, self.flags_mask as u32)
        );
        if self.flags_mask != 0xFFFF {
            let _ = write!(s, " (mask {:04X})", self.flags_mask);
        }
        s.push('\n');
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(""))
    }
}

/// Instruction bytes as space-separated hex (`F6 F3`), as the reports show
/// them.
pub(crate) fn hex_bytes(b: &[u8]) -> String {
    let hex: Vec<String> = b.iter().map(|x| format!("{x:02X}")).collect();
    hex.join(" ")
}

/// Instruction bytes as one hex string (`F6F3`) in JSON.
pub(crate) fn ser_hex<S: Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
    let h: String = b.iter().map(|x| format!("{x:02X}")).collect();
    s.serialize_str(&h)
}

fn ser_model<S: Serializer>(m: &CpuModel, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(m.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_helpers() {
        assert_eq!(flag_letters(0x0000), "oditszapc");
        assert_eq!(flag_letters(0x0FD5), "ODITSZAPC");
        assert_eq!(flag_letters(0xF201), "odItszapC");
        assert_eq!(flag_diff(0x0801, 0x0000, 0xFFFF), "o c");
        assert_eq!(flag_diff(0x0801, 0x0000, 0xF7FF), "c");
        assert_eq!(flag_diff(0x8000, 0x0000, 0xFFFF), "b15");
    }

    #[test]
    fn failure_report_names_the_test_and_its_differences() {
        let mut f = Failure::new(7, "div bl", &[0xF6, 0xF3], 0x1000, 0x0100);
        f.event = "Exception(0)".into();
        f.flags_mask = 0xFFFE;
        f.regs.push(RegDiff {
            reg: "flags",
            expected: 0x0801,
            got: 0x0000,
        });
        f.ram.push(RamDiff {
            address: 0x101FC,
            expected: 0x12,
            got: 0x34,
            flags_mask: Some(0x2A),
        });
        let text = f.render("  ");
        assert!(
            text.starts_with(
                "  first failure: test 7 \"div bl\"  bytes F6 F3  (div bl at 1000:0100)\n"
            ),
            "{text}"
        );
        assert!(text.contains("  event: Exception(0)\n"), "{text}");
        assert!(text.contains("differ: o (mask FFFE)"), "{text}");
        assert!(
            text.contains("ram[101FC]: expected 12, got 34 (pushed FLAGS byte, mask 2A)"),
            "{text}"
        );
        assert_eq!(f.to_string(), f.render(""));
    }
}
