//! The RIFF structure of a SoundFont 2 file, checked before the
//! synthesizer's reader sees it. That reader allocates each chunk at the
//! size the chunk claims, so a 100-byte file whose `smpl` claims 4 GiB
//! would make it allocate 4 GiB before finding the file too short. Here
//! every size is held to what holds it, the file first, so nothing later
//! is sized by a claim the bytes do not back.
//!
//! SoundFont 2.04 (section 4.1) has the form
//! `RIFF('sfbk' LIST('INFO' ...) LIST('sdta' ...) LIST('pdta' ...))`: the
//! three lists in that order, each made of sub-chunks; every chunk is an
//! 8-byte header (four-character id, little-endian 32-bit size) and its
//! data. The specification keeps every chunk's size even (its strings are
//! padded to even lengths), so no RIFF pad byte ever falls between chunks;
//! an odd size is refused, which keeps this walk and the reader's in step.

/// Bytes of a chunk header: the id and the size.
const HEADER: usize = 8;

/// The lists of a SoundFont, in their order (SoundFont 2.04, 4.1).
const LISTS: [&[u8; 4]; 3] = [b"INFO", b"sdta", b"pdta"];

/// What is wrong with a SoundFont's RIFF structure.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum RiffError {
    /// The file does not start as a SoundFont.
    #[error("not a SoundFont (no RIFF form 'sfbk' at its start)")]
    NotSoundFont,
    /// The RIFF chunk is longer than the file.
    #[error("its RIFF chunk claims {claims} bytes, more than the file's {has}")]
    RiffTooLong {
        /// The size claimed.
        claims: usize,
        /// The bytes after the RIFF header.
        has: usize,
    },
    /// A chunk header does not fit in what holds it.
    #[error("a chunk header at byte {at} is cut off by the end of {within}")]
    CutOff {
        /// Where it starts.
        at: usize,
        /// What holds it.
        within: String,
    },
    /// A chunk of odd size.
    #[error("chunk '{id}' at byte {at} has an odd size ({size})")]
    OddSize {
        /// Its id.
        id: String,
        /// Where it starts.
        at: usize,
        /// Its size.
        size: usize,
    },
    /// A chunk longer than what holds it.
    #[error(
        "chunk '{id}' at byte {at} claims {size} bytes, more than the {left} left in {within}"
    )]
    TooLong {
        /// Its id.
        id: String,
        /// Where it starts.
        at: usize,
        /// The size claimed.
        size: usize,
        /// The bytes left.
        left: usize,
        /// What holds it.
        within: String,
    },
    /// One of the three lists is missing or out of order.
    #[error("no 'LIST' of type '{kind}' at byte {at}")]
    NoList {
        /// The list's type.
        kind: String,
        /// Where it was expected.
        at: usize,
    },
    /// Bytes after the last list inside the RIFF chunk.
    #[error("{0} bytes after the 'pdta' list, inside its RIFF chunk")]
    Trailing(usize),
}

/// Checks the RIFF structure of `bytes` (a whole file): `RIFF` of form
/// `sfbk` no longer than the file, holding the three lists of a SoundFont
/// in order and nothing else, every chunk's size even and within its
/// list. The error says what is wrong and where.
pub fn check(bytes: &[u8]) -> Result<(), RiffError> {
    if bytes.len() < 12 || &bytes[0..4] != b"RIFF" || &bytes[8..12] != b"sfbk" {
        return Err(RiffError::NotSoundFont);
    }
    let riff = size_at(bytes, 4);
    let end = HEADER
        .checked_add(riff)
        .filter(|&e| e <= bytes.len())
        .ok_or(RiffError::RiffTooLong {
            claims: riff,
            has: bytes.len() - HEADER,
        })?;
    let mut at = 12;
    for list in LISTS {
        at = check_list(bytes, at, end, list)?;
    }
    if at != end {
        return Err(RiffError::Trailing(end - at));
    }
    Ok(())
}

/// The little-endian 32-bit size at `at` (the caller checked 4 bytes).
fn size_at(bytes: &[u8], at: usize) -> usize {
    let b = [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]];
    u32::from_le_bytes(b) as usize
}

/// The chunk id at `at` as text for a message.
fn id_at(bytes: &[u8], at: usize) -> String {
    String::from_utf8_lossy(&bytes[at..at + 4])
        .escape_debug()
        .to_string()
}

/// Checks the chunk header at `at`, which must end by `end`: its id and
/// the end of its data (within `end`, the size even).
fn chunk(bytes: &[u8], at: usize, end: usize, within: &str) -> Result<usize, RiffError> {
    if end - at < HEADER {
        return Err(RiffError::CutOff {
            at,
            within: within.into(),
        });
    }
    let size = size_at(bytes, at + 4);
    let id = id_at(bytes, at);
    if !size.is_multiple_of(2) {
        return Err(RiffError::OddSize { id, at, size });
    }
    let left = end - at - HEADER;
    if size > left {
        return Err(RiffError::TooLong {
            id,
            at,
            size,
            left,
            within: within.into(),
        });
    }
    Ok(at + HEADER + size)
}

/// Checks the `LIST` chunk of type `kind` at `at` (ending by `end`) and
/// its sub-chunks; where the next chunk starts.
fn check_list(bytes: &[u8], at: usize, end: usize, kind: &[u8; 4]) -> Result<usize, RiffError> {
    let name = String::from_utf8_lossy(kind).to_string();
    let missing = || RiffError::NoList {
        kind: name.clone(),
        at,
    };
    if at >= end {
        return Err(missing());
    }
    let list_end = chunk(bytes, at, end, "the file's RIFF chunk")?;
    if list_end - at < HEADER + 4
        || &bytes[at..at + 4] != b"LIST"
        || &bytes[at + 8..at + 12] != kind
    {
        return Err(missing());
    }
    let within = format!("the '{name}' list");
    let mut p = at + HEADER + 4;
    while p < list_end {
        p = chunk(bytes, p, list_end, &within)?;
    }
    Ok(list_end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chunk: id, size, data.
    fn ck(id: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut v = id.to_vec();
        v.extend_from_slice(&(data.len() as u32).to_le_bytes());
        v.extend_from_slice(data);
        v
    }

    fn list(kind: &[u8; 4], chunks: &[Vec<u8>]) -> Vec<u8> {
        let mut data = kind.to_vec();
        for c in chunks {
            data.extend_from_slice(c);
        }
        ck(b"LIST", &data)
    }

    fn font(smpl: Vec<u8>) -> Vec<u8> {
        let mut body = b"sfbk".to_vec();
        body.extend(list(b"INFO", &[ck(b"ifil", &[2, 0, 1, 0])]));
        body.extend(list(b"sdta", &[smpl]));
        body.extend(list(b"pdta", &[ck(b"phdr", &[0; 38])]));
        ck(b"RIFF", &body)
    }

    #[test]
    fn a_well_formed_structure_passes() {
        assert_eq!(check(&font(ck(b"smpl", &[0; 8]))), Ok(()));
    }

    #[test]
    fn a_size_beyond_the_file_is_refused() {
        let mut f = font(ck(b"smpl", &[0; 8]));
        let at = f.windows(4).position(|w| w == b"smpl").expect("smpl");
        f[at + 4..at + 8].copy_from_slice(&0xffff_fffeu32.to_le_bytes());
        let e = check(&f).expect_err("refused").to_string();
        assert!(e.contains("'smpl'") && e.contains("4294967294"), "{e}");
        // The RIFF's own size too.
        let mut g = font(ck(b"smpl", &[0; 8]));
        g[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(check(&g).expect_err("refused").to_string().contains("RIFF"));
    }

    #[test]
    fn odd_sizes_missing_lists_and_junk_are_refused() {
        assert!(check(&font(ck(b"smpl", &[0; 7]))).is_err());
        let mut f = font(ck(b"smpl", &[0; 8]));
        f.truncate(f.len() - 46);
        assert!(check(&f).is_err());
        assert!(check(b"RIFF\x04\0\0\0sfbk").is_err());
        assert!(check(b"").is_err());
    }

    #[test]
    fn an_installed_soundfont_passes() {
        // Debian's, when installed (the MPU-401 tests require one).
        for p in super::super::midi::DEBIAN_SOUNDFONTS {
            if let Ok(b) = std::fs::read(p) {
                assert_eq!(check(&b), Ok(()), "{p}");
            }
        }
    }
}
