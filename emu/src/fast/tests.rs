//! The fast path against the generic path that a CPU with hooks takes.

use crate::bus::Bus;
use crate::{Cpu, CpuModel, FlatBus, Hooks, SegReg, StepEvent};

/// xorshift64: a fixed, dependency-free stream of test values.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn byte(&mut self) -> u8 {
        self.next() as u8
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.next() as usize % v.len()]
    }
}

/// Opcodes of the forms the fast path runs (and neighbours it leaves
/// to the generic path: the groups' other members, far and 32-bit
/// transfers, memory forms of INC/DEC/shifts).
fn opcodes() -> Vec<u8> {
    let mut v: Vec<u8> = (0x00..=0x3F).filter(|b| b & 7 < 6).collect();
    v.extend(0x40..=0x5F);
    v.extend(0x70..=0x7F);
    v.extend(0x80..=0x8B);
    v.extend([0x8D, 0x98, 0x99, 0x9F, 0xC2, 0xC3, 0xC6, 0xC7, 0xE8, 0xE9]);
    v.extend(0x90..=0x97);
    v.extend(0xA0..=0xA3);
    v.extend(0xB0..=0xBF);
    v.extend([0xC0, 0xC1, 0xD0, 0xD1, 0xD2, 0xD3, 0xE0, 0xE1, 0xE2, 0xE3]);
    v.extend([0xEB, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFC, 0xFD, 0xFE, 0xFF]);
    v.extend([
        0x06, 0x07, 0x0E, 0x16, 0x17, 0x1E, 0x1F, 0x8C, 0x8E, 0x8C, 0x8E,
    ]);
    v.extend([
        0x68, 0x6A, 0xCA, 0xCB, 0xCA, 0xCB, 0x0F, 0xCF, 0xCF, 0x9A, 0xEA, 0x0F, 0x0F,
    ]);
    // LODS, and its neighbours that stay generic.
    v.extend([0xAC, 0xAD, 0xAC, 0xAD, 0xA4, 0xA7, 0xAE]);
    v.extend([0x9C, 0x9D, 0x9C, 0x9D, 0xCC, 0xCD, 0xCD, 0xCE, 0x69, 0x6B]);
    v
}

/// A random machine state with a random instruction at CS:IP.
fn setup(rng: &mut Rng, model: CpuModel, ops: &[u8]) -> (Cpu, FlatBus) {
    let mut bus = FlatBus::new(0x10000);
    for b in bus.mem.iter_mut() {
        *b = rng.byte();
    }
    let mut cpu = Cpu::new(model);
    let wide = model.caps().has_32bit_operands;
    // Half the time small 32-bit registers, so that 32-bit addressing
    // reaches memory inside the 64 KiB limit.
    let small = rng.byte() < 128;
    for r in 0..8 {
        let v = rng.next() as u32;
        cpu.regs.gpr[r] = if !wide {
            v & 0xFFFF
        } else if small {
            v & 0x3FFF
        } else {
            v
        };
    }
    for s in 0..6 {
        cpu.regs.seg[s] = rng.next() as u16;
    }
    // Sometimes a stack at the limit.
    if rng.byte() < 64 {
        cpu.regs.gpr[4] = rng.pick(&[0, 1, 2, 0xFFFE, 0xFFFF]);
    }
    // Sometimes an instruction that runs to the 64 KiB limit.
    cpu.regs.ip = if rng.byte() < 16 {
        0xFFF0 + (rng.byte() as u32 & 0xF)
    } else {
        rng.next() as u32 & 0xFFFF
    };
    let flags = rng.next() as u32 & !crate::flags::TF;
    cpu.regs.flags = cpu.normalize_flags(flags);
    let mut code = Vec::new();
    let prefixes = [0x66, 0x67, 0x26, 0x2E, 0x36, 0x3E, 0x64, 0x65, 0xF3, 0xF0];
    while rng.byte() < 48 {
        code.push(rng.pick(&prefixes));
    }
    let op = rng.pick(ops);
    code.push(op);
    if op == 0x0F {
        // PUSH/POP FS/GS, or whatever else the two-byte map holds.
        let any = rng.byte();
        let setcc = 0x90 | (rng.byte() & 0x0F);
        code.push(rng.pick(&[
            0xA0, 0xA1, 0xA8, 0xA9, 0xB6, 0xB7, 0xBE, 0xBF, setcc, 0xAF, 0xA3, 0xAB, 0xB3, 0xBB,
            0xBA, 0xBA, any,
        ]));
    }
    code.extend((0..12).map(|_| rng.byte()));
    let at = cpu.linear(cpu.regs.sreg(SegReg::CS), cpu.regs.ip as u16);
    for (i, b) in code.iter().enumerate() {
        bus.mem[(at as usize + i) & 0xFFFF] = *b;
    }
    (cpu, bus)
}

/// Steps on the plain path ([`Cpu::step_plain`], which reuses decoded
/// instructions whose page the CPU has not written since their bytes
/// were last compared) end as generic steps do, when the instructions
/// write their own code and the next: half the time the data, extra
/// and stack segments and the pointer registers point at the code.
/// Each case runs three steps, then three more from its first
/// instruction again over the memory as they left it. (Checked to fail
/// when a write path does not count its page.)
#[test]
fn plain_steps_see_their_own_writes() {
    let ops = opcodes();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for model in [
        CpuModel::I8086,
        CpuModel::I286,
        CpuModel::I386,
        CpuModel::I486,
    ] {
        for n in 0..2_000 {
            let (mut fast, small) = setup(&mut rng, model, &ops);
            // 1 MiB, so that no two addresses below it alias (the
            // page stamps' assumption), holding the 64 KiB 16 times.
            let mut bus_f = FlatBus::new(0x10_0000);
            for (i, b) in bus_f.mem.iter_mut().enumerate() {
                *b = small.mem[i & 0xFFFF];
            }
            let (cs, ip) = (fast.regs.sreg(SegReg::CS), fast.regs.ip);
            if rng.byte() < 128 {
                for s in [SegReg::DS, SegReg::ES, SegReg::SS] {
                    fast.regs.set_sreg(s, cs);
                }
                for r in [3, 5, 6, 7] {
                    fast.regs.gpr[r] = (ip + rng.byte() as u32 % 24) & 0xFFFF;
                }
                fast.regs.gpr[4] = (ip + 6 + rng.byte() as u32 % 24) & 0xFFFF;
            }
            fast.stop_on_fault = n % 2 == 0;
            let mut slow = fast.clone();
            let mut bus_s = bus_f.clone();
            slow.hooks = Some(Box::new(Hooks::new()));
            for step in 0..6 {
                if step == 3 {
                    for c in [&mut fast, &mut slow] {
                        c.regs.set_sreg(SegReg::CS, cs);
                        c.regs.ip = ip;
                    }
                }
                let a = if fast.plain_path() {
                    fast.step_plain(&mut bus_f)
                } else {
                    fast.step(&mut bus_f).event
                };
                let b = slow.step(&mut bus_s).event;
                let what = format!("{model:?} case {n} step {step}");
                assert_eq!(a, b, "{what}: event");
                assert_eq!(fast.regs, slow.regs, "{what}: registers");
                assert_eq!(fast.cycles, slow.cycles, "{what}: clocks");
            }
            assert!(bus_f.mem == bus_s.mem, "{model:?} case {n}: memory");
        }
    }
}

/// The fast path's condition evaluation agrees with the generic one
/// for every condition and every combination of the flags it reads.
#[test]
fn conditions_match() {
    let mut cpu = Cpu::new(CpuModel::I386);
    for bits in 0..32u32 {
        let flags = [0, 2, 6, 7, 11]
            .iter()
            .enumerate()
            .fold(2, |f, (i, b)| f | ((bits >> i) & 1) << b);
        cpu.regs.flags = flags;
        for cc in 0..16 {
            assert_eq!(
                super::alu::condition(flags, cc),
                cpu.condition(cc),
                "{flags:X} {cc}"
            );
        }
    }
}

/// Every step on the fast path (a plain CPU on a bus with a code
/// window) ends as on the generic path (the same CPU with empty
/// hooks, which fetches byte by byte and runs `execute`): registers,
/// memory, clocks and the step's event. (Checked to fail when a fast
/// handler is broken.)
#[test]
fn the_fast_path_matches_the_generic_path() {
    let ops = opcodes();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for model in [
        CpuModel::I8086,
        CpuModel::I286,
        CpuModel::I386,
        CpuModel::I486,
    ] {
        for n in 0..6_000 {
            let (mut fast, mut bus_f) = setup(&mut rng, model, &ops);
            fast.stop_on_fault = n % 2 == 0;
            let mut slow = fast.clone();
            let mut bus_s = bus_f.clone();
            slow.hooks = Some(Box::new(Hooks::new()));
            for step in 0..3 {
                let a = fast.step(&mut bus_f);
                let b = slow.step(&mut bus_s);
                let what = format!("{model:?} case {n} step {step}");
                assert_eq!(a, b, "{what}: step");
                assert_eq!(fast.regs, slow.regs, "{what}: registers");
                assert_eq!(fast.cycles, slow.cycles, "{what}: clocks");
                assert!(bus_f.mem == bus_s.mem, "{what}: memory");
            }
        }
    }
}

/// A flat bus that counts the memory bytes it is told the time of
/// (`Bus::mem_wait_states` per byte on the byte path, the direct
/// accesses' and `Bus::mem_direct_done`'s bytes), as the PC's bus
/// moves its clock by them.
#[derive(Clone)]
struct Timed(FlatBus, u64);

impl Bus for Timed {
    fn mem_read8(&mut self, addr: u32) -> u8 {
        self.0.mem_read8(addr)
    }
    fn mem_write8(&mut self, addr: u32, value: u8) {
        self.0.mem_write8(addr, value)
    }
    fn code_window(&self, addr: u32) -> Option<&[u8]> {
        self.0.code_window(addr)
    }
    fn mem_read_direct(&mut self, addr: u32, n: u32) -> Option<u32> {
        let v = self.0.mem_read_direct(addr, n)?;
        self.1 += n as u64;
        Some(v)
    }
    fn mem_write_direct(&mut self, addr: u32, n: u32, v: u32) -> bool {
        let done = self.0.mem_write_direct(addr, n, v);
        self.1 += done as u64 * n as u64;
        done
    }
    fn data_window(&self, addr: u32) -> Option<&[u8]> {
        self.0.data_window(addr)
    }
    fn ram_mut(&mut self, addr: u32, n: u32) -> Option<&mut [u8]> {
        self.0.ram_mut(addr, n)
    }
    fn mem_direct_done(&mut self, bytes: u64) {
        self.1 += bytes;
    }
    fn mem_wait_states(&mut self, _addr: u32) -> u32 {
        self.1 += 1;
        0
    }
    fn io_read8(&mut self, port: u16) -> u8 {
        self.0.io_read8(port)
    }
    fn io_write8(&mut self, port: u16, value: u8) {
        self.0.io_write8(port, value)
    }
}

/// The stack and transfer handlers (PUSH, POP, near and far CALL,
/// RET, RETF, IRET; their frames in one piece through
/// `Bus::ram_mut` when they can) account the same
/// memory bytes as the generic path, which goes byte by byte, and end
/// as it does. (Steps that enter an interrupt or exception are left
/// out: such a frame has no bus time on the hooked path.) (Checked to fail when `Cpu::push_direct` or
/// `Cpu::pop_bytes` leaves out `Bus::mem_direct_done`, or
/// `Cpu::push_frame` the odd-SP bus cycles.)
#[test]
fn stack_frames_take_the_generic_bus_time() {
    let ops = [
        0x50, 0x53, 0x54, 0x5C, 0x58, 0x5B, 0xE8, 0xC3, 0xC2, 0xCA, 0xCB, 0xCF, 0x9A, 0xFF,
    ];
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut direct = 0;
    for model in [CpuModel::I8086, CpuModel::I286, CpuModel::I386] {
        for n in 0..4_000 {
            let (mut fast, bus) = setup(&mut rng, model, &ops);
            let mut bus_f = Timed(bus, 0);
            let mut slow = fast.clone();
            let mut bus_s = bus_f.clone();
            slow.hooks = Some(Box::new(Hooks::new()));
            for step in 0..3 {
                let sp = fast.regs.get16(4);
                let a = fast.step(&mut bus_f);
                let b = slow.step(&mut bus_s);
                let what = format!("{model:?} case {n} step {step}");
                assert_eq!(a, b, "{what}: step");
                assert_eq!(fast.regs, slow.regs, "{what}: registers");
                assert_eq!(fast.cycles, slow.cycles, "{what}: clocks");
                if a.event == StepEvent::Executed {
                    assert_eq!(bus_f.1, bus_s.1, "{what}: bus bytes");
                }
                (bus_f.1, bus_s.1) = (0, 0);
                assert!(bus_f.0.mem == bus_s.0.mem, "{what}: memory");
                direct += (sp != fast.regs.get16(4)) as u32;
            }
        }
    }
    assert!(direct > 10_000, "{direct} steps moved SP");
}
