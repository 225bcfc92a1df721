//! What every command shares: a program loaded on the emulated PC with
//! tandem's DOS ([`program`]), the programs built into the binary
//! ([`builtin`]), the machine and DOS options ([`options`]), addresses
//! ([`address`]), user files read within bounds ([`input_file`]), save states ([`savestate`]), output files whose write errors
//! are never lost ([`output`]), a temporary drive C:
//! ([`tempdir`]), errors ([`error`]) and exit codes ([`exit`]). It uses no
//! other room of the front end.

pub mod address;
pub mod builtin;
pub mod error;
pub mod exit;
pub mod input_file;
pub mod options;
pub mod output;
pub mod program;
pub mod savestate;
pub mod tempdir;
