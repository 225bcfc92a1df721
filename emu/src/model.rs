//! The CPU model is a value: one core serves the 8086, 286, 386 and 486
//! (real mode), and behaviour that differs between them asks the model's
//! capabilities ([`crate::capabilities`]).

use std::fmt;
use std::str::FromStr;

/// Which chip the core behaves as.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum CpuModel {
    /// Intel 8086 (and 8088 behaviour apart from the bus width).
    #[default]
    I8086,
    /// Intel 80286 in real mode.
    I286,
    /// Intel 80386 in real mode.
    I386,
    /// Intel i486 (486DX) in real mode, an early stepping without CPUID.
    I486,
    /// A later i486 stepping (the 486DX2 of 1993 on) that has CPUID and a
    /// writable EFLAGS.ID; its signature is in the capabilities row.
    I486Cpuid,
}

impl CpuModel {
    /// Every model, oldest first (for tests and listings over the models).
    pub const ALL: [CpuModel; 5] = [
        CpuModel::I8086,
        CpuModel::I286,
        CpuModel::I386,
        CpuModel::I486,
        CpuModel::I486Cpuid,
    ];

    /// The physical address mask: 20 address lines on the 8086, 24 on the
    /// 286, 32 on the 386.
    #[inline(always)]
    pub fn address_mask(self) -> u32 {
        self.caps().address_mask
    }

    /// The clock a machine with this CPU gets when none is asked for: the
    /// IBM PC's 4.77 MHz (14.31818 MHz / 3) for the 8086, the PC/AT 339's
    /// 12 MHz for the 286, and 33 MHz for the 386 (the 386DX-33 of the
    /// early 1990s) and the 486 (a 486DX-33; a 486DX2-66 is `--mhz 66`).
    /// The one place these defaults live is the model's
    /// [`crate::capabilities::Capabilities`] row.
    pub fn default_hz(self) -> u64 {
        self.caps().default_hz
    }

    /// The name used on the command line (`8086`, `286`, `386`, `486`, `486-cpuid`).
    pub fn name(self) -> &'static str {
        self.caps().name
    }
}

impl fmt::Display for CpuModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CpuModel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "8086" | "8088" => Ok(CpuModel::I8086),
            "286" | "80286" => Ok(CpuModel::I286),
            "386" | "80386" => Ok(CpuModel::I386),
            "486" | "80486" | "i486" => Ok(CpuModel::I486),
            "486-cpuid" | "486dx2-cpuid" => Ok(CpuModel::I486Cpuid),
            _ => Err(format!(
                "unknown CPU model '{s}' (expected 8086, 286, 386, 486 or 486-cpuid)"
            )),
        }
    }
}
