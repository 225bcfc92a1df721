//! INT 21h 60h, TRUENAME: the canonical form of a path, computed from the
//! name alone as DOS does (the file need not exist): drive and root added,
//! `.` and `..` applied, the current directory of drive C: put in front of
//! a relative path, names upper-cased and cut to 8.3, `*` expanded to `?`.
//! A device name becomes `C:/NAME`, MS-DOS's form.

use hw::Machine;

use crate::dosdata::{upper_437, TERMINATORS};
use crate::drive::{Device, ERR_DRIVE, ERR_PATH};
use crate::kernel::Kernel;
use crate::mem::{self, lin, wr8, write_bytes, Regs};
use crate::rom::Flow;

/// One component in 8.3 form with wildcards expanded, or None if it has a
/// character DOS does not allow in a name.
fn component(c: &[u8]) -> Option<String> {
    let (base, ext) = match c.iter().position(|&b| b == b'.') {
        Some(i) => (&c[..i], &c[i + 1..]),
        None => (c, &[][..]),
    };
    let part = |s: &[u8], max: usize| -> Option<String> {
        let mut out = String::new();
        for &b in s {
            if b < 0x20 || TERMINATORS.contains(&b) {
                return None;
            }
            // One char per guest byte: count chars, not UTF-8 bytes.
            let len = out.chars().count();
            if len >= max {
                break;
            }
            if b == b'*' {
                out.extend(std::iter::repeat_n('?', max - len));
                break;
            }
            out.push(b as char);
        }
        Some(out)
    };
    let b = part(base, 8)?;
    let e = part(ext, 3)?;
    if b.is_empty() {
        return None;
    }
    Some(if e.is_empty() { b } else { format!("{b}.{e}") })
}

/// The canonical name of `path` with `cwd` the current directory of C:
/// (components without the drive); a DOS error code otherwise.
pub fn truename(path: &[u8], cwd: &str, ems: bool) -> Result<String, u16> {
    let up: Vec<u8> = path.iter().map(|&c| upper_437(c)).collect();
    let mut rest = &up[..];
    if rest.len() >= 2 && rest[1] == b':' {
        if rest[0] != b'C' {
            return Err(ERR_DRIVE);
        }
        rest = &rest[2..];
    }
    if rest.is_empty() {
        return Err(ERR_PATH);
    }
    let absolute = matches!(rest.first(), Some(b'\\' | b'/'));
    let mut comps: Vec<String> = if absolute || cwd.is_empty() {
        Vec::new()
    } else {
        cwd.split('\\').map(String::from).collect()
    };
    let parts: Vec<&[u8]> = rest.split(|&c| c == b'\\' || c == b'/').collect();
    let last = parts.len() - 1;
    for (i, p) in parts.iter().enumerate() {
        match *p {
            b"" | b"." => {}
            b".." => {
                if comps.pop().is_none() {
                    return Err(ERR_PATH);
                }
            }
            p => {
                let c = component(p).ok_or(ERR_PATH)?;
                if i == last {
                    let base = c.split('.').next().unwrap_or("");
                    if let Some(d) = Device::from_name(base, ems) {
                        return Ok(format!("C:/{}", d.name()));
                    }
                }
                comps.push(c);
            }
        }
    }
    Ok(format!("C:\\{}", comps.join("\\")))
}

impl Kernel {
    /// INT 21h 60h: DS:SI the path, ES:DI a 128-byte buffer.
    pub(crate) fn int21_truename(&mut self, m: &mut Machine) -> Flow {
        let path = mem::read_asciiz(m, m.ds(), m.si(), 128);
        match truename(&path, &self.drive.cwd_string(), self.drive.has_ems()) {
            Ok(t) if t.chars().count() < 128 => {
                let t = crate::drive::dos_bytes(&t);
                let (es, di) = (m.es(), m.di());
                write_bytes(m, es, di, &t);
                wr8(m, lin(es, di.wrapping_add(t.len() as u16)), 0);
                mem::set_cf(m, false);
            }
            Ok(_) => self.fail(m, ERR_PATH),
            Err(e) => self.fail(m, e),
        }
        Flow::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_names() {
        let t = |p: &str, cwd: &str| truename(p.as_bytes(), cwd, false);
        assert_eq!(t("file.txt", "").as_deref(), Ok("C:\\FILE.TXT"));
        assert_eq!(t("file.txt", "SUB").as_deref(), Ok("C:\\SUB\\FILE.TXT"));
        assert_eq!(t("..\\x", "A\\B").as_deref(), Ok("C:\\A\\X"));
        assert_eq!(t("c:/a/./b/../*.c", "").as_deref(), Ok("C:\\A\\????????.C"));
        assert_eq!(
            t("longfilename.text", "").as_deref(),
            Ok("C:\\LONGFILE.TEX")
        );
        assert_eq!(t("con", "SUB").as_deref(), Ok("C:/CON"));
        assert_eq!(t("sub\\nul.txt", "").as_deref(), Ok("C:/NUL"));
        assert_eq!(t("..", ""), Err(ERR_PATH));
        assert_eq!(t("d:\\x", ""), Err(ERR_DRIVE));
        assert_eq!(t("a|b", ""), Err(ERR_PATH));
        assert_eq!(t("\\", "SUB").as_deref(), Ok("C:\\"));
    }
}
