//! The read-only drives (CD-ROMs, D: and on): every INT 21h function that
//! would change a file or directory there fails with error 5, access
//! denied, before it runs, as MSCDEX's redirector answers (a CD-ROM is
//! never writable): make/remove directory (39h/3Ah), create (3Ch, 5Ah,
//! 5Bh), open for writing (3Dh with write access, 6Ch with write access,
//! replace, or create of a file that is not there), delete (41h), set
//! attributes (4301h), rename (56h, either name) and set a handle's time
//! (5701h). Reading needs no check. FCB services reach drive C: only.

use hw::Machine;

use crate::drive::{Drive, Resolved};
use crate::kernel::Kernel;
use crate::mem::{read_asciiz, Regs};

/// DOS error: access denied.
const ERR_ACCESS: u16 = 5;

impl Kernel {
    /// Whether the path at `seg:off` lies on a read-only drive (an invalid
    /// path is left to the function to report).
    fn path_read_only(&self, m: &mut Machine, seg: u16, off: u16) -> bool {
        let p = read_asciiz(m, seg, off, 128);
        self.drive
            .components(&p)
            .is_ok_and(|c| Drive::read_only(&c))
    }

    /// Error 5 when INT 21h function `ah` (with the guest's registers)
    /// would change a read-only drive.
    pub(crate) fn read_only_refusal(&mut self, m: &mut Machine, ah: u8) -> Option<u16> {
        let (ds, dx) = (m.ds(), m.dx());
        let refuse = match ah {
            0x39 | 0x3A | 0x3C | 0x41 | 0x5A | 0x5B => self.path_read_only(m, ds, dx),
            0x3D => m.al() & 7 != 0 && self.path_read_only(m, ds, dx),
            0x43 => m.al() == 1 && self.path_read_only(m, ds, dx),
            0x56 => {
                let (es, di) = (m.es(), m.cpu.regs.reg16(emu::Reg16::DI));
                self.path_read_only(m, ds, dx) || self.path_read_only(m, es, di)
            }
            0x6C => self.extended_open_writes(m),
            0x57 if m.al() == 1 => self
                .handle(m, m.bx())
                .ok()
                .and_then(|s| self.sft.entry(s))
                .is_some_and(|e| Drive::read_only(&e.dos)),
            _ => false,
        };
        refuse.then_some(ERR_ACCESS)
    }

    /// INT 21h 6Ch on a read-only drive asking to write, replace, or
    /// create a file that is not there.
    fn extended_open_writes(&mut self, m: &mut Machine) -> bool {
        let p = read_asciiz(m, m.ds(), m.si(), 128);
        let Ok(comps) = self.drive.components(&p) else {
            return false;
        };
        if !Drive::read_only(&comps) {
            return false;
        }
        let (access, action) = (m.bl() & 7, m.dl());
        let exists = matches!(
            self.drive.resolve(&p),
            Ok(Resolved::Path { exists: true, .. }) | Ok(Resolved::Device(_))
        );
        access != 0 || action & 0x0F == 2 || (!exists && action & 0xF0 != 0)
    }
}
