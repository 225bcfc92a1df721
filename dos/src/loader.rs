//! Loading a program into the arena: environment block, PSP, COM or EXE
//! image, relocations, and the registers MS-DOS 5 sets at entry.

use crate::mcb::{self, Arena, Strategy};
use crate::mem::{lin, rd16, wr16, wr8, write_bytes};
use crate::mz::{Executable, LoadError};
use hw::Machine;

/// Where a loaded program starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// Its PSP segment.
    pub psp: u16,
    /// Its environment segment.
    pub env: u16,
    /// Initial CS.
    pub cs: u16,
    /// Initial IP.
    pub ip: u16,
    /// Initial SS.
    pub ss: u16,
    /// Initial SP.
    pub sp: u16,
    /// Initial AX: AL = FFh when the first FCB's drive is invalid, AH the
    /// same for the second.
    pub ax: u16,
}

/// The PSP fields a new process inherits.
#[derive(Clone, Debug)]
pub struct PspInit<'a> {
    /// Parent PSP segment.
    pub parent: u16,
    /// Command tail (without the length byte and CR; at most 126 bytes).
    pub tail: &'a [u8],
    /// INT 22h, 23h, 24h vectors to save (seg, off).
    pub vectors: [(u16, u16); 3],
    /// The parent's job file table to inherit (SFT indices, FFh = closed).
    pub jft: [u8; 20],
}

/// Parses a file name into FCB form (drive, 11-byte blank-padded name)
/// as INT 21h 29h does with AL bit 0 set (leading separators skipped, as
/// DOS parses the PSP's FCBs); returns (drive number 0 = default, name,
/// drive valid, bytes consumed).
pub fn parse_fcb_name(s: &[u8]) -> (u8, [u8; 11], bool, usize) {
    parse_fcb_name_with(s, true)
}

/// [`parse_fcb_name`] with the choice of INT 21h 29h's AL bit 0: without
/// it only blanks are skipped before the name, and a separator (`:` `;`
/// `,` `=` `+`) there ends it empty.
pub fn parse_fcb_name_with(s: &[u8], skip_separators: bool) -> (u8, [u8; 11], bool, usize) {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t') {
        i += 1;
    }
    if skip_separators && i < s.len() && matches!(s[i], b':' | b',' | b';' | b'=' | b'+') {
        i += 1;
        while i < s.len() && matches!(s[i], b' ' | b'\t') {
            i += 1;
        }
    }
    let mut drive = 0u8;
    let mut valid = true;
    if i + 1 < s.len() && s[i + 1] == b':' && s[i].is_ascii_alphabetic() {
        drive = s[i].to_ascii_uppercase() - b'A' + 1;
        valid = drive == 3;
        i += 2;
    }
    let mut name = [b' '; 11];
    let term = |c: u8| c <= b' ' || b"./\\\"[]:|<>+=;,".contains(&c);
    let mut n = 0;
    while i < s.len() && !term(s[i]) && n < 8 {
        name[n] = if s[i] == b'*' {
            b'?'
        } else {
            s[i].to_ascii_uppercase()
        };
        if s[i] == b'*' {
            name[n..8].fill(b'?');
            n = 8;
        } else {
            n += 1;
        }
        i += 1;
    }
    while i < s.len() && !term(s[i]) {
        i += 1;
    }
    if i < s.len() && s[i] == b'.' {
        i += 1;
        let mut e = 0;
        while i < s.len() && !term(s[i]) && e < 3 {
            if s[i] == b'*' {
                name[8 + e..11].fill(b'?');
                e = 3;
            } else {
                name[8 + e] = s[i].to_ascii_uppercase();
                e += 1;
            }
            i += 1;
        }
        while i < s.len() && !term(s[i]) {
            i += 1;
        }
    }
    (drive, name, valid, i)
}

/// The PSP's CP/M far call target (segment, offset), as MS-DOS 5 writes
/// it: linear 1000C0h, which is 000C0h with A20 off.
pub const CPM_CALL: (u16, u16) = (0xF01D, 0xFEF0);

/// Writes a PSP at `psp` for a block ending at `end` (exclusive).
pub fn build_psp(m: &mut Machine, psp: u16, end: u16, env: u16, init: &PspInit) -> u16 {
    let a = lin(psp, 0);
    for i in 0..0x100 {
        wr8(m, a + i, 0);
    }
    write_bytes(m, psp, 0, &[0xCD, 0x20]);
    wr16(m, a + 2, end);
    // CP/M call: CALL F01D:FEF0, i.e. 0000:00C0 with A20 off (the far
    // jump into DOS's CP/M entry), FFFF:00D0 with it on; the offset word
    // at 06h is the "bytes available in the segment" CP/M programs read.
    wr8(m, a + 5, 0x9A);
    wr16(m, a + 6, CPM_CALL.1);
    wr16(m, a + 8, CPM_CALL.0);
    for (i, (seg, off)) in init.vectors.iter().enumerate() {
        wr16(m, a + 0x0A + 4 * i as u32, *off);
        wr16(m, a + 0x0C + 4 * i as u32, *seg);
    }
    wr16(m, a + 0x16, init.parent);
    write_bytes(m, psp, 0x18, &init.jft);
    wr16(m, a + 0x2C, env);
    wr16(m, a + 0x32, 20);
    wr16(m, a + 0x34, 0x18);
    wr16(m, a + 0x36, psp);
    wr16(m, a + 0x38, 0xFFFF);
    wr16(m, a + 0x3A, 0xFFFF);
    write_bytes(m, psp, 0x40, &[5, 0]);
    write_bytes(m, psp, 0x50, &[0xCD, 0x21, 0xCB]);
    // FCBs from the first two arguments.
    let tail = &init.tail[..init.tail.len().min(126)];
    let (d1, n1, v1, used) = parse_fcb_name(tail);
    let (d2, n2, v2, _) = parse_fcb_name(&tail[used.min(tail.len())..]);
    wr8(m, a + 0x5C, d1);
    write_bytes(m, psp, 0x5D, &n1);
    wr8(m, a + 0x6C, d2);
    write_bytes(m, psp, 0x6D, &n2);
    wr8(m, a + 0x80, tail.len() as u8);
    write_bytes(m, psp, 0x81, tail);
    wr8(m, a + 0x81 + tail.len() as u32, 0x0D);
    let al = if v1 { 0 } else { 0xFF };
    let ah = if v2 { 0 } else { 0xFF };
    (ah as u16) << 8 | al as u16
}

/// The bytes of an environment block: the strings (each NUL-terminated,
/// without the closing empty string), the closing NUL, a word 1 and the
/// program's full path.
pub fn env_block(strings: &[u8], program: &str) -> Vec<u8> {
    let mut v = strings.to_vec();
    v.push(0);
    v.extend([1, 0]);
    v.extend(program.bytes());
    v.push(0);
    v
}

/// Reads the strings of the environment block at `seg` (up to, not
/// including, the closing empty string).
pub fn env_strings(m: &mut Machine, seg: u16) -> Vec<u8> {
    let mut v = Vec::new();
    let a = lin(seg, 0);
    for i in 0..0x8000u32 {
        let b = m.peek8(a + i);
        if b == 0 && (v.is_empty() || v.last() == Some(&0)) {
            break;
        }
        v.push(b);
    }
    v
}

/// Copies the load image into memory at `seg` and applies relocations
/// with `reloc` added. As DOS reads the file, a load image the header
/// states longer than the file gets what the file has (the rest of the
/// memory is left as it was).
fn place_image(
    m: &mut Machine,
    file: &[u8],
    start: usize,
    len: usize,
    seg: u16,
    reloc: u16,
    relocs: &[(u16, u16)],
) {
    let base = lin(seg, 0);
    let end = start.saturating_add(len).min(file.len());
    if let Some(bytes) = file.get(start..end) {
        for (i, &b) in bytes.iter().enumerate() {
            m.poke8(base + i as u32, b);
        }
    }
    for &(s, o) in relocs {
        let at = base + s as u32 * 16 + o as u32;
        let v = rd16(m, at);
        wr16(m, at, v.wrapping_add(reloc));
    }
}

/// Loads `file` as a new process: allocates its environment (from
/// `env_strings` plus the program path; at least `env_min` paragraphs)
/// and its memory block, builds the PSP and places the image. The blocks
/// are owned by the new PSP.
#[allow(clippy::too_many_arguments)]
pub fn load_program(
    m: &mut Machine,
    arena: &Arena,
    file: &[u8],
    env_src: &[u8],
    program: &str,
    init: &PspInit,
    strategy: Strategy,
    env_min: u16,
) -> Result<Loaded, LoadError> {
    let exe = Executable::parse(file)?;
    let env = env_block(env_src, program);
    let env_paras = ((env.len() as u32).div_ceil(16) as u16).max(env_min);
    let env_seg = arena
        .alloc(m, env_paras, mcb::OWNER_DOS, strategy)
        .map_err(|(e, largest)| match e {
            mcb::ERR_ARENA => LoadError::Arena,
            _ => LoadError::TooLarge {
                need: env_paras as u32,
                avail: largest as u32,
            },
        })?;
    write_bytes(m, env_seg, 0, &env);
    match place(m, arena, file, &exe, env_seg, init, strategy, program) {
        Ok(l) => {
            // The environment belongs to the new process.
            wr16(m, lin(env_seg - 1, 1), l.psp);
            Ok(l)
        }
        Err(e) => {
            let _ = arena.free(m, env_seg);
            Err(e)
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn place(
    m: &mut Machine,
    arena: &Arena,
    file: &[u8],
    exe: &Executable,
    env_seg: u16,
    init: &PspInit,
    strategy: Strategy,
    program: &str,
) -> Result<Loaded, LoadError> {
    let largest = arena.largest_free(m).map_err(|_| LoadError::Arena)? as u32;
    let image = exe.image_paras();
    let (need, want, high) = match exe {
        Executable::Com { .. } => (image.max(0x10), 0xFFFF, false),
        Executable::Exe { header: h, .. } => {
            let need = image + 0x10 + h.min_alloc as u32;
            let high = h.min_alloc == 0 && h.max_alloc == 0;
            let want = if high {
                0xFFFF
            } else {
                image + 0x10 + h.max_alloc as u32
            };
            (need, want.max(need), high)
        }
    };
    if need > 0xFFFF || need > largest {
        return Err(LoadError::TooLarge {
            need,
            avail: largest,
        });
    }
    let size = want.min(largest).min(0xFFFF) as u16;
    // The block's owner is its own PSP: allocate, then set it.
    let psp = arena
        .alloc(m, size, mcb::OWNER_DOS, strategy)
        .map_err(|_| LoadError::Arena)?;
    wr16(m, lin(psp - 1, 1), psp);
    let end = psp.wrapping_add(size);
    let ax = build_psp(m, psp, end, env_seg, init);
    let base = program.rsplit(['\\', '/', ':']).next().unwrap_or("");
    let base = base.split('.').next().unwrap_or("");
    crate::mcb::set_name(m, psp, base.as_bytes());
    let l = match exe {
        Executable::Com { len } => {
            place_image(m, file, 0, *len, psp + 0x10, 0, &[]);
            // SP at the top of the segment (or of a smaller block).
            let top = (size as u32 * 16).min(0x10000) - 2;
            wr16(m, lin(psp, top as u16), 0);
            Loaded {
                psp,
                env: env_seg,
                cs: psp,
                ip: 0x100,
                ss: psp,
                sp: top as u16,
                ax,
            }
        }
        Executable::Exe {
            header: h,
            image_start,
            image_len,
            relocs,
        } => {
            let load = if high {
                (end as u32 - image) as u16
            } else {
                psp + 0x10
            };
            place_image(m, file, *image_start, *image_len, load, load, relocs);
            let mut l = Loaded {
                psp,
                env: env_seg,
                cs: h.cs.wrapping_add(load),
                ip: h.ip,
                ss: h.ss.wrapping_add(load),
                sp: h.sp,
                ax,
            };
            // MS-DOS 5 unpacks an EXEPACK program loaded in the first
            // 64 KiB itself: its stub's segment arithmetic fails there.
            if load < 0x1000 {
                let placed = crate::mem::read_bytes_linear(m, lin(load, 0), *image_len);
                if let Some(u) = crate::exepack::unpack(&placed, h.cs, h.ip) {
                    let fits = lin(load, 0) as usize + u.image.len() <= lin(end, 0) as usize;
                    if fits {
                        unpacked_into(m, &u, load, &mut l);
                    }
                }
            }
            l
        }
    };
    Ok(l)
}

/// Places an unpacked EXEPACK image at `load` and points the entry at its
/// real start.
fn unpacked_into(m: &mut Machine, u: &crate::exepack::Unpacked, load: u16, l: &mut Loaded) {
    let base = lin(load, 0);
    for (i, &b) in u.image.iter().enumerate() {
        m.poke8(base + i as u32, b);
    }
    for &r in &u.relocs {
        let v = rd16(m, base + r);
        wr16(m, base + r, v.wrapping_add(load));
    }
    l.cs = u.cs.wrapping_add(load);
    l.ip = u.ip;
    l.ss = u.ss.wrapping_add(load);
    l.sp = u.sp;
}

/// INT 21h 4B03h: loads an overlay at `seg` with relocation factor
/// `reloc`; no PSP and no allocation.
pub fn load_overlay(m: &mut Machine, file: &[u8], seg: u16, reloc: u16) -> Result<(), LoadError> {
    match Executable::parse(file)? {
        Executable::Com { len } => place_image(m, file, 0, len, seg, 0, &[]),
        Executable::Exe {
            image_start,
            image_len,
            relocs,
            ..
        } => place_image(m, file, image_start, image_len, seg, reloc, &relocs),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fcb_names() {
        let (d, n, v, used) = parse_fcb_name(b" -t VMLINUZ");
        assert_eq!((d, v), (0, true));
        assert_eq!(&n, b"-T         ");
        let (d, n, v, _) = parse_fcb_name(&b" -t VMLINUZ"[used..]);
        assert_eq!((d, v), (0, true));
        assert_eq!(&n, b"VMLINUZ    ");
        let (d, n, v, _) = parse_fcb_name(b"a:*.t?t");
        assert_eq!((d, v), (1, false));
        assert_eq!(&n, b"????????T?T");
        // One leading separator is skipped with bit 0, none without.
        let (_, n, _, _) = parse_fcb_name(b" , x.y");
        assert_eq!(&n, b"X       Y  ");
        let (_, n, _, used) = parse_fcb_name_with(b" , x.y", false);
        assert_eq!((&n, used), (b"           ", 1));
    }
}
