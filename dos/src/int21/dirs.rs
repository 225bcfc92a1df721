//! Directories and searches: INT 21h 0Eh, 19h, 1Ah, 2Fh, 36h, 39h-3Bh,
//! 47h, 4Eh, 4Fh.

use crate::journal::note;
use std::path::PathBuf;

use crate::drive::{split_83, Drive, ERR_ACCESS, ERR_PATH};
use crate::int21::files::{attributes, dos_time, mtime};
use crate::kernel::Kernel;
use crate::mem::{self, lin, rd16, rd8, wr16, wr8, write_bytes, Regs};
use crate::rom::Flow;
use hw::Machine;

/// DOS error: no more files.
pub const ERR_NO_MORE: u16 = 18;

/// Whether an 11-byte FCB-form name matches an 11-byte pattern.
pub fn fcb_match(pattern: &[u8; 11], name: &[u8; 11]) -> bool {
    pattern.iter().zip(name).all(|(&p, &n)| p == b'?' || p == n)
}

/// "NAME.EXT" as an 11-byte FCB-form name.
pub fn fcb_form(name: &str) -> [u8; 11] {
    let mut out = [b' '; 11];
    if name == "." || name == ".." {
        out[..name.len()].copy_from_slice(name.as_bytes());
        return out;
    }
    let (b, e) = match name.split_once('.') {
        Some((b, e)) => (b, e),
        None => (name, ""),
    };
    // One char per guest byte (see `drive::dos_upper`).
    for (i, c) in b.chars().take(8).enumerate() {
        out[i] = c as u32 as u8;
    }
    for (i, c) in e.chars().take(3).enumerate() {
        out[8 + i] = c as u32 as u8;
    }
    out
}

/// A wildcard pattern ("*.EXE", "A?C") in FCB form.
pub fn pattern_form(p: &str) -> Option<[u8; 11]> {
    let (b, e) = match p.split_once('.') {
        Some((b, e)) => (b, e),
        None => (p, ""),
    };
    let mut out = [b' '; 11];
    let fill = |src: &str, dst: &mut [u8]| -> Option<()> {
        for (i, c) in crate::drive::dos_bytes(src).into_iter().enumerate() {
            if c == b'*' {
                dst[i..].fill(b'?');
                return Some(());
            }
            *dst.get_mut(i)? = c;
        }
        Some(())
    };
    fill(b, &mut out[..8])?;
    fill(e, &mut out[8..])?;
    Some(out)
}

impl Kernel {
    /// Directory and search functions.
    pub(crate) fn int21_dirs(&mut self, m: &mut Machine, ah: u8) -> Flow {
        let r: Result<Option<u16>, u16> = match ah {
            0x0E => {
                // Select drive (C: or a CD-ROM); AL = LASTDRIVE.
                self.drive.select(m.dl());
                m.set_al(crate::geometry::LASTDRIVE);
                return Flow::Continue;
            }
            0x19 => {
                m.set_al(self.drive.current());
                return Flow::Continue;
            }
            0x1A => {
                self.dta = (m.ds(), m.dx());
                return Flow::Continue;
            }
            0x2F => {
                m.set_es(self.dta.0);
                m.set_bx(self.dta.1);
                return Flow::Continue;
            }
            0x36 => {
                // Disk free space: 32 KiB clusters, a plausible 2 GiB disk
                // with 1 GiB free.
                if matches!(m.dl(), 0 | 3) {
                    m.set_ax(64);
                    m.set_bx(32768);
                    m.set_cx(512);
                    m.set_dx(65535);
                } else {
                    m.set_ax(0xFFFF);
                }
                return Flow::Continue;
            }
            0x39 => {
                let p = self.path_dsdx(m);
                match self.drive.resolve(&p) {
                    Ok(crate::drive::Resolved::Path {
                        host,
                        exists: false,
                        ..
                    }) => std::fs::create_dir(&host)
                        .map(|_| {
                            note(&self.journal, |j| j.made_dir(m.cycles(), &host));
                            None
                        })
                        .map_err(|_| ERR_ACCESS),
                    Ok(_) => Err(ERR_ACCESS),
                    Err(e) => Err(e),
                }
            }
            0x3A => {
                let p = self.path_dsdx(m);
                match self.drive.resolve_dir(&p) {
                    Ok((host, dos)) => {
                        if dos.is_empty() || host == self.drive.root() {
                            Err(ERR_ACCESS)
                        } else {
                            std::fs::remove_dir(&host)
                                .map(|_| {
                                    note(&self.journal, |j| j.removed_dir(m.cycles(), &host));
                                    None
                                })
                                .map_err(|_| ERR_ACCESS)
                        }
                    }
                    Err(e) => Err(e),
                }
            }
            0x3B => {
                let p = self.path_dsdx(m);
                let r = self.drive.chdir(&p).map(|_| None);
                crate::dosdata::set_current_dir(m, &self.drive.cwd_string());
                r
            }
            0x47 => self.getcwd(m),
            0x4E => self.find_first(m).map(|_| Some(0)),
            0x4F => self.find_next(m).map(|_| Some(0)),
            _ => unreachable!("dispatched by int21"),
        };
        match r {
            Ok(ax) => {
                if let Some(ax) = ax {
                    m.set_ax(ax);
                }
                mem::set_cf(m, false);
            }
            Err(e) => self.fail(m, e),
        }
        Flow::Continue
    }

    /// 47h: the current directory of drive DL (0 the current one) at
    /// DS:SI.
    fn getcwd(&mut self, m: &mut Machine) -> Result<Option<u16>, u16> {
        let d = match m.dl() {
            0 => Some(self.drive.current()),
            n => n.checked_sub(1),
        };
        if let Some(cwd) = d.and_then(|d| self.drive.cwd_of(d)) {
            let s = crate::drive::dos_bytes(&cwd);
            let (ds, si) = (m.ds(), m.si());
            write_bytes(m, ds, si, &s);
            wr8(m, lin(ds, si.wrapping_add(s.len() as u16)), 0);
            Ok(Some(0x0100))
        } else {
            Err(0x0F)
        }
    }

    fn find_first(&mut self, m: &mut Machine) -> Result<(), u16> {
        let p = self.path_dsdx(m);
        let attr = m.cl();
        let s = crate::drive::dos_upper(&p);
        let cut = s.rfind(['\\', '/', ':']).map(|i| i + 1).unwrap_or(0);
        let (dir, name) = s.split_at(cut);
        let name = if name.is_empty() { "*.*" } else { name };
        let pat = pattern_form(name).ok_or(ERR_PATH)?;
        let (_, dos) = self.drive.resolve_dir(&crate::drive::dos_bytes(dir))?;
        let (dseg, doff) = self.dta;
        let id = match self.searches.dirs.iter().position(|d| *d == dos) {
            Some(i) => i,
            None => {
                self.searches.dirs.push(dos);
                self.searches.dirs.len() - 1
            }
        };
        wr8(m, lin(dseg, doff), 3);
        write_bytes(m, dseg, doff.wrapping_add(1), &pat);
        wr8(m, lin(dseg, doff.wrapping_add(12)), attr);
        wr16(m, lin(dseg, doff.wrapping_add(13)), id as u16);
        wr16(m, lin(dseg, doff.wrapping_add(15)), 0);
        self.find_next(m)
            .map_err(|e| if e == ERR_NO_MORE { ERR_NO_MORE } else { e })
    }

    fn find_next(&mut self, m: &mut Machine) -> Result<(), u16> {
        let (dseg, doff) = self.dta;
        let d = |k: u16| lin(dseg, doff.wrapping_add(k));
        let mut pat = [0u8; 11];
        for (i, b) in pat.iter_mut().enumerate() {
            *b = rd8(m, d(1 + i as u16));
        }
        let attr = rd8(m, d(12));
        let id = rd16(m, d(13)) as usize;
        let mut pos = rd16(m, d(15)) as usize;
        let dos = self.searches.dirs.get(id).ok_or(ERR_NO_MORE)?;
        let root = dos.is_empty();
        let (host, _) = self
            .drive
            .resolve_dir(&Drive::dos_path(dos))
            .map_err(|_| ERR_NO_MORE)?;
        if attr == 0x08 {
            // Volume label only.
            if pos == 0 {
                wr16(m, d(15), 1);
                self.fill_dta(m, 0x08, 0, 0, "TANDEM");
                return Ok(());
            }
            return Err(ERR_NO_MORE);
        }
        let mut entries: Vec<(String, Option<PathBuf>)> = Vec::new();
        if !root {
            entries.push((".".into(), Some(host.clone())));
            entries.push(("..".into(), None));
        }
        entries.extend(
            self.drive
                .list(&host)
                .into_iter()
                .map(|(n, p)| (n, Some(p))),
        );
        while pos < entries.len() {
            let (name, path) = &entries[pos];
            pos += 1;
            let meta = path.as_ref().and_then(|p| std::fs::metadata(p).ok());
            let a = meta.as_ref().map(attributes).unwrap_or(0x10);
            if a & 0x10 != 0 && attr & 0x10 == 0 {
                continue;
            }
            if name != "." && name != ".." && split_83(name).is_none() {
                continue;
            }
            if !crate::int21::dirs::fcb_match(&pat, &fcb_form(name)) {
                continue;
            }
            let t = meta.as_ref().map(mtime).unwrap_or(0);
            let size = meta
                .as_ref()
                .filter(|md| md.is_file())
                .map(|md| md.len().min(u32::MAX as u64) as u32)
                .unwrap_or(0);
            wr16(m, d(15), pos as u16);
            self.fill_dta(m, a, t, size, name);
            return Ok(());
        }
        wr16(m, d(15), pos as u16);
        Err(ERR_NO_MORE)
    }

    fn fill_dta(&mut self, m: &mut Machine, attr: u8, t: i64, size: u32, name: &str) {
        let (dseg, doff) = self.dta;
        let d = |k: u16| lin(dseg, doff.wrapping_add(k));
        let (time, date) = if t == 0 { (0, 0x21) } else { dos_time(t) };
        wr8(m, d(0x15), attr);
        wr16(m, d(0x16), time);
        wr16(m, d(0x18), date);
        mem::wr32(m, d(0x1A), size);
        let name = crate::drive::dos_bytes(name);
        for i in 0..13u16 {
            let c = name.get(i as usize).copied().unwrap_or(0);
            wr8(m, d(0x1E + i), c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        let p = pattern_form("*.EXE").unwrap();
        assert!(fcb_match(&p, &fcb_form("LOADLIN.EXE")));
        assert!(!fcb_match(&p, &fcb_form("VMLINUZ")));
        let p = pattern_form("*.*").unwrap();
        assert!(fcb_match(&p, &fcb_form("VMLINUZ")));
        let p = pattern_form("VM?INUZ").unwrap();
        assert!(fcb_match(&p, &fcb_form("VMLINUZ")));
        assert!(pattern_form("TOOLONGNAME").is_none());
    }
}
