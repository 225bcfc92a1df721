//! tandem's PC: the devices of an AT-class machine with a VGA, and the
//! [`Machine`] that owns the CPU and runs everything on one clock.
//!
//! One file per chip, named after the datasheet part: [`pit`] (8254),
//! [`pic`] (8259A pair), [`kbc`] (8042 and keyboard), [`cmos`] (MC146818),
//! [`vga`] (sequencer, CRTC, graphics and attribute controllers, DAC,
//! renderer, font), [`ppi`] (port 61h and the speaker), [`dma8237`] (the
//! 8237A pair and page registers), [`opl3`] (the AdLib's YMF262),
//! [`sb16`] (the Sound Blaster 16: DSP, CT1745 mixer), [`mpu401`] (the
//! MPU-401, UART and intelligent mode), [`gameport`] (the game port), [`cdaudio`] (the CD-ROM
//! drives' audio transport), [`gus`] (the Gravis UltraSound's GF1), [`memory`] (the
//! memory map and A20), [`option_rom`], [`scheduler`] (events and clock
//! arithmetic), [`device`] (the interface every chip implements),
//! [`registry`] (the list of devices on the bus), [`bus`] (port and event
//! decode), [`config`] (the machine's configuration), [`machine`] (the
//! run loop; its firmware, the stubs, POST, far calls and option-ROM
//! init, in `firmware`), [`hash`] (the state hash), [`error`]. See
//! `docs/hw.md`.

pub mod bus;
mod cards;
pub mod cdaudio;
pub mod cmos;
pub mod config;
pub mod device;
pub mod dma8237;
pub mod error;
mod firmware;
pub mod fpu_error;
pub mod gameport;
pub mod gus;
pub mod hash;
pub mod kbc;
pub mod machine;
pub mod memory;
pub mod mpu401;
pub mod opl3;
pub mod option_rom;
pub mod pic;
pub mod pit;
pub mod ppi;
pub mod registry;
mod run_exit;
pub mod sb16;
pub mod scheduler;
pub mod state;
pub mod vga;

pub use config::{DosLayout, Fpu, MachineConfig};
pub use error::Error;
pub use gus::GusConfig;
pub use machine::Machine;
pub use run_exit::RunExit;
pub use sb16::Sb16Config;
