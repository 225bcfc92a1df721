//! Helpers shared by the CPU tests: a flat bus with an interrupt line and
//! a port log, and a CPU placed at an address.
#![allow(dead_code)]

use emu::{Bus, Cpu, CpuModel, FlatBus};

/// A flat memory bus whose INTR line (`intr`) stays raised until the CPU
/// acknowledges it (INTA answers `vector` and counts in `acks`); port
/// reads answer the port's low byte and port writes are logged in `out`.
pub struct TestBus {
    pub flat: FlatBus,
    pub intr: bool,
    pub vector: u8,
    pub acks: u32,
    pub out: Vec<(u16, u8)>,
}

impl TestBus {
    /// `size` bytes of zeroed memory, INTR low, INTA answering `vector`.
    pub fn new(size: usize, vector: u8) -> TestBus {
        TestBus {
            flat: FlatBus::new(size),
            intr: false,
            vector,
            acks: 0,
            out: Vec::new(),
        }
    }

    /// Copies `bytes` to linear address `at`.
    pub fn put(&mut self, at: usize, bytes: &[u8]) {
        self.flat.mem[at..at + bytes.len()].copy_from_slice(bytes);
    }

    /// Points real-mode interrupt vector `v` at `seg:off`.
    pub fn set_vector(&mut self, v: u8, seg: u16, off: u16) {
        let slot = v as usize * 4;
        self.put(slot, &off.to_le_bytes());
        self.put(slot + 2, &seg.to_le_bytes());
    }

    /// The `n` bytes from linear address `at`.
    pub fn bytes(&self, at: usize, n: usize) -> Vec<u8> {
        self.flat.mem[at..at + n].to_vec()
    }

    /// The little-endian word at linear address `at`.
    pub fn word(&self, at: usize) -> u16 {
        u16::from_le_bytes([self.flat.mem[at], self.flat.mem[at + 1]])
    }
}

impl Bus for TestBus {
    fn mem_read8(&mut self, a: u32) -> u8 {
        self.flat.mem_read8(a)
    }
    fn mem_write8(&mut self, a: u32, v: u8) {
        self.flat.mem_write8(a, v)
    }
    fn io_read8(&mut self, p: u16) -> u8 {
        p as u8
    }
    fn io_write8(&mut self, p: u16, v: u8) {
        self.out.push((p, v))
    }
    fn intr(&mut self) -> bool {
        self.intr
    }
    fn inta(&mut self) -> u8 {
        self.acks += 1;
        self.intr = false;
        self.vector
    }
}

/// A `model` CPU with the segment registers `seg` (ES, CS, SS, DS, FS, GS),
/// IP = `ip` and SP = `sp`.
pub fn cpu_at(model: CpuModel, seg: [u16; 6], ip: u16, sp: u16) -> Cpu {
    let mut cpu = Cpu::new(model);
    cpu.regs.seg = seg;
    cpu.regs.ip = ip.into();
    cpu.regs.put16(4, sp);
    cpu
}
