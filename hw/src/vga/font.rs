//! The ROM fonts: 8x8, 8x14 and 8x16 glyphs for all 256 characters of
//! code page 437, as a VGA BIOS carries them (INT 10h 1130h returns
//! pointers to them, 11h loads them into plane 2, mode sets load the one
//! matching the mode's character height).
//!
//! Origin: the "VGA" console fonts of Debian's console-setup
//! (`console-setup-linux`, `*-VGA8/14/16.psf.gz`), rearranged in code page
//! 437 order by `hw/tools/gen_fonts.py`; the few glyphs those files lack
//! (8x16: 10h, 11h; 8x8 and 8x14: also 9Eh, A9h, ECh, EFh, F0h) are drawn
//! in that script. The fonts derive from u_vga16.bdf, under this licence
//! (console-setup's copyright file also states "All console fonts are
//! public domain by nature"):
//!
//! Copyright (c) 2000, 2001 by Dmitry Bolkhovityanov. All Rights Reserved.
//!
//! Permission is hereby granted, free of charge, to any person obtaining a
//! copy of this software and associated documentation files (the
//! "Software"), to deal in the Software without restriction, including
//! without limitation the rights to use, copy, modify, merge, publish,
//! distribute, sublicense, and/or sell copies of the Software, and to
//! permit persons to whom the Software is furnished to do so, subject to
//! the following conditions:
//!
//! The above copyright notice and this permission notice shall be included
//! in all copies or substantial portions of the Software.
//!
//! THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS
//! OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
//! MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN
//! NO EVENT SHALL THE XFREE86 PROJECT BE LIABLE FOR ANY CLAIM, DAMAGES OR
//! OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE,
//! ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR
//! OTHER DEALINGS IN THE SOFTWARE.
//!
//! Except as contained in this notice, the name of Dmitry Bolkhovityanov
//! shall not be used in advertising or otherwise to promote the sale, use
//! or other dealings in this Software without prior written authorization
//! from the Dmitry Bolkhovityanov.

/// 256 glyphs of 8 rows, one byte per row, bit 7 leftmost.
pub static FONT_8X8: &[u8; 2048] = include_bytes!("font8x8.bin");
/// 256 glyphs of 14 rows.
pub static FONT_8X14: &[u8; 3584] = include_bytes!("font8x14.bin");
/// 256 glyphs of 16 rows.
pub static FONT_8X16: &[u8; 4096] = include_bytes!("font8x16.bin");

/// The ROM font of `height` rows per glyph (8, 14 or 16; others get the
/// 8x16 font).
pub fn font(height: u8) -> &'static [u8] {
    match height {
        8 => FONT_8X8,
        14 => FONT_8X14,
        _ => FONT_8X16,
    }
}

/// The 16 rows of glyph `c` in the 8x16 font.
pub fn glyph(c: u8) -> &'static [u8] {
    let i = c as usize * 16;
    &FONT_8X16[i..i + 16]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_printable_cp437_glyph_has_pixels() {
        for (h, f) in [(8usize, &FONT_8X8[..]), (14, FONT_8X14), (16, FONT_8X16)] {
            for c in 1..=0xFEusize {
                if c == 0x20 {
                    continue;
                }
                let g = &f[c * h..(c + 1) * h];
                assert!(g.iter().any(|&r| r != 0), "glyph {c:02X} of 8x{h} is blank");
            }
        }
        // The three shades differ and the light one is not the fallback.
        assert_ne!(glyph(0xB0), glyph(0xB1));
        assert_ne!(glyph(0xB0), glyph(b'?'));
        assert_ne!(glyph(0x10), glyph(b'?'));
        // Full block is solid.
        assert!(glyph(0xDB).iter().all(|&r| r == 0xFF));
    }
}
