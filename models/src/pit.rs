//! The PIT rate the game programs: channel 0 in mode 3 with the divisor
//! word its timer setup loads (0952h = 2,386), from an input clock of
//! 1,193,180 Hz (the game's own constant): about 500.075 interrupts per
//! second.

use crate::memory::{GuestMemory, Segments};
use crate::profile::Profile;

/// The PIT input clock the game assumes.
pub const GAME_PIT_HZ: u64 = 1_193_180;

/// Interrupts per second for a divisor (0 means 65,536).
pub fn rate_hz(pit_hz: u64, divisor: u16) -> f64 {
    let d = if divisor == 0 { 65_536 } else { divisor as u64 };
    pit_hz as f64 / d as f64
}

/// The three port writes of the timer setup: mode byte, then the divisor's
/// low and high bytes (PIT channel 0, lo/hi access, mode 3, binary).
pub fn setup_writes(divisor: u16) -> [(u16, u8); 3] {
    [
        (0x43, 0x36),
        (0x40, divisor as u8),
        (0x40, (divisor >> 8) as u8),
    ]
}

/// The divisor word the program holds.
pub fn divisor_in(mem: &(impl GuestMemory + ?Sized), profile: &Profile, at: Segments) -> u16 {
    mem.read16(at.code(profile.code.divisor))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_rate_is_500_075_hz() {
        let r = rate_hz(GAME_PIT_HZ, 0x0952);
        assert!((r - 500.075).abs() < 0.001, "{r}");
        assert_eq!(
            setup_writes(0x0952),
            [(0x43, 0x36), (0x40, 0x52), (0x40, 0x09)]
        );
    }
}
