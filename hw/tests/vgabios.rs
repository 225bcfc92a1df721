//! Bar: Debian's `vgabios` (LGPL, fetched in CI with `apt-get download
//! vgabios`, never committed), initialised as an option ROM and asked for
//! modes 13h and 03h through INT 10h, programs the VGA so that the renderer
//! shows what each mode defines.
//!
//! The image is looked up at $TANDEM_VGABIOS (`.ci/run` fetches the package
//! into `target/debs/` and sets it), then /usr/share/vgabios/vgabios.bin;
//! when neither exists the test fails. vgabios uses 186 and 386
//! instructions, so it runs on the 386 model.

mod common;

use emu::{CpuModel, Reg16};
use hw::{Machine, MachineConfig};

fn vgabios() -> Vec<u8> {
    let candidates = [
        std::env::var("TANDEM_VGABIOS").unwrap_or_default(),
        "/usr/share/vgabios/vgabios.bin".to_string(),
    ];
    for c in candidates.iter().filter(|c| !c.is_empty()) {
        if let Ok(b) = std::fs::read(c) {
            return b;
        }
    }
    panic!("vgabios.bin not found: apt-get download vgabios && dpkg-deb -x vgabios_*.deb DIR, then TANDEM_VGABIOS=DIR/usr/share/vgabios/vgabios.bin")
}

fn boot(model: CpuModel) -> Machine {
    let mut m = Machine::new(MachineConfig::with_cpu(model, 25_000_000));
    m.post();
    m.load_rom(0xC0000, &vgabios());
    let roms = m
        .init_option_roms(200_000_000)
        .expect("vgabios init returns");
    assert_eq!(roms.len(), 1);
    assert!(roms[0].checksum_ok);
    m
}

fn set_mode(m: &mut Machine, mode: u8) {
    m.cpu.regs.set_reg16(Reg16::AX, mode as u16);
    m.call_interrupt(0x10, 200_000_000)
        .expect("INT 10h returns");
}

#[test]
fn vgabios_sets_modes_13h_and_03h() {
    let mut m = boot(CpuModel::I386);
    set_mode(&mut m, 0x13);
    let v = &m.bus.vga;
    assert_eq!(v.misc, 0x63);
    assert_eq!(v.seq.regs[1..5], [0x01, 0x0F, 0x00, 0x0E]);
    assert_eq!(v.crtc.regs[0x09], 0x41);
    assert_eq!(v.crtc.regs[0x14], 0x40);
    assert_eq!(v.gc.regs[5], 0x40);
    assert_eq!(v.attr.regs[0x10], 0x41);
    // A pixel written to the window shows at its place.
    m.bus.vga.mem_write(0xA0000 + 320 * 10 + 20, 0x28);
    m.bus.vga.vertical_retrace_start();
    let f = m.render();
    assert_eq!((f.width, f.height), (320, 200));
    assert_eq!(f.pixel(20, 10), m.bus.vga.dac.rgb(0x28));
    assert_ne!(f.pixel(20, 10), f.pixel(21, 10));

    set_mode(&mut m, 0x03);
    let v = &m.bus.vga;
    assert_eq!(v.misc, 0x67);
    assert_eq!(v.crtc.regs[0x09] & 0x1F, 0x0F);
    assert_eq!(v.gc.regs[6], 0x0E);
    m.bus.vga.mem_write(0xB8000, b'H');
    m.bus.vga.mem_write(0xB8001, 0x1F);
    let f = m.render();
    assert_eq!((f.width, f.height), (720, 400));
    // The glyph comes from the font vgabios loaded into plane 2: some
    // pixels of the cell are foreground (white), some background (blue).
    let cell: Vec<[u8; 3]> = (0..16)
        .flat_map(|y| (0..9).map(move |x| (x, y)))
        .map(|(x, y)| f.pixel(x, y))
        .collect();
    assert!(cell.contains(&[255, 255, 255]));
    assert!(cell.contains(&[0, 0, 170]));
}
