//! The Sound Blaster 16 from a DOS program: roms/devices/sb16.com reads
//! BLASTER, resets the DSP and reads its version, plays one 8-bit
//! single-cycle block (257 samples at 44100 Hz, timed with the PIT), or
//! with `auto` counts the auto-init interrupts over 182 BIOS ticks.
//!
//! The machine is a 386 at 22.05 MHz: 500 cycles per sample at 44100 Hz,
//! so the DSP's frames and the WAV's samples fall on the same grid.

mod common;

use common::{headless, repo, s, text};

/// The card's options on the command line.
const CARD: &[&str] = &["--sb16"];

/// Runs sb16.com with `args` after the program; (status, stdout).
fn sb16(args: &[&str]) -> (Option<i32>, String) {
    let prog = repo().join("roms/devices/sb16.com");
    let mhz = ["--cpu", "386", "--mhz", "22.05", "--seconds", "15"];
    let o = headless(&[CARD, &mhz, &[s(&prog)], args].concat());
    (o.status.code(), text(&o.stdout))
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
    let o = headless(&["--cpu", "386", "--seconds", "1", s(&prog)]);
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
