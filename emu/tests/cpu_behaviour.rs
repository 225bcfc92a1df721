//! Behaviour the single-step suite cannot show (it runs one instruction with
//! no interrupt inputs): the INTR and NMI inputs, the trap flag, HLT, WAIT,
//! interrupt shadows, interrupted REP strings, POP CS and MOVSW (whose suite
//! file is missing, see `shared/sst/README.md`).

mod common;

use common::{cpu_at, TestBus};
use emu::{Cpu, CpuModel, StepEvent};

/// A CPU at 1000:0100 with SS:SP = 2000:0100 and `code` there; the
/// interrupt vectors 1, 2 and 8 point at 3000:0000, 3000:0010, 3000:0020
/// (and 0 at 3000:0030); INTA answers vector 8.
fn setup(model: CpuModel, code: &[u8]) -> (Cpu, TestBus) {
    let mut bus = TestBus::new(1 << 20, 8);
    for (v, off) in [(1, 0), (2, 0x10), (8, 0x20), (0, 0x30)] {
        bus.set_vector(v, 0x3000, off);
    }
    bus.put(0x10100, code);
    let cpu = cpu_at(model, [0, 0x1000, 0x2000, 0x1000, 0, 0], 0x100, 0x100);
    (cpu, bus)
}

fn stack_word(bus: &TestBus, cpu: &Cpu, n: u16) -> u16 {
    bus.word(0x20000 + cpu.regs.get16(4).wrapping_add(n * 2) as usize)
}

#[test]
fn intr_is_taken_after_the_instruction_when_if_is_set() {
    // STI; NOP; NOP
    let (mut cpu, mut bus) = setup(CpuModel::I8086, &[0xFB, 0x90, 0x90]);
    bus.intr = true;
    // STI: interrupts are recognised only after the NEXT instruction.
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Executed);
    assert_eq!(bus.acks, 0);
    let info = cpu.step(&mut bus);
    assert_eq!(info.event, StepEvent::Interrupt(8));
    assert_eq!(bus.acks, 1);
    assert_eq!((cpu.regs.seg[1], cpu.regs.ip), (0x3000, 0x20));
    assert_eq!(
        stack_word(&bus, &cpu, 0),
        0x102,
        "return IP is the next instruction"
    );
    assert_eq!(stack_word(&bus, &cpu, 1), 0x1000);
    assert_eq!(
        stack_word(&bus, &cpu, 2) & 0x200,
        0x200,
        "pushed flags have IF"
    );
    assert_eq!(cpu.regs.flags & 0x200, 0, "IF cleared in the handler");
}

#[test]
fn intr_is_ignored_with_if_clear_and_nmi_is_not() {
    let (mut cpu, mut bus) = setup(CpuModel::I8086, &[0xFA, 0x90, 0x90]);
    bus.intr = true;
    cpu.step(&mut bus);
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Executed);
    assert_eq!(bus.acks, 0);
    cpu.raise_nmi();
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Interrupt(2));
    assert_eq!((cpu.regs.seg[1], cpu.regs.ip), (0x3000, 0x10));
    assert_eq!(bus.acks, 0, "NMI has no INTA cycle");
}

#[test]
fn hlt_waits_for_an_interrupt() {
    // STI; HLT; NOP
    let (mut cpu, mut bus) = setup(CpuModel::I8086, &[0xFB, 0xF4, 0x90]);
    cpu.step(&mut bus);
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Halted);
    assert!(cpu.halted);
    for _ in 0..10 {
        assert_eq!(cpu.step(&mut bus).event, StepEvent::Halted);
    }
    assert_eq!(cpu.regs.ip, 0x102);
    bus.intr = true;
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Interrupt(8));
    assert!(!cpu.halted);
    assert_eq!(
        stack_word(&bus, &cpu, 0),
        0x102,
        "IRET returns after the HLT"
    );
}

#[test]
fn trap_flag_single_steps_after_each_instruction() {
    // PUSHF; POP AX; OR AX,0100h; PUSH AX; POPF; NOP; NOP
    let code = [0x9C, 0x58, 0x0D, 0x00, 0x01, 0x50, 0x9D, 0x90, 0x90];
    let (mut cpu, mut bus) = setup(CpuModel::I8086, &code);
    for _ in 0..4 {
        assert_eq!(cpu.step(&mut bus).event, StepEvent::Executed);
    }
    // POPF sets TF: the trap comes after the instruction that follows.
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Executed);
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Interrupt(1));
    assert_eq!((cpu.regs.seg[1], cpu.regs.ip), (0x3000, 0x00));
    assert_eq!(stack_word(&bus, &cpu, 0), 0x108, "return IP after the NOP");
    assert_eq!(stack_word(&bus, &cpu, 2) & 0x100, 0x100, "pushed TF");
    assert_eq!(cpu.regs.flags & 0x100, 0, "TF cleared in the handler");
}

#[test]
fn mov_ss_holds_off_interrupts_for_one_instruction() {
    // STI; NOP; MOV SS,AX; MOV SP,0200h; NOP
    let code = [0xFB, 0x90, 0x8E, 0xD0, 0xBC, 0x00, 0x02, 0x90];
    let (mut cpu, mut bus) = setup(CpuModel::I8086, &code);
    cpu.regs.put16(0, 0x2000);
    cpu.step(&mut bus);
    cpu.step(&mut bus);
    bus.intr = true;
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Executed, "MOV SS");
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Interrupt(8));
    assert_eq!(stack_word(&bus, &cpu, 0), 0x107, "taken after MOV SP");
}

#[test]
fn divide_error_pushes_the_next_instruction_on_8086_and_this_one_on_286() {
    // XOR AX,AX; DIV AL (F6 F0)
    for (model, ret) in [(CpuModel::I8086, 0x104u16), (CpuModel::I286, 0x102)] {
        let (mut cpu, mut bus) = setup(model, &[0x31, 0xC0, 0xF6, 0xF0]);
        cpu.step(&mut bus);
        assert_eq!(cpu.step(&mut bus).event, StepEvent::Exception(0));
        assert_eq!((cpu.regs.seg[1], cpu.regs.ip), (0x3000, 0x30));
        assert_eq!(stack_word(&bus, &cpu, 0), ret, "{model}");
    }
}

#[test]
fn interrupted_rep_movsb_resumes_at_the_last_prefix_on_the_8086() {
    // ES: REP MOVSB at 0100h (prefixes at 0100h and 0101h).
    for (model, resume) in [(CpuModel::I8086, 0x101u16), (CpuModel::I286, 0x100)] {
        let (mut cpu, mut bus) = setup(model, &[0x26, 0xF3, 0xA4, 0x90]);
        cpu.regs.put16(1, 10);
        cpu.regs.seg[0] = 0x4000;
        cpu.regs.put16(6, 0x200);
        cpu.regs.put16(7, 0x300);
        cpu.regs.flags |= 0x200;
        bus.intr = true;
        assert_eq!(cpu.step(&mut bus).event, StepEvent::Interrupt(8));
        assert_eq!(cpu.regs.get16(1), 9, "one iteration ran before the check");
        assert_eq!(stack_word(&bus, &cpu, 0), resume, "{model}");
    }
}

#[test]
fn rep_movsw_copies_words_and_counts_cx_down() {
    let (mut cpu, mut bus) = setup(CpuModel::I8086, &[0xF3, 0xA5, 0x90]);
    for i in 0..8u8 {
        bus.flat.mem[0x10200 + i as usize] = i + 1;
    }
    cpu.regs.put16(1, 4);
    cpu.regs.seg[0] = 0x5000;
    cpu.regs.put16(6, 0x200);
    cpu.regs.put16(7, 0x10);
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Executed);
    assert_eq!(&bus.flat.mem[0x50010..0x50018], &[1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(cpu.regs.get16(1), 0);
    assert_eq!((cpu.regs.get16(6), cpu.regs.get16(7)), (0x208, 0x18));
    assert_eq!(cpu.regs.ip, 0x102);
}

#[test]
fn pop_cs_and_wait_and_esc_execute_on_the_8086() {
    // PUSH 1234h via AX; POP CS (0Fh); WAIT; ESC [BX]
    let (mut cpu, mut bus) = setup(CpuModel::I8086, &[0x50, 0x0F]);
    cpu.regs.put16(0, 0x1234);
    cpu.step(&mut bus);
    cpu.step(&mut bus);
    assert_eq!(cpu.regs.seg[1], 0x1234, "POP CS loads CS");
    assert_eq!(cpu.regs.ip, 0x102);
    let (mut cpu, mut bus) = setup(CpuModel::I8086, &[0x9B, 0xD8, 0x07, 0x90]);
    let before = cpu.regs.clone();
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Executed);
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Executed);
    assert_eq!(cpu.regs.ip, 0x103, "WAIT and ESC fall through");
    assert_eq!(cpu.regs.gpr, before.gpr);
}

#[test]
fn every_instruction_reports_its_clocks() {
    // MOV AX,1 (4); ADD AX,BX (3); MUL word [bx] (124-139 + EA 5)
    let (mut cpu, mut bus) = setup(CpuModel::I8086, &[0xB8, 0x01, 0x00, 0x01, 0xD8, 0xF7, 0x27]);
    assert_eq!(cpu.step(&mut bus).cycles, 4);
    assert_eq!(cpu.step(&mut bus).cycles, 3);
    let mul = cpu.step(&mut bus).cycles;
    assert!((124 + 5..=139 + 5).contains(&mul), "MUL m16 took {mul}");
    assert_eq!(cpu.cycles, 4 + 3 + mul as u64);
}

// The string instructions in cycle-exact mode where the single-step suite
// cannot check them: MOVSW (its file, A5, is missing) and a REP loop
// interrupted by INTR.

/// An 8086 in cycle-exact mode at 1000:0100 running `code` (NOPs after
/// it), SS:SP = 2000:0100, vector 8 at 3000:0000 (NOPs), DS = 1000h,
/// ES = 5000h.
fn exact_setup(code: &[u8]) -> (Cpu, TestBus) {
    let (mut cpu, mut bus) = setup(CpuModel::I8086, code);
    bus.flat.mem[0x20..0x24].copy_from_slice(&[0, 0, 0x00, 0x30]);
    bus.flat.mem[0x30000..0x30010].fill(0x90);
    bus.flat.mem[0x10100 + code.len()..0x10120].fill(0x90);
    cpu.regs.seg[0] = 0x5000;
    cpu.set_cycle_exact(true);
    (cpu, bus)
}

/// Clocks of REP MOVSW with `cx` words from DS:SI to ES:DI, after a NOP
/// that lets the queue fill.
fn rep_movsw_clocks(cx: u16, si: u16, di: u16) -> u32 {
    let (mut cpu, mut bus) = exact_setup(&[0x90, 0x90, 0x90, 0xF3, 0xA5]);
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
    let (mut cpu, mut bus) = exact_setup(&[0x26, 0xF3, 0xAA]);
    cpu.regs.put16(1, 10);
    cpu.regs.put16(7, 0x300);
    cpu.regs.put16(0, 0x55);
    cpu.regs.flags |= 0x200;
    bus.intr = true;
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Interrupt(8));
    assert_eq!(cpu.regs.get16(1), 9);
    assert_eq!(bus.flat.mem[0x50300], 0x55);
    assert_eq!(stack_word(&bus, &cpu, 0), 0x101);
    assert_eq!((cpu.regs.seg[1], cpu.regs.ip), (0x3000, 0));
}
