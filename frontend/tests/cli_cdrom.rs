//! CD-ROM drives (`--cdrom`, `--cdrom-dir`): roms/dos/cdtest.com, an
//! MSCDEX client, reads a file of an ISO 9660 data track built here and
//! plays the audio track (a 1 kHz tone, 2 s) of a CUE/BIN built here; the
//! tone is in the WAV from the emulated time of the PLAY request on (the
//! first BIOS tick at or after tick 18, about 0.99 s), not before. Bad
//! images are one line and status 2 before the run.

mod common;

use std::path::{Path, PathBuf};

use common::wav::{power, read_wav};
use common::{dir_with, dos_rom, headless, s, temp_dir, text};
use dos::cdrom::mkiso::{build, IsoFile};

const README: &[u8] = b"Hello from the CD-ROM.\r\n";
/// The tone's frequency and length.
const TONE_HZ: f64 = 1000.0;
const TONE_SECTORS: usize = 150;

/// A folder with data.iso (DOCS\README.TXT), tone.bin (150 sectors of a
/// 1 kHz sine, stereo) and disc.cue laying them out as track 1 (data) and
/// track 2 (audio, after a 2 s PREGAP).
fn disc(name: &str) -> PathBuf {
    let d = temp_dir(name);
    let iso = build(
        "TANDEMCD",
        "COPYRIGH.TXT",
        &[IsoFile {
            path: "DOCS/README.TXT",
            data: README,
        }],
    );
    std::fs::write(d.join("data.iso"), iso).expect("iso");
    let mut pcm = Vec::new();
    for i in 0..TONE_SECTORS * 588 {
        let v =
            (16_000.0 * (2.0 * std::f64::consts::PI * TONE_HZ * i as f64 / 44_100.0).sin()) as i16;
        pcm.extend(v.to_le_bytes());
        pcm.extend(v.to_le_bytes());
    }
    std::fs::write(d.join("tone.bin"), pcm).expect("bin");
    std::fs::write(
        d.join("disc.cue"),
        "FILE \"data.iso\" BINARY\n  TRACK 01 MODE1/2048\n    INDEX 01 00:00:00\n\
         FILE \"tone.bin\" BINARY\n  TRACK 02 AUDIO\n    PREGAP 00:02:00\n    INDEX 01 00:00:00\n",
    )
    .expect("cue");
    d
}

/// The value of line `name` of cdtest's output.
fn value<'a>(out: &'a str, name: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no line {name} in:\n{out}"))
}

/// RMS of `x`.
fn rms(x: &[i16]) -> f64 {
    (x.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() / x.len().max(1) as f64).sqrt()
}

#[test]
fn an_mscdex_client_reads_the_iso_and_plays_the_tone_from_its_request() {
    let d = disc("cdrom-play");
    let (_, prog) = dir_with("cdrom-prog", &dos_rom("cdtest.com"));
    let wav = d.join("out.wav");
    let o = headless(&[
        "--seconds",
        "6",
        "--cdrom",
        s(&d.join("disc.cue")),
        "--wav",
        s(&wav),
        s(&prog),
    ]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert_eq!(value(&out, "drives"), "0001");
    assert_eq!(value(&out, "first"), "0003", "D:");
    assert_eq!(value(&out, "check"), "ADAD");
    assert_eq!(value(&out, "version"), "0215");
    assert!(out.contains("Hello from the CD-ROM."), "{out}");
    assert_eq!(value(&out, "create"), "0005", "access denied on D:");
    assert_eq!(value(&out, "listed"), "0003", ". .. README.TXT");
    assert_eq!(value(&out, "curdrive"), "0003", "D: selected");
    assert_eq!(value(&out, "relopen"), "0000", "README.TXT in D:\\DOCS");
    assert_eq!(value(&out, "tracks"), "0201", "tracks 1 to 2");
    // Track 2 starts after the ISO (its sectors), the 2 s pregap and the
    // 2 s lead-in, in Red Book MSF.
    let iso_len = std::fs::metadata(d.join("data.iso")).expect("iso").len() as u32 / 2048;
    let start = iso_len + 150 + 150;
    assert_eq!(value(&out, "start-min"), format!("{:04X}", start / 4500));
    let (sec, fr) = (start / 75 % 60, start % 75);
    assert_eq!(value(&out, "start-secframe"), format!("{sec:02X}{fr:02X}"));
    assert_eq!(value(&out, "play-status"), "0300", "done and busy");
    assert_eq!(value(&out, "status"), "0300", "busy while playing");
    assert_eq!(
        value(&out, "q-track-index"),
        "0102",
        "index 1, track 2 (BCD)"
    );
    // 27 ticks = 1.483 s into the track: 1 s and 36 frames.
    assert_eq!(value(&out, "q-rel-secframe"), "2401");
    assert_eq!(value(&out, "paused"), "0000");
    assert_eq!(value(&out, "after-status"), "0100", "done, no longer busy");
    assert_eq!(
        value(&out, "resume-status"),
        "810C",
        "resume without a pause fails"
    );

    let (rate, left) = read_wav(&wav);
    let at = |t: f64| (t * f64::from(rate)) as usize;
    // The request: the first tick at or after tick 18 of the run, which
    // starts within the first tick.
    let tick = 65_536.0 / 1_193_182.0;
    let onset = left
        .iter()
        .position(|&v| v.unsigned_abs() > 2000)
        .expect("the tone is in the WAV") as f64
        / f64::from(rate);
    assert!(
        onset >= 17.0 * tick && onset <= 19.5 * tick,
        "the tone starts at {onset:.4} s, not at the request"
    );
    assert!(
        rms(&left[..at(onset) - 10]) < 1.0,
        "silence before the request"
    );
    let tone = &left[at(onset + 0.2)..at(onset + 1.2)];
    assert!(rms(tone) > 8000.0, "the tone at full volume");
    let p = power(tone, TONE_HZ, rate);
    assert!(p > 100.0 * power(tone, 1500.0, rate) && p > 100.0 * power(tone, 700.0, rate));
    // It lasts the 150 sectors asked for: 2 s.
    let end = left
        .iter()
        .rposition(|&v| v.unsigned_abs() > 2000)
        .expect("tone") as f64
        / f64::from(rate);
    assert!(
        (end - onset - 2.0).abs() < 0.01,
        "the tone lasts {:.3} s",
        end - onset
    );
}

#[test]
fn a_folder_serves_as_a_read_only_cd() {
    let d = temp_dir("cdrom-dir");
    std::fs::create_dir_all(d.join("cd/docs")).expect("dir");
    std::fs::write(d.join("cd/docs/readme.txt"), README).expect("file");
    let (_, prog) = dir_with("cdrom-dir-prog", &dos_rom("cdtest.com"));
    let o = headless(&["--seconds", "1", "--cdrom-dir", s(&d.join("cd")), s(&prog)]);
    let out = text(&o.stdout);
    assert!(out.contains("Hello from the CD-ROM."), "{out}");
    assert_eq!(value(&out, "create"), "0005");
    assert!(!d.join("cd/NEW.TXT").exists() && !d.join("cd/new.txt").exists());
}

/// The one line and status 2 that `--cdrom FILE` gets.
fn refused(image: &Path, why: &str) {
    let (_, prog) = dir_with("cdrom-bad-prog", &dos_rom("hello.com"));
    let o = headless(&["--cdrom", s(image), s(&prog)]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(s(image)) || err.contains(why), "{err}");
    assert!(err.contains(why), "{err}");
    assert!(o.stdout.is_empty(), "nothing ran");
}

#[test]
fn bad_images_are_one_line_and_status_2_before_the_run() {
    let d = disc("cdrom-bad");
    refused(&d.join("nothere.iso"), "No such file");
    std::fs::write(d.join("junk.iso"), vec![0u8; 40 * 2048]).expect("junk");
    refused(&d.join("junk.iso"), "not an ISO 9660 disc");
    std::fs::write(
        d.join("out.cue"),
        "FILE \"../outside.bin\" BINARY\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n",
    )
    .expect("cue");
    refused(&d.join("out.cue"), "outside the CUE sheet's folder");
    std::fs::write(d.join("short.bin"), vec![0u8; 2352 * 10 + 7]).expect("bin");
    std::fs::write(
        d.join("short.cue"),
        "FILE \"short.bin\" BINARY\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n",
    )
    .expect("cue");
    refused(&d.join("short.cue"), "not a whole number");
    std::fs::write(d.join("gap.cue"), "FILE \"tone.bin\" BINARY\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n  TRACK 03 AUDIO\n    INDEX 01 00:01:00\n").expect("cue");
    refused(&d.join("gap.cue"), "track 3 follows track 1");
    std::fs::write(d.join("past.cue"), "FILE \"tone.bin\" BINARY\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n  TRACK 02 AUDIO\n    INDEX 01 00:09:00\n").expect("cue");
    refused(&d.join("past.cue"), "does not add up");
}
