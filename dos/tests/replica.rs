//! The replica under DOS: it runs its frame loop, quits on Esc, and on the
//! way out restores INT 08h and the PIT's 18.2 Hz rate (as the game does).

mod common;

use dos::Exit;
use emu::CpuModel;

/// The largest count channel 0 shows over `ms` milliseconds of PIT time,
/// about its divisor in mode 3 (the count runs down from it by twos).
fn max_count(m: &mut hw::Machine, ms: u64) -> u32 {
    let step = m.config().cpu_hz / 1000 / 7;
    let mut t = m.cycles();
    let mut best = 0u32;
    for _ in 0..ms * 7 {
        t += step;
        m.bus.pit.advance_to(t);
        m.bus.pit.write(3, 0x00); // latch channel 0
        let lo = m.bus.pit.read(0) as u32;
        let hi = m.bus.pit.read(0) as u32;
        best = best.max(lo | hi << 8);
    }
    best
}

#[test]
fn the_replica_quits_on_esc_and_restores_int_08h_and_the_pit() {
    let mount = common::temp_dir("replica");
    let image = std::fs::read(common::roms_dir().join("replica/replica.exe")).expect("replica.exe");
    let hz = 25_000_000;
    let mut m = hw::Machine::new(hw::MachineConfig::with_cpu(CpuModel::I386, hz));
    let mut dos = dos::Dos::new(dos::DosConfig::new(mount.clone())).expect("mount");
    dos.install(&mut m);
    let vec08 = (m.peek16(0x22), m.peek16(0x20));
    dos.load(&mut m, &image, "C:\\REPLICA.EXE", b"")
        .expect("loads");
    let mut s = dos::Session::new(m, dos);
    // Two emulated seconds of frames: the handler is hooked, the PIT fast.
    assert_eq!(s.run_for(2 * hz), Exit::Limit);
    assert_ne!(
        (s.m.peek16(0x22), s.m.peek16(0x20)),
        vec08,
        "INT 08h is the replica's"
    );
    let fast = max_count(&mut s.m, 10);
    assert!(
        (2000..=2386).contains(&fast),
        "divisor 2,386 while running: {fast}"
    );
    // Esc quits.
    s.dos.type_text(b"\x1b");
    assert_eq!(s.run_for(2 * hz), Exit::Exited(0));
    assert_eq!(
        (s.m.peek16(0x22), s.m.peek16(0x20)),
        vec08,
        "INT 08h restored"
    );
    let slow = max_count(&mut s.m, 60);
    assert!(slow > 60_000, "divisor 65,536 after exit: {slow}");
    let _ = std::fs::remove_dir_all(&mount);
}
