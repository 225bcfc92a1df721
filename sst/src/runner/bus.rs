//! The bus of a single-step test: flat memory that remembers what a test
//! wrote, and in cycle-exact mode serves code fetches the way the 8086
//! suite's recorder did.

use emu::{Bus, FlatBus};

/// The test bus: a [`FlatBus`] that remembers which addresses were written so
/// that they can be cleared before the next test.
pub(super) struct SstBus {
    pub(super) flat: FlatBus,
    written: Vec<u32>,
    /// The value of memory the test does not list: 0, or NOP (90h) in
    /// cycle-exact mode, where the recording harness answered every code
    /// fetch outside the instruction (after it, or at a jump's target) with
    /// NOPs (the data bus in T3 of those fetches shows 90h).
    fill: u8,
    /// Cycle-exact mode: the instruction's bytes as the recorder served
    /// them (see [`CodeWindow`]).
    pub(super) code: Option<CodeWindow>,
}

/// The 8086 suite's recorder served code fetches in sequence: the
/// instruction's bytes, then NOPs (90h) for every later fetch, whatever its
/// address ("bytes after the instruction are NOPs"). So a fetch outside
/// the instruction, or any fetch after a jump (even back into the
/// instruction's own bytes), reads 90h on the data bus.
#[derive(Clone, Copy, Debug)]
pub(super) struct CodeWindow {
    /// Linear address of the instruction's first byte.
    start: u32,
    /// Its length.
    len: u32,
    /// The address the next sequential fetch reads.
    next: u32,
    /// A fetch broke the sequence (the queue was flushed).
    jumped: bool,
    /// The address mask.
    mask: u32,
}

impl CodeWindow {
    /// The window of an instruction of `len` bytes at linear `start` whose
    /// first `queued` bytes are already in the prefetch queue.
    pub(super) fn new(start: u32, len: u32, queued: u32, mask: u32) -> CodeWindow {
        CodeWindow {
            start,
            len,
            next: (start + queued) & mask,
            jumped: false,
            mask,
        }
    }
}

impl SstBus {
    /// `mem_size` bytes of memory, all `fill`.
    pub(super) fn new(mem_size: usize, fill: u8) -> SstBus {
        let mut flat = FlatBus::new(mem_size);
        flat.mem.fill(fill);
        SstBus {
            flat,
            written: Vec::new(),
            fill,
            code: None,
        }
    }

    /// The byte at `addr` (wrapped to the memory size).
    pub(super) fn peek(&self, addr: u32) -> u8 {
        self.flat.mem[(addr & self.flat.mask()) as usize]
    }

    /// Loads a test's bytes (address, value).
    pub(super) fn load(&mut self, ram: &[(u32, u8)]) {
        let mask = self.flat.mask();
        for &(a, v) in ram {
            self.flat.mem[(a & mask) as usize] = v;
        }
    }

    /// Returns the bytes a test loaded (`ram`) and every byte it wrote to
    /// the fill value, ready for the next test.
    pub(super) fn clear(&mut self, ram: &[(u32, u8)]) {
        let mask = self.flat.mask();
        for a in ram.iter().map(|&(a, _)| a).chain(self.written.drain(..)) {
            self.flat.mem[(a & mask) as usize] = self.fill;
        }
    }
}

impl Bus for SstBus {
    fn code_read8(&mut self, addr: u32) -> u8 {
        let Some(w) = self.code.as_mut() else {
            return self.flat.mem_read8(addr);
        };
        if addr != w.next {
            w.jumped = true;
        }
        w.next = (addr + 1) & w.mask;
        let inside = addr.wrapping_sub(w.start) & w.mask < w.len;
        if inside && !w.jumped {
            self.flat.mem_read8(addr)
        } else {
            0x90
        }
    }
    #[inline]
    fn mem_read8(&mut self, addr: u32) -> u8 {
        self.flat.mem_read8(addr)
    }
    #[inline]
    fn mem_write8(&mut self, addr: u32, value: u8) {
        self.written.push(addr);
        self.flat.mem_write8(addr, value);
    }
    fn io_read8(&mut self, _port: u16) -> u8 {
        0xFF
    }
    fn io_write8(&mut self, _port: u16, _value: u8) {}
}
