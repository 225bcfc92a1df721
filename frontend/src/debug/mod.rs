//! `tandem debug PROGRAM [ARGS]`: the debugger (docs/debugger.md).
//!
//! Stops at the program's entry and reads commands from the terminal
//! (line editing and history) or, when stdin is not a terminal, one per
//! line from the pipe. `--protocol stdio|PORT` serves the JSON-lines
//! control protocol instead, `--gdb PORT` a GDB remote stub.

pub mod breakpoints;
pub mod command;
pub mod commands;
pub mod error;
pub mod execute;
pub mod gdb;
pub mod parse;
pub mod protocol;
pub mod regs;
pub mod session;
pub mod stepping;
pub mod text;

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::error::input_error;
use crate::machine_opts::{DosOpts, MachineOpts};
use error::Error;
use session::{Debugger, Stop};

/// Arguments of `tandem debug`.
#[derive(Args, Debug)]
#[command(after_help = crate::exit::HELP)]
pub struct DebugArgs {
    #[command(flatten)]
    pub(crate) machine: MachineOpts,

    #[command(flatten)]
    dos: DosOpts,

    /// Serve the JSON-lines control protocol: `stdio` or a local TCP port
    /// on 127.0.0.1 (0: any free port). A TCP client's first line must be
    /// `{"hello":"tandem","token":TOKEN}` with the token printed on stderr.
    #[arg(long, value_name = "stdio|PORT")]
    protocol: Option<String>,

    /// Also write the `--protocol PORT` token to this file (mode 0600).
    #[arg(long, value_name = "FILE", requires = "protocol")]
    token_file: Option<PathBuf>,

    /// Serve a GDB remote stub on this local TCP port (0: any free port;
    /// the port is printed on stderr). Connect with `target remote :PORT`.
    #[arg(long, value_name = "PORT", conflicts_with = "protocol")]
    gdb: Option<u16>,

    /// Start from a save state instead of the program's entry (the saved
    /// machine keeps its CPU and clock: not with --cpu or --mhz).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["cpu", "mhz"])]
    load_state: Option<PathBuf>,

    /// Run these debugger commands first (a file, one per line).
    #[arg(long, value_name = "FILE")]
    script: Option<PathBuf>,

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

/// Builds the machine with the program loaded at its entry (or from a
/// state).
fn setup(args: &DebugArgs) -> Result<Debugger, crate::error::Error> {
    let program = &args.program;
    let image = std::fs::read(program).map_err(|e| Error::io(program, e))?;
    let name = program.display().to_string();
    dos::Executable::parse(&image).map_err(|e| crate::error::Error::bad(&name, e))?;
    let mount = match &args.dos.mount {
        Some(d) => d.clone(),
        None => crate::session::program_folder(program),
    };
    if let Some(f) = &args.load_state {
        let snap = crate::savestate::load(f, &mount)?;
        return Ok(Debugger::new(snap.machine, snap.dos, mount));
    }
    let s = crate::session::boot(
        args.machine.config(emu::CpuModel::I8086),
        args.dos.config(mount.clone()),
        &image,
        &name,
        Some(program),
        &args.args,
    )?;
    Ok(Debugger::new(s.m, s.dos, mount))
}

/// Runs `tandem debug`.
pub fn run(args: &DebugArgs) -> ExitCode {
    let mut s = match setup(args) {
        Ok(s) => s,
        Err(e) => return input_error("debug", e),
    };
    if let Some(p) = &args.protocol {
        return protocol::serve(s, p, args.token_file.as_deref());
    }
    if let Some(port) = args.gdb {
        return gdb::serve(s, port);
    }
    let mut stdout = std::io::stdout();
    let _ = writeln!(stdout, "tandem debug: stopped at the program's entry");
    let _ = write!(stdout, "{}", text::stop_text(&mut s, &Stop::Stepped));
    if let Some(f) = &args.script {
        match std::fs::read_to_string(f) {
            Ok(body) => {
                for l in body.lines() {
                    if one(&mut s, l, true) {
                        return ExitCode::SUCCESS;
                    }
                }
            }
            Err(e) => return input_error("debug", Error::io(f, e)),
        }
    }
    if std::io::stdin().is_terminal() {
        repl(&mut s);
    } else {
        for l in std::io::stdin().lock().lines() {
            let Ok(l) = l else { break };
            if one(&mut s, &l, true) {
                break;
            }
        }
    }
    let _ = s.set_trace(None);
    ExitCode::SUCCESS
}

/// Runs one command and prints its result; true to quit.
fn one(s: &mut Debugger, line: &str, echo: bool) -> bool {
    let mut out = std::io::stdout();
    if echo {
        let _ = writeln!(out, "(tandem) {line}");
    }
    let r = commands::execute(s, line);
    match r {
        Ok(o) => {
            if !o.text.is_empty() {
                let _ = write!(out, "{}", o.text);
                if !o.text.ends_with('\n') {
                    let _ = writeln!(out);
                }
            }
            let _ = out.flush();
            o.quit
        }
        Err(e) => {
            let _ = writeln!(out, "error: {e}");
            false
        }
    }
}

fn repl(s: &mut Debugger) {
    let Ok(mut ed) = rustyline::DefaultEditor::new() else {
        return;
    };
    let hist = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".tandem_history"));
    if let Some(h) = &hist {
        let _ = ed.load_history(h);
    }
    let mut last = String::new();
    while let Ok(l) = ed.readline("(tandem) ") {
        // An empty line repeats the last command (as gdb does).
        let l = if l.trim().is_empty() { last.clone() } else { l };
        if !l.trim().is_empty() {
            let _ = ed.add_history_entry(l.as_str());
        }
        last = l.clone();
        if one(s, &l, false) {
            break;
        }
    }
    if let Some(h) = &hist {
        let _ = ed.save_history(h);
    }
}
