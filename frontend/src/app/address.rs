//! Addresses on the command line: `SEG:OFF`, where SEG is hexadecimal or
//! names a segment of the loaded program, and linear addresses.

use models::Segments;

use super::error::Error;
use super::program::Layout;

/// Parses `SEG:OFF`, where SEG is hexadecimal or one of `cs` (the entry
/// CS), `ss`/`ds` (the entry SS), `load` (the segment the program's own
/// offsets count from: PSP+10h for an .EXE, the PSP for a .COM, so that a
/// .COM's entry is `load:0100`), `psp` (the program's PSP) or `code` (the
/// code segment a profile found: `found`).
pub fn parse(s: &str, layout: &Layout, found: Option<&Segments>) -> Result<(u16, u16), Error> {
    let bad = || {
        Error::Input(format!(
            "'{s}' is not an address (SEG:OFF with SEG hex, cs, ss, load, psp or code)"
        ))
    };
    let (seg, off) = s.split_once(':').ok_or_else(bad)?;
    let seg = match seg.to_ascii_lowercase().as_str() {
        "cs" => layout.entry_cs,
        "ss" | "ds" => layout.entry_ss,
        "load" => layout.origin_seg,
        "psp" => layout.psp,
        "code" => found
            .map(|f| f.code)
            .ok_or_else(|| Error::Input(format!("'{s}': no profile gave a code segment")))?,
        h => u16::from_str_radix(h.trim_end_matches('h'), 16).map_err(|_| bad())?,
    };
    let off = u16::from_str_radix(off.trim_end_matches('h'), 16).map_err(|_| bad())?;
    Ok((seg, off))
}

/// A linear address: `SEG:OFF` as [`parse`] reads it, or hexadecimal.
pub fn linear(s: &str, layout: &Layout, found: Option<&Segments>) -> Result<u32, Error> {
    if s.contains(':') {
        let (seg, off) = parse(s, layout, found)?;
        Ok(((seg as u32) << 4) + off as u32)
    } else {
        u32::from_str_radix(s.trim_end_matches('h'), 16)
            .map_err(|_| Error::Input(format!("'{s}' is not an address")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> Layout {
        Layout {
            psp: 0x100,
            load_seg: 0x110,
            origin_seg: 0x110,
            image_paras: 0x20,
            entry_cs: 0x120,
            entry_ss: 0x130,
        }
    }

    #[test]
    fn names_and_numbers() {
        let l = layout();
        assert_eq!(parse("cs:10", &l, None).ok(), Some((0x120, 0x10)));
        assert_eq!(parse("load:0100", &l, None).ok(), Some((0x110, 0x100)));
        assert_eq!(parse("F000h:FFF0", &l, None).ok(), Some((0xF000, 0xFFF0)));
        let found = Segments {
            code: 0x140,
            data: 0x130,
            stack: 0x130,
        };
        assert_eq!(parse("code:2", &l, Some(&found)).ok(), Some((0x140, 2)));
        assert!(parse("code:2", &l, None).is_err());
        assert!(parse("xyz:2", &l, None).is_err());
        assert_eq!(linear("1:1", &l, None).ok(), Some(0x11));
        assert_eq!(linear("B8000", &l, None).ok(), Some(0xB8000));
    }
}
