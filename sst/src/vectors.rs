//! The 386 real-mode instruction vectors (`shared/vectors/386-real`, format
//! in `shared/tools/gen386/README.md`): gzip'd JSON arrays of tests, each one
//! instruction with its initial and final registers and memory, the flags
//! to compare, and the exception the instruction raises (recorded at the
//! fault, before delivery). [`crate::runner::VectorRunner`] runs them.
//!
//! The x87 and 486 vectors (`tests/vectors/x87`, `tests/vectors/486-real`,
//! format in `tools/genx87/README.md`) extend the format with the FPU state
//! ([`FpuState`]), the FPU fields not to compare ([`FpuField`]) and the marks
//! of the tests where Unicorn departs from Intel's manual ([`Departure`]).

use std::collections::HashMap;
use std::io::Read;
use std::ops::{Deref, DerefMut};
use std::path::Path;

use emu::x87::{SavedState, F80};
use serde::Deserialize;

use crate::error::SstError;

/// One test of the vector format.
#[derive(Debug, Deserialize)]
pub struct Vector {
    /// Disassembly (informative).
    pub name: String,
    /// The instruction's bytes.
    pub bytes: Vec<u8>,
    /// The initial state.
    pub initial: VectorState,
    /// The final state (registers `null` only for an inconsistent record).
    #[serde(rename = "final")]
    pub fin: VectorFinal,
    /// The exception the instruction raises, if any.
    pub exception: Option<VectorException>,
    /// EFLAGS bits to compare.
    pub flags_mask: u32,
    /// Register bits NOT to compare, by register name.
    #[serde(default)]
    pub regs_undefined: HashMap<String, u32>,
    /// Written bytes whose value is undefined.
    #[serde(default)]
    pub ram_undefined: Vec<u32>,
    /// FPU fields NOT to compare (x87 vectors).
    #[serde(default)]
    pub fpu_unchecked: Vec<FpuField>,
    /// Where the recording (Unicorn) departs from Intel's manual: a runner
    /// skips such a test and lists it.
    #[serde(default)]
    pub departures: Vec<Departure>,
}

/// Registers and memory.
#[derive(Debug, Deserialize)]
pub struct VectorState {
    /// Registers by name (`eax`... `gs`, `eip`, `eflags`).
    pub regs: HashMap<String, u32>,
    /// Memory bytes: linear address and value.
    pub ram: Vec<(u32, u8)>,
    /// The FPU state (x87 vectors only).
    #[serde(default)]
    pub fpu: Option<FpuState>,
}

/// The final registers (possibly absent) and memory.
#[derive(Debug, Deserialize)]
pub struct VectorFinal {
    /// Registers by name.
    pub regs: Option<HashMap<String, u32>>,
    /// Final values of the bytes written.
    pub ram: Vec<(u32, u8)>,
    /// The FPU state (x87 vectors only).
    #[serde(default)]
    pub fpu: Option<FpuState>,
}

/// The x87 state as the real-mode 16-bit FNSAVE image holds it (Intel SDM
/// vol. 1 §8.1.10): the unit's own [`SavedState`] (control, status and tag
/// words, the 20-bit linear FIP and FDP, the 11-bit opcode, ST(0)..ST(7) in
/// stack order), read from the format's hex registers.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "RawFpuState")]
pub struct FpuState(pub SavedState);

impl Deref for FpuState {
    type Target = SavedState;

    fn deref(&self) -> &SavedState {
        &self.0
    }
}

impl DerefMut for FpuState {
    fn deref_mut(&mut self) -> &mut SavedState {
        &mut self.0
    }
}

impl FpuState {
    /// TOP, the physical number of ST(0).
    pub fn top(&self) -> usize {
        usize::from((self.sw >> 11) & 7)
    }

    /// The physical register `i` (R0..R7), whichever ST(j) it is.
    pub fn physical(&self, i: usize) -> F80 {
        self.st[(i + 8 - self.top()) % 8]
    }

    /// The fields of `got` that differ from this expected state, by name
    /// (`cw`, `sw`, `tw`, `fip`, `fop`, `fdp`, `st0`..`st7`), leaving out
    /// `unchecked`: what a runner reports for an x87 vector.
    pub fn differences(&self, got: &FpuState, unchecked: &[FpuField]) -> Vec<&'static str> {
        const ST: [&str; 8] = ["st0", "st1", "st2", "st3", "st4", "st5", "st6", "st7"];
        let mut sw_mask = 0xFFFF;
        for (field, bits) in [
            (FpuField::Flags, SW_FLAGS),
            (FpuField::Cc, SW_CC),
            (FpuField::C1, SW_C1),
        ] {
            if unchecked.contains(&field) {
                sw_mask &= !bits;
            }
        }
        let words = [
            ("cw", self.cw == got.cw, None),
            ("sw", (self.sw ^ got.sw) & sw_mask == 0, None),
            ("tw", self.tw == got.tw, None),
            ("fip", self.fip == got.fip, Some(FpuField::Fip)),
            ("fop", self.fop == got.fop, Some(FpuField::Fop)),
            ("fdp", self.fdp == got.fdp, Some(FpuField::Fdp)),
        ];
        let mut out: Vec<&'static str> = words
            .into_iter()
            .filter(|(_, same, field)| !same && !field.is_some_and(|f| unchecked.contains(&f)))
            .map(|(name, _, _)| name)
            .collect();
        out.extend((0..8).filter(|&i| self.st[i] != got.st[i]).map(|i| ST[i]));
        out
    }
}

/// [`FpuState`] as the JSON holds it: registers in hex.
#[derive(Deserialize)]
struct RawFpuState {
    cw: u16,
    sw: u16,
    tw: u16,
    fip: u32,
    fop: u16,
    fdp: u32,
    st: Vec<String>,
}

/// Why an `fpu` object of a vector is not a real-mode x87 image.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FpuStateError {
    /// `st` does not list the eight registers.
    #[error("{0} x87 registers, not 8")]
    RegisterCount(usize),
    /// A register is not 20 hex digits.
    #[error("not an 80-bit hex register: {0:?}")]
    NotARegister(String),
    /// FIP or FDP past 20 bits, or FOP past 11.
    #[error("FPU pointer or opcode wider than the real-mode image")]
    PointerTooWide,
}

impl TryFrom<RawFpuState> for FpuState {
    type Error = FpuStateError;

    fn try_from(raw: RawFpuState) -> Result<Self, FpuStateError> {
        if raw.st.len() != 8 {
            return Err(FpuStateError::RegisterCount(raw.st.len()));
        }
        let mut st = [F80::default(); 8];
        for (slot, hex) in st.iter_mut().zip(&raw.st) {
            let v = u128::from_str_radix(hex, 16)
                .ok()
                .filter(|v| hex.len() == 20 && *v >> 80 == 0)
                .ok_or_else(|| FpuStateError::NotARegister(hex.clone()))?;
            *slot = F80 {
                se: (v >> 64) as u16,
                sig: v as u64,
            };
        }
        if raw.fip >> 20 != 0 || raw.fdp >> 20 != 0 || raw.fop >> 11 != 0 {
            return Err(FpuStateError::PointerTooWide);
        }
        Ok(FpuState(SavedState {
            cw: raw.cw,
            sw: raw.sw,
            tw: raw.tw,
            fip: raw.fip,
            fop: raw.fop,
            fdp: raw.fdp,
            st,
        }))
    }
}

/// The status word bits [`FpuField::Flags`] leaves out: the exception
/// flags IE, DE, ZE, OE, UE, PE, the stack fault SF, the summary ES, busy B
/// and condition code C1.
pub const SW_FLAGS: u16 = 0x82FF;

/// The condition codes C0, C2 and C3 that [`FpuField::Cc`] leaves out.
pub const SW_CC: u16 = 0x4500;

/// The condition code C1 that [`FpuField::C1`] leaves out.
pub const SW_C1: u16 = 0x0200;

/// An FPU field a test leaves unchecked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FpuField {
    /// The instruction pointer.
    Fip,
    /// The operand pointer.
    Fdp,
    /// The opcode.
    Fop,
    /// The status word's exception flags, SF, ES, B and C1 ([`SW_FLAGS`]):
    /// Unicorn 2.1.4 sets none of them as Intel does (only ZE, on any
    /// divide by zero); C0, C2, C3 and TOP are still compared.
    Flags,
    /// Condition codes C0, C2 and C3 ([`SW_CC`]), which the instruction
    /// leaves undefined (SDM vol. 2, "FPU Flags Affected").
    Cc,
    /// Condition code C1 ([`SW_C1`]): QEMU 7.2 leaves it as it was where
    /// Intel sets it to the round-up bit or clears it (SDM vol. 1
    /// §8.1.3.1); the exception flags are still compared.
    C1,
}

/// Where the recording emulator departs from Intel's manual: Unicorn for
/// `x87` and `486-real`, QEMU 7.2 for `x87-qemu` (the two tables of
/// `tools/genx87/README.md`, with the manual's sections).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Departure {
    /// Transcendental results computed in host `double` (SDM vol. 1 §8.3.10).
    Transcendental,
    /// FPREM/FPREM1 computed in host `double` (SDM vol. 2 FPREM).
    Fprem,
    /// DE is never set for denormal operands (SDM vol. 1 §8.5.2).
    DenormalFlag,
    /// Unnormals, pseudo-NaNs, pseudo-infinities, pseudo-denormals taken as
    /// ordinary values (SDM vol. 1 §8.2.2).
    InvalidEncoding,
    /// No stack overflow/underflow checks (SDM vol. 1 §8.5.1.1).
    StackFault,
    /// Results stored as if the exception were masked (SDM vol. 1 §8.5, §8.6).
    UnmaskedException,
    /// Precision control applied beyond FADD/FSUB/FMUL/FDIV/FSQRT (SDM
    /// vol. 1 §8.1.5.2).
    PrecisionControl,
    /// FBLD of a non-decimal digit: undefined (SDM vol. 2 FBLD).
    BcdInvalidDigit,
    /// LOCK with a register destination runs instead of raising #UD (SDM
    /// vol. 2 LOCK).
    LockRegister,
    /// An SNaN operand neither signals nor is quieted (SDM vol. 1 §4.8.3.4,
    /// §8.5.1.2).
    SnanOperand,
    /// FLDL2T, FLDL2E, FLDPI, FLDLG2, FLDLN2 ignore the rounding control
    /// (SDM vol. 2 FLD1/FLDL2T/FLDL2E/FLDPI/FLDLG2/FLDLN2/FLDZ).
    ConstantRounding,
    /// Reserved control-word bits kept as loaded (SDM vol. 1 §8.1.5).
    ReservedControlBits,
    /// FXTRACT of a NaN or an infinity computed as a number (SDM vol. 2
    /// FXTRACT).
    FxtractSpecial,
    /// FST/FSTP ST(i) into an empty register leaves it tagged empty (SDM
    /// vol. 1 §8.1.7).
    FstEmptyTag,
    /// FNSTENV leaves the exceptions unmasked (SDM vol. 2 FSTENV/FNSTENV).
    FnstenvMasking,
    /// FBSTP of -0, NaN, infinity or beyond 18 digits stores +0 or wrapped
    /// digits (SDM vol. 2 FBSTP).
    FbstpSpecial,
    /// F2XM1 outside -1..+1, FYL2XP1 outside +-(1 - sqrt(2)/2): undefined
    /// (SDM vol. 2 F2XM1, FYL2XP1); QEMU 7.2 raises #IA.
    TranscendentalDomain,
    /// A pseudo-NaN with bit 62 clear taken for an SNaN and quieted by
    /// FYL2X, FPATAN, FYL2XP1, where the 387 and later raise #IA and give the
    /// indefinite (SDM vol. 1 §8.2.2, table 8-3).
    PseudoNanSignaling,
    /// FPREM/FPREM1 with a NaN result: C0, C2, C3 cleared, where the SDM
    /// defines no quotient (SDM vol. 2 FPREM, FPREM1).
    FpremSpecialCc,
    /// FPREM1 leaves C0, C3, C1 clear instead of the quotient's low bits
    /// (SDM vol. 2 FPREM1).
    Fprem1Quotient,
}

impl Departure {
    /// Every departure, in report order.
    pub const ALL: [Departure; 20] = [
        Departure::Transcendental,
        Departure::Fprem,
        Departure::DenormalFlag,
        Departure::InvalidEncoding,
        Departure::StackFault,
        Departure::UnmaskedException,
        Departure::PrecisionControl,
        Departure::BcdInvalidDigit,
        Departure::LockRegister,
        Departure::SnanOperand,
        Departure::ConstantRounding,
        Departure::ReservedControlBits,
        Departure::FxtractSpecial,
        Departure::FstEmptyTag,
        Departure::FnstenvMasking,
        Departure::FbstpSpecial,
        Departure::TranscendentalDomain,
        Departure::PseudoNanSignaling,
        Departure::FpremSpecialCc,
        Departure::Fprem1Quotient,
    ];

    /// The name the files use.
    pub fn name(self) -> &'static str {
        match self {
            Departure::Transcendental => "transcendental",
            Departure::Fprem => "fprem",
            Departure::DenormalFlag => "denormal-flag",
            Departure::InvalidEncoding => "invalid-encoding",
            Departure::StackFault => "stack-fault",
            Departure::UnmaskedException => "unmasked-exception",
            Departure::PrecisionControl => "precision-control",
            Departure::BcdInvalidDigit => "bcd-invalid-digit",
            Departure::LockRegister => "lock-register",
            Departure::SnanOperand => "snan-operand",
            Departure::ConstantRounding => "constant-rounding",
            Departure::ReservedControlBits => "reserved-control-bits",
            Departure::FxtractSpecial => "fxtract-special",
            Departure::FstEmptyTag => "fst-empty-tag",
            Departure::FnstenvMasking => "fnstenv-masking",
            Departure::FbstpSpecial => "fbstp-special",
            Departure::TranscendentalDomain => "transcendental-domain",
            Departure::PseudoNanSignaling => "pseudo-nan-signaling",
            Departure::FpremSpecialCc => "fprem-special-cc",
            Departure::Fprem1Quotient => "fprem1-quotient",
        }
    }
}

/// A recorded exception.
#[derive(Debug, Deserialize)]
pub struct VectorException {
    /// Its vector number.
    pub vector: u8,
}

/// True for a vector file name (`*.json.gz`, but not `index.json`).
pub fn is_vector_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.ends_with(".json.gz") || (l.ends_with(".json") && l != "index.json" && l != "metadata.json")
}

/// Reads a vector file (gzip'd or plain JSON).
pub fn read_vector_file(path: &Path) -> Result<Vec<Vector>, SstError> {
    let err = |m: String| SstError::input(path, m);
    let raw = std::fs::read(path).map_err(|e| err(format!("cannot read: {e}")))?;
    let text = if raw.starts_with(&[0x1F, 0x8B]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .map_err(|e| err(format!("bad gzip data: {e}")))?;
        out
    } else {
        raw
    };
    serde_json::from_slice(&text).map_err(|e| err(format!("not a vector file: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FPU: &str = r#"{"cw":895,"sw":14336,"tw":65535,"fip":61680,"fop":1377,"fdp":0,
        "st":["3fff8000000000000000","0","0","0","0","0","0","0"]}"#;

    /// [`FPU`] with ST(1)..ST(7) set to `hex`.
    fn fpu_with(hex: &str) -> Result<FpuState, serde_json::Error> {
        let regs = vec![format!("\"{hex}\""); 7].join(",");
        serde_json::from_str(&FPU.replace(r#""0","0","0","0","0","0","0""#, &regs))
    }

    #[test]
    fn fpu_state_parses_registers_in_stack_order() {
        let fpu = fpu_with("00000000000000000001").expect("valid FPU state");
        assert_eq!(fpu.top(), 7);
        assert_eq!(fpu.st[0], F80::new(false, 0x3FFF, 1 << 63));
        assert_eq!(fpu.physical(7), fpu.st[0]);
        assert_eq!(fpu.physical(0), F80::new(false, 0, 1));
        assert_eq!(fpu.fop, 1377);
    }

    #[test]
    fn fpu_differences_leave_out_unchecked_fields() {
        let want = fpu_with("00000000000000000000").expect("valid FPU state");
        let mut got = want.clone();
        assert!(want.differences(&got, &[]).is_empty());
        got.fop = 0;
        got.st[3] = F80::new(false, 0, 1);
        got.sw ^= 0x0200;
        assert_eq!(want.differences(&got, &[]), ["sw", "fop", "st3"]);
        assert_eq!(want.differences(&got, &[FpuField::Fop]), ["sw", "st3"]);
        // C1 (0200h) is one of the flags; C0 (0100h) is not.
        assert_eq!(want.differences(&got, &[FpuField::Flags]), ["fop", "st3"]);
        got.sw ^= 0x0100;
        assert_eq!(
            want.differences(&got, &[FpuField::Flags]),
            ["sw", "fop", "st3"]
        );
        let both = [FpuField::Flags, FpuField::Cc];
        assert_eq!(want.differences(&got, &both), ["fop", "st3"]);
        got.sw ^= 0x0800; // TOP
        assert_eq!(want.differences(&got, &both), ["sw", "fop", "st3"]);
    }

    #[test]
    fn fpu_state_rejects_short_or_wide_registers() {
        assert!(serde_json::from_str::<FpuState>(FPU).is_err());
        assert!(fpu_with("100000000000000000000").is_err());
        assert!(fpu_with("1000000000000000000000").is_err());
        assert!(fpu_with("0000000000000000000g").is_err());
    }

    #[test]
    fn departures_and_unchecked_fields_are_typed() {
        let d: Vec<Departure> =
            serde_json::from_str(r#"["transcendental","lock-register"]"#).expect("known codes");
        assert_eq!(d, [Departure::Transcendental, Departure::LockRegister]);
        assert!(serde_json::from_str::<Vec<Departure>>(r#"["other"]"#).is_err());
        for d in Departure::ALL {
            let parsed: Departure =
                serde_json::from_str(&format!("\"{}\"", d.name())).expect("its own name");
            assert_eq!(parsed, d);
        }
        let f: Vec<FpuField> =
            serde_json::from_str(r#"["fip","fdp","fop","flags"]"#).expect("fields");
        assert_eq!(
            f,
            [FpuField::Fip, FpuField::Fdp, FpuField::Fop, FpuField::Flags]
        );
    }
}
