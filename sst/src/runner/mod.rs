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
//!
//! The 386 vectors have their own runner ([`VectorRunner`]);
//! [`run_file_with`] picks the runner a file needs.

mod bus;
mod form;
mod regs;
mod vectors;

use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

use emu::biu::cycle::CycleRecord;
use emu::{Bus, Cpu, CpuModel, Registers, SegReg, StepEvent};

use crate::context::{parent_dir, DirContext};
use crate::cycles::compare_cycles;
use crate::error::SstError;
use crate::metadata::{parse_file_name, FormInfo, FormStatus};
use crate::moo::{read_moo_file, MooFile, MooReg, MooTest};
use crate::report::{Failure, FileResult, RamDiff, RegDiff};
use crate::rules::{model_for_cpu_name, Rules, RunOptions};
use bus::{CodeWindow, SstBus};
use form::FormResolver;
use regs::moo_slot;
pub use vectors::{VectorRunner, VectorTally};

/// Runs tests: owns a CPU and a test bus, reused from test to test.
pub struct Runner {
    cpu: Cpu,
    bus: SstBus,
    rules: Rules,
}

/// The CPU core panicked during a step: the panic's message (a test
/// failure to report, not a reason to stop the run).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct CorePanic(String);

/// How the CPU's single step ended: the event it reported, or the panic it
/// raised.
type Stepped = Result<StepEvent, CorePanic>;

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
        let exact = rules.cycle_exact(cycles);
        if exact {
            cpu.set_cycle_exact(true);
            cpu.set_cycle_trace(true);
        }
        let fill = if exact { 0x90 } else { 0 };
        Runner {
            cpu,
            bus: SstBus::new(rules.mem_size, fill),
            rules,
        }
    }

    /// The CPU (diagnostics: e.g. to run the cycle-exact mode untraced and
    /// compare its clock counts with the traced run).
    pub fn cpu_mut(&mut self) -> &mut Cpu {
        &mut self.cpu
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
        ctx.warn_if_no_metadata();
        let resolver = FormResolver::new(ctx.metadata.as_ref(), form, &label);
        let mut res = FileResult::new(label, moo.header.cpu_name.clone(), self.rules.model);
        res.form = form;
        res.cycles_compared = self.cpu.cycle_exact();
        let mut statuses: Option<Option<FormStatus>> = None;
        for t in &moo.tests {
            if t.hash.is_some_and(|h| ctx.revoked.contains(&h)) {
                res.revoked += 1;
                continue;
            }
            let info = resolver.resolve(&t.bytes);
            statuses = Some(match statuses {
                None => Some(info.status),
                Some(Some(s)) if s == info.status => Some(s),
                Some(_) => None,
            });
            self.run_counted(t, info, &mut res);
        }
        res.status = statuses.flatten();
        res
    }

    /// Runs one test of a file and counts it in `res`: in the counted or
    /// the undefined tally by its form, and with its cycles compared in
    /// cycle-exact mode.
    fn run_counted(&mut self, t: &MooTest, info: FormInfo, res: &mut FileResult) {
        let tally = if info.status.counted() {
            &mut res.counted
        } else {
            &mut res.undefined
        };
        let detail = tally.first_failure.is_none();
        tally.record(self.run_test(t, info, detail));
        if !self.cpu.cycle_exact() {
            return;
        }
        let detail = tally.first_cycle_failure.is_none();
        let o = compare_cycles(self.cpu.cycle_trace(), &t.cycles, t, detail);
        let (exact, count) = (o.exact, o.count);
        tally.record_cycles(o);
        if info.status.counted() {
            res.status_cycles
                .entry(info.status.name())
                .or_default()
                .record(exact, count);
        }
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
        self.load(t);
        let stepped = self.step();
        let regs = self.reg_diffs(t, info.flags_mask);
        let ram = self.ram_diffs(t, info.flags_mask, &stepped);
        self.bus.clear(&t.init.ram);

        if regs.is_empty() && ram.is_empty() && stepped.is_ok() {
            return Ok(());
        }
        if !detail {
            return Err(None);
        }
        let cs = t.init.regs.get(MooReg::CS).unwrap_or(0);
        let ip = t.init.regs.get(MooReg::IP).unwrap_or(0);
        let (event, panic) = match stepped {
            Ok(e) => (format!("{e:?}"), None),
            Err(CorePanic(p)) => ("panic".to_string(), Some(p)),
        };
        Err(Some(Box::new(Failure {
            event,
            panic,
            flags_mask: info.flags_mask,
            regs,
            ram,
            ..Failure::new(t.index, &t.name, &t.bytes, cs, ip)
        })))
    }

    /// Loads a test's initial state: registers (FLAGS under the rules'
    /// mask), RAM, and in cycle-exact mode the prefetch queue and the code
    /// the recorder served.
    fn load(&mut self, t: &MooTest) {
        self.cpu.reset();
        let mut regs = Registers::default();
        for r in MooReg::ALL {
            if let Some(v) = t.init.regs.get(r) {
                moo_slot(r).set(&mut regs, v as u32);
            }
        }
        regs.flags &= self.rules.init_flags_mask as u32;
        self.cpu.regs = regs;
        if self.cpu.cycle_exact() {
            self.cpu.load_queue(&t.init.queue);
            let mask = self.bus.flat.mask();
            let r = &self.cpu.regs;
            let start = (r.sreg(SegReg::CS) as u32 * 16 + r.ip) & mask;
            let (len, queued) = (t.bytes.len() as u32, t.init.queue.len() as u32);
            self.bus.code = Some(CodeWindow::new(start, len, queued, mask));
        }
        // In cycle-exact mode the memory the test does not list reads as NOPs
        // (the suite's rule: the bytes after the instruction are NOPs).
        self.bus.load(&t.init.ram);
    }

    /// Steps the instruction (and the trailing HLT under the 286 rules),
    /// catching a panic of the core.
    fn step(&mut self) -> Stepped {
        let cpu = &mut self.cpu;
        let bus = &mut self.bus;
        let step_over_hlt = self.rules.step_over_hlt;
        panic::catch_unwind(AssertUnwindSafe(|| {
            let ev = cpu.step(bus).event;
            if step_over_hlt {
                let r = &cpu.regs;
                let at = cpu.linear(r.sreg(SegReg::CS), r.ip as u16);
                if bus.mem_read8(at) == 0xF4 {
                    cpu.step(bus);
                }
            }
            ev
        }))
        .map_err(|p| CorePanic(panic_message(&p)))
    }

    /// The value register `r` must end with: its `FINA` value, else its
    /// `INIT` value (FLAGS under the rules' mask).
    fn expected(&self, t: &MooTest, r: MooReg) -> Option<u32> {
        if let Some(v) = t.fina.regs.get(r) {
            return Some(v as u32);
        }
        let v = t.init.regs.get(r)? as u32;
        Some(if r == MooReg::FLAGS {
            v & self.rules.init_flags_mask as u32
        } else {
            v
        })
    }

    /// The registers that differ from the expected final state (FLAGS
    /// under `flags_mask`).
    fn reg_diffs(&self, t: &MooTest, flags_mask: u16) -> Vec<RegDiff> {
        let mut diffs = Vec::new();
        for r in MooReg::ALL {
            let Some(expected) = self.expected(t, r) else {
                continue;
            };
            let got = moo_slot(r).get(&self.cpu.regs);
            let mask = if r == MooReg::FLAGS {
                flags_mask as u32
            } else {
                !0
            };
            if (expected ^ got) & mask != 0 {
                diffs.push(RegDiff {
                    reg: r.name(),
                    expected,
                    got,
                });
            }
        }
        diffs
    }

    /// The RAM bytes that differ from the expected final state. The FLAGS
    /// word an exception pushed is compared under `flags_mask`.
    fn ram_diffs(&self, t: &MooTest, flags_mask: u16, stepped: &Stepped) -> Vec<RamDiff> {
        let excepted = t.exception.is_some() || matches!(stepped, Ok(StepEvent::Exception(_)));
        let pushed_flags = excepted.then(|| self.pushed_flags_at(t));
        let addr_mask = self.bus.flat.mask();
        let mut diffs = Vec::new();
        for &(a, expected) in &t.fina.ram {
            let a = a & addr_mask;
            let got = self.bus.peek(a);
            let byte_mask = match pushed_flags {
                Some([lo, _]) if lo == a => Some(flags_mask as u8),
                Some([_, hi]) if hi == a => Some((flags_mask >> 8) as u8),
                _ => None,
            };
            if (expected ^ got) & byte_mask.unwrap_or(0xFF) != 0 {
                diffs.push(RamDiff {
                    address: a,
                    expected,
                    got,
                    flags_mask: byte_mask,
                });
            }
        }
        diffs
    }

    /// The addresses of the low and high byte of the FLAGS an exception
    /// pushed: the final SS:SP + 4. (The 286 suite's EXCP chunk gives the
    /// word-aligned bus address, one byte low when SP is odd, so it is not
    /// used for this.)
    fn pushed_flags_at(&self, t: &MooTest) -> [u32; 2] {
        let ss = self.expected(t, MooReg::SS).unwrap_or(0) as u16;
        let sp = self.expected(t, MooReg::SP).unwrap_or(0) as u16;
        let mask = self.bus.flat.mask();
        [4, 5].map(|d| self.cpu.linear(ss, sp.wrapping_add(d)) & mask)
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
    if crate::vectors::is_vector_name(name) {
        let model = opts.model.unwrap_or(CpuModel::I386);
        return VectorRunner::new(model).run_file(path);
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
                && r.cpu.cycle_exact() == r.rules.cycle_exact(opts.cycles) =>
        {
            r
        }
        _ => runner.insert(Runner::with_cycles(model, opts.cycles)),
    };
    Ok(r.run_moo(&moo, path, ctx))
}

/// Runs one file on its own: loads the context of its directory, reads it and
/// runs it. Convenient for tests; [`crate::Suite`] shares the work across
/// files.
pub fn run_file(path: &Path, opts: &RunOptions) -> Result<FileResult, SstError> {
    let ctx = DirContext::load(&parent_dir(path))?;
    run_file_with(&mut None, path, &ctx, opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::FormStatus;
    use crate::moo::{CpuState, MooFile, MooHeader, MooRegs};
    use crate::report::flag_diff;

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
            header: MooHeader {
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
}
