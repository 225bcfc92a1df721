//! Intel 8254 programmable interval timer (ports 40h-43h).
//!
//! Three 16-bit down counters clocked at 1,193,182 Hz on the PC (the clock
//! is a [`ClockRatio`] of the CPU clock, configurable). Channel 0 drives
//! IRQ0, channel 1 the DRAM refresh request (port 61h bit 4), channel 2 the
//! speaker, with its GATE on port 61h bit 0.
//!
//! The counters are not stepped clock by clock: [`Pit::advance_to`] moves
//! each channel forward any number of PIT clocks in O(1) with the mode's
//! arithmetic, and [`Pit::next_edge`] says when a channel's OUT will next
//! change so the machine can schedule it. Section numbers refer to the Intel
//! 8254 datasheet (order no. 231164).

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};
use crate::ppi;
use crate::scheduler::{ClockRatio, Event};

/// Where a channel is in its count sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
enum State {
    /// No count written since the control word: the counter does nothing.
    Idle,
    /// A count (or trigger) is pending: it is loaded into CE on the next
    /// CLK pulse ("the count is loaded on the CLK pulse after the write").
    Load,
    /// Modes 1 and 5: a count is in CR, waiting for a GATE rising edge.
    WaitTrigger,
    /// Counting.
    Counting,
}

/// One counter: control word, count register CR, counting element CE,
/// output latch OL, OUT and GATE.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Channel {
    mode: u8,
    bcd: bool,
    /// RW bits of the control word: 1 = LSB, 2 = MSB, 3 = LSB then MSB.
    access: u8,
    /// The count register as written (0 means 65536, or 10000 in BCD).
    cr: u16,
    /// The counting element, binary value (BCD counters hold 0..9999).
    ce: u32,
    /// Mode 3: clocks left in the current half period.
    remaining: u32,
    /// The output latch, when latched.
    ol: Option<u16>,
    /// The status latch (read-back command), when latched.
    status: Option<u8>,
    /// Lo/hi access: the next write is the MSB.
    write_msb: bool,
    /// Lo/hi access: the next read is the MSB.
    read_msb: bool,
    /// The LSB of a lo/hi write waiting for its MSB.
    lsb: u8,
    out: bool,
    gate: bool,
    null_count: bool,
    state: State,
    /// Modes 4 and 5: the strobe has not fired yet for this count.
    armed: bool,
    /// A control word has been written (the counter is programmed).
    programmed: bool,
    /// Rising edges of OUT since reset (port 61h bit 4 follows channel 1's).
    rising_edges: u64,
}

impl Default for Channel {
    fn default() -> Self {
        Channel {
            mode: 0,
            bcd: false,
            access: 3,
            cr: 0,
            ce: 0,
            remaining: 0,
            ol: None,
            status: None,
            write_msb: false,
            read_msb: false,
            lsb: 0,
            out: false,
            gate: true,
            null_count: true,
            state: State::Idle,
            armed: false,
            programmed: false,
            rising_edges: 0,
        }
    }
}

fn to_bcd(v: u32) -> u16 {
    let v = v % 10000;
    ((v / 1000) << 12 | (v / 100 % 10) << 8 | (v / 10 % 10) << 4 | (v % 10)) as u16
}

fn from_bcd(v: u16) -> u32 {
    let d = |s: u16| ((v >> s) & 0xF).min(9) as u32;
    d(12) * 1000 + d(8) * 100 + d(4) * 10 + d(0)
}

impl Channel {
    /// The counter's modulus: 65536 binary, 10000 BCD.
    fn modulus(&self) -> u32 {
        if self.bcd {
            10000
        } else {
            65536
        }
    }

    /// The count register's value as a binary count (0 is the modulus).
    fn cr_value(&self) -> u32 {
        let v = if self.bcd {
            from_bcd(self.cr)
        } else {
            self.cr as u32
        };
        if v == 0 {
            self.modulus()
        } else {
            v
        }
    }

    /// The OUT pin.
    pub fn out(&self) -> bool {
        self.out
    }

    /// The GATE input.
    pub fn gate(&self) -> bool {
        self.gate
    }

    /// Counter mode 0-5.
    pub fn mode(&self) -> u8 {
        self.mode
    }

    /// The divisor: the count register as last written, as a binary count
    /// (a written 0 is the modulus, 65536, or 10000 when counting in BCD:
    /// 8254 datasheet, "Counter Loading"). 65536 before any count.
    pub fn reload(&self) -> u32 {
        self.cr_value()
    }

    /// BCD counting (control word bit 0).
    pub fn bcd(&self) -> bool {
        self.bcd
    }

    /// Rising edges of OUT seen since reset.
    pub fn rising_edges(&self) -> u64 {
        self.rising_edges
    }

    /// The value the counting element shows (what the counter latch reads),
    /// in the counter's format (BCD when BCD counting).
    pub fn count(&self) -> u16 {
        let m = self.modulus();
        let v = match (self.mode, self.state) {
            (3, State::Counting) => {
                // CE decrements by two (section "Mode 3"): the odd count's
                // high phase starts at N-1.
                let n = self.cr_value();
                let r = 2 * self.remaining;
                if n & 1 == 1 && self.out {
                    r.saturating_sub(2)
                } else {
                    r
                }
            }
            _ => self.ce,
        } % m;
        if self.bcd {
            to_bcd(v)
        } else {
            v as u16
        }
    }

    fn set_out(&mut self, level: bool) {
        if level && !self.out {
            self.rising_edges += 1;
        }
        self.out = level;
    }

    /// Half-period lengths in mode 3: (high, low), section "Mode 3": odd N
    /// is high for (N+1)/2 and low for (N-1)/2 clocks.
    fn half_periods(&self) -> (u32, u32) {
        let n = self.cr_value().max(2);
        (n.div_ceil(2), n / 2)
    }

    /// The control word: every control logic is reset and OUT goes to its
    /// initial state (low in mode 0, high in the others).
    fn control(&mut self, mode: u8, access: u8, bcd: bool) {
        self.mode = if mode > 5 { mode & 3 } else { mode };
        self.access = access;
        self.bcd = bcd;
        self.state = State::Idle;
        self.ol = None;
        self.status = None;
        self.write_msb = false;
        self.read_msb = false;
        self.null_count = true;
        self.armed = false;
        self.programmed = true;
        let level = self.mode != 0;
        self.set_out(level);
    }

    /// A complete new count has been written to CR.
    fn count_written(&mut self) {
        self.null_count = true;
        match self.mode {
            // Mode 0: writing a count restarts it; OUT low until TC.
            0 => {
                self.set_out(false);
                self.state = State::Load;
            }
            4 => self.state = State::Load,
            1 | 5 => {
                if self.state == State::Idle {
                    self.state = State::WaitTrigger;
                }
            }
            // Modes 2 and 3: a new count during counting takes effect at the
            // next reload; the first count loads on the next CLK.
            _ => {
                if self.state == State::Idle {
                    self.state = State::Load;
                }
            }
        }
    }

    /// A byte written to the channel's data port.
    fn write(&mut self, v: u8) {
        if !self.programmed {
            // Undefined before a control word; take it as mode 0 lo/hi.
            self.programmed = true;
        }
        match self.access {
            1 => {
                self.cr = v as u16;
                self.count_written();
            }
            2 => {
                self.cr = (v as u16) << 8;
                self.count_written();
            }
            _ => {
                if self.write_msb {
                    self.write_msb = false;
                    self.cr = (v as u16) << 8 | self.lsb as u16;
                    self.count_written();
                } else {
                    self.write_msb = true;
                    self.lsb = v;
                    // Mode 0: writing the first byte stops the count
                    // (section "Mode 0").
                    if self.mode == 0 {
                        self.set_out(false);
                        self.state = State::Idle;
                    }
                }
            }
        }
    }

    /// A byte read from the channel's data port.
    fn read(&mut self) -> u8 {
        if let Some(s) = self.status.take() {
            return s;
        }
        let latched = self.ol.is_some();
        let v = self.ol.unwrap_or_else(|| self.count());
        match self.access {
            1 => {
                self.ol = None;
                v as u8
            }
            2 => {
                self.ol = None;
                (v >> 8) as u8
            }
            _ => {
                if self.read_msb {
                    self.read_msb = false;
                    self.ol = None;
                    (v >> 8) as u8
                } else {
                    self.read_msb = true;
                    if !latched {
                        // An unlatched lo/hi read returns the live count;
                        // keep the LSB's moment for the MSB.
                        self.ol = Some(v);
                    }
                    v as u8
                }
            }
        }
    }

    /// The counter latch command: the first latch holds until read.
    fn latch(&mut self) {
        if self.ol.is_none() {
            self.ol = Some(self.count());
        }
    }

    /// The read-back status byte (section "Read-Back Command"): OUT, NULL
    /// COUNT, RW1 RW0 M2 M1 M0 BCD.
    fn latch_status(&mut self) {
        if self.status.is_none() {
            self.status = Some(
                (self.out as u8) << 7
                    | (self.null_count as u8) << 6
                    | (self.access & 3) << 4
                    | (self.mode & 7) << 1
                    | self.bcd as u8,
            );
        }
    }

    /// GATE input change.
    fn set_gate(&mut self, level: bool) {
        let rising = level && !self.gate;
        self.gate = level;
        match self.mode {
            1 | 5 if rising && self.state != State::Idle => self.state = State::Load,
            2 | 3 => {
                if !level {
                    // GATE low forces OUT high at once.
                    self.set_out(true);
                } else if rising && self.state == State::Counting {
                    self.state = State::Load;
                }
            }
            _ => {}
        }
    }

    /// The CLK pulse that loads CR into CE.
    fn load(&mut self) {
        self.null_count = false;
        self.state = State::Counting;
        let n = self.cr_value();
        match self.mode {
            0 => self.ce = n % self.modulus(),
            1 => {
                self.ce = n % self.modulus();
                self.set_out(false);
            }
            4 | 5 => {
                self.ce = n % self.modulus();
                self.armed = true;
                self.set_out(true);
            }
            2 => {
                self.ce = n;
                self.set_out(true);
            }
            _ => {
                self.set_out(true);
                self.remaining = self.half_periods().0;
            }
        }
    }

    /// True when CE decrements on a CLK pulse.
    fn counts(&self) -> bool {
        match self.mode {
            1 | 5 => true,
            _ => self.gate,
        }
    }

    /// Clocks until OUT next changes, if it will without outside action.
    pub fn clocks_to_edge(&self) -> Option<u64> {
        match self.state {
            State::Idle | State::WaitTrigger => None,
            State::Load => {
                // The load itself may change OUT (mode 1; modes 2 and 3
                // after GATE); otherwise the next edge follows it.
                let mut c = self.clone();
                c.load();
                if c.out != self.out {
                    Some(1)
                } else {
                    c.clocks_to_edge().map(|k| k + 1)
                }
            }
            State::Counting => {
                if !self.counts() {
                    return None;
                }
                let steps = if self.ce == 0 {
                    self.modulus()
                } else {
                    self.ce
                } as u64;
                match self.mode {
                    0 | 1 => (!self.out).then_some(steps),
                    4 | 5 => {
                        if !self.out {
                            Some(1)
                        } else if self.armed {
                            Some(steps)
                        } else {
                            None
                        }
                    }
                    2 => {
                        if !self.out {
                            Some(1)
                        } else if self.ce > 1 {
                            Some(self.ce as u64 - 1)
                        } else {
                            // Count of 1 (illegal): OUT stays high.
                            None
                        }
                    }
                    _ => Some(self.remaining as u64),
                }
            }
        }
    }

    /// Advances `n` CLK pulses.
    fn advance(&mut self, mut n: u64) {
        while n > 0 {
            match self.state {
                State::Idle | State::WaitTrigger => return,
                State::Load => {
                    self.load();
                    n -= 1;
                }
                State::Counting => {
                    if !self.counts() {
                        return;
                    }
                    self.advance_counting(n);
                    return;
                }
            }
        }
    }

    fn advance_counting(&mut self, n: u64) {
        let m = self.modulus() as u64;
        match self.mode {
            0 | 1 | 4 | 5 => {
                let mut n = n;
                if !self.out && (self.mode == 4 || self.mode == 5) {
                    // End of the one-clock strobe.
                    self.set_out(true);
                }
                let steps = if self.ce == 0 { m } else { self.ce as u64 };
                if n >= steps {
                    match self.mode {
                        0 | 1 => self.set_out(true),
                        _ => {
                            if self.armed {
                                self.armed = false;
                                // Low for one clock at TC: still low if TC
                                // is the last pulse of this advance.
                                if n == steps {
                                    self.set_out(false);
                                } else {
                                    self.set_out(false);
                                    self.set_out(true);
                                }
                            }
                        }
                    }
                }
                n %= m;
                self.ce = ((self.ce as u64 + m - n) % m) as u32;
            }
            2 => {
                let mut n = n;
                // Clocks to the reload (OUT rises), from CE.
                let to_reload = if !self.out { 1 } else { self.ce as u64 };
                if n < to_reload {
                    self.ce -= n as u32;
                    if self.ce == 1 {
                        self.set_out(false);
                    }
                    return;
                }
                n -= to_reload;
                let p = self.cr_value() as u64;
                // OUT's low clock at CE = 1 fell inside this advance when
                // OUT is still high; then the reload: OUT high, CE = CR.
                if self.out {
                    self.set_out(false);
                }
                self.set_out(true);
                let periods = n / p;
                self.rising_edges += periods;
                let rem = n % p;
                self.ce = (p - rem) as u32;
                if self.ce == 1 && p > 1 {
                    self.out = false;
                }
            }
            _ => {
                let mut n = n;
                if n < self.remaining as u64 {
                    self.remaining -= n as u32;
                    return;
                }
                n -= self.remaining as u64;
                // Toggle at the end of the half period and reload CR.
                let (hi, lo) = self.half_periods();
                let level = !self.out;
                self.set_out(level);
                self.remaining = if level { hi } else { lo };
                // Whole periods (each has one rising edge).
                let p = (hi + lo) as u64;
                let periods = n / p;
                self.rising_edges += periods;
                n %= p;
                while n >= self.remaining as u64 {
                    n -= self.remaining as u64;
                    let level = !self.out;
                    self.set_out(level);
                    self.remaining = if level { hi } else { lo };
                }
                self.remaining -= n as u32;
            }
        }
    }
}

/// The 8254: three channels, a control port and a clock.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Pit {
    /// The channels 0-2.
    pub channels: [Channel; 3],
    clock: ClockRatio,
    /// PIT clocks applied so far.
    tick: u64,
}

impl Pit {
    /// A PIT clocked at `pit_hz` from a CPU at `cpu_hz`.
    pub fn new(pit_hz: u64, cpu_hz: u64) -> Self {
        Pit {
            channels: Default::default(),
            clock: ClockRatio::new(pit_hz, cpu_hz),
            tick: 0,
        }
    }

    /// The PIT clock as a ratio of the CPU clock.
    pub fn clock(&self) -> ClockRatio {
        self.clock
    }

    /// PIT clocks elapsed so far.
    pub fn ticks(&self) -> u64 {
        self.tick
    }

    /// Brings every counter up to CPU cycle `cycle` (no-op if already there).
    pub fn advance_to(&mut self, cycle: u64) {
        let t = self.clock.ticks_at(cycle);
        self.advance_ticks_to(t);
    }

    /// Brings every counter up to PIT clock `tick`.
    pub fn advance_ticks_to(&mut self, tick: u64) {
        if tick <= self.tick {
            return;
        }
        let n = tick - self.tick;
        for ch in &mut self.channels {
            ch.advance(n);
        }
        self.tick = tick;
    }

    /// The CPU cycle at which channel `ch`'s OUT next changes, if it will.
    pub fn next_edge(&self, ch: usize) -> Option<u64> {
        let k = self.channels.get(ch)?.clocks_to_edge()?;
        Some(self.clock.cycle_of_tick(self.tick + k))
    }

    /// OUT of channel `ch`.
    pub fn out(&self, ch: usize) -> bool {
        self.channels.get(ch).is_some_and(|c| c.out)
    }

    /// Sets GATE of channel `ch` (channel 2 from port 61h bit 0).
    pub fn set_gate(&mut self, ch: usize, level: bool) {
        if let Some(c) = self.channels.get_mut(ch) {
            c.set_gate(level);
        }
    }

    /// A write to port 40h-43h (`reg` = port & 3). The caller has advanced
    /// the PIT to the current cycle.
    pub fn write(&mut self, reg: u8, v: u8) {
        match reg & 3 {
            3 => {
                let sc = v >> 6;
                if sc == 3 {
                    // Read-back: bit 5 = 0 latches count, bit 4 = 0 status.
                    for i in 0..3 {
                        if v & (2 << i) != 0 {
                            let c = &mut self.channels[i];
                            if v & 0x10 == 0 {
                                c.latch_status();
                            }
                            if v & 0x20 == 0 {
                                c.latch();
                            }
                        }
                    }
                    return;
                }
                let c = &mut self.channels[sc as usize];
                let rw = (v >> 4) & 3;
                if rw == 0 {
                    c.latch();
                } else {
                    c.control((v >> 1) & 7, rw, v & 1 != 0);
                }
            }
            i => self.channels[i as usize].write(v),
        }
    }

    /// A read from port 40h-43h. The control port reads as FFh (no data).
    pub fn read(&mut self, reg: u8) -> u8 {
        match reg & 3 {
            3 => 0xFF,
            i => self.channels[i as usize].read(),
        }
    }
}

impl Device for Pit {
    const NAME: &'static str = "8254 PIT";
    const PORTS: &'static [Ports] = &[0x40..=0x43];
    /// Channel 0's edges drive IRQ0; channel 2's drive the speaker.
    const EVENTS: &'static [Event] = &[Event::Pit0, Event::Pit2];

    fn power_on(config: &MachineConfig) -> Self {
        Pit::new(config.pit_hz, config.cpu_hz.max(1))
    }

    fn read(bus: &mut PcBus, port: u16, now: u64) -> u8 {
        bus.dev.pit.advance_to(now);
        bus.dev.pit.read(port as u8 & 3)
    }

    /// A count or mode change moves both outputs' next edges.
    fn write(bus: &mut PcBus, port: u16, v: u8, now: u64) {
        let d = &mut bus.dev;
        d.pit.advance_to(now);
        d.pit.write(port as u8 & 3, v);
        d.pics.set_irq(0, d.pit.out(0));
        bus.sched.set(Event::Pit0, d.pit.next_edge(0));
        d.ppi.update_speaker(now, d.pit.out(2));
        ppi::schedule_speaker(bus);
    }

    fn fire(bus: &mut PcBus, ev: Event, t: u64) {
        let d = &mut bus.dev;
        d.pit.advance_to(t);
        if ev == Event::Pit0 {
            d.pics.set_irq(0, d.pit.out(0));
            bus.sched.set(Event::Pit0, d.pit.next_edge(0));
        } else {
            d.ppi.update_speaker(t, d.pit.out(2));
            ppi::schedule_speaker(bus);
        }
    }

    fn perturb(&mut self) {
        // Channel 0, LSB then MSB, mode 2.
        self.write(3, 0x34);
    }
}

#[cfg(test)]
mod tests {
    //! OUT waveforms of every mode against the timing diagrams of the 8254
    //! datasheet (figures "Mode 0" to "Mode 5"). Each test writes a control
    //! word and count at PIT clock 0, as the diagrams do ("CW=..., LSB=..."),
    //! and samples OUT after every CLK pulse. The sample taken after pulse k
    //! is OUT during the clock period following pulse k.

    use super::*;

    /// A PIT whose clock is the CPU clock (one tick per cycle).
    fn pit() -> Pit {
        Pit::new(1, 1)
    }

    fn wave(p: &mut Pit, ch: usize, pulses: u64) -> String {
        let start = p.ticks();
        (1..=pulses)
            .map(|k| {
                p.advance_ticks_to(start + k);
                if p.out(ch) {
                    '1'
                } else {
                    '0'
                }
            })
            .collect()
    }

    /// The edge prediction agrees with clock-by-clock stepping.
    fn check_edges(p: &Pit, ch: usize, pulses: u64) {
        let mut q = p.clone();
        let mut step = p.clone();
        let mut t = p.ticks();
        let end = t + pulses;
        while t < end {
            let Some(k) = q.channels[ch].clocks_to_edge() else {
                break;
            };
            // No change before the predicted edge...
            let before = step.out(ch);
            for _ in 1..k {
                t += 1;
                step.advance_ticks_to(t);
                assert_eq!(step.out(ch), before, "early edge at {t}");
            }
            t += 1;
            step.advance_ticks_to(t);
            q.advance_ticks_to(t);
            assert_eq!(q, step, "bulk and stepped state differ at {t}");
        }
    }

    #[test]
    fn mode0_interrupt_on_terminal_count() {
        // CW=10 LSB=4: OUT low; count loads on the first pulse, reaches 0 on
        // the fifth; OUT goes high N+1 clocks after the write and stays high.
        let mut p = pit();
        p.write(3, 0x10);
        assert!(!p.out(0));
        p.write(0, 4);
        check_edges(&p, 0, 20);
        assert_eq!(wave(&mut p, 0, 8), "00001111");
        // The counter keeps counting through zero with OUT high.
        p.write(3, 0x00);
        assert_eq!(p.read(0), 0xFD);
    }

    #[test]
    fn mode0_gate_low_suspends_and_new_count_restarts() {
        let mut p = pit();
        p.write(3, 0x90); // channel 2, LSB, mode 0
        p.write(2, 3);
        p.set_gate(2, false);
        assert_eq!(wave(&mut p, 2, 4), "0000"); // loaded, not counting
        p.set_gate(2, true);
        assert_eq!(wave(&mut p, 2, 4), "0011");
        p.write(2, 2); // rewrite: OUT low at once
        assert!(!p.out(2));
        assert_eq!(wave(&mut p, 2, 4), "0011");
    }

    #[test]
    fn mode0_lohi_first_byte_stops_count() {
        let mut p = pit();
        p.write(3, 0x30); // lo/hi, mode 0
        p.write(0, 5);
        p.write(0, 0);
        assert_eq!(wave(&mut p, 0, 3), "000");
        p.write(0, 2); // first byte: counting stops
        assert_eq!(wave(&mut p, 0, 5), "00000");
        p.write(0, 0); // second byte: load on next pulse, TC two later
        assert_eq!(wave(&mut p, 0, 4), "0011");
    }

    #[test]
    fn mode1_hardware_retriggerable_one_shot() {
        // CW=12 LSB=3: OUT high; the pulse after the GATE trigger loads and
        // drives OUT low for N clocks.
        let mut p = pit();
        p.write(3, 0x92); // ch2 LSB mode 1
        p.set_gate(2, false);
        p.write(2, 3);
        assert!(p.out(2));
        assert_eq!(wave(&mut p, 2, 3), "111"); // no trigger yet
        p.set_gate(2, true);
        check_edges(&p, 2, 10);
        assert_eq!(wave(&mut p, 2, 6), "000111");
        // Retrigger during the pulse extends it.
        p.set_gate(2, false);
        p.set_gate(2, true);
        assert_eq!(wave(&mut p, 2, 2), "00");
        p.set_gate(2, false);
        p.set_gate(2, true);
        assert_eq!(wave(&mut p, 2, 5), "00011");
    }

    #[test]
    fn mode2_rate_generator() {
        // CW=14 LSB=3: OUT low for one clock every N clocks.
        let mut p = pit();
        p.write(3, 0x14);
        p.write(0, 3);
        assert!(p.out(0));
        check_edges(&p, 0, 30);
        assert_eq!(wave(&mut p, 0, 10), "1101101101");
        // A new count takes effect at the next reload.
        p.write(0, 4);
        assert_eq!(wave(&mut p, 0, 9), "101110111");
    }

    #[test]
    fn mode2_rising_edges_do_not_depend_on_the_step_size() {
        // The refresh channel (CW=54 LSB=18) counted in steps of every size
        // from 1 to 40 clocks: one rising edge per 18 clocks, as when it is
        // advanced in one go (a step that spans OUT's low clock and the
        // reload still has its edge: port 61h's refresh toggle).
        for step in 1..=40u64 {
            let mut p = pit();
            p.write(3, 0x54);
            p.write(1, 18);
            let mut t = 0;
            while t < 18 * 100 {
                t += step;
                p.advance_ticks_to(t);
            }
            let mut q = pit();
            q.write(3, 0x54);
            q.write(1, 18);
            q.advance_ticks_to(t);
            assert_eq!(
                p.channels[1].rising_edges(),
                q.channels[1].rising_edges(),
                "step {step}"
            );
            // The control word raises OUT; then a reload every 18 clocks
            // after the load clock.
            assert_eq!(
                p.channels[1].rising_edges(),
                1 + (t - 1) / 18,
                "step {step}"
            );
        }
    }

    #[test]
    fn mode2_gate_low_forces_out_high_and_reloads() {
        let mut p = pit();
        p.write(3, 0x94); // ch2 LSB mode 2
        p.write(2, 4);
        assert_eq!(wave(&mut p, 2, 3), "111");
        p.set_gate(2, false);
        assert_eq!(wave(&mut p, 2, 3), "111");
        p.set_gate(2, true); // reload on the next pulse
        assert_eq!(wave(&mut p, 2, 9), "111011101");
    }

    #[test]
    fn mode3_square_wave_even_and_odd() {
        let mut p = pit();
        p.write(3, 0x16);
        p.write(0, 4);
        check_edges(&p, 0, 40);
        assert_eq!(wave(&mut p, 0, 12), "110011001100");
        // Odd: high (N+1)/2, low (N-1)/2.
        let mut p = pit();
        p.write(3, 0x16);
        p.write(0, 5);
        check_edges(&p, 0, 40);
        assert_eq!(wave(&mut p, 0, 11), "11100111001");
    }

    #[test]
    fn mode3_long_runs_match_stepping() {
        let mut a = pit();
        a.write(3, 0x36);
        a.write(0, 0x32);
        a.write(0, 0x09); // 2354
        let mut b = a.clone();
        for t in 1..=20_000 {
            b.advance_ticks_to(t);
        }
        a.advance_ticks_to(20_000);
        assert_eq!(a, b);
        assert_eq!(a.channels[0].rising_edges(), 20_000 / 2354 + 1);
    }

    #[test]
    fn mode4_software_triggered_strobe() {
        // CW=18 LSB=3: OUT high, low for one clock N+1 clocks after the
        // write, then high; no further strobes.
        let mut p = pit();
        p.write(3, 0x18);
        p.write(0, 3);
        check_edges(&p, 0, 20);
        assert_eq!(wave(&mut p, 0, 8), "11101111");
        assert_eq!(wave(&mut p, 0, 70_000).find('0'), None);
    }

    #[test]
    fn mode5_hardware_triggered_strobe() {
        let mut p = pit();
        p.write(3, 0x9A); // ch2 LSB mode 5
        p.set_gate(2, false);
        p.write(2, 3);
        assert_eq!(wave(&mut p, 2, 4), "1111");
        p.set_gate(2, true);
        check_edges(&p, 2, 20);
        assert_eq!(wave(&mut p, 2, 7), "1110111");
    }

    #[test]
    fn bcd_counting() {
        let mut p = pit();
        p.write(3, 0x31); // lo/hi mode 0 BCD
        p.write(0, 0x00);
        p.write(0, 0x10); // 1000 decimal
        p.advance_ticks_to(1 + 1);
        p.write(3, 0x00);
        assert_eq!(p.read(0), 0x99);
        assert_eq!(p.read(0), 0x09); // 0999
        p.advance_ticks_to(1 + 1000);
        assert!(p.out(0));
        p.advance_ticks_to(1 + 1001);
        p.write(3, 0x00);
        assert_eq!((p.read(0), p.read(0)), (0x99, 0x99)); // wrapped to 9999
    }

    #[test]
    fn access_modes_latch_and_readback() {
        let mut p = pit();
        p.write(3, 0x74); // ch1 lo/hi mode 2
        p.write(1, 0x34);
        p.write(1, 0x12); // 0x1234
        p.advance_ticks_to(1); // load
        p.advance_ticks_to(0x11);
        p.write(3, 0x40); // latch ch1
        p.advance_ticks_to(0x100); // the latch holds
        assert_eq!(p.read(1), 0x24);
        p.write(3, 0x40); // a second latch before reading the MSB is ignored
        assert_eq!(p.read(1), 0x12);
        // MSB-only access.
        p.write(3, 0xA0); // ch2 MSB mode 0
        p.write(2, 0x05);
        p.advance_ticks_to(0x101);
        assert_eq!(p.read(2), 0x05);
        // Read-back: status then count of channel 1, status of 2.
        p.write(3, 0b1100_0100);
        let st = p.read(1);
        assert_eq!(st, 0x80 | 0x30 | 0x04); // OUT high, lo/hi, mode 2
        let lo = p.read(1) as u16;
        let hi = p.read(1) as u16;
        assert_eq!(hi << 8 | lo, 0x1234 - 0x100);
        p.write(3, 0b1110_1000); // status only, ch2
        assert_eq!(p.read(2), 0x20); // OUT low, count loaded, MSB, mode 0
                                     // Null count: set by a write, cleared by the load.
        p.write(2, 0x07);
        p.write(3, 0b1110_1000);
        assert_eq!(p.read(2) & 0x40, 0x40);
        p.advance_ticks_to(0x102);
        p.write(3, 0b1110_1000);
        assert_eq!(p.read(2) & 0x40, 0);
    }

    #[test]
    fn edges_are_scheduled_in_cpu_cycles() {
        // 1,193,180 Hz against a 4,772,727 Hz CPU, divisor 2386 mode 2:
        // rising edges every 2386 PIT clocks.
        let mut p = Pit::new(1_193_180, 4_772_727);
        p.write(3, 0x34);
        p.write(0, (2386 & 0xFF) as u8);
        p.write(0, (2386 >> 8) as u8);
        let mut rising = 0;
        let mut now = 0;
        while let Some(t) = p.next_edge(0) {
            if t > 4_772_727 * 2 {
                break;
            }
            assert!(t > now || now == 0);
            now = t;
            let before = p.out(0);
            p.advance_to(t);
            assert_ne!(p.out(0), before, "edge at {t} did not change OUT");
            if p.out(0) {
                rising += 1;
            }
        }
        // Two seconds: 2 * 1193180 / 2386 = 1000.15 periods.
        assert_eq!(rising, 1000);
    }
}
