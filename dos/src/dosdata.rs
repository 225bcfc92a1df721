//! DOS's own data in guest memory (segment [`DOS_SEG`]): what programs
//! find when they look inside DOS rather than call it.
//!
//! | offset | what |
//! |---|---|
//! | 000Fh, 0010h | critical-error flag, InDOS flag (INT 21h 34h; start of the swappable data area, 5D06h) |
//! | 0024h | segment of the first MCB (the word before the List of Lists) |
//! | 0026h | List of Lists (INT 21h 52h): first DPB, SFT, CLOCK$ and CON headers, bytes per sector, block devices, LASTDRIVE, the NUL device header at +22h, boot drive at +43h |
//! | 0090h | CP/M entry (`CALL 5`): rebuilds the caller's near call as an INT 21h frame, AH = CL |
//! | 00B0h | the country case-map routine (INT 21h 38h, 6501h): far call, AL >= 80h upper-cased |
//! | 00C2h | the CON driver's held scan code (MS-DOS's ALTAH): an extended key read through DOS gives 00h, then this byte |
//! | 0100h | device headers CON, AUX, PRN, CLOCK$ and drive C:'s block driver |
//! | 015Ch | an empty system file table header |
//! | 0170h | drive C:'s Drive Parameter Block (INT 21h 1Fh/32h) |
//! | 0200h-0453h | country tables for INT 21h 65h: upper case, file-name upper case, file-name terminators, collating sequence, DBCS |
//! | 0460h-0617h | the Current Directory Structure (List of Lists +16h): A: to E:, only C: valid, its path kept current |
//!
//! The CP/M `CALL 5` entry is a far jump at 0000:00C0h (the INT 30h/31h
//! vector slots, "not a vector" in Ralf Brown's list) that the PSP's
//! `CALL F01D:FEF0` reaches with A20 off; a copy at FFFF:00D0 (the same
//! address with A20 on) serves programs that enable A20.

use hw::Machine;

use crate::geometry;
use crate::mem::{lin, wr16, wr8, write_bytes};

/// Segment of DOS's own data (List of Lists, InDOS flag).
pub const DOS_SEG: u16 = 0x0060;
/// Offset of the List of Lists in [`DOS_SEG`] (the first MCB's segment is
/// the word before it).
pub const LOL_OFF: u16 = 0x0026;
/// Offset of the InDOS flag in [`DOS_SEG`] (the critical-error flag is the
/// byte before it).
pub const INDOS_OFF: u16 = 0x0010;
/// Segment of the first MCB.
pub const FIRST_MCB: u16 = 0x0100;

/// The CP/M entry code.
pub const CPM_OFF: u16 = 0x0090;
/// The case-map routine.
pub const CASEMAP_OFF: u16 = 0x00B0;
/// A RETF, the strategy and interrupt entry of DOS's device headers.
const DEV_RET: u16 = 0x00C0;
/// The CON driver's held byte (ALTAH in MS-DOS's MSCON.ASM): the scan
/// code of an extended key whose 00h a read returned, for the next read.
/// In guest memory as in MS-DOS (its BIOS data), so it is part of the
/// machine's state and of a save state.
pub const ALTAH_OFF: u16 = 0x00C2;
/// Device headers.
const CON_OFF: u16 = 0x0100;
const AUX_OFF: u16 = 0x0112;
const PRN_OFF: u16 = 0x0124;
const CLOCK_OFF: u16 = 0x0136;
const DISK_OFF: u16 = 0x0148;
/// The Current Directory Structure: one 58h-byte entry per drive letter
/// up to LASTDRIVE.
pub const CDS_OFF: u16 = 0x0460;
/// Bytes per CDS entry (DOS 4+).
const CDS_ENTRY: u16 = 0x58;
/// The NUL device header inside the List of Lists.
const NUL_OFF: u16 = LOL_OFF + 0x22;
/// An empty system file table header.
const SFT_OFF: u16 = 0x015C;
/// Drive C:'s DPB.
pub const DPB_OFF: u16 = 0x0170;
/// 65h 02h: upper-case table (word 128, then characters 80h-FFh).
pub const UPPER_OFF: u16 = 0x0200;
/// 65h 04h: file-name upper-case table.
pub const FUPPER_OFF: u16 = 0x0290;
/// 65h 05h: file-name terminator table.
pub const TERM_OFF: u16 = 0x0320;
/// 65h 06h: collating sequence (word 256, then 256 weights).
pub const COLLATE_OFF: u16 = 0x0340;
/// 65h 07h: DBCS lead-byte table (word length 0, then the 0000h end);
/// INT 21h 63h points past the length word.
pub const DBCS_OFF: u16 = 0x0450;

/// Code page 437's upper case of 80h-FFh as MS-DOS's country 001 table has
/// it: accented vowels without a capital in the code page map to the
/// plain ASCII capital.
pub fn upper_437(c: u8) -> u8 {
    match c {
        b'a'..=b'z' => c - 0x20,
        0x81 => 0x9A,
        0x82 => 0x90,
        0x83 | 0x85 | 0xA0 => b'A',
        0x84 => 0x8E,
        0x86 => 0x8F,
        0x87 => 0x80,
        0x88..=0x8A => b'E',
        0x8B..=0x8D | 0xA1 => b'I',
        0x91 => 0x92,
        0x93 | 0x95 | 0xA2 => b'O',
        0x94 => 0x99,
        0x96 | 0x97 | 0xA3 => b'U',
        0x98 => b'Y',
        0xA4 => 0xA5,
        _ => c,
    }
}

/// The collating weight of a character: letters of either case and their
/// accented forms sort with the plain capital, everything else by value.
fn collate_437(c: u8) -> u8 {
    let u = upper_437(c);
    match u {
        0x80 => b'C',
        0x8E | 0x8F => b'A',
        0x90 => b'E',
        0x92 => b'A',
        0x99 => b'O',
        0x9A => b'U',
        0xA5 => b'N',
        _ => u,
    }
}

/// Characters that end a file name (the file-name terminator table).
pub const TERMINATORS: &[u8] = b".\"/\\[]:|<>+=;,";

fn device(m: &mut Machine, off: u16, next: (u16, u16), attr: u16, name: &[u8; 8]) {
    let a = lin(DOS_SEG, off);
    wr16(m, a, next.1);
    wr16(m, a + 2, next.0);
    wr16(m, a + 4, attr);
    wr16(m, a + 6, DEV_RET);
    wr16(m, a + 8, DEV_RET);
    write_bytes(m, DOS_SEG, off + 10, name);
}

/// Writes DOS's data: List of Lists, device chain, DPB, country tables,
/// the CP/M entry and the case-map routine.
pub fn install(m: &mut Machine, ems: bool) {
    write_bytes(m, DOS_SEG, 0, &[0; 0x620]);
    list_of_lists(m);
    devices(m, ems);
    write_bytes(m, DOS_SEG, DPB_OFF, &geometry::dpb((DOS_SEG, DISK_OFF)));
    cpm_entry(m);
    case_map(m);
    country_tables(m);
    current_directories(m);
}

/// Writes the first MCB's segment, the word before the List of Lists
/// (the DOS layout's: [`crate::layout`]).
pub fn set_first_mcb(m: &mut Machine, seg: u16) {
    wr16(m, lin(DOS_SEG, LOL_OFF - 2), seg);
}

/// The List of Lists (INT 21h 52h) and the first MCB's segment before it.
fn list_of_lists(m: &mut Machine) {
    wr16(m, lin(DOS_SEG, LOL_OFF - 2), FIRST_MCB);
    let lol = |k: u16| lin(DOS_SEG, LOL_OFF + k);
    // First DPB, first SFT, CLOCK$ and CON.
    for (k, off) in [(0, DPB_OFF), (4, SFT_OFF), (8, CLOCK_OFF), (0x0C, CON_OFF)] {
        let a = lol(k);
        wr16(m, a, off);
        wr16(m, a + 2, DOS_SEG);
    }
    wr16(m, lol(0x10), geometry::BYTES_PER_SECTOR);
    wr16(m, lol(0x16), CDS_OFF);
    wr16(m, lol(0x18), DOS_SEG);
    // No disk buffers or FCB table to show: null pointers.
    wr8(m, lol(0x20), 3); // block devices (A:, B:, C:)
    wr8(m, lol(0x21), geometry::LASTDRIVE);
    // Boot drive C:; 1: DOS may move doublewords (a 386 or later).
    wr8(m, lol(0x43), 3);
    wr8(m, lol(0x44), m.cpu.model.caps().has_32bit_operands as u8);
    wr16(m, lol(0x45), m.config().extended_kib.min(0xFFFF) as u16);
}

/// The device chain: NUL, the EMM (its header at the INT 67h segment),
/// CON, AUX, PRN, CLOCK$, drive C:; and an empty SFT header.
fn devices(m: &mut Machine, ems: bool) {
    let after_nul = if ems {
        (crate::rom::EMS_SEG, 0)
    } else {
        (DOS_SEG, CON_OFF)
    };
    device(m, NUL_OFF, after_nul, 0x8004, b"NUL     ");
    if ems {
        // The header's name is already in ROM at FDF0:000Ah; its entries
        // point at the ROM's RETF (F000:E4F0 = FDF0:05F0).
        let base = (crate::rom::EMS_SEG as u32) << 4;
        let retf = (((crate::rom::SEG as u32) << 4) + crate::rom::RETF as u32 - base) as u16;
        let mut h = Vec::new();
        for w in [CON_OFF, DOS_SEG, 0xC000, retf, retf] {
            h.extend(w.to_le_bytes());
        }
        m.bus.mem.write_image(base, &h);
    }
    device(m, CON_OFF, (DOS_SEG, AUX_OFF), 0x8013, b"CON     ");
    device(m, AUX_OFF, (DOS_SEG, PRN_OFF), 0x8000, b"AUX     ");
    device(m, PRN_OFF, (DOS_SEG, CLOCK_OFF), 0xA0C0, b"PRN     ");
    device(m, CLOCK_OFF, (DOS_SEG, DISK_OFF), 0x8008, b"CLOCK$  ");
    device(m, DISK_OFF, (0xFFFF, 0xFFFF), 0x0842, b"\x01\0\0\0\0\0\0\0");
    wr8(m, lin(DOS_SEG, DEV_RET), 0xCB);
    // An empty SFT: no next table, no entries shown (tandem's SFT is its
    // own).
    write_bytes(m, DOS_SEG, SFT_OFF, &[0xFF, 0xFF, 0xFF, 0xFF, 0, 0]);
}

/// The CP/M entry: the stack holds the far return into the PSP (from its
/// CALL at 05h) above the program's near return; make it an INT frame
/// (near return IP, the PSP's CS, FLAGS) and enter INT 21h's service with
/// AH = CL. Functions above 24h return AL = 0 (MS-DOS's rule).
fn cpm_entry(m: &mut Machine) {
    let vec21 = crate::rom::VEC_BASE + 0x21;
    let mut c = vec![
        0x55, // push bp
        0x8B, 0xEC, // mov bp,sp
        0x50, // push ax
        0x8B, 0x46, 0x06, // mov ax,[bp+6]
        0x89, 0x46, 0x02, // mov [bp+2],ax
        0x9C, 0x58, // pushf; pop ax
        0x89, 0x46, 0x06, // mov [bp+6],ax
        0x58, 0x5D, // pop ax; pop bp
        0x80, 0xF9, 0x24, // cmp cl,24h
        0x77, 0x07, // ja bad
        0x8A, 0xE1, // mov ah,cl
        0xEA, // jmp far F000:E021
    ];
    c.extend(vec21.to_le_bytes());
    c.extend(crate::rom::SEG.to_le_bytes());
    c.extend([0xB0, 0x00, 0xCF]); // bad: mov al,0; iret
    write_bytes(m, DOS_SEG, CPM_OFF, &c);
    // The far jump at 0000:00C0 (and its A20-on twin in the HMA).
    let mut jmp = vec![0xEA];
    jmp.extend(CPM_OFF.to_le_bytes());
    jmp.extend(DOS_SEG.to_le_bytes());
    m.bus.mem.write_image(0xC0, &jmp);
    if m.config().extended_kib >= 64 {
        m.bus.mem.write_image(0x10_00C0, &jmp);
    }
}

/// The case map: a far routine, AL >= 80h through the upper-case table.
fn case_map(m: &mut Machine) {
    let table = (UPPER_OFF + 2).wrapping_sub(0x80);
    let mut c = vec![0x3C, 0x80, 0x72, 0x0D, 0x53, 0x1E, 0xBB];
    c.extend(DOS_SEG.to_le_bytes());
    c.extend([0x8E, 0xDB, 0xBB]);
    c.extend(table.to_le_bytes());
    c.extend([0xD7, 0x1F, 0x5B, 0xCB]);
    write_bytes(m, DOS_SEG, CASEMAP_OFF, &c);
}

/// The country tables (country 001, code page 437).
fn country_tables(m: &mut Machine) {
    let upper: Vec<u8> = (0x80..=0xFFu8).map(upper_437).collect();
    for off in [UPPER_OFF, FUPPER_OFF] {
        wr16(m, lin(DOS_SEG, off), 0x80);
        write_bytes(m, DOS_SEG, off + 2, &upper);
    }
    // Terminators: size, then "01h, lowest 00h, highest FFh, 00h, first
    // excluded 00h, last excluded 20h, 02h, count, characters".
    let mut t = vec![1, 0x00, 0xFF, 0, 0x00, 0x20, 2, TERMINATORS.len() as u8];
    t.extend(TERMINATORS);
    wr16(m, lin(DOS_SEG, TERM_OFF), t.len() as u16);
    write_bytes(m, DOS_SEG, TERM_OFF + 2, &t);
    let coll: Vec<u8> = (0..=0xFFu8).map(collate_437).collect();
    wr16(m, lin(DOS_SEG, COLLATE_OFF), 0x100);
    write_bytes(m, DOS_SEG, COLLATE_OFF + 2, &coll);
    write_bytes(m, DOS_SEG, DBCS_OFF, &[0, 0, 0, 0]);
}

/// The CDS: every letter up to LASTDRIVE has an entry with its root as
/// path; only C: is a valid physical drive with a DPB.
fn current_directories(m: &mut Machine) {
    for d in 0..geometry::LASTDRIVE as u16 {
        let off = CDS_OFF + d * CDS_ENTRY;
        write_bytes(m, DOS_SEG, off, &[b'A' + d as u8, b':', b'\\', 0]);
        wr16(m, lin(DOS_SEG, off + 0x49), 0xFFFF);
        wr16(m, lin(DOS_SEG, off + 0x4B), 0xFFFF);
        wr16(m, lin(DOS_SEG, off + 0x4D), 0xFFFF);
        wr16(m, lin(DOS_SEG, off + 0x4F), 2);
    }
    let c = CDS_OFF + 2 * CDS_ENTRY;
    wr16(m, lin(DOS_SEG, c + 0x43), 0x4000);
    wr16(m, lin(DOS_SEG, c + 0x45), DPB_OFF);
    wr16(m, lin(DOS_SEG, c + 0x47), DOS_SEG);
}

/// The device chain's last header (drive C:'s), whose next pointer a
/// driver installed later (MSCDEX's) takes.
pub const CHAIN_END: u16 = DISK_OFF;

/// Marks the CDS entries of `n` CD-ROM drives from D: on as MSCDEX does:
/// network (redirected) and physical, no DPB.
pub fn cd_drives(m: &mut Machine, n: u8) {
    for d in 3..(3 + u16::from(n)).min(geometry::LASTDRIVE as u16) {
        let off = CDS_OFF + d * CDS_ENTRY;
        wr16(m, lin(DOS_SEG, off + 0x43), 0xC080);
    }
}

/// Writes drive C:'s free clusters into its DPB (INT 21h 1Fh/32h and the
/// List of Lists show it).
pub fn set_free_clusters(m: &mut Machine, free: u16) {
    wr16(m, lin(DOS_SEG, DPB_OFF + geometry::DPB_FREE), free);
}

/// Writes drive C:'s current directory (`cwd`: components without the
/// drive, INT 21h 47h's form) into its CDS entry.
pub fn set_current_dir(m: &mut Machine, cwd: &str) {
    let off = CDS_OFF + 2 * CDS_ENTRY;
    let mut path = format!("C:\\{cwd}").into_bytes();
    path.truncate(66);
    path.push(0);
    write_bytes(m, DOS_SEG, off, &path);
    // The starting cluster: 0 for the root, otherwise unknown.
    wr16(
        m,
        lin(DOS_SEG, off + 0x49),
        if cwd.is_empty() { 0 } else { 0xFFFF },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_page_437_upper_case() {
        assert_eq!(upper_437(b'a'), b'A');
        assert_eq!(upper_437(0x81), 0x9A); // u-umlaut
        assert_eq!(upper_437(0x85), b'A'); // a-grave
        assert_eq!(upper_437(0xA4), 0xA5); // n-tilde
        assert_eq!(upper_437(0xE1), 0xE1); // sharp s stays
        assert_eq!(collate_437(0x84), b'A');
        assert_eq!(collate_437(b'z'), b'Z');
    }
}
