//! `tandem debug PROGRAM [ARGS]`: the debugger (docs/debugger.md).
//!
//! Stops at the program's entry and reads commands from the terminal
//! (line editing and history) or, when stdin is not a terminal, one per
//! line from the pipe. `--protocol stdio|PORT` serves the JSON-lines
//! control protocol instead, `--gdb PORT` a GDB remote stub.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::app::error::report;
use crate::app::error::Error;
use crate::app::options::{DosOpts, MachineOpts};
use crate::debug::{gdb, protocol, terminal, ui, Start};
use crate::golden::live::Live;
use crate::golden::profile::Chosen;
use crate::golden::symbols::{segments, Symbols};

/// Arguments of `tandem debug`.
#[derive(Args, Debug)]
#[command(after_help = crate::app::exit::HELP)]
pub struct DebugArgs {
    #[command(flatten)]
    pub(crate) machine: MachineOpts,

    #[command(flatten)]
    pub(crate) dos: DosOpts,

    /// Serve the JSON-lines control protocol: `stdio` or a local TCP port
    /// on 127.0.0.1 (0: any free port). A TCP client's first line must be
    /// `{"hello":"tandem","token":TOKEN}` with the token printed on stderr.
    #[arg(long, value_name = "stdio|PORT")]
    protocol: Option<String>,

    /// Also write the token of `--protocol PORT` or `--ui` to this file
    /// (mode 0600).
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,

    /// Open the visual debugger: a page on 127.0.0.1 (the address, with
    /// its token, is printed on stderr and opened in `$BROWSER` or the
    /// desktop's browser) with the screen, code, registers, stack,
    /// memory, devices, timeline and golden-master views.
    #[arg(long, conflicts_with_all = ["protocol", "gdb", "script"])]
    ui: bool,

    /// The window's local port (0: any free port).
    #[arg(long, value_name = "PORT", default_value_t = 0, requires = "ui")]
    ui_port: u16,

    /// Do not start a browser on the window's page (print its address).
    #[arg(long, requires = "ui")]
    no_browser: bool,

    /// Name routines and tables after a golden-master profile (replica,
    /// replica-demo, game-retail, game-demo, or a TOML file) in the
    /// window's views: labels in the code, `params` as a memory address,
    /// return addresses as `routine+offset`.
    #[arg(
        long,
        value_name = "NAME",
        requires = "ui",
        conflicts_with = "load_state"
    )]
    profile: Option<String>,

    /// Serve a GDB remote stub on this local TCP port (0: any free port;
    /// the port is printed on stderr). Connect with `target remote :PORT`.
    #[arg(long, value_name = "PORT", conflicts_with = "protocol")]
    gdb: Option<u16>,

    /// Start from a save state instead of the program's entry (the saved
    /// machine keeps its CPU and clock: not with --cpu or --mhz).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["cpu", "mhz"])]
    load_state: Option<PathBuf>,

    /// Memory for the history that lets the session run backwards
    /// (reverse-step, reverse-continue, history, goto), in MiB; past it the
    /// oldest history is dropped. 0 keeps none.
    #[arg(long, value_name = "MIB", default_value_t = crate::debug::history::DEFAULT_MIB)]
    history_mib: u64,

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

/// Runs `tandem debug`.
pub fn run(args: &DebugArgs) -> ExitCode {
    let start = Start {
        program: &args.program,
        args: &args.args,
        machine: &args.machine,
        dos: &args.dos,
        load_state: args.load_state.as_deref(),
        history_mib: args.history_mib,
    };
    let mut s = match crate::debug::start(&start) {
        Ok(s) => s,
        Err(e) => return report("debug", &e),
    };
    if args.ui {
        let symbols = match &args.profile {
            Some(p) => match symbols_of(p, &args.program, &mut s) {
                Ok(sy) => Some(sy),
                Err(e) => return report("debug", &e),
            },
            None => None,
        };
        let how = ui::Serve {
            port: args.ui_port,
            token_file: args.token_file.as_deref(),
            open_browser: !args.no_browser,
        };
        return ui::serve(s, symbols, None, &how);
    }
    if args.token_file.is_some() && args.protocol.is_none() {
        return crate::app::error::input_error(
            "debug",
            "--token-file is for --protocol PORT or --ui",
        );
    }
    if let Some(p) = &args.protocol {
        return protocol::serve(s, p, args.token_file.as_deref());
    }
    if let Some(port) = args.gdb {
        return gdb::serve(s, port);
    }
    if let Err(e) = terminal::serve(&mut s, args.script.as_deref()) {
        return report("debug", &e);
    }
    // A trace still on ends here, its failure said.
    if let Err(e) = s.set_trace(None) {
        return report("debug", &e.into());
    }
    ExitCode::SUCCESS
}

/// The symbols of the profile `name` in the program just loaded in `d`
/// (at its entry), and the lock-step check of the program by the
/// profile's models set as the debugger's observer (when the profile has
/// a frame point; else said why).
fn symbols_of(
    name: &str,
    program: &std::path::Path,
    d: &mut crate::debug::engine::Debugger,
) -> Result<Symbols, Error> {
    let chosen = Chosen::open(name)?;
    let (image, prog) = crate::app::program::read(program)?;
    let segs = segments(&chosen.profile, &image, &prog, &d.core)?;
    let symbols = Symbols::new(&chosen.profile, segs);
    match Live::new(chosen, &image, &prog, &mut d.core) {
        Ok(live) => d.observer = Some(Box::new(live)),
        Err(e) => eprintln!("tandem debug: --profile {name}: no lock-step check: {e}"),
    }
    Ok(symbols)
}
