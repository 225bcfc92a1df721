//! A ZMBV encoder (Zip Motion Blocks Video, DOSBox's capture codec) for
//! 8-bit palettized frames.
//!
//! Each frame is one chunk: a flags byte (bit 0 key frame, bit 1 the
//! palette changed), on a key frame the 6-byte header (version 0.1,
//! compression 1 = zlib, format 4 = 8 bits per pixel, the block width and
//! height), then zlib data. One zlib stream runs from a key frame to the
//! next, each frame ending in a sync flush, so a delta frame's data relies
//! on the frames before it back to the key frame (the decoder resets its
//! inflater only at a key frame).
//!
//! A key frame's data is the palette (256 x R, G, B) and the pixels. A
//! delta frame's is the palette XOR the previous one (when it changed),
//! then one motion vector per block (dx << 1 | "XOR data follows", dy << 1;
//! the table padded to 4 bytes), then for each flagged block its pixels
//! XOR the previous frame's block. This encoder uses the zero vector only:
//! a block is either unchanged or XORed in place.

use flate2::{Compress, Compression, FlushCompress};

/// Block width and height in pixels (DOSBox's).
pub const BLOCK: usize = 16;
/// A key frame every this many frames (DOSBox's interval: 300 frames,
/// about 4 s at 70 Hz), so a player can seek.
pub const KEY_INTERVAL: u64 = 300;
/// The zlib level, fixed so that the same frames give the same bytes.
pub const LEVEL: u32 = 4;

/// Flag: a key frame.
const KEYFRAME: u8 = 0x01;
/// Flag: the palette changed (its XOR with the previous one leads the data).
const DELTA_PALETTE: u8 = 0x02;
/// ZMBV's format number of 8 bits per pixel.
const FORMAT_8BPP: u8 = 4;

/// An 8-bit frame: one palette index per pixel, and the palette.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture<'a> {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// `width * height` indices, rows top to bottom.
    pub pixels: &'a [u8],
    /// The colour of each index.
    pub palette: &'a [[u8; 3]; 256],
}

/// Encodes a stream of frames of one size.
pub struct Encoder {
    width: usize,
    height: usize,
    zlib: Compress,
    /// The previous frame's pixels and palette.
    prev: Vec<u8>,
    prev_palette: [[u8; 3]; 256],
    /// Frames encoded.
    frames: u64,
    /// The uncompressed data of the frame being made.
    raw: Vec<u8>,
}

impl Encoder {
    /// An encoder of `width` x `height` frames.
    pub fn new(width: usize, height: usize) -> Encoder {
        Encoder {
            width,
            height,
            zlib: Compress::new(Compression::new(LEVEL), true),
            prev: vec![0; width * height],
            prev_palette: [[0; 3]; 256],
            frames: 0,
            raw: Vec::new(),
        }
    }

    /// Encodes the next frame (of the encoder's size) into `out`
    /// (cleared first); returns whether it is a key frame.
    pub fn encode(&mut self, p: &Picture, out: &mut Vec<u8>) -> bool {
        debug_assert_eq!((p.width, p.height), (self.width, self.height));
        let key = self.frames.is_multiple_of(KEY_INTERVAL);
        self.frames += 1;
        out.clear();
        self.raw.clear();
        if key {
            out.extend([KEYFRAME, 0, 1, 1, FORMAT_8BPP, BLOCK as u8, BLOCK as u8]);
            self.raw.extend(p.palette.iter().flatten());
            self.raw.extend_from_slice(p.pixels);
            self.zlib.reset();
        } else {
            let mut flags = 0;
            if p.palette != &self.prev_palette {
                flags |= DELTA_PALETTE;
                let old = self.prev_palette.iter().flatten();
                self.raw
                    .extend(p.palette.iter().flatten().zip(old).map(|(a, b)| a ^ b));
            }
            out.push(flags);
            self.delta_blocks(p.pixels);
        }
        self.compress(out);
        self.prev.copy_from_slice(p.pixels);
        self.prev_palette = *p.palette;
        key
    }

    /// The vectors and XOR data of a delta frame into `raw`.
    fn delta_blocks(&mut self, pixels: &[u8]) {
        let (w, h) = (self.width, self.height);
        let (bx, by) = (w.div_ceil(BLOCK), h.div_ceil(BLOCK));
        let vectors = self.raw.len();
        // The table of vectors, padded to a multiple of 4 bytes.
        self.raw
            .resize(vectors + (bx * by * 2).next_multiple_of(4), 0);
        for b in 0..bx * by {
            let (x0, y0) = (b % bx * BLOCK, b / bx * BLOCK);
            let (x1, y1) = ((x0 + BLOCK).min(w), (y0 + BLOCK).min(h));
            let rows = (y0..y1).map(|y| y * w + x0..y * w + x1);
            if rows.clone().all(|r| pixels[r.clone()] == self.prev[r]) {
                continue;
            }
            self.raw[vectors + 2 * b] = 1;
            for r in rows {
                let xor = pixels[r.clone()]
                    .iter()
                    .zip(&self.prev[r])
                    .map(|(a, b)| a ^ b);
                self.raw.extend(xor);
            }
        }
    }

    /// Appends `raw` compressed, ending in a sync flush.
    fn compress(&mut self, out: &mut Vec<u8>) {
        // Room for the worst case: stored blocks' 5 bytes per 16 KiB and the
        // flush's few bytes.
        out.reserve(self.raw.len() + self.raw.len() / 1000 + 64);
        let mut input = &self.raw[..];
        loop {
            let before = self.zlib.total_in();
            // Cannot fail with a valid stream and room to write.
            let _ = self.zlib.compress_vec(input, out, FlushCompress::Sync);
            input = &input[(self.zlib.total_in() - before) as usize..];
            if input.is_empty() && out.len() < out.capacity() {
                break;
            }
            out.reserve(out.capacity().max(4096));
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use flate2::{Decompress, FlushDecompress};

    /// A ZMBV decoder of 8-bit streams (as a player reads them), for the
    /// tests: the frames' pixels and palettes.
    pub(crate) struct Decoder {
        width: usize,
        height: usize,
        zlib: Decompress,
        pub pixels: Vec<u8>,
        pub palette: Vec<u8>,
    }

    impl Decoder {
        pub(crate) fn new(width: usize, height: usize) -> Decoder {
            Decoder {
                width,
                height,
                zlib: Decompress::new(true),
                pixels: vec![0; width * height],
                palette: vec![0; 768],
            }
        }

        /// Decodes one chunk; panics on what a player would refuse.
        pub(crate) fn decode(&mut self, chunk: &[u8]) {
            let flags = chunk[0];
            let mut data = &chunk[1..];
            if flags & KEYFRAME != 0 {
                assert_eq!(&data[..6], &[0, 1, 1, FORMAT_8BPP, 16, 16]);
                data = &data[6..];
                self.zlib.reset(true);
            }
            let mut raw = Vec::with_capacity(1 << 20);
            self.zlib
                .decompress_vec(data, &mut raw, FlushDecompress::Sync)
                .expect("inflates");
            let mut src = &raw[..];
            if flags & KEYFRAME != 0 {
                self.palette.copy_from_slice(&src[..768]);
                let n = self.pixels.len();
                assert_eq!(src.len(), 768 + n);
                self.pixels.copy_from_slice(&src[768..]);
                return;
            }
            if flags & DELTA_PALETTE != 0 {
                for (p, x) in self.palette.iter_mut().zip(&src[..768]) {
                    *p ^= x;
                }
                src = &src[768..];
            }
            let (w, h) = (self.width, self.height);
            let (bx, by) = (w.div_ceil(BLOCK), h.div_ceil(BLOCK));
            let table = (bx * by * 2).next_multiple_of(4);
            let (vectors, mut xor) = src.split_at(table);
            for b in 0..bx * by {
                assert_eq!(vectors[2 * b] & !1, 0, "only zero vectors");
                if vectors[2 * b] & 1 == 0 {
                    continue;
                }
                let (x0, y0) = (b % bx * BLOCK, b / bx * BLOCK);
                let (x1, y1) = ((x0 + BLOCK).min(w), (y0 + BLOCK).min(h));
                for y in y0..y1 {
                    for x in x0..x1 {
                        self.pixels[y * w + x] ^= xor[0];
                        xor = &xor[1..];
                    }
                }
            }
            assert!(xor.is_empty(), "{} bytes left over", xor.len());
        }
    }

    /// Frame `n` of a test stream: moving stripes, a palette that changes
    /// every 7 frames, a still area.
    fn frame(n: usize, w: usize, h: usize) -> (Vec<u8>, [[u8; 3]; 256]) {
        let pixels = (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                if y < h / 2 {
                    (x / 5 + n) as u8
                } else {
                    (x ^ y) as u8
                }
            })
            .collect();
        let pal = std::array::from_fn(|i| [i as u8, (i + n / 7) as u8, 255 - i as u8]);
        (pixels, pal)
    }

    #[test]
    fn frames_decode_to_what_was_encoded() {
        // A size that is not a multiple of the block.
        let (w, h) = (37, 21);
        let mut enc = Encoder::new(w, h);
        let mut dec = Decoder::new(w, h);
        let mut chunk = Vec::new();
        let mut keys = 0;
        for n in 0..(KEY_INTERVAL as usize + 20) {
            let (pixels, palette) = frame(n, w, h);
            let p = Picture {
                width: w,
                height: h,
                pixels: &pixels,
                palette: &palette,
            };
            let key = enc.encode(&p, &mut chunk);
            keys += usize::from(key);
            assert_eq!(key, n % KEY_INTERVAL as usize == 0, "{n}");
            dec.decode(&chunk);
            assert_eq!(dec.pixels, pixels, "frame {n}");
            assert_eq!(dec.palette, palette.concat(), "frame {n}");
        }
        assert_eq!(keys, 2);
    }

    #[test]
    fn an_unchanged_frame_is_small_and_the_same_frames_give_the_same_bytes() {
        let (w, h) = (320, 200);
        let (pixels, palette) = frame(3, w, h);
        let p = Picture {
            width: w,
            height: h,
            pixels: &pixels,
            palette: &palette,
        };
        let run = || {
            let mut enc = Encoder::new(w, h);
            let mut out = Vec::new();
            let mut chunks = Vec::new();
            for _ in 0..3 {
                enc.encode(&p, &mut out);
                chunks.push(out.clone());
            }
            chunks
        };
        let a = run();
        assert_eq!(a, run());
        assert!(a[1].len() < 40, "an unchanged frame: {} bytes", a[1].len());
        assert_eq!(a[1][0], 0, "neither key nor palette");
    }
}
