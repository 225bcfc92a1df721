//! Helpers for the device programs in roms/devices.

#![allow(dead_code)]

use std::path::PathBuf;

use hw::{Machine, MachineConfig};

/// The roms/ directory.
pub fn roms_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../roms")
}

/// A committed binary from roms/devices.
pub fn rom(name: &str) -> Vec<u8> {
    let p = roms_dir().join("devices").join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// A machine with `NAME.com` loaded at 1000:0100.
pub fn machine_with(config: MachineConfig, name: &str) -> Machine {
    let mut m = Machine::new(config);
    m.load_com(&rom(&format!("{name}.com")), 0x1000)
        .expect("program loads");
    m
}

/// Runs to the final `cli; hlt` and returns the debug-port text.
pub fn run_program(m: &mut Machine, max_cycles: u64) -> String {
    if let Err(e) = m.run_to_halt(max_cycles) {
        panic!(
            "{e}; output so far: {:?}",
            String::from_utf8_lossy(m.debug_output())
        );
    }
    String::from_utf8_lossy(m.debug_output()).into_owned()
}

/// The number after `key=` in the output.
pub fn field(out: &str, key: &str) -> u64 {
    let pat = format!("{key}=");
    let at = out
        .find(&pat)
        .unwrap_or_else(|| panic!("no {key}= in {out:?}"));
    out[at + pat.len()..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .unwrap_or_else(|_| panic!("bad {key}= in {out:?}"))
}

/// Sends the CPU down the step-by-step path: with hooks set (even none),
/// every step takes the generic decode and execute, every operand the byte
/// path and every REP iteration its INTR sample. It is the reference the
/// fast path is tested against.
pub fn step_by_step(m: &mut Machine) {
    m.cpu.hooks_mut();
}

/// What a run leaves, to compare two runs of one program.
pub struct Outcome {
    /// The debug port's text.
    pub output: String,
    /// Clocks and instructions.
    pub counts: (u64, u64),
    /// The registers.
    pub registers: String,
    /// All of memory.
    pub memory: Vec<u8>,
    /// The VGA's four planes.
    pub vga: Vec<u8>,
}

/// The outcome of the run `m` has done.
pub fn outcome(m: &Machine) -> Outcome {
    Outcome {
        output: String::from_utf8_lossy(m.debug_output()).into_owned(),
        counts: (m.cycles(), m.instructions()),
        registers: format!("{:?}", m.cpu.regs),
        memory: m.bus.mem.bytes().to_vec(),
        vga: m.bus.vga.planes.clone(),
    }
}

/// Asserts that two runs ended the same, naming `what`.
pub fn assert_same(a: &Outcome, b: &Outcome, what: &str) {
    assert_eq!(a.output, b.output, "{what}: output");
    assert_eq!(a.counts, b.counts, "{what}: clocks, instructions");
    assert_eq!(a.registers, b.registers, "{what}: registers");
    assert!(a.memory == b.memory, "{what}: memory differs");
    assert!(a.vga == b.vga, "{what}: VGA memory differs");
}
