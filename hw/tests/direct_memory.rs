//! Operands read and written straight from RAM (`emu::Bus::mem_read_direct`
//! and `mem_write_direct`) give what the byte-by-byte bus path gives: the
//! same memory, registers, clocks and device time. The byte path is the
//! one a CPU with hooks set takes, so the same program runs once plain and
//! once step by step (hooks set, `common::step_by_step`). The program touches what must stay
//! on the byte path: a word across a 2 KiB page, a push across one, the
//! A20 wrap at 1 MiB (gate closed, then open), the VGA window and ROM.

mod common;

use emu::CpuModel;
use hw::{Machine, MachineConfig};

/// At 1000:0100, with DS = SS = CS.
#[rustfmt::skip]
const PROGRAM: &[u8] = &[
    0xFA,                         // cli
    0x31, 0xF6,                   // xor si, si
    0xB8, 0x34, 0x12,             // mov ax, 1234h
    0xA3, 0xFF, 0x07,             // mov [07FFh], ax: across a page (107FFh)
    0xA3, 0x01, 0x02,             // mov [0201h], ax: an odd word in a page
    0x8B, 0x1E, 0xFE, 0x07,       // mov bx, [07FEh]
    0x01, 0xDE,                   // add si, bx
    0x8B, 0x1E, 0x00, 0x08,       // mov bx, [0800h]
    0x01, 0xDE,                   // add si, bx
    0x8B, 0x1E, 0x01, 0x02,       // mov bx, [0201h]
    0x01, 0xDE,                   // add si, bx
    0xBC, 0x01, 0x08,             // mov sp, 0801h
    0x50,                         // push ax: across the page
    0x5B,                         // pop bx
    0x01, 0xDE,                   // add si, bx
    0xBC, 0xFE, 0xFF,             // mov sp, 0FFFEh
    0xB8, 0xFF, 0xFF,             // mov ax, 0FFFFh
    0x8E, 0xC0,                   // mov es, ax
    0xB8, 0xCD, 0xAB,             // mov ax, 0ABCDh
    0x26, 0xA3, 0x0F, 0x00,       // mov [es:000Fh], ax: FFFFFh and 100000h
    0x26, 0xA3, 0x10, 0x00,       // mov [es:0010h], ax: 100010h
    0x26, 0x8B, 0x1E, 0x0F, 0x00, // mov bx, [es:000Fh]
    0x01, 0xDE,                   // add si, bx
    0x26, 0x8B, 0x1E, 0x10, 0x00, // mov bx, [es:0010h]
    0x01, 0xDE,                   // add si, bx
    0xE4, 0x92,                   // in al, 92h
    0x0C, 0x02,                   // or al, 2: A20 on
    0xE6, 0x92,                   // out 92h, al
    0xB8, 0xCD, 0xAB,             // mov ax, 0ABCDh
    0x26, 0xA3, 0x0F, 0x00,       // mov [es:000Fh], ax
    0x26, 0xA3, 0x10, 0x00,       // mov [es:0010h], ax
    0x26, 0x8B, 0x1E, 0x0F, 0x00, // mov bx, [es:000Fh]
    0x01, 0xDE,                   // add si, bx
    0x26, 0x8B, 0x1E, 0x10, 0x00, // mov bx, [es:0010h]
    0x01, 0xDE,                   // add si, bx
    0xB8, 0x00, 0xA0,             // mov ax, 0A000h
    0x8E, 0xC0,                   // mov es, ax
    0xB8, 0x55, 0xAA,             // mov ax, 0AA55h
    0x26, 0xA3, 0x00, 0x00,       // mov [es:0000h], ax: the VGA window
    0x26, 0x8B, 0x1E, 0x00, 0x00, // mov bx, [es:0000h]
    0x01, 0xDE,                   // add si, bx
    0xB8, 0x00, 0xF0,             // mov ax, 0F000h
    0x8E, 0xC0,                   // mov es, ax
    0x26, 0xA3, 0x00, 0x00,       // mov [es:0000h], ax: ROM, ignored
    0x26, 0x8B, 0x1E, 0x00, 0x00, // mov bx, [es:0000h]
    0x01, 0xDE,                   // add si, bx
    0x89, 0xF0,                   // mov ax, si
    0xE6, 0xE9,                   // out E9h, al
    0x88, 0xE0,                   // mov al, ah
    0xE6, 0xE9,                   // out E9h, al
    0xFA, 0xF4,                   // cli; hlt
];

/// A run of the program, plain or step by step.
fn run(model: CpuModel, hz: u64, step_by_step: bool) -> common::Outcome {
    let mut m = Machine::new(MachineConfig::with_cpu(model, hz));
    m.load_com(PROGRAM, 0x1000).expect("program loads");
    if step_by_step {
        common::step_by_step(&mut m);
    }
    m.run_to_halt(10_000_000).expect("program halts");
    assert_eq!(m.peek8(0x107FF), 0x34, "{model:?}");
    assert_eq!(m.peek8(0x10800), 0x12, "{model:?}");
    common::outcome(&m)
}

#[test]
fn direct_operands_match_the_byte_path_on_every_model() {
    for (model, hz) in [
        (CpuModel::I8086, 4_772_727),
        (CpuModel::I286, 12_000_000),
        (CpuModel::I386, 33_000_000),
    ] {
        let plain = run(model, hz, false);
        let reference = run(model, hz, true);
        common::assert_same(&plain, &reference, &format!("{model:?}"));
    }
}
