//! Shared helpers: run a DOS program on a fresh machine with drive C: at a
//! folder, call its services, edit a save state, and temporary folders.
//! (`frontend/tests` uses them too.)

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use dos::{Dos, DosConfig, Exit, Session};
use emu::CpuModel;
use hw::{Machine, MachineConfig};

/// `roms/` in the repository.
pub fn roms_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../roms")
}

/// A fresh empty temporary folder for a test.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tandem-dos-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create temp dir");
    d
}

/// Runs `image` as C:\`name` with `tail` on a machine with `model`, for at
/// most `seconds` emulated seconds. Returns how it ended and its text.
pub fn run(
    model: CpuModel,
    mount: &Path,
    name: &str,
    image: &[u8],
    tail: &str,
    seconds: u64,
) -> (Exit, String, Dos, Machine) {
    let (dos, m) = loaded(model, mount, name, image, tail);
    let mut s = Session::new(m, dos);
    let exit = s.run_for(seconds * HZ);
    let out = String::from_utf8_lossy(&s.dos.take_output()).into_owned();
    (exit, out, s.dos, s.m)
}

/// The CPU clock of the helpers' machines.
pub const HZ: u64 = 25_000_000;

/// A machine with DOS installed and a program loaded as C:\`name` (not
/// run), for tests that call services directly.
pub fn loaded(
    model: CpuModel,
    mount: &Path,
    name: &str,
    image: &[u8],
    tail: &str,
) -> (Dos, Machine) {
    let cfg = DosConfig::new(mount.to_path_buf());
    loaded_with(model, cfg, name, image, tail)
}

/// [`loaded`] with DOS configured by `cfg` (its drive C:, its quota).
pub fn loaded_with(
    model: CpuModel,
    cfg: DosConfig,
    name: &str,
    image: &[u8],
    tail: &str,
) -> (Dos, Machine) {
    let mut m = Machine::new(MachineConfig::with_cpu(model, HZ));
    let mut dos = Dos::new(cfg).expect("mount");
    dos.install(&mut m);
    dos.load(&mut m, image, &format!("C:\\{name}"), tail.as_bytes())
        .expect("program loads");
    (dos, m)
}

/// Calls software interrupt `int`'s service with the registers as they
/// are, as the program's `INT` would reach it (a frame on the stack),
/// and returns the carry flag the service put in the frame.
pub fn int(dos: &mut Dos, m: &mut Machine, int: u8) -> bool {
    use dos::mem::{lin, rd16, wr16, Regs};
    let (ss, sp) = (m.ss(), m.sp());
    let sp2 = sp.wrapping_sub(6);
    wr16(m, lin(ss, sp2), 0x1234);
    wr16(m, lin(ss, sp2.wrapping_add(2)), m.cs());
    wr16(m, lin(ss, sp2.wrapping_add(4)), 0x0202);
    m.cpu.regs.set_reg16(emu::Reg16::SP, sp2);
    let flow = dos.service(m, 0xFE000 + int as u32);
    assert_eq!(flow, dos::Flow::Continue, "INT {int:02X}h service");
    let flags = rd16(m, lin(ss, sp2.wrapping_add(4)));
    m.cpu.regs.set_reg16(emu::Reg16::SP, sp);
    flags & 1 != 0
}

/// A save state whose open file's saved path (the string that ends with
/// `marker`) is replaced by `path`: the payload is unsealed, edited (the
/// string's length prefix with it) and sealed again with its checksum.
pub fn with_open_path(state: &[u8], marker: &[u8], path: &[u8]) -> Vec<u8> {
    let raw = dos::state::unseal(state).expect("unseal");
    // The last string ending with the marker that has its length before
    // it (bincode: a u64, then the bytes); guest memory holds it too.
    let (start, end) = (marker.len()..=raw.len())
        .rev()
        .filter(|&e| raw[e - marker.len()..e] == *marker)
        .find_map(|e| {
            (8..e - marker.len() + 1)
                .rev()
                .find(|&s| {
                    let len = u64::from_le_bytes(raw[s - 8..s].try_into().expect("8 bytes"));
                    len == (e - s) as u64
                })
                .map(|s| (s, e))
        })
        .expect("the open file's path is in the state");
    let mut edited = raw[..start - 8].to_vec();
    edited.extend((path.len() as u64).to_le_bytes());
    edited.extend(path);
    edited.extend(&raw[end..]);
    dos::state::seal(&edited).expect("seal")
}
