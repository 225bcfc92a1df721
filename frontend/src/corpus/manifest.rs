//! The corpus manifest (`tests/corpus/corpus.toml`): one `[[program]]`
//! table per real DOS program, saying how to run it and what the run must
//! end in.
//!
//! ```toml
//! [[program]]
//! name = "lgengine"          # also the golden's and the DOSBox shot's name
//! folder = "lgengine"        # in the corpus folder; copied before the run
//! program = "PLAY.EXE"       # in that folder
//! args = []                  # its command line
//! cpu = "386"                # 8086, 286, 386 or 486
//! mhz = 33                   # optional; default per CPU as for `tandem run`
//! seconds = 16               # emulated seconds
//! presses = ["3:y", "4:1"]   # SECONDS:KEY, as `tandem run --press`
//! outcome = "running"        # or "exited N" (DOS return code N), "stopped"
//! install = "LGENGINE"       # optional: drive C:'s folder the copy goes in
//! text = ["AdLib card"]      # optional: text the program must have written
//! music_from = 12.0          # optional: from this second its sound is music
//! sound = "gus"              # optional: the cards, as `tandem run --sound`
//! dosbox = "2ndreal"         # optional: the DOSBox shot's name if not NAME
//! dos_layout = "dosbox"      # optional: as `tandem run --dos-layout`
//! ```

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use dos::Exit;

use crate::app::error::Error;
use crate::play::run::Outcome;

/// The whole manifest.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The programs, in the order they are reported.
    #[serde(rename = "program")]
    pub programs: Vec<Entry>,
}

/// One program and how to run it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Its name: the golden is `golden/NAME.png`, the DOSBox screenshot
    /// `NAME.dosbox.png` in the corpus folder.
    pub name: String,
    /// Its folder in the corpus folder.
    pub folder: String,
    /// The program file in that folder.
    pub program: String,
    /// Its command line.
    #[serde(default)]
    pub args: Vec<String>,
    /// CPU model.
    pub cpu: String,
    /// CPU clock in MHz (default: the CPU's own, as for `tandem run`).
    #[serde(default)]
    pub mhz: Option<f64>,
    /// Emulated seconds to run.
    pub seconds: f64,
    /// Scripted keys, `SECONDS:KEY`.
    #[serde(default)]
    pub presses: Vec<String>,
    /// How the run must end.
    pub outcome: Expected,
    /// The folder of drive C: the program is installed in, as on a PC's
    /// hard disk: the copy goes to C:\INSTALL and the program starts
    /// there (its current directory). Without it, the copy is drive C:
    /// itself (whose root has no `.` and `..` entries, as MS-DOS's).
    #[serde(default)]
    pub install: Option<String>,
    /// Text the program must have written (through DOS or the BIOS), each
    /// string somewhere in it.
    #[serde(default)]
    pub text: Vec<String>,
    /// From this emulated second on, the run's sound (every device mixed,
    /// as `--wav` writes it) must be music: see `corpus::sound`.
    #[serde(default)]
    pub music_from: Option<f64>,
    /// The sound cards, as `tandem run --sound` takes them (default: its
    /// default set).
    #[serde(default)]
    pub sound: Option<String>,
    /// The name of the DOSBox screenshot (`NAME.dosbox.png`) when it is not
    /// the entry's own, for two runs of one program with other settings.
    #[serde(default)]
    pub dosbox: Option<String>,
    /// How DOS hands over the program, as `tandem run --dos-layout` takes
    /// it (default: its default, msdos).
    #[serde(default)]
    pub dos_layout: Option<String>,
}

/// How a corpus run must end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum Expected {
    /// Still running when the time is up.
    Running,
    /// Terminated with this return code.
    Exited(u8),
    /// The emulation could not go on (recorded so that a known failure is
    /// visible in the manifest, not hidden).
    Stopped,
}

/// An `outcome` value that is none of the three.
#[derive(Debug, thiserror::Error)]
#[error("outcome '{0}': expected running, exited N or stopped")]
pub struct BadOutcome(String);

impl TryFrom<String> for Expected {
    type Error = BadOutcome;
    fn try_from(s: String) -> Result<Expected, BadOutcome> {
        let bad = || BadOutcome(s.clone());
        let mut w = s.split_whitespace();
        let e = match (w.next(), w.next(), w.next()) {
            (Some("running"), None, None) => Expected::Running,
            (Some("stopped"), None, None) => Expected::Stopped,
            (Some("exited"), Some(n), None) => Expected::Exited(n.parse().map_err(|_| bad())?),
            _ => return Err(bad()),
        };
        Ok(e)
    }
}

impl std::fmt::Display for Expected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expected::Running => write!(f, "running"),
            Expected::Exited(n) => write!(f, "exited {n}"),
            Expected::Stopped => write!(f, "stopped"),
        }
    }
}

impl Expected {
    /// Whether the run's `outcome` is this one.
    pub fn matches(&self, outcome: &Outcome) -> bool {
        Expected::of(outcome).as_ref() == Some(self)
    }
}

impl Expected {
    /// The expectation a run's `outcome` meets (None for the ways a
    /// corpus run cannot end: a frame limit, a replay's end, a window).
    pub fn of(outcome: &Outcome) -> Option<Expected> {
        match outcome {
            Outcome::Ended(Exit::Limit) => Some(Expected::Running),
            Outcome::Ended(Exit::Exited(n)) => Some(Expected::Exited(*n)),
            Outcome::Ended(Exit::Stopped(_)) => Some(Expected::Stopped),
            _ => None,
        }
    }
}

/// The manifest's text with the `outcome` of program `name` set to `to`,
/// everything else (comments, order) as it was.
pub fn set_outcome(text: &str, name: &str, to: Expected) -> Result<String, Error> {
    let value = |line: &str, key: &str| -> Option<String> {
        let t: toml::Table = toml::from_str(line).ok()?;
        t.get(key)?.as_str().map(str::to_string)
    };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // Each block runs from a [[program]] line to the next.
    let starts: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.trim() == "[[program]]")
        .map(|(i, _)| i)
        .collect();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(lines.len());
        let block = &lines[start..end];
        if !block
            .iter()
            .any(|l| value(l, "name").as_deref() == Some(name))
        {
            continue;
        }
        let Some(at) = block.iter().position(|l| value(l, "outcome").is_some()) else {
            break;
        };
        let line = block[at];
        let indent = &line[..line.len() - line.trim_start().len()];
        let mut out = String::new();
        for (i, l) in lines.iter().enumerate() {
            if i == start + at {
                out.push_str(&format!("{indent}outcome = \"{to}\"\n"));
            } else {
                out.push_str(l);
            }
        }
        return Ok(out);
    }
    Err(Error::Input(format!(
        "no outcome line for program '{name}'"
    )))
}

/// The manifest's words for a run's outcome.
pub fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Ended(Exit::Limit) => "running".into(),
        Outcome::Ended(Exit::Exited(n)) => format!("exited {n}"),
        Outcome::Ended(Exit::Stopped(why)) => format!("stopped ({why})"),
        other => format!("{other:?}"),
    }
}

impl Entry {
    /// The stem of its DOSBox screenshot: [`Entry::dosbox`] or its name.
    pub fn dosbox_name(&self) -> &str {
        self.dosbox.as_deref().unwrap_or(&self.name)
    }

    /// Where the copy of the entry's folder goes when `drive` is drive C:.
    pub fn install_dir(&self, drive: &Path) -> PathBuf {
        match &self.install {
            Some(d) => drive.join(d),
            None => drive.to_path_buf(),
        }
    }

    /// The `tandem run` command line of this entry, `drive` being the
    /// folder that is drive C: (holding the copy of its folder as
    /// [`Entry::install_dir`] says), writing its sound to `wav` if given.
    pub fn run_line(&self, drive: &Path, wav: Option<&Path>) -> Vec<String> {
        let mut v: Vec<String> = vec!["--headless".into(), "--cpu".into(), self.cpu.clone()];
        if self.install.is_some() {
            v.extend(["--mount".into(), drive.display().to_string()]);
        }
        if let Some(w) = wav {
            v.extend(["--wav".into(), w.display().to_string()]);
        }
        let program = self.install_dir(drive).join(&self.program);
        if let Some(m) = self.mhz {
            v.extend(["--mhz".into(), format!("{m}")]);
        }
        v.extend(["--seconds".into(), format!("{}", self.seconds)]);
        if let Some(cards) = &self.sound {
            v.extend(["--sound".into(), cards.clone()]);
        }
        if let Some(l) = &self.dos_layout {
            v.extend(["--dos-layout".into(), l.clone()]);
        }
        for p in &self.presses {
            v.extend(["--press".into(), p.clone()]);
        }
        v.push(program.display().to_string());
        v.extend(self.args.iter().cloned());
        v
    }
}

/// Reads and checks the manifest at `path`; the error is one line naming
/// the file and the entry.
pub fn load(path: &Path) -> Result<Manifest, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::file(path, e))?;
    parse(&text).map_err(|e| Error::bad(path.display(), e))
}

/// Parses and checks a manifest's text.
pub fn parse(text: &str) -> Result<Manifest, Error> {
    let m: Manifest = toml::from_str(text).map_err(|e| e.message().to_string())?;
    let mut names = HashSet::new();
    for e in &m.programs {
        let at = |msg: String| Error::Input(format!("program '{}': {msg}", e.name));
        if e.name.is_empty()
            || !e
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(at("the name must be letters, digits, - or _".into()));
        }
        if !names.insert(e.name.as_str()) {
            return Err(at("named twice".into()));
        }
        e.cpu
            .parse::<emu::CpuModel>()
            .map_err(|m| at(m.to_string()))?;
        if let Some(m) = e.mhz {
            crate::app::options::parse_mhz(&format!("{m}")).map_err(|e| at(e.to_string()))?;
        }
        if !(e.seconds.is_finite() && e.seconds > 0.0) {
            return Err(at(format!(
                "seconds = {} is not a positive time",
                e.seconds
            )));
        }
        crate::input::press::parse_all(&e.presses).map_err(|e| at(e.to_string()))?;
        if let Some(cards) = &e.sound {
            crate::app::options::parse_sound(cards).map_err(|e| at(e.to_string()))?;
        }
        if let Some(l) = &e.dos_layout {
            crate::app::options::parse_dos_layout(l).map_err(|e| at(e.to_string()))?;
        }
        if let Some(from) = e.music_from {
            if !(from >= 0.0 && from < e.seconds) {
                return Err(at(format!(
                    "music_from = {from} is not a time within the run's {} s",
                    e.seconds
                )));
            }
        }
        if let Some(d) = &e.install {
            if d.is_empty() || d.contains(['/', '\\', ':']) || d == "." || d == ".." {
                return Err(at(format!("install '{d}' must be one folder name")));
            }
        }
        for (what, p) in [("folder", &e.folder), ("program", &e.program)] {
            if p.is_empty() || Path::new(p).is_absolute() || p.split(['/', '\\']).any(|c| c == "..")
            {
                return Err(at(format!(
                    "{what} '{p}' must be a relative path inside the corpus"
                )));
            }
        }
    }
    if m.programs.is_empty() {
        return Err("no [[program]] in the manifest".into());
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = r#"
[[program]]
name = "x"
folder = "x"
program = "X.COM"
cpu = "286"
seconds = 2.5
presses = ["1:space"]
outcome = "exited 3"
"#;

    #[test]
    fn parses_and_builds_the_run_line() {
        let m = parse(ONE).expect("parses");
        let e = &m.programs[0];
        assert_eq!(e.outcome, Expected::Exited(3));
        assert!(e.outcome.matches(&Outcome::Ended(Exit::Exited(3))));
        assert!(!e.outcome.matches(&Outcome::Ended(Exit::Exited(4))));
        assert!(!e.outcome.matches(&Outcome::Ended(Exit::Limit)));
        assert_eq!(
            e.run_line(Path::new("/t"), None).join(" "),
            "--headless --cpu 286 --seconds 2.5 --press 1:space /t/X.COM"
        );
        // Installed in a folder of drive C:, with its sound written.
        let m = parse(&ONE.replace("cpu =", "install = \"GAME\"\nmusic_from = 1.5\ncpu ="))
            .expect("parses");
        let e = &m.programs[0];
        assert_eq!(e.install_dir(Path::new("/t")), Path::new("/t/GAME"));
        assert_eq!(e.music_from, Some(1.5));
        assert_eq!(
            e.run_line(Path::new("/t"), Some(Path::new("/o/x.wav"))).join(" "),
            "--headless --cpu 286 --mount /t --wav /o/x.wav --seconds 2.5 --press 1:space /t/GAME/X.COM"
        );
        // A program that wants DOSBox's start-up.
        let m = parse(&ONE.replace("cpu =", "dos_layout = \"dosbox\"\ncpu =")).expect("parses");
        assert_eq!(
            m.programs[0].run_line(Path::new("/t"), None).join(" "),
            "--headless --cpu 286 --seconds 2.5 --dos-layout dosbox --press 1:space /t/X.COM"
        );
    }

    #[test]
    fn errors_name_the_entry() {
        for (from, to, what) in [
            ("\"286\"", "\"586\"", "program 'x'"),
            ("1:space", "1:nokey", "unknown key"),
            ("exited 3", "finished", "outcome 'finished'"),
            ("seconds = 2.5", "seconds = 0", "not a positive time"),
            ("folder = \"x\"", "folder = \"../x\"", "relative path"),
            ("cpu", "cpux", "unknown field"),
            (
                "cpu =",
                "music_from = 2.5\ncpu =",
                "music_from = 2.5 is not a time",
            ),
            ("cpu =", "install = \"A/B\"\ncpu =", "one folder name"),
            (
                "cpu =",
                "dos_layout = \"pcdos\"\ncpu =",
                "unknown DOS layout 'pcdos'",
            ),
        ] {
            let text = ONE.replace(from, to);
            let e = parse(&text).expect_err(to).to_string();
            assert!(e.contains(what), "{to}: {e}");
        }
        let twice = format!("{ONE}{ONE}");
        assert!(parse(&twice)
            .expect_err("twice")
            .to_string()
            .contains("named twice"));
    }

    #[test]
    fn bless_rewrites_one_outcome_line() {
        let two = format!(
            "# head\n{ONE}\n# y's comment\n{}",
            ONE.replace("\"x\"", "\"y\"")
        );
        let out = set_outcome(&two, "y", Expected::Running).expect("y");
        let m = parse(&out).expect("still a manifest");
        assert_eq!(m.programs[0].outcome, Expected::Exited(3));
        assert_eq!(m.programs[1].outcome, Expected::Running);
        assert!(out.starts_with("# head\n") && out.contains("# y's comment\n"));
        assert_eq!(out.lines().count(), two.lines().count());
        assert!(set_outcome(&two, "z", Expected::Running).is_err());
    }
}
