//! The PKLITE programs of the shared corpus (digger, topbench) load and
//! start: their headers put CS:IP at FFF0:0100, relative to the load
//! segment, which must wrap to the PSP:0100 where PKLITE's decompressor
//! expects to run, with the PSP's top of memory telling it where it may
//! move itself. Both must run a second without stopping and without
//! asking for anything tandem lacks. The corpus lives in `<repo>/../shared`
//! (or `TANDEM_SHARED`); missing data fails loudly.

mod common;

use std::path::PathBuf;

use dos::mz::Executable;
use dos::Exit;
use emu::CpuModel;

fn corpus(name: &str, file: &str) -> Vec<u8> {
    let shared = match std::env::var_os("TANDEM_SHARED") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    let path = shared.join("corpus").join(name).join(file);
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "corpus program {} not found ({e}); set TANDEM_SHARED to the shared directory",
            path.display()
        )
    })
}

fn starts(name: &str, file: &str) {
    let image = corpus(name, file);
    match Executable::parse(&image).expect("parses") {
        Executable::Exe { header, .. } => {
            assert_eq!((header.cs, header.ip), (0xFFF0, 0x0100), "PKLITE entry");
        }
        other => panic!("{name}: not an MZ program: {other:?}"),
    }
    // The program runs from an empty folder: digger writes DIGGER.SCO.
    let mount = common::temp_dir(&format!("corpus-{name}"));
    let (exit, _, dos, m) = common::run(CpuModel::I8086, &mount, file, &image, "", 1);
    assert_eq!(exit, Exit::Limit, "{name} stopped");
    assert!(dos.warnings().is_empty(), "{name}: {:?}", dos.warnings());
    // It got past the decompressor: CS is no longer the PSP's.
    assert_ne!(
        m.cpu.regs.sreg(emu::SegReg::CS),
        dos.current_psp(),
        "{name}"
    );
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn digger_starts() {
    starts("digger", "DIGGER.EXE");
}

#[test]
fn topbench_starts() {
    starts("topbench", "TOPBENCH.EXE");
}
