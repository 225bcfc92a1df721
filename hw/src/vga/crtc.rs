//! The VGA CRT controller (ports 3D4h/3D5h, or 3B4h/3B5h in monochrome
//! addressing): display timing, start address, offset, scan-line layout
//! and cursor (IBM VGA Technical Reference, "CRT Controller Registers").

/// CRTC registers 00h-18h.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Crtc {
    /// The index register.
    pub index: u8,
    /// CR00-CR18.
    pub regs: [u8; 25],
}

impl Crtc {
    /// Reads the data port.
    pub fn read(&self) -> u8 {
        self.regs.get(self.index as usize).copied().unwrap_or(0xFF)
    }

    /// Writes the data port. CR11 bit 7 protects CR00-CR07, except the line
    /// compare bit 8 in CR07 bit 4.
    pub fn write(&mut self, v: u8) {
        let i = self.index as usize;
        if self.regs[0x11] & 0x80 != 0 && i <= 7 {
            if i == 7 {
                self.regs[7] = (self.regs[7] & !0x10) | (v & 0x10);
            }
            return;
        }
        if let Some(r) = self.regs.get_mut(i) {
            *r = v;
        }
    }

    fn ov(&self, bit8: u8, bit9: u8) -> u32 {
        let o = self.regs[7];
        ((o >> bit8 & 1) as u32) << 8 | ((o >> bit9 & 1) as u32) << 9
    }

    /// Horizontal total in character clocks (CR00 + 5).
    pub fn h_total(&self) -> u32 {
        self.regs[0] as u32 + 5
    }

    /// Displayed characters per line (CR01 + 1).
    pub fn h_display(&self) -> u32 {
        self.regs[1] as u32 + 1
    }

    /// Scan lines per frame (CR06 + overflow + 2).
    pub fn v_total(&self) -> u32 {
        self.regs[6] as u32 + self.ov(0, 5) + 2
    }

    /// Displayed scan lines (CR12 + overflow + 1).
    pub fn v_display(&self) -> u32 {
        self.regs[0x12] as u32 + self.ov(1, 6) + 1
    }

    /// First scan line of vertical retrace (CR10 + overflow).
    pub fn v_retrace_start(&self) -> u32 {
        self.regs[0x10] as u32 + self.ov(2, 7)
    }

    /// Vertical retrace length in scan lines: it ends when the line
    /// counter's low four bits equal CR11 bits 3-0.
    pub fn v_retrace_len(&self) -> u32 {
        let end = (self.regs[0x11] & 0x0F) as u32;
        let n = end.wrapping_sub(self.v_retrace_start()) & 0x0F;
        if n == 0 {
            16
        } else {
            n
        }
    }

    /// Start of horizontal blanking (CR02): the character count at which
    /// the blanking signal comes on.
    pub fn h_blank_start(&self) -> u32 {
        self.regs[2] as u32
    }

    /// End of horizontal blanking: the six bits (CR03 bits 4-0 and CR05
    /// bit 7) the character count's low bits match when blanking ends.
    pub fn h_blank_end(&self) -> u32 {
        (self.regs[3] & 0x1F) as u32 | ((self.regs[5] >> 7) as u32) << 5
    }

    /// Start of vertical blanking: CR15, CR07 bit 3 and CR09 bit 5.
    pub fn v_blank_start(&self) -> u32 {
        self.regs[0x15] as u32
            | ((self.regs[7] >> 3 & 1) as u32) << 8
            | ((self.regs[9] >> 5 & 1) as u32) << 9
    }

    /// End of vertical blanking (CR16): the eight bits the scan line
    /// counter's low bits match when blanking ends.
    pub fn v_blank_end(&self) -> u32 {
        self.regs[0x16] as u32
    }

    /// Line compare (split screen) scan line: CR18 + CR07 bit 4 + CR09 bit 6.
    pub fn line_compare(&self) -> u32 {
        self.regs[0x18] as u32
            | ((self.regs[7] >> 4 & 1) as u32) << 8
            | ((self.regs[9] >> 6 & 1) as u32) << 9
    }

    /// Scan lines per character row (CR09 bits 4-0, + 1).
    pub fn char_height(&self) -> u32 {
        (self.regs[9] & 0x1F) as u32 + 1
    }

    /// CR09 bit 7: every scan line is shown twice.
    pub fn double_scan(&self) -> bool {
        self.regs[9] & 0x80 != 0
    }

    /// The display start address (CR0C:CR0D).
    pub fn start_address(&self) -> u16 {
        (self.regs[0x0C] as u16) << 8 | self.regs[0x0D] as u16
    }

    /// CR13: the offset between character rows, in units of two memory
    /// address counts.
    pub fn offset(&self) -> u32 {
        self.regs[0x13] as u32
    }

    /// CR14 bit 6: double-word addressing.
    pub fn dword_mode(&self) -> bool {
        self.regs[0x14] & 0x40 != 0
    }

    /// CR17 bit 6 clear: word addressing (when not double-word).
    pub fn word_mode(&self) -> bool {
        self.regs[0x17] & 0x40 == 0
    }

    /// Turns the memory address counter into a display memory address:
    /// double-word mode rotates MA13-12 into bits 1-0 (matching chain 4,
    /// which puts CPU address bits 15-14 there), word mode puts MA13 or
    /// MA15 into bit 0.
    pub fn map_address(&self, ma: u32) -> usize {
        let a = if self.dword_mode() {
            (ma << 2) | (ma >> 12 & 3)
        } else if self.word_mode() {
            // CR17 bit 5 picks MA13 or MA15 for address bit 0.
            let b0 = if self.regs[0x17] & 0x20 != 0 {
                ma >> 15 & 1
            } else {
                ma >> 13 & 1
            };
            (ma << 1) | b0
        } else {
            ma
        };
        (a & 0xFFFF) as usize
    }

    /// The cursor: location, first and last scan line, and whether it is
    /// enabled (CR0A bit 5 clear).
    pub fn cursor(&self) -> (u16, u8, u8, bool) {
        let loc = (self.regs[0x0E] as u16) << 8 | self.regs[0x0F] as u16;
        (
            loc,
            self.regs[0x0A] & 0x1F,
            self.regs[0x0B] & 0x1F,
            self.regs[0x0A] & 0x20 == 0,
        )
    }

    /// The preset row scan (CR08 bits 4-0).
    pub fn preset_row_scan(&self) -> u32 {
        (self.regs[8] & 0x1F) as u32
    }

    /// CR08 bits 6-5: byte panning, characters added to the start address.
    pub fn byte_panning(&self) -> u32 {
        (self.regs[8] >> 5 & 3) as u32
    }
}
