//! MSCDEX 2.21, the Microsoft CD-ROM Extensions, as its documentation
//! ("MS-DOS CD-ROM Extensions Function Requests") and the "CD-ROM Device
//! Driver Specification" define them: INT 2Fh AX=1500h-1510h, and the
//! device driver requests a program sends through 1510h.
//!
//! The drives (one unit each) are behind one driver, "MSCD001", whose
//! header is in guest memory at [`HEADER`] (DOS's data segment), linked at
//! the end of the device chain: the drive device list (1501h) and IOCTL
//! "return address of device header" point at it. Its strategy and
//! interrupt entries are a `RETF` (requests go through 1510h, as programs
//! send them).
//!
//! A request header: length, subunit, command code, status word (bit 15
//! error with the code in bits 0-7, bit 9 busy, bit 8 done), 8 reserved
//! bytes, then the command's fields. Busy is set on every request while
//! the drive plays audio, as the spec has it. Addresses come in HSG form
//! (the LBA, 0 at MSF 00:02:00) or Red Book form (frame, second, minute
//! in bytes 0-2).
//!
//! The drive's state (audio, head, door, lock, media-changed, the channel
//! control block) lives in `hw::cdaudio`, so it is in the machine's state
//! hash and follows emulated time; this file holds the discs (host side).

use std::sync::Arc;

use hw::cdaudio::CdAudio;
use hw::Machine;

use super::image::{Disc, ReadError, COOKED, RAW};
use super::iso9660::Volume;
use super::{Msf, LEAD_IN};
use crate::dosdata::DOS_SEG;
use crate::mem::{lin, rd16, rd8, wr16, wr8, write_bytes, Regs};

/// The driver's header (DOS_SEG:0620h).
pub const HEADER: u16 = 0x0620;
/// Its `RETF` entry.
const ENTRY: u16 = HEADER + 0x16;
/// MSCDEX 2.21 (INT 2Fh 150Ch: BH major, BL minor).
pub const VERSION: u16 = 0x0215;

/// Status word bits.
const DONE: u16 = 0x0100;
const BUSY: u16 = 0x0200;
const ERROR: u16 = 0x8000;
/// Device driver error codes.
const E_UNIT: u8 = 0x01;
const E_NOT_READY: u8 = 0x02;
const E_COMMAND: u8 = 0x03;
const E_NOT_FOUND: u8 = 0x08;
const E_READ: u8 = 0x0B;
const E_GENERAL: u8 = 0x0C;
/// DOS errors INT 2Fh returns.
const DOS_INVALID_DRIVE: u16 = 0x0F;
const DOS_NOT_READY: u16 = 0x15;
const DOS_WRITE_PROTECT: u16 = 0x13;

/// One CD-ROM drive as the host holds it.
#[derive(Debug, Clone)]
pub struct CdDrive {
    /// The disc (`None` for a host folder mounted as a CD).
    pub disc: Option<Arc<Disc>>,
    /// Its file system (`None` without a data track or a disc).
    pub volume: Option<Arc<Volume>>,
}

/// MSCDEX: the first drive's number (3 = D:) and the drives.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Mscdex {
    /// The drives (not saved: the resuming run attaches its own).
    #[serde(skip)]
    pub drives: Vec<CdDrive>,
    /// The first drive's number (0 = A:).
    pub first: u8,
}

/// The result of a device request: the status word's error code.
type Status = Result<(), u8>;

impl Mscdex {
    /// MSCDEX with `drives` from D: on.
    pub fn new(drives: Vec<CdDrive>) -> Mscdex {
        Mscdex { drives, first: 3 }
    }

    /// Writes the driver's header, links it at the end of the device
    /// chain (after drive C:'s, at `chain_end`) and sizes the drives.
    pub fn install(&self, m: &mut Machine, chain_end: u16) {
        if self.drives.is_empty() {
            return;
        }
        let a = lin(DOS_SEG, HEADER);
        wr16(m, a, 0xFFFF);
        wr16(m, a + 2, 0xFFFF);
        // Character device, IOCTL supported, open/close/removable.
        wr16(m, a + 4, 0xC800);
        wr16(m, a + 6, ENTRY);
        wr16(m, a + 8, ENTRY);
        write_bytes(m, DOS_SEG, HEADER + 10, b"MSCD001 ");
        wr16(m, a + 18, 0);
        wr8(m, a + 20, self.first + 1);
        wr8(m, a + 21, self.drives.len() as u8);
        wr8(m, lin(DOS_SEG, ENTRY), 0xCB);
        let link = lin(DOS_SEG, chain_end);
        wr16(m, link, HEADER);
        wr16(m, link + 2, DOS_SEG);
        m.bus.dev.cdaudio.set_drives(self.drives.len());
        self.attach(m);
    }

    /// Gives the audio transport each drive's disc (after install and
    /// after a save state is loaded).
    pub fn attach(&self, m: &mut Machine) {
        let discs = self
            .drives
            .iter()
            .map(|d| {
                d.disc
                    .clone()
                    .map(|x| x as Arc<dyn hw::cdaudio::AudioSectors>)
            })
            .collect();
        m.bus.dev.cdaudio.attach(discs);
    }

    /// The index of drive number `cx` (0 = A:).
    fn unit(&self, cx: u16) -> Option<usize> {
        let i = cx.checked_sub(u16::from(self.first))? as usize;
        (i < self.drives.len()).then_some(i)
    }

    /// Services INT 2Fh AH = 15h; false when there are no drives (the
    /// caller answers "not installed").
    pub fn service(&mut self, m: &mut Machine) -> bool {
        if self.drives.is_empty() {
            return false;
        }
        let al = m.al();
        match al {
            0x00 => {
                m.set_bx(self.drives.len() as u16);
                m.set_cx(u16::from(self.first));
            }
            0x01 => self.device_list(m),
            0x02..=0x04 => self.file_name(m, usize::from(al - 2)),
            0x05 => self.read_vtoc(m),
            0x08 => self.absolute_read(m),
            0x09 => self.answer(m, |s, m, _| {
                let _ = (s, m);
                Err(DOS_WRITE_PROTECT)
            }),
            0x0B => {
                let ok = self.unit(m.cx()).is_some();
                m.set_ax(if ok { 0x5AD8 } else { 0 });
                m.set_bx(0xADAD);
            }
            0x0C => m.set_bx(VERSION),
            0x0D => {
                let (es, bx) = (m.es(), m.bx());
                for i in 0..self.drives.len() {
                    wr8(m, lin(es, bx.wrapping_add(i as u16)), self.first + i as u8);
                }
            }
            0x0E => self.preference(m),
            0x0F => self.directory_entry(m),
            0x10 => self.request(m),
            // 1506h/1507h (debugging) and 150Ah are reserved.
            _ => {}
        }
        true
    }

    /// Runs a function of drive CX that ends with CF and AX.
    fn answer(
        &mut self,
        m: &mut Machine,
        f: impl FnOnce(&mut Self, &mut Machine, usize) -> Result<u16, u16>,
    ) {
        let r = match self.unit(m.cx()) {
            Some(i) => f(self, m, i),
            None => Err(DOS_INVALID_DRIVE),
        };
        match r {
            Ok(ax) => {
                m.set_ax(ax);
                crate::mem::set_cf(m, false);
            }
            Err(e) => crate::mem::fail(m, e),
        }
    }

    /// 1501h: subunit and header address of each drive.
    fn device_list(&self, m: &mut Machine) {
        let (es, bx) = (m.es(), m.bx());
        for i in 0..self.drives.len() {
            let a = lin(es, bx.wrapping_add(5 * i as u16));
            wr8(m, a, i as u8);
            wr16(m, a + 1, HEADER);
            wr16(m, a + 3, DOS_SEG);
        }
    }

    /// 1502h-1504h: the copyright, abstract or bibliographic file name of
    /// the PVD (37 bytes and a NUL).
    fn file_name(&mut self, m: &mut Machine, which: usize) {
        self.answer(m, |s, m, i| {
            let v = s.drives[i].volume.clone().ok_or(DOS_NOT_READY)?;
            let mut name = v.files[which].to_vec();
            let end = name
                .iter()
                .rposition(|&c| c != b' ' && c != 0)
                .map_or(0, |p| p + 1);
            name.truncate(end);
            name.push(0);
            let (es, bx) = (m.es(), m.bx());
            write_bytes(m, es, bx, &name);
            Ok(m.ax())
        });
    }

    /// 1505h: volume descriptor DX (0 the first, at sector 16) into
    /// ES:BX; AX its type (1 primary, FFh terminator).
    fn read_vtoc(&mut self, m: &mut Machine) {
        self.answer(m, |s, m, i| {
            let v = s.drives[i].volume.clone().ok_or(DOS_NOT_READY)?;
            let disc = s.drives[i].disc.clone().ok_or(DOS_NOT_READY)?;
            let mut buf = [0u8; COOKED];
            disc.read_cooked(v.base + 16 + u32::from(m.dx()), &mut buf)
                .map_err(|_| DOS_NOT_READY)?;
            let (es, bx) = (m.es(), m.bx());
            write_bytes(m, es, bx, &buf);
            Ok(match buf[0] {
                1 => 1,
                0xFF => 0xFF,
                _ => 0,
            })
        });
    }

    /// 1508h: DX cooked sectors from SI:DI into ES:BX.
    fn absolute_read(&mut self, m: &mut Machine) {
        self.answer(m, |s, m, i| {
            let disc = s.drives[i].disc.clone().ok_or(DOS_NOT_READY)?;
            let start = u32::from(m.si()) << 16 | u32::from(m.cpu.regs.reg16(emu::Reg16::DI));
            let (es, bx, n) = (m.es(), m.bx(), m.dx());
            let mut buf = [0u8; COOKED];
            for k in 0..u32::from(n) {
                disc.read_cooked(start.saturating_add(k), &mut buf)
                    .map_err(|_| DOS_NOT_READY)?;
                let at = lin(es, bx) + k * COOKED as u32;
                m.bus.mem.write_image(at, &buf);
            }
            m.bus
                .dev
                .cdaudio
                .halt(i, start.saturating_add(u32::from(n)), m.cycles());
            Ok(m.ax())
        });
    }

    /// 150Eh: volume descriptor preference (BX = 0 get, 1 set): the
    /// primary, DX = 0100h.
    fn preference(&mut self, m: &mut Machine) {
        self.answer(m, |_, m, _| {
            match m.bx() {
                0 => m.set_dx(0x0100),
                1 if m.dx() == 0x0100 => {}
                _ => return Err(1),
            }
            Ok(m.ax())
        });
    }

    /// 150Fh: the ISO 9660 directory record of the path at ES:BX (drive
    /// CL) copied to SI:DI; AX = 1 (an ISO 9660 disc).
    fn directory_entry(&mut self, m: &mut Machine) {
        let cl = m.cx() & 0xFF;
        m.set_cx(cl);
        self.answer(m, |s, m, i| {
            let v = s.drives[i].volume.clone().ok_or(DOS_NOT_READY)?;
            let path = crate::mem::read_asciiz(m, m.es(), m.bx(), 128);
            let up = crate::drive::dos_upper(&path);
            let up = up
                .get(2..)
                .filter(|_| up.as_bytes().get(1) == Some(&b':'))
                .unwrap_or(&up);
            let comps: Vec<String> = up
                .split(['\\', '/'])
                .filter(|c| !c.is_empty())
                .map(String::from)
                .collect();
            let e = v.find(&comps).ok_or(2u16)?;
            let (seg, off) = (m.si(), m.cpu.regs.reg16(emu::Reg16::DI));
            write_bytes(m, seg, off, &e.record);
            Ok(1)
        });
    }

    /// 1510h: the device request at ES:BX for drive CX.
    fn request(&mut self, m: &mut Machine) {
        let rh = lin(m.es(), m.bx());
        let Some(i) = self.unit(m.cx()) else {
            wr16(m, rh + 3, ERROR | DONE | u16::from(E_UNIT));
            crate::mem::fail(m, DOS_INVALID_DRIVE);
            return;
        };
        let cmd = rd8(m, rh + 2);
        let r = match cmd {
            3 => self.ioctl_input(m, i, rh),
            12 => self.ioctl_output(m, i, rh),
            // Input flush, output flush, device open, device close.
            7 | 11 | 13 | 14 => Ok(()),
            128 | 130 => self.read_long(m, i, rh, cmd == 130),
            131 => self.seek(m, i, rh),
            132 => self.play(m, i, rh),
            133 => {
                m.bus.dev.cdaudio.stop(i, m.cycles());
                Ok(())
            }
            136 => {
                if m.bus.dev.cdaudio.resume(i, m.cycles()) {
                    Ok(())
                } else {
                    Err(E_GENERAL)
                }
            }
            _ => Err(E_COMMAND),
        };
        let busy = if m.bus.dev.cdaudio.playing(i, m.cycles()).is_some() {
            BUSY
        } else {
            0
        };
        let status = match r {
            Ok(()) => DONE | busy,
            Err(e) => ERROR | DONE | busy | u16::from(e),
        };
        wr16(m, rh + 3, status);
        crate::mem::set_cf(m, false);
    }

    /// The disc in drive `i`, unless its tray is open.
    fn disc(&self, m: &Machine, i: usize) -> Result<Option<Arc<Disc>>, u8> {
        if m.bus.dev.cdaudio.drives.get(i).is_some_and(|d| d.open) {
            return Err(E_NOT_READY);
        }
        Ok(self.drives[i].disc.clone())
    }

    /// An address field: HSG (the LBA) or Red Book (mode 1).
    fn address(mode: u8, v: u32) -> Result<u32, u8> {
        match mode {
            0 => Ok(v),
            1 => Ok(Msf::from_redbook(v).frames().saturating_sub(LEAD_IN)),
            _ => Err(E_COMMAND),
        }
    }

    /// Command 128 (130: prefetch, nothing transferred): sectors into
    /// the transfer address, cooked (mode 0) or raw (mode 1).
    fn read_long(&mut self, m: &mut Machine, i: usize, rh: u32, prefetch: bool) -> Status {
        let disc = self.disc(m, i)?.ok_or(E_NOT_READY)?;
        let start = Self::address(rd8(m, rh + 13), rd32(m, rh + 20))?;
        let (off, seg) = (rd16(m, rh + 14), rd16(m, rh + 16));
        let n = u32::from(rd16(m, rh + 18));
        let raw = match rd8(m, rh + 24) {
            0 => false,
            1 => true,
            _ => return Err(E_COMMAND),
        };
        let now = m.cycles();
        m.bus.dev.cdaudio.halt(i, start.saturating_add(n), now);
        if prefetch {
            return Ok(());
        }
        let size = if raw { RAW } else { COOKED };
        let mut at = lin(seg, off);
        for k in 0..n {
            let mut buf = [0u8; RAW];
            let r = if raw {
                disc.read_raw(start.saturating_add(k), &mut buf)
            } else {
                let mut c = [0u8; COOKED];
                let r = disc.read_cooked(start.saturating_add(k), &mut c);
                buf[..COOKED].copy_from_slice(&c);
                r
            };
            r.map_err(|e| match e {
                ReadError::NotFound => E_NOT_FOUND,
                ReadError::Io => E_READ,
            })?;
            m.bus.mem.write_image(at, &buf[..size]);
            at += size as u32;
        }
        Ok(())
    }

    /// Command 131: moves the head (audio stops).
    fn seek(&mut self, m: &mut Machine, i: usize, rh: u32) -> Status {
        self.disc(m, i)?;
        let to = Self::address(rd8(m, rh + 13), rd32(m, rh + 20))?;
        m.bus.dev.cdaudio.halt(i, to, m.cycles());
        Ok(())
    }

    /// Command 132: plays `count` sectors from the start address.
    fn play(&mut self, m: &mut Machine, i: usize, rh: u32) -> Status {
        let disc = self.disc(m, i)?.ok_or(E_NOT_READY)?;
        let start = Self::address(rd8(m, rh + 13), rd32(m, rh + 14))?;
        let count = rd32(m, rh + 18);
        let end = start.saturating_add(count).min(disc.leadout());
        if start >= disc.leadout() {
            return Err(E_NOT_FOUND);
        }
        let now = m.cycles();
        if count == 0 {
            m.bus.dev.cdaudio.halt(i, start, now);
        } else {
            m.bus.dev.cdaudio.play(i, start, end, now);
        }
        Ok(())
    }

    /// Command 3: IOCTL input (the control block's first byte is the
    /// code).
    fn ioctl_input(&mut self, m: &mut Machine, i: usize, rh: u32) -> Status {
        let cb = lin(rd16(m, rh + 16), rd16(m, rh + 14));
        let code = rd8(m, cb);
        let now = m.cycles();
        let disc = self.drives[i].disc.clone();
        let cd: &CdAudio = &m.bus.dev.cdaudio;
        let drive = cd.drives.get(i).copied().unwrap_or_default();
        let out: Vec<u8> = match code {
            0 => [HEADER.to_le_bytes(), DOS_SEG.to_le_bytes()].concat(),
            1 => {
                let mode = rd8(m, cb + 1);
                let head = m.bus.dev.cdaudio.head(i, now);
                let v = if mode == 1 {
                    Msf::from_lba(head).redbook()
                } else {
                    head
                };
                [vec![mode], v.to_le_bytes().to_vec()].concat()
            }
            4 => drive.channels.to_vec(),
            6 => device_status(&drive, disc.is_some()).to_le_bytes().to_vec(),
            7 => {
                let size: u16 = if rd8(m, cb + 1) == 1 {
                    RAW as u16
                } else {
                    COOKED as u16
                };
                [vec![rd8(m, cb + 1)], size.to_le_bytes().to_vec()].concat()
            }
            8 => disc
                .as_ref()
                .map_or(0, |d| d.leadout())
                .to_le_bytes()
                .to_vec(),
            9 => {
                let v = if drive.changed { 0xFF } else { 1 };
                if let Some(d) = m.bus.dev.cdaudio.drives.get_mut(i) {
                    d.changed = false;
                }
                vec![v]
            }
            10 => disc_info(disc.as_deref().ok_or(E_NOT_READY)?),
            11 => track_info(disc.as_deref().ok_or(E_NOT_READY)?, rd8(m, cb + 1))?,
            12 => q_channel(
                disc.as_deref().ok_or(E_NOT_READY)?,
                m.bus.dev.cdaudio.head(i, now),
            ),
            14 => vec![2, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            15 => {
                let paused = drive.paused.is_some() as u16;
                let (from, to) = drive.last;
                let rb = |l: u32| Msf::from_lba(l).redbook().to_le_bytes();
                [
                    paused.to_le_bytes().to_vec(),
                    rb(from).to_vec(),
                    rb(to).to_vec(),
                ]
                .concat()
            }
            _ => return Err(E_COMMAND),
        };
        m.bus.mem.write_image(cb + 1, &out);
        Ok(())
    }

    /// Command 12: IOCTL output.
    fn ioctl_output(&mut self, m: &mut Machine, i: usize, rh: u32) -> Status {
        let cb = lin(rd16(m, rh + 16), rd16(m, rh + 14));
        let code = rd8(m, cb);
        let now = m.cycles();
        let cd = &mut m.bus.dev.cdaudio;
        let Some(d) = cd.drives.get(i).copied() else {
            return Err(E_UNIT);
        };
        match code {
            // Eject: the tray opens unless the door is locked.
            0 => {
                if d.locked {
                    return Err(E_GENERAL);
                }
                cd.halt(i, 0, now);
                cd.drives[i].open = true;
            }
            1 => {
                let lock = rd8(m, cb + 1) != 0;
                m.bus.dev.cdaudio.drives[i].locked = lock;
            }
            // Reset: stop, head home.
            2 => cd.halt(i, 0, now),
            3 => {
                let block = block_at(m, cb + 1);
                let cd = &mut m.bus.dev.cdaudio;
                cd.drives[i].channels = block;
                cd.set_volume(i, [block[1], block[3]], now);
            }
            4 => {}
            // Close tray: the disc is (again) there, and counts as changed.
            5 => {
                if d.open {
                    cd.drives[i].open = false;
                    cd.drives[i].changed = true;
                }
            }
            _ => return Err(E_COMMAND),
        }
        Ok(())
    }
}

/// The 8-byte audio channel control block at `a`.
fn block_at(m: &mut Machine, a: u32) -> [u8; 8] {
    std::array::from_fn(|k| rd8(m, a + k as u32))
}

fn rd32(m: &mut Machine, a: u32) -> u32 {
    u32::from(rd16(m, a)) | u32::from(rd16(m, a + 2)) << 16
}

/// IOCTL input 6: door open (bit 0), unlocked (1), cooked and raw (2),
/// data and audio (4), audio channel control (8), HSG and Red Book (9),
/// no disc (11).
fn device_status(d: &hw::cdaudio::CdDrive, disc: bool) -> u32 {
    let mut s = 1 << 2 | 1 << 4 | 1 << 8 | 1 << 9;
    if d.open {
        s |= 1;
    }
    if !d.locked {
        s |= 1 << 1;
    }
    if !disc || d.open {
        s |= 1 << 11;
    }
    s
}

/// IOCTL input 10: lowest and highest track, the lead-out (Red Book).
fn disc_info(disc: &Disc) -> Vec<u8> {
    let t = disc.tracks();
    let lo = t.first().map_or(1, |t| t.number);
    let hi = t.last().map_or(1, |t| t.number);
    let mut out = vec![lo, hi];
    out.extend(Msf::from_lba(disc.leadout()).redbook().to_le_bytes());
    out
}

/// The Q sub-channel's control and ADR byte of a track: control 4 for
/// data, 0 for two-channel audio; ADR 1 (position).
fn control_adr(t: &super::image::Track) -> u8 {
    if t.kind.is_audio() {
        0x01
    } else {
        0x41
    }
}

/// IOCTL input 11: a track's start (Red Book) and control byte.
fn track_info(disc: &Disc, n: u8) -> Result<Vec<u8>, u8> {
    let t = disc
        .tracks()
        .iter()
        .find(|t| t.number == n)
        .ok_or(E_NOT_FOUND)?;
    let mut out = vec![n];
    out.extend(Msf::from_lba(t.start).redbook().to_le_bytes());
    out.push(control_adr(t));
    Ok(out)
}

/// IOCTL input 12: the Q channel at the head: control/ADR, track and
/// index (BCD, as the sub-channel carries them), the time in the track
/// (counting down in the pregap) and on the disc (binary MSF).
fn q_channel(disc: &Disc, head: u32) -> Vec<u8> {
    let bcd = |v: u8| (v / 10) << 4 | (v % 10);
    let Some(t) = disc.track_at(head).or(disc.tracks().last()) else {
        return vec![0; 10];
    };
    let (index, rel) = if head < t.start {
        (0, Msf::from_frames(t.start - head))
    } else {
        (1, Msf::from_frames(head.min(t.end()) - t.start))
    };
    let abs = Msf::from_lba(head);
    vec![
        control_adr(t),
        bcd(t.number),
        bcd(index),
        rel.m,
        rel.s,
        rel.f,
        0,
        abs.m,
        abs.s,
        abs.f,
    ]
}
