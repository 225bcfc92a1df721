//! What the golden-master commands share: a program loaded on the emulated
//! PC with tandem's DOS (`Session`), the built-in replicas, profiles, the
//! placement of a program in memory, and `SEG:OFF` addresses.

use std::path::{Path, PathBuf};

use clap::Args;
use dos::{Dos, DosConfig};
use emu::{CpuModel, SegReg};
use hw::Machine;
use models::{Placement, Profile};

use crate::machine_opts::{parse_mhz, parse_model};

/// Exit status: bad usage or unreadable input.
pub const EXIT_INPUT: u8 = 2;

/// The built-in replica, retail layout (`roms/replica/replica.exe`).
pub const REPLICA: &[u8] = include_bytes!("../../roms/replica/replica.exe");
/// The built-in replica, demo layout (`roms/replica/replica-demo.exe`).
pub const REPLICA_DEMO: &[u8] = include_bytes!("../../roms/replica/replica-demo.exe");

/// The CPU of a golden-master run: the target game (and so the replica) is a
/// 386 program, hence the default.
#[derive(Args, Debug, Clone)]
pub struct GmMachine {
    /// CPU model: 8086, 286 or 386 (the replica needs 186+ instructions).
    #[arg(long, value_name = "MODEL", default_value = "386", value_parser = parse_model)]
    pub cpu: CpuModel,

    /// CPU clock in MHz (default 33).
    #[arg(long, value_name = "MHZ", value_parser = parse_mhz)]
    pub mhz: Option<u64>,
}

impl GmMachine {
    /// The CPU clock in Hz.
    pub fn cpu_hz(&self) -> u64 {
        self.mhz.unwrap_or(33_000_000)
    }
}

/// A program loaded and ready at its entry, with its DOS.
pub struct Session {
    /// The machine.
    pub m: Machine,
    /// Its DOS.
    pub dos: Dos,
    /// The segment the program image was loaded at (PSP + 10h).
    pub load_seg: u16,
    /// Paragraphs of the program image.
    pub image_paras: u16,
    /// SS at the entry (the data group of the game: SS = DS).
    pub entry_ss: u16,
    /// CS at the entry.
    pub entry_cs: u16,
    /// The temporary mount folder to remove, when there is one.
    temp: Option<PathBuf>,
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(t) = &self.temp {
            let _ = std::fs::remove_dir_all(t);
        }
    }
}

impl Session {
    /// Loads `image` (named `name`) with drive C: at `mount`, or at a fresh
    /// empty temporary folder when `mount` is `None`.
    pub fn start(
        image: &[u8],
        name: &str,
        mount: Option<&Path>,
        gm: &GmMachine,
        tail: &[u8],
    ) -> Result<Session, String> {
        let exe = dos::Executable::parse(image).map_err(|e| format!("{name}: {e}"))?;
        let (mount, temp) = match mount {
            Some(m) => (m.to_path_buf(), None),
            None => {
                let t = std::env::temp_dir().join(format!(
                    "tandem-{}-{}",
                    std::process::id(),
                    TEMP_COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                ));
                std::fs::create_dir_all(&t).map_err(|e| format!("{}: {e}", t.display()))?;
                (t.clone(), Some(t))
            }
        };
        let mut dos = Dos::new(DosConfig::new(mount.clone())).map_err(|e| e.to_string())?;
        let mut m = Machine::new(hw::MachineConfig::with_cpu(gm.cpu, gm.cpu_hz()));
        dos.install(&mut m);
        let base = Path::new(name)
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_uppercase())
            .unwrap_or_default();
        dos.load(&mut m, image, &format!("C:\\{base}"), tail)
            .map_err(|e| format!("{name}: {e}"))?;
        let load_seg = dos.current_psp().wrapping_add(0x10);
        let image_paras = exe.image_paras().min(0xFFFF) as u16;
        Ok(Session {
            entry_ss: m.cpu.regs.sreg(SegReg::SS),
            entry_cs: m.cpu.regs.sreg(SegReg::CS),
            m,
            dos,
            load_seg,
            image_paras,
            temp,
        })
    }

    /// Where `profile` finds the program: its main code segment by
    /// signature, its data group at the entry SS.
    pub fn place(&self, profile: &Profile, name: &str) -> Result<Placement, String> {
        let last = self.load_seg.saturating_add(self.image_paras);
        let code_seg = profile.find_code_segment(&self.m, self.load_seg, last).ok_or_else(|| {
            format!(
                "{name}: the signature of profile {} is not in this program (is it the right program?)",
                profile.name
            )
        })?;
        Ok(Placement {
            code_seg,
            data_seg: self.entry_ss,
        })
    }
}

static TEMP_COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// A profile by built-in name or from a TOML file.
pub fn profile(name: &str) -> Result<Profile, String> {
    if name.ends_with(".toml") {
        let text = std::fs::read_to_string(name).map_err(|e| format!("{name}: {e}"))?;
        Profile::parse(&text).map_err(|e| format!("{name}: {e}"))
    } else {
        Profile::builtin(name).map_err(|e| e.to_string())
    }
}

/// The program of a golden-master command: the given file, or the built-in
/// replica of a replica profile. Returns its bytes and name.
pub fn program(path: Option<&Path>, profile: &Profile) -> Result<(Vec<u8>, String), String> {
    match path {
        Some(p) => {
            if p.is_dir() {
                return Err(format!("{}: is a directory, not a program", p.display()));
            }
            std::fs::read(p)
                .map(|b| (b, p.display().to_string()))
                .map_err(|e| format!("{}: {e}", p.display()))
        }
        None => builtin(profile)
            .map(|b| (b.to_vec(), format!("built-in {}", profile.name)))
            .ok_or_else(|| {
                format!(
                    "profile {} describes your own copy of the game: name the program",
                    profile.name
                )
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
    gm: &GmMachine,
) -> Result<(Session, Placement), String> {
    let (bytes, n): (Vec<u8>, String) = match explicit {
        Some(p) => (
            std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?,
            p.display().to_string(),
        ),
        None => match builtin(profile) {
            Some(b) => (b.to_vec(), format!("built-in {}", profile.name)),
            None => (image.to_vec(), name.to_string()),
        },
    };
    let s = Session::start(&bytes, &n, None, gm, b"")?;
    let at = s.place(profile, &n)?;
    Ok((s, at))
}

/// Parses `SEG:OFF`, where SEG is hexadecimal or one of `cs` (the entry
/// CS), `ss` (the entry SS), `load` (the load segment), `code` (the code
/// segment a profile found); or a linear hexadecimal address.
pub fn parse_addr(s: &str, segs: &Segs) -> Result<(u16, u16), String> {
    let bad = || format!("'{s}' is not an address (SEG:OFF with SEG hex, cs, ss, load or code)");
    let (seg, off) = s.split_once(':').ok_or_else(bad)?;
    let seg = match seg.to_ascii_lowercase().as_str() {
        "cs" => segs.cs,
        "ss" | "ds" => segs.ss,
        "load" => segs.load,
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
    /// Load segment.
    pub load: u16,
    /// The profile's code segment.
    pub code: Option<u16>,
}

impl Session {
    /// The named segments of this session.
    pub fn segs(&self, code: Option<u16>) -> Segs {
        Segs {
            cs: self.entry_cs,
            ss: self.entry_ss,
            load: self.load_seg,
            code,
        }
    }
}

/// Prints one error line for `cmd` and returns exit status 2.
pub fn input_error(cmd: &str, msg: impl std::fmt::Display) -> std::process::ExitCode {
    eprintln!("tandem {cmd}: error: {msg}");
    std::process::ExitCode::from(EXIT_INPUT)
}

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
    pub reference: Session,
    /// Where the reference is in its memory.
    pub ref_at: Placement,
}

/// Resolves `--profile`, the program and `--reference` for a golden-master
/// command; the error is one line for [`input_error`].
pub fn golden_setup(
    profile: &str,
    program_path: Option<&Path>,
    reference_path: Option<&Path>,
    gm: &GmMachine,
) -> Result<GoldenSetup, String> {
    let profile = self::profile(profile)?;
    let (image, name) = program(program_path, &profile)?;
    let (reference, ref_at) = reference(reference_path, &profile, &image, &name, gm)?;
    Ok(GoldenSetup {
        profile,
        image,
        name,
        reference,
        ref_at,
    })
}
