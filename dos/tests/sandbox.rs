//! What adversarial testing found (issue 19) in drive C:'s sandbox: a full
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
