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
use crate::app::options::{DosOpts, MachineOpts};
use crate::debug::{gdb, protocol, terminal, Start};

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
    if let Some(p) = &args.protocol {
        return protocol::serve(s, p, args.token_file.as_deref());
    }
    if let Some(port) = args.gdb {
        return gdb::serve(s, port);
    }
    if let Err(e) = terminal::serve(&mut s, args.script.as_deref()) {
        return report("debug", &e);
    }
    let _ = s.set_trace(None);
    ExitCode::SUCCESS
}
