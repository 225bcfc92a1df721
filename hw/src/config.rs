//! The machine's configuration: the CPU, its clock, memory sizes, the RTC's
//! start, the x87 and the cards fitted. Every device builds its power-on
//! state from it ([`crate::device::Device::power_on`]); the
//! [`Machine`](crate::Machine) keeps it.

use emu::CpuModel;

use crate::cmos::DateTime;
use crate::error::Error;
use crate::gus::GusConfig;
use crate::mpu401::Mpu401Config;
use crate::sb16::Sb16Config;

/// The machine's configuration.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MachineConfig {
    /// CPU model.
    pub cpu_model: CpuModel,
    /// CPU clock in Hz (4,772,727 for the 8086 PC).
    pub cpu_hz: u64,
    /// PIT input clock in Hz (1,193,182 by default).
    pub pit_hz: u64,
    /// Conventional memory in KiB (at most 640).
    pub conventional_kib: u32,
    /// Extended memory in KiB (only reachable on a 286/386; with A20 off
    /// the HMA wraps).
    pub extended_kib: u32,
    /// The RTC's date and time at cycle 0.
    pub rtc_start: DateTime,
    /// An AdLib card: the YMF262 (OPL3) at 388h-38Bh, its timers,
    /// status and FM synthesis. Off by default, so a program
    /// that probes for an AdLib gets the answer of a PC without one (the
    /// ports float at FFh) rather than finding a card that plays nothing.
    #[serde(default)]
    pub adlib: bool,
    /// An MPU-401 (UART and intelligent mode, [`crate::mpu401`]) and where it sits. `None`
    /// by default: the ports float, as on a PC without one.
    #[serde(default)]
    pub mpu401: Option<Mpu401Config>,
    /// The x87 coprocessor fitted ([`Fpu::None`] by default).
    #[serde(default)]
    pub fpu: Fpu,
    /// A Sound Blaster 16 and its jumpers (none by default); it brings an
    /// OPL3, which then also answers at 388h-38Bh.
    #[serde(default)]
    pub sb16: Option<Sb16Config>,
    /// A game port ([`crate::gameport`], 201h) with two joysticks. On by
    /// default: nearly every PC of the 1990s had one (on its sound card or
    /// multi-I/O card), and scripted and recorded joystick input needs the
    /// same port whatever the host has plugged in. A configuration saved
    /// before the field existed had none.
    #[serde(default)]
    pub joystick: bool,
    /// A Gravis UltraSound and its jumpers (none by default).
    #[serde(default)]
    pub gus: Option<GusConfig>,
    /// How DOS presents itself at start-up (the first program's segment,
    /// the MCB chain, FLAGS, the environment): see docs/dos.md. A
    /// configuration saved before the field existed had MS-DOS's.
    #[serde(default)]
    pub dos_layout: DosLayout,
}

/// Which DOS the first program finds at start-up (docs/dos.md, "The PC at
/// start-up").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum DosLayout {
    /// MS-DOS 6.22 on a PC with HIMEM.SYS and DOS=HIGH.
    #[default]
    MsDos,
    /// DOSBox 0.74: the first program at 0192h, its FLAGS and environment.
    DosBox,
}

impl DosLayout {
    /// The option's name: `msdos` or `dosbox`.
    pub fn name(self) -> &'static str {
        match self {
            DosLayout::MsDos => "msdos",
            DosLayout::DosBox => "dosbox",
        }
    }

    /// The layout named `s` ([`DosLayout::name`]), if any.
    pub fn from_name(s: &str) -> Option<DosLayout> {
        [DosLayout::MsDos, DosLayout::DosBox]
            .into_iter()
            .find(|l| l.name() == s)
    }
}

/// Which x87 the machine has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Fpu {
    /// No coprocessor: ESC only addresses its operand, FNSTSW stores
    /// nothing, so the detection routines find none.
    #[default]
    None,
    /// An 80387 beside the CPU.
    I387,
    /// The unit built into the CPU (the 486DX).
    Builtin,
}

impl Fpu {
    /// What a PC with this CPU model had: the unit on the chip (486DX), a
    /// 387 beside a 32-bit CPU without one (the 386), none with the 8086
    /// and 286 (an 8087 or 287 is not emulated).
    pub fn auto(model: CpuModel) -> Fpu {
        let caps = model.caps();
        if caps.fpu_on_chip {
            Fpu::Builtin
        } else if caps.has_32bit_operands {
            Fpu::I387
        } else {
            Fpu::None
        }
    }

    /// True when there is a coprocessor.
    pub fn fitted(self) -> bool {
        self != Fpu::None
    }

    /// The name records and messages use: `none`, `387`, `builtin`.
    pub fn name(self) -> &'static str {
        match self {
            Fpu::None => "none",
            Fpu::I387 => "387",
            Fpu::Builtin => "builtin",
        }
    }
}

impl std::str::FromStr for Fpu {
    type Err = Error;

    /// Parses a name of [`Fpu::name`].
    fn from_str(s: &str) -> Result<Fpu, Error> {
        [Fpu::None, Fpu::I387, Fpu::Builtin]
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| Error::UnknownFpu(s.to_string()))
    }
}

impl Default for MachineConfig {
    fn default() -> Self {
        MachineConfig {
            cpu_model: CpuModel::I8086,
            cpu_hz: CpuModel::I8086.default_hz(),
            pit_hz: 1_193_182,
            conventional_kib: 640,
            extended_kib: 0,
            rtc_start: DateTime::default(),
            adlib: false,
            mpu401: None,
            fpu: Fpu::None,
            sb16: None,
            joystick: true,
            gus: None,
            dos_layout: DosLayout::MsDos,
        }
    }
}

impl MachineConfig {
    /// The default machine with another CPU model and clock.
    pub fn with_cpu(model: CpuModel, cpu_hz: u64) -> Self {
        MachineConfig {
            cpu_model: model,
            cpu_hz,
            extended_kib: if model.has_extended_memory() { 1024 } else { 0 },
            ..Self::default()
        }
    }
}
