//! Microsoft EXEPACK: recognising a packed program and unpacking it the
//! way its stub would, for MS-DOS 5's loader work-around.
//!
//! An EXEPACK program's entry point is a stub at CS:0010h or CS:0012h
//! behind a header (real IP, real CS, a scratch word, the EXEPACK block's
//! size, real SP, real SS, the unpacked length in paragraphs, with an
//! 18-byte header a "skip" length, and the signature "RB"). The stub moves
//! itself above the unpacked image, runs the run-length commands backwards
//! from the end of the packed data (`B0h`: fill, `B2h`: copy, bit 0: last
//! command), applies a relocation table of 16 sections (one per 64 KiB,
//! each a count and that many offsets) and jumps to the real entry.
//!
//! The stub normalises its pointers by subtracting from segment registers,
//! which goes below segment 0 when the program is loaded in the first
//! 64 KiB; with A20 on the access then lands in the HMA instead of low
//! memory and the stub reports "Packed file is corrupt". MS-DOS 5's loader
//! recognises the stub and does the stub's work with correct arithmetic
//! when it loads such a program that low (LOADFIX exists for the cases it
//! does not recognise). tandem does the same in [`unpack`], from the file's
//! data alone: the result is what a correct stub leaves in memory.

/// The stub's last words, which MS-DOS's loader looks for to recognise it;
/// the relocation table follows them.
pub const CORRUPT: &[u8] = b"Packed file is corrupt";

/// An unpacked program: its image (to place at the load segment), the
/// relocations to add the load segment to (byte offsets in the image) and
/// its real entry point relative to the load segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unpacked {
    /// The unpacked image.
    pub image: Vec<u8>,
    /// Offsets (from the load segment) of words to relocate.
    pub relocs: Vec<u32>,
    /// CS, relative to the load segment.
    pub cs: u16,
    /// IP.
    pub ip: u16,
    /// SS, relative to the load segment.
    pub ss: u16,
    /// SP.
    pub sp: u16,
}

fn word(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes([*b.get(at)?, *b.get(at + 1)?]))
}

/// Whether `image` (a load image with entry CS:IP relative to it) is an
/// EXEPACK program whose stub MS-DOS recognises; the header offset, its
/// length and the relocation table's offset if so.
fn recognise(image: &[u8], cs: u16, ip: u16) -> Option<(usize, usize, usize)> {
    if ip != 0x10 && ip != 0x12 {
        return None;
    }
    let head = cs as usize * 16;
    if image.get(head + ip as usize - 2..head + ip as usize)? != b"RB" {
        return None;
    }
    let size = word(image, head + 6)? as usize;
    let block = image.get(head..head + size)?;
    let at = block.windows(CORRUPT.len()).position(|w| w == CORRUPT)?;
    Some((head, ip as usize, head + at + CORRUPT.len()))
}

/// Unpacks `image` (the load image as placed, with entry `cs:ip`
/// relative to it) if it is a recognised EXEPACK program. None when it is
/// not one, or when its data is corrupt (then the stub runs and says so).
pub fn unpack(image: &[u8], cs: u16, ip: u16) -> Option<Unpacked> {
    let (head, hlen, table) = recognise(image, cs, ip)?;
    let h = |k: usize| word(image, head + k);
    let (real_ip, real_cs) = (h(0)?, h(2)?);
    let (real_sp, real_ss) = (h(8)?, h(10)?);
    let dest_len = h(12)? as usize;
    let skip = if hlen == 0x12 { h(14)? as usize } else { 1 };
    if skip == 0 || skip > dest_len || skip > cs as usize {
        return None;
    }
    // The last paragraph of packed data may end in up to 16 FFh bytes of
    // padding.
    let last_para = (cs as usize - skip) * 16;
    let mut src = last_para + 15;
    let mut pad = 0;
    while pad < 16 && *image.get(src)? == 0xFF {
        src = src.checked_sub(1)?;
        pad += 1;
    }
    if pad == 16 {
        return None; // a paragraph of padding only: the stub fails
    }
    let out_len = (dest_len - skip + 1) * 16;
    // One buffer, worked backwards in place as the stub does.
    let mut buf = image.to_vec();
    if buf.len() < out_len {
        buf.resize(out_len, 0);
    }
    let mut dst = out_len as isize - 1;
    let mut s = src as isize;
    fn at(buf: &[u8], i: isize) -> Option<u8> {
        buf.get(usize::try_from(i).ok()?).copied()
    }
    loop {
        let cmd = at(&buf, s)?;
        let len = u16::from_le_bytes([at(&buf, s - 2)?, at(&buf, s - 1)?]) as isize;
        s -= 3;
        match cmd & 0xFE {
            0xB0 => {
                let fill = at(&buf, s)?;
                s -= 1;
                for _ in 0..len {
                    *buf.get_mut(usize::try_from(dst).ok()?)? = fill;
                    dst -= 1;
                }
            }
            0xB2 => {
                for _ in 0..len {
                    let b = at(&buf, s)?;
                    *buf.get_mut(usize::try_from(dst).ok()?)? = b;
                    s -= 1;
                    dst -= 1;
                }
            }
            _ => return None,
        }
        if cmd & 1 != 0 {
            break;
        }
    }
    // Relocations: 16 sections of 64 KiB.
    let mut relocs = Vec::new();
    let mut t = table;
    for section in 0..16u32 {
        let n = word(image, t)?;
        t += 2;
        for _ in 0..n {
            let off = word(image, t)? as u32;
            t += 2;
            relocs.push(section * 0x10000 + off);
        }
    }
    buf.truncate(out_len);
    Some(Unpacked {
        image: buf,
        relocs,
        cs: real_cs,
        ip: real_ip,
        ss: real_ss,
        sp: real_sp,
    })
}
