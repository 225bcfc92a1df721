//! The corpus of real DOS programs (`tests/corpus/corpus.toml`, the
//! programs in `shared/corpus`): every final frame equals its golden and
//! every run ends as the manifest says. A failure names the program and
//! where its frame and the contact sheet are; missing corpus data fails
//! loudly. Re-approve changed frames with `tandem corpus --bless` (README,
//! "The corpus").

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{repo, s};

fn manifest() -> PathBuf {
    repo().join("tests/corpus/corpus.toml")
}

/// `shared/corpus` (or `$TANDEM_SHARED/corpus`), failing loudly when it
/// is missing.
fn corpus() -> PathBuf {
    shared_dir("corpus")
}

/// `shared/NAME` (or `$TANDEM_SHARED/NAME`), failing loudly when it is
/// missing.
fn shared_dir(name: &str) -> PathBuf {
    let shared = match std::env::var_os("TANDEM_SHARED") {
        Some(p) => PathBuf::from(p),
        None => repo().join("../shared"),
    };
    let dir = shared.join(name);
    assert!(
        dir.join("README.md").is_file(),
        "the real DOS programs of {name} are not at {} (set TANDEM_SHARED to the shared directory)",
        dir.display()
    );
    dir
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("corpus-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

fn tandem_corpus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tandem"))
        .arg("corpus")
        .args(args)
        .output()
        .expect("tandem corpus runs")
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// Asserts that the run failed (status 1) and its report holds `what`.
fn fails_with(o: &Output, what: &str) {
    let report = text(o);
    assert_eq!(o.status.code(), Some(1), "{report}");
    assert!(report.contains(what), "{report}");
}

#[test]
fn every_corpus_program_runs_as_blessed() {
    let corpus = corpus();
    let out = scratch("all");
    let m = manifest();
    let o = tandem_corpus(&[s(&m), "--corpus", s(&corpus), "--out", s(&out)]);
    let report = text(&o);
    let failing: Vec<&str> = report.lines().filter(|l| l.starts_with("FAIL ")).collect();
    assert!(
        o.status.success(),
        "the corpus changed:\n{}\n\nThe frames are in {}, beside the DOSBox screenshots in {}/contact-sheet.png.\n\
         If the change is right, re-bless from the repository root: cargo run --release -- corpus --bless\n\nThe whole report:\n{report}",
        failing.join("\n"),
        out.display(),
        out.display()
    );
    // Every program of the manifest ran and passed.
    let programs = std::fs::read_to_string(&m)
        .expect("manifest")
        .lines()
        .filter(|l| l.trim() == "[[program]]")
        .count();
    assert!(programs >= 15, "{programs}");
    assert!(
        report.contains(&format!("{programs} passed, 0 failed")),
        "{report}"
    );
    assert!(out.join("contact-sheet.png").is_file());
}

/// The commercial-era programs (`tests/corpus/games.toml`, the programs
/// in `shared/games`): Second Reality runs its parts as child programs of
/// its own making and plays its music; every frame equals its golden.
#[test]
fn the_games_run_as_blessed() {
    let games = shared_dir("games");
    let out = scratch("games");
    let m = repo().join("tests/corpus/games.toml");
    let o = tandem_corpus(&[s(&m), "--corpus", s(&games), "--out", s(&out)]);
    let report = text(&o);
    let programs = std::fs::read_to_string(&m)
        .expect("games manifest")
        .lines()
        .filter(|l| l.trim() == "[[program]]")
        .count();
    assert!(programs >= 1, "{programs}");
    assert!(
        o.status.success() && report.contains(&format!("{programs} passed, 0 failed")),
        "the games changed (frames in {}):\n{report}",
        out.display()
    );
    assert!(report.contains("sound 2ndreal-sbpro: RMS"), "{report}");
}

#[test]
fn a_changed_frame_or_outcome_fails_and_bless_approves_it() {
    let corpus = corpus();
    let dir = scratch("bless");
    let out = dir.join("out");
    let golden = dir.join("golden");
    std::fs::create_dir_all(&golden).expect("golden folder");
    // A manifest of its own: pillman, an 8086 program, for two seconds.
    let m = dir.join("corpus.toml");
    let text_of = "# one program\n[[program]]\nname = \"pillman\"\nfolder = \"pillman\"\n\
                   program = \"PILLMAN.COM\"\ncpu = \"8086\"\nseconds = 2\n\
                   outcome = \"running\"  # still running\n";
    std::fs::write(&m, text_of).expect("manifest");
    let run = |extra: &[&str]| {
        let mut a = vec![s(&m), "--corpus", s(&corpus), "--out", s(&out)];
        a.extend(["--golden", s(&golden), "--only", "pillman"]);
        a.extend(extra);
        tandem_corpus(&a)
    };
    // No golden: a failure naming the program and the frame.
    let o = run(&[]);
    fails_with(&o, "FAIL pillman: there is no golden");
    assert!(text(&o).contains("0 passed, 1 failed"), "{}", text(&o));
    // Bless: the golden is this run's frame.
    let o = run(&["--bless"]);
    assert!(o.status.success(), "{}", text(&o));
    let frame = std::fs::read(out.join("pillman.png")).expect("frame");
    assert_eq!(
        std::fs::read(golden.join("pillman.png")).expect("golden"),
        frame
    );
    assert!(run(&[]).status.success());
    // One pixel changed in the golden: the count of differing pixels.
    let g = golden.join("pillman.png");
    let mut dec = png::Decoder::new(std::fs::File::open(&g).expect("golden"));
    dec.set_transformations(png::Transformations::EXPAND);
    let mut r = dec.read_info().expect("png");
    let mut px = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut px).expect("pixels");
    px[0] ^= 0xFF;
    let mut enc = png::Encoder::new(
        std::fs::File::create(&g).expect("write"),
        info.width,
        info.height,
    );
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()
        .expect("header")
        .write_image_data(&px[..info.buffer_size()])
        .expect("data");
    let o = run(&[]);
    fails_with(&o, "FAIL pillman: the frame");
    fails_with(&o, &format!("1 of {} px differ", info.width * info.height));
    // A different outcome fails; bless writes it into the manifest.
    let exited = text_of.replace(
        "outcome = \"running\"  # still running",
        "outcome = \"exited 0\"",
    );
    std::fs::write(&m, exited).expect("manifest");
    fails_with(
        &run(&[]),
        "FAIL pillman: the run ended running, the manifest expects exited 0",
    );
    let o = run(&["--bless"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(&m).expect("manifest"),
        text_of.replace("  # still running", "")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_corpus_data_is_a_loud_failure() {
    let dir = scratch("missing");
    let o = tandem_corpus(&[s(&manifest()), "--corpus", s(&dir.join("nowhere"))]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("nowhere") && err.contains("missing"), "{err}");
    // A corpus without one program's file.
    let partial = dir.join("corpus");
    std::fs::create_dir_all(partial.join("pillman")).expect("folder");
    std::fs::write(partial.join("pillman.dosbox.png"), b"").expect("shot");
    let o = tandem_corpus(&[s(&manifest()), "--corpus", s(&partial), "--only", "pillman"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("PILLMAN.COM is missing"), "{}", text(&o));
    // An unknown --only and a missing manifest: status 2 too.
    let o = tandem_corpus(&[s(&manifest()), "--only", "nosuch"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = tandem_corpus(&[s(&dir.join("none.toml"))]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The corpus's AdLib programs (lgengine, cutedemo, adplay88) find the
/// AdLib and play music: each run's WAV after its `music_from` second is
/// loud, tonal (low spectral flatness) and changes notes; lgengine says
/// "AdLib card detected".
#[test]
fn the_adlib_programs_play_music() {
    let corpus = corpus();
    let out = scratch("music");
    let names = ["lgengine", "cutedemo", "adplay88"];
    let m = manifest();
    let mut a = vec![s(&m), "--corpus", s(&corpus), "--out", s(&out)];
    for n in names {
        a.extend(["--only", n]);
    }
    let o = tandem_corpus(&a);
    let report = text(&o);
    assert!(o.status.success(), "{report}");
    for n in names {
        assert!(
            report.contains(&format!("sound {n}: RMS")),
            "{n} has no sound check:\n{report}"
        );
        let wav = std::fs::metadata(out.join(format!("{n}.wav"))).expect("its WAV");
        assert!(wav.len() > 44 * 1000, "{n}: {} bytes", wav.len());
        assert!(out.join(format!("{n}.spectrogram.png")).is_file(), "{n}");
    }
    assert!(std::fs::read_to_string(out.join("lgengine.txt"))
        .expect("lgengine's text")
        .contains("AdLib card detected"));
}

/// The sound and text checks fail a program that is silent or does not say
/// what the manifest expects.
#[test]
fn a_silent_program_fails_the_sound_check() {
    let corpus = corpus();
    let dir = scratch("silent");
    let m = dir.join("corpus.toml");
    std::fs::write(
        &m,
        "[[program]]\nname = \"pillman\"\nfolder = \"pillman\"\nprogram = \"PILLMAN.COM\"\n\
         cpu = \"8086\"\nseconds = 2\noutcome = \"running\"\nmusic_from = 0.5\n\
         text = [\"AdLib card detected\"]\n",
    )
    .expect("manifest");
    let out = dir.join("out");
    let o = tandem_corpus(&[s(&m), "--corpus", s(&corpus), "--out", s(&out)]);
    fails_with(
        &o,
        "FAIL pillman: its sound from 0.5 s is not music: too quiet",
    );
    fails_with(&o, "FAIL pillman: it did not write \"AdLib card detected\"");
    assert!(out.join("pillman.wav").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
