//! DOS as MS-DOS 5/6 presents it to a program, checked by calling the
//! services with registers set as a program would and reading back
//! registers and guest memory: the PSP byte by byte, the environment, FCB
//! file I/O inside the mount (and refused outside it), IOCTL, country
//! tables, TRUENAME, the disk's description, INT 2Fh and the smaller
//! functions.

mod common;

use dos::mem::{lin, rd16, rd32, rd8, read_bytes, wr16, wr8, write_bytes, Regs};
use dos::{Dos, Exit};
use emu::CpuModel;
use hw::Machine;

/// A one-instruction program (INT 20h), never run.
const STUB: &[u8] = &[0xCD, 0x20];

fn setup(name: &str, tail: &str) -> (Dos, Machine, std::path::PathBuf) {
    let mount = common::temp_dir(name);
    let (dos, m) = common::loaded(CpuModel::I386, &mount, "T.COM", STUB, tail);
    (dos, m, mount)
}

fn int21(dos: &mut Dos, m: &mut Machine, ax: u16) -> bool {
    m.set_ax(ax);
    common::int(dos, m, 0x21)
}

#[test]
fn psp_is_laid_out_as_ms_dos_5_builds_it() {
    let (dos, mut m, mount) = setup("psp", " A:FOO.TXT bar.c");
    let psp = dos.current_psp();
    let p = read_bytes(&mut m, psp, 0, 0x100);
    let w = |o: usize| u16::from_le_bytes([p[o], p[o + 1]]);
    assert_eq!(&p[0..2], &[0xCD, 0x20], "INT 20h");
    // Top of memory: the end of the program's block.
    let mcb_size = rd16(&mut m, lin(psp - 1, 3));
    assert_eq!(w(2), psp + mcb_size, "top of memory");
    assert_eq!(p[4], 0);
    // CALL F01D:FEF0 (0000:00C0 with A20 off); 06h = bytes available.
    assert_eq!(&p[5..10], &[0x9A, 0xF0, 0xFE, 0x1D, 0xF0], "CP/M call");
    assert_eq!(rd8(&mut m, 0xC0), 0xEA, "far jump at 0000:00C0");
    // INT 22h-24h as the IVT had them (DOS's handlers).
    for (i, v) in [0x22u32, 0x23, 0x24].into_iter().enumerate() {
        let off = rd16(&mut m, v * 4);
        let seg = rd16(&mut m, v * 4 + 2);
        assert_eq!((w(0x0A + 4 * i), w(0x0C + 4 * i)), (off, seg), "INT {v:X}h");
        assert_eq!(seg, 0xF000);
    }
    // The parent is the shell, COMMAND.COM's PSP, its own parent.
    let shell = w(0x16);
    assert_eq!(rd16(&mut m, lin(shell, 0x16)), shell);
    assert_eq!(&read_bytes(&mut m, shell - 1, 8, 7), b"COMMAND");
    // JFT: stdin, stdout, stderr on CON (SFT 1), AUX (0), PRN (2); the
    // rest closed.
    assert_eq!(&p[0x18..0x1D], &[1, 1, 1, 0, 2]);
    assert!(p[0x1D..0x2C].iter().all(|&b| b == 0xFF));
    assert_ne!(w(0x2C), 0, "environment");
    assert_eq!(w(0x32), 20, "JFT size");
    assert_eq!((w(0x34), w(0x36)), (0x18, psp), "JFT pointer");
    assert_eq!(&p[0x38..0x3C], &[0xFF; 4], "previous PSP");
    assert_eq!(&p[0x40..0x42], &[5, 0], "version 5.00");
    assert_eq!(&p[0x50..0x53], &[0xCD, 0x21, 0xCB], "INT 21h; RETF");
    // Unopened FCBs from the first two arguments.
    assert_eq!(p[0x5C], 1, "A:");
    assert_eq!(&p[0x5D..0x68], b"FOO     TXT");
    assert!(p[0x68..0x6C].iter().all(|&b| b == 0));
    assert_eq!(p[0x6C], 0, "default drive");
    assert_eq!(&p[0x6D..0x78], b"BAR     C  ");
    // Command tail with its length and CR.
    assert_eq!(p[0x80] as usize, " A:FOO.TXT bar.c".len());
    assert_eq!(&p[0x81..0x91], b" A:FOO.TXT bar.c");
    assert_eq!(p[0x91], 0x0D);
    // The MCB is named after the program.
    assert_eq!(&read_bytes(&mut m, psp - 1, 8, 2), b"T\0");
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn entry_registers_are_ms_dos_5s() {
    let mount = common::temp_dir("entry");
    // A:, an invalid drive here, in the first FCB: AL = FFh.
    let (dos, m) = common::loaded(CpuModel::I386, &mount, "T.COM", STUB, " A:X C:Y");
    let psp = dos.current_psp();
    assert_eq!(m.ax(), 0x00FF);
    assert_eq!((m.bx(), m.cx(), m.dx()), (0, 0x00FF, psp));
    assert_eq!(
        (m.si(), m.di(), m.bp(), m.sp()),
        (0x0100, 0xFFFE, 0x091C, 0xFFFE)
    );
    assert_eq!((m.cs(), m.ds(), m.es(), m.ss()), (psp, psp, psp, psp));
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn environment_has_the_shell_strings_then_the_program_path() {
    let (dos, mut m, mount) = setup("env", "");
    let env = rd16(&mut m, lin(dos.current_psp(), 0x2C));
    let bytes = read_bytes(&mut m, env, 0, 80);
    // MS-DOS 6.22's: COMSPEC, then AUTOEXEC.BAT's PROMPT, PATH and TEMP.
    let want =
        b"COMSPEC=C:\\COMMAND.COM\0PROMPT=$p$g\0PATH=C:\\DOS\0TEMP=C:\\DOS\0\0\x01\0C:\\T.COM\0";
    assert_eq!(&bytes[..want.len()], want);
    // The block belongs to the program.
    assert_eq!(rd16(&mut m, lin(env - 1, 1)), dos.current_psp());
    let _ = std::fs::remove_dir_all(&mount);
}

/// Writes an FCB (drive 0, name) at PSP:0200h and points DS:DX at it.
fn fcb(m: &mut Machine, psp: u16, name: &[u8; 11]) {
    write_bytes(m, psp, 0x200, &[0; 0x25]);
    write_bytes(m, psp, 0x201, name);
    m.set_ds(psp);
    m.set_dx(0x200);
}

#[test]
fn fcb_files_round_trip_inside_the_mount() {
    let (mut dos, mut m, mount) = setup("fcb", "");
    let psp = dos.current_psp();
    // DTA at PSP:0400h.
    m.set_ds(psp);
    m.set_dx(0x400);
    int21(&mut dos, &mut m, 0x1A00);
    fcb_create_and_write(&mut dos, &mut m, &mount);
    fcb_read_back(&mut dos, &mut m);
    fcb_cut_find_rename_delete(&mut dos, &mut m, &mount);
    let _ = std::fs::remove_dir_all(&mount);
}

/// 16h creates TEST.DAT, 15h writes three 16-byte records, 10h closes it.
fn fcb_create_and_write(dos: &mut Dos, m: &mut Machine, mount: &std::path::Path) {
    let psp = dos.current_psp();
    let f = |k: u16| lin(psp, 0x200 + k);
    // Create: drive filled in, record size 128, size 0.
    fcb(m, psp, b"TEST    DAT");
    int21(dos, m, 0x1600);
    assert_eq!(m.al(), 0);
    assert_eq!(rd8(m, f(0)), 3);
    assert_eq!(rd16(m, f(0x0E)), 128);
    assert_eq!(rd32(m, f(0x10)), 0);
    // Three sequential 16-byte records.
    wr16(m, f(0x0E), 16);
    wr8(m, f(0x20), 0);
    for r in 0..3u8 {
        write_bytes(m, psp, 0x400, &[b'a' + r; 16]);
        int21(dos, m, 0x1500);
        assert_eq!(m.al(), 0, "write {r}");
    }
    assert_eq!(rd8(m, f(0x20)), 3, "current record advanced");
    assert_eq!(rd32(m, f(0x10)), 48, "size updated");
    int21(dos, m, 0x1000);
    assert_eq!(m.al(), 0);
    let host = std::fs::read(mount.join("TEST.DAT")).expect("written on the host");
    assert_eq!(host.len(), 48);
    assert_eq!(&host[16..32], &[b'b'; 16]);
}

/// 0Fh opens it again; sequential, random, partial and block reads, the
/// size in records and the random record.
fn fcb_read_back(dos: &mut Dos, m: &mut Machine) {
    let psp = dos.current_psp();
    let f = |k: u16| lin(psp, 0x200 + k);
    // Open again: size 48, record size 128; read with 16-byte records.
    fcb(m, psp, b"TEST    DAT");
    int21(dos, m, 0x0F00);
    assert_eq!(m.al(), 0);
    assert_eq!(rd32(m, f(0x10)), 48);
    assert_eq!(rd16(m, f(0x0E)), 128);
    wr16(m, f(0x0E), 16);
    int21(dos, m, 0x1400);
    assert_eq!(m.al(), 0);
    assert_eq!(read_bytes(m, psp, 0x400, 16), [b'a'; 16]);
    // Random read of record 2.
    wr32(m, f(0x21), 2);
    int21(dos, m, 0x2100);
    assert_eq!(m.al(), 0);
    assert_eq!(read_bytes(m, psp, 0x400, 16), [b'c'; 16]);
    // Past the end: EOF.
    wr32(m, f(0x21), 3);
    int21(dos, m, 0x2100);
    assert_eq!(m.al(), 1);
    // A 32-byte record at offset 32 is partial: 16 bytes and zeros.
    wr16(m, f(0x0E), 32);
    wr32(m, f(0x21), 1);
    int21(dos, m, 0x2100);
    assert_eq!(m.al(), 3);
    let got = read_bytes(m, psp, 0x400, 32);
    assert_eq!(&got[..16], &[b'c'; 16]);
    assert_eq!(&got[16..], &[0; 16]);
    // File size in records: 48 / 32 rounded up.
    int21(dos, m, 0x2300);
    assert_eq!((m.al(), rd32(m, f(0x21))), (0, 2));
    // Random block read of 3 16-byte records from record 0.
    wr16(m, f(0x0E), 16);
    wr32(m, f(0x21), 0);
    m.set_cx(3);
    int21(dos, m, 0x2700);
    assert_eq!((m.al(), m.cx()), (0, 3));
    assert_eq!(read_bytes(m, psp, 0x410, 16), [b'b'; 16]);
    assert_eq!(rd32(m, f(0x21)), 3, "random record advanced");
    // Set random record from the current block/record.
    wr16(m, f(0x0C), 1);
    wr8(m, f(0x20), 5);
    int21(dos, m, 0x2400);
    assert_eq!(rd32(m, f(0x21)), 133);
}

/// 28h with CX = 0 cuts the file; 11h/12h find it, 17h renames it with a
/// wildcard, 13h deletes it.
fn fcb_cut_find_rename_delete(dos: &mut Dos, m: &mut Machine, mount: &std::path::Path) {
    let psp = dos.current_psp();
    let f = |k: u16| lin(psp, 0x200 + k);
    // Random block write of 0 records: the file is cut to 1 record.
    wr32(m, f(0x21), 1);
    m.set_cx(0);
    int21(dos, m, 0x2800);
    assert_eq!(m.al(), 0);
    assert_eq!(std::fs::metadata(mount.join("TEST.DAT")).unwrap().len(), 16);
    // Find first with a wildcard: drive byte and directory entry at the DTA.
    fcb(m, psp, b"????????DAT");
    int21(dos, m, 0x1100);
    assert_eq!(m.al(), 0);
    assert_eq!(rd8(m, lin(psp, 0x400)), 3);
    assert_eq!(read_bytes(m, psp, 0x401, 11), b"TEST    DAT");
    assert_eq!(rd32(m, lin(psp, 0x401 + 0x1C)), 16);
    int21(dos, m, 0x1200);
    assert_eq!(m.al(), 0xFF, "one match only");
    // Rename with a wildcard in the new name, then delete.
    fcb(m, psp, b"TEST    DAT");
    write_bytes(m, psp, 0x211, b"NEW?????BIN");
    int21(dos, m, 0x1700);
    assert_eq!(m.al(), 0);
    assert!(mount.join("NEWT.BIN").exists(), "renamed NEW + T from TEST");
    assert!(!mount.join("TEST.DAT").exists());
    fcb(m, psp, b"NEW?    BIN");
    int21(dos, m, 0x1300);
    assert_eq!(m.al(), 0);
    assert!(!mount.join("NEWT.BIN").exists());
    int21(dos, m, 0x1300);
    assert_eq!(m.al(), 0xFF, "nothing left to delete");
    int21(dos, m, 0x5900);
    assert_eq!(m.ax(), 2);
}

fn wr32(m: &mut Machine, a: u32, v: u32) {
    dos::mem::wr32(m, a, v);
}

#[test]
fn fcbs_cannot_reach_outside_the_mount() {
    let base = common::temp_dir("fcbhostile");
    let mount = base.join("mnt");
    std::fs::create_dir_all(mount.join("SUB")).unwrap();
    std::fs::write(base.join("SECRET.TXT"), b"secret").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(base.join("SECRET.TXT"), mount.join("LINK.TXT")).unwrap();
    let (mut dos, mut m) = common::loaded(CpuModel::I386, &mount, "T.COM", STUB, "");
    assert!(dos.chdir("\\SUB"));
    let psp = dos.current_psp();
    m.set_ds(psp);
    m.set_dx(0x400);
    int21(&mut dos, &mut m, 0x1A00);
    let names: [&[u8; 11]; 4] = [
        b"..         ",
        b"..\\SECRET  ",
        b"/TMP       ",
        b"A:B     TXT",
    ];
    for name in names {
        for ah in [0x0Fu16, 0x16, 0x13, 0x23] {
            fcb(&mut m, psp, name);
            int21(&mut dos, &mut m, ah << 8);
            assert_eq!(
                m.al(),
                0xFF,
                "AH={ah:02X}h {:?}",
                String::from_utf8_lossy(name)
            );
        }
    }
    // Drive D: does not exist.
    fcb(&mut m, psp, b"X       TXT");
    wr8(&mut m, lin(psp, 0x200), 4);
    int21(&mut dos, &mut m, 0x1600);
    assert_eq!(m.al(), 0xFF);
    #[cfg(unix)]
    {
        assert!(dos.chdir("\\"));
        for ah in [0x0Fu16, 0x16, 0x13, 0x17] {
            fcb(&mut m, psp, b"LINK    TXT");
            write_bytes(&mut m, psp, 0x211, b"X       TXT");
            int21(&mut dos, &mut m, ah << 8);
            assert_eq!(m.al(), 0xFF, "AH={ah:02X}h through a symlink");
        }
    }
    assert_eq!(std::fs::read(base.join("SECRET.TXT")).unwrap(), b"secret");
    let mut left: Vec<_> = std::fs::read_dir(&mount)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    #[cfg(unix)]
    assert_eq!(left, ["LINK.TXT", "SUB"]);
    assert_eq!(std::fs::read_dir(mount.join("SUB")).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn ioctl_answers_as_ms_dos_5() {
    let (mut dos, mut m, mount) = setup("ioctl", "");
    ioctl_on_con(&mut dos, &mut m);
    ioctl_on_a_file(&mut dos, &mut m, &mount);
    ioctl_on_drives(&mut dos, &mut m);
    generic_ioctl_on_drive_c(&mut dos, &mut m);
    assert!(dos.warnings().is_empty(), "{:?}", dos.warnings());
    let _ = std::fs::remove_dir_all(&mount);
}

/// INT 21h AX with carry clear.
fn ok(dos: &mut Dos, m: &mut Machine, ax: u16) -> bool {
    !int21(dos, m, ax)
}

/// 4400h/4401h on CON (handle 1).
fn ioctl_on_con(dos: &mut Dos, m: &mut Machine) {
    // CON: device, console in/out, not EOF, special.
    m.set_bx(1);
    assert!(ok(dos, m, 0x4400));
    assert_eq!(m.dx(), 0x80D3);
    // Binary mode on CON.
    m.set_bx(1);
    m.set_dx(0x00F3);
    assert!(ok(dos, m, 0x4401));
    m.set_bx(1);
    assert!(ok(dos, m, 0x4400));
    assert_eq!(m.dx() & 0x20, 0x20);
    // DH must be 0.
    m.set_bx(1);
    m.set_dx(0x0100);
    assert!(!ok(dos, m, 0x4401));
    assert_eq!(m.ax(), 0x0D);
}

/// 4400h, 4406h and 440Ah on a file; 4402h, 4403h, 440Ch and 4410h on
/// CON.
fn ioctl_on_a_file(dos: &mut Dos, m: &mut Machine, mount: &std::path::Path) {
    let psp = dos.current_psp();
    // A new file: drive C:, not written (bit 6); after a write bit 6 is
    // clear.
    std::fs::write(mount.join("F.TXT"), b"abc").unwrap();
    write_bytes(m, psp, 0x300, b"F.TXT\0");
    m.set_ds(psp);
    m.set_dx(0x300);
    assert!(ok(dos, m, 0x3D02));
    let h = m.ax();
    m.set_bx(h);
    assert!(ok(dos, m, 0x4400));
    assert_eq!(m.dx(), 0x0042);
    // Input status: ready before the end, not at it.
    m.set_bx(h);
    assert!(ok(dos, m, 0x4406));
    assert_eq!(m.al(), 0xFF);
    m.set_bx(h);
    m.set_cx(0);
    m.set_dx(0);
    assert!(ok(dos, m, 0x4202));
    m.set_bx(h);
    assert!(ok(dos, m, 0x4406));
    assert_eq!(m.al(), 0);
    m.set_bx(h);
    m.set_cx(1);
    m.set_ds(psp);
    m.set_dx(0x300);
    assert!(ok(dos, m, 0x4000));
    m.set_bx(h);
    assert!(ok(dos, m, 0x4400));
    assert_eq!(m.dx(), 0x0002);
    m.set_bx(h);
    assert!(ok(dos, m, 0x440A));
    assert_eq!(m.dx() & 0x8000, 0, "local");
    // Control strings and generic IOCTL on handles: invalid function.
    for ax in [0x4402u16, 0x4403, 0x440C, 0x4410] {
        m.set_bx(1);
        assert!(!ok(dos, m, ax), "{ax:04X}");
        assert_eq!(m.ax(), 1);
    }
}

/// 4408h, 4409h, 440Eh and 440Bh on drives.
fn ioctl_on_drives(dos: &mut Dos, m: &mut Machine) {
    // Drive C: fixed, local; A: and D: invalid.
    m.set_bx(3);
    assert!(ok(dos, m, 0x4408));
    assert_eq!(m.ax(), 1);
    m.set_bx(0);
    assert!(ok(dos, m, 0x4409));
    assert_eq!(m.dx() & 0x1000, 0);
    for bl in [1u16, 4] {
        m.set_bx(bl);
        assert!(!ok(dos, m, 0x4408));
        assert_eq!(m.ax(), 0x0F);
    }
    m.set_bx(3);
    assert!(ok(dos, m, 0x440E));
    assert_eq!(m.al(), 0);
    m.set_bx(0);
    m.set_cx(0);
    assert!(ok(dos, m, 0x440B));
}

/// 440Dh and 4411h for drive C:.
fn generic_ioctl_on_drive_c(dos: &mut Dos, m: &mut Machine) {
    let psp = dos.current_psp();
    // Generic IOCTL for drive C: device parameters (fixed disk, BPB) and
    // the media ID.
    m.set_bx(3);
    m.set_cx(0x0860);
    m.set_ds(psp);
    m.set_dx(0x500);
    assert!(ok(dos, m, 0x440D));
    let p = read_bytes(m, psp, 0x500, 0x20);
    assert_eq!(p[1], 5, "fixed disk");
    assert_eq!(u16::from_le_bytes([p[2], p[3]]) & 1, 1, "not removable");
    assert_eq!(u16::from_le_bytes([p[7], p[8]]), 512, "bytes per sector");
    assert_eq!(p[9], 64, "sectors per cluster");
    assert_eq!(p[0x07 + 10], 0xF8, "media");
    m.set_bx(3);
    m.set_cx(0x0866);
    m.set_dx(0x500);
    assert!(ok(dos, m, 0x440D));
    let id = read_bytes(m, psp, 0x500, 0x19);
    assert_eq!(&id[6..17], b"TANDEM     ");
    assert_eq!(&id[17..25], b"FAT16   ");
    m.set_bx(3);
    m.set_cx(0x0846);
    assert!(!ok(dos, m, 0x440D), "no boot sector to write");
    // Query: 60h supported, 41h (write track) not.
    m.set_bx(3);
    m.set_cx(0x0860);
    assert!(ok(dos, m, 0x4411));
    m.set_bx(3);
    m.set_cx(0x0841);
    assert!(!ok(dos, m, 0x4411));
}

#[test]
fn country_tables_are_code_page_437s() {
    let (mut dos, mut m, mount) = setup("country", "");
    let psp = dos.current_psp();
    m.set_es(psp);
    m.set_di(0x300);
    m.set_bx(0xFFFF);
    m.set_dx(0xFFFF);
    m.set_cx(64);
    assert!(!int21(&mut dos, &mut m, 0x6501));
    assert_eq!(m.cx(), 41);
    let info = read_bytes(&mut m, psp, 0x300, 41);
    assert_eq!(info[0], 1);
    assert_eq!(u16::from_le_bytes([info[1], info[2]]), 38);
    assert_eq!(u16::from_le_bytes([info[3], info[4]]), 1, "country");
    assert_eq!(u16::from_le_bytes([info[5], info[6]]), 437, "code page");
    assert_eq!(info[7 + 2], b'$');
    // The same 34 bytes as 38h.
    m.set_ds(psp);
    m.set_dx(0x380);
    assert!(!int21(&mut dos, &mut m, 0x3800));
    assert_eq!(m.bx(), 1);
    assert_eq!(read_bytes(&mut m, psp, 0x380, 34), &info[7..]);
    // Table pointers: id byte, then a far pointer to a length-prefixed
    // table.
    for (al, len) in [(2u8, 0x80u16), (4, 0x80), (6, 0x100), (7, 0)] {
        m.set_es(psp);
        m.set_di(0x300);
        m.set_bx(0xFFFF);
        m.set_dx(0xFFFF);
        m.set_cx(5);
        assert!(!int21(&mut dos, &mut m, 0x6500 | al as u16));
        assert_eq!(rd8(&mut m, lin(psp, 0x300)), al);
        let off = rd16(&mut m, lin(psp, 0x301));
        let seg = rd16(&mut m, lin(psp, 0x303));
        assert_eq!(rd16(&mut m, lin(seg, off)), len, "table {al:02X}h");
        if al == 2 {
            // u-umlaut (81h) -> U-umlaut (9Ah); a-grave (85h) -> 'A'.
            assert_eq!(rd8(&mut m, lin(seg, off + 2 + 1)), 0x9A);
            assert_eq!(rd8(&mut m, lin(seg, off + 2 + 5)), b'A');
        }
    }
    // 05h: the file-name terminators include the path characters.
    m.set_es(psp);
    m.set_di(0x300);
    m.set_cx(5);
    assert!(!int21(&mut dos, &mut m, 0x6505));
    let off = rd16(&mut m, lin(psp, 0x301));
    let seg = rd16(&mut m, lin(psp, 0x303));
    let len = rd16(&mut m, lin(seg, off)) as usize;
    let t = read_bytes(&mut m, seg, off + 2, len);
    assert!(t.ends_with(b".\"/\\[]:|<>+=;,"));
    // Another country: not available (no COUNTRY.SYS).
    m.set_cx(64);
    m.set_dx(49);
    assert!(int21(&mut dos, &mut m, 0x6501));
    // Capitalisation.
    m.set_dx(0x0084);
    assert!(!int21(&mut dos, &mut m, 0x6520));
    assert_eq!(m.dl(), 0x8E);
    write_bytes(&mut m, psp, 0x300, b"abc\x87x\0yz");
    m.set_ds(psp);
    m.set_dx(0x300);
    assert!(!int21(&mut dos, &mut m, 0x6522));
    assert_eq!(read_bytes(&mut m, psp, 0x300, 8), b"ABC\x80X\0yz");
    m.set_cx(2);
    m.set_dx(0x306);
    assert!(!int21(&mut dos, &mut m, 0x6521));
    assert_eq!(read_bytes(&mut m, psp, 0x306, 2), b"YZ");
    for (c, v) in [(b'y', 1u16), (b'N', 0), (b'?', 2)] {
        m.set_dx(c as u16);
        assert!(!int21(&mut dos, &mut m, 0x6523));
        assert_eq!(m.ax(), v);
    }
    // 66h: code page 437 both active and system.
    assert!(!int21(&mut dos, &mut m, 0x6601));
    assert_eq!((m.bx(), m.dx()), (437, 437));
    assert!(dos.warnings().is_empty(), "{:?}", dos.warnings());
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn truename_canonicalises_without_touching_the_disk() {
    let (mut dos, mut m, mount) = setup("truename", "");
    std::fs::create_dir(mount.join("SUB")).unwrap();
    assert!(dos.chdir("\\SUB"));
    let psp = dos.current_psp();
    for (path, want) in [
        (
            &b"..\\sub\\.\\file.txt\0"[..],
            Some(&b"C:\\SUB\\FILE.TXT"[..]),
        ),
        (b"*.exe\0", Some(b"C:\\SUB\\????????.EXE")),
        (b"nul\0", Some(b"C:/NUL")),
        (b"c:\\..\0", None),
        (b"d:x\0", None),
    ] {
        write_bytes(&mut m, psp, 0x300, path);
        m.set_ds(psp);
        m.set_si(0x300);
        m.set_es(psp);
        m.cpu.regs.set_reg16(emu::Reg16::DI, 0x380);
        let cf = int21(&mut dos, &mut m, 0x6000);
        match want {
            Some(w) => {
                assert!(!cf);
                assert_eq!(dos::mem::read_asciiz(&mut m, psp, 0x380, 128), w);
            }
            None => assert!(cf),
        }
    }
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn the_disk_is_described_consistently() {
    let (mut dos, mut m, mount) = setup("disk", "");
    m.set_dx(3);
    int21(&mut dos, &mut m, 0x3600);
    let (spc, free, bps, total) = (m.ax(), m.bx(), m.cx(), m.dx());
    assert_eq!((spc, bps), (64, 512));
    assert!(free < total);
    m.set_dx(0);
    int21(&mut dos, &mut m, 0x1C00);
    assert_eq!((m.al() as u16, m.cx(), m.dx()), (spc, bps, total));
    let media = lin(m.ds(), m.bx());
    assert_eq!(rd8(&mut m, media), 0xF8, "media byte");
    m.set_dx(3);
    int21(&mut dos, &mut m, 0x3200);
    assert_eq!(m.al(), 0);
    let (ds, bx) = (m.ds(), m.bx());
    let d = read_bytes(&mut m, ds, bx, 0x21);
    assert_eq!(d[0], 2, "drive C:");
    assert_eq!(u16::from_le_bytes([d[2], d[3]]), bps);
    assert_eq!(d[4] as u16 + 1, spc);
    assert_eq!(u16::from_le_bytes([d[0x0D], d[0x0E]]), total + 1);
    assert_eq!(u16::from_le_bytes([d[0x1F], d[0x20]]), free);
    // The List of Lists' first DPB is this one.
    let (dpb_seg, dpb_off) = (m.ds(), m.bx());
    int21(&mut dos, &mut m, 0x5200);
    let (es, bx) = (m.es(), m.bx());
    assert_eq!(rd16(&mut m, lin(es, bx)), dpb_off);
    assert_eq!(rd16(&mut m, lin(es, bx + 2)), dpb_seg);
    // The device chain from NUL reaches CON.
    let mut dev = (es, bx + 0x22);
    let mut names = Vec::new();
    for _ in 0..10 {
        names.push(String::from_utf8_lossy(&read_bytes(&mut m, dev.0, dev.1 + 10, 8)).into_owned());
        let off = rd16(&mut m, lin(dev.0, dev.1));
        let seg = rd16(&mut m, lin(dev.0, dev.1 + 2));
        if off == 0xFFFF {
            break;
        }
        dev = (seg, off);
    }
    assert_eq!(names[0], "NUL     ");
    assert_eq!(names[1], "EMMXXXX0");
    assert!(names.contains(&"CON     ".to_string()));
    assert!(names.contains(&"CLOCK$  ".to_string()));
    m.set_dx(1);
    int21(&mut dos, &mut m, 0x3200);
    assert_eq!(m.al(), 0xFF, "A: has no DPB here");
    // The CDS: C: valid with this DPB and its current directory, A:
    // not valid.
    let cds_ptr = (
        rd16(&mut m, lin(es, bx + 0x16)),
        rd16(&mut m, lin(es, bx + 0x18)),
    );
    let c = cds_ptr.0 + 2 * 0x58;
    assert_eq!(read_bytes(&mut m, cds_ptr.1, c, 4), b"C:\\\0");
    assert_eq!(rd16(&mut m, lin(cds_ptr.1, c + 0x43)), 0x4000);
    assert_eq!(rd16(&mut m, lin(cds_ptr.1, c + 0x45)), dpb_off);
    assert_eq!(rd16(&mut m, lin(cds_ptr.1, cds_ptr.0 + 0x43)), 0);
    std::fs::create_dir(mount.join("SUB")).unwrap();
    let psp0 = dos.current_psp();
    write_bytes(&mut m, psp0, 0x300, b"sub\0");
    m.set_ds(psp0);
    m.set_dx(0x300);
    assert!(!int21(&mut dos, &mut m, 0x3B00));
    assert_eq!(read_bytes(&mut m, cds_ptr.1, c, 7), b"C:\\SUB\0");
    // 69h: serial number and label as IOCTL's media ID.
    let psp = dos.current_psp();
    m.set_bx(3);
    m.set_ds(psp);
    m.set_dx(0x300);
    assert!(!int21(&mut dos, &mut m, 0x6900));
    assert_eq!(&read_bytes(&mut m, psp, 0x306, 11), b"TANDEM     ");
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn multiplex_answers_as_dos_with_only_himem() {
    let (mut dos, mut m, mount) = setup("int2f", "");
    let call = |dos: &mut Dos, m: &mut Machine, ax: u16| {
        m.set_ax(ax);
        m.set_bx(0x1234);
        common::int(dos, m, 0x2F);
        m.ax()
    };
    assert_eq!(call(&mut dos, &mut m, 0x4300), 0x4380, "XMS present");
    call(&mut dos, &mut m, 0x4310);
    assert_eq!(m.es(), 0xF000, "XMS entry");
    assert_eq!(call(&mut dos, &mut m, 0x1600) & 0xFF, 0, "no Windows");
    assert_eq!(call(&mut dos, &mut m, 0x1680), 0x1680, "idle not supported");
    assert_eq!(call(&mut dos, &mut m, 0x1687), 0x1687, "no DPMI");
    for ax in [
        0x1100u16, 0xB700, 0xAE00, 0x0500, 0x1000, 0x1A00, 0x4800, 0x0100,
    ] {
        assert_eq!(call(&mut dos, &mut m, ax), ax, "{ax:04X}: not installed");
    }
    call(&mut dos, &mut m, 0x4A01);
    assert_eq!((m.bx(), m.es()), (0, 0xFFFF), "no HMA for DOS");
    assert_eq!(call(&mut dos, &mut m, 0x1200), 0x12FF);
    call(&mut dos, &mut m, 0x1500);
    assert_eq!(m.bx(), 0, "no CD-ROM");
    assert!(dos.warnings().is_empty(), "{:?}", dos.warnings());
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn smaller_functions_answer_as_ms_dos_5() {
    let (mut dos, mut m, mount) = setup("misc", "");
    flags_and_strategies(&mut dos, &mut m);
    locks_errors_and_the_network(&mut dos, &mut m);
    psps_and_handle_counts(&mut dos, &mut m);
    let psp = dos.current_psp();
    // CP/M-style null functions.
    for ah in [0x18u16, 0x1D, 0x1E, 0x20] {
        m.set_ax(ah << 8 | 0x55);
        common::int(&mut dos, &mut m, 0x21);
        assert_eq!(m.al(), 0);
    }
    // 4B05h: set execution state accepts a well-formed block.
    write_bytes(&mut m, psp, 0x300, &[0; 16]);
    m.set_ds(psp);
    m.set_dx(0x300);
    assert!(!int21(&mut dos, &mut m, 0x4B05));
    assert!(dos.warnings().is_empty(), "{:?}", dos.warnings());
    let _ = std::fs::remove_dir_all(&mount);
}

/// 33h, 37h and 58h.
fn flags_and_strategies(dos: &mut Dos, m: &mut Machine) {
    // 33h: boot drive C:, true version 5.00.
    assert!(!int21(dos, m, 0x3305));
    assert_eq!(m.dl(), 3);
    int21(dos, m, 0x3306);
    assert_eq!(m.bx(), 0x0005);
    // 37h: switch character '/'.
    int21(dos, m, 0x3700);
    assert_eq!((m.al(), m.dl()), (0, b'/'));
    // 58h: strategies 0-2 (UMB bits ignored), others invalid.
    m.set_bx(0x41);
    assert!(!int21(dos, m, 0x5801));
    assert!(!int21(dos, m, 0x5800));
    assert_eq!(m.ax(), 1, "best fit");
    m.set_bx(3);
    assert!(int21(dos, m, 0x5801));
    m.set_bx(0);
    assert!(!int21(dos, m, 0x5801));
    // 58h: no UMBs to link.
    int21(dos, m, 0x5802);
    assert_eq!(m.al(), 0);
    m.set_bx(1);
    assert!(int21(dos, m, 0x5803));
    m.set_bx(0);
    assert!(!int21(dos, m, 0x5803));
}

/// 5Ch, 59h, 5D0Ah, 5D06h, 5E00h and 5F02h.
fn locks_errors_and_the_network(dos: &mut Dos, m: &mut Machine) {
    let psp = dos.current_psp();
    // 5Ch: locks succeed on a valid handle, fail on a closed one.
    m.set_bx(1);
    assert!(!int21(dos, m, 0x5C00));
    m.set_bx(19);
    assert!(int21(dos, m, 0x5C00));
    assert_eq!(m.ax(), 6);
    // 59h after it: invalid handle, application error, abort, unknown.
    m.set_bx(0);
    int21(dos, m, 0x5900);
    assert_eq!((m.ax(), m.bh(), m.bl(), m.ch()), (6, 7, 4, 1));
    // 5D0Ah sets the extended error.
    write_bytes(m, psp, 0x300, &[0x50, 0, 0x03, 0x0C, 0, 0x02]);
    m.set_ds(psp);
    m.set_dx(0x300);
    int21(dos, m, 0x5D0A);
    int21(dos, m, 0x5900);
    assert_eq!((m.ax(), m.bh(), m.bl(), m.ch()), (0x50, 0x0C, 0x03, 0x02));
    // 5D06h: the swappable data area starts with the critical-error and
    // InDOS flags (the same as 34h's).
    int21(dos, m, 0x5D06);
    let sda = lin(m.ds(), m.si());
    int21(dos, m, 0x3400);
    assert_eq!(lin(m.es(), m.bx()), sda + 1);
    // 5E00h: no machine name; 5F02h: no network.
    assert!(!int21(dos, m, 0x5E00));
    assert_eq!(m.ch(), 0);
    assert!(int21(dos, m, 0x5F02));
}

/// 26h, 55h, 50h and 67h.
fn psps_and_handle_counts(dos: &mut Dos, m: &mut Machine) {
    let psp = dos.current_psp();
    // 26h copies the PSP, 55h makes a child and the current PSP.
    m.set_dx(0x5000);
    int21(dos, m, 0x2600);
    assert_eq!(read_bytes(m, 0x5000, 0x40, 2), [5, 0]);
    m.set_dx(0x6000);
    m.set_si(0x7000);
    assert!(!int21(dos, m, 0x5500));
    assert_eq!(dos.current_psp(), 0x6000);
    assert_eq!(rd16(m, lin(0x6000, 0x16)), psp, "parent");
    assert_eq!(rd16(m, lin(0x6000, 0x02)), 0x7000, "top of memory");
    m.set_bx(psp);
    int21(dos, m, 0x5000);
    // 67h: 40 handles move the JFT out of the PSP, keeping the open ones
    // (after the program gives back memory, as it must).
    m.set_es(psp);
    m.set_bx(0x1000);
    assert!(!int21(dos, m, 0x4A00));
    m.set_bx(40);
    assert!(!int21(dos, m, 0x6700));
    assert_eq!(rd16(m, lin(psp, 0x32)), 40);
    let (off, seg) = (rd16(m, lin(psp, 0x34)), rd16(m, lin(psp, 0x36)));
    assert_ne!(seg, psp);
    assert_eq!(read_bytes(m, seg, off, 6), [1, 1, 1, 0, 2, 0xFF]);
    assert_eq!(rd16(m, lin(seg - 1, 1)), psp, "owned by the process");
    // Handle 30 works: duplicate stdout into it.
    m.set_bx(1);
    m.set_cx(30);
    assert!(!int21(dos, m, 0x4600));
    assert_eq!(rd8(m, lin(seg, off + 30)), 1, "CON's SFT entry");
    // Handle 30 is open: 30 or 20 handles are too few.
    m.set_bx(30);
    assert!(int21(dos, m, 0x6700));
    m.set_bx(20);
    assert!(int21(dos, m, 0x6700), "handle 30 is still open");
    assert_eq!(m.ax(), 4);
}

#[test]
fn default_ctrl_c_handler_ends_the_program() {
    let mount = common::temp_dir("int23");
    // mov ah,2; mov dl,'a'; int 21h; int 23h; mov ax,4C07h; int 21h
    let prog = [
        0xB4, 0x02, 0xB2, b'a', 0xCD, 0x21, 0xCD, 0x23, 0xB8, 0x07, 0x4C, 0xCD, 0x21,
    ];
    let (exit, out, _, _) = common::run(CpuModel::I8086, &mount, "C.COM", &prog, "", 1);
    assert_eq!(exit, Exit::Exited(0));
    assert_eq!(out, "a");
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn cp_m_call_5_and_the_case_map_routine_work_from_guest_code() {
    let mount = common::temp_dir("cpm");
    let image = std::fs::read(common::roms_dir().join("dos/cpm.com")).expect("cpm.com");
    let (exit, out, dos, _) = common::run(CpuModel::I386, &mount, "CPM.COM", &image, "", 1);
    assert_eq!((exit, out.as_str()), (Exit::Exited(0), "CPM!+"));
    assert!(dos.warnings().is_empty(), "{:?}", dos.warnings());
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn ctrl_c_calls_the_programs_int_23h_handler() {
    let mount = common::temp_dir("ctrlc");
    let image = std::fs::read(common::roms_dir().join("dos/ctrlc.com")).expect("ctrlc.com");
    let mut m = hw::Machine::new(hw::MachineConfig::with_cpu(CpuModel::I8086, 25_000_000));
    let mut dos = Dos::new(dos::DosConfig::new(mount.clone())).expect("mount");
    dos.install(&mut m);
    dos.load(&mut m, &image, "C:\\CTRLC.COM", b"")
        .expect("loads");
    dos.type_text(b"\x03x\x03");
    let mut s = dos::Session::new(m, dos);
    let exit = s.run_for(25_000_000);
    let out = String::from_utf8_lossy(&s.dos.take_output()).into_owned();
    assert_eq!((exit, out.as_str()), (Exit::Exited(0), "^C\nx^C\n"));
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn ctrl_c_with_dos_s_handler_ends_the_program() {
    let mount = common::temp_dir("ctrlcdefault");
    // mov ah,1; int 21h; mov ax,4C01h; int 21h
    let prog = [0xB4, 0x01, 0xCD, 0x21, 0xB8, 0x01, 0x4C, 0xCD, 0x21];
    let mut m = hw::Machine::new(hw::MachineConfig::with_cpu(CpuModel::I8086, 25_000_000));
    let mut dos = Dos::new(dos::DosConfig::new(mount.clone())).expect("mount");
    dos.install(&mut m);
    dos.load(&mut m, &prog, "C:\\C.COM", b"").expect("loads");
    dos.type_text(b"\x03");
    let mut s = dos::Session::new(m, dos);
    let exit = s.run_for(25_000_000);
    let out = String::from_utf8_lossy(&s.dos.take_output()).into_owned();
    assert_eq!((exit, out.as_str()), (Exit::Exited(0), "^C\n"));
    let _ = std::fs::remove_dir_all(&mount);
}

/// A file the program creates and writes carries emulated time only, also
/// while it is still open: 57h00h on the open handle gives the emulated
/// date and time, never the host's (a run stays deterministic).
#[test]
fn files_written_carry_emulated_time_while_open() {
    let mount = common::temp_dir("filetime");
    let (mut dos, mut m) = common::loaded(CpuModel::I386, &mount, "T.COM", STUB, "");
    let psp = dos.current_psp();
    write_bytes(&mut m, psp, 0x300, b"NEW.DAT\0");
    m.set_ds(psp);
    m.set_dx(0x300);
    m.set_cx(0);
    int21(&mut dos, &mut m, 0x3C00);
    let h = m.ax();
    // Emulated: the RTC starts on 1 June 1994, 08:00:00.
    let expect_date = ((1994 - 1980) << 9) | (6 << 5) | 1;
    for write in [false, true] {
        if write {
            m.set_bx(h);
            m.set_cx(4);
            m.set_dx(0x300);
            int21(&mut dos, &mut m, 0x4000);
            assert_eq!(m.ax(), 4);
        }
        m.set_bx(h);
        int21(&mut dos, &mut m, 0x5700);
        assert_eq!(m.dx(), expect_date, "date after write={write}");
        assert_eq!(m.cx() >> 11, 8, "hour after write={write}");
    }
}

/// Reads one byte through INT 21h function `ah` (01h, 06h with DL = FFh,
/// 07h, 08h) and returns AL.
fn con_byte(dos: &mut Dos, m: &mut Machine, ah: u8) -> u8 {
    m.set_dx(0x00FF);
    int21(dos, m, (ah as u16) << 8);
    m.al()
}

#[test]
fn extended_keys_read_through_dos_give_00h_then_their_scan_code() {
    use dos::bios::keyboard::push_key;
    let (mut dos, mut m, mount) = setup("con-extended", "");
    // Buffer words as the INT 09h handler stores them: grey Up (E0h
    // ASCII), F1, 'a', F11 (10h only), Ctrl-PrtSc, Ctrl-2 (00h, scan 03h).
    for k in [0x48E0, 0x3B00, 0x1E61, 0x8500, 0x7200, 0x0300] {
        assert!(push_key(&mut m, k));
    }
    // MS-DOS's CON driver (MSCON.ASM CHRIN): 00h, then the held scan code
    // on the next read, whichever function reads it.
    assert_eq!(con_byte(&mut dos, &mut m, 0x07), 0x00, "grey Up");
    int21(&mut dos, &mut m, 0x0B00);
    assert_eq!(m.al(), 0xFF, "the held scan code is input ready");
    assert_eq!(con_byte(&mut dos, &mut m, 0x08), 0x48);
    assert_eq!(con_byte(&mut dos, &mut m, 0x06), 0x00, "F1");
    // The service's flags are in the INT frame just below SP.
    let frame = lin(m.ss(), m.sp().wrapping_sub(2));
    let flags = rd16(&mut m, frame);
    assert_eq!(flags & 0x40, 0, "06h: ZF clear, a byte was read");
    assert_eq!(con_byte(&mut dos, &mut m, 0x07), 0x3B);
    assert_eq!(con_byte(&mut dos, &mut m, 0x07), b'a');
    assert_eq!(con_byte(&mut dos, &mut m, 0x07), 0x00, "F11");
    assert_eq!(con_byte(&mut dos, &mut m, 0x07), 0x85);
    assert_eq!(con_byte(&mut dos, &mut m, 0x07), 0x10, "Ctrl-PrtSc");
    // 0Ch empties the buffer and drops a held scan code.
    assert_eq!(con_byte(&mut dos, &mut m, 0x07), 0x00, "Ctrl-2");
    int21(&mut dos, &mut m, 0x0C00);
    int21(&mut dos, &mut m, 0x0B00);
    assert_eq!(m.al(), 0x00, "nothing left after the flush");
    let _ = std::fs::remove_dir_all(&mount);
}
