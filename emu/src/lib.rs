//! tandem's CPU core.
//!
//! The core executes x86 real-mode code against a [`Bus`], one instruction per
//! [`Cpu::step`], and accounts for the clocks every instruction takes. The CPU
//! model ([`CpuModel`]) is a value: behaviour that differs between the 8086,
//! 286 and 386 asks the model's [`Capabilities`] row instead of forking the
//! code.
//!
//! Layout, after the chip: [`decode`] (our own decoder, its opcode rows in
//! [`table`]), `biu` (bus transfers and their clocks), `exec` (the
//! dispatcher and the instruction semantics, one file per family), `fast`
//! (the frequent forms, classified once and run by specialised code), the
//! arithmetic in `alu`, `bcd` and `muldiv`, `string`, `interrupt`,
//! [`timing`] (the clock rows per model), `eu_timing` (the 8086's
//! cycle-exact microcode scripts) and [`capabilities`] (what each model
//! can do).

pub mod bus;
pub mod capabilities;
pub mod cpu;
pub mod decode;
pub mod disasm;
pub mod flags;
pub mod hooks;
pub mod model;
pub mod regs;
pub mod table;
pub mod timing;
pub mod x87;

mod alu;
mod bcd;
pub mod biu;
mod decode_cache;
mod eu_timing;
mod exec;
mod fast;
mod interrupt;
mod muldiv;
mod size;
mod string;

pub use bus::{Bus, FlatBus};
pub use capabilities::Capabilities;
pub use cpu::{Cpu, StepEvent, StepInfo};
pub use hooks::{ExecAt, Hook, HookAction, HookEvent, HookKind, HookRecord, Hooks};
pub use model::CpuModel;
pub use regs::{Reg16, Registers, SegReg};
