//! DOS and BIOS services seen from a guest: roms/dos/services.com checks
//! version, date and time, memory allocation, file I/O by handle, find
//! first/next, directories, an INT 21h hook that chains to DOS, the timer
//! tick with a hooked INT 1Ch, XMS, EMS, EXEC with a return code, and
//! INT 10h; it prints "OK name" or "FAIL name" for each.

mod common;

use dos::Exit;
use emu::CpuModel;

#[test]
fn services_program_passes_every_check() {
    let mount = common::temp_dir("services");
    let roms = common::roms_dir().join("dos");
    std::fs::copy(roms.join("hello.com"), mount.join("HELLO.COM")).expect("copy hello");
    let image = std::fs::read(roms.join("services.com")).expect("services.com");
    let (exit, out, dos, mut m) =
        common::run(CpuModel::I386, &mount, "SERVICES.COM", &image, "", 20);
    assert_eq!(exit, Exit::Exited(0), "output:\n{out}");
    for name in [
        "shrink", "version", "date", "time", "memory", "files", "find", "dirs", "hook21", "tick",
        "xms", "ems", "exec", "video",
    ] {
        assert!(
            out.contains(&format!("OK {name}\n")),
            "{name} did not pass; output:\n{out}"
        );
    }
    assert!(!out.contains("FAIL"), "output:\n{out}");
    // The child's text came through EXEC.
    assert!(out.contains("Hello, x!\n"), "output:\n{out}");
    // INT 10h's teletype wrote 'X' at row 10, column 5 of the text screen
    // (after the mode set cleared it), and DOS's text followed it: both on
    // the screen and on stdout.
    assert!(out.ends_with("XOK video\n"), "output:\n{out}");
    let row: Vec<u8> = (5..14)
        .map(|c| dos::mem::rd8(&mut m, 0xB8000 + (10 * 80 + c) * 2))
        .collect();
    assert_eq!(&row, b"XOK video", "screen row 10");
    assert!(dos.warnings().is_empty(), "{:?}", dos.warnings());
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn runs_are_deterministic() {
    let image = std::fs::read(common::roms_dir().join("dos/services.com")).expect("services.com");
    let hello = common::roms_dir().join("dos/hello.com");
    let mut hashes = Vec::new();
    for i in 0..2 {
        let mount = common::temp_dir(&format!("determinism{i}"));
        std::fs::copy(&hello, mount.join("HELLO.COM")).expect("copy hello");
        let (exit, out, _, m) = common::run(CpuModel::I386, &mount, "SERVICES.COM", &image, "", 20);
        assert_eq!(exit, Exit::Exited(0));
        hashes.push((m.cycles(), m.state_hash(), out));
        let _ = std::fs::remove_dir_all(&mount);
    }
    assert_eq!(hashes[0], hashes[1]);
}

#[test]
fn unimplemented_functions_warn_once_and_return_error_1() {
    let mount = common::temp_dir("unimpl");
    // Two INT 21h AX=7300h (Windows 95's FAT32 functions, not in MS-DOS
    // 5/6 and not implemented), then exit with AL
    // (the error code when carry is set, FFh otherwise).
    let prog = [
        0xB8, 0x00, 0x73, 0xCD, 0x21, 0xB8, 0x00, 0x73, 0xCD, 0x21, 0x72, 0x02, 0xB0, 0xFF, 0xB4,
        0x4C, 0xCD, 0x21,
    ];
    let (exit, _, dos, _) = common::run(CpuModel::I8086, &mount, "U.COM", &prog, "", 1);
    assert_eq!(exit, Exit::Exited(1));
    assert_eq!(dos.warnings().len(), 1, "{:?}", dos.warnings());
    assert!(
        dos.warnings()[0].contains("INT 21h AH=73h"),
        "{:?}",
        dos.warnings()
    );
    let _ = std::fs::remove_dir_all(&mount);
}
