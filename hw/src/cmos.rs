//! Motorola MC146818 real-time clock and CMOS RAM (ports 70h/71h), IRQ8.
//!
//! The clock runs on emulated time only: it starts at a configured date and
//! advances one second every `cpu_hz` CPU cycles. Register numbers and bits
//! follow the MC146818A datasheet ("Address Map", "Register A" to "Register
//! D"). Simplification (documented in docs/hw.md): the update cycle is
//! instantaneous at each second boundary, and UIP (register A bit 7) reads 1
//! during the 244 us before it, the window the datasheet guarantees.

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};
use crate::scheduler::{ClockRatio, Event};

/// A calendar date and time of day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct DateTime {
    /// Full year, e.g. 1994.
    pub year: i32,
    /// Month 1-12.
    pub month: u32,
    /// Day 1-31.
    pub day: u32,
    /// Hour 0-23.
    pub hour: u32,
    /// Minute 0-59.
    pub minute: u32,
    /// Second 0-59.
    pub second: u32,
}

impl Default for DateTime {
    /// 1994-06-01 08:00:00, a plausible day for a DOS game.
    fn default() -> Self {
        DateTime {
            year: 1994,
            month: 6,
            day: 1,
            hour: 8,
            minute: 0,
            second: 0,
        }
    }
}

/// Days since 1970-01-01 of a civil date (H. Hinnant's algorithm).
fn days_from_civil(y: i32, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y } as i64;
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// The civil date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i32, u32, u32) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    ((if m <= 2 { y + 1 } else { y }) as i32, m, d)
}

impl DateTime {
    /// Seconds since 1970-01-01 00:00:00.
    pub fn to_seconds(&self) -> i64 {
        days_from_civil(self.year, self.month.clamp(1, 12), self.day.clamp(1, 31)) * 86400
            + (self.hour.min(23) * 3600 + self.minute.min(59) * 60 + self.second.min(59)) as i64
    }

    /// The date `s` seconds after 1970-01-01 00:00:00.
    pub fn from_seconds(s: i64) -> DateTime {
        let days = s.div_euclid(86400);
        let rem = s.rem_euclid(86400) as u32;
        let (year, month, day) = civil_from_days(days);
        DateTime {
            year,
            month,
            day,
            hour: rem / 3600,
            minute: rem / 60 % 60,
            second: rem % 60,
        }
    }

    /// Day of week, 1 = Sunday (the RTC's convention).
    pub fn weekday(&self) -> u32 {
        // 1970-01-01 was a Thursday (5).
        ((days_from_civil(self.year, self.month, self.day).rem_euclid(7) + 4) % 7 + 1) as u32
    }
}

/// Register A/B/C bits.
pub mod bits {
    /// A: update in progress.
    pub const UIP: u8 = 0x80;
    /// B: SET (updates stopped).
    pub const SET: u8 = 0x80;
    /// B: periodic interrupt enable.
    pub const PIE: u8 = 0x40;
    /// B: alarm interrupt enable.
    pub const AIE: u8 = 0x20;
    /// B: update-ended interrupt enable.
    pub const UIE: u8 = 0x10;
    /// B: binary (not BCD) data mode.
    pub const DM: u8 = 0x04;
    /// B: 24-hour mode.
    pub const H24: u8 = 0x02;
    /// C: interrupt request flag.
    pub const IRQF: u8 = 0x80;
    /// C: periodic flag.
    pub const PF: u8 = 0x40;
    /// C: alarm flag.
    pub const AF: u8 = 0x20;
    /// C: update-ended flag.
    pub const UF: u8 = 0x10;
}

/// The RTC and its 128 bytes of CMOS RAM.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Cmos {
    #[serde(with = "crate::state::byte_array")]
    ram: [u8; 128],
    index: u8,
    nmi_disabled: bool,
    cpu_hz: u64,
    /// Clock seconds at `anchor`.
    base: i64,
    anchor: u64,
    /// While SET is on: the frozen time.
    frozen: Option<i64>,
    /// Clock seconds already checked for UF/AF.
    seen_second: i64,
    /// Periodic ticks already accounted.
    seen_periodic: u64,
    now: u64,
}

fn bcd(v: u32) -> u8 {
    (((v / 10 % 10) << 4) | (v % 10)) as u8
}

/// The checksum of registers 10h-2Dh, in 2Eh (high) and 2Fh (low).
fn set_checksum(ram: &mut [u8; 128]) {
    let sum: u16 = ram[0x10..=0x2D].iter().map(|&b| b as u16).sum();
    ram[0x2E] = (sum >> 8) as u8;
    ram[0x2F] = sum as u8;
}

fn unbcd(v: u8) -> u32 {
    (v >> 4) as u32 * 10 + (v & 0xF) as u32
}

impl Cmos {
    /// Records a math coprocessor in the equipment byte (register 14h, bit
    /// 1), as the AT's SETUP does; POST copies it into the equipment word
    /// (INT 11h bit 1), which runtime libraries read to find the x87.
    pub fn set_coprocessor(&mut self) {
        self.ram[0x14] |= 0x02;
        set_checksum(&mut self.ram);
    }

    /// An RTC reading `start` at cycle 0, on a CPU of `cpu_hz`, with the
    /// AT's CMOS contents for `base_kib` conventional and `ext_kib`
    /// extended memory (a 1.44 MB drive A:, a VGA).
    pub fn new(start: DateTime, cpu_hz: u64, base_kib: u32, ext_kib: u32) -> Self {
        let mut ram = [0u8; 128];
        ram[0x0A] = 0x26; // 32.768 kHz time base, 1024 Hz periodic rate
        ram[0x0B] = bits::H24;
        ram[0x0D] = 0x80; // valid RAM and time
        ram[0x10] = 0x40; // drive A: 1.44 MB
        ram[0x14] = 0x01; // floppy present, VGA/EGA (bits 4-5 = 00)
        ram[0x15] = base_kib as u8;
        ram[0x16] = (base_kib >> 8) as u8;
        ram[0x17] = ext_kib as u8;
        ram[0x18] = (ext_kib >> 8) as u8;
        ram[0x30] = ext_kib as u8;
        ram[0x31] = (ext_kib >> 8) as u8;
        ram[0x32] = bcd((start.year / 100) as u32);
        set_checksum(&mut ram);
        let base = start.to_seconds();
        Cmos {
            ram,
            index: 0,
            nmi_disabled: false,
            cpu_hz: cpu_hz.max(1),
            base,
            anchor: 0,
            frozen: None,
            seen_second: base,
            seen_periodic: 0,
            now: 0,
        }
    }

    /// Port 70h bit 7: NMI disabled.
    pub fn nmi_disabled(&self) -> bool {
        self.nmi_disabled
    }

    /// Clock seconds (since 1970) at cycle `t`.
    fn seconds_at(&self, t: u64) -> i64 {
        match self.frozen {
            Some(s) => s,
            None => self.base + (t.saturating_sub(self.anchor) / self.cpu_hz) as i64,
        }
    }

    /// The time the clock shows now.
    pub fn now(&self) -> DateTime {
        DateTime::from_seconds(self.seconds_at(self.now))
    }

    fn periodic_hz(&self) -> Option<u64> {
        // Register A RS3-RS0 with a 32.768 kHz time base: rate 1 and 2 are
        // 256 and 128 Hz; rate n >= 3 is 65536 >> n Hz.
        match self.ram[0x0A] & 0x0F {
            0 => None,
            1 => Some(256),
            2 => Some(128),
            r => Some(65536 >> r),
        }
    }

    fn divider_running(&self) -> bool {
        self.ram[0x0A] & 0x70 == 0x20
    }

    fn periodic_ticks(&self, t: u64) -> u64 {
        match self.periodic_hz() {
            Some(hz) if self.divider_running() => ClockRatio::new(hz, self.cpu_hz).ticks_at(t),
            _ => 0,
        }
    }

    fn alarm_matches(&self, s: i64) -> bool {
        let d = DateTime::from_seconds(s);
        let f = |reg: usize, v: u32| {
            let a = self.ram[reg];
            a >= 0xC0 || self.decode(a, reg == 5) == v
        };
        f(1, d.second) && f(3, d.minute) && f(5, d.hour)
    }

    /// Brings the flags of register C up to cycle `t`.
    pub fn advance_to(&mut self, t: u64) {
        if t <= self.now {
            return;
        }
        // Periodic flag.
        let pt = self.periodic_ticks(t);
        if pt > self.periodic_ticks(self.now) || (pt > self.seen_periodic && self.seen_periodic > 0)
        {
            self.ram[0x0C] |= bits::PF;
        }
        self.seen_periodic = pt;
        self.now = t;
        // Update-ended and alarm flags at each second boundary passed.
        let s = self.seconds_at(t);
        if s > self.seen_second {
            self.ram[0x0C] |= bits::UF;
            if s - self.seen_second > 86400 {
                self.ram[0x0C] |= bits::AF;
            } else {
                for sec in self.seen_second + 1..=s {
                    if self.alarm_matches(sec) {
                        self.ram[0x0C] |= bits::AF;
                        break;
                    }
                }
            }
            self.seen_second = s;
        }
        self.update_irqf();
    }

    fn update_irqf(&mut self) {
        let b = self.ram[0x0B];
        let c = self.ram[0x0C];
        let en = (b & (bits::PIE | bits::AIE | bits::UIE)) & c;
        if en != 0 {
            self.ram[0x0C] |= bits::IRQF;
        }
    }

    /// The IRQ8 line (IRQF).
    pub fn irq8(&self) -> bool {
        self.ram[0x0C] & bits::IRQF != 0
    }

    /// The next cycle at which an enabled interrupt condition arises.
    pub fn next_event(&self) -> Option<u64> {
        let b = self.ram[0x0B];
        let mut next: Option<u64> = None;
        if b & bits::PIE != 0 {
            if let Some(hz) = self.periodic_hz().filter(|_| self.divider_running()) {
                let r = ClockRatio::new(hz, self.cpu_hz);
                let t = r.cycle_of_tick(r.ticks_at(self.now) + 1);
                next = Some(t);
            }
        }
        if b & (bits::UIE | bits::AIE) != 0 && self.frozen.is_none() {
            let since = self.now.saturating_sub(self.anchor);
            let t = self.anchor + (since / self.cpu_hz + 1) * self.cpu_hz;
            next = Some(next.map_or(t, |n| n.min(t)));
        }
        next
    }

    fn decode(&self, v: u8, hour: bool) -> u32 {
        let binary = self.ram[0x0B] & bits::DM != 0;
        let h24 = self.ram[0x0B] & bits::H24 != 0;
        let (pm, v) = if hour && !h24 {
            (v & 0x80 != 0, v & 0x7F)
        } else {
            (false, v)
        };
        let n = if binary { v as u32 } else { unbcd(v) };
        if hour && !h24 {
            n % 12 + if pm { 12 } else { 0 }
        } else {
            n
        }
    }

    fn encode(&self, n: u32, hour: bool) -> u8 {
        let binary = self.ram[0x0B] & bits::DM != 0;
        let h24 = self.ram[0x0B] & bits::H24 != 0;
        let (pm, n) = if hour && !h24 {
            let h12 = match n % 12 {
                0 => 12,
                r => r,
            };
            (n >= 12, h12)
        } else {
            (false, n)
        };
        let v = if binary { n as u8 } else { bcd(n) };
        v | if pm { 0x80 } else { 0 }
    }

    fn uip(&self) -> bool {
        if self.frozen.is_some() || !self.divider_running() {
            return false;
        }
        let phase = self.now.saturating_sub(self.anchor) % self.cpu_hz;
        let window = (self.cpu_hz as u128 * 244 / 1_000_000) as u64;
        phase >= self.cpu_hz - window
    }

    /// Port 70h write: the register index and the NMI mask bit.
    pub fn write_index(&mut self, v: u8) {
        self.index = v & 0x7F;
        self.nmi_disabled = v & 0x80 != 0;
    }

    /// Port 71h read.
    pub fn read_data(&mut self) -> u8 {
        let i = self.index as usize;
        let d = self.now();
        match i {
            0 => self.encode(d.second, false),
            2 => self.encode(d.minute, false),
            4 => self.encode(d.hour, true),
            6 => self.encode(d.weekday(), false),
            7 => self.encode(d.day, false),
            8 => self.encode(d.month, false),
            9 => self.encode(d.year.rem_euclid(100) as u32, false),
            0x0A => self.ram[0x0A] & 0x7F | if self.uip() { bits::UIP } else { 0 },
            0x0C => {
                // Reading C clears all flags (and drops IRQ8).
                let v = self.ram[0x0C];
                self.ram[0x0C] = 0;
                v
            }
            0x32 => {
                let c = d.year.div_euclid(100) as u32;
                self.encode(c, false)
            }
            _ => self.ram[i],
        }
    }

    fn set_time(&mut self, f: impl FnOnce(&mut DateTime)) {
        let mut d = self.now();
        f(&mut d);
        let s = d.to_seconds();
        match &mut self.frozen {
            Some(x) => *x = s,
            None => {
                // Keep the phase of the second.
                let since = self.now.saturating_sub(self.anchor);
                self.anchor = self.now - since % self.cpu_hz;
                self.base = s;
            }
        }
        self.seen_second = s;
    }

    /// Port 71h write.
    pub fn write_data(&mut self, v: u8) {
        let i = self.index as usize;
        match i {
            0 => {
                let n = self.decode(v, false);
                self.set_time(|d| d.second = n.min(59));
            }
            2 => {
                let n = self.decode(v, false);
                self.set_time(|d| d.minute = n.min(59));
            }
            4 => {
                let n = self.decode(v, true);
                self.set_time(|d| d.hour = n.min(23));
            }
            6 => {}
            7 => {
                let n = self.decode(v, false);
                self.set_time(|d| d.day = n.clamp(1, 31));
            }
            8 => {
                let n = self.decode(v, false);
                self.set_time(|d| d.month = n.clamp(1, 12));
            }
            9 => {
                let n = self.decode(v, false) as i32;
                self.set_time(|d| d.year = d.year - d.year.rem_euclid(100) + n % 100);
            }
            0x0A => {
                let was = self.divider_running();
                self.ram[0x0A] = v & 0x7F;
                if !was && self.divider_running() {
                    // Leaving divider reset: the first update comes 500 ms
                    // later (datasheet, "Divider Control").
                    let s = self.seconds_at(self.now);
                    self.base = s;
                    self.anchor = self.now.saturating_sub(self.cpu_hz / 2);
                }
            }
            0x0B => {
                let was_set = self.ram[0x0B] & bits::SET != 0;
                let mut v = v;
                if v & bits::SET != 0 {
                    // SET clears UIE (datasheet, "Register B").
                    v &= !bits::UIE;
                }
                self.ram[0x0B] = v;
                if v & bits::SET != 0 && !was_set {
                    self.frozen = Some(self.seconds_at(self.now));
                } else if v & bits::SET == 0 && was_set {
                    if let Some(s) = self.frozen.take() {
                        self.base = s;
                        self.anchor = self.now;
                    }
                }
                self.update_irqf();
            }
            0x0C | 0x0D => {} // read-only
            0x32 => {
                let c = self.decode(v, false) as i32;
                self.set_time(|d| d.year = c * 100 + d.year.rem_euclid(100));
            }
            _ => self.ram[i] = v,
        }
    }
}

/// IRQ8 and the time of the RTC's next interrupt condition after an
/// access or event.
fn sync(bus: &mut PcBus) {
    let d = &mut bus.dev;
    d.pics.set_irq(8, d.cmos.irq8());
    bus.sched.set(Event::Rtc, d.cmos.next_event());
}

impl Device for Cmos {
    const NAME: &'static str = "MC146818 RTC";
    const PORTS: &'static [Ports] = &[0x70..=0x71];
    /// The next periodic, alarm or update-ended interrupt condition.
    const EVENTS: &'static [Event] = &[Event::Rtc];

    fn power_on(c: &MachineConfig) -> Self {
        let mut cmos = Cmos::new(
            c.rtc_start,
            c.cpu_hz.max(1),
            c.conventional_kib,
            c.extended_kib,
        );
        if c.fpu.fitted() {
            cmos.set_coprocessor();
        }
        cmos
    }

    /// Port 70h is write-only (reads float).
    fn read(bus: &mut PcBus, port: u16, now: u64) -> u8 {
        if port == 0x70 {
            return 0xFF;
        }
        bus.dev.cmos.advance_to(now);
        let v = bus.dev.cmos.read_data();
        sync(bus);
        v
    }

    fn write(bus: &mut PcBus, port: u16, v: u8, now: u64) {
        let cmos = &mut bus.dev.cmos;
        if port == 0x70 {
            cmos.write_index(v);
            return;
        }
        cmos.advance_to(now);
        cmos.write_data(v);
        sync(bus);
    }

    fn fire(bus: &mut PcBus, _: Event, t: u64) {
        bus.dev.cmos.advance_to(t);
        sync(bus);
    }

    fn perturb(&mut self) {
        // A byte of CMOS RAM beyond the clock.
        self.write_index(0x40);
        self.write_data(0x5A);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HZ: u64 = 1000;

    fn rd(c: &mut Cmos, r: u8) -> u8 {
        c.write_index(r);
        c.read_data()
    }

    #[test]
    fn a_coprocessor_is_recorded_with_a_valid_checksum() {
        let mut c = Cmos::new(DateTime::default(), HZ, 640, 0);
        assert_eq!(rd(&mut c, 0x14) & 2, 0);
        c.set_coprocessor();
        assert_eq!(rd(&mut c, 0x14) & 2, 2);
        let sum: u16 = (0x10..=0x2D).map(|r| rd(&mut c, r) as u16).sum();
        assert_eq!(
            (rd(&mut c, 0x2E), rd(&mut c, 0x2F)),
            ((sum >> 8) as u8, sum as u8)
        );
    }

    #[test]
    fn dates_round_trip() {
        for s in [0i64, 951_782_400, 1_234_567_890, 4_107_542_399] {
            assert_eq!(DateTime::from_seconds(s).to_seconds(), s);
        }
        let d = DateTime::from_seconds(951_782_400); // 2000-02-29
        assert_eq!((d.year, d.month, d.day), (2000, 2, 29));
        assert_eq!(d.weekday(), 3); // Tuesday
    }

    #[test]
    fn clock_runs_on_cycles_in_bcd() {
        let start = DateTime {
            year: 1999,
            month: 12,
            day: 31,
            hour: 23,
            minute: 59,
            second: 58,
        };
        let mut c = Cmos::new(start, HZ, 640, 0);
        assert_eq!(rd(&mut c, 0), 0x58);
        assert_eq!(rd(&mut c, 9), 0x99);
        assert_eq!(rd(&mut c, 0x32), 0x19);
        c.advance_to(2 * HZ);
        assert_eq!(rd(&mut c, 0), 0x00);
        assert_eq!(rd(&mut c, 4), 0x00);
        assert_eq!(rd(&mut c, 7), 0x01);
        assert_eq!(rd(&mut c, 8), 0x01);
        assert_eq!(rd(&mut c, 9), 0x00);
        assert_eq!(rd(&mut c, 0x32), 0x20);
        assert_eq!(rd(&mut c, 6), 7); // 2000-01-01 was a Saturday
    }

    #[test]
    fn binary_and_12_hour_modes() {
        let mut c = Cmos::new(DateTime::default(), HZ, 640, 0);
        c.write_index(0x0B);
        c.write_data(bits::DM); // binary, 12-hour
        assert_eq!(rd(&mut c, 4), 8);
        c.write_index(4);
        c.write_data(0x80 | 3); // 3 PM
        c.write_index(0x0B);
        c.write_data(bits::DM | bits::H24);
        assert_eq!(rd(&mut c, 4), 15);
    }

    #[test]
    fn uip_window_and_update_flag() {
        let mut c = Cmos::new(DateTime::default(), 1_000_000, 640, 0);
        c.advance_to(999_000);
        assert_eq!(rd(&mut c, 0x0A) & bits::UIP, 0);
        c.advance_to(999_800);
        assert_eq!(rd(&mut c, 0x0A) & bits::UIP, bits::UIP);
        c.advance_to(1_000_000);
        assert_eq!(rd(&mut c, 0x0A) & bits::UIP, 0);
        // UF at the second boundary (PF too: the 1024 Hz rate runs even
        // with PIE off); no IRQF since no interrupt is enabled.
        assert_eq!(rd(&mut c, 0x0C), bits::UF | bits::PF);
        assert_eq!(rd(&mut c, 0x0C), 0);
    }

    #[test]
    fn periodic_interrupt_and_set_bit() {
        let mut c = Cmos::new(DateTime::default(), 1_024_000, 640, 0);
        c.write_index(0x0B);
        c.write_data(bits::PIE | bits::H24);
        assert_eq!(c.next_event(), Some(1000)); // 1024 Hz
        c.advance_to(999);
        assert!(!c.irq8());
        c.advance_to(1000);
        assert!(c.irq8());
        assert_eq!(rd(&mut c, 0x0C), bits::IRQF | bits::PF);
        assert!(!c.irq8());
        // SET freezes the clock.
        c.write_index(0x0B);
        c.write_data(bits::SET | bits::H24);
        c.advance_to(10 * 1_024_000);
        assert_eq!(rd(&mut c, 0), 0x00);
        c.write_index(0);
        c.write_data(0x30);
        c.write_index(0x0B);
        c.write_data(bits::H24);
        c.advance_to(11 * 1_024_000);
        assert_eq!(rd(&mut c, 0), 0x31);
    }

    #[test]
    fn alarm() {
        let mut c = Cmos::new(DateTime::default(), HZ, 640, 0);
        for (r, v) in [(1u8, 0x05u8), (3, 0xFF), (5, 0xFF)] {
            c.write_index(r);
            c.write_data(v);
        }
        c.write_index(0x0B);
        c.write_data(bits::AIE | bits::H24);
        c.advance_to(4 * HZ);
        assert!(!c.irq8());
        c.advance_to(5 * HZ);
        assert!(c.irq8());
        assert_eq!(rd(&mut c, 0x0C) & bits::AF, bits::AF);
    }
}
