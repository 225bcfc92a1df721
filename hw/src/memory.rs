//! The PC memory map and the A20 gate.
//!
//! | range | what |
//! |---|---|
//! | 00000h-9FFFFh | conventional RAM (640 KiB by default) |
//! | A0000h-BFFFFh | the VGA window (the graphics controller decides which part answers) |
//! | C0000h-DFFFFh | option ROMs (C0000h: the video BIOS), open bus where none is loaded |
//! | E0000h-EFFFFh | open bus |
//! | F0000h-FFFFFh | system BIOS ROM |
//! | 100000h-10FFEFh | the HMA: extended RAM seen from real mode when A20 is enabled |
//!
//! Address line 20 is gated by the 8042's output port bit 1 OR port 92h bit
//! 1 (the PS/2 "fast A20"). With A20 disabled, bit 20 of every address is
//! forced to 0, so FFFF:0010 wraps to 0000:0000 as on an 8086. Unmapped
//! addresses read FFh (a floating ISA bus) and ignore writes.

use crate::error::Error;

/// What answers at a physical address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Region {
    /// Read/write memory.
    Ram,
    /// Read-only memory: writes are ignored.
    Rom,
    /// The VGA's memory window.
    Vga,
    /// Nothing: reads FFh.
    Open,
}

/// Granularity of the first-megabyte map.
const PAGE_SHIFT: u32 = 11; // 2 KiB, the option-ROM scan step
const _: () = assert!(1 << PAGE_SHIFT == emu::bus::DIRECT_BLOCK);
/// Pages of the first mebibyte's map.
const PAGES: usize = (MIB >> PAGE_SHIFT) as usize;

/// Pages of the direct-access table ([`PageTable`]): every address a
/// real-mode segment:offset reaches, up to 10FFEFh (the HMA).
const TABLE_PAGES: usize = (MIB as usize + SEGMENT_BYTES) >> PAGE_SHIFT;
/// A real-mode segment's 64 KiB: the most a segment:offset reaches past
/// 1 MiB (the HMA, in whole pages).
const SEGMENT_BYTES: usize = 0x1_0000;
/// A [`PageTable`] entry for a page that takes no direct access (not a
/// multiple of the page, so no page's delta).
const NO_DIRECT: u32 = u32::MAX;
/// Which of a [`PageTable`]'s two tables: reads (RAM and ROM).
const READ: usize = 0;
/// Which of a [`PageTable`]'s two tables: writes (RAM).
const WRITE: usize = 1;

/// The direct-access table, one entry per 2 KiB page of (ungated)
/// address below 110000h, in two tables, for reads ([`READ`]: RAM or
/// ROM) and for writes ([`WRITE`]: RAM): what to add to an address of the
/// page to get its backing offset after the A20 gate (0, or -1 MiB for the
/// HMA with the gate closed), or [`NO_DIRECT`] when the page is anything
/// else (the VGA window, open bus, ROM for a write, a page only partly
/// backed). It replaces the gate, the region decode and the range check
/// of every direct operand access by one load and an add. Derived from
/// the other fields of [`Memory`] and rebuilt whenever they change (the
/// map, the gate), so it takes no part in comparing, hashing or saving a
/// memory.
#[derive(Clone, Debug)]
struct PageTable([Box<[u32; TABLE_PAGES]>; 2]);

impl PartialEq for PageTable {
    /// Equal memories' tables are equal: they are derived from the rest.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for PageTable {}

impl std::hash::Hash for PageTable {
    /// Nothing: the table is derived (and must not change state hashes).
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// RAM, ROM images and the map of the first megabyte plus extended memory.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "MemoryState")]
pub struct Memory {
    /// Backing store for everything below 1 MiB (RAM and ROM images) and
    /// the extended RAM above it.
    bytes: Vec<u8>,
    map: Vec<Region>,
    ext_bytes: u32,
    kbc_a20: bool,
    port92_a20: bool,
    /// The direct-access table (derived, not saved).
    #[serde(skip_serializing)]
    table: PageTable,
}

/// What a saved [`Memory`] holds: its fields but the derived table, in the
/// same order (the saved form is unchanged).
#[derive(serde::Deserialize)]
struct MemoryState {
    bytes: Vec<u8>,
    map: Vec<Region>,
    ext_bytes: u32,
    kbc_a20: bool,
    port92_a20: bool,
}

impl TryFrom<MemoryState> for Memory {
    type Error = Error;

    /// A saved memory, checked before the table is built from it: a
    /// damaged or hostile state file is an error, never a panic.
    fn try_from(s: MemoryState) -> Result<Self, Error> {
        if s.map.len() != PAGES {
            return Err(Error::MemoryMap {
                pages: s.map.len(),
                expected: PAGES,
            });
        }
        if s.ext_bytes > MAX_EXTENDED_KIB * KIB || s.bytes.len() != (MIB + s.ext_bytes) as usize {
            return Err(Error::MemorySize {
                bytes: s.bytes.len(),
                ext_bytes: s.ext_bytes,
            });
        }
        Ok(Memory::from_checked(s))
    }
}

impl Memory {
    /// [`Memory`] from a state whose sizes are right.
    fn from_checked(s: MemoryState) -> Self {
        let mut m = Memory {
            bytes: s.bytes,
            map: s.map,
            ext_bytes: s.ext_bytes,
            kbc_a20: s.kbc_a20,
            port92_a20: s.port92_a20,
            table: PageTable([
                Box::new([NO_DIRECT; TABLE_PAGES]),
                Box::new([NO_DIRECT; TABLE_PAGES]),
            ]),
        };
        m.rebuild_table(0..TABLE_PAGES);
        m
    }
}

/// One mebibyte.
pub const MIB: u32 = 0x10_0000;
/// One kibibyte.
const KIB: u32 = 1024;
/// The most conventional RAM, in KiB (up to the VGA window).
const MAX_CONVENTIONAL_KIB: u32 = 640;
/// The most extended RAM, in KiB (to the 286's 16 MiB address space).
const MAX_EXTENDED_KIB: u32 = 15 * 1024;
/// The VGA window.
const VGA_WINDOW: std::ops::Range<u32> = 0xA0000..0xC0000;
/// The system BIOS ROM, up to 1 MiB.
const BIOS_ROM: u32 = 0xF0000;

impl Memory {
    /// A map with `conventional_kib` KiB of conventional RAM (at most 640)
    /// and `extended_kib` KiB of extended RAM at 1 MiB. The system BIOS area
    /// F0000h-FFFFFh is ROM filled with FFh.
    pub fn new(conventional_kib: u32, extended_kib: u32) -> Self {
        let conv = conventional_kib.min(MAX_CONVENTIONAL_KIB) * KIB;
        let ext_bytes = extended_kib.min(MAX_EXTENDED_KIB) * KIB;
        let mut map = vec![Region::Open; PAGES];
        for (i, r) in map.iter_mut().enumerate() {
            let a = (i as u32) << PAGE_SHIFT;
            *r = if a < conv {
                Region::Ram
            } else if VGA_WINDOW.contains(&a) {
                Region::Vga
            } else if a >= BIOS_ROM {
                Region::Rom
            } else {
                Region::Open
            };
        }
        let mut bytes = vec![0u8; (MIB + ext_bytes) as usize];
        bytes[BIOS_ROM as usize..MIB as usize].fill(0xFF);
        Memory::from_checked(MemoryState {
            bytes,
            map,
            ext_bytes,
            kbc_a20: false,
            port92_a20: false,
        })
    }

    /// Recomputes the direct-access table's entries for `pages` (see
    /// [`PageTable`]) from the map, the gate and the backing store.
    fn rebuild_table(&mut self, pages: std::ops::Range<usize>) {
        for p in pages {
            let a = self.gate((p as u32) << PAGE_SHIFT);
            let end = a as usize + (1 << PAGE_SHIFT);
            let full = end <= self.bytes.len();
            let delta = a.wrapping_sub((p as u32) << PAGE_SHIFT);
            let (read, write) = match self.decode(a) {
                Region::Ram if full => (delta, delta),
                Region::Rom if full => (delta, NO_DIRECT),
                _ => (NO_DIRECT, NO_DIRECT),
            };
            self.table.0[READ][p] = read;
            self.table.0[WRITE][p] = write;
        }
    }

    /// The pages past 1 MiB, the only ones the gate moves.
    fn rebuild_hma(&mut self) {
        self.rebuild_table((MIB >> PAGE_SHIFT) as usize..TABLE_PAGES);
    }

    /// Whether address line 20 is enabled.
    pub fn a20(&self) -> bool {
        self.kbc_a20 || self.port92_a20
    }

    /// The 8042 output port's A20 bit.
    pub fn set_kbc_a20(&mut self, on: bool) {
        self.kbc_a20 = on;
        self.rebuild_hma();
    }

    /// Port 92h bit 1.
    pub fn set_port92_a20(&mut self, on: bool) {
        self.port92_a20 = on;
        self.rebuild_hma();
    }

    /// Port 92h's A20 bit as last written.
    pub fn port92_a20(&self) -> bool {
        self.port92_a20
    }

    /// The address after the A20 gate.
    #[inline]
    pub fn gate(&self, addr: u32) -> u32 {
        if self.a20() {
            addr
        } else {
            addr & !MIB
        }
    }

    /// What answers at (gated) physical address `addr`, and its offset in
    /// the backing store for RAM and ROM.
    #[inline]
    pub fn decode(&self, addr: u32) -> Region {
        if addr < MIB {
            self.map[(addr >> PAGE_SHIFT) as usize]
        } else if addr - MIB < self.ext_bytes {
            Region::Ram
        } else {
            Region::Open
        }
    }

    /// Reads RAM/ROM at an address already decoded as such.
    #[inline]
    pub fn read_backing(&self, addr: u32) -> u8 {
        self.bytes.get(addr as usize).copied().unwrap_or(0xFF)
    }

    /// Writes RAM at an address already decoded as such.
    #[inline]
    pub fn write_backing(&mut self, addr: u32, v: u8) {
        if let Some(b) = self.bytes.get_mut(addr as usize) {
            *b = v;
        }
    }

    /// The backing bytes from (gated) `addr` to the end of its 2 KiB page
    /// when the page is RAM or ROM: the CPU's code fetches read them
    /// directly (`emu::Bus::code_window`). `None` for the VGA window and
    /// open bus, whose reads go through the bus.
    #[inline]
    pub fn code_window(&self, addr: u32) -> Option<&[u8]> {
        match self.decode(addr) {
            Region::Ram | Region::Rom => {
                let start = addr as usize;
                let end = (start | ((1 << PAGE_SHIFT) - 1)) + 1;
                self.bytes.get(start..end.min(self.bytes.len()))
            }
            Region::Vga | Region::Open => None,
        }
    }

    /// The backing range of `n` bytes at (ungated) `addr`, which the CPU
    /// keeps inside one 2 KiB page (`emu::bus::DIRECT_BLOCK`, the map's
    /// page), when the page is RAM, or RAM or ROM for a read (`write`
    /// false): the CPU's direct operand accesses
    /// (`emu::Bus::mem_read_direct`). `None` for the VGA window, open bus,
    /// a write to ROM, and bytes that straddle a page after all.
    #[inline(always)]
    fn direct_range(&self, addr: u32, n: u32, write: bool) -> Option<std::ops::Range<usize>> {
        if (addr & ((1 << PAGE_SHIFT) - 1)) + n > 1 << PAGE_SHIFT {
            return None;
        }
        // One page: the gate moves all of its bytes alike.
        let a = self.gate(addr);
        match self.decode(a) {
            Region::Ram => {}
            Region::Rom if !write => {}
            _ => return None,
        }
        let start = a as usize;
        Some(start..start + n as usize)
    }

    /// The backing offset of (ungated) `addr` when the direct-access
    /// table `which` ([`READ`], [`WRITE`]) lets its accesses go straight to
    /// its page.
    #[inline(always)]
    fn table_offset(&self, addr: u32, which: usize) -> Option<usize> {
        let e = *self.table.0[which].get((addr >> PAGE_SHIFT) as usize)?;
        (e != NO_DIRECT).then_some(addr.wrapping_add(e) as usize)
    }

    /// [`Memory::read_direct`] through the direct-access table only: `None`
    /// also for pages the table does not cover (use [`Memory::read_direct`]
    /// then), so that the hot path has no decode.
    #[inline(always)]
    pub fn read_direct_fast(&self, addr: u32, n: u32) -> Option<u32> {
        if (addr & ((1 << PAGE_SHIFT) - 1)) + n > 1 << PAGE_SHIFT {
            return None;
        }
        let o = self.table_offset(addr, READ)?;
        Some(emu::bus::le_value(self.table_bytes(o, n)))
    }

    /// [`Memory::code_window`] of the gated `addr`, given the ungated
    /// one: the direct-access table's pages inline, the rest through the
    /// gate and the decode (`Memory::window_cold`).
    #[inline(always)]
    pub fn window(&self, addr: u32) -> Option<&[u8]> {
        match self.table_offset(addr, READ) {
            Some(o) => self.bytes.get(o..(o | ((1 << PAGE_SHIFT) - 1)) + 1),
            None => self.window_cold(addr),
        }
    }

    /// [`Memory::window`] off the table: the gate, then the decode.
    #[cold]
    #[inline(never)]
    fn window_cold(&self, addr: u32) -> Option<&[u8]> {
        self.code_window(self.gate(addr))
    }

    /// [`Memory::write_direct`] through the direct-access table only (see
    /// [`Memory::read_direct_fast`]).
    #[inline(always)]
    pub fn write_direct_fast(&mut self, addr: u32, n: u32, v: u32) -> bool {
        if (addr & ((1 << PAGE_SHIFT) - 1)) + n > 1 << PAGE_SHIFT {
            return false;
        }
        let Some(o) = self.table_offset(addr, WRITE) else {
            return false;
        };
        emu::bus::put_le_value(self.table_bytes_mut(o, n), v);
        true
    }

    /// The `n` backing bytes at offset `o`, which lie in a page the
    /// direct-access table takes, from `o` to the page's end at the most.
    /// Without the bounds check: measured, it costs 3 host instructions
    /// per guest instruction of roms/bench/mem.asm (172.0 -> 169.0).
    #[inline(always)]
    fn table_bytes(&self, o: usize, n: u32) -> &[u8] {
        debug_assert!(o + n as usize <= self.bytes.len());
        // SAFETY: `rebuild_table` gives a page an entry other than
        // `NO_DIRECT` only when the whole page, after the gate, lies in
        // `bytes` (`end <= self.bytes.len()`), and the entry takes an
        // address of the page to its place in that gated page;
        // `bytes` never changes its length after `Memory::from` built the
        // table; and the callers keep the `n` bytes inside the page
        // (`read_direct_fast`'s straddle check), so `o + n` is at most the
        // page's end.
        unsafe { self.bytes.get_unchecked(o..o + n as usize) }
    }

    /// [`Memory::table_bytes`], to write.
    #[inline(always)]
    fn table_bytes_mut(&mut self, o: usize, n: u32) -> &mut [u8] {
        debug_assert!(o + n as usize <= self.bytes.len());
        // SAFETY: as in `table_bytes`.
        unsafe { self.bytes.get_unchecked_mut(o..o + n as usize) }
    }

    /// The `n` bytes at (ungated) `addr` when they lie in RAM of one page
    /// (the caller keeps them in one), for the CPU to write at once as
    /// [`Memory::write_direct`] would (a stack frame: `emu::Bus::ram_mut`).
    #[inline(always)]
    pub fn ram_mut(&mut self, addr: u32, n: u32) -> Option<&mut [u8]> {
        if (addr & ((1 << PAGE_SHIFT) - 1)) + n > 1 << PAGE_SHIFT {
            return None;
        }
        let o = self.table_offset(addr, WRITE)?;
        Some(self.table_bytes_mut(o, n))
    }

    /// Reads `n` (1, 2 or 4) bytes at (ungated) `addr`, little-endian, when
    /// they lie in RAM or ROM (see [`Memory::write_direct`]);
    /// `None` sends the read byte by byte through the bus.
    #[inline]
    pub fn read_direct(&self, addr: u32, n: u32) -> Option<u32> {
        let r = self.direct_range(addr, n, false)?;
        self.bytes.get(r).map(emu::bus::le_value)
    }

    /// Writes the low `n` (1, 2 or 4) bytes of `v` at (ungated) `addr`,
    /// little-endian, when they lie in RAM of one page (the caller keeps
    /// them in one); false (nothing
    /// written) sends the write byte by byte through the bus, where ROM
    /// ignores it and the VGA takes it.
    #[inline]
    pub fn write_direct(&mut self, addr: u32, n: u32, v: u32) -> bool {
        let Some(r) = self.direct_range(addr, n, true) else {
            return false;
        };
        match self.bytes.get_mut(r) {
            Some(b) => {
                emu::bus::put_le_value(b, v);
                true
            }
            None => false,
        }
    }

    /// Fills `len` bytes at (ungated) `addr`, inside one page of RAM,
    /// with the low `n` bytes of `v` repeated (a REP STOS burst,
    /// `emu::Bus::mem_fill_direct`); false (nothing written) otherwise.
    pub fn fill_direct(&mut self, addr: u32, len: u32, n: u32, v: u32) -> bool {
        let Some(r) = self.direct_range(addr, len, true) else {
            return false;
        };
        let Some(b) = self.bytes.get_mut(r) else {
            return false;
        };
        let e = v.to_le_bytes();
        match n {
            1 => b.fill(v as u8),
            2 => b
                .chunks_exact_mut(2)
                .for_each(|c| c.copy_from_slice(&e[..2])),
            4 => b.chunks_exact_mut(4).for_each(|c| c.copy_from_slice(&e)),
            _ => return false,
        }
        true
    }

    /// The `len` bytes at (ungated) `addr`, inside one page of RAM or
    /// ROM (a REP MOVS source, `emu::Bus::mem_copy_direct`).
    pub fn read_run(&self, addr: u32, len: u32) -> Option<&[u8]> {
        self.bytes.get(self.direct_range(addr, len, false)?)
    }

    /// Copies `len` bytes from (ungated) `src` (RAM or ROM) to `dst` (RAM),
    /// each inside one page: a REP MOVS burst going down (`down`) or up
    /// (`emu::Bus::mem_copy_direct`). False (nothing written) when a range
    /// is elsewhere, or when the ranges overlap so that element-by-element
    /// order would read bytes it has already written (going up with the
    /// destination inside the source, past its start; going down with the
    /// source inside the destination, past its start).
    pub fn copy_direct(&mut self, dst: u32, src: u32, len: u32, down: bool) -> bool {
        let (Some(d), Some(s)) = (
            self.direct_range(dst, len, true),
            self.direct_range(src, len, false),
        ) else {
            return false;
        };
        let feeds_back = if down {
            d.start < s.start && s.start < d.end
        } else {
            s.start < d.start && d.start < s.end
        };
        if feeds_back || d.end > self.bytes.len() || s.end > self.bytes.len() {
            return false;
        }
        self.bytes.copy_within(s, d.start);
        true
    }

    /// Places a ROM image at `addr` (below 1 MiB, rounded to 2 KiB pages):
    /// the pages it covers read as the image and ignore writes. Bytes past
    /// 1 MiB are dropped. Returns the number of bytes placed.
    pub fn load_rom(&mut self, addr: u32, image: &[u8]) -> usize {
        let addr = addr.min(MIB);
        let len = image.len().min((MIB - addr) as usize);
        let start = addr as usize;
        self.bytes[start..start + len].copy_from_slice(&image[..len]);
        let first = start >> PAGE_SHIFT;
        let last = (start + len).div_ceil(1 << PAGE_SHIFT);
        for r in &mut self.map[first..last] {
            *r = Region::Rom;
        }
        self.rebuild_table(0..TABLE_PAGES);
        len
    }

    /// Makes the 2 KiB pages covering `[addr, addr + len)` below 1 MiB
    /// read/write RAM (for an EMS page frame in the upper memory area).
    pub fn map_ram(&mut self, addr: u32, len: u32) {
        let end = addr.saturating_add(len).min(MIB);
        let first = (addr.min(MIB) >> PAGE_SHIFT) as usize;
        let last = (end as usize).div_ceil(1 << PAGE_SHIFT);
        for r in &mut self.map[first..last] {
            *r = Region::Ram;
        }
        self.rebuild_table(0..TABLE_PAGES);
    }

    /// Debugger/loader access: reads any RAM or ROM byte (after the A20
    /// gate); the VGA window and open bus read FFh here.
    pub fn peek(&self, addr: u32) -> u8 {
        let a = self.gate(addr);
        match self.decode(a) {
            Region::Ram | Region::Rom => self.read_backing(a),
            _ => 0xFF,
        }
    }

    /// Loader access: writes RAM (ROM and holes are left alone). Returns
    /// false when the byte did not land in RAM.
    pub fn poke(&mut self, addr: u32, v: u8) -> bool {
        let a = self.gate(addr);
        if self.decode(a) == Region::Ram {
            self.write_backing(a, v);
            true
        } else {
            false
        }
    }

    /// Writes ROM or RAM bytes without regard to the map (used to build the
    /// machine's own ROM stubs).
    pub fn write_image(&mut self, addr: u32, data: &[u8]) {
        for (i, &b) in data.iter().enumerate() {
            self.write_backing(addr + i as u32, b);
        }
    }

    /// The whole backing store (RAM and ROM images), for hashing.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_regions() {
        let m = Memory::new(640, 1024);
        assert_eq!(m.decode(0), Region::Ram);
        assert_eq!(m.decode(0x9FFFF), Region::Ram);
        assert_eq!(m.decode(0xA0000), Region::Vga);
        assert_eq!(m.decode(0xBFFFF), Region::Vga);
        assert_eq!(m.decode(0xC0000), Region::Open);
        assert_eq!(m.decode(0xF0000), Region::Rom);
        assert_eq!(m.decode(0x100000), Region::Ram);
        assert_eq!(m.decode(0x1FFFFF), Region::Ram);
        assert_eq!(m.decode(0x200000), Region::Open);
        let small = Memory::new(512, 0);
        assert_eq!(small.decode(0x80000), Region::Open);
        assert_eq!(small.decode(0x100000), Region::Open);
    }

    #[test]
    fn a20_gate_wraps_the_hma() {
        let mut m = Memory::new(640, 64);
        m.poke(0x0000_0010, 0x11);
        // FFFF:0020 = 10_0010h: wraps to 10h with A20 off.
        assert_eq!(m.peek(0x10_0010), 0x11);
        m.set_kbc_a20(true);
        assert_eq!(m.peek(0x10_0010), 0x00);
        assert!(m.poke(0x10_0010, 0x22));
        assert_eq!(m.peek(0x10), 0x11);
        m.set_kbc_a20(false);
        m.set_port92_a20(true);
        assert_eq!(m.peek(0x10_0010), 0x22);
        m.set_port92_a20(false);
        assert_eq!(m.peek(0x10_0010), 0x11);
    }

    #[test]
    fn code_window_ends_at_the_page_and_skips_devices() {
        let mut m = Memory::new(640, 64);
        m.poke(0x17FE, 0x90);
        let w = m.code_window(0x17FE).expect("RAM page");
        assert_eq!(w, &[0x90, 0x00]);
        assert_eq!(m.code_window(0xA0000), None);
        assert_eq!(m.code_window(0xC0000), None);
        assert_eq!(m.code_window(0xFFFFF).map(<[u8]>::len), Some(1));
        assert_eq!(m.code_window(MIB + 64 * 1024), None);
        assert_eq!(m.code_window(MIB + 64 * 1024 - 1).map(<[u8]>::len), Some(1));
    }

    #[test]
    fn direct_access_takes_ram_and_rom_of_one_page_only() {
        let mut m = Memory::new(640, 65);
        assert!(m.write_direct(0x1234, 4, 0x4433_2211));
        assert_eq!(
            (0x1234..0x1238).map(|a| m.peek(a)).collect::<Vec<_>>(),
            [0x11, 0x22, 0x33, 0x44]
        );
        assert_eq!(m.read_direct(0x1235, 2), Some(0x3322));
        assert_eq!(m.read_direct(0x1236, 1), Some(0x33));
        // Straddling a page: byte by byte.
        assert!(!m.write_direct(0x17FF, 2, 0xBEEF));
        assert_eq!(m.read_direct(0x17FE, 4), None);
        assert!(m.write_direct(0x17FC, 4, 0xBEEF));
        // The VGA window, open bus and ROM.
        assert_eq!(m.read_direct(0xA0000, 1), None);
        assert!(!m.write_direct(0xA0000, 1, 0));
        assert_eq!(m.read_direct(0xC0000, 2), None);
        assert_eq!(m.read_direct(0xFFFF0, 4), Some(0xFFFF_FFFF));
        assert!(!m.write_direct(0xFFFF0, 4, 0));
        // A20 off: the HMA is the first 64 KiB; the wrap at 1 MiB straddles.
        assert_eq!(m.read_direct(MIB + 0x1234, 1), Some(0x11));
        assert_eq!(m.read_direct(0xFFFFF, 2), None);
        m.set_kbc_a20(true);
        assert_eq!(m.read_direct(MIB + 0x1234, 1), Some(0));
        assert!(m.write_direct(MIB + 0x1234, 2, 0x5566));
        assert_eq!(m.peek(MIB + 0x1235), 0x55);
        // The end of extended memory (65 KiB: inside a page).
        let end = MIB + 65 * 1024;
        assert_eq!(m.read_direct(end - 2, 2), Some(0));
        assert_eq!(m.read_direct(end - 2, 4), None);
        assert!(!m.write_direct(end - 1, 2, 0));
        assert_eq!(m.read_direct(end, 1), None);
    }

    /// Checks the direct-access table against the decode, page by page:
    /// the table's reads and writes give what [`Memory::read_direct`] and
    /// [`Memory::write_direct`] give, and it takes every fully backed RAM
    /// (writes) or RAM/ROM (reads) page.
    fn check_table(m: &Memory) {
        for p in 0..TABLE_PAGES as u32 {
            for a in [p << PAGE_SHIFT, (p << PAGE_SHIFT) + 0x7FE] {
                let slow = m.read_direct(a, 2);
                let fast = m.read_direct_fast(a, 2);
                let full = (m.gate(a) | 0x7FF) < m.bytes.len() as u32;
                assert!(fast.is_none() || fast == slow, "read {a:#x}");
                assert_eq!(fast.is_some(), slow.is_some() && full, "read {a:#x}");
                let (mut f, mut s) = (m.clone(), m.clone());
                let wf = f.write_direct_fast(a, 2, 0xA55A);
                let ws = s.write_direct(a, 2, 0xA55A);
                assert_eq!(wf, ws && full, "write {a:#x}");
                if wf {
                    assert!(f.bytes == s.bytes, "write {a:#x}");
                }
            }
        }
        for a in (0..0x11_0000).step_by(0x3FF) {
            assert_eq!(m.window(a), m.code_window(m.gate(a)), "window {a:#x}");
        }
        // Straddling a page: never direct.
        assert_eq!(m.read_direct_fast(0x17FF, 2), None);
        assert!(!m.clone().write_direct_fast(0x17FE, 4, 0));
    }

    #[test]
    fn a_saved_memory_of_the_wrong_size_is_an_error() {
        // The saved form is the fields in order: bytes, map, ext_bytes,
        // kbc_a20, port92_a20.
        let empty_map = (
            vec![0u8; MIB as usize],
            Vec::<Region>::new(),
            0u32,
            false,
            false,
        );
        let raw = bincode::serialize(&empty_map).expect("serialises");
        assert!(bincode::deserialize::<Memory>(&raw).is_err());
        let short = (vec![0u8; 16], vec![Region::Ram; PAGES], 0u32, false, false);
        let raw = bincode::serialize(&short).expect("serialises");
        assert!(bincode::deserialize::<Memory>(&raw).is_err());
        let right = (
            vec![0u8; MIB as usize],
            vec![Region::Ram; PAGES],
            0u32,
            false,
            false,
        );
        let raw = bincode::serialize(&right).expect("serialises");
        assert!(bincode::deserialize::<Memory>(&raw).is_ok());
    }

    #[test]
    fn direct_table_follows_the_map_and_the_gate() {
        // 63 KiB of extended RAM: the HMA's last page is half backed.
        let mut m = Memory::new(640, 63);
        for i in 0..0x20u32 {
            m.poke(i, i as u8);
        }
        check_table(&m);
        // A20 off: the HMA wraps to the first 64 KiB.
        assert_eq!(m.read_direct_fast(MIB + 0x10, 2), Some(0x1110));
        m.set_kbc_a20(true);
        check_table(&m);
        assert_eq!(m.read_direct_fast(MIB + 0x10, 2), Some(0));
        assert!(m.write_direct_fast(MIB + 0x10, 1, 0x77));
        assert_eq!((m.peek(0x10), m.peek(MIB + 0x10)), (0x10, 0x77));
        m.set_kbc_a20(false);
        m.set_port92_a20(true);
        check_table(&m);
        assert_eq!(m.read_direct_fast(MIB + 0x10, 1), Some(0x77));
        m.load_rom(0xC0000, &[0x55, 0xAA]);
        m.map_ram(0xD0000, 0x4000);
        check_table(&m);
        assert_eq!(m.read_direct_fast(0xC0000, 2), Some(0xAA55));
        assert!(!m.write_direct_fast(0xC0000, 1, 0));
        assert!(m.write_direct_fast(0xD3FFE, 2, 0x1234));
        assert_eq!(m.read_direct(0xD3FFE, 2), Some(0x1234));
        // A saved memory comes back with its table.
        let back: Memory =
            bincode::deserialize(&bincode::serialize(&m).expect("saves")).expect("loads");
        assert!(back == m);
        check_table(&back);
        assert_eq!(back.read_direct_fast(MIB + 0x10, 1), Some(0x77));
    }

    /// Byte by byte in the order a REP MOVS runs (`down`: from the top).
    fn copy_bytewise(m: &mut Memory, dst: u32, src: u32, len: u32, down: bool) {
        for k in 0..len {
            let i = if down { len - 1 - k } else { k };
            let v = m.peek(src + i);
            m.poke(dst + i, v);
        }
    }

    #[test]
    fn bulk_copy_matches_bytewise_order_or_declines() {
        for down in [false, true] {
            for delta in [-9i32, -1, 0, 1, 2, 9, 700] {
                let mut m = Memory::new(640, 64);
                for i in 0..0x1000u32 {
                    m.poke(0x4000 + i, (i * 7 + 3) as u8);
                }
                let mut r = m.clone();
                let (src, len) = (0x4100, 0x200);
                let dst = (src as i32 + delta) as u32;
                copy_bytewise(&mut r, dst, src, len, down);
                if m.copy_direct(dst, src, len, down) {
                    assert!(m.bytes == r.bytes, "delta {delta}, down {down}");
                } else {
                    // Only a destination the order would read back from.
                    let feeds = if down { delta < 0 } else { delta > 0 };
                    assert!(feeds && delta.unsigned_abs() < len, "{delta} {down}");
                }
            }
        }
        // A20 off: 10_4100h is 4100h, so this copy feeds back.
        let mut m = Memory::new(640, 64);
        assert!(!m.copy_direct(MIB + 0x4101, 0x4100, 0x100, false));
        assert!(m.copy_direct(MIB + 0x4100, 0x4101, 0x100, false));
        // ROM and the VGA take no bulk writes; ROM is a source.
        assert!(!m.copy_direct(0xF0000, 0x4000, 16, false));
        assert!(!m.copy_direct(0xA0000, 0x4000, 16, false));
        assert!(m.copy_direct(0x4000, 0xF0000, 16, true));
        assert_eq!(m.peek(0x4000), 0xFF);
        assert!(!m.fill_direct(0xF0000, 16, 2, 0));
    }

    #[test]
    fn bulk_fill_repeats_the_element() {
        let mut m = Memory::new(640, 64);
        assert!(m.fill_direct(0x2002, 12, 4, 0x4433_2211));
        assert!(m.fill_direct(0x2010, 6, 2, 0xBBAA));
        assert!(m.fill_direct(0x2020, 3, 1, 0xCC));
        let got: Vec<u8> = (0x2000..0x2024).map(|a| m.peek(a)).collect();
        let mut want = vec![0u8; 0x24];
        want[2..14].copy_from_slice(&[0x11, 0x22, 0x33, 0x44].repeat(3));
        want[0x10..0x16].copy_from_slice(&[0xAA, 0xBB].repeat(3));
        want[0x20..0x23].fill(0xCC);
        assert_eq!(got, want);
        // Across a page: declined.
        assert!(!m.fill_direct(0x27FE, 4, 2, 0));
    }

    #[test]
    fn rom_ignores_writes() {
        let mut m = Memory::new(640, 0);
        m.load_rom(0xC0000, &[0x55, 0xAA, 1]);
        assert_eq!(m.decode(0xC0000), Region::Rom);
        assert_eq!(m.decode(0xC0800), Region::Open);
        assert!(!m.poke(0xC0000, 0));
        assert_eq!(m.peek(0xC0001), 0xAA);
    }
}
