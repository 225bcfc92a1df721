//! Hooks: execution (CS:IP and linear), memory ranges, ports and interrupts
//! with an AH filter; record, stop and continue.

use emu::{Bus, Cpu, CpuModel, ExecAt, FlatBus, HookAction, HookEvent, HookKind, StepEvent};

/// `code` at 1000:0100, SS:SP = 2000:0100; vector 21h at 3000:0000 (IRET).
fn setup(code: &[u8]) -> (Cpu, FlatBus) {
    let mut bus = FlatBus::new(1 << 20);
    bus.mem[0x84..0x88].copy_from_slice(&[0x00, 0x00, 0x00, 0x30]);
    bus.mem[0x30000] = 0xCF;
    bus.mem[0x10100..0x10100 + code.len()].copy_from_slice(code);
    let mut cpu = Cpu::new(CpuModel::I386);
    cpu.regs.seg = [0x1000, 0x1000, 0x2000, 0x1000, 0, 0];
    cpu.regs.ip = 0x100;
    cpu.regs.put16(4, 0x100);
    (cpu, bus)
}

// MOV [0200h],AX ; OUT 43h,AL ; MOV AH,4Ch ; INT 21h ; MOV BX,[0200h] ; NOP
const CODE: [u8; 16] = [
    0xA3, 0x00, 0x02, 0xE6, 0x43, 0xB4, 0x4C, 0xCD, 0x21, 0x8B, 0x1E, 0x00, 0x02, 0x90, 0x90, 0x90,
];

#[test]
fn record_hooks_log_writes_ports_and_interrupts_in_order() {
    let (mut cpu, mut bus) = setup(&CODE);
    cpu.regs.put16(0, 0x1236);
    let h = cpu.hooks_mut();
    h.add(
        HookKind::MemWrite {
            start: 0x10200,
            end: 0x10201,
        },
        HookAction::Record,
    );
    h.add(
        HookKind::PortWrite {
            start: 0x40,
            end: 0x43,
        },
        HookAction::Record,
    );
    h.add(
        HookKind::Interrupt {
            vector: 0x21,
            ah: Some(0x4C),
        },
        HookAction::Record,
    );
    h.add(
        HookKind::Interrupt {
            vector: 0x21,
            ah: Some(0x09),
        },
        HookAction::Record,
    );
    h.add(
        HookKind::MemRead {
            start: 0x10201,
            end: 0x10201,
        },
        HookAction::Continue,
    );
    for _ in 0..6 {
        assert_ne!(cpu.step(&mut bus).event, StepEvent::HookStop);
    }
    let h = cpu.hooks.as_ref().expect("hooks");
    let events: Vec<HookEvent> = h.log.iter().map(|r| r.event).collect();
    assert_eq!(
        events,
        vec![
            HookEvent::MemWrite {
                linear: 0x10200,
                size: 2,
                value: 0x1236
            },
            HookEvent::PortWrite {
                port: 0x43,
                size: 1,
                value: 0x36
            },
            HookEvent::Interrupt {
                vector: 0x21,
                ax: 0x4C36
            },
        ]
    );
    assert_eq!(h.log[1].ip, 0x103, "the OUT's address");
    assert_eq!(h.list[3].hits, 0, "AH filter");
    assert_eq!(
        h.list[4].hits, 1,
        "a word read overlapping the range counts"
    );
}

#[test]
fn exec_hooks_stop_before_the_instruction_and_resume_past_it() {
    let (mut cpu, mut bus) = setup(&CODE);
    cpu.hooks_mut().add(
        HookKind::Exec(ExecAt::SegOff(0x1000, 0x105)),
        HookAction::Stop,
    );
    cpu.hooks_mut()
        .add(HookKind::Exec(ExecAt::Linear(0x10109)), HookAction::Stop);
    cpu.step(&mut bus);
    cpu.step(&mut bus);
    assert_eq!(cpu.step(&mut bus).event, StepEvent::HookStop);
    assert_eq!(cpu.regs.ip, 0x105, "stopped before MOV AH");
    assert!(cpu.hooks.as_ref().and_then(|h| h.stopped).is_some());
    assert_eq!(
        cpu.step(&mut bus).event,
        StepEvent::Executed,
        "resumes past the breakpoint"
    );
    assert_eq!(cpu.regs.get8(4), 0x4C);
    cpu.step(&mut bus); // INT 21h
    cpu.step(&mut bus); // IRET
    assert_eq!(
        cpu.step(&mut bus).event,
        StepEvent::HookStop,
        "linear breakpoint"
    );
    assert_eq!(cpu.regs.ip, 0x109);
}

#[test]
fn a_write_watch_stops_after_the_writing_instruction() {
    let (mut cpu, mut bus) = setup(&CODE);
    cpu.hooks_mut().add(
        HookKind::MemWrite {
            start: 0x10201,
            end: 0x10201,
        },
        HookAction::Stop,
    );
    assert_eq!(cpu.step(&mut bus).event, StepEvent::HookStop);
    assert_eq!(cpu.regs.ip, 0x103, "the write completed");
    let r = cpu
        .hooks
        .as_ref()
        .and_then(|h| h.stopped)
        .expect("stopped record");
    assert_eq!((r.cs, r.ip), (0x1000, 0x100));
    assert_eq!(bus.mem_read8(0x10201), 0);
}
