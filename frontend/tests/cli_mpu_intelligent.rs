//! The MPU-401's intelligent mode (`--sound mpu401`): roms/devices/mpuint.com
//! resets the MPU, reads its version, sets timebase 120 and tempo 120,
//! plays track 1 (A4 at once, its note off 120 clocks later, a timing
//! overflow of 240 clocks, C5, its note off, data end) with the conductor
//! switching to tempo 60 at clock 240, answering the MPU's requests in its
//! IRQ 9 handler, and prints each byte the MPU sent with the BIOS ticks
//! (18.2065 a second) since play started. The times follow from the tempo
//! (clocks 0-240 in 1 s, 240-480 in 2 s); the WAV has A4 from the start
//! and C5 from 2 s on. Like cli_mpu, this needs a General MIDI SoundFont
//! where Debian installs them (CI installs timgm6mb-soundfont).

mod common;

use common::wav::{power, read_wav, spectral_peak};
use common::{repo, run_command, s, temp_dir, text};

/// BIOS timer ticks a second.
const TICKS_PER_S: f64 = 1_193_182.0 / 65_536.0;

/// The bytes the MPU sent in play, each with the BIOS ticks of its
/// arrival, from the program's "XX @T" lines.
fn received(out: &str) -> Vec<(u8, u32)> {
    out.lines()
        .filter_map(|l| l.split_once(" @"))
        .map(|(b, t)| {
            let b = u8::from_str_radix(b, 16).expect("a hex byte");
            (b, t.parse().expect("ticks"))
        })
        .collect()
}

/// The arrival times (BIOS ticks) of the byte `which`.
fn times(got: &[(u8, u32)], which: u8) -> Vec<u32> {
    got.iter().filter(|g| g.0 == which).map(|g| g.1).collect()
}

/// Asserts that `ticks` are the `seconds`, within one tick (the count's
/// phase at the start is unknown).
fn at_seconds(what: &str, ticks: &[u32], seconds: &[f64]) {
    assert_eq!(ticks.len(), seconds.len(), "{what}: {ticks:?}");
    for (&t, &s) in ticks.iter().zip(seconds) {
        let want = s * TICKS_PER_S;
        assert!(
            (f64::from(t) - want).abs() <= 1.0,
            "{what}: tick {t} for {s} s (want {want:.1}): {ticks:?}"
        );
    }
}

/// True when `hz` is within 1% of `note` or one of its first 8 harmonics.
fn relates_to(hz: f64, note: f64) -> bool {
    let k = (hz / note).round();
    (1.0..=8.0).contains(&k) && (hz - k * note).abs() < k * note / 100.0
}

#[test]
fn tracks_conductor_and_clock_to_host_keep_the_tempo() {
    let d = temp_dir("mpu-intelligent");
    let wav = d.join("a.wav");
    let prog = repo().join("roms/devices/mpuint.com");
    let o = run_command(&[
        "--headless",
        "--seconds",
        "6",
        "--sound",
        "mpu401",
        "--wav",
        s(&wav),
        s(&prog),
    ])
    .stdin(std::process::Stdio::null())
    .output()
    .expect("tandem runs");
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert!(
        out.starts_with("reset: FE\nversion: 15\nrevision: 01\n"),
        "{out}"
    );
    assert!(out.ends_with("clock to host: 8\ndone\n"), "{out}");
    let got = received(&out);
    // Track requests: three at once (program change, A4, its off queued),
    // then at 120 clocks (0.5 s), 360 (2 s: 240 clocks at tempo 120, 120
    // at tempo 60) twice (C5 at once), and 480 (3 s).
    at_seconds(
        "track requests",
        &times(&got, 0xF0),
        &[0.0, 0.0, 0.0, 0.5, 2.0, 2.0, 3.0],
    );
    // The conductor: at the start, at clock 240 (1 s) twice (tempo 60 at
    // once, then data end).
    at_seconds("conductor requests", &times(&got, 0xF9), &[0.0, 1.0, 1.0]);
    // Clock to host every 60 clocks: every 1/4 s, then every 1/2 s.
    at_seconds(
        "clock to host",
        &times(&got, 0xFD),
        &[0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0],
    );
    at_seconds("all end", &times(&got, 0xFC), &[3.0]);
    assert_eq!(got.len(), 19, "nothing else: {got:?}");

    // MIDI OUT through the synthesizer: A4 from the first sound, C5 from
    // 2 s after it.
    let (rate, left) = read_wav(&wav);
    let r = rate as usize;
    let on = left.iter().position(|&v| v != 0).expect("the notes sound");
    let a4 = &left[on + r / 10..on + r * 4 / 10];
    let hz = spectral_peak(a4, rate);
    assert!(relates_to(hz, 440.0), "A4 window peaks at {hz} Hz");
    let c5 = &left[on + r * 205 / 100..on + r * 240 / 100];
    let hz = spectral_peak(c5, rate);
    assert!(relates_to(hz, 523.25), "C5 window peaks at {hz} Hz");
    let before = &left[on + r * 180 / 100..on + r * 195 / 100];
    let after = &left[on + r * 205 / 100..on + r * 220 / 100];
    let (p0, p1) = (power(before, 523.25, rate), power(after, 523.25, rate));
    assert!(p1 > 10.0 * p0, "C5 starts at 2 s: {p0} before, {p1} after");
    let _ = std::fs::remove_dir_all(&d);
}
