//! What a program sees at its first instruction, as MS-DOS 5/6 with
//! DOS=HIGH (and DOSBox, which imitates it) hands it over: FLAGS and the
//! registers, the PSP's top of memory, parent and job file table, and the
//! memory chain up to the program. `roms/dos/startup.com` reports them
//! from inside the guest; the test reads its report.

mod common;

use std::collections::HashMap;

use dos::mem::{lin, rd16, rd8};
use dos::Exit;
use emu::CpuModel;

/// startup.com's report: each `NAME=value` field by name, and the
/// memory blocks (`BLK=segment type owner size`) in chain order.
struct Report {
    fields: HashMap<String, String>,
    blocks: Vec<(u16, u8, u16, u16)>,
}

fn hex(s: &str) -> u16 {
    u16::from_str_radix(s, 16).unwrap_or_else(|_| panic!("not hex: {s:?}"))
}

fn parse(text: &str) -> Report {
    let mut fields = HashMap::new();
    let mut blocks = Vec::new();
    for line in text.lines() {
        if let Some(b) = line.strip_prefix("BLK=") {
            let w: Vec<&str> = b.split_whitespace().collect();
            assert_eq!(w.len(), 4, "block line {line:?}");
            blocks.push((hex(w[0]), hex(w[1]) as u8, hex(w[2]), hex(w[3])));
        } else if let Some(j) = line.strip_prefix("JFT=") {
            fields.insert("JFT".to_string(), j.trim().to_string());
        } else {
            for f in line.split_whitespace() {
                let (k, v) = f.split_once('=').unwrap_or_else(|| panic!("field {f:?}"));
                fields.insert(k.to_string(), v.to_string());
            }
        }
    }
    Report { fields, blocks }
}

fn run(model: CpuModel, name: &str, tail: &str) -> (String, dos::Dos, hw::Machine) {
    let mount = common::temp_dir(name);
    let image = std::fs::read(common::roms_dir().join("dos/startup.com"))
        .expect("roms/dos/startup.com (build with roms/build.sh)");
    let (exit, out, dos, m) = common::run(model, &mount, "STARTUP.COM", &image, tail, 1);
    assert_eq!(exit, Exit::Exited(0), "{out}");
    let text = if tail.is_empty() {
        out
    } else {
        std::fs::read_to_string(mount.join(tail.trim())).expect("the report file")
    };
    let _ = std::fs::remove_dir_all(&mount);
    (text, dos, m)
}

#[test]
fn entry_registers_flags_psp_and_jft_are_ms_dos_s_on_every_cpu() {
    for (model, flags) in [
        (CpuModel::I8086, "F246"),
        (CpuModel::I286, "0246"),
        (CpuModel::I386, "0246"),
        (CpuModel::I486, "0246"),
    ] {
        let (text, _, mut m) = run(model, &format!("startup-{model:?}"), "");
        let r = parse(&text);
        let f = |k: &str| r.fields.get(k).map(String::as_str).unwrap_or("");
        // FLAGS: IF and the ZF/PF of DOS's last TEST; IOPL and NT clear
        // (the 8086's bits 12-15 read as ones).
        assert_eq!(f("FL"), flags, "{model:?}: {text}");
        // The first program's PSP at DOSBox's 0192h; SP at the top of the
        // segment; MS-DOS's BP = 091Ch, SI = IP, DI = SP, CX = 00FFh.
        let want = [
            ("AX", "0000"),
            ("BX", "0000"),
            ("CX", "00FF"),
            ("DX", "0192"),
            ("SI", "0100"),
            ("DI", "FFFE"),
            ("BP", "091C"),
            ("SP", "FFFE"),
            ("CS", "0192"),
            ("DS", "0192"),
            ("ES", "0192"),
            ("SS", "0192"),
            // 640 KiB, no upper memory linked: the block ends at A000h.
            ("TOP", "A000"),
            // CON (SFT 1) for 0-2, AUX (SFT 0) for 3, PRN (SFT 2) for 4.
            (
                "JFT",
                "01 01 01 00 02 FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF",
            ),
        ];
        for (k, v) in want {
            assert_eq!(f(k), v, "{model:?} {k}: {text}");
        }
        // The parent is COMMAND.COM's PSP, its own parent.
        let parent = hex(f("PARENT"));
        assert_eq!(rd16(&mut m, lin(parent, 0x16)), parent, "{text}");
        // The environment belongs to the program and sits right below it.
        let env = hex(f("ENV"));
        let block = r.blocks.iter().find(|b| b.0 == env - 1);
        assert_eq!(block.map(|b| (b.2, b.0 + b.3 + 1)), Some((0x0192, 0x0191)));
        check_chain(&r, &text);
    }
}

/// The chain from the first MCB (INT 21h 52h) runs unbroken to the
/// program's block, the last one, which the program owns up to A000h.
fn check_chain(r: &Report, text: &str) {
    let first = hex(&r.fields["MCB"]);
    assert_eq!(r.blocks.first().map(|b| b.0), Some(first), "{text}");
    for w in r.blocks.windows(2) {
        assert_eq!(w[0].1, b'M', "{text}");
        assert_eq!(w[0].0 + w[0].3 + 1, w[1].0, "contiguous: {text}");
    }
    let last = *r.blocks.last().expect("blocks");
    assert_eq!(last, (0x0191, b'Z', 0x0192, 0xA000 - 0x0192), "{text}");
}

#[test]
fn a_report_written_to_a_file_shows_the_jft_before_it_opened_it() {
    let (to_con, _, _) = run(CpuModel::I386, "startup-con", "");
    let (to_file, dos, mut m) = run(CpuModel::I386, "startup-file", " REPORT.TXT");
    // The argument is a valid file name (AL = 0, as without one); nothing
    // the program reports changes with it.
    assert_eq!(to_con, to_file.replace("\r\n", "\n"));
    // Back at the shell, its own handles are untouched: 01 01 01 00 02.
    let shell = dos.current_psp();
    let jft: Vec<u8> = (0..5).map(|i| rd8(&mut m, lin(shell, 0x18 + i))).collect();
    assert_eq!(jft, [1, 1, 1, 0, 2]);
}
