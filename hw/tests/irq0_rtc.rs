//! Bar: a guest program measuring IRQ0 with divisor 2386 against the RTC
//! over 60 emulated seconds sees 500.075 Hz within 0.01% (1,193,180 Hz PIT
//! input), whatever the CPU clock.

mod common;

use emu::CpuModel;
use hw::MachineConfig;

const PIT_HZ: u64 = 1_193_180;

/// Runs roms/devices/irq0rtc.com and returns the IRQ0 count over 60 RTC
/// seconds.
fn measure(model: CpuModel, cpu_hz: u64) -> u64 {
    let mut cfg = MachineConfig::with_cpu(model, cpu_hz);
    cfg.pit_hz = PIT_HZ;
    let mut m = common::machine_with(cfg, "irq0rtc");
    let out = common::run_program(&mut m, cpu_hz * 64);
    let ticks = common::field(&out, "ticks");
    let hz = ticks as f64 / 60.0;
    let want = PIT_HZ as f64 / 2386.0;
    eprintln!(
        "{model} at {cpu_hz} Hz: {ticks} IRQ0 in 60 RTC seconds = {hz:.4} Hz (exact {want:.4})"
    );
    assert!(
        ((hz - want) / want).abs() < 1e-4,
        "{hz} Hz is not within 0.01% of {want}"
    );
    ticks
}

#[test]
fn irq0_against_rtc_8086_4_77_mhz() {
    measure(CpuModel::I8086, 4_772_727);
}

#[test]
fn irq0_against_rtc_does_not_depend_on_cpu_clock_or_model() {
    let a = measure(CpuModel::I8086, 4_772_727);
    let b = measure(CpuModel::I8086, 10_000_000);
    let c = measure(CpuModel::I8086, 33_333_333);
    // The figure does not depend on the CPU model either.
    let d = measure(CpuModel::I286, 12_000_000);
    let e = measure(CpuModel::I386, 25_000_000);
    // 60 * 1193180 / 2386 = 30004.5: the phase decides between the two.
    for t in [a, b, c, d, e] {
        assert!((30004..=30005).contains(&t), "{t}");
    }
}
