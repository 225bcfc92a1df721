//! A run: the player, its limits and outputs, and the lock-step check
//! when asked; what the headless loop and the window both step, one frame
//! at a time ([`Run::frame`]), until an [`Outcome`].

use std::path::PathBuf;

use dos::Exit;

use crate::app::exit;
use crate::app::tempdir::TempDir;
use crate::golden::bundle;
use crate::golden::check::{Check, Checked};
use crate::golden::report::Report;
use crate::input::player::{Player, Slice};
use crate::input::stdin_keys::StdinKeys;

use super::sound::Mixer;
use super::video::VideoOut;
use super::wav::WavOut;

/// What a run is: everything both the headless loop and the window need.
pub struct Run {
    /// The session and its input streams.
    pub player: Player,
    /// What runs (for messages).
    pub name: String,
    /// The CPU clock in Hz.
    pub cpu_hz: u64,
    /// Stop at this cycle.
    pub cycle_limit: u64,
    /// Stop after this many frames.
    pub frame_limit: Option<u64>,
    /// The time limit in seconds (for messages).
    pub seconds: Option<f64>,
    /// The host's stdin typed on the keyboard (headless), as it arrives.
    pub stdin: Option<StdinKeys>,
    /// The one mixer of the sound written to `--wav` and `--video` (and,
    /// with `--video`, played by the window).
    pub mixer: Option<Mixer>,
    /// The mixer's samples of the last frame.
    pub sound: Vec<[i16; 2]>,
    /// The WAV being written (`--wav`).
    pub wav: Option<WavOut>,
    /// The video being written (`--video`).
    pub video: Option<VideoOut>,
    /// Writes of the WAV or the video that failed during the run, as
    /// (option, error): the output ended there, and the run's status
    /// says so at its end.
    pub failed: Vec<(&'static str, std::io::Error)>,
    /// The lock-step check (`--check`).
    pub check: Option<Check>,
    /// Where `--check` writes its bundle (`None`: the default name).
    pub bundle_out: Option<PathBuf>,
    /// Where the bundle went, once written.
    pub bundle_written: Option<PathBuf>,
    /// `--check --ui`: a divergence ends the run (the window closes) and
    /// the debugger window opens there.
    pub ui_on_divergence: bool,
    /// Drive C: when it is a temporary folder.
    pub(super) _temp: Option<TempDir>,
}

/// How a run ended: as the session's run did, or at a limit only the
/// front end knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The session's run ended so (never [`Exit::Frame`]).
    Ended(Exit),
    /// The replayed record ended here.
    ReplayEnd,
    /// The frame limit was reached.
    FrameLimit,
    /// The user closed the window.
    Quit,
    /// `--check` found a divergence.
    Diverged,
}

impl Outcome {
    /// The exit status of a run that ended so (`run`, corpus programs):
    /// the program's own code when it terminated.
    pub fn exit_code(&self) -> u8 {
        match self {
            Outcome::Ended(e) => exit::of_exit(e),
            Outcome::ReplayEnd | Outcome::FrameLimit | Outcome::Quit => exit::RUN_ENDED_FIRST,
            Outcome::Diverged => exit::CHECK_FAILED,
        }
    }
}

impl Run {
    /// Runs until the next frame is complete (`None`: the run goes on) or
    /// the run ends; with `--check`, checks the frame points on the way,
    /// keeps checkpoints, and at a divergence prints the report, writes
    /// the bundle and ends with [`Outcome::Diverged`] (the window pauses
    /// there and may go on).
    pub fn frame(&mut self) -> Option<Outcome> {
        let slice = match self.check.as_mut() {
            None => self.player.run_frame(self.cycle_limit),
            Some(c) => match c.run_frame(&mut self.player, self.cycle_limit) {
                Checked::Slice(s) => s,
                Checked::Diverged(report) => {
                    self.diverged(&report);
                    return Some(Outcome::Diverged);
                }
            },
        };
        self.capture(matches!(slice, Slice::Exit(Exit::Frame)));
        match slice {
            Slice::Exit(Exit::Frame) => match self.frame_limit {
                Some(n) if self.player.session.frames >= n => Some(Outcome::FrameLimit),
                _ => None,
            },
            Slice::Exit(e) => Some(Outcome::Ended(e)),
            Slice::ReplayEnd => Some(Outcome::ReplayEnd),
        }
    }

    /// The sound since the last call to the WAV and the video, and to the
    /// video the frame completed now (`frame`: the machine stopped at a
    /// vertical retrace). A write that fails says so and ends that output.
    fn capture(&mut self, frame: bool) {
        let Some(mixer) = self.mixer.as_mut() else {
            return;
        };
        let m = &mut self.player.session.m;
        self.sound = mixer.pull(m);
        if let Some(Err(e)) = self.wav.as_mut().map(|w| w.write(&self.sound)) {
            self.failed.push(("--wav", e));
            self.wav = None;
        }
        if let Some(v) = self.video.as_mut() {
            v.sound(&self.sound);
            if let Err(e) = if frame { v.frame(m) } else { Ok(()) } {
                self.failed.push(("--video", e));
                self.video = None;
            }
        }
    }

    /// Ends the WAV and the video with the rest of the sound; the errors
    /// (those of the run first) as (option, error).
    pub fn finish_outputs(&mut self) -> Vec<(&'static str, std::io::Error)> {
        let m = &mut self.player.session.m;
        let last = self.mixer.as_mut().map(|x| x.finish(m)).unwrap_or_default();
        let mut errors = std::mem::take(&mut self.failed);
        if let Some(Err(e)) = self.wav.take().map(|w| w.finish(&last)) {
            errors.push(("--wav", e));
        }
        if let Some(Err(e)) = self.video.take().map(|v| v.finish(m, &last)) {
            errors.push(("--video", e));
        }
        errors
    }

    /// At a divergence: prints the report on stderr and writes the bundle
    /// (saying where).
    fn diverged(&mut self, report: &Report) {
        let Some(c) = &self.check else { return };
        for l in report.lines() {
            eprintln!("tandem run: check: {l}");
        }
        let events = self.player.log().to_vec();
        let dir = self
            .bundle_out
            .clone()
            .unwrap_or_else(|| bundle::default_path(&c.setup.program, report.frame));
        let config = self.player.session.m.config();
        match bundle::write(c, report, &events, config, &dir) {
            Ok(()) => {
                let dir = dir.canonicalize().unwrap_or(dir);
                eprintln!(
                    "tandem run: check: reproduction bundle written to {} (replay: tandem compare --bundle {})",
                    dir.display(),
                    dir.display()
                );
                self.bundle_written = Some(dir);
            }
            Err(e) => eprintln!("tandem run: error: --check: the bundle: {e}"),
        }
    }

    /// Whether `--check` has found a divergence.
    pub fn diverged_already(&self) -> bool {
        self.check.as_ref().is_some_and(|c| c.report.is_some())
    }
}

/// Where the keys of a headless run come from besides `--press`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stdin {
    /// The host's stdin, when it is not a terminal, is typed on the
    /// keyboard.
    Type,
    /// Stdin is left alone (`tandem corpus`: only the scripted keys).
    Ignore,
}

/// Whether a display is there for a window.
pub fn have_display() -> bool {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}
