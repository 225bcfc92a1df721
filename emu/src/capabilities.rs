//! What each CPU model can do, as data: one [`Capabilities`] row per
//! [`CpuModel`]. Code that behaves differently per model asks the row for
//! the capability it depends on (`model.caps().push_sp_pushes_new_value`)
//! instead of comparing models, so a new model is one more row, and the
//! compiler refuses a row that leaves a capability unanswered.
//!
//! Sources: Intel 8086 Family User's Manual (1979), 80286 Programmer's
//! Reference Manual (1987), 80386 Programmer's Reference Manual (1986),
//! chapter 14 "80386 real-address mode" and appendix "differences from the
//! 8086"; i486 Microprocessor Programmer's Reference Manual (1990), chapters
//! 2 (EFLAGS, CR0), 22-23 (real-address mode, differences from the 386) and
//! 26 (the instruction set); Intel AP-485 (processor identification and
//! CPUID) for the later steppings' signature; where the manuals are silent, the single-step suites' recordings.

use crate::cpu::CR0_386_RESERVED;
use crate::model::CpuModel;
use crate::timing::{ModelTiming, TIMING_286, TIMING_386, TIMING_486, TIMING_8086};

/// The processor signature CPUID leaf 1 returns in EAX (bits 11-8 family,
/// 7-4 model, 3-0 stepping; AP-485).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuidSignature {
    /// The family: 4 for the i486.
    pub family: u8,
    /// The model within the family (3: the 486DX2).
    pub model: u8,
    /// The stepping.
    pub stepping: u8,
}

/// The 486 models with the floating-point unit and their siblings
/// without it (AP-485, "Intel Processor Identification and the CPUID
/// Instruction", the i486 signatures): the 486DX (models 0, 1) and the
/// 486SX (model 2); the 486DX2 (model 3) and the 486SX2 (model 5).
const MODEL_WITHOUT_FPU: &[(u8, u8)] = &[(0, 2), (1, 2), (3, 5)];

impl CpuidSignature {
    /// The signature of the same part without the FPU (a 486SX or SX2):
    /// CPUID reports the model of the part the machine actually is. A
    /// model with no such sibling keeps its number.
    pub fn without_fpu(self) -> Self {
        let model = MODEL_WITHOUT_FPU
            .iter()
            .find(|(dx, _)| *dx == self.model)
            .map_or(self.model, |(_, sx)| *sx);
        CpuidSignature { model, ..self }
    }

    /// The signature as CPUID leaf 1 returns it in EAX (processor type 0).
    pub const fn eax(self) -> u32 {
        ((self.family as u32 & 0xF) << 8)
            | ((self.model as u32 & 0xF) << 4)
            | (self.stepping as u32 & 0xF)
    }
}

/// The answers one CPU model gives to every question the core, the machine
/// and the BIOS ask of it.
#[derive(Clone, Copy, Debug)]
pub struct Capabilities {
    /// The name used on the command line (`8086`, `286`, `386`, `486`,
    /// `486-cpuid`).
    pub name: &'static str,
    /// The clock a machine with this CPU gets when none is asked for.
    pub default_hz: u64,
    /// The physical address mask: 20, 24 or 32 address lines.
    pub address_mask: u32,
    /// Width of the data bus in bytes (the 8086's 16 bits, the 386's 32).
    pub data_bus_bytes: u32,
    /// Clocks of one bus cycle without wait states (T1-T4 on the 8086;
    /// Ts-Tc on the 286 and 386).
    pub bus_cycle_clocks: u32,
    /// The machine built around this CPU is PC/AT class (ISA bus timing,
    /// INT 15h AT services, the AT's system configuration bytes).
    pub pc_at_class: bool,
    /// The 80186 instructions (PUSHA, POPA, BOUND, IMUL imm, INS/OUTS,
    /// ENTER/LEAVE, shifts by an immediate) replace the 8086's aliases
    /// at 60h-6Fh, C0h/C1h and C8h/C9h.
    pub has_80186_instructions: bool,
    /// The 286's machine status word and the system instructions of the
    /// 0Fh map that real mode allows (SMSW, LMSW, CLTS, LGDT...).
    pub has_msw: bool,
    /// 32-bit operands and addresses (66h/67h prefixes), FS and GS (64h/65h),
    /// CR0-CR3 and the full two-byte map of the 386.
    pub has_32bit_operands: bool,
    /// The i486's new instructions (i486 PRM, appendix "differences from
    /// the 386"): BSWAP (0F C8h+r), XADD (0F C0h/C1h), CMPXCHG (0F B0h/B1h,
    /// the final encoding, not the A-stepping's 0F A6h/A7h), INVD (0F 08h),
    /// WBINVD (0F 09h) and INVLPG (0F 01h /7). On the 386 they are #UD.
    pub has_486_instructions: bool,
    /// CPUID (0F A2h) and a writable EFLAGS.ID (bit 21), with the
    /// signature leaf 1 reports; `None`: ID reads 0 and CPUID is #UD.
    pub cpuid: Option<CpuidSignature>,
    /// The floating-point unit is on the chip (the 486DX), which CPUID leaf
    /// 1 reports as EDX bit 0 (FPU).
    pub fpu_on_chip: bool,
    /// Undefined opcodes raise #UD (vector 6); the 8086 has no such
    /// exception and runs them as something else.
    pub invalid_opcode_fault: bool,
    /// The segment registers a ModR/M `reg` field can name (4 or 6).
    pub segment_registers: u8,
    /// MOV CS, r/m and POP CS (0Fh) load CS: only the 8086 does.
    pub loads_cs_by_mov_and_pop: bool,
    /// F1h is a LOCK prefix (the 8086's undocumented alias).
    pub f1_is_lock_prefix: bool,
    /// F1h is ICEBP, a one-byte INT 1 (the 386's undocumented opcode).
    pub f1_is_icebp: bool,
    /// The longest instruction, prefixes included; a longer one raises
    /// #GP. The 8086 takes any number of prefixes (`u32::MAX`).
    pub max_instruction_bytes: u32,
    /// An offset past FFFFh raises #GP/#SS (the 286 and 386 check the
    /// real-mode segment limit); the 8086 wraps the offset at 64 KiB.
    pub segment_limit_fault: bool,
    /// The vector of a stack-segment overrun: the 286 reports every
    /// real-mode overrun as #GP (13), the 386 separates #SS (12).
    pub stack_limit_vector: u8,
    /// A faulting instruction is restarted: the registers are restored to
    /// its start and its own address pushed (286 and later). The 8086
    /// pushes the address of the next instruction.
    pub faults_restart_instruction: bool,
    /// A fault puts back every register the instruction had changed (the
    /// 386). The 286 restores only IP: what its microcode wrote before the
    /// faulting transfer stays written (SP popped by POP r/m, SI, DI and CX
    /// stepped by a string operation; 80286 single-step suite).
    pub fault_restores_registers: bool,
    /// IP and the offset of an operand's next word are 16-bit sums that
    /// wrap at 64 KiB (the 8086 and 286: an instruction ending at FFFFh
    /// leaves IP at 0, the second word of LES or BOUND at FFFEh is read at
    /// 0); the 386 adds in 32 bits and its limit check catches them.
    pub offsets_wrap_at_64k: bool,
    /// PUSH SP pushes SP as decremented by the push (8086 manual p. 2-33);
    /// the 286 and later push the value before the instruction.
    pub push_sp_pushes_new_value: bool,
    /// The mask applied to a shift or rotate count: the 8086 shifts by the
    /// whole byte, the 186 and later by the low 5 bits.
    pub shift_count_mask: u32,
    /// IDIV accepts a quotient of exactly -2^(n-1) (286 and later); the
    /// 8086 raises a divide error for it.
    pub idiv_accepts_min_quotient: bool,
    /// IDIV tests for the quotient -2^(n-1) as the 286 does, by the
    /// difference dividend - divisor * 2^(n-1) of the magnitudes, looking
    /// at its sign and bits n to 2n-3 only (see `muldiv::min_quotient_286`).
    pub idiv_min_quotient_partial_test: bool,
    /// A REP or REPNE prefix negates the result of IMUL and IDIV (the 8086
    /// microcode's sign flip).
    pub rep_negates_imul_idiv: bool,
    /// An interrupted REP string instruction resumes at its last prefix,
    /// losing any earlier ones (the 8086); later models resume at its first.
    pub rep_resumes_at_last_prefix: bool,
    /// DAA, DAS, AAA, AAS and a divide error leave the 8086 microcode's
    /// values in the flags Intel calls undefined (the 286 and later leave
    /// their own).
    pub undefined_flags_of_8086_microcode: bool,
    /// SGDT and SIDT with a 16-bit operand store FFh as the base's top byte
    /// (the 286); the 386 stores the byte of the base.
    pub sgdt_top_byte_ones: bool,
    /// The FLAGS bits software can change.
    pub flags_writable: u32,
    /// The FLAGS bits that always read as ones.
    pub flags_fixed_ones: u32,
    /// CR0 (the MSW on the 286) after reset, its reserved bits as they
    /// read.
    pub cr0_reset: u32,
    /// The CR0 bits a MOV to CR0 changes (the 386: PG, ET, TS, EM, MP, PE;
    /// the 486 adds CD, NW, AM, WP and NE and fixes ET at 1).
    pub cr0_writable: u32,
    /// The CR0 bits that always read as ones whatever MOV writes.
    pub cr0_fixed_ones: u32,
    /// Clocks per prefix byte: 2 on the 8086; the 286 and 386 decode
    /// prefixes in parallel, charged 1 here.
    pub prefix_clocks: u32,
    /// Clocks per bit of a shift or rotate by a count (8086: 4; 286: 1;
    /// 386: none, its barrel shifter takes constant time).
    pub shift_clocks_per_bit: u32,
    /// The register-level clock counts ([`crate::timing`]).
    pub timing: &'static ModelTiming,
    /// tandem models the bus interface unit T-state by T-state (only for
    /// the 8086, whose single-step suite records every bus cycle).
    pub cycle_exact_biu: bool,
}

/// The Intel 8086.
pub static I8086: Capabilities = Capabilities {
    name: "8086",
    // The IBM PC's 14.31818 MHz / 3.
    default_hz: 4_772_727,
    address_mask: 0x000F_FFFF,
    data_bus_bytes: 2,
    bus_cycle_clocks: 4,
    pc_at_class: false,
    has_80186_instructions: false,
    has_msw: false,
    has_32bit_operands: false,
    has_486_instructions: false,
    cpuid: None,
    fpu_on_chip: false,
    invalid_opcode_fault: false,
    segment_registers: 4,
    loads_cs_by_mov_and_pop: true,
    f1_is_lock_prefix: true,
    f1_is_icebp: false,
    max_instruction_bytes: u32::MAX,
    segment_limit_fault: false,
    stack_limit_vector: 13,
    faults_restart_instruction: false,
    fault_restores_registers: false,
    offsets_wrap_at_64k: true,
    push_sp_pushes_new_value: true,
    shift_count_mask: 0xFF,
    idiv_accepts_min_quotient: false,
    idiv_min_quotient_partial_test: false,
    rep_negates_imul_idiv: true,
    rep_resumes_at_last_prefix: true,
    undefined_flags_of_8086_microcode: true,
    sgdt_top_byte_ones: false,
    // Bits 12-15 read as ones (8086 manual, figure 2-32).
    flags_writable: 0x0FD5,
    flags_fixed_ones: 0xF002,
    cr0_reset: 0,
    cr0_writable: 0,
    cr0_fixed_ones: 0,
    prefix_clocks: 2,
    shift_clocks_per_bit: 4,
    timing: &TIMING_8086,
    cycle_exact_biu: true,
};

/// The Intel 80286 in real mode.
pub static I286: Capabilities = Capabilities {
    name: "286",
    // The PC/AT 339's 12 MHz.
    default_hz: 12_000_000,
    address_mask: 0x00FF_FFFF,
    data_bus_bytes: 2,
    bus_cycle_clocks: 2,
    pc_at_class: true,
    has_80186_instructions: true,
    has_msw: true,
    has_32bit_operands: false,
    has_486_instructions: false,
    cpuid: None,
    fpu_on_chip: false,
    invalid_opcode_fault: true,
    segment_registers: 4,
    loads_cs_by_mov_and_pop: false,
    f1_is_lock_prefix: false,
    f1_is_icebp: false,
    // 80286 PRM: "instructions longer than 10 bytes" raise #GP (the 286
    // suite records it for an over-prefixed IMUL).
    max_instruction_bytes: 10,
    segment_limit_fault: true,
    stack_limit_vector: 13,
    faults_restart_instruction: true,
    fault_restores_registers: false,
    offsets_wrap_at_64k: true,
    push_sp_pushes_new_value: false,
    shift_count_mask: 0x1F,
    idiv_accepts_min_quotient: true,
    idiv_min_quotient_partial_test: true,
    rep_negates_imul_idiv: false,
    rep_resumes_at_last_prefix: false,
    undefined_flags_of_8086_microcode: false,
    sgdt_top_byte_ones: true,
    // In real mode IOPL and NT (bits 12-14) stay clear.
    flags_writable: 0x0FD5,
    flags_fixed_ones: 0x0002,
    // The MSW reads its unused bits as ones.
    cr0_reset: 0xFFF0,
    // LMSW loads PE, MP, EM and TS (the 286 has no MOV CR0).
    cr0_writable: 0x000F,
    cr0_fixed_ones: 0xFFF0,
    prefix_clocks: 1,
    shift_clocks_per_bit: 1,
    timing: &TIMING_286,
    cycle_exact_biu: false,
};

/// The Intel 80386 in real mode.
pub static I386: Capabilities = Capabilities {
    name: "386",
    // The 386DX-33 of the early 1990s.
    default_hz: 33_000_000,
    address_mask: 0xFFFF_FFFF,
    data_bus_bytes: 4,
    bus_cycle_clocks: 2,
    pc_at_class: true,
    has_80186_instructions: true,
    has_msw: true,
    has_32bit_operands: true,
    has_486_instructions: false,
    cpuid: None,
    fpu_on_chip: false,
    invalid_opcode_fault: true,
    segment_registers: 6,
    loads_cs_by_mov_and_pop: false,
    f1_is_lock_prefix: false,
    f1_is_icebp: true,
    // 80386 PRM section 17.1.
    max_instruction_bytes: 15,
    segment_limit_fault: true,
    stack_limit_vector: 12,
    faults_restart_instruction: true,
    fault_restores_registers: true,
    offsets_wrap_at_64k: false,
    push_sp_pushes_new_value: false,
    shift_count_mask: 0x1F,
    idiv_accepts_min_quotient: true,
    idiv_min_quotient_partial_test: false,
    rep_negates_imul_idiv: false,
    rep_resumes_at_last_prefix: false,
    undefined_flags_of_8086_microcode: false,
    sgdt_top_byte_ones: false,
    // Real-mode code may write IOPL and NT; no AC, VM or RF there.
    flags_writable: 0x7FD5,
    flags_fixed_ones: 0x0002,
    // Reserved bits 5-30 read as ones; ET (bit 4) clear: no coprocessor.
    // Real-mode probes such as LOADLIN's take an all-zero CR0 for a
    // virtualised one.
    cr0_reset: CR0_386_RESERVED,
    cr0_writable: !CR0_386_RESERVED,
    cr0_fixed_ones: CR0_386_RESERVED,
    prefix_clocks: 1,
    shift_clocks_per_bit: 0,
    timing: &TIMING_386,
    cycle_exact_biu: false,
};

/// EFLAGS.AC (bit 18): alignment check, writable from the 486 on (the
/// classic 386/486 test toggles it).
pub const EFLAGS_AC: u32 = 1 << 18;
/// EFLAGS.ID (bit 21): writable only on processors with CPUID.
pub const EFLAGS_ID: u32 = 1 << 21;

/// CR0 of the i486 (i486 PRM, chapter 4, "control registers"): PG, CD, NW, AM, WP, NE, TS,
/// EM, MP and PE are writable; ET is fixed at 1.
pub const CR0_486_WRITABLE: u32 = 0xE005_002F;

/// The Intel i486 (486DX: the FPU on chip) in real mode, an early stepping
/// without CPUID.
const I486_ROW: Capabilities = Capabilities {
    name: "486",
    // The 486DX-33; a 486DX2-66 is `--mhz 66`.
    default_hz: 33_000_000,
    address_mask: 0xFFFF_FFFF,
    data_bus_bytes: 4,
    // i486 PRM / datasheet: a non-burst bus cycle takes two clocks (T1, T2).
    bus_cycle_clocks: 2,
    pc_at_class: true,
    has_80186_instructions: true,
    has_msw: true,
    has_32bit_operands: true,
    has_486_instructions: true,
    cpuid: None,
    fpu_on_chip: true,
    invalid_opcode_fault: true,
    segment_registers: 6,
    loads_cs_by_mov_and_pop: false,
    // The 486 keeps the 386's undocumented F1h (ICEBP).
    f1_is_lock_prefix: false,
    f1_is_icebp: true,
    // i486 PRM, section 23 (as the 386): 15 bytes.
    max_instruction_bytes: 15,
    segment_limit_fault: true,
    stack_limit_vector: 12,
    faults_restart_instruction: true,
    fault_restores_registers: true,
    offsets_wrap_at_64k: false,
    push_sp_pushes_new_value: false,
    shift_count_mask: 0x1F,
    idiv_accepts_min_quotient: true,
    idiv_min_quotient_partial_test: false,
    rep_negates_imul_idiv: false,
    rep_resumes_at_last_prefix: false,
    undefined_flags_of_8086_microcode: false,
    sgdt_top_byte_ones: false,
    // As the 386, plus AC (bit 18). Alignment checking needs CPL 3 and
    // CR0.AM (i486 PRM, "alignment check exception (17)"): real mode
    // runs at CPL 0, so AC is a plain flag there and never faults.
    flags_writable: 0x7FD5 | EFLAGS_AC,
    flags_fixed_ones: 0x0002,
    // i486 PRM, chapter 10 (processor state after reset): CR0 = 60000010h (CD, NW
    // and ET set).
    cr0_reset: 0x6000_0010,
    cr0_writable: CR0_486_WRITABLE,
    cr0_fixed_ones: 0x0000_0010,
    prefix_clocks: 1,
    shift_clocks_per_bit: 0,
    timing: &TIMING_486,
    cycle_exact_biu: false,
};

/// The Intel i486 in real mode, an early stepping without CPUID.
pub static I486: Capabilities = I486_ROW;

/// A later i486 stepping with CPUID (`--cpu 486-cpuid`): the 486DX2,
/// family 4, model 3 (AP-485, table "processor signatures"); the stepping
/// (5) is tandem's choice among the DX2's.
pub static I486_CPUID: Capabilities = Capabilities {
    name: "486-cpuid",
    cpuid: Some(CpuidSignature {
        family: 4,
        model: 3,
        stepping: 5,
    }),
    flags_writable: I486_ROW.flags_writable | EFLAGS_ID,
    ..I486_ROW
};

impl CpuModel {
    /// This model's row of capabilities.
    #[inline(always)]
    pub const fn caps(self) -> &'static Capabilities {
        match self {
            CpuModel::I8086 => &I8086,
            CpuModel::I286 => &I286,
            CpuModel::I386 => &I386,
            CpuModel::I486 => &I486,
            CpuModel::I486Cpuid => &I486_CPUID,
        }
    }

    /// Memory above 1 MiB exists (more than 20 address lines).
    #[inline]
    pub fn has_extended_memory(self) -> bool {
        self.caps().address_mask > 0x000F_FFFF
    }

    /// Half-clocks the bus needs per data byte, the lower bound of the
    /// bus's speed: a bus cycle's clocks over the bytes it moves (8086: 4
    /// clocks per word; 286: 2 per word; 386: 2 per doubleword).
    #[inline]
    pub fn bus_half_clocks_per_byte(self) -> u64 {
        let c = self.caps();
        (2 * c.bus_cycle_clocks / c.data_bus_bytes) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [CpuModel; 5] = CpuModel::ALL;

    #[test]
    fn rows_answer_as_the_manuals_say() {
        let (c86, c286, c386) = (
            CpuModel::I8086.caps(),
            CpuModel::I286.caps(),
            CpuModel::I386.caps(),
        );
        // 8086 manual p. 2-33: PUSH SP pushes the decremented value; the
        // 286 PRM lists the change among its differences from the 8086.
        assert!(c86.push_sp_pushes_new_value);
        assert!(!c286.push_sp_pushes_new_value && !c386.push_sp_pushes_new_value);
        // 80386 PRM, SAL/SAR/SHL/SHR: the count is masked to 5 bits from
        // the 80186 on.
        assert_eq!(
            [c86, c286, c386].map(|c| c.shift_count_mask),
            [0xFF, 0x1F, 0x1F]
        );
        assert_eq!(
            ALL.map(|m| m.address_mask()),
            [0xF_FFFF, 0xFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF]
        );
        assert_eq!(
            [c86, c286, c386].map(|c| c.max_instruction_bytes),
            [u32::MAX, 10, 15]
        );
        // #UD and restartable faults arrive with the 186/286.
        assert!(!c86.invalid_opcode_fault && c286.invalid_opcode_fault);
        assert!(!c86.faults_restart_instruction && c386.faults_restart_instruction);
        // The 8086's FLAGS bits 12-15 read as ones; the 386 lets real mode
        // write IOPL and NT.
        assert_eq!(CpuModel::I8086.caps().flags_fixed_ones & 0xF000, 0xF000);
        assert_eq!(c386.flags_writable & 0x7000, 0x7000);
        assert_eq!(c286.flags_writable & 0x7000, 0);
        // Only the 386 has 32-bit operands, FS and GS.
        assert_eq!(
            [c86, c286, c386].map(|c| (c.has_32bit_operands, c.segment_registers)),
            [(false, 4), (false, 4), (true, 6)]
        );
        assert_eq!(ALL.map(|m| m.bus_half_clocks_per_byte()), [4, 2, 1, 1, 1]);
    }

    #[test]
    fn the_486_rows_answer_as_the_i486_manual_says() {
        let (c386, c486, cid) = (
            CpuModel::I386.caps(),
            CpuModel::I486.caps(),
            CpuModel::I486Cpuid.caps(),
        );
        // AC is writable from the 486 on; ID only with CPUID.
        assert_eq!(
            ALL.map(|m| m.caps().flags_writable & (EFLAGS_AC | EFLAGS_ID)),
            [0, 0, 0, EFLAGS_AC, EFLAGS_AC | EFLAGS_ID]
        );
        assert!(!c386.has_486_instructions && c486.has_486_instructions);
        assert!(cid.has_486_instructions);
        assert_eq!(c486.cpuid, None);
        assert_eq!(cid.cpuid.map(|s| s.eax()), Some(0x435));
        // Reset CR0 = 60000010h; ET fixed; NE, WP, AM, NW, CD writable.
        assert_eq!(c486.cr0_reset, 0x6000_0010);
        assert_eq!(c486.cr0_fixed_ones, 0x10);
        for bit in [5, 16, 18, 29, 30] {
            assert_ne!(c486.cr0_writable & (1 << bit), 0, "CR0 bit {bit}");
            assert_eq!(c386.cr0_writable & (1 << bit), 0, "CR0 bit {bit}");
        }
        assert_eq!(c486.default_hz, 33_000_000);
    }

    #[test]
    fn flags_images_keep_bit_1_and_clear_bits_3_and_5() {
        for m in ALL {
            let c = m.caps();
            assert_eq!(c.flags_fixed_ones & 0x2, 0x2, "{m}");
            assert_eq!((c.flags_writable | c.flags_fixed_ones) & 0x28, 0, "{m}");
        }
    }

    #[test]
    fn capabilities_that_come_together_do() {
        for m in ALL {
            let c = m.caps();
            // 32-bit operands imply the 286's system instructions, which
            // imply the 186's; #UD arrives with the 186's map.
            assert!(!c.has_32bit_operands || c.has_msw, "{m}");
            assert!(!c.has_msw || c.has_80186_instructions, "{m}");
            assert_eq!(c.has_80186_instructions, c.invalid_opcode_fault, "{m}");
            // A model that checks limits restarts the faulting instruction.
            assert_eq!(c.segment_limit_fault, c.faults_restart_instruction, "{m}");
            assert!(!(c.f1_is_icebp && c.f1_is_lock_prefix), "{m}");
            // The 486's instructions need the 386's; CPUID needs the 486's
            // and makes ID writable.
            assert!(!c.has_486_instructions || c.has_32bit_operands, "{m}");
            assert!(c.cpuid.is_none() || c.has_486_instructions, "{m}");
            assert_eq!(c.cpuid.is_some(), c.flags_writable & EFLAGS_ID != 0, "{m}");
            // An AT-class machine has memory above 1 MiB.
            assert_eq!(c.pc_at_class, m.has_extended_memory(), "{m}");
        }
    }
}
