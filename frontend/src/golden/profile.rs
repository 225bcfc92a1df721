//! Choosing what a golden-master command compares: the profile (built-in
//! or a TOML file), the program (a file, or the built-in replica of a
//! replica profile), and the reference whose tables the models read.

use std::path::{Path, PathBuf};

use models::profile::Routine;
use models::{Profile, Segments};

use crate::app::builtin;
use crate::app::error::Error;
use crate::app::input_file;
use crate::app::options::MachineOpts;
use crate::app::program::{self, Loaded};

/// The CPU of a golden-master run when `--cpu` is not given: the target
/// game (and so the replica) is a 386 program.
pub const GM_CPU: emu::CpuModel = emu::CpuModel::I386;

/// How the user named a profile.
#[derive(Clone, Debug)]
pub enum Source {
    /// A built-in profile, by name.
    Builtin(String),
    /// A TOML file and its text.
    File {
        /// The file.
        path: PathBuf,
        /// Its text (a reproduction bundle keeps a copy).
        text: String,
    },
}

/// A profile and where it came from.
#[derive(Clone, Debug)]
pub struct Chosen {
    /// The profile.
    pub profile: Profile,
    /// How it was named.
    pub source: Source,
}

impl Chosen {
    /// The profile `arg` names: a TOML file (a name ending in `.toml`) or a
    /// built-in profile.
    pub fn open(arg: &str) -> Result<Chosen, Error> {
        if arg.ends_with(".toml") {
            let path = PathBuf::from(arg);
            let bytes = input_file::read_bounded(&path, input_file::TEXT, "a profile")?;
            let text =
                String::from_utf8(bytes).map_err(|_| Error::bad(path.display(), "is not UTF-8"))?;
            Chosen::from_toml(text, path)
        } else {
            let profile = Profile::builtin(arg).map_err(|e| Error::Input(e.to_string()))?;
            Ok(Chosen {
                profile,
                source: Source::Builtin(arg.to_string()),
            })
        }
    }

    /// A profile from the text of the TOML file `path`.
    pub fn from_toml(text: String, path: PathBuf) -> Result<Chosen, Error> {
        let profile = Profile::parse(&text).map_err(|e| Error::bad(path.display(), e))?;
        Ok(Chosen {
            profile,
            source: Source::File { path, text },
        })
    }

    /// A routine of the profile; the error names the profile's file when
    /// it is one.
    pub fn routine(&self, name: &str) -> Result<Routine, Error> {
        self.profile.routine(name).map_err(|e| match &self.source {
            Source::File { path, .. } => Error::bad(path.display(), e),
            Source::Builtin(_) => Error::from(e),
        })
    }
}

/// A reference program, loaded: the pristine copy whose tables the models
/// read, so that an altered program (a mutant, a patched game) is
/// compared against the original's data.
pub struct Reference {
    /// Its bytes.
    pub image: Vec<u8>,
    /// Its name in messages.
    pub name: String,
    /// It, loaded and at its entry (nothing has run).
    pub loaded: Loaded,
    /// Where the profile finds its segments.
    pub segs: Segments,
}

impl Reference {
    /// The reference of `program` (`image`, called `name`): `explicit`
    /// (`--reference`) when given, else the built-in replica of a replica
    /// profile, else the program itself; loaded on `machine`.
    pub fn choose(
        explicit: Option<&Path>,
        profile: &Profile,
        image: &[u8],
        name: &str,
        machine: &hw::MachineConfig,
    ) -> Result<Reference, Error> {
        let (image, name) = match explicit {
            Some(p) => program::read(p)?,
            None => match builtin::for_profile(&profile.name) {
                Some(b) => (b.to_vec(), builtin::name_for_profile(&profile.name)),
                None => (image.to_vec(), name.to_string()),
            },
        };
        let loaded = Loaded::start(&image, &name, None, machine, b"")?;
        let segs = loaded.locate(profile, &name)?;
        Ok(Reference {
            image,
            name,
            loaded,
            segs,
        })
    }

    /// Its memory and segments, as the models read them.
    pub fn placed(&self) -> models::Placed<'_, [u8]> {
        models::Placed {
            mem: self.loaded.memory(),
            segs: self.segs,
        }
    }
}

/// The program of a golden-master command: the given file, or the built-in
/// replica of a replica profile. Returns its bytes and name.
pub fn program_image(path: Option<&Path>, profile: &Profile) -> Result<(Vec<u8>, String), Error> {
    match path {
        Some(p) => program::read(p),
        None => builtin::for_profile(&profile.name)
            .map(|b| (b.to_vec(), builtin::name_for_profile(&profile.name)))
            .ok_or_else(|| {
                Error::Input(format!(
                    "profile {} describes your own copy of the game: name the program",
                    profile.name
                ))
            }),
    }
}

/// The arguments `sweep` and `compare` share: the profile, the program,
/// the reference and the machine.
#[derive(clap::Args, Debug)]
pub struct GoldenArgs {
    /// Profile: replica, replica-demo, game-retail, game-demo, or a TOML file
    /// (docs/models.md).
    #[arg(long, value_name = "NAME")]
    pub profile: String,

    /// The program (default: the built-in replica of a replica profile).
    #[arg(value_name = "PROGRAM")]
    pub program: Option<PathBuf>,

    /// The reference program whose tables the models read (default: the
    /// pristine built-in replica for replica profiles, else the program).
    #[arg(long, value_name = "FILE")]
    pub reference: Option<PathBuf>,

    #[command(flatten)]
    pub machine: MachineOpts,
}

impl GoldenArgs {
    /// The machine these arguments ask for (a 386 unless `--cpu` says).
    pub fn machine(&self) -> hw::MachineConfig {
        self.machine.config(GM_CPU)
    }
}

/// What `sweep` and `compare` start from: the profile, the program's bytes
/// and name, and the loaded reference whose tables the models read.
pub struct GoldenSetup {
    /// The profile.
    pub chosen: Chosen,
    /// The program's bytes.
    pub image: Vec<u8>,
    /// Its name for messages.
    pub name: String,
    /// The reference, loaded.
    pub reference: Reference,
    /// Whether the reference is the program itself (same bytes): a
    /// command that only reads the program before running it may use the
    /// reference's load instead of loading it again.
    pub reference_is_program: bool,
}

impl GoldenSetup {
    /// Resolves `--profile`, the program and `--reference`.
    pub fn new(args: &GoldenArgs) -> Result<GoldenSetup, Error> {
        let chosen = Chosen::open(&args.profile)?;
        let profile = &chosen.profile;
        let (image, name) = program_image(args.program.as_deref(), profile)?;
        let reference = Reference::choose(
            args.reference.as_deref(),
            profile,
            &image,
            &name,
            &args.machine(),
        )?;
        let reference_is_program = reference.image == image;
        Ok(GoldenSetup {
            chosen,
            image,
            name,
            reference,
            reference_is_program,
        })
    }

    /// The profile.
    pub fn profile(&self) -> &Profile {
        &self.chosen.profile
    }
}

/// Where `--profile` finds a program's segments, and `--routine` its
/// entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// The program's segments.
    pub segs: Segments,
    /// The routine's entry (CS:IP), with `--routine`.
    pub entry: Option<(u16, u16)>,
}

/// `--profile` and `--routine` of `call` and `trace`: a profile locates
/// the program's segments (so `code:OFF` names an offset of its code
/// segment) and a routine its entry.
#[derive(clap::Args, Debug, Default)]
pub struct RoutineArgs {
    /// A profile (built-in name or TOML file) whose signatures find the
    /// code segment: `code:OFF` addresses count from it.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,

    /// A routine of the profile (or a registered model): its entry is the
    /// address (with --profile).
    #[arg(long, value_name = "NAME", requires = "profile")]
    pub routine: Option<String>,
}

impl RoutineArgs {
    /// What the profile finds in `s` (`None` without a profile).
    pub fn locate(&self, s: &Loaded, name: &str) -> Result<Option<Found>, Error> {
        let Some(p) = &self.profile else {
            return Ok(None);
        };
        let chosen = Chosen::open(p)?;
        let segs = s.locate(&chosen.profile, name)?;
        let entry = match &self.routine {
            Some(r) => Some((segs.code, chosen.routine(r)?.entry)),
            None => None,
        };
        Ok(Some(Found { segs, entry }))
    }
}
