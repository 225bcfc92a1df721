//! The CPU's view of the outside world: one call per bus transfer.
//!
//! The CPU never touches memory or ports except through a [`Bus`]. Each call
//! is one bus cycle's data transfer (the 8086 datasheet's T1-T4 sequence); the
//! CPU's bus interface unit (`biu`) counts the clocks. A flat test bus
//! ([`FlatBus`]) serves the single-step suites; the PC machine implements the
//! same trait with its memory map and devices.

/// Memory, I/O and interrupt-acknowledge transfers, as the CPU's pins see them.
pub trait Bus {
    /// Reads one byte of memory at a physical address (already masked to the
    /// model's address bus).
    fn mem_read8(&mut self, addr: u32) -> u8;
    /// Writes one byte of memory at a physical address.
    fn mem_write8(&mut self, addr: u32, value: u8);
    /// Reads one byte of a code fetch (bus status CODE; the cycle-exact
    /// 8086's prefetches). Memory, by default.
    #[inline]
    fn code_read8(&mut self, addr: u32) -> u8 {
        self.mem_read8(addr)
    }
    /// The bytes from physical `addr` (already masked) to the end of the
    /// memory page that holds it, when that page is plain RAM or ROM, whose
    /// reads have no side effects and cost no wait states here: the CPU
    /// then decodes an instruction from the slice instead of a bus call per
    /// byte, reading the same bytes. `None` (the default) sends every fetch
    /// through [`Bus::mem_read8`].
    #[inline]
    fn code_window(&self, _addr: u32) -> Option<&[u8]> {
        None
    }
    /// Reads one byte from an I/O port.
    fn io_read8(&mut self, port: u16) -> u8;
    /// Writes one byte to an I/O port.
    fn io_write8(&mut self, port: u16, value: u8);
    /// Reads a word from an I/O port. The default splits it into two byte
    /// transfers (port, port+1) as an 8-bit peripheral sees them.
    fn io_read16(&mut self, port: u16) -> u16 {
        let lo = self.io_read8(port) as u16;
        let hi = self.io_read8(port.wrapping_add(1)) as u16;
        lo | hi << 8
    }
    /// Writes a word to an I/O port, by default as two byte transfers.
    fn io_write16(&mut self, port: u16, value: u16) {
        self.io_write8(port, value as u8);
        self.io_write8(port.wrapping_add(1), (value >> 8) as u8);
    }
    /// The level of the INTR pin, sampled by the CPU at instruction boundaries
    /// when IF is set.
    fn intr(&mut self) -> bool {
        false
    }
    /// The interrupt-acknowledge cycle pair: returns the vector number that
    /// the interrupt controller puts on the data bus.
    fn inta(&mut self) -> u8 {
        0xFF
    }
    /// Wait states (extra clocks) that the addressed device inserts into a
    /// memory transfer. Zero by default.
    fn mem_wait_states(&mut self, _addr: u32) -> u32 {
        0
    }
    /// Wait states (extra clocks) that the addressed device inserts into
    /// one byte of an I/O transfer (a word or doubleword at an 8-bit port
    /// takes one transfer per byte). Zero by default.
    fn io_wait_states(&mut self, _port: u16) -> u32 {
        0
    }
    /// The x87's error output after an ESC instruction: FERR# on the 486,
    /// ERROR# on a 287/387 (asserted while the status word's ES is set).
    /// A PC/AT routes it to IRQ13 (`emu::x87` error reporting). Unwired by
    /// default.
    fn ferr(&mut self, _asserted: bool) {}
    /// The BUSY# input as the board drives it for a coprocessor beside
    /// the CPU: the PC/AT holds it active from an error until a write to
    /// port F0h. Inactive by default.
    fn coprocessor_busy(&mut self) -> bool {
        false
    }
    /// The 486's IGNNE# input: a pending x87 error is ignored. Inactive by
    /// default.
    fn ignne(&mut self) -> bool {
        false
    }
}

/// A flat memory with no devices: every port reads FFh and writes are
/// dropped, as in the rules of the single-step suites (`shared/sst/README.md`).
#[derive(Clone)]
pub struct FlatBus {
    /// The memory; its length is a power of two and addresses wrap at it.
    pub mem: Vec<u8>,
    mask: u32,
}

impl FlatBus {
    /// A zero-filled memory of `size` bytes; `size` must be a power of two
    /// (1 MiB for the 8086 suite, 16 MiB for the 286 suite).
    pub fn new(size: usize) -> Self {
        assert!(
            size.is_power_of_two(),
            "FlatBus size must be a power of two"
        );
        FlatBus {
            mem: vec![0; size],
            mask: (size - 1) as u32,
        }
    }

    /// The address mask (size - 1).
    pub fn mask(&self) -> u32 {
        self.mask
    }
}

impl Bus for FlatBus {
    #[inline]
    fn mem_read8(&mut self, addr: u32) -> u8 {
        self.mem[(addr & self.mask) as usize]
    }
    #[inline]
    fn mem_write8(&mut self, addr: u32, value: u8) {
        self.mem[(addr & self.mask) as usize] = value;
    }
    /// All of memory is plain RAM: the window runs to its end, where
    /// addresses wrap.
    #[inline]
    fn code_window(&self, addr: u32) -> Option<&[u8]> {
        self.mem.get((addr & self.mask) as usize..)
    }
    fn io_read8(&mut self, _port: u16) -> u8 {
        0xFF
    }
    fn io_write8(&mut self, _port: u16, _value: u8) {}
}
