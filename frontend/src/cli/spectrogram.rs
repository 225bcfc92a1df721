//! `tandem spectrogram IN.wav OUT.png`: a picture of what a WAV (one
//! `tandem run --wav` wrote, or any 16-bit PCM WAV) sounds like, with the
//! measures the corpus's sound checks use (see [`crate::spectrum`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::app::exit;
use crate::play::prepare::seconds_text;
use crate::spectrum::{measures, picture, wav_in, Spectrogram, HOP, WINDOW};

/// Arguments of `tandem spectrogram`.
#[derive(Args, Debug)]
#[command(after_help = concat!(crate::app::exit::exit_help!(), "

The picture: time left to right (one column per 1024 samples, 23 ms at
44.1 kHz), frequency bottom to top on a log scale from 40 Hz to 11 kHz,
power from black (90 dB below the loudest) through blue, magenta, orange
and yellow to white (the loudest).

Example:
  tandem run --headless --seconds 20 --wav demo.wav DEMO.EXE
  tandem spectrogram demo.wav demo.png --from 10"))]
pub struct SpectrogramArgs {
    /// The WAV to look at (16-bit PCM, mono or stereo).
    #[arg(value_name = "IN.wav")]
    input: PathBuf,

    /// Where the picture goes (PNG).
    #[arg(value_name = "OUT.png")]
    output: PathBuf,

    /// Measure from this second of the WAV on (the picture shows it all).
    #[arg(long, value_name = "S", default_value_t = 0.0)]
    from: f64,
}

/// Runs `tandem spectrogram`.
pub fn run(args: &SpectrogramArgs) -> ExitCode {
    let fail = |what: &std::path::Path, e: &dyn std::fmt::Display| {
        eprintln!("tandem spectrogram: error: {}: {e}", what.display());
        ExitCode::from(exit::BAD_INPUT)
    };
    let from = seconds_text(args.from);
    if !(args.from.is_finite() && args.from >= 0.0) {
        return fail(&args.input, &format!("--from {from}: not a time"));
    }
    let sound = match wav_in::read(&args.input) {
        Ok(s) => s,
        Err(e) => return fail(&args.input, &e),
    };
    let seconds = sound.samples.len() as f64 / f64::from(sound.rate);
    // Nothing to measure from the end on: an error, not an empty verdict.
    if args.from >= seconds {
        let len = seconds_text(seconds);
        return fail(
            &args.input,
            &format!("--from {from}: past the end of the sound ({len} s)"),
        );
    }
    let spec = Spectrogram::new(&sound);
    if let Err(e) = picture::write_png(&args.output, &spec) {
        return fail(&args.output, &e);
    }
    println!(
        "{}: {seconds:.2} s at {} Hz, {} spectra of {WINDOW} samples every {HOP}",
        args.input.display(),
        sound.rate,
        spec.frames.len()
    );
    println!(
        "from {from} s: {}",
        measures::judge(&sound, &spec, args.from)
    );
    println!("picture: {}", args.output.display());
    ExitCode::SUCCESS
}
