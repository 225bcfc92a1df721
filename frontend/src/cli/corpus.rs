//! `tandem corpus [MANIFEST]`: the corpus of real DOS programs run headless
//! with their scripted keys, each final frame compared with its golden and
//! each outcome with the manifest, a contact sheet written beside the
//! DOSBox screenshots. Its arguments and its table are the corpus room's
//! ([`crate::corpus`]), which runs each entry's run line as `tandem run`
//! would.

pub use crate::corpus::{run, CorpusArgs};
