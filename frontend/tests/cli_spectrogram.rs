//! `tandem spectrogram IN.wav OUT.png`: the WAV of roms/devices/opl.com
//! (one AdLib note, A4, for about a second) drawn and measured: one
//! dominant note, tonal, loud; a file that is not a WAV is bad input.

mod common;

use common::{headless, read_png, repo, s, tandem, temp_dir, text};

#[test]
fn a_note_is_drawn_and_measured() {
    let d = temp_dir("spectrogram");
    let (wav, png) = (d.join("opl.wav"), d.join("opl.png"));
    let prog = repo().join("roms/devices/opl.com");
    let o = headless(&["--seconds", "3", "--wav", s(&wav), s(&prog)]);
    assert!(o.status.code().is_some(), "{o:?}");
    let o = tandem(&["spectrogram", s(&wav), s(&png)]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}{}", text(&o.stderr));
    // The program plays for about a second and exits: one spectrum per
    // 1024 samples where 4096 fit.
    let samples = (std::fs::metadata(&wav).expect("the WAV").len() as usize - 44) / 4;
    assert!((40_000..48_000).contains(&samples), "{samples}");
    let frames = (samples - 4096) / 1024 + 1;
    assert!(
        out.contains(&format!("at 44100 Hz, {frames} spectra of 4096 samples")),
        "{out}"
    );
    assert!(out.contains(", 1 notes,"), "one held note:\n{out}");
    let flat: f64 = out
        .split("median flatness ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .and_then(|v| v.parse().ok())
        .expect("flatness in the output");
    assert!(flat < 0.05, "a tone is not flat: {out}");
    let (w, h, _) = read_png(&png);
    assert_eq!((w, h), (frames, 360));
    // Not a WAV: status 2 and one line naming the file.
    let o = tandem(&["spectrogram", s(&prog), s(&png)]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("opl.com: not a RIFF WAVE file"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
