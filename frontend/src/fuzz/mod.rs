//! Fuzz targets for the readers of untrusted input: the save state, the
//! input record, the profile and the GDB packet checks here; check
//! bundles ([`bundle`]); WAVs, SoundFonts and CD-ROM images ([`files`]);
//! the GDB stub whole ([`gdb_stub`]); the history commands ([`history`]);
//! replayed records ([`replay`]). The protocol is fuzzed through the
//! binary (`tests/fuzz_protocol.rs`). Each runs for `TANDEM_FUZZ_SECS`
//! seconds (README: "Fuzzing").

mod bundle;
pub mod engine;
mod files;
mod gdb_stub;
mod history;
mod replay;

use std::path::{Path, PathBuf};

use crate::debug::gdb::packets::{check, check_packet, Checked, Verdict};
use crate::input::record::{self, Event, Header, Input, Recorder};
use dos::{Exit, Session};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A fresh empty folder under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tandem-fuzz-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}

/// A debugger at the entry of `roms/PATH` (a .com), copied into `mount`
/// (drive C:).
fn debugger(mount: &Path, path: &str) -> crate::debug::engine::Debugger {
    let image = std::fs::read(repo().join("roms").join(path)).expect("a test program");
    let name = Path::new(path)
        .file_name()
        .expect("a name")
        .to_string_lossy();
    let upper = name.to_ascii_uppercase();
    std::fs::write(mount.join(&upper), &image).expect("copy the program");
    let mut dos = dos::Dos::new(dos::DosConfig::new(mount.to_path_buf())).expect("a DOS");
    let mut m = hw::Machine::new(hw::MachineConfig::default());
    dos.install(&mut m);
    dos.chdir("C:\\");
    dos.load(&mut m, &image, &format!("C:\\{upper}"), &[])
        .expect("the program loads");
    crate::debug::engine::Debugger::new(m, dos, mount.to_path_buf())
}

/// A real save state: roms/dos/hello.com run for a few frames.
fn hello_state(mount: &Path) -> Vec<u8> {
    let image = std::fs::read(repo().join("roms/dos/hello.com")).expect("roms/dos/hello.com");
    std::fs::write(mount.join("HELLO.COM"), &image).expect("copy hello.com");
    let mut dos = dos::Dos::new(dos::DosConfig::new(mount.to_path_buf())).expect("a DOS");
    let mut m = hw::Machine::new(hw::MachineConfig::default());
    dos.install(&mut m);
    dos.chdir("C:\\");
    dos.load(&mut m, &image, "C:\\HELLO.COM", &[])
        .expect("hello.com loads");
    let mut s = Session::new(m, dos);
    for _ in 0..3 {
        let _ = s.run_frame(u64::MAX);
    }
    let file = mount.join("seed.state");
    crate::app::savestate::save(&file, Path::new("HELLO.COM"), &s.m, &s.dos, 0).expect("a state");
    std::fs::read(&file).expect("the state")
}

#[test]
fn fuzz_savestate() {
    let mount = temp_dir("state");
    let sealed = hello_state(&mount);
    // The real state loads: the target is not refusing everything.
    crate::app::savestate::load_bytes(&sealed, &mount).expect("the seed state loads");
    let raw = dos::state::unseal(&sealed).expect("the seed unseals");
    // Most mutants of the sealed file fail the checksum: the raw bincode is
    // mutated too and sealed again, so the decoder and checks see them.
    let seeds = vec![sealed, raw];
    let m = mount.clone();
    let n = engine::run("savestate", 0x5a7e, seeds, &[], move |input| {
        let bytes = if input.starts_with(b"TANDEM") || input.len() < 8 {
            input.to_vec()
        } else {
            match dos::state::seal(input) {
                Ok(b) => b,
                Err(_) => return,
            }
        };
        // A state that loads must also resume: a short bounded run.
        if let Ok(snap) = crate::app::savestate::load_bytes(&bytes, &m) {
            let mut s = Session::new(snap.machine, snap.dos);
            let end = s.m.cycles().saturating_add(200_000);
            while matches!(s.run_frame(end), Exit::Frame) {}
        }
    });
    let _ = std::fs::remove_dir_all(&mount);
    assert!(n > 2);
}

/// A real record: what `--record` writes.
fn a_record() -> Vec<u8> {
    let dir = temp_dir("record");
    let file = dir.join("seed.rec");
    let header = Header {
        tandem: "record".into(),
        version: crate::input::record::VERSION,
        program: "HELLO.COM".into(),
        cpu: "386".into(),
        cpu_hz: 25_000_000,
        fpu: Some("387".into()),
        adlib: true,
        sb16: Some(hw::Sb16Config::default()),
        mpu401: Some(Default::default()),
        joystick: true,
        gus: Some(hw::GusConfig::default()),
        dos_layout: Some("dosbox".into()),
    };
    let out = std::fs::File::create(&file).expect("a record file");
    let mut r = Recorder::new(Box::new(out), &header).expect("a recorder");
    let inputs = [
        Input::Key {
            code: 0x1c,
            ext: false,
            down: true,
        },
        Input::Key {
            code: 0x1c,
            ext: false,
            down: false,
        },
        Input::Key {
            code: 0x48,
            ext: true,
            down: true,
        },
        Input::Mouse {
            dx: -3,
            dy: 7,
            buttons: 1,
        },
        Input::Joy {
            stick: 1,
            x: Some(-32767),
            y: None,
        },
        Input::JoyButton {
            stick: 2,
            button: 1,
            down: true,
        },
        Input::End { frames: 120 },
    ];
    for (i, input) in inputs.into_iter().enumerate() {
        r.push(&Event {
            cycle: 1000 * i as u64 + 5,
            input,
        })
        .expect("an event");
    }
    r.flush().expect("flush");
    drop(r);
    let bytes = std::fs::read(&file).expect("the record");
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

#[test]
fn fuzz_record() {
    let seed = a_record();
    let (_, events) = record::read(&seed[..]).expect("the seed record reads");
    assert_eq!(events.len(), 7);
    static DICT: &[&[u8]] = &[
        b"\n",
        b"\"cycle\":",
        b"18446744073709551615",
        b"\"cpu_hz\":0",
        b"{\"cycle\":1,\"key\":{\"code\":1,\"ext\":false,\"down\":true}}\n",
        b"-1",
        b"null",
    ];
    engine::run("record", 0x7ec0, vec![seed], DICT, |input| {
        let _ = record::read(input);
    });
}

#[test]
fn fuzz_profile() {
    let dir = repo().join("models/profiles");
    let mut seeds = Vec::new();
    for e in std::fs::read_dir(&dir).expect("models/profiles") {
        let p = e.expect("an entry").path();
        if p.extension().is_some_and(|x| x == "toml") {
            let text = std::fs::read(&p).expect("a profile");
            models::profile::Profile::parse(&String::from_utf8_lossy(&text))
                .unwrap_or_else(|e| panic!("{}: {}", p.display(), e));
            seeds.push(text);
        }
    }
    assert!(seeds.len() >= 4, "models/profiles/*.toml: {}", seeds.len());
    static DICT: &[&[u8]] = &[
        b"\n", b" = ", b"\"", b"0x", b"ffff", b"65536", b"-1", b"255", b"[", b"]", b"??",
    ];
    engine::run("profile", 0x9f0f, seeds, DICT, |input| {
        if let Ok(p) = models::profile::Profile::parse(&String::from_utf8_lossy(input)) {
            // What the rest of tandem does with a profile must hold too.
            let _ = p.fountain_params();
            let mem = vec![0u8; 0x2000];
            let _ = p.find_code_segment(&mem, 0, 0x100);
            // Two frame points of a lock-step comparison (the first only
            // records the start), so every slot the profile names is used.
            let at = models::Placed {
                mem: &mem,
                segs: models::Segments {
                    code: 0x10,
                    data: 0x20,
                    stack: 0x20,
                },
            };
            let slots = models::profile::PARAM_SLOTS;
            let mut ls = models::compare::LockStep::new(p, vec![0; slots]);
            let ticks = models::compare::Ticks {
                irqs: 1,
                advance: 0,
            };
            for _ in 0..2 {
                let _ = ls.check(&at, &at, ticks);
            }
        }
    });
}

#[test]
fn fuzz_gdb_packets() {
    let seeds = engine::text_seeds(&[
        "m0,10",
        "m7c00,ffffffff",
        "M100,4:deadbeef",
        "X100,2:\u{1}\u{2}",
        &format!("G{}", "00".repeat(178)),
        "g",
        "p8",
        "P8=00010000",
        "Z0,7c00,1",
        "z1,100,1",
        "Z2,400,2",
        "c",
        "s7c00",
        "qSupported:multiprocess+;xmlRegisters=i386",
        "QStartNoAckMode",
        "vCont;c",
        "?",
        "qRcmd,7265677320",
    ]);
    static DICT: &[&[u8]] = &[
        b",",
        b":",
        b";",
        b"=",
        b"ffffffff",
        b"100000000",
        b"\xc3\xa9",
        b"#",
    ];
    // The framing (`$BODY#CS`, acks, NAKs) runs on a loopback connection
    // whose far end discards the replies.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let conn = std::net::TcpStream::connect(listener.local_addr().expect("its address"))
        .expect("a connection");
    let (mut far, _) = listener.accept().expect("accepted");
    std::thread::spawn(move || std::io::copy(&mut far, &mut std::io::sink()));
    // A valid packet passes the framing as it is.
    let mut c = Checked::new(conn.try_clone().expect("a clone"));
    assert_eq!(c.feed(b"$g#67").expect("sorts"), b"$g#67");
    engine::run("gdb", 0x6d6b, seeds, DICT, move |input| {
        if let Verdict::Rewrite(b) = check_packet(input) {
            assert_eq!(check(&b), Verdict::Pass, "rewritten as {b}");
        }
        let sum = input.iter().fold(0u8, |s, b| s.wrapping_add(*b));
        let mut framed = b"+$".to_vec();
        framed.extend_from_slice(input);
        framed.extend_from_slice(format!("#{sum:02x}").as_bytes());
        let mut c = Checked::new(conn.try_clone().expect("a clone"));
        c.feed(&framed).expect("framed bytes sort");
        c.feed(input).expect("raw bytes sort");
    });
}
