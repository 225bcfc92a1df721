//! Drive C:'s disk through INT 21h: 1Bh/1Ch (allocation information),
//! 1Fh/32h (the Drive Parameter Block), 36h (free space), 53h (BPB to
//! DPB), 69h and IOCTL 440Dh 66h (serial number and volume label) and
//! IOCTL 440Dh 60h (device parameters, the BPB), all from the one FAT16
//! geometry of [`crate::geometry`].

use hw::Machine;

use crate::diag::Diagnostics;
use crate::dosdata::{self, DOS_SEG};
use crate::geometry::{
    bpb, cylinders, dpb_from_bpb, media_id, BYTES_PER_SECTOR, CLUSTERS, SECTORS_PER_CLUSTER,
};
use crate::kernel::Kernel;
use crate::mem::{self, lin, write_bytes, Regs};
use crate::rom::Flow;

/// Whether DL (0 = default, 1 = A:, ...) names drive C:.
pub fn is_c(dl: u8) -> bool {
    matches!(dl, 0 | 3)
}

impl Kernel {
    /// INT 21h 1Bh, 1Ch, 1Fh, 32h, 36h, 53h, 69h.
    pub(crate) fn int21_disk(&mut self, diag: &mut Diagnostics, m: &mut Machine, ah: u8) -> Flow {
        let free = self.sync_free_clusters(m);
        match ah {
            0x1B | 0x1C => {
                let dl = if ah == 0x1B { 0 } else { m.dl() };
                if is_c(dl) {
                    m.set_al(SECTORS_PER_CLUSTER);
                    m.set_cx(BYTES_PER_SECTOR);
                    m.set_dx(CLUSTERS);
                    m.set_ds(DOS_SEG);
                    m.set_bx(dosdata::DPB_OFF + 0x17);
                } else {
                    self.ext_error = crate::drive::ERR_DRIVE;
                    m.set_al(0xFF);
                }
            }
            0x1F | 0x32 => {
                let dl = if ah == 0x1F { 0 } else { m.dl() };
                if is_c(dl) {
                    m.set_al(0);
                    m.set_ds(DOS_SEG);
                    m.set_bx(dosdata::DPB_OFF);
                } else {
                    self.ext_error = crate::drive::ERR_DRIVE;
                    m.set_al(0xFF);
                }
            }
            0x36 => {
                let d = match m.dl() {
                    0 => self.drive.current(),
                    n => n - 1,
                };
                if d >= 3 && self.drive.exists(d) {
                    // A CD-ROM: 2048-byte sectors, one a cluster, none
                    // free (as MSCDEX answers).
                    m.set_ax(1);
                    m.set_bx(0);
                    m.set_cx(2048);
                    m.set_dx(self.drive.blocks(d).min(0xFFFF) as u16);
                } else if d == 2 {
                    m.set_ax(SECTORS_PER_CLUSTER as u16);
                    m.set_bx(free);
                    m.set_cx(BYTES_PER_SECTOR);
                    m.set_dx(CLUSTERS);
                } else {
                    m.set_ax(0xFFFF);
                }
            }
            0x53 => {
                // Translate a BPB at DS:SI into a DPB at ES:BP (the drive
                // and unit bytes and the device header are not set).
                let (ds, si, es) = (m.ds(), m.si(), m.es());
                let bp = m.bp();
                let b = mem::read_bytes(m, ds, si, 25);
                let dpb = dpb_from_bpb(&b);
                write_bytes(m, es, bp.wrapping_add(2), &dpb[2..0x13]);
                mem::wr8(m, lin(es, bp.wrapping_add(0x17)), dpb[0x17]);
                mem::wr8(m, lin(es, bp.wrapping_add(0x18)), 0xFF);
            }
            0x69 => {
                let (al, bl) = (m.al(), m.bl());
                if !is_c(bl) {
                    self.fail(m, crate::drive::ERR_DRIVE);
                } else if al == 0 {
                    let (ds, dx) = (m.ds(), m.dx());
                    write_bytes(m, ds, dx, &media_id());
                    mem::set_cf(m, false);
                } else if al == 1 {
                    // The folder has no boot sector to write a serial to.
                    self.fail(m, crate::drive::ERR_ACCESS);
                } else {
                    diag.unimplemented(0x21, 0x69, al);
                    self.fail(m, 1);
                }
            }
            _ => unreachable!("dispatched by int21"),
        }
        Flow::Continue
    }

    /// IOCTL 440Dh (generic block device request) for drive C: with CL
    /// the minor code and DS:DX the parameter block (category CH = 08h,
    /// disk). Returns the result for AX or a DOS error.
    pub(crate) fn generic_ioctl_disk(
        &mut self,
        diag: &mut Diagnostics,
        m: &mut Machine,
    ) -> Result<u16, u16> {
        let (ch, cl) = (m.ch(), m.cl());
        let (ds, dx) = (m.ds(), m.dx());
        if ch != 0x08 && ch != 0x48 {
            return Err(1);
        }
        match cl {
            // Get device parameters: fixed disk, non-removable.
            0x60 => {
                let mut p = vec![
                    mem::rd8(m, lin(ds, dx)), // special functions (kept)
                    0x05,                     // fixed disk
                ];
                p.extend(1u16.to_le_bytes()); // not removable
                p.extend(cylinders().to_le_bytes());
                p.push(0);
                p.extend(bpb());
                write_bytes(m, ds, dx, &p);
                Ok(m.ax())
            }
            // Set device parameters: accepted (nothing to change).
            0x40 => Ok(m.ax()),
            // Get media ID.
            0x66 => {
                write_bytes(m, ds, dx, &media_id());
                Ok(m.ax())
            }
            // Set media ID: no boot sector behind the folder.
            0x46 => Err(crate::drive::ERR_ACCESS),
            // Get access flag: access allowed; set: accepted.
            0x67 => {
                mem::wr8(m, lin(ds, dx.wrapping_add(1)), 1);
                Ok(m.ax())
            }
            0x47 => Ok(m.ax()),
            // Sense media type: for floppies only (MS-DOS 5 answers
            // invalid function for a fixed disk).
            0x68 => Err(1),
            _ => {
                diag.unimplemented(0x21, 0x44, 0x0D);
                Err(1)
            }
        }
    }
}
