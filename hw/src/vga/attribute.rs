//! The VGA attribute controller (port 3C0h write, 3C1h read): palette,
//! mode control, overscan, color plane enable, panning, color select (IBM
//! VGA Technical Reference, "Attribute Controller Registers"). One port
//! takes index and data in turn; reading input status 1 resets the
//! flip-flop to "index".

/// Attribute controller registers 00h-14h.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct AttributeController {
    /// The index register (bits 4-0) with bit 5, palette address source
    /// (PAS: clear while the CPU programs the palette, blanking the screen).
    pub index: u8,
    /// True when the next 3C0h write is data.
    pub flip_flop: bool,
    /// AR00-AR14.
    pub regs: [u8; 21],
}

impl AttributeController {
    /// A 3C0h write.
    pub fn write(&mut self, v: u8) {
        if self.flip_flop {
            let i = (self.index & 0x1F) as usize;
            if let Some(r) = self.regs.get_mut(i) {
                *r = if i < 16 { v & 0x3F } else { v };
            }
        } else {
            self.index = v & 0x3F;
        }
        self.flip_flop = !self.flip_flop;
    }

    /// A 3C1h read: the register selected by the index.
    pub fn read(&self) -> u8 {
        self.regs
            .get((self.index & 0x1F) as usize)
            .copied()
            .unwrap_or(0)
    }

    /// PAS (index bit 5): the display uses the palette.
    pub fn video_enabled(&self) -> bool {
        self.index & 0x20 != 0
    }

    /// AR10 bit 0: graphics mode.
    pub fn graphics(&self) -> bool {
        self.regs[0x10] & 0x01 != 0
    }

    /// AR10 bit 2: line-graphics characters C0h-DFh repeat column 8 in the
    /// ninth.
    pub fn line_graphics(&self) -> bool {
        self.regs[0x10] & 0x04 != 0
    }

    /// AR10 bit 3: attribute bit 7 blinks (else it is a bright background).
    pub fn blink(&self) -> bool {
        self.regs[0x10] & 0x08 != 0
    }

    /// AR10 bit 6: 8-bit color (256-color modes).
    pub fn pel_width8(&self) -> bool {
        self.regs[0x10] & 0x40 != 0
    }

    /// AR10 bit 5: pixel panning mode. A line compare match turns the pel
    /// panning off for the rest of the frame, so a split-screen status
    /// window stays put while the area above it scrolls.
    pub fn pixel_pan_mode(&self) -> bool {
        self.regs[0x10] & 0x20 != 0
    }

    /// AR11: the overscan colour, a DAC index shown in the border (where
    /// display enable is off and blanking not on).
    pub fn overscan(&self) -> u8 {
        self.regs[0x11]
    }

    /// AR13 bits 3-0: horizontal pel panning.
    pub fn panning(&self) -> u8 {
        self.regs[0x13] & 0x0F
    }

    /// A 4-bit pixel through the palette to an 8-bit DAC index (AR12 plane
    /// enable, AR00-AR0F, AR10 bit 7 and AR14 color select).
    pub fn lookup(&self, v: u8) -> u8 {
        let v = v & self.regs[0x12] & 0x0F;
        let p = self.regs[v as usize];
        let cs = self.regs[0x14];
        let low = if self.regs[0x10] & 0x80 != 0 {
            (p & 0x0F) | (cs & 3) << 4
        } else {
            p & 0x3F
        };
        low | (cs & 0x0C) << 4
    }
}

/// The pixels a pel panning value `p` (AR13) shifts the picture left, for
/// characters `dots` pixels wide (8 or 9), or for 256-colour output
/// (`pel_width8`, 4 pixels per character clock). IBM VGA Technical
/// Reference, "Horizontal PEL Panning Register": 9-dot text shifts p + 1
/// (8 shifts 0), 8-dot modes p, 256-colour modes p / 2 (odd values are
/// undefined there and taken as the even value below).
pub fn pel_shift(p: u8, dots: usize, pel_width8: bool) -> usize {
    let p = (p & 0x0F) as usize;
    if pel_width8 {
        (p & 7) / 2
    } else if dots == 9 {
        if p >= 8 {
            0
        } else {
            p + 1
        }
    } else {
        p & 7
    }
}
