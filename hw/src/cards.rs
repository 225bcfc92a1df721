//! The cards whose chips are modelled in folders of their own, on the PC
//! bus: the VGA ([`crate::vga`]), the Sound Blaster 16 ([`crate::sb16`]),
//! the Gravis UltraSound ([`crate::gus`]) and the MPU-401
//! ([`crate::mpu401`]). Their models know nothing
//! of the bus, so those folders sit below it; here are their [`Device`]
//! impls, and the slots ([`sb16::Slot`], [`gus::Slot`]) through which the
//! cards reach the 8259As, the 8237s, the Sound Blaster's OPL3 and the
//! MPU-401's interrupt.
//!
//! The two sound cards' jumpers share bases 220h, 240h and 260h: the
//! Sound Blaster 16's device decodes 2X0h-2XFh of its four bases and
//! hands a port to the UltraSound when that card sits there (tandem
//! refuses the two at one base).

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};
use crate::dma8237::{Dma8237, TransferType};
use crate::gus::{self, Gus};
use crate::mpu401::Mpu401;
use crate::sb16::{self, Sb16};
use crate::scheduler::{Event, Scheduler};
use crate::vga::Vga;

impl Device for Vga {
    const NAME: &'static str = "VGA";
    const PORTS: &'static [Ports] = &[0x3B0..=0x3DF];
    /// The start of vertical retrace: the latches, and a frame for the
    /// run loop.
    const EVENTS: &'static [Event] = &[Event::VgaRetrace];

    fn power_on(config: &MachineConfig) -> Self {
        Vga::new(config.cpu_hz.max(1))
    }

    fn start(&self, sched: &mut Scheduler, now: u64) {
        sched.set(Event::VgaRetrace, Some(self.next_retrace(now)));
    }

    fn read(bus: &mut PcBus, port: u16, now: u64) -> u8 {
        bus.dev.vga.io_read(port, now)
    }

    /// A timing register may move the next retrace.
    fn write(bus: &mut PcBus, port: u16, v: u8, now: u64) {
        bus.dev.vga.io_write(port, v, now);
        bus.dev.vga.start(&mut bus.sched, now);
    }

    fn fire(bus: &mut PcBus, _: Event, t: u64) {
        bus.dev.vga.vertical_retrace_start();
        bus.frame_ready = true;
        bus.dev.vga.start(&mut bus.sched, t);
    }

    fn perturb(&mut self) {
        // DAC entry 1 (write index, then red, green, blue).
        self.io_write(0x3C8, 1, 0);
        for c in [0x3F, 0x15, 0x2A] {
            self.io_write(0x3C9, c, 0);
        }
    }
}

impl Device for Sb16 {
    const NAME: &'static str = "Sound Blaster 16";
    const PORTS: &'static [Ports] = &[0x220..=0x22F, 0x240..=0x24F, 0x260..=0x26F, 0x280..=0x28F];
    const EVENTS: &'static [Event] = &[Event::Sb16];

    fn power_on(config: &MachineConfig) -> Self {
        Sb16::new(config.sb16, config.cpu_hz)
    }

    fn read(bus: &mut PcBus, port: u16, now: u64) -> u8 {
        if bus.dev.gus.decodes(port) {
            return gus::read(bus, port, now);
        }
        sb16::read(bus, port, now)
    }

    fn write(bus: &mut PcBus, port: u16, v: u8, now: u64) {
        if bus.dev.gus.decodes(port) {
            return gus::write(bus, port, v, now);
        }
        sb16::write(bus, port, v, now)
    }

    fn fire(bus: &mut PcBus, _: Event, t: u64) {
        sb16::fire(bus, t)
    }

    fn perturb(&mut self) {
        Sb16::perturb(self)
    }
}

impl sb16::Slot for PcBus {
    fn card(&mut self) -> &mut Sb16 {
        &mut self.dev.sb16
    }

    fn set_irq(&mut self, line: u8, level: bool) {
        self.dev.pics.set_irq(line, level);
    }

    fn mpu_irq(&self) -> bool {
        self.dev.mpu.irq_level()
    }

    fn set_dreq(&mut self, ch: usize, level: bool) {
        self.dev.dma.set_dreq(ch, level);
    }

    fn dma_width(ch: usize) -> u32 {
        Dma8237::width(ch)
    }

    fn dma_write(&mut self, ch: usize, bytes: &[u8]) -> bool {
        if !self.dev.dma.can_transfer(ch, TransferType::Write) {
            return false;
        }
        self.dev.dma.transfer_write(ch, &mut self.mem, bytes);
        true
    }

    fn dma_read(&mut self, ch: usize, units: u32, out: &mut Vec<u8>) -> u32 {
        self.dev.dma.transfer_read(ch, &self.mem, units, out).units
    }

    fn opl_status(&mut self, now: u64) -> u8 {
        crate::opl3::read_status(self, now)
    }

    fn opl_write(&mut self, offset: u16, v: u8, now: u64) {
        crate::opl3::write_port(self, offset, v, now)
    }

    fn schedule(&mut self, at: Option<u64>) {
        self.sched.set(Event::Sb16, at);
    }

    fn unhandled(&mut self, port: u16) {
        self.note_unhandled(port);
    }
}

impl Device for Gus {
    const NAME: &'static str = "Gravis UltraSound";
    /// 2X0h-2XFh of the bases the Sound Blaster 16 does not decode
    /// (210h, 230h, 250h; the others come through its device), and
    /// 3X2h-3X7h of every base (3X0h/3X1h, the MIDI UART, are left to the
    /// MPU-401's 330h/300h).
    const PORTS: &'static [Ports] = &[
        0x210..=0x21F,
        0x230..=0x23F,
        0x250..=0x25F,
        0x312..=0x317,
        0x322..=0x327,
        0x332..=0x337,
        0x342..=0x347,
        0x352..=0x357,
        0x362..=0x367,
    ];
    const EVENTS: &'static [Event] = &[Event::Gus];

    fn power_on(config: &MachineConfig) -> Self {
        Gus::new(config.gus, config.cpu_hz)
    }

    fn read(bus: &mut PcBus, port: u16, now: u64) -> u8 {
        gus::read(bus, port, now)
    }

    fn write(bus: &mut PcBus, port: u16, v: u8, now: u64) {
        gus::write(bus, port, v, now)
    }

    fn fire(bus: &mut PcBus, _: Event, t: u64) {
        gus::fire(bus, t)
    }

    fn perturb(&mut self) {
        Gus::perturb(self)
    }
}

impl gus::Slot for PcBus {
    fn card(&mut self) -> &mut Gus {
        &mut self.dev.gus
    }

    fn set_irq(&mut self, line: u8, level: bool) {
        self.dev.pics.set_irq(line, level);
    }

    fn set_dreq(&mut self, ch: usize, level: bool) {
        self.dev.dma.set_dreq(ch, level);
    }

    fn dma_width(ch: usize) -> u32 {
        Dma8237::width(ch)
    }

    fn dma_read(&mut self, ch: usize, units: u32, out: &mut Vec<u8>) -> (u32, bool) {
        let t = self.dev.dma.transfer_read(ch, &self.mem, units, out);
        (t.units, t.tc)
    }

    fn dma_write(&mut self, ch: usize, bytes: &[u8]) -> (u32, bool) {
        let t = self.dev.dma.transfer_write(ch, &mut self.mem, bytes);
        (t.units, t.tc)
    }

    fn schedule(&mut self, at: Option<u64>) {
        self.sched.set(Event::Gus, at);
    }

    fn unhandled(&mut self, port: u16) {
        self.note_unhandled(port);
    }
}

/// Drives the MPU-401's IRQ line when its level changed from `before`, and
/// sets the sequencer's next event.
fn mpu_settle(bus: &mut PcBus, before: bool) {
    let mpu = &bus.dev.mpu;
    let level = mpu.irq_level();
    bus.sched.set(Event::Mpu401, mpu.next_event());
    if let Some(line) = mpu.irq_line() {
        if level != before {
            bus.dev.pics.set_irq(line, level);
        }
    }
}

/// Without an MPU-401 ([`MachineConfig::mpu401`] `None`), and at the base
/// it is not configured for, the ports float at FFh and count as
/// unhandled.
impl Device for Mpu401 {
    const NAME: &'static str = "MPU-401";
    const PORTS: &'static [Ports] = &[0x300..=0x301, 0x330..=0x331];
    /// The sequencer's next tick that matters.
    const EVENTS: &'static [Event] = &[Event::Mpu401];

    fn power_on(config: &MachineConfig) -> Self {
        Mpu401::new(config.mpu401, config.cpu_hz)
    }

    fn start(&self, sched: &mut Scheduler, _now: u64) {
        sched.set(Event::Mpu401, self.next_event());
    }

    fn read(bus: &mut PcBus, port: u16, now: u64) -> u8 {
        if !bus.dev.mpu.decodes(port) {
            bus.note_unhandled(port);
            return 0xFF;
        }
        let before = bus.dev.mpu.irq_level();
        bus.dev.mpu.catch_up(now);
        let v = if port & 1 != 0 {
            bus.dev.mpu.status()
        } else {
            bus.dev.mpu.read_data()
        };
        mpu_settle(bus, before);
        v
    }

    fn write(bus: &mut PcBus, port: u16, v: u8, now: u64) {
        if !bus.dev.mpu.decodes(port) {
            bus.note_unhandled(port);
            return;
        }
        let before = bus.dev.mpu.irq_level();
        bus.dev.mpu.catch_up(now);
        if port & 1 == 0 {
            bus.dev.mpu.write_data(v, now);
        } else {
            bus.dev.mpu.command(v, now);
        }
        mpu_settle(bus, before);
    }

    fn fire(bus: &mut PcBus, _: Event, t: u64) {
        let before = bus.dev.mpu.irq_level();
        bus.dev.mpu.catch_up(t);
        mpu_settle(bus, before);
    }

    fn perturb(&mut self) {
        // Tempo 60 (E0h and its data byte): sequencer state.
        self.command(0xE0, 0);
        self.write_data(60, 0);
    }
}
