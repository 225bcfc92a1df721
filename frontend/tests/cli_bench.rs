//! `tandem bench`: runs the built-in benchmark on each CPU model for one
//! emulated second at the clock `--mhz` sets, and rejects bad input with
//! exit status 2.

mod common;
use common::tandem;

fn json_field(out: &str, key: &str) -> f64 {
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("no {key} in {out}"))
}

#[test]
fn one_emulated_second_is_the_configured_clock() {
    for (cpu, mhz, hz) in [
        ("8086", "4.772727", 4_772_727f64),
        ("286", "12", 12_000_000f64),
        ("386", "25", 25_000_000f64),
    ] {
        let out = tandem(&[
            "bench",
            "--cpu",
            cpu,
            "--mhz",
            mhz,
            "--seconds",
            "1",
            "--json",
        ]);
        assert!(out.status.success(), "{cpu}: {out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        let cycles = json_field(&text, "cycles");
        assert!(
            cycles >= hz && cycles < hz + 1_000.0,
            "{cpu} at {mhz} MHz ran {cycles} clocks in one emulated second"
        );
        assert_eq!(json_field(&text, "cpu_hz"), hz);
    }
}

#[test]
fn bad_input_exits_2() {
    let out = tandem(&["bench", "--mhz", "fast"]);
    assert_eq!(out.status.code(), Some(2));
    let out = tandem(&["bench", "/nonexistent/program.com"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/program.com"));
}

#[test]
fn the_guest_instructions_are_counted() {
    // CLI; MOV CX, 100; LOOP $ (100 times): 102 instructions, then HLT
    // (a halt is not counted: the CPU reports it as halted, not executed).
    let dir = std::env::temp_dir().join(format!("tandem-bench-count-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let prog = dir.join("count.com");
    std::fs::write(&prog, [0xFA, 0xB9, 100, 0, 0xE2, 0xFE, 0xF4]).expect("write");
    let p = prog.to_str().expect("utf-8 path");
    let out = tandem(&["bench", "--cpu", "386", "--json", p]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(json_field(&text, "instructions"), 102.0, "{text}");
    assert!(json_field(&text, "guest_mips") > 0.0, "{text}");
    let out = tandem(&["bench", "--cpu", "386", p]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("guest: 102 instructions"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
