//! The exit status of every command, in one place: the codes, what each
//! means, and the mapping from how a run ended or what went wrong to a
//! code. `--help`, the README and `docs/` state these codes
//! (`tests/cli_exit.rs` checks each one).

use dos::Exit;

/// Success: the command did what it was asked (a run: see [`of_run`]).
#[cfg(test)]
pub const OK: u8 = 0;
/// A check failed: a model diverged (`compare`), a sweep found unequal
/// results, a corpus program or a single-step test failed.
pub const CHECK_FAILED: u8 = 1;
/// Bad usage or bad input: a malformed command line, or a program,
/// profile, mount, record, save state or output file that cannot be read,
/// parsed or written.
pub const BAD_INPUT: u8 = 2;
/// The run ended before the program did: a time or frame limit, the end
/// of a replayed record, the window closed.
pub const RUN_ENDED_FIRST: u8 = 124;
/// The emulation cannot go on: something tandem does not emulate, the CPU
/// halted with interrupts disabled, the program reset the machine.
pub const EMULATION_STOPPED: u8 = 126;

/// Every code with its one-line meaning, as `--help` prints it.
#[cfg(test)]
pub const CODES: &[(u8, &str)] = &[
    (OK, "success"),
    (CHECK_FAILED, "a check failed (compare, sweep, corpus, sst)"),
    (BAD_INPUT, "bad usage or bad input"),
    (RUN_ENDED_FIRST, "the run ended before the program did"),
    (EMULATION_STOPPED, "the emulation cannot go on"),
];

/// The text of `--help`'s exit status section, the same for every command
/// (a macro so that help texts can `concat!` it).
macro_rules! exit_help {
    () => {
        "Exit status (tandem run: the program's own code when it terminates):
  0    success
  1    a check failed (compare, sweep, corpus, sst)
  2    bad usage or bad input
  124  the run ended before the program did
  126  the emulation cannot go on"
    };
}
pub(crate) use exit_help;

/// [`exit_help!`] as a constant.
pub const HELP: &str = exit_help!();

/// The exit status of a session's run that ended with `exit`.
pub fn of_exit(exit: &Exit) -> u8 {
    match exit {
        Exit::Exited(code) => *code,
        Exit::Stopped(_) => EMULATION_STOPPED,
        Exit::Frame | Exit::Limit | Exit::HookStop => RUN_ENDED_FIRST,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_text_lists_every_code_with_its_meaning() {
        for (code, meaning) in CODES {
            let line = format!("  {code:<4} {meaning}");
            assert!(
                HELP.lines().any(|l| l.trim_end() == line.trim_end()),
                "{line:?} missing from HELP"
            );
        }
        assert_eq!(HELP.lines().count(), CODES.len() + 1);
    }

    #[test]
    fn a_run_maps_to_its_code() {
        use dos::Stop;
        assert_eq!(of_exit(&Exit::Exited(7)), 7);
        assert_eq!(of_exit(&Exit::Limit), RUN_ENDED_FIRST);
        assert_eq!(of_exit(&Exit::Stopped(Stop::Reset)), EMULATION_STOPPED);
    }
}
