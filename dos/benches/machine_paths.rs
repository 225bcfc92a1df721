//! The whole PC's speed on CPU-bound real-mode programs: each of
//! `roms/bench/{alu,mem,str,calls,b32}.com` (issue 17's instruments) runs
//! under DOS on a 386 at 33 MHz and a 486 at 66 MHz, devices, timer
//! interrupts and all, for a fixed slice of emulated time. Criterion
//! reports guest instructions per second; the slice's instruction count is
//! taken from a first run (the machine is deterministic, so every run
//! executes the same instructions).
//!
//! `cargo bench -p dos --bench machine_paths`
//!
//! The CPU core alone, on a flat memory, is `cargo bench -p emu --bench
//! cpu_paths`; the side-by-side comparison with DOSBox is
//! `tools/speed/side-by-side.py`.

use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use dos::{Dos, DosConfig, Session};
use emu::CpuModel;
use hw::{Machine, MachineConfig};

/// The programs, in `roms/bench`.
const PROGRAMS: [&str; 5] = ["alu", "mem", "str", "calls", "b32"];

/// Emulated time per measured run: 20 ms.
const SLICE_MS: u64 = 20;

fn roms() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../roms/bench")
}

/// A session with `name` loaded as C:\NAME.COM, ready to run.
fn session(model: CpuModel, hz: u64, image: &[u8], name: &str) -> Session {
    let mut m = Machine::new(MachineConfig::with_cpu(model, hz));
    let mut dos = Dos::new(DosConfig::new(std::env::temp_dir())).expect("temp dir mounts");
    dos.install(&mut m);
    dos.load(
        &mut m,
        image,
        &format!("C:\\{}.COM", name.to_uppercase()),
        b"",
    )
    .expect("bench program loads");
    Session::new(m, dos)
}

fn machine_paths(c: &mut Criterion) {
    let mut g = c.benchmark_group("machine_paths");
    g.sample_size(20);
    for (cpu, model, hz) in [
        ("386_33", CpuModel::I386, 33_000_000u64),
        ("486_66", CpuModel::I486, 66_000_000),
    ] {
        for name in PROGRAMS {
            let path = roms().join(format!("{name}.com"));
            let image = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (roms/build.sh makes it)", path.display()));
            let slice = hz / 1000 * SLICE_MS;
            let mut probe = session(model, hz, &image, name);
            probe.run_for(slice);
            g.throughput(Throughput::Elements(probe.m.instructions()));
            g.bench_function(format!("{cpu}/{name}"), |b| {
                b.iter_batched_ref(
                    || session(model, hz, &image, name),
                    |s| {
                        s.run_for(slice);
                        s.m.cycles()
                    },
                    BatchSize::LargeInput,
                )
            });
        }
    }
    g.finish();
}

criterion_group!(benches, machine_paths);
criterion_main!(benches);
