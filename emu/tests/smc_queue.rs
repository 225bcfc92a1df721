//! Self-modifying code and the prefetch queue (issue 17): a store into the
//! next instruction, or into the bytes after a REP STOSB, with no jump
//! between. These pin what the core does today, which a decoded-instruction
//! cache must keep: on every model, in register-level timing and in the
//! 8086's cycle-exact mode, the decoder reads each instruction from memory
//! when it starts, so the NEW bytes run. (A real 8086 would run the old
//! bytes already in its 6-byte queue: Intel 8086 Family User's Manual, "Bus
//! Interface Unit"; the cycle-exact queue here models the timing only, its
//! bytes are not decoded. The 80386 Programmer's Reference Manual, 1986,
//! and the i486 manual allow either on a 386/486 until a jump.)
//! roms/devices/smc.com checks the same cases on every model through the
//! whole machine (frontend/tests/cli_smc.rs).

mod common;

use common::{cpu_at, TestBus};
use emu::{Cpu, CpuModel};

/// The models the machine runs.
const MODELS: [CpuModel; 4] = [
    CpuModel::I8086,
    CpuModel::I286,
    CpuModel::I386,
    CpuModel::I486,
];

/// A CPU at 1000:0100 with `code` there (NOPs after it), DS = ES = 1000h,
/// in cycle-exact mode when `exact`, CX = `cx`; steps until IP passes the
/// code (at most 100 steps).
fn run(model: CpuModel, exact: bool, code: &[u8], cx: u16) -> (Cpu, TestBus) {
    let mut bus = TestBus::new(1 << 20, 8);
    bus.put(0x10100, code);
    bus.put(0x10100 + code.len(), &[0x90; 16]);
    let mut cpu = cpu_at(model, [0x1000, 0x1000, 0x2000, 0x1000, 0, 0], 0x100, 0x100);
    cpu.set_cycle_exact(exact);
    cpu.regs.put16(1, cx);
    let end = 0x100 + code.len() as u32;
    for _ in 0..100 {
        if cpu.regs.ip >= end {
            break;
        }
        cpu.step(&mut bus);
    }
    assert_eq!(cpu.regs.ip, end, "{model:?}");
    (cpu, bus)
}

/// NOP x3 (the queue fills); MOV BYTE [0109h], 22h; MOV AL, 11h (its
/// immediate at 0109h). Returns AL and the byte in memory.
fn store_into_next(model: CpuModel, exact: bool) -> (u8, u8) {
    let code = [0x90, 0x90, 0x90, 0xC6, 0x06, 0x09, 0x01, 0x22, 0xB0, 0x11];
    let (cpu, bus) = run(model, exact, &code, 0);
    (cpu.regs.get8(0), bus.bytes(0x10109, 1)[0])
}

/// NOP x3; MOV AL, 90h; MOV DI, 0108h; REP STOSB at 0108h with CX = 4 (it
/// overwrites itself and the two INC BX after it); INC BX; INC BX.
/// Returns CX and BX.
fn rep_stosb_over_itself(model: CpuModel, exact: bool) -> (u16, u16) {
    let code = [
        0x90, 0x90, 0x90, 0xB0, 0x90, 0xBF, 0x08, 0x01, 0xF3, 0xAA, 0x43, 0x43,
    ];
    let (cpu, bus) = run(model, exact, &code, 4);
    assert_eq!(bus.bytes(0x10108, 4), vec![0x90; 4], "{model:?}");
    (cpu.regs.get16(1), cpu.regs.get16(3))
}

#[test]
fn a_store_into_the_next_instruction_is_seen_on_every_model() {
    // The 8086 also in cycle-exact mode: the queue holds the old 11h.
    assert_eq!(store_into_next(CpuModel::I8086, true), (0x22, 0x22));
    for model in MODELS {
        assert_eq!(store_into_next(model, false), (0x22, 0x22), "{model:?}");
    }
}

#[test]
fn rep_stosb_over_itself_runs_its_stores_and_not_the_overwritten_bytes() {
    // CX = 0: all four stores ran; BX = 0: the two INC BX, overwritten
    // with NOPs, did not run.
    assert_eq!(rep_stosb_over_itself(CpuModel::I8086, true), (0, 0));
    for model in MODELS {
        assert_eq!(rep_stosb_over_itself(model, false), (0, 0), "{model:?}");
    }
}
