//! The committed binaries in roms/ equal a fresh build of their sources.
//! nasm is required: a missing assembler fails this test.

mod common;

use std::process::Command;

#[test]
fn committed_binaries_match_a_fresh_nasm_build() {
    let nasm = Command::new("nasm").arg("-v").output();
    assert!(
        nasm.is_ok_and(|o| o.status.success()),
        "nasm is not installed: it is required to check roms/ (apt-get install nasm)"
    );
    let roms = common::roms_dir();
    let out = std::env::temp_dir().join(format!("tandem-roms-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let st = Command::new("sh")
        .arg(roms.join("build.sh"))
        .arg(&out)
        .status()
        .expect("run roms/build.sh");
    assert!(st.success(), "roms/build.sh failed");
    // Outputs mirror roms/: plain files come from roms/devices, a
    // subdirectory from roms/<subdirectory>.
    let mut n = 0;
    let mut check = |fresh_path: &std::path::Path, committed: std::path::PathBuf| {
        let fresh = std::fs::read(fresh_path).expect("fresh binary");
        let old = std::fs::read(&committed)
            .unwrap_or_else(|_| panic!("{} is not committed", committed.display()));
        assert!(
            fresh == old,
            "{} differs from a fresh build: run roms/build.sh",
            committed.display()
        );
        n += 1;
    };
    for e in std::fs::read_dir(&out).expect("build output") {
        let e = e.expect("dir entry");
        let name = e.file_name();
        if e.path().is_dir() {
            for f in std::fs::read_dir(e.path()).expect("build output") {
                let f = f.expect("dir entry");
                check(&f.path(), roms.join(&name).join(f.file_name()));
            }
        } else {
            check(&e.path(), roms.join("devices").join(&name));
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(n >= 2, "only {n} binaries built");
}
