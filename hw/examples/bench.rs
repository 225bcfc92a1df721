//! Emulation speed: runs roms/devices/bench.com (a CPU-bound loop with
//! IRQ0 at 1 kHz and text-memory writes) and prints emulated MHz.
//! `cargo run --release -p hw --example bench`. The host clock is read here
//! only to measure the host; emulation never sees it.

use std::time::Instant;

use hw::{Machine, MachineConfig};

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../roms/devices/bench.com");
    let image = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let mut m = Machine::new(MachineConfig::default());
    if let Err(e) = m.load_com(&image, 0x1000) {
        eprintln!("{e}");
        std::process::exit(2);
    }
    let t = Instant::now();
    let r = m.run_to_halt(2_000_000_000);
    let secs = t.elapsed().as_secs_f64();
    let cycles = m.cycles();
    println!(
        "{:?}: {} cycles ({:.2} emulated s) in {:.3} host s = {:.1} emulated MHz; output {:?}",
        r.map(|_| "halted"),
        cycles,
        cycles as f64 / m.config().cpu_hz as f64,
        secs,
        cycles as f64 / secs / 1e6,
        String::from_utf8_lossy(m.debug_output())
    );
}
