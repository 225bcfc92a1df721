//! The x87 transcendentals and FPREM/FPREM1 against the mpmath references of
//! `tools/genx87/gentransc.py` (`tests/vectors/x87-transc.txt.gz`): each case is
//! executed as its ESC instruction by a 386 with a 387. A transcendental result must be
//! within 1 ulp of the exact value (Intel's definition, the 66-bit pi reduction for the
//! trigonometric ones); FPREM and FPREM1 must be exact, status word and all. The counts,
//! correctly rounded counts and largest errors per instruction are printed.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;

use emu::x87::{F80, X87};
use emu::{Cpu, CpuModel, FlatBus, SegReg};
use rustc_apfloat::ieee::{Double, Quad, X87DoubleExtended};
use rustc_apfloat::{Float, FloatConvert};

/// The status word bits every case compares: IE, DE, ZE, PE, SF, C0, C2, C3.
const ALWAYS: u16 = 0x0001 | 0x0002 | 0x0004 | 0x0020 | 0x0040 | 0x0100 | 0x0400 | 0x4000;
/// The bits that follow the rounding (C1, OE, UE): compared when the result is the
/// correctly rounded one.
const ROUNDING: u16 = 0x0200 | 0x0008 | 0x0010;

/// One reference case (the line format is in `tools/genx87/README.md`).
struct Case {
    line: String,
    name: String,
    cw: u16,
    st0: Option<F80>,
    st1: Option<F80>,
    full: bool,
    top_change: i8,
    out: [Option<F80>; 3],
    sw: u16,
    refs: [Option<u128>; 2],
}

fn f80(s: &str) -> Option<F80> {
    (s != "-").then(|| {
        let v = u128::from_str_radix(s, 16).unwrap_or_else(|e| panic!("bad value {s}: {e}"));
        F80 {
            se: (v >> 64) as u16,
            sig: v as u64,
        }
    })
}

fn parse(line: &str) -> Case {
    let f: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(f.len(), 12, "bad line: {line}");
    let hex16 = |s: &str| u16::from_str_radix(s, 16).unwrap_or_else(|e| panic!("{line}: {e}"));
    let quad = |s: &str| {
        (s != "=").then(|| u128::from_str_radix(s, 16).unwrap_or_else(|e| panic!("{line}: {e}")))
    };
    Case {
        line: line.to_string(),
        name: f[0].to_string(),
        cw: hex16(f[1]),
        st0: f80(f[2]),
        st1: f80(f[3]),
        full: f[4] == "1",
        top_change: f[5].parse().unwrap_or_else(|e| panic!("{line}: {e}")),
        out: [f80(f[6]), f80(f[7]), f80(f[8])],
        sw: hex16(f[9]),
        refs: [quad(f[10]), quad(f[11])],
    }
}

fn cases() -> Vec<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("vectors/x87-transc.txt.gz");
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(parse)
        .collect()
}

/// The second byte of the D9 form of `name`.
fn opcode(name: &str) -> u8 {
    match name {
        "F2XM1" => 0xF0,
        "FYL2X" => 0xF1,
        "FPTAN" => 0xF2,
        "FPATAN" => 0xF3,
        "FPREM1" => 0xF5,
        "FPREM" => 0xF8,
        "FYL2XP1" => 0xF9,
        "FSINCOS" => 0xFB,
        "FSIN" => 0xFE,
        "FCOS" => 0xFF,
        _ => panic!("unknown instruction {name}"),
    }
}

const ONE: F80 = F80::new(false, 0x3FFF, 1 << 63);

/// Runs the case's instruction on a 386 with a 387 at 1000:0100; the unit after it.
fn execute(c: &Case) -> X87 {
    let mut bus = FlatBus::new(1 << 20);
    bus.mem[0x10100] = 0xD9;
    bus.mem[0x10101] = opcode(&c.name);
    let mut cpu = Cpu::new(CpuModel::I386);
    cpu.regs.set_sreg(SegReg::CS, 0x1000);
    cpu.regs.ip = 0x100;
    let mut f = X87::new();
    f.load_control(c.cw);
    for (i, v) in [(0, c.st0), (1, c.st1), (7, c.full.then_some(ONE))] {
        if let Some(v) = v {
            f.set_st(i, v);
        }
    }
    cpu.fpu = Some(f);
    cpu.step(&mut bus);
    assert_eq!(
        cpu.regs.ip, 0x102,
        "{}: the instruction did not run",
        c.line
    );
    cpu.fpu
        .clone()
        .unwrap_or_else(|| panic!("{}: the unit is gone", c.line))
}

fn quad(v: F80) -> Quad {
    let x = X87DoubleExtended::from_bits(((v.se as u128) << 64) | v.sig as u128);
    x.convert(&mut false).value
}

/// |got - reference| in units in the last place of the correctly rounded `want`.
fn ulps(got: F80, want: F80, reference: u128) -> f64 {
    if got.exp() == 0x7FFF || want.exp() == 0x7FFF {
        return if got == want { 0.0 } else { f64::INFINITY };
    }
    let diff = (quad(got) - Quad::from_bits(reference)).value.abs();
    let ulp = Quad::from_u128(1)
        .value
        .scalbn(want.exp().max(1) as i32 - 16383 - 63);
    let e: Double = (diff / ulp).value.convert(&mut false).value;
    f64::from_bits(e.to_bits() as u64)
}

#[derive(Default)]
struct Tally {
    count: u32,
    correctly_rounded: u32,
    max_ulps: f64,
    max_ulps_nearest: f64,
    failures: Vec<String>,
}

/// Compares the unit after `c` with the reference; adds to `t`.
fn check(c: &Case, got: &X87, t: &mut Tally) {
    t.count += 1;
    let mut fail = Vec::new();
    let exact = c.name.starts_with("FPREM");
    let top = (8 + c.top_change as i32) as u8 & 7;
    if got.top != top {
        fail.push(format!("TOP {} (want {top})", got.top));
    }
    let mut rounded_ok = true;
    for (i, want) in c.out.iter().enumerate() {
        let v = (!got.is_empty(i as u8)).then(|| got.st(i as u8));
        let reference = c.refs.get(i).copied().flatten();
        match (v, want, reference) {
            (Some(v), Some(w), Some(r)) if !exact => {
                let e = ulps(v, *w, r);
                t.max_ulps = t.max_ulps.max(e);
                if c.cw & 0x0C00 == 0 {
                    t.max_ulps_nearest = t.max_ulps_nearest.max(e);
                }
                if v != *w {
                    rounded_ok = false;
                }
                if e > 1.0 {
                    fail.push(format!("ST({i}) {:04X}{:016X}: {e} ulps", v.se, v.sig));
                }
            }
            _ if v == *want => {}
            _ => fail.push(format!("ST({i}) {v:?}, want {want:?}")),
        }
    }
    let mask = if exact || rounded_ok {
        ALWAYS | ROUNDING
    } else {
        ALWAYS
    };
    if (got.status ^ c.sw) & mask != 0 {
        fail.push(format!("SW {:04X} (want {:04X})", got.status, c.sw));
    }
    if rounded_ok && fail.is_empty() {
        t.correctly_rounded += 1;
    }
    if !fail.is_empty() {
        t.failures
            .push(format!("{}\n    {}", c.line, fail.join("; ")));
    }
}

#[test]
fn transcendentals_and_fprem_match_the_references() {
    let cases = cases();
    assert!(cases.len() >= 5000, "only {} cases", cases.len());
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    for c in &cases {
        let got = execute(c);
        check(c, &got, tally.entry(c.name.clone()).or_default());
    }
    assert_eq!(tally.len(), 10, "instructions missing");
    println!("instruction  cases  correctly rounded  max error (ulp)  max error, RC nearest");
    let mut failures = Vec::new();
    for (name, t) in &tally {
        println!(
            "{name:<11} {:>6} {:>18} {:>16.9} {:>22.9}",
            t.count, t.correctly_rounded, t.max_ulps, t.max_ulps_nearest
        );
        failures.extend(t.failures.iter().take(5).cloned());
    }
    let failed: usize = tally.values().map(|t| t.failures.len()).sum();
    assert!(failed == 0, "{failed} cases fail:\n{}", failures.join("\n"));
}
