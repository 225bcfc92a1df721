//! The seed workflow's inner loop: the fountain sweep (12,288 words) of the
//! replica on a flat 1 MiB copy, on the default pool and on one thread.

use criterion::{criterion_group, criterion_main, Criterion};
use emu::{Cpu, CpuModel, FlatBus};
use models::sweep::{self, Program};
use models::Placed;
use models::{Profile, Segments};

const LOAD_SEG: u16 = 0x1000;

/// The replica's image at LOAD_SEG (its MZ header skipped, relocations
/// applied), and its segments.
fn replica(profile: &Profile) -> (FlatBus, Segments) {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../roms/replica/replica.exe");
    let image = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let w = |o: usize| u16::from_le_bytes([image[o], image[o + 1]]) as usize;
    let body = &image[w(8) * 16..];
    let base = (LOAD_SEG as usize) << 4;
    let mut bus = FlatBus::new(1 << 20);
    bus.mem[base..base + body.len()].copy_from_slice(body);
    for r in 0..w(6) {
        let e = w(0x18) + 4 * r;
        let at = base + w(e + 2) * 16 + w(e);
        let v = u16::from_le_bytes([bus.mem[at], bus.mem[at + 1]]).wrapping_add(LOAD_SEG);
        bus.mem[at..at + 2].copy_from_slice(&v.to_le_bytes());
    }
    let code = profile
        .find_code_segment(&bus, LOAD_SEG, LOAD_SEG + (body.len() / 16) as u16)
        .unwrap_or_else(|| panic!("signature"));
    let data = LOAD_SEG + w(0x0E) as u16;
    (
        bus,
        Segments {
            code,
            data,
            stack: data,
        },
    )
}

fn fountain(c: &mut Criterion) {
    let profile = Profile::builtin("replica").unwrap_or_else(|e| panic!("{e}"));
    let routine = profile
        .routine("fountain")
        .unwrap_or_else(|e| panic!("{e}"));
    let (bus, segs) = replica(&profile);
    let cpu = Cpu::new(CpuModel::I386);
    let program = Program {
        cpu: &cpu,
        mem: &bus.mem,
        segs,
    };
    let reference = Placed {
        mem: &bus.mem[..],
        segs,
    };
    let run = || {
        let r =
            sweep::sweep(&routine, &program, &reference, &|_| {}).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.equal, 12_288);
    };
    c.bench_function("fountain sweep, all threads", |b| b.iter(run));
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    c.bench_function("fountain sweep, 1 thread", |b| b.iter(|| one.install(run)));
}

criterion_group!(benches, fountain);
criterion_main!(benches);
