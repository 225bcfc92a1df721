//! The models' only view of the program: guest memory. Tables (sine,
//! amplitudes, link graphs) are read from it, never copied into Rust.

/// Read access to guest memory by linear address.
pub trait GuestMemory {
    /// The byte at a linear address.
    fn read8(&self, linear: u32) -> u8;

    /// The little-endian word at a linear address.
    fn read16(&self, linear: u32) -> u16 {
        self.read8(linear) as u16 | (self.read8(linear.wrapping_add(1)) as u16) << 8
    }
}

impl GuestMemory for [u8] {
    fn read8(&self, linear: u32) -> u8 {
        self.get(linear as usize).copied().unwrap_or(0xFF)
    }
}

impl GuestMemory for Vec<u8> {
    fn read8(&self, linear: u32) -> u8 {
        self.as_slice().read8(linear)
    }
}

impl GuestMemory for emu::FlatBus {
    fn read8(&self, linear: u32) -> u8 {
        self.mem[(linear & self.mask()) as usize]
    }
}

impl GuestMemory for hw::machine::PcBus {
    fn read8(&self, linear: u32) -> u8 {
        self.mem.peek(linear)
    }
}

impl GuestMemory for hw::Machine {
    fn read8(&self, linear: u32) -> u8 {
        self.peek8(linear)
    }
}

/// Where a program is in memory: the paragraph of its main code segment and
/// of its data group (SS = DS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The main code segment.
    pub code_seg: u16,
    /// The data group (SS = DS).
    pub data_seg: u16,
}

impl Placement {
    /// Linear address of a code-segment offset.
    pub fn code(&self, off: u16) -> u32 {
        ((self.code_seg as u32) << 4) + off as u32
    }

    /// Linear address of a data-group (SS-relative) offset.
    pub fn data(&self, off: u16) -> u32 {
        ((self.data_seg as u32) << 4) + off as u32
    }
}
