//! The golden master: Rust models checked against the program's own
//! routines. [`profile`] chooses the profile, the program and the
//! reference whose tables the models read; [`watch`] is the one lock-step
//! watch (hooks, their log's digest, who wrote each slot, frame points);
//! [`check`] runs it over a playing program with checkpoints, spot checks
//! and the report of the first divergence ([`report`]); [`compare`] does
//! so headless for `tandem compare`; [`bundle`] writes and replays a
//! divergence's reproduction bundle, whose [`tape`] rebuilds the models'
//! state; [`sweep`] runs a routine over its whole domain and [`call`]
//! runs one routine in isolation.

pub mod bundle;
pub mod call;
pub mod check;
pub mod compare;
pub mod live;
pub mod profile;
pub mod report;
pub mod sweep;
pub mod symbols;
pub mod tape;
pub mod watch;
