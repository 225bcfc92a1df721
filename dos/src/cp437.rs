//! Code page 437, the character set of DOS names: guest bytes 80h-FFh
//! map to Unicode for host file names (a UTF-8 host shows `SPIEL` + 8Eh
//! as `SPIELÄ`) and back, so a name made by the guest is found again by
//! its bytes. Bytes below 80h are ASCII. (IBM code page 437, as printed in
//! the MS-DOS 5 User's Guide and Reference, appendix "Code pages".)

/// Unicode of bytes 80h-FFh.
const HIGH: [char; 128] = [
    'Ç', 'ü', 'é', 'â', 'ä', 'à', 'å', 'ç', 'ê', 'ë', 'è', 'ï', 'î', 'ì', 'Ä', 'Å', //
    'É', 'æ', 'Æ', 'ô', 'ö', 'ò', 'û', 'ù', 'ÿ', 'Ö', 'Ü', '¢', '£', '¥', '₧', 'ƒ', //
    'á', 'í', 'ó', 'ú', 'ñ', 'Ñ', 'ª', 'º', '¿', '⌐', '¬', '½', '¼', '¡', '«', '»', //
    '░', '▒', '▓', '│', '┤', '╡', '╢', '╖', '╕', '╣', '║', '╗', '╝', '╜', '╛', '┐', //
    '└', '┴', '┬', '├', '─', '┼', '╞', '╟', '╚', '╔', '╩', '╦', '╠', '═', '╬', '╧', //
    '╨', '╤', '╥', '╙', '╘', '╒', '╓', '╫', '╪', '┘', '┌', '█', '▄', '▌', '▐', '▀', //
    'α', 'ß', 'Γ', 'π', 'Σ', 'σ', 'µ', 'τ', 'Φ', 'Θ', 'Ω', 'δ', '∞', 'φ', 'ε', '∩', //
    '≡', '±', '≥', '≤', '⌠', '⌡', '÷', '≈', '°', '∙', '·', '√', 'ⁿ', '²', '■', '\u{A0}',
];

/// The Unicode character of a CP437 byte (ASCII below 80h).
pub fn to_unicode(b: u8) -> char {
    if b < 0x80 {
        b as char
    } else {
        HIGH[(b - 0x80) as usize]
    }
}

/// The CP437 byte of a Unicode character, if the code page has it.
pub fn from_unicode(c: char) -> Option<u8> {
    if c.is_ascii() {
        return Some(c as u8);
    }
    HIGH.iter().position(|&h| h == c).map(|i| 0x80 + i as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_byte() {
        for b in 0..=255u8 {
            assert_eq!(from_unicode(to_unicode(b)), Some(b), "{b:02X}h");
        }
        assert_eq!(to_unicode(0x8E), 'Ä');
        assert_eq!(from_unicode('€'), None);
    }
}
