//! The parameter table: 256 signed words at `SS:params` (an odd address in
//! the game), looked up as `table[((cell_state & 31) + index) & 255]`.

use crate::memory::{GuestMemory, Segments};
use crate::profile::Profile;

/// The table slot a cell state and an index select.
pub fn slot(cell_state: u8, index: u8) -> u8 {
    (cell_state & 31).wrapping_add(index)
}

/// The parameter a cell state and an index select, read from guest memory.
pub fn lookup(
    mem: &(impl GuestMemory + ?Sized),
    profile: &Profile,
    at: Segments,
    cell_state: u8,
    index: u8,
) -> i16 {
    read_slot(mem, profile, at, slot(cell_state, index))
}

/// The value of table slot `slot`.
pub fn read_slot(
    mem: &(impl GuestMemory + ?Sized),
    profile: &Profile,
    at: Segments,
    slot: u8,
) -> i16 {
    mem.read16(at.data(profile.data.params.wrapping_add(2 * slot as u16))) as i16
}

#[cfg(test)]
mod tests {
    use super::slot;

    #[test]
    fn slots_wrap_at_256_and_use_five_state_bits() {
        assert_eq!(slot(0x25, 3), 8);
        assert_eq!(slot(0xFF, 250), (31u16 + 250) as u8);
        assert_eq!(slot(0x1F, 0xE1), 0);
    }
}
