//! Setting a run up: the program, the machine (from the options, or from a
//! replayed record's header), drive C:, DOS, a save state to resume, the
//! scripted keys, the record and the limits.

use std::io::{BufReader, IsTerminal};
use std::path::{Path, PathBuf};

use dos::Session;
use emu::CpuModel;
use hw::MachineConfig;

use super::args::RunArgs;
use super::run::{Run, Stdin};
use super::sound::Mixer;
use super::video::VideoOut;
use super::wav::{WavOut, RATES as WAV_RATES};
use crate::app::builtin;
use crate::app::error::Error;
use crate::app::options::MachineOpts;
use crate::app::program;
use crate::app::tempdir::TempDir;
use crate::golden::check::Check;
use crate::golden::profile::GM_CPU;
use crate::input::player::Player;
use crate::input::record::{self, Event, Header, Input, Recorder};
use crate::input::stdin_keys::StdinKeys;
use crate::input::{joy, press};

/// Emulated seconds a headless run lasts at most when nothing else bounds it.
pub const HEADLESS_DEFAULT_SECONDS: f64 = 60.0;
/// The shortest `--seconds`: a microsecond, a few clocks of the slowest
/// CPU (a shorter time would end the run before its first instruction).
pub const MIN_SECONDS: f64 = 1e-6;

/// A time in seconds as text of bounded length: plain between a
/// microsecond and a billion seconds, in exponent form outside (so
/// `1e-300` is not printed with 300 zeros).
pub fn seconds_text(s: f64) -> String {
    if s == 0.0 || (MIN_SECONDS..1e9).contains(&s.abs()) {
        format!("{s}")
    } else {
        format!("{s:e}")
    }
}

/// A replayed record: its header and events.
type Replay = (Header, Vec<Event>);

/// Sets the run up: program, mount, machine, DOS, scripted keys, record and
/// replay. The error says what cannot be used and why, in one line.
pub fn prepare(args: &RunArgs, headless: bool, stdin: Stdin) -> Result<Run, Error> {
    let presses = press::parse_all(&args.presses)?;
    let joys = joy::parse_all(&args.joys)?;
    for (what, p) in [
        ("--save-state", &args.save_state),
        ("--screenshot", &args.screenshot),
        ("--wav", &args.wav),
        ("--video", &args.video),
    ] {
        if let Some(p) = p {
            check_writable(what, p)?;
        }
    }
    if args.wav.is_some() && !headless {
        return Err(Error::bad(
            "--wav",
            "only a headless run writes a WAV (--headless)",
        ));
    }
    if !WAV_RATES.contains(&args.wav_rate) {
        return Err(Error::bad(
            "--wav-rate",
            format!("{} Hz: 44100 or 48000", args.wav_rate),
        ));
    }
    let replay = read_replay(args)?;
    let (name, image) = read_program(args)?;
    let config = machine_config(args, replay.as_ref(), &name)?;
    let (mount, temp) = mount(args)?;
    let (mut session, origin) = start(args, config, &mount, &name, &image)?;
    session.m.set_view(hw::vga::View {
        border: args.border,
    });
    let check = Check::attach(&args.check, &mut session, &name, &image, &mount)?;
    // A resumed run goes on with the saved machine's CPU and clock.
    let cpu_hz = session.m.config().cpu_hz;
    // Headless: the host's stdin (when it is not a terminal) is typed on
    // the keyboard, read on a thread so that it never blocks the run.
    let stdin_keys = if headless && stdin == Stdin::Type && !std::io::stdin().is_terminal() {
        let mut k = StdinKeys::start();
        session.dos.type_text(&k.at_start());
        Some(k)
    } else {
        None
    };
    let replay_has_end = replay
        .as_ref()
        .is_some_and(|(_, evs)| evs.iter().any(|e| matches!(e.input, Input::End { .. })));
    // The SoundFont (it can be big): once, and only when the MPU-401 will
    // be heard.
    let written = args.wav.is_some() || args.video.is_some();
    if session.m.bus.dev.mpu.fitted() && (written || !(headless || args.mute)) {
        super::sound::midi::load_soundfont(args.soundfont.as_deref())
            .map_err(|e| Error::bad(e.path.display(), e.why))?;
    }
    // One mixer hears the machine for the WAV and the video.
    let mixer = written.then(|| Mixer::new(&mut session.m, args.wav_rate));
    let wav = (args.wav.as_ref())
        .map(|p| WavOut::create(p, args.wav_rate).map_err(|e| Error::file(p, e)))
        .transpose()?;
    let video = match (&args.video, &mixer) {
        (Some(p), Some(x)) => Some(VideoOut::new(p, cpu_hz, x.rate(), x.next_sample())),
        _ => None,
    };
    let mut player = Player::new(session);
    if let Some((_, events)) = replay {
        player.set_replay(events);
    }
    // Scripted keys count from the start, like --seconds (from the saving
    // run's end for a resumed one).
    player.schedule(press::events(&presses, cpu_hz, origin));
    player.schedule(joy::events(&joys, cpu_hz, origin));
    if let Some(p) = &args.record {
        let header = Header::of(player.session.m.config(), &name);
        player.set_recorder(recorder(p, &header)?);
    }
    let seconds = seconds(args, headless, replay_has_end)?;
    let cycle_limit = seconds.map_or(u64::MAX, |s| {
        origin.saturating_add((s * cpu_hz as f64).round() as u64)
    });
    Ok(Run {
        player,
        name,
        cpu_hz,
        cycle_limit,
        frame_limit: args.frames,
        seconds,
        stdin: stdin_keys,
        mixer,
        sound: Vec::new(),
        wav,
        video,
        failed: Vec::new(),
        check,
        bundle_out: args.check.bundle_out.clone(),
        bundle_written: None,
        ui_on_divergence: args.check.ui,
        _temp: temp,
    })
}

/// The record to replay (`--replay`), read whole.
fn read_replay(args: &RunArgs) -> Result<Option<Replay>, Error> {
    let Some(p) = &args.replay else {
        return Ok(None);
    };
    let f = crate::app::input_file::open_bounded(p, crate::app::input_file::RECORD, "a record")?;
    let r = record::read(BufReader::new(f)).map_err(|e| Error::bad(p.display(), e))?;
    Ok(Some(r))
}

/// The program's name (for messages) and bytes: the file named, or the
/// built-in replica.
fn read_program(args: &RunArgs) -> Result<(String, Vec<u8>), Error> {
    let (name, image) = match &args.program {
        None => (builtin::RUN_NAME.to_string(), builtin::REPLICA.to_vec()),
        Some(p) => {
            let (image, name) = program::read(p)?;
            (name, image)
        }
    };
    dos::Executable::parse(&image).map_err(|e| Error::bad(&name, e))?;
    Ok((name, image))
}

/// The machine: the options, else the replayed record's header, else the
/// defaults (an 8086; a 386 for the built-in replica, which needs 186+
/// instructions, and for `--check`, as for `tandem compare`). A record made on another machine is refused.
fn machine_config(
    args: &RunArgs,
    replay: Option<&Replay>,
    name: &str,
) -> Result<MachineConfig, Error> {
    let header = match (replay, &args.replay) {
        (Some((h, _)), Some(p)) => {
            let cpu: CpuModel = h.cpu.parse().map_err(|e| Error::bad(p.display(), e))?;
            Some((h, p, cpu))
        }
        _ => None,
    };
    // `--check` runs on the golden-master commands' CPU, as `compare` does.
    let default_cpu = if args.program.is_none() || args.check.check {
        GM_CPU
    } else {
        CpuModel::I8086
    };
    let opts = MachineOpts {
        cpu: args.machine.cpu.or(header.map(|h| h.2)),
        mhz: args.machine.mhz.or(header.map(|h| h.0.cpu_hz)),
        fpu: args.machine.fpu,
        sound: args.machine.sound,
        blaster: args.machine.blaster,
        ultrasnd: args.machine.ultrasnd,
        adlib: args.machine.adlib,
        no_joystick: args.machine.no_joystick,
        dos_layout: args.machine.dos_layout,
    };
    let mut config = opts.config(default_cpu);
    // A resumed state's machine is checked against the saved one (`start`).
    let resumed = args.load_state.is_some();
    if let Some(e) = opts.fpu_error(config.cpu_model).filter(|_| !resumed) {
        return Err(Error::bad("--fpu", e));
    }
    if let Some(e) = opts.card_error(default_cpu).filter(|_| !resumed) {
        return Err(Error::bad("--sound", e));
    }
    if let Some((h, p, _)) = header {
        // A version 2 record names its FPU: the replay builds that one
        // unless --fpu asks (and then it must be the same). A version 1
        // record names none: tandem fitted no FPU by default then.
        let recorded = h.fpu.as_deref().unwrap_or("none").parse::<hw::Fpu>();
        let recorded = recorded.map_err(|e| Error::bad(p.display(), e))?;
        if args.machine.fpu.is_none() {
            config.fpu = recorded;
        }
        // The replay fits the recorded sound cards; asking for others
        // would change the run.
        let m = &args.machine;
        let explicit = m.sound.is_some() || m.blaster.is_some() || m.ultrasnd.is_some() || m.adlib;
        let recorded_cards = (h.adlib, h.sb16, h.mpu401, h.gus);
        let asked = (config.adlib, config.sb16, config.mpu401, config.gus);
        if explicit && asked != recorded_cards {
            return Err(Error::bad(
                p.display(),
                format!(
                    "recorded with the sound cards {}, but --sound/--blaster/--ultrasnd ask for {}",
                    cards_named(recorded_cards),
                    cards_named(asked)
                ),
            ));
        }
        (config.adlib, config.sb16, config.mpu401, config.gus) = recorded_cards;
        // A record names its game port (version 3); older ones had none.
        if m.no_joystick && h.joystick {
            return Err(Error::bad(
                p.display(),
                "recorded with a game port, but --no-joystick removes it",
            ));
        }
        config.joystick = h.joystick;
        config.dos_layout = replay_layout(h, args.machine.dos_layout, p)?;
        let fpu_differs = recorded != config.fpu;
        if h.cpu != config.cpu_model.name() || h.cpu_hz != config.cpu_hz || fpu_differs {
            return Err(Error::bad(
                p.display(),
                format!(
                    "recorded on a {} at {} Hz with FPU {}, but this run is a {} at {} Hz with FPU {}",
                    h.cpu,
                    h.cpu_hz,
                    recorded.name(),
                    config.cpu_model.name(),
                    config.cpu_hz,
                    config.fpu.name()
                ),
            ));
        }
        if h.program != name {
            log::warn!("the record was made with {}, this run is {name}", h.program);
        }
    }
    Ok(config)
}

/// The DOS layout a replay runs with: the record's (a record that names
/// none was made on the default, msdos); `--dos-layout` may only repeat
/// it.
fn replay_layout(
    h: &Header,
    asked: Option<hw::DosLayout>,
    p: &Path,
) -> Result<hw::DosLayout, Error> {
    let recorded = match h.dos_layout.as_deref() {
        None => hw::DosLayout::default(),
        Some(name) => {
            crate::app::options::parse_dos_layout(name).map_err(|e| Error::bad(p.display(), e))?
        }
    };
    match asked {
        Some(l) if l != recorded => Err(Error::bad(
            p.display(),
            format!(
                "recorded with --dos-layout {}, but this run asks for {}",
                recorded.name(),
                l.name()
            ),
        )),
        _ => Ok(recorded),
    }
}

/// Drive C:'s folder: `--mount`, the program's folder, or a fresh empty
/// temporary folder for the built-in replica (removed at the end).
fn mount(args: &RunArgs) -> Result<(PathBuf, Option<TempDir>), Error> {
    Ok(match (&args.dos.mount, &args.program) {
        (Some(d), _) => (d.clone(), None),
        (None, Some(p)) => (program::program_folder(p), None),
        (None, None) => {
            let t = TempDir::new("replica").map_err(|e| Error::file(&std::env::temp_dir(), e))?;
            (t.path().to_path_buf(), Some(t))
        }
    })
}

/// The session: DOS on drive C: at `mount` with the program loaded, or the
/// machine of `--load-state`. Returns it and the cycle its run's time
/// counts from.
fn start(
    args: &RunArgs,
    config: MachineConfig,
    mount: &Path,
    name: &str,
    image: &[u8],
) -> Result<(Session, u64), Error> {
    let cfg = args.dos.config(mount.to_path_buf());
    if let Some(file) = &args.load_state {
        let snap = crate::app::savestate::load(file, mount)?;
        // The state is a whole machine: its CPU and clock cannot change
        // under a running program, so options that ask for others are
        // refused rather than ignored.
        let saved = snap.machine.config();
        let asked_cpu = args.machine.cpu.filter(|c| *c != saved.cpu_model);
        let asked_hz = args.machine.mhz.filter(|hz| *hz != saved.cpu_hz);
        // The FPU --fpu would give the saved machine's CPU.
        let on_saved_cpu = MachineOpts {
            cpu: Some(saved.cpu_model),
            mhz: None,
            fpu: args.machine.fpu,
            sound: None,
            blaster: None,
            ultrasnd: None,
            adlib: saved.adlib,
            no_joystick: !saved.joystick,
            dos_layout: None,
        };
        let asked_fpu = args
            .machine
            .fpu
            .filter(|_| on_saved_cpu.config(saved.cpu_model).fpu != saved.fpu);
        if asked_cpu.is_some() || asked_hz.is_some() || asked_fpu.is_some() {
            return Err(Error::bad(
                file.display(),
                format!(
                    "the state is a {} at {} Hz with FPU {}; --cpu, --mhz and --fpu cannot change a saved machine (leave them out, or give the same)",
                    saved.cpu_model.name(),
                    saved.cpu_hz,
                    saved.fpu.name()
                ),
            ));
        }
        // The layout is the saved machine's: it was laid out at its start.
        if let Some(l) = args.machine.dos_layout.filter(|l| *l != saved.dos_layout) {
            return Err(Error::bad(
                file.display(),
                format!(
                    "the state was started with --dos-layout {}; --dos-layout {} cannot change it",
                    saved.dos_layout.name(),
                    l.name()
                ),
            ));
        }
        let origin = snap.meta.origin_cycle;
        let (mut machine, mut dos) = (snap.machine, snap.dos);
        dos.attach_cdroms(&mut machine, &cfg.cdroms)?;
        return Ok((Session::new(machine, dos), origin));
    }
    let session = program::boot(
        config,
        cfg,
        image,
        name,
        args.program.as_deref(),
        &args.args,
    )?;
    Ok((session, 0))
}

/// The sound cards of a machine: AdLib, Sound Blaster 16, MPU-401, GUS.
type Cards = (
    bool,
    Option<hw::Sb16Config>,
    Option<hw::mpu401::Mpu401Config>,
    Option<hw::GusConfig>,
);

/// Sound cards for a message: "adlib, sb16 (A220 I5 D1 H5 T6), mpu401
/// (330h), gus (240,3,3,11,11)" or "none".
fn cards_named((adlib, sb16, mpu, gus): Cards) -> String {
    let mut names = Vec::new();
    if adlib {
        names.push("adlib".to_string());
    }
    if let Some(c) = sb16 {
        names.push(format!("sb16 ({})", c.blaster(None)));
    }
    if let Some(c) = mpu {
        names.push(format!("mpu401 ({:X}h)", c.base));
    }
    if let Some(c) = gus {
        names.push(format!("gus ({})", c.ultrasnd()));
    }
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// The recorder of `--record FILE` with its header.
fn recorder(p: &Path, header: &Header) -> Result<Recorder, Error> {
    let f = std::fs::File::create(p).map_err(|e| Error::file(p, e))?;
    Recorder::new(Box::new(std::io::BufWriter::new(f)), header).map_err(|e| Error::file(p, e))
}

/// The run's time limit in emulated seconds: `--seconds`, or a minute for
/// a headless run that nothing else bounds.
fn seconds(args: &RunArgs, headless: bool, replay_has_end: bool) -> Result<Option<f64>, Error> {
    Ok(match args.seconds {
        Some(s) if !(s.is_finite() && s > 0.0) => {
            return Err(Error::bad(
                "--seconds",
                format!("{} is not a positive time", seconds_text(s)),
            ))
        }
        Some(s) if s < MIN_SECONDS => {
            return Err(Error::bad(
                "--seconds",
                format!(
                    "{} is shorter than the shortest run, {MIN_SECONDS} s",
                    seconds_text(s)
                ),
            ))
        }
        Some(s) => Some(s),
        None if headless && args.frames.is_none() && !replay_has_end => {
            Some(HEADLESS_DEFAULT_SECONDS)
        }
        None => None,
    })
}

/// Checks, before a run starts, that `path` can be written at its end: a
/// run is not spent only to find its output cannot be kept. A file this
/// check creates is removed again.
fn check_writable(what: &str, path: &Path) -> Result<(), Error> {
    let what = format!("{what} {}", path.display());
    if path.is_dir() {
        return Err(Error::bad(what, "is a directory"));
    }
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| Error::bad(what, e))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}
