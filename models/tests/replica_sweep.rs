//! The replicas swept against the models: the fountain over its whole
//! cycle and the state selection over every state of every definition, on
//! the 386 model; and deliberately altered replicas caught at the right
//! clock and slot.

use emu::{Cpu, CpuModel, FlatBus};
use models::sweep::{self, Program, SweepReport};
use models::{GuestMemory, Placed, Profile, Segments};

const LOAD_SEG: u16 = 0x1000;

fn replica(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../roms/replica")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e} (run roms/build.sh)", p.display()))
}

/// Loads an MZ image at LOAD_SEG (header sizes, relocations) and returns the
/// placement its profile finds: the code segment by signature, the data
/// group from the header's SS.
fn load(bus: &mut FlatBus, image: &[u8], profile: &Profile) -> Segments {
    let w = |o: usize| u16::from_le_bytes([image[o], image[o + 1]]) as usize;
    assert_eq!(&image[..2], b"MZ");
    let header = w(8) * 16;
    let body = &image[header..];
    let base = (LOAD_SEG as usize) << 4;
    bus.mem[base..base + body.len()].copy_from_slice(body);
    for r in 0..w(6) {
        let e = w(0x18) + 4 * r;
        let at = base + w(e + 2) * 16 + w(e);
        let v = u16::from_le_bytes([bus.mem[at], bus.mem[at + 1]]).wrapping_add(LOAD_SEG);
        bus.mem[at..at + 2].copy_from_slice(&v.to_le_bytes());
    }
    let code_seg = profile
        .find_code_segment(bus, LOAD_SEG, LOAD_SEG + (body.len() / 16) as u16)
        .expect("the profile's signature finds the code segment");
    let data = LOAD_SEG + w(0x0E) as u16;
    Segments {
        code: code_seg,
        data,
        stack: data,
    }
}

fn setup(exe: &str, profile: &str) -> (Cpu, FlatBus, Profile, Segments) {
    let profile = Profile::builtin(profile).unwrap_or_else(|e| panic!("{e}"));
    let mut bus = FlatBus::new(1 << 20);
    let at = load(&mut bus, &replica(exe), &profile);
    (Cpu::new(CpuModel::I386), bus, profile, at)
}

/// Sweeps routine `routine` of the program in `bus` against `reference`,
/// both at `at`, on a pool of `threads` threads.
fn sweep_with(
    cpu: &Cpu,
    bus: &FlatBus,
    reference: &FlatBus,
    profile: &Profile,
    at: Segments,
    routine: &str,
    threads: usize,
) -> SweepReport {
    let r = profile.routine(routine).unwrap_or_else(|e| panic!("{e}"));
    let segs = at;
    let program = Program {
        cpu,
        mem: &bus.mem,
        segs,
    };
    let reference = Placed {
        mem: &reference.mem[..],
        segs,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    pool.install(|| sweep::sweep(&r, &program, &reference, &|_| {}))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Sweeps the fountain of the program `exe`, altered by `patch`, against
/// the models reading the pristine program (the reference).
fn fountain_sweep(
    exe: &str,
    profile: &str,
    patch: impl FnOnce(&mut FlatBus, &Profile, Segments),
) -> SweepReport {
    let (cpu, mut bus, profile, at) = setup(exe, profile);
    let reference = bus.clone();
    patch(&mut bus, &profile, at);
    sweep_with(&cpu, &bus, &reference, &profile, at, "fountain", 2)
}

#[test]
fn fountain_sweeps_equal_on_both_replicas() {
    for (exe, profile) in [
        ("replica.exe", "replica"),
        ("replica-demo.exe", "replica-demo"),
    ] {
        let r = fountain_sweep(exe, profile, |_, _, _| {});
        assert_eq!(
            (r.equal, r.total),
            (12_288, 12_288),
            "{profile}: {:?}",
            r.first
        );
    }
}

#[test]
fn the_code_segment_is_where_the_layout_puts_it() {
    let (_, bus, profile, at) = setup("replica.exe", "replica");
    assert_eq!(at.code, LOAD_SEG);
    assert_eq!(bus.read16(at.code(profile.code.divisor)), 0x0952);
    let (_, bus, profile, at) = setup("replica-demo.exe", "replica-demo");
    assert_eq!(bus.read8(at.code(profile.code.amps)), 118);
}

#[test]
fn state_selection_sweeps_equal() {
    for (exe, profile) in [
        ("replica.exe", "replica"),
        ("replica-demo.exe", "replica-demo"),
    ] {
        let (cpu, bus, profile, at) = setup(exe, profile);
        let r = sweep_with(&cpu, &bus, &bus, &profile, at, "state-selection", 2);
        // 18 city definitions (5 + 6 + 7) x 256 states.
        assert_eq!((r.equal, r.total), (18 * 256, 18 * 256), "{:?}", r.first);
    }
}

#[test]
fn an_altered_amplitude_byte_is_caught_at_its_band() {
    // Band 2's amplitude (136) becomes 137: the first differing clock is the
    // first of band 2 where floor(amp * s / 65536) changes, at slot 9 + 2.
    let r = fountain_sweep("replica.exe", "replica", |bus, p, at| {
        let a = at.code(p.code.amps) as usize + 2;
        bus.mem[a] = 137;
    });
    assert!(r.equal < r.total);
    let m = r.first.expect("a mismatch");
    assert!(m.output == "slot 11" || m.output == "slot 10", "{m:?}");
}

#[test]
fn an_altered_sine_entry_is_caught_at_its_clock() {
    // Sine entry 100 (read at the clocks where (phase & FFFFh) >> 7 == 100)
    // changes by 2000h, enough to move floor(amp * s / 65536).
    let r = fountain_sweep("replica.exe", "replica", |bus, p, at| {
        let a = at.code(p.code.sine) as usize + 201;
        bus.mem[a] ^= 0x20;
    });
    let m = r.first.expect("a mismatch");
    let clock = (0..2048u32)
        .find(|c| ((((c << 5) & 0xFFFF) * 6) & 0xFFFF) >> 7 == 100)
        .expect("a clock");
    assert_eq!(m.input, format!("clock {clock:04X}h"), "{m:?}");
}

#[test]
fn landing_and_the_lookup_sweep_equal() {
    let (cpu, bus, profile, at) = setup("replica.exe", "replica");
    let r = sweep_with(&cpu, &bus, &bus, &profile, at, "landing", 2);
    assert_eq!((r.equal, r.total), (256 * 67, 256 * 67), "{:?}", r.first);
    let r = sweep_with(&cpu, &bus, &bus, &profile, at, "param-lookup", 2);
    assert_eq!((r.equal, r.total), (65_536, 65_536), "{:?}", r.first);
}

/// The report, first mismatch included, is the same on 1, 2, 3 and 7
/// threads: a mutant whose sine table differs at several entries, so that
/// mismatches fall in more than one thread's part of the domain.
#[test]
fn the_result_does_not_depend_on_the_thread_count() {
    let (cpu, mut bus, profile, at) = setup("replica.exe", "replica");
    let reference = bus.clone();
    for entry in [100usize, 400, 700, 1000] {
        bus.mem[at.code(profile.code.sine) as usize + 2 * entry + 1] ^= 0x20;
    }
    let one = sweep_with(&cpu, &bus, &reference, &profile, at, "fountain", 1);
    assert!(one.first.is_some() && one.equal < one.total, "{one:?}");
    for n in [2, 3, 7] {
        let r = sweep_with(&cpu, &bus, &reference, &profile, at, "fountain", n);
        assert_eq!(r, one, "{n} threads");
    }
    // Landing writes the word it reads: each point starts from the same
    // memory whatever ran before it on that thread.
    let one = sweep_with(&cpu, &bus, &reference, &profile, at, "landing", 1);
    assert_eq!(
        sweep_with(&cpu, &bus, &reference, &profile, at, "landing", 5),
        one
    );
}
