//! The `tandem sst` command line: exit statuses, error lines and the totals
//! line, run on the built binary.

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::tandem;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `shared/sst/<name>`, failing loudly when the data is missing.
fn suite_dir(name: &str) -> PathBuf {
    let shared = match std::env::var_os("TANDEM_SHARED") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    let dir = shared.join("sst").join(name);
    assert!(
        dir.is_dir(),
        "single-step test data not found at {} (set TANDEM_SHARED to the shared directory)",
        dir.display()
    );
    dir
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tandem-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch directory");
    d
}

/// True for a line of the form `N passed, M failed`.
fn is_totals_line(line: &str) -> bool {
    let Some((p, f)) = line.split_once(" passed, ") else {
        return false;
    };
    let Some(f) = f.strip_suffix(" failed") else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(p) && digits(f)
}

#[test]
fn totals_line_shape() {
    assert!(is_totals_line("0 passed, 12 failed"));
    assert!(!is_totals_line("x passed, 1 failed"));
    assert!(!is_totals_line("1 passed, 1 failed."));
    assert!(!is_totals_line(" passed, 1 failed"));
}

#[test]
fn help_lists_subcommands() {
    let o = tandem(&["--help"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("sst"), "{}", stdout(&o));
}

#[test]
fn missing_path_exits_2() {
    let o = tandem(&["sst", "/nonexistent/tandem/00.MOO.gz"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("/nonexistent/tandem/00.MOO.gz"), "{err}");
    assert_eq!(err.lines().count(), 1, "one error line expected: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn corrupt_file_exits_2() {
    let d = scratch("corrupt");
    let junk = d.join("00.MOO.gz");
    std::fs::write(&junk, b"this is not a MOO file, just junk").unwrap();
    let gz_junk = d.join("01.MOO.gz");
    std::fs::write(&gz_junk, [0x1F, 0x8B, 8, 0, 1, 2, 3, 4, 5]).unwrap();
    for f in [&junk, &gz_junk] {
        let o = tandem(&["sst", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(f.to_str().unwrap()), "{err}");
        assert_eq!(err.lines().count(), 1, "one error line expected: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn truncated_real_file_exits_2() {
    let real = suite_dir("8086").join("00.MOO.gz");
    let bytes = std::fs::read(&real).unwrap();
    let d = scratch("truncated");
    let cut = d.join("00.MOO.gz");
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    let o = tandem(&["sst", cut.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("00.MOO.gz"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_metadata_exits_2() {
    let d = scratch("badmeta");
    std::fs::copy(suite_dir("8086").join("00.MOO.gz"), d.join("00.MOO.gz")).unwrap();
    std::fs::write(d.join("metadata.json"), "{\"opcodes\": 5}").unwrap();
    let o = tandem(&["sst", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("metadata.json"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn real_file_reports_totals() {
    let real = suite_dir("8086").join("00.MOO.gz");
    let o = tandem(&["sst", real.to_str().unwrap()]);
    let code = o.status.code();
    assert!(
        code == Some(0) || code == Some(1),
        "exit {code:?}: {}",
        stderr(&o)
    );
    let out = stdout(&o);
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.contains("00.MOO.gz: run 2000, passed "),
        "unexpected first line: {out}"
    );
    let last = out.lines().last().unwrap_or_default();
    assert!(is_totals_line(last), "last line: {last:?}");
    // The exit status follows the failure count.
    let failed: u64 = last
        .split_once(" passed, ")
        .and_then(|(_, f)| f.strip_suffix(" failed"))
        .and_then(|f| f.parse().ok())
        .unwrap();
    assert_eq!(code == Some(0), failed == 0);
}

#[test]
fn json_output() {
    let real = suite_dir("8086").join("D6.MOO.gz");
    let o = tandem(&["sst", "--json", real.to_str().unwrap()]);
    let code = o.status.code();
    assert!(
        code == Some(0) || code == Some(1),
        "exit {code:?}: {}",
        stderr(&o)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    let files = v["files"].as_array().expect("files array");
    assert_eq!(files.len(), 1);
    assert_eq!(files[0]["counted"]["run"], 2000);
    assert_eq!(files[0]["status"], "undocumented");
    assert_eq!(v["totals"]["run"], 2000);
    assert!(v["passed"].is_u64() && v["failed"].is_u64());
}

#[test]
fn undefined_forms_are_marked_and_not_counted() {
    // 8F.MOO.gz mixes reg 0 (normal) with regs 1-7 (undefined).
    let real = suite_dir("8086").join("8F.MOO.gz");
    let o = tandem(&["sst", real.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l.contains("8F.MOO.gz") && l.ends_with("(undefined, not counted)")),
        "{out}"
    );
    let last = out.lines().last().unwrap_or_default();
    let (p, f) = last.split_once(" passed, ").unwrap();
    let counted: u64 =
        p.parse::<u64>().unwrap() + f.strip_suffix(" failed").unwrap().parse::<u64>().unwrap();
    assert!(counted < 2000, "undefined forms were counted: {last}");
}

#[test]
fn cycles_reports_the_rates_by_form_status() {
    let dir = suite_dir("8086");
    // 27h (DAA) is normal, D6h (SALC) undocumented, D9h an FPU escape.
    let files: Vec<String> = ["27", "D6", "D9"]
        .iter()
        .map(|n| dir.join(format!("{n}.MOO.gz")).display().to_string())
        .collect();
    let mut args = vec!["sst", "--cycles", "--quiet"];
    args.extend(files.iter().map(String::as_str));
    let o = tandem(&args);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    for status in ["normal", "undocumented", "fpu"] {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(status))
            .unwrap_or_else(|| panic!("a {status} line in {out}"));
        assert!(line.contains("of 2000 cycle-exact"), "{line}");
    }
    // The bar's line sums normal and undocumented (no alias files here).
    let bar = out
        .lines()
        .find(|l| l.contains("normal+undocumented+alias:"))
        .expect(&out);
    assert!(bar.contains("of 4000 cycle-exact"), "{bar}");
}

#[test]
fn x87_vectors_list_their_departures() {
    // A committed x87 vector file as the 486: the FPU comes from the tests'
    // own state, and the tests where Unicorn departs from Intel are skipped
    // and listed by code, not failed.
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/x87/D8.0.json.gz");
    let o = tandem(&["sst", "--cpu", "486", file.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    let first = out.lines().next().unwrap_or_default();
    assert!(first.contains("failed 0"), "{first}");
    assert!(
        first.contains("(skipped by departure: ") && first.contains("stack-fault "),
        "{first}"
    );
}
