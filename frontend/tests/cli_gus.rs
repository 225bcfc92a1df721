//! The Gravis UltraSound from a DOS program: roms/devices/gus.com reads
//! ULTRASND, resets the GF1, sizes its DRAM, programs its latches,
//! uploads one period of a sine by DMA (waiting for the terminal-count
//! interrupt) and plays it looped on voice 0 at 440.09 Hz with a volume
//! ramp for a second. The WAV of the run has its spectral peak there.

mod common;

use std::path::Path;

use common::wav::{read_wav, spectral_peak};
use common::{headless, repo, s, temp_dir, text};

/// Runs gus.com on a 386 with `extra` options, writing `wav`; (status,
/// stdout, stderr).
fn gus_run(extra: &[&str], wav: &Path) -> (Option<i32>, String, String) {
    let prog = repo().join("roms/devices/gus.com");
    let base = ["--cpu", "386", "--seconds", "4", "--wav", s(wav), s(&prog)];
    let o = headless(&[extra, &base].concat());
    (o.status.code(), text(&o.stdout), text(&o.stderr))
}

const PLAYED: &str = "GUS 1024 KiB\nDMA done\nsine played\n";

#[test]
fn the_sine_uploaded_by_dma_plays_at_440_hz_the_same_twice() {
    let d = temp_dir("gus-sine");
    let (a, b) = (d.join("a.wav"), d.join("b.wav"));
    for w in [&a, &b] {
        let (code, out, err) = gus_run(&["--sound", "gus"], w);
        assert_eq!(out, format!("ULTRASND=240,3,3,11,11\n{PLAYED}"), "{err}");
        assert_eq!(code, Some(0));
    }
    let (rate, left) = read_wav(&a);
    assert_eq!(rate, 44_100);
    // The ramp is over after 0.05 s: a 0.2 s window from 0.3 s.
    let window = &left[rate as usize * 3 / 10..][..rate as usize / 5];
    let loud = window.iter().map(|v| v.unsigned_abs()).max().unwrap_or(0);
    assert!(loud > 3_000, "the sine is loud: {loud}");
    let hz = spectral_peak(window, rate);
    let want = 1308.0 / 512.0 * 44_100.0 / 256.0;
    assert!((hz - want).abs() < 1.0, "peak at {hz} Hz, want {want}");
    // The volume ramps up (040h to E00h, 31 a frame: 114 frames, the
    // first 40 more than 25 dB down).
    let first = left.iter().position(|&v| v != 0).expect("heard");
    let start = left[first..first + 40].iter().map(|v| v.unsigned_abs());
    assert!(start.max().unwrap_or(0) < loud / 20, "a ramp, not a step");
    let (wa, wb) = (std::fs::read(&a).expect("a"), std::fs::read(&b).expect("b"));
    assert!(wa == wb, "two runs gave different WAVs");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn ultrasnd_moves_the_card_and_the_program_finds_it_there() {
    let d = temp_dir("gus-moved");
    // Base 260h (a Sound Blaster base, the SB16 not fitted), DMA 1, IRQ 7.
    let w = d.join("a.wav");
    let (code, out, err) = gus_run(&["--sound", "gus", "--ultrasnd", "260,1,1,7,7"], &w);
    assert_eq!(out, format!("ULTRASND=260,1,1,7,7\n{PLAYED}"), "{err}");
    assert_eq!(code, Some(0));
    // Beside the Sound Blaster 16 and its defaults (220h, IRQ 5, DMA 1, 5).
    let all = ["--sound", "adlib,sb16,mpu401,gus"];
    let (code, out, _) = gus_run(&all, &w);
    assert_eq!(
        (code, out.as_str()),
        (
            Some(0),
            format!("ULTRASND=240,3,3,11,11\n{PLAYED}").as_str()
        )
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn without_the_card_nothing_is_found() {
    let d = temp_dir("gus-none");
    let (code, out, _) = gus_run(&[], &d.join("a.wav"));
    assert_eq!((code, out.as_str()), (Some(1), "no ULTRASND\n"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_settings_are_one_line_and_status_2() {
    let d = temp_dir("gus-bad");
    let w = d.join("a.wav");
    let cases: [&[&str]; 7] = [
        &["--sound", "gus", "--ultrasnd", "270,3,3,11,11"],
        &["--sound", "gus", "--ultrasnd", "240,2,3,11,11"],
        &["--sound", "gus", "--ultrasnd", "240,3,3,9,11"],
        &["--sound", "gus", "--ultrasnd", "240,3,3,11"],
        &["--sound", "gus", "--ultrasnd", "24x,3,3,11,11"],
        // The Sound Blaster 16's base, interrupt, DMA channel.
        &["--sound", "sb16,gus", "--ultrasnd", "220,3,3,11,11"],
        &["--sound", "sb16,gus", "--ultrasnd", "240,1,1,11,11"],
    ];
    for args in cases {
        let (code, out, err) = gus_run(args, &w);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: nothing ran");
        let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
        assert!(
            lines[0].contains("--ultrasnd") || lines[0].contains("--sound"),
            "{args:?}: {err}"
        );
    }
    let (code, _, err) = gus_run(&["--sound", "sb16,gus", "--ultrasnd", "240,3,3,5,5"], &w);
    assert_eq!(code, Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("IRQ 5"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_record_names_the_gus_and_its_replay_fits_it() {
    let d = temp_dir("gus-record");
    let (rec, w) = (d.join("r.jsonl"), d.join("a.wav"));
    let (code, _, err) = gus_run(&["--sound", "gus", "--record", s(&rec)], &w);
    assert_eq!(code, Some(0), "{err}");
    let header = std::fs::read_to_string(&rec).expect("the record");
    let first = header.lines().next().unwrap_or("");
    let field = r#""gus":{"base":576,"dma":3,"record_dma":3,"irq":11,"midi_irq":11}"#;
    assert!(first.contains(field), "{first}");
    let w2 = d.join("b.wav");
    let (code, out, err) = gus_run(&["--replay", s(&rec)], &w2);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.ends_with(PLAYED), "{out}");
    assert_eq!(std::fs::read(&w).ok(), std::fs::read(&w2).ok());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn listening_does_not_change_the_run() {
    let d = temp_dir("gus-hash");
    let prog = repo().join("roms/devices/gus.com");
    let run = |wav: Option<&Path>| {
        let mut args = vec!["--sound", "gus", "--cpu", "386", "--seconds", "0.8"];
        args.extend(["--state-hash", s(&prog)]);
        if let Some(w) = wav {
            args.extend(["--wav", s(w)]);
        }
        let o = headless(&args);
        let err = text(&o.stderr);
        let line = err.lines().find(|l| l.contains("state hash"));
        line.unwrap_or_else(|| panic!("no state hash: {err}"))
            .to_string()
    };
    // Stopped while the sine plays: the card is mid-voice.
    let (with, without) = (run(Some(&d.join("a.wav"))), run(None));
    assert_eq!(with, without);
    let _ = std::fs::remove_dir_all(&d);
}
