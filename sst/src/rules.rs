//! The suite rules that depend on the CPU model, and the options of a run.

use emu::CpuModel;

/// Options of a run.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Run as this CPU model instead of the one named in each file's header.
    pub model: Option<CpuModel>,
    /// Run the 8086 in cycle-exact mode and compare every recorded bus
    /// cycle (8086 files only; other models ignore it).
    pub cycles: bool,
}

/// The CPU model a MOO header's CPU name stands for (`8086`/`8088`/`V20`/
/// `V30` the 8086 rules, anything ending in `286` or `386` those models).
pub fn model_for_cpu_name(name: &str) -> Option<CpuModel> {
    let n = name.trim().to_ascii_uppercase();
    match n.as_str() {
        "8086" | "8088" | "V20" | "V30" => Some(CpuModel::I8086),
        _ if n.ends_with("286") => Some(CpuModel::I286),
        _ if n.ends_with("386") => Some(CpuModel::I386),
        _ => None,
    }
}

/// The suite rules that depend on the CPU model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The model the CPU runs as.
    pub model: CpuModel,
    /// RAM size in bytes (1 MiB for the 8086, 16 MiB otherwise).
    pub mem_size: usize,
    /// ANDed into the `INIT` FLAGS (0FFFh on the 286: real mode cannot set
    /// bits 12-15).
    pub init_flags_mask: u16,
    /// Each test ends with a HLT that is stepped too (286 suite).
    pub step_over_hlt: bool,
}

impl Rules {
    /// The rules for a model: the 8086 suite's for the 8086, the 286 suite's
    /// for the 286 and 386.
    pub fn for_model(model: CpuModel) -> Rules {
        // The 286 suite's rules serve every model of the PC/AT class.
        if model.caps().pc_at_class {
            Rules {
                model,
                mem_size: 1 << 24,
                init_flags_mask: 0x0FFF,
                step_over_hlt: true,
            }
        } else {
            Rules {
                model,
                mem_size: 1 << 20,
                init_flags_mask: 0xFFFF,
                step_over_hlt: false,
            }
        }
    }

    /// Whether a run asking for cycle comparison (`cycles`) runs this model
    /// cycle-exact: only the 8086 has a cycle-exact mode (and only its suite
    /// records bus cycles).
    pub fn cycle_exact(&self, cycles: bool) -> bool {
        cycles && self.model.caps().cycle_exact_biu
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_names() {
        assert_eq!(model_for_cpu_name("8086"), Some(CpuModel::I8086));
        assert_eq!(model_for_cpu_name("286 "), Some(CpuModel::I286));
        assert_eq!(model_for_cpu_name("C286"), Some(CpuModel::I286));
        assert_eq!(model_for_cpu_name("386E"), None);
        assert_eq!(model_for_cpu_name("Z80"), None);
    }

    #[test]
    fn only_the_8086_runs_cycle_exact() {
        assert!(Rules::for_model(CpuModel::I8086).cycle_exact(true));
        assert!(!Rules::for_model(CpuModel::I8086).cycle_exact(false));
        assert!(!Rules::for_model(CpuModel::I286).cycle_exact(true));
        assert!(!Rules::for_model(CpuModel::I386).cycle_exact(true));
    }
}
