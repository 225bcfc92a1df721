//! Shared helpers: run a DOS program on a fresh machine with drive C: at a
//! folder, and temporary folders.

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
    let hz = 25_000_000;
    let mut m = Machine::new(MachineConfig::with_cpu(model, hz));
    let mut dos = Dos::new(DosConfig::new(mount.to_path_buf())).expect("mount");
    dos.install(&mut m);
    dos.load(&mut m, image, &format!("C:\\{name}"), tail.as_bytes())
        .expect("program loads");
    let mut s = Session::new(m, dos);
    let exit = s.run_for(seconds * hz);
    let out = String::from_utf8_lossy(&s.dos.take_output()).into_owned();
    (exit, out, s.dos, s.m)
}

/// A machine with DOS installed and a program loaded as C:\`name` (not
/// run), for tests that call services directly.
pub fn loaded(
    model: CpuModel,
    mount: &Path,
    name: &str,
    image: &[u8],
    tail: &str,
) -> (Dos, Machine) {
    let mut m = Machine::new(MachineConfig::with_cpu(model, 25_000_000));
    let mut dos = Dos::new(DosConfig::new(mount.to_path_buf())).expect("mount");
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
