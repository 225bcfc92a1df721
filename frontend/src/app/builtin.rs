//! The programs built into the binary: the replica of the target game in
//! its two layouts (`roms/replica/`), so that everything runs without the
//! game. `tandem run` with no program runs the retail layout; a golden-
//! master command with a replica profile and no program uses that
//! profile's layout.

/// The replica, retail layout (`roms/replica/replica.exe`).
pub const REPLICA: &[u8] = include_bytes!("../../../roms/replica/replica.exe");

/// The replica, demo layout (`roms/replica/replica-demo.exe`).
pub const REPLICA_DEMO: &[u8] = include_bytes!("../../../roms/replica/replica-demo.exe");

/// The benchmark of `tandem bench` (`roms/devices/bench.com`): a
/// CPU-bound loop with IRQ0 at about 1 kHz and video-memory writes.
pub const BENCH: &[u8] = include_bytes!("../../../roms/devices/bench.com");

/// What `tandem run` calls the replica it runs when no program is named.
pub const RUN_NAME: &str = "replica (built-in)";

/// The DOS path the built-in replica runs under (drive C: is an empty
/// temporary folder).
pub const DOS_PATH: &str = "C:\\REPLICA.EXE";

/// The built-in program of a profile, by the profile's name: the replica
/// profiles have one, a game's profile describes the user's own copy.
pub fn for_profile(profile: &str) -> Option<&'static [u8]> {
    match profile {
        "replica" => Some(REPLICA),
        "replica-demo" => Some(REPLICA_DEMO),
        _ => None,
    }
}

/// The name of a profile's built-in program in messages.
pub fn name_for_profile(profile: &str) -> String {
    format!("built-in {profile}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_replica_profiles_have_their_layouts_and_games_none() {
        assert_eq!(for_profile("replica"), Some(REPLICA));
        assert_eq!(for_profile("replica-demo"), Some(REPLICA_DEMO));
        assert_eq!(for_profile("game-retail"), None);
        assert_ne!(REPLICA, REPLICA_DEMO);
        assert_eq!(&REPLICA[..2], b"MZ");
    }
}
