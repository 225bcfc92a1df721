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

/// Where each of a program's segments is: the code segment and the data
/// segment its profile found, and the stack segment (SS at the entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segments {
    /// The main code segment.
    pub code: u16,
    /// The data segment.
    pub data: u16,
    /// The stack segment.
    pub stack: u16,
}

impl Segments {
    /// The paragraph of a segment kind.
    pub fn get(&self, seg: crate::profile::Seg) -> u16 {
        match seg {
            crate::profile::Seg::Code => self.code,
            crate::profile::Seg::Data => self.data,
            crate::profile::Seg::Stack => self.stack,
        }
    }

    /// Linear address of `off` in segment kind `seg`.
    pub fn linear(&self, seg: crate::profile::Seg, off: u16) -> u32 {
        ((self.get(seg) as u32) << 4) + off as u32
    }

    /// Linear address of a code-segment offset.
    pub fn code(&self, off: u16) -> u32 {
        ((self.code as u32) << 4) + off as u32
    }

    /// Linear address of a data-segment offset (the data group: SS = DS
    /// in the target game).
    pub fn data(&self, off: u16) -> u32 {
        ((self.data as u32) << 4) + off as u32
    }
}

/// A program's memory and where its segments are in it: what a model
/// reads (the reference's tables) or what a check looks at (the running
/// program).
pub struct Placed<'a, M: ?Sized> {
    /// Its memory.
    pub mem: &'a M,
    /// Where its segments are.
    pub segs: Segments,
}
