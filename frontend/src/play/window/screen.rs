//! The window's picture: the machine's frames in a streaming texture
//! scaled to 4:3, presented only when they change, with `--check`'s
//! report drawn over them.

use hw::vga::render::Frame;
use hw::Machine;
use sdl2::pixels::PixelFormatEnum;
use sdl2::render::{BlendMode, Texture, TextureCreator, WindowCanvas};
use sdl2::video::WindowContext;

use super::{sdl, INITIAL, LOGICAL};
use crate::app::error::Error;

/// The frame on screen.
///
/// Presenting is what a window costs (under a software OpenGL it is most
/// of the process's time), so a frame equal to the one on screen is
/// neither uploaded nor presented again; the picture is redrawn only when
/// the host asks (an expose or resize) or the frame changes.
pub(super) struct Screen<'a> {
    creator: &'a TextureCreator<WindowContext>,
    /// One streaming texture of the mode's size, in the 32-bit format the
    /// renderers take without converting (XRGB8888).
    texture: Option<(Texture<'a>, usize, usize)>,
    /// The frame on screen.
    shown: Frame,
    /// The machine's latest frame, rendered into a reused buffer.
    next: Frame,
    /// The picture must be presented again (the host lost it).
    pub(super) stale: bool,
    /// Text drawn over the frame (`--check`'s report), at the logical size.
    overlay: Option<Texture<'a>>,
}

impl<'a> Screen<'a> {
    pub(super) fn new(creator: &'a TextureCreator<WindowContext>) -> Self {
        Screen {
            creator,
            texture: None,
            shown: Frame::default(),
            next: Frame::default(),
            stale: true,
            overlay: None,
        }
    }

    /// Draws `lines` over the frame from now on (at 8x8 pixels a
    /// character, on an opaque band of [`OVERLAY_BG`]).
    pub(super) fn set_overlay(&mut self, lines: &[String]) -> Result<(), Error> {
        let (w, h) = (LOGICAL.0 as usize, LOGICAL.1 as usize);
        let mut t = self
            .creator
            .create_texture_streaming(PixelFormatEnum::ARGB8888, w as u32, h as u32)
            .map_err(sdl)?;
        t.set_blend_mode(BlendMode::Blend);
        t.with_lock(None, |pixels, pitch| {
            overlay_pixels(lines, pixels, pitch, w, h)
        })
        .map_err(sdl)?;
        self.overlay = Some(t);
        self.stale = true;
        Ok(())
    }

    /// Shows the machine's display unless it is on screen already.
    pub(super) fn show(&mut self, canvas: &mut WindowCanvas, m: &Machine) -> Result<(), Error> {
        m.render_into(&mut self.next);
        let frame = &self.next;
        let (w, h) = (frame.width, frame.height);
        if w == 0 || h == 0 {
            return Ok(());
        }
        if !self.stale && self.texture.is_some() && *frame == self.shown {
            return Ok(());
        }
        if !matches!(&self.texture, Some((_, tw, th)) if *tw == w && *th == h) {
            let mut t = self
                .creator
                .create_texture_streaming(PixelFormatEnum::RGB888, w as u32, h as u32)
                .map_err(sdl)?;
            t.set_blend_mode(BlendMode::None);
            self.texture = Some((t, w, h));
        }
        if let Some((t, _, _)) = self.texture.as_mut() {
            t.with_lock(None, |pixels, pitch| to_xrgb(frame, pixels, pitch))
                .map_err(sdl)?;
        }
        std::mem::swap(&mut self.shown, &mut self.next);
        self.present(canvas)
    }

    /// Presents the texture again (after an expose, or while paused).
    pub(super) fn present(&mut self, canvas: &mut WindowCanvas) -> Result<(), Error> {
        canvas.set_draw_color(sdl2::pixels::Color::RGB(0, 0, 0));
        canvas.clear();
        if let Some((t, _, _)) = &self.texture {
            canvas.copy(t, None, None).map_err(sdl)?;
        }
        if let Some(t) = &self.overlay {
            canvas.copy(t, None, None).map_err(sdl)?;
        }
        canvas.present();
        self.stale = false;
        Ok(())
    }
}

/// The colour of the band behind the overlay's text (ARGB): a dark
/// violet that the tests look for.
pub const OVERLAY_BG: [u8; 3] = [0x30, 0x00, 0x50];

/// Draws `lines` (one 8x8 character cell each, cut at the width) on an
/// opaque band at the top of a transparent ARGB8888 picture `w` x `h`.
fn overlay_pixels(lines: &[String], pixels: &mut [u8], pitch: usize, w: usize, h: usize) {
    let font = hw::vga::font::FONT_8X8;
    let cols = (w - 8) / 8;
    let lines = wrap(lines, cols);
    let rows = (lines.len() * LINE + 8).min(h);
    for y in 0..h {
        let row = &mut pixels[y * pitch..][..w * 4];
        for px in row.chunks_exact_mut(4) {
            let [r, g, b] = OVERLAY_BG;
            let a = if y < rows { 0xFF } else { 0 };
            px.copy_from_slice(&[b, g, r, a]);
        }
    }
    for (i, line) in lines.iter().enumerate() {
        let y0 = 4 + i * LINE;
        for (j, ch) in line.bytes().take(cols).enumerate() {
            let glyph = &font[ch as usize * 8..][..8];
            for (dy, bits) in glyph.iter().enumerate() {
                for dx in 0..8 {
                    if bits & (0x80 >> dx) != 0 && y0 + dy < h {
                        let at = (y0 + dy) * pitch + (4 + j * 8 + dx) * 4;
                        pixels[at..at + 4].copy_from_slice(&[0x40, 0xFF, 0xFF, 0xFF]);
                    }
                }
            }
        }
    }
}

/// Pixel rows from one overlay line to the next.
const LINE: usize = 10;

/// `lines` cut into pieces of at most `cols` characters, the pieces after
/// the first indented by 6.
fn wrap(lines: &[String], cols: usize) -> Vec<String> {
    let mut out = Vec::new();
    for l in lines {
        let chars: Vec<char> = l.chars().collect();
        out.push(chars.iter().take(cols).collect::<String>());
        let rest = &chars[cols.min(chars.len())..];
        for piece in rest.chunks(cols.saturating_sub(6).max(1)) {
            out.push(format!("      {}", piece.iter().collect::<String>()));
        }
    }
    out
}

/// Writes `frame`'s pixels as XRGB8888 (B, G, R, X in memory) into a
/// locked texture of the same size with rows `pitch` bytes apart.
fn to_xrgb(frame: &Frame, pixels: &mut [u8], pitch: usize) {
    let row = frame.width * 3;
    for (src, dst) in frame.rgb.chunks_exact(row).zip(pixels.chunks_mut(pitch)) {
        for (s, d) in src.chunks_exact(3).zip(dst.chunks_exact_mut(4)) {
            d.copy_from_slice(&[s[2], s[1], s[0], 0xFF]);
        }
    }
}

/// Opens the window and its renderer, scaled to the 4:3 logical size.
pub(super) fn open_canvas(
    video: &sdl2::VideoSubsystem,
    title: &str,
    fullscreen: bool,
) -> Result<WindowCanvas, Error> {
    if video.current_video_driver() == "x11" {
        // SDL's software renderer into an XShm image: scaling a 320x200
        // frame by nearest neighbour costs about 4% of a core at 70 Hz,
        // a fifth of what OpenGL through a software rasterizer (Mesa's
        // llvmpipe, e.g. under Xvfb or without a GPU driver) costs; see
        // docs/speed.md, "Window". SDL's environment variables of the
        // same names still choose otherwise.
        sdl2::hint::set("SDL_RENDER_DRIVER", "software");
        sdl2::hint::set("SDL_FRAMEBUFFER_ACCELERATION", "0");
    }
    let mut builder = video.window(title, INITIAL.0, INITIAL.1);
    builder.position_centered().resizable();
    if fullscreen {
        builder.fullscreen_desktop();
    }
    let window = builder.build().map_err(sdl)?;
    let mut canvas = window.into_canvas().build().map_err(sdl)?;
    canvas.set_logical_size(LOGICAL.0, LOGICAL.1).map_err(sdl)?;
    log::info!(
        "window: video driver {}, renderer {}",
        video.current_video_driver(),
        canvas.info().name
    );
    Ok(canvas)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each RGB pixel lands as B, G, R, X at its row's pitch; the padding
    /// at the end of a row is left alone.
    #[test]
    fn xrgb_rows_follow_the_pitch() {
        let frame = Frame {
            width: 2,
            height: 2,
            rgb: vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
        };
        let mut pixels = vec![0xEE; 2 * 12];
        to_xrgb(&frame, &mut pixels, 12);
        assert_eq!(&pixels[0..8], &[3, 2, 1, 0xFF, 6, 5, 4, 0xFF]);
        assert_eq!(&pixels[8..12], &[0xEE; 4]);
        assert_eq!(&pixels[12..20], &[9, 8, 7, 0xFF, 12, 11, 10, 0xFF]);
    }
}
