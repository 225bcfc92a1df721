//! The Sound Blaster 16 from a DOS program: roms/devices/sb16.com reads
//! BLASTER, resets the DSP and reads its version, plays one 8-bit
//! single-cycle block (257 samples at 44100 Hz, timed with the PIT), or
//! with `auto` counts the auto-init interrupts over 182 BIOS ticks.
//!
//! The machine is a 386 at 22.05 MHz: 500 cycles per sample at 44100 Hz,
//! so the DSP's frames and the WAV's samples fall on the same grid.

mod common;

use std::path::Path;

use common::{headless, repo, s, temp_dir, text};

/// The card's options on the command line.
const CARD: &[&str] = &["--sound", "sb16"];

/// Runs sb16.com with `args` after the program; (status, stdout).
fn sb16(args: &[&str]) -> (Option<i32>, String) {
    sb16_wav(args, None)
}

/// As [`sb16`], writing the run's sound to `wav` (44100 Hz) when given.
fn sb16_wav(args: &[&str], wav: Option<&Path>) -> (Option<i32>, String) {
    let prog = repo().join("roms/devices/sb16.com");
    let mhz = ["--cpu", "386", "--mhz", "22.05", "--seconds", "15"];
    let out = match wav {
        Some(w) => vec!["--wav", s(w), "--wav-rate", "44100"],
        None => vec![],
    };
    let o = headless(&[CARD, &mhz, &out, &[s(&prog)], args].concat());
    (o.status.code(), text(&o.stdout))
}

/// The stereo frames of a 16-bit stereo PCM WAV (after its 44-byte
/// header, which is checked).
fn frames(p: &Path) -> Vec<[i16; 2]> {
    let b = std::fs::read(p).expect("the WAV");
    assert_eq!(&b[0..4], b"RIFF");
    assert_eq!(&b[36..40], b"data");
    assert_eq!(u32::from_le_bytes([b[24], b[25], b[26], b[27]]), 44100);
    b[44..]
        .chunks_exact(4)
        .map(|f| {
            [
                i16::from_le_bytes([f[0], f[1]]),
                i16::from_le_bytes([f[2], f[3]]),
            ]
        })
        .collect()
}

/// The number after `prefix` on a line of `out`.
fn number_after(out: &str, prefix: &str) -> u64 {
    let line = out.lines().find_map(|l| l.strip_prefix(prefix));
    let digits: String = line
        .unwrap_or_else(|| panic!("no '{prefix}' in {out:?}"))
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().expect("a number")
}

#[test]
fn the_dsp_resets_reports_4_05_and_blaster_is_set() {
    let (code, out) = sb16(&[]);
    assert_eq!(code, Some(0), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..2],
        ["BLASTER=A220 I5 D1 H5 T6", "DSP 4.05"],
        "{out}"
    );
    let prog = repo().join("roms/devices/sb16.com");
    let o = headless(&["--sound", "sb16,mpu401", "--seconds", "1", s(&prog)]);
    let out = text(&o.stdout);
    let first = out.lines().next();
    assert_eq!(first, Some("BLASTER=A220 I5 D1 H5 P330 T6"), "{out}");
    let o = headless(&[
        "--sound",
        "adlib",
        "--cpu",
        "386",
        "--seconds",
        "1",
        s(&prog),
    ]);
    assert_eq!(o.status.code(), Some(1), "without the card");
    assert_eq!(text(&o.stdout).trim(), "no BLASTER");
}

#[test]
fn the_block_interrupt_comes_when_its_last_sample_plays() {
    let (code, out) = sb16(&[]);
    assert_eq!(code, Some(0), "{out}");
    let ticks = number_after(&out, "IRQ after ") as f64;
    // 257 samples at 44100 Hz in PIT ticks; one sample is 27.06 ticks.
    let pit = 1_193_182.0;
    let want = 257.0 * pit / 44100.0;
    assert!(
        (ticks - want).abs() <= pit / 44100.0,
        "{ticks} PIT ticks, {want:.1} expected"
    );
}

#[test]
fn auto_init_interrupts_once_a_block_over_ten_seconds() {
    let (code, out) = sb16(&["auto"]);
    assert_eq!(code, Some(0), "{out}");
    let irqs = number_after(&out, "IRQs in 182 ticks: ") as f64;
    // 182 BIOS ticks of 65536 PIT clocks; 22050 Hz in blocks of 100.
    let seconds = 182.0 * 65536.0 / 1_193_182.0;
    let want = seconds * 22050.0 / 100.0;
    assert!(
        (irqs - want).abs() <= want * 0.001,
        "{irqs} interrupts, {want:.1} expected"
    );
    assert!(out.contains("auto-init ended"), "{out}");
}

#[test]
fn the_block_is_in_the_wav_sample_exact_and_the_same_twice() {
    let d = temp_dir("sb16-wav");
    let (a, b) = (d.join("a.wav"), d.join("b.wav"));
    for w in [&a, &b] {
        let (code, out) = sb16_wav(&[], Some(w));
        assert_eq!(code, Some(0), "{out}");
    }
    let bytes = std::fs::read(&a).expect("a.wav");
    assert_eq!(bytes, std::fs::read(&b).expect("b.wav"), "byte-identical");
    // The block: 00h..FFh (unsigned 8-bit, -32768 .. 32512 in 16 bits),
    // then 80h (silence); each sample once, on both sides, in order.
    let x = frames(&a);
    let first = x.iter().position(|f| *f != [0, 0]).expect("sound");
    let ramp: Vec<[i16; 2]> = (0..256).map(|k| [((k - 128) << 8) as i16; 2]).collect();
    assert!(x.len() >= first + 257, "{} frames", x.len());
    assert_eq!(x[first..first + 256], ramp[..]);
    assert!(x[..first].iter().all(|f| *f == [0, 0]), "silent before");
    assert!(
        x[first + 256..].iter().all(|f| *f == [0, 0]),
        "silent after"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn blaster_moves_the_card_and_the_program_finds_it_there() {
    let prog = repo().join("roms/devices/sb16.com");
    let run = |blaster: &str| {
        let o = headless(&[
            "--sound",
            "sb16",
            "--blaster",
            blaster,
            "--cpu",
            "386",
            "--seconds",
            "3",
            s(&prog),
        ]);
        (o.status.code(), text(&o.stdout), text(&o.stderr))
    };
    // Base 240h, IRQ 7, DMA 3: the block plays there and interrupts there.
    let (code, out, _) = run("A240 I7 D3 H6");
    assert_eq!(code, Some(0), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..2],
        ["BLASTER=A240 I7 D3 H6 T6", "DSP 4.05"],
        "{out}"
    );
    assert!(out.contains("IRQ after "), "{out}");
    // Settings the card does not offer are bad usage, named.
    for bad in ["A230", "I4", "D2", "H4", "P310", "T4", "X1", "Azz"] {
        let (code, _, err) = run(bad);
        assert_eq!(code, Some(2), "{bad}: {err}");
        assert!(err.contains("--blaster"), "{bad}: {err}");
    }
}

#[test]
fn a_record_names_its_cards_and_its_replay_fits_them() {
    let d = temp_dir("sb16-record");
    let prog = repo().join("roms/devices/sb16.com");
    let rec = d.join("r.jsonl");
    let cpu = ["--cpu", "386", "--seconds", "2"];
    let o = headless(
        &[
            &cpu[..],
            &["--blaster", "A260 I10 D0 H7", "--record", s(&rec), s(&prog)],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let header = std::fs::read_to_string(&rec).expect("the record");
    let first = header.lines().next().unwrap_or("");
    for field in [
        r#""adlib":true"#,
        r#""sb16":{"base":608,"irq":10,"dma8":0,"dma16":7}"#,
        r#""mpu401":{"base":816"#,
    ] {
        assert!(first.contains(field), "{field} in {first}");
    }
    // The replay rebuilds the cards without being told.
    let o = headless(&[&cpu[..], &["--replay", s(&rec), s(&prog)]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.starts_with("BLASTER=A260 I10 D0 H7 P330 T6\nDSP 4.05\n"),
        "{out}"
    );
    // Asking for other cards would change the run: refused.
    let o = headless(
        &[
            &cpu[..],
            &["--replay", s(&rec), "--sound", "none", s(&prog)],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("sb16 (A260 I10 D0 H7 T6)"),
        "{}",
        text(&o.stderr)
    );
    // A record made without cards replays without them.
    let plain = d.join("plain.jsonl");
    let o = headless(
        &[
            &cpu[..],
            &["--sound", "none", "--record", s(&plain), s(&prog)],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(1), "no BLASTER: {}", text(&o.stdout));
    let o = headless(&[&cpu[..], &["--replay", s(&plain), s(&prog)]].concat());
    assert_eq!(
        (o.status.code(), text(&o.stdout).trim()),
        (Some(1), "no BLASTER")
    );
    let _ = std::fs::remove_dir_all(&d);
}
