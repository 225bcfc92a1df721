//! The card on a machine: ports, DMA playback timing, interrupts, mixer.

use super::*;
use crate::{Machine, MachineConfig};

/// 100 cycles per sample at 44100 Hz.
const CPU: u64 = 4_410_000;
const BASE: u16 = 0x220;
/// The reset's 20 us: 88.2 cycles, rounded up.
const RESET_CYCLES: u64 = 89;

fn machine(config: Option<Sb16Config>) -> Machine {
    let mut c = MachineConfig::with_cpu(emu::CpuModel::I386, CPU);
    c.sb16 = config;
    let mut m = Machine::new(c);
    m.post();
    m
}

/// Runs the devices to cycle `c`.
fn at(m: &mut Machine, c: u64) {
    m.cpu.cycles = c;
    m.bus.run_events(c);
}

fn dsp(m: &mut Machine, bytes: &[u8]) {
    for &b in bytes {
        m.out8(BASE + 0xC, b);
    }
}

fn reset(m: &mut Machine) {
    m.out8(BASE + 6, 1);
    m.out8(BASE + 6, 0);
    let t = m.cycles() + RESET_CYCLES;
    at(m, t);
    assert_eq!(m.in8(BASE + 0xA), dsp::READY);
}

fn irq5(m: &Machine) -> bool {
    m.bus.dev.pics.master.lines() & 0x20 != 0
}

/// DMA channel 1 (or 5) reading `len` units at physical `addr`,
/// single-cycle or auto-initialized.
fn program_dma(m: &mut Machine, ch: u8, addr: u32, len: u16, auto: bool) {
    let mode = 0x48 | (auto as u8) << 4 | (ch & 3);
    if ch < 4 {
        let (a, c) = (ch as u16 * 2, ch as u16 * 2 + 1);
        m.out8(0x0A, 0x04 | ch);
        m.out8(0x0C, 0);
        m.out8(0x0B, mode);
        m.out8(a, addr as u8);
        m.out8(a, (addr >> 8) as u8);
        m.out8(c, (len - 1) as u8);
        m.out8(c, ((len - 1) >> 8) as u8);
        m.out8(crate::dma8237::PAGE_PORTS[ch as usize], (addr >> 16) as u8);
        m.out8(0x0A, ch);
    } else {
        let reg = |r: u16| 0xC0 + 2 * r;
        let (a, c) = (reg((ch as u16 & 3) * 2), reg((ch as u16 & 3) * 2 + 1));
        let w = addr >> 1;
        m.out8(reg(10), 0x04 | (ch & 3));
        m.out8(reg(12), 0);
        m.out8(reg(11), mode);
        m.out8(a, w as u8);
        m.out8(a, (w >> 8) as u8);
        m.out8(c, (len - 1) as u8);
        m.out8(c, ((len - 1) >> 8) as u8);
        m.out8(
            crate::dma8237::PAGE_PORTS[ch as usize],
            (addr >> 16) as u8 & 0xFE,
        );
        m.out8(reg(10), ch & 3);
    }
}

#[test]
fn reset_version_and_absent_card() {
    let mut m = machine(Some(Sb16Config::default()));
    m.out8(BASE + 6, 1);
    m.out8(BASE + 6, 0);
    assert_eq!(m.in8(BASE + 0xE) & 0x80, 0, "nothing before the delay");
    assert_eq!(m.in8(BASE + 0xC) & 0x80, 0x80, "busy in reset");
    at(&mut m, RESET_CYCLES - 1);
    assert_eq!(m.in8(BASE + 0xE) & 0x80, 0);
    at(&mut m, RESET_CYCLES);
    assert_eq!(m.in8(BASE + 0xE) & 0x80, 0x80);
    assert_eq!(m.in8(BASE + 0xA), 0xAA);
    assert_eq!(m.in8(BASE + 0xC) & 0x80, 0, "ready for commands");
    dsp(&mut m, &[0xE1]);
    assert_eq!([m.in8(BASE + 0xA), m.in8(BASE + 0xA)], dsp::VERSION);
    assert_eq!(m.in8(0x246), 0xFF, "another base floats");
    assert_eq!(m.in8(BASE + 7), 0xFF, "an undecoded offset floats");
    let mut none = machine(None);
    none.out8(BASE + 6, 1);
    none.out8(BASE + 6, 0);
    at(&mut none, 1000);
    assert_eq!(none.in8(BASE + 0xE), 0xFF);
    assert_eq!(none.in8(BASE + 0xA), 0xFF);
    assert_eq!(none.in8(0x388), 0xFF, "no OPL without a card");
    assert!(none.bus.unhandled_ports.contains(&(BASE + 0xA)));
}

#[test]
fn another_base_and_the_opl_behind_it() {
    let cfg = Sb16Config {
        base: 0x240,
        ..Sb16Config::default()
    };
    let mut m = machine(Some(cfg));
    assert_eq!(m.in8(0x22E), 0xFF);
    m.out8(0x246, 1);
    m.out8(0x246, 0);
    at(&mut m, 1000);
    assert_eq!(m.in8(0x24A), 0xAA);
    // The AdLib timer test through base+8/9, status at 388h and base+0.
    for (r, v) in [(4, 0x60), (4, 0x80), (2, 0xFF), (4, 0x21)] {
        m.out8(0x248, r);
        m.out8(0x249, v);
    }
    at(&mut m, 2000);
    assert_eq!(m.in8(0x388) & 0xE0, 0xC0);
    assert_eq!(m.in8(0x240) & 0xE0, 0xC0);
    assert_eq!(m.bus.dev.opl.regs[2], 0xFF);
}

/// Plays `samples` as one 8-bit single-cycle block at 44100 Hz from
/// cycle 1000; returns the machine.
fn single_cycle(samples: &[u8]) -> Machine {
    let mut m = machine(Some(Sb16Config::default()));
    m.capture_sb16(true);
    reset(&mut m);
    at(&mut m, 900);
    m.bus.mem.write_image(0x12340, samples);
    program_dma(&mut m, 1, 0x12340, samples.len() as u16, false);
    dsp(&mut m, &[0xD1, 0x41, 0xAC, 0x44]);
    at(&mut m, 1000);
    let n = samples.len() as u16 - 1;
    dsp(&mut m, &[0x14, n as u8, (n >> 8) as u8]);
    m
}

#[test]
fn single_cycle_block_plays_each_sample_at_its_time_then_interrupts() {
    let samples: Vec<u8> = (0..=255).step_by(5).map(|v| v as u8).collect();
    let n = samples.len() as u64;
    let mut m = single_cycle(&samples);
    assert!(m.bus.dev.sb16.playback().is_some());
    at(&mut m, 1000 + n * 100 - 1);
    assert!(!irq5(&m), "no interrupt before the last sample");
    assert_eq!(m.bus.dev.sb16.playback().map(|p| p.left()), Some(1));
    at(&mut m, 1000 + n * 100);
    assert!(irq5(&m), "the interrupt with the last sample");
    assert!(m.bus.dev.sb16.playback().is_none(), "single-cycle: stopped");
    let log = m.take_sb16_output();
    let want: Vec<(u64, [i16; 2])> = samples
        .iter()
        .enumerate()
        .map(|(k, &s)| (1000 + (k as u64 + 1) * 100, [playback::unsigned8(s); 2]))
        .collect();
    assert_eq!(log, want);
    m.out8(BASE + 4, 0x82);
    assert_eq!(m.in8(BASE + 5), 0x01);
    m.in8(BASE + 0xF);
    assert!(irq5(&m), "base+Fh acknowledges only the 16-bit interrupt");
    m.in8(BASE + 0xE);
    assert!(!irq5(&m));
    assert_eq!(m.in8(BASE + 5), 0x00);
    assert_eq!(m.bus.dev.dma.remaining(1), 0x10000, "the 8237 reached TC");
}

#[test]
fn auto_init_16_bit_interrupts_once_a_block_until_exit() {
    let mut m = machine(Some(Sb16Config::default()));
    reset(&mut m);
    let words: Vec<u8> = (0..64u16).flat_map(|w| (w * 1000).to_le_bytes()).collect();
    m.bus.mem.write_image(0x20000, &words);
    program_dma(&mut m, 5, 0x20000, 64, true);
    dsp(&mut m, &[0x41, 0x56, 0x22]); // 22050 Hz: 200 cycles a frame
    let start = m.cycles();
    // Signed 16-bit stereo, auto-init, 16 samples (8 frames) a block.
    dsp(&mut m, &[0xB6, 0x30, 15, 0]);
    let mut irqs = Vec::new();
    for c in (start..start + 200 * 80).step_by(50) {
        at(&mut m, c);
        if m.bus.dev.pics.master.lines() & 0x20 != 0 {
            irqs.push(c);
            m.out8(BASE + 4, 0x82);
            assert_eq!(m.in8(BASE + 5), 0x02);
            m.in8(BASE + 0xF);
        }
    }
    let want: Vec<u64> = (1..10).map(|b| start + b * 8 * 200).collect();
    assert_eq!(irqs, want);
    // 79 frames played; frame 78 was words 28 and 29 of the 64-word buffer.
    assert_eq!(m.bus.dev.sb16.level(), [28000, 29000]);
    dsp(&mut m, &[0xD9]);
    at(&mut m, start + 200 * 88);
    assert!(irq5(&m), "the block in progress ends with its interrupt");
    m.in8(BASE + 0xF);
    assert!(m.bus.dev.sb16.playback().is_none());
    at(&mut m, start + 200 * 100);
    assert!(!irq5(&m));
}

#[test]
fn pause_continue_and_a_stalled_channel() {
    let mut m = machine(Some(Sb16Config::default()));
    reset(&mut m);
    m.bus.mem.write_image(0x3000, &[0x90; 20]);
    program_dma(&mut m, 1, 0x3000, 20, false);
    dsp(&mut m, &[0x40, 156]); // 10 kHz: 441 cycles a byte
    let s = m.cycles();
    dsp(&mut m, &[0xC0, 0x00, 9, 0]);
    at(&mut m, s + 441 * 4);
    assert_eq!(m.bus.dev.sb16.playback().map(|p| p.left()), Some(6));
    assert_eq!(m.in8(0x08) & 0x20, 0x20, "DREQ 1 while playing");
    dsp(&mut m, &[0xD0]);
    assert_eq!(m.in8(0x08) & 0x20, 0, "no DREQ while paused");
    at(&mut m, s + 441 * 50);
    assert_eq!(
        m.bus.dev.sb16.playback().map(|p| p.left()),
        Some(6),
        "paused"
    );
    let c = m.cycles();
    dsp(&mut m, &[0xD4]);
    m.out8(0x0A, 0x05); // mask channel 1: the DSP starves
    at(&mut m, c + 441 * 3);
    assert_eq!(
        m.bus.dev.sb16.playback().map(|p| p.left()),
        Some(6),
        "stalled"
    );
    m.out8(0x0A, 0x01);
    at(&mut m, c + 441 * 9 - 1);
    assert!(!irq5(&m));
    at(&mut m, c + 441 * 9);
    assert!(irq5(&m));
    assert_eq!(m.bus.dev.sb16.level(), [0x10 << 8; 2], "80h-biased 90h");
}

#[test]
fn time_constant_stereo_takes_two_periods_a_frame() {
    let mut m = machine(Some(Sb16Config::default()));
    reset(&mut m);
    m.out8(BASE + 4, 0x0E);
    m.out8(BASE + 5, 0x02);
    m.bus.mem.write_image(0x3000, &[0x00, 0xFF, 0x40, 0xC0]);
    program_dma(&mut m, 1, 0x3000, 4, false);
    dsp(&mut m, &[0x40, 156, 0x14, 3, 0]);
    let s = m.cycles();
    at(&mut m, s + 882);
    assert_eq!(m.bus.dev.sb16.level(), [-32768, 0x7F00]);
    at(&mut m, s + 882 * 2 - 1);
    assert!(!irq5(&m));
    at(&mut m, s + 882 * 2);
    assert_eq!(m.bus.dev.sb16.level(), [-0x4000, 0x4000]);
    assert!(irq5(&m));
}

#[test]
fn mixer_volumes_reach_the_output_and_80h_moves_the_irq() {
    let mut m = machine(Some(Sb16Config::default()));
    m.capture_sb16(true);
    dsp(&mut m, &[0x10, 0xC0]);
    assert_eq!(m.bus.dev.sb16.level(), [0x4000; 2]);
    m.out8(BASE + 4, 0x04);
    m.out8(BASE + 5, 0xF0); // voice: left 0 dB, right -30 dB (level 1)
    let [l, r] = m.bus.dev.sb16.level();
    assert_eq!(l, 0x4000);
    assert_eq!(r, mixer::apply(0x4000, 33));
    m.out8(BASE + 4, 0x00);
    m.out8(BASE + 5, 0x00);
    assert_eq!(
        m.bus.dev.sb16.level(),
        [mixer::apply(0x4000, (6538 * 6538) >> 15); 2]
    );
    assert_eq!(m.take_sb16_output().len(), 3);
    m.out8(BASE + 4, 0x80);
    m.out8(BASE + 5, 0x04); // IRQ 7
    dsp(&mut m, &[0xF2]);
    assert_eq!(m.bus.dev.pics.master.lines() & 0xA0, 0x80);
    m.out8(BASE + 4, 0x80);
    assert_eq!(m.in8(BASE + 5), 0x04);
    m.out8(BASE + 5, 0x01); // IRQ 2: the AT's IRQ 9, still pending
    assert_eq!(m.bus.dev.pics.master.lines() & 0x80, 0);
    assert_eq!(m.bus.dev.pics.slave.lines() & 0x02, 0x02);
    m.in8(BASE + 0xE);
    assert_eq!(m.bus.dev.pics.slave.lines() & 0x02, 0);
    assert_eq!(m.bus.dev.sb16.config().irq, 2);
}

#[test]
fn e2_writes_its_byte_through_the_8_bit_channel() {
    let mut m = machine(Some(Sb16Config::default()));
    reset(&mut m);
    dsp(&mut m, &[0xE2, 0x00]);
    // The channel is not ready yet: the byte waits.
    m.out8(0x0A, 0x05);
    m.out8(0x0C, 0);
    m.out8(0x0B, 0x45); // single, write (device to memory), channel 1
    m.out8(0x02, 0x00);
    m.out8(0x02, 0x50);
    m.out8(0x03, 0);
    m.out8(0x03, 0);
    m.out8(0x83, 0);
    m.out8(0x0A, 0x01);
    let c = m.cycles();
    at(&mut m, c + 100 * CPU / 1_000_000);
    assert_eq!(m.bus.mem.read_backing(0x5000), 0x40);
}

#[test]
fn hash_and_save_state() {
    let fresh = machine(Some(Sb16Config::default()));
    let none = machine(None);
    assert_eq!(
        fresh.state_hash(),
        none.state_hash(),
        "an unused card hashes as none"
    );
    let mut m = single_cycle(&[0x80, 0x90, 0xA0]);
    assert_ne!(m.state_hash(), fresh.state_hash());
    let bytes = bincode::serialize(&m).expect("serialize");
    let mut back: Machine = bincode::deserialize(&bytes).expect("deserialize");
    assert_eq!(back.state_hash(), m.state_hash());
    at(&mut m, 2000);
    at(&mut back, 2000);
    assert!(irq5(&back));
    assert_eq!(back.state_hash(), m.state_hash());
}

#[test]
fn mixer_82h_shows_the_mpu_interrupt() {
    let mut c = MachineConfig::with_cpu(emu::CpuModel::I386, CPU);
    c.sb16 = Some(Sb16Config::default());
    c.mpu401 = Some(crate::mpu401::Mpu401Config::default());
    let mut m = Machine::new(c);
    m.out8(BASE + 4, 0x82);
    assert_eq!(m.in8(BASE + 5), 0x00);
    m.out8(0x331, 0xFF); // MPU reset: its ACK waits
    assert_eq!(m.in8(BASE + 5), 0x04);
    m.in8(0x330);
    assert_eq!(m.in8(BASE + 5), 0x00);
}

#[test]
fn fm_gain_changes_are_logged_for_the_opl_renderer() {
    let mut m = machine(Some(Sb16Config::default()));
    assert_eq!(m.bus.dev.sb16.mixer().fm_gain(), [32768; 2]);
    m.bus.dev.sb16.set_capture(true);
    at(&mut m, 500);
    m.out8(BASE + 4, 0x26);
    m.out8(BASE + 5, 0x0F); // FM: left off (level 1), right 0 dB
    m.out8(BASE + 4, 0x32);
    m.out8(BASE + 5, 0x00); // voice: no FM change, nothing logged
    assert_eq!(m.bus.dev.sb16.take_fm_gain(), vec![(500, [33, 32768])]);
}
