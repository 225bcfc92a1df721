//! The single-step test suites (`shared/sst/`): the MOO file reader
//! ([`moo`]), the `metadata.json` reader ([`metadata`]) and the runner that
//! checks the CPU core against them ([`runner`]), and the 386 real-mode
//! vectors of `shared/vectors/386-real` ([`vectors`]).
//!
//! Typical use:
//!
//! ```no_run
//! use std::path::PathBuf;
//! use emu::sst::{RunOptions, Suite, Totals};
//!
//! let suite = Suite::open(&[PathBuf::from("shared/sst/8086")]).expect("readable suite");
//! let mut totals = Totals::default();
//! suite.run(&RunOptions::default(), 2, |_, r| match r {
//!     Ok(r) => {
//!         totals.add(&r);
//!         true
//!     }
//!     Err(e) => {
//!         eprintln!("{e}");
//!         false
//!     }
//! });
//! println!("{} passed, {} failed", totals.passed, totals.failed);
//! ```

pub mod metadata;
pub mod moo;
pub mod runner;
pub mod vectors;

pub use metadata::{parse_file_name, FileForm, FormInfo, FormStatus, Metadata, MetadataError};
pub use moo::{
    decompress, parse_moo, read_moo_file, CpuState, Cycle, MooError, MooException, MooFile,
    MooHeader, MooReg, MooRegs, MooTest,
};
pub use runner::{
    compare_cycles, cycle_matches, flag_diff, flag_letters, is_moo_name, model_for_cpu_name,
    parse_revocation_list, render_ours, render_theirs, run_file, run_file_with, CycleFailure,
    CycleOutcome, CycleTally, DirContext, Failure, FileResult, RamDiff, RegDiff, Rules, RunOptions,
    Runner, SstError, Suite, Tally, Totals,
};
