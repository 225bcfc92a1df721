//! Unmasked x87 exceptions reaching software (`emu::x87` error reporting):
//! the FERR#/ERROR# output, the PC/AT's BUSY# hold for a 387, the 486's
//! freeze until IGNNE# (CR0.NE = 0) and #MF (CR0.NE = 1).

mod common;

use common::{cpu_at, TestBus};
use emu::x87::X87;
use emu::{Bus, Cpu, CpuModel, StepEvent};

/// A bus with the coprocessor pins a test drives and the FERR# levels
/// the CPU reported.
struct PinBus {
    inner: TestBus,
    busy: bool,
    ignne: bool,
    ferr: Vec<bool>,
}

impl Bus for PinBus {
    fn mem_read8(&mut self, a: u32) -> u8 {
        self.inner.mem_read8(a)
    }
    fn mem_write8(&mut self, a: u32, v: u8) {
        self.inner.mem_write8(a, v)
    }
    fn io_read8(&mut self, p: u16) -> u8 {
        self.inner.io_read8(p)
    }
    fn io_write8(&mut self, p: u16, v: u8) {
        self.inner.io_write8(p, v)
    }
    fn ferr(&mut self, asserted: bool) {
        self.ferr.push(asserted);
    }
    fn coprocessor_busy(&mut self) -> bool {
        self.busy
    }
    fn ignne(&mut self) -> bool {
        self.ignne
    }
}

/// FNINIT; FLDCW [0200] (ZE unmasked); FLDZ; FLD1; FDIV ST(0),ST(1): 1/0,
/// an unmasked zero divide, at 1000:0100; then `tail`.
fn divide_by_zero_then(model: CpuModel, tail: &[u8]) -> (Cpu, PinBus) {
    let mut inner = TestBus::new(1 << 20, 8);
    let mut code = vec![
        0xDB, 0xE3, // fninit
        0xD9, 0x2E, 0x00, 0x02, // fldcw [0200]
        0xD9, 0xEE, // fldz
        0xD9, 0xE8, // fld1
        0xD8, 0xF1, // fdiv st0, st1
    ];
    code.extend_from_slice(tail);
    inner.put(0x10100, &code);
    inner.put(0x10200, &0x037Bu16.to_le_bytes());
    inner.set_vector(16, 0x2000, 0x0000);
    let mut cpu = cpu_at(model, [0, 0x1000, 0x3000, 0x1000, 0, 0], 0x100, 0x100);
    cpu.fpu = Some(X87::new());
    let mut bus = PinBus {
        inner,
        busy: false,
        ignne: false,
        ferr: Vec::new(),
    };
    for _ in 0..5 {
        cpu.step(&mut bus);
    }
    (cpu, bus)
}

/// Offset of the instruction after the divide.
const TAIL: u32 = 0x10C;

#[test]
fn the_unmasked_exception_drives_ferr_until_fnclex() {
    let (mut cpu, mut bus) = divide_by_zero_then(CpuModel::I486, &[0xDB, 0xE2]); // fnclex
    assert_eq!(bus.ferr, [false, false, false, false, true]);
    let f = cpu.fpu.clone().unwrap_or_default();
    assert!(f.error_pending());
    // The unmasked response leaves ST(0) as it was (1.0).
    assert_eq!(f.st(0).se, 0x3FFF);
    cpu.step(&mut bus);
    assert_eq!(bus.ferr.last(), Some(&false));
    assert_eq!(cpu.regs.ip, TAIL + 2);
}

#[test]
fn native_mode_raises_mf_at_the_next_waiting_instruction() {
    // fnstsw ax (no-wait: runs); fwait (#MF, vector 16, at the FWAIT).
    let (mut cpu, mut bus) = divide_by_zero_then(CpuModel::I486, &[0xDF, 0xE0, 0x9B]);
    cpu.sys.cr0 |= 1 << 5;
    cpu.step(&mut bus);
    assert_eq!(cpu.regs.gpr[0] as u16 & 0x0084, 0x0084, "ES and ZE in AX");
    let info = cpu.step(&mut bus);
    assert_eq!(info.event, StepEvent::Exception(16));
    assert_eq!((cpu.regs.seg[1], cpu.regs.ip), (0x2000, 0));
    // The return address is the FWAIT itself (a fault).
    let sp = cpu.regs.gpr[4] as usize & 0xFFFF;
    assert_eq!(bus.inner.word(0x30000 + sp), (TAIL + 2) as u16);
}

#[test]
fn compatibility_mode_freezes_until_ignne() {
    // fnstsw ax runs; fld1 (waiting) freezes until IGNNE#.
    let (mut cpu, mut bus) = divide_by_zero_then(CpuModel::I486, &[0xDF, 0xE0, 0xD9, 0xE8]);
    cpu.step(&mut bus);
    assert_eq!(cpu.regs.ip, TAIL + 2);
    for _ in 0..3 {
        assert_eq!(cpu.step(&mut bus).event, StepEvent::Executed);
        assert_eq!(cpu.regs.ip, TAIL + 2, "frozen at the FLD1");
    }
    bus.ignne = true;
    cpu.step(&mut bus);
    assert_eq!(cpu.regs.ip, TAIL + 4);
    assert_eq!(cpu.fpu.clone().unwrap_or_default().top, 5);
}

#[test]
fn a_387_waits_on_busy_even_for_no_wait_forms() {
    // The 386 with a 387: the board's BUSY# hold stops FNCLEX too; the
    // error never faults (the PC/AT does not wire ERROR# to the CPU).
    let (mut cpu, mut bus) = divide_by_zero_then(CpuModel::I386, &[0xDB, 0xE2, 0x9B]);
    bus.busy = true;
    cpu.step(&mut bus);
    assert_eq!(cpu.regs.ip, TAIL);
    bus.busy = false;
    cpu.step(&mut bus);
    cpu.step(&mut bus);
    assert_eq!(cpu.regs.ip, TAIL + 3);
    // Without the hold a pending error does not stop FWAIT either.
    let (mut cpu, mut bus) = divide_by_zero_then(CpuModel::I386, &[0x9B]);
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Executed);
    assert_eq!(cpu.regs.ip, TAIL + 1);
}
