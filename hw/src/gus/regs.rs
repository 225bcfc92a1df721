//! The GF1's ports and its indirect registers (ToolKit, "Register
//! definitions"): the voice registers 00h-0Dh (read at 80h-8Dh) of the
//! voice 3X2 selects, the active voices (0Eh/8Eh), the interrupt source
//! (8Fh) and the global registers 41h-4Ch.

use super::voice::ctrl;
use super::{dma, Gus, Slot, TICKS};

/// Voice control and volume control's writable bits (bit 7, the pending
/// interrupt, is the chip's).
const CTRL_BITS: u8 = 0x7F;

/// Replaces the high (bits 28-16) or low (15-0) half of a 29-bit address
/// with a register's value.
fn set_half(addr: &mut u32, high: bool, w: u16) {
    *addr = if high {
        (*addr & 0xFFFF) | (u32::from(w) & 0x1FFF) << 16
    } else {
        (*addr & !0xFFFF) | u32::from(w)
    };
}

/// A half of a 29-bit address as its register reads.
fn half(addr: u32, high: bool) -> u16 {
    if high {
        (addr >> 16) as u16 & 0x1FFF
    } else {
        addr as u16
    }
}

/// A read of the port at `offset` (0-Fh: 2X0-2XF, 102h-107h: 3X2-3X7).
pub(super) fn read_port<S: Slot>(bus: &mut S, offset: u16, _now: u64) -> u8 {
    let g = bus.card();
    let s = &mut g.state;
    match offset {
        0x6 => {
            let t = (s.timers[0].irq as u8) << 2 | (s.timers[1].irq as u8) << 3;
            let wave = ((s.wave_irq != 0) as u8) << 5;
            let ramp = ((s.ramp_irq != 0) as u8) << 6;
            t | wave | ramp | (s.dma.tc_pending as u8) << 7
        }
        0x8 => {
            let (a, b) = (s.timers[0].expired, s.timers[1].expired);
            ((a || b) as u8) << 7 | (a as u8) << 6 | (b as u8) << 5
        }
        0x102 => s.voice_select,
        0x103 => s.register_select,
        0x104 => read_register(g, false) as u8,
        0x105 => (read_register(g, true) >> 8) as u8,
        0x107 => {
            let a = s.dram_address;
            g.peek(a)
        }
        _ => {
            let port = s.config.base.wrapping_add(offset);
            bus.unhandled(port);
            0xFF
        }
    }
}

/// A write of the port at `offset`.
pub(super) fn write_port<S: Slot>(bus: &mut S, offset: u16, v: u8, now: u64) {
    let s = &mut bus.card().state;
    match offset {
        0x0 => s.mix = v,
        0x8 => s.adlib_index = v,
        0x9 if s.adlib_index == 4 => timer_data(bus.card(), v, now),
        0x9 => {}
        0xB => {
            if s.mix & 0x40 != 0 {
                s.irq_latch = v;
            } else {
                s.dma_latch = v;
            }
        }
        0x102 => s.voice_select = v & 31,
        0x103 => s.register_select = v,
        0x104 => s.data_low = v,
        0x105 => {
            let w = u16::from(v) << 8 | u16::from(s.data_low);
            write_register(bus, w, now);
        }
        0x107 => {
            let a = s.dram_address as usize & (super::DRAM_BYTES - 1);
            if let Some(b) = s.dram.get_mut(a) {
                *b = v;
            }
        }
        _ => {
            let port = s.config.base.wrapping_add(offset);
            bus.unhandled(port);
        }
    }
}

/// 2X9 with 2X8 at 4: bit 7 resets the status flags, bits 6 and 5 mask
/// timer 1 and 2, bits 0 and 1 start them.
fn timer_data(g: &mut Gus, v: u8, now: u64) {
    let ticks = TICKS.map(|us| g.micros(us));
    let t = &mut g.state.timers;
    if v & 0x80 != 0 {
        t[0].expired = false;
        t[1].expired = false;
        return;
    }
    t[0].masked = v & 0x40 != 0;
    t[1].masked = v & 0x20 != 0;
    t[0].set_running(v & 1 != 0, now, ticks[0]);
    t[1].set_running(v & 2 != 0, now, ticks[1]);
}

/// The selected register as 3X4 (low) and 3X5 (high) read it; an 8-bit
/// register is the high byte. Reading 8Fh's high byte takes the oldest
/// voice interrupt; 41h's clears the DMA interrupt.
fn read_register(g: &mut Gus, high: bool) -> u16 {
    let s = &mut g.state;
    let n = usize::from(s.voice_select);
    let v = &s.voices[n];
    let byte = |b: u8| u16::from(b) << 8;
    match s.register_select {
        0x80 | 0x00 => byte(v.ctrl | ((s.wave_irq >> n & 1) as u8) << 7),
        0x81 | 0x01 => v.fc,
        0x82 | 0x02 => half(v.start, true),
        0x83 | 0x03 => half(v.start, false),
        0x84 | 0x04 => half(v.end, true),
        0x85 | 0x05 => half(v.end, false),
        0x86 | 0x06 => byte(v.rate),
        0x87 | 0x07 => byte(v.ramp_start),
        0x88 | 0x08 => byte(v.ramp_end),
        0x89 | 0x09 => v.volume << 4,
        0x8A | 0x0A => half(v.pos, true),
        0x8B | 0x0B => half(v.pos, false),
        0x8C | 0x0C => byte(v.pan),
        0x8D | 0x0D => byte(v.vctrl | ((s.ramp_irq >> n & 1) as u8) << 7),
        0x8E | 0x0E => byte(0xC0 | (s.active - 1)),
        0x8F | 0x0F => byte(if high { irq_source(g) } else { 0 }),
        0x41 => {
            let pending = s.dma.tc_pending;
            if high {
                s.dma.tc_pending = false;
            }
            byte(s.dma.control & !0x40 | (pending as u8) << 6)
        }
        0x42 => s.dma.address,
        0x43 => s.dram_address as u16,
        0x44 => byte((s.dram_address >> 16) as u8 & 0x0F),
        0x45 => byte(s.timer_control),
        0x46 => byte(s.timers[0].count),
        0x47 => byte(s.timers[1].count),
        0x48 => byte(s.sample_rate),
        0x49 => byte(s.sampling & !0x40),
        0x4C => byte(s.reset),
        _ => 0xFFFF,
    }
}

/// 8Fh: the lowest voice with a pending interrupt (bits 4-0), bit 7 clear
/// for its wave's, bit 6 clear for its ramp's; both are taken. E0h when
/// none is pending.
fn irq_source(g: &mut Gus) -> u8 {
    let s = &mut g.state;
    let any = s.wave_irq | s.ramp_irq;
    if any == 0 {
        return 0xE0;
    }
    let n = any.trailing_zeros();
    let (wave, ramp) = (s.wave_irq >> n & 1 != 0, s.ramp_irq >> n & 1 != 0);
    s.wave_irq &= !(1 << n);
    s.ramp_irq &= !(1 << n);
    0x20 | n as u8 | (!wave as u8) << 7 | (!ramp as u8) << 6
}

/// A write of the selected register with `w` (an 8-bit register takes
/// the high byte).
fn write_register<S: Slot>(bus: &mut S, w: u16, now: u64) {
    let g = bus.card();
    let b = (w >> 8) as u8;
    let s = &mut g.state;
    let n = usize::from(s.voice_select);
    let v = &mut s.voices[n];
    match s.register_select {
        0x00 => {
            v.ctrl = b & CTRL_BITS;
            if b & ctrl::IRQ_ENABLE == 0 {
                s.wave_irq &= !(1 << n);
            }
        }
        0x01 => v.fc = w,
        0x02 | 0x03 => set_half(&mut v.start, s.register_select == 2, w),
        0x04 | 0x05 => set_half(&mut v.end, s.register_select == 4, w),
        0x06 => v.rate = b,
        0x07 => v.ramp_start = b,
        0x08 => v.ramp_end = b,
        0x09 => v.volume = w >> 4,
        0x0A | 0x0B => set_half(&mut v.pos, s.register_select == 0x0A, w),
        0x0C => v.pan = b & 15,
        0x0D => {
            v.vctrl = b & CTRL_BITS;
            if b & ctrl::IRQ_ENABLE == 0 {
                s.ramp_irq &= !(1 << n);
            }
        }
        0x0E => {
            g.rebase(now);
            g.state.active = ((b & 31) + 1).max(14);
        }
        0x41 => dma::control(bus, b, now),
        0x42 => s.dma.address = w,
        0x43 => s.dram_address = (s.dram_address & 0xF_0000) | u32::from(w),
        0x44 => s.dram_address = (s.dram_address & 0xFFFF) | u32::from(b & 0x0F) << 16,
        0x45 => {
            s.timer_control = b;
            for (k, t) in s.timers.iter_mut().enumerate() {
                t.irq_enable = b & (4 << k) != 0;
                t.irq &= t.irq_enable;
            }
        }
        0x46 => s.timers[0].count = b,
        0x47 => s.timers[1].count = b,
        0x48 => s.sample_rate = b,
        0x49 => s.sampling = b,
        0x4C => reset(g, b, now),
        _ => {}
    }
}

/// 4Ch: bit 0 clear holds the GF1 in reset (voices stopped, interrupts,
/// timers and DMA cleared, 14 voices); bit 1 enables the DAC, bit 2 the
/// GF1's interrupt.
fn reset(g: &mut Gus, b: u8, now: u64) {
    if b & 1 == 0 {
        g.rebase(now);
        let s = &mut g.state;
        for v in &mut s.voices {
            *v = Default::default();
        }
        s.wave_irq = 0;
        s.ramp_irq = 0;
        s.timers = Default::default();
        s.timer_control = 0;
        s.dma = Default::default();
        s.sampling = 0;
        s.active = 14;
    }
    g.state.reset = b & 7;
}
