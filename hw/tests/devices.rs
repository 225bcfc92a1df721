//! Our DOS test programs (roms/devices) program the devices through their
//! ports and print what they observe on port E9h.

mod common;

use emu::{CpuModel, Reg16};
use hw::kbc::Key;
use hw::{Machine, MachineConfig};

fn run(name: &str) -> String {
    run_with(MachineConfig::default(), name)
}

fn run_with(cfg: MachineConfig, name: &str) -> String {
    let mut m = common::machine_with(cfg, name);
    common::run_program(&mut m, 50_000_000)
}

#[test]
fn pit_program() {
    assert_eq!(
        run("pit"),
        "s1=70 c1=1234 s2=30 dec=1 tc=1 sq=1 os=1 bcd=1\n"
    );
}

#[test]
fn pic_program() {
    assert_eq!(
        run("pic"),
        "irr=01 isr=00 poll=80 isr=01 isr=00 h=01 isr=00 keep=01 seoi=00 imr=A5 slave=01/04\n"
    );
}

#[test]
fn kbc_program_with_timed_keys() {
    let mut m = common::machine_with(MachineConfig::default(), "kbc");
    let t = 2_000_000;
    m.key(t, Key::new(0x1E), true);
    m.key(t + 100_000, Key::new(0x1E), false);
    m.key(t + 200_000, Key::UP, true);
    m.key(t + 300_000, Key::UP, false);
    let out = common::run_program(&mut m, 50_000_000);
    assert_eq!(
        out,
        "st=55 it=00 cb=45 cb=44 echo=EE id=FAAB41 op=C1 a20=C3 keys=1E9EE048E0C8\n"
    );
    assert!(m.bus.mem.a20());
}

fn with_adlib(mut cfg: MachineConfig) -> MachineConfig {
    cfg.adlib = true;
    cfg
}

#[test]
fn adlib_detection_program() {
    assert_eq!(
        run_with(with_adlib(MachineConfig::default()), "adlib"),
        "s1=00 s2=C0 r=00 t2a=00 t2b=A0\n"
    );
    // Without the card (the default) the ports float: every status read
    // is FFh, which the detection rejects.
    assert_eq!(run("adlib"), "s1=FF s2=FF r=FF t2a=FF t2b=FF\n");
}

#[test]
fn adlib_detection_on_a_fast_386_counts_isa_io_time() {
    // 100 status reads must outlast the 80 us timer step on a 33 MHz 386
    // too: each 8-bit ISA I/O cycle lasts 720 ns, not the CPU's 2 clocks.
    assert_eq!(
        hw::machine::isa_io_wait_states(CpuModel::I386, 33_000_000),
        22
    );
    assert_eq!(
        hw::machine::isa_io_wait_states(CpuModel::I286, 12_000_000),
        7
    );
    assert_eq!(
        hw::machine::isa_io_wait_states(CpuModel::I8086, 4_772_727),
        0
    );
    let cfg = with_adlib(MachineConfig::with_cpu(CpuModel::I386, 33_000_000));
    let mut m = common::machine_with(cfg, "adlib");
    let out = common::run_program(&mut m, 50_000_000);
    assert_eq!(out, "s1=00 s2=C0 r=00 t2a=00 t2b=A0\n");
}

#[test]
fn cmos_program() {
    let mut m = common::machine_with(MachineConfig::default(), "cmos");
    let out = common::run_program(&mut m, 4 * 4_772_727);
    let pi = common::field(&out, "pi");
    assert!((1023..=1025).contains(&pi), "{out}");
    let fixed = out.replace(&format!("pi={pi}"), "pi=N");
    assert_eq!(fixed, "date=19940601 time=080000 b=02 d=80 pi=N min=30\n");
}

#[test]
fn option_rom_is_found_checked_and_initialised() {
    let mut m = Machine::new(MachineConfig::default());
    m.load_rom(0xC8000, &common::rom("hello.rom"));
    let roms = m.init_option_roms(1_000_000).expect("init returns");
    assert_eq!(roms.len(), 1);
    assert_eq!(roms[0].segment, 0xC800);
    assert!(roms[0].checksum_ok);
    assert_eq!(m.debug_output(), b"init");
    m.call_interrupt(0x60, 1_000_000).expect("INT 60h returns");
    assert_eq!(m.debug_output(), b"initint60");
    assert_eq!(m.cpu.regs.reg16(Reg16::AX), 0x1234);
    // A corrupted copy is found but not called.
    let mut bad = common::rom("hello.rom");
    bad[20] ^= 0xFF;
    let mut m = Machine::new(MachineConfig::default());
    m.load_rom(0xC0000, &bad);
    let roms = m.init_option_roms(1_000_000).expect("scan");
    assert!(!roms[0].checksum_ok);
    assert!(m.debug_output().is_empty());
}

#[test]
fn same_inputs_same_state() {
    // The state hash after 2.05 M cycles, with the first key at 2 M cycles
    // plus `shift`.
    let run = |shift: u64| {
        let mut m = common::machine_with(MachineConfig::default(), "kbc");
        m.key(2_000_000 + shift, Key::new(0x1E), true);
        m.key(2_200_000, Key::UP, true);
        m.run_for(2_050_000);
        m.state_hash()
    };
    assert_eq!(run(0), run(0));
    assert_ne!(run(0), run(100_000));
}

#[test]
fn a20_gate_on_a_286() {
    // The gate is in the memory map whatever the CPU: check it as the 286
    // would address FFFF:0010.
    let mut m = Machine::new(MachineConfig::with_cpu(CpuModel::I286, 8_000_000));
    m.poke8(0x0, 0xAA);
    assert_eq!(m.peek8(0x10_0000), 0xAA);
    m.out8(0x92, 0x02);
    assert_ne!(m.peek8(0x10_0000), 0xAA);
    m.out8(0x92, 0x00);
    m.out8(0x64, 0xD1);
    m.out8(0x60, 0x03);
    assert!(m.bus.mem.a20());
    m.out8(0x64, 0xDD);
    assert!(!m.bus.mem.a20());
}

#[test]
fn text_mode_program() {
    use hw::vga::font::glyph;
    let mut m = common::machine_with(MachineConfig::default(), "text");
    let out = common::run_program(&mut m, 10_000_000);
    assert_eq!(out, format!("g={:02X}\n", glyph(b'H')[5]));
    let f = m.render();
    assert_eq!((f.width, f.height), (720, 400));
    let yellow = [255, 255, 85];
    let blue = [0, 0, 170];
    for (i, ch) in b"Hi!".iter().enumerate() {
        let (x0, y0) = ((2 + i) * 9, 16);
        for (y, row) in glyph(*ch).iter().enumerate() {
            for x in 0..9 {
                let on = x < 8 && row >> (7 - x) & 1 != 0;
                let want = if on { yellow } else { blue };
                assert_eq!(f.pixel(x0 + x, y0 + y), want, "{} ({x},{y})", *ch as char);
            }
        }
    }
    // The cursor (scan lines 13-14) at row 3, column 0, grey on black.
    assert_eq!(f.pixel(0, 3 * 16 + 13), [170, 170, 170]);
    assert_eq!(f.pixel(0, 3 * 16 + 12), [0, 0, 0]);
    assert_eq!(f.pixel(0, 13), [0, 0, 0]);
}

#[test]
fn entering_protected_mode_stops_the_run_with_a_clear_error() {
    // MOV EAX,CR0 ; OR AL,1 ; MOV CR0,EAX ; CLI ; HLT
    let code = [0x0F, 0x20, 0xC0, 0x0C, 0x01, 0x0F, 0x22, 0xC0, 0xFA, 0xF4];
    let mut m = Machine::new(MachineConfig::with_cpu(CpuModel::I386, 25_000_000));
    m.load_com(&code, 0x1000).expect("loads");
    assert_eq!(
        m.run_for(1_000_000),
        hw::RunExit::Unsupported("protected mode is not supported")
    );
    assert_eq!(m.cpu.regs.ip, 0x105, "stopped at the MOV to CR0");
    let err = m.run_to_halt(1_000_000).expect_err("the run stops");
    assert!(
        matches!(err, hw::Error::Unsupported { what, .. } if what == "protected mode is not supported"),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "protected mode is not supported (at 1000:0105)"
    );
}

#[test]
fn cpuid_program_names_each_cpu_model() {
    // roms/devices/cpuid.asm: the classic FLAGS/EFLAGS detection.
    for (model, name) in [
        (CpuModel::I8086, "8086\n"),
        (CpuModel::I286, "286\n"),
        (CpuModel::I386, "386\n"),
        (CpuModel::I486, "486\n"),
        (CpuModel::I486Cpuid, "486 CPUID 4/3/5\n"),
    ] {
        // With the unit the model had (the 486DX2's signature is model 3).
        let mut cfg = MachineConfig::with_cpu(model, model.default_hz());
        cfg.fpu = hw::Fpu::auto(model);
        assert_eq!(run_with(cfg, "cpuid"), name, "--cpu {model}");
    }
    // Without an FPU the later 486 is an SX2: model 5 (AP-485).
    let cfg = MachineConfig::with_cpu(CpuModel::I486Cpuid, 33_000_000);
    assert_eq!(run_with(cfg, "cpuid"), "486 CPUID 4/5/5\n");
}

fn with_fpu(fpu: hw::Fpu) -> MachineConfig {
    let mut cfg = MachineConfig::with_cpu(CpuModel::I386, CpuModel::I386.default_hz());
    cfg.fpu = fpu;
    cfg
}

#[test]
fn fpu_program_finds_no_fpu_on_a_bare_386() {
    assert_eq!(run_with(with_fpu(hw::Fpu::None), "fpu"), "no FPU\n");
}

#[test]
fn fpu_program_finds_and_uses_the_387() {
    // sqrt(2) as a double, 7/3 as a single, FLDPI as an integer, and the
    // status word after 1/0 (ZE, TOP = 7, and PE still set from the inexact results before).
    assert_eq!(
        run_with(with_fpu(hw::Fpu::I387), "fpu"),
        "FPU sqrt2=3FF6A09E667F3BCD third=40155555 pi=0003 sw=3824\n"
    );
}
