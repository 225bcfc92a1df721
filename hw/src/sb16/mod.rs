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

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};
use crate::dma8237::TransferType;
use crate::scheduler::Event;

use dsp::{Action, Dsp};
use mixer::{Effect, Mixer};
use playback::Playback;

/// The bases the card's jumpers offer.
pub const BASES: [u16; 4] = [0x220, 0x240, 0x260, 0x280];

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
    pub fn check(&self) -> Result<(), String> {
        if !BASES.contains(&self.base) {
            return Err(format!("SB16 base {:X}h: 220, 240, 260 or 280", self.base));
        }
        if !mixer::IRQ_SELECT.contains(&self.irq) {
            return Err(format!("SB16 IRQ {}: 2, 5, 7 or 10", self.irq));
        }
        if ![0, 1, 3].contains(&self.dma8) {
            return Err(format!("SB16 DMA {}: 0, 1 or 3", self.dma8));
        }
        if ![5, 6, 7].contains(&self.dma16) {
            return Err(format!("SB16 HDMA {}: 5, 6 or 7", self.dma16));
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
    /// Fitted ([`MachineConfig::sb16`] set).
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
}

/// Drives the card's interrupt line from its pending interrupts.
fn drive_irq(bus: &mut PcBus) {
    let sb = &bus.dev.sb16.state;
    let (line, on) = (sb.config.pic_line(), sb.irq_status & 3 != 0);
    bus.dev.pics.set_irq(line, on);
}

/// Sets (`on`) or acknowledges the 8-bit (`bit` 1) or 16-bit (2)
/// interrupt.
fn interrupt(bus: &mut PcBus, bit: u8, on: bool) {
    let s = &mut bus.dev.sb16.state.irq_status;
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
fn reschedule(bus: &mut PcBus, now: u64) {
    let sb = &bus.dev.sb16;
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
    bus.sched.set(Event::Sb16, due);
}

/// Writes E2h's byte through the 8-bit channel when it can.
fn try_identify(bus: &mut PcBus) {
    let Some(v) = bus.dev.sb16.state.identify else {
        return;
    };
    let ch = bus.dev.sb16.state.config.dma8 as usize;
    if bus.dev.dma.can_transfer(ch, TransferType::Write) {
        bus.dev.dma.transfer_write(ch, &mut bus.mem, &[v]);
        bus.dev.sb16.state.identify = None;
    }
}

/// Carries out what a DSP command asked for, at cycle `now`.
fn act(bus: &mut PcBus, a: Action, now: u64) {
    let sb = &mut bus.dev.sb16;
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
fn drive_dreq(bus: &mut PcBus) {
    let sb = &bus.dev.sb16.state;
    let cfg = sb.config;
    let active = sb.play.as_ref().filter(|p| !p.paused);
    let ch = active.map(|p| if p.mode.bits16 { cfg.dma16 } else { cfg.dma8 });
    for c in [cfg.dma8, cfg.dma16] {
        bus.dev.dma.set_dreq(c as usize, false);
    }
    if let Some(c) = ch {
        bus.dev.dma.set_dreq(c as usize, true);
    }
}

/// The frame due at `t`: fetched from the 8237, heard, and counted down
/// to the block's end.
fn play_frame(bus: &mut PcBus, t: u64) {
    let cfg = bus.dev.sb16.state.config;
    let Some(mut p) = bus.dev.sb16.state.play.take() else {
        return;
    };
    let ch = if p.mode.bits16 { cfg.dma16 } else { cfg.dma8 } as usize;
    let frame = p.fetch(&mut bus.dev.dma, &bus.mem, ch);
    if let Some(v) = frame {
        bus.dev.sb16.dac(t, v);
    }
    let end = p.advance(frame.is_some());
    let bits16 = p.mode.bits16;
    if end {
        if p.mode.high_speed {
            bus.dev.sb16.state.dsp.end_high_speed();
        }
        if p.mode.auto && !p.exit_auto {
            p.restart_block();
        } else {
            bus.dev.sb16.state.play = None;
            drive_dreq(bus);
            interrupt(bus, 1 << bits16 as u8, true);
            return;
        }
    }
    bus.dev.sb16.state.play = Some(p);
    if end {
        interrupt(bus, 1 << bits16 as u8, true);
    }
}

/// The card's port at `offset` from the configured base is read.
fn read_port(bus: &mut PcBus, offset: u16, port: u16, now: u64) -> u8 {
    let sb = &mut bus.dev.sb16.state;
    match offset {
        0x0 | 0x2 | 0x8 => crate::opl3::read_status(bus, now),
        0x5 => {
            let c = sb.config;
            // 82h bit 2: the MPU-401's interrupt (a byte waits).
            let mpu = (bus.dev.mpu.irq_level() as u8) << 2;
            let sb = &bus.dev.sb16.state;
            sb.mixer.read(c.irq, c.dma8, c.dma16, sb.irq_status | mpu)
        }
        0xA => sb.dsp.read_data(now),
        0xC => {
            if sb.dsp.busy(now) {
                0xFF
            } else {
                0x7F
            }
        }
        0xE | 0xF => {
            let v = ((sb.dsp.data_ready(now) as u8) << 7) | 0x7F;
            interrupt(bus, if offset == 0xE { 1 } else { 2 }, false);
            v
        }
        0x4 => sb.mixer.index,
        _ => {
            bus.note_unhandled(port);
            0xFF
        }
    }
}

/// The card's port at `offset` from the configured base is written.
fn write_port(bus: &mut PcBus, offset: u16, port: u16, v: u8, now: u64) {
    let sb = &mut bus.dev.sb16;
    match offset {
        0x0..=0x3 | 0x8 | 0x9 => crate::opl3::write_port(bus, offset & 3, v, now),
        0x4 => sb.state.mixer.index = v,
        0x5 => match sb.state.mixer.write(v) {
            Effect::Levels => sb.remix(now),
            Effect::Irq(irq) => {
                bus.dev.pics.set_irq(sb.state.config.pic_line(), false);
                bus.dev.sb16.state.config.irq = irq;
                drive_irq(bus);
            }
            Effect::Dma(d8, d16) => {
                sb.state.config.dma8 = d8;
                sb.state.config.dma16 = d16;
            }
        },
        0x6 => {
            let delay = sb.micros(RESET_US);
            if sb.state.dsp.write_reset(v, now, delay) {
                sb.state.play = None;
                act_none(bus, now);
            }
        }
        0xC => {
            let stereo = sb.state.mixer.pro_stereo();
            if let Some(a) = sb.state.dsp.write(v, stereo) {
                act(bus, a, now);
            }
        }
        _ => bus.note_unhandled(port),
    }
}

/// After a reset: no transfer, DREQs released.
fn act_none(bus: &mut PcBus, now: u64) {
    bus.dev.sb16.state.identify = None;
    drive_dreq(bus);
    reschedule(bus, now);
}

/// The port's offset from the configured base, when the card is fitted
/// and decodes it.
fn decode(bus: &PcBus, port: u16) -> Option<u16> {
    let sb = &bus.dev.sb16.state;
    let off = port.wrapping_sub(sb.config.base);
    (sb.fitted && off < 0x10).then_some(off)
}

impl Device for Sb16 {
    const NAME: &'static str = "Sound Blaster 16";
    const PORTS: &'static [Ports] = &[0x220..=0x22F, 0x240..=0x24F, 0x260..=0x26F, 0x280..=0x28F];
    const EVENTS: &'static [Event] = &[Event::Sb16];

    fn power_on(config: &MachineConfig) -> Self {
        Sb16::new(config.sb16, config.cpu_hz)
    }

    fn read(bus: &mut PcBus, port: u16, now: u64) -> u8 {
        match decode(bus, port) {
            Some(off) => read_port(bus, off, port, now),
            None => {
                bus.note_unhandled(port);
                0xFF
            }
        }
    }

    fn write(bus: &mut PcBus, port: u16, v: u8, now: u64) {
        match decode(bus, port) {
            Some(off) => write_port(bus, off, port, v, now),
            None => bus.note_unhandled(port),
        }
    }

    fn fire(bus: &mut PcBus, _: Event, t: u64) {
        try_identify(bus);
        let cpu_hz = bus.dev.sb16.state.cpu_hz;
        while let Some(next) = bus
            .dev
            .sb16
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

    fn perturb(&mut self) {
        self.state.dsp.perturb();
    }
}

#[cfg(test)]
mod tests;
