//! The x87 through the CPU: ESC instructions read and write their memory
//! operands through the bus, keep the instruction and operand pointers,
//! and do nothing but address their operand when no FPU is fitted.

mod common;

use common::{cpu_at, TestBus};
use emu::x87::X87;
use emu::{Cpu, CpuModel};

/// A 386 at 1000:0100 (DS = 1000h) with `code` there and `data` at DS:0200.
fn setup(code: &[u8], data: &[u8], fpu: bool) -> (Cpu, TestBus) {
    let mut bus = TestBus::new(1 << 20, 8);
    bus.put(0x10100, code);
    bus.put(0x10200, data);
    let mut cpu = cpu_at(
        CpuModel::I386,
        [0, 0x1000, 0x2000, 0x1000, 0, 0],
        0x100,
        0x100,
    );
    cpu.fpu = fpu.then(X87::new);
    (cpu, bus)
}

#[test]
fn fld_fmul_fstp_m80_and_fnsave() {
    let code = [
        0xDD, 0x06, 0x00, 0x02, // fld qword [0200]
        0xDC, 0x0E, 0x08, 0x02, // fmul qword [0208]
        0xDB, 0x3E, 0x10, 0x02, // fstp tword [0210]
        0xDD, 0x36, 0x30, 0x02, // fnsave [0230]
    ];
    let mut data = 1.5f64.to_bits().to_le_bytes().to_vec();
    data.extend_from_slice(&2.0f64.to_bits().to_le_bytes());
    let (mut cpu, mut bus) = setup(&code, &data, true);
    for _ in 0..4 {
        cpu.step(&mut bus);
    }
    // 3.0: significand C000...0, exponent 4000h.
    assert_eq!(
        bus.bytes(0x10210, 10),
        [0, 0, 0, 0, 0, 0, 0, 0xC0, 0x00, 0x40]
    );
    // The 16-bit real-mode image: CW, SW, TW, then the pointers of the
    // FSTP (1000:0108, opcode 33Eh, operand 1000:0210).
    let img = bus.bytes(0x10230, 14);
    assert_eq!(
        img,
        [0x7F, 0x03, 0, 0, 0xFF, 0xFF, 0x08, 0x01, 0x3E, 0x13, 0x10, 0x02, 0x00, 0x10]
    );
    // FNSAVE reinitialises the unit (the registers keep their contents).
    let f = cpu.fpu.clone().unwrap_or_default();
    assert_eq!(
        (f.control, f.status, f.tags, f.top, f.fip),
        (0x037F, 0, 0xFFFF, 0, 0)
    );
}

#[test]
fn fbld_fbstp_round_trip_through_memory() {
    let code = [
        0xDF, 0x26, 0x00, 0x02, // fbld [0200]
        0xDF, 0x36, 0x10, 0x02, // fbstp [0210]
    ];
    let bcd = [0x89, 0x67, 0x45, 0x23, 0x01, 0, 0, 0, 0x90, 0x80];
    let (mut cpu, mut bus) = setup(&code, &bcd, true);
    cpu.step(&mut bus);
    cpu.step(&mut bus);
    assert_eq!(bus.bytes(0x10210, 10), bcd);
}

#[test]
fn without_an_fpu_fnstsw_stores_nothing() {
    let code = [
        0xDB, 0xE3, // fninit
        0xDD, 0x3E, 0x00, 0x02, // fnstsw [0200]
        0xDF, 0xE0, // fnstsw ax
    ];
    // Without an FPU neither form stores; with one both store the status
    // word (0 after FNINIT).
    for (fpu, mem, ax) in [(false, 0x5A5A, 0x1234), (true, 0, 0)] {
        let (mut cpu, mut bus) = setup(&code, &[0x5A, 0x5A], fpu);
        cpu.regs.gpr[0] = 0x1234;
        for _ in 0..3 {
            cpu.step(&mut bus);
        }
        assert_eq!(bus.word(0x10200), mem, "fpu {fpu}");
        assert_eq!(cpu.regs.gpr[0], ax, "fpu {fpu}");
    }
}

/// FADD ST, ST(1) (D8 C1) with two valid registers on `model`: its clocks.
fn fadd_clocks(model: CpuModel) -> u32 {
    let mut bus = TestBus::new(1 << 20, 8);
    bus.put(0x10100, &[0xD9, 0xE8, 0xD9, 0xE8, 0xD8, 0xC1]); // fld1, fld1, fadd
    let mut cpu = cpu_at(model, [0, 0x1000, 0x2000, 0x1000, 0, 0], 0x100, 0x100);
    cpu.fpu = Some(X87::new());
    cpu.step(&mut bus);
    cpu.step(&mut bus);
    cpu.step(&mut bus).cycles
}

#[test]
fn an_fpu_instruction_costs_what_the_manuals_give() {
    // The i486 manual counts whole instructions: FADD ST, ST(i) is 8
    // clocks (8-20), the CPU's ESC decode included.
    assert_eq!(fadd_clocks(CpuModel::I486), 8);
    // Beside a 386 the 387's 23 (387DX datasheet) come on top of the
    // 386's own ESC count.
    let esc_386 = match CpuModel::I386.caps().timing.cost(emu::table::Op::Esc) {
        emu::timing::Cost::Fixed(n) => n as u32,
        other => panic!("the 386's ESC row: {other:?}"),
    };
    assert_eq!(fadd_clocks(CpuModel::I386), 23 + esc_386);
}
