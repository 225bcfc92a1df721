//! The x87's behaviour where the Unicorn vectors (`tests/vectors/x87`)
//! depart from Intel's manual and so cannot check the core (the
//! `departures` and field-level marks of `tools/genx87/README.md`): each
//! expected value is worked out from the SDM section cited.

mod common;

use common::{cpu_at, TestBus};
use emu::x87::{SavedState, F80, X87};
use emu::{Cpu, CpuModel, StepEvent};

const IE: u16 = 1 << 0;
const DE: u16 = 1 << 1;
const SF: u16 = 1 << 6;
const ES: u16 = 1 << 7;
const C1: u16 = 1 << 9;
/// Every exception masked, 64-bit precision, round to nearest.
const CW: u16 = 0x037F;

const ONE: F80 = F80::new(false, 0x3FFF, 1 << 63);
const TWO: F80 = F80::new(false, 0x4000, 1 << 63);
/// The real indefinite (SDM vol. 1 §4.8.3.7).
const INDEFINITE: F80 = F80::new(true, 0x7FFF, 0xC000_0000_0000_0000);
const INF: F80 = F80::new(false, 0x7FFF, 1 << 63);

/// A unit with control word `cw`, TOP = 0 and `st` in ST(0), ST(1), ...;
/// the other registers empty.
fn unit(cw: u16, st: &[F80]) -> X87 {
    let mut regs = [F80::default(); 8];
    regs[..st.len()].copy_from_slice(st);
    X87::from_saved(&SavedState {
        cw,
        sw: 0,
        tw: (0xFFFF_u32 << (2 * st.len())) as u16,
        fip: 0,
        fop: 0,
        fdp: 0,
        st: regs,
    })
}

/// Runs one instruction `code` at 1000:0100 on a 386 with `fpu` and `data`
/// at 1000:0200; returns the unit and the bus afterwards.
fn run(fpu: X87, code: &[u8], data: &[u8]) -> (X87, TestBus) {
    let mut bus = TestBus::new(1 << 20, 8);
    bus.put(0x10100, code);
    bus.put(0x10200, data);
    let mut cpu: Cpu = cpu_at(
        CpuModel::I386,
        [0, 0x1000, 0x1000, 0x1000, 0, 0],
        0x100,
        0x100,
    );
    cpu.fpu = Some(fpu);
    assert_eq!(cpu.step(&mut bus).event, StepEvent::Executed);
    (cpu.fpu.take().unwrap_or_default(), bus)
}

#[test]
fn stack_underflow_and_overflow_store_the_indefinite() {
    // SDM vol. 1 §8.5.1.1: IE and SF, C1 = 0 on underflow, 1 on overflow;
    // masked, the indefinite is the result. FADD ST, ST(1) (D8 C1) with
    // ST(1) empty:
    let (f, _) = run(unit(CW, &[ONE]), &[0xD8, 0xC1], &[]);
    assert_eq!(f.status & (IE | SF | C1), IE | SF);
    assert_eq!(f.st(0), INDEFINITE);
    // FLD1 (D9 E8) onto a full stack: TOP moves, ST(0) is the indefinite.
    let (f, _) = run(unit(CW, &[ONE; 8]), &[0xD9, 0xE8], &[]);
    assert_eq!(f.status & (IE | SF | C1), IE | SF | C1);
    assert_eq!((f.top, f.st(0)), (7, INDEFINITE));
}

#[test]
fn denormal_operands_set_de_and_unmasked_leave_the_destination() {
    // SDM vol. 1 §8.5.2: DE for a denormal operand; masked, the operation
    // goes on; unmasked, nothing is stored. FADD ST, ST(1) = 1 + 2^-16445.
    let tiny = F80::new(false, 0, 1);
    let (f, _) = run(unit(CW, &[ONE, tiny]), &[0xD8, 0xC1], &[]);
    assert_eq!(f.status & (IE | DE), DE);
    assert_eq!(f.st(0), ONE); // rounds to 1 (and PE)
    let (f, _) = run(unit(CW & !DE, &[TWO, tiny]), &[0xD8, 0xC1], &[]);
    assert_eq!(f.status & (DE | ES), DE | ES);
    assert_eq!(f.st(0), TWO);
}

#[test]
fn unsupported_encodings_are_invalid_and_pseudo_denormals_denormal() {
    // SDM vol. 1 §8.2.2, table 8-3: an unnormal, a pseudo-NaN and a
    // pseudo-infinity are invalid operands (masked: the indefinite);
    let unnormal = F80::new(false, 0x3FFF, 1 << 62);
    let pseudo_inf = F80::new(false, 0x7FFF, 0);
    for bad in [unnormal, pseudo_inf, F80::new(false, 0x7FFF, 1)] {
        let (f, _) = run(unit(CW, &[ONE, bad]), &[0xD8, 0xC1], &[]);
        assert_eq!(f.status & (IE | DE), IE, "{bad:?}");
        assert_eq!(f.st(0), INDEFINITE, "{bad:?}");
    }
    // a pseudo-denormal (exponent 0, integer bit set) is a denormal worth
    // 2^-16382: 1 + 2^-16382 rounds to 1 with DE.
    let pseudo_denormal = F80::new(false, 0, 1 << 63);
    let (f, _) = run(unit(CW, &[ONE, pseudo_denormal]), &[0xD8, 0xC1], &[]);
    assert_eq!(f.status & (IE | DE), DE);
    assert_eq!(f.st(0), ONE);
}

#[test]
fn precision_control_does_not_round_fscale() {
    // SDM vol. 1 §8.1.5.2: PC affects only FADD, FSUB(R), FMUL, FDIV(R) and
    // FSQRT. FSCALE (D9 FD) of a 64-bit significand by 1 under PC = 24 bits
    // keeps all 64 bits.
    let full = F80::new(false, 0x3FFF, u64::MAX);
    let (f, _) = run(unit(0x007F, &[full, ONE]), &[0xD9, 0xFD], &[]);
    assert_eq!(f.st(0), F80::new(false, 0x4000, u64::MAX));
}

#[test]
fn fnop_updates_the_instruction_pointer_and_opcode() {
    // SDM vol. 1 §8.1.8: only the control instructions leave FIP and the
    // opcode alone; FNOP (D9 D0) at 1000:0100 is not one of them.
    let (f, _) = run(unit(CW, &[]), &[0xD9, 0xD0], &[]);
    assert_eq!((f.fip, f.fop), (0x10100, 0x1D0));
    assert_eq!(f.status, 0); // no stack check on an empty stack
}

#[test]
fn snan_operands_signal_and_are_quieted() {
    // SDM vol. 1 §4.8.3.4 and table 4-7: an SNaN operand raises IE and,
    // masked, the result is the SNaN made quiet. FADD ST, ST(1) with an
    // SNaN in ST(1):
    let snan = F80::new(false, 0x7FFF, 0x8000_0000_0000_1234);
    let (f, _) = run(unit(CW, &[ONE, snan]), &[0xD8, 0xC1], &[]);
    assert_eq!(f.status & IE, IE);
    assert_eq!(f.st(0), F80::new(false, 0x7FFF, 0xC000_0000_0000_1234));
}

#[test]
fn fxtract_of_an_infinity_or_a_nan() {
    // SDM vol. 2 FXTRACT (and the 80387 PRM): -infinity splits into a
    // -infinity significand and a +infinity exponent; a QNaN into two.
    let (f, _) = run(unit(CW, &[INF.negated()]), &[0xD9, 0xF4], &[]);
    assert_eq!((f.st(0), f.st(1)), (INF.negated(), INF));
    let qnan = F80::new(false, 0x7FFF, 0xC000_0000_0000_0042);
    let (f, _) = run(unit(CW, &[qnan]), &[0xD9, 0xF4], &[]);
    assert_eq!((f.st(0), f.st(1), f.status & IE), (qnan, qnan, 0));
}

#[test]
fn fst_into_an_empty_register_tags_it() {
    // SDM vol. 1 §8.1.7: a register's tag follows what is written to it.
    // FST ST(2) (DD D2) with ST(2) empty: no fault, ST(2) tagged valid.
    let (f, _) = run(unit(CW, &[TWO]), &[0xDD, 0xD2], &[]);
    assert_eq!(f.st(2), TWO);
    assert_eq!((f.tags >> 4) & 3, 0);
    assert_eq!(f.status & IE, 0);
}

#[test]
fn fnstenv_masks_every_exception_after_storing() {
    // SDM vol. 2 FSTENV/FNSTENV: the image holds the control word as it
    // was; then all exceptions are masked. FNSTENV [0200h] (D9 36 00 02).
    let (f, bus) = run(unit(0x0360, &[]), &[0xD9, 0x36, 0x00, 0x02], &[]);
    assert_eq!(bus.bytes(0x10200, 2), [0x60, 0x03]);
    assert_eq!(f.control, 0x037F);
}

#[test]
fn fbstp_stores_minus_zero_and_the_bcd_indefinite() {
    // SDM vol. 2 FBSTP: -0 is stored as -0 (sign byte 80h); a value beyond
    // 18 digits is invalid and, masked, stores the packed BCD indefinite
    // (FFFF C000 0000 0000 0000h, SDM vol. 1 §4.7). FBSTP [0200h].
    let code = [0xDF, 0x36, 0x00, 0x02];
    let (_, bus) = run(unit(CW, &[F80::new(true, 0, 0)]), &code, &[0xAA; 10]);
    assert_eq!(bus.bytes(0x10200, 10), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80]);
    let big = F80::new(false, 0x3FFF + 62, 1 << 63); // 2^62 > 10^18
    let (f, bus) = run(unit(CW, &[big]), &code, &[0xAA; 10]);
    assert_eq!(
        bus.bytes(0x10200, 10),
        [0, 0, 0, 0, 0, 0, 0, 0xC0, 0xFF, 0xFF]
    );
    assert_eq!(f.status & IE, IE);
}

#[test]
fn fldcw_reads_the_reserved_bits_back_fixed() {
    // SDM vol. 1 §8.1.5, figure 8-6: bits 6-7 and 13-15 are reserved; the
    // 387 and later read bit 6 as 1 and the others as 0. FLDCW [0200h]
    // (D9 2E 00 02) of FFFFh.
    let (f, _) = run(unit(CW, &[]), &[0xD9, 0x2E, 0x00, 0x02], &[0xFF, 0xFF]);
    assert_eq!(f.control, 0x1F7F);
}

#[test]
fn inexact_results_set_pe_and_c1_when_rounded_up() {
    // SDM vol. 1 §8.1.3.1 and §8.5.6: an inexact result sets PE, and C1
    // when it was rounded up in magnitude. 2/3 (FDIV ST, ST(1), D8 F1) to
    // nearest rounds up (AAAB...), toward zero it does not.
    let three = F80::new(false, 0x4000, 0xC000_0000_0000_0000);
    let (f, _) = run(unit(CW, &[TWO, three]), &[0xD8, 0xF1], &[]);
    assert_eq!(f.st(0), F80::new(false, 0x3FFE, 0xAAAA_AAAA_AAAA_AAAB));
    assert_eq!(f.status & (C1 | 0x20), C1 | 0x20);
    let (f, _) = run(unit(CW | 0x0C00, &[TWO, three]), &[0xD8, 0xF1], &[]);
    assert_eq!(f.st(0), F80::new(false, 0x3FFE, 0xAAAA_AAAA_AAAA_AAAA));
    assert_eq!(f.status & (C1 | 0x20), 0x20);
}

#[test]
fn precision_control_rounds_a_tiny_result_at_the_same_bit() {
    // SDM vol. 1 §8.1.5.2: PC = 53 bits rounds the significand to 53 bits,
    // i.e. at bit 11 of the 64-bit field, and a denormal result keeps that
    // rounding point (the field is denormalised first, then rounded). (1 +
    // 2^-52) * 2^-16382 / 2 (FMUL ST, ST(1), D8 C9) is the field 4000 0000
    // 0000 0400h: the half-way bit 10 rounds to even, down, with UE and PE.
    let a = F80::new(false, 1, 0x8000_0000_0000_0800);
    let half = F80::new(false, 0x3FFE, 1 << 63);
    let (f, _) = run(unit(0x027F, &[a, half]), &[0xD8, 0xC9], &[]);
    assert_eq!(f.st(0), F80::new(false, 0, 0x4000_0000_0000_0000));
    assert_eq!(f.status & 0x30, 0x30);
}

/// FPREM (D9 F8) and FPREM1 (D9 F5) whose result is a NaN end the
/// reduction: C2 = 0 ("reduction complete", SDM vol. 2 FPREM), even when
/// a previous partial reduction left it set, so the usual
/// `fprem; fnstsw ax; sahf; jp again` loop terminates.
#[test]
fn fprem_with_a_nan_result_clears_c2() {
    const C2: u16 = 1 << 10;
    let qnan = F80::new(false, 0x7FFF, 0xC000_0000_0000_0001);
    for op in [0xF8, 0xF5] {
        for (st, what) in [
            (vec![qnan, TWO], "a QNaN dividend"),
            (vec![INF, TWO], "an infinite dividend (invalid)"),
            (vec![ONE], "an empty divisor (stack fault)"),
        ] {
            let mut fpu = unit(CW, &st);
            fpu.status |= C2;
            let (fpu, _) = run(fpu, &[0xD9, op], &[]);
            assert_eq!(fpu.status & C2, 0, "D9 {op:02X} with {what}");
        }
    }
}
