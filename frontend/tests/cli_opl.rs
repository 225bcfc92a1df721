//! The AdLib (`--sound`) and `--wav`: roms/devices/opl.com detects the AdLib with the
//! standard sequence and plays A4 (F-number 244h, block 4: 439.98 Hz) for
//! about a second; the WAV of the run has its spectral peak there and is
//! the same bytes every time.

mod common;

use std::path::Path;

use common::wav::{read_wav, spectral_peak};
use common::{headless, repo, s, temp_dir, text};

/// Runs opl.com with `extra` options writing `wav`; (status, stdout).
fn opl_run(extra: &[&str], wav: &Path) -> (Option<i32>, String) {
    let prog = repo().join("roms/devices/opl.com");
    let args = [extra, &["--seconds", "3", "--wav", s(wav), s(&prog)]].concat();
    let o = headless(&args);
    (o.status.code(), text(&o.stdout))
}

/// The spectral peak of a 0.2 s window 0.3 s into the WAV.
fn note_of(p: &Path) -> (u32, f64) {
    let (rate, left) = read_wav(p);
    let start = rate as usize * 3 / 10;
    let window = &left[start..start + rate as usize / 5];
    assert!(window.iter().any(|&v| v.abs() > 1000), "the note is loud");
    (rate, spectral_peak(window, rate))
}

#[test]
fn the_adlib_is_detected_and_a4_is_in_the_wav_byte_identical_twice() {
    let d = temp_dir("opl-wav");
    let (a, b) = (d.join("a.wav"), d.join("b.wav"));
    for w in [&a, &b] {
        let (code, out) = opl_run(&["--adlib"], w);
        assert_eq!(out, "AdLib: OPL3\nA4 played\n");
        assert_eq!(code, Some(0));
    }
    let (rate, hz) = note_of(&a);
    assert_eq!(rate, 44_100);
    let a4 = 580.0 * 49_716.0 / 65_536.0;
    assert!((hz - a4).abs() < a4 * 0.01, "peak at {hz} Hz, A4 is {a4}");
    let (wa, wb) = (std::fs::read(&a).expect("a"), std::fs::read(&b).expect("b"));
    assert!(wa == wb, "two runs gave different WAVs");
    // About one second of note: the run lasted that long.
    assert!((wa.len() - 44) / 4 > 44_100 * 9 / 10, "{} bytes", wa.len());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn at_48_khz_the_note_is_the_same() {
    let d = temp_dir("opl-wav48");
    let w = d.join("a.wav");
    let (code, _) = opl_run(&["--adlib", "--wav-rate", "48000"], &w);
    assert_eq!(code, Some(0));
    let (rate, hz) = note_of(&w);
    assert_eq!(rate, 48_000);
    assert!((hz - 440.0).abs() < 4.4, "peak at {hz} Hz");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn without_an_adlib_nothing_is_found_and_the_wav_is_silent() {
    let d = temp_dir("opl-none");
    let w = d.join("a.wav");
    let (code, out) = opl_run(&["--sound", "none"], &w);
    assert_eq!(out, "AdLib: none\n");
    assert_eq!(code, Some(1));
    let (_, left) = read_wav(&w);
    assert!(left.iter().all(|&v| v == 0), "silence");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_adlib_is_there_by_default_and_sb16_alone_brings_its_opl3() {
    let d = temp_dir("opl-default");
    for sound in [None, Some("sb16"), Some("adlib,mpu401")] {
        let mut args = Vec::new();
        if let Some(s) = sound {
            args.extend(["--sound", s]);
        }
        let (code, out) = opl_run(&args, &d.join("a.wav"));
        assert_eq!(
            (code, out.as_str()),
            (Some(0), "AdLib: OPL3\nA4 played\n"),
            "{sound:?}"
        );
    }
    let (code, _) = opl_run(&["--sound", "adlib,gravis"], &d.join("a.wav"));
    assert_eq!(code, Some(2), "an unknown card is bad usage");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_bad_wav_rate_is_bad_usage() {
    let d = temp_dir("opl-rate");
    let (code, _) = opl_run(&["--adlib", "--wav-rate", "22050"], &d.join("a.wav"));
    assert_eq!(code, Some(2));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_record_keeps_the_adlib_for_its_replay() {
    let dir = temp_dir("opl-record");
    let (rec, wav) = (dir.join("r.jsonl"), dir.join("r.wav"));
    let (code, out) = opl_run(&["--adlib", "--record", s(&rec)], &wav);
    assert_eq!((code, out.as_str()), (Some(0), "AdLib: OPL3\nA4 played\n"));
    let header = std::fs::read_to_string(&rec).expect("the record");
    assert!(
        header
            .lines()
            .next()
            .unwrap_or("")
            .contains(r#""adlib":true"#),
        "{header}"
    );
    // The replay fits the AdLib without being told, and sounds the same.
    let wav2 = dir.join("replay.wav");
    let (code, out) = opl_run(&["--replay", s(&rec)], &wav2);
    assert_eq!((code, out.as_str()), (Some(0), "AdLib: OPL3\nA4 played\n"));
    assert_eq!(std::fs::read(&wav).ok(), std::fs::read(&wav2).ok());
    // A record made without one refuses --adlib.
    let plain = dir.join("plain.jsonl");
    let (code, _) = opl_run(
        &["--sound", "none", "--record", s(&plain)],
        &dir.join("p.wav"),
    );
    assert_eq!(code, Some(1), "no AdLib: the program's exit code");
    let (code, _) = opl_run(&["--replay", s(&plain), "--adlib"], &dir.join("q.wav"));
    assert_eq!(code, Some(2));
}
