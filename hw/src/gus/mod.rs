//! The Gravis UltraSound: its GF1 synthesizer with 1 MiB of DRAM
//! (UltraSound Lowlevel ToolKit, the GF1 hardware reference).
//!
//! Ports, from the base 2X0h (210h-260h): 2X0 mix control (bit 6 selects
//! what 2XB sets), 2X6 interrupt status, 2X8/2X9 the AdLib-compatible
//! timer control and data ([`timer`]), 2XB the interrupt and DMA latches;
//! 3X2 voice select, 3X3 register select, 3X4/3X5 register data (low,
//! high: a write takes effect with its high byte, an 8-bit register is
//! the high byte), 3X7 DRAM peek and poke at the address of 43h/44h. The
//! MIDI UART (3X0/3X1), the board-revision register 2XF, sampling
//! (49h: the bits are kept, nothing is recorded) and the AdLib
//! emulation of 2X8/2X9 are not modelled.
//!
//! The GF1 computes one frame of every active voice ([`voice`], 14-32
//! voices, 0Eh) at 617400/N Hz ([`frame_rate`]: 44100 Hz with 14, 19293
//! with 32) from emulated time, lazily: a port access, the card's event or
//! the card's event first runs the frames due. The event is set to the
//! next wave or ramp interrupt, timer overflow or DMA chunk ([`dma`]), so
//! interrupts come at their emulated time, and while a voice sounds at
//! least every [`FLUSH_US`], so its frames are in the output log in time
//! for the output stage (which hears 1 ms behind the present) and the
//! card's state at any cycle does not depend on who listens. While no
//! voice or ramp runs, a frame costs nothing but its output sample.
//! A stopped voice is silent (its held sample is not heard).

pub mod dma;
pub mod regs;
pub mod timer;
pub mod voice;

use crate::error::Error;
use crate::scheduler::ClockRatio;
use timer::Timer;
use voice::Voice;

/// The bases the card's jumpers offer.
pub const BASES: [u16; 6] = [0x210, 0x220, 0x230, 0x240, 0x250, 0x260];
/// The interrupts of the GF1's latch (2XB, index 1-7; 0 is none).
pub const IRQS: [u8; 8] = [0, 2, 5, 3, 7, 11, 12, 15];
/// The DMA channels of the GF1's latch (index 1-5; 0 is none).
pub const DMAS: [u8; 6] = [0, 1, 3, 5, 6, 7];
/// The DRAM fitted: 1 MiB.
pub const DRAM_BYTES: usize = 1 << 20;
/// The GF1's frame clock: 617400 Hz divided by the active voices.
pub const CLOCK_HZ: u64 = 617_400;
/// The longest the card goes without running its frames while a voice
/// sounds: half a millisecond.
pub const FLUSH_US: u64 = 500;

/// The frame rate with `voices` active voices (14-32): 617400/N Hz, the
/// ToolKit's table (44100 Hz with 14, 19293 Hz with 32).
pub fn frame_rate(voices: u8) -> u64 {
    CLOCK_HZ / u64::from(voices.clamp(14, 32))
}

/// The card's jumpers and what ULTRINIT programs into its latches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct GusConfig {
    /// The I/O base: 210h-260h.
    pub base: u16,
    /// The playback (and upload) DMA channel: 1, 3, 5, 6 or 7.
    pub dma: u8,
    /// The sampling DMA channel (the `ULTRASND` variable's second).
    pub record_dma: u8,
    /// The GF1's interrupt: 2, 3, 5, 7, 11, 12 or 15.
    pub irq: u8,
    /// The MIDI UART's interrupt (the variable's fifth).
    pub midi_irq: u8,
}

impl Default for GusConfig {
    /// 240h, DMA 3, IRQ 11 for both channels: clear of the Sound Blaster
    /// 16's 220h, IRQ 5, DMA 1 and 5.
    fn default() -> Self {
        GusConfig {
            base: 0x240,
            dma: 3,
            record_dma: 3,
            irq: 11,
            midi_irq: 11,
        }
    }
}

impl GusConfig {
    /// Why this setting is not one the card offers, if it is not.
    pub fn check(&self) -> Result<(), Error> {
        if !BASES.contains(&self.base) {
            return Err(Error::GusBase(self.base));
        }
        for d in [self.dma, self.record_dma] {
            if d == 0 || !DMAS.contains(&d) {
                return Err(Error::GusDma(d));
            }
        }
        for i in [self.irq, self.midi_irq] {
            if i == 0 || !IRQS.contains(&i) {
                return Err(Error::GusIrq(i));
            }
        }
        Ok(())
    }

    /// The `ULTRASND` value: base, playback DMA, sampling DMA, GF1 IRQ,
    /// MIDI IRQ (`240,3,3,11,11`).
    pub fn ultrasnd(&self) -> String {
        format!(
            "{:X},{},{},{},{}",
            self.base, self.dma, self.record_dma, self.irq, self.midi_irq
        )
    }

    /// The 2XB latch values (interrupt, DMA) of this setting, both
    /// channels combined when they are the same.
    fn latches(&self) -> (u8, u8) {
        let idx = |t: &[u8], v: u8| t.iter().position(|&x| x == v).unwrap_or(0) as u8;
        let irq = match self.midi_irq == self.irq {
            true => idx(&IRQS, self.irq) | 0x40,
            false => idx(&IRQS, self.irq) | idx(&IRQS, self.midi_irq) << 3,
        };
        let dma = match self.record_dma == self.dma {
            true => idx(&DMAS, self.dma) | 0x40,
            false => idx(&DMAS, self.dma) | idx(&DMAS, self.record_dma) << 3,
        };
        (irq, dma)
    }
}

/// The card's output, as a listener hears it.
#[derive(Clone, Debug, Default)]
struct Output {
    capture: bool,
    /// Frames not yet taken: (cycle, left/right).
    log: Vec<(u64, [i16; 2])>,
}

/// The card's state (the hashed and saved part).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct State {
    /// Fitted ([`MachineConfig::gus`](crate::MachineConfig::gus) set).
    fitted: bool,
    /// A program has reached the card (until then it hashes as nothing).
    touched: bool,
    config: GusConfig,
    cpu_hz: u64,
    /// The on-board DRAM (empty without the card).
    dram: Vec<u8>,
    voices: Vec<Voice>,
    /// 3X2, 3X3 and the low byte written to 3X4.
    voice_select: u8,
    register_select: u8,
    data_low: u8,
    /// Active voices (0Eh): 14-32.
    active: u8,
    /// 4Ch: bit 0 run (0: master reset), 1 DAC enable, 2 master IRQ enable.
    reset: u8,
    /// 2X0.
    mix: u8,
    /// 2XB's interrupt and DMA latches.
    irq_latch: u8,
    dma_latch: u8,
    /// 43h/44h: the 20-bit address of 3X7.
    dram_address: u32,
    /// 49h and 48h, kept.
    sampling: u8,
    sample_rate: u8,
    /// 45h, and 2X8's register index.
    timer_control: u8,
    adlib_index: u8,
    timers: [Timer; 2],
    /// Pending wave and ramp interrupts, a bit per voice.
    wave_irq: u32,
    ramp_irq: u32,
    dma: dma::Dma,
    /// The frame clock: frames run since cycle `epoch` at the rate of
    /// `active` voices.
    epoch: u64,
    frames: u64,
    /// The PIC input driven high now.
    line: Option<u8>,
    /// A voice ran or ramped in the last frame run.
    sounding: bool,
}

/// The Gravis UltraSound.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Gus {
    state: State,
    #[serde(skip)]
    output: Output,
}

/// A card no program reached hashes as nothing (a machine without one,
/// or with one never used, hashes as before the card was modelled).
impl std::hash::Hash for Gus {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        if self.state.touched {
            self.state.hash(h);
        }
    }
}

impl Gus {
    /// A card configured as `config` (`None`: not fitted) on a CPU
    /// clocked at `cpu_hz`, its latches as ULTRINIT leaves them: out of
    /// reset, DAC and interrupts enabled, 14 voices, all stopped.
    pub fn new(config: Option<GusConfig>, cpu_hz: u64) -> Self {
        let cfg = config.unwrap_or_default();
        let (irq_latch, dma_latch) = cfg.latches();
        Gus {
            state: State {
                fitted: config.is_some(),
                touched: false,
                config: cfg,
                cpu_hz: cpu_hz.max(1),
                dram: if config.is_some() {
                    vec![0; DRAM_BYTES]
                } else {
                    Vec::new()
                },
                voices: vec![Voice::default(); 32],
                voice_select: 0,
                register_select: 0,
                data_low: 0,
                active: 14,
                reset: 0x07,
                mix: 0x09,
                irq_latch,
                dma_latch,
                dram_address: 0,
                sampling: 0,
                sample_rate: 0,
                timer_control: 0,
                adlib_index: 0,
                timers: Default::default(),
                wave_irq: 0,
                ramp_irq: 0,
                dma: dma::Dma::default(),
                epoch: 0,
                frames: 0,
                line: None,
                sounding: false,
            },
            output: Output::default(),
        }
    }

    /// Whether the machine has the card.
    pub fn fitted(&self) -> bool {
        self.state.fitted
    }

    /// The jumpers.
    pub fn config(&self) -> GusConfig {
        self.state.config
    }

    /// Voice `n` (0-31).
    pub fn voice(&self, n: usize) -> &Voice {
        &self.state.voices[n & 31]
    }

    /// The active voices (14-32).
    pub fn active_voices(&self) -> u8 {
        self.state.active
    }

    /// The frame rate now: 617400/N Hz for N active voices.
    pub fn frame_rate(&self) -> u64 {
        frame_rate(self.state.active)
    }

    /// The DRAM byte at `addr` (20 bits).
    pub fn peek(&self, addr: u32) -> u8 {
        let a = addr as usize & (DRAM_BYTES - 1);
        self.state.dram.get(a).copied().unwrap_or(0)
    }

    /// Whether the card answers `port` (fitted, and the port one of its
    /// base's).
    pub fn decodes(&self, port: u16) -> bool {
        self.state.fitted && offset(self.state.config.base, port).is_some()
    }

    /// Keeps (true) or drops (false, the default) the frames the card
    /// plays, for [`Gus::take_output`].
    pub fn set_capture(&mut self, on: bool) {
        self.output.capture = on;
        if !on {
            self.output.log.clear();
        }
    }

    /// The frames played since the last call while capturing: (cycle,
    /// left and right), in order; while a voice sounds, every frame up to
    /// [`FLUSH_US`] before the present.
    pub fn take_output(&mut self) -> Vec<(u64, [i16; 2])> {
        std::mem::take(&mut self.output.log)
    }

    fn ratio(&self) -> ClockRatio {
        ClockRatio::new(frame_rate(self.state.active), self.state.cpu_hz)
    }

    /// Cycles of `us` microseconds.
    fn micros(&self, us: u64) -> u64 {
        (self.state.cpu_hz * us).div_ceil(1_000_000)
    }

    /// Runs every frame and timer overflow due by cycle `now`.
    fn run_to(&mut self, now: u64) {
        let ticks = TICKS.map(|us| self.micros(us));
        for (t, tick) in self.state.timers.iter_mut().zip(ticks) {
            t.advance(now, tick);
        }
        let ratio = self.ratio();
        let target = ratio.ticks_at(now.saturating_sub(self.state.epoch));
        while self.state.frames < target {
            self.state.frames += 1;
            let at = self.state.epoch + ratio.cycle_of_tick(self.state.frames);
            self.frame(at);
        }
    }

    /// Moves the frame clock's origin to `now` (after running to it),
    /// before a change of the frame rate.
    fn rebase(&mut self, now: u64) {
        self.run_to(now);
        self.state.epoch = now;
        self.state.frames = 0;
    }

    /// One frame at cycle `at`: every active voice steps and is summed.
    fn frame(&mut self, at: u64) {
        let s = &mut self.state;
        let mut sum = [0i32; 2];
        s.sounding = false;
        if s.reset & 1 != 0 {
            for (n, v) in s.voices.iter_mut().take(usize::from(s.active)).enumerate() {
                if !v.running() && !v.ramping() {
                    continue;
                }
                s.sounding = true;
                if v.running() {
                    let o = v.output(&s.dram);
                    sum[0] += o[0];
                    sum[1] += o[1];
                }
                let raised = v.step();
                s.wave_irq |= (raised.wave as u32) << n;
                s.ramp_irq |= (raised.ramp as u32) << n;
            }
        }
        if self.output.capture {
            let heard = s.reset & 2 != 0 && s.mix & 2 == 0;
            let v = sum.map(|x| {
                if heard {
                    x.clamp(-32768, 32767) as i16
                } else {
                    0
                }
            });
            self.output.log.push((at, v));
        }
    }

    /// The cycle of the next wave or ramp interrupt of an active voice.
    fn next_voice_irq(&self) -> Option<u64> {
        let s = &self.state;
        if s.reset & 1 == 0 {
            return None;
        }
        let frames = s.voices[..usize::from(s.active)]
            .iter()
            .flat_map(|v| [v.frames_to_wave_irq(), v.frames_to_ramp_irq()])
            .flatten()
            .min()?;
        Some(s.epoch + self.ratio().cycle_of_tick(s.frames + frames))
    }

    /// Whether the GF1 asks for its interrupt.
    fn irq_pending(&self) -> bool {
        let s = &self.state;
        let timers = s.timers.iter().any(|t| t.irq);
        s.wave_irq | s.ramp_irq != 0 || timers || s.dma.tc_pending
    }

    /// The PIC input of the GF1's interrupt as the latch sets it (IRQ 2
    /// is IRQ 9 on the AT).
    fn pic_line(&self) -> Option<u8> {
        match IRQS[usize::from(self.state.irq_latch & 7)] {
            0 => None,
            2 => Some(9),
            n => Some(n),
        }
    }

    /// The DMA channel of the GF1's latch.
    fn dma_channel(&self) -> Option<usize> {
        let c = DMAS.get(usize::from(self.state.dma_latch & 7)).copied();
        c.filter(|&c| c != 0).map(usize::from)
    }

    /// Test hook of the registry ([`crate::device::Device::perturb`]): a
    /// byte poked into DRAM.
    pub(crate) fn perturb(&mut self) {
        self.state.touched = true;
        self.state.dram_address = 0x1234;
        self.state.voices[3].pan = 2;
    }
}

/// The timers' tick lengths in microseconds.
const TICKS: [u64; 2] = timer::TICK_US;

/// The offset of `port` from `base` among the ports the card decodes:
/// 0-Fh for 2X0-2XF, 102h-107h for 3X2-3X7.
fn offset(base: u16, port: u16) -> Option<u16> {
    let off = port.wrapping_sub(base);
    match off {
        0x0 | 0x6 | 0x8 | 0x9 | 0xB | 0xF | 0x102..=0x107 => Some(off),
        _ => None,
    }
}

/// The PC as the card sees it from its slot: the card, the 8259A pair,
/// the 8237's channels and their DREQs, and its scheduler event. The PC
/// bus implements it (`crate::cards`).
pub(crate) trait Slot {
    /// The card.
    fn card(&mut self) -> &mut Gus;
    /// Drives input `line` (0-15) of the 8259A pair.
    fn set_irq(&mut self, line: u8, level: bool);
    /// Drives the DREQ of 8237 channel `ch`.
    fn set_dreq(&mut self, ch: usize, level: bool);
    /// Bytes per unit of 8237 channel `ch`.
    fn dma_width(ch: usize) -> u32;
    /// Reads up to `units` units from memory through channel `ch` into
    /// `out`: the units moved and whether the channel reached its count.
    fn dma_read(&mut self, ch: usize, units: u32, out: &mut Vec<u8>) -> (u32, bool);
    /// Writes `bytes` to memory through channel `ch`: the units moved and
    /// whether the channel reached its count.
    fn dma_write(&mut self, ch: usize, bytes: &[u8]) -> (u32, bool);
    /// Sets (or with `None` clears) the card's scheduler event.
    fn schedule(&mut self, at: Option<u64>);
    /// Records a port the card claims but does not decode.
    fn unhandled(&mut self, port: u16);
}

/// Drives the GF1's interrupt line: pending, the master enable (4Ch bit
/// 2) and the latches enabled (2X0 bit 3).
fn drive_irq<S: Slot>(bus: &mut S) {
    let g = bus.card();
    let on = g.irq_pending() && g.state.reset & 4 != 0 && g.state.mix & 8 != 0;
    let want = g.pic_line().filter(|_| on);
    let was = g.state.line;
    if want != was {
        g.state.line = want;
        if let Some(l) = was {
            bus.set_irq(l, false);
        }
        if let Some(l) = want {
            bus.set_irq(l, true);
        }
    }
}

/// Sets the card's event to the earliest of what it waits for, `now`
/// being the present cycle.
fn reschedule<S: Slot>(bus: &mut S, now: u64) {
    let g = bus.card();
    let timers = g.state.timers.iter().filter_map(Timer::next_irq);
    let flush = g.state.sounding.then(|| now + g.micros(FLUSH_US));
    let due = timers
        .chain(g.next_voice_irq())
        .chain(g.state.dma.next)
        .chain(flush)
        .min();
    bus.schedule(due);
}

/// Runs the card to cycle `now` and drives its interrupt line.
fn catch_up<S: Slot>(bus: &mut S, now: u64) {
    bus.card().run_to(now);
    drive_irq(bus);
}

/// A read of one of the card's ports at cycle `now` (a base that is not
/// the configured one, or a machine without the card, floats at FFh).
pub(crate) fn read<S: Slot>(bus: &mut S, port: u16, now: u64) -> u8 {
    let g = bus.card();
    let Some(off) = offset(g.state.config.base, port).filter(|_| g.state.fitted) else {
        bus.unhandled(port);
        return 0xFF;
    };
    g.state.touched = true;
    catch_up(bus, now);
    let v = regs::read_port(bus, off, now);
    drive_irq(bus);
    mark_sounding(bus);
    reschedule(bus, now);
    v
}

/// A write of one of the card's ports at cycle `now`.
pub(crate) fn write<S: Slot>(bus: &mut S, port: u16, v: u8, now: u64) {
    let g = bus.card();
    let Some(off) = offset(g.state.config.base, port).filter(|_| g.state.fitted) else {
        bus.unhandled(port);
        return;
    };
    g.state.touched = true;
    catch_up(bus, now);
    regs::write_port(bus, off, v, now);
    drive_irq(bus);
    mark_sounding(bus);
    reschedule(bus, now);
}

/// The card's event at cycle `t`: frames and timers to `t`, a DMA chunk
/// when one is due.
pub(crate) fn fire<S: Slot>(bus: &mut S, t: u64) {
    catch_up(bus, t);
    if bus.card().state.dma.next.is_some_and(|n| n <= t) {
        dma::chunk(bus, t);
    }
    drive_irq(bus);
    mark_sounding(bus);
    reschedule(bus, t);
}

/// A voice started by a write sounds from now: the flush event runs
/// (the last frame's `sounding` does not know of it yet).
fn mark_sounding<S: Slot>(bus: &mut S) {
    let s = &mut bus.card().state;
    let busy = s.voices[..usize::from(s.active)]
        .iter()
        .any(|v| v.running() || v.ramping());
    s.sounding |= busy && s.reset & 1 != 0;
}

#[cfg(test)]
mod tests;
