//! `tandem sweep --profile NAME [PROGRAM] --routine fountain|state-selection`:
//! runs one of the program's routines over its whole input domain and
//! compares every result with the model. Last line: `N of M equal`; exit 0
//! when all are equal, 1 otherwise, 2 for bad input.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, ValueEnum};
use models::sweep;

use crate::session::{self, input_error, GoldenArgs, Loaded};

/// The routines that can be swept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Routine {
    /// The fountain: 2,048 clocks x 6 parameter slots.
    Fountain,
    /// Model-state selection: every state byte on every city definition.
    StateSelection,
}

/// Arguments of `tandem sweep`.
#[derive(Args, Debug)]
#[command(after_help = crate::exit::HELP)]
pub struct SweepArgs {
    #[command(flatten)]
    pub(crate) golden: GoldenArgs,

    /// The routine to sweep.
    #[arg(long, value_enum)]
    routine: Routine,

    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `tandem sweep`.
pub fn run(args: &SweepArgs) -> ExitCode {
    let start = Instant::now();
    let g = match session::golden_setup(&args.golden) {
        Ok(g) => g,
        Err(e) => return input_error("sweep", e),
    };
    let (profile, name, ref_at) = (&g.profile, &g.name, g.ref_at);
    let reference = &g.reference;
    let mut s = match Loaded::start(&g.image, name, None, &args.golden.machine(), b"") {
        Ok(s) => s,
        Err(e) => return input_error("sweep", e),
    };
    let at = match s.place(profile, name) {
        Ok(a) => a,
        Err(e) => return input_error("sweep", e),
    };
    let m = &mut s.session.m;
    // The routine runs alone: no interrupts.
    m.cpu.regs.flags = m.cpu.normalize_flags(0);
    let mut sw = sweep::Sweep {
        cpu: &mut m.cpu,
        bus: &mut m.bus,
        reference: &reference.session.m,
        profile,
        at,
        ref_at,
    };
    let result = match args.routine {
        Routine::Fountain => sw.fountain(|_| {}),
        Routine::StateSelection => sw.state_selection(|_| {}),
    };
    let r = match result {
        Ok(r) => r,
        Err(e) => return input_error("sweep", format!("{name}: {e}")),
    };
    let secs = start.elapsed().as_secs_f64();
    let routine = match args.routine {
        Routine::Fountain => "fountain",
        Routine::StateSelection => "state-selection",
    };
    if args.json {
        let first = r.first.as_ref().map(|m| {
            serde_json::json!({"input": m.input, "output": m.output, "expected": m.expected, "actual": m.actual})
        });
        println!(
            "{}",
            serde_json::json!({
                "profile": profile.name, "program": name, "routine": routine,
                "code_segment": format!("{:04X}", at.code_seg), "data_segment": format!("{:04X}", at.data_seg),
                "equal": r.equal, "total": r.total, "first_mismatch": first, "seconds": secs,
            })
        );
    } else {
        println!(
            "{routine} of {name} (profile {}, code segment {:04X}, data group {:04X}): {:.3} s",
            profile.name, at.code_seg, at.data_seg, secs
        );
        if let Some(m) = &r.first {
            println!(
                "first difference: {} {}: expected {} ({:04X}h), got {} ({:04X}h)",
                m.input, m.output, m.expected, m.expected as u16, m.actual, m.actual as u16
            );
        }
        println!("{} of {} equal", r.equal, r.total);
    }
    if r.equal == r.total && r.total > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::exit::CHECK_FAILED)
    }
}
