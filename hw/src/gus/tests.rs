//! The card on a machine: detection, registers, voices, ramps, interrupts,
//! timers and DMA.

use super::voice::{ctrl, gain};
use super::*;
use crate::{Machine, MachineConfig};

/// 10 MHz: 100 cycles per 10 us.
const CPU: u64 = 10_000_000;
const BASE: u16 = 0x240;
const SEL: u16 = BASE + 0x103;

fn machine(config: Option<GusConfig>) -> Machine {
    let mut c = MachineConfig::with_cpu(emu::CpuModel::I386, CPU);
    c.gus = config;
    let mut m = Machine::new(c);
    m.post();
    m
}

fn card() -> Machine {
    let mut m = machine(Some(GusConfig::default()));
    m.out8(0x21, 0);
    m.out8(0xA1, 0);
    m
}

/// Runs the devices to cycle `c`.
fn at(m: &mut Machine, c: u64) {
    m.cpu.cycles = c;
    m.bus.run_events(c);
}

fn w8(m: &mut Machine, reg: u8, v: u8) {
    m.out8(SEL, reg);
    m.out8(SEL + 2, v);
}

fn w16(m: &mut Machine, reg: u8, v: u16) {
    m.out8(SEL, reg);
    m.out8(SEL + 1, v as u8);
    m.out8(SEL + 2, (v >> 8) as u8);
}

fn r8(m: &mut Machine, reg: u8) -> u8 {
    m.out8(SEL, reg);
    m.in8(SEL + 2)
}

fn r16(m: &mut Machine, reg: u8) -> u16 {
    m.out8(SEL, reg);
    u16::from(m.in8(SEL + 1)) | u16::from(m.in8(SEL + 2)) << 8
}

fn poke(m: &mut Machine, addr: u32, v: u8) {
    w16(m, 0x43, addr as u16);
    w8(m, 0x44, (addr >> 16) as u8);
    m.out8(BASE + 0x107, v);
}

fn peek(m: &mut Machine, addr: u32) -> u8 {
    w16(m, 0x43, addr as u16);
    w8(m, 0x44, (addr >> 16) as u8);
    m.in8(BASE + 0x107)
}

/// A 29-bit address register pair (high at `reg`, low at `reg + 1`).
fn addr(m: &mut Machine, reg: u8, a: u32) {
    w16(m, reg, (a >> 16) as u16);
    w16(m, reg + 1, a as u16);
}

fn irq11(m: &Machine) -> bool {
    m.bus.dev.pics.slave.lines() & 0x08 != 0
}

/// The ToolKit's reset: 4Ch 0, then out of reset with DAC and
/// interrupts.
fn reset(m: &mut Machine) {
    w8(m, 0x4C, 0);
    w8(m, 0x4C, 7);
}

#[test]
fn detection_sizes_one_mebibyte_and_an_absent_card_floats() {
    let mut m = card();
    reset(&mut m);
    let banks = [0u32, 0x4_0000, 0x8_0000, 0xC_0000, 0xF_FFFF];
    for (i, &a) in banks.iter().enumerate() {
        poke(&mut m, a, 0xA0 + i as u8);
    }
    for (i, &a) in banks.iter().enumerate() {
        assert_eq!(peek(&mut m, a), 0xA0 + i as u8, "{a:05X}");
    }
    assert_eq!(m.bus.dev.gus.peek(0xC_0000), 0xA3);
    m.out8(BASE + 0x102, 5);
    assert_eq!(m.in8(BASE + 0x102), 5);
    let mut none = machine(None);
    assert_eq!(none.in8(BASE + 0x107), 0xFF);
    assert_eq!(none.in8(BASE + 0x6), 0xFF);
    // Another base of the card's list floats too.
    assert_eq!(m.in8(0x346), 0xFF);
}

#[test]
fn voice_registers_read_back_at_their_mirrors() {
    let mut m = card();
    reset(&mut m);
    m.out8(BASE + 0x102, 7);
    w16(&mut m, 0x01, 0x0800);
    addr(&mut m, 0x02, 0x0012_3400);
    addr(&mut m, 0x04, 0x0156_7800);
    w8(&mut m, 0x06, 0x3F);
    w8(&mut m, 0x07, 0x10);
    w8(&mut m, 0x08, 0xF0);
    w16(&mut m, 0x09, 0xABC0);
    w8(&mut m, 0x0C, 3);
    assert_eq!(r16(&mut m, 0x81), 0x0800);
    assert_eq!(r16(&mut m, 0x82), 0x0012);
    assert_eq!(r16(&mut m, 0x83), 0x3400);
    assert_eq!(r16(&mut m, 0x85), 0x7800);
    assert_eq!(r8(&mut m, 0x86), 0x3F);
    assert_eq!(r8(&mut m, 0x88), 0xF0);
    assert_eq!(r16(&mut m, 0x89), 0xABC0);
    assert_eq!(r8(&mut m, 0x8C), 3);
    assert_eq!(r8(&mut m, 0x80), ctrl::STOPPED | ctrl::STOP, "reset stops");
    // 0Eh: 32 voices (31 | C0h) reads back, and sets 19293 Hz.
    w8(&mut m, 0x0E, 0xC0 | 31);
    assert_eq!(r8(&mut m, 0x8E), 0xDF);
    assert_eq!(m.bus.dev.gus.frame_rate(), 19_293);
    w8(&mut m, 0x0E, 0xC0 | 13);
    assert_eq!(m.bus.dev.gus.frame_rate(), 44_100);
    assert_eq!(m.bus.dev.gus.voice(7).pan, 3);
}

/// Voice 0: an 8-bit looped wave of `len` bytes at 0 (a square wave:
/// +64, -64), FC 1.0, full volume.
fn square_voice(m: &mut Machine, len: u32, looped: bool, irq: bool) {
    for i in 0..len {
        poke(m, i, if i < len / 2 { 0x40 } else { 0xC0 });
    }
    m.out8(BASE + 0x102, 0);
    w16(m, 0x01, 1 << 10);
    addr(m, 0x02, 0);
    addr(m, 0x04, len << 9);
    addr(m, 0x0A, 0);
    w16(m, 0x09, 0xFFF0);
    w8(m, 0x0C, 7);
    let c = ((looped as u8) * ctrl::LOOP) | ((irq as u8) * ctrl::IRQ_ENABLE);
    w8(m, 0x00, c);
}

#[test]
fn a_looped_voice_plays_its_wave_at_the_frame_rate() {
    let mut m = card();
    reset(&mut m);
    m.capture_gus(true);
    square_voice(&mut m, 100, true, false);
    let t0 = m.cycles();
    at(&mut m, t0 + CPU / 10);
    let early = m.take_gus_output();
    let behind = t0 + CPU / 10 - early.last().map_or(0, |f| f.0);
    assert!(
        behind <= CPU / 2000,
        "flushed every 0.5 ms: {behind} cycles behind"
    );
    m.in8(BASE + 6);
    let out = [early, m.take_gus_output()].concat();
    assert!(
        out.len().abs_diff(4410) <= 1,
        "0.1 s at 44100 Hz: {}",
        out.len()
    );
    let first = out.iter().position(|f| f.1[0] != 0).expect("heard");
    let ups = out[first..]
        .windows(2)
        .filter(|w| w[0].1[0] < 0 && w[1].1[0] > 0)
        .count();
    // 441 Hz (100 frames a period): 44 rising edges in 0.1 s.
    assert!((43..=45).contains(&ups), "{ups}");
    let peak = out.iter().map(|f| f.1[0]).max().unwrap_or(0);
    assert!(peak > 15_000, "64 << 8 at unity: {peak}");
    let pos = m.bus.dev.gus.voice(0).pos >> 9;
    assert!(pos < 100, "looped inside its wave: {pos}");
    assert!(m.bus.dev.gus.voice(0).running());
}

#[test]
fn a_one_shot_voice_stops_and_raises_its_interrupt_at_its_end() {
    let mut m = card();
    reset(&mut m);
    square_voice(&mut m, 441, false, true);
    let t0 = m.cycles();
    // 441 frames at 44100 Hz: 10 ms = 100000 cycles.
    at(&mut m, t0 + 99_000);
    assert!(!irq11(&m), "not before its end");
    at(&mut m, t0 + 100_100);
    assert!(irq11(&m), "at its end");
    assert_eq!(m.in8(BASE + 6) & 0x20, 0x20, "2X6: a wave interrupt");
    assert_eq!(r8(&mut m, 0x80) & 0x81, 0x81, "stopped, pending");
    assert_eq!(r8(&mut m, 0x8F), 0x60, "voice 0's wave, no ramp");
    assert!(!irq11(&m), "taken");
    assert_eq!(r8(&mut m, 0x8F), 0xE0, "none left");
}

#[test]
fn a_bidirectional_loop_turns_at_both_ends() {
    let mut m = card();
    reset(&mut m);
    square_voice(&mut m, 100, true, false);
    w8(&mut m, 0x00, ctrl::LOOP | ctrl::BIDIRECTIONAL);
    let t0 = m.cycles();
    // 150 frames: up to 100, back to 50.
    at(&mut m, t0 + 150 * CPU / 44_100 + 10);
    m.in8(BASE + 6);
    let v = m.bus.dev.gus.voice(0);
    assert_ne!(v.ctrl & ctrl::DECREASING, 0, "going down");
    let pos = v.pos >> 9;
    assert!((49..=51).contains(&pos), "{pos}");
}

#[test]
fn a_volume_ramp_climbs_to_its_end_and_interrupts() {
    let mut m = card();
    reset(&mut m);
    m.out8(BASE + 0x102, 2);
    w16(&mut m, 0x09, 0x1000);
    w8(&mut m, 0x07, 0x10);
    w8(&mut m, 0x08, 0xF0);
    // 32 each 8 frames: (F00h - 100h) / 32 = 112 updates, 896 frames.
    w8(&mut m, 0x06, 0x40 | 32);
    w8(&mut m, 0x0D, ctrl::IRQ_ENABLE);
    let t0 = m.cycles();
    at(&mut m, t0 + 890 * CPU / 44_100);
    assert!(!irq11(&m));
    let v = r16(&mut m, 0x89) >> 4;
    assert!(v > 0xE00 && v < 0xF00, "{v:03X}");
    at(&mut m, t0 + 900 * CPU / 44_100);
    assert!(irq11(&m));
    assert_eq!(r16(&mut m, 0x89), 0xF000);
    assert_eq!(r8(&mut m, 0x8D) & 0x81, 0x81, "stopped, pending");
    assert_eq!(r8(&mut m, 0x8F), 0x80 | 0x20 | 2, "voice 2's ramp");
    assert!(gain(0xFFF) > 65_000 && gain(0) < 2);
    assert_eq!(gain(0x800) * 2, gain(0x900), "6 dB an exponent");
}

#[test]
fn timer_one_interrupts_every_80_us_times_its_count() {
    let mut m = card();
    reset(&mut m);
    w8(&mut m, 0x46, 256u16.wrapping_sub(10) as u8);
    w8(&mut m, 0x45, 0x04);
    m.out8(BASE + 8, 4);
    m.out8(BASE + 9, 0x01);
    let t0 = m.cycles();
    at(&mut m, t0 + 7_990);
    assert!(!irq11(&m));
    at(&mut m, t0 + 8_000);
    assert!(irq11(&m), "800 us");
    assert_eq!(m.in8(BASE + 6) & 0x0C, 0x04);
    assert_eq!(m.in8(BASE + 8) & 0xE0, 0xC0);
    // The handler's acknowledge: 45h bit off, then on.
    w8(&mut m, 0x45, 0);
    assert!(!irq11(&m));
    w8(&mut m, 0x45, 0x04);
    at(&mut m, t0 + 16_000);
    assert!(irq11(&m), "reloaded");
    m.out8(BASE + 9, 0x80);
    assert_eq!(m.in8(BASE + 8) & 0xE0, 0);
}

/// 8237 channel `ch` reading (mode 48h) `len` bytes at `addr`.
fn dma_read(m: &mut Machine, ch: u8, addr: u32, len: u16) {
    if ch < 4 {
        m.out8(0x0A, 0x04 | ch);
        m.out8(0x0C, 0);
        m.out8(0x0B, 0x48 | ch);
        m.out8(u16::from(ch) * 2, addr as u8);
        m.out8(u16::from(ch) * 2, (addr >> 8) as u8);
        m.out8(u16::from(ch) * 2 + 1, (len - 1) as u8);
        m.out8(u16::from(ch) * 2 + 1, ((len - 1) >> 8) as u8);
        m.out8(
            crate::dma8237::PAGE_PORTS[usize::from(ch)],
            (addr >> 16) as u8,
        );
        m.out8(0x0A, ch);
    } else {
        let reg = |r: u16| 0xC0 + 2 * r;
        let c = u16::from(ch & 3);
        let w = addr >> 1;
        let words = len / 2;
        m.out8(reg(10), 0x04 | (ch & 3));
        m.out8(reg(12), 0);
        m.out8(reg(11), 0x48 | (ch & 3));
        m.out8(reg(c * 2), w as u8);
        m.out8(reg(c * 2), (w >> 8) as u8);
        m.out8(reg(c * 2 + 1), (words - 1) as u8);
        m.out8(reg(c * 2 + 1), ((words - 1) >> 8) as u8);
        m.out8(
            crate::dma8237::PAGE_PORTS[usize::from(ch)],
            (addr >> 16) as u8 & 0xFE,
        );
        m.out8(reg(10), ch & 3);
    }
}

#[test]
fn dma_uploads_to_dram_inverting_and_interrupts_at_its_count() {
    let mut m = card();
    reset(&mut m);
    for i in 0..1000u32 {
        m.poke8(0x2_0000 + i, i as u8);
    }
    dma_read(&mut m, 3, 0x2_0000, 1000);
    w16(&mut m, 0x42, 0x1_0000u32 as u16 >> 4 | 0x1000);
    // Go, upload, 8-bit channel, full rate, TC interrupt, invert.
    w8(&mut m, 0x41, 0x01 | 0x20 | 0x80);
    let t0 = m.cycles();
    // 1000 bytes at 650 kB/s: about 1.54 ms.
    at(&mut m, t0 + 10_000);
    assert!(!irq11(&m), "still moving");
    at(&mut m, t0 + 17_000);
    assert!(irq11(&m), "done");
    let g = &m.bus.dev.gus;
    assert_eq!(g.peek(0x1_0000), 0x80);
    assert_eq!(g.peek(0x1_0000 + 999), (999u32 as u8) ^ 0x80);
    assert_eq!(g.peek(0x1_0000 + 1000), 0, "no further");
    assert_eq!(r8(&mut m, 0x41) & 0x41, 0x40, "stopped, pending");
    assert!(!irq11(&m), "the read took it");
    assert_eq!(r8(&mut m, 0x41) & 0x40, 0);
}

#[test]
fn dma_on_a_16_bit_channel_translates_its_address() {
    let config = GusConfig {
        dma: 5,
        record_dma: 5,
        ..GusConfig::default()
    };
    let mut m = machine(Some(config));
    reset(&mut m);
    for i in 0..64u32 {
        m.poke8(0x3_0000 + i, 0x11 + i as u8);
    }
    dma_read(&mut m, 5, 0x3_0000, 64);
    // DRAM 4_2000h (bank 1): the 16-bit address 4_1000h >> 4.
    w16(&mut m, 0x42, (0x4_1000u32 >> 4) as u16);
    w8(&mut m, 0x41, 0x01 | 0x04 | 0x40);
    let t0 = m.cycles();
    at(&mut m, t0 + 20_000);
    let g = &m.bus.dev.gus;
    assert_eq!(g.peek(0x4_2000), 0x11);
    assert_eq!(g.peek(0x4_2000 + 63), 0x11 + 63);
}

#[test]
fn the_card_hashes_as_nothing_until_used_and_saves_its_dram() {
    let a = machine(Some(GusConfig::default()));
    let b = machine(None);
    assert_eq!(a.state_hash(), b.state_hash());
    let mut m = card();
    let h = m.state_hash();
    poke(&mut m, 0x100, 0x55);
    assert_ne!(m.state_hash(), h);
    let bytes = bincode::serialize(&m).expect("serializes");
    let back: Machine = bincode::deserialize(&bytes).expect("reads back");
    assert_eq!(back.bus.dev.gus.peek(0x100), 0x55);
    assert_eq!(back.state_hash(), m.state_hash());
}

#[test]
fn settings_are_checked_and_written_as_ultrasnd() {
    let c = GusConfig::default();
    assert_eq!(c.check(), Ok(()));
    assert_eq!(c.ultrasnd(), "240,3,3,11,11");
    let bad = GusConfig { base: 0x270, ..c };
    assert_eq!(bad.check(), Err(Error::GusBase(0x270)));
    assert_eq!(GusConfig { dma: 2, ..c }.check(), Err(Error::GusDma(2)));
    assert_eq!(GusConfig { irq: 9, ..c }.check(), Err(Error::GusIrq(9)));
}
