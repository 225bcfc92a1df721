//! REP string instructions run in bursts on the plain path (no interrupt
//! sample while the bus says none can come, no register copy while no
//! iteration can fault: `emu/src/string.rs`); a CPU with hooks set steps
//! them one iteration at a time, sampling INTR after each. The same
//! program (`roms/devices/repstr.com`: every REP form, forward and
//! backward, overlapping, to the end of the segment, REPE with ZF clear
//! before it, under a 6 kHz IRQ0 and again with IF clear) must leave the
//! same output, clocks, registers and memory both ways on every model.

use emu::{CpuModel, HookAction, HookKind};
use hw::{Machine, MachineConfig};

const PROGRAM: &[u8] = include_bytes!("../../roms/devices/repstr.com");

/// What a run leaves: the debug output, the clocks, the instructions, the
/// registers and all of memory.
fn run(model: CpuModel, hz: u64, hooked: bool) -> (String, u64, u64, String, Vec<u8>) {
    let mut m = Machine::new(MachineConfig::with_cpu(model, hz));
    m.load_com(PROGRAM, 0x1000).expect("program loads");
    if hooked {
        // Never fires: it only sends the CPU down the step-by-step path.
        m.cpu.hooks_mut().add(
            HookKind::PortRead {
                start: 0x3FF,
                end: 0x3FF,
            },
            HookAction::Continue,
        );
    }
    m.run_to_halt(200_000_000).expect("program halts");
    (
        String::from_utf8_lossy(m.debug_output()).into_owned(),
        m.cycles(),
        m.instructions(),
        format!("{:?}", m.cpu.regs),
        m.bus.mem.bytes().to_vec(),
    )
}

#[test]
fn rep_bursts_match_the_iteration_by_iteration_loop() {
    for (model, hz) in [
        (CpuModel::I8086, 4_772_727),
        (CpuModel::I286, 12_000_000),
        (CpuModel::I386, 33_000_000),
    ] {
        let plain = run(model, hz, false);
        let hooked = run(model, hz, true);
        // The IRQ0 ticks really landed (t= is their count).
        let ticks: u32 = plain
            .0
            .rsplit("t=")
            .next()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0);
        assert!(ticks > 20, "{model:?}: {}", plain.0);
        assert_eq!(plain.0, hooked.0, "{model:?}: output");
        assert_eq!(plain.1, hooked.1, "{model:?}: clocks");
        assert_eq!(plain.2, hooked.2, "{model:?}: instructions");
        assert_eq!(plain.3, hooked.3, "{model:?}: registers");
        assert!(plain.4 == hooked.4, "{model:?}: memory differs");
    }
}
