//! What a program sees at its first instruction, in both DOS layouts
//! (docs/dos.md, "The PC at start-up"): FLAGS and the registers, the
//! PSP's top of memory, parent and job file table, the environment, the
//! MCB at the top of memory and the memory chain up to the program.
//! `roms/dos/startup.com` and `startup.exe` report them from inside the
//! guest; the tests compare each report line with the reference:
//! MS-DOS 6.22's as docs/dos.md derives it, and DOSBox 0.74's as measured
//! there (`startup.com OUT.TXT` in DOSBox, BLASTER aside: DOSBox's card
//! is on IRQ 7, tandem's on IRQ 5).

mod common;

use dos::mem::{lin, rd8};
use dos::{Dos, Exit};
use emu::CpuModel;
use hw::{DosLayout, Machine, MachineConfig};

/// Runs `program` (startup.com or startup.exe) with `tail` under
/// `layout` on `model`, a Sound Blaster 16 fitted; its report, DOS and
/// machine.
fn run(model: CpuModel, layout: DosLayout, program: &str, tail: &str) -> (String, Dos, Machine) {
    let mount = common::temp_dir(&format!("startup-{model:?}-{layout:?}-{program}"));
    let image = std::fs::read(common::roms_dir().join("dos").join(program))
        .unwrap_or_else(|_| panic!("roms/dos/{program} (build with roms/build.sh)"));
    let mut cfg = MachineConfig::with_cpu(model, common::HZ);
    cfg.dos_layout = layout;
    cfg.sb16 = Some(hw::Sb16Config::default());
    let mut m = Machine::new(cfg);
    let mut dos = Dos::new(dos::DosConfig::new(mount.clone())).expect("mount");
    dos.install(&mut m);
    let name = program.to_ascii_uppercase();
    dos.load(&mut m, &image, &format!("C:\\{name}"), tail.as_bytes())
        .expect("loads");
    let mut s = dos::Session::new(m, dos);
    let exit = s.run_for(common::HZ);
    let out = String::from_utf8_lossy(&s.dos.take_output()).into_owned();
    assert_eq!(exit, Exit::Exited(0), "{out}");
    let text = if tail.is_empty() {
        out
    } else {
        std::fs::read_to_string(mount.join(tail.trim())).expect("the report file")
    };
    let _ = std::fs::remove_dir_all(&mount);
    (text.replace("\r\n", "\n"), s.dos, s.m)
}

/// MS-DOS 6.22 with HIMEM.SYS and DOS=HIGH (docs/dos.md): the system
/// data block at 029Dh, COMMAND.COM at 03D7h with its 256-byte
/// environment, free memory from 04AAh; the program's 102-byte
/// environment (7 paragraphs) and then its PSP at 04B3h, its block up
/// to A000h. `{FL}` is FLAGS on the CPU, `{X}` COM or EXE, `{REGS}` the
/// registers the program's header gives.
const MSDOS: &str = "\
FL={FL} AX=0000 BX=0000 CX=00FF DX=04B3 {REGS}
TOP=A000 PARENT=03D7 ENV=04AB PENV=049A
JFT=01 01 01 00 02 FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF 
E=COMSPEC=C:\\COMMAND.COM
E=PROMPT=$p$g
E=PATH=C:\\DOS
E=TEMP=C:\\DOS
E=BLASTER=A220 I5 D1 H5 T6
WORD=0001
PROG=C:\\STARTUP.{X}
MCB=029D
BLK=029D 4D 0008 0138
BLK=03D6 4D 03D7 00C2
BLK=0499 4D 03D7 0010
BLK=04AA 4D 04B3 0007
BLK=04B2 5A 04B3 9B4D
";

/// DOSBox 0.74, as measured (docs/dos.md).
const DOSBOX: &str = "\
FL={FL} AX=0000 BX=0000 CX=00FF DX=0192 {REGS}
TOP=9FFF PARENT=0118 ENV=0188 PENV=012B
JFT=01 01 01 00 02 FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF 
TOPMCB=4D 08 00 00 30 00 00 00 53 43 20 20 20 20 20 20 
E=PATH=Z:\\
E=COMSPEC=Z:\\COMMAND.COM
E=BLASTER=A220 I5 D1 H5 T6
WORD=0001
PROG=C:\\STARTUP.{X}
MCB=016F
BLK=016F 4D 0008 0001
BLK=0171 4D 0000 0004
BLK=0176 4D 0040 0010
BLK=0187 4D 0192 0009
BLK=0191 5A 0192 9E6D
";

/// The registers after DX as the reference has them: SI = IP, DI = SP,
/// BP = 091Ch; a COM program in its PSP's segment with SP at its top, the
/// EXE in its load segment (PSP + 10h) with its header's stack (0C00h).
fn regs(psp: u16, exe: bool) -> String {
    if exe {
        let cs = psp + 0x10;
        format!("SI=0000 DI=0C00 BP=091C SP=0C00 CS={cs:04X} DS={psp:04X} ES={psp:04X} SS={cs:04X}")
    } else {
        format!(
            "SI=0100 DI=FFFE BP=091C SP=FFFE CS={psp:04X} DS={psp:04X} ES={psp:04X} SS={psp:04X}"
        )
    }
}

/// Compares `text` with `reference`, line by line, naming the first line
/// that differs.
fn check(text: &str, reference: &str, what: &str) {
    let got: Vec<&str> = text.lines().collect();
    let want: Vec<&str> = reference.lines().collect();
    for (i, w) in want.iter().enumerate() {
        assert_eq!(
            got.get(i).copied(),
            Some(*w),
            "{what}, line {}:\n{text}",
            i + 1
        );
    }
    assert_eq!(got.len(), want.len(), "{what}: extra lines\n{text}");
}

#[test]
fn ms_dos_6_22_hands_a_com_and_an_exe_what_it_documents_on_every_cpu() {
    for (model, flags) in [
        (CpuModel::I8086, "F246"),
        (CpuModel::I286, "0246"),
        (CpuModel::I386, "0246"),
        (CpuModel::I486, "0246"),
    ] {
        for (program, x) in [("startup.com", "COM"), ("startup.exe", "EXE")] {
            let (text, _, _) = run(model, DosLayout::MsDos, program, "");
            let reference = MSDOS
                .replace("{FL}", flags)
                .replace("{X}", x)
                .replace("{REGS}", &regs(0x04B3, x == "EXE"));
            check(&text, &reference, &format!("msdos {model:?} {program}"));
        }
    }
}

#[test]
fn the_dosbox_layout_hands_over_what_dosbox_0_74_does() {
    // FLAGS 7202h: IOPL 3 and NT, which the 8086 and the 286 in real
    // mode cannot hold (the 8086's bits 12-15 read as ones).
    for (model, flags) in [
        (CpuModel::I8086, "F202"),
        (CpuModel::I286, "0202"),
        (CpuModel::I386, "7202"),
        (CpuModel::I486, "7202"),
    ] {
        for (program, x) in [("startup.com", "COM"), ("startup.exe", "EXE")] {
            let (text, _, _) = run(model, DosLayout::DosBox, program, "");
            let reference = DOSBOX
                .replace("{FL}", flags)
                .replace("{X}", x)
                .replace("{REGS}", &regs(0x0192, x == "EXE"));
            check(&text, &reference, &format!("dosbox {model:?} {program}"));
        }
    }
}

#[test]
fn a_report_written_to_a_file_shows_the_jft_before_it_opened_it() {
    for layout in [DosLayout::MsDos, DosLayout::DosBox] {
        let (to_con, _, _) = run(CpuModel::I386, layout, "startup.com", "");
        let (to_file, dos, mut m) = run(CpuModel::I386, layout, "startup.com", " REPORT.TXT");
        // The argument is a valid file name (AL = 0, as without one);
        // nothing the program reports changes with it.
        assert_eq!(to_con, to_file);
        // Back at the shell, its own handles are untouched: 01 01 01 00 02.
        let shell = dos.current_psp();
        let jft: Vec<u8> = (0..5).map(|i| rd8(&mut m, lin(shell, 0x18 + i))).collect();
        assert_eq!(jft, [1, 1, 1, 0, 2]);
    }
}
