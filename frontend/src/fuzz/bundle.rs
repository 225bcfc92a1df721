//! Fuzz target for check bundles (`tandem compare --bundle DIR`): every
//! part of a real bundle mutated in turn, and the folder's shape changed
//! (a part missing, a folder or a link in its place, an extra file, the
//! profile given as a file), then replayed as `compare --bundle` replays
//! it. An input is a shape byte, a part byte, and that part's bytes.

use std::path::{Path, PathBuf};

use clap::Parser;

use super::{engine, repo, temp_dir};
use crate::golden::bundle::replay;
use crate::play::args::RunArgs;
use crate::play::headless;
use crate::play::prepare::prepare;
use crate::play::run::Stdin;

/// A bundle's files, in the order of the part byte.
const PARTS: [&str; 7] = [
    "bundle.json",
    "report.json",
    "state.bin",
    "tape.bin",
    "reference.bin",
    "input.jsonl",
    "profile.toml",
];

/// `tandem run`'s arguments, parsed as the command line parses them.
#[derive(Parser, Debug)]
struct RunLine {
    #[command(flatten)]
    run: RunArgs,
}

/// The bundle `tandem run --check` writes for the replica with band 2's
/// amplitude changed (the golden-master tests' mutant), in `dir/bundle`.
fn real_bundle(dir: &Path) -> PathBuf {
    let mut exe = std::fs::read(repo().join("roms/replica/replica.exe")).expect("replica.exe");
    exe[0x20 + 0xDB6A + 2] = 120;
    let prog = dir.join("AMP.EXE");
    std::fs::write(&prog, exe).expect("the mutant");
    let out = dir.join("bundle");
    let argv = [
        "tandem run",
        "--headless",
        "--check",
        "--profile",
        "replica",
        "--checkpoint-every",
        "20",
        "--bundle-out",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([out.display().to_string(), "--seconds".into(), "6".into()])
    .chain([prog.display().to_string()]);
    let line = RunLine::try_parse_from(argv).expect("the arguments");
    let mut run = prepare(&line.run, true, Stdin::Ignore).expect("the check starts");
    headless::run(&mut run, &mut std::io::sink(), false);
    assert_eq!(
        run.bundle_written.as_deref(),
        Some(out.as_path()),
        "a bundle"
    );
    out
}

/// Writes the bundle of `input` into `to` (emptied first): the seed's
/// parts with one replaced, in the shape the first byte says.
fn lay_out(parts: &[Vec<u8>], input: &[u8], to: &Path) -> Option<()> {
    let (&shape, rest) = input.split_first()?;
    let (&which, bytes) = rest.split_first()?;
    let which = which as usize % PARTS.len();
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).ok()?;
    let as_file = shape & 0x40 != 0;
    for (i, name) in PARTS.iter().enumerate() {
        let mut b = if i == which {
            bytes.to_vec()
        } else {
            parts[i].clone()
        };
        // The profile as a file beside, named by the manifest.
        if i == 0 && as_file && which != 0 {
            let t = String::from_utf8_lossy(&b).replace("\"replica\"", "\"profile.toml\"");
            b = t.into_bytes();
        }
        let p = to.join(name);
        match (i == which, shape & 7) {
            (true, 4) => continue,
            (true, 5) => std::fs::create_dir_all(&p).ok()?,
            #[cfg(unix)]
            (true, 6) => std::os::unix::fs::symlink("/dev/zero", &p).ok()?,
            (true, 7) => {
                std::fs::write(to.join("extra.bin"), &b).ok()?;
                std::fs::create_dir_all(to.join("sub")).ok()?;
                std::fs::write(&p, b"").ok()?;
            }
            _ => std::fs::write(&p, &b).ok()?,
        }
    }
    Some(())
}

#[test]
fn fuzz_bundle() {
    let dir = temp_dir("bundle");
    let seed_dir = real_bundle(&dir);
    let mut parts: Vec<Vec<u8>> = PARTS[..6]
        .iter()
        .map(|n| std::fs::read(seed_dir.join(n)).expect("a part"))
        .collect();
    parts.push(std::fs::read(repo().join("models/profiles/replica.toml")).expect("a profile"));
    let mount = dir.join("c");
    std::fs::create_dir_all(&mount).expect("drive C:");
    // The bundle replays to its report, also with its profile as a file.
    let work = dir.join("work");
    for shape in [0u8, 0x40] {
        lay_out(&parts, &[&[shape, 1][..], &parts[1]].concat(), &work).expect("laid out");
        let r = replay(&work, Some(&mount)).expect("the seed bundle replays");
        assert_eq!(r.report.lines(), r.recorded.lines(), "the same report");
    }
    let seeds: Vec<Vec<u8>> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| [&[(i as u8 % 2) * 0x40, i as u8][..], p].concat())
        .collect();
    static DICT: &[&[u8]] = &[
        b"\"version\":",
        b"\"checkpoint_frames\":",
        b"\"divergence_cycle\":",
        b"\"mount\":\"/\"",
        b"\"profile\":\"../../etc/passwd\"",
        b"18446744073709551615",
        b"-1",
        b"null",
        b"[]",
        &[0xff; 4],
    ];
    engine::run("bundle", 0xb0d1, seeds, DICT, move |input| {
        if lay_out(&parts, input, &work).is_some() {
            // As `compare --bundle` runs it: a report or an error, and
            // nothing written outside drive C: (its temporary folder).
            // The shape's top bit: drive C: a fresh temporary folder.
            let c = (input[0] & 0x80 == 0).then_some(mount.as_path());
            let _ = replay(&work, c);
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}
