//! The reproduction bundle of a divergence (docs/check.md): a folder
//! holding the save state of the last checkpoint, the input from it on,
//! the checker's tape up to it, the reference program, the profile and the
//! report. `tandem compare --bundle DIR` replays it headless to the same
//! divergence.

use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use dos::Exit;
use models::Placement;
use serde::{Deserialize, Serialize};

use super::report::Report;
use super::{tape::Tape, Checker, Checkpoint, ProfileSource, Setup, Writer};
use crate::error::Error;
use crate::play::record::{self, Event, Header};
use crate::session::Loaded;

/// The bundle format this build writes.
pub const VERSION: u32 = 1;

/// `bundle.json`: what the other files are and where the run was.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Always "check-bundle".
    pub tandem: String,
    /// [`VERSION`].
    pub version: u32,
    /// The program (for messages).
    pub program: String,
    /// A built-in profile's name, or "profile.toml" for the file beside.
    pub profile: String,
    /// Drive C: of the run (used when it still exists).
    pub mount: PathBuf,
    /// The program's code segment.
    pub code_seg: u16,
    /// The program's data group.
    pub data_seg: u16,
    /// Frame points checked at the checkpoint.
    pub checkpoint_frames: u64,
    /// Video frames completed at the checkpoint.
    pub checkpoint_video_frames: u64,
    /// The checkpoint's cycle.
    pub checkpoint_cycle: u64,
    /// Who last wrote each of the 256 slots at the checkpoint.
    pub writers: Vec<Option<Writer>>,
    /// The cycle of the divergent frame point.
    pub divergence_cycle: u64,
}

/// Where a bundle goes by default: `tandem-check-NAME-fFRAME` in the
/// current folder.
pub fn default_path(program: &str, frame: u64) -> PathBuf {
    let stem = Path::new(program)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    // "replica (built-in)" is the built-in replica.
    let stem: String = stem
        .split(' ')
        .next()
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    PathBuf::from(format!("tandem-check-{stem}-f{frame}"))
}

/// Writes the bundle of `report` into folder `dir`: the checker's last
/// checkpoint, `events` (the input since it), on machine `config`.
pub fn write(
    c: &Checker,
    report: &Report,
    events: &[Event],
    config: &hw::MachineConfig,
    dir: &Path,
) -> Result<(), Error> {
    let cp = c
        .checkpoint
        .as_ref()
        .ok_or_else(|| Error::Input("no checkpoint was taken".into()))?;
    std::fs::create_dir_all(dir).map_err(|e| Error::file(dir, e))?;
    let s = &c.setup;
    let profile = match &s.profile_source {
        ProfileSource::Builtin(n) => n.clone(),
        ProfileSource::Toml(text) => {
            put(dir, "profile.toml", text.as_bytes())?;
            "profile.toml".into()
        }
    };
    let m = Manifest {
        tandem: "check-bundle".into(),
        version: VERSION,
        program: s.program.clone(),
        profile,
        mount: s.mount.clone(),
        code_seg: s.at.code_seg,
        data_seg: s.at.data_seg,
        checkpoint_frames: cp.frames,
        checkpoint_video_frames: cp.video_frames,
        checkpoint_cycle: cp.cycle,
        writers: cp.writers.clone(),
        divergence_cycle: report.cycle,
    };
    put(dir, "bundle.json", pretty(&m).as_bytes())?;
    put(dir, "report.json", pretty(report).as_bytes())?;
    put(dir, "state.bin", &cp.state)?;
    put(dir, "tape.bin", &c.tape.encode(cp.frames as usize))?;
    put(dir, "reference.bin", &s.reference_image)?;
    // The record format of `--record` (play::record).
    let mut input = serde_json::to_string(&Header::of(config, &s.program)).unwrap_or_default();
    input.push('\n');
    for e in events {
        input.push_str(&serde_json::to_string(e).unwrap_or_default());
        input.push('\n');
    }
    put(dir, "input.jsonl", input.as_bytes())
}

/// Pretty JSON ending in a newline.
fn pretty<T: Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

fn put(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), Error> {
    let p = dir.join(name);
    std::fs::write(&p, bytes).map_err(|e| Error::file(&p, e))
}

/// A bundle's file: its bytes, or an error naming it.
fn get(dir: &Path, name: &str) -> Result<Vec<u8>, Error> {
    let p = dir.join(name);
    std::fs::read(&p).map_err(|e| Error::bad(p.display(), format!("cannot be read ({e})")))
}

/// An empty temporary folder removed when dropped (drive C: of a replay
/// whose run's folder is gone).
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A bundle read back and ready to replay.
struct Bundle {
    checker: Checker,
    events: Vec<Event>,
    recorded: Report,
    manifest: Manifest,
    _temp: Option<TempDir>,
}

/// Reads and checks the bundle in `dir`; every error names the file and
/// what is wrong with it.
fn load(dir: &Path) -> Result<Bundle, Error> {
    if !dir.is_dir() {
        return Err(Error::bad(
            dir.display(),
            "is not a bundle folder (tandem run --check writes one)",
        ));
    }
    let named = |f: &str| dir.join(f).display().to_string();
    let m: Manifest = serde_json::from_slice(&get(dir, "bundle.json")?)
        .map_err(|e| Error::bad(named("bundle.json"), e))?;
    if m.tandem != "check-bundle" || m.version != VERSION {
        return Err(Error::bad(
            named("bundle.json"),
            format!(
                "not a check bundle of version {VERSION} (tandem {:?}, version {})",
                m.tandem, m.version
            ),
        ));
    }
    if m.writers.len() != 256 {
        return Err(Error::bad(
            named("bundle.json"),
            format!("{} writers, not 256", m.writers.len()),
        ));
    }
    let recorded: Report = serde_json::from_slice(&get(dir, "report.json")?)
        .map_err(|e| Error::bad(named("report.json"), e))?;
    let (profile_source, profile) = if m.profile == "profile.toml" {
        let text = String::from_utf8(get(dir, "profile.toml")?)
            .map_err(|_| Error::bad(named("profile.toml"), "is not UTF-8"))?;
        let p = models::Profile::parse(&text).map_err(|e| Error::bad(named("profile.toml"), e))?;
        (ProfileSource::Toml(text), p)
    } else {
        let p =
            crate::session::profile(&m.profile).map_err(|e| Error::bad(named("bundle.json"), e))?;
        (ProfileSource::Builtin(m.profile.clone()), p)
    };
    let state = get(dir, "state.bin")?;
    let (mount, temp) = mount_for(&m)?;
    let snap = crate::savestate::load_bytes(&state, &mount)
        .map_err(|e| Error::bad(named("state.bin"), e))?;
    let config = snap.machine.config().clone();
    drop(snap);
    let reference_image = get(dir, "reference.bin")?;
    let reference = Loaded::start(
        &reference_image,
        &named("reference.bin"),
        None,
        &config,
        b"",
    )?;
    let ref_at = reference.place(&profile, &named("reference.bin"))?;
    let setup = Setup {
        profile,
        profile_source,
        reference_image,
        reference,
        ref_at,
        at: Placement {
            code_seg: m.code_seg,
            data_seg: m.data_seg,
        },
        program: m.program.clone(),
        mount,
    };
    let mut checker = Checker::new(setup, 0, None);
    let frames =
        Tape::decode(&get(dir, "tape.bin")?).map_err(|e| Error::bad(named("tape.bin"), e))?;
    if frames.len() as u64 != m.checkpoint_frames {
        return Err(Error::bad(
            named("tape.bin"),
            format!(
                "{} frames, but the checkpoint is at frame {}",
                frames.len(),
                m.checkpoint_frames
            ),
        ));
    }
    checker
        .prime(&frames)
        .map_err(|e| Error::bad(named("tape.bin"), e))?;
    checker.set_writers(m.writers.clone());
    let f = std::fs::File::open(dir.join("input.jsonl"))
        .map_err(|e| Error::bad(named("input.jsonl"), format!("cannot be read ({e})")))?;
    let (_, events) =
        record::read(BufReader::new(f)).map_err(|e| Error::bad(named("input.jsonl"), e))?;
    checker.checkpoint = Some(Checkpoint {
        state,
        frames: m.checkpoint_frames,
        video_frames: m.checkpoint_video_frames,
        cycle: m.checkpoint_cycle,
        writers: m.writers.clone(),
    });
    Ok(Bundle {
        checker,
        events,
        recorded,
        manifest: m,
        _temp: temp,
    })
}

/// Drive C: of the replay: the run's folder when it still exists, else a
/// fresh empty one.
fn mount_for(m: &Manifest) -> Result<(PathBuf, Option<TempDir>), Error> {
    if m.mount.is_dir() {
        return Ok((m.mount.clone(), None));
    }
    let d = std::env::temp_dir().join(format!("tandem-bundle-{}", std::process::id()));
    std::fs::create_dir_all(&d).map_err(|e| Error::file(&d, e))?;
    Ok((d.clone(), Some(TempDir(d))))
}

/// Replays a loaded bundle to its divergence.
fn reproduce(b: &mut Bundle) -> Result<Report, Error> {
    let cp = b
        .checker
        .checkpoint
        .clone()
        .ok_or_else(|| Error::Input("no checkpoint".into()))?;
    let mut p = b.checker.restore(&cp)?;
    b.checker.read_step(&p.session.m);
    p.set_replay(b.events.clone());
    let end = b.manifest.divergence_cycle.saturating_add(1);
    loop {
        let exit = p.run_frame(end);
        if let Some(d) = b.checker.after(&mut p.session, &exit) {
            return Ok(b.checker.report(&p.session, &d, &b.events));
        }
        match exit {
            Exit::HookStop | Exit::Frame => {}
            other => {
                return Err(Error::EndedEarly(format!(
                    "no divergence by cycle {} ({other:?}, after {} frames)",
                    b.manifest.divergence_cycle,
                    b.checker.frames()
                )))
            }
        }
    }
}

/// `tandem compare --bundle DIR`: replays the bundle headless and prints
/// its report (exit 1), or says why it cannot (exit 2 for a bad bundle).
pub fn replay(dir: &Path, json: bool) -> ExitCode {
    let mut b = match load(dir) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("tandem compare: error: {e}");
            return ExitCode::from(crate::exit::BAD_INPUT);
        }
    };
    let report = match reproduce(&mut b) {
        Ok(r) => r,
        Err(e) => {
            eprintln!(
                "tandem compare: the bundle {} did not reproduce its divergence: {e}",
                dir.display()
            );
            return ExitCode::from(crate::exit::CHECK_FAILED);
        }
    };
    if json {
        println!("{}", serde_json::to_string(&report).unwrap_or_default());
    } else {
        print!("{}", report.text());
        println!("1 divergence");
    }
    if report == b.recorded {
        eprintln!("tandem compare: the same report as the bundle's report.json");
    } else {
        eprintln!("tandem compare: this report differs from the bundle's report.json");
    }
    ExitCode::from(crate::exit::CHECK_FAILED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_paths_name_the_program_and_the_frame() {
        let p = default_path("/games/fly/GAME.EXE", 7);
        assert_eq!(p, PathBuf::from("tandem-check-GAME-f7"));
        let p = default_path("replica (built-in)", 49);
        assert_eq!(p, PathBuf::from("tandem-check-replica-f49"));
    }
}
