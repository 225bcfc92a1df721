//! The cost of hook support: the same loop as `throughput` run by the
//! register-level 8086 with no hooks (`none`), or with hooks set that never
//! fire (`idle`: an execution hook at an address the loop never reaches and
//! a write watch on memory it never writes). Count host instructions with
//! `valgrind --tool=callgrind` and compare with a build without hook
//! support (`--no-default-features` compiles the checks out); wall-clock
//! figures are too noisy for a few percent.
//!
//! ```sh
//! cargo build --release -p emu --example hooks_cost
//! valgrind --tool=callgrind target/release/examples/hooks_cost none
//! cargo build --release -p emu --example hooks_cost --no-default-features
//! valgrind --tool=callgrind target/release/examples/hooks_cost none
//! ```

use emu::{Cpu, CpuModel, ExecAt, FlatBus, HookAction, HookKind};

#[path = "common/loop_program.rs"]
mod loop_program;
use loop_program::PROGRAM;

fn main() {
    let mode = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "none".to_string());
    let steps: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000_000);
    let mut bus = FlatBus::new(1 << 20);
    bus.mem[0x100..0x100 + PROGRAM.len()].copy_from_slice(PROGRAM);
    let mut cpu = Cpu::new(CpuModel::I8086);
    cpu.regs.set_sreg(emu::SegReg::CS, 0);
    cpu.regs.set_sreg(emu::SegReg::SS, 0x1000);
    cpu.regs.put16(4, 0xFFFE);
    cpu.regs.ip = 0x100;
    if mode == "idle" {
        let h = cpu.hooks_mut();
        h.add(HookKind::Exec(ExecAt::SegOff(0x9000, 0)), HookAction::Stop);
        h.add(
            HookKind::MemWrite {
                start: 0x90000,
                end: 0x9FFFF,
            },
            HookAction::Stop,
        );
    }
    for _ in 0..steps {
        cpu.step(&mut bus);
    }
    println!("{mode}: {steps} instructions, {} clocks", cpu.cycles);
}
