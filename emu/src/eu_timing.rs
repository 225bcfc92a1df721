//! The 8086 execution unit's internal timing in cycle-exact mode: when the
//! EU takes bytes from the queue, how long the effective-address
//! calculation runs, and the internal clocks each instruction spends around
//! its bus cycles. The numbers follow the 8086 microcode as disassembled by
//! reenigne and described by MartyPC's cycle-accurate 8088 core (the 8086
//! runs the same microcode), checked against the single-step suite.
//!
//! The BIU side (queue, T-states, fetch policy) is in [`crate::biu`]; this
//! file only says how many clocks the EU spends and where.
//!
//! An instruction in exact mode:
//! 1. [`Cpu::x_begin`]: each prefix byte (first-byte read, then one clock),
//!    the opcode (first-byte read), the ModR/M byte (subsequent read) or,
//!    without one, a clock of decoding;
//! 2. the EA calculation ([`Cpu::x_ea`]) when the operand is in memory;
//! 3. the instruction's own script in `exec/` (`x_script` calls
//!    between its bus transfers, immediates taken with [`Cpu::x_imm`]);
//! 4. [`Cpu::x_end`]: bytes not yet taken, the documented-count fallback
//!    for instructions without a script, the queue flush of a transfer of
//!    control, and the wait for the next instruction's first byte.

use crate::biu::cycle::QueueOp;
use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::decode::{Instruction, ModRm};
use crate::table::Op;

/// EA clocks before the displacement is read and after it, per ModR/M
/// addressing form (mod 0-2, r/m 0-7). The documented totals (Intel 8086
/// Family User's Manual, table 2-20: 5 to 12 clocks) include the
/// displacement reads and the bus request.
///
/// Microcode: [BX+SI] and [BP+DI] take one line less than [BX+DI] and
/// [BP+SI] (7 vs 8 documented clocks); an 8-bit displacement takes one
/// clock more after it is read than a 16-bit one (an extra jump while
/// sign-extending it).
pub(crate) fn ea_split(m: ModRm) -> (u32, u32) {
    let pre = match m.rm {
        0 | 3 => 4,
        1 | 2 => 5,
        6 if m.mode == 0 => 0,
        _ => 2,
    };
    let post = match m.mode {
        0 if m.rm == 6 => 1,
        0 => 0,
        1 => 3,
        _ => 2,
    };
    (pre, post)
}

/// Internal clocks of ALU r/m, reg (00h, 01h, 08h...) after the operand
/// read: the ALU lines (008h-00Ah). With a register destination the last
/// line overlaps the next instruction's first byte; a memory destination
/// spends six clocks from the read's T3 to the write request, CMP/TEST
/// with memory four before the next instruction (measured on the suite).
pub(crate) fn alu_eg(mem: bool, stores: bool) -> u32 {
    match (mem, stores) {
        (true, true) => 6,
        (true, false) => 4,
        _ => 1,
    }
}

/// ALU reg, r/m: one clock after a register operand (the second ALU line
/// overlaps the next instruction); after a memory operand's T3, its T4 and
/// three clocks (measured on the suite).
pub(crate) fn alu_ge(mem: bool) -> u32 {
    if mem {
        4
    } else {
        1
    }
}

/// ALU AL, imm8 spends a clock after the immediate; AX, imm16 none (its
/// second immediate byte takes that clock).
pub(crate) fn alu_acc_imm(word: bool) -> u32 {
    if word {
        0
    } else {
        1
    }
}

/// ALU r/m, imm (80h-83h) and TEST r/m, imm (F6h/F7h /0, /1): clocks
/// before the first immediate byte. With memory, three from the read's T3
/// (its T4 and EALOAD's last lines); TEST with a register one; the other
/// register forms none (measured on the suite).
pub(crate) fn alu_ei_pre(mem: bool, test: bool) -> u32 {
    match (mem, test) {
        (true, _) => 3,
        (false, true) => 1,
        (false, false) => 0,
    }
}

/// ALU r/m, imm after the immediate: a register operand one clock, a
/// memory destination three before the write, CMP and TEST with memory
/// two; a word immediate's second byte takes one of them (81h, F7h /0).
/// Measured on the suite.
pub(crate) fn alu_ei(opcode: u8, mem: bool, stores: bool) -> u32 {
    let n = match (mem, stores) {
        (false, _) => 1,
        (true, true) => 3,
        (true, false) => 2,
    };
    n - matches!(opcode, 0x81 | 0xF7) as u32
}

/// Read-modify-write of a memory operand with no other input (INC/DEC
/// r/m, NOT, NEG, shifts and rotates by 1): clocks from the read's T3 to
/// the write request (measured on the suite).
pub(crate) const RMW_MEM: u32 = 5;

/// Shifts and rotates of a memory operand (D0h-D3h): clocks from the
/// read's T3 to the write request. By 1, five; by CL, ten and four per bit
/// of the count (the microcode's loop runs the whole 8-bit count; a count
/// of zero still writes the operand back). Measured on the suite.
pub(crate) fn shift_mem(by_one: bool, count: u32) -> u32 {
    if by_one {
        RMW_MEM
    } else {
        10 + 4 * count
    }
}

/// PUSH reg / PUSH sreg: three clocks (microcode 028h-02Ah) after the
/// decode clock before the stack write.
pub(crate) const PUSH_PRE: u32 = 3;

/// POP reg / POP sreg: a clock after the stack read (the register write,
/// microcode 035h) before the next instruction's first byte.
pub(crate) const POP_POST: u32 = 1;

/// Jcc with the condition true: clocks after the displacement before the
/// RELJMP routine (microcode 0E9h and the jump into RELJMP).
pub(crate) const JCC_TAKEN: u32 = 2;

/// Jcc with the condition false: clocks after the displacement.
pub(crate) const JCC_NOT_TAKEN: u32 = 1;

/// JMP rel8: clocks after the displacement before RELJMP.
pub(crate) const JMP_SHORT: u32 = 1;

/// JMP rel16: RELJMP starts right after the displacement.
pub(crate) const JMP_NEAR: u32 = 0;

/// RELJMP (microcode 0D2h-0D5h): after SUSP, clocks before the flush.
pub(crate) const RELJMP_TO_FLUSH: u32 = 4;

/// Clocks after a flush before the instruction may end.
pub(crate) const AFTER_FLUSH: u32 = 1;

impl Cpu {
    /// Exact mode: the RELJMP routine of a relative jump whose new IP is
    /// already set: `pre` clocks, SUSP (prefetching stops; the EU waits for
    /// a fetch on the bus to finish its T4), four clocks, the queue flush
    /// and a last clock.
    pub(crate) fn x_reljmp<B: Bus>(&mut self, bus: &mut B, pre: u32) {
        if self.x.is_none() {
            return;
        }
        self.x_scripted = true;
        self.eu_cycles(bus, pre);
        self.q_suspend(bus);
        self.eu_cycles(bus, RELJMP_TO_FLUSH);
        self.q_flush();
        self.eu_cycles(bus, AFTER_FLUSH);
    }

    /// Exact mode: `n` clocks, then SUSP (prefetching stops; waits for a
    /// code fetch on the bus to finish).
    pub(crate) fn x_susp<B: Bus>(&mut self, bus: &mut B, n: u32) {
        if self.x.is_none() {
            return;
        }
        self.x_scripted = true;
        self.eu_cycles(bus, n);
        self.q_suspend(bus);
    }

    /// Exact mode: `n` clocks, then SUSP without waiting for a code fetch
    /// on the bus (the EU's next request queues behind it).
    pub(crate) fn x_susp_now<B: Bus>(&mut self, bus: &mut B, n: u32) {
        if self.x.is_none() {
            return;
        }
        self.x_scripted = true;
        self.eu_cycles(bus, n);
        if let Some(x) = self.x.as_mut() {
            x.suspend();
        }
    }

    /// Exact mode: `n` clocks, the queue flush at the current CS:IP and a
    /// last clock.
    pub(crate) fn x_flush_after<B: Bus>(&mut self, bus: &mut B, n: u32) {
        if self.x.is_none() {
            return;
        }
        self.x_scripted = true;
        self.eu_cycles(bus, n);
        self.q_flush();
        self.eu_cycles(bus, AFTER_FLUSH);
    }

    /// Exact mode: the bytes before execution proper (prefixes, opcode,
    /// ModR/M).
    pub(crate) fn x_begin<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) {
        self.x_taken = 0;
        self.x_flushed = false;
        self.x_scripted = false;
        for _ in 0..ins.prefixes {
            // A prefix is taken as a first byte; the loader spends a clock
            // before the next byte, again a first byte.
            self.q_take_then(bus, QueueOp::First, 1);
        }
        if ins.modrm.is_some() {
            self.q_take_opcode_modrm(bus);
        } else {
            // The take's clock and the decode clock, inline (the same two
            // clocks `idle` would run, without the call).
            self.q_take_then(bus, QueueOp::First, 0);
            self.eu_cycles(bus, 1);
        }
    }

    /// Exact mode: the EA calculation of a memory operand, with its
    /// displacement bytes taken from the queue.
    pub(crate) fn x_ea<B: Bus>(&mut self, bus: &mut B, m: ModRm) {
        let (pre, post) = ea_split(m);
        self.eu_cycles(bus, 1 + pre);
        match m.disp_len() {
            0 => self.eu_cycles(bus, post),
            n => {
                if n > 1 {
                    self.q_take_subsequent(bus, n as u32 - 1);
                }
                self.q_take_then(bus, QueueOp::Subsequent, post);
            }
        }
    }

    /// Exact mode: takes the instruction's remaining bytes (immediates)
    /// from the queue.
    pub(crate) fn x_imm<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) {
        let len = ins.len as u32;
        if self.x.is_some() && self.x_taken < len {
            self.q_take_subsequent(bus, len - self.x_taken);
        }
    }

    /// Exact mode: marks the instruction as having its own timing script
    /// and spends `n` internal clocks.
    #[inline]
    pub(crate) fn x_script<B: Bus>(&mut self, bus: &mut B, n: u32) {
        if self.x.is_some() {
            self.x_scripted = true;
            self.eu_cycles(bus, n);
        }
    }

    /// Exact mode: the end of an instruction.
    pub(crate) fn x_end<B: Bus>(&mut self, bus: &mut B, ins: &Instruction, next_ip: u32, cs: u16) {
        self.x_imm(bus, ins);
        if !self.x_scripted {
            // No script yet: pad to the documented count (register-level
            // clocks accumulated in step_cycles) so totals stay close.
            let ticks = self.x.as_ref().map_or(0, |x| x.ticks);
            let pad = self.step_cycles.saturating_sub(ticks);
            self.eu_cycles(bus, pad);
        }
        let moved = self.regs.ip != next_ip || self.regs.sreg(crate::regs::SegReg::CS) != cs;
        if moved && !self.x_flushed {
            self.q_flush();
        }
        if let Some(x) = self.x.as_mut() {
            // The next instruction starts when its first byte is in the
            // queue.
            x.run_until_readable(bus);
        }
    }
}

/// MOV AL/AX, moffs: after the read's T3, one clock (its T4) before the
/// next instruction; MOV moffs, AL/AX requests the write one clock after
/// the address's second byte (measured on the suite).
pub(crate) const MOV_MOFFS_POST: u32 = 1;
pub(crate) const MOV_MOFFS_STORE_PRE: u32 = 1;

/// XLAT: three clocks (the BX+AL add) before the read, one after its T3.
pub(crate) const XLAT_PRE: u32 = 3;
pub(crate) const XLAT_POST: u32 = 1;

/// CWD: four clocks when AX is negative, three when not (the microcode
/// branches on the sign before writing DX).
pub(crate) fn cwd(neg: bool) -> u32 {
    if neg {
        4
    } else {
        3
    }
}

/// IN: clocks before the port read (one more for the immediate port) and
/// after its T3; OUT: clocks before the port write (DX one, immediate two).
pub(crate) fn in_pre(imm: bool) -> u32 {
    imm as u32
}
pub(crate) const IN_POST: u32 = 1;
pub(crate) fn out_pre(imm: bool) -> u32 {
    1 + imm as u32
}

/// RET / RET imm16: SUSP (not waiting for a fetch on the bus) right after
/// the decode, or two clocks after the immediate; after the pop's T3, two
/// clocks (three with the immediate, the SP add) to the flush.
pub(crate) fn ret_pre(imm: bool) -> u32 {
    2 * imm as u32
}
pub(crate) fn ret_flush(imm: bool) -> u32 {
    2 + imm as u32
}

/// CALL rel16: SUSP after the displacement, four clocks to the flush,
/// then two before the return address is pushed (the push follows the
/// new fetch).
pub(crate) const CALL_TO_FLUSH: u32 = 4;
pub(crate) const CALL_PUSH_PRE: u32 = 2;

/// JMP far: SUSP after the pointer, two clocks to the flush.
pub(crate) const JMP_FAR_TO_FLUSH: u32 = 2;

/// LOOP/LOOPE/LOOPNE/JCXZ: two clocks (the CX decrement or test) before
/// the displacement is taken.
pub(crate) const LOOP_PRE: u32 = 2;

/// Clocks after the displacement before RELJMP: LOOP one, LOOPE/LOOPNE/
/// JCXZ two.
pub(crate) fn loop_taken(plain: bool) -> u32 {
    if plain {
        1
    } else {
        2
    }
}

/// Not taken: LOOP four clocks, LOOPE/LOOPNE/JCXZ one.
pub(crate) fn loop_not_taken(plain: bool) -> u32 {
    if plain {
        4
    } else {
        1
    }
}

/// RETF / RETF imm16: SUSP (not waiting) two clocks after the decode or
/// the immediate, four clocks between the IP and CS pops, one after the
/// CS pop's T3 to the flush.
pub(crate) const RETF_PRE: u32 = 2;
pub(crate) const RETF_BETWEEN: u32 = 4;
pub(crate) const RETF_TO_FLUSH: u32 = 1;

/// JMP r/m16 and CALL r/m16: clocks after the operand (a memory read's T3,
/// or the ModR/M of a register) before SUSP; the flush follows one clock
/// after for JMP and four for CALL (its push then comes as for CALL rel16).
pub(crate) fn jmp_ind_susp(mem: bool) -> u32 {
    if mem {
        3
    } else {
        1
    }
}
pub(crate) const JMP_IND_TO_FLUSH: u32 = 1;
pub(crate) fn call_ind_susp(mem: bool) -> u32 {
    if mem {
        3
    } else {
        1
    }
}

/// PUSH r/m16: clocks after the operand before the stack write (six after
/// a memory read's T3, four after a register).
pub(crate) fn push_rm(mem: bool) -> u32 {
    if mem {
        6
    } else {
        4
    }
}

/// POP r/m16: the EA calculation (displacement included) comes first; then
/// clocks before the stack read (three after a memory EA, one after the
/// ModR/M of a register) and after its T3 (four before the memory write,
/// two before a register operand's end). Measured on the suite (8F: 100%).
pub(crate) fn pop_rm_pre(mem: bool) -> u32 {
    if mem {
        3
    } else {
        1
    }
}
pub(crate) fn pop_rm_post(mem: bool) -> u32 {
    if mem {
        4
    } else {
        2
    }
}

/// CALL far: SUSP a clock after the pointer (waiting for a fetch on the
/// bus), three clocks before the CS push; after its T3 the flush as CALL
/// rel16 ([`CALL_TO_FLUSH`]) and the IP push ([`CALL_PUSH_PRE`]).
pub(crate) const CALL_FAR_SUSP: u32 = 1;
pub(crate) const CALL_FAR_PUSH_CS: u32 = 3;

/// CALL far m16:16: clocks between the offset read's T3 and the segment
/// read's request.
pub(crate) const CALL_FAR_IND_BETWEEN: u32 = 4;

/// JMP far m16:16: SUSP four clocks after the offset read's T3 (waiting
/// for a code fetch on the bus, so a fetch started after the read delays
/// the segment read by a clock), then one clock before the segment read's
/// request (measured on the suite).
pub(crate) const JMP_FAR_IND_SUSP_PRE: u32 = 4;
pub(crate) const JMP_FAR_IND_BETWEEN: u32 = 1;

/// CALL far m16:16: clocks after the segment read before SUSP (then as
/// CALL far); JMP far m16:16 (already suspended): one, then the flush.
pub(crate) const CALL_FAR_IND_SUSP: u32 = 2;
pub(crate) const JMP_FAR_IND_TO_FLUSH: u32 = 1;

/// LEA: two clocks after the EA calculation.
pub(crate) const LEA_POST: u32 = 2;

/// LES/LDS: five clocks from the offset read's T3 to the segment read's
/// request, one after its T3.
pub(crate) const LDS_BETWEEN: u32 = 5;
pub(crate) const LDS_POST: u32 = 1;

/// XCHG r/m, reg: clocks before the write (seven from a memory read's T3,
/// two with a register).
pub(crate) fn xchg_rm(mem: bool) -> u32 {
    if mem {
        7
    } else {
        2
    }
}

/// MOV r/m, sreg before the store and MOV sreg, r/m after the load: three
/// clocks with memory, none with a register.
pub(crate) fn mov_sreg(mem: bool) -> u32 {
    3 * mem as u32
}

/// AAA/AAS: six clocks when the low nibble is adjusted (AL & 0Fh > 9 or
/// AF), seven when not (the microcode's two paths; measured on the suite).
pub(crate) fn aaa(adjust: bool) -> u32 {
    if adjust {
        6
    } else {
        7
    }
}

/// SALC (undocumented): two clocks with CF set, one with it clear.
pub(crate) fn salc(cf: bool) -> u32 {
    1 + cf as u32
}

/// MOV r/m, imm: clocks before the immediate (two after a memory EA) and
/// after it (two before a memory write, one for a register; a word
/// immediate's second byte takes one of them, as for 81h). A partial fit:
/// C6h 94%, C7h 73% of the counted tests.
pub(crate) fn mov_ei_pre(mem: bool) -> u32 {
    2 * mem as u32
}
pub(crate) fn mov_ei_post(mem: bool) -> u32 {
    1 + mem as u32
}

// String instructions (MOVS, CMPS, SCAS, LODS, STOS and their REP loops).
//
// Microcode (reenigne's disassembly; MartyPC's `string` handling): each
// instruction's routine runs one iteration; with a REP prefix its first
// line calls RPTS (CX test, ALU set up for the decrement) once, and the end
// of each iteration decrements CX, tests ZF (REPE/REPNE with CMPS/SCAS), checks
// for an interrupt (RPTI) and jumps back to the routine's second line. The
// numbers below are clocks of our EU between its bus transfers (each
// transfer's wait ends at its T3), fitted on the single-step suite, where
// they make every string file (A4, A6, A7, AA-AF, all prefix forms and CX
// 0-127) cycle-exact.

/// REP: clocks from the decode to the CX test (the routine's first line and
/// RPTS up to its CX = 0 branch). With CX = 0 the instruction ends there.
pub(crate) const REP_CX_TEST: u32 = 5;

/// REP with CX non-zero: the rest of RPTS before the first iteration.
pub(crate) const REP_SETUP: u32 = 2;

/// The 8086 microcode's clocks around one iteration of a string
/// instruction, measured on the suite (MartyPC runs CMPS's line 121h and
/// SCAS's 121h and a jump before the read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StringScript {
    /// Clocks before the iteration's first transfer.
    pub pre: u32,
    /// From the first transfer's T3 to the second's request (MOVS: the
    /// read's T4 and line 12Eh; CMPS: its T4 and lines 123h-124h).
    pub mid: u32,
    /// Without a REP prefix: after the last transfer's T3 to the next
    /// instruction (CMPS, SCAS: the subtraction, lines 126h-128h, and the
    /// jump to the end).
    pub post: u32,
    /// REP: after an iteration's last transfer to the next iteration's
    /// first clock, or to the next instruction after the last iteration
    /// (the CX decrement, the interrupt check, the CX test and the jump
    /// back); the suite shows the same count whether the loop goes on or
    /// ends.
    pub rep_tail: u32,
}

const fn script(pre: u32, mid: u32, post: u32, rep_tail: u32) -> StringScript {
    StringScript {
        pre,
        mid,
        post,
        rep_tail,
    }
}

/// The 8086's string instructions and their scripts (LODS, STOS and SCAS
/// have one transfer: their `mid` is never run).
pub(crate) const STRING_SCRIPTS: [(Op, StringScript); 5] = [
    (Op::Movs, script(1, 2, 3, 4)),
    (Op::Cmps, script(2, 3, 5, 7)),
    (Op::Scas, script(3, 2, 5, 7)),
    (Op::Lods, script(1, 2, 4, 7)),
    (Op::Stos, script(1, 2, 3, 4)),
];

/// The script of string operation `op` (STOS's for an operation the 8086
/// does not have).
pub(crate) fn string_script(op: Op) -> StringScript {
    STRING_SCRIPTS
        .iter()
        .find(|(o, _)| *o == op)
        .map_or(STRING_SCRIPTS[4].1, |&(_, s)| s)
}

/// REPE/REPNE CMPS/SCAS stopping on ZF: six clocks after the last read
/// (the ZF test comes before the interrupt check and jumps to the end).
pub(crate) const REP_Z_EXIT: u32 = 6;

/// REP with an interrupt pending: the check sits this many clocks before
/// the end of [`StringScript::rep_tail`]; a clock to jump to RPTI follows (MartyPC's
/// line order; the suite records no interrupts).
pub(crate) const REP_INT_CHECK_BEFORE_END: u32 = 2;

/// RPTI: after SUSP, three lines (the IP correction back to the prefix)
/// before the queue flush. From MartyPC's model; the suite records no
/// interrupts, so this is not checked against the silicon.
pub(crate) const RPTI_TO_FLUSH: u32 = 3;

// ---------------------------------------------------------------------------
// Multiply and divide
// ---------------------------------------------------------------------------
//
// MUL/IMUL/DIV/IDIV (F6h/F7h /4-/7), AAM and AAD run the microcode's CORX
// (shift-and-add multiply) and CORD (non-restoring divide) loops, whose
// clocks depend on the operand bits. The functions below walk the same
// loops on the operand values and count the microcode lines (each line one
// clock, a taken jump or a return one more), following reenigne's
// disassembly of the 8086 microcode (line numbers in the comments). With
// these counts every non-faulting form matches the suite but for the
// shared BIU residue.

/// MUL/IMUL/DIV/IDIV: clocks before the first microcode line (150h, 158h,
/// 160h, 168h). After a memory operand's read (from its T3): its T4 and
/// the two last lines of EALOAD; after a register operand: one clock (the
/// M->tmpb move of the register). Measured on the suite.
pub(crate) fn muldiv_pre(mem: bool) -> u32 {
    if mem {
        3
    } else {
        1
    }
}

/// CORX (17Fh-187h), the multiply loop: two set-up lines, per bit of the
/// multiplier (tmpc) three lines and a jump over the add (or two add lines
/// when the bit is set), the shift lines (184h-186h) and the jump back for
/// all but the last bit, then 187h and the return.
fn corx(multiplier: u32, bits: u32) -> u32 {
    let mask = (1u32 << bits) - 1;
    2 + bits * 5 + (multiplier & mask).count_ones() + (bits - 1) + 2
}

/// NEGATE from its line 7 (1BBh-1BFh): tests the sign of tmpb, negating it
/// when negative (1BEh and the return) or jumping to the return (1BFh).
fn negate_tmpb(tmpb_negative: bool) -> u32 {
    3 + if tmpb_negative { 2 } else { 3 }
}

/// NEGATE from its start (1B6h-1BAh): negates tmpc:tmpa, then line 7.
fn negate_full(tmpb_negative: bool) -> u32 {
    5 + negate_tmpb(tmpb_negative)
}

/// The end of the product: IMULCOF (the jump, 1CDh-1D0h, 155h and a jump)
/// for IMUL, MULCOF (155h, 156h, the jump, 1D2h, 1D3h, the jump, 1D0h) for
/// MUL; the zero test of the high half jumps to CCOF (1CCh, one clock
/// more) when the product fits, else runs SCOF (1D1h).
fn mulcof(signed: bool, fits: bool) -> u32 {
    let tail = if fits { 4 } else { 3 };
    if signed {
        1 + 3 + tail + 2
    } else {
        6 + tail
    }
}

/// MUL/IMUL clocks from microcode line 150h (158h for words), the operand
/// in tmpb, to the instruction's end. `acc` and `src` are AL/AX and the
/// operand; `rep` is the F1 flag a REP prefix sets (it negates an IMUL
/// product); `fits` is the product fitting in the low half (CF and OF
/// clear).
pub(crate) fn mul(acc: u32, src: u32, word: bool, signed: bool, rep: bool, fits: bool) -> u32 {
    let bits = if word { 16 } else { 8 };
    let sign = 1u32 << (bits - 1);
    let mask = (sign << 1).wrapping_sub(1);
    let (acc, src) = (acc & mask, src & mask);
    // 150h-151h: A->tmpc, M->tmpb.
    let mut n = 2;
    let mut tmpc = acc;
    let mut tmpb = src;
    let mut f1 = rep && signed;
    if signed {
        // PREIMUL (the jump, 1C0h-1C3h): negate a negative tmpc, then
        // NEGATE from line 7 for tmpb.
        n += 3;
        if acc & sign != 0 {
            tmpc = acc.wrapping_neg() & mask;
            f1 = !f1;
            n += 3;
        } else {
            n += 1;
        }
        n += negate_tmpb(src & sign != 0);
        if src & sign != 0 {
            tmpb = src.wrapping_neg() & mask;
            f1 = !f1;
        }
    }
    // 152h and the jump to CORX.
    n += 2 + corx(tmpc, bits);
    // 153h: F1 NEGATE (the jump and the whole routine when set).
    n += 1;
    if f1 {
        n += 1 + negate_full(tmpb & sign != 0);
    }
    // 154h: X0 IMULCOF.
    n += 1;
    n + mulcof(signed, fits)
}

/// How a divide error leaves the flags: those of the last flag-setting
/// subtraction `a - b` (CORD's first test at 188h, or the last 18Fh of the
/// loop), with CF cleared by the POSTIDIV test (1C4h). Recorded by the
/// suite in the pushed FLAGS.
pub(crate) struct DivError {
    pub clocks: u32,
    pub a: u32,
    pub b: u32,
    pub clear_cf: bool,
}

/// Where the division microcode ends: its clocks to the last line, or to
/// INTR's line 19Eh after a divide error (the jump to INT0, 1A7h and its
/// jump into INTR past 19Dh; [`Cpu::interrupt`] runs INTR from there).
pub(crate) enum DivClocks {
    Done(u32),
    Error(DivError),
}

impl DivClocks {
    pub(crate) fn clocks(&self) -> u32 {
        match self {
            DivClocks::Done(n) => *n,
            DivClocks::Error(e) => e.clocks,
        }
    }
}

/// The jump to INT0, 1A7h and the jump into INTR.
const INT0_ENTRY: u32 = 3;

/// Rotates `v` (of `bits` bits) left through `carry`.
fn rcl(v: u32, carry: bool, bits: u32) -> (u32, bool) {
    let top = v >> (bits - 1) & 1 != 0;
    let mask = (1u32 << bits) - 1;
    ((v << 1 | carry as u32) & mask, top)
}

/// CORD (188h-197h), the divide loop on tmpa:tmpc by tmpb. 188h-18Ah
/// subtract the divisor from the high half: no borrow means the quotient
/// cannot fit (INT0). Then per bit 18Bh-18Eh shift tmpc and tmpa left; a
/// bit shifted out of tmpa takes the jump, 195h-196h (the subtraction
/// stands), otherwise 18Fh-190h test the borrow: none keeps the difference
/// (the jump, 196h), a borrow keeps tmpa (191h). The jump back costs a
/// clock; the last bit leaves through 197h and a jump, except after 191h
/// which falls into 192h. 192h-194h shift the last quotient bit in, then
/// the return.
fn cord(mut tmpa: u32, tmpb: u32, mut tmpc: u32, bits: u32) -> Cord {
    let mut n = 3;
    if tmpa >= tmpb {
        return Cord {
            clocks: n,
            overflow: true,
            carry: false,
            a: tmpa,
            b: tmpb,
        };
    }
    let mut flags_a = tmpa;
    let mut carry = true;
    for i in 0..bits {
        let last = i + 1 == bits;
        let (c, out_c) = rcl(tmpc, carry, bits);
        tmpc = c;
        let (a, out_a) = rcl(tmpa, out_c, bits);
        tmpa = a;
        let borrow = tmpa < tmpb;
        let diff = tmpa.wrapping_sub(tmpb) & ((1u32 << bits) - 1);
        n += 4;
        if out_a {
            tmpa = diff;
            carry = false;
            n += 3 + if last { 2 } else { 1 };
        } else {
            flags_a = tmpa;
            n += 2;
            carry = borrow;
            if !borrow {
                tmpa = diff;
                n += 2 + if last { 2 } else { 1 };
            } else {
                n += 1 + if last { 0 } else { 1 };
            }
        }
    }
    let (c, carry) = rcl(tmpc, carry, bits);
    let (_, carry) = rcl(c, carry, bits);
    Cord {
        clocks: n + 4,
        overflow: false,
        carry,
        a: flags_a,
        b: tmpb,
    }
}

/// Where CORD ends: its clocks (to 18Ah when the quotient cannot fit,
/// `overflow`), the carry left by 194h (set when the quotient's top bit is
/// clear) and the operands `a - b` of the last flag-setting subtraction.
struct Cord {
    clocks: u32,
    overflow: bool,
    carry: bool,
    a: u32,
    b: u32,
}

/// DIV/IDIV clocks from microcode line 160h (168h for words), the operand
/// in tmpb, to the instruction's end or to INTR after a divide error.
/// `hi:lo` is the dividend (AH:AL or DX:AX), `src` the divisor.
pub(crate) fn div(lo: u32, hi: u32, src: u32, word: bool, signed: bool) -> DivClocks {
    let bits = if word { 16 } else { 8 };
    let sign = 1u32 << (bits - 1);
    let mask = (sign << 1).wrapping_sub(1);
    let (mut tmpa, mut tmpc, mut tmpb) = (hi & mask, lo & mask, src & mask);
    // 160h-162h: the dividend halves and the divisor into tmpa, tmpc, tmpb.
    let mut n = 3;
    if signed {
        // PREIDIV (the jump, 1B4h-1B5h): a negative dividend runs the
        // whole NEGATE, a positive one jumps to its line 7 (the divisor).
        n += 3;
        if tmpa & sign != 0 {
            let borrow = tmpc != 0;
            tmpc = tmpc.wrapping_neg() & mask;
            tmpa = if borrow { !tmpa } else { tmpa.wrapping_neg() } & mask;
            n += negate_full(tmpb & sign != 0);
        } else {
            n += 1 + negate_tmpb(tmpb & sign != 0);
        }
        if tmpb & sign != 0 {
            tmpb = tmpb.wrapping_neg() & mask;
        }
    }
    // 163h and the jump to CORD.
    n += 2;
    let Cord {
        clocks,
        overflow,
        carry,
        a,
        b,
    } = cord(tmpa, tmpb, tmpc, bits);
    n += clocks;
    if overflow {
        return DivClocks::Error(DivError {
            clocks: n + INT0_ENTRY,
            a,
            b,
            clear_cf: false,
        });
    }
    // 164h-165h: COM1 tmpc, X0 POSTDIV.
    n += 2;
    if signed {
        // POSTIDIV (the jump, 1C4h): a quotient with its top bit set is a
        // divide error; else 1C5h-1CCh (the same length whatever the
        // signs: a jump or 1C8h, a jump or 1CBh) and the return.
        n += 2;
        if !carry {
            return DivClocks::Error(DivError {
                clocks: n + INT0_ENTRY,
                a,
                b,
                clear_cf: true,
            });
        }
        n += 3 + 1 + 2 + 1 + 2;
    }
    DivClocks::Done(n)
}

/// AAM imm8: 175h-176h and the jump to CORD (AL by the immediate, tmpa
/// zero), 177h (COM1 tmpc). A zero immediate fails CORD's first test.
pub(crate) fn aam(al: u8, base: u8) -> u32 {
    let c = cord(0, base as u32, al as u32, 8);
    3 + c.clocks + if c.overflow { INT0_ENTRY } else { 1 }
}

/// AAD imm8: 170h-171h and the jump to CORX (AH by the immediate, the
/// immediate the multiplier), 172h-173h (the add to AL).
pub(crate) fn aad(base: u8) -> u32 {
    3 + corx(base as u32, 8) + 2
}

/// ESC (D8h-DFh) with a memory operand: the operand word is read for the
/// coprocessor, then three clocks (its T4 and two more) before the next
/// instruction; with a register operand nothing after the ModR/M
/// (measured on the suite).
pub(crate) const ESC_MEM_POST: u32 = 3;

// ---------------------------------------------------------------------
// Interrupts
// ---------------------------------------------------------------------

/// INTR routine (microcode 019Dh-019Fh): clocks before the vector's IP
/// word is read (entered from INT n, INT3, INTO and the divide error).
pub(crate) const INTR_PRE: u32 = 3;

/// INTR: clocks between the IP word's T3 and the request of the CS word
/// (microcode 01A1h).
pub(crate) const INTR_VECTOR_GAP: u32 = 2;

/// INTR: after SUSP (01A3h, waiting for a code fetch on the bus), clocks
/// before FLAGS is pushed (01A3h-01A4h).
pub(crate) const INTR_PUSH_FLAGS: u32 = 3;

/// INTR: clocks from the FLAGS push's T3 to the CS push (01A6h and
/// FARCALL2's first lines); the flush and the IP push then follow as for
/// CALL far ([`CALL_TO_FLUSH`], [`CALL_PUSH_PRE`]).
pub(crate) const INTR_PUSH_CS: u32 = 5;

/// IRQ routine of a maskable interrupt (microcode 019Ah-019Ch, after the
/// two INTA cycles): SUSP at once, two clocks before the INTR routine.
/// From the microcode listing, not measured (no suite file).
pub(crate) const IRQ_SUSP: u32 = 0;
pub(crate) const IRQ_TO_INTR: u32 = 2;

/// INT3: clocks after the decode before the INTR routine (microcode
/// 01B0h-01B2h and its jumps).
pub(crate) const INT3_PRE: u32 = 4;

/// INT imm8: SUSP two clocks after the immediate, waiting for a code fetch
/// on the bus, before the INTR routine (measured on the suite: the vector
/// read follows a fetch that started after the immediate was taken).
pub(crate) const INT_IMM_SUSP: u32 = 2;

/// INTO: clocks after the decode; with OF set (the INTR routine follows)
/// five, without two (microcode 01ACh-01AFh).
pub(crate) fn into(taken: bool) -> u32 {
    if taken {
        5
    } else {
        2
    }
}

/// IRET runs RETF's lines (microcode 0C8h and FARRET: [`RETF_PRE`],
/// [`RETF_BETWEEN`], [`RETF_TO_FLUSH`]); its FLAGS pop is requested a clock
/// after the flush (microcode 0CAh).
pub(crate) const IRET_FLAGS: u32 = 1;
