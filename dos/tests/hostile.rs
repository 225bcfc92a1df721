//! Bar: a hostile guest (roms/dos/hostile.com) tries every way out of
//! drive C: — `..` above the root, `C:\..\..`, absolute host paths, other
//! drives, over-long names, symlinks to a file, a missing file and a
//! directory outside the mount, rename and delete across the boundary —
//! and each attempt is refused with the DOS error code, while nothing
//! appears or changes outside the mount.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use dos::Exit;
use emu::CpuModel;

/// Every file under `dir` with its contents (symlinks not followed).
fn snapshot(dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let meta = std::fs::symlink_metadata(&p).expect("metadata");
        let key = p.display().to_string();
        if meta.file_type().is_symlink() {
            out.insert(key, b"<symlink>".to_vec());
        } else if meta.is_dir() {
            out.insert(key, b"<dir>".to_vec());
            snapshot(&p, out);
        } else {
            out.insert(key, std::fs::read(&p).expect("read"));
        }
    }
}

#[test]
fn hostile_guest_stays_inside_the_mount() {
    let root = common::temp_dir("hostile");
    let mount = root.join("mount");
    let outside = root.join("outside");
    let outdir = root.join("outdir");
    for d in [&mount, &outside, &outdir, &mount.join("SUB")] {
        std::fs::create_dir_all(d).expect("mkdir");
    }
    std::fs::write(outside.join("secret.txt"), b"secret").expect("write");
    std::os::unix::fs::symlink(outside.join("secret.txt"), mount.join("LINK.TXT"))
        .expect("symlink");
    std::os::unix::fs::symlink(outside.join("missing.txt"), mount.join("DANGLE.TXT"))
        .expect("symlink");
    std::os::unix::fs::symlink(&outdir, mount.join("OUTDIR")).expect("symlink");

    let mut before = BTreeMap::new();
    snapshot(&root, &mut before);
    let abs_escape = Path::new("/tmp/ESCAPED4.TXT");
    let _ = std::fs::remove_file(abs_escape);

    let image = std::fs::read(common::roms_dir().join("dos/hostile.com")).expect("hostile.com");
    let (exit, out, _, _) = common::run(CpuModel::I8086, &mount, "HOSTILE.COM", &image, "", 5);
    assert_eq!(exit, Exit::Exited(0), "output:\n{out}");

    let codes: BTreeMap<&str, &str> = out.lines().filter_map(|l| l.split_once(' ')).collect();
    let expect = [
        ("DOTDOT", "0003"),
        ("ROOTUP", "0003"),
        ("SUBUP", "0003"),
        ("ABSPATH", "0003"),
        ("ABSPATH2", "0003"),
        ("LONGNAME", "0003"),
        ("LONGDIR", "0003"),
        ("DRIVE", "0003"),
        ("LINKREAD", "0005"),
        ("LINKWRITE", "0005"),
        ("LINKCREATE", "0005"),
        ("DANGLE", "0005"),
        ("OUTDIR", "0005"),
        ("PASSWD", "0003"),
        ("MKDIR", "0003"),
        ("CHDIR", "0003"),
        ("RENAME", "0003"),
        ("DELETE", "0005"),
        ("NUL", "0000"),
        ("CON", "0000"),
        ("INSIDE", "0000"),
    ];
    for (label, code) in expect {
        assert_eq!(
            codes.get(label).copied(),
            Some(code),
            "{label}: full output:\n{out}"
        );
    }
    assert_eq!(codes.len(), expect.len(), "output:\n{out}");

    // Nothing changed outside the mount; inside, only the two legitimate
    // files appeared.
    let mut after = BTreeMap::new();
    snapshot(&root, &mut after);
    let mount_prefix = mount.display().to_string();
    let changed: Vec<&String> = after
        .keys()
        .chain(before.keys())
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    for k in &changed {
        assert!(
            k.starts_with(&mount_prefix),
            "{k} changed outside the mount"
        );
    }
    assert_eq!(
        std::fs::read(mount.join("MOVE.TXT")).expect("MOVE.TXT inside"),
        b"hi"
    );
    assert!(mount.join("INSIDE.TXT").is_file());
    assert_eq!(changed.len(), 2, "changes: {changed:?}");
    assert_eq!(
        std::fs::read(outside.join("secret.txt")).expect("secret"),
        b"secret"
    );
    assert!(std::fs::read_dir(&outdir).expect("outdir").next().is_none());
    assert!(!abs_escape.exists());
    let _ = std::fs::remove_dir_all(&root);
}
