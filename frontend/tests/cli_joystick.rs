//! The game port from a DOS program: roms/devices/joytest.com times each
//! axis with its own counting loop on port 201h and asks INT 15h AH=84h,
//! printing both and the buttons as they change (see its source). The
//! positions and buttons scripted with `--joy` and `--press` must show at
//! their emulated times, in proportion to the one-shot's length (24.2 us +
//! 0.011 us/Ohm, 0-100 kOhm); a record of the run replays to the same
//! output and state; without the port (`--no-joystick`) 201h floats and
//! the BIOS says CF; an unknown axis is refused before the run.

mod common;

use common::{headless, repo, s, state_hash, temp_dir, text};

/// A BIOS tick in seconds (65536 PIT clocks).
const TICK: f64 = 65536.0 / 1_193_182.0;

/// The scripted moves: (seconds, stick 0/1, x, y).
const MOVES: &[(f64, usize, Option<f64>, Option<f64>)] = &[
    (0.6, 0, Some(-1.0), Some(1.0)),
    (1.2, 0, Some(1.0), None),
    (1.2, 1, Some(-0.5), Some(0.5)),
    (1.8, 0, Some(0.0), Some(0.0)),
];
/// The scripted presses: (seconds, name, port bit).
const PRESSES: &[(f64, &str, u8)] = &[
    (0.9, "joy1-button1", 4),
    (1.5, "joy2-button2", 7),
    (2.1, "joy1-button3", 6),
];
/// How long `--press` holds.
const HOLD: f64 = 0.05;

/// The command line of the scripted run.
fn script() -> Vec<String> {
    let mut a = Vec::new();
    for &(t, stick, x, y) in MOVES {
        let axes: Vec<String> = [("x", x), ("y", y)]
            .iter()
            .filter_map(|(n, v)| v.map(|v| format!("{n}={v}")))
            .collect();
        a.push("--joy".into());
        a.push(format!("{t}:{}:{}", stick + 1, axes.join(",")));
    }
    for &(t, name, _) in PRESSES {
        a.push("--press".into());
        a.push(format!("{t}:{name}"));
    }
    a
}

/// The four axes' positions at `t` seconds.
fn positions(t: f64) -> [f64; 4] {
    let mut p = [0.0; 4];
    for &(_, stick, x, y) in MOVES.iter().filter(|m| m.0 <= t) {
        if let Some(x) = x {
            p[stick * 2] = x;
        }
        if let Some(y) = y {
            p[stick * 2 + 1] = y;
        }
    }
    p
}

/// The one-shot's length in microseconds at position `p`.
fn pulse_us(p: f64) -> f64 {
    24.2 + 0.011 * (p + 1.0) / 2.0 * 100_000.0
}

/// One printed sample.
#[derive(Debug)]
struct Sample {
    ticks: u32,
    looped: Option<[u32; 4]>,
    bios: Option<[u32; 4]>,
    port_buttons: u8,
    bios_buttons: Option<u8>,
}

/// The four numbers after `key=` (None for "none").
fn four(line: &str, key: &str) -> Option<[u32; 4]> {
    let rest = line.split(&format!("{key}=")).nth(1).expect(key);
    if rest.starts_with("none") {
        return None;
    }
    let v: Vec<u32> = rest
        .split_whitespace()
        .take(4)
        .map(|n| n.parse().expect("a number"))
        .collect();
    Some([v[0], v[1], v[2], v[3]])
}

fn parse(out: &str) -> (String, Vec<Sample>) {
    let mut lines = out.lines();
    let first = lines.next().expect("the first line").to_string();
    let samples = lines
        .map(|l| {
            let ticks = l
                .strip_prefix("t=")
                .and_then(|r| r.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("not a sample: {l}"));
            let b = l.split("buttons=").nth(1).expect("buttons");
            let mut b = b.split(' ');
            let port = u8::from_str_radix(b.next().expect("port"), 16).expect("hex");
            let bios = b.next().and_then(|v| u8::from_str_radix(v, 16).ok());
            Sample {
                ticks,
                looped: four(l, "loop"),
                bios: four(l, "bios"),
                port_buttons: port,
                bios_buttons: bios,
            }
        })
        .collect();
    (first, samples)
}

fn joytest(extra: &[&str]) -> (Option<i32>, String, String) {
    let prog = repo().join("roms/devices/joytest.com");
    let o = headless(&[extra, &["--state-hash", s(&prog)]].concat());
    (o.status.code(), text(&o.stdout), text(&o.stderr))
}

#[test]
fn scripted_positions_and_buttons_show_at_their_times_both_ways() {
    let args = script();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = joytest(&args);
    assert_eq!(code, Some(0), "{out}\n{err}");
    let (first, samples) = parse(&out);
    assert_eq!(first, "raw=F0 equip=1", "one-shots low before a trigger");
    // The counting loop's and the BIOS's value at the centre.
    let centre = &samples[0];
    let c_loop = centre.looped.expect("loop values")[0] as f64;
    let c_bios = centre.bios.expect("BIOS values")[0] as f64;
    assert!((40.0..200.0).contains(&c_loop), "{centre:?}");
    // The AT BIOS: PIT channel 0 (mode 3, 2 per clock) / 16.
    let bios_of = |p: f64| pulse_us(p) * 1.193182 * 2.0 / 16.0;
    assert!((c_bios - bios_of(0.0)).abs() < 1.5, "{centre:?}");
    let mut checked = std::collections::BTreeSet::new();
    for smp in &samples {
        // The sample was taken in the tick before its line or in its own.
        let (from, to) = (
            (smp.ticks as f64 - 1.0) * TICK,
            (smp.ticks as f64 + 1.0) * TICK,
        );
        let p = positions(from);
        if p == positions(to) {
            let l = smp.looped.expect("loop values");
            let b = smp.bios.expect("BIOS values");
            for axis in 0..4 {
                let want_loop = c_loop * pulse_us(p[axis]) / pulse_us(0.0);
                let got = l[axis] as f64;
                assert!(
                    (got - want_loop).abs() <= 2.0 + want_loop * 0.03,
                    "axis {axis} at {}: loop {got}, expected {want_loop:.1} ({smp:?})",
                    p[axis]
                );
                let got = b[axis] as f64;
                assert!(
                    (got - bios_of(p[axis])).abs() < 1.5,
                    "axis {axis} at {}: BIOS {got} ({smp:?})",
                    p[axis]
                );
                checked.insert((axis, (p[axis] * 2.0) as i32, l[axis], b[axis]));
            }
        }
        // Buttons: the port and the BIOS agree; a pressed bit only while
        // its press can be held.
        assert_eq!(Some(smp.port_buttons), smp.bios_buttons, "{smp:?}");
        for bit in 4..8u8 {
            let pressed = smp.port_buttons >> bit & 1 == 0;
            let could = PRESSES
                .iter()
                .any(|&(t, _, b)| b == bit && t < to && t + HOLD > from - TICK);
            assert!(!pressed || could, "bit {bit} pressed at {smp:?}");
        }
    }
    // Every press seen, each alone.
    for &(t, name, bit) in PRESSES {
        let seen = samples.iter().any(|smp| {
            smp.port_buttons == 0xF0 & !(1 << bit) && (smp.ticks as f64 + 1.0) * TICK > t
        });
        assert!(seen, "{name} never seen in {out}");
    }
    // Every position scripted was checked on some axis, and the values
    // grow with the position (both ways).
    for half in [-2, -1, 0, 1, 2] {
        assert!(
            checked.iter().any(|c| c.1 == half),
            "position {} never checked: {out}",
            half as f64 / 2.0
        );
    }
    let mut by_pos: Vec<(i32, u32, u32)> = checked.iter().map(|c| (c.1, c.2, c.3)).collect();
    by_pos.sort();
    for w in by_pos.windows(2) {
        if w[0].0 < w[1].0 {
            assert!(w[0].1 < w[1].1 && w[0].2 < w[1].2, "not monotonic: {w:?}");
        }
    }
}

#[test]
fn a_record_replays_to_the_same_output_and_state() {
    let d = temp_dir("joy-record");
    let rec = d.join("joy.jsonl");
    let args = script();
    let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
    a.extend(["--record", s(&rec)]);
    let (code, out, err) = joytest(&a);
    assert_eq!(code, Some(0), "{err}");
    let record = std::fs::read_to_string(&rec).expect("the record");
    assert!(record
        .lines()
        .next()
        .expect("header")
        .contains("\"joystick\":true"));
    assert_eq!(record.matches("\"joy\":").count(), MOVES.len(), "{record}");
    assert_eq!(record.matches("\"joybutton\":").count(), 2 * PRESSES.len());
    let (code2, out2, err2) = joytest(&["--replay", s(&rec)]);
    assert_eq!(code2, Some(0), "{err2}");
    assert_eq!(out2, out);
    assert_eq!(state_hash(&err2), state_hash(&err));
    // Without the script the run differs (the record carried it).
    let (_, plain, _) = joytest(&[]);
    assert_ne!(plain, out);
    // A record with a port cannot replay without one.
    let (code3, _, err3) = joytest(&["--replay", s(&rec), "--no-joystick"]);
    assert_eq!(code3, Some(2), "{err3}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn without_a_game_port_201h_floats_and_the_bios_says_cf() {
    let (code, out, err) = joytest(&["--no-joystick", "--press", "0.5:joy1-button1"]);
    assert_eq!(code, Some(0), "{err}");
    let (first, samples) = parse(&out);
    assert_eq!(first, "raw=FF equip=0");
    assert!(!samples.is_empty());
    for smp in samples {
        assert!(smp.looped.is_none() && smp.bios.is_none(), "{smp:?}");
        assert_eq!((smp.port_buttons, smp.bios_buttons), (0xF0, None));
    }
}

#[test]
fn an_unknown_axis_is_one_line_and_status_2_before_the_run() {
    for (bad, says) in [
        ("1:1:z=0.5", "unknown axis 'z'"),
        ("1:3:x=0", "sticks 1 and 2"),
    ] {
        let (code, out, err) = joytest(&["--joy", bad]);
        assert_eq!(code, Some(2), "{err}");
        assert!(out.is_empty(), "the run started: {out}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("--joy") && err.contains(says), "{err}");
    }
}
