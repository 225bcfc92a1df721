//! The debugger (docs/debugger.md): its engine ([`engine::Debugger`]:
//! breakpoints on the CPU's hooks, stepping, the call stack, changed
//! bytes, traces), the typed commands it takes ([`command`]) and three
//! front ends: the console ([`console`]: a line in, text out; [`terminal`]
//! reads lines from the terminal, a pipe or a script), the JSON-lines
//! control protocol ([`protocol`]) and the GDB remote stub ([`gdb`]). Also
//! `tandem trace`'s instruction trace ([`trace`]).

pub mod breakpoints;
pub mod command;
pub mod console;
pub mod engine;
pub mod error;
pub mod execute;
pub mod gdb;
pub mod history;
pub mod observer;
pub mod parse;
pub mod position;
pub mod protocol;
pub mod regs;
pub mod stepping;
pub mod terminal;
pub mod text;
pub mod trace;
pub mod ui;
pub mod writes;

use std::path::{Path, PathBuf};

use crate::app::error::Error;
use crate::app::options::{DosOpts, MachineOpts};
use crate::app::{program, savestate};
use engine::Debugger;

/// What the debugger starts from: a program (with its command line) and
/// the machine, or a save state.
pub struct Start<'a> {
    /// The DOS program, a host path.
    pub program: &'a Path,
    /// Its command line.
    pub args: &'a [String],
    /// The machine (an 8086 unless `--cpu` says).
    pub machine: &'a MachineOpts,
    /// Drive C: and the memory managers.
    pub dos: &'a DosOpts,
    /// A save state to start from instead of the program's entry.
    pub load_state: Option<&'a Path>,
    /// The history's memory budget in MiB (0: no history).
    pub history_mib: u64,
}

/// Builds the machine with the program loaded at its entry (or from a
/// state).
pub fn start(s: &Start) -> Result<Debugger, Error> {
    let (image, name) = program::read(s.program)?;
    dos::Executable::parse(&image).map_err(|e| Error::bad(&name, e))?;
    let mount: PathBuf = match &s.dos.mount {
        Some(d) => d.clone(),
        None => program::program_folder(s.program),
    };
    let mut d = if let Some(f) = s.load_state {
        let snap = savestate::load(f, &mount)?;
        let (mut machine, mut dos) = (snap.machine, snap.dos);
        dos.attach_cdroms(&mut machine, &s.dos.cdroms())?;
        Debugger::new(machine, dos, mount)
    } else {
        let session = program::boot(
            s.machine.config(emu::CpuModel::I8086),
            s.dos.config(mount.clone()),
            &image,
            &name,
            Some(s.program),
            s.args,
        )?;
        Debugger::new(session.m, session.dos, mount)
    };
    d.keep_history(s.history_mib)?;
    Ok(d)
}
