//! The files DOS loads, as MS-DOS 5 loads them: a file named .EXE without
//! an MZ signature runs as a COM image; an MZ file with data after its
//! image loads only the image; CS relative to the load segment wraps (the
//! PKLITE rule: digger and topbench start at CS = FFF0h, i.e. the PSP);
//! overlays (4B03h) are relocated by the given factor; an EXEPACK program
//! loaded in the first 64 KiB is unpacked by the loader (MS-DOS 5's
//! work-around for the stub's segment arithmetic), while one loaded higher
//! is left to its stub.
//!
//! The EXEPACK files are made here by a small packer that writes the
//! documented format (run-length commands read backwards, a relocation
//! table of 16 sections after the "Packed file is corrupt" message) with
//! a stub of our own (`roms/dos/exestub.asm`, correct wherever it is
//! loaded; no Microsoft stub is copied): below 64 KiB the loader unpacks
//! the program before the stub could run, above it the stub does.

mod common;

use dos::mem::{lin, rd16, read_bytes};
use dos::Exit;
use emu::CpuModel;

/// Entry registers and memory of an MZ header (CS and SS relative to
/// the load segment).
struct Start {
    cs: u16,
    ip: u16,
    ss: u16,
    sp: u16,
    min_alloc: u16,
}

/// An MZ file: a header with `relocs`, `image`, then `trailer`.
fn mz(image: &[u8], st: Start, relocs: &[(u16, u16)], trailer: &[u8]) -> Vec<u8> {
    let Start {
        cs,
        ip,
        ss,
        sp,
        min_alloc,
    } = st;
    let hdr_paras = 2 + (relocs.len() * 4).div_ceil(16) as u16;
    let hdr_len = hdr_paras as usize * 16;
    let total = hdr_len + image.len();
    let mut f = vec![0u8; hdr_len];
    let mut put = |at: usize, v: u16| f[at..at + 2].copy_from_slice(&v.to_le_bytes());
    put(0, u16::from_le_bytes(*b"MZ"));
    put(2, (total % 512) as u16);
    put(4, total.div_ceil(512) as u16);
    put(6, relocs.len() as u16);
    put(8, hdr_paras);
    put(0x0A, min_alloc);
    put(0x0C, 0xFFFF);
    put(0x0E, ss);
    put(0x10, sp);
    put(0x14, ip);
    put(0x16, cs);
    put(0x18, 0x20);
    for (i, (s, o)) in relocs.iter().enumerate() {
        f[0x20 + 4 * i..0x22 + 4 * i].copy_from_slice(&o.to_le_bytes());
        f[0x22 + 4 * i..0x24 + 4 * i].copy_from_slice(&s.to_le_bytes());
    }
    f.extend_from_slice(image);
    f.extend_from_slice(trailer);
    f
}

/// `mov ah,9; mov dx,msg; int 21h; mov ax,4C00h; int 21h; msg` for code
/// at `org`, with DS = the code's segment.
fn print_and_exit(org: u16, msg: &str) -> Vec<u8> {
    let at = org + 12;
    let mut c = vec![0xB4, 0x09, 0xBA];
    c.extend(at.to_le_bytes());
    c.extend([0xCD, 0x21, 0xB8, 0x00, 0x4C, 0xCD, 0x21]);
    c.extend(msg.bytes());
    c.push(b'$');
    c
}

/// Runs `file` as C:\`name` on an 8086 from a fresh `mount` (removed
/// after) and checks that it prints `want` and exits with 0.
fn prints_and_exits(mount: &std::path::Path, name: &str, file: &[u8], want: &str) {
    let (exit, out, _, _) = common::run(CpuModel::I8086, mount, name, file, "", 1);
    assert_eq!((exit, out.as_str()), (Exit::Exited(0), want));
    let _ = std::fs::remove_dir_all(mount);
}

#[test]
fn an_exe_without_mz_signature_loads_as_com() {
    let mount = common::temp_dir("comexe");
    let prog = print_and_exit(0x100, "COM OK");
    prints_and_exits(&mount, "NOTMZ.EXE", &prog, "COM OK");
}

#[test]
fn data_after_the_mz_image_is_not_loaded() {
    let mount = common::temp_dir("trailing");
    // push cs; pop ds; then the print at offset 2.
    let mut image = vec![0x0E, 0x1F];
    image.extend(print_and_exit(2, "MZ OK"));
    let trailer: Vec<u8> = b"TRAILER!".iter().cycle().take(4096).copied().collect();
    let file = mz(
        &image,
        Start {
            cs: 0,
            ip: 0,
            ss: 0,
            sp: 0x400,
            min_alloc: 0x40,
        },
        &[],
        &trailer,
    );
    let (exit, out, dos, mut m) = common::run(CpuModel::I8086, &mount, "T.EXE", &file, "", 1);
    assert_eq!((exit, out.as_str()), (Exit::Exited(0), "MZ OK"));
    // The image sits at PSP+10h; what follows it is not the trailer.
    let _ = dos;
    let mut found = false;
    for seg in 0x100u16..0xA000 {
        if read_bytes(&mut m, seg, 0, 8) == b"TRAILER!" {
            found = true;
        }
    }
    assert!(!found, "the trailing data was loaded");
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn cs_relative_to_the_load_segment_wraps_as_pklite_expects() {
    let mount = common::temp_dir("pklite");
    // CS:IP = FFF0:0100 is PSP:0100: the image runs as if it were a COM
    // (DS = PSP at entry).
    let image = print_and_exit(0x100, "WRAP OK");
    let file = mz(
        &image,
        Start {
            cs: 0xFFF0,
            ip: 0x0100,
            ss: 0,
            sp: 0x400,
            min_alloc: 0x40,
        },
        &[],
        &[],
    );
    prints_and_exits(&mount, "P.EXE", &file, "WRAP OK");
}

#[test]
fn overlays_are_relocated_by_the_factor_given() {
    let mount = common::temp_dir("overlay");
    // mov ax,0 (relocated: the overlay's segment); mov ds,ax; mov ah,9;
    // mov dx,msg; int 21h; retf; msg.
    let mut image = vec![
        0xB8, 0x00, 0x00, 0x8E, 0xD8, 0xB4, 0x09, 0xBA, 0x0D, 0x00, 0xCD, 0x21, 0xCB,
    ];
    image.extend(b"OVERLAY OK$");
    let file = mz(
        &image,
        Start {
            cs: 0,
            ip: 0,
            ss: 0,
            sp: 0,
            min_alloc: 0,
        },
        &[(0, 1)],
        b"debug info",
    );
    std::fs::write(mount.join("OVL.EXE"), file).unwrap();
    let parent = std::fs::read(common::roms_dir().join("dos/overlay.com")).expect("overlay.com");
    prints_and_exits(&mount, "OVERLAY.COM", &parent, "OVERLAY OK");
}

/// A loader of its own (`roms/dos/childpsp.asm`): a child PSP from 55h,
/// made current with 50h; its 4Ch comes back to the terminate address it
/// was given, with the parent current and the child's block freed.
#[test]
fn a_child_made_with_55h_and_50h_returns_to_its_terminate_address() {
    let mount = common::temp_dir("childpsp");
    let file = std::fs::read(common::roms_dir().join("dos/childpsp.com")).expect("childpsp.com");
    prints_and_exits(&mount, "CHILDPSP.COM", &file, "CHILD\nBACK OK");
}

/// Our stub (`roms/dos/exestub.asm`): a correct unpacker of our own
/// that ends with the "Packed file is corrupt" message it prints on bad
/// data.
fn stub() -> Vec<u8> {
    let s = std::fs::read(common::roms_dir().join("dos/exestub.com")).expect("exestub.com");
    assert!(s.ends_with(dos::exepack::CORRUPT));
    assert!(s.len() + 0x12 + 34 < 0x1F0, "the stub's stack is above it");
    s
}

/// Packs a run of `zeros`, then `code` and `data` (the program's image,
/// entry at the start of `code`, one relocation per offset in `relocs`)
/// in EXEPACK's format: read backwards, "copy data", "copy code", "fill
/// zeros (last)". (Unpacking works in place from the end, so the run that
/// expands most comes last, where it cannot overtake its input.)
fn exepack(zeros: usize, code: &[u8], data: &[u8], relocs: &[u16]) -> Vec<u8> {
    assert_eq!(zeros % 16, 0);
    let mut data = data.to_vec();
    while !(zeros + code.len() + data.len()).is_multiple_of(16) {
        data.push(0);
    }
    let out_len = zeros + code.len() + data.len();
    let mut packed = vec![0x00];
    packed.extend((zeros as u16).to_le_bytes());
    packed.push(0xB1);
    packed.extend(code);
    packed.extend((code.len() as u16).to_le_bytes());
    packed.push(0xB2);
    packed.extend(&data);
    packed.extend((data.len() as u16).to_le_bytes());
    packed.push(0xB2);
    while !packed.len().is_multiple_of(16) {
        packed.push(0xFF);
    }
    let cs = (packed.len() / 16) as u16;
    let dest_len = (out_len / 16) as u16;
    let mut block = Vec::new();
    let stub = stub();
    let table_len = 2 * 16 + 2 * relocs.len();
    let size = (0x12 + stub.len() + table_len) as u16;
    // real IP, real CS, scratch, block size, real SP, real SS, unpacked
    // paragraphs, skip 1, "RB".
    let real_cs = (zeros / 16) as u16;
    for w in [0u16, real_cs, 0, size, 0x100, dest_len, dest_len, 1] {
        block.extend(w.to_le_bytes());
    }
    block.extend(b"RB");
    block.extend(&stub);
    block.extend((relocs.len() as u16).to_le_bytes());
    for r in relocs {
        block.extend(r.to_le_bytes());
    }
    block.extend([0; 30]);
    let block_paras = block.len().div_ceil(16) as u16;
    let mut image = packed;
    image.extend(&block);
    // The stub moves its block above the unpacked image; the entry stack
    // sits above that, clear of it (with room for the stub's own stack).
    let min_alloc = (dest_len + block_paras + 0x20).saturating_sub(cs + block_paras);
    let start = Start {
        cs,
        ip: 0x12,
        ss: dest_len + block_paras,
        sp: 0x80,
        min_alloc: min_alloc.max(0x10),
    };
    mz(&image, start, &[], &[])
}

/// Zeros before the code of [`packed_program`].
const ZEROS: u16 = 0x130;

/// An EXEPACK program: 304 zeros, then `jmp far 0014:0000` (relocated),
/// then at paragraph 14h the print of "EXEPACK OK".
fn packed_program() -> Vec<u8> {
    let next = ZEROS / 16 + 1;
    let mut code = vec![0xEA, 0x00, 0x00];
    code.extend(next.to_le_bytes());
    code.resize(0x10, 0x90);
    // push cs; pop ds; mov ah,9; mov dx,msg; int 21h; mov ax,4C00h;
    // int 21h; the message follows the code.
    code.extend([0x0E, 0x1F, 0xB4, 0x09, 0xBA]);
    code.extend(0x0Eu16.to_le_bytes());
    code.extend([0xCD, 0x21, 0xB8, 0x00, 0x4C, 0xCD, 0x21]);
    assert_eq!(code.len(), 0x1E);
    exepack(ZEROS as usize, &code, b"EXEPACK OK$", &[ZEROS + 3])
}

#[test]
fn exepack_programs_loaded_low_are_unpacked_by_the_loader() {
    let mount = common::temp_dir("exepack");
    let file = packed_program();
    let (exit, out, dos, mut m) = common::run(CpuModel::I386, &mount, "PACKED.EXE", &file, "", 1);
    assert_eq!((exit, out.as_str()), (Exit::Exited(0), "EXEPACK OK"));
    // The unpacked image is in memory: the relocated far jump and the run
    // of zeros the fill command made.
    let _ = dos;
    let mut seen = false;
    for psp in 0x100u16..0x1000 {
        let load = psp + 0x10;
        let next = load + ZEROS / 16 + 1;
        if read_bytes(&mut m, load, ZEROS, 3) == [0xEA, 0x00, 0x00]
            && rd16(&mut m, lin(load, ZEROS + 3)) == next
        {
            assert!(read_bytes(&mut m, load, 0, ZEROS as usize)
                .iter()
                .all(|&b| b == 0));
            assert_eq!(read_bytes(&mut m, next, 0x0E, 10), b"EXEPACK OK");
            seen = true;
            break;
        }
    }
    assert!(seen, "the unpacked image was not found below 64 KiB");
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn exepack_programs_loaded_above_64k_run_their_own_stub() {
    use dos::mcb::Strategy;
    use hw::{Machine, MachineConfig};
    let mount = common::temp_dir("exepackhigh");
    let file = packed_program();
    let hz = 25_000_000;
    let mut m = Machine::new(MachineConfig::with_cpu(CpuModel::I386, hz));
    let mut d = dos::Dos::new(dos::DosConfig::new(mount.clone())).expect("mount");
    d.install(&mut m);
    // Something resident fills the first 64 KiB.
    let arena = d.arena();
    let taken = arena
        .alloc(&mut m, 0x1000, 8, Strategy::First)
        .expect("room");
    assert!(taken < 0x1000);
    d.load(&mut m, &file, "C:\\PACKED.EXE", b"").expect("loads");
    let psp = d.current_psp();
    assert!(psp >= 0x1000);
    let mut s = dos::Session::new(m, d);
    let exit = s.run_for(hz);
    let out = String::from_utf8_lossy(&s.dos.take_output()).into_owned();
    assert_eq!((exit, out.as_str()), (Exit::Exited(0), "EXEPACK OK"));
    // The stub did it: it moved its block (header, "RB") above the
    // unpacked image, which the loader never does.
    let cs = u16::from_le_bytes([file[0x16], file[0x17]]);
    let dest_len = u16::from_le_bytes([
        file[0x20 + cs as usize * 16 + 0x0C],
        file[0x20 + cs as usize * 16 + 0x0D],
    ]);
    assert_eq!(read_bytes(&mut s.m, psp + 0x10 + dest_len, 0x10, 2), b"RB");
    // And it left the same image as tandem's own unpacker makes.
    let load = psp + 0x10;
    let u = dos::exepack::unpack(&file[0x20..], cs, 0x12).expect("recognised");
    let mut want = u.image.clone();
    for r in u.relocs {
        let r = r as usize;
        let v = u16::from_le_bytes([want[r], want[r + 1]]).wrapping_add(load);
        want[r..r + 2].copy_from_slice(&v.to_le_bytes());
    }
    assert_eq!(read_bytes(&mut s.m, load, 0, want.len()), want);
    let _ = std::fs::remove_dir_all(&mount);
}

#[test]
fn corrupt_exepack_data_is_left_to_the_stub() {
    // The same program with its last command byte broken: the loader does
    // not unpack it and the stub reports the corruption.
    let mount = common::temp_dir("exepackbad");
    let mut file = packed_program();
    let hdr = 0x20;
    let cs = u16::from_le_bytes([file[0x16], file[0x17]]) as usize;
    let mut end = hdr + cs * 16 - 1;
    while file[end] == 0xFF {
        end -= 1;
    }
    file[end] = 0xB4;
    let (exit, out, _, _) = common::run(CpuModel::I386, &mount, "BAD.EXE", &file, "", 1);
    assert_eq!(
        (exit, out.as_str()),
        (Exit::Exited(0xFF), "Packed file is corrupt")
    );
    let _ = std::fs::remove_dir_all(&mount);
}
