//! The arguments of a run: `tandem run`'s command line, which the corpus
//! also reads from each entry's run line.

use std::path::PathBuf;

use clap::Args;

use crate::app::options::{DosOpts, MachineOpts};
use crate::golden::check::CheckArgs;

/// Arguments of `tandem run`.
#[derive(Args, Debug)]
#[command(after_help = concat!("\
Window keys (never passed to the program):
  Pause        pause / resume emulation
  . (paused)   advance one frame
  F12          save a screenshot (tandem-FRAME.png in the current folder)
  Alt+Enter    toggle fullscreen
  Ctrl+F10     release the mouse (a click in the window captures it)
  Ctrl+F9      the mouse as joystick 1 (position, left/right buttons) and back
  closing the window quits

", crate::app::exit::exit_help!(), "

Examples:
  tandem run                                 the built-in replica demo in a window
  tandem run --headless --frames 70 --screenshot shot.png
  tandem run GAME.EXE --mount ~/dos/game --record play.jsonl
  tandem run --headless --seconds 8 --press 2:y --press 3:enter GAME.EXE
  tandem run GAME.EXE --mount ~/dos/game --replay play.jsonl --state-hash"))]
pub struct RunArgs {
    #[command(flatten)]
    pub machine: MachineOpts,

    /// No window: guest text on stdout only (chosen by itself when there is
    /// no display).
    #[arg(long)]
    pub headless: bool,

    /// Stop after N video frames (vertical retraces) of emulated time.
    #[arg(long, value_name = "N", conflicts_with = "seconds")]
    pub frames: Option<u64>,

    /// Stop after S emulated seconds [headless default: 60, window: none].
    #[arg(long, value_name = "S")]
    pub seconds: Option<f64>,

    /// Write the final frame to FILE as PNG (at the display's own
    /// resolution, e.g. 320x200 in mode 13h).
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,

    /// Show the overscan border around the active display area, in the
    /// overscan colour, as a monitor shows it (everything the CRTC does not
    /// blank), in the window, `--screenshot` and `--video`. Without it a
    /// frame is the active display area alone.
    #[arg(long)]
    pub border: bool,

    /// Write what the run would have sounded like (every sound card of
    /// `--sound` and the PC speaker, mixed) to FILE as a 16-bit stereo WAV, computed
    /// from emulated time: the same run gives the same bytes. Headless.
    #[arg(long, value_name = "FILE.wav")]
    pub wav: Option<PathBuf>,

    /// Write every frame, at the display's own resolution and refresh
    /// (70.086 Hz in mode 13h), lossless, with the sound as `--wav` mixes
    /// it, to FILE as AVI (ZMBV video, PCM sound; ffmpeg, VLC and mpv play
    /// it): the same run gives the same bytes. When the resolution or
    /// refresh changes, the video goes on in FILE-2.avi, FILE-3.avi, ...
    /// Headless or in the window.
    #[arg(long, value_name = "FILE.avi")]
    pub video: Option<PathBuf>,

    /// The sample rate of `--wav` and of `--video`'s sound: 44100 or
    /// 48000.
    #[arg(long, value_name = "HZ", default_value_t = 44_100)]
    pub wav_rate: u32,

    /// The General MIDI SoundFont (.sf2) the MPU-401 plays through, in the
    /// window and in `--wav` [default: the file in $TANDEM_SOUNDFONT, else
    /// the first of Debian's /usr/share/sounds/sf2/FluidR3_GM.sf2,
    /// TimGM6mb.sf2, default-GM.sf2, /usr/share/soundfonts/default.sf2,
    /// or of the files in $TANDEM_SOUNDFONT_SEARCH (separated by ':');
    /// with none, MIDI is dropped with a warning].
    #[arg(long, value_name = "FILE.sf2")]
    pub soundfont: Option<PathBuf>,

    /// Print the machine's final state hash on stderr.
    #[arg(long)]
    pub state_hash: bool,

    /// Write a save state (the whole machine, DOS and open files) at the
    /// end of the run.
    #[arg(long, value_name = "FILE")]
    pub save_state: Option<PathBuf>,

    /// Resume from a save state instead of loading the program afresh
    /// (`--seconds` counts from where the saving run stopped).
    #[arg(long, value_name = "FILE")]
    pub load_state: Option<PathBuf>,

    /// Press a key or joystick button at an emulated time: SECONDS:KEY
    /// (e.g. 2.5:space, 3:enter, 4:joy1-button1); repeatable. Recorded by
    /// --record like typed keys.
    #[arg(long = "press", value_name = "S:KEY", long_help = crate::input::press::LONG_HELP)]
    pub presses: Vec<String>,

    /// Move a joystick at an emulated time: SECONDS:STICK:x=F,y=F (e.g.
    /// 2:1:x=-1.0,y=0.5; positions -1.0 to 1.0); repeatable. Recorded by
    /// --record.
    #[arg(long = "joy", value_name = "S:STICK:AXES", long_help = crate::input::joy::LONG_HELP)]
    pub joys: Vec<String>,

    /// Record the input (keys, mouse, joysticks) with the emulated cycle of each event
    /// to FILE (JSON lines).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,

    /// Replay the input recorded in FILE at the same emulated cycles; the
    /// run ends where the recorded one did (status 124) unless the program
    /// terminates first.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,

    #[command(flatten)]
    pub check: CheckArgs,

    /// Start the window in fullscreen.
    #[arg(long)]
    pub fullscreen: bool,

    /// No sound in the window.
    #[arg(long)]
    pub mute: bool,

    #[command(flatten)]
    pub dos: DosOpts,

    /// The DOS program (.EXE or .COM), a host path [default: the built-in
    /// replica].
    #[arg(value_name = "PROGRAM")]
    pub program: Option<PathBuf>,

    /// The program's command line.
    #[arg(
        value_name = "ARGS",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub args: Vec<String>,
}
