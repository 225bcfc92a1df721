//! The execution unit: decodes one instruction through the BIU and carries
//! it out. [`Cpu::execute`] is the dispatcher, one arm per family of
//! [`crate::table::Op`]; the semantics live in one file per family:
//! `operands` (ModR/M addressing and register access), `arith` (the ALU
//! group, INC/DEC, NEG, multiply, divide, decimal adjust, sign extension),
//! `logic` (NOT, shifts and rotates, bit tests and scans), `transfer` (MOV,
//! XCHG, LEA, far-pointer loads, MOVZX/MOVSX, XLAT), `stack` (PUSH, POP,
//! PUSHA/POPA, ENTER/LEAVE), `control` (jumps, calls, returns, loops,
//! software interrupts, BOUND), `flags_ops` (the flag instructions and
//! SETcc), `io` (IN and OUT; INS/OUTS are string operations in
//! `crate::string`) and `system` (HLT, the coprocessor escapes and the
//! 286/386 system registers). Operations raise faults as `Err(Fault)`;
//! [`Cpu::fault`] delivers them.

mod arith;
mod control;
mod flags_ops;
mod io;
mod logic;
mod operands;
mod stack;
mod system;
mod transfer;

use crate::bus::Bus;
use crate::cpu::{Cpu, Fault, StepEvent};
use crate::decode::{decode_for, in_memory, Instruction};
use crate::decode_cache::Decoded;
use crate::fast::Kind;
use crate::regs::SegReg;
use crate::table::Op;
use crate::timing;

pub(crate) use operands::Loc;

/// #UD.
const UD: Fault = Fault::Vector(6);

/// What an instruction family's handler returns: done, or a fault.
type Exec = Result<(), Fault>;

impl Cpu {
    /// Decodes and executes one instruction.
    #[inline(always)]
    pub(crate) fn execute_one<B: Bus>(&mut self, bus: &mut B) -> StepEvent {
        // (`instr_ip` and `fetch_fault` are the generic path's: it sets
        // them; a fast handler reads neither.)
        // Plain RAM/ROM code decodes from the bus's window; cycle-exact
        // mode and hooks see every fetch on the bus.
        if !self.slow_mem {
            let found =
                Cpu::decode_from_window(&mut self.decode_cache, &self.regs, self.model, bus);
            if let Some((addr, slot)) = found {
                let fast = slot.fast;
                self.regs.ip += fast.len as u32;
                // (Generic and Int are the two lowest kinds: one compare.
                // `x_scripted`, left set by an exact mode since switched
                // off, sets `slow_mem`: such a CPU never comes here.)
                if fast.kind as u8 <= Kind::Int as u8 {
                    if fast.kind == Kind::Int {
                        return StepEvent::SoftwareInterrupt(self.fast_int(bus, &fast));
                    }
                    let d = slot.ins;
                    return self.execute_cached(bus, &d);
                }
                if self.run_fast(bus, &fast) {
                    return StepEvent::Executed;
                }
                // Declined: nothing changed, and the slot still holds it.
                let d = self.decode_cache.slot_of(addr).ins;
                return self.execute_cached(bus, &d);
            }
        }
        self.execute_fetched(bus)
    }

    /// The generic path for an instruction from the decode cache.
    #[inline(never)]
    fn execute_cached<B: Bus>(&mut self, bus: &mut B, d: &Decoded) -> StepEvent {
        // (IP is past the instruction's bytes.)
        self.instr_ip = self.regs.ip.wrapping_sub(d.ins.len as u32);
        self.fetch_fault = false;
        self.save_registers();
        self.execute_decoded(bus, &d.ins, Some(d.clocks))
    }

    /// The generic path for an instruction decoded from bus fetches.
    #[inline(never)]
    fn execute_fetched<B: Bus>(&mut self, bus: &mut B) -> StepEvent {
        self.instr_ip = self.regs.ip;
        self.fetch_fault = false;
        self.save_registers();
        let model = self.model;
        let Some(ins) = decode_for(model, || self.fetch8(bus), usize::MAX) else {
            // Unreachable: decoding from the bus has no length limit.
            return StepEvent::Executed;
        };
        // An instruction whose last byte is at FFFFh leaves the 286's
        // 16-bit IP at 0 (one that runs past it faults: `fetch_fault`).
        if self.regs.ip > 0xFFFF && model.caps().offsets_wrap_at_64k {
            self.regs.ip &= 0xFFFF;
        }
        self.execute_decoded(bus, &ins, None)
    }

    /// Keeps the registers at instruction start for a 286/386 fault's
    /// restart. Called with only IP moved past the instruction's bytes
    /// (or not yet): the fast path, which never needs them, skips it.
    #[inline(always)]
    fn save_registers(&mut self) {
        if self.model.caps().faults_restart_instruction {
            self.saved = self.regs.clone();
            self.saved.ip = self.instr_ip;
        }
    }

    /// Executes the instruction just decoded (IP past it): the length and
    /// limit checks, its prefixes' clocks, then [`Cpu::execute`] (with the
    /// decode cache's `clocks` when it has them), delivering a fault.
    #[inline(always)]
    fn execute_decoded<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
        clocks: Option<[u32; 2]>,
    ) -> StepEvent {
        let model = self.model;
        // The 286 rejects an instruction longer than 10 bytes, the 386 one
        // longer than 15 (prefixes included), with #GP.
        let too_long = ins.len as u32 > model.caps().max_instruction_bytes;
        if self.fetch_fault || too_long {
            return self.fault(bus, Fault::Vector(13));
        }
        self.step_cycles += ins.prefixes as u32 * model.caps().prefix_clocks;
        let next_ip = self.regs.ip;
        let cs = self.regs.sreg(SegReg::CS);
        if self.x.is_some() {
            self.x_begin(bus, ins);
        }
        let ev = match self.execute(bus, ins, clocks) {
            Ok(ev) => ev,
            Err(f) => {
                self.step_cycles += timing::clocks(model, ins, false, false);
                self.fault(bus, f)
            }
        };
        if self.x.is_some() {
            self.x_end(bus, ins, next_ip, cs);
        }
        ev
    }

    /// Carries out a decoded instruction: its family's semantics, then
    /// (unless the family scripted its own clocks in exact mode) its
    /// documented clock count (`clocks`, not taken and taken, when the
    /// decode cache already has it).
    fn execute<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
        clocks: Option<[u32; 2]>,
    ) -> Result<StepEvent, Fault> {
        let mut taken = false;
        let mut event = StepEvent::Executed;
        match ins.op {
            Op::Add
            | Op::Or
            | Op::Adc
            | Op::Sbb
            | Op::And
            | Op::Sub
            | Op::Xor
            | Op::Cmp
            | Op::Test => self.alu_group(bus, ins)?,
            Op::Inc | Op::Dec => self.inc_dec(bus, ins)?,
            Op::Neg => self.neg_op(bus, ins)?,
            Op::Mul | Op::Imul => self.mul_op(bus, ins)?,
            Op::Imul3 => self.imul3(bus, ins)?,
            Op::Div | Op::Idiv => self.div_op(bus, ins)?,
            Op::Daa | Op::Das | Op::Aaa | Op::Aas | Op::Aam | Op::Aad => {
                self.decimal_adjust(bus, ins)?
            }
            Op::Cbw | Op::Cwd => self.sign_extend_acc(bus, ins),
            Op::Not => self.not_op(bus, ins)?,
            Op::Rol | Op::Ror | Op::Rcl | Op::Rcr | Op::Shl | Op::Shr | Op::Setmo | Op::Sar => {
                self.shift_op(bus, ins)?
            }
            Op::Shld | Op::Shrd => self.double_shift_op(bus, ins)?,
            Op::Bt | Op::Bts | Op::Btr | Op::Btc => self.bit_test(bus, ins)?,
            Op::Bsf | Op::Bsr => self.bit_scan(bus, ins)?,
            Op::Mov => self.mov(bus, ins)?,
            Op::Xchg => self.xchg(bus, ins)?,
            Op::Lea => self.lea(bus, ins)?,
            Op::Les | Op::Lds | Op::Lss | Op::Lfs | Op::Lgs => self.load_far_pointer(bus, ins)?,
            Op::Movzx | Op::Movsx => self.mov_extend(bus, ins)?,
            Op::Xlat => self.xlat(bus, ins)?,
            Op::Push => self.push_op(bus, ins)?,
            Op::Pop => self.pop_op(bus, ins)?,
            Op::PushSeg | Op::PopSeg => self.push_pop_sreg(bus, ins)?,
            Op::Pusha | Op::Popa => self.push_pop_all(bus, ins)?,
            Op::Enter => self.enter(bus, ins)?,
            Op::Leave => self.leave(bus, ins)?,
            Op::Jcc => taken = self.jcc(bus, ins)?,
            Op::Loop | Op::Loope | Op::Loopne | Op::Jcxz => taken = self.loop_op(bus, ins)?,
            Op::Jmp | Op::JmpFar => self.jmp(bus, ins)?,
            Op::Call | Op::CallFar => self.call(bus, ins)?,
            Op::CallInd | Op::JmpInd => self.near_indirect(bus, ins)?,
            Op::CallFarInd | Op::JmpFarInd => self.far_indirect(bus, ins)?,
            Op::Ret | Op::Retf => self.ret(bus, ins)?,
            Op::Iret => self.iret(bus, ins)?,
            Op::Int3 | Op::Int | Op::Into | Op::Icebp => {
                if let Some(v) = self.soft_interrupt(bus, ins) {
                    taken = true;
                    event = StepEvent::SoftwareInterrupt(v);
                }
            }
            Op::Bound => self.bound(bus, ins)?,
            Op::Setcc => self.setcc(bus, ins)?,
            Op::Clc | Op::Stc | Op::Cli | Op::Sti | Op::Cld | Op::Std | Op::Cmc => {
                self.flag_op(ins.op)
            }
            Op::Pushf | Op::Popf => self.push_pop_flags(bus, ins)?,
            Op::Sahf | Op::Lahf | Op::Salc => self.flags_to_acc(bus, ins.op),
            Op::In | Op::Out => self.in_out(bus, ins),
            Op::Movs | Op::Cmps | Op::Stos | Op::Lods | Op::Scas | Op::Ins | Op::Outs => {
                // Bursts may write memory past the page stamps' count
                // (`Cpu::write_mem`): every decoded instruction is then
                // checked again.
                if matches!(ins.op, Op::Movs | Op::Stos | Op::Ins) {
                    self.decode_cache.memory_changed();
                }
                // String operations count their own clocks per iteration.
                self.string_op(bus, ins)?;
                return Ok(event);
            }
            Op::Hlt => event = self.hlt(),
            Op::Wait | Op::Esc => self.coprocessor(bus, ins)?,
            Op::MovFromCr | Op::MovToCr => self.mov_cr(ins)?,
            Op::Smsw | Op::Lmsw | Op::Clts => self.msw_op(bus, ins)?,
            Op::Sgdt | Op::Sidt | Op::Lgdt | Op::Lidt => self.descriptor_table_op(bus, ins)?,
            Op::Invd | Op::Wbinvd | Op::Invlpg => self.cache_op(bus, ins)?,
            Op::Cpuid => self.cpuid()?,
            Op::Xadd | Op::Cmpxchg => self.exchange_arith(bus, ins)?,
            Op::Bswap => self.bswap(ins),
            Op::Invalid => self.invalid()?,
            Op::Prefix => {}
        }
        self.add_clocks(ins, clocks, taken);
        Ok(event)
    }

    /// Adds an executed instruction's documented clocks (`clocks`, not
    /// taken and taken, when the decode cache has them) to the step's.
    #[inline(always)]
    fn add_clocks(&mut self, ins: &Instruction, clocks: Option<[u32; 2]>, taken: bool) {
        if !self.x_scripted {
            // (A scripted instruction in exact mode counts its clocks on
            // the bus; the documented count is only its pad otherwise.)
            self.step_cycles += match clocks {
                Some(c) => c[taken as usize],
                None => timing::clocks(self.model, ins, in_memory(ins), taken),
            };
        }
    }
}
