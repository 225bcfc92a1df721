//! Drive C: a host folder, and the only way the guest reaches host files.
//!
//! A DOS path is resolved component by component against the mount root:
//! `.` and `..` are applied to the DOS path itself (`..` at the root is an
//! error, never the host parent), each component must be a valid 8.3 name
//! and is matched case-insensitively against the host directory's entries
//! whose names are themselves valid 8.3 names (other host files are
//! invisible). The host path that results is canonicalised (following
//! symlinks) and must still lie under the canonical mount root; a symlink
//! that leads outside, or dangles, is refused. DOS device names (CON, NUL,
//! PRN, AUX, CLOCK$, COMn, LPTn) resolve to devices in any directory.
//!
//! Names are CP437 bytes on the guest's side and their Unicode characters
//! on the host's ([`crate::cp437`]); case folding is DOS's country case
//! map. Every guest path, whatever its source (a service, an FCB, a save
//! state's open file), is resolved here.
//!
//! Errors are DOS error codes: 2 file not found, 3 path not found, 5 access
//! denied, 15 invalid drive.

use std::path::{Path, PathBuf};

use crate::cp437;
use crate::dosdata::upper_437;

/// DOS error: file not found.
pub const ERR_FILE: u16 = 2;
/// DOS error: path not found.
pub const ERR_PATH: u16 = 3;
/// DOS error: access denied.
pub const ERR_ACCESS: u16 = 5;
/// DOS error: invalid drive.
pub const ERR_DRIVE: u16 = 15;

/// Longest DOS path accepted (DOS's own limit is 64 bytes for the
/// directory part plus a name; 127 covers every legal ASCIIZ path).
pub const MAX_PATH: usize = 127;

/// A character device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Device {
    /// The console.
    Con,
    /// The bit bucket.
    Nul,
    /// The printer (output discarded).
    Prn,
    /// The serial port (reads end-of-file, output discarded).
    Aux,
    /// The clock device.
    Clock,
    /// The EMS driver's device ("EMMXXXX0"), present with EMS on.
    Ems,
}

impl Device {
    /// The device for a file name's base part, if it is one.
    pub fn from_name(base: &str, ems: bool) -> Option<Device> {
        match base {
            "CON" => Some(Device::Con),
            "NUL" => Some(Device::Nul),
            "PRN" | "LPT1" | "LPT2" | "LPT3" => Some(Device::Prn),
            "AUX" | "COM1" | "COM2" | "COM3" | "COM4" => Some(Device::Aux),
            "CLOCK$" => Some(Device::Clock),
            "EMMXXXX0" if ems => Some(Device::Ems),
            _ => None,
        }
    }

    /// The device's name.
    pub fn name(self) -> &'static str {
        match self {
            Device::Con => "CON",
            Device::Nul => "NUL",
            Device::Prn => "PRN",
            Device::Aux => "AUX",
            Device::Clock => "CLOCK$",
            Device::Ems => "EMMXXXX0",
        }
    }
}

/// What a DOS path names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A device.
    Device(Device),
    /// A host path under the mount (it may not exist yet: then its parent
    /// does and `name` is the new entry's DOS name).
    Path {
        /// The host path.
        host: PathBuf,
        /// Whether it exists.
        exists: bool,
        /// The DOS components from the root (upper case).
        dos: Vec<String>,
    },
}

/// A read-only drive after C: (a CD-ROM's letter): its host folder and
/// current directory.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Mount {
    /// Not saved (the resuming run's `--cdrom` options attach it again).
    #[serde(skip)]
    root: PathBuf,
    /// Current directory as DOS components from the root (upper case).
    cwd: Vec<String>,
    /// The disc's size in 2048-byte sectors (INT 21h 36h).
    blocks: u32,
}

/// Drive C: the mount root and the current directory; and the read-only
/// drives D: and on (CD-ROMs), the current drive.
///
/// A path on drive D: or later resolves to components whose first is the
/// drive's marker (`"D:"`, see [`Drive::read_only`]), so a resolved path
/// carries its drive wherever it goes (the SFT, the searches, a save
/// state's open files).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Drive {
    /// Not saved: a save state holds no host path (the resuming run's
    /// mount becomes the root).
    #[serde(skip)]
    root: PathBuf,
    /// Current directory as DOS components from the root (upper case).
    cwd: Vec<String>,
    ems: bool,
    /// Drives D: and on, read only.
    #[serde(default)]
    mounts: Vec<Mount>,
    /// The current drive (0 = A:; 2 = C:).
    #[serde(default = "drive_c")]
    current: u8,
}

fn drive_c() -> u8 {
    2
}

/// The drive number (0 = A:) of a marker component (`"D:"`).
fn marker_drive(c: &str) -> Option<u8> {
    let b = c.as_bytes();
    (b.len() == 2 && b[1] == b':' && b[0].is_ascii_uppercase()).then(|| b[0] - b'A')
}

/// Characters DOS allows in a file name besides letters and digits.
const NAME_CHARS: &[u8] = b"!#$%&'()-@^_`{}~";

/// Whether `c` may appear in an 8.3 name (CP437 high bytes included).
fn name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || NAME_CHARS.contains(&c) || c >= 0x80
}

/// Splits and validates an 8.3 name (already upper case; one `char` per
/// guest byte, see [`dos_upper`]): Some((base, ext)) when valid.
pub fn split_83(name: &str) -> Option<(&str, &str)> {
    let (base, ext) = match name.split_once('.') {
        Some((b, e)) => (b, e),
        None => (name, ""),
    };
    let ok = |s: &str, max: usize| {
        s.chars().count() <= max && s.chars().all(|c| (c as u32) < 0x100 && name_char(c as u8))
    };
    if base.is_empty() || !ok(base, 8) || !ok(ext, 3) {
        return None;
    }
    Some((base, ext))
}

/// Guest name bytes upper-cased with DOS's country case map (CP437: 84h
/// `ä` becomes 8Eh `Ä`, as INT 21h 6520h does), one `char` per byte
/// (U+0000-U+00FF stand for the bytes themselves, not for Latin-1).
pub fn dos_upper(b: &[u8]) -> String {
    b.iter().map(|&c| upper_437(c) as char).collect()
}

/// The guest bytes of a DOS name held one `char` per byte.
pub fn dos_bytes(s: &str) -> Vec<u8> {
    s.chars().map(|c| c as u32 as u8).collect()
}

/// The host file name for a DOS name: each byte as its CP437 character
/// (8Eh is `Ä`), so the host shows what the guest wrote.
pub fn host_name(dos: &str) -> String {
    dos.chars()
        .map(|c| cp437::to_unicode(c as u32 as u8))
        .collect()
}

/// The DOS (upper case) form of a host entry name, if it is a valid 8.3
/// name written in CP437's characters; other host files are invisible to
/// the guest.
pub fn dos_name_of(host: &std::ffi::OsStr) -> Option<String> {
    let s = host.to_str()?;
    let bytes = s
        .chars()
        .map(cp437::from_unicode)
        .collect::<Option<Vec<u8>>>()?;
    let up = dos_upper(&bytes);
    split_83(&up)?;
    Some(up)
}

impl Drive {
    /// Mounts `root` (which must be an existing directory) as C:\.
    pub fn new(root: &Path, ems: bool) -> std::io::Result<Drive> {
        let root = root.canonicalize()?;
        if !root.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                format!("{} is not a directory", root.display()),
            ));
        }
        Ok(Drive {
            root,
            cwd: Vec::new(),
            ems,
            mounts: Vec::new(),
            current: 2,
        })
    }

    /// Adds a read-only drive (the next letter after C: and the drives
    /// already added) at host folder `root`; its drive number (3 = D:).
    pub fn add_read_only(&mut self, root: &Path, blocks: u32) -> std::io::Result<u8> {
        let root = root.canonicalize()?;
        self.mounts.push(Mount {
            root,
            cwd: Vec::new(),
            blocks,
        });
        Ok(2 + self.mounts.len() as u8)
    }

    /// Puts the read-only drives back on host folders, with their sizes
    /// (a save state's drives keep their current directories).
    pub fn reattach(&mut self, roots: &[(PathBuf, u32)]) {
        let old = std::mem::take(&mut self.mounts);
        self.mounts = roots
            .iter()
            .enumerate()
            .map(|(i, (r, blocks))| Mount {
                root: r.clone(),
                cwd: old.get(i).map(|m| m.cwd.clone()).unwrap_or_default(),
                blocks: *blocks,
            })
            .collect();
        if !self.exists(self.current) {
            self.current = 2;
        }
    }

    /// Whether drive `d` (0 = A:) exists.
    pub fn exists(&self, d: u8) -> bool {
        d == 2 || (d >= 3 && usize::from(d - 3) < self.mounts.len())
    }

    /// The size in sectors of read-only drive `d` (0 = A:).
    pub fn blocks(&self, d: u8) -> u32 {
        self.mounts
            .get(usize::from(d.wrapping_sub(3)))
            .map_or(0, |m| m.blocks)
    }

    /// The current drive (0 = A:).
    pub fn current(&self) -> u8 {
        self.current
    }

    /// Makes `d` the current drive; false if it does not exist.
    pub fn select(&mut self, d: u8) -> bool {
        let ok = self.exists(d);
        if ok {
            self.current = d;
        }
        ok
    }

    /// Whether resolved components (or drive `d`'s) are on a read-only
    /// drive: their first is a drive marker.
    pub fn read_only(dos: &[String]) -> bool {
        dos.first().is_some_and(|c| marker_drive(c).is_some())
    }

    /// The current directory of drive `d` (0 = A:), INT 21h 47h's form.
    pub fn cwd_of(&self, d: u8) -> Option<String> {
        match d {
            2 => Some(self.cwd_string()),
            3.. => self
                .mounts
                .get(usize::from(d - 3))
                .map(|m| m.cwd.join("\\")),
            _ => None,
        }
    }

    /// The host root and the components below it of resolved components.
    fn split_root<'a>(&'a self, comps: &'a [String]) -> Result<(&'a Path, &'a [String]), u16> {
        match comps.first().and_then(|c| marker_drive(c)) {
            Some(d) => {
                let m = self
                    .mounts
                    .get(usize::from(d.wrapping_sub(3)))
                    .ok_or(ERR_PATH)?;
                Ok((&m.root, &comps[1..]))
            }
            None => Ok((&self.root, comps)),
        }
    }

    /// Whether EMMXXXX0, the EMS driver's device, is a name on this drive.
    pub fn has_ems(&self) -> bool {
        self.ems
    }

    /// The canonical mount root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The current directory without drive and leading backslash
    /// (INT 21h 47h's form).
    pub fn cwd_string(&self) -> String {
        self.cwd.join("\\")
    }

    /// Splits a DOS path into absolute upper-case components; an error for
    /// another drive, an illegal name or `..` above the root.
    pub fn components(&self, path: &[u8]) -> Result<Vec<String>, u16> {
        if path.len() > MAX_PATH {
            return Err(ERR_PATH);
        }
        let s = dos_upper(path);
        let mut rest = s.as_str();
        let mut d = self.current;
        if rest.len() >= 2 && rest.as_bytes()[1] == b':' {
            d = rest.as_bytes()[0].wrapping_sub(b'A');
            if !self.exists(d) {
                return Err(ERR_PATH);
            }
            rest = &rest[2..];
        }
        let (marker, cwd) = match d {
            2 => (Vec::new(), &self.cwd),
            _ => {
                let m = &self.mounts[usize::from(d - 3)];
                (vec![format!("{}:", (b'A' + d) as char)], &m.cwd)
            }
        };
        let absolute = rest.starts_with('\\') || rest.starts_with('/');
        let mut out = if absolute { Vec::new() } else { cwd.clone() };
        for part in rest.split(['\\', '/']) {
            match part {
                "" | "." => {}
                ".." => {
                    if out.pop().is_none() {
                        return Err(ERR_PATH);
                    }
                }
                p => {
                    // DOS ignores trailing dots ("NAME." is NAME).
                    let p = p.strip_suffix('.').unwrap_or(p);
                    if split_83(p).is_none() {
                        return Err(ERR_PATH);
                    }
                    out.push(p.to_string());
                }
            }
        }
        Ok(marker.into_iter().chain(out).collect())
    }

    /// Resolves a DOS path for reading or writing.
    pub fn resolve(&self, path: &[u8]) -> Result<Resolved, u16> {
        let comps = self.components(path)?;
        if let Some(last) = comps.last() {
            let base = last.split('.').next().unwrap_or("");
            if let Some(d) = Device::from_name(base, self.ems) {
                return Ok(Resolved::Device(d));
            }
        }
        let (root, below) = self.split_root(&comps)?;
        let mut host = root.to_path_buf();
        let n = below.len();
        for (i, c) in below.iter().enumerate() {
            match self.lookup(&host, c) {
                Some(name) => host.push(name),
                None if i + 1 == n => {
                    host.push(host_name(c));
                    check_inside(root, &host, false)?;
                    return Ok(Resolved::Path {
                        host,
                        exists: false,
                        dos: comps,
                    });
                }
                None => return Err(ERR_PATH),
            }
            if i + 1 < n {
                check_inside(root, &host, true)?;
                if !host.is_dir() {
                    return Err(ERR_PATH);
                }
            }
        }
        check_inside(root, &host, true)?;
        Ok(Resolved::Path {
            host,
            exists: true,
            dos: comps,
        })
    }

    /// The absolute DOS path of components as [`Resolved::Path`] gives
    /// them (guest bytes): `\A\B.TXT` on drive C:, `D:\A\B.TXT` on a
    /// read-only drive (whose marker comes first), `\` or `D:\` for a
    /// root. [`Drive::resolve`] takes it back to the same components.
    pub fn dos_path(comps: &[String]) -> Vec<u8> {
        let (mut out, rest) = match comps.first() {
            Some(c) if marker_drive(c).is_some() => (c.as_bytes().to_vec(), &comps[1..]),
            _ => (Vec::new(), comps),
        };
        for c in rest {
            out.push(b'\\');
            out.extend(c.chars().map(|ch| ch as u32 as u8));
        }
        if rest.is_empty() {
            out.push(b'\\');
        }
        out
    }

    /// The path with its drive letter, as DOS names an open file
    /// (`C:\A\B.TXT`, `D:\A\B.TXT`).
    pub fn full_name(comps: &[String]) -> String {
        let p = String::from_utf8_lossy(&Self::dos_path(comps)).into_owned();
        if Self::read_only(comps) {
            p
        } else {
            format!("C:{p}")
        }
    }

    /// Resolves a path that must be an existing regular file (a file a save
    /// state says was open): the same sandbox as every guest path, so a
    /// state cannot name anything outside the mount.
    pub fn resolve_file(&self, path: &[u8]) -> Result<(PathBuf, Vec<String>), u16> {
        match self.resolve(path)? {
            Resolved::Path {
                host,
                exists: true,
                dos,
            } if host.is_file() => Ok((host, dos)),
            Resolved::Path { exists: false, .. } => Err(ERR_FILE),
            _ => Err(ERR_ACCESS),
        }
    }

    /// Resolves a path that must be an existing directory.
    pub fn resolve_dir(&self, path: &[u8]) -> Result<(PathBuf, Vec<String>), u16> {
        match self.resolve(path)? {
            Resolved::Path {
                host,
                exists: true,
                dos,
            } if host.is_dir() => Ok((host, dos)),
            _ => Err(ERR_PATH),
        }
    }

    /// Sets the current directory.
    pub fn chdir(&mut self, path: &[u8]) -> Result<(), u16> {
        let (_, mut dos) = self.resolve_dir(path)?;
        match dos.first().and_then(|c| marker_drive(c)) {
            Some(d) => {
                dos.remove(0);
                self.mounts[usize::from(d - 3)].cwd = dos;
            }
            None => self.cwd = dos,
        }
        Ok(())
    }

    /// The host entry in `dir` whose DOS name is `name`.
    fn lookup(&self, dir: &Path, name: &str) -> Option<std::ffi::OsString> {
        let rd = std::fs::read_dir(dir).ok()?;
        let mut found: Vec<std::ffi::OsString> = rd
            .filter_map(|e| e.ok())
            .map(|e| e.file_name())
            .filter(|f| dos_name_of(f).as_deref() == Some(name))
            .collect();
        // Deterministic when the host has both "a" and "A".
        found.sort();
        found.into_iter().next()
    }

    /// Every drive's host root.
    fn roots(&self) -> impl Iterator<Item = &Path> {
        std::iter::once(self.root.as_path()).chain(self.mounts.iter().map(|m| m.root.as_path()))
    }

    /// The entries of a host directory under the mount that the guest sees:
    /// (DOS name, host path), sorted by DOS name. Entries whose target lies
    /// outside the mount are left out.
    pub fn list(&self, dir: &Path) -> Vec<(String, PathBuf)> {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut v: Vec<(String, PathBuf)> = rd
            .filter_map(|e| e.ok())
            .filter_map(|e| dos_name_of(&e.file_name()).map(|n| (n, e.path())))
            .filter(|(_, p)| self.roots().any(|r| check_inside(r, p, true).is_ok()))
            .collect();
        v.sort();
        v.dedup_by(|a, b| a.0 == b.0);
        v
    }
}

/// The host path must lie under the root once symlinks are followed.
/// For a path that does not exist yet (`exists` false) its parent is
/// checked, and a dangling symlink in its place is refused.
fn check_inside(root: &Path, host: &Path, exists: bool) -> Result<(), u16> {
    if exists {
        let c = host.canonicalize().map_err(|_| ERR_ACCESS)?;
        if !c.starts_with(root) {
            return Err(ERR_ACCESS);
        }
        return Ok(());
    }
    if std::fs::symlink_metadata(host).is_ok() {
        // Something is there that the lookup did not match (or a
        // dangling link): refuse rather than write through it.
        return Err(ERR_ACCESS);
    }
    let parent = host.parent().ok_or(ERR_PATH)?;
    let c = parent.canonicalize().map_err(|_| ERR_PATH)?;
    if !c.starts_with(root) {
        return Err(ERR_ACCESS);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tandem-drive-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("mnt/sub")).unwrap();
        d
    }

    #[test]
    fn dos_paths_name_roots_and_read_only_drives() {
        let c = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(Drive::dos_path(&c(&[])), b"\\");
        assert_eq!(Drive::dos_path(&c(&["A"])), b"\\A");
        assert_eq!(Drive::dos_path(&c(&["A", "B.TXT"])), b"\\A\\B.TXT");
        assert_eq!(Drive::dos_path(&c(&["D:"])), b"D:\\");
        assert_eq!(Drive::dos_path(&c(&["D:", "X.DAT"])), b"D:\\X.DAT");
        assert_eq!(Drive::full_name(&c(&["A", "B.TXT"])), "C:\\A\\B.TXT");
        assert_eq!(Drive::full_name(&c(&["D:", "X.DAT"])), "D:\\X.DAT");
    }

    #[test]
    fn resolves_inside_and_refuses_escapes() {
        let d = temp("esc");
        std::fs::write(d.join("mnt/Hello.Txt"), b"x").unwrap();
        std::fs::write(d.join("secret"), b"s").unwrap();
        let drive = Drive::new(&d.join("mnt"), false).unwrap();
        match drive.resolve(b"c:\\HELLO.TXT").unwrap() {
            Resolved::Path { host, exists, .. } => {
                assert!(exists);
                assert!(host.ends_with("Hello.Txt"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(drive.resolve(b"..\\secret"), Err(ERR_PATH));
        assert_eq!(drive.resolve(b"C:\\..\\..\\secret"), Err(ERR_PATH));
        assert_eq!(drive.resolve(b"SUB\\..\\..\\SECRET"), Err(ERR_PATH));
        assert_eq!(drive.resolve(b"D:\\X"), Err(ERR_PATH));
        assert_eq!(drive.resolve(b"LONGFILENAME.TXT"), Err(ERR_PATH));
        assert_eq!(drive.resolve(b"NOSUCH\\X"), Err(ERR_PATH));
        assert_eq!(
            drive.resolve(b"SUB\\NUL.TXT"),
            Ok(Resolved::Device(Device::Nul))
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(d.join("secret"), d.join("mnt/link")).unwrap();
            std::os::unix::fs::symlink(d.join("nothere"), d.join("mnt/dangle")).unwrap();
            std::os::unix::fs::symlink(&d, d.join("mnt/up")).unwrap();
            assert_eq!(drive.resolve(b"LINK"), Err(ERR_ACCESS));
            assert_eq!(drive.resolve(b"DANGLE"), Err(ERR_ACCESS));
            assert_eq!(drive.resolve(b"UP\\SECRET"), Err(ERR_ACCESS));
            let names: Vec<String> = drive
                .list(drive.root())
                .into_iter()
                .map(|(n, _)| n)
                .collect();
            assert_eq!(names, ["HELLO.TXT", "SUB"]);
        }
        let _ = std::fs::remove_dir_all(&d);
    }
}
