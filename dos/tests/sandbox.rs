//! What adversarial testing found in drive C:'s sandbox: a full
//! handle table must not create host files, guest names with CP437 letters
//! map to host names and back, the guest's disk use has a quota, and a
//! save state's open files are resolved inside the mount like any guest
//! path.

mod common;

use dos::mem::{write_bytes, Regs};
use dos::Dos;
use emu::CpuModel;
use hw::Machine;

/// A one-instruction program (INT 20h), never run.
const STUB: &[u8] = &[0xCD, 0x20];

fn setup(name: &str) -> (Dos, Machine, std::path::PathBuf) {
    let mount = common::temp_dir(name);
    let (dos, m) = common::loaded(CpuModel::I386, &mount, "T.COM", STUB, "");
    (dos, m, mount)
}

fn int21(dos: &mut Dos, m: &mut Machine, ax: u16) -> bool {
    m.set_ax(ax);
    common::int(dos, m, 0x21)
}

/// Puts the ASCIIZ `path` at PSP:0300h and points DS:DX at it.
fn path(dos: &Dos, m: &mut Machine, p: &[u8]) {
    let psp = dos.current_psp();
    let mut z = p.to_vec();
    z.push(0);
    write_bytes(m, psp, 0x300, &z);
    m.set_ds(psp);
    m.set_dx(0x300);
}

/// Host entry names of a folder, sorted.
fn names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_create_with_the_handle_table_full_leaves_the_host_alone() {
    let (mut dos, mut m, mount) = setup("fullsft");
    let mut opened = 0;
    let mut failed = None;
    for k in 0..40 {
        let name = format!("F{k}.TXT");
        path(&dos, &mut m, name.as_bytes());
        m.set_cx(0);
        if int21(&mut dos, &mut m, 0x3C00) {
            assert_eq!(m.ax(), 4, "too many open files");
            failed = Some(name);
            break;
        }
        opened += 1;
    }
    let failed = failed.expect("the handle table fills up");
    assert!(opened >= 10, "{opened} files opened");
    assert!(
        !mount.join(&failed).exists(),
        "{failed} was created on the host although the create failed"
    );
    // Create-new (5Bh) and extended open (6Ch) are refused the same way.
    path(&dos, &mut m, b"NEW.TXT");
    m.set_cx(0);
    assert!(int21(&mut dos, &mut m, 0x5B00));
    assert_eq!(m.ax(), 4);
    let psp = dos.current_psp();
    write_bytes(&mut m, psp, 0x300, b"EXT.TXT\0");
    m.set_si(0x300);
    m.set_bx(2);
    m.set_cx(0);
    m.set_dx(0x12);
    assert!(int21(&mut dos, &mut m, 0x6C00));
    assert_eq!(m.ax(), 4);
    assert_eq!(names(&mount).len(), opened, "{:?}", names(&mount));
}

#[test]
fn a_save_state_cannot_reopen_files_outside_the_mount() {
    let base = common::temp_dir("stateesc");
    let mount = base.join("mnt");
    std::fs::create_dir_all(mount.join("SUB")).expect("mkdir");
    let outside = base.join("OUTSIDE.TXT");
    std::fs::write(&outside, b"secret").expect("write");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, mount.join("LINK.TXT")).expect("symlink");
    let (mut dos, mut m) = common::loaded(CpuModel::I386, &mount, "T.COM", STUB, "");
    path(&dos, &mut m, b"SUB\\QQ.TXT");
    m.set_cx(0);
    assert!(!int21(&mut dos, &mut m, 0x3C00), "create");
    let state = dos::state::save(&m, &dos, &dos::state::Meta::default()).expect("save");

    // It holds no host path.
    let raw = dos::state::unseal(&state).expect("unseal");
    let host = mount.canonicalize().expect("mount");
    let host = host.to_string_lossy();
    assert!(
        !raw.windows(host.len()).any(|w| w == host.as_bytes()),
        "the state holds the host path {host}"
    );

    // The state as saved reopens its file under the mount.
    let snap = dos::state::load(&state, &mount).expect("an honest state loads");
    drop(snap);

    let abs = outside.to_string_lossy().into_owned();
    let mut attacks: Vec<Vec<u8>> = vec![
        b"../OUTSIDE.TXT".to_vec(),
        b"..\\OUTSIDE.TXT".to_vec(),
        b"\\..\\OUTSIDE.TXT".to_vec(),
        b"SUB/../../OUTSIDE.TXT".to_vec(),
        abs.clone().into_bytes(),
        format!("C:{abs}").into_bytes(),
        b"D:\\OUTSIDE.TXT".to_vec(),
        b"\\SUB".to_vec(),
        b"\\NUL".to_vec(),
    ];
    #[cfg(unix)]
    attacks.push(b"\\LINK.TXT".to_vec());
    for attack in &attacks {
        let crafted = common::with_open_path(&state, b"QQ.TXT", attack);
        match dos::state::load(&crafted, &mount) {
            Err(dos::state::StateError::File(e)) => {
                let msg = e.to_string();
                assert!(!msg.contains('\n'), "one line: {msg}")
            }
            Err(other) => panic!("{:?}: {other}", String::from_utf8_lossy(attack)),
            Ok(_) => panic!(
                "a state naming {:?} was accepted",
                String::from_utf8_lossy(attack)
            ),
        }
    }
    assert_eq!(std::fs::read(&outside).expect("read"), b"secret");
}

#[test]
fn guest_names_with_cp437_letters_map_to_host_names_and_back() {
    use dos::mem::{rd8, read_bytes};
    let (mut dos, mut m, mount) = setup("cp437");
    let psp = dos.current_psp();
    // Create SPIEL + 8Eh (Ä) + .SAV and write to it.
    path(&dos, &mut m, b"SPIEL\x8E.SAV");
    m.set_cx(0);
    assert!(!int21(&mut dos, &mut m, 0x3C00), "create");
    let h = m.ax();
    write_bytes(&mut m, psp, 0x400, b"saved");
    m.set_bx(h);
    m.set_cx(5);
    m.set_dx(0x400);
    assert!(!int21(&mut dos, &mut m, 0x4000), "write");
    m.set_bx(h);
    assert!(!int21(&mut dos, &mut m, 0x3E00), "close");
    assert_eq!(
        names(&mount),
        ["SPIELÄ.SAV"],
        "the host sees CP437 as UTF-8"
    );

    // Reopened by the same bytes, and by the lower-case letter (84h, ä),
    // which DOS's case map folds to 8Eh.
    for name in [&b"SPIEL\x8E.SAV"[..], b"spiel\x84.sav"] {
        path(&dos, &mut m, name);
        assert!(!int21(&mut dos, &mut m, 0x3D00), "open {name:?}");
        m.set_bx(m.ax());
        m.set_cx(16);
        m.set_dx(0x500);
        assert!(!int21(&mut dos, &mut m, 0x3F00), "read");
        assert_eq!(m.ax(), 5);
        assert_eq!(read_bytes(&mut m, psp, 0x500, 5), b"saved");
        assert!(!int21(&mut dos, &mut m, 0x3E00), "close");
    }

    // Found by a search, with the guest's byte in the DTA.
    m.set_ds(psp);
    m.set_dx(0x600);
    assert!(!int21(&mut dos, &mut m, 0x1A00), "set DTA");
    path(&dos, &mut m, b"SPIEL?.*");
    m.set_cx(0);
    assert!(!int21(&mut dos, &mut m, 0x4E00), "find first");
    let found: Vec<u8> = (0..13)
        .map(|i| rd8(&mut m, dos::mem::lin(psp, 0x61E + i)))
        .take_while(|&c| c != 0)
        .collect();
    assert_eq!(found, b"SPIEL\x8E.SAV");

    // An FCB names it too, in either case.
    let mut fcb = vec![0u8; 37];
    fcb[1..12].copy_from_slice(b"spiel\x84  sav");
    write_bytes(&mut m, psp, 0x700, &fcb);
    m.set_ds(psp);
    m.set_dx(0x700);
    int21(&mut dos, &mut m, 0x0F00);
    assert_eq!(m.al(), 0, "FCB open");
    assert_eq!(
        dos::mem::rd32(&mut m, dos::mem::lin(psp, 0x710)),
        5,
        "FCB size"
    );

    // A host file written in CP437's letters is visible under its DOS name.
    std::fs::write(mount.join("müll.txt"), b"m").expect("write");
    path(&dos, &mut m, b"M\x9ALL.TXT");
    assert!(!int21(&mut dos, &mut m, 0x3D00), "open a host name with ü");
    m.set_bx(m.ax());
    assert!(!int21(&mut dos, &mut m, 0x3E00), "close");
    // A host name outside CP437 stays invisible.
    std::fs::write(mount.join("€.txt"), b"e").expect("write");

    // Deleted by name.
    path(&dos, &mut m, b"spiel\x84.SAV");
    assert!(!int21(&mut dos, &mut m, 0x4100), "delete");
    path(&dos, &mut m, b"M\x9ALL.TXT");
    m.set_bx(0);
    assert!(!int21(&mut dos, &mut m, 0x4100), "delete");
    assert_eq!(names(&mount), ["€.txt"]);
}

/// A loaded stub on a drive whose quota is `quota` bytes (None: default).
fn with_quota(name: &str, quota: Option<u64>) -> (Dos, Machine, std::path::PathBuf) {
    let mount = common::temp_dir(name);
    let mut cfg = dos::DosConfig::new(mount.clone());
    if let Some(q) = quota {
        cfg.disk_quota = q;
    }
    let (dos, m) = common::loaded_with(CpuModel::I386, cfg, "T.COM", STUB, "");
    (dos, m, mount)
}

/// INT 21h 36h for C:: free bytes (AX * BX * CX).
fn free_bytes(dos: &mut Dos, m: &mut Machine) -> u64 {
    m.set_dx(3);
    int21(dos, m, 0x3600);
    m.ax() as u64 * m.bx() as u64 * m.cx() as u64
}

/// Writes `n` bytes (CX) at the handle's position: (CF, AX).
fn write(dos: &mut Dos, m: &mut Machine, h: u16, n: u16) -> (bool, u16) {
    m.set_bx(h);
    m.set_cx(n);
    m.set_ds(dos.current_psp());
    m.set_dx(0);
    let cf = int21(dos, m, 0x4000);
    (cf, m.ax())
}

fn seek(dos: &mut Dos, m: &mut Machine, h: u16, pos: u32) {
    m.set_bx(h);
    m.set_cx((pos >> 16) as u16);
    m.set_dx(pos as u16);
    assert!(!int21(dos, m, 0x4200), "seek");
}

#[test]
fn the_guest_cannot_write_past_its_disk_quota() {
    let (mut dos, mut m, mount) = with_quota("quota", Some(64 << 10));
    assert_eq!(
        free_bytes(&mut dos, &mut m),
        64 << 10,
        "36h shows the quota"
    );
    path(&dos, &mut m, b"A.DAT");
    m.set_cx(0);
    assert!(!int21(&mut dos, &mut m, 0x3C00), "create");
    let h = m.ax();
    assert_eq!(write(&mut dos, &mut m, h, 40000), (false, 40000));
    // The disk fills: the write is cut short with CF clear, as DOS does.
    assert_eq!(write(&mut dos, &mut m, h, 40000), (false, 25536));
    assert_eq!(write(&mut dos, &mut m, h, 1), (false, 0));
    assert_eq!(free_bytes(&mut dos, &mut m), 0, "36h: the disk is full");
    m.set_dx(3);
    int21(&mut dos, &mut m, 0x3200);
    let at = dos::mem::lin(m.ds(), m.bx().wrapping_add(0x1F));
    let dpb_free = dos::mem::rd16(&mut m, at);
    assert_eq!(dpb_free, 0, "the DPB's free clusters agree");
    // Overwriting old data takes no room.
    seek(&mut dos, &mut m, h, 0);
    assert_eq!(write(&mut dos, &mut m, h, 1000), (false, 1000));
    // A seek far past the end then a write (of bytes, or of 0 bytes to
    // extend) leaves the file as it is.
    seek(&mut dos, &mut m, h, 0xFFFF_FFF0);
    assert_eq!(write(&mut dos, &mut m, h, 16), (false, 0));
    assert_eq!(write(&mut dos, &mut m, h, 0), (false, 0));
    assert_eq!(
        std::fs::metadata(mount.join("A.DAT")).expect("A.DAT").len(),
        65536
    );
    m.set_bx(h);
    assert!(!int21(&mut dos, &mut m, 0x3E00), "close");
    // Deleting a file gives its room back.
    path(&dos, &mut m, b"A.DAT");
    assert!(!int21(&mut dos, &mut m, 0x4100), "delete");
    assert_eq!(free_bytes(&mut dos, &mut m), 64 << 10);

    // FCB writes stop at the quota too: AL = 01h (disk full).
    let psp = dos.current_psp();
    m.set_ds(psp);
    m.set_dx(0x200);
    assert!(!int21(&mut dos, &mut m, 0x1A00), "DTA");
    let mut fcb = vec![0u8; 37];
    fcb[1..12].copy_from_slice(b"B       DAT");
    write_bytes(&mut m, psp, 0x400, &fcb);
    m.set_dx(0x400);
    int21(&mut dos, &mut m, 0x1600);
    assert_eq!(m.al(), 0, "FCB create");
    // Random block writes of 500 records of 128 bytes from record 0: the
    // second fills the disk after 12 records.
    m.set_cx(500);
    int21(&mut dos, &mut m, 0x2800);
    assert_eq!((m.al(), m.cx()), (0, 500), "first block");
    m.set_cx(500);
    int21(&mut dos, &mut m, 0x2800);
    assert_eq!(m.al(), 1, "disk full");
    assert_eq!(m.cx(), 12, "the records that fit");
    assert_eq!(
        std::fs::metadata(mount.join("B.DAT")).expect("B.DAT").len(),
        65536
    );
}

#[test]
fn the_default_quota_stops_a_sparse_file_of_gigabytes() {
    let (mut dos, mut m, mount) = with_quota("quotadef", None);
    let free = free_bytes(&mut dos, &mut m);
    assert!(free > 0 && free <= 1 << 30, "36h: {free} bytes free");
    path(&dos, &mut m, b"BIG.DAT");
    m.set_cx(0);
    assert!(!int21(&mut dos, &mut m, 0x3C00), "create");
    let h = m.ax();
    seek(&mut dos, &mut m, h, 0xFFFF_0000);
    assert_eq!(write(&mut dos, &mut m, h, 0), (false, 0));
    assert_eq!(write(&mut dos, &mut m, h, 1), (false, 0));
    let len = std::fs::metadata(mount.join("BIG.DAT"))
        .expect("BIG.DAT")
        .len();
    assert_eq!(len, 0, "the host file stays empty");
}
