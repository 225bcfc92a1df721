//! The GF1's DMA between the PC's memory and its DRAM (ToolKit, "DMA
//! control register" 41h and "DMA start address" 42h).
//!
//! 41h: bit 0 starts, bit 1 reads DRAM to the PC (clear: the PC's memory
//! to DRAM, the upload), bit 2 says the channel is 16-bit (the address of
//! 42h is then translated as a 16-bit voice's: bits 17-0 of the byte
//! address are twice its bits 16-0), bits 4-3 divide the rate (about
//! 650 kB/s by 1-4), bit 5 enables the terminal-count interrupt (read as
//! bit 6, which the read clears), bit 6 says the data is 16-bit and bit 7
//! inverts each sample's top bit (unsigned to signed). 42h is the DRAM
//! address divided by 16. The card asks the 8237 in chunks of
//! [`CHUNK`] units, each landing when its time at the rate has passed; a
//! channel that cannot transfer (masked) is asked again a chunk later.

use super::Slot;

/// Units moved per event.
pub const CHUNK: u32 = 64;
/// The GF1's DMA rate with divisor 1, in units per second.
const RATE: u64 = 650_000;

/// The transfer's registers and progress.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Dma {
    /// 41h as written (bit 0 clears at the terminal count).
    pub control: u8,
    /// 42h.
    pub address: u16,
    /// The terminal-count interrupt is pending.
    pub tc_pending: bool,
    /// The DRAM byte address of the next unit.
    pos: u32,
    /// The cycle the next chunk lands, while the transfer runs.
    pub next: Option<u64>,
}

impl Dma {
    /// The DRAM byte address 42h names for this transfer.
    fn start_address(&self) -> u32 {
        let a = u32::from(self.address) << 4;
        if self.control & 4 != 0 {
            (a & 0xC_0000) | ((a & 0x1_FFFF) << 1)
        } else {
            a
        }
    }
}

/// Cycles per chunk at the rate of 41h bits 4-3.
fn chunk_cycles<S: Slot>(bus: &mut S) -> u64 {
    let g = bus.card();
    let div = u64::from(g.state.dma.control >> 3 & 3) + 1;
    (g.state.cpu_hz * u64::from(CHUNK) * div).div_ceil(RATE)
}

/// A write of 41h at cycle `now`: starts or stops the transfer.
pub(super) fn control<S: Slot>(bus: &mut S, v: u8, now: u64) {
    let ch = bus.card().dma_channel();
    let d = &mut bus.card().state.dma;
    let was = d.next.is_some();
    d.control = v;
    if v & 1 != 0 && !was {
        d.pos = d.start_address();
        let c = chunk_cycles(bus);
        bus.card().state.dma.next = Some(now + c);
        if let Some(ch) = ch {
            bus.set_dreq(ch, true);
        }
    } else if v & 1 == 0 {
        stop(bus);
    }
}

/// Ends the transfer and releases the DREQ.
fn stop<S: Slot>(bus: &mut S) {
    bus.card().state.dma.next = None;
    if let Some(ch) = bus.card().dma_channel() {
        bus.set_dreq(ch, false);
    }
}

/// The chunk due at cycle `t`.
pub(super) fn chunk<S: Slot>(bus: &mut S, t: u64) {
    let Some(ch) = bus.card().dma_channel() else {
        stop(bus);
        return;
    };
    let control = bus.card().state.dma.control;
    let (units, tc) = if control & 2 != 0 {
        to_host(bus, ch)
    } else {
        from_host(bus, ch, control)
    };
    let width = S::dma_width(ch);
    bus.card().state.dma.pos += units * width;
    if tc {
        let d = &mut bus.card().state.dma;
        d.control &= !1;
        d.tc_pending = control & 0x20 != 0;
        stop(bus);
    } else {
        let c = chunk_cycles(bus);
        bus.card().state.dma.next = Some(t + c);
    }
}

/// A chunk from the PC's memory into DRAM, top bits inverted when 41h
/// bit 7 asks (of each byte, or with 16-bit data of each word's high
/// byte).
fn from_host<S: Slot>(bus: &mut S, ch: usize, control: u8) -> (u32, bool) {
    let mut bytes = Vec::with_capacity(CHUNK as usize * 2);
    let (units, tc) = bus.dma_read(ch, CHUNK, &mut bytes);
    let g = bus.card();
    let pos = g.state.dma.pos;
    for (i, mut b) in bytes.into_iter().enumerate() {
        let top = control & 0x40 == 0 || i % 2 == 1;
        if control & 0x80 != 0 && top {
            b ^= 0x80;
        }
        let a = (pos as usize + i) & (super::DRAM_BYTES - 1);
        if let Some(d) = g.state.dram.get_mut(a) {
            *d = b;
        }
    }
    (units, tc)
}

/// A chunk from DRAM to the PC's memory.
fn to_host<S: Slot>(bus: &mut S, ch: usize) -> (u32, bool) {
    let width = S::dma_width(ch);
    let g = bus.card();
    let pos = g.state.dma.pos;
    let bytes: Vec<u8> = (0..CHUNK * width).map(|i| g.peek(pos + i)).collect();
    bus.dma_write(ch, &bytes)
}
