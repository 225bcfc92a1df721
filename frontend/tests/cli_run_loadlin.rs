//! Bar: Debian's LOADLIN.EXE (loadlin 1.6f, GPL; fetched in CI with
//! `apt-get download loadlin`, never committed) runs under `--cpu 386` to
//! its end and prints its whole configuration report, and every line that
//! describes the machine agrees with the machine tandem emulates: real
//! mode (not V86), 640 KiB + 1 MiB = 2 MiB of memory, XMS present (or, with
//! `--no-xms`, raw extended memory).
//!
//! LOADLIN is looked up at $TANDEM_LOADLIN (`.ci/run` fetches the package
//! into `target/debs/` and sets it); the test fails when it is missing.
//! The kernel image is a synthetic bzImage header (boot sector, "HdrS"
//! version 2.02, a version string, a 256 KiB zero payload) made here:
//! enough for LOADLIN's checks, and in test mode (-t) it is never run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn loadlin() -> Vec<u8> {
    let path = std::env::var("TANDEM_LOADLIN").unwrap_or_default();
    match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => panic!(
            "LOADLIN.EXE not found at $TANDEM_LOADLIN ({path:?}: {e}): apt-get download loadlin && \
             dpkg-deb -x loadlin_*.deb DIR && gunzip -k DIR/usr/lib/loadlin/loadlin.exe.gz, then \
             TANDEM_LOADLIN=DIR/usr/lib/loadlin/loadlin.exe (.ci/run does this)"
        ),
    }
}

/// A bzImage-format header LOADLIN accepts: setup in 4 sectors, "HdrS"
/// 2.02, loaded high, 256 KiB payload.
fn kernel_image() -> Vec<u8> {
    let setup_sects = 4usize;
    let payload = 256 * 1024;
    let mut img = vec![0u8; 512 * (1 + setup_sects)];
    img[0x1F1] = setup_sects as u8;
    img[0x1F4..0x1F8].copy_from_slice(&((payload / 16) as u32).to_le_bytes());
    img[0x1FE..0x200].copy_from_slice(&[0x55, 0xAA]);
    img[0x200..0x202].copy_from_slice(&[0xEB, 0x7E]); // jmp to cli; hlt
    img[0x202..0x206].copy_from_slice(b"HdrS");
    img[0x206..0x208].copy_from_slice(&0x0202u16.to_le_bytes());
    let ver = b"2.6.0-tandem (test image)\0";
    img[0x400..0x400 + ver.len()].copy_from_slice(ver);
    img[0x20E..0x210].copy_from_slice(&0x0200u16.to_le_bytes());
    img[0x211] = 0x01; // LOADED_HIGH
    img[0x214..0x218].copy_from_slice(&0x0010_0000u32.to_le_bytes());
    img[0x280..0x282].copy_from_slice(&[0xFA, 0xF4]);
    img.resize(img.len() + payload, 0);
    img
}

fn mount(name: &str, files: &[&str]) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tandem-loadlin-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    std::fs::write(d.join("LOADLIN.EXE"), loadlin()).expect("write");
    for f in files {
        std::fs::write(d.join(f), kernel_image()).expect("write");
    }
    d
}

fn run(dir: &Path, extra: &[&str], args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(["run", "--cpu", "386", "--headless"])
        .args(extra)
        .arg(dir.join("LOADLIN.EXE"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("tandem runs")
}

const BANNER: &str = "LOADLIN v1.6f (C) 1994..2002 Hans Lermen <lermen@fgan.de>
              (C) 2008..2010 Samuel Thibault <samuel.thibault@ens-lyon.org>
";

fn report(image: &str, cmdline: &str, buffer: &str, params: &str) -> String {
    format!(
        "{BANNER}
Your current LINUX kernel boot configuration is:
  image file:       {image}
  kernel version    2.6.0-tandem (test image)
  kernel size:     0x00040000 (high loaded) setup size:  0x0800, heap: 0x5600
  VGA mode:         0x0000
  command line (size 0x{:04X}):
    {cmdline}

Your current DOS/CPU configuration is:
  load buffer size: 0x00160000 {buffer} , setup buffer size:  0x5E00
  lowmem buffer:    0x00080000 (part of load buffer)
  total memory:     0x00200000
  CPU is in REAL mode
  SetupIntercept: YES, legal intercept, setup header version 0202
  stat1: cpu in real 386 mode, no need to backswitch
  input params (size 0x{:04X}):
    {params}
  LOADLIN started from DOS-prompt

Option -t set, Linux not loaded
",
        cmdline.len(),
        params.len()
    )
}

#[test]
fn loadlin_reports_the_emulated_machine() {
    // The command line of a real kernel boot. LOADLIN's syntax is `LOADLIN [image]
    // [options] [params]`: with "-t" first it loads its default image
    // "zimage" and passes VMLINUZ to the kernel, so the mount has both.
    let dir = mount("bar", &["VMLINUZ", "ZIMAGE"]);
    let o = run(&dir, &[], &["-t", "VMLINUZ"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        out,
        report("zimage", "VMLINUZ BOOT_IMAGE=zimage", "XMS", "-t VMLINUZ"),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    // LOADLIN ends test mode with INT 21h 4C01h.
    assert_eq!(o.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);

    // VMLINUZ as the image, as LOADLIN's manual writes it.
    let dir = mount("image", &["VMLINUZ"]);
    let o = run(&dir, &[], &["VMLINUZ", "-t"]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        report("vmlinuz", "BOOT_IMAGE=vmlinuz", "XMS", "VMLINUZ -t")
    );
    assert_eq!(o.status.code(), Some(1));

    // Without the XMS driver LOADLIN takes raw extended memory.
    let o = run(&dir, &["--no-xms"], &["VMLINUZ", "-t"]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        report("vmlinuz", "BOOT_IMAGE=vmlinuz", "EXT", "VMLINUZ -t")
    );

    // Without -t it loads the kernel and jumps to its setup code, which
    // here is `cli; hlt`: the emulation stops there (exit status 126).
    let o = run(&dir, &["--seconds", "30"], &["VMLINUZ"]);
    assert_eq!(o.status.code(), Some(126), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("halted with interrupts disabled at 9020:0082"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("LOADING...."));
    let _ = std::fs::remove_dir_all(&dir);
}
