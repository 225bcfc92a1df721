//! The pictures of the corpus run: reading PNGs (goldens, DOSBox
//! screenshots) into RGB frames, comparing frames pixel by pixel, scaling
//! and drawing text for the contact sheet.

use std::path::Path;

use hw::vga::render::Frame;

use crate::app::error::Error;

/// Reads a PNG of any colour type and depth as 8-bit RGB.
pub fn read_png(path: &Path) -> Result<Frame, Error> {
    let f = std::fs::File::open(path).map_err(|e| Error::bad(path.display(), e))?;
    let mut dec = png::Decoder::new(std::io::BufReader::new(f));
    // Palette and low bit depths become 8-bit RGB(A) or grey; 16-bit
    // samples become 8-bit.
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().map_err(|e| Error::bad(path.display(), e))?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| Error::bad(path.display(), e))?;
    let px = &buf[..info.buffer_size()];
    let rgb: Vec<u8> = match info.color_type {
        png::ColorType::Rgb => px.to_vec(),
        png::ColorType::Rgba => px
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect(),
        png::ColorType::Grayscale => px.iter().flat_map(|&g| [g, g, g]).collect(),
        png::ColorType::GrayscaleAlpha => px
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0]])
            .collect(),
        png::ColorType::Indexed => return Err(Error::bad(path.display(), "palette not expanded")),
    };
    Ok(Frame {
        width: info.width as usize,
        height: info.height as usize,
        rgb,
    })
}

/// How a frame compares with its golden.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Diff {
    /// Every pixel equal.
    Equal,
    /// Same size, this many pixels differ.
    Pixels(usize),
    /// The sizes differ (golden width and height).
    Size(usize, usize),
}

/// Compares `frame` with `golden` pixel by pixel.
pub fn diff(frame: &Frame, golden: &Frame) -> Diff {
    if (frame.width, frame.height) != (golden.width, golden.height) {
        return Diff::Size(golden.width, golden.height);
    }
    let n = frame
        .rgb
        .chunks_exact(3)
        .zip(golden.rgb.chunks_exact(3))
        .filter(|(a, b)| a != b)
        .count();
    if n == 0 {
        Diff::Equal
    } else {
        Diff::Pixels(n)
    }
}

/// A picture of where two frames of one size differ: the golden dimmed to
/// a quarter, the differing pixels magenta.
pub fn diff_picture(frame: &Frame, golden: &Frame) -> Frame {
    let rgb = frame
        .rgb
        .chunks_exact(3)
        .zip(golden.rgb.chunks_exact(3))
        .flat_map(|(a, b)| {
            if a == b {
                [b[0] / 4, b[1] / 4, b[2] / 4]
            } else {
                [255, 0, 255]
            }
        })
        .collect();
    Frame {
        width: golden.width,
        height: golden.height,
        rgb,
    }
}

/// An RGB canvas to draw the contact sheet on.
pub struct Canvas {
    /// The picture so far.
    pub frame: Frame,
}

impl Canvas {
    /// A `width` x `height` canvas filled with `rgb`.
    pub fn new(width: usize, height: usize, rgb: [u8; 3]) -> Canvas {
        Canvas {
            frame: Frame {
                width,
                height,
                rgb: rgb.repeat(width * height),
            },
        }
    }

    fn set(&mut self, x: usize, y: usize, rgb: [u8; 3]) {
        if x < self.frame.width && y < self.frame.height {
            let i = (y * self.frame.width + x) * 3;
            self.frame.rgb[i..i + 3].copy_from_slice(&rgb);
        }
    }

    /// Draws `src` scaled (nearest pixel, aspect kept) to fit a `w` x `h`
    /// box at (`x`, `y`), centred in it.
    pub fn blit_fit(&mut self, src: &Frame, x: usize, y: usize, w: usize, h: usize) {
        if src.width == 0 || src.height == 0 {
            return;
        }
        // The scale is w/src.width or h/src.height, whichever is smaller,
        // in integers: dw/src.width.
        let (dw, dh) = if w * src.height <= h * src.width {
            (w, src.height * w / src.width)
        } else {
            (src.width * h / src.height, h)
        };
        let (ox, oy) = (x + (w - dw) / 2, y + (h - dh) / 2);
        for ty in 0..dh {
            let sy = ty * src.height / dh;
            for tx in 0..dw {
                let sx = tx * src.width / dw;
                let i = (sy * src.width + sx) * 3;
                let p = [src.rgb[i], src.rgb[i + 1], src.rgb[i + 2]];
                self.set(ox + tx, oy + ty, p);
            }
        }
    }

    /// Writes `text` in the VGA's 8x16 font (code page 437) at (`x`, `y`),
    /// each font pixel `scale` pixels wide and high.
    pub fn text(&mut self, x: usize, y: usize, text: &str, rgb: [u8; 3], scale: usize) {
        for (i, c) in text.chars().enumerate() {
            let code = if c.is_ascii() { c as u8 } else { b'?' };
            for (row, bits) in hw::vga::font::glyph(code).iter().enumerate() {
                for col in 0..8 {
                    if bits & (0x80 >> col) != 0 {
                        for dy in 0..scale {
                            for dx in 0..scale {
                                self.set(x + (i * 8 + col) * scale + dx, y + row * scale + dy, rgb);
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(w: usize, h: usize, f: impl Fn(usize, usize) -> [u8; 3]) -> Frame {
        let mut rgb = Vec::new();
        for y in 0..h {
            for x in 0..w {
                rgb.extend(f(x, y));
            }
        }
        Frame {
            width: w,
            height: h,
            rgb,
        }
    }

    #[test]
    fn diff_counts_pixels() {
        let a = frame(4, 2, |x, _| [x as u8, 0, 0]);
        let mut b = frame(4, 2, |x, _| [x as u8, 0, 0]);
        assert_eq!(diff(&a, &b), Diff::Equal);
        b.rgb[3 * 5 + 2] = 9;
        b.rgb[0] = 7;
        assert_eq!(diff(&a, &b), Diff::Pixels(2));
        let d = diff_picture(&a, &b);
        assert_eq!(&d.rgb[..3], &[255, 0, 255]);
        assert_eq!(&d.rgb[3..6], &[0, 0, 0]);
        assert_eq!(&d.rgb[6..9], &[0, 0, 0], "x=2 dimmed to 2/4 = 0");
        assert_eq!(&d.rgb[15..18], &[255, 0, 255]);
        assert_eq!(diff(&a, &frame(2, 4, |_, _| [0; 3])), Diff::Size(2, 4));
    }

    #[test]
    fn png_round_trip_and_scaling() {
        let a = frame(3, 2, |x, y| [x as u8 * 50, y as u8 * 100, 7]);
        let p = std::env::temp_dir().join(format!("tandem-image-{}.png", std::process::id()));
        crate::play::screenshot::write_png(&p, &a).expect("write");
        let back = read_png(&p).expect("read");
        let _ = std::fs::remove_file(&p);
        assert_eq!(diff(&a, &back), Diff::Equal);
        // Doubled into a 6x6 box: 6x4, centred (one empty row above).
        let mut c = Canvas::new(6, 6, [1, 1, 1]);
        c.blit_fit(&a, 0, 0, 6, 6);
        let at = |x: usize, y: usize| {
            let i = (y * 6 + x) * 3;
            [c.frame.rgb[i], c.frame.rgb[i + 1], c.frame.rgb[i + 2]]
        };
        assert_eq!(at(0, 0), [1, 1, 1]);
        assert_eq!(at(0, 1), [0, 0, 7]);
        assert_eq!(at(5, 4), [100, 100, 7]);
        assert_eq!(at(5, 5), [1, 1, 1]);
        // Text: 'I' has lit pixels in its cell, none outside it.
        let mut t = Canvas::new(16, 16, [0; 3]);
        t.text(0, 0, "I", [255; 3], 1);
        let lit = |x0: usize, x1: usize| {
            (0..16).any(|y| (x0..x1).any(|x| t.frame.rgb[(y * 16 + x) * 3] == 255))
        };
        assert!(lit(0, 8) && !lit(8, 16));
    }
}
