//! `tandem run --video FILE.avi`, read back by ffprobe and ffmpeg: the
//! replica's every frame at 70.086 Hz with its sound, a frame equal to
//! `--screenshot`'s pixels, byte-identical runs; a mode change going on in
//! FILE-2.avi with the sound continuous (the files' sound together is the
//! WAV's); an unwritable path refused before the run.
//!
//! Needs ffmpeg and ffprobe (`apt-get install ffmpeg`): skipped loudly
//! without them, unless `TANDEM_REQUIRE_FFMPEG` is set (CI sets it), when
//! the tests fail instead.

mod common;

use std::path::Path;
use std::process::Command;

use common::wav::read_wav;
use common::{headless, read_png, repo, s, state_hash, temp_dir, text};
use serde_json::Value;

/// True (after a loud note) when ffmpeg or ffprobe is missing and the
/// test should be skipped; panics then when `TANDEM_REQUIRE_FFMPEG` is set.
fn skip_without_ffmpeg(test: &str) -> bool {
    let have = |t: &str| Command::new(t).arg("-version").output().is_ok();
    if have("ffmpeg") && have("ffprobe") {
        return false;
    }
    let what = format!("{test}: ffmpeg or ffprobe is not installed");
    if std::env::var_os("TANDEM_REQUIRE_FFMPEG").is_some() {
        panic!("{what} (and TANDEM_REQUIRE_FFMPEG is set)");
    }
    eprintln!("*** SKIPPED {what} (set TANDEM_REQUIRE_FFMPEG to make this fail)");
    true
}

/// ffprobe's streams of `p`, frames counted by decoding.
fn streams(p: &Path) -> Vec<Value> {
    let o = Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-count_frames",
            "-show_streams",
            "-of",
            "json",
        ])
        .arg(p)
        .output()
        .expect("ffprobe runs");
    assert!(
        o.status.success(),
        "ffprobe {}: {}",
        p.display(),
        text(&o.stderr)
    );
    let v: Value = serde_json::from_slice(&o.stdout).expect("ffprobe's JSON");
    v["streams"].as_array().expect("streams").clone()
}

/// A stream's field as a string.
fn field(st: &Value, k: &str) -> String {
    match &st[k] {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// ffmpeg's decoding of `p`'s video (`-vf` filter `vf`) or sound (`None`)
/// as raw RGB24 or 16-bit stereo samples; errors fail the test.
fn decode(p: &Path, vf: Option<&str>) -> Vec<u8> {
    let mut c = Command::new("ffmpeg");
    c.args(["-v", "error", "-i"]).arg(p);
    match vf {
        Some(f) => c
            .args(["-vf", f, "-fps_mode", "passthrough", "-frames:v", "1"])
            .args(["-f", "rawvideo", "-pix_fmt", "rgb24", "-"]),
        None => c.args(["-vn", "-f", "s16le", "-acodec", "pcm_s16le", "-"]),
    };
    let o = c.output().expect("ffmpeg runs");
    assert!(
        o.status.success(),
        "ffmpeg {}: {}",
        p.display(),
        text(&o.stderr)
    );
    assert!(o.stderr.is_empty(), "ffmpeg: {}", text(&o.stderr));
    o.stdout
}

/// The frame count of a `--state-hash` line ("... frame N").
fn frames_of(stderr: &str) -> u64 {
    let l = stderr
        .lines()
        .find(|l| l.contains("state hash"))
        .expect("hash line");
    l.rsplit("frame ")
        .next()
        .and_then(|n| n.trim().parse().ok())
        .expect("frames")
}

#[test]
fn the_replica_video_has_every_frame_at_70_hz_with_its_sound_and_is_lossless() {
    if skip_without_ffmpeg("the_replica_video") {
        return;
    }
    let d = temp_dir("video-replica");
    let (a, b, shot) = (d.join("a.avi"), d.join("b.avi"), d.join("shot.png"));
    // Three emulated seconds: 210 frames at 70.086 Hz.
    fn args(v: &Path) -> Vec<&str> {
        vec!["--frames", "210", "--state-hash", "--video", s(v)]
    }
    let o = headless(&[args(&a), vec!["--screenshot", s(&shot)]].concat());
    assert_eq!(o.status.code(), Some(124), "{}", text(&o.stderr));
    let frames = frames_of(&text(&o.stderr));
    assert_eq!(frames, 210);
    headless(&args(&b));
    let (ab, bb) = (std::fs::read(&a).expect("a"), std::fs::read(&b).expect("b"));
    assert!(ab == bb, "two runs give different files");

    let st = streams(&a);
    assert_eq!(st.len(), 2, "{st:?}");
    let (v, au) = (&st[0], &st[1]);
    assert_eq!(field(v, "codec_name"), "zmbv");
    assert_eq!(
        (field(v, "width"), field(v, "height")),
        ("320".into(), "200".into())
    );
    // 25.175 MHz / (800 x 449) dots.
    assert_eq!(field(v, "r_frame_rate"), "125875/1796");
    let n: u64 = field(v, "nb_read_frames").parse().expect("count");
    assert_eq!(n, frames);
    let seconds = n as f64 * 1796.0 / 125_875.0;
    assert!((seconds * 70.086 - n as f64).abs() <= 1.0);
    assert_eq!(field(au, "codec_name"), "pcm_s16le");
    assert_eq!(
        (field(au, "sample_rate"), field(au, "channels")),
        ("44100".into(), "2".into())
    );
    // The sound runs from the first frame's retrace to the last's: one
    // frame less than the frames' time, within a sample.
    let sound = decode(&a, None).len() as f64 / 4.0 / 44_100.0;
    let expect = (n - 1) as f64 * 1796.0 / 125_875.0;
    assert!(
        (sound - expect).abs() < 2.0 / 44_100.0,
        "{sound} s of sound, {expect} s of frames"
    );

    // The last frame is the screenshot's picture, pixel for pixel.
    let (w, h, rgb) = read_png(&shot);
    assert_eq!((w, h), (320, 200));
    let last = decode(&a, Some(&format!("select=eq(n\\,{})", n - 1)));
    assert!(last == rgb, "the last frame differs from the screenshot");
    let first = decode(&a, Some("select=eq(n\\,0)"));
    assert!(first != rgb, "the first frame is another picture");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_mode_change_goes_on_in_a_new_file_and_the_sound_stays_continuous() {
    if skip_without_ffmpeg("a_mode_change") {
        return;
    }
    let d = temp_dir("video-modes");
    let prog = repo().join("roms/devices/modes.com");
    let (v, wav, alone) = (d.join("m.avi"), d.join("m.wav"), d.join("alone.wav"));
    let o = headless(&["--state-hash", "--video", s(&v), "--wav", s(&wav), s(&prog)]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let o2 = headless(&["--state-hash", "--wav", s(&alone), s(&prog)]);
    assert_eq!(state_hash(&err), state_hash(&text(&o2.stderr)));
    assert!(
        std::fs::read(&wav).expect("wav") == std::fs::read(&alone).expect("wav"),
        "--video changes the WAV"
    );
    // 13h, 12h, 13h: three files, each said on stderr after the first.
    let files = [d.join("m.avi"), d.join("m-2.avi"), d.join("m-3.avi")];
    assert!(!d.join("m-4.avi").exists());
    let said: Vec<_> = err.lines().filter(|l| l.contains("going on in")).collect();
    assert_eq!(said.len(), 2, "{err}");
    assert!(
        said[0].contains("640x480 at 59.940 Hz") && said[0].ends_with("m-2.avi"),
        "{err}"
    );
    let shapes = [
        ("320", "200", "125875/1796"),
        ("640", "480", "5035/84"),
        ("320", "200", "125875/1796"),
    ];
    let mut frames = 0;
    let mut sound = Vec::new();
    for (f, (w, h, rate)) in files.iter().zip(shapes) {
        let st = streams(f);
        assert_eq!(field(&st[0], "codec_name"), "zmbv");
        assert_eq!(
            (
                field(&st[0], "width"),
                field(&st[0], "height"),
                field(&st[0], "r_frame_rate")
            ),
            (w.to_string(), h.to_string(), rate.to_string()),
            "{}",
            f.display()
        );
        let n: u64 = field(&st[0], "nb_read_frames").parse().expect("count");
        assert!(n >= 30, "{}: {n} frames", f.display());
        frames += n;
        sound.extend(decode(f, None));
    }
    assert_eq!(frames, frames_of(&err), "every frame in one of the files");
    // The files' sound, one after the other, is the WAV's from the first
    // frame on: nothing lost or doubled at the changes.
    let (_, left) = read_wav(&wav);
    let joined: Vec<i16> = sound
        .chunks_exact(4)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    assert!(joined.len() + 1000 > left.len() && joined.len() < left.len());
    assert!(
        left.ends_with(&joined),
        "the videos' sound is not the WAV's end"
    );
    let loud = joined.iter().filter(|s| s.abs() > 1000).count();
    assert!(loud > joined.len() / 4, "the speaker is heard: {loud}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_unwritable_video_path_is_refused_before_the_run() {
    let o = headless(&["--frames", "1", "--video", "/nonexistent/x.avi"]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--video /nonexistent/x.avi"), "{err}");
    assert!(o.stdout.is_empty());
}
