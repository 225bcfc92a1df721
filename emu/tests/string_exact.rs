//! The 8086's string instructions in cycle-exact mode where the single-step
//! suite cannot check them: MOVSW (its file, A5, is missing from the copy
//! of the suite, `shared/sst/README.md`) and a REP loop interrupted by INTR.

use emu::{Bus, Cpu, CpuModel, FlatBus, StepEvent};

/// A flat bus with an INTR line answering INTA with vector 8.
struct TestBus {
    flat: FlatBus,
    intr: bool,
}

impl Bus for TestBus {
    fn mem_read8(&mut self, a: u32) -> u8 {
        self.flat.mem_read8(a)
    }
    fn mem_write8(&mut self, a: u32, v: u8) {
        self.flat.mem_write8(a, v)
    }
    fn io_read8(&mut self, p: u16) -> u8 {
        self.flat.io_read8(p)
    }
    fn io_write8(&mut self, p: u16, v: u8) {
        self.flat.io_write8(p, v)
    }
    fn intr(&mut self) -> bool {
        self.intr
    }
    fn inta(&mut self) -> u8 {
        self.intr = false;
        8
    }
}

/// An 8086 in cycle-exact mode at 1000:0100 running `code`, SS:SP =
/// 2000:0100, vector 8 at 3000:0000 (NOPs), DS = 1000h, ES = 5000h.
fn setup(code: &[u8]) -> (Cpu, TestBus) {
    let mut bus = TestBus {
        flat: FlatBus::new(1 << 20),
        intr: false,
    };
    bus.flat.mem[0x20..0x24].copy_from_slice(&[0, 0, 0x00, 0x30]);
    bus.flat.mem[0x30000..0x30010].fill(0x90);
    bus.flat.mem[0x10100..0x10100 + code.len()].copy_from_slice(code);
    bus.flat.mem[0x10100 + code.len()..0x10120].fill(0x90);
    let mut cpu = Cpu::new(CpuModel::I8086);
    cpu.regs.seg = [0x5000, 0x1000, 0x2000, 0x1000, 0, 0];
    cpu.regs.ip = 0x100;
    cpu.regs.put16(4, 0x100);
    cpu.set_cycle_exact(true);
    (cpu, bus)
}

/// Clocks of REP MOVSW with `cx` words from DS:SI to ES:DI, after a NOP
/// that lets the queue fill.
fn rep_movsw_clocks(cx: u16, si: u16, di: u16) -> u32 {
    let (mut cpu, mut bus) = setup(&[0x90, 0x90, 0x90, 0xF3, 0xA5]);
    for i in 0..2 * cx as usize {
        bus.flat.mem[0x10000 + si as usize + i] = i as u8 + 1;
    }
    cpu.regs.put16(1, cx);
    cpu.regs.put16(6, si);
    cpu.regs.put16(7, di);
    for _ in 0..3 {
        cpu.step(&mut bus);
    }
    let info = cpu.step(&mut bus);
    assert_eq!(info.event, StepEvent::Executed);
    let n = 2 * cx as usize;
    let want: Vec<u8> = (1..=n as u8).collect();
    let d = 0x50000 + di as usize;
    assert_eq!(&bus.flat.mem[d..d + n], &want[..]);
    assert_eq!(cpu.regs.get16(1), 0);
    assert_eq!(cpu.regs.ip, 0x105);
    info.cycles
}

#[test]
fn rep_movsw_takes_17_clocks_per_word_and_8_more_per_odd_address() {
    // Intel 8086 Family User's Manual, table 2-21: REP MOVS 9 + 17 per
    // repetition, each odd-addressed word transfer four clocks more.
    let even = rep_movsw_clocks(5, 0x200, 0x10) - rep_movsw_clocks(4, 0x200, 0x10);
    assert_eq!(even, 17);
    let odd = rep_movsw_clocks(5, 0x201, 0x11) - rep_movsw_clocks(4, 0x201, 0x11);
    assert_eq!(odd, 25);
}

#[test]
fn interrupted_rep_stosb_stops_after_an_iteration_and_resumes_at_the_rep() {
    // ES: REP STOSB at 0100h; the 8086 resumes at the last prefix (0101h).
    let (mut cpu, mut bus) = setup(&[0x26, 0xF3, 0xAA]);
    cpu.regs.put16(1, 10);
    cpu.regs.put16(7, 0x300);
    cpu.regs.put16(0, 0x55);
    cpu.regs.flags |= 0x200;
    bus.intr = true;
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Interrupt(8));
    assert_eq!(cpu.regs.get16(1), 9);
    assert_eq!(bus.flat.mem[0x50300], 0x55);
    let sp = cpu.regs.get16(4) as usize;
    let ret = bus.flat.mem[0x20000 + sp] as u16 | (bus.flat.mem[0x20001 + sp] as u16) << 8;
    assert_eq!(ret, 0x101);
    assert_eq!((cpu.regs.seg[1], cpu.regs.ip), (0x3000, 0));
}
