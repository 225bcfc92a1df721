//! High-level Rust models of the target game's routines and the golden-master
//! comparison. Not built yet: see issue "Golden master".
