//! `tandem run`: guest text on stdout, the guest's exit code, and exit
//! status 2 (one stderr line naming the file) for programs that cannot be
//! loaded, 124 when the run ends before the program terminates, 126 when
//! the emulation cannot go on.

mod common;
use common::{dos_rom, headless, replica, run as tandem, run_with_stdin, s, temp_dir, text};

#[test]
fn guest_text_goes_to_stdout_and_its_exit_code_is_ours() {
    let hello = dos_rom("hello.com");
    let o = headless(&[s(&hello), "a", "b"]);
    assert_eq!(o.status.code(), Some(7), "{o:?}");
    assert_eq!(text(&o.stdout), "Hello, a b!\n");
    assert_eq!(text(&o.stderr), "");
    // Without --headless and without a display: headless, and it says so.
    let o = tandem(&[s(&hello)]);
    assert_eq!(o.status.code(), Some(7));
    assert!(text(&o.stderr).contains("headless"), "{o:?}");
    // Every CPU model.
    for cpu in ["8086", "286", "386"] {
        let o = headless(&["--cpu", cpu, s(&hello)]);
        assert_eq!(o.status.code(), Some(7), "{cpu}: {o:?}");
    }
}

#[test]
fn runs_that_stop_exit_124_or_126() {
    let spin = dos_rom("spin.com");
    let o = headless(&["--seconds", "1", s(&spin)]);
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("spin.com") && err.contains("time limit"),
        "{err}"
    );

    let pm = dos_rom("protmode.com");
    let o = headless(&["--cpu", "286", s(&pm)]);
    assert_eq!(o.status.code(), Some(126), "{o:?}");
    let err = text(&o.stderr);
    assert!(err.contains("protected mode"), "{err}");
}

/// An MZ header: (bytes in last page, pages, relocations, header
/// paragraphs, min alloc, max alloc, relocation table offset).
fn mz(last: u16, pages: u16, relocs: u16, hdr: u16, min: u16, max: u16, table: u16) -> Vec<u8> {
    let mut v = vec![0u8; 0x1C];
    v[0] = b'M';
    v[1] = b'Z';
    for (at, x) in [
        (2, last),
        (4, pages),
        (6, relocs),
        (8, hdr),
        (10, min),
        (12, max),
        (0x18, table),
    ] {
        v[at..at + 2].copy_from_slice(&x.to_le_bytes());
    }
    v
}

#[test]
fn malformed_programs_exit_2_with_one_line() {
    let dir = temp_dir("bad");
    let mut cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("EMPTY.EXE", vec![], "zero-length"),
        ("TRUNC.EXE", b"MZ\x10\x00\x01\x00".to_vec(), "truncated"),
    ];
    // Header says 4 paragraphs (64 bytes) but the file has 28.
    cases.push(("SHORTHDR.EXE", mz(0, 1, 0, 4, 0, 0, 0x1C), "truncated"));
    // Ten relocations at 1Ch in a 64-byte file.
    let mut f = mz(64, 1, 10, 4, 0, 0, 0x1C);
    f.resize(64, 0);
    cases.push(("RELOCS.EXE", f, "relocation"));
    // An image of 0xFFFF pages (32 MiB).
    let mut f = mz(0, 0xFFFF, 0, 2, 0, 0xFFFF, 0x1C);
    f.resize(64, 0);
    cases.push(("HUGE.EXE", f, "memory"));
    // A small image that asks for 1 MiB beyond it.
    let mut f = mz(64, 1, 0, 2, 0xFFFF, 0xFFFF, 0x1C);
    f.resize(64, 0);
    cases.push(("MINALLOC.EXE", f, "memory"));
    // A COM file larger than a segment.
    cases.push(("BIG.COM", vec![0x90; 70_000], "segment"));
    for (name, bytes, why) in &cases {
        let p = dir.join(name);
        std::fs::write(&p, bytes).expect("write");
        let o = headless(&[s(&p)]);
        assert_eq!(o.status.code(), Some(2), "{name}: {o:?}");
        let err = text(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(name) && err.contains(why), "{name}: {err}");
        assert!(o.stdout.is_empty());
    }
    // A directory and a missing file.
    std::fs::create_dir_all(dir.join("GAME.EXE")).expect("mkdir");
    for p in [dir.join("GAME.EXE"), dir.join("MISSING.EXE")] {
        let o = headless(&[s(&p)]);
        assert_eq!(o.status.code(), Some(2), "{o:?}");
        let err = text(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(p.file_name().and_then(|n| n.to_str()).expect("name")));
    }
    // A mount that is not a directory.
    let hello = dos_rom("hello.com");
    let o = headless(&["--mount", "/nonexistent/dir", s(&hello)]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn headless_stdin_is_typed_on_the_keyboard() {
    // A program that reads a line with INT 21h 0Ah (which echoes the
    // keys, and Enter as a lone CR) and exits with 7.
    let dir = temp_dir("stdin");
    let prog: Vec<u8> = vec![
        0xB4, 0x0A, // mov ah,0Ah
        0xBA, 0x20, 0x01, // mov dx,0120h
        0xCD, 0x21, // int 21h
        0xB8, 0x07, 0x4C, // mov ax,4C07h
        0xCD, 0x21, // int 21h
    ];
    let mut image = prog;
    image.resize(0x20, 0x90);
    image.push(20); // buffer: max 20
    image.resize(0x20 + 24, 0);
    let p = dir.join("READ.COM");
    std::fs::write(&p, &image).expect("write");
    let o = run_with_stdin(&["--headless", "--seconds", "5", s(&p)], b"typed\n");
    assert_eq!(o.status.code(), Some(7), "{o:?}");
    assert_eq!(text(&o.stdout), "typed\r");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_replica_runs_and_quits_on_esc() {
    // roms/replica (an MZ program: mode 13h through INT 10h, its own IRQ0
    // handler, INT 16h polling) until Esc arrives from stdin.
    let exe = replica();
    let o = run_with_stdin(
        &["--headless", "--cpu", "386", "--seconds", "10", s(&exe)],
        b"\x1b",
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    // Without a key it runs until the time limit.
    let o = headless(&["--cpu", "386", "--seconds", "1", s(&exe)]);
    assert_eq!(o.status.code(), Some(124), "{o:?}");
}

/// `-v` ends a run with the list of BIOS/DOS functions the program asked
/// for that tandem does not implement: one line for INT 21h AH=FFh (no
/// such DOS function), none for a program that uses only implemented ones.
#[test]
fn verbose_lists_the_functions_that_are_not_implemented() {
    let d = temp_dir("unimpl");
    // mov ah,FFh; int 21h; mov ax,4C05h; int 21h
    let probe = d.join("PROBE.COM");
    std::fs::write(
        &probe,
        [0xB4, 0xFF, 0xCD, 0x21, 0xB8, 0x05, 0x4C, 0xCD, 0x21],
    )
    .expect("write");
    let o = tandem(&["-v", "--headless", s(&probe)]);
    assert_eq!(o.status.code(), Some(5), "{o:?}");
    let err = text(&o.stderr);
    assert!(
        err.contains("1 BIOS/DOS function(s) the program asked for are not implemented:")
            && err.contains("  INT 21h AH=FFh AL=00h is not implemented"),
        "{err}"
    );
    let hello = dos_rom("hello.com");
    let o = tandem(&["-v", "--headless", s(&hello)]);
    assert_eq!(o.status.code(), Some(7), "{o:?}");
    assert!(
        text(&o.stderr)
            .contains("every BIOS and DOS function the program asked for is implemented"),
        "{o:?}"
    );
    // Without -v, the one warning but no list.
    let o = headless(&[s(&probe)]);
    assert!(!text(&o.stderr).contains("function(s)"), "{o:?}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_pressed_key_reaches_port_60h_at_its_emulated_time() {
    // roms/dos/int9key.com: exits with the first byte its INT 9 handler
    // reads from port 60h.
    let dir = temp_dir("press");
    let p = dos_rom("int9key.com");
    let p = s(&p);
    // `--seconds SECONDS`, a `--press` for each of `presses`, `extra`.
    let pressed = |seconds: &str, presses: &[&str], extra: &[&str]| {
        let mut args = vec!["--seconds", seconds];
        for k in presses {
            args.extend(["--press", k]);
        }
        args.extend(extra);
        args.push(p);
        headless(&args)
    };
    for (seconds, presses, code) in [
        // Before 1.5 s nothing arrives; after, the make code of A (1Eh).
        ("1.45", &["1.5:a"][..], 124),
        ("1.55", &["1.5:A"], 0x1E),
        // Grey keys arrive with their E0h prefix; hex codes name keys too.
        ("3", &["1:up"], 0xE0),
        ("3", &["1:0x44"], 0x44),
        // The earliest of several presses comes first, whatever the order
        // given.
        ("3", &["2:f10", "1:enter"], 0x1C),
    ] {
        let o = pressed(seconds, presses, &[]);
        assert_eq!(o.status.code(), Some(code), "{presses:?}: {o:?}");
    }
    // A record keeps the press at its cycle (8086 at 4.772727 MHz), and its
    // replay reaches the same end.
    let rec = dir.join("press.jsonl");
    let o = pressed("3", &["1:space"], &["--record", s(&rec)]);
    assert_eq!(o.status.code(), Some(0x39), "{o:?}");
    let r = std::fs::read_to_string(&rec).expect("record");
    assert!(
        r.contains(r#"{"cycle":4772727,"key":{"code":57,"ext":false,"down":true}}"#),
        "{r}"
    );
    let o = headless(&["--replay", s(&rec), p]);
    assert_eq!(o.status.code(), Some(0x39), "{o:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_press_exits_2_with_one_line() {
    let hello = dos_rom("hello.com");
    for (spec, what) in [
        ("1:nokey", "unknown key 'nokey'"),
        ("soon:a", "'soon' is not a time"),
        ("2", "expected SECONDS:KEY"),
    ] {
        let o = headless(&["--press", spec, s(&hello)]);
        assert_eq!(o.status.code(), Some(2), "{spec}: {o:?}");
        let err = text(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(spec) && err.contains(what), "{err}");
    }
}

/// An output that cannot be written is found before the run starts: exit
/// 2, one line, and the program never ran.
#[test]
fn unwritable_outputs_are_refused_before_the_run() {
    let hello = dos_rom("hello.com");
    let d = temp_dir("unwritable");
    let missing = d.join("no/such/dir/out");
    for opt in ["--save-state", "--screenshot"] {
        let o = headless(&[opt, s(&missing), s(&hello)]);
        assert_eq!(o.status.code(), Some(2), "{opt}: {o:?}");
        let err = text(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{opt}: {err}");
        assert!(err.contains(opt), "{err}");
        assert_eq!(text(&o.stdout), "", "{opt}: the program ran");
        // A directory is no file either.
        let o = headless(&[opt, s(&d), s(&hello)]);
        assert_eq!(o.status.code(), Some(2), "{opt}: {o:?}");
    }
    // A writable one is left as the run writes it (and not there before).
    let shot = d.join("shot.png");
    let o = headless(&["--screenshot", s(&shot), s(&hello)]);
    assert_eq!(o.status.code(), Some(7), "{o:?}");
    assert!(shot.exists());
    let _ = std::fs::remove_dir_all(&d);
}
