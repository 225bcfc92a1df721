//! The executable formats: MZ (.EXE) headers and flat .COM images, parsed
//! without touching the machine. Every malformed input is an error value.
//!
//! As MS-DOS 5 decides, the signature ("MZ" or "ZM") and not the file name
//! makes an executable an EXE; anything else loads as a COM image.

/// Why a program cannot be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The file has no bytes.
    #[error("zero-length file")]
    Empty,
    /// An MZ signature but fewer than the 28 bytes of the formatted header,
    /// or a header (`e_cparhdr` paragraphs) longer than the file.
    #[error("truncated MZ header: the file has {len} bytes, the header needs {need}")]
    TruncatedHeader {
        /// Bytes in the file.
        len: usize,
        /// Bytes the header needs.
        need: usize,
    },
    /// The header's page count is zero or the header is larger than the
    /// image the page counts describe.
    #[error("bad MZ header: image size {image} bytes with a {header}-byte header")]
    BadImageSize {
        /// Image bytes the header states.
        image: u64,
        /// Header bytes.
        header: u64,
    },
    /// The relocation table runs past the end of the file.
    #[error(
        "MZ relocation table ({count} entries at {offset:#x}) runs past the end of the {len}-byte file"
    )]
    RelocationsPastEnd {
        /// Table offset.
        offset: u16,
        /// Entries.
        count: u16,
        /// File length.
        len: usize,
    },
    /// A relocation patches a word outside the load image.
    #[error("MZ relocation {index} ({seg:04X}:{off:04X}) is outside the load image")]
    RelocationOutside {
        /// Its index in the table.
        index: usize,
        /// Segment:offset in the image.
        seg: u16,
        /// Offset.
        off: u16,
    },
    /// The program needs more conventional memory than is free.
    #[error(
        "program needs {} KiB of memory, {} KiB are free",
        kib_up(.need),
        kib_down(.avail)
    )]
    TooLarge {
        /// Paragraphs needed.
        need: u32,
        /// Paragraphs in the largest free block.
        avail: u32,
    },
    /// A COM image longer than a segment allows.
    #[error("COM image of {0} bytes does not fit in a segment")]
    ComTooLarge(usize),
    /// The memory arena is corrupt.
    #[error("DOS memory arena is corrupt")]
    Arena,
}

impl LoadError {
    /// The DOS error code INT 21h 4Bh returns for it (8: insufficient
    /// memory, 11: invalid format, 7: arena trashed).
    pub fn dos_code(&self) -> u16 {
        match self {
            LoadError::TooLarge { .. } | LoadError::ComTooLarge(_) => 8,
            LoadError::Arena => 7,
            _ => 11,
        }
    }
}

/// Paragraphs as KiB, rounded up (what a program needs).
fn kib_up(paras: &u32) -> u64 {
    (*paras as u64 * 16).div_ceil(1024)
}

/// Paragraphs as KiB, rounded down (what is free).
fn kib_down(paras: &u32) -> u64 {
    *paras as u64 * 16 / 1024
}

/// The fields of the MZ header DOS uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MzHeader {
    /// Bytes in the last 512-byte page (0 = the whole page).
    pub last_page: u16,
    /// 512-byte pages in the image, header included.
    pub pages: u16,
    /// Relocation entries.
    pub relocs: u16,
    /// Header size in paragraphs.
    pub header_paras: u16,
    /// Paragraphs needed beyond the load image.
    pub min_alloc: u16,
    /// Paragraphs wanted beyond the load image.
    pub max_alloc: u16,
    /// Initial SS relative to the load segment.
    pub ss: u16,
    /// Initial SP.
    pub sp: u16,
    /// Checksum (not checked, as DOS does not).
    pub checksum: u16,
    /// Initial IP.
    pub ip: u16,
    /// Initial CS relative to the load segment.
    pub cs: u16,
    /// Offset of the relocation table in the file.
    pub reloc_offset: u16,
}

/// A parsed executable: where its load image is in the file and what to
/// patch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Executable {
    /// A flat image loaded at PSP:0100h.
    Com {
        /// The whole file.
        len: usize,
    },
    /// An MZ executable.
    Exe {
        /// The header.
        header: MzHeader,
        /// Start of the load image in the file.
        image_start: usize,
        /// Length of the load image as the header states it (bytes past the
        /// end of a short file load as zeros; trailing data is ignored).
        image_len: usize,
        /// Relocations (segment, offset) relative to the load image.
        relocs: Vec<(u16, u16)>,
    },
}

/// Largest COM image: 64 KiB less the PSP and a stack word.
pub const COM_MAX: usize = 0x10000 - 0x100 - 2;

fn w(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

impl Executable {
    /// Parses a program file.
    pub fn parse(file: &[u8]) -> Result<Executable, LoadError> {
        if file.is_empty() {
            return Err(LoadError::Empty);
        }
        let mz = file.len() >= 2 && (&file[..2] == b"MZ" || &file[..2] == b"ZM");
        if !mz {
            if file.len() > COM_MAX {
                return Err(LoadError::ComTooLarge(file.len()));
            }
            return Ok(Executable::Com { len: file.len() });
        }
        if file.len() < 0x1C {
            return Err(LoadError::TruncatedHeader {
                len: file.len(),
                need: 0x1C,
            });
        }
        let h = MzHeader {
            last_page: w(file, 2),
            pages: w(file, 4),
            relocs: w(file, 6),
            header_paras: w(file, 8),
            min_alloc: w(file, 0x0A),
            max_alloc: w(file, 0x0C),
            ss: w(file, 0x0E),
            sp: w(file, 0x10),
            checksum: w(file, 0x12),
            ip: w(file, 0x14),
            cs: w(file, 0x16),
            reloc_offset: w(file, 0x18),
        };
        let header = h.header_paras as u64 * 16;
        if header as usize > file.len() || header < 0x1C {
            return Err(LoadError::TruncatedHeader {
                len: file.len(),
                need: (header as usize).max(0x1C),
            });
        }
        let image = if h.pages == 0 {
            0
        } else if h.last_page == 0 {
            h.pages as u64 * 512
        } else {
            (h.pages as u64 - 1) * 512 + (h.last_page as u64 & 0x1FF)
        };
        if h.pages == 0 || image < header {
            return Err(LoadError::BadImageSize { image, header });
        }
        let image_len = (image - header) as usize;
        let table = h.reloc_offset as usize;
        let table_end = table + h.relocs as usize * 4;
        if table_end > file.len() {
            return Err(LoadError::RelocationsPastEnd {
                offset: h.reloc_offset,
                count: h.relocs,
                len: file.len(),
            });
        }
        let mut relocs = Vec::with_capacity(h.relocs as usize);
        for i in 0..h.relocs as usize {
            let off = w(file, table + 4 * i);
            let seg = w(file, table + 4 * i + 2);
            let at = seg as usize * 16 + off as usize;
            if at + 2 > image_len {
                return Err(LoadError::RelocationOutside { index: i, seg, off });
            }
            relocs.push((seg, off));
        }
        Ok(Executable::Exe {
            header: h,
            image_start: header as usize,
            image_len,
            relocs,
        })
    }

    /// Paragraphs the load image occupies (for a COM: the whole 64 KiB
    /// segment is wanted, the image plus PSP and a stack word needed).
    pub fn image_paras(&self) -> u32 {
        match self {
            Executable::Com { len } => (*len as u32 + 0x100 + 2).div_ceil(16),
            Executable::Exe { image_len, .. } => (*image_len as u32).div_ceil(16),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(pages: u16, last: u16, hdr: u16) -> Vec<u8> {
        let mut v = vec![0u8; 0x20];
        v[0] = b'M';
        v[1] = b'Z';
        v[2..4].copy_from_slice(&last.to_le_bytes());
        v[4..6].copy_from_slice(&pages.to_le_bytes());
        v[8..10].copy_from_slice(&hdr.to_le_bytes());
        v[0x18] = 0x1C;
        v
    }

    #[test]
    fn image_size_from_pages() {
        let mut f = header(2, 0x10, 2);
        f.resize(2000, 0);
        match Executable::parse(&f).unwrap() {
            Executable::Exe {
                image_start,
                image_len,
                ..
            } => {
                assert_eq!(image_start, 32);
                assert_eq!(image_len, 512 + 0x10 - 32);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn malformed() {
        assert_eq!(Executable::parse(&[]), Err(LoadError::Empty));
        assert!(matches!(
            Executable::parse(b"MZ\x01\x00"),
            Err(LoadError::TruncatedHeader { .. })
        ));
        let mut f = header(1, 0, 2);
        f[6] = 5; // five relocations at 1Ch: past the 32-byte file
        assert!(matches!(
            Executable::parse(&f),
            Err(LoadError::RelocationsPastEnd { .. })
        ));
        let f = header(0, 0, 2);
        assert!(matches!(
            Executable::parse(&f),
            Err(LoadError::BadImageSize { .. })
        ));
        assert_eq!(Executable::parse(b"\xC3"), Ok(Executable::Com { len: 1 }));
    }
}
