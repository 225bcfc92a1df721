//! `tandem run --disk-quota MIB`: the guest's writes stop at the quota
//! (issue 19 finding 3); a bad size is a usage error.

use std::path::Path;

mod common;
use common::{run as tandem, temp_dir};

/// Runs files.com (it appends a byte to LOG.TXT every tick) for 2 s with
/// `quota`; returns LOG.TXT's length.
fn log_len(name: &str, quota: &str) -> u64 {
    let d = temp_dir(name);
    let files = Path::new(env!("CARGO_MANIFEST_DIR")).join("../roms/dos/files.com");
    std::fs::copy(files, d.join("files.com")).expect("copy");
    let prog = d.join("files.com");
    let o = tandem(&[
        "--headless",
        "--cpu",
        "8086",
        "--seconds",
        "2",
        "--disk-quota",
        quota,
        prog.to_str().expect("path"),
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
    let o = tandem(&["--headless", "--disk-quota", "lots", "x.com"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}
