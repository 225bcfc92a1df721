//! The MPU-401 (`--sound mpu401`) and its General MIDI: roms/devices/mpu.com
//! resets the MPU, enters UART mode and plays A4 (MIDI note 69, 440 Hz) on
//! the piano for about a second; the WAV is silent before the note-on,
//! then has its spectral peak on 440 Hz or one of its harmonics, and is
//! the same bytes every time. These tests need a General MIDI SoundFont
//! where Debian installs them (CI installs timgm6mb-soundfont): without
//! one they fail, they do not skip.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::wav::{read_wav, spectral_peak};
use common::{repo, run_command, s, temp_dir, text};

/// Debian's General MIDI SoundFonts, as tandem looks for them.
const DEBIAN: &[&str] = &[
    "/usr/share/sounds/sf2/FluidR3_GM.sf2",
    "/usr/share/sounds/sf2/TimGM6mb.sf2",
    "/usr/share/sounds/sf2/default-GM.sf2",
    "/usr/share/soundfonts/default.sf2",
];

/// The SoundFont the default search finds; fails loudly when none is
/// installed.
fn installed_soundfont() -> PathBuf {
    DEBIAN
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .expect("no General MIDI SoundFont installed: apt-get install timgm6mb-soundfont")
}

/// Runs mpu.com headless for at most 3 s, writing `wav`, with `extra`
/// options and the environment's SoundFont variables set as `env` says
/// (unset when None).
fn mpu_run(extra: &[&str], wav: &Path, env: [Option<&str>; 2]) -> Output {
    let prog = repo().join("roms/devices/mpu.com");
    let args = [
        &["--headless", "--seconds", "3", "--wav", s(wav)],
        extra,
        &[s(&prog)],
    ]
    .concat();
    let mut c = run_command(&args);
    for (var, value) in ["TANDEM_SOUNDFONT", "TANDEM_SOUNDFONT_SEARCH"]
        .into_iter()
        .zip(env)
    {
        match value {
            Some(v) => c.env(var, v),
            None => c.env_remove(var),
        };
    }
    c.stdin(std::process::Stdio::null())
        .output()
        .expect("tandem runs")
}

const PLAYED: &str = "MPU-401 reset: FE\nUART: FE\nA4 played\n";

/// True when `hz` is within 1% of 440 Hz or of one of its first 8
/// harmonics (a piano's strongest partial is not always the first).
fn relates_to_a4(hz: f64) -> bool {
    let k = (hz / 440.0).round();
    (1.0..=8.0).contains(&k) && (hz - k * 440.0).abs() < k * 4.4
}

#[test]
fn a4_through_the_mpu_sounds_after_the_note_on_byte_identical_twice() {
    let font = installed_soundfont();
    let d = temp_dir("mpu-wav");
    let (a, b) = (d.join("a.wav"), d.join("b.wav"));
    // The default search, then the same file through TANDEM_SOUNDFONT
    // with the search pointed nowhere.
    for (w, env) in [
        (&a, [None, None]),
        (&b, [Some(s(&font)), Some("/nonexistent.sf2")]),
    ] {
        let o = mpu_run(&["--sound", "mpu401"], w, env);
        assert_eq!(text(&o.stdout), PLAYED);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        assert!(!text(&o.stderr).contains("warning"), "{}", text(&o.stderr));
    }
    let (wa, wb) = (std::fs::read(&a).expect("a"), std::fs::read(&b).expect("b"));
    assert!(wa == wb, "two runs gave different WAVs");
    let (rate, left) = read_wav(&a);
    // The program waits 5 BIOS ticks (0.27 s) in UART mode first.
    let on = left.iter().position(|&v| v != 0).expect("the note sounds");
    assert!(on > rate as usize / 5, "silent before the note-on: {on}");
    let window = &left[on + rate as usize / 10..on + rate as usize * 3 / 10];
    let loud = window.iter().map(|v| v.unsigned_abs()).max().unwrap_or(0);
    assert!(loud > 300, "the note is heard: peak {loud}");
    let hz = spectral_peak(window, rate);
    assert!(relates_to_a4(hz), "spectral peak at {hz} Hz");
    // The note lasts about a second, then the piano is released.
    let later = &left[on + rate as usize * 8 / 10..on + rate as usize * 9 / 10];
    assert!(
        later.iter().any(|&v| v.abs() > 30),
        "still sounding at 0.8 s"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn without_an_mpu_nothing_answers() {
    let d = temp_dir("mpu-none");
    let w = d.join("a.wav");
    let o = mpu_run(&["--sound", "adlib"], &w, [None, None]);
    assert_eq!(text(&o.stdout), "MPU-401: none\n");
    assert_eq!(o.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn without_a_soundfont_the_midi_is_dropped_with_one_warning() {
    let d = temp_dir("mpu-nofont");
    let w = d.join("a.wav");
    let o = mpu_run(
        &["--sound", "mpu401"],
        &w,
        [None, Some("/nonexistent/gm.sf2")],
    );
    assert_eq!(text(&o.stdout), PLAYED);
    assert_eq!(o.status.code(), Some(0));
    let err = text(&o.stderr);
    assert_eq!(err.matches("warning").count(), 1, "{err}");
    assert!(
        err.contains("no SoundFont") && err.contains("/nonexistent/gm.sf2"),
        "{err}"
    );
    let (_, left) = read_wav(&w);
    assert!(left.iter().all(|&v| v == 0), "silence");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_bad_soundfont_is_bad_usage_naming_the_file() {
    let d = temp_dir("mpu-badfont");
    let junk = d.join("junk.sf2");
    std::fs::write(&junk, b"RIFF\x04\0\0\0sfbk not really").expect("write");
    let missing = d.join("missing.sf2");
    for font in [&junk, &missing] {
        let o = mpu_run(
            &["--sound", "mpu401", "--soundfont", s(font)],
            &d.join("a.wav"),
            [None, None],
        );
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(s(font)), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(text(&o.stdout).is_empty(), "the program did not start");
    }
    // The same through the environment.
    let o = mpu_run(
        &["--sound", "mpu401"],
        &d.join("a.wav"),
        [Some(s(&junk)), None],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains(s(&junk)));
    let _ = std::fs::remove_dir_all(&d);
}
