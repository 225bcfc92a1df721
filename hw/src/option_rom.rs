//! Option ROMs: the BIOS scans C0000h-DFFFFh in 2 KiB steps for the 55h
//! AAh signature; byte 2 gives the length in 512-byte blocks, and all its
//! bytes must sum to 0 (mod 256). A valid ROM is initialised by a far call
//! to its offset 3 ([`crate::Machine::init_option_roms`]).

use crate::memory::Memory;

/// The area scanned.
const AREA: std::ops::Range<u32> = 0xC0000..0xE0000;
/// The scan's step.
const STEP: u32 = 2048;
/// The unit of the length byte.
const BLOCK: u32 = 512;

/// A ROM found by the scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionRom {
    /// Its segment (address / 16).
    pub segment: u16,
    /// Its length in bytes (byte 2 x 512).
    pub len: u32,
    /// Whether the checksum is good (bad ones are not called).
    pub checksum_ok: bool,
}

/// Scans C0000h-DFFFFh as a BIOS does.
pub fn scan(mem: &Memory) -> Vec<OptionRom> {
    let mut found = Vec::new();
    let mut addr = AREA.start;
    while addr < AREA.end {
        if mem.peek(addr) == 0x55 && mem.peek(addr + 1) == 0xAA {
            let len = mem.peek(addr + 2) as u32 * BLOCK;
            let sum = (0..len).fold(0u8, |s, i| s.wrapping_add(mem.peek(addr + i)));
            found.push(OptionRom {
                segment: (addr >> 4) as u16,
                len,
                checksum_ok: len > 0 && sum == 0,
            });
            if len > 0 {
                addr += len.div_ceil(STEP) * STEP;
                continue;
            }
        }
        addr += STEP;
    }
    found
}

/// Sets the checksum byte (the last byte of the image's declared length) so
/// the bytes sum to 0; pads or truncates the image to that length. For
/// building test ROMs.
pub fn fix_checksum(image: &mut Vec<u8>) {
    let len = image.get(2).map_or(0, |&b| b as usize * BLOCK as usize);
    if len == 0 {
        return;
    }
    image.resize(len, 0);
    let sum = image[..len - 1].iter().fold(0u8, |s, &b| s.wrapping_add(b));
    image[len - 1] = 0u8.wrapping_sub(sum);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_finds_valid_and_bad_roms() {
        let mut m = Memory::new(640, 0);
        let mut good = vec![0x55, 0xAA, 4, 0xCB];
        fix_checksum(&mut good);
        assert_eq!(good.len(), 2048);
        m.load_rom(0xC0000, &good);
        let mut bad = vec![0x55, 0xAA, 1, 0xCB];
        fix_checksum(&mut bad);
        bad[10] ^= 1;
        m.load_rom(0xC8000, &bad);
        let roms = scan(&m);
        assert_eq!(
            roms,
            [
                OptionRom {
                    segment: 0xC000,
                    len: 2048,
                    checksum_ok: true
                },
                OptionRom {
                    segment: 0xC800,
                    len: 512,
                    checksum_ok: false
                }
            ]
        );
    }
}
