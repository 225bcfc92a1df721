//! The x87 floating-point unit: the 80387 beside a 386, the 486DX's built-in
//! unit. One concept per file: `state` (registers, stack, tag, status and
//! control words), `decode` (the D8h-DFh map as data), `load_store` (the
//! memory formats), `arith`, `compare`, `consts`, `control`, `env`
//! (FNSTENV/FLDENV/FNSAVE/FRSTOR), `transcendental` (F2XM1 ... FCOS, with
//! `scaled` rounding their results once), `timing` (the 387's and the
//! 486's clocks), `error` (pending exceptions), `wrap` (unmasked
//! overflow/underflow) and `exec` (the ESC dispatcher that joins them to
//! the CPU's memory operands).
//!
//! # Why `rustc_apfloat`
//!
//! The arithmetic is done with `rustc_apfloat` (the Rust port of LLVM's
//! APFloat, kept by the Rust project and used by rustc's const evaluator and
//! Miri), not host `f64`: it has the x87's 80-bit format with its explicit
//! integer bit (`ieee::X87DoubleExtended`), all four IEEE rounding
//! directions per operation, and the five IEEE status flags per result,
//! which map onto the x87's IE, ZE, OE, UE and PE. It is pure Rust (no C
//! build, nothing to vendor), deterministic on every host, and its generic
//! `Semantics` trait lets us declare the 24- and 53-bit significands with
//! the extended exponent range that the control word's precision control
//! asks for. A Berkeley SoftFloat binding would need a C toolchain and
//! `unsafe` FFI for the same operations.
//!
//! Precision control rounds once: an operation is computed in IEEE quad
//! (113-bit significand, the same 15-bit exponent) and then rounded to 24 or
//! 53 bits; 113 >= 2p + 2, so this double rounding equals a single rounding
//! of the exact result for +, -, *, / and square root (Figueroa, "When is
//! double rounding innocuous?", 1995). 64-bit precision is computed
//! directly in the extended format.
//!
//! How an unmasked exception reaches software (FERR#/ERROR#, the PC/AT's
//! BUSY# hold, the 486's IGNNE# and NE mode) is `error`; the unmasked
//! overflow and underflow response (the exponent wrapped by 24576) is
//! `wrap`. The transcendental instructions are computed in quad with our
//! own series and rounded once (`transcendental`, which documents the
//! error bound).

mod arith;
mod compare;
mod consts;
mod control;
mod decode;
mod env;
mod error;
pub(crate) mod exec;
mod load_store;
mod scaled;
mod state;
mod timing;
mod transcendental;
mod wrap;

pub use env::SavedState;
pub use state::{F80, X87};
