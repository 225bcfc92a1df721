//! INT 15h system services of an AT BIOS (IBM PS/2 and PC BIOS Interface
//! Technical Reference, "System Services"; Ralf Brown's INT 15h): 4Fh
//! keyboard intercept, 80h-82h device open/close/terminate, 83h event wait,
//! 84h joystick, 85h SysRq, 86h wait, 87h block move, 88h extended memory
//! size, 89h (protected mode: not done), 90h/91h device busy/complete, C0h
//! configuration, 24h A20, E801h/E820h memory size and map.
//!
//! What the AT BIOS does not have is answered as it answers an unknown
//! function: CF set, AH = 86h. That includes C1h (tandem has no extended
//! BIOS data area), C2h (no PS/2 pointing device: the AT has none) and
//! 84h on a machine without a game port. On the 8086 machine (a PC XT) the AT's 286
//! functions (87h-89h, 24h, E8xxh) are absent too.

use crate::bios::int70;
use crate::diag::Diagnostics;
use crate::mem::{self, lin, rd16, rd8, wr32, Regs};
use crate::rom::{self, Flow};
use hw::Machine;

/// The answer to a function the BIOS does not have.
fn unsupported(m: &mut Machine) {
    m.set_ah(0x86);
    mem::set_cf(m, true);
}

fn ok(m: &mut Machine) {
    m.set_ah(0);
    mem::set_cf(m, false);
}

/// "SMAP", the E820h signature.
const SMAP: u32 = 0x534D_4150;

/// The E820h memory map: conventional memory, the BIOS ROM, extended
/// memory (base, length, type 1 usable / 2 reserved).
fn memory_map(m: &Machine) -> Vec<(u64, u64, u32)> {
    let cfg = m.config();
    let conv = cfg.conventional_kib.min(640) as u64 * 1024;
    let mut v = vec![(0, conv, 1), (0xF0000, 0x10000, 2)];
    if cfg.extended_kib > 0 {
        v.push((0x100000, cfg.extended_kib as u64 * 1024, 1));
    }
    v
}

/// Services INT 15h. `wait_until` is the emulated cycle an 86h wait ends
/// at while it waits; `xms` says an XMS driver owns extended memory.
pub fn service(
    wait_until: &mut Option<u64>,
    diag: &mut Diagnostics,
    xms: bool,
    m: &mut Machine,
) -> Flow {
    let ah = m.ah();
    let at = m.cpu.model.caps().pc_at_class;
    match ah {
        // Keyboard intercept: the key is processed (CF stays set).
        0x4F => mem::set_cf(m, true),
        // Device open/close, program termination, SysRq, device busy and
        // interrupt complete: hooks for an operating system; the BIOS's
        // own answer is "done".
        0x80..=0x82 | 0x85 | 0x90 | 0x91 => ok(m),
        0x83 => event_wait(m),
        0x84 => joystick(m),
        0x86 => return wait(wait_until, m),
        0x87 if at => block_move(m),
        // With an XMS driver loaded the extended memory belongs to it,
        // and HIMEM.SYS answers 0 here.
        0x88 if at => {
            let kb = if xms { 0 } else { extended_kib(m, 0xFFFF) };
            m.set_ax(kb);
            mem::set_cf(m, false);
        }
        0x89 if at => {
            // Switching to protected mode for the caller is not done.
            let al = m.al();
            diag.unimplemented(0x15, ah, al);
            unsupported(m);
        }
        0xC0 => {
            m.set_es(rom::SEG);
            m.set_bx(rom::CONFIG_TABLE);
            ok(m);
        }
        0x24 if at => a20(m),
        0xE8 if at && m.al() == 0x01 => {
            let kb = if xms { 0 } else { extended_kib(m, 15 * 1024) };
            m.set_ax(kb);
            m.set_cx(kb);
            m.set_bx(0);
            m.set_dx(0);
            mem::set_cf(m, false);
        }
        // E820h answers in 32-bit registers.
        0xE8 if m.al() == 0x20 && m.cpu.model.caps().has_32bit_operands => e820(m),
        _ => unsupported(m),
    }
    Flow::Continue
}

/// Extended memory in KiB, at most `max`.
fn extended_kib(m: &Machine, max: u32) -> u16 {
    m.config().extended_kib.min(max) as u16
}

/// 83h: AL = 00h starts an event wait of CX:DX microseconds that sets bit
/// 7 of the byte at ES:BX (CF when one is already running); 01h cancels
/// it.
fn event_wait(m: &mut Machine) {
    match m.al() {
        0x00 => {
            if int70::wait_active(m) {
                mem::set_cf(m, true);
            } else {
                let us = (m.cx() as u32) << 16 | m.dx() as u32;
                let (es, bx) = (m.es(), m.bx());
                int70::start_wait(m, es, bx, us);
                mem::set_cf(m, false);
            }
        }
        0x01 => {
            int70::cancel_wait(m);
            mem::set_cf(m, false);
        }
        _ => unsupported(m),
    }
}

/// 84h: the game port (IBM AT BIOS, `JOY_STICK`). DX = 0: the buttons,
/// bits 4-7 of 201h (0 while pressed), in AL; DX = 1: the positions of
/// stick A's X and Y and stick B's X and Y in AX, BX, CX and DX. CF set
/// (AH = 86h) without a game port or for another DX.
///
/// The AT BIOS times each axis with PIT channel 0: it latches the count,
/// fires the one-shots, reads 201h until the axis's bit drops, latches
/// again and keeps the difference `AND 1FF0h`, shifted right by 4. In
/// mode 3, the BIOS's own for channel 0, the counter steps by 2 per PIT
/// clock, so a position is about 4 at one end, 86 at the centre and 168 at
/// the other whatever the CPU's speed (a program's own counting loop
/// reads values that grow with it). Here the same values come from the
/// one-shots' lengths; the 4-5 ms the BIOS spends waiting are not spent.
fn joystick(m: &mut Machine) {
    if !m.bus.dev.gameport.fitted() {
        unsupported(m);
        return;
    }
    match m.dx() {
        0 => {
            let v = m.in8(hw::gameport::PORT) & 0xF0;
            m.set_al(v);
            mem::set_cf(m, false);
        }
        1 => {
            let step = match m.bus.dev.pit.channels[0].mode() {
                3 | 7 => 2,
                _ => 1,
            };
            let (cpu_hz, pit_hz) = (m.config().cpu_hz.max(1), m.config().pit_hz);
            let g = &m.bus.dev.gameport;
            let v: [u16; 4] = std::array::from_fn(|axis| {
                let ticks = g.pulse_cycles(axis) as u128 * pit_hz as u128 / cpu_hz as u128;
                ((ticks as u64 * step) & 0x1FF0) as u16 >> 4
            });
            m.set_ax(v[0]);
            m.set_bx(v[1]);
            m.set_cx(v[2]);
            m.set_dx(v[3]);
            mem::set_cf(m, false);
        }
        _ => unsupported(m),
    }
}

/// 86h: waits CX:DX microseconds. The wait ends at its time in emulated
/// cycles (`wait_until` while it runs). As the AT BIOS does, it also runs
/// the RTC's count (40:A0h is its own flag byte), whose 1024 Hz interrupt
/// wakes the idle CPU: the wait is not rounded up to a timer tick.
fn wait(wait_until: &mut Option<u64>, m: &mut Machine) -> Flow {
    let now = m.cycles();
    let target = match *wait_until {
        Some(t) => t,
        None => {
            if int70::wait_active(m) {
                // An INT 15h 83h wait is running.
                m.set_ah(0x83);
                mem::set_cf(m, true);
                return Flow::Continue;
            }
            let us = (m.cx() as u32) << 16 | m.dx() as u32;
            int70::start_wait(m, 0x40, int70::WAIT_FLAG as u16 - 0x400, us);
            now + us as u64 * m.config().cpu_hz / 1_000_000
        }
    };
    if now < target {
        if !int70::wait_active(m) {
            // The RTC's count ran out first (it counts whole periods from
            // an arbitrary phase): count the rest.
            let hz = m.config().cpu_hz.max(1);
            let left = ((target - now) * 1_000_000).div_ceil(hz);
            let flag = int70::WAIT_FLAG as u16 - 0x400;
            int70::start_wait(m, 0x40, flag, left.min(u32::MAX as u64) as u32);
        }
        *wait_until = Some(target);
        return rom::wait(m, 0x15);
    }
    *wait_until = None;
    int70::cancel_wait(m);
    ok(m);
    Flow::Continue
}

/// 24h: A20 off (AL = 00h) or on (01h) through port 92h, its state (02h),
/// the ways to switch it (03h: the 8042 and port 92h).
fn a20(m: &mut Machine) {
    match m.al() {
        0 | 1 => {
            let on = m.al() == 1;
            let v = m.in8(0x92);
            m.out8(0x92, if on { v | 2 } else { v & !2 } & !1);
            ok(m);
        }
        2 => {
            let on = m.bus.mem.a20();
            ok(m);
            m.set_al(on as u8);
        }
        3 => {
            ok(m);
            m.set_bx(3); // the 8042 and port 92h
        }
        _ => unsupported(m),
    }
}

/// 87h: copy CX words between the 24-bit bases of descriptors 2 (source)
/// and 3 (destination) of the GDT at ES:SI. AH = 0, ZF and no carry.
fn block_move(m: &mut Machine) {
    let n = m.cx() as u32;
    if n > 0x8000 {
        // More than 64 KiB: the BIOS's "invalid" answer.
        m.set_ah(0x01);
        mem::set_cf(m, true);
        return;
    }
    let (es, si) = (m.es(), m.si());
    let base = |m: &mut Machine, d: u16| {
        let a = lin(es, si.wrapping_add(d * 8 + 2));
        rd16(m, a) as u32 | (rd8(m, a + 2) as u32) << 16
    };
    let (src, dst) = (base(m, 2), base(m, 3));
    let data: Vec<u8> = (0..n * 2)
        .map(|k| crate::xms::read_phys(m, src + k))
        .collect();
    for (k, v) in data.into_iter().enumerate() {
        crate::xms::write_phys(m, dst + k as u32, v);
    }
    ok(m);
    mem::set_zf(m, true);
}

/// E820h: one entry of the memory map per call (EBX the continuation, 0
/// after the last), 20 bytes at ES:DI, EAX = "SMAP".
fn e820(m: &mut Machine) {
    let r = &m.cpu.regs;
    let (edx, ebx, ecx) = (r.gpr[2], r.gpr[3], r.gpr[1]);
    let map = memory_map(m);
    let Some(&(base, len, kind)) = map.get(ebx as usize).filter(|_| edx == SMAP && ecx >= 20)
    else {
        unsupported(m);
        return;
    };
    let a = lin(m.es(), m.di());
    wr32(m, a, base as u32);
    wr32(m, a + 4, (base >> 32) as u32);
    wr32(m, a + 8, len as u32);
    wr32(m, a + 12, (len >> 32) as u32);
    wr32(m, a + 16, kind);
    let next = if ebx as usize + 1 < map.len() {
        ebx + 1
    } else {
        0
    };
    let r = &mut m.cpu.regs;
    r.gpr[0] = SMAP;
    r.gpr[1] = 20;
    r.gpr[3] = next;
    mem::set_cf(m, false);
}
