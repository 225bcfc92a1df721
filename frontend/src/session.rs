//! What the golden-master commands share: a program loaded on the emulated
//! PC with tandem's DOS ([`Loaded`]: a [`dos::Session`] and where the
//! program is), the built-in replicas, profiles, the placement of a program
//! in memory, and `SEG:OFF` addresses.

use std::path::{Path, PathBuf};

use dos::{Dos, DosConfig, Session};
use emu::{CpuModel, SegReg};
use hw::Machine;
use models::profile::Seg;
use models::{Placement, Profile, Segments};

use crate::error::Error;

/// The built-in replica, retail layout (`roms/replica/replica.exe`).
pub const REPLICA: &[u8] = include_bytes!("../../roms/replica/replica.exe");
/// The built-in replica, demo layout (`roms/replica/replica-demo.exe`).
pub const REPLICA_DEMO: &[u8] = include_bytes!("../../roms/replica/replica-demo.exe");

/// The CPU of a golden-master run when `--cpu` is not given: the target
/// game (and so the replica) is a 386 program.
pub const GM_CPU: CpuModel = CpuModel::I386;

/// A program loaded and ready at its entry: its session and where it is.
pub struct Loaded {
    /// The machine, its DOS and the run loop.
    pub session: Session,
    /// The segment the program image was loaded at (PSP + 10h).
    pub load_seg: u16,
    /// The segment the program's own offsets count from, `load` in
    /// addresses: the load segment for an .EXE (the base its relocations
    /// add), the PSP for a .COM (assembled at ORG 100h: its entry is
    /// `load:0100`, as in DEBUG).
    pub origin_seg: u16,
    /// The program's PSP.
    pub psp: u16,
    /// Paragraphs of the program image.
    pub image_paras: u16,
    /// SS at the entry (the data group of the game: SS = DS).
    pub entry_ss: u16,
    /// CS at the entry.
    pub entry_cs: u16,
    /// The temporary mount folder to remove, when there is one.
    temp: Option<PathBuf>,
}

impl Drop for Loaded {
    fn drop(&mut self) {
        if let Some(t) = &self.temp {
            let _ = std::fs::remove_dir_all(t);
        }
    }
}

impl Loaded {
    /// Loads `image` (named `name`) with drive C: at `mount`, or at a fresh
    /// empty temporary folder when `mount` is `None`.
    pub fn start(
        image: &[u8],
        name: &str,
        mount: Option<&Path>,
        machine: &hw::MachineConfig,
        tail: &[u8],
    ) -> Result<Loaded, Error> {
        let exe = dos::Executable::parse(image).map_err(|e| Error::bad(name, e))?;
        let (mount, temp) = match mount {
            Some(m) => (m.to_path_buf(), None),
            None => {
                let t = std::env::temp_dir().join(format!(
                    "tandem-{}-{}",
                    std::process::id(),
                    TEMP_COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                ));
                std::fs::create_dir_all(&t).map_err(|e| Error::file(&t, e))?;
                (t.clone(), Some(t))
            }
        };
        let mut dos = Dos::new(DosConfig::new(mount.clone()))?;
        let mut m = Machine::new(machine.clone());
        dos.install(&mut m);
        let base = Path::new(name)
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_uppercase())
            .unwrap_or_default();
        dos.load(&mut m, image, &format!("C:\\{base}"), tail)
            .map_err(|e| Error::bad(name, e))?;
        let psp = dos.current_psp();
        let load_seg = psp.wrapping_add(0x10);
        let origin_seg = match exe {
            dos::Executable::Com { .. } => psp,
            _ => load_seg,
        };
        let image_paras = exe.image_paras().min(0xFFFF) as u16;
        Ok(Loaded {
            entry_ss: m.cpu.regs.sreg(SegReg::SS),
            entry_cs: m.cpu.regs.sreg(SegReg::CS),
            session: Session::new(m, dos),
            load_seg,
            origin_seg,
            psp,
            image_paras,
            temp,
        })
    }

    /// Loads the program file `program` with drive C: at its folder.
    pub fn open(program: &Path, machine: &hw::MachineConfig) -> Result<Loaded, Error> {
        let image = std::fs::read(program).map_err(|e| Error::file(program, e))?;
        let name = program.display().to_string();
        Loaded::start(&image, &name, Some(&program_folder(program)), machine, b"")
    }

    /// Where `profile` finds the program: its main code segment by
    /// signature, its data group at the entry SS (or by the profile's data
    /// signature).
    pub fn place(&self, profile: &Profile, name: &str) -> Result<Placement, Error> {
        let segs = self.locate(profile, name)?;
        Ok(Placement {
            code_seg: segs.code,
            data_seg: segs.data,
        })
    }

    /// Where `profile` finds each segment of the program: code (and data,
    /// when the profile has a data signature) by signature, searched from
    /// the segment the program's offsets count from ([`Loaded::origin_seg`]:
    /// the PSP of a .COM) to the end of its image; the stack at the entry
    /// SS, and the data there too without a data signature.
    pub fn locate(&self, profile: &Profile, name: &str) -> Result<Segments, Error> {
        let last = self.load_seg.saturating_add(self.image_paras);
        let find = |seg: Seg| {
            profile
                .find_segment(seg, self.memory(), self.origin_seg, last)
                .ok_or_else(|| {
                    Error::bad(
                        name,
                        format!(
                            "the {} signature of profile {} is not in this program (is it the right program?)",
                            seg.name(),
                            profile.name
                        ),
                    )
                })
        };
        let code = find(Seg::Code)?;
        let data = if profile.has_data_signature() {
            find(Seg::Data)?
        } else {
            self.entry_ss
        };
        Ok(Segments {
            code,
            data,
            stack: self.entry_ss,
        })
    }

    /// The machine's memory from linear address 0 (what sweeps copy and
    /// models read).
    pub fn memory(&self) -> &[u8] {
        self.session.m.bus.mem.bytes()
    }
}

/// A fresh machine with DOS (`dos`: drive C: and the memory managers) and
/// `image` (called `name` in messages) loaded as the top-level program:
/// under its own path on drive C: when `program` is a host file under the
/// mount (C:\REPLICA.EXE for the built-in replica), started in its folder,
/// with `args` as its command line.
pub fn boot(
    machine: hw::MachineConfig,
    dos: DosConfig,
    image: &[u8],
    name: &str,
    program: Option<&Path>,
    args: &[String],
) -> Result<Session, Error> {
    let mount = dos.mount.clone();
    let mut dos = Dos::new(dos)?;
    let mut m = Machine::new(machine);
    dos.install(&mut m);
    let (path, dir) = match program {
        Some(p) => crate::run_cmd::dos_path(p, &mount),
        None => ("C:\\REPLICA.EXE".to_string(), "C:\\".to_string()),
    };
    let tail = command_tail(args).map_err(|e| Error::bad(name, e))?;
    dos.chdir(&dir);
    dos.load(&mut m, image, &path, &tail)
        .map_err(|e| Error::bad(name, e))?;
    Ok(Session::new(m, dos))
}

/// The command line DOS gives a program: each argument after a space, at
/// most 126 bytes (the PSP's tail holds 127 with its CR).
pub fn command_tail(args: &[String]) -> Result<Vec<u8>, String> {
    let mut tail = Vec::new();
    for a in args {
        tail.push(b' ');
        tail.extend(a.bytes());
    }
    if tail.len() > 126 {
        return Err("command line longer than 126 bytes".into());
    }
    Ok(tail)
}

/// The folder of `program`, drive C: when no `--mount` is given: its parent,
/// or the current folder for a bare file name.
pub fn program_folder(program: &Path) -> PathBuf {
    program
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

static TEMP_COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// A profile by built-in name or from a TOML file.
pub fn profile(name: &str) -> Result<Profile, Error> {
    if name.ends_with(".toml") {
        let text = std::fs::read_to_string(name).map_err(|e| Error::file(Path::new(name), e))?;
        Profile::parse(&text).map_err(|e| Error::bad(name, e))
    } else {
        Profile::builtin(name).map_err(|e| Error::Input(e.to_string()))
    }
}

/// The program of a golden-master command: the given file, or the built-in
/// replica of a replica profile. Returns its bytes and name.
pub fn program(path: Option<&Path>, profile: &Profile) -> Result<(Vec<u8>, String), Error> {
    match path {
        Some(p) => {
            if p.is_dir() {
                return Err(Error::bad(p.display(), "is a directory, not a program"));
            }
            std::fs::read(p)
                .map(|b| (b, p.display().to_string()))
                .map_err(|e| Error::file(p, e))
        }
        None => builtin(profile)
            .map(|b| (b.to_vec(), format!("built-in {}", profile.name)))
            .ok_or_else(|| {
                Error::Input(format!(
                    "profile {} describes your own copy of the game: name the program",
                    profile.name
                ))
            }),
    }
}

/// The built-in program of a replica profile.
pub fn builtin(profile: &Profile) -> Option<&'static [u8]> {
    match profile.name.as_str() {
        "replica" => Some(REPLICA),
        "replica-demo" => Some(REPLICA_DEMO),
        _ => None,
    }
}

/// The reference (golden master) whose tables the models read: `--reference`
/// when given, else the pristine built-in replica for a replica profile,
/// else a fresh load of the program itself.
pub fn reference(
    explicit: Option<&Path>,
    profile: &Profile,
    image: &[u8],
    name: &str,
    machine: &hw::MachineConfig,
) -> Result<(Loaded, Placement), Error> {
    let (bytes, n): (Vec<u8>, String) = match explicit {
        Some(p) => (
            std::fs::read(p).map_err(|e| Error::file(p, e))?,
            p.display().to_string(),
        ),
        None => match builtin(profile) {
            Some(b) => (b.to_vec(), format!("built-in {}", profile.name)),
            None => (image.to_vec(), name.to_string()),
        },
    };
    let s = Loaded::start(&bytes, &n, None, machine, b"")?;
    let at = s.place(profile, &n)?;
    Ok((s, at))
}

/// Parses `SEG:OFF`, where SEG is hexadecimal or one of `cs` (the entry
/// CS), `ss` (the entry SS), `load` (the segment the program's own offsets
/// count from: PSP+10h for an .EXE, the PSP for a .COM, so that a .COM's
/// entry is `load:0100`), `psp` (the program's PSP) or `code` (the code
/// segment a profile found).
pub fn parse_addr(s: &str, segs: &Segs) -> Result<(u16, u16), String> {
    let bad =
        || format!("'{s}' is not an address (SEG:OFF with SEG hex, cs, ss, load, psp or code)");
    let (seg, off) = s.split_once(':').ok_or_else(bad)?;
    let seg = match seg.to_ascii_lowercase().as_str() {
        "cs" => segs.cs,
        "ss" | "ds" => segs.ss,
        "load" => segs.load,
        "psp" => segs.psp,
        "code" => segs
            .code
            .ok_or_else(|| format!("'{s}': no profile gave a code segment"))?,
        h => u16::from_str_radix(h.trim_end_matches('h'), 16).map_err(|_| bad())?,
    };
    let off = u16::from_str_radix(off.trim_end_matches('h'), 16).map_err(|_| bad())?;
    Ok((seg, off))
}

/// The named segments `parse_addr` knows.
#[derive(Clone, Copy, Debug)]
pub struct Segs {
    /// Entry CS.
    pub cs: u16,
    /// Entry SS.
    pub ss: u16,
    /// The segment the program's offsets count from ([`Loaded::origin_seg`]).
    pub load: u16,
    /// The program's PSP.
    pub psp: u16,
    /// The profile's code segment.
    pub code: Option<u16>,
}

impl Loaded {
    /// The named segments of this session.
    pub fn segs(&self, code: Option<u16>) -> Segs {
        Segs {
            cs: self.entry_cs,
            ss: self.entry_ss,
            load: self.origin_seg,
            psp: self.psp,
            code,
        }
    }
}

pub use crate::error::input_error;

/// What `sweep` and `compare` start from: the profile, the program's bytes
/// and name, and the loaded reference whose tables the models read.
pub struct GoldenSetup {
    /// The profile.
    pub profile: Profile,
    /// The program's bytes.
    pub image: Vec<u8>,
    /// Its name for messages.
    pub name: String,
    /// The reference program, loaded.
    pub reference: Loaded,
    /// Where the reference is in its memory.
    pub ref_at: Placement,
    /// Where each of the reference's segments is.
    pub ref_segs: Segments,
    /// Whether the reference is the program itself (same bytes): a
    /// command that only reads the program before running it may use the
    /// reference's load instead of loading it again.
    pub reference_is_program: bool,
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
    pub machine: crate::machine_opts::MachineOpts,
}

impl GoldenArgs {
    /// The machine these arguments ask for (a 386 unless `--cpu` says).
    pub fn machine(&self) -> hw::MachineConfig {
        self.machine.config(GM_CPU)
    }
}

/// Resolves `--profile`, the program and `--reference` for a golden-master
/// command; the error is one line for [`input_error`].
pub fn golden_setup(args: &GoldenArgs) -> Result<GoldenSetup, Error> {
    let profile = self::profile(&args.profile)?;
    let (image, name) = program(args.program.as_deref(), &profile)?;
    let (reference, ref_at) = reference(
        args.reference.as_deref(),
        &profile,
        &image,
        &name,
        &args.machine(),
    )?;
    let ref_segs = reference.locate(&profile, &name)?;
    let reference_is_program = match args.reference.as_deref() {
        Some(p) => std::fs::read(p).map_err(|e| Error::file(p, e))? == image,
        None => builtin(&profile).is_none_or(|b| b == image.as_slice()),
    };
    Ok(GoldenSetup {
        reference_is_program,
        profile,
        image,
        name,
        reference,
        ref_at,
        ref_segs,
    })
}

/// What `--profile`/`--routine` locate: the segments and the entry.
pub type Located = (Option<Segments>, Option<(u16, u16)>);

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
    /// The program's segments as the profile finds them (`None` without a
    /// profile) and the routine's entry (`None` without `--routine`).
    pub fn locate(&self, s: &Loaded, name: &str) -> Result<Located, Error> {
        let Some(p) = &self.profile else {
            return Ok((None, None));
        };
        let profile = profile(p)?;
        let segs = s.locate(&profile, name)?;
        let entry = match &self.routine {
            Some(r) => Some((segs.code, profile.routine(r)?.entry)),
            None => None,
        };
        Ok((Some(segs), entry))
    }
}

/// A routine of `profile` (given as `--profile` names it: `arg`): the
/// error names the profile file when it is one.
pub fn routine(
    profile: &Profile,
    arg: &str,
    name: &str,
) -> Result<models::profile::Routine, Error> {
    profile.routine(name).map_err(|e| {
        if arg.ends_with(".toml") {
            Error::bad(arg, e)
        } else {
            Error::from(e)
        }
    })
}
