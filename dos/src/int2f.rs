//! INT 2Fh, the multiplex interrupt, answered as MS-DOS 5/6 with HIMEM.SYS
//! and nothing else loaded (no Windows, SHARE, ANSI.SYS, DOSKEY, APPEND,
//! PRINT, MSCDEX, network redirector or DPMI host).
//!
//! An installation check (AL = 00h) of a multiplex number nobody owns
//! comes back with AL = 00h, "not installed", as from DOS's own handler
//! at the end of the chain; so do the Windows checks (1600h AL = 00h: no
//! enhanced mode; 1680h keeps AL = 80h: idle not supported; 1687h keeps
//! AX: no DPMI; 4A10h keeps AX: no SMARTDRV; 4A11h: no DBLSPACE). XMS
//! (4300h/4310h) and DOS's HMA services (4A01h/4A02h) are answered; DOS's
//! internal services (12h, other than the installation check) are
//! reported through [`Diagnostics::unimplemented`].

use hw::Machine;

use crate::diag::Diagnostics;
use crate::mem::Regs;
use crate::rom;

/// Services INT 2Fh; `xms` says HIMEM.SYS is loaded.
pub fn service(xms: bool, diag: &mut Diagnostics, m: &mut Machine) {
    let (ah, al) = (m.ah(), m.al());
    match (ah, al) {
        (0x43, 0x00) if xms => m.set_al(0x80),
        (0x43, 0x10) if xms => {
            m.set_es(rom::SEG);
            m.set_bx(rom::XMS_ENTRY);
        }
        // Without XMS (the 8086): HIMEM.SYS is not there.
        (0x43, 0x00 | 0x10) => {}
        // HMA space DOS manages: none with DOS=LOW (HIMEM owns the
        // HMA): BX = 0, ES:DI = FFFF:FFFF.
        (0x4A, 0x01 | 0x02) => {
            m.set_bx(0);
            m.set_es(0xFFFF);
            m.cpu.regs.set_reg16(emu::Reg16::DI, 0xFFFF);
        }
        // DOS internal services: 1200h installation check AL = FFh.
        (0x12, 0x00) => m.set_al(0xFF),
        // MSCDEX: no CD-ROM drives (BX = 0).
        (0x15, 0x00) => m.set_bx(0),
        // DOS's internal services (1201h-12FFh) are not provided.
        (0x12, _) => diag.unimplemented(0x2F, ah, al),
        // Everything else: nobody installed, registers unchanged (AL =
        // 00h stays "not installed").
        _ => {}
    }
}
