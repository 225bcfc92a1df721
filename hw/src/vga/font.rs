//! The 8x16 font our own mode sets load into plane 2.
//!
//! Origin: Spleen 8x16 by Frederic Cambus, version 1.9.1 as shipped by
//! Debian's `fonts-spleen` package (`spleen-8x16.psfu.gz`), rearranged in
//! code page 437 order by `hw/tools/gen_font.py`; code points Spleen lacks
//! show as '?'. Licence: BSD-2-clause:
//!
//! Copyright (c) 2018-2020, Frederic Cambus. All rights reserved.
//! Redistribution and use in source and binary forms, with or without
//! modification, are permitted provided that the following conditions are
//! met: Redistributions of source code must retain the above copyright
//! notice, this list of conditions and the following disclaimer.
//! Redistributions in binary form must reproduce the above copyright
//! notice, this list of conditions and the following disclaimer in the
//! documentation and/or other materials provided with the distribution.
//! THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS
//! IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO,
//! THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR
//! PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR
//! CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL,
//! EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO,
//! PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR
//! PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF
//! LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING
//! NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS
//! SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.

/// 256 glyphs of 16 rows, one byte per row, bit 7 leftmost.
pub static FONT_8X16: &[u8; 4096] = include_bytes!("font8x16.bin");

/// The 16 rows of glyph `c`.
pub fn glyph(c: u8) -> &'static [u8] {
    let i = c as usize * 16;
    &FONT_8X16[i..i + 16]
}
