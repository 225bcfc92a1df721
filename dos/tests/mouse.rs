//! The INT 33h event handler runs as guest code: roms/dos/mouse.com
//! installs one with INT 33h 0Ch, the host moves the mouse and presses the
//! left button, and the handler receives the condition, buttons and
//! position at the next timer tick.

mod common;

use dos::{Dos, DosConfig, Exit};
use emu::CpuModel;
use hw::{Machine, MachineConfig};

#[test]
fn mouse_event_handler_is_called() {
    let mount = common::temp_dir("mouse");
    let image = std::fs::read(common::roms_dir().join("dos/mouse.com")).expect("mouse.com");
    let hz = 10_000_000;
    let mut m = Machine::new(MachineConfig::with_cpu(CpuModel::I286, hz));
    let mut dos = Dos::new(DosConfig::new(mount.clone())).expect("mount");
    dos.install(&mut m);
    dos.load(&mut m, &image, "C:\\MOUSE.COM", b"")
        .expect("loads");
    let mut s = dos::Session::new(m, dos);
    // Nothing happens without an event.
    assert_eq!(s.run_for(hz / 5), Exit::Limit);
    assert!(s.dos.take_output().is_empty());
    // 16 mickeys right, 8 down (8 and 16 mickeys per 8 pixels), left
    // button down: moved (1) + left pressed (2).
    s.dos.mouse_input(16, 8, 1);
    assert_eq!(s.run_for(hz), Exit::Exited(0));
    let out = String::from_utf8_lossy(&s.dos.take_output()).into_owned();
    assert_eq!(out, "EVENT 0003 0001 0150 0068 \n");
    let _ = std::fs::remove_dir_all(&mount);
}
