//! The PC at start-up: where DOS's own blocks, COMMAND.COM and the first
//! program are, the shell's environment and FLAGS at the entry, for the
//! two layouts of [`DosLayout`] (docs/dos.md, "The PC at start-up").
//!
//! - [`DosLayout::MsDos`]: MS-DOS 6.22 on a PC with HIMEM.SYS and
//!   DOS=HIGH, as its SETUP leaves CONFIG.SYS (`DEVICE=C:\DOS\SETVER.EXE`,
//!   `DEVICE=C:\DOS\HIMEM.SYS`, `DOS=HIGH`, `FILES=30`) and AUTOEXEC.BAT
//!   (`PROMPT $p$g`, `PATH C:\DOS`, `SET TEMP=C:\DOS`). DOS's data below
//!   the first MCB, then the system data block ('SD', owner 0008h) with
//!   its sub-blocks (the two drivers, FILES, FCBS, LASTDRIVE, STACKS),
//!   COMMAND.COM's resident part and its 256-byte environment, then free
//!   memory up to A000h.
//! - [`DosLayout::DosBox`]: DOSBox 0.74 as measured with
//!   `roms/dos/startup.com` in it: COMMAND.COM at 0118h below the first
//!   MCB (016Fh), DOSBox's three small blocks, the program at 0192h, the
//!   arena ending at 9FFFh where DOSBox keeps an 'SC' MCB.

use hw::{DosLayout, Machine};

use crate::mcb::{self, Arena, Strategy, OWNER_DOS};
use crate::mem::{lin, wr16, wr8, write_bytes};

/// The first MCB of the MS-DOS 6.22 layout: what is below it is DOS's
/// data (the BIOS's and DOS's data areas, IO.SYS's drivers, MSDOS.SYS's
/// tables), so that free memory starts at [`MSDOS_FREE`].
pub const MSDOS_FIRST_MCB: u16 = MSDOS_FREE - SD_PARAS - 1 - (COMMAND_PARAS + 1) - (0x10 + 1);

/// Where free memory starts under MS-DOS 6.22 with this CONFIG.SYS: 17
/// KiB (0440h paragraphs) used by MS-DOS 5 with DOS=HIGH and HIMEM alone
/// (Microsoft KB Q64526), plus SETVER's 400 bytes and 22 more file
/// handles (59 bytes each) of FILES=30 over the default 8.
pub const MSDOS_FREE: u16 = 0x0440 + 0x19 + 0x51;

/// COMMAND.COM's resident part: 3,392 bytes with its environment and the
/// two MCBs (MEM /C of MS-DOS 6) less the 256-byte environment.
const COMMAND_PARAS: u16 = 0xC2;

/// The system data block's sub-blocks (DOS 5+): type, name, paragraphs.
/// HIMEM 1,072 and SETVER 400 bytes with their sub-MCBs (MEM /C of
/// MS-DOS 6); FILES=30 less the 5 handles in DOS's own table: 25 entries
/// of 59 bytes and a 6-byte header; FCBS=4 likewise; LASTDRIVE=E: five
/// 88-byte current directory entries; STACKS=9,128 (an AT's default):
/// nine 128-byte stacks and their table. BUFFERS go to the HMA with
/// DOS=HIGH.
const SD_SUBS: [(u8, &[u8], u16); 6] = [
    (b'D', b"HIMEM", 0x42),
    (b'D', b"SETVER", 0x18),
    (b'F', b"", 0x5D),
    (b'X', b"", 0x10),
    (b'L', b"", 0x1C),
    (b'S', b"", 0x4F),
];

/// The system data block's size: its sub-blocks with their sub-MCBs.
const SD_PARAS: u16 = {
    let mut n = 0;
    let mut i = 0;
    while i < SD_SUBS.len() {
        n += SD_SUBS[i].2 + 1;
        i += 1;
    }
    n
};

/// DOSBox 0.74's first MCB, its shell's PSP and environment, the top of
/// its arena (measured; docs/dos.md).
pub const DOSBOX_FIRST_MCB: u16 = 0x016F;
const DOSBOX_SHELL_PSP: u16 = 0x0118;
const DOSBOX_SHELL_ENV: u16 = 0x012B;
const DOSBOX_TOP: u16 = 0x9FFF;
/// The first program's environment block in DOSBox (9 paragraphs for
/// the environment of a short path): at least this, so that its PSP is
/// at 0192h as there.
pub const DOSBOX_ENV_PARAS: u16 = 9;

/// The shell's environment strings before the sound cards' (each
/// "NAME=value"), in the order the shell's start-up sets them.
pub fn shell_strings(layout: DosLayout) -> &'static [&'static str] {
    match layout {
        // COMMAND.COM sets COMSPEC; AUTOEXEC.BAT the rest.
        DosLayout::MsDos => &[
            r"COMSPEC=C:\COMMAND.COM",
            "PROMPT=$p$g",
            r"PATH=C:\DOS",
            r"TEMP=C:\DOS",
        ],
        DosLayout::DosBox => &[r"PATH=Z:\", r"COMSPEC=Z:\COMMAND.COM"],
    }
}

/// FLAGS at a program's first instruction (before the CPU's own fixed
/// bits). MS-DOS's EXEC ends with the TEST of its "load only" bit (clear:
/// ZF and PF set), STI and a far RET to the entry (MS-DOS 2.0 and 4.0
/// source, `exec_go`), IOPL and NT 0 as the BIOS left them: 0246h.
/// DOSBox 0.74 hands over 7202h (IOPL 3, NT, IF: its CPU's own state).
pub fn entry_flags(layout: DosLayout) -> u32 {
    use emu::flags::{IF, PF, ZF};
    match layout {
        DosLayout::MsDos => IF | ZF | PF,
        DosLayout::DosBox => 0x7202,
    }
}

/// The shell the layout sets up: COMMAND.COM's PSP (and the end of its
/// block) and its environment block.
pub struct Shell {
    /// The arena, from the first MCB.
    pub arena: Arena,
    /// COMMAND.COM's PSP segment.
    pub psp: u16,
    /// The segment after its PSP's block.
    pub psp_end: u16,
    /// Its environment's segment.
    pub env: u16,
    /// Its environment's size in paragraphs.
    pub env_paras: u16,
}

/// Lays out memory below the first program: the arena from the layout's
/// first MCB up to `conv_top` (DOSBox: 9FFFh), DOS's blocks, and the
/// shell's PSP and environment block of at least `env_len` bytes (their
/// contents are the caller's).
pub fn install(m: &mut Machine, layout: DosLayout, conv_top: u16, env_len: usize) -> Shell {
    let need = (env_len as u16).div_ceil(16);
    match layout {
        DosLayout::MsDos => {
            let arena = Arena::init(m, MSDOS_FIRST_MCB, conv_top);
            let sd = alloc(m, &arena, SD_PARAS, OWNER_DOS);
            mcb::set_name(m, sd, b"SD");
            let mut at = sd;
            for (kind, name, paras) in SD_SUBS {
                sub_mcb(m, at, kind, name, paras);
                at += paras + 1;
            }
            let psp = alloc(m, &arena, COMMAND_PARAS, 0);
            mcb::set_name(m, psp, b"COMMAND");
            let env_paras = need.max(0x10);
            let env = alloc(m, &arena, env_paras, psp);
            Shell {
                arena,
                psp,
                psp_end: psp + COMMAND_PARAS,
                env,
                env_paras,
            }
        }
        DosLayout::DosBox => {
            let top = conv_top.min(DOSBOX_TOP);
            let arena = Arena::init(m, DOSBOX_FIRST_MCB, top);
            // DOSBox's blocks: one paragraph of DOS's, four free, 10h
            // owned by 0040h.
            alloc(m, &arena, 1, OWNER_DOS);
            let gap = alloc(m, &arena, 4, OWNER_DOS);
            alloc(m, &arena, 0x10, 0x0040);
            let _ = arena.free(m, gap);
            // The MCB at 9FFFh that links DOSBox's upper memory (the
            // 'Z' before it ends the chain): 'M', DOS's, 3000h
            // paragraphs, "SC".
            if top == DOSBOX_TOP {
                raw_mcb(m, DOSBOX_TOP, b'M', OWNER_DOS, 0x3000);
                write_bytes(m, DOSBOX_TOP, 8, b"SC      ");
            }
            // COMMAND.COM below the first MCB: its PSP and environment
            // with MCBs of their own, the environment up to the first MCB.
            let psp = DOSBOX_SHELL_PSP;
            raw_mcb(m, psp - 1, b'M', psp, DOSBOX_SHELL_ENV - 1 - psp);
            mcb::set_name(m, psp, b"COMMAND");
            let env_paras = DOSBOX_FIRST_MCB - DOSBOX_SHELL_ENV;
            raw_mcb(m, DOSBOX_SHELL_ENV - 1, b'M', psp, env_paras);
            Shell {
                arena,
                psp,
                psp_end: DOSBOX_SHELL_ENV - 1,
                env: DOSBOX_SHELL_ENV,
                env_paras,
            }
        }
    }
}

/// Allocates `paras` for `owner` (first fit); the arena is new, so it
/// fits.
fn alloc(m: &mut Machine, arena: &Arena, paras: u16, owner: u16) -> u16 {
    let seg = arena
        .alloc(m, paras, OWNER_DOS, Strategy::First)
        .unwrap_or(arena.first + 1);
    wr16(m, lin(seg - 1, 1), if owner == 0 { seg } else { owner });
    seg
}

/// Writes an MCB at `seg` by hand (outside the arena's chain).
fn raw_mcb(m: &mut Machine, seg: u16, kind: u8, owner: u16, size: u16) {
    wr8(m, lin(seg, 0), kind);
    wr16(m, lin(seg, 1), owner);
    wr16(m, lin(seg, 3), size);
}

/// A DOS 5+ sub-MCB inside the system data block, at `seg`: type, the
/// segment of its data as the owner, its size, the driver's name.
fn sub_mcb(m: &mut Machine, seg: u16, kind: u8, name: &[u8], paras: u16) {
    raw_mcb(m, seg, kind, seg + 1, paras);
    let mut field = [0u8; 8];
    field[..name.len()].copy_from_slice(name);
    write_bytes(m, seg, 8, &field);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ms_dos_figures_add_up() {
        // 17 KiB + SETVER + 22 handles: free memory from 04AAh.
        assert_eq!(MSDOS_FREE, 0x04AA);
        assert_eq!(SD_PARAS, 0x138);
        assert_eq!(
            MSDOS_FIRST_MCB + 1 + SD_PARAS + 1 + COMMAND_PARAS + 1 + 0x10,
            MSDOS_FREE
        );
    }
}
