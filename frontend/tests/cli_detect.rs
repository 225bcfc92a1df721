//! The detection matrix: roms/devices/detect.com runs the classic CPU and
//! FPU detection routines on every `--cpu` model with every `--fpu`
//! choice, and each machine must answer as the real one would.

mod common;

use common::{headless, repo, s, text};
use emu::CpuModel;

/// What the detection reports for a model: its generation, its code
/// (bits 4-5 of the exit status), and CPUID's family/model with and
/// without the FPU (486SX2: model 5; AP-485) when the model has CPUID.
fn cpu_answer(model: CpuModel) -> (&'static str, u8, Option<(&'static str, &'static str)>) {
    match model.name() {
        "8086" => ("8086", 0, None),
        "286" => ("286", 1, None),
        "386" => ("386", 2, None),
        "486" => ("486", 3, None),
        "486-cpuid" => ("486", 3, Some(("4/3", "4/5"))),
        other => panic!("--cpu {other}: add it to the detection matrix"),
    }
}

/// The FPU a machine has for `--fpu`: None when the option is refused
/// (a 387 beside an 8086), else whether there is one.
fn fpu_fitted(model: CpuModel, fpu: &str) -> Option<bool> {
    let gen = cpu_answer(model).1;
    match fpu {
        "none" => Some(false),
        "387" => (gen >= 1).then_some(true),
        // auto, and no --fpu (its default): the 386's 387, the 486's own
        // unit.
        _ => Some(gen >= 2),
    }
}

#[test]
fn every_cpu_and_fpu_is_detected_as_it_is() {
    let prog = repo().join("roms/devices/detect.com");
    let mut runs = 0;
    for model in CpuModel::ALL {
        let (gen, code, cpuid) = cpu_answer(model);
        for fpu in ["none", "387", "auto", "(default)"] {
            let o = match fpu {
                "(default)" => headless(&["--cpu", model.name(), s(&prog)]),
                _ => headless(&["--cpu", model.name(), "--fpu", fpu, s(&prog)]),
            };
            let what = format!("--cpu {} --fpu {fpu}: {o:?}", model.name());
            runs += 1;
            let Some(fitted) = fpu_fitted(model, fpu) else {
                assert_eq!(o.status.code(), Some(2), "{what}");
                assert!(text(&o.stderr).contains("8087"), "{what}");
                continue;
            };
            let mut want = format!("CPU {gen}");
            if let Some((dx, sx)) = cpuid {
                want += &format!(" CPUID {}", if fitted { dx } else { sx });
            }
            want += if fitted { " FPU 387\n" } else { " FPU none\n" };
            assert_eq!(text(&o.stdout), want, "{what}");
            let status = 16 * code + 8 * cpuid.is_some() as u8 + 2 * fitted as u8;
            assert_eq!(o.status.code(), Some(status as i32), "{what}");
        }
    }
    assert_eq!(runs, 4 * CpuModel::ALL.len());
}
