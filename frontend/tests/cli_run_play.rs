//! `tandem run` headless: the built-in replica with no PROGRAM, `--frames`,
//! `--seconds`, `--screenshot`, `--state-hash`, and `--record`/`--replay`
//! of cycle-stamped input reaching the same state hash every time.

use std::process::Output;

mod common;
use common::{headless, read_png, run as tandem, s, temp_dir, text};

/// The hash from `--state-hash`'s line.
fn state_hash(o: &Output) -> String {
    common::state_hash(&text(&o.stderr))
}

#[test]
fn no_program_runs_the_built_in_replica_on_a_386() {
    let dir = temp_dir("default");
    let shot = dir.join("a.png");
    let o = headless(&["--frames", "35", "--screenshot", s(&shot), "--state-hash"]);
    // The run ends at the frame limit, before the replica quits.
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    let err = text(&o.stderr);
    assert!(err.contains("replica (built-in): 35 frames done"), "{err}");
    assert!(err.contains("frame 35"), "{err}");
    let (w, h, rgb) = read_png(&shot);
    assert_eq!((w, h), (320, 200));
    // Mode 13h with something drawn: more than one colour.
    let first = &rgb[..3];
    assert!(rgb.chunks(3).any(|p| p != first), "a blank frame");
    // Deterministic: the same hash again.
    let o2 = headless(&["--frames", "35", "--state-hash"]);
    assert_eq!(state_hash(&o), state_hash(&o2));
    // The default for the replica is the 386 (on an 8086 its 186 shifts
    // decode as the 8086's aliases and it goes astray): --cpu 386 is the
    // same run.
    let o3 = headless(&["--frames", "35", "--cpu", "386", "--state-hash"]);
    assert_eq!(state_hash(&o), state_hash(&o3));
    // Without --headless and without a display: headless all the same.
    let o = tandem(&["--seconds", "0.5"]);
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    let err = text(&o.stderr);
    assert!(err.contains("no display: running headless"), "{err}");
    assert!(err.contains("time limit of 0.5 emulated seconds"), "{err}");
    // The temporary drive C: is gone afterwards.
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn screenshots_one_emulated_second_apart_differ_where_the_fountain_moves() {
    let dir = temp_dir("second");
    let (a, b) = (dir.join("a.png"), dir.join("b.png"));
    for (frames, p) in [("70", &a), ("140", &b)] {
        let o = headless(&["--frames", frames, "--screenshot", s(p)]);
        assert_eq!(o.status.code(), Some(124), "{o:?}");
    }
    let (w, h, a) = read_png(&a);
    let (_, _, b) = read_png(&b);
    let diff = differing_box(w, h, &a, &b).expect("the frames one second apart are the same");
    // The fountain's bars (x 100-219) change; the change is confined to
    // the fountain and the gate (x < 220, below the top rows): the rest of
    // the screen agrees.
    let (x0, y0, x1, _) = diff;
    assert!(x1 < 220 && y0 > 40 && x0 < 220, "{diff:?}");
    let bars = differing_box(120, h, &crop(w, h, &a, 100, 120), &crop(w, h, &b, 100, 120));
    assert!(bars.is_some(), "the fountain did not move");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Columns [x, x + n) of an RGB image `w` wide.
fn crop(w: usize, h: usize, rgb: &[u8], x: usize, n: usize) -> Vec<u8> {
    (0..h)
        .flat_map(|y| rgb[(y * w + x) * 3..(y * w + x + n) * 3].to_vec())
        .collect()
}

/// The bounding box (x0, y0, x1, y1) of the pixels that differ.
fn differing_box(w: usize, h: usize, a: &[u8], b: &[u8]) -> Option<(usize, usize, usize, usize)> {
    let mut bx: Option<(usize, usize, usize, usize)> = None;
    for y in 0..h {
        for x in 0..w {
            let i = (y * w + x) * 3;
            if a[i..i + 3] != b[i..i + 3] {
                bx = Some(match bx {
                    None => (x, y, x, y),
                    Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
                });
            }
        }
    }
    bx
}

const HZ: u64 = 33_000_000;

/// A record that presses P (the replica's pause) at 0.5 s and again at
/// 1.0 s, and ends at 2 s.
fn script() -> String {
    let header = r#"{"tandem":"record","version":1,"program":"replica (built-in)","cpu":"386","cpu_hz":33000000}"#;
    let key = |t: u64, down: bool| {
        format!(r#"{{"cycle":{t},"key":{{"code":25,"ext":false,"down":{down}}}}}"#)
    };
    [
        header.to_string(),
        key(HZ / 2, true),
        key(HZ / 2 + HZ / 20, false),
        key(HZ, true),
        key(HZ + HZ / 20, false),
        format!(r#"{{"cycle":{},"end":{{"frames":0}}}}"#, 2 * HZ),
    ]
    .join("\n")
        + "\n"
}

#[test]
fn a_recorded_run_replays_to_the_same_state_hash_ten_times_out_of_ten() {
    let dir = temp_dir("replay");
    let script_path = dir.join("script.jsonl");
    std::fs::write(&script_path, script()).expect("write");
    let rec = dir.join("rec.jsonl");
    // Play the scripted keys and record them.
    let o = headless(&[
        "--replay",
        s(&script_path),
        "--record",
        s(&rec),
        "--state-hash",
    ]);
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    let err = text(&o.stderr);
    // At the first instruction boundary from 2 s on.
    assert!(
        err.contains(&format!("replayed record ended at cycle {}", 2 * HZ / 10)),
        "{err}"
    );
    let recorded = state_hash(&o);
    // The record: the header, the four key events at their cycles, the end.
    let r = std::fs::read_to_string(&rec).expect("record");
    let lines: Vec<&str> = r.lines().collect();
    assert_eq!(lines.len(), 6, "{r}");
    assert!(
        lines[0].contains(r#""program":"replica (built-in)""#),
        "{r}"
    );
    assert!(lines[0].contains(r#""cpu":"386""#), "{r}");
    assert_eq!(
        lines[1],
        format!(
            r#"{{"cycle":{},"key":{{"code":25,"ext":false,"down":true}}}}"#,
            HZ / 2
        )
    );
    assert!(
        lines[5].contains(&format!(r#""cycle":{}"#, 2 * HZ / 10)),
        "{r}"
    );
    assert!(lines[5].contains(r#""end""#), "{r}");
    // Ten replays, ten equal hashes.
    for i in 0..10 {
        let o = headless(&["--replay", s(&rec), "--state-hash"]);
        assert_eq!(o.status.code(), Some(124), "replay {i}: {o:?}");
        assert_eq!(state_hash(&o), recorded, "replay {i}");
    }
    // The keys matter: the same two seconds without them end elsewhere.
    let o = headless(&["--seconds", "2", "--state-hash"]);
    assert_ne!(state_hash(&o), recorded);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_records_exit_2() {
    let dir = temp_dir("badrec");
    let cases = [
        ("empty.jsonl", String::new(), "empty record"),
        ("junk.jsonl", "hello\n".to_string(), "line 1"),
        (
            "cpu.jsonl",
            script().replace(r#""cpu":"386""#, r#""cpu":"286""#),
            "recorded on a 286",
        ),
        (
            "order.jsonl",
            script().replace(&format!("\"cycle\":{}", HZ), "\"cycle\":5"),
            "before the previous",
        ),
    ];
    for (name, body, why) in cases {
        let p = dir.join(name);
        std::fs::write(&p, body).expect("write");
        let o = headless(&["--cpu", "386", "--replay", s(&p)]);
        assert_eq!(o.status.code(), Some(2), "{name}: {o:?}");
        let err = text(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(name) && err.contains(why), "{name}: {err}");
    }
    let o = headless(&["--replay", "/nonexistent/rec.jsonl"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
