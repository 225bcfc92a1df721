//! The cost of hook support: the same loop as `throughput` run by the
//! register-level 8086 with no hooks (`none`), or with hooks set that never
//! fire (`idle`: an execution hook at an address the loop never reaches and
//! a write watch on memory it never writes). Count host instructions with
//! `valgrind --tool=callgrind` and compare with a build without hook
//! support (`--no-default-features` compiles the checks out); wall-clock
//! figures are too noisy for a few percent.
//!
//! ```sh
//! cargo build --release -p emu --example hooks_cost
//! valgrind --tool=callgrind target/release/examples/hooks_cost none
//! cargo build --release -p emu --example hooks_cost --no-default-features
//! valgrind --tool=callgrind target/release/examples/hooks_cost none
//! ```

use emu::{Cpu, CpuModel, ExecAt, FlatBus, HookAction, HookKind};

/// A loop at 0000:0100 of ALU, MOV (register and memory), PUSH/POP, a
/// string store and a conditional jump back.
const PROGRAM: &[u8] = &[
    0xB9, 0x00, 0x00, // mov cx, 0
    0xBE, 0x00, 0x20, // mov si, 2000h
    0xBF, 0x00, 0x30, // mov di, 3000h
    // loop:
    0x01, 0xC8, // add ax, cx
    0x31, 0xD3, // xor bx, dx
    0x8B, 0x14, // mov dx, [si]
    0x89, 0x05, // mov [di], ax
    0x00, 0x44, 0x02, // add [si+2], al
    0x50, // push ax
    0x5B, // pop bx
    0x83, 0xC6, 0x02, // add si, 2
    0xAA, // stosb
    0xD1, 0xE0, // shl ax, 1
    0x41, // inc cx
    0x81, 0xE6, 0xFF, 0x2F, // and si, 2FFFh
    0x81, 0xE7, 0xFF, 0x3F, // and di, 3FFFh
    0xEB, 0xE4, // jmp loop
];

fn main() {
    let mode = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "none".to_string());
    let steps: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000_000);
    let mut bus = FlatBus::new(1 << 20);
    bus.mem[0x100..0x100 + PROGRAM.len()].copy_from_slice(PROGRAM);
    let mut cpu = Cpu::new(CpuModel::I8086);
    cpu.regs.set_sreg(emu::SegReg::CS, 0);
    cpu.regs.set_sreg(emu::SegReg::SS, 0x1000);
    cpu.regs.put16(4, 0xFFFE);
    cpu.regs.ip = 0x100;
    if mode == "idle" {
        let h = cpu.hooks_mut();
        h.add(HookKind::Exec(ExecAt::SegOff(0x9000, 0)), HookAction::Stop);
        h.add(
            HookKind::MemWrite {
                start: 0x90000,
                end: 0x9FFFF,
            },
            HookAction::Stop,
        );
    }
    for _ in 0..steps {
        cpu.step(&mut bus);
    }
    println!("{mode}: {steps} instructions, {} clocks", cpu.cycles);
}
