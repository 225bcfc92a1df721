//! Behaviour that differs between the 8086, 286, 386 and 486 models and that
//! the reference suites do not cover: the classic CPU detection, real-mode
//! segment limits, #UD delivery, the system registers, INS/OUTS, LIDT, the
//! 486's instructions, AC, ID and CPUID.

use std::path::PathBuf;

mod common;

use common::{cpu_at, TestBus};
use emu::{Cpu, CpuModel, StepEvent};

/// `code` at 1000:0100 (CS = DS = ES = SS = 1000h, SP = 0FFFEh) on a flat
/// 2 MiB bus (port reads answer `port & 0xFF`, port writes are logged);
/// vectors 0-13 point at 3000:(n * 16), each holding HLT.
fn setup(model: CpuModel, code: &[u8]) -> (Cpu, TestBus) {
    let mut bus = TestBus::new(1 << 21, 0xFF);
    for v in 0..14u8 {
        bus.set_vector(v, 0x3000, v as u16 * 16);
        bus.flat.mem[0x30000 + v as usize * 16] = 0xF4;
    }
    bus.put(0x10100, code);
    let cpu = cpu_at(model, [0x1000, 0x1000, 0x1000, 0x1000, 0, 0], 0x100, 0xFFFE);
    (cpu, bus)
}

fn run_to_hlt(cpu: &mut Cpu, bus: &mut TestBus) {
    for _ in 0..10_000 {
        if cpu.step(bus).event == StepEvent::Halted {
            return;
        }
    }
    panic!("no HLT within 10,000 steps");
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

#[test]
fn classic_detection_code_identifies_each_model() {
    let bin = std::fs::read(data("cpudetect.bin")).expect("tests/data/cpudetect.bin");
    for (model, ax, bx) in [
        (CpuModel::I8086, 0, 1),
        (CpuModel::I286, 2, 0),
        (CpuModel::I386, 3, 0),
        (CpuModel::I486, 4, 0),
        (CpuModel::I486Cpuid, 4, 0),
    ] {
        let (mut cpu, mut bus) = setup(model, &bin);
        run_to_hlt(&mut cpu, &mut bus);
        assert_eq!(
            (cpu.regs.get16(0), cpu.regs.get16(3)),
            (ax, bx),
            "{model} detected as AX={:04X} BX={:04X}",
            cpu.regs.get16(0),
            cpu.regs.get16(3)
        );
    }
}

#[test]
fn committed_detection_binary_matches_its_source() {
    let out = std::env::temp_dir().join(format!("tandem-cpudetect-{}.bin", std::process::id()));
    let status = std::process::Command::new("nasm")
        .arg("-f")
        .arg("bin")
        .arg("-o")
        .arg(&out)
        .arg(data("cpudetect.asm"))
        .status()
        .expect("nasm is required to check tests/data/cpudetect.bin (apt-get install nasm)");
    assert!(status.success(), "nasm failed on cpudetect.asm");
    let built = std::fs::read(&out).expect("nasm output");
    let _ = std::fs::remove_file(&out);
    let committed = std::fs::read(data("cpudetect.bin")).expect("committed binary");
    assert_eq!(
        built, committed,
        "cpudetect.bin is stale: rebuild it with nasm"
    );
}

#[test]
fn word_past_offset_ffff_faults_on_286_and_386_and_wraps_on_8086() {
    // MOV AX,[FFFFh] (DS) ; MOV AX,[BP] with BP = FFFFh (SS)
    for (code, bp, v386) in [
        (&[0xA1, 0xFF, 0xFF][..], 0u16, 13u8),
        (&[0x8B, 0x46, 0x00][..], 0xFFFF, 12),
    ] {
        for (model, want) in [
            (CpuModel::I8086, None),
            (CpuModel::I286, Some(13u8)),
            (CpuModel::I386, Some(v386)),
        ] {
            let (mut cpu, mut bus) = setup(model, code);
            cpu.regs.put16(5, bp);
            bus.flat.mem[0x1FFFF] = 0x34;
            bus.flat.mem[0x10000] = 0x12;
            let ev = cpu.step(&mut bus).event;
            match want {
                None => {
                    assert_eq!(ev, StepEvent::Executed);
                    assert_eq!(cpu.regs.get16(0), 0x1234, "8086 wraps inside the segment");
                }
                Some(v) => {
                    assert_eq!(ev, StepEvent::Exception(v), "{model} {code:02X?}");
                    assert_eq!((cpu.regs.seg[1], cpu.regs.ip), (0x3000, v as u32 * 16));
                    let ret = bus.word(0x10000 + cpu.regs.get16(4) as usize);
                    assert_eq!(ret, 0x100, "{model}: a fault pushes the faulting IP");
                }
            }
        }
    }
}

#[test]
fn push_with_sp_1_is_a_stack_fault_on_the_386() {
    let (mut cpu, mut bus) = setup(CpuModel::I386, &[0x50]);
    cpu.stop_on_fault = true;
    cpu.regs.put16(4, 1);
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Exception(12));
    assert_eq!(cpu.regs.get16(4), 1, "SP unchanged at the fault");
    assert_eq!(cpu.regs.ip, 0x100);
}

#[test]
fn jumps_and_fetches_past_the_cs_limit_fault_on_the_386() {
    // 66 E9 rel32 to 10000h
    let (mut cpu, mut bus) = setup(CpuModel::I386, &[0x66, 0xE9, 0xFA, 0xFE, 0x00, 0x00]);
    cpu.stop_on_fault = true;
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Exception(13));
    assert_eq!(cpu.regs.ip, 0x100);
    // A two-byte instruction at FFFFh runs past the limit.
    let (mut cpu, mut bus) = setup(CpuModel::I386, &[]);
    cpu.stop_on_fault = true;
    cpu.regs.ip = 0xFFFF;
    bus.flat.mem[0x1FFFF] = 0xB0; // MOV AL, imm8
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Exception(13));
}

#[test]
fn invalid_opcodes_raise_ud_on_286_and_386_only() {
    // FF /7 (FF F8) and 63h (ARPL, protected mode only)
    for code in [&[0xFF, 0xF8][..], &[0x63, 0xC0]] {
        for model in [CpuModel::I286, CpuModel::I386] {
            let (mut cpu, mut bus) = setup(model, code);
            assert_eq!(
                cpu.step(&mut bus).event,
                StepEvent::Exception(6),
                "{model} {code:02X?}"
            );
            assert_eq!((cpu.regs.seg[1], cpu.regs.ip), (0x3000, 0x60));
            let ret = bus.word(0x10000 + cpu.regs.get16(4) as usize);
            assert_eq!(ret, 0x100);
        }
        // On the 8086 FF /7 is PUSH, and 63h a JNC alias.
        let (mut cpu, mut bus) = setup(CpuModel::I8086, code);
        assert_eq!(cpu.step(&mut bus).event, StepEvent::Executed);
    }
}

#[test]
fn entering_protected_mode_stops_with_a_clear_error() {
    // MOV EAX,CR0 ; OR AL,1 ; MOV CR0,EAX
    let code = [0x0F, 0x20, 0xC0, 0x0C, 0x01, 0x0F, 0x22, 0xC0];
    let (mut cpu, mut bus) = setup(CpuModel::I386, &code);
    cpu.regs.gpr[0] = 0xFFFF_FFFF;
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Executed);
    assert_eq!(
        cpu.regs.gpr[0], 0x7FFF_FFE0,
        "CR0: PE 0, reserved bits 1, no ET"
    );
    cpu.step(&mut bus);
    let before = cpu.regs.clone();
    match cpu.step(&mut bus).event {
        StepEvent::Unsupported(msg) => assert_eq!(msg, "protected mode is not supported"),
        e => panic!("MOV CR0 with PE gave {e:?}"),
    }
    assert_eq!(cpu.regs, before, "nothing changes");
    assert_eq!(cpu.regs.ip, 0x105, "CS:IP still at the MOV to CR0");
    // LMSW with PE on the 286 (0F 01 /6, AX = 1) and SMSW (0F 01 /4).
    let (mut cpu, mut bus) = setup(CpuModel::I286, &[0x0F, 0x01, 0xE3, 0x0F, 0x01, 0xF0]);
    cpu.regs.put16(0, 1);
    cpu.step(&mut bus);
    assert_eq!(
        cpu.regs.get16(3),
        0xFFF0,
        "SMSW on a 286: PE = 0, reserved bits set"
    );
    assert!(matches!(
        cpu.step(&mut bus).event,
        StepEvent::Unsupported(_)
    ));
}

#[test]
fn ins_and_outs_move_strings_through_ports() {
    // MOV DX,3C8h ; REP OUTSB ; MOV DX,41h ; REP INSW
    let code = [0xBA, 0xC8, 0x03, 0xF3, 0x6E, 0xBA, 0x41, 0x00, 0xF3, 0x6D];
    for model in [CpuModel::I286, CpuModel::I386] {
        let (mut cpu, mut bus) = setup(model, &code);
        bus.flat.mem[0x10200..0x10203].copy_from_slice(&[7, 8, 9]);
        cpu.regs.put16(6, 0x200);
        cpu.regs.put16(7, 0x300);
        cpu.regs.put16(1, 3);
        cpu.step(&mut bus);
        cpu.step(&mut bus);
        assert_eq!(bus.out, vec![(0x3C8, 7), (0x3C8, 8), (0x3C8, 9)]);
        cpu.step(&mut bus);
        cpu.regs.put16(1, 2);
        cpu.step(&mut bus);
        assert_eq!(&bus.flat.mem[0x10300..0x10304], &[0x41, 0x42, 0x41, 0x42]);
        assert_eq!(cpu.regs.get16(7), 0x304);
    }
}

#[test]
fn lidt_moves_the_real_mode_vector_table() {
    // LIDT [0200h] ; INT 21h
    let (mut cpu, mut bus) = setup(CpuModel::I386, &[0x0F, 0x01, 0x1E, 0x00, 0x02, 0xCD, 0x21]);
    // limit 3FFh, base 50000h
    bus.flat.mem[0x10200..0x10206].copy_from_slice(&[0xFF, 0x03, 0x00, 0x00, 0x05, 0x00]);
    bus.flat.mem[0x50000 + 0x21 * 4..0x50000 + 0x21 * 4 + 4]
        .copy_from_slice(&[0x34, 0x12, 0x00, 0x40]);
    cpu.step(&mut bus);
    assert_eq!(cpu.sys.idtr, (0x50000, 0x3FF));
    assert_eq!(cpu.step(&mut bus).event, StepEvent::SoftwareInterrupt(0x21));
    assert_eq!((cpu.regs.seg[1], cpu.regs.ip), (0x4000, 0x1234));
}

/// The cycle-exact 8086 acknowledges a maskable interrupt with two INTA bus
/// cycles (one call of `Bus::inta`), then enters the handler through the
/// same INTR sequence as INT n: FLAGS, CS and IP on the stack, IF cleared.
#[test]
fn exact_8086_hardware_interrupt() {
    use emu::biu::cycle::{BusStatus, TState};
    // INTA answers 20h. Vector 20h -> 3000:0010 (HLT); code at
    // 1000:0100: STI, NOP, NOP.
    let mut bus = TestBus::new(1 << 20, 0x20);
    bus.set_vector(0x20, 0x3000, 0x10);
    bus.flat.mem[0x30010] = 0xF4;
    bus.put(0x10100, &[0xFB, 0x90, 0x90]);
    let mut cpu = cpu_at(
        CpuModel::I8086,
        [0x1000, 0x1000, 0x1000, 0x1000, 0, 0],
        0x100,
        0xFFFE,
    );
    cpu.set_cycle_exact(true);
    cpu.set_cycle_trace(true);
    bus.intr = true;
    cpu.step(&mut bus); // STI (holds interrupts off for one instruction)
    assert_eq!(bus.acks, 0);
    cpu.clear_cycle_trace();
    let ev = cpu.step(&mut bus).event; // NOP, then the interrupt
    assert_eq!(ev, StepEvent::Interrupt(0x20));
    assert_eq!(bus.acks, 1);
    assert_eq!((cpu.regs.seg[1], cpu.regs.ip), (0x3000, 0x10));
    assert_eq!(cpu.regs.get16(4), 0xFFF8);
    assert_eq!(cpu.regs.flags & emu::flags::IF, 0);
    // Return address (the instruction after the NOP), CS, FLAGS.
    let w = |a: usize| bus.word(a);
    assert_eq!(w(0x1FFF8), 0x102);
    assert_eq!(w(0x1FFFA), 0x1000);
    assert_ne!(w(0x1FFFC) & emu::flags::IF as u16, 0);
    let inta = cpu
        .cycle_trace()
        .iter()
        .filter(|c| c.t == TState::T1 && c.status == BusStatus::Inta)
        .count();
    assert_eq!(inta, 2);
}

/// Runs `code` (ending in HLT) on `model` with EAX, ECX, EBX preset.
fn run486(model: CpuModel, code: &[u8], eax: u32, ecx: u32, ebx: u32) -> (Cpu, TestBus) {
    let (mut cpu, mut bus) = setup(model, code);
    (cpu.regs.gpr[0], cpu.regs.gpr[1], cpu.regs.gpr[3]) = (eax, ecx, ebx);
    run_to_hlt(&mut cpu, &mut bus);
    (cpu, bus)
}

/// Runs `code` on the 486 with the byte at DS:0200h, EAX and ECX preset;
/// returns the CPU and that byte afterwards.
fn run_on_byte(code: &[u8], byte: u8, eax: u32, ecx: u32) -> (Cpu, u8) {
    let (mut cpu, mut bus) = setup(CpuModel::I486, code);
    bus.flat.mem[0x10200] = byte;
    (cpu.regs.gpr[0], cpu.regs.gpr[1]) = (eax, ecx);
    run_to_hlt(&mut cpu, &mut bus);
    (cpu, bus.flat.mem[0x10200])
}

const CF: u32 = 0x0001;
const ZF: u32 = 0x0040;
const SF: u32 = 0x0080;
const OF: u32 = 0x0800;

#[test]
fn bswap_reverses_a_doubleword_and_clears_a_word_register() {
    // BSWAP EAX (66 0F C8); BSWAP CX without 66h (0F C9): a 16-bit operand,
    // undefined by Intel, clears the low word on a real 486.
    let code = [0x66, 0x0F, 0xC8, 0x0F, 0xC9, 0xF4];
    let (cpu, _) = run486(CpuModel::I486, &code, 0x1234_5678, 0xAABB_CCDD, 0);
    assert_eq!(cpu.regs.gpr[0], 0x7856_3412);
    assert_eq!(cpu.regs.gpr[1], 0xAABB_0000);
}

#[test]
fn xadd_adds_with_add_flags_and_returns_the_old_destination() {
    // XADD BX, CX (0F C1 CB): BX = BX + CX, CX = old BX.
    let code = [0x0F, 0xC1, 0xCB, 0xF4];
    let (cpu, _) = run486(CpuModel::I486, &code, 0, 0x0001, 0x7FFF);
    assert_eq!((cpu.regs.get16(3), cpu.regs.get16(1)), (0x8000, 0x7FFF));
    assert_eq!(cpu.regs.flags & (OF | SF | ZF | CF), OF | SF);
    // XADD [0200h], AL (0F C0 06 00 02): byte form, carry out.
    let (cpu, byte) = run_on_byte(&[0x0F, 0xC0, 0x06, 0x00, 0x02, 0xF4], 0xF0, 0x20, 0);
    assert_eq!((byte, cpu.regs.get8(0)), (0x10, 0xF0));
    assert_eq!(cpu.regs.flags & (OF | SF | ZF | CF), CF);
}

#[test]
fn cmpxchg_compares_as_cmp_and_exchanges_on_equal_only() {
    // CMPXCHG BX, CX (0F B1 CB).
    let code = [0x0F, 0xB1, 0xCB, 0xF4];
    // AX == BX: BX = CX, ZF set.
    let (cpu, _) = run486(CpuModel::I486, &code, 0x1234, 0x5678, 0x1234);
    assert_eq!((cpu.regs.get16(0), cpu.regs.get16(3)), (0x1234, 0x5678));
    assert_eq!(cpu.regs.flags & (ZF | CF), ZF);
    // AX < BX: AX = BX, flags of CMP AX, BX (borrow, sign).
    let (cpu, _) = run486(CpuModel::I486, &code, 0x0001, 0x5678, 0x0002);
    assert_eq!((cpu.regs.get16(0), cpu.regs.get16(3)), (0x0002, 0x0002));
    assert_eq!(cpu.regs.flags & (ZF | CF | SF | OF), CF | SF);
    // Byte form on memory: CMPXCHG [0200h], CL (0F B0 0E 00 02).
    let (cpu, byte) = run_on_byte(&[0x0F, 0xB0, 0x0E, 0x00, 0x02, 0xF4], 0x44, 0x44, 0x99);
    assert_eq!(byte, 0x99);
    assert_ne!(cpu.regs.flags & ZF, 0);
}

#[test]
fn lock_xadd_and_cmpxchg_with_a_register_destination_are_ud() {
    // SDM vol. 2, LOCK: #UD when "the destination operand is not a memory
    // operand". LOCK XADD BX, CX (F0 0F C1 CB), LOCK CMPXCHG BL, CL
    // (F0 0F B0 CB): the fault comes before any register changes.
    for code in [[0xF0, 0x0F, 0xC1, 0xCB], [0xF0, 0x0F, 0xB0, 0xCB]] {
        let (mut cpu, mut bus) = setup(CpuModel::I486, &code);
        (cpu.regs.gpr[0], cpu.regs.gpr[1], cpu.regs.gpr[3]) = (7, 1, 7);
        assert_eq!(
            cpu.step(&mut bus).event,
            StepEvent::Exception(6),
            "{code:02X?}"
        );
        assert_eq!((cpu.regs.gpr[1], cpu.regs.gpr[3]), (1, 7), "{code:02X?}");
    }
    // With a memory destination LOCK is allowed: LOCK XADD [0200h], AL.
    let (cpu, byte) = run_on_byte(&[0xF0, 0x0F, 0xC0, 0x06, 0x00, 0x02, 0xF4], 0x05, 0x03, 0);
    assert_eq!((byte, cpu.regs.get8(0)), (0x08, 0x05));
}

/// The 486's new encodings (BSWAP, XADD, CMPXCHG, INVD, WBINVD, INVLPG,
/// CPUID).
const NEW_486: [&[u8]; 8] = [
    &[0x0F, 0xC8],
    &[0x0F, 0xC1, 0xCB],
    &[0x0F, 0xB0, 0xCB],
    &[0x0F, 0x08],
    &[0x0F, 0x09],
    &[0x0F, 0x01, 0x3F],
    &[0x0F, 0xA2],
    &[0x66, 0x0F, 0xCB],
];

#[test]
fn the_486_instructions_are_ud_on_the_386_and_run_on_the_486() {
    for code in NEW_486 {
        let (mut cpu, mut bus) = setup(CpuModel::I386, code);
        assert_eq!(
            cpu.step(&mut bus).event,
            StepEvent::Exception(6),
            "386 {code:02X?}"
        );
        assert_eq!((cpu.regs.seg[1], cpu.regs.ip), (0x3000, 0x60));
        let (mut cpu, mut bus) = setup(CpuModel::I486Cpuid, code);
        assert_eq!(
            cpu.step(&mut bus).event,
            StepEvent::Executed,
            "486 {code:02X?}"
        );
        assert_eq!(cpu.regs.ip as usize, 0x100 + code.len(), "{code:02X?}");
    }
    // INVLPG needs a memory operand: 0F 01 F8 (/7 with a register) is #UD.
    let (mut cpu, mut bus) = setup(CpuModel::I486, &[0x0F, 0x01, 0xF8]);
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Exception(6));
}

/// Toggles EFLAGS bit `bit` with PUSHFD/POPFD; returns whether it changed.
fn eflags_bit_toggles(model: CpuModel, bit: u32) -> bool {
    // PUSHFD; POP EAX; XOR EAX, imm32; PUSH EAX; POPFD; PUSHFD; POP EAX; HLT
    let mut code = vec![0x66, 0x9C, 0x66, 0x58, 0x66, 0x35];
    code.extend_from_slice(&(1u32 << bit).to_le_bytes());
    code.extend_from_slice(&[0x66, 0x50, 0x66, 0x9D, 0x66, 0x9C, 0x66, 0x58, 0xF4]);
    let (mut cpu, mut bus) = setup(model, &code);
    let before = cpu.regs.flags;
    run_to_hlt(&mut cpu, &mut bus);
    (cpu.regs.gpr[0] ^ before) & (1 << bit) != 0
}

#[test]
fn ac_toggles_from_the_486_and_id_only_with_cpuid() {
    let models = [CpuModel::I386, CpuModel::I486, CpuModel::I486Cpuid];
    assert_eq!(
        models.map(|m| eflags_bit_toggles(m, 18)),
        [false, true, true]
    );
    assert_eq!(
        models.map(|m| eflags_bit_toggles(m, 21)),
        [false, false, true]
    );
}

#[test]
fn ac_set_never_faults_in_real_mode_and_survives_iret() {
    // Set AC and CR0.AM, then a misaligned word read, then INT 3 (its
    // handler at 3000:0030 is replaced by IRET): AC is still set.
    let code = [
        0x66, 0x9C, // PUSHFD
        0x66, 0x58, // POP EAX
        0x66, 0x0D, 0x00, 0x00, 0x04, 0x00, // OR EAX, 40000h
        0x66, 0x50, 0x66, 0x9D, // PUSH EAX; POPFD
        0x0F, 0x20, 0xC0, // MOV EAX, CR0
        0x66, 0x0D, 0x00, 0x00, 0x04, 0x00, // OR EAX, 40000h (AM)
        0x0F, 0x22, 0xC0, // MOV CR0, EAX
        0x8B, 0x1E, 0x01, 0x02, // MOV BX, [0201h]
        0xCC, // INT 3
        0xF4,
    ];
    let (mut cpu, mut bus) = setup(CpuModel::I486, &code);
    bus.flat.mem[0x30030] = 0xCF;
    run_to_hlt(&mut cpu, &mut bus);
    assert_eq!(
        (cpu.regs.seg[1], cpu.regs.ip),
        (0x1000, 0x100 + code.len() as u32)
    );
    assert_ne!(cpu.regs.flags & (1 << 18), 0, "AC");
    assert_ne!(cpu.sys.cr0 & (1 << 18), 0, "CR0.AM");
}

#[test]
fn cpuid_reports_genuineintel_and_the_signature() {
    // CPUID with EAX = 0, then the vendor's words saved, then leaf 1.
    let code = [0x0F, 0xA2, 0xF4];
    let (cpu, _) = run486(CpuModel::I486Cpuid, &code, 0, 0, 0);
    let vendor: Vec<u8> = [3, 2, 1]
        .iter()
        .flat_map(|&r| cpu.regs.gpr[r].to_le_bytes())
        .collect();
    assert_eq!(vendor, b"GenuineIntel");
    assert_eq!(cpu.regs.gpr[0], 1, "max leaf");
    // Leaf 1 with the FPU: the 486DX2 (family 4, model 3, stepping 5).
    let (mut cpu, mut bus) = setup(CpuModel::I486Cpuid, &code);
    cpu.fpu = Some(emu::x87::X87::new());
    cpu.regs.gpr[0] = 1;
    run_to_hlt(&mut cpu, &mut bus);
    assert_eq!(cpu.regs.gpr[0], 0x435, "family 4, model 3, stepping 5");
    assert_eq!(cpu.regs.gpr[2] & 1, 1, "EDX.FPU: the 486DX's on-chip FPU");
    // Without it the part is a 486SX2 (model 5) and EDX.FPU is clear.
    let (cpu, _) = run486(CpuModel::I486Cpuid, &code, 1, 0, 0);
    assert_eq!(
        cpu.regs.gpr[0], 0x455,
        "family 4, model 5 (SX2), stepping 5"
    );
    assert_eq!(cpu.regs.gpr[2] & 1, 0, "EDX.FPU: no FPU");
    // Without CPUID (the early 486): #UD.
    let (mut cpu, mut bus) = setup(CpuModel::I486, &code);
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Exception(6));
}

#[test]
fn mov_cr0_keeps_the_486_bits() {
    // MOV CR0, EAX; MOV EDX, CR0; HLT
    let code = [0x0F, 0x22, 0xC0, 0x0F, 0x20, 0xC2, 0xF4];
    // CD, AM, WP, NE and MP written; ET reads 1 on the 486.
    let v = (1 << 30) | (1 << 18) | (1 << 16) | (1 << 5) | 2;
    let (cpu, _) = run486(CpuModel::I486, &code, v, 0, 0);
    assert_eq!(cpu.regs.gpr[2], v | 0x10);
    // The 386 keeps only PG, ET, TS, EM, MP and PE; bits 5-30 read as ones.
    let (cpu, _) = run486(CpuModel::I386, &code, v, 0, 0);
    assert_eq!(cpu.regs.gpr[2], 0x7FFF_FFE2);
    // The 486 starts with CD, NW and ET set.
    let (cpu, _) = setup(CpuModel::I486, &code);
    assert_eq!(cpu.sys.cr0, 0x6000_0010);
    // NW without CD is #GP(0).
    let (mut cpu, mut bus) = setup(CpuModel::I486, &code);
    cpu.regs.gpr[0] = 1 << 29;
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Exception(13));
}
