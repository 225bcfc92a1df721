//! `tandem corpus [MANIFEST]`: runs the corpus of real DOS programs named
//! in the manifest (`tests/corpus/corpus.toml`, see [`manifest`]), each
//! from a fresh copy of its folder, headless, with its scripted keys for
//! its emulated seconds, exactly as `tandem run` would (the same
//! preparation and run loop). Each final frame goes to `OUT/NAME.png` and
//! must equal the golden `golden/NAME.png` next to the manifest pixel for
//! pixel (tandem is deterministic); each run must end as the manifest
//! says. `OUT/contact-sheet.png` puts every frame beside the DOSBox
//! screenshot of the same program, for a person to judge; `--bless` makes
//! the frames and outcomes of this run the expected ones once that person
//! approves them.
//!
//! Exit status: 0 when every program passes, 1 when any fails, 2 when the
//! manifest or the corpus data is missing or malformed.

pub mod image;
pub mod manifest;
pub mod sheet;
pub mod sound;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use clap::{Args, Parser};
use hw::vga::render::Frame;

use crate::app::error::Error;
use crate::app::tempdir::TempDir;
use crate::play::args::RunArgs;
use crate::play::prepare::prepare;
use crate::play::run::{Outcome, Stdin};
use crate::play::{headless, screenshot};
use image::Diff;
use manifest::{Entry, Expected};

/// Arguments of `tandem corpus`.
#[derive(Args, Debug)]
#[command(after_help = concat!(crate::app::exit::exit_help!(), "

Examples:
  tandem corpus                                   run all, compare with the goldens
  tandem corpus --only lgengine --only digger     two of them
  tandem corpus --bless                           approve this run's frames and outcomes"))]
pub struct CorpusArgs {
    /// The manifest.
    #[arg(value_name = "MANIFEST", default_value = "tests/corpus/corpus.toml")]
    manifest: PathBuf,

    /// The folder holding the programs' folders and their DOSBox screenshots
    /// (NAME.dosbox.png).
    #[arg(long, value_name = "DIR", default_value = "../shared/corpus")]
    corpus: PathBuf,

    /// Where the frames (NAME.png), the guest's text (NAME.txt) and
    /// contact-sheet.png go.
    #[arg(long, value_name = "DIR", default_value = "target/corpus")]
    out: PathBuf,

    /// The golden frames [default: golden/ next to the manifest].
    #[arg(long, value_name = "DIR")]
    golden: Option<PathBuf>,

    /// Run only this program (repeatable).
    #[arg(long = "only", value_name = "NAME")]
    only: Vec<String>,

    /// Approve this run (after looking at the contact sheet): its frames
    /// become the goldens, and an outcome that differs from the manifest's
    /// is written into the manifest's `outcome` line.
    #[arg(long)]
    bless: bool,

    /// Programs run at once [default: the host's cores].
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
}

/// `tandem run`'s arguments, parsed from an entry's run line.
#[derive(Parser, Debug)]
#[command(name = "tandem run")]
struct RunLine {
    #[command(flatten)]
    run: RunArgs,
}

/// What one program's run gave.
struct Ran {
    /// How it ended, or why it could not start.
    outcome: Result<Outcome, Error>,
    /// The final frame (when it started).
    frame: Option<Frame>,
    /// The guest's text output.
    text: Vec<u8>,
    /// The BIOS and DOS functions the program asked for that tandem does
    /// not implement (each once; the corpus must have none).
    unimplemented: Vec<String>,
    /// Host seconds it took (for the table only).
    host: f64,
}

/// Copies a folder with the modification times of its files and folders:
/// DOS shows them to the program (file dates), so a copy made now must not
/// change what the program sees.
fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let dest = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            copy_dir(&e.path(), &dest)?;
        } else {
            std::fs::copy(e.path(), &dest)?;
            let when = e.metadata()?.modified()?;
            std::fs::File::options()
                .write(true)
                .open(&dest)?
                .set_modified(when)?;
        }
    }
    let when = std::fs::metadata(from)?.modified()?;
    std::fs::File::open(to)?.set_modified(when)
}

/// The WAV an entry's run writes in `out` (for its sound check).
fn wav_path(e: &Entry, out: &Path) -> Option<PathBuf> {
    e.music_from.map(|_| out.join(format!("{}.wav", e.name)))
}

/// Runs one entry from a fresh copy of its folder (installed in drive C:
/// as the entry says), its sound to `out` when it has a sound check.
fn run_one(e: &Entry, corpus: &Path, out: &Path) -> Ran {
    let started = Instant::now();
    let mut text = Vec::new();
    let mut frame = None;
    let mut unimplemented = Vec::new();
    let outcome = (|| {
        // A fresh copy of the program's folder, removed at the end.
        let copy = TempDir::new(&format!("corpus-{}", e.name))
            .map_err(|err| Error::file(&std::env::temp_dir(), err))?;
        let drive = copy.path();
        let src = corpus.join(&e.folder);
        copy_dir(&src, &e.install_dir(drive))
            .map_err(|err| format!("copying {}: {err}", src.display()))?;
        let mut argv = vec!["tandem run".to_string()];
        let wav = wav_path(e, out);
        argv.extend(e.run_line(drive, wav.as_deref()));
        let line = RunLine::try_parse_from(&argv).map_err(|err| err.to_string())?;
        let mut run = prepare(&line.run, true, Stdin::Ignore)?;
        let o = headless::run(&mut run, &mut text, false);
        run.player.flush_output(&mut text);
        if let (Some((_, err)), Some(p)) = (run.finish_outputs().pop(), &wav) {
            return Err(format!("{}: {err}", p.display()).into());
        }
        frame = Some(run.player.session.m.render());
        unimplemented = run.player.session.dos.warnings().to_vec();
        Ok(o)
    })();
    Ran {
        outcome,
        frame,
        text,
        unimplemented,
        host: started.elapsed().as_secs_f64(),
    }
}

/// Runs every entry on `jobs` threads; the results in the entries' order
/// (each run is deterministic on its own, so the threads change nothing
/// but the time).
fn run_all(entries: &[Entry], corpus: &Path, out: &Path, jobs: usize) -> Vec<Ran> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Ran>>> = Mutex::new(entries.iter().map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, entries.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(e) = entries.get(i) else { break };
                let r = run_one(e, corpus, out);
                eprintln!("tandem corpus: {} done ({:.1} s)", e.name, r.host);
                if let Ok(mut v) = results.lock() {
                    v[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .map(|r| {
            r.unwrap_or(Ran {
                outcome: Err("the run's thread panicked".into()),
                frame: None,
                text: Vec::new(),
                unimplemented: Vec::new(),
                host: 0.0,
            })
        })
        .collect()
}

/// Prints one error line and returns exit status 2.
fn input_error(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("tandem corpus: error: {msg}");
    ExitCode::from(crate::app::exit::BAD_INPUT)
}

/// The entries `--only` selects (all without it).
fn select(all: &[Entry], only: &[String]) -> Result<Vec<Entry>, Error> {
    for n in only {
        if !all.iter().any(|e| &e.name == n) {
            return Err(Error::Input(format!(
                "--only {n}: no such program in the manifest"
            )));
        }
    }
    Ok(all
        .iter()
        .filter(|e| only.is_empty() || only.contains(&e.name))
        .cloned()
        .collect())
}

/// Every corpus file the entries need, or the first missing one's error.
fn check_corpus(entries: &[Entry], corpus: &Path) -> Result<(), Error> {
    if !corpus.is_dir() {
        return Err(Error::Input(format!(
            "the corpus folder {} is missing (the shared corpus of real DOS programs; --corpus DIR names another)",
            corpus.display()
        )));
    }
    for e in entries {
        let folder = corpus.join(&e.folder);
        let program = folder.join(&e.program);
        let shot = dosbox_shot(corpus, e.dosbox_name());
        for (p, dir) in [(&folder, true), (&program, false), (&shot, false)] {
            let there = if dir { p.is_dir() } else { p.is_file() };
            if !there {
                return Err(Error::Input(format!(
                    "{}: {} is missing from the corpus",
                    e.name,
                    p.display()
                )));
            }
        }
    }
    Ok(())
}

fn dosbox_shot(corpus: &Path, name: &str) -> PathBuf {
    corpus.join(format!("{name}.dosbox.png"))
}

/// The frame's verdict against its golden, in words, and whether it
/// passes; where pixels differ, a picture of them goes to `diff_out`.
fn judge_frame(frame: &Frame, golden: &Path, diff_out: &Path, bless: bool) -> (String, bool) {
    let _ = std::fs::remove_file(diff_out);
    if bless {
        return match screenshot::write_png(golden, frame) {
            Ok(()) => ("blessed".into(), true),
            Err(err) => (format!("cannot write {}: {err}", golden.display()), false),
        };
    }
    if !golden.is_file() {
        return ("no golden".into(), false);
    }
    match image::read_png(golden) {
        Err(err) => (err.to_string(), false),
        Ok(g) => match image::diff(frame, &g) {
            Diff::Equal => ("equal".into(), true),
            Diff::Pixels(n) => {
                let mut says = format!("{n} of {} px differ", frame.width * frame.height);
                if let Err(err) = screenshot::write_png(diff_out, &image::diff_picture(frame, &g)) {
                    says += &format!("; cannot write {}: {err}", diff_out.display());
                }
                (says, false)
            }
            Diff::Size(w, h) => (
                format!("{}x{}, golden {w}x{h}", frame.width, frame.height),
                false,
            ),
        },
    }
}

/// Runs `tandem corpus`.
pub fn run(args: &CorpusArgs) -> ExitCode {
    let m = match manifest::load(&args.manifest) {
        Ok(m) => m,
        Err(e) => return input_error(e),
    };
    let entries = match select(&m.programs, &args.only) {
        Ok(v) => v,
        Err(e) => return input_error(e),
    };
    if let Err(e) = check_corpus(&entries, &args.corpus) {
        return input_error(e);
    }
    let golden_dir = args.golden.clone().unwrap_or_else(|| {
        args.manifest
            .parent()
            .unwrap_or(Path::new("."))
            .join("golden")
    });
    for d in [&args.out, &golden_dir] {
        if (d == &args.out || args.bless) && std::fs::create_dir_all(d).is_err() {
            return input_error(format!("cannot create {}", d.display()));
        }
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let results = run_all(&entries, &args.corpus, &args.out, jobs);

    let mut new_outcomes = Vec::new();
    let lines: Vec<Line> = entries
        .iter()
        .zip(&results)
        .map(|(e, r)| judge(args, &golden_dir, e, r, &mut new_outcomes))
        .collect();
    if !new_outcomes.is_empty() {
        if let Err(err) = bless_outcomes(&args.manifest, &new_outcomes) {
            return input_error(err);
        }
    }
    let sheet_path = match write_sheet(args, &entries, &results, &lines) {
        Ok(p) => p,
        Err(err) => return input_error(err),
    };
    let failed = print_table(args, &entries, &results, &lines);
    println!("contact sheet: {}", sheet_path.display());
    println!("{} passed, {} failed", entries.len() - failed, failed);
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::app::exit::CHECK_FAILED)
    }
}

/// One program's verdict: its outcome and frame in words, whether it
/// passes, and what is wrong when it does not.
struct Line {
    outcome: String,
    frame: String,
    /// The sound check's measures, for an entry that has one.
    sound: Option<String>,
    ok: bool,
    problems: Vec<String>,
}

/// Judges one run against its entry: the outcome (with `--bless`, an
/// outcome that differs from the manifest's joins `new_outcomes`), the
/// functions it asked for that tandem lacks, and the frame (written to
/// OUT/NAME.png, the guest's text to OUT/NAME.txt) against its golden.
fn judge(
    args: &CorpusArgs,
    golden_dir: &Path,
    e: &Entry,
    r: &Ran,
    new_outcomes: &mut Vec<(String, Expected)>,
) -> Line {
    let mut problems = Vec::new();
    let outcome = match &r.outcome {
        Ok(o) => {
            match Expected::of(o) {
                Some(x) if args.bless && x != e.outcome => {
                    println!(
                        "blessed {}: outcome \"{x}\" (was \"{}\") in {}",
                        e.name,
                        e.outcome,
                        args.manifest.display()
                    );
                    new_outcomes.push((e.name.clone(), x));
                }
                _ if !e.outcome.matches(o) => problems.push(format!(
                    "the run ended {}, the manifest expects {}",
                    manifest::describe(o),
                    e.outcome
                )),
                _ => {}
            }
            manifest::describe(o)
        }
        Err(err) => {
            problems.push(format!("the run could not start: {err}"));
            "did not start".into()
        }
    };
    if !r.unimplemented.is_empty() {
        problems.push(format!(
            "it asked for BIOS/DOS functions tandem does not implement: {}",
            r.unimplemented.join("; ")
        ));
    }
    let txt = args.out.join(format!("{}.txt", e.name));
    if let Err(err) = std::fs::write(&txt, &r.text) {
        problems.push(format!("cannot write {}: {err}", txt.display()));
    }
    let sound = judge_text_and_sound(args, e, r, &mut problems);
    let frame = match &r.frame {
        None => "-".to_string(),
        Some(f) => judge_saved_frame(args, golden_dir, e, f, &mut problems),
    };
    Line {
        outcome,
        frame,
        sound,
        ok: problems.is_empty(),
        problems,
    }
}

/// Checks the text the program must have written and, for an entry with
/// `music_from`, its sound (OUT/NAME.wav, its picture drawn to
/// OUT/NAME.spectrogram.png): what is wrong joins `problems`; the sound's
/// measures in words.
fn judge_text_and_sound(
    args: &CorpusArgs,
    e: &Entry,
    r: &Ran,
    problems: &mut Vec<String>,
) -> Option<String> {
    let text = String::from_utf8_lossy(&r.text);
    for t in &e.text {
        if !text.contains(t.as_str()) {
            problems.push(format!(
                "it did not write \"{t}\" (its text is in {})",
                args.out.join(format!("{}.txt", e.name)).display()
            ));
        }
    }
    let from = e.music_from?;
    r.outcome.as_ref().ok()?;
    let wav = wav_path(e, &args.out)?;
    let png = args.out.join(format!("{}.spectrogram.png", e.name));
    match sound::measure(&wav, &png, from) {
        Ok(m) => {
            for p in sound::problems(&m) {
                problems.push(format!(
                    "its sound from {from} s is not music: {p} (listen to {}, look at {})",
                    wav.display(),
                    png.display()
                ));
            }
            Some(format!("{m} (from {from} s; {})", png.display()))
        }
        Err(err) => {
            problems.push(format!("its sound cannot be judged: {err}"));
            None
        }
    }
}

/// Writes the frame to OUT/NAME.png and judges it against its golden; the
/// verdict in words, with what is wrong (and how to look at it and bless
/// it) added to `problems`.
fn judge_saved_frame(
    args: &CorpusArgs,
    golden_dir: &Path,
    e: &Entry,
    f: &Frame,
    problems: &mut Vec<String>,
) -> String {
    let shot = args.out.join(format!("{}.png", e.name));
    let golden = golden_dir.join(format!("{}.png", e.name));
    if let Err(err) = screenshot::write_png(&shot, f) {
        problems.push(format!("cannot write {}: {err}", shot.display()));
    }
    let diff_out = args.out.join(format!("{}.diff.png", e.name));
    let (verdict, ok) = judge_frame(f, &golden, &diff_out, args.bless);
    if !ok {
        problems.push(match verdict.as_str() {
            "no golden" => format!(
                "there is no golden {}: look at {} and bless it (tandem corpus --bless --only {})",
                golden.display(), shot.display(), e.name
            ),
            _ => {
                let marked = if diff_out.is_file() {
                    format!(", magenta in {}", diff_out.display())
                } else {
                    String::new()
                };
                format!(
                    "the frame {} is not the golden {} ({verdict}{marked}); look at both and at the contact sheet; if the change is right: tandem corpus --bless --only {}",
                    shot.display(), golden.display(), e.name
                )
            }
        });
    }
    verdict
}

/// Draws OUT/contact-sheet.png: every frame beside its DOSBox screenshot.
/// Its path, or the error of a DOSBox screenshot that cannot be read (one
/// that cannot be written is only reported).
fn write_sheet(
    args: &CorpusArgs,
    entries: &[Entry],
    results: &[Ran],
    lines: &[Line],
) -> Result<PathBuf, Error> {
    let mut shots = Vec::new();
    for e in entries {
        shots.push(image::read_png(&dosbox_shot(
            &args.corpus,
            e.dosbox_name(),
        ))?);
    }
    let rows: Vec<sheet::Row> = entries
        .iter()
        .zip(results)
        .zip(lines)
        .zip(&shots)
        .map(|(((e, r), l), shot)| sheet::Row {
            name: &e.name,
            how: how(e),
            status: if l.ok {
                format!("pass: {}, frame {}", l.outcome, l.frame)
            } else {
                format!("FAIL: {}, frame {}", l.outcome, l.frame)
            },
            ok: l.ok,
            tandem: r.frame.as_ref(),
            dosbox: shot,
        })
        .collect();
    let sheet_path = args.out.join("contact-sheet.png");
    if let Err(err) = screenshot::write_png(&sheet_path, &sheet::draw(&rows)) {
        eprintln!("tandem corpus: error: {}: {err}", sheet_path.display());
    }
    Ok(sheet_path)
}

/// Prints the table of runs, then each failing program's problems and how
/// to run it by hand; returns the count of failing programs.
fn print_table(args: &CorpusArgs, entries: &[Entry], results: &[Ran], lines: &[Line]) -> usize {
    let w = entries
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(4)
        .max(7);
    println!(
        "{:w$}  {:<14} {:>6}  {:<14} {:<28} {:>7}  result",
        "program", "machine", "secs", "outcome", "frame", "host s"
    );
    for ((e, r), l) in entries.iter().zip(results).zip(lines) {
        let mut outcome = l.outcome.clone();
        if outcome.len() > 14 {
            outcome.truncate(11);
            outcome.push_str("...");
        }
        println!(
            "{:w$}  {:<14} {:>6}  {:<14} {:<28} {:>7.1}  {}",
            e.name,
            machine(e),
            e.seconds,
            outcome,
            l.frame,
            r.host,
            if l.ok { "pass" } else { "FAIL" }
        );
    }
    for (e, l) in entries.iter().zip(lines) {
        if let Some(s) = &l.sound {
            println!("sound {}: {s}", e.name);
        }
    }
    let failed: Vec<(&Entry, &Line)> = entries.iter().zip(lines).filter(|(_, l)| !l.ok).collect();
    for (e, l) in &failed {
        for p in &l.problems {
            println!("FAIL {}: {p}", e.name);
        }
        let copy = PathBuf::from(format!("/tmp/x-{}", e.name));
        let mkdir = match &e.install {
            Some(_) => format!("mkdir -p {} && ", copy.display()),
            None => String::new(),
        };
        println!(
            "  to run it: {mkdir}cp -r {} {} && tandem run {}",
            args.corpus.join(&e.folder).display(),
            e.install_dir(&copy).display(),
            e.run_line(&copy, wav_path(e, Path::new("/tmp")).as_deref())
                .join(" ")
        );
    }
    failed.len()
}

/// Writes blessed outcomes into the manifest.
fn bless_outcomes(path: &Path, outcomes: &[(String, Expected)]) -> Result<(), Error> {
    let mut text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    for (name, x) in outcomes {
        text = manifest::set_outcome(&text, name, *x)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    std::fs::write(path, text).map_err(|e| Error::file(path, e))
}

/// The machine of an entry, e.g. `386 33 MHz` (the clock `tandem run`
/// gives the CPU when the entry names none).
fn machine(e: &Entry) -> String {
    let hz = match (e.cpu.parse::<emu::CpuModel>(), e.mhz) {
        (_, Some(m)) => (m * 1e6).round() as u64,
        (Ok(cpu), None) => emu::CpuModel::default_hz(cpu),
        (Err(_), None) => 0,
    };
    let mhz = format!("{:.2}", hz as f64 / 1e6);
    format!(
        "{} {} MHz",
        e.cpu,
        mhz.trim_end_matches('0').trim_end_matches('.')
    )
}

/// How an entry runs, for the contact sheet.
fn how(e: &Entry) -> String {
    let mut s = format!("{}, {} s", machine(e), e.seconds);
    if !e.presses.is_empty() {
        s.push_str(", keys ");
        s.push_str(&e.presses.join(" "));
    }
    if e.outcome != Expected::Running {
        s.push_str(&format!(", expects {}", e.outcome));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    #[test]
    fn a_copy_keeps_contents_and_times() {
        let base = std::env::temp_dir().join(format!("tandem-copy-{}", std::process::id()));
        let (src, dst) = (base.join("src"), base.join("dst"));
        std::fs::create_dir_all(src.join("SUB")).expect("folders");
        std::fs::write(src.join("A.DAT"), b"abc").expect("file");
        std::fs::write(src.join("SUB/B.DAT"), b"de").expect("file");
        let then = SystemTime::UNIX_EPOCH + Duration::from_secs(700_000_000);
        for f in ["A.DAT", "SUB/B.DAT"] {
            std::fs::File::options()
                .write(true)
                .open(src.join(f))
                .and_then(|h| h.set_modified(then))
                .expect("time");
        }
        copy_dir(&src, &dst).expect("copy");
        for f in ["A.DAT", "SUB/B.DAT"] {
            let md = std::fs::metadata(dst.join(f)).expect("copied");
            assert_eq!(md.modified().expect("mtime"), then, "{f}");
        }
        assert_eq!(std::fs::read(dst.join("SUB/B.DAT")).expect("read"), b"de");
        let _ = std::fs::remove_dir_all(&base);
    }
}
