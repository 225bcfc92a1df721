//! Save states are untrusted input: a PIT or
//! CPU clock of 0, an origin cycle after the saved one, bytes after the
//! payload each exit 2 with one line naming the file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use dos::state::{self, Meta};
use dos::{Dos, DosConfig};
use hw::{Machine, MachineConfig};

mod common;
use common::{run_bounded, s, temp_dir};

fn spin() -> PathBuf {
    common::dos_rom("spin.com")
}

/// A state of a fresh machine with `cfg`, DOS installed, saved with
/// `origin`.
fn state_bytes(dir: &Path, cfg: MachineConfig, origin: u64) -> Vec<u8> {
    let mut m = Machine::new(cfg);
    let mut d = Dos::new(DosConfig::new(dir.to_path_buf())).expect("dos");
    d.install(&mut m);
    let image = std::fs::read(spin()).expect("spin");
    d.load(&mut m, &image, "C:\\SPIN.COM", b"").expect("load");
    let meta = Meta {
        tandem: "test".into(),
        program: "SPIN.COM".into(),
        origin_cycle: origin,
    };
    state::save(&m, &d, &meta).expect("save")
}

fn resume(dir: &Path, bytes: &[u8], extra: &[&str]) -> Output {
    let file = dir.join("s.state");
    std::fs::write(&file, bytes).expect("write");
    std::fs::copy(spin(), dir.join("SPIN.COM")).expect("copy");
    let prog = dir.join("SPIN.COM");
    let first = ["--headless", "--seconds", "1", "--load-state", s(&file)];
    // A run of one emulated second ends well within the bound (a state
    // whose times are not checked ran on without end).
    run_bounded(&[&first[..], extra, &[s(&prog)]].concat(), "resume")
}

fn one_line_exit_2(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("s.state") && err.contains(needle), "{err}");
}

#[test]
fn a_good_state_resumes() {
    let d = temp_dir("good");
    let o = resume(&d, &state_bytes(&d, MachineConfig::default(), 0), &[]);
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_pit_clock_of_zero_is_refused() {
    let d = temp_dir("pit");
    let cfg = MachineConfig {
        pit_hz: 0,
        ..MachineConfig::default()
    };
    one_line_exit_2(&resume(&d, &state_bytes(&d, cfg, 0), &[]), "PIT clock");
    // A device clock of zero inside the machine does not decode.
    let zero: Result<hw::scheduler::ClockRatio, _> =
        serde_json::from_str(r#"{"device_hz":0,"cpu_hz":4772727}"#);
    assert!(zero.is_err());
    let fine: Result<hw::scheduler::ClockRatio, _> =
        serde_json::from_str(r#"{"device_hz":1193182,"cpu_hz":4772727}"#);
    assert!(fine.is_ok());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_huge_origin_cycle_is_refused() {
    let d = temp_dir("origin");
    let bytes = state_bytes(&d, MachineConfig::default(), u64::MAX - 5);
    one_line_exit_2(&resume(&d, &bytes, &[]), "origin cycle");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn trailing_bytes_are_refused() {
    let d = temp_dir("trailing");
    let mut bytes = state_bytes(&d, MachineConfig::default(), 0);
    bytes.extend_from_slice(b"extra");
    one_line_exit_2(&resume(&d, &bytes, &[]), "5 bytes after");
    let _ = std::fs::remove_dir_all(&d);
}

/// `--cpu` or `--mhz` that differ from the saved machine are refused, not
/// silently ignored; the same ones are accepted.
#[test]
fn cpu_and_mhz_that_differ_from_the_state_are_refused() {
    let d = temp_dir("cpu");
    let bytes = state_bytes(&d, MachineConfig::default(), 0);
    one_line_exit_2(&resume(&d, &bytes, &["--cpu", "386"]), "--cpu");
    one_line_exit_2(&resume(&d, &bytes, &["--mhz", "8"]), "--mhz");
    let o = resume(&d, &bytes, &["--cpu", "8086", "--mhz", "4.772727"]);
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `tandem debug --load-state` refuses --cpu and --mhz the same way.
#[test]
fn debug_refuses_cpu_and_mhz_with_a_state() {
    let d = temp_dir("debugcpu");
    let file = d.join("s.state");
    std::fs::write(&file, state_bytes(&d, MachineConfig::default(), 0)).expect("write");
    for extra in [["--cpu", "386"], ["--mhz", "8"]] {
        let o = Command::new(env!("CARGO_BIN_EXE_tandem"))
            .args(["debug", "--load-state"])
            .arg(&file)
            .args(extra)
            .arg(spin())
            .stdin(Stdio::null())
            .output()
            .expect("runs");
        assert_eq!(o.status.code(), Some(2), "{o:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(extra[0]),
            "{o:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}
