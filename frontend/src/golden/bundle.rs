//! The reproduction bundle of a divergence (docs/check.md): a folder
//! holding the save state of the last checkpoint, the input from it on,
//! the check's tape up to it, the reference program, the profile and the
//! report. `tandem compare --bundle DIR` replays it headless to the same
//! divergence.

use std::io::BufReader;
use std::path::{Path, PathBuf};

use dos::Exit;
use models::profile::PARAM_SLOTS;
use models::Segments;
use serde::{Deserialize, Serialize};

use super::check::{baseline, Check, Checked, Checkpoint, Setup};
use super::profile::{Chosen, Reference, Source};
use super::report::Report;
use super::tape::Tape;
use super::watch::{Watch, Writers};
use crate::app::error::Error;
use crate::app::input_file;
use crate::app::tempdir::TempDir;
use crate::input::player::Slice;
use crate::input::record::{self, Event, Header};

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
    /// Drive C: of the run, for the reader's information only: a bundle
    /// is data and never chooses drive C: of its replay.
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
    /// Who last wrote each of the parameter table's slots at the
    /// checkpoint.
    pub writers: Writers,
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

/// Writes the bundle of `report` into folder `dir`: the check's last
/// checkpoint, `events` (the input since it), on machine `config`.
pub fn write(
    c: &Check,
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
    let profile = match &s.chosen.source {
        Source::Builtin(n) => n.clone(),
        Source::File { text, .. } => {
            put(dir, "profile.toml", text.as_bytes())?;
            "profile.toml".into()
        }
    };
    let segs = c.watch().segs();
    let m = Manifest {
        tandem: "check-bundle".into(),
        version: VERSION,
        program: s.program.clone(),
        profile,
        mount: s.mount.clone(),
        code_seg: segs.code,
        data_seg: segs.data,
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
    put(dir, "reference.bin", &s.reference.image)?;
    // The record format of `--record` (input::record).
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

/// A bundle's file: its bytes, or an error naming it. The state is bound
/// as a save state, the other parts by [`input_file::BUNDLE_PART`].
fn get(dir: &Path, name: &str) -> Result<Vec<u8>, Error> {
    let (limit, what) = match name {
        "state.bin" => (input_file::SAVE_STATE, "a save state"),
        _ => (input_file::BUNDLE_PART, "a bundle's part"),
    };
    input_file::read_bounded(&dir.join(name), limit, what)
}

/// A bundle read back and ready to replay.
struct Bundle {
    check: Check,
    events: Vec<Event>,
    recorded: Report,
    manifest: Manifest,
    _temp: Option<TempDir>,
}

/// Reads and checks `bundle.json` of the bundle in `dir`.
fn manifest(dir: &Path) -> Result<Manifest, Error> {
    if !dir.is_dir() {
        return Err(Error::bad(
            dir.display(),
            "is not a bundle folder (tandem run --check writes one)",
        ));
    }
    let named = dir.join("bundle.json").display().to_string();
    let m: Manifest =
        serde_json::from_slice(&get(dir, "bundle.json")?).map_err(|e| Error::bad(&named, e))?;
    if m.tandem != "check-bundle" || m.version != VERSION {
        return Err(Error::bad(
            &named,
            format!(
                "not a check bundle of version {VERSION} (tandem {:?}, version {})",
                m.tandem, m.version
            ),
        ));
    }
    if m.writers.len() != PARAM_SLOTS {
        return Err(Error::bad(
            &named,
            format!("{} writers, not {PARAM_SLOTS}", m.writers.len()),
        ));
    }
    Ok(m)
}

/// The profile a bundle names: its `profile.toml`, or a built-in one.
fn profile(dir: &Path, m: &Manifest) -> Result<Chosen, Error> {
    let named = |f: &str| dir.join(f);
    if m.profile == "profile.toml" {
        let path = named("profile.toml");
        let text = String::from_utf8(get(dir, "profile.toml")?)
            .map_err(|_| Error::bad(path.display(), "is not UTF-8"))?;
        Chosen::from_toml(text, path)
    } else {
        Chosen::open(&m.profile).map_err(|e| Error::bad(named("bundle.json").display(), e))
    }
}

/// Reads and checks the bundle in `dir`; every error names the file and
/// what is wrong with it.
fn load(dir: &Path, mount: Option<&Path>) -> Result<Bundle, Error> {
    let named = |f: &str| dir.join(f).display().to_string();
    let m = manifest(dir)?;
    let recorded: Report = serde_json::from_slice(&get(dir, "report.json")?)
        .map_err(|e| Error::bad(named("report.json"), e))?;
    let chosen = profile(dir, &m)?;
    let state = get(dir, "state.bin")?;
    let (mount, temp) = mount_for(mount)?;
    let snap = crate::app::savestate::load_bytes(&state, &mount)
        .map_err(|e| Error::bad(named("state.bin"), e))?;
    let config = snap.machine.config().clone();
    drop(snap);
    let reference = Reference::choose(
        Some(&dir.join("reference.bin")),
        &chosen.profile,
        &[],
        "",
        &config,
    )?;
    let segs = Segments {
        code: m.code_seg,
        data: m.data_seg,
        stack: m.data_seg,
    };
    let watch = Watch::new(chosen.profile.clone(), segs, baseline(&chosen, &reference))?;
    let setup = Setup {
        chosen,
        reference,
        program: m.program.clone(),
        mount,
    };
    let mut check = Check::new(setup, watch, 0);
    prime(dir, &m, &mut check)?;
    check.checkpoint = Some(Checkpoint {
        state,
        frames: m.checkpoint_frames,
        video_frames: m.checkpoint_video_frames,
        cycle: m.checkpoint_cycle,
        writers: m.writers.clone(),
    });
    Ok(Bundle {
        check,
        events: events(dir)?,
        recorded,
        manifest: m,
        _temp: temp,
    })
}

/// Rebuilds the check's state at the checkpoint from the bundle's tape.
fn prime(dir: &Path, m: &Manifest, check: &mut Check) -> Result<(), Error> {
    let named = dir.join("tape.bin").display().to_string();
    let frames = Tape::decode(&get(dir, "tape.bin")?).map_err(|e| Error::bad(&named, e))?;
    if frames.len() as u64 != m.checkpoint_frames {
        return Err(Error::bad(
            &named,
            format!(
                "{} frames, but the checkpoint is at frame {}",
                frames.len(),
                m.checkpoint_frames
            ),
        ));
    }
    check.prime(&frames).map_err(|d| {
        Error::bad(
            &named,
            format!("the tape diverges at frame {}: {}", d.frame, d.what),
        )
    })?;
    check.set_writers(m.writers.clone());
    Ok(())
}

/// The input since the checkpoint (`input.jsonl`).
fn events(dir: &Path) -> Result<Vec<Event>, Error> {
    let named = dir.join("input.jsonl").display().to_string();
    let f = input_file::open_bounded(&dir.join("input.jsonl"), input_file::RECORD, "a record")?;
    let (_, events) = record::read(BufReader::new(f)).map_err(|e| Error::bad(&named, e))?;
    Ok(events)
}

/// Drive C: of the replay: the user's `--mount`, else a fresh private
/// temporary folder (a random name, refused if it exists). Never the
/// bundle's `mount`: a bundle someone sent would choose which of the
/// user's folders its state reads and writes.
fn mount_for(mount: Option<&Path>) -> Result<(PathBuf, Option<TempDir>), Error> {
    if let Some(m) = mount {
        if !m.is_dir() {
            return Err(Error::bad(m.display(), "is not a folder (--mount)"));
        }
        return Ok((m.to_path_buf(), None));
    }
    let t = TempDir::new("bundle").map_err(|e| Error::file(&std::env::temp_dir(), e))?;
    Ok((t.path().to_path_buf(), Some(t)))
}

/// Replays a loaded bundle to its divergence.
fn reproduce(b: &mut Bundle) -> Result<Report, Error> {
    let cp = b
        .check
        .checkpoint
        .clone()
        .ok_or_else(|| Error::Input("no checkpoint".into()))?;
    let mut p = b.check.restore(&cp)?;
    b.check.read_step(&p.session);
    p.set_replay(b.events.clone());
    let end = b.manifest.divergence_cycle.saturating_add(1);
    loop {
        match b.check.run_frame(&mut p, end) {
            Checked::Diverged(report) => return Ok(*report),
            Checked::Slice(Slice::Exit(Exit::Frame)) => {}
            Checked::Slice(other) => {
                return Err(Error::EndedEarly(format!(
                    "no divergence by cycle {} ({other:?}, after {} frames)",
                    b.manifest.divergence_cycle,
                    b.check.frames()
                )))
            }
        }
    }
}

/// A bundle replayed: the report it gave and the one it recorded.
pub struct Replayed {
    /// The report of this replay.
    pub report: Report,
    /// The bundle's `report.json`.
    pub recorded: Report,
}

/// Why a bundle's replay gave no report.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The bundle cannot be read (a file missing, damaged or inconsistent).
    #[error("{0}")]
    Bad(Error),
    /// It was read, but its replay did not reach a divergence.
    #[error("the bundle {dir} did not reproduce its divergence: {why}")]
    NotReproduced {
        /// The bundle.
        dir: String,
        /// What the replay did instead.
        why: Error,
    },
}

/// `tandem compare --bundle DIR [--mount M]`: replays the bundle headless
/// to its divergence, drive C: at `mount` or a fresh temporary folder.
pub fn replay(dir: &Path, mount: Option<&Path>) -> Result<Replayed, ReplayError> {
    let mut b = load(dir, mount).map_err(ReplayError::Bad)?;
    let report = reproduce(&mut b).map_err(|why| ReplayError::NotReproduced {
        dir: dir.display().to_string(),
        why,
    })?;
    Ok(Replayed {
        report,
        recorded: b.recorded,
    })
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
