//! `tandem run [PROGRAM] [-- ARGS...]`: runs a DOS program on the emulated
//! PC with tandem's DOS and BIOS services, drive C: being a host folder; in
//! a window, or headless. With no PROGRAM it runs the replica demo built
//! into the binary (`roms/replica/replica.exe`, on a 386).
//!
//! Exit status: the program's own return code (INT 21h 4Ch AL) when it
//! terminates; otherwise one of three codes that tandem keeps for itself,
//! with one line on stderr saying why:
//!
//! - 124 ([`EXIT_STOPPED`]): the run ended before the program terminated
//!   (the `--frames`/`--seconds` limit, the end of a `--replay`, the window
//!   closed);
//! - 2 ([`EXIT_BAD_INPUT`]): tandem could not start (unreadable or
//!   malformed program, bad mount, bad record, bad options);
//! - 126 ([`EXIT_EMULATION`]): the emulation cannot go on (something tandem
//!   does not emulate, the CPU halted with interrupts off, a fault with no
//!   handler).
//!
//! (clap's own usage errors exit with 2.) Guest text goes to stdout;
//! tandem's own messages to stderr. Headless, when stdin is not a terminal,
//! its bytes are typed on the keyboard as the program asks for keys.

use std::io::{BufReader, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use dos::{Dos, DosConfig};
use emu::CpuModel;
use hw::Machine;

use crate::machine_opts::{parse_mhz, MachineOpts};
use crate::play::record::{self, Header, Input, Recorder};
use crate::play::session::{Session, Step};
use crate::play::stdin_keys::StdinKeys;
use crate::play::{headless, screenshot};

/// Exit status: the run ended before the program terminated.
pub const EXIT_STOPPED: u8 = 124;
/// Exit status: tandem could not start the program.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status: the emulation cannot go on.
pub const EXIT_EMULATION: u8 = 126;

/// The replica demo, run when no program is named.
pub const REPLICA_EXE: &[u8] = include_bytes!("../../roms/replica/replica.exe");
const REPLICA_NAME: &str = "replica (built-in)";

/// Emulated seconds a headless run lasts at most when nothing else bounds it.
const HEADLESS_DEFAULT_SECONDS: f64 = 60.0;

/// Arguments of `tandem run`.
#[derive(Args, Debug)]
#[command(after_help = "\
Window keys (never passed to the program):
  Pause        pause / resume emulation
  . (paused)   advance one frame
  F12          save a screenshot (tandem-FRAME.png in the current folder)
  Alt+Enter    toggle fullscreen
  Ctrl+F10     release the mouse (a click in the window captures it)
  closing the window quits

Exit status: the program's own code when it terminates; 124 when the run
ends first (limit, end of replay, window closed); 2 when tandem cannot
start it (bad input); 126 when the emulation cannot go on.

Examples:
  tandem run                                 the built-in replica demo in a window
  tandem run --headless --frames 70 --screenshot shot.png
  tandem run GAME.EXE --mount ~/dos/game --record play.jsonl
  tandem run --headless --seconds 8 --press 2:y --press 3:enter GAME.EXE
  tandem run GAME.EXE --mount ~/dos/game --replay play.jsonl --state-hash")]
pub struct RunArgs {
    /// CPU model: 8086, 286 or 386 [default: 8086; 386 for the built-in
    /// replica, which needs 186+ instructions].
    #[arg(long, value_name = "MODEL", value_parser = parse_model)]
    cpu: Option<CpuModel>,

    /// CPU clock in MHz, up to six decimals (default: 4.772727 for the 8086,
    /// 12 for the 286, 33 for the 386). Emulated time follows it.
    #[arg(long, value_name = "MHZ", value_parser = parse_mhz)]
    mhz: Option<u64>,

    /// The host folder that is drive C: (default: the program's folder; an
    /// empty temporary folder for the built-in replica).
    #[arg(long, value_name = "DIR")]
    mount: Option<PathBuf>,

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

    /// Start the window in fullscreen.
    #[arg(long)]
    fullscreen: bool,

    /// No sound in the window.
    #[arg(long)]
    mute: bool,

    /// No XMS driver.
    #[arg(long)]
    no_xms: bool,

    /// No EMS (INT 67h).
    #[arg(long)]
    no_ems: bool,

    /// How many MiB the program may add to drive C:'s folder; past it its
    /// writes end as on a full disk (INT 21h 36h reports what is left).
    #[arg(long, value_name = "MIB", default_value_t = dos::quota::DEFAULT_QUOTA >> 20,
          value_parser = parse_quota)]
    disk_quota: u64,

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

fn parse_model(s: &str) -> Result<CpuModel, String> {
    s.parse()
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
    /// The session.
    pub session: Session,
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
    _temp: Option<TempDir>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The program terminated with its code.
    Exited(u8),
    /// The time limit passed.
    TimeLimit,
    /// The frame limit was reached.
    FrameLimit,
    /// The replayed record ended.
    ReplayEnd,
    /// The user closed the window.
    Quit,
    /// The emulation cannot go on.
    Stopped(String),
}

impl Outcome {
    /// The outcome of a step that ends the run, or None for a frame.
    pub fn of(step: Step, run: &Run) -> Option<Outcome> {
        match step {
            Step::Frame => match run.frame_limit {
                Some(n) if run.session.frames >= n => Some(Outcome::FrameLimit),
                _ => None,
            },
            Step::Limit => Some(Outcome::TimeLimit),
            Step::ReplayEnd => Some(Outcome::ReplayEnd),
            Step::Exited(c) => Some(Outcome::Exited(c)),
            Step::Stopped(m) => Some(Outcome::Stopped(m)),
        }
    }
}

/// One line saying why a run cannot start.
fn bad(what: impl std::fmt::Display, msg: impl std::fmt::Display) -> String {
    format!("{what}: {msg}")
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

/// Checks, before a run starts, that `path` can be written at its end: a
/// run is not spent only to find its output cannot be kept. A file this
/// check creates is removed again.
fn check_writable(what: &str, path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(bad(format!("{what} {}", path.display()), "is a directory"));
    }
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| bad(format!("{what} {}", path.display()), e))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
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

/// Sets the run up: program, mount, machine, DOS, scripted keys, record and
/// replay. The error is one line for `tandem run: error: ...`.
pub fn prepare(args: &RunArgs, headless: bool, stdin: Stdin) -> Result<Run, String> {
    let presses = crate::press::parse_all(&args.presses)?;
    if let Some(p) = &args.save_state {
        check_writable("--save-state", p)?;
    }
    if let Some(p) = &args.screenshot {
        check_writable("--screenshot", p)?;
    }
    // The replay's header names the machine unless the options do.
    let replay = match &args.replay {
        None => None,
        Some(p) => {
            let f = std::fs::File::open(p).map_err(|e| bad(p.display(), e))?;
            Some(record::read(BufReader::new(f)).map_err(|e| bad(p.display(), e))?)
        }
    };
    let (name, image, temp) = match &args.program {
        None => (REPLICA_NAME.to_string(), REPLICA_EXE.to_vec(), true),
        Some(p) => {
            if p.is_dir() {
                return Err(bad(p.display(), "is a directory, not a program"));
            }
            let image = std::fs::read(p).map_err(|e| bad(p.display(), e))?;
            (p.display().to_string(), image, false)
        }
    };
    if let Err(e) = dos::Executable::parse(&image) {
        return Err(bad(&name, e));
    }
    let header_cpu = match &replay {
        Some((h, _)) => {
            let cpu: CpuModel = h
                .cpu
                .parse()
                .map_err(|e| bad(args.replay.as_ref().expect("replay").display(), e))?;
            Some((cpu, h.cpu_hz))
        }
        None => None,
    };
    let default_cpu = if args.program.is_none() {
        CpuModel::I386
    } else {
        CpuModel::I8086
    };
    let cpu = args.cpu.or(header_cpu.map(|c| c.0)).unwrap_or(default_cpu);
    let mhz = args.mhz.or(header_cpu.map(|c| c.1));
    let opts = MachineOpts { cpu, mhz };
    let cpu_hz = opts.cpu_hz();
    if let (Some((h, _)), Some(p)) = (&replay, &args.replay) {
        if h.cpu != cpu.name() || h.cpu_hz != cpu_hz {
            return Err(bad(
                p.display(),
                format!(
                    "recorded on a {} at {} Hz, but this run is a {} at {} Hz",
                    h.cpu,
                    h.cpu_hz,
                    cpu.name(),
                    cpu_hz
                ),
            ));
        }
        if h.program != name {
            log::warn!("the record was made with {}, this run is {name}", h.program);
        }
    }
    let mut temp_dir = None;
    let mount = match (&args.mount, &args.program) {
        (Some(d), _) => d.clone(),
        (None, Some(p)) => p
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from(".")),
        (None, None) => {
            debug_assert!(temp);
            let d = std::env::temp_dir().join(format!("tandem-replica-{}", std::process::id()));
            std::fs::create_dir_all(&d).map_err(|e| bad(d.display(), e))?;
            temp_dir = Some(TempDir(d.clone()));
            d
        }
    };
    let mut cfg = DosConfig::new(mount.clone());
    cfg.xms = !args.no_xms;
    cfg.ems = !args.no_ems;
    cfg.disk_quota = args.disk_quota << 20;
    let mut dos = Dos::new(cfg).map_err(|e| e.to_string())?;
    let mut m = Machine::new(opts.config());
    let mut origin = 0;
    if let Some(file) = &args.load_state {
        let snap = crate::savestate::load(file, &mount).map_err(|e| e.to_string())?;
        // The state is a whole machine: its CPU and clock cannot change
        // under a running program, so options that ask for others are
        // refused rather than ignored.
        let saved = snap.machine.config();
        let asked_cpu = args.cpu.filter(|c| *c != saved.cpu_model);
        let asked_hz = args.mhz.filter(|hz| *hz != saved.cpu_hz);
        if asked_cpu.is_some() || asked_hz.is_some() {
            return Err(bad(
                file.display(),
                format!(
                    "the state is a {} at {} Hz; --cpu and --mhz cannot change a saved machine (leave them out, or give the same)",
                    saved.cpu_model.name(),
                    saved.cpu_hz
                ),
            ));
        }
        (m, dos, origin) = (snap.machine, snap.dos, snap.meta.origin_cycle);
    } else {
        dos.install(&mut m);
    }
    // A resumed run goes on with the saved machine's CPU and clock.
    let cpu_hz = m.config().cpu_hz;
    let cpu = m.config().cpu_model;
    let (path, dir) = match &args.program {
        Some(p) => dos_path(p, &mount),
        None => ("C:\\REPLICA.EXE".to_string(), "C:\\".to_string()),
    };
    let mut tail = Vec::new();
    for a in &args.args {
        tail.push(b' ');
        tail.extend(a.bytes());
    }
    if tail.len() > 126 {
        return Err(bad(&name, "command line longer than 126 bytes"));
    }
    if args.load_state.is_none() {
        dos.chdir(&dir);
        dos.load(&mut m, &image, &path, &tail)
            .map_err(|e| bad(&name, e))?;
    }
    // Headless: the host's stdin (when it is not a terminal) is typed on
    // the keyboard, read on a thread so that it never blocks the run.
    let stdin_keys = if headless && stdin == Stdin::Type && !std::io::stdin().is_terminal() {
        let mut k = StdinKeys::start();
        dos.type_text(&k.at_start());
        Some(k)
    } else {
        None
    };
    let mut session = Session::new(m, dos);
    let replay_has_end = replay
        .as_ref()
        .is_some_and(|(_, evs)| evs.iter().any(|e| matches!(e.input, Input::End { .. })));
    if let Some((_, events)) = replay {
        session.set_replay(events);
    }
    // Scripted keys count from the start, like --seconds (from the saving
    // run's end for a resumed one).
    session.schedule(presses.iter().flat_map(|p| {
        p.events(cpu_hz, origin)
            .map(|(cycle, key, down)| record::Event {
                cycle,
                input: Input::Key {
                    code: key.code,
                    ext: key.extended,
                    down,
                },
            })
    }));
    if let Some(p) = &args.record {
        let f = std::fs::File::create(p).map_err(|e| bad(p.display(), e))?;
        let header = Header {
            tandem: "record".into(),
            version: 1,
            program: name.clone(),
            cpu: cpu.name().into(),
            cpu_hz,
        };
        let r = Recorder::new(Box::new(std::io::BufWriter::new(f)), &header)
            .map_err(|e| bad(p.display(), e))?;
        session.set_recorder(r);
    }
    let seconds = match args.seconds {
        Some(s) if !(s.is_finite() && s > 0.0) => {
            return Err(bad("--seconds", format!("{s} is not a positive time")))
        }
        Some(s) => Some(s),
        None if headless && args.frames.is_none() && !replay_has_end => {
            Some(HEADLESS_DEFAULT_SECONDS)
        }
        None => None,
    };
    let cycle_limit = seconds.map_or(u64::MAX, |s| {
        origin.saturating_add((s * cpu_hz as f64).round() as u64)
    });
    Ok(Run {
        session,
        name,
        cpu_hz,
        cycle_limit,
        frame_limit: args.frames,
        seconds,
        stdin: stdin_keys,
        _temp: temp_dir,
    })
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
        Err(e) => {
            eprintln!("tandem run: error: {e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let outcome = if headless {
        headless::run(&mut run, &mut std::io::stdout(), true)
    } else {
        match crate::play::window::run(&mut run, args.fullscreen, args.mute) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("tandem run: error: the window: {e}");
                return ExitCode::from(EXIT_BAD_INPUT);
            }
        }
    };
    finish(args, &mut run, outcome)
}

/// Ends a run: the record's end, the screenshot, the state hash, the
/// message and the exit status.
fn finish(args: &RunArgs, run: &mut Run, outcome: Outcome) -> ExitCode {
    let s = &mut run.session;
    s.flush_output(&mut std::io::stdout());
    s.finish_record(!matches!(outcome, Outcome::Exited(_) | Outcome::Stopped(_)));
    let mut status = match &outcome {
        Outcome::Exited(code) => ExitCode::from(*code),
        Outcome::Stopped(_) => ExitCode::from(EXIT_EMULATION),
        _ => ExitCode::from(EXIT_STOPPED),
    };
    if let Some(p) = &args.screenshot {
        if let Err(e) = screenshot::write_png(p, &s.m.render()) {
            eprintln!("tandem run: error: {}: {e}", p.display());
            status = ExitCode::from(EXIT_BAD_INPUT);
        }
    }
    if let Some(file) = &args.save_state {
        let program = args
            .program
            .clone()
            .unwrap_or_else(|| PathBuf::from(REPLICA_NAME));
        if let Err(e) = crate::savestate::save(file, &program, &s.m, &s.dos, run.cycle_limit) {
            eprintln!("tandem run: error: {e}");
            status = ExitCode::from(EXIT_BAD_INPUT);
        }
    }
    if log::log_enabled!(log::Level::Info) {
        report_unimplemented(&s.dos.warnings);
    }
    if args.state_hash {
        eprintln!(
            "tandem run: state hash {:016x} at cycle {}, frame {}",
            s.m.state_hash(),
            s.m.cycles(),
            s.frames
        );
    }
    let name = &run.name;
    let at = s.at();
    match outcome {
        Outcome::Exited(_) => {}
        Outcome::TimeLimit => eprintln!(
            "tandem run: stopped: {name}: the time limit of {} emulated seconds passed (at {at})",
            run.seconds.unwrap_or_default()
        ),
        Outcome::FrameLimit => eprintln!(
            "tandem run: stopped: {name}: {} frames done (at {at})",
            s.frames
        ),
        Outcome::ReplayEnd => eprintln!(
            "tandem run: stopped: {name}: the replayed record ended at cycle {}, frame {} (at {at})",
            s.m.cycles(),
            s.frames
        ),
        Outcome::Quit => eprintln!(
            "tandem run: stopped: {name}: the window was closed at cycle {}, frame {}",
            s.m.cycles(),
            s.frames
        ),
        Outcome::Stopped(msg) => eprintln!("tandem run: stopped: {name}: {msg}"),
    }
    status
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

/// `--disk-quota`: whole MiB, 0 (nothing may be written) to 1 TiB.
fn parse_quota(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n <= 1 << 20 => Ok(n),
        _ => Err(format!("{s} is not a size in MiB from 0 to 1048576")),
    }
}
