//! Code that patches itself runs exactly as if every instruction were
//! decoded afresh from memory, whatever the CPU keeps decoded
//! (`emu`'s decode cache): a loop rewrites the immediate of an instruction
//! it has already run and the opcode of the instruction right after the
//! writer, on each CPU model.

use emu::CpuModel;
use hw::{Machine, MachineConfig};

/// At 1000:0100, with DS = CS.
#[rustfmt::skip]
const PROGRAM: &[u8] = &[
    0x31, 0xC0,                   // 100: xor ax, ax
    0x31, 0xDB,                   // 102: xor bx, bx
    0xB9, 0x03, 0x00,             // 104: mov cx, 3
    0x81, 0xC3, 0x01, 0x00,       // 107: add bx, 1 (immediate at 109h)
    0xFF, 0x06, 0x09, 0x01,       // 10B: inc word [109h]: the ADD adds one more each pass
    0xC6, 0x06, 0x14, 0x01, 0x40, // 10F: mov byte [114h], 40h: the next instruction becomes INC AX
    0x90,                         // 114: nop, rewritten before it first runs
    0xE2, 0xF0,                   // 115: loop 107h
    0xE6, 0xE9,                   // 117: out E9h, al (INC AX ran 3 times)
    0x88, 0xD8,                   // 119: mov al, bl
    0xE6, 0xE9,                   // 11B: out E9h, al (1 + 2 + 3)
    0xFA, 0xF4,                   // 11D: cli; hlt
];

#[test]
fn patched_instructions_run_as_written_on_every_model() {
    for (model, hz) in [
        (CpuModel::I8086, 4_772_727),
        (CpuModel::I286, 12_000_000),
        (CpuModel::I386, 33_000_000),
    ] {
        let mut m = Machine::new(MachineConfig::with_cpu(model, hz));
        m.load_com(PROGRAM, 0x1000).expect("program loads");
        m.run_to_halt(10_000_000).expect("program halts");
        assert_eq!(m.debug_output(), &[3, 6], "{model:?}");
        // The patched bytes are in memory as the program left them.
        assert_eq!(m.peek8(0x10109), 4, "{model:?}");
        assert_eq!(m.peek8(0x10114), 0x40, "{model:?}");
    }
}
