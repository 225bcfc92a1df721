//! Throughput of the CPU core: the same loop of everyday 8086 code run by
//! the register-level 8086, the cycle-exact 8086 and the 386 model.
//!
//! `cargo run --release -p emu --example throughput [STEPS] [reg|exact|386]`
//!
//! With a path named, only that one runs (for CPU-time measurements such
//! as `/usr/bin/time -f %U`, steadier than wall clock on a shared machine).

use std::time::Instant;

use emu::{Cpu, CpuModel, FlatBus};

#[path = "common/loop_program.rs"]
mod loop_program;
use loop_program::PROGRAM;

fn run(model: CpuModel, exact: bool, steps: u64) -> (f64, u64) {
    let mut bus = FlatBus::new(1 << 20);
    bus.mem[0x100..0x100 + PROGRAM.len()].copy_from_slice(PROGRAM);
    let mut cpu = Cpu::new(model);
    cpu.regs.set_sreg(emu::SegReg::CS, 0);
    cpu.regs.set_sreg(emu::SegReg::SS, 0x1000);
    cpu.regs.put16(4, 0xFFFE);
    cpu.regs.ip = 0x100;
    cpu.set_cycle_exact(exact);
    let start = Instant::now();
    for _ in 0..steps {
        cpu.step(&mut bus);
    }
    let secs = start.elapsed().as_secs_f64();
    (steps as f64 / secs / 1e6, cpu.cycles)
}

fn main() {
    let steps: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000_000);
    if let Some(path) = std::env::args().nth(2) {
        let (model, exact) = match path.as_str() {
            "reg" => (CpuModel::I8086, false),
            "exact" => (CpuModel::I8086, true),
            "386" => (CpuModel::I386, false),
            _ => panic!("path: reg, exact or 386"),
        };
        let (rate, clk) = run(model, exact, steps);
        println!("{path}: {rate:8.2} M instr/s ({clk} clocks)");
        return;
    }
    let (reg, reg_clk) = run(CpuModel::I8086, false, steps);
    let (exact, exact_clk) = run(CpuModel::I8086, true, steps);
    let (i386, _) = run(CpuModel::I386, false, steps);
    println!("{steps} instructions per run");
    println!("8086 register-level: {reg:8.2} M instr/s ({reg_clk} clocks)");
    println!("8086 cycle-exact:    {exact:8.2} M instr/s ({exact_clk} clocks)");
    println!("386:                 {i386:8.2} M instr/s");
    println!("exact / register-level throughput: {:.2}", exact / reg);
}
