//! The CPU's view of the outside world: one call per bus transfer.
//!
//! The CPU never touches memory or ports except through a [`Bus`]. Each call
//! is one bus cycle's data transfer (the 8086 datasheet's T1-T4 sequence); the
//! CPU's bus interface unit (`biu`) counts the clocks. A flat test bus
//! ([`FlatBus`]) serves the single-step suites; the PC machine implements the
//! same trait with its memory map and devices.

/// The CPU sends [`Bus::mem_read_direct`] and [`Bus::mem_write_direct`]
/// only bytes inside one aligned block of this size (2 KiB, the PC memory
/// map's page): a bus whose memory map has pages at least this large
/// decodes the first byte only.
pub const DIRECT_BLOCK: u32 = 2048;

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
    /// byte, reading the same bytes (and reads an interrupt vector from
    /// it). `None` (the default) sends every fetch through
    /// [`Bus::mem_read8`].
    #[inline]
    fn code_window(&self, _addr: u32) -> Option<&[u8]> {
        None
    }
    /// Reads `n` (1, 2 or 4) bytes at physical `addr` to `addr + n - 1`
    /// (already masked; the caller keeps them inside one aligned block of
    /// [`DIRECT_BLOCK`] bytes, so they never wrap) as one little-endian
    /// value, when all of them lie in RAM or ROM: reads with no side
    /// effects and no wait states. The bus does the accounting of
    /// [`Bus::mem_wait_states`] for the `n` bytes in one go. `None` (the
    /// default), with nothing changed, when the caller must read byte by
    /// byte through [`Bus::mem_wait_states`] and [`Bus::mem_read8`].
    #[inline]
    fn mem_read_direct(&mut self, _addr: u32, _n: u32) -> Option<u32> {
        None
    }
    /// Writes the low `n` (1, 2 or 4) bytes of `v` at physical `addr` to
    /// `addr + n - 1` (already masked, inside one [`DIRECT_BLOCK`]),
    /// little-endian, when all of them lie in plain RAM (or where the bus
    /// does itself what the byte path below would, in its order), with the
    /// accounting of [`Bus::mem_wait_states`] for the `n` bytes. False (the
    /// default), with nothing changed, when the caller must write byte by
    /// byte through [`Bus::mem_wait_states`] and [`Bus::mem_write8`].
    #[inline]
    fn mem_write_direct(&mut self, _addr: u32, _n: u32, _v: u32) -> bool {
        false
    }
    /// The bytes from physical `addr` (already masked) to the end of the
    /// memory page that holds it when that page is plain RAM or ROM, for
    /// the data reads of a REP CMPS/SCAS/LODS burst (the CPU keeps each
    /// burst inside one [`DIRECT_BLOCK`]). Reads through it have no side
    /// effects and no wait states; the CPU reports the bytes it took with
    /// [`Bus::mem_direct_done`]. `None` (the default) sends the reads one
    /// by one through [`Bus::mem_read_direct`] or the byte path.
    #[inline]
    fn data_window(&self, _addr: u32) -> Option<&[u8]> {
        None
    }
    /// The `n` bytes at physical `addr` (already masked, inside one
    /// [`DIRECT_BLOCK`]) when all of them lie in plain RAM, to be read or
    /// written at once: what [`Bus::mem_read_direct`] and
    /// [`Bus::mem_write_direct`] would do with them, the CPU reporting the
    /// bytes with [`Bus::mem_direct_done`] (a whole stack frame in one
    /// go). `None` (the default), with nothing changed, sends the accesses
    /// through those or the byte path.
    #[inline]
    fn ram_mut(&mut self, _addr: u32, _n: u32) -> Option<&mut [u8]> {
        None
    }
    /// The accounting of [`Bus::mem_wait_states`] for `bytes` bytes the
    /// CPU read through [`Bus::data_window`] or read or wrote through
    /// [`Bus::ram_mut`] (no-op by default, for a bus whose wait states are
    /// zero there).
    #[inline]
    fn mem_direct_done(&mut self, _bytes: u64) {}
    /// Fills `len` bytes at physical `addr` (already masked, inside one
    /// [`DIRECT_BLOCK`], `len` a multiple of `n`) with the low `n` (1, 2
    /// or 4) bytes of `v` repeated, little-endian: the elements of a REP
    /// STOS burst, when all of them lie in plain RAM, with the accounting
    /// of [`Bus::mem_wait_states`] for the `len` bytes. False (the
    /// default), with nothing changed, when the caller must store the
    /// elements one by one.
    #[inline]
    fn mem_fill_direct(&mut self, _addr: u32, _len: u32, _n: u32, _v: u32) -> bool {
        false
    }
    /// Copies `len` bytes from physical `src` to physical `dst` (each
    /// already masked and inside one [`DIRECT_BLOCK`]): the elements of a
    /// REP MOVS burst going down (`down`, DF set) or up, when the source
    /// lies in RAM or ROM and the destination in plain RAM, and moving them
    /// all at once gives the bytes that element after element would (the
    /// bus compares the two ranges where they really land, after any
    /// address gate), with the accounting of [`Bus::mem_wait_states`] for
    /// the `2 * len` bytes. False (the default), with nothing changed, when
    /// the caller must move the elements one by one.
    #[inline]
    fn mem_copy_direct(&mut self, _dst: u32, _src: u32, _len: u32, _down: bool) -> bool {
        false
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
    /// How many more bytes of memory operands the CPU may transfer in the
    /// current instruction (each through [`Bus::mem_read_direct`],
    /// [`Bus::mem_write_direct`] or [`Bus::mem_wait_states`], with no I/O
    /// in between) while [`Bus::intr`] is certain to keep answering false,
    /// as it just did: a REP string instruction then skips its samples
    /// between iterations. 0 (the default) asks [`Bus::intr`] every time.
    #[inline]
    fn intr_quiet_bytes(&mut self) -> u64 {
        0
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
    /// All of memory is plain RAM; only an operand that wraps at its end
    /// goes byte by byte.
    #[inline]
    fn mem_read_direct(&mut self, addr: u32, n: u32) -> Option<u32> {
        let a = (addr & self.mask) as usize;
        let b = self.mem.get(a..a.checked_add(n as usize)?)?;
        Some(le_value(b))
    }
    #[inline]
    fn mem_write_direct(&mut self, addr: u32, n: u32, v: u32) -> bool {
        let a = (addr & self.mask) as usize;
        let Some(end) = a.checked_add(n as usize) else {
            return false;
        };
        match self.mem.get_mut(a..end) {
            Some(b) => {
                put_le_value(b, v);
                true
            }
            None => false,
        }
    }
    /// All of memory is plain RAM, to its end.
    #[inline]
    fn data_window(&self, addr: u32) -> Option<&[u8]> {
        self.code_window(addr)
    }
    /// All of memory (an operand that wraps at its end goes byte by byte).
    #[inline]
    fn ram_mut(&mut self, addr: u32, n: u32) -> Option<&mut [u8]> {
        let a = (addr & self.mask) as usize;
        self.mem.get_mut(a..a.checked_add(n as usize)?)
    }
    fn io_read8(&mut self, _port: u16) -> u8 {
        0xFF
    }
    fn io_write8(&mut self, _port: u16, _value: u8) {}
}

/// The little-endian value of 1, 2 or 4 bytes (a bus's direct read, see
/// [`Bus::mem_read_direct`]).
#[inline(always)]
pub fn le_value(b: &[u8]) -> u32 {
    match *b {
        [b0] => b0 as u32,
        [b0, b1] => u16::from_le_bytes([b0, b1]) as u32,
        [b0, b1, b2, b3] => u32::from_le_bytes([b0, b1, b2, b3]),
        _ => b.iter().rev().fold(0, |v, &x| v << 8 | x as u32),
    }
}

/// Stores the low `b.len()` (1, 2 or 4) bytes of `v` into `b`,
/// little-endian (a bus's direct write, see [`Bus::mem_write_direct`]).
#[inline(always)]
pub fn put_le_value(b: &mut [u8], v: u32) {
    match b.len() {
        1 => b[0] = v as u8,
        2 => b.copy_from_slice(&(v as u16).to_le_bytes()),
        4 => b.copy_from_slice(&v.to_le_bytes()),
        _ => {
            for (i, x) in b.iter_mut().enumerate() {
                *x = (v >> (8 * i)) as u8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_bus_direct_access_matches_the_bytes() {
        let mut b = FlatBus::new(4096);
        assert!(b.mem_write_direct(0x100, 4, 0x4433_2211));
        assert_eq!(&b.mem[0x100..0x104], &[0x11, 0x22, 0x33, 0x44]);
        assert!(b.mem_write_direct(0x104, 2, 0x6655));
        assert!(b.mem_write_direct(0x106, 1, 0x77));
        assert_eq!(b.mem_read_direct(0x101, 4), Some(0x5544_3322));
        assert_eq!(b.mem_read_direct(0x105, 2), Some(0x7766));
        assert_eq!(b.mem_read_direct(0x106, 1), Some(0x77));
        // Addresses wrap at the memory's size; an operand across the end
        // goes byte by byte.
        assert_eq!(b.mem_read_direct(0x1100, 1), b.mem_read_direct(0x100, 1));
        assert_eq!(b.mem_read_direct(0xFFF, 2), None);
        assert!(!b.mem_write_direct(0xFFE, 4, 0));
    }

    #[test]
    fn le_values() {
        let mut b = [0u8; 4];
        put_le_value(&mut b[..2], 0xAABB_CCDD);
        assert_eq!(b, [0xDD, 0xCC, 0, 0]);
        assert_eq!(le_value(&b[..1]), 0xDD);
        assert_eq!(le_value(&b[..2]), 0xCCDD);
        put_le_value(&mut b, 0x0102_0304);
        assert_eq!(le_value(&b), 0x0102_0304);
        assert_eq!(le_value(&b[..3]), 0x02_0304);
    }
}
