//! An AVI writer (Microsoft's RIFF AVI with the OpenDML 1.02 extensions):
//! one video stream of compressed frames (`00dc` chunks) and one 16-bit
//! stereo PCM stream (`01wb` chunks), interleaved as they come.
//!
//! Layout: `RIFF 'AVI '` holds the headers (`hdrl`: `avih`, a `strl` per
//! stream with `strh`, `strf` and an OpenDML super index `indx`, and the
//! `odml` list whose `dmlh` counts every frame), the first `movi` list and
//! the old `idx1` index of that list. A RIFF is kept under
//! [`RIFF_LIMIT`] (1 GiB, as the OpenDML reference and ffmpeg keep them):
//! past it the data goes on in `RIFF 'AVIX'` lists, each with a `movi`.
//! Each `movi` ends with one standard index (`ix00`, `ix01`) per stream,
//! which the super indexes point to; so readers of the old format see the
//! first RIFF and OpenDML readers see every one. Nothing in the file
//! depends on the host or the time of writing.

use std::io::{self, Seek, SeekFrom, Write};

/// Most bytes in one RIFF list.
pub const RIFF_LIMIT: u64 = 1 << 30;
/// Entries in each stream's super index (each one a RIFF of at most
/// [`RIFF_LIMIT`]: a file of up to 256 GiB).
const SUPER_ENTRIES: usize = 256;
/// AVIF_HASINDEX | AVIF_ISINTERLEAVED | AVIF_TRUSTCKTYPE.
const AVIF_FLAGS: u32 = 0x10 | 0x100 | 0x800;
/// idx1's flag of a key frame.
const AVIIF_KEYFRAME: u32 = 0x10;
/// A standard index entry's flag of a frame that is not a key frame.
const DELTA_FRAME: u32 = 0x8000_0000;

/// The video stream: its frame size and rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VideoFormat {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Frames per second is `rate / scale` (AVI's dwRate and dwScale).
    pub rate: u32,
    /// See `rate`.
    pub scale: u32,
    /// The codec's FourCC (e.g. `ZMBV`).
    pub codec: [u8; 4],
    /// Bits per pixel of the decoded picture.
    pub bits: u16,
}

/// An `idx1` entry: chunk id, flags, offset from the `movi` FourCC, size.
type Idx1Entry = ([u8; 4], u32, u32, u32);

/// One stream's chunks in the RIFF being written, and its standard
/// indexes so far.
#[derive(Default)]
struct Stream {
    /// (file offset of the chunk's data, its size, key frame).
    chunks: Vec<(u64, u32, bool)>,
    /// Duration of the chunks (frames, or audio sample frames).
    duration: u32,
    /// Super index entries: (offset of an `ix##` chunk, its size, its
    /// duration).
    indexes: Vec<(u64, u32, u32)>,
    /// The largest chunk.
    largest: u32,
    /// Duration in the whole file.
    total: u64,
}

/// An AVI file being written.
pub struct AviWriter<W: Write + Seek> {
    out: W,
    video: VideoFormat,
    audio_rate: u32,
    /// The write position.
    pos: u64,
    riff_limit: u64,
    /// Where the present `RIFF` and its `LIST movi` start.
    riff_start: u64,
    movi_start: u64,
    /// The first RIFF's `idx1`: (chunk id, flags, offset from `movi`, size).
    idx1: Option<Vec<Idx1Entry>>,
    /// Frames in the first RIFF.
    first_frames: u32,
    /// The first RIFF's size field, once it is closed.
    first_riff_size: u32,
    streams: [Stream; 2],
}

const VIDEO_ID: [u8; 4] = *b"00dc";
const AUDIO_ID: [u8; 4] = *b"01wb";

impl<W: Write + Seek> AviWriter<W> {
    /// Starts an AVI in `out` (at its start) with a video stream of
    /// `video` and 16-bit stereo PCM at `audio_rate` Hz.
    pub fn new(out: W, video: VideoFormat, audio_rate: u32) -> io::Result<Self> {
        Self::with_riff_limit(out, video, audio_rate, RIFF_LIMIT)
    }

    /// As [`AviWriter::new`], with RIFF lists of at most `riff_limit`
    /// bytes (tests make small ones).
    pub fn with_riff_limit(
        out: W,
        video: VideoFormat,
        audio_rate: u32,
        riff_limit: u64,
    ) -> io::Result<Self> {
        let mut w = AviWriter {
            out,
            video,
            audio_rate,
            pos: 0,
            riff_limit,
            riff_start: 0,
            movi_start: 0,
            idx1: Some(Vec::new()),
            first_frames: 0,
            first_riff_size: 0,
            streams: Default::default(),
        };
        let header = w.header();
        w.put(&header)?;
        w.movi_start = w.pos;
        w.put(b"LIST\0\0\0\0movi")?;
        Ok(w)
    }

    /// Appends a video frame.
    pub fn video(&mut self, data: &[u8], key: bool) -> io::Result<()> {
        self.chunk(0, data, key, 1)
    }

    /// Appends sound (nothing for no samples).
    pub fn audio(&mut self, samples: &[[i16; 2]]) -> io::Result<()> {
        if samples.is_empty() {
            return Ok(());
        }
        let data: Vec<u8> = samples
            .iter()
            .flat_map(|s| s.iter().flat_map(|v| v.to_le_bytes()))
            .collect();
        self.chunk(1, &data, true, samples.len() as u32)
    }

    /// Frames written so far.
    pub fn frames(&self) -> u64 {
        self.streams[0].total
    }

    /// Ends the file: the last RIFF's indexes and sizes, then the headers
    /// with the final counts. Returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.close_riff()?;
        let header = self.header();
        self.out.seek(SeekFrom::Start(0))?;
        self.out.write_all(&header)?;
        self.out.flush()?;
        Ok(self.out)
    }

    fn put(&mut self, b: &[u8]) -> io::Result<()> {
        self.out.write_all(b)?;
        self.pos += b.len() as u64;
        Ok(())
    }

    /// Writes 4 bytes at `at` (a size field) and comes back.
    fn patch(&mut self, at: u64, v: u32) -> io::Result<()> {
        self.out.seek(SeekFrom::Start(at))?;
        self.out.write_all(&v.to_le_bytes())?;
        self.out.seek(SeekFrom::Start(self.pos))?;
        Ok(())
    }

    /// Appends a chunk of stream `s`, in a new RIFF when this one is full.
    fn chunk(&mut self, s: usize, data: &[u8], key: bool, duration: u32) -> io::Result<()> {
        let id = [VIDEO_ID, AUDIO_ID][s];
        let size = u32::try_from(data.len()).map_err(|_| io::Error::other("chunk over 4 GiB"))?;
        // This chunk, the indexes' entries so far and this one's.
        let entries: usize = self.streams.iter().map(|s| s.chunks.len() + 1).sum();
        let idx1 = if self.idx1.is_some() { 16 } else { 0 };
        let need = 8 + u64::from(size) + 1 + (2 * 32 + entries as u64 * (8 + idx1));
        let empty = self.streams.iter().all(|s| s.chunks.is_empty());
        if self.pos + need - self.riff_start > self.riff_limit && !empty {
            self.close_riff()?;
            self.riff_start = self.pos;
            self.put(b"RIFF\0\0\0\0AVIX")?;
            self.movi_start = self.pos;
            self.put(b"LIST\0\0\0\0movi")?;
        }
        let header = self.pos;
        let mut h = [0u8; 8];
        h[..4].copy_from_slice(&id);
        h[4..].copy_from_slice(&size.to_le_bytes());
        self.put(&h)?;
        self.put(data)?;
        if size % 2 == 1 {
            self.put(&[0])?;
        }
        let movi = self.movi_start + 8;
        if let Some(idx1) = self.idx1.as_mut() {
            let flags = if key { AVIIF_KEYFRAME } else { 0 };
            idx1.push((id, flags, (header - movi) as u32, size));
            if s == 0 {
                self.first_frames += 1;
            }
        }
        let st = &mut self.streams[s];
        st.chunks.push((header + 8, size, key));
        st.duration += duration;
        st.total += u64::from(duration);
        st.largest = st.largest.max(size);
        Ok(())
    }

    /// Ends the present RIFF: a standard index per stream at the end of
    /// its `movi`, the first RIFF's `idx1`, the list sizes.
    fn close_riff(&mut self) -> io::Result<()> {
        for s in 0..2 {
            let st = std::mem::take(&mut self.streams[s].chunks);
            if st.is_empty() {
                continue;
            }
            let id = [VIDEO_ID, AUDIO_ID][s];
            let at = self.pos;
            let ix = standard_index(s, id, self.movi_start, &st);
            self.put(&ix)?;
            let d = std::mem::take(&mut self.streams[s].duration);
            if self.streams[s].indexes.len() >= SUPER_ENTRIES {
                return Err(io::Error::other("the video is over 256 GiB"));
            }
            self.streams[s].indexes.push((at, ix.len() as u32, d));
        }
        let movi_size = (self.pos - self.movi_start - 8) as u32;
        self.patch(self.movi_start + 4, movi_size)?;
        if let Some(entries) = self.idx1.take() {
            let mut b = Vec::with_capacity(8 + 16 * entries.len());
            b.extend(b"idx1");
            b.extend((16 * entries.len() as u32).to_le_bytes());
            for (id, flags, offset, size) in entries {
                b.extend(id);
                for v in [flags, offset, size] {
                    b.extend(v.to_le_bytes());
                }
            }
            self.put(&b)?;
        }
        let riff_size = (self.pos - self.riff_start - 8) as u32;
        if self.riff_start == 0 {
            self.first_riff_size = riff_size;
        }
        self.patch(self.riff_start + 4, riff_size)
    }

    /// The first RIFF's header and `hdrl` list, as they stand (the same
    /// size whatever the counts).
    fn header(&self) -> Vec<u8> {
        let v = &self.video;
        let [video, audio] = &self.streams;
        let fps_rate = f64::from(v.rate) / f64::from(v.scale.max(1));
        let mut avih = Vec::new();
        let per_frame = (1e6 / fps_rate.max(1e-9)).round() as u32;
        let bytes_per_sec =
            (f64::from(video.largest) * fps_rate) as u32 + self.audio_rate.saturating_mul(4);
        for x in [
            per_frame,
            bytes_per_sec,
            0,
            AVIF_FLAGS,
            self.first_frames,
            0,
            2,
            video.largest.max(audio.largest),
            v.width,
            v.height,
            0,
            0,
            0,
            0,
        ] {
            avih.extend(x.to_le_bytes());
        }
        let strl_video = list(
            b"strl",
            &[
                chunk(b"strh", &video_strh(v, video)),
                chunk(b"strf", &bitmap_info(v)),
                chunk(b"indx", &super_index(VIDEO_ID, &video.indexes)),
            ]
            .concat(),
        );
        let strl_audio = list(
            b"strl",
            &[
                chunk(b"strh", &audio_strh(self.audio_rate, audio)),
                chunk(b"strf", &wave_format(self.audio_rate)),
                chunk(b"indx", &super_index(AUDIO_ID, &audio.indexes)),
            ]
            .concat(),
        );
        let mut dmlh = vec![0u8; 248];
        dmlh[..4].copy_from_slice(&(video.total as u32).to_le_bytes());
        let odml = list(b"odml", &chunk(b"dmlh", &dmlh));
        let hdrl = list(
            b"hdrl",
            &[chunk(b"avih", &avih), strl_video, strl_audio, odml].concat(),
        );
        // The first RIFF's size, once it is closed.
        let riff = self.first_riff_size.to_le_bytes();
        [b"RIFF".as_slice(), &riff, b"AVI ", &hdrl].concat()
    }
}

/// A chunk: id, size, data and a pad byte to an even size.
fn chunk(id: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut b = Vec::with_capacity(data.len() + 9);
    b.extend(id);
    b.extend((data.len() as u32).to_le_bytes());
    b.extend(data);
    if data.len() % 2 == 1 {
        b.push(0);
    }
    b
}

/// A list: `LIST`, size, type and its chunks.
fn list(kind: &[u8; 4], body: &[u8]) -> Vec<u8> {
    let mut b = Vec::with_capacity(body.len() + 12);
    b.extend(b"LIST");
    b.extend((body.len() as u32 + 4).to_le_bytes());
    b.extend(kind);
    b.extend(body);
    b
}

/// An AVISTREAMHEADER's fields after its two FourCCs, flags and priority.
fn strh(
    kind: &[u8; 4],
    handler: &[u8; 4],
    scale: u32,
    rate: u32,
    st: &Stream,
    sample_size: u32,
    frame: [u16; 4],
) -> Vec<u8> {
    let mut b = Vec::with_capacity(56);
    b.extend(kind);
    b.extend(handler);
    b.extend(0u32.to_le_bytes()); // dwFlags
    b.extend(0u32.to_le_bytes()); // wPriority, wLanguage
    for x in [
        0,
        scale,
        rate,
        0,
        st.total as u32,
        st.largest,
        u32::MAX,
        sample_size,
    ] {
        b.extend(x.to_le_bytes());
    }
    for x in frame {
        b.extend(x.to_le_bytes());
    }
    b
}

fn video_strh(v: &VideoFormat, st: &Stream) -> Vec<u8> {
    let frame = [0, 0, v.width as u16, v.height as u16];
    strh(b"vids", &v.codec, v.scale, v.rate, st, 0, frame)
}

/// PCM's stream header: a block (4 bytes, one stereo sample) per tick.
fn audio_strh(rate: u32, st: &Stream) -> Vec<u8> {
    strh(b"auds", &[0; 4], 4, rate * 4, st, 4, [0; 4])
}

/// The video's BITMAPINFOHEADER.
fn bitmap_info(v: &VideoFormat) -> Vec<u8> {
    let mut b = Vec::with_capacity(40);
    b.extend(40u32.to_le_bytes());
    b.extend(v.width.to_le_bytes());
    b.extend(v.height.to_le_bytes());
    b.extend(1u16.to_le_bytes());
    b.extend(v.bits.to_le_bytes());
    b.extend(v.codec);
    let image = v.width * v.height * u32::from(v.bits).div_ceil(8);
    for x in [image, 0, 0, 0, 0] {
        b.extend(x.to_le_bytes());
    }
    b
}

/// 16-bit stereo PCM's WAVEFORMAT (PCMWAVEFORMAT, 16 bytes).
fn wave_format(rate: u32) -> Vec<u8> {
    let mut b = Vec::with_capacity(16);
    b.extend(1u16.to_le_bytes());
    b.extend(2u16.to_le_bytes());
    b.extend(rate.to_le_bytes());
    b.extend((rate * 4).to_le_bytes());
    b.extend(4u16.to_le_bytes());
    b.extend(16u16.to_le_bytes());
    b
}

/// An OpenDML super index (AVI_INDEX_OF_INDEXES) with room for
/// [`SUPER_ENTRIES`] entries.
fn super_index(id: [u8; 4], entries: &[(u64, u32, u32)]) -> Vec<u8> {
    let mut b = Vec::with_capacity(24 + 16 * SUPER_ENTRIES);
    b.extend(4u16.to_le_bytes()); // wLongsPerEntry
    b.extend([0, 0]); // bIndexSubType, bIndexType = AVI_INDEX_OF_INDEXES
    b.extend((entries.len() as u32).to_le_bytes());
    b.extend(id);
    b.extend([0; 12]);
    for &(offset, size, duration) in entries {
        b.extend(offset.to_le_bytes());
        b.extend(size.to_le_bytes());
        b.extend(duration.to_le_bytes());
    }
    b.resize(24 + 16 * SUPER_ENTRIES, 0);
    b
}

/// A standard index chunk (`ix00`, AVI_INDEX_OF_CHUNKS) of stream `s`'s
/// chunks in the `movi` list at `base`.
fn standard_index(s: usize, id: [u8; 4], base: u64, chunks: &[(u64, u32, bool)]) -> Vec<u8> {
    let mut body = Vec::with_capacity(24 + 8 * chunks.len());
    body.extend(2u16.to_le_bytes()); // wLongsPerEntry
    body.extend([0, 1]); // bIndexSubType, bIndexType = AVI_INDEX_OF_CHUNKS
    body.extend((chunks.len() as u32).to_le_bytes());
    body.extend(id);
    body.extend(base.to_le_bytes());
    body.extend(0u32.to_le_bytes());
    for &(at, size, key) in chunks {
        body.extend(((at - base) as u32).to_le_bytes());
        body.extend((size | if key { 0 } else { DELTA_FRAME }).to_le_bytes());
    }
    chunk(&[b'i', b'x', b'0', b'0' + s as u8], &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn u32_at(b: &[u8], i: usize) -> u32 {
        u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"))
    }

    fn u64_at(b: &[u8], i: usize) -> u64 {
        u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"))
    }

    /// The offset of the first chunk `id` in `b[from..to]`, walking the
    /// chunks and entering lists.
    fn find(b: &[u8], from: usize, to: usize, id: &[u8; 4]) -> Option<usize> {
        let mut i = from;
        while i + 8 <= to {
            if &b[i..i + 4] == id {
                return Some(i);
            }
            let size = u32_at(b, i + 4) as usize;
            if &b[i..i + 4] == b"LIST" || &b[i..i + 4] == b"RIFF" {
                if let Some(f) = find(b, i + 12, i + 8 + size, id) {
                    return Some(f);
                }
            }
            i += 8 + size + size % 2;
        }
        None
    }

    /// The chunks a stream's super index leads to, through its standard
    /// indexes: (data, key frame), and the indexes' total duration.
    fn through_indexes(b: &[u8], indx: usize) -> (Vec<(Vec<u8>, bool)>, u64) {
        let n = u32_at(b, indx + 12) as usize;
        let id = &b[indx + 16..indx + 20];
        let (mut out, mut duration) = (Vec::new(), 0);
        for e in 0..n {
            let at = indx + 8 + 24 + 16 * e;
            let ix = u64_at(b, at) as usize;
            assert_eq!(&b[ix..ix + 3], b"ix0");
            assert_eq!(u32_at(b, at + 8) as usize, 8 + u32_at(b, ix + 4) as usize);
            duration += u64::from(u32_at(b, at + 12));
            assert_eq!(&b[ix + 16..ix + 20], id);
            let base = u64_at(b, ix + 20) as usize;
            for k in 0..u32_at(b, ix + 12) as usize {
                let off = base + u32_at(b, ix + 32 + 8 * k) as usize;
                let size = u32_at(b, ix + 36 + 8 * k);
                assert_eq!(&b[off - 8..off - 4], id, "the chunk the entry names");
                assert_eq!(u32_at(b, off - 4), size & !DELTA_FRAME);
                let data = b[off..off + (size & !DELTA_FRAME) as usize].to_vec();
                out.push((data, size & DELTA_FRAME == 0));
            }
        }
        (out, duration)
    }

    /// A file of several RIFFs (a small limit): the lists' sizes add up,
    /// the OpenDML indexes reach every chunk in order, idx1 the first
    /// RIFF's, and the headers count them.
    #[test]
    fn every_riff_and_index_adds_up() {
        let format = VideoFormat {
            width: 320,
            height: 200,
            rate: 125_875,
            scale: 1_796,
            codec: *b"ZMBV",
            bits: 8,
        };
        let mut w = AviWriter::with_riff_limit(Cursor::new(Vec::new()), format, 44_100, 4096)
            .expect("starts");
        let frames: Vec<Vec<u8>> = (0..100u8).map(|n| vec![n; 37 + n as usize * 3]).collect();
        for (n, f) in frames.iter().enumerate() {
            w.audio(&vec![[n as i16, -(n as i16)]; 629]).expect("audio");
            w.video(f, n % 30 == 0).expect("video");
        }
        let b = w.finish().expect("finishes").into_inner();
        // The RIFFs cover the file.
        let mut riffs = Vec::new();
        let mut i = 0;
        while i < b.len() {
            assert_eq!(&b[i..i + 4], b"RIFF");
            riffs.push(b[i + 8..i + 12].to_vec());
            i += 8 + u32_at(&b, i + 4) as usize;
        }
        assert_eq!(i, b.len());
        assert!(riffs.len() > 10, "{} RIFFs", riffs.len());
        assert_eq!(riffs[0], b"AVI ");
        assert!(riffs[1..].iter().all(|r| r == b"AVIX"));
        // The video's super index leads to every frame.
        let indx = find(&b, 12, b.len(), b"indx").expect("video indx");
        let (chunks, duration) = through_indexes(&b, indx);
        let got: Vec<_> = chunks.iter().map(|c| c.0.clone()).collect();
        assert_eq!(got, frames);
        assert_eq!(duration, 100);
        let keys: Vec<_> = (0..100).filter(|&n| chunks[n].1).collect();
        assert_eq!(keys, [0, 30, 60, 90]);
        // The sound's, to every sample.
        let after = indx + 8 + u32_at(&b, indx + 4) as usize;
        let indx2 = find(&b, after, b.len(), b"indx").expect("audio indx");
        let (sound, samples) = through_indexes(&b, indx2);
        assert_eq!(samples, 62_900);
        assert_eq!(sound.iter().map(|c| c.0.len()).sum::<usize>(), 62_900 * 4);
        // idx1 lists the first RIFF's chunks, from the `movi` FourCC.
        let first_end = 8 + u32_at(&b, 4) as usize;
        let idx1 = find(&b, 12, first_end, b"idx1").expect("idx1");
        let movi = (12..idx1).find(|&i| &b[i..i + 4] == b"movi").expect("movi");
        let entries = u32_at(&b, idx1 + 4) as usize / 16;
        let mut first_frames = 0;
        for e in 0..entries {
            let at = idx1 + 8 + 16 * e;
            let off = movi + u32_at(&b, at + 8) as usize;
            assert_eq!(b[off..off + 4], b[at..at + 4]);
            first_frames += u32::from(&b[at..at + 4] == b"00dc");
        }
        let avih = find(&b, 12, first_end, b"avih").expect("avih");
        assert_eq!(u32_at(&b, avih + 8 + 16), first_frames);
        let dmlh = find(&b, 12, first_end, b"dmlh").expect("dmlh");
        assert_eq!(u32_at(&b, dmlh + 8), 100);
    }
}
