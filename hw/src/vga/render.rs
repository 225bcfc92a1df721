//! Turns the VGA's state into an RGB frame, the way the CRTC scans memory:
//! the memory address counter starts at the latched start address plus the
//! byte panning (CR08), steps once per character clock, and advances by
//! 2 x offset per character row; the line compare register resets it to 0
//! (split screen). Each line then goes through the pel panner (AR13,
//! latched at vertical retrace), which shifts it left by up to one
//! character; with AR10 bit 5 set the lines below the split are not
//! panned. Text modes start the first row at the preset row scan (CR08).
//!
//! The frame has the mode's logical resolution: 320x200 for mode 13h,
//! 320x240 for the usual mode X, 720x400 for 80x25 text, 640x480 for 12h
//! (double-scanned and repeated scan lines are shown once). It is the
//! active display area (display end, CR01 and CR12) where blanking
//! ([`super::geometry`]) shows black; with [`View::border`] the overscan
//! border the monitor shows around it is added in the overscan colour.
//!
//! As on the chip, every mode first makes a DAC index per pixel (the
//! 256-colour modes' bytes, or the attribute controller's lookup of the
//! planar and text modes' 4-bit values) and the DAC then gives its colour:
//! [`render_indexed_into`] stops before the DAC ([`IndexedFrame`], what a
//! palettized video codec wants), [`render_into`] goes through it.

use super::attribute::pel_shift;
use super::geometry::{Axis, View};
use super::Vga;
use super::PLANE_SIZE;

/// An RGB frame, 3 bytes per pixel, rows top to bottom.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// `width * height * 3` bytes of R, G, B.
    pub rgb: Vec<u8>,
}

impl Frame {
    /// Makes this a black frame of `width` x `height`, keeping the buffer.
    fn reset(&mut self, width: usize, height: usize) {
        self.width = width;
        self.height = height;
        self.rgb.clear();
        self.rgb.resize(width * height * 3, 0);
    }

    /// The colour at (x, y).
    pub fn pixel(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

/// A frame before the DAC: one DAC index per pixel and the DAC's 256
/// colours (the PEL mask applied), which together give [`Frame`]'s
/// colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedFrame {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// `width * height` DAC indices, rows top to bottom.
    pub pixels: Vec<u8>,
    /// The colour of each index, 8 bits per component.
    pub palette: [[u8; 3]; 256],
}

impl Default for IndexedFrame {
    fn default() -> Self {
        IndexedFrame {
            width: 0,
            height: 0,
            pixels: Vec::new(),
            palette: [[0; 3]; 256],
        }
    }
}

impl IndexedFrame {
    /// The colour at (x, y).
    pub fn pixel(&self, x: usize, y: usize) -> [u8; 3] {
        self.palette[self.pixels[y * self.width + x] as usize]
    }
}

/// Where the scan's lines of DAC indices go.
trait Lines {
    /// A frame of `width` x `height` starts, black, with these colours
    /// (None: the screen is blanked, and no lines follow).
    fn start(&mut self, width: usize, height: usize, dac: Option<&[[u8; 3]; 256]>);
    /// Scan line `y`'s indices (at least `width` of them).
    fn line(&mut self, y: usize, indices: &[u8]);
    /// The blanked spans (line, first pixel, end pixel) turn black.
    fn blank(&mut self, spans: &[Span]);
}

/// A blanked run of pixels: line, first pixel, end pixel.
type Span = (usize, usize, usize);

impl Lines for IndexedFrame {
    fn start(&mut self, width: usize, height: usize, dac: Option<&[[u8; 3]; 256]>) {
        self.width = width;
        self.height = height;
        self.pixels.clear();
        self.pixels.resize(width * height, 0);
        self.palette = dac.copied().unwrap_or([[0; 3]; 256]);
    }

    fn line(&mut self, y: usize, indices: &[u8]) {
        let w = self.width;
        if let Some(dst) = self.pixels.get_mut(y * w..(y + 1) * w) {
            dst.copy_from_slice(&indices[..w]);
        }
    }

    /// Black needs an index: one the DAC holds black already, else one the
    /// frame does not use (made black), else the darkest colour.
    fn blank(&mut self, spans: &[Span]) {
        if spans.is_empty() {
            return;
        }
        let black = match self.palette.iter().position(|c| *c == [0; 3]) {
            Some(i) => i,
            None => {
                let mut used = [false; 256];
                for &p in &self.pixels {
                    used[p as usize] = true;
                }
                match used.iter().position(|u| !u) {
                    Some(i) => {
                        self.palette[i] = [0; 3];
                        i
                    }
                    None => (0..256)
                        .min_by_key(|&i| self.palette[i].iter().map(|&c| c as u32).sum::<u32>())
                        .unwrap_or(0),
                }
            }
        };
        let w = self.width;
        for &(y, x0, x1) in spans {
            if let Some(dst) = self.pixels.get_mut(y * w + x0..y * w + x1) {
                dst.fill(black as u8);
            }
        }
    }
}

/// An RGB frame being scanned: the lines go through the DAC.
struct ThroughDac<'a> {
    frame: &'a mut Frame,
    dac: [[u8; 3]; 256],
}

impl Lines for ThroughDac<'_> {
    fn start(&mut self, width: usize, height: usize, dac: Option<&[[u8; 3]; 256]>) {
        self.frame.reset(width, height);
        if let Some(d) = dac {
            self.dac = *d;
        }
    }

    fn line(&mut self, y: usize, indices: &[u8]) {
        let row = self.frame.width * 3;
        if let Some(dst) = self.frame.rgb.get_mut(y * row..(y + 1) * row) {
            for (d, &i) in dst.chunks_exact_mut(3).zip(indices) {
                d.copy_from_slice(&self.dac[i as usize]);
            }
        }
    }

    fn blank(&mut self, spans: &[Span]) {
        let w = self.frame.width;
        for &(y, x0, x1) in spans {
            if let Some(dst) = self.frame.rgb.get_mut((y * w + x0) * 3..(y * w + x1) * 3) {
                dst.fill(0);
            }
        }
    }
}

/// The frame's shape: the active display area, the border around it and
/// where blanking falls, in pixels and frame lines.
struct Framing {
    /// Character clocks across, scan lines down.
    h: Axis,
    v: Axis,
    /// Pixels per character clock.
    ppc: usize,
    /// Scan lines per frame line.
    rep: usize,
    /// The active display area in pixels and lines.
    width: usize,
    rows: usize,
    /// The border shown: pixels left and right, lines above and below.
    left: usize,
    right: usize,
    top: usize,
    bottom: usize,
}

impl Framing {
    fn of(vga: &Vga, view: View) -> Self {
        let c = &vga.crtc;
        let (ppc, rep) = if vga.gc.graphics() {
            (if vga.gc.shift256() { 4 } else { 8 }, graphics_rows(vga).0)
        } else {
            (
                if vga.seq.dot8() { 8 } else { 9 },
                if c.double_scan() { 2 } else { 1 },
            )
        };
        let (width, rows) = size(vga);
        let h = Axis::new(
            c.h_total(),
            c.h_display(),
            c.h_blank_start(),
            c.h_blank_end(),
            0x3F,
        );
        let v = Axis::new(
            c.v_total(),
            c.v_display(),
            c.v_blank_start(),
            c.v_blank_end(),
            0xFF,
        );
        let b = view.border;
        let px = |n: u32| if b { n as usize * ppc } else { 0 };
        let ln = |n: u32| if b { n as usize / rep } else { 0 };
        Framing {
            left: px(h.before),
            right: px(h.after),
            top: ln(v.before),
            bottom: ln(v.after),
            h,
            v,
            ppc,
            rep,
            width,
            rows,
        }
    }

    fn size(&self) -> (usize, usize) {
        (
            self.left + self.width + self.right,
            self.top + self.rows + self.bottom,
        )
    }

    /// The pixel runs horizontal blanking turns black on every line.
    fn h_black(&self) -> Vec<(usize, usize)> {
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for col in 0..self.width.div_ceil(self.ppc) {
            if !self.h.blanked(col as u32) {
                continue;
            }
            let x0 = self.left + col * self.ppc;
            let x1 = (x0 + self.ppc).min(self.left + self.width);
            match runs.last_mut() {
                Some(r) if r.1 == x0 => r.1 = x1,
                _ => runs.push((x0, x1)),
            }
        }
        runs
    }
}

/// Puts the scanned lines of the active display area into their frame:
/// the border in the overscan colour around them, blanking black.
struct Framed<'a, L: Lines> {
    inner: &'a mut L,
    fr: Framing,
    overscan: u8,
    h_black: Vec<(usize, usize)>,
    spans: Vec<Span>,
    buf: Vec<u8>,
}

impl<'a, L: Lines> Framed<'a, L> {
    fn new(vga: &Vga, view: View, inner: &'a mut L) -> Self {
        let fr = Framing::of(vga, view);
        Framed {
            inner,
            h_black: fr.h_black(),
            fr,
            overscan: vga.attr.overscan(),
            spans: Vec::new(),
            buf: Vec::new(),
        }
    }

    /// Frame line `y`: `display` (the active area's indices) or border.
    fn put(&mut self, y: usize, display: Option<&[u8]>) {
        let (w, _) = self.fr.size();
        self.buf.clear();
        self.buf.resize(w, self.overscan);
        if let Some(d) = display {
            let (l, dw) = (self.fr.left, self.fr.width);
            self.buf[l..l + dw].copy_from_slice(&d[..dw]);
        }
        self.inner.line(y, &self.buf);
        self.spans
            .extend(self.h_black.iter().map(|&(a, b)| (y, a, b)));
    }

    /// Blackens the blanked spans.
    fn finish(self) {
        self.inner.blank(&self.spans);
    }
}

impl<L: Lines> Lines for Framed<'_, L> {
    fn start(&mut self, _: usize, _: usize, dac: Option<&[[u8; 3]; 256]>) {
        let (_, h) = self.fr.size();
        let (w, _) = self.fr.size();
        self.inner.start(w, h, dac);
        if dac.is_none() {
            return;
        }
        for y in (0..self.fr.top).chain(self.fr.top + self.fr.rows..h) {
            self.put(y, None);
        }
    }

    fn line(&mut self, y: usize, indices: &[u8]) {
        let fy = self.fr.top + y;
        self.put(fy, Some(indices));
        if self.fr.v.blanked((y * self.fr.rep) as u32) {
            let (w, _) = self.fr.size();
            self.spans.push((fy, 0, w));
        }
    }

    fn blank(&mut self, spans: &[Span]) {
        self.spans.extend_from_slice(spans);
    }
}

/// Renders `vga` (see the module doc).
pub fn render(vga: &Vga) -> Frame {
    let mut f = Frame::default();
    render_into(vga, &mut f);
    f
}

/// The size (width, height) in pixels of the frame [`render`] makes of
/// `vga` now, worked out without rendering it.
pub fn size(vga: &Vga) -> (usize, usize) {
    let c = &vga.crtc;
    let cols = c.h_display() as usize;
    if !vga.gc.graphics() {
        let cw = if vga.seq.dot8() { 8 } else { 9 };
        let dbl = if c.double_scan() { 2 } else { 1 };
        return (cols * cw, (c.v_display() as usize / dbl).max(1));
    }
    let (_, rows) = graphics_rows(vga);
    let ppc = if vga.gc.shift256() { 4 } else { 8 };
    (cols * ppc, rows)
}

/// A graphics mode's scan-line repeat (double scan, and the character
/// height unless CR17 interleaves CGA lines) and the frame's rows.
fn graphics_rows(vga: &Vga) -> (usize, usize) {
    let c = &vga.crtc;
    let ch = c.char_height() as usize;
    let scan_rep = if c.double_scan() { 2 } else { 1 } * if cga_lines(vga) { 1 } else { ch };
    (scan_rep, (c.v_display() as usize).div_ceil(scan_rep).max(1))
}

/// CR17 bits 0/1 clear (CGA/Hercules compatibility): row scan counter
/// bits 0/1 replace address bits 13/14, so each scan line of a character
/// row shows its own memory (the CGA's interleaved lines).
fn cga_lines(vga: &Vga) -> bool {
    vga.crtc.regs[0x17] & 0x03 != 0x03
}

/// The DAC's colour of each pixel value, the PEL mask applied: looked up
/// once per frame instead of once per pixel.
fn dac_colours(vga: &Vga) -> [[u8; 3]; 256] {
    std::array::from_fn(|v| vga.dac.rgb(v as u8))
}

/// The DAC index of each 4-bit attribute (the palette registers).
fn attribute_indices(vga: &Vga) -> [u8; 16] {
    std::array::from_fn(|v| vga.attr.lookup(v as u8))
}

/// Renders `vga` into `f`, reusing its buffer (a window renders every
/// frame without allocating one).
pub fn render_into(vga: &Vga, f: &mut Frame) {
    render_view_into(vga, f, View::default())
}

/// Renders `vga` into `f` framed as `view` asks.
pub fn render_view_into(vga: &Vga, f: &mut Frame, view: View) {
    let mut rgb = ThroughDac {
        frame: f,
        dac: [[0; 3]; 256],
    };
    let mut framed = Framed::new(vga, view, &mut rgb);
    scan(vga, &mut framed);
    framed.finish();
}

/// Renders `vga` into `f` as DAC indices and the DAC's colours, reusing
/// its buffer.
pub fn render_indexed_into(vga: &Vga, f: &mut IndexedFrame) {
    render_indexed_view_into(vga, f, View::default())
}

/// Renders `vga` into `f` as DAC indices, framed as `view` asks.
pub fn render_indexed_view_into(vga: &Vga, f: &mut IndexedFrame, view: View) {
    let mut framed = Framed::new(vga, view, f);
    scan(vga, &mut framed);
    framed.finish();
}

/// The size (width, height) of the frame `view` makes of `vga` now.
pub fn view_size(vga: &Vga, view: View) -> (usize, usize) {
    Framing::of(vga, view).size()
}

/// Scans the frame out line by line (see the module doc).
fn scan(vga: &Vga, f: &mut impl Lines) {
    let c = &vga.crtc;
    let cols = c.h_display() as usize;
    let graphics = vga.gc.graphics();
    if !graphics {
        return scan_text(vga, f);
    }
    let cga_lines = cga_lines(vga);
    let ch = c.char_height() as usize;
    let (scan_rep, rows) = graphics_rows(vga);
    let shift256 = vga.gc.shift256();
    // Pixels per character clock.
    let ppc = if shift256 { 4 } else { 8 };
    let (width, _) = size(vga);
    if vga.seq.screen_off() || !vga.attr.video_enabled() {
        return f.start(width, rows, None);
    }
    f.start(width, rows, Some(&dac_colours(vga)));
    let colour = attribute_indices(vga);
    let line_compare = c.line_compare() as usize;
    // Byte panning moves the start by whole characters; the pel panner
    // then shifts each line left by up to a character, so one more
    // character is fetched at the right edge.
    let mut row_start = vga.latched_start() as u32 + c.byte_panning();
    let pan = pel_shift(vga.latched_panning(), 8, vga.attr.pel_width8());
    let step = 2 * c.offset();
    let plane = |p: usize, a: usize| vga.planes[p * PLANE_SIZE + a];
    let mut line = vec![0u8; (cols + 1) * ppc];
    let mut split = false;
    for y in 0..rows {
        // The line compare is in scan lines: the rows after it show memory
        // from address 0.
        if !split && y * scan_rep > line_compare {
            row_start = 0;
            split = true;
        }
        let sl = if cga_lines { y % ch } else { 0 };
        for col in 0..=cols {
            let mut a = c.map_address(row_start + col as u32);
            if c.regs[0x17] & 0x01 == 0 {
                a = a & !0x2000 | (sl & 1) << 13;
            }
            if c.regs[0x17] & 0x02 == 0 {
                a = a & !0x4000 | (sl >> 1 & 1) << 14;
            }
            let px = &mut line[col * ppc..(col + 1) * ppc];
            if shift256 {
                for (p, o) in px.iter_mut().enumerate() {
                    *o = plane(p, a);
                }
            } else if vga.gc.shift_interleave() {
                // CGA 4-colour: planes 0 and 1 give 2 bits per pixel.
                let (b0, b1) = (plane(0, a), plane(1, a));
                for (i, o) in px.iter_mut().enumerate() {
                    let src = if i < 4 { b0 } else { b1 };
                    let v = src >> (6 - 2 * (i % 4)) & 3;
                    *o = colour[v as usize];
                }
            } else {
                let b = [plane(0, a), plane(1, a), plane(2, a), plane(3, a)];
                for (i, o) in px.iter_mut().enumerate() {
                    let bit = 7 - i;
                    let v = (b[0] >> bit & 1)
                        | (b[1] >> bit & 1) << 1
                        | (b[2] >> bit & 1) << 2
                        | (b[3] >> bit & 1) << 3;
                    *o = colour[v as usize];
                }
            }
        }
        let shift = if split && vga.attr.pixel_pan_mode() {
            0
        } else {
            pan
        };
        f.line(y, &line[shift..shift + width]);
        if !cga_lines || sl == ch - 1 {
            row_start = row_start.wrapping_add(step);
        }
    }
}

/// Renders a text mode one scan line at a time: the row scan counter starts
/// at the preset row scan (CR08) on the first character row and at 0 after
/// a line compare match, where memory restarts at address 0.
fn scan_text(vga: &Vga, f: &mut impl Lines) {
    let c = &vga.crtc;
    let cols = c.h_display() as usize;
    let cw = if vga.seq.dot8() { 8 } else { 9 };
    let ch = c.char_height() as usize;
    let dbl = if c.double_scan() { 2 } else { 1 };
    let lines = c.v_display() as usize / dbl;
    let (width, height) = size(vga);
    if vga.seq.screen_off() || !vga.attr.video_enabled() {
        return f.start(width, height, None);
    }
    f.start(width, height, Some(&dac_colours(vga)));
    let colour = attribute_indices(vga);
    let (map_a, map_b) = vga.seq.char_maps();
    let (cursor, cur_start, cur_end, cur_on) = c.cursor();
    // Blink phases from the frame counter (cursor every 16 frames,
    // character blink every 32), so a rendering is deterministic.
    let frames = vga.frames();
    let cursor_visible = cur_on && frames & 16 == 0;
    let blink_on = frames & 32 == 0;
    let step = 2 * c.offset();
    let line_compare = c.line_compare() as usize;
    let pan = pel_shift(vga.latched_panning(), cw, false);
    let mut line = vec![0u8; (cols + 1) * cw];
    // The memory address of the current character row and its scan line.
    let mut row_start = vga.latched_start() as u32 + c.byte_panning();
    let mut sl = c.preset_row_scan() as usize;
    let mut split = false;
    for y in 0..lines {
        if !split && y * dbl > line_compare {
            row_start = 0;
            sl = 0;
            split = true;
        }
        for col in 0..=cols {
            let ma = row_start + col as u32;
            let a = c.map_address(ma);
            let code = vga.planes[a];
            let at = vga.planes[PLANE_SIZE + a];
            let font_base = if at & 0x08 != 0 { map_b } else { map_a };
            let mut fg = at & 0x0F;
            let mut bg = at >> 4;
            if vga.attr.blink() {
                bg &= 7;
                if at & 0x80 != 0 && !blink_on {
                    fg = bg;
                }
            }
            let fgc = colour[fg as usize];
            let bgc = colour[bg as usize];
            // Scan lines past the 32 a font holds show blank.
            let mut bits = if sl < 32 {
                vga.planes[2 * PLANE_SIZE + (font_base + code as usize * 32 + sl) % PLANE_SIZE]
            } else {
                0
            };
            if cursor_visible
                && ma as u16 == cursor
                && (sl as u8) >= cur_start
                && (sl as u8) <= cur_end
            {
                bits = 0xFF;
            }
            for (x, o) in line[col * cw..(col + 1) * cw].iter_mut().enumerate() {
                let on = if x < 8 {
                    bits >> (7 - x) & 1 != 0
                } else {
                    // The ninth column repeats the eighth for the line
                    // graphics characters C0h-DFh.
                    vga.attr.line_graphics() && (0xC0..=0xDF).contains(&code) && bits & 1 != 0
                };
                *o = if on { fgc } else { bgc };
            }
        }
        let shift = if split && vga.attr.pixel_pan_mode() {
            0
        } else {
            pan
        };
        f.line(y, &line[shift..shift + cols * cw]);
        sl += 1;
        if sl >= ch {
            sl = 0;
            row_start = row_start.wrapping_add(step);
        }
    }
}
