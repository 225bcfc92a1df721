//! `tandem compare --profile NAME [PROGRAM] [--seconds S]`: runs the program
//! in lock-step with the models ([`crate::golden::compare`]). At every
//! frame (the entry of the program's per-frame update) the clock must have
//! advanced by the IRQ0 count times the step immediate, and the parameter
//! table must equal the models; routines not in lock-step are
//! spot-checked. The first divergence stops the run with its report
//! ([`crate::golden::report::Report`]: frame, clock, slot, expected and
//! actual values, CS:IP, the instruction that last wrote the slot and the
//! last instructions executed, from a deterministic replay). `--bundle
//! DIR` replays the reproduction bundle of `tandem run --check` instead.
//! Exit 0 when everything agrees, 1 on a divergence, 2 on bad input.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::app::error::report;
use crate::app::exit;
use crate::golden::bundle::{self, ReplayError};
use crate::golden::compare::{self, Request};
use crate::golden::profile::{GoldenArgs, GoldenSetup};
use crate::golden::report::Report;
use crate::input::press;

/// Arguments of `tandem compare`.
#[derive(Args, Debug)]
#[command(after_help = exit::HELP)]
// `--bundle` brings its own profile.
#[command(mut_arg("profile", |a| a.required(false).required_unless_present("bundle").default_value("").hide_default_value(true)))]
pub struct CompareArgs {
    #[command(flatten)]
    pub(crate) golden: GoldenArgs,

    /// Emulated seconds to run.
    #[arg(long, value_name = "S", default_value_t = 10)]
    seconds: u64,

    /// Press a key at an emulated time: SECONDS:KEY (e.g. 1.5:p); repeatable.
    #[arg(long = "press", value_name = "S:KEY", long_help = press::LONG_HELP)]
    presses: Vec<String>,

    /// Spot-check this routine at each frame (repeatable; default: the
    /// profile's routines that are not in lock-step).
    #[arg(long = "routine", value_name = "NAME")]
    routines: Vec<String>,

    /// Instructions shown before a divergence.
    #[arg(long, value_name = "N", default_value_t = 16)]
    last: usize,

    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,

    /// Replay the reproduction bundle DIR of `tandem run --check` headless
    /// to its divergence and print its report (docs/check.md).
    #[arg(long, value_name = "DIR")]
    bundle: Option<PathBuf>,

    /// Drive C: of the bundle's replay (default: a fresh empty temporary
    /// folder; the bundle never chooses it).
    #[arg(long, value_name = "DIR", requires = "bundle")]
    mount: Option<PathBuf>,
}

/// Runs `tandem compare`.
pub fn run(args: &CompareArgs) -> ExitCode {
    if let Some(dir) = &args.bundle {
        return replay(dir, args.mount.as_deref(), args.json);
    }
    let presses = match press::parse_all(&args.presses) {
        Ok(v) => v,
        Err(e) => return report("compare", &e.into()),
    };
    let g = match GoldenSetup::new(&args.golden) {
        Ok(g) => g,
        Err(e) => return report("compare", &e),
    };
    let (profile, name) = (g.profile().name.clone(), g.name.clone());
    let req = Request {
        seconds: args.seconds,
        presses: &presses,
        routines: &args.routines,
        recent: args.last,
    };
    let c = match compare::compare(g, &args.golden.machine(), &req) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("tandem compare: stopped: {name}: {e}");
            return ExitCode::from(e.exit_code());
        }
    };
    let Some(r) = c.report else {
        if args.json {
            println!(
                "{}",
                serde_json::json!({"profile": profile, "program": name, "frames": c.frames, "seconds": args.seconds, "clocks": c.clocks, "divergence": null})
            );
        } else {
            println!("{name} (profile {profile}): {} frames over {} emulated seconds agree with the models", c.frames, args.seconds);
            println!("0 divergences");
        }
        return ExitCode::SUCCESS;
    };
    if args.json {
        println!(
            "{}",
            serde_json::json!({"profile": profile, "program": name, "frames": c.frames, "clocks": c.clocks, "divergence": r})
        );
    } else {
        print_report(&r);
    }
    ExitCode::from(exit::CHECK_FAILED)
}

fn print_report(r: &Report) {
    print!("{}", r.text());
    println!("1 divergence");
}

/// `tandem compare --bundle DIR`: prints the replayed report (exit 1), or
/// says why there is none (exit 2 for a bad bundle).
fn replay(dir: &std::path::Path, mount: Option<&std::path::Path>, json: bool) -> ExitCode {
    let replayed = match bundle::replay(dir, mount) {
        Ok(r) => r,
        Err(ReplayError::Bad(e)) => {
            eprintln!("tandem compare: error: {e}");
            return ExitCode::from(exit::BAD_INPUT);
        }
        Err(e) => {
            eprintln!("tandem compare: {e}");
            return ExitCode::from(exit::CHECK_FAILED);
        }
    };
    if json {
        println!(
            "{}",
            serde_json::to_string(&replayed.report).unwrap_or_default()
        );
    } else {
        print_report(&replayed.report);
    }
    if replayed.report == replayed.recorded {
        eprintln!("tandem compare: the same report as the bundle's report.json");
    } else {
        eprintln!("tandem compare: this report differs from the bundle's report.json");
    }
    ExitCode::from(exit::CHECK_FAILED)
}
