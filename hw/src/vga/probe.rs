//! What the display shows at one pixel and where it comes from: the
//! pixel value (a DAC index in 256-colour modes, an attribute in 16-colour
//! and text modes), its colour, and the video memory that holds it
//! (plane, offset, and the CPU address that reads it). It walks memory the
//! way [`super::render`] does, for the one scan line and character clock
//! the pixel is on, so it always agrees with the picture.

use super::attribute::pel_shift;
use super::{chain4_offset, Vga, PLANE_SIZE};

/// One pixel of the display, explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The pixel value: a DAC index (256-colour modes) or a 4-bit
    /// attribute (16/4-colour graphics, a text cell's foreground or
    /// background).
    pub value: u8,
    /// The DAC entry the value shows.
    pub dac_index: u8,
    /// Its 8-bit colour.
    pub rgb: [u8; 3],
    /// The plane that holds the byte (planar 16-colour modes: the value's
    /// four bits are at `bit` of planes 0-3 at `offset`; text: plane 0
    /// holds the character, plane 1 its attribute).
    pub plane: u8,
    /// The bit of the byte (planar and CGA modes), else None.
    pub bit: Option<u8>,
    /// The offset in the plane.
    pub offset: u32,
    /// The CPU's physical address that reads that byte with the memory
    /// mode set now, if the graphics controller's window reaches it.
    pub cpu_address: Option<u32>,
    /// Text modes: the character code of the cell.
    pub char_code: Option<u8>,
}

impl Vga {
    /// The pixel at (`x`, `y`) of the rendered frame, or None outside it
    /// or while the screen is off.
    pub fn probe(&self, x: usize, y: usize) -> Option<Probe> {
        if self.seq.screen_off() || !self.attr.video_enabled() {
            return None;
        }
        let f = if self.gc.graphics() {
            self.probe_graphics(x, y)?
        } else {
            self.probe_text(x, y)?
        };
        Some(Probe {
            cpu_address: self.cpu_address(f.plane, f.offset as usize),
            ..f
        })
    }

    /// The CPU address whose read returns plane `plane` at `offset` with
    /// the memory mode now (chain 4, odd/even or planar with the read
    /// map): the inverse of [`Vga::mem_read`]'s decoding.
    pub fn cpu_address(&self, plane: u8, offset: usize) -> Option<u32> {
        let (base, size) = self.gc.window();
        let size = size.min(0x1_0000) as usize;
        let hit = |off: usize| -> bool {
            if self.seq.chain4() {
                off & 3 == plane as usize && chain4_offset(off) == offset
            } else if self.gc.chain_odd_even() {
                off & 1 == (plane & 1) as usize && off & !1 == offset
            } else {
                off == offset
            }
        };
        let found = if self.seq.chain4() || self.gc.chain_odd_even() {
            (0..size).find(|&o| hit(o))
        } else {
            (offset < size).then_some(offset)
        };
        found.map(|o| base + o as u32)
    }

    fn probe_graphics(&self, x: usize, y: usize) -> Option<Probe> {
        let c = &self.crtc;
        let cols = c.h_display() as usize;
        let cga_lines = c.regs[0x17] & 0x03 != 0x03;
        let ch = c.char_height() as usize;
        let scan_rep = if c.double_scan() { 2 } else { 1 } * if cga_lines { 1 } else { ch };
        let rows = (c.v_display() as usize).div_ceil(scan_rep).max(1);
        let shift256 = self.gc.shift256();
        let ppc = if shift256 { 4 } else { 8 };
        if x >= cols * ppc || y >= rows {
            return None;
        }
        let line_compare = c.line_compare() as usize;
        let mut row_start = self.latched_start() as u32 + c.byte_panning();
        let pan = pel_shift(self.latched_panning(), 8, self.attr.pel_width8());
        let step = 2 * c.offset();
        let mut split = false;
        for yy in 0..=y {
            if !split && yy * scan_rep > line_compare {
                row_start = 0;
                split = true;
            }
            if yy == y {
                break;
            }
            let sl = if cga_lines { yy % ch } else { 0 };
            if !cga_lines || sl == ch - 1 {
                row_start = row_start.wrapping_add(step);
            }
        }
        let sl = if cga_lines { y % ch } else { 0 };
        let shift = if split && self.attr.pixel_pan_mode() {
            0
        } else {
            pan
        };
        let i = x + shift;
        let (col, within) = (i / ppc, i % ppc);
        let mut a = c.map_address(row_start + col as u32);
        if c.regs[0x17] & 0x01 == 0 {
            a = a & !0x2000 | (sl & 1) << 13;
        }
        if c.regs[0x17] & 0x02 == 0 {
            a = a & !0x4000 | (sl >> 1 & 1) << 14;
        }
        let plane = |p: usize| self.planes[p * PLANE_SIZE + a];
        let (value, dac_index, plane_no, bit) = if shift256 {
            let v = plane(within);
            (v, v, within as u8, None)
        } else if self.gc.shift_interleave() {
            let src = if within < 4 { 0 } else { 1 };
            let b = (6 - 2 * (within % 4)) as u8;
            let v = plane(src) >> b & 3;
            (v, self.attr.lookup(v), src as u8, Some(b))
        } else {
            let b = 7 - within as u8;
            let v = (0..4).fold(0, |v, p| v | (plane(p) >> b & 1) << p);
            (v, self.attr.lookup(v), 0, Some(b))
        };
        Some(Probe {
            value,
            dac_index,
            rgb: self.dac.rgb(dac_index),
            plane: plane_no,
            bit,
            offset: a as u32,
            cpu_address: None,
            char_code: None,
        })
    }

    fn probe_text(&self, x: usize, y: usize) -> Option<Probe> {
        let c = &self.crtc;
        let cols = c.h_display() as usize;
        let cw = if self.seq.dot8() { 8 } else { 9 };
        let ch = c.char_height() as usize;
        let dbl = if c.double_scan() { 2 } else { 1 };
        let lines = c.v_display() as usize / dbl;
        if x >= cols * cw || y >= lines {
            return None;
        }
        // Where the frame's line `y` is: the same counters as the renderer.
        let line_compare = c.line_compare() as usize;
        let step = 2 * c.offset();
        let mut row_start = self.latched_start() as u32 + c.byte_panning();
        let mut sl = c.preset_row_scan() as usize;
        let mut split = false;
        for yy in 0..=y {
            if !split && yy * dbl > line_compare {
                row_start = 0;
                sl = 0;
                split = true;
            }
            if yy == y {
                break;
            }
            sl += 1;
            if sl >= ch {
                sl = 0;
                row_start = row_start.wrapping_add(step);
            }
        }
        let pan = pel_shift(self.latched_panning(), cw, false);
        let shift = if split && self.attr.pixel_pan_mode() {
            0
        } else {
            pan
        };
        let i = x + shift;
        let (col, dx) = (i / cw, i % cw);
        let a = c.map_address(row_start + col as u32);
        let code = self.planes[a];
        let at = self.planes[PLANE_SIZE + a];
        let (map_a, map_b) = self.seq.char_maps();
        let font_base = if at & 0x08 != 0 { map_b } else { map_a };
        let bits = if sl < 32 {
            self.planes[2 * PLANE_SIZE + (font_base + code as usize * 32 + sl) % PLANE_SIZE]
        } else {
            0
        };
        let on = if dx < 8 {
            bits >> (7 - dx) & 1 != 0
        } else {
            self.attr.line_graphics() && (0xC0..=0xDF).contains(&code) && bits & 1 != 0
        };
        let mut fg = at & 0x0F;
        let mut bg = at >> 4;
        if self.attr.blink() {
            bg &= 7;
            if at & 0x80 != 0 && self.frames() & 32 != 0 {
                fg = bg;
            }
        }
        let value = if on { fg } else { bg };
        let dac_index = self.attr.lookup(value);
        Some(Probe {
            value,
            dac_index,
            rgb: self.dac.rgb(dac_index),
            plane: 0,
            bit: None,
            offset: a as u32,
            cpu_address: None,
            char_code: Some(code),
        })
    }
}
