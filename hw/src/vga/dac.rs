//! The VGA DAC (the 256-entry RAMDAC: ports 3C6h PEL mask, 3C7h read index
//! and state, 3C8h write index, 3C9h data). Components are 6 bits; three
//! data accesses (red, green, blue) move the index to the next entry.

/// The DAC.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Dac {
    /// 256 entries of 6-bit red, green, blue.
    pub entries: Vec<[u8; 3]>,
    /// The PEL mask ANDed with every pixel.
    pub pel_mask: u8,
    write_index: u8,
    read_index: u8,
    /// Component (0-2) of the next data access.
    sub: u8,
    /// The last index write was to 3C7h (read mode).
    reading: bool,
    /// The write staging latch: a colour is written when all three arrive.
    staged: [u8; 3],
}

impl Default for Dac {
    fn default() -> Self {
        Dac {
            entries: vec![[0; 3]; 256],
            pel_mask: 0xFF,
            write_index: 0,
            read_index: 0,
            sub: 0,
            reading: false,
            staged: [0; 3],
        }
    }
}

impl Dac {
    /// 3C7h write: the read index.
    pub fn set_read_index(&mut self, v: u8) {
        self.read_index = v;
        self.sub = 0;
        self.reading = true;
    }

    /// 3C8h write: the write index.
    pub fn set_write_index(&mut self, v: u8) {
        self.write_index = v;
        self.sub = 0;
        self.reading = false;
    }

    /// 3C8h read: the write index.
    pub fn write_index(&self) -> u8 {
        self.write_index
    }

    /// 3C7h read: the DAC state (3 after a read-index write, 0 after a
    /// write-index write).
    pub fn state(&self) -> u8 {
        if self.reading {
            3
        } else {
            0
        }
    }

    /// 3C9h write.
    pub fn write_data(&mut self, v: u8) {
        self.staged[self.sub as usize] = v & 0x3F;
        self.sub += 1;
        if self.sub == 3 {
            self.entries[self.write_index as usize] = self.staged;
            self.write_index = self.write_index.wrapping_add(1);
            self.sub = 0;
        }
    }

    /// 3C9h read.
    pub fn read_data(&mut self) -> u8 {
        let v = self.entries[self.read_index as usize][self.sub as usize];
        self.sub += 1;
        if self.sub == 3 {
            self.read_index = self.read_index.wrapping_add(1);
            self.sub = 0;
        }
        v
    }

    /// The 8-bit RGB a pixel value shows (after the PEL mask).
    #[inline]
    pub fn rgb(&self, pixel: u8) -> [u8; 3] {
        self.entry_rgb(pixel & self.pel_mask)
    }

    /// Entry `index` as programmed: 6-bit R, G, B (black for an entry a
    /// damaged save state lacks).
    #[inline]
    pub fn entry6(&self, index: u8) -> [u8; 3] {
        self.entries
            .get(index as usize)
            .copied()
            .unwrap_or_default()
    }

    /// Entry `index` as 8-bit RGB, the PEL mask not applied (what a
    /// palette view shows): each 6-bit component scaled to 0-255 by
    /// repeating its top bits, as [`Dac::rgb`] converts it.
    #[inline]
    pub fn entry_rgb(&self, index: u8) -> [u8; 3] {
        let e = self.entry6(index);
        let x = |c: u8| (c << 2) | (c >> 4);
        [x(e[0]), x(e[1]), x(e[2])]
    }
}
