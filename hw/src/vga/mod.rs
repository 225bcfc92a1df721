//! The VGA: 256 KiB of display memory in four planes, the register blocks
//! (sequencer, CRTC, graphics controller, attribute controller, DAC), the
//! CPU's window at A0000h-BFFFFh with latches, write modes 0-3, logical
//! operations and bit mask, and the display timing that input status 1
//! (3DAh) reports.
//!
//! Timing: the dot clock (25.175 or 28.322 MHz, from the misc output
//! register) runs off the CPU clock through exact integer arithmetic. The
//! beam position is the dot count since an anchor, taken again whenever a
//! register that changes the frame geometry is written, so the phase is
//! continuous. The start address and pel panning are latched at the start
//! of vertical retrace ([`Vga::vertical_retrace_start`], called by the
//! machine's scheduler), which is what page flipping relies on.

pub mod attribute;
pub mod crtc;
pub mod dac;
pub mod font;
pub mod geometry;
pub mod graphics;
pub mod probe;
pub mod render;
pub mod sequencer;

pub use attribute::AttributeController;
pub use crtc::Crtc;
pub use dac::Dac;
pub use geometry::View;
pub use graphics::GraphicsController;
pub use render::{Frame, IndexedFrame};
pub use sequencer::Sequencer;
pub use tables::{DacTable, ModeParams, ScanLines, PARAMS, PARAM_SIZE};

use crate::scheduler::ClockRatio;

/// Bytes per plane.
pub const PLANE_SIZE: usize = 0x10000;

/// The display timing in dots, derived from the registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Timing {
    /// Dot clock in Hz (already halved when SR01 bit 3 is set).
    pub dot_hz: u64,
    /// Dots per scan line (horizontal total).
    pub line_dots: u64,
    /// Displayed dots per scan line.
    pub display_dots: u64,
    /// Scan lines per frame.
    pub lines: u64,
    /// Displayed scan lines.
    pub display_lines: u64,
    /// First line of vertical retrace.
    pub vrs: u64,
    /// Vertical retrace length in lines.
    pub vr_len: u64,
}

impl Timing {
    /// Dots per frame.
    pub fn frame_dots(&self) -> u64 {
        (self.line_dots * self.lines).max(1)
    }

    /// Frames per second as a fraction (numerator, denominator).
    pub fn refresh(&self) -> (u64, u64) {
        (self.dot_hz, self.frame_dots())
    }
}

/// The VGA adapter.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Vga {
    /// Display memory: plane p at `p * PLANE_SIZE`.
    pub planes: Vec<u8>,
    /// The four latches loaded by every CPU read.
    pub latches: [u8; 4],
    /// Misc output register (3C2h write, 3CCh read).
    pub misc: u8,
    /// Feature control.
    pub feature: u8,
    /// The sequencer.
    pub seq: Sequencer,
    /// The CRT controller.
    pub crtc: Crtc,
    /// The graphics controller.
    pub gc: GraphicsController,
    /// The attribute controller.
    pub attr: AttributeController,
    /// The DAC.
    pub dac: Dac,
    cpu_hz: u64,
    /// Beam anchor: at cycle `anchor_cycle` the beam was at dot `anchor_dot`
    /// of the frame.
    anchor_cycle: u64,
    anchor_dot: u64,
    timing: Timing,
    /// Start address and panning latched at the last vertical retrace.
    latched_start: u16,
    latched_panning: u8,
    /// Vertical retraces seen (frames).
    frames: u64,
}

/// The plane offset of a chain-4 access.
#[inline]
fn chain4_offset(off: usize) -> usize {
    (off & 0xFFFC) | (off >> 14 & 3)
}

const DOT_25: u64 = 25_175_000;
const DOT_28: u64 = 28_322_000;

impl Vga {
    /// A VGA in mode 03h state (as the video BIOS leaves it at power-on)
    /// on a CPU clocked at `cpu_hz`.
    pub fn new(cpu_hz: u64) -> Self {
        let mut v = Vga {
            planes: vec![0; 4 * PLANE_SIZE],
            latches: [0; 4],
            misc: 0,
            feature: 0,
            seq: Sequencer::default(),
            crtc: Crtc::default(),
            gc: GraphicsController::default(),
            attr: AttributeController::default(),
            dac: Dac::default(),
            cpu_hz: cpu_hz.max(1),
            anchor_cycle: 0,
            anchor_dot: 0,
            timing: Timing {
                dot_hz: DOT_25,
                line_dots: 800,
                display_dots: 640,
                lines: 449,
                display_lines: 400,
                vrs: 412,
                vr_len: 2,
            },
            latched_start: 0,
            latched_panning: 0,
            frames: 0,
        };
        v.set_mode(0x03, 0);
        v
    }

    /// The current timing.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// Frames (vertical retraces) seen so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The start address latched at the last vertical retrace.
    pub fn latched_start(&self) -> u16 {
        self.latched_start
    }

    /// The pel panning (AR13 bits 3-0) latched at the last vertical
    /// retrace.
    pub fn latched_panning(&self) -> u8 {
        self.latched_panning
    }

    fn compute_timing(&self) -> Timing {
        let mut dot_hz = if self.misc >> 2 & 3 == 1 {
            DOT_28
        } else {
            DOT_25
        };
        if self.seq.dot_clock_half() {
            dot_hz /= 2;
        }
        let cw = if self.seq.dot8() { 8 } else { 9 };
        let c = &self.crtc;
        let lines = c.v_total().max(2) as u64;
        Timing {
            dot_hz,
            line_dots: (c.h_total() * cw) as u64,
            display_dots: ((c.h_display() * cw) as u64).min((c.h_total() * cw) as u64),
            lines,
            display_lines: (c.v_display() as u64).min(lines),
            vrs: (c.v_retrace_start() as u64).min(lines - 1),
            vr_len: c.v_retrace_len() as u64,
        }
    }

    /// Dot position within the frame at cycle `now`.
    fn beam(&self, now: u64) -> u64 {
        let r = ClockRatio::new(self.timing.dot_hz, self.cpu_hz);
        let dots = r.ticks_at(now.saturating_sub(self.anchor_cycle));
        (self.anchor_dot + dots) % self.timing.frame_dots()
    }

    /// Re-derives the timing after a register write at `now`, keeping the
    /// beam where it is.
    fn retime(&mut self, now: u64) {
        let t = self.compute_timing();
        if t != self.timing {
            let pos = self.beam(now);
            self.timing = t;
            self.anchor_cycle = now;
            self.anchor_dot = pos % t.frame_dots();
        }
    }

    /// (scan line, dot in line) at cycle `now`.
    pub fn beam_position(&self, now: u64) -> (u64, u64) {
        let p = self.beam(now);
        (p / self.timing.line_dots, p % self.timing.line_dots)
    }

    /// Input status 1 at `now`: bit 0 display disabled (blanking), bit 3
    /// vertical retrace.
    pub fn input_status1(&self, now: u64) -> u8 {
        let t = &self.timing;
        let (line, dot) = self.beam_position(now);
        let mut v = 0;
        if line >= t.display_lines || dot >= t.display_dots {
            v |= 0x01;
        }
        if line >= t.vrs && line < t.vrs + t.vr_len {
            v |= 0x08;
        }
        v
    }

    /// The first cycle after `now` at which vertical retrace starts.
    pub fn next_retrace(&self, now: u64) -> u64 {
        let t = &self.timing;
        let frame = t.frame_dots();
        let pos = self.beam(now);
        let target = t.vrs * t.line_dots;
        let wait = if target > pos {
            target - pos
        } else {
            frame - pos + target
        };
        let r = ClockRatio::new(t.dot_hz, self.cpu_hz);
        let since = r.ticks_at(now.saturating_sub(self.anchor_cycle));
        self.anchor_cycle + r.cycle_of_tick(since + wait)
    }

    /// Called at the start of vertical retrace: latches the start address
    /// and panning, counts the frame.
    pub fn vertical_retrace_start(&mut self) {
        self.latched_start = self.crtc.start_address();
        self.latched_panning = self.attr.panning();
        self.frames += 1;
    }

    // ---- CPU memory access ----

    /// Maps a physical address in A0000h-BFFFFh to an offset in the
    /// graphics controller's window, or `None` outside it.
    #[inline]
    fn window_offset(&self, addr: u32) -> Option<u32> {
        let (base, size) = self.gc.window();
        let off = addr.wrapping_sub(base);
        (off < size).then_some(off)
    }

    /// The planes an access at window offset `off` reaches, and the plane
    /// offset (chain 4: the low two bits pick the plane and address bits
    /// 15-14 take their place; odd/even: bit 0 picks the plane).
    #[inline]
    fn decode_write(&self, off: u32) -> (u8, usize) {
        let off = off as usize & 0xFFFF;
        if self.seq.chain4() {
            (1 << (off & 3), chain4_offset(off))
        } else if self.seq.odd_even() {
            (0b0101 << (off & 1), off & !1)
        } else {
            (0x0F, off)
        }
    }

    /// CPU read at physical address `addr`.
    pub fn mem_read(&mut self, addr: u32) -> u8 {
        let Some(off) = self.window_offset(addr) else {
            return 0xFF;
        };
        let off = off as usize & 0xFFFF;
        let (plane, o) = if self.seq.chain4() {
            (off & 3, chain4_offset(off))
        } else if self.gc.chain_odd_even() {
            ((self.gc.read_map() & 2) | (off & 1), off & !1)
        } else {
            (self.gc.read_map(), off)
        };
        for p in 0..4 {
            self.latches[p] = self.planes[p * PLANE_SIZE + o];
        }
        if self.gc.read_mode1() {
            // Read mode 1: 1 where every "care" plane matches color compare.
            let cc = self.gc.color_compare();
            let care = self.gc.color_dont_care();
            let mut r = 0xFF;
            for p in 0..4 {
                if care >> p & 1 != 0 {
                    let want = if cc >> p & 1 != 0 { 0xFF } else { 0 };
                    r &= !(self.latches[p] ^ want);
                }
            }
            r
        } else {
            self.latches[plane]
        }
    }

    /// CPU writes of the low `n` bytes of `v` at physical `addr`,
    /// `addr + 1`, ..., low byte first: [`Vga::mem_write`] of each, with
    /// the registers looked at once when the write is plain
    /// ([`GraphicsController::plain_write`]: each byte goes unchanged into
    /// the planes it reaches).
    #[inline(always)]
    pub fn mem_write_n(&mut self, addr: u32, n: u32, v: u32) {
        if !self.gc.plain_write() {
            for i in 0..n {
                self.mem_write(addr.wrapping_add(i), (v >> (8 * i)) as u8);
            }
            return;
        }
        let map = self.seq.map_mask();
        let (base, size) = self.gc.window();
        for i in 0..n {
            let off = addr.wrapping_add(i).wrapping_sub(base);
            if off >= size {
                continue;
            }
            let (planes, o) = self.decode_write(off);
            let mask = planes & map;
            let b = (v >> (8 * i)) as u8;
            if o >= PLANE_SIZE || self.planes.len() < 4 * PLANE_SIZE {
                continue;
            }
            for p in 0..4 {
                if mask >> p & 1 != 0 {
                    self.planes[p * PLANE_SIZE + o] = b;
                }
            }
        }
    }

    /// CPU write at physical address `addr`.
    pub fn mem_write(&mut self, addr: u32, v: u8) {
        let Some(off) = self.window_offset(addr) else {
            return;
        };
        let (planes, o) = self.decode_write(off);
        let mask = planes & self.seq.map_mask();
        if mask == 0 {
            return;
        }
        if self.gc.plain_write() {
            // The byte itself into every enabled plane (what the general
            // path below computes for these registers).
            for p in 0..4 {
                if mask >> p & 1 != 0 {
                    self.planes[p * PLANE_SIZE + o] = v;
                }
            }
            return;
        }
        self.write_planes(mask, o, v);
    }

    /// A CPU write of `v` at plane offset `o` to the planes in `mask`
    /// through the write mode, rotation, set/reset, logical operation and
    /// bit mask.
    fn write_planes(&mut self, mask: u8, o: usize, v: u8) {
        let gc = &self.gc;
        let rotated = v.rotate_right(gc.rotate());
        let sr = gc.set_reset();
        let esr = gc.enable_set_reset();
        let mut bit_mask = gc.bit_mask();
        let op = gc.logical_op();
        let mode = gc.write_mode();
        if mode == 3 {
            bit_mask &= rotated;
        }
        for p in 0..4 {
            if mask >> p & 1 == 0 {
                continue;
            }
            let latch = self.latches[p];
            let expand = |b: u8| if b & 1 != 0 { 0xFF } else { 0x00 };
            let data = match mode {
                0 => {
                    if esr >> p & 1 != 0 {
                        expand(sr >> p)
                    } else {
                        rotated
                    }
                }
                1 => {
                    self.planes[p * PLANE_SIZE + o] = latch;
                    continue;
                }
                2 => expand(v >> p),
                _ => expand(sr >> p),
            };
            let alu = match op {
                0 => data,
                1 => data & latch,
                2 => data | latch,
                _ => data ^ latch,
            };
            self.planes[p * PLANE_SIZE + o] = (alu & bit_mask) | (latch & !bit_mask);
        }
    }

    // ---- ports ----

    fn crtc_base(&self) -> u16 {
        if self.misc & 1 != 0 {
            0x3D0
        } else {
            0x3B0
        }
    }

    /// A port read (3B0h-3DFh) at cycle `now`.
    pub fn io_read(&mut self, port: u16, now: u64) -> u8 {
        let cb = self.crtc_base();
        match port {
            0x3C0 => self.attr.index,
            0x3C1 => self.attr.read(),
            0x3C2 => 0x10, // input status 0: switch sense
            0x3C3 => 0x01,
            0x3C4 => self.seq.index,
            0x3C5 => self.seq.read(),
            0x3C6 => self.dac.pel_mask,
            0x3C7 => self.dac.state(),
            0x3C8 => self.dac.write_index(),
            0x3C9 => self.dac.read_data(),
            0x3CA => self.feature,
            0x3CC => self.misc,
            0x3CE => self.gc.index,
            0x3CF => self.gc.read(),
            p if p == cb + 4 => self.crtc.index,
            p if p == cb + 5 => self.crtc.read(),
            p if p == cb + 0xA => {
                self.attr.flip_flop = false;
                self.input_status1(now)
            }
            _ => 0xFF,
        }
    }

    /// A port write (3B0h-3DFh) at cycle `now`.
    pub fn io_write(&mut self, port: u16, v: u8, now: u64) {
        let cb = self.crtc_base();
        match port {
            0x3C0 => self.attr.write(v),
            0x3C2 => {
                self.misc = v;
                self.retime(now);
            }
            0x3C4 => self.seq.index = v,
            0x3C5 => {
                self.seq.write(v);
                self.retime(now);
            }
            0x3C6 => self.dac.pel_mask = v,
            0x3C7 => self.dac.set_read_index(v),
            0x3C8 => self.dac.set_write_index(v),
            0x3C9 => self.dac.write_data(v),
            0x3CE => self.gc.index = v,
            0x3CF => self.gc.write(v),
            p if p == cb + 4 => self.crtc.index = v,
            p if p == cb + 5 => {
                self.crtc.write(v);
                self.retime(now);
            }
            p if p == cb + 0xA => self.feature = v,
            _ => {}
        }
    }

    // ---- mode sets ----

    /// Loads a parameter table entry into the registers (misc output,
    /// sequencer, CRTC, graphics and attribute controllers; AR14 = 0) at
    /// cycle `now`, as the video BIOS's mode set does; the display
    /// restarts with the new timing.
    pub fn load_params(&mut self, p: &ModeParams, now: u64) {
        self.misc = p.misc;
        self.seq.regs[0] = 0x03;
        self.seq.regs[1..5].copy_from_slice(&p.seq);
        self.crtc.regs = p.crtc;
        self.gc.regs = p.gc;
        self.attr.regs[..20].copy_from_slice(&p.attr);
        self.attr.regs[20] = 0;
        self.attr.index = 0x20;
        self.attr.flip_flop = false;
        self.latched_start = 0;
        self.latched_panning = 0;
        self.retime(now);
    }

    /// Clears display memory as a mode set does: text modes get blank
    /// cells (space, attribute 07h) in planes 0/1, graphics modes zeros.
    /// Plane 2 (the fonts) is left alone in text modes.
    pub fn clear_memory(&mut self, text: bool) {
        if text {
            for i in (0..PLANE_SIZE).step_by(2) {
                self.planes[i] = 0x20;
                self.planes[i + 1] = 0x20;
                self.planes[PLANE_SIZE + i] = 0x07;
                self.planes[PLANE_SIZE + i + 1] = 0x07;
            }
        } else {
            self.planes.fill(0);
        }
    }

    /// Writes `count` glyphs of `height` bytes from `glyphs`, starting at
    /// character `first`, into font map `map` (0-7) of plane 2 (32 bytes
    /// per character; rows past `height` are cleared).
    pub fn load_font(&mut self, map: u8, first: u8, count: usize, height: usize, glyphs: &[u8]) {
        let (n, h) = (map as usize & 7, height.min(32));
        let base = 2 * PLANE_SIZE + (n & 3) * 0x4000 + (n >> 2) * 0x2000;
        for i in 0..count {
            let c = first as usize + i;
            if c > 255 {
                break;
            }
            let at = base + c * 32;
            for row in 0..32 {
                self.planes[at + row] = if row < h {
                    glyphs.get(i * height + row).copied().unwrap_or(0)
                } else {
                    0
                };
            }
        }
    }

    /// Programs standard mode `mode` (00h-07h, 0Dh-13h; text modes with
    /// 400 lines) as the video BIOS does at power-on: registers, the
    /// default DAC, cleared memory and, in text modes, the ROM font of the
    /// mode's character height in map 0. Returns false for any other mode
    /// (nothing changes then).
    pub fn set_mode(&mut self, mode: u8, now: u64) -> bool {
        let Some(p) = tables::param_index(mode, ScanLines::L400).and_then(|i| PARAMS[i]) else {
            return false;
        };
        self.load_params(&p, now);
        self.dac.pel_mask = 0xFF;
        let table = DacTable::for_mode(mode, &p).entries();
        for (i, e) in self.dac.entries.iter_mut().enumerate() {
            *e = table.get(i).copied().unwrap_or([0; 3]);
        }
        self.clear_memory(p.text());
        if p.text() {
            let h = p.char_height as usize;
            self.load_font(0, 0, 256, h, font::font(p.char_height));
        }
        self.latched_panning = self.attr.panning();
        true
    }

    /// Renders the current display to an RGB frame.
    pub fn render(&self) -> Frame {
        render::render(self)
    }

    /// Renders the current display into `frame`, reusing its buffer.
    pub fn render_into(&self, frame: &mut Frame) {
        render::render_into(self, frame)
    }

    /// Renders the current display into `frame` framed as `view` asks.
    pub fn render_view_into(&self, frame: &mut Frame, view: View) {
        render::render_view_into(self, frame, view)
    }

    /// Renders the current display into `frame` as DAC indices, framed as
    /// `view` asks.
    pub fn render_indexed_view_into(&self, frame: &mut IndexedFrame, view: View) {
        render::render_indexed_view_into(self, frame, view)
    }

    /// Renders the current display into `frame` as DAC indices and the
    /// DAC's colours, reusing its buffer.
    pub fn render_indexed_into(&self, frame: &mut IndexedFrame) {
        render::render_indexed_into(self, frame)
    }
}

pub mod tables;

#[cfg(test)]
mod tests;
