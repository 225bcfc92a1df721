//! The VGA sequencer (ports 3C4h/3C5h): reset, clocking mode, map mask,
//! character map select and memory mode (IBM VGA Technical Reference,
//! "Sequencer Registers").

/// Sequencer registers 0-4.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Sequencer {
    /// The index register (3C4h).
    pub index: u8,
    /// SR00-SR04.
    pub regs: [u8; 5],
}

impl Sequencer {
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

    /// SR01 bit 0: 8-dot characters (else 9).
    pub fn dot8(&self) -> bool {
        self.regs[1] & 0x01 != 0
    }

    /// SR01 bit 3: the dot clock is divided by two.
    pub fn dot_clock_half(&self) -> bool {
        self.regs[1] & 0x08 != 0
    }

    /// SR01 bit 5: screen off.
    pub fn screen_off(&self) -> bool {
        self.regs[1] & 0x20 != 0
    }

    /// SR02: the planes CPU writes go to.
    pub fn map_mask(&self) -> u8 {
        self.regs[2] & 0x0F
    }

    /// SR03: font offsets in plane 2 for attribute bit 3 = 0 (map A...
    /// selected by bits 5,1,0) and = 1 (map B: bits 4,3,2), in bytes.
    pub fn char_maps(&self) -> (usize, usize) {
        let v = self.regs[3];
        let sel = |lo: u8, hi: u8| -> usize {
            let n = (v >> lo & 3) as usize | ((v >> hi & 1) as usize) << 2;
            // Maps 0-3 at 0, 16K, 32K, 48K; 4-7 at 8K, 24K, 40K, 56K.
            (n & 3) * 0x4000 + (n >> 2) * 0x2000
        };
        (sel(0, 4), sel(2, 5))
    }

    /// SR04 bit 3: chain 4 (the low two address bits select the plane).
    pub fn chain4(&self) -> bool {
        self.regs[4] & 0x08 != 0
    }

    /// SR04 bit 2 clear: odd/even addressing for CPU writes.
    pub fn odd_even(&self) -> bool {
        self.regs[4] & 0x04 == 0
    }
}
