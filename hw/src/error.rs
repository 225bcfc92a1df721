//! The errors of the `hw` crate: what a run, a load or a call on the
//! [`Machine`](crate::Machine) reports, a port map that does not build, a
//! clock or a memory that does not load, a configuration the hardware does
//! not offer.

use crate::run_exit::RunExit;
use crate::scheduler::Event;

/// Why a machine operation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// [`Machine::load_com`](crate::Machine::load_com): the image is
    /// larger than a segment less the PSP and the stack word.
    #[error("image of {len} bytes does not fit in a segment")]
    ImageTooLarge {
        /// The image's length in bytes.
        len: usize,
    },
    /// [`Machine::load_com`](crate::Machine::load_com): the segment runs
    /// past conventional RAM.
    #[error("segment {segment:04X}h is not entirely in conventional RAM")]
    SegmentNotInRam {
        /// The load segment.
        segment: u16,
    },
    /// The program did something tandem does not emulate.
    #[error("{what} (at {cs:04X}:{ip:04X})")]
    Unsupported {
        /// What (from [`RunExit::Unsupported`]).
        what: &'static str,
        /// CS where it stopped.
        cs: u16,
        /// IP where it stopped.
        ip: u32,
    },
    /// [`Machine::run_to_halt`](crate::Machine::run_to_halt): the run
    /// stopped otherwise than by `cli; hlt`.
    #[error("program did not halt ({exit:?}) at {cs:04X}:{ip:04X} after {cycles} cycles")]
    NotHalted {
        /// Why the run stopped.
        exit: RunExit,
        /// CS where it stopped.
        cs: u16,
        /// IP where it stopped.
        ip: u32,
        /// The cycle count then.
        cycles: u64,
    },
    /// A far call or software interrupt run by the machine did not come
    /// back to its return stub.
    #[error("call did not return ({exit:?}) at {cs:04X}:{ip:04X} after {cycles} cycles")]
    NoReturn {
        /// Why the run stopped.
        exit: RunExit,
        /// CS where it stopped.
        cs: u16,
        /// IP where it stopped.
        ip: u32,
        /// The cycle count then.
        cycles: u64,
    },
    /// An option ROM's initialisation failed.
    #[error("option ROM at {segment:04X}:0003: {source}")]
    OptionRom {
        /// The ROM's segment.
        segment: u16,
        /// What went wrong in its call.
        source: Box<Error>,
    },
    /// Two devices (or a device and the system board) claim one port.
    #[error("port {port:04X}h is claimed by both {first} and {second}")]
    PortClaimedTwice {
        /// The port.
        port: u16,
        /// The device registered first.
        first: &'static str,
        /// The device registered later.
        second: &'static str,
    },
    /// An event kind no registered device owns, or one owned twice.
    #[error(
        "scheduler event {event:?} has {owners} owners among the registered devices (one needed)"
    )]
    EventOwners {
        /// The event kind.
        event: Event,
        /// How many devices claim it.
        owners: usize,
    },
    /// More devices than the port map can index.
    #[error("{0} devices registered; the port map indexes at most 254")]
    TooManyDevices(usize),
    /// A saved memory whose map is not one entry per 2 KiB page of the
    /// first mebibyte.
    #[error("memory map of {pages} pages (a PC has {expected})")]
    MemoryMap {
        /// The saved map's entries.
        pages: usize,
        /// The entries a PC has.
        expected: usize,
    },
    /// A saved memory whose size is not the first mebibyte and its
    /// extended RAM (at most 15 MiB).
    #[error("memory of {bytes} bytes with {ext_bytes} bytes of extended RAM")]
    MemorySize {
        /// The saved memory's length.
        bytes: usize,
        /// The extended RAM it claims.
        ext_bytes: u32,
    },
    /// A name [`Fpu`](crate::Fpu) does not know.
    #[error("unknown FPU '{0}' (none, 387 or builtin)")]
    UnknownFpu(String),
    /// A Sound Blaster 16 base the card's jumpers do not offer.
    #[error("SB16 base {0:X}h: 220, 240, 260 or 280")]
    Sb16Base(u16),
    /// A Sound Blaster 16 interrupt the card does not offer.
    #[error("SB16 IRQ {0}: 2, 5, 7 or 10")]
    Sb16Irq(u8),
    /// A Sound Blaster 16 8-bit DMA channel the card does not offer.
    #[error("SB16 DMA {0}: 0, 1 or 3")]
    Sb16Dma(u8),
    /// A Sound Blaster 16 16-bit DMA channel the card does not offer.
    #[error("SB16 HDMA {0}: 5, 6 or 7")]
    Sb16Hdma(u8),
    /// A Gravis UltraSound base the card's jumpers do not offer.
    #[error("GUS base {0:X}h: 210, 220, 230, 240, 250 or 260")]
    GusBase(u16),
    /// A Gravis UltraSound DMA channel the GF1 cannot take.
    #[error("GUS DMA {0}: 1, 3, 5, 6 or 7")]
    GusDma(u8),
    /// A Gravis UltraSound interrupt the GF1 cannot take.
    #[error("GUS IRQ {0}: 2, 3, 5, 7, 11, 12 or 15")]
    GusIrq(u8),
    /// A saved device clock of zero Hz (it would divide by zero).
    #[error("a clock of {device_hz} Hz against a CPU of {cpu_hz} Hz")]
    ZeroClock {
        /// The device clock.
        device_hz: u64,
        /// The CPU clock.
        cpu_hz: u64,
    },
}
