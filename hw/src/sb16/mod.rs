//! The Creative Sound Blaster 16 (CT1745 mixer, DSP 4.05) at base 220h,
//! 240h, 260h or 280h (Sound Blaster Series Hardware Programming Guide).
//!
//! Ports (offsets from the base): 0-3 and 8-9 the OPL3 (forwarded to
//! [`crate::opl3`], which the card brings along), 4/5 the mixer index and
//! data ([`mixer`]), 6 the DSP reset, Ah DSP read data, Ch DSP command and
//! write-buffer status (bit 7: busy), Eh read-buffer status (bit 7: data
//! waiting; the read acknowledges the 8-bit interrupt), Fh the 16-bit
//! interrupt acknowledge. The other offsets, and every offset of a base
//! that is not the configured one (or of a machine without the card), float
//! at FFh.
//!
//! Playback ([`playback`]) is timed from emulated time: one scheduler event
//! per frame (one sample, or a left-right pair), each fetching its units
//! from the 8237 when it plays (no FIFO); the block's last frame raises the
//! 8-bit or 16-bit interrupt at its own cycle. The DSP's output is a log of
//! level changes (cycle, stereo value after the mixer's voice, master and
//! output gains) kept while capturing ([`Sb16::set_capture`]).

pub mod dsp;
pub mod mixer;
pub mod playback;

use crate::error::Error;

use dsp::{Action, Dsp};
use mixer::{Effect, Mixer};
use playback::Playback;

/// The bases the card's jumpers offer.
pub const BASES: [u16; 4] = [0x220, 0x240, 0x260, 0x280];
/// The 8-bit DMA channels the card offers.
const DMA8: [u8; 3] = [0, 1, 3];
/// The 16-bit DMA channels the card offers.
const DMA16: [u8; 3] = [5, 6, 7];

/// How long a DSP reset takes before AAh can be read: 20 us (the guide
/// says "typically 100 us"; a program polls for it either way, and short
/// fixed delays in old detection code find the card with the shorter one).
const RESET_US: u64 = 20;

/// How often a pending E2h identification retries its DMA write.
const IDENTIFY_RETRY_US: u64 = 100;

/// The card's jumpers (and the mixer's 80h/81h, which a program may
/// change).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Sb16Config {
    /// The I/O base: 220h, 240h, 260h or 280h.
    pub base: u16,
    /// The interrupt: 2 (IRQ 9 on the AT), 5, 7 or 10.
    pub irq: u8,
    /// The 8-bit DMA channel: 0, 1 or 3.
    pub dma8: u8,
    /// The 16-bit DMA channel: 5, 6 or 7.
    pub dma16: u8,
}

impl Default for Sb16Config {
    /// Creative's factory setting: 220h, IRQ 5, DMA 1, HDMA 5.
    fn default() -> Self {
        Sb16Config {
            base: 0x220,
            irq: 5,
            dma8: 1,
            dma16: 5,
        }
    }
}

impl Sb16Config {
    /// Why this setting is not one the card offers, if it is not.
    pub fn check(&self) -> Result<(), Error> {
        if !BASES.contains(&self.base) {
            return Err(Error::Sb16Base(self.base));
        }
        if !mixer::IRQ_SELECT.contains(&self.irq) {
            return Err(Error::Sb16Irq(self.irq));
        }
        if !DMA8.contains(&self.dma8) {
            return Err(Error::Sb16Dma(self.dma8));
        }
        if !DMA16.contains(&self.dma16) {
            return Err(Error::Sb16Hdma(self.dma16));
        }
        Ok(())
    }

    /// The `BLASTER` environment value of this setting (`A220 I5 D1 H5
    /// T6`; T6 is the SB16), with `P330` when an MPU-401 is at `mpu`.
    pub fn blaster(&self, mpu: Option<u16>) -> String {
        let p = mpu.map(|p| format!(" P{p:X}")).unwrap_or_default();
        format!(
            "A{:X} I{} D{} H{}{p} T6",
            self.base, self.irq, self.dma8, self.dma16
        )
    }

    /// The PIC input of the card's interrupt (IRQ 2 is IRQ 9 on the AT).
    fn pic_line(&self) -> u8 {
        if self.irq == 2 {
            9
        } else {
            self.irq
        }
    }
}

/// The DSP's output, and the FM gain, as a listener hears them.
#[derive(Clone, Debug, Default)]
pub struct Output {
    /// Keep the level changes.
    capture: bool,
    /// Level changes not yet taken: (cycle, left/right).
    log: Vec<(u64, [i16; 2])>,
    /// FM gain changes not yet taken: (cycle, left/right in 1/32768ths).
    fm_log: Vec<(u64, [u32; 2])>,
    /// The FM gain last logged.
    fm_last: Option<[u32; 2]>,
}

/// The card's state (the hashed and saved part).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct State {
    /// Fitted ([`MachineConfig::sb16`](crate::MachineConfig::sb16) set).
    fitted: bool,
    /// The jumpers as now set (80h/81h may have changed IRQ and DMA).
    config: Sb16Config,
    cpu_hz: u64,
    dsp: Dsp,
    mixer: Mixer,
    /// The transfer in progress.
    play: Option<Playback>,
    /// Pending interrupts (mixer 82h): bit 0 8-bit DMA, bit 1 16-bit DMA
    /// (bit 2, the MPU-401's, is the MPU's own).
    irq_status: u8,
    /// The DAC's value before the mixer (left, right).
    raw: [i16; 2],
    /// E2h's byte waiting for the 8-bit DMA channel.
    identify: Option<u8>,
}

/// The Sound Blaster 16.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Sb16 {
    state: State,
    /// The level as heard (after the mixer).
    level: [i16; 2],
    #[serde(skip)]
    output: Output,
}

/// A card never touched hashes as nothing (a machine without one, or with
/// one no program used, hashes as before the card was modelled).
impl std::hash::Hash for Sb16 {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let fresh = State::new(
            self.state.fitted.then_some(self.state.config),
            self.state.cpu_hz,
        );
        if self.state != fresh {
            self.state.hash(h);
            self.level.hash(h);
        }
    }
}

impl State {
    fn new(config: Option<Sb16Config>, cpu_hz: u64) -> Self {
        State {
            fitted: config.is_some(),
            config: config.unwrap_or_default(),
            cpu_hz: cpu_hz.max(1),
            dsp: Dsp::new(),
            mixer: Mixer::new(),
            play: None,
            irq_status: 0,
            raw: [0; 2],
            identify: None,
        }
    }
}

impl Sb16 {
    /// A card configured as `config` (`None`: not fitted) on a CPU
    /// clocked at `cpu_hz`.
    pub fn new(config: Option<Sb16Config>, cpu_hz: u64) -> Self {
        Sb16 {
            state: State::new(config, cpu_hz),
            level: [0; 2],
            output: Output::default(),
        }
    }

    /// Whether the machine has the card.
    pub fn fitted(&self) -> bool {
        self.state.fitted
    }

    /// The jumpers as the card now has them.
    pub fn config(&self) -> Sb16Config {
        self.state.config
    }

    /// The mixer (its FM gain is for whoever renders the OPL3).
    pub fn mixer(&self) -> &Mixer {
        &self.state.mixer
    }

    /// The DSP.
    pub fn dsp(&self) -> &Dsp {
        &self.state.dsp
    }

    /// The transfer in progress.
    pub fn playback(&self) -> Option<&Playback> {
        self.state.play.as_ref()
    }

    /// The output level now (left, right), after the mixer.
    pub fn level(&self) -> [i16; 2] {
        self.level
    }

    /// Keeps (true) or drops (false, the default) the output's level
    /// changes; switching it off discards those not taken.
    pub fn set_capture(&mut self, on: bool) {
        self.output.capture = on;
        if !on {
            self.output.log.clear();
            self.output.fm_log.clear();
        }
    }

    /// The FM gain's changes since the last call while capturing: (cycle,
    /// left and right in 1/32768ths, [`Mixer::fm_gain`]), for the
    /// renderer of the OPL3, whose output passes the card's mixer.
    pub fn take_fm_gain(&mut self) -> Vec<(u64, [u32; 2])> {
        std::mem::take(&mut self.output.fm_log)
    }

    /// The level changes since the last call, in order: (cycle, left and
    /// right). The level holds from its cycle to the next change's.
    pub fn take_output(&mut self) -> Vec<(u64, [i16; 2])> {
        std::mem::take(&mut self.output.log)
    }

    /// The DAC takes `raw` at cycle `t`.
    fn dac(&mut self, t: u64, raw: [i16; 2]) {
        self.state.raw = raw;
        self.relevel(t);
    }

    /// The heard level and the FM gain follow the mixer at cycle `t`.
    fn remix(&mut self, t: u64) {
        self.relevel(t);
        let g = self.state.mixer.fm_gain();
        if self.output.fm_last != Some(g) {
            self.output.fm_last = Some(g);
            if self.output.capture {
                self.output.fm_log.push((t, g));
            }
        }
    }

    /// The heard level follows the DAC and the mixer at cycle `t`.
    fn relevel(&mut self, t: u64) {
        let g = self.state.mixer.voice_gain();
        let heard = [0, 1].map(|k| mixer::apply(self.state.raw[k], g[k]));
        if heard != self.level {
            self.level = heard;
            if self.output.capture {
                self.output.log.push((t, heard));
            }
        }
    }

    /// Reset delay and retry interval in cycles.
    fn micros(&self, us: u64) -> u64 {
        (self.state.cpu_hz * us).div_ceil(1_000_000)
    }

    /// Test hook of the registry ([`crate::device::Device::perturb`]): a
    /// DSP state a program could leave.
    pub(crate) fn perturb(&mut self) {
        self.state.dsp.perturb();
    }
}

/// The PC as the card sees it from its slot: the card itself, the lines
/// and chips it is wired to (the 8259A pair, the 8237's channels and their
/// DREQs, the OPL3 the card brings along, the MPU-401's interrupt that
/// mixer register 82h reports) and its scheduler event. The PC bus
/// implements it (`crate::cards`), so the card's model knows nothing of the
/// bus's other devices.
pub(crate) trait Slot {
    /// The card.
    fn card(&mut self) -> &mut Sb16;
    /// Drives input `line` (0-15) of the 8259A pair.
    fn set_irq(&mut self, line: u8, level: bool);
    /// The MPU-401's interrupt output.
    fn mpu_irq(&self) -> bool;
    /// Drives the DREQ of 8237 channel `ch`.
    fn set_dreq(&mut self, ch: usize, level: bool);
    /// Bytes per unit of 8237 channel `ch` (1 on DMA1, 2 on DMA2).
    fn dma_width(ch: usize) -> u32;
    /// Writes `bytes` to memory through channel `ch` when it can take a
    /// device-to-memory transfer now (true); nothing otherwise (false).
    fn dma_write(&mut self, ch: usize, bytes: &[u8]) -> bool;
    /// Reads up to `units` units from memory through channel `ch`,
    /// appending their bytes to `out`; the units read.
    fn dma_read(&mut self, ch: usize, units: u32, out: &mut Vec<u8>) -> u32;
    /// A read of the OPL3's status port at cycle `now`.
    fn opl_status(&mut self, now: u64) -> u8;
    /// A write of the OPL3's port at `offset` (0-3) at cycle `now`.
    fn opl_write(&mut self, offset: u16, v: u8, now: u64);
    /// Sets (or with `None` clears) the card's scheduler event.
    fn schedule(&mut self, at: Option<u64>);
    /// Records a port the card claims but does not decode.
    fn unhandled(&mut self, port: u16);
}

/// Drives the card's interrupt line from its pending interrupts.
fn drive_irq<S: Slot>(bus: &mut S) {
    let sb = &bus.card().state;
    let (line, on) = (sb.config.pic_line(), sb.irq_status & 3 != 0);
    bus.set_irq(line, on);
}

/// Sets (`on`) or acknowledges the 8-bit (`bit` 1) or 16-bit (2)
/// interrupt.
fn interrupt<S: Slot>(bus: &mut S, bit: u8, on: bool) {
    let s = &mut bus.card().state.irq_status;
    let was = *s;
    if on {
        *s |= bit;
    } else {
        *s &= !bit;
    }
    if *s != was {
        drive_irq(bus);
    }
}

/// Sets the card's event to the earlier of the next frame and the E2h
/// retry.
fn reschedule<S: Slot>(bus: &mut S, now: u64) {
    let sb = bus.card();
    let frame = sb
        .state
        .play
        .as_ref()
        .and_then(|p| p.next_frame(sb.state.cpu_hz));
    let retry = sb
        .state
        .identify
        .map(|_| now + sb.micros(IDENTIFY_RETRY_US));
    let due = [frame, retry].into_iter().flatten().min();
    bus.schedule(due);
}

/// Writes E2h's byte through the 8-bit channel when it can.
fn try_identify<S: Slot>(bus: &mut S) {
    let Some(v) = bus.card().state.identify else {
        return;
    };
    let ch = bus.card().state.config.dma8 as usize;
    if bus.dma_write(ch, &[v]) {
        bus.card().state.identify = None;
    }
}

/// Carries out what a DSP command asked for, at cycle `now`.
fn act<S: Slot>(bus: &mut S, a: Action, now: u64) {
    let sb = bus.card();
    match a {
        Action::Start(mode) => {
            let rate = sb.state.dsp.rate;
            sb.state.play = Some(Playback::new(mode, rate, now));
        }
        Action::Silence(n) => sb.state.play = Some(Playback::silence(n, sb.state.dsp.rate, now)),
        Action::Pause(bits16) | Action::Continue(bits16) | Action::ExitAuto(bits16) => {
            if let Some(p) = sb.state.play.as_mut().filter(|p| p.mode.bits16 == bits16) {
                match a {
                    Action::Pause(_) => p.pause(),
                    Action::Continue(_) => p.resume(now),
                    _ => p.exit_auto = true,
                }
            }
        }
        Action::Dac(v) => sb.dac(now, [playback::unsigned8(v); 2]),
        Action::Irq(bits16) => interrupt(bus, 1 << bits16 as u8, true),
        Action::Identify(v) => {
            sb.state.identify = Some(v);
            try_identify(bus);
        }
        Action::Rate => {
            let rate = sb.state.dsp.rate;
            if let Some(p) = sb.state.play.as_mut() {
                p.set_rate(rate, now, sb.state.cpu_hz);
            }
        }
    }
    drive_dreq(bus);
    reschedule(bus, now);
}

/// The DREQ of the transfer's channel while it runs (unpaused), the other
/// channel's released (they may be one channel: 81h without a 16-bit one).
fn drive_dreq<S: Slot>(bus: &mut S) {
    let sb = &bus.card().state;
    let cfg = sb.config;
    let active = sb.play.as_ref().filter(|p| !p.paused);
    let ch = active.map(|p| if p.mode.bits16 { cfg.dma16 } else { cfg.dma8 });
    for c in [cfg.dma8, cfg.dma16] {
        bus.set_dreq(c as usize, false);
    }
    if let Some(c) = ch {
        bus.set_dreq(c as usize, true);
    }
}

/// The frame due at `t`: fetched from the 8237, heard, and counted down
/// to the block's end.
fn play_frame<S: Slot>(bus: &mut S, t: u64) {
    let cfg = bus.card().state.config;
    let Some(mut p) = bus.card().state.play.take() else {
        return;
    };
    let ch = if p.mode.bits16 { cfg.dma16 } else { cfg.dma8 } as usize;
    let frame = p.fetch(bus, ch);
    if let Some(v) = frame {
        bus.card().dac(t, v);
    }
    let end = p.advance(frame.is_some());
    let bits16 = p.mode.bits16;
    if end {
        if p.mode.high_speed {
            bus.card().state.dsp.end_high_speed();
        }
        if p.mode.auto && !p.exit_auto {
            p.restart_block();
        } else {
            bus.card().state.play = None;
            drive_dreq(bus);
            interrupt(bus, 1 << bits16 as u8, true);
            return;
        }
    }
    bus.card().state.play = Some(p);
    if end {
        interrupt(bus, 1 << bits16 as u8, true);
    }
}

/// The card's port at `offset` from the configured base is read.
fn read_port<S: Slot>(bus: &mut S, offset: u16, port: u16, now: u64) -> u8 {
    match offset {
        0x0 | 0x2 | 0x8 => bus.opl_status(now),
        0x5 => {
            // 82h bit 2: the MPU-401's interrupt (a byte waits).
            let mpu = (bus.mpu_irq() as u8) << 2;
            let sb = &bus.card().state;
            let c = sb.config;
            sb.mixer.read(c.irq, c.dma8, c.dma16, sb.irq_status | mpu)
        }
        0xA => bus.card().state.dsp.read_data(now),
        0xC => {
            if bus.card().state.dsp.busy(now) {
                0xFF
            } else {
                0x7F
            }
        }
        0xE | 0xF => {
            let v = ((bus.card().state.dsp.data_ready(now) as u8) << 7) | 0x7F;
            interrupt(bus, if offset == 0xE { 1 } else { 2 }, false);
            v
        }
        0x4 => bus.card().state.mixer.index,
        _ => {
            bus.unhandled(port);
            0xFF
        }
    }
}

/// The card's port at `offset` from the configured base is written.
fn write_port<S: Slot>(bus: &mut S, offset: u16, port: u16, v: u8, now: u64) {
    match offset {
        0x0..=0x3 | 0x8 | 0x9 => bus.opl_write(offset & 3, v, now),
        0x4 => bus.card().state.mixer.index = v,
        0x5 => match bus.card().state.mixer.write(v) {
            Effect::Levels => bus.card().remix(now),
            Effect::Irq(irq) => {
                let line = bus.card().state.config.pic_line();
                bus.set_irq(line, false);
                bus.card().state.config.irq = irq;
                drive_irq(bus);
            }
            Effect::Dma(d8, d16) => {
                let c = &mut bus.card().state.config;
                c.dma8 = d8;
                c.dma16 = d16;
            }
        },
        0x6 => {
            let sb = bus.card();
            let delay = sb.micros(RESET_US);
            if sb.state.dsp.write_reset(v, now, delay) {
                sb.state.play = None;
                act_none(bus, now);
            }
        }
        0xC => {
            let sb = bus.card();
            let stereo = sb.state.mixer.pro_stereo();
            if let Some(a) = sb.state.dsp.write(v, stereo) {
                act(bus, a, now);
            }
        }
        _ => bus.unhandled(port),
    }
}

/// After a reset: no transfer, DREQs released.
fn act_none<S: Slot>(bus: &mut S, now: u64) {
    bus.card().state.identify = None;
    drive_dreq(bus);
    reschedule(bus, now);
}

/// The port's offset from the configured base, when the card is fitted
/// and decodes it.
fn decode<S: Slot>(bus: &mut S, port: u16) -> Option<u16> {
    let sb = &bus.card().state;
    let off = port.wrapping_sub(sb.config.base);
    (sb.fitted && off < 0x10).then_some(off)
}

/// A read of one of the card's ports at cycle `now`: the configured base's
/// decoded ports answer, the others float (FFh).
pub(crate) fn read<S: Slot>(bus: &mut S, port: u16, now: u64) -> u8 {
    match decode(bus, port) {
        Some(off) => read_port(bus, off, port, now),
        None => {
            bus.unhandled(port);
            0xFF
        }
    }
}

/// A write of one of the card's ports at cycle `now`.
pub(crate) fn write<S: Slot>(bus: &mut S, port: u16, v: u8, now: u64) {
    match decode(bus, port) {
        Some(off) => write_port(bus, off, port, v, now),
        None => bus.unhandled(port),
    }
}

/// The card's event at cycle `t`: the pending E2h write, then every frame
/// due by `t`.
pub(crate) fn fire<S: Slot>(bus: &mut S, t: u64) {
    try_identify(bus);
    let cpu_hz = bus.card().state.cpu_hz;
    while let Some(next) = bus
        .card()
        .state
        .play
        .as_ref()
        .and_then(|p| p.next_frame(cpu_hz))
    {
        if next > t {
            break;
        }
        play_frame(bus, next);
    }
    reschedule(bus, t);
}

#[cfg(test)]
mod tests;
