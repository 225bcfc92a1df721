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
}

/// A placement is a program whose data and stack segments coincide.
impl From<Placement> for Segments {
    fn from(p: Placement) -> Segments {
        Segments {
            code: p.code_seg,
            data: p.data_seg,
            stack: p.data_seg,
        }
    }
}
