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
    let mut n = 0;
    let outputs = std::fs::read_dir(&out)
        .expect("build output")
        .map(|e| (e.expect("dir entry").path(), "devices"))
        .chain(
            std::fs::read_dir(out.join("dos"))
                .into_iter()
                .flatten()
                .map(|e| (e.expect("dir entry").path(), "dos")),
        );
    for (path, sub) in outputs.filter(|(p, _)| p.is_file()) {
        let name = path.file_name().expect("file name").to_owned();
        let fresh = std::fs::read(&path).expect("fresh binary");
        let committed = roms.join(sub).join(&name);
        let old = std::fs::read(&committed)
            .unwrap_or_else(|_| panic!("{} is not committed", committed.display()));
        assert!(
            fresh == old,
            "{} differs from a fresh build: run roms/build.sh",
            committed.display()
        );
        n += 1;
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(n >= 2, "only {n} binaries built");
}
