//! The golden-master commands on the replicas: `tandem call` of the timer
//! setup, sweeps, and `tandem compare` in lock-step, with deliberately
//! altered replicas caught at the right slot and clock.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{repo, s, tandem, text};

fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

fn replica() -> Vec<u8> {
    let p = common::replica();
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// File offset of a code-segment offset in replica.exe (32-byte header).
fn code(off: usize) -> usize {
    0x20 + off
}

/// Writes a mutant of the replica and returns its path.
fn mutant(name: &str, patch: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tandem-mutants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut b = replica();
    patch(&mut b);
    let p = dir.join(name);
    std::fs::write(&p, b).expect("write mutant");
    p
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_str(stdout(o).trim()).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

#[test]
fn call_of_the_timer_setup_writes_exactly_the_three_pit_ports() {
    let exe = common::replica();
    let o = tandem(&[
        "call",
        s(&exe),
        "--at",
        "load:0321",
        "--until-ret",
        "--json",
    ]);
    assert!(o.status.success(), "{o:?}");
    let v = json(&o);
    let ports: Vec<(u64, u64, String)> = v["ports"]
        .as_array()
        .expect("ports")
        .iter()
        .map(|p| {
            (
                p["port"].as_u64().unwrap_or(0),
                p["value"].as_u64().unwrap_or(0),
                p["dir"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        ports,
        vec![
            (0x43, 0x36, "out".to_string()),
            (0x40, 0x52, "out".into()),
            (0x40, 0x09, "out".into())
        ]
    );
}

#[test]
fn sweeps_are_equal_on_both_replicas_and_catch_a_mutant() {
    for profile in ["replica", "replica-demo"] {
        let o = tandem(&["sweep", "--profile", profile, "--routine", "fountain"]);
        assert!(o.status.success(), "{profile}: {}", stdout(&o));
        assert!(
            stdout(&o).trim_end().ends_with("12288 of 12288 equal"),
            "{}",
            stdout(&o)
        );
        let o = tandem(&[
            "sweep",
            "--profile",
            profile,
            "--routine",
            "state-selection",
        ]);
        assert!(o.status.success(), "{}", stdout(&o));
        assert!(
            stdout(&o).trim_end().ends_with("4608 of 4608 equal"),
            "{}",
            stdout(&o)
        );
    }
    let m = mutant("amp.exe", |b| b[code(0xDB6A + 4)] = 86);
    let o = tandem(&[
        "sweep",
        "--profile",
        "replica",
        s(&m),
        "--routine",
        "fountain",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
}

#[test]
fn compare_agrees_on_the_replica_even_when_p_pauses_the_clock() {
    let o = tandem(&[
        "compare",
        "--profile",
        "replica",
        "--seconds",
        "3",
        "--press",
        "1.5:p",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stdout(&o));
    let v = json(&o);
    assert!(v["frames"].as_u64().unwrap_or(0) > 200, "{v}");
    assert!(v["divergence"].is_null());
}

fn divergence(exe: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "compare",
        "--profile",
        "replica",
        s(exe),
        "--seconds",
        "6",
        "--json",
    ];
    args.extend_from_slice(extra);
    let o = tandem(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    json(&o)["divergence"].clone()
}

#[test]
fn an_amplitude_mutant_is_caught_at_its_slot() {
    // Band 2's amplitude (136) becomes 120: slot 9 + 2 = 11 carries it (band
    // 2 adds amp[2] there, band 1 subtracts 2 amp[2] there).
    let m = mutant("amp.exe", |b| b[code(0xDB6A + 2)] = 120);
    let d = divergence(&m, &[]);
    assert_eq!(d["slot"], 11, "{d}");
    let clock = d["clock"].as_u64().expect("clock");
    let band = (((clock << 5) & 0xFFFF) * 6) >> 16;
    assert!(
        band == 1 || band == 2,
        "clock {clock:04X}h is in band {band}"
    );
}

#[test]
fn a_sine_mutant_is_caught_at_the_clock_that_reads_it() {
    // The entry read at the tenth frame's clock (from the honest run).
    let o = tandem(&[
        "compare",
        "--profile",
        "replica",
        "--seconds",
        "1",
        "--json",
    ]);
    let clocks = json(&o)["clocks"].as_array().expect("clocks").clone();
    let c = clocks[10].as_u64().expect("clock");
    let phase = ((c << 5) & 0xFFFF) * 6;
    let i = ((phase & 0xFFFF) >> 7) as usize;
    let m = mutant("sine.exe", |b| b[code(0x944A + 2 * i + 1)] ^= 0x40);
    let d = divergence(&m, &[]);
    assert_eq!(d["clock"].as_u64(), Some(c), "{d}");
    assert_eq!(d["frame"].as_u64(), Some(10), "{d}");
    let band = phase >> 16;
    let slot = d["slot"].as_u64().expect("slot");
    assert!(
        slot == 9 + band || slot == 9 + (band + 1) % 6,
        "slot {slot} for band {band}"
    );
}

#[test]
fn a_cap_mutant_is_caught_at_the_landing_slot() {
    // landing_update's two E800h immediates become E000h.
    let m = mutant("cap.exe", |b| {
        let start = code(0xC656);
        let mut n = 0;
        for i in start..start + 0x30 {
            if b[i] == 0x00 && b[i + 1] == 0xE8 && (b[i - 1] == 0x3D || b[i - 1] == 0xB8) {
                b[i + 1] = 0xE0;
                n += 1;
            }
        }
        assert_eq!(n, 2, "two cap immediates");
    });
    let d = divergence(&m, &[]);
    assert_eq!(d["slot"], 20, "{d}");
    // The first frame where the models' landing value passes the mutant's
    // cap: the program holds E000h, the models more.
    assert_eq!(d["actual"].as_i64().map(|v| v as u16), Some(0xE000), "{d}");
    let e = d["expected"].as_i64().map(|v| v as u16).expect("expected");
    assert!(e > 0xE000 && e <= 0xE800, "{d}");
}

#[test]
fn an_smc_mutant_that_ignores_the_immediate_is_caught_on_the_clock() {
    // IRQ0 handler: NOP; ADD AX,imm  ->  INC AX; TEST AX,imm (the
    // immediate stays patchable but no longer counts).
    let m = mutant("smc.exe", |b| {
        assert_eq!((b[code(0x0BF2)], b[code(0x0BF3)]), (0x90, 0x05));
        b[code(0x0BF2)] = 0x40;
        b[code(0x0BF3)] = 0xA9;
    });
    let d = divergence(&m, &["--press", "1:p"]);
    assert!(d["slot"].is_null(), "the clock, not a slot: {d}");
    assert!(d["what"].as_str().unwrap_or("").contains("counter"), "{d}");
}

#[test]
fn trace_starts_at_the_address_and_writes_n_lines() {
    let exe = common::replica();
    let out = std::env::temp_dir().join(format!("tandem-trace-{}.txt", std::process::id()));
    let o = tandem(&[
        "trace",
        s(&exe),
        "--from",
        "load:DB1A",
        "--count",
        "5",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{o:?}");
    let text = std::fs::read_to_string(&out).expect("trace file");
    let _ = std::fs::remove_file(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[0].contains(":DB1A  push ds"), "{}", lines[0]);
    assert!(lines[2].contains("mov di,7947h"), "{}", lines[2]);
    assert!(
        lines[3].contains("DI=7947"),
        "registers before each instruction: {}",
        lines[3]
    );
    assert_eq!(stdout(&o).trim(), "traced 5 instructions");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for args in [
        vec!["sweep", "--profile", "nope", "--routine", "fountain"],
        vec!["sweep", "--profile", "game-retail", "--routine", "fountain"],
        vec!["compare", "--profile", "replica", "/nonexistent.exe"],
        vec!["call", "/nonexistent.exe", "--at", "cs:0"],
    ] {
        let o = tandem(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        assert_eq!(
            String::from_utf8_lossy(&o.stderr).lines().count(),
            1,
            "{args:?}"
        );
    }
    // The replica is not the game: its signature search says so.
    let exe = repo().join("roms/replica/replica-demo.exe");
    let o = tandem(&[
        "sweep",
        "--profile",
        "game-retail",
        s(&exe),
        "--routine",
        "fountain",
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("signature"));
}

/// A user's profile is untrusted input: a
/// fountain slot past the table and malformed TOML each exit 2 with one
/// line naming the file.
#[test]
fn a_bad_profile_file_exits_2_with_one_line() {
    let d = std::env::temp_dir().join(format!("tandem-profile-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("dir");
    let good =
        std::fs::read_to_string(repo().join("models/profiles/replica.toml")).expect("replica.toml");
    assert!(good.contains("slot = \"9\""));
    let cases = [
        (
            "slot.toml",
            good.replace("slot = \"9\"", "slot = \"FF\""),
            "routine.fountain.slot",
        ),
        (
            "broken.toml",
            good.replace("slot = \"9\"", "slot = = ["),
            "line ",
        ),
        (
            "short.toml",
            "description = \"x\"\n".to_string(),
            "missing field `name`",
        ),
        (
            "unsigned.toml",
            "name = \"x\"\n".to_string(),
            "[[signature]]",
        ),
    ];
    for (file, text, needle) in cases {
        let p = d.join(file);
        std::fs::write(&p, text).expect("write");
        let o = tandem(&["compare", "--profile", s(&p), "--seconds", "1"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{file}: {o:?}");
        assert_eq!(err.lines().count(), 1, "{file}: {err}");
        assert!(err.contains(file) && err.contains(needle), "{file}: {err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// `tandem trace NAME.COM` with a bare file name mounts the current folder
/// (it once failed with "mount : No such file or directory"), and a .COM's
/// `load` segment is its PSP, so `--from load:0100` is its entry.
#[test]
fn trace_takes_a_bare_name_and_load_0100_is_a_com_s_entry() {
    let d = common::temp_dir("bare-name");
    std::fs::copy(common::dos_rom("hello.com"), d.join("HELLO.COM")).expect("hello.com copied");
    for from in [&[][..], &["--from", "load:0100"], &["--from", "psp:0100"]] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_tandem"))
            .current_dir(&d)
            .args([&["trace", "--count", "1"], from, &["HELLO.COM"]].concat())
            .output()
            .expect("tandem runs");
        assert_eq!(o.status.code(), Some(0), "{from:?}: {o:?}");
        let first = stdout(&o).lines().next().unwrap_or_default().to_string();
        assert!(first.contains(":0100  mov"), "{from:?}: {first}");
    }
    let _ = std::fs::remove_dir_all(&d);
}
