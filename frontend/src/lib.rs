//! tandem's front end as a library: the rooms the `tandem` binary's
//! commands are built from. Each room says what it holds; the arrows of
//! the house point one way (`cli` uses every room, `play` uses `golden`,
//! `input` and `app`, and so on down; `app` uses none):
//!
//! - [`cli`]: one file per command: its arguments and its printing.
//! - [`app`]: what every command shares: loading a program on the
//!   emulated PC, the built-in programs, the machine and DOS options,
//!   addresses, errors and exit codes, save states.
//! - [`input`]: what reaches the guest at chosen cycles: the [`input::player::Player`],
//!   records, scripted key presses, the window's key map, stdin as keys.
//! - [`golden`]: the golden master: profiles, the lock-step watch and its
//!   report, `compare`, `run --check`, reproduction bundles, `call`.
//! - [`play`]: a run: set-up, headless, the window, sound, WAV,
//!   screenshots, `bench`.
//! - [`debug`]: the debugger: its engine, the console, the JSON-lines
//!   protocol, the GDB stub, traces.
//! - [`corpus`]: the corpus of real programs against approved frames.
//! - [`spectrum`]: a WAV's spectrogram and its measures.

pub mod app;
pub mod cli;
pub mod corpus;
pub mod debug;
pub mod golden;
pub mod input;
pub mod play;
pub mod spectrum;

#[cfg(test)]
mod fuzz;
