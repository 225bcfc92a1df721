//! Time travel is exact (docs/debugger.md, "Time travel"): after any
//! reverse command the whole machine (CPU, memory, every device, DOS and
//! the BIOS: the save state's bytes and the state hash) equals what the
//! forward run had at that cycle, and running forwards again reaches the
//! same states, the user's typed keys replayed at their cycles. On the
//! replica and on a corpus program with keyboard input and AdLib music,
//! over one instruction, an interrupt, a frame and seconds.

mod common;

use std::path::Path;

use tandem::app::options::{DosOpts, MachineOpts};
use tandem::debug::console;
use tandem::debug::engine::{Debugger, Stop};
use tandem::debug::{start, Start};

/// The machine at one position.
struct Look {
    cycle: u64,
    hash: u64,
    state: Vec<u8>,
}

fn look(d: &Debugger) -> Look {
    let meta = dos::state::Meta::default();
    Look {
        cycle: d.core.m.cycles(),
        hash: d.core.m.state_hash(),
        state: dos::state::encode(&d.core.m, &d.core.dos, &meta).expect("state encodes"),
    }
}

/// The machine is where `want` was, exactly.
fn same(d: &Debugger, want: &Look, what: &str) {
    let now = look(d);
    assert_eq!(now.cycle, want.cycle, "{what}: cycle");
    if now.state != want.state {
        let at = now
            .state
            .iter()
            .zip(&want.state)
            .position(|(a, b)| a != b)
            .unwrap_or(now.state.len().min(want.state.len()));
        panic!(
            "{what}: the save state differs from byte {at} (of {} and {}):\n{}",
            now.state.len(),
            want.state.len(),
            first_difference(&d.mount_path(), &now.state, &want.state)
        );
    }
    assert_eq!(
        now.hash, want.hash,
        "{what}: state hash at cycle {}",
        now.cycle
    );
}

/// The first line where the two states' parts differ, as Debug prints
/// them.
fn first_difference(mount: &Path, a: &[u8], b: &[u8]) -> String {
    let (Ok(a), Ok(b)) = (dos::state::decode(a, mount), dos::state::decode(b, mount)) else {
        return "a state does not decode".into();
    };
    let parts = [
        (
            "cpu",
            format!("{:#?}", a.machine.cpu),
            format!("{:#?}", b.machine.cpu),
        ),
        (
            "machine",
            format!("{:#?}", a.machine),
            format!("{:#?}", b.machine),
        ),
        ("dos", format!("{:#?}", a.dos), format!("{:#?}", b.dos)),
    ];
    for (name, x, y) in parts {
        // (An open file's descriptor differs after a restore; its DOS
        // path and position are what the state holds.)
        let diff = x
            .lines()
            .zip(y.lines())
            .enumerate()
            .find(|(_, (l, r))| l != r && !l.trim_start().starts_with("fd:"));
        if let Some((i, (l, r))) = diff {
            let ctx: Vec<&str> = x.lines().skip(i.saturating_sub(6)).take(7).collect();
            return format!(
                "{name}, line {i}: now {l:?}, then {r:?}\n{}",
                ctx.join("\n")
            );
        }
    }
    "no difference in Debug".into()
}

fn debugger(program: &Path, cpu: &str, mount: &Path) -> Debugger {
    let machine = MachineOpts {
        cpu: Some(cpu.parse().expect("cpu model")),
        ..MachineOpts::default()
    };
    let dos = DosOpts {
        mount: Some(mount.to_path_buf()),
        no_xms: false,
        no_ems: false,
        disk_quota: 64,
        cdrom: Vec::new(),
        cdrom_dir: Vec::new(),
    };
    start(&Start {
        program,
        args: &[],
        machine: &machine,
        dos: &dos,
        load_state: None,
        history_mib: 1024,
    })
    .expect("the debugger starts")
}

fn console(d: &mut Debugger, line: &str) -> String {
    console::execute(d, line)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .text
}

/// CPU clocks in `ms` milliseconds.
fn ms(d: &Debugger, ms: u64) -> u64 {
    d.core.m.config().cpu_hz * ms / 1000
}

#[test]
fn the_replica_goes_back_exactly_and_forwards_again() {
    let mount = common::temp_dir("tt-replica");
    let mut d = debugger(&common::replica(), "386", &mount);
    d.step(2000);
    let a = look(&d);
    d.step(1);
    let b = look(&d);
    // Across an interrupt: the timer's IRQ 0 (INT 08h) taken and run a
    // little way into its handler.
    let before_irq = look(&d);
    console(&mut d, "int 8");
    assert!(matches!(d.cont(ms(&d, 100)), Stop::Breakpoint(..)));
    let in_irq = look(&d);
    console(&mut d, "bd all");
    d.step(5);
    let after_irq = look(&d);
    // Across frames (the VGA's 70 Hz) and across seconds.
    let frames = d.core.m.bus.vga.frames();
    d.cont(ms(&d, 30));
    assert!(d.core.m.bus.vga.frames() > frames, "a frame passed");
    let frame = look(&d);
    d.cont(ms(&d, 2500));
    let seconds = look(&d);

    assert!(matches!(d.goto(frame.cycle), Ok(Stop::Stepped)));
    same(&d, &frame, "back 2.5 seconds");
    d.goto(after_irq.cycle).expect("goto");
    same(&d, &after_irq, "back a frame");
    d.reverse_step(5).expect("reverse-step 5");
    same(&d, &in_irq, "back into the interrupt's entry");
    d.goto(before_irq.cycle).expect("goto");
    same(&d, &before_irq, "back across the interrupt");
    d.goto(b.cycle).expect("goto");
    d.reverse_step(1).expect("reverse-step");
    same(&d, &a, "back one instruction");

    // Forwards again from there: the same states.
    d.step(1);
    same(&d, &b, "one instruction on");
    d.cont(seconds.cycle - b.cycle);
    same(&d, &seconds, "seconds on");
}

#[test]
fn typed_keys_are_replayed_and_adlib_music_comes_back_the_same() {
    let corpus = common::repo().join("../shared/corpus/lgengine");
    assert!(
        corpus.join("PLAY.EXE").is_file(),
        "{}: the corpus is missing",
        corpus.display()
    );
    let mount = common::temp_dir("tt-lgengine");
    for f in std::fs::read_dir(&corpus).expect("corpus folder") {
        let f = f.expect("entry").path();
        std::fs::copy(&f, mount.join(f.file_name().expect("name"))).expect("copied");
    }
    let mut d = debugger(&mount.join("PLAY.EXE"), "386", &mount);
    d.cont(ms(&d, 1000));
    let before_keys = look(&d);
    // (A change is part of the position it is made at: the keys come one
    // instruction later.)
    d.step(1);
    // The set-up answers (VGA 256 colours, original scroll, AdLib music
    // and effects, keyboard), a second apart as a person types.
    for k in ["y", "1", "0", "2", "1", "0", "0"] {
        console(&mut d, &format!("key {k}"));
        d.cont(ms(&d, 1000));
    }
    d.cont(ms(&d, 6000));
    let music = look(&d);
    let opl = console(&mut d, "history port 389");
    let writes: usize = opl
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a count of writes");
    assert!(writes > 1000, "the menu's music plays:\n{opl}");

    d.goto(before_keys.cycle).expect("goto");
    same(&d, &before_keys, "back before the keys");
    d.cont(music.cycle - before_keys.cycle);
    same(
        &d,
        &music,
        "forwards again through the keys, into the music",
    );
    d.reverse_step(1).expect("reverse-step");
    d.step(1);
    same(&d, &music, "one instruction back and on");
}

/// The offset of files.com's one-byte buffer: the DX of its read (`mov
/// ah,3Fh; mov bx,[self]; mov cx,1; mov dx,byte_`).
fn files_buffer(image: &[u8]) -> u16 {
    let at = image
        .windows(9)
        .position(|w| w[0] == 0xB4 && w[1] == 0x3F && w[2] == 0x8B && w[6] == 0xB9)
        .expect("files.com's read");
    let mov_dx = at + 9;
    assert_eq!(image[mov_dx], 0xBA, "mov dx, imm16");
    u16::from_le_bytes([image[mov_dx + 1], image[mov_dx + 2]])
}

/// files.com reads a byte of itself into a buffer (INT 21h 3Fh) on every
/// timer tick and appends it to LOG.TXT: the history names the DOS service
/// as the buffer's writer, and going back takes LOG.TXT back with it, so
/// the replay writes the same file again.
#[test]
fn dos_writes_are_named_and_drive_c_goes_back_too() {
    let mount = common::temp_dir("tt-files");
    let image = std::fs::read(common::dos_rom("files.com")).expect("files.com");
    std::fs::write(mount.join("FILES.COM"), &image).expect("copied");
    let mut d = debugger(&mount.join("FILES.COM"), "8086", &mount);
    let log = mount.join("LOG.TXT");
    d.cont(ms(&d, 1000));
    let early = look(&d);
    let early_log = std::fs::read(&log).expect("LOG.TXT");
    d.cont(ms(&d, 1000));
    let late = look(&d);
    let late_log = std::fs::read(&log).expect("LOG.TXT");
    assert!(late_log.len() > early_log.len() + 10, "a byte a tick");

    let buffer = files_buffer(&image);
    let text = console(&mut d, &format!("history ds:{buffer:X} 1"));
    let services = text
        .lines()
        .filter(|l| l.contains("by INT 21h AX=3F"))
        .count();
    assert!(services >= 30, "{text}");
    same(&d, &late, "after the query");

    d.goto(early.cycle).expect("goto");
    same(&d, &early, "back a second");
    assert_eq!(
        std::fs::read(&log).expect("LOG.TXT"),
        early_log,
        "LOG.TXT back"
    );
    d.cont(late.cycle - early.cycle);
    same(&d, &late, "on again");
    assert_eq!(
        std::fs::read(&log).expect("LOG.TXT"),
        late_log,
        "LOG.TXT again"
    );
}
