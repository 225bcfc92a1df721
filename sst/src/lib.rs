//! tandem's CPU test harness: the single-step test suites (`shared/sst/`)
//! and the 386 real-mode vectors (`shared/vectors/386-real`), run against
//! the `emu` core.
//!
//! The readers: [`moo`] (the MOO container), [`metadata`] (a suite's
//! `metadata.json`), [`context`] (what lies beside the files of a
//! directory) and [`vectors`] (the 386 vector format, and its x87 extension:
//! [`FpuState`], [`Departure`]). The runners in
//! [`runner`] load each test into a [`emu::Cpu`], step it and compare the
//! final state under the [`rules`] of its model; [`cycles`] compares the
//! 8086's bus cycles in cycle-exact mode. A [`Suite`] runs many files on a
//! thread pool ([`pool`]) and [`report`] holds the results and their text.
//!
//! Typical use:
//!
//! ```no_run
//! use std::path::PathBuf;
//! use sst::{RunOptions, Suite, Totals};
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

pub mod context;
pub mod cycles;
pub mod error;
pub mod metadata;
pub mod moo;
pub mod pool;
pub mod report;
pub mod rules;
pub mod runner;
pub mod suite;
pub mod vectors;

pub use context::{parse_revocation_list, DirContext, RevocationError};
pub use cycles::{
    compare_cycles, cycle_matches, render_ours, render_theirs, CycleFailure, CycleOutcome,
};
pub use error::SstError;
pub use metadata::{parse_file_name, FileForm, FormInfo, FormStatus, Metadata, MetadataError};
pub use moo::{
    decompress, is_moo_name, parse_moo, read_moo_file, CpuState, Cycle, MooError, MooException,
    MooFile, MooHeader, MooReg, MooRegs, MooTest,
};
pub use report::{
    flag_diff, flag_letters, CycleTally, Failure, FileResult, RamDiff, RegDiff, Tally, Totals,
};
pub use rules::{model_for_cpu_name, Rules, RunOptions};
pub use runner::{run_file, run_file_with, Runner, VectorRunner, VectorTally};
pub use suite::Suite;
pub use vectors::{
    is_vector_name, read_vector_file, Departure, FpuField, FpuState, FpuStateError, Vector,
};
