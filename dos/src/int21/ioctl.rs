//! INT 21h 44h, IOCTL, every subfunction of MS-DOS 5/6 (AL = 00h-11h).
//!
//! Handles name files on drive C: or the character devices; drives (BL:
//! 0 = default, 1 = A:, ...) only C: exists, a fixed disk. The answers are
//! those of MS-DOS with its own drivers and no others loaded: no device
//! here supports IOCTL control strings (02h-05h answer "invalid function",
//! as DOS does for a driver without attribute bit 14), the console and the
//! files have no generic IOCTL (0Ch, 10h), drive C:'s block driver has the
//! disk category (0Dh, 11h; see [`disk`](super::disk)).

use std::io::Seek;

use hw::Machine;

use crate::diag::Diagnostics;
use crate::drive::{Device, ERR_DRIVE};
use crate::int21::disk::is_c;
use crate::kernel::Kernel;
use crate::mem::Regs;
use crate::rom::Flow;
use crate::sft::{Entry, Kind};

/// Device information word (4400h) of a character device: bit 7 device,
/// bit 6 not at end of input (NUL and CLOCK$ are), bits 0-4 console
/// in/out, NUL, clock, INT 29h output; bit 14 (control strings) is never
/// set.
fn device_info(d: Device) -> u16 {
    match d {
        Device::Con => 0x80D3,
        Device::Nul => 0x8084,
        Device::Clock => 0x8088,
        Device::Ems | Device::Aux | Device::Prn => 0x80C0,
    }
}

/// The information word of an open handle: a device's, or for a file the
/// drive (bits 0-5, C: = 2) and bit 6 set while it has not been written.
fn info_word(e: &Entry) -> u16 {
    let raw = if e.raw { 0x20 } else { 0 };
    match &e.kind {
        Kind::Device(d) => device_info(*d) | raw,
        Kind::File(_) => 2 | if e.written { 0 } else { 0x40 },
    }
}

impl Kernel {
    /// INT 21h 44h.
    pub(crate) fn ioctl(&mut self, diag: &mut Diagnostics, m: &mut Machine) -> Flow {
        let al = m.al();
        let r = match al {
            0x00..=0x03 | 0x06 | 0x07 | 0x0A | 0x0C | 0x10 => self.ioctl_handle(m, al),
            0x04 | 0x05 | 0x08 | 0x09 | 0x0D | 0x0E | 0x0F | 0x11 => self.ioctl_drive(diag, m, al),
            // Sharing retry count and delay: accepted (no SHARE conflicts
            // on a single-user drive).
            0x0B => Ok(m.ax()),
            _ => Err(1),
        };
        self.finish_ax(m, r)
    }

    fn ioctl_handle(&mut self, m: &mut Machine, al: u8) -> Result<u16, u16> {
        let h = m.bx();
        let s = self.handle(m, h)?;
        let (dx, ax) = (m.dx(), m.ax());
        let Some(e) = self.sft.get(s) else {
            return Err(crate::sft::ERR_HANDLE);
        };
        let info = info_word(e);
        match al {
            0x00 => {
                m.set_dx(info);
                Ok(info)
            }
            0x01 => {
                // DH must be zero; only a device's binary bit changes.
                if dx & 0xFF00 != 0 {
                    return Err(0x0D);
                }
                if let Kind::Device(_) = e.kind {
                    e.raw = dx & 0x20 != 0;
                }
                Ok(ax)
            }
            // Control strings: no driver here supports them.
            0x02 | 0x03 => Err(1),
            0x06 => {
                let ready = match &mut e.kind {
                    Kind::Device(Device::Con) => None,
                    // Nothing ever arrives from the other devices.
                    Kind::Device(_) => Some(false),
                    // A file is ready until its end.
                    Kind::File(f) => {
                        let pos = f.stream_position().unwrap_or(0);
                        let len = f.metadata().map(|md| md.len()).unwrap_or(0);
                        Some(pos < len)
                    }
                };
                let ready = ready.unwrap_or_else(|| crate::int21::console::con_ready(m));
                Ok((ax & 0xFF00) | if ready { 0xFF } else { 0 })
            }
            0x07 => Ok((ax & 0xFF00) | 0xFF),
            0x0A => {
                // Bit 15 would mark a remote handle.
                m.set_dx(info);
                Ok(ax)
            }
            // Generic IOCTL and its query: not for these devices and files
            // (no code page switching without DISPLAY.SYS).
            _ => Err(1),
        }
    }

    fn ioctl_drive(&mut self, diag: &mut Diagnostics, m: &mut Machine, al: u8) -> Result<u16, u16> {
        let bl = m.bl();
        if !is_c(bl) {
            return Err(ERR_DRIVE);
        }
        match al {
            // Block driver control strings: not supported.
            0x04 | 0x05 => Err(1),
            0x08 => Ok(1), // fixed
            0x09 => {
                // Local; the block driver's attribute word.
                m.set_dx(0x0842);
                Ok(m.ax())
            }
            0x0D => self.generic_ioctl_disk(diag, m),
            // One letter per drive: AL = 0.
            0x0E | 0x0F => Ok(m.ax() & 0xFF00),
            0x11 => {
                let (ch, cl) = (m.ch(), m.cl());
                let supported = matches!(ch, 0x08 | 0x48)
                    && matches!(cl, 0x40 | 0x46 | 0x47 | 0x60 | 0x66 | 0x67);
                if supported {
                    Ok(0)
                } else {
                    Err(1)
                }
            }
            _ => unreachable!("dispatched by ioctl"),
        }
    }
}
