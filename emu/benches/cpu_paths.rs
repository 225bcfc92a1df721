//! Throughput of the CPU core's paths on the same loop of everyday 8086
//! code (`examples/common/loop_program.rs`): the register-level 8086, the
//! cycle-exact 8086 (issue 3's budget: at most 2x slower than the
//! register-level path) and the 386 model (which must not pay for the exact
//! path). Criterion reports instructions per second for each.
//!
//! `cargo bench -p emu --bench cpu_paths`

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use emu::{Cpu, CpuModel, FlatBus, SegReg};

#[path = "../examples/common/loop_program.rs"]
mod loop_program;
use loop_program::PROGRAM;

/// Instructions per measured batch.
const STEPS: u64 = 100_000;

fn machine(model: CpuModel, exact: bool) -> (Cpu, FlatBus) {
    let mut bus = FlatBus::new(1 << 20);
    bus.mem[0x100..0x100 + PROGRAM.len()].copy_from_slice(PROGRAM);
    let mut cpu = Cpu::new(model);
    cpu.regs.set_sreg(SegReg::CS, 0);
    cpu.regs.set_sreg(SegReg::SS, 0x1000);
    cpu.regs.put16(4, 0xFFFE);
    cpu.regs.ip = 0x100;
    cpu.set_cycle_exact(exact);
    (cpu, bus)
}

fn paths(c: &mut Criterion) {
    let mut g = c.benchmark_group("cpu_paths");
    g.throughput(Throughput::Elements(STEPS));
    for (name, model, exact) in [
        ("8086_register_level", CpuModel::I8086, false),
        ("8086_cycle_exact", CpuModel::I8086, true),
        ("386", CpuModel::I386, false),
    ] {
        g.bench_function(name, |b| {
            b.iter_batched_ref(
                || machine(model, exact),
                |(cpu, bus)| {
                    for _ in 0..STEPS {
                        cpu.step(bus);
                    }
                    cpu.cycles
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, paths);
criterion_main!(benches);
