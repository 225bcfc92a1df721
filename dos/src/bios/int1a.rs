//! INT 1Ah time-of-day services of the AT BIOS: the tick count at 40:6Ch
//! (00h, 01h) and the MC146818 real-time clock through ports 70h/71h
//! (02h-05h time and date, 06h/07h the alarm, which raises IRQ8 and INT
//! 4Ah through [`crate::bios::int70`]); 0Ah/0Bh the PS/2 day counter (days
//! since 1 January 1980) on the RTC's date. Values are BCD, as the BIOS
//! keeps the clock.

use crate::diag::Diagnostics;
use crate::mem::{self, rd32, rd8, wr32, wr8, Regs};
use hw::cmos::{bits, DateTime};
use hw::Machine;

/// Reads CMOS register `idx` through ports 70h/71h (the NMI mask bit kept).
pub fn cmos_read(m: &mut Machine, idx: u8) -> u8 {
    let nmi = if m.bus.cmos.nmi_disabled() { 0x80 } else { 0 };
    m.out8(0x70, idx | nmi);
    m.in8(0x71)
}

/// Writes CMOS register `idx` through ports 70h/71h.
pub fn cmos_write(m: &mut Machine, idx: u8, v: u8) {
    let nmi = if m.bus.cmos.nmi_disabled() { 0x80 } else { 0 };
    m.out8(0x70, idx | nmi);
    m.out8(0x71, v);
}

/// Unmasks IRQ8 at the slave 8259 (and the cascade at the master), as the
/// BIOS does when it enables an RTC interrupt.
pub fn unmask_irq8(m: &mut Machine) {
    let v = m.in8(0xA1);
    m.out8(0xA1, v & !0x01);
    let v = m.in8(0x21);
    m.out8(0x21, v & !0x04);
}

fn bcd(v: u32) -> u8 {
    (((v / 10 % 10) << 4) | (v % 10)) as u8
}

fn unbcd(v: u8) -> u32 {
    (v >> 4) as u32 * 10 + (v & 15) as u32
}

/// The RTC's date (BCD registers 07h-09h and the century at 32h).
fn rtc_date(m: &mut Machine) -> (u32, u32, u32) {
    let y = unbcd(cmos_read(m, 0x32)) * 100 + unbcd(cmos_read(m, 0x09));
    (y, unbcd(cmos_read(m, 0x08)), unbcd(cmos_read(m, 0x07)))
}

/// Writes registers with the clock's updates stopped (register B's SET),
/// in BCD 24-hour mode with daylight saving `dse`, as the BIOS sets it.
fn set_clock(m: &mut Machine, regs: &[(u8, u8)], dse: Option<bool>) {
    let b = cmos_read(m, 0x0B);
    let mut nb = (b | bits::H24) & !bits::DM;
    if let Some(d) = dse {
        nb = (nb & !1) | d as u8;
    }
    cmos_write(m, 0x0B, nb | bits::SET);
    for &(r, v) in regs {
        cmos_write(m, r, v);
    }
    cmos_write(m, 0x0B, nb & !bits::SET);
}

/// The register writes that set a date (BCD century, year, month, day).
/// The day goes to 1 first: tandem's RTC keeps one calendar date, on
/// which an intermediate day 31 of a short month would roll over.
fn date_regs(c: u8, y: u8, mo: u8, d: u8) -> [(u8, u8); 5] {
    [(0x07, 0x01), (0x32, c), (0x09, y), (0x08, mo), (0x07, d)]
}

/// Services INT 1Ah.
pub fn service(diag: &mut Diagnostics, m: &mut Machine) {
    match m.ah() {
        0x00 => read_ticks(m),
        0x01 => set_ticks(m),
        0x02 => read_time(m),
        0x03 => set_time(m),
        0x04 => read_date(m),
        0x05 => set_date(m),
        0x06 => set_alarm(m),
        0x07 => {
            let b = cmos_read(m, 0x0B);
            cmos_write(m, 0x0B, b & !bits::AIE);
            mem::set_cf(m, false);
        }
        0x0A => read_day_count(m),
        0x0B => set_day_count(m),
        ah => {
            // 08h/09h belong to the PS/2 Convertible's power-on alarm;
            // anything else is no AT BIOS function: CF set.
            if matches!(ah, 0x08 | 0x09) {
                let al = m.al();
                diag.unimplemented(0x1A, ah, al);
            }
            mem::set_cf(m, true);
        }
    }
}

/// 00h: the tick count in CX:DX; AL: midnight passed since the last
/// read, then cleared.
fn read_ticks(m: &mut Machine) {
    let t = rd32(m, 0x46C);
    m.set_cx((t >> 16) as u16);
    m.set_dx(t as u16);
    let midnight = rd8(m, 0x470);
    wr8(m, 0x470, 0);
    m.set_al(midnight);
}

/// 01h: sets the tick count from CX:DX.
fn set_ticks(m: &mut Machine) {
    let t = (m.cx() as u32) << 16 | m.dx() as u32;
    wr32(m, 0x46C, t);
    wr8(m, 0x470, 0);
}

/// 02h: the RTC's time, CH hours, CL minutes, DH seconds, DL daylight
/// saving.
fn read_time(m: &mut Machine) {
    let (s, mi, h) = (cmos_read(m, 0x00), cmos_read(m, 0x02), cmos_read(m, 0x04));
    let dse = cmos_read(m, 0x0B) & 1;
    m.set_cx((h as u16) << 8 | mi as u16);
    m.set_dx((s as u16) << 8 | dse as u16);
    mem::set_cf(m, false);
}

/// 03h: sets the RTC's time (registers as 02h returns them).
fn set_time(m: &mut Machine) {
    let (h, mi, s, dse) = (m.ch(), m.cl(), m.dh(), m.dl() & 1 != 0);
    set_clock(m, &[(0x00, s), (0x02, mi), (0x04, h)], Some(dse));
    mem::set_cf(m, false);
}

/// 04h: the RTC's date, CH century, CL year, DH month, DL day.
fn read_date(m: &mut Machine) {
    let (c, y, mo, d) = (
        cmos_read(m, 0x32),
        cmos_read(m, 0x09),
        cmos_read(m, 0x08),
        cmos_read(m, 0x07),
    );
    m.set_cx((c as u16) << 8 | y as u16);
    m.set_dx((mo as u16) << 8 | d as u16);
    mem::set_cf(m, false);
}

/// 05h: sets the RTC's date (registers as 04h returns them) and its day
/// of the week.
fn set_date(m: &mut Machine) {
    let (c, y, mo, d) = (m.ch(), m.cl(), m.dh(), m.dl());
    set_clock(m, &date_regs(c, y, mo, d), None);
    let year = (unbcd(c) * 100 + unbcd(y)) as i32;
    let wd = DateTime {
        year,
        month: unbcd(mo).clamp(1, 12),
        day: unbcd(d).clamp(1, 31),
        ..Default::default()
    }
    .weekday();
    cmos_write(m, 0x06, bcd(wd));
    mem::set_cf(m, false);
}

/// 06h: sets the alarm to CH:CL:DH (CF when one is already set), which
/// rings through IRQ8.
fn set_alarm(m: &mut Machine) {
    let b = cmos_read(m, 0x0B);
    if b & bits::AIE != 0 {
        mem::set_cf(m, true);
        return;
    }
    let (h, mi, s) = (m.ch(), m.cl(), m.dh());
    cmos_write(m, 0x01, s);
    cmos_write(m, 0x03, mi);
    cmos_write(m, 0x05, h);
    cmos_write(m, 0x0B, b | bits::AIE);
    unmask_irq8(m);
    mem::set_cf(m, false);
}

/// 1 January 1980, day 0 of the PS/2 day counter.
fn epoch() -> DateTime {
    DateTime {
        year: 1980,
        month: 1,
        day: 1,
        ..Default::default()
    }
}

/// 0Ah: the days since 1 January 1980 of the RTC's date in CX.
fn read_day_count(m: &mut Machine) {
    let (y, mo, d) = rtc_date(m);
    let date = DateTime {
        year: y as i32,
        month: mo.clamp(1, 12),
        day: d.clamp(1, 31),
        ..Default::default()
    };
    let days = (date.to_seconds() - epoch().to_seconds()).div_euclid(86400);
    m.set_cx(days.clamp(0, 0xFFFF) as u16);
    mem::set_cf(m, false);
}

/// 0Bh: sets the RTC's date to CX days after 1 January 1980.
fn set_day_count(m: &mut Machine) {
    let d = DateTime::from_seconds(epoch().to_seconds() + m.cx() as i64 * 86400);
    let regs = date_regs(
        bcd(d.year as u32 / 100),
        bcd(d.year as u32 % 100),
        bcd(d.month),
        bcd(d.day),
    );
    set_clock(m, &regs, None);
    cmos_write(m, 0x06, bcd(d.weekday()));
    mem::set_cf(m, false);
}
