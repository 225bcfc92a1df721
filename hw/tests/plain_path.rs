//! Bar: the run loop's plain-path batches (`Machine::run_plain`) do exactly
//! what stepping through `Cpu::step` does. The same device programs run on
//! two machines, one of them with an empty set of CPU hooks (which keeps it
//! on the generic step); after every run (frames, traps into the IRQ stubs,
//! the end) both report the same exit, cycle count, instruction count and
//! state hash.

mod common;

use emu::CpuModel;
use hw::{Machine, MachineConfig, RunExit};

/// The machine's IRQ0 stub (F000:FF20), a trap range every timer tick
/// enters.
const IRQ0_STUB: (u32, u32) = (0xFFF20, 0xFFF21);

fn run_both(model: CpuModel, cpu_hz: u64, name: &str, runs: usize) {
    let mk = || {
        let mut m = common::machine_with(MachineConfig::with_cpu(model, cpu_hz), name);
        m.post();
        m.set_trap_range(Some(IRQ0_STUB));
        m
    };
    let (mut plain, mut hooked) = (mk(), mk());
    hooked.cpu.hooks_mut();
    let step = |m: &mut Machine, i: usize| {
        if i % 3 == 2 {
            m.run_for(cpu_hz / 100)
        } else {
            m.run_frame(cpu_hz / 50)
        }
    };
    let mut traps = 0;
    for i in 0..runs {
        let (a, b) = (step(&mut plain, i), step(&mut hooked, i));
        let what = format!("{name} on {model}, run {i}");
        assert_eq!(a, b, "{what}: exit");
        assert_eq!(plain.cycles(), hooked.cycles(), "{what}: cycles");
        assert_eq!(plain.instructions(), hooked.instructions(), "{what}");
        assert_eq!(plain.state_hash(), hooked.state_hash(), "{what}: state");
        match a {
            RunExit::Halted => break,
            RunExit::Trap(_) => traps += 1,
            _ => {}
        }
    }
    assert!(plain.instructions() > 0, "{name} on {model} ran nothing");
    eprintln!(
        "{name} on {model}: {} instructions, {traps} traps",
        plain.instructions()
    );
}

#[test]
fn batches_match_the_generic_step_8086() {
    for name in ["irq0rtc", "pic", "pit", "kbc"] {
        run_both(CpuModel::I8086, 4_772_727, name, 60);
    }
}

#[test]
fn batches_match_the_generic_step_386() {
    for name in ["irq0rtc", "pic", "bench", "ferr", "smc"] {
        run_both(CpuModel::I386, 33_000_000, name, 60);
    }
}

/// A write from outside the CPU between two runs (the host here; a DOS
/// service or a DMA transfer alike) is seen by the next batch, whose
/// decoded instructions are checked against memory again: the immediate
/// of a loop's MOV is patched between runs. (Checked to fail without
/// `Cpu::memory_changed` at the batch's start.)
#[test]
fn a_write_between_runs_is_seen() {
    // 1000:0100: MOV AX, 1; ADD BX, AX; JMP SHORT back to the MOV.
    let code = [0xB8, 0x01, 0x00, 0x01, 0xC3, 0xEB, 0xF9];
    let mk = || {
        let mut m = Machine::new(MachineConfig::with_cpu(CpuModel::I386, 33_000_000));
        m.load_com(&code, 0x1000).expect("program loads");
        m
    };
    let (mut plain, mut hooked) = (mk(), mk());
    common::step_by_step(&mut hooked);
    for i in 0..4u8 {
        for m in [&mut plain, &mut hooked] {
            m.run_for(10_000);
            m.poke8(0x10101, i + 2);
        }
        let what = format!("run {i}");
        common::assert_same(&common::outcome(&plain), &common::outcome(&hooked), &what);
    }
    assert!(plain.instructions() > 1000);
}

/// An IRQ pending behind the mask is taken right after the OUT that
/// unmasks it, in a batch as step by step: a port access voids what the
/// batch knew of INTR (`PcBus::begin_quiet`). The program masks every
/// line, lets the timer's output rise (mode 0, so that it stays high and
/// IRQ0 pending), unmasks IRQ0 and halts after a few NOPs. (Checked to
/// fail when a port access leaves the batch's INTR knowledge in place:
/// the interrupt then comes an instruction late.)
#[test]
fn an_irq_unmasked_by_a_port_write_is_taken_at_once() {
    let code = [
        0xFA, // cli
        0xB0, 0xFF, // mov al, FFh
        0xE6, 0x21, // out 21h, al: every line masked
        0xB0, 0x30, // mov al, 30h
        0xE6, 0x43, // out 43h, al: counter 0, mode 0
        0xB0, 0x00, // mov al, 0
        0xE6, 0x40, // out 40h, al
        0xB0, 0x10, // mov al, 10h
        0xE6, 0x40, // out 40h, al: 1000h counts
        0xFB, // sti
        0x31, 0xC9, // xor cx, cx
        0xE2, 0xFE, // i: loop i (longer than the count)
        0xB0, 0xFE, // mov al, FEh
        0xE6, 0x21, // out 21h, al: IRQ0 unmasked, pending
        0x90, 0x90, 0x90, 0x90, // nop x4
        0xFA, 0xF4, // cli; hlt
    ];
    let mk = || {
        let mut m = Machine::new(MachineConfig::with_cpu(CpuModel::I386, 33_000_000));
        m.load_com(&code, 0x1000).expect("program loads");
        m.post();
        m
    };
    let (mut plain, mut hooked) = (mk(), mk());
    common::step_by_step(&mut hooked);
    for m in [&mut plain, &mut hooked] {
        m.run_to_halt(100_000_000).expect("halts");
        // The interrupt's frame below the stack: the IP after the OUT.
        assert_eq!(m.peek16(0x1FFF8), 0x11A, "return address");
    }
    assert_eq!(plain.cycles(), hooked.cycles(), "cycles");
    assert_eq!(plain.instructions(), hooked.instructions(), "instructions");
    assert_eq!(plain.state_hash(), hooked.state_hash(), "state");
}
