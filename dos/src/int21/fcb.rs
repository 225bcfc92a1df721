//! File control blocks: INT 21h 0Fh-17h, 21h-24h, 27h and 28h, the CP/M
//! style file functions DOS 1 programs (and many later ones) use.
//!
//! An FCB at DS:DX is a drive byte, an 11-byte blank-padded name, the
//! current block (0Ch), record size (0Eh), file size (10h), date and time
//! (14h/16h), DOS's reserved bytes (18h-1Fh), the current record in the
//! block (20h) and the random record number (21h, 4 bytes; 3 when the
//! record size is 64 or more). An extended FCB puts FFh, five reserved
//! bytes and a search attribute in front of it (MS-DOS Programmer's
//! Reference, "File Control Blocks").
//!
//! Every function names its file through the same sandboxed [`Drive`] as
//! the handle functions: the FCB's name is looked up in drive C:'s current
//! directory (the only directory an FCB can name), so an FCB can never
//! reach outside the mount. The host file is opened for each transfer and
//! closed after it, which makes FCBs that a program never closes (common
//! under DOS 1 conventions) harmless. Results are in AL: 00h success, FFh
//! failure (01h end of file, 02h DTA segment wrap, 03h partial record for
//! reads); the extended error (INT 21h 59h) is set on failure.
//!
//! [`Drive`]: crate::drive::Drive

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::console::Console;
use crate::drive::{Device, Resolved, ERR_ACCESS, ERR_DRIVE, ERR_FILE};
use crate::int21::console::con_str;
use crate::int21::dirs::{fcb_form, fcb_match, ERR_NO_MORE};
use crate::int21::files::{attributes, dos_time, mtime};
use crate::journal::note;
use crate::kernel::Kernel;
use crate::mem::{self, lin, rd16, rd8, read_bytes, wr16, wr32, wr8, write_bytes, Regs};
use crate::rom::Flow;
use hw::Machine;

/// Offsets in a standard FCB.
use crate::quota::ERR_DISK_FULL;

const CUR_BLOCK: u16 = 0x0C;
const REC_SIZE: u16 = 0x0E;
const FILE_SIZE: u16 = 0x10;
const DATE: u16 = 0x14;
const TIME: u16 = 0x16;
const RESERVED: u16 = 0x18;
const CUR_REC: u16 = 0x20;
const RANDOM: u16 = 0x21;
/// The new name of a rename (17h) sits at 11h (drive byte at 10h).
const NEW_NAME: u16 = 0x11;
/// Marks the search state kept in the reserved bytes by 11h for 12h.
const SEARCH_MAGIC: u16 = 0x5346;

/// Attributes that hide a file from an FCB search unless asked for:
/// hidden, system, volume label, directory.
const SPECIAL_ATTRS: u8 = 0x1E;

/// An FCB in guest memory.
#[derive(Clone, Copy, Debug)]
struct Fcb {
    seg: u16,
    /// Offset of the standard part (after an extended FCB's prefix).
    off: u16,
    /// Search attribute of an extended FCB.
    attr: Option<u8>,
}

impl Fcb {
    /// The FCB at DS:DX.
    fn at_dsdx(m: &mut Machine) -> Fcb {
        let (seg, off) = (m.ds(), m.dx());
        if rd8(m, lin(seg, off)) == 0xFF {
            Fcb {
                seg,
                off: off.wrapping_add(7),
                attr: Some(rd8(m, lin(seg, off.wrapping_add(6)))),
            }
        } else {
            Fcb {
                seg,
                off,
                attr: None,
            }
        }
    }

    fn a(&self, k: u16) -> u32 {
        lin(self.seg, self.off.wrapping_add(k))
    }

    fn drive(&self, m: &mut Machine) -> u8 {
        rd8(m, self.a(0))
    }

    fn name(&self, m: &mut Machine, at: u16) -> [u8; 11] {
        let mut n = [0u8; 11];
        for (i, b) in n.iter_mut().enumerate() {
            *b = crate::dosdata::upper_437(rd8(m, self.a(at + i as u16)));
        }
        n
    }

    /// The record size; 0 counts as DOS's default of 128.
    fn rec_size(&self, m: &mut Machine) -> u32 {
        match rd16(m, self.a(REC_SIZE)) {
            0 => 128,
            n => n as u32,
        }
    }

    /// The current (sequential) record: block x 128 + record in block.
    fn current(&self, m: &mut Machine) -> u32 {
        rd16(m, self.a(CUR_BLOCK)) as u32 * 128 + rd8(m, self.a(CUR_REC)) as u32
    }

    fn set_current(&self, m: &mut Machine, rec: u32) {
        wr16(m, self.a(CUR_BLOCK), (rec / 128) as u16);
        wr8(m, self.a(CUR_REC), (rec % 128) as u8);
    }

    /// The random record number: 4 bytes, or 3 when the record size is 64
    /// or more.
    fn random(&self, m: &mut Machine) -> u32 {
        let r = mem::rd32(m, self.a(RANDOM));
        if self.rec_size(m) >= 64 {
            r & 0x00FF_FFFF
        } else {
            r
        }
    }

    fn set_random(&self, m: &mut Machine, rec: u32) {
        if self.rec_size(m) >= 64 {
            wr16(m, self.a(RANDOM), rec as u16);
            wr8(m, self.a(RANDOM + 2), (rec >> 16) as u8);
        } else {
            wr32(m, self.a(RANDOM), rec);
        }
    }

    /// The attributes a search or delete with this FCB matches.
    fn search_attr(&self) -> u8 {
        self.attr.unwrap_or(0)
    }
}

/// "NAME.EXT" of an 11-byte FCB name (None when blank).
pub fn fcb_file_name(n: &[u8; 11]) -> Option<String> {
    let base: String = n[..8].iter().map(|&c| c as char).collect();
    let ext: String = n[8..].iter().map(|&c| c as char).collect();
    let (base, ext) = (base.trim_end(), ext.trim_end());
    if base.is_empty() {
        return None;
    }
    Some(if ext.is_empty() {
        base.to_string()
    } else {
        format!("{base}.{ext}")
    })
}

/// The DOS name of an FCB name that is a valid 8.3 name (no path
/// characters, wildcards or `.`/`..`: an FCB names a file in the current
/// directory and nothing else).
fn valid_name(n: &[u8; 11]) -> Option<String> {
    let name = fcb_file_name(n)?;
    crate::drive::split_83(&name)?;
    Some(name)
}

/// What an FCB's name resolves to.
enum Target {
    File(PathBuf),
    Device(Device),
}

/// A transfer of `n` records of `size` bytes from byte `pos` of the
/// file; `wrap` when the DTA's segment cut it to `n`.
struct Records {
    pos: u64,
    n: u16,
    size: u32,
    wrap: bool,
}

impl Records {
    fn bytes(&self) -> usize {
        self.n as usize * self.size as usize
    }

    /// AL when all `n` records moved: 02h when the segment cut them.
    fn complete(&self) -> u8 {
        if self.wrap {
            WRAP
        } else {
            OK
        }
    }
}

/// How a record transfer ended (AL).
const OK: u8 = 0;
const EOF: u8 = 1;
const WRAP: u8 = 2;
const PARTIAL: u8 = 3;
const FAIL: u8 = 0xFF;

impl Kernel {
    /// FCB functions.
    pub(crate) fn int21_fcb(&mut self, con: &mut Console, m: &mut Machine, ah: u8) -> Flow {
        let fcb = Fcb::at_dsdx(m);
        let al = match ah {
            0x0F => self.fcb_open(m, &fcb, false),
            0x10 => self.fcb_close(m, &fcb),
            0x11 => self.fcb_find(m, &fcb, true),
            0x12 => self.fcb_find(m, &fcb, false),
            0x13 => self.fcb_delete(m, &fcb),
            0x14 | 0x15 => {
                let rec = fcb.current(m);
                let (al, done) = self.fcb_transfer(con, m, &fcb, rec, 1, ah == 0x15);
                fcb.set_current(m, rec + done as u32);
                al
            }
            0x16 => self.fcb_open(m, &fcb, true),
            0x17 => self.fcb_rename(m, &fcb),
            0x21 | 0x22 => {
                let rec = fcb.random(m);
                fcb.set_current(m, rec);
                self.fcb_transfer(con, m, &fcb, rec, 1, ah == 0x22).0
            }
            0x23 => self.fcb_size(m, &fcb),
            0x24 => {
                let rec = fcb.current(m);
                fcb.set_random(m, rec);
                m.al()
            }
            0x27 | 0x28 => {
                let rec = fcb.random(m);
                let n = m.cx();
                let (al, done) = if ah == 0x28 && n == 0 {
                    (self.fcb_set_length(m, &fcb, rec), 0)
                } else {
                    self.fcb_transfer(con, m, &fcb, rec, n, ah == 0x28)
                };
                let next = rec + done as u32;
                fcb.set_random(m, next);
                fcb.set_current(m, next);
                m.set_cx(done);
                al
            }
            _ => unreachable!("dispatched by int21"),
        };
        m.set_al(al);
        Flow::Continue
    }

    /// The file or device an FCB names in drive C:'s current directory
    /// (FCBs reach drive C: only: not the read-only CD-ROM drives).
    fn fcb_target(&mut self, m: &mut Machine, fcb: &Fcb) -> Result<(Target, bool), u16> {
        let d = match fcb.drive(m) {
            0 => self.drive.current() + 1,
            d => d,
        };
        if d != 3 {
            return Err(ERR_DRIVE);
        }
        let n = fcb.name(m, 1);
        if n.contains(&b'?') {
            return Err(ERR_FILE);
        }
        let name = valid_name(&n).ok_or(ERR_FILE)?;
        match self.drive.resolve(&crate::drive::dos_bytes(&name))? {
            Resolved::Device(d) => Ok((Target::Device(d), true)),
            Resolved::Path { host, exists, .. } => {
                if exists && host.is_dir() {
                    return Err(ERR_ACCESS);
                }
                Ok((Target::File(host), exists))
            }
        }
    }

    fn fcb_fail(&mut self, code: u16) -> u8 {
        self.ext_error = code;
        FAIL
    }

    /// 0Fh open, 16h create: fills in the drive, block 0, record size 128,
    /// the size, date and time.
    fn fcb_open(&mut self, m: &mut Machine, fcb: &Fcb, create: bool) -> u8 {
        let (target, exists) = match self.fcb_target(m, fcb) {
            Ok(t) => t,
            Err(e) => return self.fcb_fail(e),
        };
        let (size, t) = match target {
            Target::Device(_) => (0, self.now_seconds(m)),
            Target::File(host) => {
                if create {
                    if fcb.search_attr() & 0x18 != 0 {
                        // A volume label or directory cannot be made here.
                        return self.fcb_fail(ERR_ACCESS);
                    }
                    let old = if exists {
                        std::fs::metadata(&host).map(|md| md.len()).unwrap_or(0)
                    } else {
                        0
                    };
                    note(&self.journal, |j| j.before_replace(m.cycles(), &host));
                    let made = std::fs::OpenOptions::new()
                        .write(true)
                        .create(true)
                        .truncate(true)
                        .open(&host);
                    match made {
                        Ok(f) => {
                            self.quota.resized(old, 0);
                            let now = self.now_seconds(m);
                            let _ = f.set_modified(crate::sft::emulated_time(now));
                            (0, now)
                        }
                        Err(_) => return self.fcb_fail(ERR_ACCESS),
                    }
                } else if !exists {
                    return self.fcb_fail(ERR_FILE);
                } else {
                    match std::fs::metadata(&host) {
                        Ok(md) => (md.len().min(u32::MAX as u64) as u32, mtime(&md)),
                        Err(_) => return self.fcb_fail(ERR_ACCESS),
                    }
                }
            }
        };
        if fcb.drive(m) == 0 {
            wr8(m, fcb.a(0), 3);
        }
        wr16(m, fcb.a(CUR_BLOCK), 0);
        wr16(m, fcb.a(REC_SIZE), 128);
        wr32(m, fcb.a(FILE_SIZE), size);
        let (time, date) = dos_time(t);
        wr16(m, fcb.a(DATE), date);
        wr16(m, fcb.a(TIME), time);
        write_bytes(m, fcb.seg, fcb.off.wrapping_add(RESERVED), &[0; 8]);
        OK
    }

    /// 10h close: the file must still be there.
    fn fcb_close(&mut self, m: &mut Machine, fcb: &Fcb) -> u8 {
        match self.fcb_target(m, fcb) {
            Ok((_, true)) => OK,
            Ok((_, false)) => self.fcb_fail(ERR_FILE),
            Err(e) => self.fcb_fail(e),
        }
    }

    /// Reads or writes `n` records of the FCB's size from record `rec`
    /// at the DTA. Returns AL and the records transferred (a partial last
    /// record read counts).
    fn fcb_transfer(
        &mut self,
        con: &mut Console,
        m: &mut Machine,
        fcb: &Fcb,
        rec: u32,
        n: u16,
        write: bool,
    ) -> (u8, u16) {
        let size = fcb.rec_size(m);
        let doff = self.dta.1;
        // The records must fit in the DTA's segment.
        let room = (0x10000 - doff as u32) / size;
        let (n, wrap) = if n as u32 > room {
            (room as u16, true)
        } else {
            (n, false)
        };
        if n == 0 {
            return (WRAP, 0);
        }
        let target = match self.fcb_target(m, fcb) {
            Ok((t, true)) => t,
            Ok((_, false)) => return (self.fcb_fail(ERR_FILE), 0),
            Err(e) => return (self.fcb_fail(e), 0),
        };
        let t = Records {
            pos: rec as u64 * size as u64,
            n,
            size,
            wrap,
        };
        if write {
            self.fcb_write(con, m, fcb, target, &t)
        } else {
            self.fcb_read(m, target, &t)
        }
    }

    /// Writes the records at the DTA to CON, another device (nothing
    /// happens) or the file.
    fn fcb_write(
        &mut self,
        con: &mut Console,
        m: &mut Machine,
        fcb: &Fcb,
        target: Target,
        t: &Records,
    ) -> (u8, u16) {
        let (dseg, doff) = self.dta;
        let data = read_bytes(m, dseg, doff, t.bytes());
        match target {
            Target::Device(Device::Con) => con_str(con, m, &data),
            Target::Device(_) => {}
            Target::File(host) => return self.fcb_write_file(m, fcb, &host, t, &data),
        }
        (t.complete(), t.n)
    }

    /// Writes `data` (the records) into the host file; a full disk takes
    /// the whole records that fit (AL = 01h). The FCB's size, date and
    /// time follow the file.
    fn fcb_write_file(
        &mut self,
        m: &mut Machine,
        fcb: &Fcb,
        host: &Path,
        t: &Records,
        data: &[u8],
    ) -> (u8, u16) {
        let now = self.now_seconds(m);
        let cycle = m.cycles();
        let journal = &self.journal;
        let quota = &mut self.quota;
        let (pos, size) = (t.pos, t.size);
        let mut fitted = t.n;
        let r = std::fs::OpenOptions::new()
            .write(true)
            .open(host)
            .and_then(|mut f| {
                let len = f.metadata()?.len();
                let k = quota.fit(len, pos, data.len() as u64);
                fitted = (k / size as u64) as u16;
                let k = fitted as usize * size as usize;
                if k > 0 {
                    note(journal, |j| j.before_write(cycle, host, &f, pos, k as u64));
                    f.seek(SeekFrom::Start(pos))?;
                    f.write_all(&data[..k])?;
                    quota.resized(len, len.max(pos + k as u64));
                }
                let _ = f.set_modified(crate::sft::emulated_time(now));
                f.metadata()
            });
        match r {
            Ok(md) if fitted < t.n => {
                wr32(m, fcb.a(FILE_SIZE), md.len().min(u32::MAX as u64) as u32);
                self.ext_error = ERR_DISK_FULL;
                (EOF, fitted)
            }
            Ok(md) => {
                wr32(m, fcb.a(FILE_SIZE), md.len().min(u32::MAX as u64) as u32);
                let (time, date) = dos_time(now);
                wr16(m, fcb.a(DATE), date);
                wr16(m, fcb.a(TIME), time);
                (t.complete(), t.n)
            }
            // Disk full or not writable: AL = 01h.
            Err(_) => {
                self.ext_error = ERR_ACCESS;
                (EOF, 0)
            }
        }
    }

    /// Reads the records into the DTA (nothing from a device): a partial
    /// last record is padded with zeros.
    fn fcb_read(&mut self, m: &mut Machine, target: Target, t: &Records) -> (u8, u16) {
        let (dseg, doff) = self.dta;
        let size = t.size as usize;
        let mut data = Vec::new();
        if let Target::File(host) = target {
            let r = std::fs::File::open(&host).and_then(|mut f| {
                f.seek(SeekFrom::Start(t.pos))?;
                (&mut f).take(t.bytes() as u64).read_to_end(&mut data)
            });
            if r.is_err() {
                return (self.fcb_fail(ERR_ACCESS), 0);
            }
        }
        let whole = data.len() / size;
        let part = data.len() % size;
        if whole == 0 && part == 0 {
            return (EOF, 0);
        }
        if part != 0 {
            data.resize((whole + 1) * size, 0);
        }
        write_bytes(m, dseg, doff, &data);
        if part != 0 {
            (PARTIAL, whole as u16 + 1)
        } else if (whole as u16) < t.n {
            (EOF, whole as u16)
        } else {
            (t.complete(), t.n)
        }
    }

    /// 28h with CX = 0: the file's length becomes `rec` records.
    fn fcb_set_length(&mut self, m: &mut Machine, fcb: &Fcb, rec: u32) -> u8 {
        let size = fcb.rec_size(m);
        let host = match self.fcb_target(m, fcb) {
            Ok((Target::File(h), true)) => h,
            Ok((Target::Device(_), _)) => return OK,
            Ok((_, false)) => return self.fcb_fail(ERR_FILE),
            Err(e) => return self.fcb_fail(e),
        };
        let len = rec as u64 * size as u64;
        let now = self.now_seconds(m);
        let cycle = m.cycles();
        let journal = &self.journal;
        let quota = &mut self.quota;
        let r = std::fs::OpenOptions::new()
            .write(true)
            .open(&host)
            .and_then(|f| {
                let old = f.metadata()?.len();
                if !quota.allows(old, len) {
                    return Ok(false);
                }
                note(journal, |j| j.before_set_len(cycle, &host, &f, len));
                f.set_len(len)?;
                quota.resized(old, len);
                f.set_modified(crate::sft::emulated_time(now))?;
                Ok(true)
            });
        match r {
            Ok(false) => {
                // Disk full.
                self.ext_error = ERR_DISK_FULL;
                EOF
            }
            Ok(true) => {
                wr32(m, fcb.a(FILE_SIZE), len.min(u32::MAX as u64) as u32);
                OK
            }
            Err(_) => {
                self.ext_error = ERR_ACCESS;
                EOF
            }
        }
    }

    /// 23h: the file's size in records (rounded up) into the random
    /// record field.
    fn fcb_size(&mut self, m: &mut Machine, fcb: &Fcb) -> u8 {
        let len = match self.fcb_target(m, fcb) {
            Ok((Target::File(h), true)) => match std::fs::metadata(&h) {
                Ok(md) => md.len(),
                Err(_) => return self.fcb_fail(ERR_ACCESS),
            },
            Ok((Target::Device(_), _)) => 0,
            Ok((_, false)) => return self.fcb_fail(ERR_FILE),
            Err(e) => return self.fcb_fail(e),
        };
        let size = fcb.rec_size(m) as u64;
        fcb.set_random(m, len.div_ceil(size).min(u32::MAX as u64) as u32);
        OK
    }

    /// The entries of the current directory an FCB pattern matches:
    /// (name, host path, attributes). Hidden, system and directory entries
    /// only when the extended FCB's attribute asks for them.
    fn fcb_matches(&self, pattern: &[u8; 11], attr: u8) -> Result<Vec<(String, PathBuf, u8)>, u16> {
        let (dir, _) = self.drive.resolve_dir(b".")?;
        Ok(self
            .drive
            .list(&dir)
            .into_iter()
            .filter_map(|(name, host)| {
                let a = std::fs::metadata(&host).map(|md| attributes(&md)).ok()?;
                let special = a & SPECIAL_ATTRS & !attr;
                (special == 0 && fcb_match(pattern, &fcb_form(&name))).then_some((name, host, a))
            })
            .collect())
    }

    /// 11h find first, 12h find next: the match goes to the DTA as an
    /// unopened FCB (extended when the search FCB is): drive, then the
    /// 32-byte directory entry. The search position is kept in the search
    /// FCB's reserved bytes.
    fn fcb_find(&mut self, m: &mut Machine, fcb: &Fcb, first: bool) -> u8 {
        if !matches!(fcb.drive(m), 0 | 3) {
            return self.fcb_fail(ERR_DRIVE);
        }
        let pattern = fcb.name(m, 1);
        let attr = fcb.search_attr();
        let mut pos = if first {
            0
        } else if rd16(m, fcb.a(RESERVED + 4)) == SEARCH_MAGIC {
            rd16(m, fcb.a(RESERVED)) as usize
        } else {
            return self.fcb_fail(ERR_NO_MORE);
        };
        let (dseg, doff) = self.dta;
        let mut out = doff;
        if let Some(a) = fcb.attr {
            write_bytes(m, dseg, doff, &[0xFF, 0, 0, 0, 0, 0, a]);
            out = doff.wrapping_add(7);
        }
        let entry: Option<([u8; 11], u8, i64, u32)> = if attr & 0x08 != 0 {
            // The volume label.
            (pos == 0).then(|| (fcb_form("TANDEM"), 0x08, 0, 0))
        } else {
            let found = match self.fcb_matches(&pattern, attr) {
                Ok(f) => f,
                Err(e) => return self.fcb_fail(e),
            };
            found.get(pos).map(|(name, host, a)| {
                let md = std::fs::metadata(host).ok();
                let t = md.as_ref().map(mtime).unwrap_or(0);
                let size = md
                    .filter(|md| md.is_file())
                    .map(|md| md.len().min(u32::MAX as u64) as u32)
                    .unwrap_or(0);
                (fcb_form(name), *a, t, size)
            })
        };
        let Some((name, a, t, size)) = entry else {
            wr16(m, fcb.a(RESERVED + 4), 0);
            return self.fcb_fail(ERR_NO_MORE);
        };
        pos += 1;
        wr16(m, fcb.a(RESERVED), pos as u16);
        wr16(m, fcb.a(RESERVED + 4), SEARCH_MAGIC);
        let (time, date) = if t == 0 { (0, 0x21) } else { dos_time(t) };
        let mut dir = [0u8; 33];
        dir[0] = 3;
        dir[1..12].copy_from_slice(&name);
        dir[12] = a;
        dir[23..25].copy_from_slice(&time.to_le_bytes());
        dir[25..27].copy_from_slice(&date.to_le_bytes());
        dir[29..33].copy_from_slice(&size.to_le_bytes());
        write_bytes(m, dseg, out, &dir);
        OK
    }

    /// 13h: deletes every file the (wildcard) name matches.
    fn fcb_delete(&mut self, m: &mut Machine, fcb: &Fcb) -> u8 {
        if !matches!(fcb.drive(m), 0 | 3) {
            return self.fcb_fail(ERR_DRIVE);
        }
        let pattern = fcb.name(m, 1);
        let found = match self.fcb_matches(&pattern, fcb.search_attr() & !0x18) {
            Ok(f) => f,
            Err(e) => return self.fcb_fail(e),
        };
        let mut deleted = 0;
        for (_, host, a) in found {
            let len = std::fs::metadata(&host).map(|md| md.len()).unwrap_or(0);
            if a & 0x11 == 0 {
                note(&self.journal, |j| j.before_replace(m.cycles(), &host));
            }
            if a & 0x11 == 0 && std::fs::remove_file(&host).is_ok() {
                self.quota.resized(len, 0);
                deleted += 1;
            }
        }
        if deleted == 0 {
            return self.fcb_fail(ERR_FILE);
        }
        OK
    }

    /// 17h: renames every file the name at 01h matches to the name at
    /// 11h; a `?` in the new name keeps the old name's character there.
    fn fcb_rename(&mut self, m: &mut Machine, fcb: &Fcb) -> u8 {
        if !matches!(fcb.drive(m), 0 | 3) {
            return self.fcb_fail(ERR_DRIVE);
        }
        let pattern = fcb.name(m, 1);
        let new = fcb.name(m, NEW_NAME);
        let found = match self.fcb_matches(&pattern, fcb.search_attr() & !0x18) {
            Ok(f) => f,
            Err(e) => return self.fcb_fail(e),
        };
        let mut renamed = 0;
        let mut err = ERR_FILE;
        for (name, host, _) in found {
            let old = fcb_form(&name);
            let mut target = new;
            for (t, o) in target.iter_mut().zip(old) {
                if *t == b'?' {
                    *t = o;
                }
            }
            let Some(to) = valid_name(&target) else {
                err = ERR_ACCESS;
                continue;
            };
            match self.drive.resolve(&crate::drive::dos_bytes(&to)) {
                Ok(Resolved::Path {
                    host: dest,
                    exists: false,
                    ..
                }) => {
                    if std::fs::rename(&host, &dest).is_ok() {
                        note(&self.journal, |j| j.renamed(m.cycles(), &host, &dest));
                        renamed += 1;
                    } else {
                        err = ERR_ACCESS;
                    }
                }
                _ => err = ERR_ACCESS,
            }
        }
        if renamed == 0 {
            return self.fcb_fail(err);
        }
        OK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fcb_names_become_dos_names() {
        assert_eq!(fcb_file_name(b"README  TXT").as_deref(), Some("README.TXT"));
        assert_eq!(fcb_file_name(b"MAKEFILE   ").as_deref(), Some("MAKEFILE"));
        assert_eq!(fcb_file_name(b"           "), None);
    }
}
