//! tandem's CPU core.
//!
//! The core executes x86 real-mode code against a [`Bus`], one instruction per
//! [`Cpu::step`], and accounts for the clocks every instruction takes. The CPU
//! model ([`CpuModel`]) is a value: behaviour that differs between the 8086,
//! 286 and 386 asks the model instead of forking the code.
//!
//! Layout, after the chip: [`decode`] (our own decoder, its tables in
//! [`table`]), `biu` (bus transfers and their clocks), `alu`, `bcd`, `muldiv`,
//! `string`, `interrupt`, `execute` (the dispatcher), and [`timing`] (the
//! clock tables).

pub mod bus;
pub mod capabilities;
pub mod cpu;
pub mod decode;
pub mod disasm;
pub mod flags;
pub mod hooks;
pub mod model;
pub mod regs;
pub mod sst;
pub mod table;
pub mod timing;

mod alu;
mod bcd;
pub mod biu;
mod eu_timing;
mod exec;
mod interrupt;
mod muldiv;
mod string;

pub use bus::{Bus, FlatBus};
pub use capabilities::Capabilities;
pub use cpu::{Cpu, StepEvent, StepInfo};
pub use hooks::{ExecAt, Hook, HookAction, HookEvent, HookKind, HookRecord, Hooks};
pub use model::CpuModel;
pub use regs::{Reg16, Registers, SegReg};
