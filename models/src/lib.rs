//! High-level Rust models of the target game's routines
//! (`shared/design/target-game-facts.md`), the profiles that say where a
//! program keeps them, and the golden-master comparison against the
//! original code running on the emulated CPU.
//!
//! Models read their data (sine table, amplitudes, link graphs) from guest
//! memory through [`GuestMemory`], never from copies in Rust.

pub mod call;
pub mod compare;
pub mod error;
pub mod fountain;
pub mod landing;
pub mod memory;
pub mod params;
pub mod pit;
pub mod profile;
pub mod state;
pub mod sweep;

pub use error::{Error, ErrorKind};
pub use memory::{GuestMemory, Placement};
pub use profile::{Profile, ProfileError};
