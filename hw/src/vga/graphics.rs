//! The VGA graphics controller (ports 3CEh/3CFh): set/reset, color
//! compare, data rotate and logical operation, read map, write and read
//! modes, memory map, bit mask (IBM VGA Technical Reference, "Graphics
//! Controller Registers").

/// Graphics controller registers 0-8.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct GraphicsController {
    /// The index register.
    pub index: u8,
    /// GR00-GR08.
    pub regs: [u8; 9],
}

impl GraphicsController {
    /// Reads the data port.
    pub fn read(&self) -> u8 {
        self.regs.get(self.index as usize).copied().unwrap_or(0xFF)
    }

    /// Writes the data port.
    pub fn write(&mut self, v: u8) {
        if let Some(r) = self.regs.get_mut(self.index as usize) {
            *r = v;
        }
    }

    /// GR00: set/reset value per plane.
    pub fn set_reset(&self) -> u8 {
        self.regs[0] & 0x0F
    }

    /// GR01: planes whose data comes from set/reset in write mode 0.
    pub fn enable_set_reset(&self) -> u8 {
        self.regs[1] & 0x0F
    }

    /// GR02: color compare.
    pub fn color_compare(&self) -> u8 {
        self.regs[2] & 0x0F
    }

    /// GR03 bits 2-0: rotate count.
    pub fn rotate(&self) -> u32 {
        (self.regs[3] & 7) as u32
    }

    /// GR03 bits 4-3: 0 replace, 1 AND, 2 OR, 3 XOR.
    pub fn logical_op(&self) -> u8 {
        self.regs[3] >> 3 & 3
    }

    /// GR04: the plane read mode 0 returns.
    pub fn read_map(&self) -> usize {
        (self.regs[4] & 3) as usize
    }

    /// GR05 bits 1-0: write mode.
    pub fn write_mode(&self) -> u8 {
        self.regs[5] & 3
    }

    /// GR05 bit 3: read mode 1 (color compare).
    pub fn read_mode1(&self) -> bool {
        self.regs[5] & 0x08 != 0
    }

    /// GR05 bit 5: CGA-style interleaved shift (modes 4/5).
    pub fn shift_interleave(&self) -> bool {
        self.regs[5] & 0x20 != 0
    }

    /// GR05 bit 6: 256-color shift mode.
    pub fn shift256(&self) -> bool {
        self.regs[5] & 0x40 != 0
    }

    /// GR06 bit 0: graphics (not alphanumeric) mode.
    pub fn graphics(&self) -> bool {
        self.regs[6] & 0x01 != 0
    }

    /// GR06 bit 1: chain odd/even (address bit 0 selects the plane on reads).
    pub fn chain_odd_even(&self) -> bool {
        self.regs[6] & 0x02 != 0
    }

    /// GR06 bits 3-2: the CPU window: (base, size) inside A0000h-BFFFFh.
    pub fn window(&self) -> (u32, u32) {
        match self.regs[6] >> 2 & 3 {
            0 => (0xA0000, 0x20000),
            1 => (0xA0000, 0x10000),
            2 => (0xB0000, 0x8000),
            _ => (0xB8000, 0x8000),
        }
    }

    /// GR07: planes that take part in color compare.
    pub fn color_dont_care(&self) -> u8 {
        self.regs[7] & 0x0F
    }

    /// True when a CPU write stores its byte unchanged into each enabled
    /// plane: write mode 0, no rotation, replace, no set/reset, every bit
    /// of the bit mask.
    #[inline]
    pub fn plain_write(&self) -> bool {
        self.regs[5] & 3 == 0
            && self.regs[3] & 0x1F == 0
            && self.regs[1] & 0x0F == 0
            && self.regs[8] == 0xFF
    }

    /// GR08: bit mask.
    pub fn bit_mask(&self) -> u8 {
        self.regs[8]
    }
}
