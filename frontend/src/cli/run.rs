//! `tandem run [PROGRAM] [-- ARGS...]`: runs a DOS program on the emulated
//! PC with tandem's DOS and BIOS services, drive C: being a host folder; in
//! a window, or headless. With no PROGRAM it runs the replica demo built
//! into the binary (`roms/replica/replica.exe`, on a 386). Its arguments
//! are [`RunArgs`]; the run is [`crate::play`]'s.
//!
//! Exit status: the program's own return code (INT 21h 4Ch AL) when it
//! terminates; otherwise one of the codes of [`crate::app::exit`] (124 the
//! run ended first, 2 it could not start, 126 the emulation cannot go on),
//! with one line on stderr saying why. Guest text goes to stdout;
//! tandem's own messages to stderr. Headless, when stdin is not a terminal,
//! its bytes are typed on the keyboard as the program asks for keys.

use std::path::PathBuf;
use std::process::ExitCode;

use dos::Exit;

use crate::app::error::report;
use crate::app::{builtin, exit, savestate};
use crate::play::prepare::{prepare, seconds_text};
use crate::play::run::{have_display, Outcome, Run, Stdin};
use crate::play::{headless, screenshot, window};

pub use crate::play::args::RunArgs;

/// Runs `tandem run`.
pub fn run(args: &RunArgs) -> ExitCode {
    let mut headless = args.headless;
    if !headless && !have_display() {
        eprintln!("tandem run: no display: running headless");
        headless = true;
    }
    let mut run = match prepare(args, headless, Stdin::Type) {
        Ok(r) => r,
        Err(e) => return report("run", &e),
    };
    let outcome = if headless {
        headless::run(&mut run, &mut std::io::stdout(), true)
    } else {
        match window::run(&mut run, args.fullscreen, args.mute) {
            Ok(o) => o,
            Err(e) => return report("run", &e),
        }
    };
    let status = finish(args, &mut run, outcome.clone());
    if outcome == Outcome::Diverged && args.check.ui {
        return open_ui(args, &run).unwrap_or(status);
    }
    status
}

/// `--check --ui`: the debugger window at the divergence, until it is
/// closed; None when it could not open (said why) or closed normally.
fn open_ui(args: &RunArgs, run: &Run) -> Option<ExitCode> {
    let c = run.check.as_ref()?;
    eprintln!("tandem run: check: opening the debugger window at the divergence");
    let ui = match crate::debug::ui::divergence::at_divergence(c, run.player.log()) {
        Ok(u) => u,
        Err(e) => return Some(report("run", &e)),
    };
    let how = crate::debug::ui::Serve {
        port: args.check.ui_port,
        token_file: None,
        open_browser: !args.check.no_browser,
    };
    let code = crate::debug::ui::serve_ui(ui, &how);
    (code != ExitCode::SUCCESS).then_some(code)
}

/// Ends a run: the record's end, the screenshot, the state hash, the
/// message and the exit status.
fn finish(args: &RunArgs, run: &mut Run, outcome: Outcome) -> ExitCode {
    let p = &mut run.player;
    p.flush_output(&mut std::io::stdout());
    // A run that stopped before the program terminated ends its record
    // with a mark; one that terminated or failed replays to the same end.
    let recorded = p.finish_record(!matches!(
        outcome,
        Outcome::Ended(Exit::Exited(_) | Exit::Stopped(_))
    ));
    let mut status = ExitCode::from(outcome.exit_code());
    if let (Err(e), Some(file)) = (recorded, &args.record) {
        eprintln!("tandem run: error: {}: {e}", file.display());
        status = ExitCode::from(exit::BAD_INPUT);
    }
    if let Some(e) = p.output_error() {
        eprintln!("tandem run: error: the program's output (stdout): {e}");
        status = ExitCode::from(exit::BAD_INPUT);
    }
    for (what, e) in run.finish_outputs() {
        let file = if what == "--wav" {
            &args.wav
        } else {
            &args.video
        };
        let file = file.as_deref().unwrap_or(std::path::Path::new(what));
        eprintln!("tandem run: error: {}: {e}", file.display());
        status = ExitCode::from(exit::BAD_INPUT);
    }
    let s = &run.player.session;
    if let Some(p) = &args.screenshot {
        if let Err(e) = screenshot::write_png(p, &s.m.render()) {
            eprintln!("tandem run: error: {}: {e}", p.display());
            status = ExitCode::from(exit::BAD_INPUT);
        }
    }
    if let Some(file) = &args.save_state {
        let program = args
            .program
            .clone()
            .unwrap_or_else(|| PathBuf::from(builtin::RUN_NAME));
        if let Err(e) = savestate::save(file, &program, &s.m, &s.dos, run.cycle_limit) {
            eprintln!("tandem run: error: {e}");
            status = ExitCode::from(exit::BAD_INPUT);
        }
    }
    if log::log_enabled!(log::Level::Info) {
        report_unimplemented(s.dos.warnings());
    }
    if args.state_hash {
        eprintln!(
            "tandem run: state hash {:016x} at cycle {}, frame {}",
            s.m.state_hash(),
            s.m.cycles(),
            s.frames
        );
    }
    if let Some(c) = &run.check {
        eprintln!("tandem run: check: {}", c.status());
    }
    if let Some(why) = why_stopped(run, &outcome) {
        eprintln!("tandem run: stopped: {}: {why}", run.name);
    }
    status
}

/// Why a run ended before its program did, or None when it terminated.
fn why_stopped(run: &Run, outcome: &Outcome) -> Option<String> {
    let s = &run.player.session;
    let at = s.at();
    let (cycle, frames) = (s.m.cycles(), s.frames);
    Some(match outcome {
        Outcome::Ended(Exit::Exited(_)) => return None,
        Outcome::Ended(Exit::Limit) => format!(
            "the time limit of {} emulated seconds passed (at {at})",
            seconds_text(run.seconds.unwrap_or_default())
        ),
        Outcome::FrameLimit | Outcome::Ended(Exit::Frame) => {
            format!("{frames} frames done (at {at})")
        }
        Outcome::ReplayEnd => {
            format!("the replayed record ended at cycle {cycle}, frame {frames} (at {at})")
        }
        Outcome::Quit => {
            format!("the window was closed at cycle {cycle}, frame {frames}")
        }
        Outcome::Diverged => format!("--check found a divergence (at {at}, frame {frames})"),
        Outcome::Ended(Exit::Stopped(why)) => why.to_string(),
        // `tandem run` sets no hooks.
        Outcome::Ended(Exit::HookStop) => format!("a hook stopped the run (at {at})"),
    })
}

/// With `-v`: the list of every BIOS or DOS function the program asked for
/// that tandem does not implement (each once), or one line saying there
/// were none.
fn report_unimplemented(warnings: &[String]) {
    if warnings.is_empty() {
        eprintln!("tandem run: every BIOS and DOS function the program asked for is implemented");
        return;
    }
    eprintln!(
        "tandem run: {} BIOS/DOS function(s) the program asked for are not implemented:",
        warnings.len()
    );
    for w in warnings {
        eprintln!("  {w}");
    }
}
