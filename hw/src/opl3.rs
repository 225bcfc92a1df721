//! Yamaha YMF262 (OPL3) as the AdLib and the Sound Blaster 16 present it:
//! 388h/389h address and data of register bank 0 (the YM3812's registers,
//! so OPL2 programs run unchanged), 38Ah/38Bh those of bank 1. A read of
//! an even port returns the status (YMF262 datasheet, "Interface": A1 is
//! not decoded on reads). Modelled: both register files, timer 1 (80 us
//! per step) and timer 2 (320 us per step), their flags and the status
//! register (YM3812 Application Manual, "Timer" and "Status"), which is
//! what every AdLib detection routine checks, and the FM synthesis.
//!
//! Time is the timers' clock, 3.579545 MHz (the YMF262's 14.31818 MHz
//! master clock / 4, the YM3812's own clock), derived from CPU cycles with
//! a [`ClockRatio`]; a timer steps every 288 (timer 1) or 1152 (timer 2)
//! of those clocks, from its preset up to 255, then sets its flag and
//! reloads the preset. One output sample is 72 of them (14.31818 MHz /
//! 288 = 49716 Hz). The samples are rendered lazily: before a register
//! write takes effect, every sample whose time is before the write is
//! rendered, so each write changes the output at its exact sample.
//!
//! # The synthesis: oplon, not opl3-rs
//!
//! Both crates were tried on the same register writes (one additive
//! channel, A4 at block 4, F-number 244h, rendered at 49716 Hz): both give
//! the peak at 440.0 Hz, the same RMS (2901 vs 2902) and peak (4103), and
//! their outputs correlate at 1.00000 at a lag of three samples. Chosen:
//! oplon 1.0 (MIT, the project's licence; pure, integer-only Rust with no
//! build step). opl3-rs 0.2.4 (Nuked-OPL3, LGPL-2.1) is the accuracy
//! reference, but its build runs bindgen and needs libclang on every
//! machine and in CI, and linking it statically would put an LGPL part
//! into the binary. Neither crate's chip can be cloned or serialized, so
//! [`Synth`] keeps the registers as written and rebuilds a chip from them
//! (see there for what a save state loses).

use std::hash::{Hash, Hasher};

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};
use crate::scheduler::ClockRatio;

/// The timers' clock: the YMF262's 14.31818 MHz divided by 4.
pub const MASTER_HZ: u64 = 3_579_545;

/// Timer clocks per output sample (14.31818 MHz / 288 = 49716 Hz).
pub const CLOCKS_PER_SAMPLE: u64 = 72;

/// The output sample rate, rounded (the exact one is
/// [`MASTER_HZ`] / [`CLOCKS_PER_SAMPLE`]).
pub const SAMPLE_HZ: u32 = 49_716;

/// Timer clocks per step of timer 1 (4 samples) and timer 2.
const STEP: [u64; 2] = [288, 1152];

/// One of the two timers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
struct Timer {
    /// Register 02h or 03h: the value loaded at start and at overflow.
    preset: u8,
    /// Register 04h start bit.
    running: bool,
    /// Register 04h mask bit: an overflow does not set the flag.
    masked: bool,
    /// The status flag.
    flag: bool,
    /// Timer clock of the next overflow while running.
    next_overflow: u64,
}

impl Timer {
    /// Timer clocks from a load to the overflow.
    fn period(&self, k: usize) -> u64 {
        (256 - self.preset as u64) * STEP[k]
    }

    /// Runs the timer to timer clock `now`.
    fn advance(&mut self, k: usize, now: u64) {
        if !self.running || now < self.next_overflow {
            return;
        }
        if !self.masked {
            self.flag = true;
        }
        // The flag is all an overflow leaves behind: skip to the last one.
        let p = self.period(k);
        let n = (now - self.next_overflow) / p + 1;
        self.next_overflow += n * p;
    }
}

/// The FM synthesis: an oplon chip fed every register write, the samples
/// rendered so far and, while capturing, those not yet taken.
///
/// The chip's internal state (phases, envelopes, LFOs, noise) cannot be
/// copied out of the crate. A clone or a restored save state is a fresh
/// chip given the registers as written (bank 1's 05h and 04h first, the
/// key-on registers B0h-B8h last): it plays the same notes with the same
/// patches, but each sounding note restarts its envelope from the attack.
/// That is the documented gap of a resumed save state's sound; nothing
/// the program can observe depends on it.
pub struct Synth {
    chip: Box<oplon::Opl2>,
    /// Registers as written: bank 0 at 000h-0FFh, bank 1 at 100h-1FFh.
    regs: Vec<u8>,
    /// Samples rendered since power-on.
    rendered: u64,
    /// Keep rendered samples for [`Synth::take`].
    capture: bool,
    /// Rendered samples not yet taken (left, right).
    pending: Vec<[i16; 2]>,
}

impl Synth {
    /// A silent chip, nothing rendered.
    fn new() -> Self {
        Synth {
            chip: Box::new(oplon::Opl2::with_native_rate(SAMPLE_HZ, SAMPLE_HZ)),
            regs: vec![0; 512],
            rendered: 0,
            capture: false,
            pending: Vec::new(),
        }
    }

    /// A chip programmed with `regs`, `rendered` samples on.
    fn rebuilt(regs: &[u8], rendered: u64) -> Self {
        let mut s = Synth::new();
        s.rendered = rendered;
        let key_on = |r: usize| (0xB0..=0xB8).contains(&(r & 0xFF));
        let order = [0x105, 0x104]
            .into_iter()
            .chain((0..512).filter(|&r| r != 0x105 && r != 0x104 && !key_on(r)))
            .chain((0..512).filter(|&r| key_on(r)));
        for r in order {
            s.write(r, regs.get(r).copied().unwrap_or(0));
        }
        s
    }

    /// Register `reg` (bit 8: bank 1) gets `v`.
    fn write(&mut self, reg: usize, v: u8) {
        self.regs[reg & 0x1FF] = v;
        if reg & 0x100 == 0 {
            self.chip.write_reg(reg as u8, v);
        } else {
            self.chip.write_reg_high(reg as u8, v);
        }
    }

    /// Renders the samples before sample `n`.
    fn render_until(&mut self, n: u64) {
        while self.rendered < n {
            let (l, r) = self.chip.render_frame();
            if self.capture {
                let clip = |x: i32| x.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
                self.pending.push([clip(l), clip(r)]);
            }
            self.rendered += 1;
        }
    }

    /// The rendered samples not yet taken, in order.
    fn take(&mut self) -> Vec<[i16; 2]> {
        std::mem::take(&mut self.pending)
    }
}

impl std::fmt::Debug for Synth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Synth")
            .field("rendered", &self.rendered)
            .field("capture", &self.capture)
            .field("pending", &self.pending.len())
            .finish_non_exhaustive()
    }
}

impl Clone for Synth {
    fn clone(&self) -> Self {
        let mut s = Synth::rebuilt(&self.regs, self.rendered);
        s.capture = self.capture;
        s.pending = self.pending.clone();
        s
    }
}

/// The save-state form of [`Synth`]: what it is rebuilt from.
#[derive(serde::Serialize, serde::Deserialize)]
struct SynthState {
    regs: Vec<u8>,
    rendered: u64,
}

impl serde::Serialize for Synth {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        SynthState {
            regs: self.regs.clone(),
            rendered: self.rendered,
        }
        .serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for Synth {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let st = SynthState::deserialize(d)?;
        Ok(Synth::rebuilt(&st.regs, st.rendered))
    }
}

/// The YMF262: register files, timers, status and synthesis. Its hash
/// (part of the machine's state hash) covers what the program can observe
/// or that decides it (the bank 0 registers, the index, the timers and the
/// clock), not the sound, which only a listener observes.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Opl3 {
    clock: ClockRatio,
    /// The register index last written to 388h or 38Ah.
    pub index: u8,
    /// Bank 0 registers 00h-FFh as written.
    pub regs: Vec<u8>,
    timers: [Timer; 2],
    /// Timer clocks counted so far.
    now: u64,
    /// The index was written to 38Ah: data goes to bank 1.
    bank1: bool,
    synth: Synth,
}

impl Hash for Opl3 {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.clock.hash(h);
        self.index.hash(h);
        self.regs.hash(h);
        self.timers.hash(h);
        self.now.hash(h);
    }
}

impl Opl3 {
    /// An OPL3 on a CPU clocked at `cpu_hz`, timers stopped, silent.
    pub fn new(cpu_hz: u64) -> Self {
        Opl3 {
            clock: ClockRatio::new(MASTER_HZ, cpu_hz.max(1)),
            index: 0,
            regs: vec![0; 256],
            timers: Default::default(),
            now: 0,
            bank1: false,
            synth: Synth::new(),
        }
    }

    /// Brings the timers to CPU cycle `cycle`.
    pub fn advance_to(&mut self, cycle: u64) {
        self.now = self.now.max(self.clock.ticks_at(cycle));
        for (k, t) in self.timers.iter_mut().enumerate() {
            t.advance(k, self.now);
        }
    }

    /// 388h (bank 0) or 38Ah (bank 1) write: the register index.
    pub fn write_index(&mut self, bank1: bool, v: u8) {
        self.index = v;
        self.bank1 = bank1;
    }

    /// 389h or 38Bh write: data for the indexed register. The caller has
    /// advanced the OPL to the current cycle; the samples before now are
    /// rendered with the registers as they were.
    pub fn write_data(&mut self, v: u8) {
        self.synth
            .render_until(self.now.div_ceil(CLOCKS_PER_SAMPLE));
        let i = self.index as usize;
        self.synth.write(i | (self.bank1 as usize) << 8, v);
        if self.bank1 {
            return;
        }
        self.regs[i] = v;
        match i {
            0x02 | 0x03 => self.timers[i - 2].preset = v,
            0x04 => self.write_timer_control(v),
            _ => {}
        }
    }

    /// Register 04h of bank 0: IRQ reset, timer masks and starts.
    fn write_timer_control(&mut self, v: u8) {
        if v & 0x80 != 0 {
            // IRQ RESET: clears both flags; the other bits are ignored in
            // this write.
            for t in &mut self.timers {
                t.flag = false;
            }
            return;
        }
        for (k, t) in self.timers.iter_mut().enumerate() {
            t.masked = v & (0x40 >> k) != 0;
            let start = v & (1 << k) != 0;
            // A start loads the preset; the first step comes one step
            // period later.
            if start && !t.running {
                t.next_overflow = self.now + t.period(k);
            }
            t.running = start;
        }
    }

    /// 388h/38Ah read: the status register. Bit 7 IRQ (either flag), bit 6
    /// timer 1 flag, bit 5 timer 2 flag, the rest 0 (the YM3812 reads 1 in
    /// bits 2-1, which is how programs tell the OPL2 from the YMF262). The
    /// caller has advanced the OPL to the current cycle.
    pub fn status(&self) -> u8 {
        let (f1, f2) = (self.timers[0].flag, self.timers[1].flag);
        ((f1 || f2) as u8) << 7 | (f1 as u8) << 6 | (f2 as u8) << 5
    }

    /// Keeps (true) or drops (false, the default) the rendered samples;
    /// switching it off discards those not yet taken.
    pub fn set_capture(&mut self, on: bool) {
        self.synth.capture = on;
        if !on {
            self.synth.pending.clear();
        }
    }

    /// Renders up to CPU cycle `cycle` and returns the stereo samples
    /// (left, right) rendered since the last call: sample `n` of the run
    /// is at timer clock `n * 72`, i.e. at `n / 49716` s of emulated time.
    /// Only captured samples are returned ([`Opl3::set_capture`]).
    /// Taking samples leaves the hashed state alone (the timers catch up
    /// when the program next looks), so a run hashes the same listened to
    /// or not.
    pub fn take_samples(&mut self, cycle: u64) -> Vec<[i16; 2]> {
        let t = self.clock.ticks_at(cycle).max(self.now);
        self.synth.render_until(t.div_ceil(CLOCKS_PER_SAMPLE));
        self.synth.take()
    }

    /// Samples rendered since power-on.
    pub fn samples_rendered(&self) -> u64 {
        self.synth.rendered
    }

    /// Register `index` of bank 0 or (`bank1`) bank 1 as last written
    /// (a register file of the YMF262: A0h-A8h F-number low, B0h-B8h
    /// key-on, block and F-number high, bank 1's 05h the NEW bit).
    pub fn reg(&self, bank1: bool, index: u8) -> u8 {
        let r = index as usize | (bank1 as usize) << 8;
        self.synth.regs.get(r).copied().unwrap_or(0)
    }
}

/// A read of the OPL's status at cycle `now` (388h, 38Ah, or the Sound
/// Blaster's base+0, +2, +8).
pub(crate) fn read_status(bus: &mut PcBus, now: u64) -> u8 {
    bus.dev.opl.advance_to(now);
    bus.dev.opl.status()
}

/// A write of `v` to the OPL's port `offset` (0-3: index and data of bank
/// 0, index and data of bank 1) at cycle `now`.
pub(crate) fn write_port(bus: &mut PcBus, offset: u16, v: u8, now: u64) {
    if offset & 1 == 0 {
        bus.dev.opl.write_index(offset & 2 != 0, v);
    } else {
        bus.dev.opl.advance_to(now);
        bus.dev.opl.write_data(v);
    }
}

/// Without an AdLib or a Sound Blaster 16 ([`MachineConfig::adlib`] off,
/// [`MachineConfig::sb16`] none) the ports float at FFh and count as
/// unhandled.
impl Device for Opl3 {
    const NAME: &'static str = "YMF262 (AdLib, OPL3)";
    const PORTS: &'static [Ports] = &[0x388..=0x38B];

    fn power_on(config: &MachineConfig) -> Self {
        Opl3::new(config.cpu_hz.max(1))
    }

    fn read(bus: &mut PcBus, port: u16, now: u64) -> u8 {
        if !bus.adlib || port & 1 != 0 {
            bus.note_unhandled(port);
            return 0xFF;
        }
        read_status(bus, now)
    }

    fn write(bus: &mut PcBus, port: u16, v: u8, now: u64) {
        if !bus.adlib {
            bus.note_unhandled(port);
        } else {
            write_port(bus, port & 3, v, now);
        }
    }

    fn perturb(&mut self) {
        self.write_index(false, 0x20);
        self.write_data(0x01);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CPU: u64 = 12_000_000;

    fn reg(o: &mut Opl3, i: u8, v: u8) {
        o.write_index(false, i);
        o.write_data(v);
    }

    /// CPU cycles of `master` OPL clocks.
    fn cycles(master: u64) -> u64 {
        ClockRatio::new(MASTER_HZ, CPU).cycle_of_tick(master)
    }

    #[test]
    fn adlib_detection_sequence() {
        // The AdLib programming guide's test: reset, start timer 1 at FFh,
        // wait more than 80 us, expect C0h in the top bits.
        let mut o = Opl3::new(CPU);
        reg(&mut o, 4, 0x60);
        reg(&mut o, 4, 0x80);
        assert_eq!(o.status() & 0xE0, 0x00);
        reg(&mut o, 2, 0xFF);
        reg(&mut o, 4, 0x21);
        o.advance_to(cycles(287));
        assert_eq!(o.status() & 0xE0, 0x00, "one step is 288 clocks");
        o.advance_to(cycles(288));
        assert_eq!(o.status() & 0xE0, 0xC0);
        assert_eq!(o.status() & 0x1F, 0x00);
        reg(&mut o, 4, 0x60);
        reg(&mut o, 4, 0x80);
        assert_eq!(o.status(), 0x00);
    }

    #[test]
    fn timer2_period_mask_and_reload() {
        let mut o = Opl3::new(CPU);
        reg(&mut o, 3, 0xFE); // two steps of 1152 clocks
        reg(&mut o, 4, 0x42); // start timer 2, timer 1 masked
        o.advance_to(cycles(2 * 1152 - 1));
        assert_eq!(o.status(), 0x00);
        o.advance_to(cycles(2 * 1152));
        assert_eq!(o.status(), 0xA0);
        reg(&mut o, 4, 0x80);
        // Reloaded: the next overflow is one period after the first.
        o.advance_to(cycles(4 * 1152 - 1));
        assert_eq!(o.status(), 0x00);
        o.advance_to(cycles(4 * 1152));
        assert_eq!(o.status(), 0xA0);
        // Masked, an overflow leaves no flag; stopped, nothing happens.
        reg(&mut o, 4, 0x80);
        reg(&mut o, 4, 0x22);
        o.advance_to(cycles(10 * 1152));
        assert_eq!(o.status(), 0x00);
        reg(&mut o, 4, 0x00);
        o.advance_to(cycles(20 * 1152));
        assert_eq!(o.status(), 0x00);
        assert_eq!(o.regs[4], 0x00);
        assert_eq!(o.regs[3], 0xFE);
    }

    /// A4 on channel 0: carrier alone (additive, modulator at full
    /// attenuation), both sides (OPL3 mode), sustained, block 4, F-number
    /// 244h (440 Hz at 49716 Hz).
    const A4: &[(u8, u8)] = &[
        (0x20, 0x01),
        (0x40, 0x3F),
        (0x60, 0xF0),
        (0x80, 0x77),
        (0x23, 0x21),
        (0x43, 0x00),
        (0x63, 0xF0),
        (0x83, 0x77),
        (0xC0, 0x31),
        (0xA0, 0x44),
    ];

    #[test]
    fn key_on_sounds_from_its_sample() {
        let mut o = Opl3::new(CPU);
        o.set_capture(true);
        for &(r, v) in A4 {
            reg(&mut o, r, v);
        }
        // Key on at sample 1000 (timer clock 72000).
        o.advance_to(cycles(1000 * CLOCKS_PER_SAMPLE));
        reg(&mut o, 0xB0, 0x32);
        let s = o.take_samples(cycles(2000 * CLOCKS_PER_SAMPLE));
        assert_eq!(s.len(), 2000);
        assert!(s[..1000].iter().all(|x| *x == [0, 0]), "silent before");
        // oplon's interpolation pipeline delays every write by 3 samples.
        assert!(s[1000..1008].iter().any(|x| x[0] != 0), "sounds after");
        assert!(
            s[1000..].iter().all(|x| x[0] == x[1]),
            "OPL2 mode: both sides"
        );
        // Zero crossings upward over the last 900 samples: 440 Hz.
        let up = s[1100..]
            .windows(2)
            .filter(|w| w[0][0] < 0 && w[1][0] >= 0)
            .count() as f64;
        let hz = up * SAMPLE_HZ as f64 / 900.0;
        assert!((hz - 440.0).abs() < 440.0 * 0.06, "{hz} Hz");
        assert_eq!(o.samples_rendered(), 2000);
    }

    #[test]
    fn bank1_registers_reach_the_synth_only() {
        let mut o = Opl3::new(CPU);
        o.write_index(true, 0x05);
        o.write_data(0x01);
        o.write_index(true, 0x04);
        o.write_data(0x3F);
        assert_eq!(o.regs[4], 0x00, "bank 1 04h is not the timer control");
        assert_eq!(o.regs[5], 0x00);
        assert_eq!(o.synth.regs[0x105], 0x01);
        assert!(o.synth.chip.opl3_enabled());
    }

    #[test]
    fn clone_and_save_state_rebuild_the_chip_from_its_registers() {
        let mut o = Opl3::new(CPU);
        for &(r, v) in A4 {
            reg(&mut o, r, v);
        }
        reg(&mut o, 0xB0, 0x32);
        o.write_index(true, 0x05);
        o.write_data(0x01);
        assert!(o.take_samples(cycles(500 * CLOCKS_PER_SAMPLE)).is_empty());
        let bytes = bincode::serialize(&o).expect("serialize");
        let r: Opl3 = bincode::deserialize(&bytes).expect("deserialize");
        for mut c in [o.clone(), r] {
            assert_eq!(c.synth.regs, o.synth.regs);
            assert!(c.synth.chip.opl3_enabled());
            c.set_capture(true);
            let s = c.take_samples(cycles(1500 * CLOCKS_PER_SAMPLE));
            assert_eq!(s.len(), 1000, "rendering resumes at sample 500");
            assert!(s.iter().any(|x| x[0] != 0), "the note sounds again");
        }
    }
}
