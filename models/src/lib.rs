//! High-level Rust models of the target game's routines
//! (`shared/design/target-game-facts.md`), the profiles that say where a
//! program keeps them, and the golden-master comparison against the
//! original code running on the emulated CPU.
//!
//! A model declares its routine's inputs and outputs ([`model::Interface`])
//! and is registered in [`registry`]; profiles are symbol tables whose
//! routine sections name what each model needs.
//!
//! Models read their data (sine table, amplitudes, link graphs) from guest
//! memory through [`GuestMemory`], never from copies in Rust.

pub mod call;
pub mod compare;
pub mod draw;
pub mod error;
pub mod events;
pub mod fountain;
pub mod landing;
pub mod lookup;
pub mod memory;
pub mod model;
pub mod params;
pub mod pit;
pub mod profile;
pub mod registry;
pub mod state;
pub mod stream;
pub mod sweep;

pub use error::{Error, ErrorKind};
pub use memory::{GuestMemory, Placed, Segments};
pub use model::Model;
pub use profile::{Profile, ProfileError};
