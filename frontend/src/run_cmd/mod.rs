//! `tandem run [PROGRAM] [-- ARGS...]`: runs a DOS program on the emulated
//! PC with tandem's DOS and BIOS services, drive C: being a host folder; in
//! a window, or headless. With no PROGRAM it runs the replica demo built
//! into the binary (`roms/replica/replica.exe`, on a 386).
//!
//! Exit status: the program's own return code (INT 21h 4Ch AL) when it
//! terminates; otherwise one of the codes of [`crate::exit`] (124 the run
//! ended first, 2 it could not start, 126 the emulation cannot go on), with
//! one line on stderr saying why. Guest text goes to stdout;
//! tandem's own messages to stderr. Headless, when stdin is not a terminal,
//! its bytes are typed on the keyboard as the program asks for keys.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use dos::Exit;

use crate::machine_opts::{DosOpts, MachineOpts};
use crate::play::player::Player;
use crate::play::stdin_keys::StdinKeys;
use crate::play::wav::WavOut;
use crate::play::{headless, screenshot};

mod check;
mod prepare;
pub use prepare::prepare;

/// The replica demo, run when no program is named.
pub const REPLICA_EXE: &[u8] = include_bytes!("../../../roms/replica/replica.exe");
const REPLICA_NAME: &str = "replica (built-in)";

/// Emulated seconds a headless run lasts at most when nothing else bounds it.
const HEADLESS_DEFAULT_SECONDS: f64 = 60.0;

/// Arguments of `tandem run`.
#[derive(Args, Debug)]
#[command(after_help = concat!("\
Window keys (never passed to the program):
  Pause        pause / resume emulation
  . (paused)   advance one frame
  F12          save a screenshot (tandem-FRAME.png in the current folder)
  Alt+Enter    toggle fullscreen
  Ctrl+F10     release the mouse (a click in the window captures it)
  closing the window quits

", crate::exit::exit_help!(), "

Examples:
  tandem run                                 the built-in replica demo in a window
  tandem run --headless --frames 70 --screenshot shot.png
  tandem run GAME.EXE --mount ~/dos/game --record play.jsonl
  tandem run --headless --seconds 8 --press 2:y --press 3:enter GAME.EXE
  tandem run GAME.EXE --mount ~/dos/game --replay play.jsonl --state-hash"))]
pub struct RunArgs {
    #[command(flatten)]
    machine: MachineOpts,

    /// No window: guest text on stdout only (chosen by itself when there is
    /// no display).
    #[arg(long)]
    headless: bool,

    /// Stop after N video frames (vertical retraces) of emulated time.
    #[arg(long, value_name = "N", conflicts_with = "seconds")]
    frames: Option<u64>,

    /// Stop after S emulated seconds [headless default: 60, window: none].
    #[arg(long, value_name = "S")]
    seconds: Option<f64>,

    /// Write the final frame to FILE as PNG (at the display's own
    /// resolution, e.g. 320x200 in mode 13h).
    #[arg(long, value_name = "FILE.png")]
    screenshot: Option<PathBuf>,

    /// Write what the run would have sounded like (every sound card of
    /// `--sound` and the PC speaker, mixed) to FILE as a 16-bit stereo WAV, computed
    /// from emulated time: the same run gives the same bytes. Headless.
    #[arg(long, value_name = "FILE.wav")]
    wav: Option<PathBuf>,

    /// The WAV's sample rate: 44100 or 48000.
    #[arg(long, value_name = "HZ", default_value_t = 44_100)]
    wav_rate: u32,

    /// The General MIDI SoundFont (.sf2) the MPU-401 plays through, in the
    /// window and in `--wav` [default: the file in $TANDEM_SOUNDFONT, else
    /// the first of Debian's /usr/share/sounds/sf2/FluidR3_GM.sf2,
    /// TimGM6mb.sf2, default-GM.sf2, /usr/share/soundfonts/default.sf2,
    /// or of the files in $TANDEM_SOUNDFONT_SEARCH (separated by ':');
    /// with none, MIDI is dropped with a warning].
    #[arg(long, value_name = "FILE.sf2")]
    soundfont: Option<PathBuf>,

    /// Print the machine's final state hash on stderr.
    #[arg(long)]
    state_hash: bool,

    /// Write a save state (the whole machine, DOS and open files) at the
    /// end of the run.
    #[arg(long, value_name = "FILE")]
    save_state: Option<PathBuf>,

    /// Resume from a save state instead of loading the program afresh
    /// (`--seconds` counts from where the saving run stopped).
    #[arg(long, value_name = "FILE")]
    load_state: Option<PathBuf>,

    /// Press a key at an emulated time: SECONDS:KEY (e.g. 2.5:space,
    /// 3:enter, 4:f10); repeatable. Recorded by --record like typed keys.
    #[arg(long = "press", value_name = "S:KEY", long_help = crate::press::LONG_HELP)]
    presses: Vec<String>,

    /// Record the input (keys, mouse) with the emulated cycle of each event
    /// to FILE (JSON lines).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,

    /// Replay the input recorded in FILE at the same emulated cycles; the
    /// run ends where the recorded one did (status 124) unless the program
    /// terminates first.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,

    /// Run the models in lock-step with the program (docs/check.md): a
    /// status line (the window's title; headless, one line at the end)
    /// counts the frames checked; the first divergence pauses the window
    /// (headless: ends the run, status 1), prints the report on stderr
    /// and writes a reproduction bundle for `tandem compare --bundle`.
    #[arg(long, requires = "profile", conflicts_with = "load_state")]
    check: bool,

    /// The profile of `--check`: replica, replica-demo, game-retail,
    /// game-demo, or a TOML file.
    #[arg(long, value_name = "NAME", requires = "check")]
    profile: Option<String>,

    /// The reference program whose tables the models read in `--check`
    /// (default: the pristine built-in replica for replica profiles, else
    /// the program).
    #[arg(long, value_name = "FILE", requires = "check")]
    reference: Option<PathBuf>,

    /// `--check` keeps a save state every N frame points (the bundle
    /// replays from the last one).
    #[arg(long, value_name = "N", default_value_t = 70, requires = "check")]
    checkpoint_every: u64,

    /// Where `--check` writes the reproduction bundle (a folder)
    /// [default: tandem-check-NAME-fFRAME in the current folder].
    #[arg(long, value_name = "DIR", requires = "check")]
    bundle_out: Option<PathBuf>,

    /// Start the window in fullscreen.
    #[arg(long)]
    fullscreen: bool,

    /// No sound in the window.
    #[arg(long)]
    mute: bool,

    #[command(flatten)]
    dos: DosOpts,

    /// The DOS program (.EXE or .COM), a host path [default: the built-in
    /// replica].
    #[arg(value_name = "PROGRAM")]
    program: Option<PathBuf>,

    /// The program's command line.
    #[arg(
        value_name = "ARGS",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    args: Vec<String>,
}

/// An empty temporary folder removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What a run is: everything both the headless loop and the window need.
pub struct Run {
    /// The session and its input streams.
    pub player: Player,
    /// What runs (for messages).
    pub name: String,
    /// The CPU clock in Hz.
    pub cpu_hz: u64,
    /// Stop at this cycle.
    pub cycle_limit: u64,
    /// Stop after this many frames.
    pub frame_limit: Option<u64>,
    /// The time limit in seconds (for messages).
    pub seconds: Option<f64>,
    /// The host's stdin typed on the keyboard (headless), as it arrives.
    pub stdin: Option<StdinKeys>,
    /// The WAV being written (`--wav`).
    pub wav: Option<WavOut>,
    /// The lock-step check (`--check`).
    pub check: Option<crate::check::Checker>,
    _temp: Option<TempDir>,
}

impl Run {
    /// Runs until the next frame is complete or the run ends (as
    /// [`Player::run_frame`]); with `--check`, checks the frame points on
    /// the way, keeps checkpoints, and at a divergence reports it, writes
    /// the bundle and returns [`Exit::HookStop`] (see [`Outcome::of`]).
    pub fn run_frame(&mut self) -> Exit {
        let Some(c) = self.check.as_mut() else {
            return self.player.run_frame(self.cycle_limit);
        };
        loop {
            let exit = self.player.run_frame(self.cycle_limit);
            if let Some(d) = c.after(&mut self.player.session, &exit) {
                c.diverged(&mut self.player, &d);
                return Exit::HookStop;
            }
            match exit {
                Exit::HookStop => {
                    if c.checkpoint_due() {
                        if let Err(e) = c.take_checkpoint(&mut self.player) {
                            eprintln!("tandem run: error: --check: {e}");
                            c.every = 0;
                        }
                    }
                }
                e => return e,
            }
        }
    }
}

/// How a run ended: as the session's run did, or at a limit only the
/// front end knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The session's run ended so (never [`Exit::Frame`]).
    Ended(Exit),
    /// The frame limit was reached.
    FrameLimit,
    /// The user closed the window.
    Quit,
    /// `--check` found a divergence.
    Diverged,
}

impl Outcome {
    /// The outcome of a slice that ends the run, or None for a frame.
    pub fn of(exit: Exit, run: &Run) -> Option<Outcome> {
        match exit {
            Exit::Frame => match run.frame_limit {
                Some(n) if run.player.session.frames >= n => Some(Outcome::FrameLimit),
                _ => None,
            },
            Exit::HookStop if run.check.as_ref().is_some_and(|c| c.report.is_some()) => {
                Some(Outcome::Diverged)
            }
            e => Some(Outcome::Ended(e)),
        }
    }
}

/// The DOS path of `program` under `mount` (C:\DIR\NAME.EXE) and its
/// directory's DOS path, or C:\NAME when it is outside the mount.
pub(crate) fn dos_path(program: &Path, mount: &Path) -> (String, String) {
    let name = program
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_uppercase())
        .unwrap_or_default();
    if let (Ok(p), Ok(root)) = (program.canonicalize(), mount.canonicalize()) {
        if let Ok(rel) = p.strip_prefix(&root) {
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().to_ascii_uppercase())
                .collect();
            let dir = parts[..parts.len().saturating_sub(1)].join("\\");
            return (format!("C:\\{}", parts.join("\\")), format!("C:\\{dir}"));
        }
    }
    (format!("C:\\{name}"), "C:\\".into())
}

/// Whether a display is there for a window.
fn have_display() -> bool {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

/// Where the keys of a headless run come from besides `--press`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stdin {
    /// The host's stdin, when it is not a terminal, is typed on the
    /// keyboard.
    Type,
    /// Stdin is left alone (`tandem corpus`: only the scripted keys).
    Ignore,
}

/// Runs `tandem run`.
pub fn run(args: &RunArgs) -> ExitCode {
    let mut headless = args.headless;
    if !headless && !have_display() {
        eprintln!("tandem run: no display: running headless");
        headless = true;
    }
    let mut run = match prepare(args, headless, Stdin::Type) {
        Ok(r) => r,
        Err(e) => return crate::error::report("run", &e),
    };
    let outcome = if headless {
        headless::run(&mut run, &mut std::io::stdout(), true)
    } else {
        match crate::play::window::run(&mut run, args.fullscreen, args.mute) {
            Ok(o) => o,
            Err(e) => return crate::error::report("run", &crate::error::Error::Window(e)),
        }
    };
    finish(args, &mut run, outcome)
}

/// Ends a run: the record's end, the screenshot, the state hash, the
/// message and the exit status.
fn finish(args: &RunArgs, run: &mut Run, outcome: Outcome) -> ExitCode {
    let p = &mut run.player;
    p.flush_output(&mut std::io::stdout());
    // A run that stopped before the program terminated ends its record
    // with a mark; one that terminated or failed replays to the same end.
    p.finish_record(!matches!(
        outcome,
        Outcome::Ended(Exit::Exited(_) | Exit::Stopped(_))
    ));
    let mut status = ExitCode::from(crate::exit::of_run(&outcome));
    if let (Some(w), Some(file)) = (run.wav.take(), &args.wav) {
        if let Err(e) = w.finish(&mut p.session.m) {
            eprintln!("tandem run: error: {}: {e}", file.display());
            status = ExitCode::from(crate::exit::BAD_INPUT);
        }
    }
    let s = &p.session;
    if let Some(p) = &args.screenshot {
        if let Err(e) = screenshot::write_png(p, &s.m.render()) {
            eprintln!("tandem run: error: {}: {e}", p.display());
            status = ExitCode::from(crate::exit::BAD_INPUT);
        }
    }
    if let Some(file) = &args.save_state {
        let program = args
            .program
            .clone()
            .unwrap_or_else(|| PathBuf::from(REPLICA_NAME));
        if let Err(e) = crate::savestate::save(file, &program, &s.m, &s.dos, run.cycle_limit) {
            eprintln!("tandem run: error: {e}");
            status = ExitCode::from(crate::exit::BAD_INPUT);
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
            run.seconds.unwrap_or_default()
        ),
        Outcome::FrameLimit | Outcome::Ended(Exit::Frame) => {
            format!("{frames} frames done (at {at})")
        }
        Outcome::Ended(Exit::ReplayEnd) => {
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
