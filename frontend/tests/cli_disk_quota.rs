//! `tandem run --disk-quota MIB`: the guest's writes stop at the quota
//!; a bad size is a usage error.

mod common;
use common::{dir_with, dos_rom, headless, s};

/// Runs files.com (it appends a byte to LOG.TXT every tick) for 2 s with
/// `quota`; returns LOG.TXT's length.
fn log_len(name: &str, quota: &str) -> u64 {
    let (d, prog) = dir_with(name, &dos_rom("files.com"));
    let prog = s(&prog);
    let o = headless(&[
        "--cpu",
        "8086",
        "--seconds",
        "2",
        "--disk-quota",
        quota,
        prog,
    ]);
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    let len = std::fs::metadata(d.join("LOG.TXT")).expect("LOG.TXT").len();
    let _ = std::fs::remove_dir_all(d);
    len
}

#[test]
fn writes_stop_at_the_disk_quota() {
    assert!(log_len("some", "1") > 20, "with room the log grows");
    assert_eq!(
        log_len("none", "0"),
        0,
        "with a quota of 0 nothing is written"
    );
    let o = headless(&["--disk-quota", "lots", "x.com"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}
