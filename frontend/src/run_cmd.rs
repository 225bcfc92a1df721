//! `tandem run PROGRAM [ARGS...]`: runs a DOS program on the emulated PC
//! with tandem's DOS and BIOS services, drive C: being a host folder.
//!
//! Exit status: the program's own return code (INT 21h 4Ch AL) when it
//! terminates; 2 when tandem cannot start it (unreadable or malformed
//! program, bad mount); 3 when the run stops without the program
//! terminating (time limit, something tandem does not emulate, a CPU fault
//! with no handler). Guest text goes to stdout; tandem's own messages, one
//! line each, to stderr. When stdin is not a terminal, its bytes are typed
//! on the keyboard as the program asks for keys (LF is Enter).

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use dos::{Dos, DosConfig, DosExit};
use hw::Machine;

use crate::machine_opts::MachineOpts;

/// Exit status: the program could not be loaded.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status: the run stopped before the program terminated.
pub const EXIT_STOPPED: u8 = 3;

/// Arguments of `tandem run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    machine: MachineOpts,

    /// The host folder that is drive C: (default: the program's folder).
    #[arg(long, value_name = "DIR")]
    mount: Option<PathBuf>,

    /// No window: guest text goes to stdout (the only mode so far).
    #[arg(long)]
    headless: bool,

    /// Emulated seconds at most before the run stops (exit status 3).
    #[arg(long, value_name = "S", default_value_t = 60)]
    seconds: u64,

    /// No XMS driver.
    #[arg(long)]
    no_xms: bool,

    /// No EMS (INT 67h).
    #[arg(long)]
    no_ems: bool,

    /// Write a save state (the whole machine, DOS and open files) at the
    /// end of the run.
    #[arg(long, value_name = "FILE")]
    save_state: Option<PathBuf>,

    /// Resume from a save state instead of loading PROGRAM afresh
    /// (`--seconds` counts from where the saving run stopped).
    #[arg(long, value_name = "FILE")]
    load_state: Option<PathBuf>,

    /// Print the machine's state hash on stderr at the end of the run.
    #[arg(long)]
    state_hash: bool,

    /// The DOS program (.EXE or .COM), a host path.
    #[arg(value_name = "PROGRAM")]
    program: PathBuf,

    /// The program's command line.
    #[arg(
        value_name = "ARGS",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    args: Vec<String>,
}

fn bad(program: &Path, msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("tandem run: error: {}: {msg}", program.display());
    ExitCode::from(EXIT_BAD_INPUT)
}

/// The DOS path of `program` under `mount` (C:\DIR\NAME.EXE) and its
/// directory's DOS path, or C:\NAME when it is outside the mount.
fn dos_path(program: &Path, mount: &Path) -> (String, String) {
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

/// Runs `tandem run`.
pub fn run(args: &RunArgs) -> ExitCode {
    if !args.headless {
        eprintln!("tandem run: no window yet: running headless (text on stdout)");
    }
    let program = &args.program;
    if program.is_dir() {
        return bad(program, "is a directory, not a program");
    }
    let image = match std::fs::read(program) {
        Ok(b) => b,
        Err(e) => return bad(program, e),
    };
    if let Err(e) = dos::Executable::parse(&image) {
        return bad(program, e);
    }
    let mount = match &args.mount {
        Some(d) => d.clone(),
        None => program
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from(".")),
    };
    let mut cfg = DosConfig::new(mount.clone());
    cfg.xms = !args.no_xms;
    cfg.ems = !args.no_ems;
    let mut dos = match Dos::new(cfg) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("tandem run: error: mount {}: {e}", mount.display());
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let mut origin = 0;
    let mut m = Machine::new(args.machine.config());
    if let Some(file) = &args.load_state {
        match crate::savestate::load(file, &mount) {
            Ok(snap) => (m, dos, origin) = (snap.machine, snap.dos, snap.meta.origin_cycle),
            Err(e) => {
                eprintln!("tandem run: error: {e}");
                return ExitCode::from(EXIT_BAD_INPUT);
            }
        }
    } else {
        dos.install(&mut m);
    }
    let cpu_hz = m.config().cpu_hz;
    let (path, dir) = dos_path(program, &mount);
    let mut tail = Vec::new();
    for a in &args.args {
        tail.push(b' ');
        tail.extend(a.bytes());
    }
    if tail.len() > 126 {
        return bad(program, "command line longer than 126 bytes");
    }
    if args.load_state.is_none() {
        dos.chdir(&dir);
        if let Err(e) = dos.load(&mut m, &image, &path, &tail) {
            return bad(program, e);
        }
    }
    // Headless: the host's stdin (when it is not a terminal) is typed on
    // the keyboard.
    if !std::io::stdin().is_terminal() {
        let mut text = Vec::new();
        if std::io::stdin().read_to_end(&mut text).is_ok() {
            dos.type_text(&text);
        }
    }
    let limit = origin.saturating_add(args.seconds.saturating_mul(cpu_hz));
    let slice = (cpu_hz / 100).max(1);
    let mut stdout = std::io::stdout();
    let exit = loop {
        let left = limit.saturating_sub(m.cycles());
        let r = dos.run(&mut m, left.min(slice));
        let _ = stdout.write_all(&dos.take_output());
        let _ = stdout.flush();
        match r {
            DosExit::TimeLimit if m.cycles() < limit => continue,
            other => break other,
        }
    };
    if let Some(file) = &args.save_state {
        if let Err(e) = crate::savestate::save(file, program, &m, &dos, limit) {
            eprintln!("tandem run: error: {e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    }
    if args.state_hash {
        eprintln!("tandem run: state hash: {:016x}", m.state_hash());
    }
    match exit {
        DosExit::Exited(code) => ExitCode::from(code),
        DosExit::TimeLimit => {
            eprintln!(
                "tandem run: stopped: {}: the time limit of {} emulated seconds passed (at {:04X}:{:04X})",
                program.display(),
                args.seconds,
                m.cpu.regs.seg[1],
                m.cpu.regs.ip
            );
            ExitCode::from(EXIT_STOPPED)
        }
        DosExit::Stopped(msg) => {
            eprintln!("tandem run: stopped: {}: {msg}", program.display());
            ExitCode::from(EXIT_STOPPED)
        }
        DosExit::HookStop => {
            // `tandem run` sets no hooks; other commands drive their own loop.
            eprintln!(
                "tandem run: stopped: {}: a hook stopped the run",
                program.display()
            );
            ExitCode::from(EXIT_STOPPED)
        }
    }
}
