//! Runs single-step test files against the CPU core.
//!
//! For each test: load the `INIT` registers and RAM, [`Cpu::step`] once, and
//! compare the final registers (`FINA` lists only the changed ones; the others
//! must still equal `INIT`; FLAGS are compared under the form's flags mask
//! from `metadata.json`) and the final RAM bytes.
//!
//! Special rules (`shared/sst/README.md`):
//! - A divide error ([`StepEvent::Exception`]`(0)`) pushes FLAGS, which may
//!   hold undefined flags: the pushed word (at `SS:SP+4` of the final state)
//!   is compared under the mask.
//! - 286 rules (header CPU name ending in `286`, or a model chosen by the
//!   caller): 16 MiB of RAM, the top four FLAGS bits of `INIT` are cleared,
//!   every test ends on a HLT (after the instruction, a HLT at CS:IP is
//!   stepped too), and tests whose hash is in `revocation_list.txt` beside the
//!   file are skipped.
//!
//! A panic inside the CPU core is caught and reported as that test's failure.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::{self, Write as _};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use serde::{Serialize, Serializer};

use super::metadata::{parse_file_name, FileForm, FormInfo, FormStatus, Metadata, MetadataError};
use super::moo::Cycle;
use super::moo::{read_moo_file, MooError, MooFile, MooReg, MooTest};
use crate::biu::cycle::CycleRecord;
use crate::bus::{Bus, FlatBus};
use crate::cpu::{Cpu, StepEvent};
use crate::disasm::disasm16;
use crate::model::CpuModel;
use crate::regs::Registers;

/// Anything that stops a file (or the whole run) from being tested: the
/// message always names the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SstError {
    /// A MOO file could not be read or is malformed.
    Moo(MooError),
    /// A `metadata.json` could not be read or is malformed.
    Metadata(MetadataError),
    /// Any other unusable input: a missing path, a directory without test
    /// files, a bad revocation list, an unknown CPU name.
    Input {
        /// The path concerned.
        path: String,
        /// What is wrong.
        message: String,
    },
}

impl SstError {
    fn input(path: &Path, message: impl Into<String>) -> Self {
        SstError::Input {
            path: path.display().to_string(),
            message: message.into(),
        }
    }
}

impl fmt::Display for SstError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SstError::Moo(e) => e.fmt(f),
            SstError::Metadata(e) => e.fmt(f),
            SstError::Input { path, message } => write!(f, "{path}: {message}"),
        }
    }
}

impl std::error::Error for SstError {}

impl From<MooError> for SstError {
    fn from(e: MooError) -> Self {
        SstError::Moo(e)
    }
}

impl From<MetadataError> for SstError {
    fn from(e: MetadataError) -> Self {
        SstError::Metadata(e)
    }
}

/// Options of a run.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Run as this CPU model instead of the one named in each file's header.
    pub model: Option<CpuModel>,
    /// Run the 8086 in cycle-exact mode and compare every recorded bus
    /// cycle (8086 files only; other models ignore it).
    pub cycles: bool,
}

/// The CPU model a MOO header's CPU name stands for (`8086`/`8088`/`V20`/
/// `V30` the 8086 rules, anything ending in `286` or `386` those models).
pub fn model_for_cpu_name(name: &str) -> Option<CpuModel> {
    let n = name.trim().to_ascii_uppercase();
    match n.as_str() {
        "8086" | "8088" | "V20" | "V30" => Some(CpuModel::I8086),
        _ if n.ends_with("286") => Some(CpuModel::I286),
        _ if n.ends_with("386") => Some(CpuModel::I386),
        _ => None,
    }
}

/// The suite rules that depend on the CPU model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The model the CPU runs as.
    pub model: CpuModel,
    /// RAM size in bytes (1 MiB for the 8086, 16 MiB otherwise).
    pub mem_size: usize,
    /// ANDed into the `INIT` FLAGS (0FFFh on the 286: real mode cannot set
    /// bits 12-15).
    pub init_flags_mask: u16,
    /// Each test ends with a HLT that is stepped too (286 suite).
    pub step_over_hlt: bool,
}

impl Rules {
    /// The rules for a model: the 8086 suite's for the 8086, the 286 suite's
    /// for the 286 and 386.
    pub fn for_model(model: CpuModel) -> Rules {
        match model {
            CpuModel::I8086 => Rules {
                model,
                mem_size: 1 << 20,
                init_flags_mask: 0xFFFF,
                step_over_hlt: false,
            },
            CpuModel::I286 | CpuModel::I386 => Rules {
                model,
                mem_size: 1 << 24,
                init_flags_mask: 0x0FFF,
                step_over_hlt: true,
            },
        }
    }
}

/// What lies beside the test files in one directory: `metadata.json` and
/// `revocation_list.txt`, both optional.
#[derive(Debug, Default)]
pub struct DirContext {
    /// The directory.
    pub dir: PathBuf,
    /// Its `metadata.json`, if present.
    pub metadata: Option<Metadata>,
    /// Hashes from its `revocation_list.txt`: tests to skip.
    pub revoked: HashSet<[u8; 20]>,
    /// Set once the missing metadata has been warned about.
    warned_no_metadata: AtomicBool,
}

impl DirContext {
    /// Loads the context of a directory. A missing `metadata.json` is not an
    /// error (every form then counts as normal with all flags compared, and
    /// a warning is logged when a file of the directory runs); an unreadable
    /// or malformed one is.
    pub fn load(dir: &Path) -> Result<DirContext, SstError> {
        let meta_path = dir.join("metadata.json");
        let metadata = if meta_path.is_file() {
            Some(Metadata::load(&meta_path)?)
        } else {
            None
        };
        let rev_path = dir.join("revocation_list.txt");
        let revoked = if rev_path.is_file() {
            let text = std::fs::read_to_string(&rev_path)
                .map_err(|e| SstError::input(&rev_path, format!("cannot read: {e}")))?;
            parse_revocation_list(&text).map_err(|m| SstError::input(&rev_path, m))?
        } else {
            HashSet::new()
        };
        Ok(DirContext {
            dir: dir.to_path_buf(),
            metadata,
            revoked,
            warned_no_metadata: AtomicBool::new(false),
        })
    }
}

/// Parses a revocation list: one 40-digit hex SHA-1 per line; blank lines and
/// lines starting with `#` are ignored.
pub fn parse_revocation_list(text: &str) -> Result<HashSet<[u8; 20]>, String> {
    let mut set = HashSet::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let h = parse_hash(line).ok_or_else(|| format!("line {}: not a SHA-1 hash", n + 1))?;
        set.insert(h);
    }
    Ok(set)
}

fn parse_hash(s: &str) -> Option<[u8; 20]> {
    if s.len() != 40 || !s.is_ascii() {
        return None;
    }
    let mut h = [0u8; 20];
    for (i, b) in h.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(h)
}

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
    fn record(&mut self, outcome: Result<(), Option<Box<Failure>>>) {
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
}

/// How one test's cycles compared (cycle-exact mode).
#[derive(Clone, Debug, Default)]
pub struct CycleOutcome {
    /// Every cycle matched.
    pub exact: bool,
    /// The number of cycles matched.
    pub count: bool,
    /// Details when not exact (and details were asked for).
    pub failure: Option<Box<CycleFailure>>,
}

/// The first divergent cycle of a test, side by side.
#[derive(Clone, Debug, Serialize)]
pub struct CycleFailure {
    /// The test's index in the file.
    pub index: u32,
    /// The test's name.
    pub name: String,
    /// The instruction bytes.
    #[serde(serialize_with = "ser_hex")]
    pub bytes: Vec<u8>,
    /// Cycles we produced.
    pub ours_len: usize,
    /// Cycles the silicon recorded.
    pub silicon_len: usize,
    /// Index of the first cycle that differs.
    pub first: usize,
    /// (cycle index, ours, silicon) around the divergence, rendered.
    pub window: Vec<(usize, String, String)>,
}

impl CycleFailure {
    /// A multi-line report, each line prefixed by `indent`.
    pub fn render(&self, indent: &str) -> String {
        let mut s = String::new();
        let hex: Vec<String> = self.bytes.iter().map(|b| format!("{b:02X}")).collect();
        let _ = writeln!(
            s,
            "{indent}first cycle divergence: test {} \"{}\"  bytes {}  at cycle {} (ours {} cycles, silicon {})",
            self.index,
            self.name,
            hex.join(" "),
            self.first,
            self.ours_len,
            self.silicon_len
        );
        let _ = writeln!(s, "{indent}     #  {:<34} silicon", "ours");
        for (i, a, b) in &self.window {
            let mark = if i == &self.first { '>' } else { ' ' };
            let _ = writeln!(s, "{indent} {mark}{i:>4}  {a:<34} {b}");
        }
        s
    }
}

const STATUS_NAMES: [&str; 8] = ["INTA", "IOR", "IOW", "MEMR", "MEMW", "HALT", "CODE", "PASV"];
const T_NAMES: [&str; 6] = ["Ti", "T1", "T2", "T3", "T4", "Tw"];
const Q_NAMES: [&str; 4] = ["-", "F", "E", "S"];

/// One of our cycles as text: T-state, status, latched address and BHE on
/// ALE, data in T3, queue operation and byte.
pub fn render_ours(c: &CycleRecord) -> String {
    render_cycle(
        c.t as u8,
        c.status as u8,
        c.ale,
        c.address,
        c.bhe,
        c.data,
        c.queue_op as u8,
        c.queue_byte,
    )
}

/// A recorded cycle as text, in the layout of [`render_ours`].
pub fn render_theirs(c: &Cycle) -> String {
    render_cycle(
        c.t_state,
        c.bus_status,
        c.pins & 1 != 0,
        c.address,
        c.bhe,
        c.data,
        c.queue_op,
        c.queue_byte,
    )
}

#[allow(clippy::too_many_arguments)]
fn render_cycle(t: u8, st: u8, ale: bool, addr: u32, bhe: u8, data: u16, q: u8, qb: u8) -> String {
    let mut s = format!(
        "{:<2} {:<4}",
        T_NAMES.get(t as usize).unwrap_or(&"T?"),
        STATUS_NAMES.get(st as usize).unwrap_or(&"?")
    );
    if ale {
        let _ = write!(s, " A:{addr:05X} BHE{bhe}");
    } else {
        s.push_str("            ");
    }
    if t == 3 {
        let _ = write!(s, " D:{data:04X}");
    } else {
        s.push_str("       ");
    }
    let _ = write!(s, " Q:{}", Q_NAMES.get(q as usize).unwrap_or(&"?"));
    if q == 1 || q == 3 {
        let _ = write!(s, " {qb:02X}");
    }
    s
}

/// Whether our cycle matches the recorded one: T-state, bus status, the
/// address and BHE latched on ALE, the data bus in T3 of a transfer, the
/// queue operation and the byte taken.
pub fn cycle_matches(ours: &CycleRecord, theirs: &Cycle) -> bool {
    if ours.t as u8 != theirs.t_state || ours.status as u8 != theirs.bus_status {
        return false;
    }
    let ale = theirs.pins & 1 != 0;
    if ours.ale != ale {
        return false;
    }
    if ale && ((ours.address ^ theirs.address) & 0xF_FFFF != 0 || ours.bhe != theirs.bhe) {
        return false;
    }
    if theirs.t_state == 3 && ours.data != theirs.data {
        return false;
    }
    if ours.queue_op as u8 != theirs.queue_op {
        return false;
    }
    !(matches!(theirs.queue_op, 1 | 3) && ours.queue_byte != theirs.queue_byte)
}

/// Compares a whole cycle list.
pub fn compare_cycles(
    ours: &[CycleRecord],
    theirs: &[Cycle],
    t: &MooTest,
    detail: bool,
) -> CycleOutcome {
    let count = ours.len() == theirs.len();
    let first = ours
        .iter()
        .zip(theirs)
        .position(|(a, b)| !cycle_matches(a, b))
        .or(if count {
            None
        } else {
            Some(ours.len().min(theirs.len()))
        });
    let Some(first) = first else {
        return CycleOutcome {
            exact: true,
            count,
            failure: None,
        };
    };
    let failure = detail.then(|| {
        let lo = first.saturating_sub(4);
        let hi = (first + 6).min(ours.len().max(theirs.len()));
        let window = (lo..hi)
            .map(|i| {
                (
                    i,
                    ours.get(i).map(render_ours).unwrap_or_default(),
                    theirs.get(i).map(render_theirs).unwrap_or_default(),
                )
            })
            .collect();
        Box::new(CycleFailure {
            index: t.index,
            name: t.name.clone(),
            bytes: t.bytes.clone(),
            ours_len: ours.len(),
            silicon_len: theirs.len(),
            first,
            window,
        })
    });
    CycleOutcome {
        exact: false,
        count,
        failure,
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
    /// Cycles were compared (8086 in cycle-exact mode).
    pub cycles_compared: bool,
}

impl FileResult {
    /// Tests run, counted and undefined.
    pub fn run(&self) -> u32 {
        self.counted.run + self.undefined.run
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
    /// A multi-line human-readable report, each line prefixed by `indent`.
    pub fn render(&self, indent: &str) -> String {
        let mut s = String::new();
        let hex: Vec<String> = self.bytes.iter().map(|b| format!("{b:02X}")).collect();
        let _ = writeln!(
            s,
            "{indent}first failure: test {} \"{}\"  bytes {}  ({} at {:04X}:{:04X})",
            self.index,
            self.name,
            hex.join(" "),
            self.disasm,
            self.cs,
            self.ip
        );
        let _ = writeln!(s, "{indent}  event: {}", self.event);
        if let Some(p) = &self.panic {
            let _ = writeln!(s, "{indent}  CPU panicked: {p}");
        }
        for r in &self.regs {
            if r.reg == "flags" {
                let mask = self.flags_mask as u32;
                let _ = write!(
                    s,
                    "{indent}  flags: expected {:04X} {}, got {:04X} {}, differ: {}",
                    r.expected,
                    flag_letters(r.expected),
                    r.got,
                    flag_letters(r.got),
                    flag_diff(r.expected, r.got, mask)
                );
                if self.flags_mask != 0xFFFF {
                    let _ = write!(s, " (mask {:04X})", self.flags_mask);
                }
                s.push('\n');
            } else {
                let _ = writeln!(
                    s,
                    "{indent}  {}: expected {:04X}, got {:04X}",
                    r.reg, r.expected, r.got
                );
            }
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
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(""))
    }
}

fn ser_hex<S: Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
    let h: String = b.iter().map(|x| format!("{x:02X}")).collect();
    s.serialize_str(&h)
}

fn ser_model<S: Serializer>(m: &CpuModel, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(m.name())
}

/// The test bus: a [`FlatBus`] that remembers which addresses were written so
/// that they can be cleared before the next test.
struct SstBus {
    flat: FlatBus,
    written: Vec<u32>,
    /// The value of memory the test does not list: 0, or NOP (90h) in
    /// cycle-exact mode, where the recording harness answered every code
    /// fetch outside the instruction (after it, or at a jump's target) with
    /// NOPs (the data bus in T3 of those fetches shows 90h).
    fill: u8,
    /// Cycle-exact mode: the instruction's bytes as the harness served
    /// them: (linear address of the first byte, length, first address not
    /// yet served). The harness answered each instruction byte once, in
    /// order (from the recorded queue, then by the fetches after it); a
    /// fetch that comes back into those bytes (a jump into its own
    /// instruction) read NOPs like every fetch outside them, whatever the
    /// memory there holds (an operand next to the instruction).
    code: Option<(u32, u32, u32)>,
}

impl Bus for SstBus {
    #[inline]
    fn mem_read8(&mut self, addr: u32) -> u8 {
        self.flat.mem_read8(addr)
    }
    #[inline]
    fn mem_write8(&mut self, addr: u32, value: u8) {
        self.written.push(addr);
        self.flat.mem_write8(addr, value);
    }
    fn code_read8(&mut self, addr: u32) -> u8 {
        if let Some((start, len, next)) = self.code.as_mut() {
            let mask = self.flat.mask();
            let off = addr.wrapping_sub(*start) & mask;
            if off >= *len {
                return 0x90;
            }
            let served = next.wrapping_sub(*start) & mask;
            if off < served {
                return 0x90;
            }
            *next = addr.wrapping_add(1) & mask;
        }
        self.flat.mem_read8(addr)
    }
    fn io_read8(&mut self, _port: u16) -> u8 {
        0xFF
    }
    fn io_write8(&mut self, _port: u16, _value: u8) {}
}

/// Reads a MOO register out of the register file.
fn get_reg(r: &Registers, m: MooReg) -> u32 {
    match m {
        MooReg::AX => r.gpr[0],
        MooReg::CX => r.gpr[1],
        MooReg::DX => r.gpr[2],
        MooReg::BX => r.gpr[3],
        MooReg::SP => r.gpr[4],
        MooReg::BP => r.gpr[5],
        MooReg::SI => r.gpr[6],
        MooReg::DI => r.gpr[7],
        MooReg::ES => r.seg[0] as u32,
        MooReg::CS => r.seg[1] as u32,
        MooReg::SS => r.seg[2] as u32,
        MooReg::DS => r.seg[3] as u32,
        MooReg::IP => r.ip,
        MooReg::FLAGS => r.flags,
    }
}

/// Writes a MOO register into the register file.
fn set_reg(r: &mut Registers, m: MooReg, v: u16) {
    let v32 = v as u32;
    match m {
        MooReg::AX => r.gpr[0] = v32,
        MooReg::CX => r.gpr[1] = v32,
        MooReg::DX => r.gpr[2] = v32,
        MooReg::BX => r.gpr[3] = v32,
        MooReg::SP => r.gpr[4] = v32,
        MooReg::BP => r.gpr[5] = v32,
        MooReg::SI => r.gpr[6] = v32,
        MooReg::DI => r.gpr[7] = v32,
        MooReg::ES => r.seg[0] = v,
        MooReg::CS => r.seg[1] = v,
        MooReg::SS => r.seg[2] = v,
        MooReg::DS => r.seg[3] = v,
        MooReg::IP => r.ip = v32,
        MooReg::FLAGS => r.flags = v32,
    }
}

/// Prefix bytes skipped when looking for a test's opcode and ModR/M byte.
fn is_prefix(b: u8) -> bool {
    matches!(b, 0x26 | 0x2E | 0x36 | 0x3E | 0xF0 | 0xF1 | 0xF2 | 0xF3)
}

/// How each test of a file finds its form.
enum FormResolver {
    /// One form for the whole file.
    Fixed(FormInfo),
    /// A group opcode file without a reg in its name: the ModR/M reg field of
    /// each test picks the form.
    ByModrm {
        opcode: Vec<u8>,
        regs: [FormInfo; 8],
        fallback: FormInfo,
    },
}

impl FormResolver {
    fn new(meta: Option<&Metadata>, form: Option<FileForm>, file: &str) -> FormResolver {
        let (Some(meta), Some(form)) = (meta, form) else {
            return FormResolver::Fixed(FormInfo::default());
        };
        if form.reg.is_none() && meta.has_reg_forms(form.opcode) {
            let fallback = meta.form(form.opcode, None).unwrap_or_default();
            let mut regs = [fallback; 8];
            for (r, slot) in regs.iter_mut().enumerate() {
                *slot = meta.form(form.opcode, Some(r as u8)).unwrap_or(fallback);
            }
            return FormResolver::ByModrm {
                opcode: form.opcode_bytes(),
                regs,
                fallback,
            };
        }
        match meta.form(form.opcode, form.reg) {
            Some(info) => FormResolver::Fixed(info),
            None => {
                log::warn!("{file}: form {form} is not in metadata.json; counted as normal");
                FormResolver::Fixed(FormInfo::default())
            }
        }
    }

    fn resolve(&self, bytes: &[u8]) -> FormInfo {
        match self {
            FormResolver::Fixed(i) => *i,
            FormResolver::ByModrm {
                opcode,
                regs,
                fallback,
            } => {
                let Some(i) = bytes.iter().position(|&b| !is_prefix(b)) else {
                    return *fallback;
                };
                let rest = &bytes[i..];
                match rest.get(opcode.len()) {
                    Some(&modrm) if rest.starts_with(opcode) => regs[(modrm >> 3 & 7) as usize],
                    _ => *fallback,
                }
            }
        }
    }
}

/// Runs tests: owns a CPU and a test bus, reused from test to test.
pub struct Runner {
    cpu: Cpu,
    bus: SstBus,
    rules: Rules,
}

impl Runner {
    /// A runner for the given model (see [`Rules::for_model`]).
    pub fn new(model: CpuModel) -> Runner {
        Runner::with_cycles(model, false)
    }

    /// A runner that, for the 8086 and `cycles` set, runs the CPU in
    /// cycle-exact mode from each test's recorded queue and compares the
    /// recorded cycles.
    pub fn with_cycles(model: CpuModel, cycles: bool) -> Runner {
        let rules = Rules::for_model(model);
        let mut cpu = Cpu::new(model);
        let exact = cycles && model == CpuModel::I8086;
        if exact {
            cpu.set_cycle_exact(true);
            cpu.set_cycle_trace(true);
        }
        let fill = if exact { 0x90 } else { 0 };
        let mut flat = FlatBus::new(rules.mem_size);
        flat.mem.fill(fill);
        Runner {
            cpu,
            bus: SstBus {
                flat,
                written: Vec::new(),
                fill,
                code: None,
            },
            rules,
        }
    }

    /// The rules this runner applies.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The clocks recorded by the last test (cycle-exact mode; empty
    /// otherwise). Diagnostics use it to show a whole trace.
    pub fn cycle_trace(&self) -> &[CycleRecord] {
        self.cpu.cycle_trace()
    }

    /// Reads and runs one file as this runner's model. `ctx` is the context
    /// of its directory. [`run_file_with`] picks the model from the header.
    pub fn run_file(&mut self, path: &Path, ctx: &DirContext) -> Result<FileResult, SstError> {
        let moo = read_moo_file(path)?;
        Ok(self.run_moo(&moo, path, ctx))
    }

    /// Runs every test of a parsed file. `path` names it in the result and
    /// gives the form through its file name.
    pub fn run_moo(&mut self, moo: &MooFile, path: &Path, ctx: &DirContext) -> FileResult {
        let label = path.display().to_string();
        let form = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(parse_file_name);
        if ctx.metadata.is_none() && !ctx.warned_no_metadata.swap(true, Ordering::Relaxed) {
            log::warn!(
                "{}: no metadata.json; every form counts as normal with all flags compared",
                ctx.dir.display()
            );
        }
        let resolver = FormResolver::new(ctx.metadata.as_ref(), form, &label);
        let mut res = FileResult {
            file: label,
            cpu: moo.header.cpu_name.clone(),
            model: self.rules.model,
            form,
            status: None,
            counted: Tally::default(),
            undefined: Tally::default(),
            revoked: 0,
            cycles_compared: self.cpu.cycle_exact(),
        };
        let mut statuses: Option<Option<FormStatus>> = None;
        for t in &moo.tests {
            if let Some(h) = &t.hash {
                if ctx.revoked.contains(h) {
                    res.revoked += 1;
                    continue;
                }
            }
            let info = resolver.resolve(&t.bytes);
            statuses = Some(match statuses {
                None => Some(info.status),
                Some(Some(s)) if s == info.status => Some(s),
                Some(_) => None,
            });
            let tally = if info.status.counted() {
                &mut res.counted
            } else {
                &mut res.undefined
            };
            let detail = tally.first_failure.is_none();
            tally.record(self.run_test(t, info, detail));
            if self.cpu.cycle_exact() {
                let detail = tally.first_cycle_failure.is_none();
                let o = compare_cycles(self.cpu.cycle_trace(), &t.cycles, t, detail);
                tally.cycle_exact += o.exact as u32;
                tally.count_match += o.count as u32;
                if let Some(f) = o.failure {
                    tally.first_cycle_failure = Some(*f);
                }
            }
        }
        res.status = statuses.flatten();
        res
    }

    /// Runs one test under the given form info. `Ok(())` when it passes;
    /// otherwise `Err(Some(details))` when `detail` is set, `Err(None)` when
    /// not.
    pub fn run_test(
        &mut self,
        t: &MooTest,
        info: FormInfo,
        detail: bool,
    ) -> Result<(), Option<Box<Failure>>> {
        let rules = self.rules;
        let addr_mask = self.bus.flat.mask();

        // Load the initial state.
        self.cpu.reset();
        let mut regs = Registers::default();
        for r in MooReg::ALL {
            if let Some(v) = t.init.regs.get(r) {
                set_reg(&mut regs, r, v);
            }
        }
        regs.flags &= rules.init_flags_mask as u32;
        self.cpu.regs = regs;
        if self.cpu.cycle_exact() {
            self.cpu.load_queue(&t.init.queue);
            let start = self
                .cpu
                .linear(self.cpu.regs.seg[1], self.cpu.regs.ip as u16);
            let len = t.bytes.len() as u32;
            let queued = (t.init.queue.len() as u32).min(len);
            self.bus.code = Some((start, len, start.wrapping_add(queued) & addr_mask));
        }
        // In cycle-exact mode the memory the test does not list reads as NOPs
        // (the suite's rule: the bytes after the instruction are NOPs).
        for &(a, v) in &t.init.ram {
            self.bus.flat.mem[(a & addr_mask) as usize] = v;
        }

        // Run.
        let cpu = &mut self.cpu;
        let bus = &mut self.bus;
        let stepped = panic::catch_unwind(AssertUnwindSafe(|| {
            let ev = cpu.step(bus).event;
            if rules.step_over_hlt {
                let r = &cpu.regs;
                let at = cpu.linear(r.seg[1], r.ip as u16);
                if bus.mem_read8(at) == 0xF4 {
                    cpu.step(bus);
                }
            }
            ev
        }));
        let (event, panic_msg) = match stepped {
            Ok(ev) => (Some(ev), None),
            Err(p) => (None, Some(panic_message(&p))),
        };

        // Compare.
        let mut reg_diffs = Vec::new();
        let flags_mask = info.flags_mask as u32;
        let expect = |r: MooReg| -> Option<u32> {
            let v = t.fina.regs.get(r).or_else(|| t.init.regs.get(r))? as u32;
            Some(if r == MooReg::FLAGS && t.fina.regs.get(r).is_none() {
                v & rules.init_flags_mask as u32
            } else {
                v
            })
        };
        for r in MooReg::ALL {
            let Some(exp) = expect(r) else { continue };
            let got = get_reg(&self.cpu.regs, r);
            let differs = if r == MooReg::FLAGS {
                (exp ^ got) & flags_mask != 0
            } else {
                exp != got
            };
            if differs {
                reg_diffs.push(RegDiff {
                    reg: r.name(),
                    expected: exp,
                    got,
                });
            }
        }

        // The FLAGS word an exception pushed is compared under the mask.
        // Its address is the final SS:SP + 4. (The 286 suite's EXCP chunk
        // gives the word-aligned bus address, one byte low when SP is odd,
        // so it is not used for this.)
        let excepted = t.exception.is_some() || matches!(event, Some(StepEvent::Exception(_)));
        let pushed_flags: Option<[u32; 2]> = if excepted {
            let ss = expect(MooReg::SS).unwrap_or(0) as u16;
            let sp = expect(MooReg::SP).unwrap_or(0) as u16;
            Some([
                self.cpu.linear(ss, sp.wrapping_add(4)),
                self.cpu.linear(ss, sp.wrapping_add(5)),
            ])
        } else {
            None
        }
        .map(|[a, b]| [a & addr_mask, b & addr_mask]);

        let mut ram_diffs = Vec::new();
        for &(a, exp) in &t.fina.ram {
            let a = a & addr_mask;
            let got = self.bus.flat.mem[a as usize];
            let byte_mask = match pushed_flags {
                Some([lo, _]) if lo == a => Some(flags_mask as u8),
                Some([_, hi]) if hi == a => Some((flags_mask >> 8) as u8),
                _ => None,
            };
            if (exp ^ got) & byte_mask.unwrap_or(0xFF) != 0 {
                ram_diffs.push(RamDiff {
                    address: a,
                    expected: exp,
                    got,
                    flags_mask: byte_mask,
                });
            }
        }

        // Clear what this test put in memory.
        let fill = self.bus.fill;
        for &(a, _) in &t.init.ram {
            self.bus.flat.mem[(a & addr_mask) as usize] = fill;
        }
        for &a in &self.bus.written {
            self.bus.flat.mem[(a & addr_mask) as usize] = fill;
        }
        self.bus.written.clear();

        if reg_diffs.is_empty() && ram_diffs.is_empty() && panic_msg.is_none() {
            return Ok(());
        }
        if !detail {
            return Err(None);
        }
        let cs = t.init.regs.get(MooReg::CS).unwrap_or(0);
        let ip = t.init.regs.get(MooReg::IP).unwrap_or(0);
        Err(Some(Box::new(Failure {
            index: t.index,
            name: t.name.clone(),
            bytes: t.bytes.clone(),
            disasm: disasm16(&t.bytes, ip as u32),
            cs,
            ip,
            event: match event {
                Some(e) => format!("{e:?}"),
                None => "panic".to_string(),
            },
            panic: panic_msg,
            flags_mask: info.flags_mask,
            regs: reg_diffs,
            ram: ram_diffs,
        })))
    }
}

fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".to_string()
    }
}

/// Reads one file and runs it with a runner of the right model, creating or
/// replacing `runner` as needed (so a thread can keep one across files).
/// The model is `opts.model`, else the one named in the file's header.
pub fn run_file_with(
    runner: &mut Option<Runner>,
    path: &Path,
    ctx: &DirContext,
    opts: &RunOptions,
) -> Result<FileResult, SstError> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if super::vectors::is_vector_name(name) {
        let model = opts.model.unwrap_or(CpuModel::I386);
        return super::vectors::VectorRunner::new(model).run_file(path);
    }
    let moo = read_moo_file(path)?;
    let model = match opts.model {
        Some(m) => m,
        None => model_for_cpu_name(&moo.header.cpu_name).ok_or_else(|| {
            SstError::input(
                path,
                format!(
                    "unknown CPU '{}' in the header (choose a model)",
                    moo.header.cpu_name
                ),
            )
        })?,
    };
    let r = match runner {
        Some(r)
            if r.rules.model == model
                && r.cpu.cycle_exact() == (opts.cycles && model == CpuModel::I8086) =>
        {
            r
        }
        _ => runner.insert(Runner::with_cycles(model, opts.cycles)),
    };
    Ok(r.run_moo(&moo, path, ctx))
}

/// Runs one file on its own: loads the context of its directory, reads it and
/// runs it. Convenient for tests; [`Suite`] shares the work across files.
pub fn run_file(path: &Path, opts: &RunOptions) -> Result<FileResult, SstError> {
    let ctx = DirContext::load(&parent_dir(path))?;
    run_file_with(&mut None, path, &ctx, opts)
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Whether a file name is a test file (`*.MOO.gz` or `*.MOO`, any case).
pub fn is_moo_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.ends_with(".moo.gz") || l.ends_with(".moo")
}

/// A set of test files with the contexts of their directories.
#[derive(Debug, Default)]
pub struct Suite {
    files: Vec<PathBuf>,
    file_ctx: Vec<usize>,
    contexts: Vec<DirContext>,
}

impl Suite {
    /// Expands `paths` (files, or directories whose `*.MOO.gz` / `*.MOO`
    /// files are taken in name order) and loads each directory's
    /// `metadata.json` and `revocation_list.txt`. Fails on a missing path, a
    /// directory without test files, or bad metadata.
    pub fn open(paths: &[PathBuf]) -> Result<Suite, SstError> {
        let mut suite = Suite::default();
        let mut ctx_by_dir: HashMap<PathBuf, usize> = HashMap::new();
        let mut add = |suite: &mut Suite, file: PathBuf, dir: PathBuf| -> Result<(), SstError> {
            let ci = match ctx_by_dir.get(&dir) {
                Some(&i) => i,
                None => {
                    let ctx = DirContext::load(&dir)?;
                    suite.contexts.push(ctx);
                    ctx_by_dir.insert(dir, suite.contexts.len() - 1);
                    suite.contexts.len() - 1
                }
            };
            suite.files.push(file);
            suite.file_ctx.push(ci);
            Ok(())
        };
        for p in paths {
            let meta = std::fs::metadata(p)
                .map_err(|e| SstError::input(p, format!("cannot open: {e}")))?;
            if meta.is_dir() {
                let rd = std::fs::read_dir(p)
                    .map_err(|e| SstError::input(p, format!("cannot list directory: {e}")))?;
                let mut names = Vec::new();
                for entry in rd {
                    let entry = entry
                        .map_err(|e| SstError::input(p, format!("cannot list directory: {e}")))?;
                    let name = entry.file_name();
                    if let Some(n) = name.to_str() {
                        if (is_moo_name(n) || super::vectors::is_vector_name(n))
                            && entry.path().is_file()
                        {
                            names.push(n.to_string());
                        }
                    }
                }
                if names.is_empty() {
                    return Err(SstError::input(
                        p,
                        "no test files here (*.MOO.gz, *.MOO or *.json.gz)",
                    ));
                }
                names.sort();
                for n in names {
                    add(&mut suite, p.join(n), p.clone())?;
                }
            } else {
                add(&mut suite, p.clone(), parent_dir(p))?;
            }
        }
        Ok(suite)
    }

    /// The test files, in run order.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// The directory context of file `i`.
    pub fn context(&self, i: usize) -> &DirContext {
        &self.contexts[self.file_ctx[i]]
    }

    /// Runs every file on `jobs` threads (at least 1). `on_result` gets each
    /// file's result in file order, on the calling thread, as soon as it and
    /// all earlier files are done; returning `false` stops the run (files
    /// already started still finish, but are not reported).
    pub fn run(
        &self,
        opts: &RunOptions,
        jobs: usize,
        mut on_result: impl FnMut(usize, Result<FileResult, SstError>) -> bool,
    ) {
        let n = self.files.len();
        let jobs = jobs.clamp(1, n.max(1));
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(usize, Result<FileResult, SstError>)>();
        std::thread::scope(|s| {
            for _ in 0..jobs {
                let tx = tx.clone();
                let (next, stop) = (&next, &stop);
                s.spawn(move || {
                    let mut runner = None;
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break;
                        }
                        let r = run_file_with(&mut runner, &self.files[i], self.context(i), opts);
                        if tx.send((i, r)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            let mut pending = BTreeMap::new();
            let mut want = 0;
            'recv: for (i, r) in rx.iter() {
                pending.insert(i, r);
                while let Some(r) = pending.remove(&want) {
                    want += 1;
                    if !on_result(want - 1, r) {
                        stop.store(true, Ordering::Relaxed);
                        break 'recv;
                    }
                }
            }
            // Dropping the receiver here makes the workers' sends fail.
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sst::moo::{CpuState, MooRegs};

    fn regs(pairs: &[(MooReg, u16)]) -> MooRegs {
        let mut r = MooRegs::default();
        for &(m, v) in pairs {
            r.mask |= 1 << m as u8;
            r.values[m as usize] = v;
        }
        r
    }

    fn full_init() -> MooRegs {
        regs(&[
            (MooReg::AX, 1),
            (MooReg::BX, 2),
            (MooReg::CX, 3),
            (MooReg::DX, 4),
            (MooReg::CS, 0x1000),
            (MooReg::SS, 0x2000),
            (MooReg::DS, 0x3000),
            (MooReg::ES, 0x4000),
            (MooReg::SP, 0x100),
            (MooReg::BP, 6),
            (MooReg::SI, 7),
            (MooReg::DI, 8),
            (MooReg::IP, 0x10),
            (MooReg::FLAGS, 0xF002),
        ])
    }

    /// A test whose expected final state is the initial one: it passes with
    /// a CPU that does nothing.
    fn unchanged_test() -> MooTest {
        MooTest {
            index: 3,
            name: "nop".into(),
            bytes: vec![0x90],
            init: CpuState {
                regs: full_init(),
                ram: vec![(0x10010, 0x90)],
                queue: vec![],
            },
            fina: CpuState {
                regs: MooRegs::default(),
                ram: vec![(0x10010, 0x90)],
                queue: vec![],
            },
            ..MooTest::default()
        }
    }

    #[test]
    fn register_and_ram_comparison() {
        let mut r = Runner::new(CpuModel::I8086);
        let t = unchanged_test();
        // The stub CPU changes nothing. When the core exists, an unchanged
        // expectation of a NOP still holds apart from IP.
        let info = FormInfo::default();
        let out = r.run_test(&t, info, true);
        if let Err(Some(f)) = &out {
            assert!(f.regs.iter().all(|d| d.reg == "ip"), "{f}");
        }

        // Expect AX changed and a RAM byte written: both differ.
        let mut t2 = unchanged_test();
        t2.fina.regs = regs(&[(MooReg::AX, 0x55), (MooReg::IP, 0x10)]);
        t2.fina.ram = vec![(0x10010, 0x91)];
        let f = r.run_test(&t2, info, true).unwrap_err().unwrap();
        assert_eq!(f.index, 3);
        assert_eq!(f.disasm, "nop");
        assert!(f.regs.iter().any(|d| d.reg == "ax" && d.expected == 0x55));
        assert_eq!(f.ram.len(), 1);
        assert_eq!(f.ram[0].address, 0x10010);
        assert_eq!(f.ram[0].expected, 0x91);
        assert!(r.run_test(&t2, info, false).unwrap_err().is_none());
        // Memory is cleared after a test.
        assert!(r.bus.flat.mem.iter().all(|&b| b == 0));
    }

    #[test]
    fn flags_are_compared_under_the_mask() {
        let mut r = Runner::new(CpuModel::I8086);
        let mut t = unchanged_test();
        // Expect AF (bit 4) set and IP moved... but only AF is tested here:
        // keep IP unchanged for the stub.
        t.fina.regs = regs(&[(MooReg::FLAGS, 0xF012)]);
        let strict = FormInfo::default();
        let masked = FormInfo {
            status: FormStatus::Normal,
            flags_mask: 0xFFEF,
        };
        let f = r.run_test(&t, strict, true).unwrap_err().unwrap();
        let fl = f.regs.iter().find(|d| d.reg == "flags").unwrap();
        assert_eq!(flag_diff(fl.expected, fl.got, 0xFFFF), "a");
        if let Err(Some(f)) = r.run_test(&t, masked, true) {
            assert!(f.regs.iter().all(|d| d.reg != "flags"), "{f}");
        }
    }

    /// DIV BL with BL = 0 raises a divide error, which pushes FLAGS at the
    /// final SS:SP+4: undefined flags there are compared under the mask.
    #[test]
    fn divide_error_pushed_flags_use_the_mask() {
        let mut r = Runner::new(CpuModel::I8086);
        let stack: Vec<(u32, u8)> = (0x101FA..0x10200).map(|a| (a, 0)).collect();
        let mut init_ram = vec![(0x100, 0xF6), (0x101, 0xF3), (0, 0), (1, 4), (2, 0), (3, 0)];
        init_ram.extend(&stack);
        let mut t = MooTest {
            bytes: vec![0xF6, 0xF3],
            init: CpuState {
                regs: regs(&[
                    (MooReg::AX, 0x1234),
                    (MooReg::BX, 0),
                    (MooReg::CX, 0),
                    (MooReg::DX, 0),
                    (MooReg::CS, 0),
                    (MooReg::SS, 0x1000),
                    (MooReg::DS, 0),
                    (MooReg::ES, 0),
                    (MooReg::SP, 0x200),
                    (MooReg::BP, 0),
                    (MooReg::SI, 0),
                    (MooReg::DI, 0),
                    (MooReg::IP, 0x100),
                    (MooReg::FLAGS, 0xF202),
                ]),
                ram: init_ram,
                queue: vec![],
            },
            fina: CpuState {
                ram: stack.clone(),
                ..CpuState::default()
            },
            ..MooTest::default()
        };
        let strict = FormInfo::default();
        // Learn the CPU's final state from the differences to "nothing
        // changed" (bytes still 0 do not show up).
        let f = r.run_test(&t, strict, true).unwrap_err().unwrap();
        assert_eq!(f.event, "Exception(0)", "{f}");
        let mut fina = MooRegs::default();
        for d in &f.regs {
            let m = MooReg::ALL.into_iter().find(|m| m.name() == d.reg).unwrap();
            fina.mask |= 1 << m as u8;
            fina.values[m as usize] = d.got as u16;
        }
        let mut ram: Vec<(u32, u8)> = stack
            .iter()
            .map(|&(a, _)| {
                (
                    a,
                    f.ram.iter().find(|d| d.address == a).map_or(0, |d| d.got),
                )
            })
            .collect();
        t.fina = CpuState {
            regs: fina,
            ram: ram.clone(),
            queue: vec![],
        };
        assert!(r.run_test(&t, strict, true).is_ok());

        // Flip the undefined flags (o s z a p c) in the pushed word only.
        let mask = FormInfo {
            status: FormStatus::Normal,
            flags_mask: 0xF72A,
        };
        let undefined = !mask.flags_mask;
        let sp = fina.get(MooReg::SP).unwrap() as u32;
        let lo = 0x10000 + sp + 4;
        for e in ram.iter_mut() {
            if e.0 == lo {
                e.1 ^= undefined as u8;
            } else if e.0 == lo + 1 {
                e.1 ^= (undefined >> 8) as u8;
            }
        }
        t.fina.ram = ram;
        let f = r.run_test(&t, strict, true).unwrap_err().unwrap();
        assert!(f.regs.is_empty(), "{f}");
        assert_eq!(f.ram.len(), 2, "{f}");
        assert!(f.ram.iter().all(|d| d.flags_mask.is_some()), "{f}");
        assert!(r.run_test(&t, mask, true).is_ok());
    }

    /// 286 rules: the trailing HLT is stepped, the INIT flags lose bits
    /// 12-15, revoked tests are skipped.
    #[test]
    fn rules_286() {
        let mut r = Runner::new(CpuModel::I286);
        assert_eq!(r.rules().mem_size, 1 << 24);
        let mut t = unchanged_test();
        t.bytes = vec![0x90, 0xF4];
        t.init.ram = vec![(0x10010, 0x90), (0x10011, 0xF4)];
        t.fina.ram = vec![(0x10010, 0x90), (0x10011, 0xF4)];
        // NOP, HLT: IP ends after the HLT; FLAGS F002h in INIT are 0002h.
        t.fina.regs = regs(&[(MooReg::IP, 0x12)]);
        t.hash = Some([9; 20]);
        let out = r.run_test(&t, FormInfo::default(), true);
        assert!(out.is_ok(), "{}", out.unwrap_err().unwrap());

        let moo = MooFile {
            header: crate::sst::moo::MooHeader {
                version: 1,
                test_count: 2,
                cpu_name: "286".into(),
            },
            tests: vec![t.clone(), MooTest { hash: None, ..t }],
        };
        let ctx = DirContext {
            metadata: None,
            revoked: [[9; 20]].into_iter().collect(),
            ..DirContext::default()
        };
        let res = r.run_moo(&moo, Path::new("dir/90.MOO.gz"), &ctx);
        assert_eq!(res.revoked, 1);
        assert_eq!((res.counted.run, res.counted.passed), (1, 1));
        assert_eq!(res.model, CpuModel::I286);
        assert_eq!(res.form.map(|f| f.opcode), Some(0x90));
    }

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
    fn model_names() {
        assert_eq!(model_for_cpu_name("8086"), Some(CpuModel::I8086));
        assert_eq!(model_for_cpu_name("286 "), Some(CpuModel::I286));
        assert_eq!(model_for_cpu_name("C286"), Some(CpuModel::I286));
        assert_eq!(model_for_cpu_name("386E"), None);
        assert_eq!(model_for_cpu_name("Z80"), None);
    }

    #[test]
    fn revocation_list() {
        let h = "f501e1f11f2f7068e2e8e4ec3c06775dc0b1d563";
        let set = parse_revocation_list(&format!("# comment\n\n{h}\n")).unwrap();
        assert_eq!(set.len(), 1);
        assert!(set.contains(&parse_hash(h).unwrap()));
        assert!(parse_revocation_list("xyz\n").is_err());
    }

    #[test]
    fn forms_by_modrm() {
        let meta = Metadata::parse(
            r#"{"opcodes": {"8F": {"reg": {"0": {"status": "normal"},
                "1": {"status": "undefined"}}}}}"#,
            "m",
        )
        .unwrap();
        let form = parse_file_name("8F.MOO.gz");
        let res = FormResolver::new(Some(&meta), form, "8F.MOO.gz");
        assert_eq!(res.resolve(&[0x8F, 0x06]).status, FormStatus::Normal);
        assert_eq!(res.resolve(&[0x8F, 0x0E]).status, FormStatus::Undefined);
        assert_eq!(
            res.resolve(&[0x2E, 0xF3, 0x8F, 0xC8]).status,
            FormStatus::Undefined
        );
        // Regs without an entry, short or foreign bytes fall back to normal.
        assert_eq!(res.resolve(&[0x8F, 0x10]).status, FormStatus::Normal);
        assert_eq!(res.resolve(&[0x8F]).status, FormStatus::Normal);
        assert_eq!(res.resolve(&[0x90]).status, FormStatus::Normal);
    }

    #[test]
    fn suite_errors_name_the_path() {
        let e = Suite::open(&[PathBuf::from("/nonexistent/dir/00.MOO.gz")]).unwrap_err();
        assert!(
            e.to_string().starts_with("/nonexistent/dir/00.MOO.gz: "),
            "{e}"
        );
    }
}
