//! Files by handle, on the system file table and the job file tables of
//! [`crate::sft`]: INT 21h 3Ch-46h, 56h, 57h, 5Ah, 5Bh, 68h, 6Ah, 6Ch.

use std::io::{Read, Seek, SeekFrom, Write};

use crate::console::Console;
use crate::drive::{Device, Resolved, ERR_ACCESS, ERR_FILE};
use crate::int21::console::{con_out, con_read_raw};
use crate::journal::note;
use crate::kernel::Kernel;
use crate::mem::{self, lin, rd16, Regs};
use crate::rom::Flow;
use crate::sft::{
    emulated_time, jft_free, jft_get, jft_set, Entry, Kind, ERR_HANDLE, ERR_TOO_MANY,
};
use hw::Machine;

/// DOS error: invalid access code.
pub const ERR_ACCESS_CODE: u16 = 12;
/// DOS error: file exists.
pub const ERR_EXISTS: u16 = 80;

/// Packs seconds since 1970 as DOS (time, date).
pub fn dos_time(secs: i64) -> (u16, u16) {
    let d = hw::cmos::DateTime::from_seconds(secs);
    let y = (d.year - 1980).clamp(0, 127) as u16;
    (
        (d.hour as u16) << 11 | (d.minute as u16) << 5 | (d.second as u16 / 2),
        y << 9 | (d.month as u16) << 5 | d.day as u16,
    )
}

/// Unpacks a DOS (time, date) to seconds since 1970.
pub fn from_dos_time(time: u16, date: u16) -> i64 {
    hw::cmos::DateTime {
        year: 1980 + (date >> 9) as i32,
        month: (date >> 5 & 15) as u32,
        day: (date & 31) as u32,
        hour: (time >> 11) as u32,
        minute: (time >> 5 & 63) as u32,
        second: (time & 31) as u32 * 2,
    }
    .to_seconds()
}

/// A host file's modification time as seconds since 1970.
pub fn mtime(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// DOS attributes of a host entry.
pub fn attributes(meta: &std::fs::Metadata) -> u8 {
    if meta.is_dir() {
        0x10
    } else if meta.permissions().readonly() {
        0x21
    } else {
        0x20
    }
}

impl Kernel {
    fn new_handle(&mut self, m: &mut Machine, entry: Entry) -> Result<u16, u16> {
        let h = jft_free(m, self.psp).ok_or(ERR_TOO_MANY)?;
        let s = self.sft.add(entry).ok_or(ERR_TOO_MANY)?;
        jft_set(m, self.psp, h, s);
        Ok(h)
    }

    /// Opens (or creates) a file; returns the handle.
    pub(crate) fn open_path(
        &mut self,
        m: &mut Machine,
        path: &[u8],
        mode: u8,
        create: Option<bool>,
    ) -> Result<u16, u16> {
        let access = mode & 7;
        log::debug!(
            "open {:?} mode {mode:02X} create {create:?}",
            String::from_utf8_lossy(path)
        );
        if create.is_none() && access > 2 {
            return Err(ERR_ACCESS_CODE);
        }
        // DOS takes a handle and an SFT slot before it looks at the path
        // (MS-DOS Programmer's Reference, 3Ch/3Dh: error 4): a full table
        // fails without creating or truncating anything on the host.
        if jft_free(m, self.psp).is_none() || !self.sft.has_free() {
            return Err(ERR_TOO_MANY);
        }
        let entry = match self.drive.resolve(path)? {
            Resolved::Device(d) => Entry {
                kind: Kind::Device(d),
                refs: 1,
                mode,
                dos: Vec::new(),
                written: false,
                set_time: None,
                raw: false,
            },
            Resolved::Path { host, exists, dos } => {
                if exists && host.is_dir() {
                    return Err(ERR_ACCESS);
                }
                let f = match create {
                    None => {
                        if !exists {
                            return Err(ERR_FILE);
                        }
                        let mut o = std::fs::OpenOptions::new();
                        o.read(access != 1).write(access != 0);
                        o.open(&host).map_err(|_| ERR_ACCESS)?
                    }
                    Some(must_be_new) => {
                        if exists && must_be_new {
                            return Err(ERR_EXISTS);
                        }
                        let old = if exists {
                            std::fs::metadata(&host).map(|md| md.len()).unwrap_or(0)
                        } else {
                            0
                        };
                        note(&self.journal, |j| j.before_replace(m.cycles(), &host));
                        let f = std::fs::OpenOptions::new()
                            .read(true)
                            .write(true)
                            .create(true)
                            .truncate(true)
                            .open(&host)
                            .map_err(|_| ERR_ACCESS)?;
                        // Truncating frees the old data's room.
                        self.quota.resized(old, 0);
                        // Created now in emulated time, not the host's.
                        let _ = f.set_modified(emulated_time(self.now_seconds(m)));
                        f
                    }
                };
                Entry {
                    kind: Kind::File(f),
                    refs: 1,
                    mode: if create.is_some() { 2 } else { mode },
                    dos,
                    written: create.is_some(),
                    set_time: None,
                    raw: false,
                }
            }
        };
        self.new_handle(m, entry)
    }

    /// Services INT 21h file functions by handle.
    pub(crate) fn int21_files(&mut self, con: &mut Console, m: &mut Machine, ah: u8) -> Flow {
        let r = match ah {
            0x3C | 0x5B => {
                let p = self.path_dsdx(m);
                self.open_path(m, &p, 2, Some(ah == 0x5B))
            }
            0x3D => {
                let p = self.path_dsdx(m);
                let mode = m.al();
                self.open_path(m, &p, mode, None)
            }
            0x3E => {
                let h = m.bx();
                self.handle(m, h).map(|s| {
                    jft_set(m, self.psp, h, 0xFF);
                    self.sft.close(s, self.now_seconds(m));
                    m.ax()
                })
            }
            0x3F => return self.read_handle(con, m),
            0x40 => self.write_handle(con, m),
            0x41 => {
                let p = self.path_dsdx(m);
                match self.drive.resolve(&p) {
                    Ok(Resolved::Path {
                        host, exists: true, ..
                    }) if host.is_file() => {
                        let len = std::fs::metadata(&host).map(|md| md.len()).unwrap_or(0);
                        note(&self.journal, |j| j.before_replace(m.cycles(), &host));
                        match std::fs::remove_file(&host) {
                            Ok(()) => {
                                self.quota.resized(len, 0);
                                Ok(m.ax())
                            }
                            Err(_) => Err(ERR_ACCESS),
                        }
                    }
                    Ok(Resolved::Path { exists: false, .. }) => Err(ERR_FILE),
                    Ok(_) => Err(ERR_ACCESS),
                    Err(e) => Err(e),
                }
            }
            0x42 => self.seek(m),
            0x43 => self.attrib(m),
            0x45 => {
                let h = m.bx();
                self.handle(m, h).and_then(|s| {
                    let n = jft_free(m, self.psp).ok_or(ERR_TOO_MANY)?;
                    self.sft.inherit(s);
                    jft_set(m, self.psp, n, s);
                    Ok(n)
                })
            }
            0x46 => {
                let (h, n) = (m.bx(), m.cx());
                self.handle(m, h).and_then(|s| {
                    if n >= rd16(m, lin(self.psp, 0x32)) {
                        return Err(ERR_HANDLE);
                    }
                    if let Some(old) = jft_get(m, self.psp, n) {
                        self.sft.close(old, self.now_seconds(m));
                    }
                    self.sft.inherit(s);
                    jft_set(m, self.psp, n, s);
                    Ok(m.ax())
                })
            }
            0x56 => {
                let old = self.path_dsdx(m);
                let new = mem::read_asciiz(m, m.es(), m.di(), 128);
                self.rename(m.cycles(), &old, &new).map(|_| m.ax())
            }
            0x57 => self.file_time(m),
            0x5A => self.create_temp(m),
            0x68 | 0x6A => {
                let h = m.bx();
                self.handle(m, h).map(|s| {
                    if let Some(Entry {
                        kind: Kind::File(f),
                        ..
                    }) = self.sft.get(s)
                    {
                        let _ = f.flush();
                    }
                    m.ax()
                })
            }
            0x6C => self.extended_open(m),
            _ => unreachable!("dispatched by int21"),
        };
        self.finish_ax(m, r)
    }

    fn read_handle(&mut self, con: &mut Console, m: &mut Machine) -> Flow {
        let (h, n, seg, off) = (m.bx(), m.cx(), m.ds(), m.dx());
        let s = match self.handle(m, h) {
            Ok(s) => s,
            Err(e) => {
                self.fail(m, e);
                return Flow::Continue;
            }
        };
        let mode = self.sft.get(s).map(|e| e.mode & 7).unwrap_or(0);
        if mode == 1 {
            self.fail(m, ERR_ACCESS);
            return Flow::Continue;
        }
        let data: Result<Vec<u8>, u16> = match self.sft.get(s).map(|e| &mut e.kind) {
            Some(Kind::File(f)) => {
                let mut buf = vec![0u8; n as usize];
                let mut got = 0;
                while got < buf.len() {
                    match f.read(&mut buf[got..]) {
                        Ok(0) => break,
                        Ok(k) => got += k,
                        Err(_) => break,
                    }
                }
                buf.truncate(got);
                Ok(buf)
            }
            Some(Kind::Device(Device::Con)) => {
                let raw = self.sft.get(s).map(|e| e.raw).unwrap_or(false);
                if raw {
                    return con_read_raw(m, n, seg, off);
                }
                return self.con_read(con, m, n, seg, off);
            }
            Some(Kind::Device(_)) => Ok(Vec::new()),
            None => Err(ERR_HANDLE),
        };
        match data {
            Ok(d) => {
                for (i, &b) in d.iter().enumerate() {
                    mem::wr8(m, lin(seg, off.wrapping_add(i as u16)), b);
                }
                m.set_ax(d.len() as u16);
                mem::set_cf(m, false);
            }
            Err(e) => self.fail(m, e),
        }
        Flow::Continue
    }

    fn write_handle(&mut self, con: &mut Console, m: &mut Machine) -> Result<u16, u16> {
        let (h, n, seg, off) = (m.bx(), m.cx(), m.ds(), m.dx());
        let s = self.handle(m, h)?;
        let data = mem::read_bytes(m, seg, off, n as usize);
        let now = emulated_time(self.now_seconds(m));
        let e = self.sft.get(s).ok_or(ERR_HANDLE)?;
        if e.mode & 7 == 0 {
            return Err(ERR_ACCESS);
        }
        match &mut e.kind {
            Kind::File(f) => {
                e.written = true;
                let pos = f.stream_position().map_err(|_| ERR_ACCESS)?;
                let len = f.metadata().map_err(|_| ERR_ACCESS)?.len();
                let done = if n == 0 {
                    // Truncate or extend to the current position; past the
                    // quota the disk is full and the file stays as it is.
                    if self.quota.allows(len, pos) {
                        note(&self.journal, |j| {
                            j.before_set_len(m.cycles(), &host_of(&self.drive, &e.dos), f, pos)
                        });
                        f.set_len(pos).map_err(|_| ERR_ACCESS)?;
                        self.quota.resized(len, pos);
                    }
                    0
                } else {
                    // A full disk cuts the write short (AX < CX, CF
                    // clear), as DOS does.
                    let k = self.quota.fit(len, pos, n as u64) as usize;
                    if k > 0 {
                        note(&self.journal, |j| {
                            let host = host_of(&self.drive, &e.dos);
                            j.before_write(m.cycles(), &host, f, pos, k as u64)
                        });
                        f.write_all(&data[..k]).map_err(|_| ERR_ACCESS)?;
                        self.quota.resized(len, len.max(pos + k as u64));
                    }
                    k as u16
                };
                // The host stamped the file with its own clock: give it the
                // emulated time at once, so a program that looks at the
                // file before closing it (find first, 57h) sees emulated
                // time only (a run is deterministic).
                let _ = f.set_modified(now);
                Ok(done)
            }
            Kind::Device(Device::Con) => {
                for &b in &data {
                    con_out(con, m, b);
                }
                Ok(n)
            }
            Kind::Device(_) => Ok(n),
        }
    }

    fn seek(&mut self, m: &mut Machine) -> Result<u16, u16> {
        let h = m.bx();
        let s = self.handle(m, h)?;
        let off = ((m.cx() as u32) << 16 | m.dx() as u32) as i32 as i64;
        let whence = m.al();
        let e = self.sft.get(s).ok_or(ERR_HANDLE)?;
        let pos = match &mut e.kind {
            Kind::File(f) => {
                let base = match whence {
                    0 => 0,
                    1 => f.stream_position().map_err(|_| ERR_ACCESS)? as i64,
                    2 => f.metadata().map_err(|_| ERR_ACCESS)?.len() as i64,
                    _ => return Err(1),
                };
                let target = base + if whence == 0 { off as u32 as i64 } else { off };
                if target < 0 {
                    return Err(0x19);
                }
                f.seek(SeekFrom::Start(target as u64))
                    .map_err(|_| ERR_ACCESS)?
            }
            Kind::Device(_) => 0,
        };
        m.set_dx((pos >> 16) as u16);
        Ok(pos as u16)
    }

    fn attrib(&mut self, m: &mut Machine) -> Result<u16, u16> {
        let p = self.path_dsdx(m);
        match self.drive.resolve(&p)? {
            Resolved::Path {
                host, exists: true, ..
            } => {
                let meta = std::fs::metadata(&host).map_err(|_| ERR_ACCESS)?;
                match m.al() {
                    0 => {
                        m.set_cx(attributes(&meta) as u16);
                        Ok(m.ax())
                    }
                    1 => {
                        if meta.is_file() {
                            let mut perm = meta.permissions();
                            perm.set_readonly(m.cx() & 1 != 0);
                            std::fs::set_permissions(&host, perm).map_err(|_| ERR_ACCESS)?;
                        }
                        Ok(m.ax())
                    }
                    _ => Err(1),
                }
            }
            Resolved::Path { .. } => Err(ERR_FILE),
            Resolved::Device(_) => Err(ERR_FILE),
        }
    }

    fn rename(&mut self, cycle: u64, old: &[u8], new: &[u8]) -> Result<(), u16> {
        let from = match self.drive.resolve(old)? {
            Resolved::Path {
                host, exists: true, ..
            } => host,
            Resolved::Path { .. } => return Err(ERR_FILE),
            Resolved::Device(_) => return Err(ERR_ACCESS),
        };
        let to = match self.drive.resolve(new)? {
            Resolved::Path {
                host,
                exists: false,
                ..
            } => host,
            _ => return Err(ERR_ACCESS),
        };
        std::fs::rename(&from, &to).map_err(|_| ERR_ACCESS)?;
        note(&self.journal, |j| j.renamed(cycle, &from, &to));
        Ok(())
    }

    fn file_time(&mut self, m: &mut Machine) -> Result<u16, u16> {
        let h = m.bx();
        let s = self.handle(m, h)?;
        let al = m.al();
        let (cx, dx) = (m.cx(), m.dx());
        let now = self.now_seconds(m);
        let e = self.sft.get(s).ok_or(ERR_HANDLE)?;
        match al {
            0 => {
                let t = match &e.kind {
                    Kind::File(f) => e
                        .set_time
                        .unwrap_or_else(|| f.metadata().map(|md| mtime(&md)).unwrap_or(now)),
                    Kind::Device(_) => now,
                };
                let (time, date) = dos_time(t);
                m.set_cx(time);
                m.set_dx(date);
                Ok(m.ax())
            }
            1 => {
                e.set_time = Some(from_dos_time(cx, dx));
                Ok(m.ax())
            }
            _ => Err(1),
        }
    }

    fn create_temp(&mut self, m: &mut Machine) -> Result<u16, u16> {
        let (ds, dx) = (m.ds(), m.dx());
        let mut dir = mem::read_asciiz(m, ds, dx, 128);
        if !dir.is_empty() && !dir.ends_with(b"\\") && !dir.ends_with(b":") {
            dir.push(b'\\');
        }
        let base = self.now_seconds(m) as u32;
        for k in 0..1000u32 {
            let name = format!("{:08X}", base.wrapping_add(k).wrapping_mul(2654435761));
            let mut p = dir.clone();
            p.extend(name.bytes());
            match self.open_path(m, &p, 2, Some(true)) {
                Ok(h) => {
                    mem::write_bytes(m, ds, dx.wrapping_add(dir.len() as u16), name.as_bytes());
                    mem::wr8(m, lin(ds, dx.wrapping_add(p.len() as u16)), 0);
                    return Ok(h);
                }
                Err(ERR_EXISTS) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(ERR_ACCESS)
    }

    fn extended_open(&mut self, m: &mut Machine) -> Result<u16, u16> {
        let path = mem::read_asciiz(m, m.ds(), m.si(), 128);
        let mode = m.bl();
        let action = m.dl();
        let exists = matches!(
            self.drive.resolve(&path),
            Ok(Resolved::Path { exists: true, .. }) | Ok(Resolved::Device(_))
        );
        let (h, result) = if exists {
            match action & 0x0F {
                1 => (self.open_path(m, &path, mode, None)?, 1),
                2 => (self.open_path(m, &path, mode, Some(false))?, 3),
                _ => return Err(ERR_EXISTS),
            }
        } else if action & 0xF0 == 0x10 {
            (self.open_path(m, &path, mode, Some(true))?, 2)
        } else {
            return Err(ERR_FILE);
        };
        m.set_cx(result);
        Ok(h)
    }
}

/// The host path of an open file's DOS path (for the journal; the root if
/// it no longer resolves).
pub(crate) fn host_of(drive: &crate::drive::Drive, dos: &[String]) -> std::path::PathBuf {
    drive
        .resolve_file(&crate::drive::Drive::dos_path(dos))
        .map(|(h, _)| h)
        .unwrap_or_else(|_| drive.root().to_path_buf())
}
