//! A DOS program on the emulated PC: loaded with tandem's DOS as the
//! top-level program ([`boot`] for the commands that run it, [`Loaded`]
//! for those that also need to know where DOS put it), with drive C: a
//! host folder.

use std::path::{Path, PathBuf};

use dos::{Dos, DosConfig, Session};
use emu::SegReg;
use hw::Machine;
use models::profile::Seg;
use models::{Profile, Segments};

use super::builtin;
use super::error::Error;
use super::input_file;
use super::tempdir::TempDir;

/// The longest command line DOS passes (the PSP's tail holds 127 bytes
/// with its CR).
pub const MAX_TAIL: usize = 126;

/// Where DOS put a program: its PSP, image and entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The program's PSP.
    pub psp: u16,
    /// The segment the program image was loaded at (PSP + 10h).
    pub load_seg: u16,
    /// The segment the program's own offsets count from, `load` in
    /// addresses: the load segment for an .EXE (the base its relocations
    /// add), the PSP for a .COM (assembled at ORG 100h: its entry is
    /// `load:0100`, as in DEBUG).
    pub origin_seg: u16,
    /// Paragraphs of the program image.
    pub image_paras: u16,
    /// CS at the entry.
    pub entry_cs: u16,
    /// SS at the entry (the data group of the game: SS = DS).
    pub entry_ss: u16,
}

/// A program loaded and ready at its entry: its session and where it is.
pub struct Loaded {
    /// The machine, its DOS and the run loop.
    pub session: Session,
    /// Where DOS put the program.
    pub layout: Layout,
    /// The host folder that is drive C:.
    pub mount: PathBuf,
    /// Drive C: when no folder was named (removed with the load).
    _temp: Option<TempDir>,
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
                let t = TempDir::new("load").map_err(|e| Error::file(&std::env::temp_dir(), e))?;
                (t.path().to_path_buf(), Some(t))
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
        let layout = Layout {
            psp,
            load_seg,
            origin_seg,
            image_paras: exe.image_paras().min(0xFFFF) as u16,
            entry_cs: m.cpu.regs.sreg(SegReg::CS),
            entry_ss: m.cpu.regs.sreg(SegReg::SS),
        };
        Ok(Loaded {
            session: Session::new(m, dos),
            layout,
            mount,
            _temp: temp,
        })
    }

    /// Loads the program file `program` with drive C: at its folder.
    pub fn open(program: &Path, machine: &hw::MachineConfig) -> Result<Loaded, Error> {
        let (image, name) = read(program)?;
        Loaded::start(&image, &name, Some(&program_folder(program)), machine, b"")
    }

    /// Where `profile` finds each segment of the program: code (and data,
    /// when the profile has a data signature) by signature, searched from
    /// the segment the program's offsets count from ([`Layout::origin_seg`]:
    /// the PSP of a .COM) to the end of its image; the stack at the entry
    /// SS, and the data there too without a data signature.
    pub fn locate(&self, profile: &Profile, name: &str) -> Result<Segments, Error> {
        let l = &self.layout;
        let last = l.load_seg.saturating_add(l.image_paras);
        let find = |seg: Seg| {
            profile
                .find_segment(seg, self.memory(), l.origin_seg, last)
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
            l.entry_ss
        };
        Ok(Segments {
            code,
            data,
            stack: l.entry_ss,
        })
    }

    /// The session, and drive C:'s temporary folder when it has one (to be
    /// kept as long as the session runs).
    pub fn into_parts(self) -> (Session, Option<TempDir>) {
        (self.session, self._temp)
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
        Some(p) => dos_path(p, &mount),
        None => (builtin::DOS_PATH.to_string(), "C:\\".to_string()),
    };
    let tail = command_tail(args).map_err(|e| Error::bad(name, e))?;
    dos.chdir(&dir);
    dos.load(&mut m, image, &path, &tail)
        .map_err(|e| Error::bad(name, e))?;
    Ok(Session::new(m, dos))
}

/// The command line DOS gives a program: each argument after a space, at
/// most [`MAX_TAIL`] bytes.
pub fn command_tail(args: &[String]) -> Result<Vec<u8>, Error> {
    let mut tail = Vec::new();
    for a in args {
        tail.push(b' ');
        tail.extend(a.bytes());
    }
    if tail.len() > MAX_TAIL {
        return Err(Error::Input(format!(
            "command line longer than {MAX_TAIL} bytes"
        )));
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

/// The DOS path of `program` under `mount` (C:\DIR\NAME.EXE) and its
/// directory's DOS path, or C:\NAME when it is outside the mount.
pub fn dos_path(program: &Path, mount: &Path) -> (String, String) {
    let name = program
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_uppercase())
        .unwrap_or_default();
    if let (Ok(p), Ok(root)) = (program.canonicalize(), mount.canonicalize()) {
        if let Ok(rel) = p.strip_prefix(&root) {
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().to_ascii_uppercase())
                .collect();
            let dir = parts[..parts.len().saturating_sub(1)].join("\\");
            return (format!("C:\\{}", parts.join("\\")), format!("C:\\{dir}"));
        }
    }
    (format!("C:\\{name}"), "C:\\".into())
}

/// A program file's bytes and its name for messages: a regular file of
/// at most [`input_file::PROGRAM`] bytes.
pub fn read(path: &Path) -> Result<(Vec<u8>, String), Error> {
    input_file::read_bounded(path, input_file::PROGRAM, "a program")
        .map(|b| (b, path.display().to_string()))
}
