//! The machine's state hash ([`Machine::state_hash`]) and the small
//! deterministic hasher behind it (64-bit FNV-1a): the same state gives the
//! same hash on every run and build, unlike std's randomly keyed
//! `DefaultHasher`.

use std::hash::{Hash, Hasher};

use crate::machine::Machine;
use crate::registry::REGISTRY;

/// 64-bit FNV-1a.
#[derive(Clone, Debug)]
pub struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv64 {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

impl Machine {
    /// A hash of the whole machine state: CPU registers and cycle count,
    /// RAM and ROM, every registered device (display memory and every
    /// device register, in registration order), the scheduler and the
    /// debug output.
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv64::default();
        self.cpu.regs.hash(&mut h);
        self.cpu.cycles.hash(&mut h);
        self.cpu.halted.hash(&mut h);
        // A machine without an FPU hashes as it did before there was one.
        if let Some(fpu) = &self.cpu.fpu {
            fpu.hash(&mut h);
        }
        let b = &self.bus;
        b.mem.hash(&mut h);
        for d in REGISTRY {
            (d.hash)(&b.dev, &mut h);
        }
        b.sched.hash(&mut h);
        b.debug_out.hash(&mut h);
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_vectors() {
        let mut h = Fnv64::default();
        h.write(b"");
        assert_eq!(h.finish(), 0xcbf29ce484222325);
        let mut h = Fnv64::default();
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63dc4c8601ec8c);
    }
}
