//! The PC/AT's DMA: two Intel 8237A-5 controllers and the 74LS612 page
//! registers (Intel 8237A datasheet; IBM PC/AT Technical Reference,
//! "System board: DMA controller").
//!
//! - DMA1, ports 00h-0Fh: channels 0-3, byte transfers. The physical
//!   address is the page register (A23-A16) and the 16-bit address
//!   counter (A15-A0), so a transfer wraps within its 64 KiB page.
//! - DMA2, ports C0h-DFh (register n at C0h + 2n; A0 is not decoded):
//!   channels 4-7, word transfers. Its address counter drives A16-A1 and
//!   the page register A23-A17 (its bit 0 is ignored), so addresses and
//!   counts are in words and a transfer wraps within its 128 KiB page.
//!   Channel 4 is the cascade input from DMA1: DMA1 transfers only while
//!   channel 4 is unmasked and in cascade mode.
//! - Page registers 80h-8Fh (all 16 are read/write storage on the AT);
//!   the channels use 87h, 83h, 81h, 82h (0-3) and 8Fh, 8Bh, 89h, 8Ah
//!   (4-7).
//!
//! Per controller (datasheet table 2): current address and count of each
//! channel (registers 0-7, written as base and current, read as current,
//! low byte then high byte through the byte-pointer flip-flop); 8 status
//! (read; TC bits 3-0 cleared by the read, request bits 7-4) and command
//! (write); 9 request; 0Ah single mask bit; 0Bh mode; 0Ch clear the
//! flip-flop; 0Dh master clear (write) and temporary register (read); 0Eh
//! clear all mask bits; 0Fh write all mask bits. Reads of write-only
//! registers float (FFh).
//!
//! Devices move data through [`Dma8237::transfer_read`] (memory to device)
//! and [`Dma8237::transfer_write`] (device to memory), which honour the
//! masks, the mode (transfer type, auto-initialize, address decrement,
//! cascade) and the command register's controller disable, and stop at
//! the terminal count. The device decides when it asks (its own timing):
//! demand, single and block mode move the same units here. Not modelled:
//! memory-to-memory transfers (command bit 0), the priority logic and the
//! bus timing of DMA cycles.

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};
use crate::memory::{Memory, Region};

/// The page register of each channel 0-7 (IBM AT Technical Reference,
/// "Page register addresses").
pub const PAGE_PORTS: [u16; 8] = [0x87, 0x83, 0x81, 0x82, 0x8F, 0x8B, 0x89, 0x8A];

/// DMA2's channel 0 (channel 4): the cascade input from DMA1.
pub const CASCADE_CHANNEL: usize = 4;

/// Mode register bits 3-2 (datasheet, "Mode Register").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransferType {
    /// 00: addresses and counts advance, nothing is transferred.
    Verify,
    /// 01: device to memory (memory write).
    Write,
    /// 10: memory to device (memory read).
    Read,
    /// 11: not defined.
    Illegal,
}

/// Mode register bits 7-6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeSelect {
    /// 00: transfers while DREQ stays active.
    Demand,
    /// 01: one transfer per DREQ.
    Single,
    /// 10: the whole block on one DREQ.
    Block,
    /// 11: the channel passes a slave controller's requests.
    Cascade,
}

/// Mode register bit 4: auto-initialize.
const MODE_AUTO_INIT: u8 = 0x10;
/// Mode register bit 5: address decrement.
const MODE_DECREMENT: u8 = 0x20;
/// Command register bit 2: controller disable.
const COMMAND_DISABLE: u8 = 0x04;
/// Mode of a cascade channel as the AT BIOS POST sets channel 4.
const MODE_CASCADE: u8 = 0xC0;

/// One channel's registers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
struct Channel {
    base_address: u16,
    base_count: u16,
    current_address: u16,
    current_count: u16,
    /// Bits 7-2 of the mode register (bits 1-0 select the channel).
    mode: u8,
}

/// One 8237A.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Controller {
    channels: [Channel; 4],
    command: u8,
    /// Status bits 3-0: the channel reached TC since the last status read.
    tc: u8,
    /// Request register bits 3-0 (software DREQ).
    request: u8,
    /// DREQ inputs as devices drive them ([`Dma8237::set_dreq`]).
    dreq: u8,
    /// Mask register bits 3-0: a set bit disables the channel.
    mask: u8,
    temporary: u8,
    /// The byte-pointer flip-flop: the next 16-bit access is the high byte.
    flip_flop: bool,
}

impl Default for Controller {
    /// After RESET: as after a master clear, mode and address registers
    /// zero.
    fn default() -> Self {
        Controller {
            channels: Default::default(),
            command: 0,
            tc: 0,
            request: 0,
            dreq: 0,
            mask: 0x0F,
            temporary: 0,
            flip_flop: false,
        }
    }
}

impl Controller {
    /// Master clear (datasheet, "Software Commands"): command, status,
    /// request, temporary register and flip-flop cleared, all masks set;
    /// addresses, counts and modes are kept.
    fn master_clear(&mut self) {
        *self = Controller {
            channels: self.channels.clone(),
            dreq: self.dreq,
            ..Controller::default()
        };
    }

    /// Whether this address or count access is the high byte; the next
    /// one is the other.
    fn toggle_flip_flop(&mut self) -> bool {
        self.flip_flop = !self.flip_flop;
        !self.flip_flop
    }

    /// Reads register `reg` (0-15).
    fn read(&mut self, reg: u8) -> u8 {
        match reg {
            0..=7 => {
                let c = &self.channels[(reg >> 1) as usize];
                let v = if reg & 1 == 0 {
                    c.current_address
                } else {
                    c.current_count
                };
                let high = self.toggle_flip_flop();
                (v >> if high { 8 } else { 0 }) as u8
            }
            8 => {
                let v = (self.request | self.dreq) << 4 | self.tc;
                self.tc = 0;
                v
            }
            0x0D => self.temporary,
            _ => 0xFF,
        }
    }

    /// Writes register `reg` (0-15).
    fn write(&mut self, reg: u8, v: u8) {
        let ch = (v & 3) as usize;
        match reg {
            0..=7 => {
                let high = self.toggle_flip_flop();
                let c = &mut self.channels[(reg >> 1) as usize];
                let (base, current) = if reg & 1 == 0 {
                    (&mut c.base_address, &mut c.current_address)
                } else {
                    (&mut c.base_count, &mut c.current_count)
                };
                *base = if high {
                    (*base & 0x00FF) | (v as u16) << 8
                } else {
                    (*base & 0xFF00) | v as u16
                };
                *current = *base;
            }
            8 => self.command = v,
            9 => set_bit(&mut self.request, ch, v & 4 != 0),
            0x0A => set_bit(&mut self.mask, ch, v & 4 != 0),
            0x0B => self.channels[ch].mode = v & 0xFC,
            0x0C => self.flip_flop = false,
            0x0D => self.master_clear(),
            0x0E => self.mask = 0,
            _ => self.mask = v & 0x0F,
        }
    }

    /// Whether channel `ch` may transfer in direction `want`.
    fn ready(&self, ch: usize, want: TransferType) -> bool {
        let mode = self.channels[ch].mode;
        let ty = transfer_type(mode);
        self.command & COMMAND_DISABLE == 0
            && self.mask & (1 << ch) == 0
            && mode_select(mode) != ModeSelect::Cascade
            && (ty == want || ty == TransferType::Verify)
    }

    /// Whether channel `ch` passes a slave's requests (unmasked, cascade
    /// mode, controller enabled).
    fn cascades(&self, ch: usize) -> bool {
        self.command & COMMAND_DISABLE == 0
            && self.mask & (1 << ch) == 0
            && mode_select(self.channels[ch].mode) == ModeSelect::Cascade
    }

    /// One transfer's address step and count decrement on channel `ch`.
    /// Returns true at the terminal count (count rolled from 0 to FFFFh),
    /// after which the channel reloads (auto-initialize) or masks itself.
    fn step(&mut self, ch: usize) -> bool {
        let c = &mut self.channels[ch];
        c.current_address = if c.mode & MODE_DECREMENT != 0 {
            c.current_address.wrapping_sub(1)
        } else {
            c.current_address.wrapping_add(1)
        };
        let (count, tc) = c.current_count.overflowing_sub(1);
        c.current_count = count;
        if tc {
            self.tc |= 1 << ch;
            // Datasheet: TC clears a software request; without
            // auto-initialize it sets the channel's mask bit.
            self.request &= !(1 << ch);
            if c.mode & MODE_AUTO_INIT != 0 {
                c.current_address = c.base_address;
                c.current_count = c.base_count;
            } else {
                self.mask |= 1 << ch;
            }
        }
        tc
    }
}

fn set_bit(reg: &mut u8, bit: usize, on: bool) {
    if on {
        *reg |= 1 << bit;
    } else {
        *reg &= !(1 << bit);
    }
}

/// The transfer type in mode register value `mode`.
fn transfer_type(mode: u8) -> TransferType {
    [
        TransferType::Verify,
        TransferType::Write,
        TransferType::Read,
        TransferType::Illegal,
    ][(mode >> 2 & 3) as usize]
}

/// The mode select in mode register value `mode`.
fn mode_select(mode: u8) -> ModeSelect {
    [
        ModeSelect::Demand,
        ModeSelect::Single,
        ModeSelect::Block,
        ModeSelect::Cascade,
    ][(mode >> 6) as usize]
}

/// What a device-driven transfer did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Transfer {
    /// Units moved (bytes on channels 0-3, words on 4-7), verify cycles
    /// included.
    pub units: u32,
    /// The channel reached its terminal count (the last unit was the
    /// block's last); the transfer stops there.
    pub tc: bool,
}

/// The two 8237As and the page registers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Dma8237 {
    /// DMA1 (channels 0-3) and DMA2 (channels 4-7).
    controllers: [Controller; 2],
    /// Page registers 80h-8Fh.
    pages: [u8; 16],
}

/// The state hash covers the DMA only once it has left its power-on
/// state, so that machines which never program it hash as they did before
/// it was modelled.
impl std::hash::Hash for Dma8237 {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        if *self != Dma8237::new() {
            self.controllers.hash(h);
            self.pages.hash(h);
        }
    }
}

impl Default for Dma8237 {
    fn default() -> Self {
        Dma8237::new()
    }
}

impl Dma8237 {
    /// The DMA as the AT BIOS POST leaves it: both controllers reset (every
    /// channel masked), then channel 4 in cascade mode and unmasked so
    /// that DMA1's requests reach the bus.
    pub fn new() -> Self {
        let mut dma2 = Controller::default();
        dma2.channels[0].mode = MODE_CASCADE;
        dma2.mask = 0x0E;
        Dma8237 {
            controllers: [Controller::default(), dma2],
            pages: [0; 16],
        }
    }

    /// Bytes per unit on channel `ch`: 1 on DMA1, 2 on DMA2.
    pub fn width(ch: usize) -> u32 {
        if ch < 4 {
            1
        } else {
            2
        }
    }

    fn channel(&self, ch: usize) -> &Channel {
        &self.controllers[(ch >> 2) & 1].channels[ch & 3]
    }

    /// A read of port `port` (00h-0Fh, 80h-8Fh or C0h-DFh).
    pub fn read_port(&mut self, port: u16) -> u8 {
        match port {
            0x00..=0x0F => self.controllers[0].read(port as u8),
            0x80..=0x8F => self.pages[(port & 0x0F) as usize],
            0xC0..=0xDF => self.controllers[1].read(((port - 0xC0) >> 1) as u8),
            _ => 0xFF,
        }
    }

    /// A write of port `port` (00h-0Fh, 80h-8Fh or C0h-DFh).
    pub fn write_port(&mut self, port: u16, v: u8) {
        match port {
            0x00..=0x0F => self.controllers[0].write(port as u8, v),
            0x80..=0x8F => self.pages[(port & 0x0F) as usize] = v,
            0xC0..=0xDF => self.controllers[1].write(((port - 0xC0) >> 1) as u8, v),
            _ => {}
        }
    }

    /// Channel `ch`'s mode register (bits 7-2; bits 1-0 read as 0).
    pub fn mode(&self, ch: usize) -> u8 {
        self.channel(ch).mode
    }

    /// Channel `ch`'s transfer type.
    pub fn transfer_type(&self, ch: usize) -> TransferType {
        transfer_type(self.mode(ch))
    }

    /// Channel `ch`'s mode select.
    pub fn mode_select(&self, ch: usize) -> ModeSelect {
        mode_select(self.mode(ch))
    }

    /// Whether channel `ch` is auto-initialized at TC.
    pub fn auto_init(&self, ch: usize) -> bool {
        self.mode(ch) & MODE_AUTO_INIT != 0
    }

    /// Whether channel `ch`'s mask bit is set.
    pub fn masked(&self, ch: usize) -> bool {
        self.controllers[(ch >> 2) & 1].mask & (1 << (ch & 3)) != 0
    }

    /// Channel `ch`'s current address register (words on DMA2).
    pub fn current_address(&self, ch: usize) -> u16 {
        self.channel(ch).current_address
    }

    /// Channel `ch`'s base address register (reloaded into the current
    /// address at an auto-initialize).
    pub fn base_address(&self, ch: usize) -> u16 {
        self.channel(ch).base_address
    }

    /// Channel `ch`'s base word count register.
    pub fn base_count(&self, ch: usize) -> u16 {
        self.channel(ch).base_count
    }

    /// Channel `ch`'s current word count register (units left minus one).
    pub fn current_count(&self, ch: usize) -> u16 {
        self.channel(ch).current_count
    }

    /// Channel `ch`'s page register.
    pub fn page(&self, ch: usize) -> u8 {
        self.pages[(PAGE_PORTS[ch & 7] & 0x0F) as usize]
    }

    /// The physical address of channel `ch`'s next unit: page and byte
    /// address on DMA1, page bits 7-1 and the word address shifted left on
    /// DMA2 (AT Technical Reference: "A0 is not used" for 16-bit DMA).
    pub fn physical_address(&self, ch: usize) -> u32 {
        let a = self.current_address(ch) as u32;
        let page = self.page(ch) as u32;
        if ch < 4 {
            page << 16 | a
        } else {
            (page & 0xFE) << 16 | a << 1
        }
    }

    /// Units channel `ch` has left before TC (the current count plus one).
    pub fn remaining(&self, ch: usize) -> u32 {
        self.current_count(ch) as u32 + 1
    }

    /// Drives channel `ch`'s DREQ input (shown in the status register's
    /// request bits).
    pub fn set_dreq(&mut self, ch: usize, level: bool) {
        set_bit(&mut self.controllers[(ch >> 2) & 1].dreq, ch & 3, level);
    }

    /// Whether channel `ch` (0-7) would move units in direction `want`
    /// (`Read`: memory to device, `Write`: device to memory) now: unmasked,
    /// not cascade, its controller enabled, programmed for `want` or
    /// verify; DMA1 channels also need channel 4 to cascade.
    pub fn can_transfer(&self, ch: usize, want: TransferType) -> bool {
        let ready = ch < 8 && self.controllers[ch >> 2].ready(ch & 3, want);
        ready && (ch >= 4 || self.controllers[1].cascades(CASCADE_CHANNEL & 3))
    }

    /// Runs up to `max` units on channel `ch` in direction `want`, calling
    /// `unit` with the physical address of each (None for a verify cycle).
    fn run(
        &mut self,
        ch: usize,
        want: TransferType,
        max: u32,
        mut unit: impl FnMut(Option<u32>),
    ) -> Transfer {
        let mut done = Transfer::default();
        if !self.can_transfer(ch, want) {
            return done;
        }
        let verify = self.transfer_type(ch) == TransferType::Verify;
        while done.units < max && !done.tc {
            unit((!verify).then(|| self.physical_address(ch)));
            done.units += 1;
            done.tc = self.controllers[ch >> 2].step(ch & 3);
        }
        done
    }

    /// A memory-to-device transfer (the channel programmed for "read"):
    /// up to `max` units from memory appended to `out` (bytes, a word low
    /// byte first). A channel that is masked, in cascade mode, disabled or
    /// programmed for the other direction moves nothing; one programmed for
    /// verify counts its units and appends nothing.
    pub fn transfer_read(
        &mut self,
        ch: usize,
        mem: &Memory,
        max: u32,
        out: &mut Vec<u8>,
    ) -> Transfer {
        let width = Self::width(ch);
        self.run(ch, TransferType::Read, max, |a| {
            if let Some(a) = a {
                out.extend((0..width).map(|i| mem_read(mem, a + i)));
            }
        })
    }

    /// A device-to-memory transfer (the channel programmed for "write"):
    /// the units of `data` (bytes, a word low byte first; a trailing odd
    /// byte on a word channel is not a unit) written to memory until TC.
    /// As [`Dma8237::transfer_read`] for a channel that cannot transfer; in
    /// verify mode the units are counted and memory is left alone.
    pub fn transfer_write(&mut self, ch: usize, mem: &mut Memory, data: &[u8]) -> Transfer {
        let width = Self::width(ch);
        let mut units = data.chunks_exact(width as usize);
        let max = units.len() as u32;
        self.run(ch, TransferType::Write, max, |a| {
            let unit = units.next().unwrap_or_default();
            if let Some(a) = a {
                for (i, &b) in unit.iter().enumerate() {
                    mem_write(mem, a + i as u32, b);
                }
            }
        })
    }
}

/// A DMA memory read: RAM and ROM answer, anything else floats (FFh). DMA
/// addresses are 24-bit physical addresses, not subject to the CPU's A20
/// gate.
fn mem_read(mem: &Memory, a: u32) -> u8 {
    let a = a & 0xFF_FFFF;
    match mem.decode(a) {
        Region::Ram | Region::Rom => mem.read_backing(a),
        Region::Vga | Region::Open => 0xFF,
    }
}

/// A DMA memory write: only RAM takes it.
fn mem_write(mem: &mut Memory, a: u32, v: u8) {
    let a = a & 0xFF_FFFF;
    if mem.decode(a) == Region::Ram {
        mem.write_backing(a, v);
    }
}

impl Device for Dma8237 {
    const NAME: &'static str = "8237A DMA pair";
    const PORTS: &'static [Ports] = &[0x00..=0x0F, 0x80..=0x8F, 0xC0..=0xDF];

    fn power_on(_: &MachineConfig) -> Self {
        Dma8237::new()
    }

    fn read(bus: &mut PcBus, port: u16, _: u64) -> u8 {
        bus.dev.dma.read_port(port)
    }

    fn write(bus: &mut PcBus, port: u16, v: u8, _: u64) {
        bus.dev.dma.write_port(port, v);
    }

    fn perturb(&mut self) {
        self.write_port(0x0B, 0x49);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The port of register `reg` of the controller serving `ch`.
    fn port(ch: usize, reg: u16) -> u16 {
        if ch < 4 {
            reg
        } else {
            0xC0 + 2 * reg
        }
    }

    /// Programs channel `ch` as DOS drivers do: mask, clear the
    /// flip-flop, mode, address low/high, page, count low/high, unmask.
    fn program(d: &mut Dma8237, ch: usize, mode: u8, addr: u16, page: u8, count: u16) {
        let c = (ch & 3) as u8;
        let n = (ch & 3) as u16;
        d.write_port(port(ch, 0x0A), 0x04 | c);
        d.write_port(port(ch, 0x0C), 0);
        d.write_port(port(ch, 0x0B), mode | c);
        d.write_port(port(ch, 2 * n), addr as u8);
        d.write_port(port(ch, 2 * n), (addr >> 8) as u8);
        d.write_port(PAGE_PORTS[ch], page);
        d.write_port(port(ch, 2 * n + 1), count as u8);
        d.write_port(port(ch, 2 * n + 1), (count >> 8) as u8);
        d.write_port(port(ch, 0x0A), c);
    }

    /// Current address and count read back through the ports.
    fn read_back(d: &mut Dma8237, ch: usize) -> (u16, u16) {
        let n = (ch & 3) as u16;
        d.write_port(port(ch, 0x0C), 0);
        let mut word = |reg| {
            let lo = d.read_port(port(ch, reg)) as u16;
            lo | (d.read_port(port(ch, reg)) as u16) << 8
        };
        (word(2 * n), word(2 * n + 1))
    }

    /// Memory with a known byte pattern at `base..base + len`.
    fn memory(base: u32, len: u32) -> Memory {
        let mut m = Memory::new(640, 1024);
        for i in 0..len {
            m.poke(base + i, (i * 7 + 3) as u8);
        }
        m
    }

    fn status(d: &mut Dma8237, ch: usize) -> u8 {
        d.read_port(port(ch, 8))
    }

    #[test]
    fn single_cycle_read_through_the_ports() {
        let mut d = Dma8237::new();
        let m = memory(0x1_2340, 16);
        program(&mut d, 1, 0x48, 0x2340, 0x01, 9);
        assert_eq!(d.transfer_type(1), TransferType::Read);
        assert_eq!(d.mode_select(1), ModeSelect::Single);
        let mut out = Vec::new();
        let t = d.transfer_read(1, &m, 4, &mut out);
        assert_eq!(
            t,
            Transfer {
                units: 4,
                tc: false
            }
        );
        assert_eq!(read_back(&mut d, 1), (0x2344, 5));
        assert_eq!(status(&mut d, 1) & 0x0F, 0, "no TC yet");
        let t = d.transfer_read(1, &m, 100, &mut out);
        assert_eq!(t, Transfer { units: 6, tc: true }, "count 9 is 10 bytes");
        let want: Vec<u8> = (0x1_2340..0x1_234A).map(|a| m.peek(a)).collect();
        assert_eq!(out, want);
        assert_eq!(read_back(&mut d, 1), (0x234A, 0xFFFF));
        assert_eq!(status(&mut d, 1), 0x02, "TC of channel 1");
        assert_eq!(status(&mut d, 1), 0x00, "cleared by the read");
        assert!(d.masked(1), "TC masks a channel without auto-init");
        let t = d.transfer_read(1, &m, 4, &mut out);
        assert_eq!(t.units, 0);
        assert_eq!(out.len(), 10);
    }

    #[test]
    fn auto_init_reloads_and_stays_unmasked() {
        let mut d = Dma8237::new();
        let m = memory(0x3_0000, 8);
        program(&mut d, 1, 0x58, 0x0000, 0x03, 3);
        assert!(d.auto_init(1));
        let mut out = Vec::new();
        for round in 0..3 {
            let t = d.transfer_read(1, &m, 10, &mut out);
            assert_eq!(t, Transfer { units: 4, tc: true }, "round {round}");
            assert!(!d.masked(1));
            assert_eq!(read_back(&mut d, 1), (0x0000, 3), "reloaded");
            assert_eq!(status(&mut d, 1), 0x02);
        }
        let block: Vec<u8> = (0x3_0000..0x3_0004).map(|a| m.peek(a)).collect();
        assert_eq!(out, block.repeat(3));
        // Half a block, then the rest: TC only at the block's end.
        assert!(!d.transfer_read(1, &m, 2, &mut out).tc);
        assert_eq!(
            d.transfer_read(1, &m, 2, &mut out),
            Transfer { units: 2, tc: true }
        );
    }

    #[test]
    fn address_decrement_wraps_within_the_64k_page() {
        let mut d = Dma8237::new();
        let mut m = memory(0x2_0000, 2);
        m.poke(0x2_FFFF, 0xAB);
        m.poke(0x1_FFFF, 0xCD);
        program(&mut d, 3, 0x48 | 0x20, 0x0001, 0x02, 2);
        let mut out = Vec::new();
        let t = d.transfer_read(3, &m, 3, &mut out);
        assert_eq!(t, Transfer { units: 3, tc: true });
        assert_eq!(out, vec![m.peek(0x2_0001), m.peek(0x2_0000), 0xAB]);
        assert_eq!(d.current_address(3), 0xFFFE);
        assert_eq!(d.page(3), 0x02, "the page does not carry");
    }

    #[test]
    fn word_channel_addressing() {
        let mut d = Dma8237::new();
        // Page 3's bit 0 is ignored: the 128 KiB page at 20000h; word
        // address FFFEh is byte 3FFFCh, and the counter wraps to 20000h.
        let mut m = memory(0x3_FFFC, 4);
        m.poke(0x2_0000, 0x11);
        m.poke(0x2_0001, 0x22);
        program(&mut d, 5, 0x48, 0xFFFE, 0x03, 2);
        assert_eq!(d.physical_address(5), 0x3_FFFC);
        assert_eq!(read_back(&mut d, 5), (0xFFFE, 2));
        let mut out = Vec::new();
        let t = d.transfer_read(5, &m, 8, &mut out);
        assert_eq!(t, Transfer { units: 3, tc: true }, "counts are in words");
        let mut want: Vec<u8> = (0x3_FFFC..0x4_0000).map(|a| m.peek(a)).collect();
        want.extend([0x11, 0x22]);
        assert_eq!(out, want);
        assert_eq!(read_back(&mut d, 5), (0x0001, 0xFFFF));
        assert_eq!(status(&mut d, 5), 0x02, "channel 5 is DMA2's channel 1");
        assert_eq!(d.read_port(0xD0), 0, "C1h-DFh odd ports alias the even");
    }

    #[test]
    fn write_and_verify_directions() {
        let mut d = Dma8237::new();
        let mut m = Memory::new(640, 0);
        program(&mut d, 1, 0x44, 0x1000, 0x00, 3);
        let mut out = Vec::new();
        assert_eq!(d.transfer_read(1, &m, 4, &mut out).units, 0, "wrong way");
        let t = d.transfer_write(1, &mut m, &[9, 8, 7, 6, 5, 4]);
        assert_eq!(t, Transfer { units: 4, tc: true });
        let got: Vec<u8> = (0x1000..0x1006).map(|a| m.peek(a)).collect();
        assert_eq!(got, vec![9, 8, 7, 6, 0, 0]);
        // Word channel, odd trailing byte ignored.
        program(&mut d, 6, 0x44, 0x0800, 0x00, 0xFFFF);
        let t = d.transfer_write(6, &mut m, &[1, 2, 3, 4, 5]);
        assert_eq!(
            t,
            Transfer {
                units: 2,
                tc: false
            }
        );
        let got: Vec<u8> = (0x1000..0x1006).map(|a| m.peek(a)).collect();
        assert_eq!(got, vec![1, 2, 3, 4, 0, 0]);
        // Verify: counts advance, memory untouched, nothing delivered.
        program(&mut d, 2, 0x40, 0x1000, 0x00, 1);
        let t = d.transfer_write(2, &mut m, &[0xEE, 0xEE, 0xEE]);
        assert_eq!(t, Transfer { units: 2, tc: true });
        assert_eq!(m.peek(0x1000), 1);
        program(&mut d, 2, 0x40, 0x1000, 0x00, 1);
        assert_eq!(d.transfer_read(2, &m, 5, &mut out).units, 2);
        assert!(out.is_empty());
    }

    #[test]
    fn masks_requests_and_master_clear() {
        let mut d = Dma8237::new();
        let m = memory(0, 16);
        let mut out = Vec::new();
        program(&mut d, 0, 0x48, 0x0000, 0x00, 15);
        d.write_port(0x0F, 0x01);
        assert_eq!(
            d.transfer_read(0, &m, 1, &mut out).units,
            0,
            "all-mask write"
        );
        d.write_port(0x0E, 0);
        assert_eq!(d.transfer_read(0, &m, 1, &mut out).units, 1, "clear masks");
        // DMA1 needs channel 4 cascading.
        assert!(d.can_transfer(0, TransferType::Read));
        assert!(!d.can_transfer(0, TransferType::Write));
        d.write_port(0xD4, 0x04);
        assert!(!d.can_transfer(0, TransferType::Read));
        assert_eq!(d.transfer_read(0, &m, 1, &mut out).units, 0);
        d.write_port(0xD4, 0x00);
        d.write_port(0x08, COMMAND_DISABLE);
        assert_eq!(d.transfer_read(0, &m, 1, &mut out).units, 0, "disabled");
        d.write_port(0x08, 0);
        // Request bits: the software request and the DREQ inputs.
        d.write_port(0x09, 0x04 | 2);
        d.set_dreq(3, true);
        assert_eq!(status(&mut d, 0), 0x40 | 0x80);
        d.set_dreq(3, false);
        program(&mut d, 2, 0x88, 0x0000, 0x00, 0);
        assert_eq!(d.mode_select(2), ModeSelect::Block);
        assert!(d.transfer_read(2, &m, 1, &mut out).tc);
        assert_eq!(status(&mut d, 0), 0x04, "TC clears the software request");
        // Master clear: everything masked, flip-flop reset, modes kept.
        d.read_port(0x00);
        d.write_port(0x0D, 0);
        assert!((0..4).all(|c| d.masked(c)));
        assert_eq!(d.read_port(0x0D), 0, "temporary register");
        assert_eq!(
            d.read_port(0x00),
            d.current_address(0) as u8,
            "low byte first"
        );
        assert_eq!(d.mode(0), 0x48);
        assert_eq!(d.read_port(0x0B), 0xFF, "write-only");
    }

    #[test]
    fn page_registers_read_back() {
        let mut d = Dma8237::new();
        for (ch, &p) in PAGE_PORTS.iter().enumerate() {
            d.write_port(p, 0x10 + ch as u8);
        }
        d.write_port(0x80, 0x55);
        for (ch, &p) in PAGE_PORTS.iter().enumerate() {
            assert_eq!(d.read_port(p), 0x10 + ch as u8);
            assert_eq!(d.page(ch), 0x10 + ch as u8);
        }
        assert_eq!(d.read_port(0x80), 0x55);
    }

    #[test]
    fn on_the_bus_and_in_the_hash() {
        use crate::{Machine, MachineConfig};
        let mut m = Machine::new(MachineConfig::default());
        let before = m.state_hash();
        let dma = m.bus.dev.dma.clone();
        assert_eq!(dma, Dma8237::new());
        m.bus.port_write(0xCC, 0x34);
        m.bus.port_write(0xCC, 0x12);
        assert_eq!(m.bus.dev.dma.current_address(7), 0x1234);
        m.bus.port_write(0xD8, 0);
        assert_eq!(m.bus.port_read(0xCD), 0x34, "A0 not decoded");
        assert_ne!(m.state_hash(), before);
        assert!(m.bus.unhandled_ports.is_empty());
        // A device's event handler reaches the DMA and memory side by side.
        m.bus.mem.poke(0x5_0010, 0x5A);
        program(&mut m.bus.dev.dma, 1, 0x48, 0x0010, 0x05, 0);
        let mut out = Vec::new();
        let t = m.bus.dev.dma.transfer_read(1, &m.bus.mem, 8, &mut out);
        assert_eq!((t, out), (Transfer { units: 1, tc: true }, vec![0x5A]));
        assert_eq!(m.bus.port_read(0x08), 0x02);
    }

    #[test]
    fn power_on_state_hashes_as_no_dma() {
        use std::hash::{Hash, Hasher};
        let hash = |d: &Dma8237| {
            let mut h = crate::hash::Fnv64::default();
            d.hash(&mut h);
            h.finish()
        };
        let mut d = Dma8237::new();
        assert_eq!(hash(&d), crate::hash::Fnv64::default().finish());
        assert_eq!(d.mode_select(CASCADE_CHANNEL), ModeSelect::Cascade);
        assert!((0..8).all(|c| d.masked(c) == (c != CASCADE_CHANNEL)));
        d.write_port(0x8F, 1);
        assert_ne!(hash(&d), crate::hash::Fnv64::default().finish());
    }
}
