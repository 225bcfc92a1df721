//! The cards whose chips are modelled in folders of their own, on the PC
//! bus: the VGA ([`crate::vga`]) and the Sound Blaster 16
//! ([`crate::sb16`]). Their models know nothing of the bus, so those
//! folders sit below it; here are their [`Device`] impls, and the slot
//! ([`sb16::Slot`]) through which the Sound Blaster reaches the 8259As, the
//! 8237s, its OPL3 and the MPU-401's interrupt.

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};
use crate::dma8237::{Dma8237, TransferType};
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
        sb16::read(bus, port, now)
    }

    fn write(bus: &mut PcBus, port: u16, v: u8, now: u64) {
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
