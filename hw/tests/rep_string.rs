//! REP string instructions run in bursts on the plain path (no interrupt
//! sample while the bus says none can come, no register copy while no
//! iteration can fault: `emu/src/string.rs`); a CPU with hooks set steps
//! them one iteration at a time, sampling INTR after each. The same
//! program (`roms/devices/repstr.com`: every REP form, forward and
//! backward, overlapping, to the end of the segment, REPE with ZF clear
//! before it, under a 6 kHz IRQ0 and again with IF clear) must leave the
//! same output, clocks, registers and memory both ways on every model.

mod common;

use emu::CpuModel;
use hw::{Machine, MachineConfig};

const PROGRAM: &[u8] = include_bytes!("../../roms/devices/repstr.com");

/// A run of the program, plain or step by step.
fn run(model: CpuModel, hz: u64, step_by_step: bool) -> common::Outcome {
    let mut m = Machine::new(MachineConfig::with_cpu(model, hz));
    m.load_com(PROGRAM, 0x1000).expect("program loads");
    if step_by_step {
        common::step_by_step(&mut m);
    }
    m.run_to_halt(200_000_000).expect("program halts");
    common::outcome(&m)
}

#[test]
fn rep_bursts_match_the_iteration_by_iteration_loop() {
    for (model, hz) in [
        (CpuModel::I8086, 4_772_727),
        (CpuModel::I286, 12_000_000),
        (CpuModel::I386, 33_000_000),
    ] {
        let plain = run(model, hz, false);
        let reference = run(model, hz, true);
        // The IRQ0 ticks really landed (t= is their count).
        let ticks: u32 = plain
            .output
            .rsplit("t=")
            .next()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0);
        assert!(ticks > 20, "{model:?}: {}", plain.output);
        common::assert_same(&plain, &reference, &format!("{model:?}"));
    }
}
