//! String instructions MOVS, CMPS, SCAS, LODS, STOS, INS, OUTS and their REP
//! forms (Intel 8086 Family User's Manual, pp. 2-42 to 2-45; 80386 PRM,
//! chapter 17 for the 32-bit forms).
//!
//! The source is DS:SI (segment override allowed), the destination ES:DI
//! (never overridden); a 67h prefix makes them ESI, EDI and ECX. With a
//! repeat prefix the CPU checks for interrupts between iterations; when one
//! is pending it stops with CX, SI and DI updated and IP pointing back at the
//! instruction, so the loop resumes after IRET. The 8086 resumes at the LAST
//! prefix byte only, losing any earlier prefix (a documented 8086 erratum;
//! the 286 restarts at the first prefix).
//!
//! A word at offset FFFFh faults on the 286 (#GP, segment overrun), and the
//! 286 keeps what its microcode had done before the fault was taken
//! ([`Cpu::string_once_286`]).

use crate::biu::BUS_CYCLE;
use crate::bus::{le_value, Bus, DIRECT_BLOCK};
use crate::cpu::{Cpu, Fault};
use crate::decode::{Instruction, Rep};
use crate::eu_timing;
use crate::flags::{DF, IF, ZF};
use crate::regs::{Reg16, SegReg};
use crate::size::Size;
use crate::table::Op;
use crate::timing;

impl Cpu {
    /// An index register (SI=6, DI=7, CX=1) at the address size.
    #[inline]
    fn index_reg(&self, r: u8, a32: bool) -> u32 {
        if a32 {
            self.regs.gpr[r as usize]
        } else {
            self.regs.get16(r) as u32
        }
    }

    #[inline]
    fn set_index_reg(&mut self, r: u8, a32: bool, v: u32) {
        if a32 {
            self.regs.gpr[r as usize] = v;
        } else {
            self.regs.put16(r, v as u16);
        }
    }

    /// One iteration: the transfer and the SI/DI steps.
    fn string_once<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
        sz: Size,
        src_seg: SegReg,
    ) -> Result<(), Fault> {
        let a32 = ins.addrsize32;
        let n = sz.bits() / 8;
        let step = if self.flag(DF) { n.wrapping_neg() } else { n };
        let si = self.index_reg(6, a32);
        let di = self.index_reg(7, a32);
        let acc = self.regs.gpr[0] & sz.mask();
        let es = SegReg::ES;
        match ins.op {
            Op::Movs => {
                let v = self.read_mem(bus, src_seg, si, sz)?;
                self.write_mem(bus, es, di, sz, v)?;
                self.set_index_reg(6, a32, si.wrapping_add(step));
                self.set_index_reg(7, a32, di.wrapping_add(step));
            }
            Op::Cmps => {
                let a = self.read_mem(bus, src_seg, si, sz)?;
                let b = self.read_mem(bus, es, di, sz)?;
                self.sub(a, b, 0, sz);
                self.set_index_reg(6, a32, si.wrapping_add(step));
                self.set_index_reg(7, a32, di.wrapping_add(step));
            }
            Op::Scas => {
                let b = self.read_mem(bus, es, di, sz)?;
                self.sub(acc, b, 0, sz);
                self.set_index_reg(7, a32, di.wrapping_add(step));
            }
            Op::Lods => {
                let v = self.read_mem(bus, src_seg, si, sz)?;
                self.put_reg(0, sz, v);
                self.set_index_reg(6, a32, si.wrapping_add(step));
            }
            Op::Stos => {
                self.write_mem(bus, es, di, sz, acc)?;
                self.set_index_reg(7, a32, di.wrapping_add(step));
            }
            Op::Ins => {
                self.check_limit(es, di, n)?;
                let port = self.regs.reg16(Reg16::DX);
                let v = self.port_in(bus, port, sz);
                self.write_mem(bus, es, di, sz, v)?;
                self.set_index_reg(7, a32, di.wrapping_add(step));
            }
            Op::Outs => {
                let v = self.read_mem(bus, src_seg, si, sz)?;
                let port = self.regs.reg16(Reg16::DX);
                self.port_out(bus, port, v, sz);
                self.set_index_reg(6, a32, si.wrapping_add(step));
            }
            _ => unreachable!("not a string operation: {:?}", ins.op),
        }
        Ok(())
    }

    /// One iteration in the order of the 286's microcode, for a REP form
    /// (`rep`) with its CX decrement. A transfer at offset FFFFh raises
    /// #GP, which the 286 takes at the next step that needs the bus or the
    /// data, so the steps in between stay done (80286 single-step suite):
    /// a failed read still steps its index register (and CMPS, which
    /// reads ES:DI first, decrements CX only after its second read); a
    /// failed write is posted, so the fault waits for the next iteration's
    /// first transfer and is returned as pending (`Ok(Some)`) for the
    /// caller to deliver there.
    fn string_once_286<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
        sz: Size,
        src_seg: SegReg,
        rep: bool,
    ) -> Result<Option<Fault>, Fault> {
        let a32 = ins.addrsize32;
        let n = sz.bits() / 8;
        let step = if self.flag(DF) { n.wrapping_neg() } else { n };
        let si = self.index_reg(6, a32);
        let di = self.index_reg(7, a32);
        let acc = self.regs.gpr[0] & sz.mask();
        let es = SegReg::ES;
        if rep && ins.op != Op::Cmps {
            self.decrement_cx(a32);
        }
        match ins.op {
            Op::Movs => {
                let v = self.read_mem(bus, src_seg, si, sz);
                self.set_index_reg(6, a32, si.wrapping_add(step));
                let w = self.write_mem(bus, es, di, sz, v?);
                self.set_index_reg(7, a32, di.wrapping_add(step));
                return Ok(w.err());
            }
            Op::Cmps => {
                let b = self.read_mem(bus, es, di, sz);
                self.set_index_reg(7, a32, di.wrapping_add(step));
                let b = b?;
                let a = self.read_mem(bus, src_seg, si, sz);
                self.set_index_reg(6, a32, si.wrapping_add(step));
                if rep {
                    self.decrement_cx(a32);
                }
                self.sub(a?, b, 0, sz);
            }
            Op::Scas => {
                let b = self.read_mem(bus, es, di, sz);
                self.set_index_reg(7, a32, di.wrapping_add(step));
                self.sub(acc, b?, 0, sz);
            }
            Op::Lods => {
                let v = self.read_mem(bus, src_seg, si, sz);
                self.set_index_reg(6, a32, si.wrapping_add(step));
                self.put_reg(0, sz, v?);
            }
            Op::Stos => {
                let w = self.write_mem(bus, es, di, sz, acc);
                self.set_index_reg(7, a32, di.wrapping_add(step));
                return Ok(w.err());
            }
            Op::Ins => {
                let port = self.regs.reg16(Reg16::DX);
                let v = self.port_in(bus, port, sz);
                let w = self.write_mem(bus, es, di, sz, v);
                self.set_index_reg(7, a32, di.wrapping_add(step));
                return Ok(w.err());
            }
            Op::Outs => {
                let v = self.read_mem(bus, src_seg, si, sz);
                self.set_index_reg(6, a32, si.wrapping_add(step));
                let port = self.regs.reg16(Reg16::DX);
                self.port_out(bus, port, v?, sz);
            }
            _ => unreachable!("not a string operation: {:?}", ins.op),
        }
        Ok(None)
    }

    /// CX (ECX with a 32-bit address size) minus one.
    #[inline]
    fn decrement_cx(&mut self, a32: bool) {
        let cx = self.index_reg(1, a32);
        self.set_index_reg(1, a32, cx.wrapping_sub(1));
    }

    /// The 286's REP loop after an iteration whose write faulted: the fault
    /// is taken after the loop's next CX decrement, even one that passes
    /// zero (REP MOVSW with CX = 1 ends with CX = FFFFh).
    fn rep_write_fault_286(&mut self, ins: &Instruction, f: Fault) -> Fault {
        self.decrement_cx(ins.addrsize32);
        f
    }

    /// Executes a string instruction with its prefixes.
    pub(crate) fn string_op<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
    ) -> Result<(), Fault> {
        if self.x.is_some() {
            return self.string_op_x(bus, ins);
        }
        let sz = Size::of(ins.w, ins.opsize32);
        let src_seg = ins.seg.unwrap_or(SegReg::DS);
        let a32 = ins.addrsize32;
        let caps = self.model.caps();
        let microcode_286 = caps.segment_limit_fault && !caps.fault_restores_registers;
        if ins.rep == Rep::None {
            if microcode_286 {
                if let Some(f) = self.string_once_286(bus, ins, sz, src_seg, false)? {
                    return Err(f);
                }
            } else {
                self.string_once(bus, ins, sz, src_seg)?;
            }
            self.step_cycles += timing::clocks(self.model, ins, false, false);
            return Ok(());
        }
        let (setup, per) = timing::rep_clocks(self.model, ins.op);
        self.step_cycles += setup;
        let restarts = self.model.caps().faults_restart_instruction;
        // Data bytes of one iteration; 0 samples INTR after every one:
        // INS/OUTS access ports, and a CPU with hooks steps one by one
        // (the reference the bursts are tested against).
        let n = sz.bits() / 8;
        let per_bytes = match ins.op {
            _ if self.slow_mem => 0,
            Op::Movs | Op::Cmps => 2 * n,
            Op::Stos | Op::Scas | Op::Lods => n,
            _ => 0,
        } as u64;
        // Bytes the bus guarantees no interrupt for (`intr_quiet_bytes`).
        let mut quiet = 0u64;
        loop {
            if per_bytes != 0 && !self.nmi_latch {
                let budget = if self.flag(IF) { quiet } else { u64::MAX };
                let done = self.rep_burst(bus, ins, sz, src_seg, per, budget / per_bytes)?;
                quiet = quiet.saturating_sub(done * per_bytes);
                if done != 0 && self.rep_ended(ins, a32) {
                    break;
                }
            }
            let cx = self.index_reg(1, a32);
            if cx == 0 {
                break;
            }
            if restarts {
                // A fault in this iteration restarts it, keeping the
                // progress of the iterations before.
                self.saved = self.regs.clone();
                self.saved.ip = self.instr_ip;
            }
            if microcode_286 {
                let pending = self.string_once_286(bus, ins, sz, src_seg, true)?;
                self.step_cycles += per;
                if let Some(f) = pending {
                    return Err(self.rep_write_fault_286(ins, f));
                }
            } else {
                self.string_once(bus, ins, sz, src_seg)?;
                self.step_cycles += per;
                self.set_index_reg(1, a32, cx.wrapping_sub(1));
            }
            if self.rep_ended(ins, a32) {
                break;
            }
            if self.nmi_latch {
                self.regs.ip = self.string_restart_ip(ins);
                break;
            }
            if self.flag(IF) {
                if per_bytes != 0 && quiet >= per_bytes {
                    quiet -= per_bytes;
                } else if bus.intr() {
                    self.regs.ip = self.string_restart_ip(ins);
                    break;
                } else if per_bytes != 0 {
                    quiet = bus.intr_quiet_bytes();
                }
            }
        }
        Ok(())
    }

    /// True when a REP loop stops after an iteration: CX reached 0, or
    /// REPE/REPNE CMPS/SCAS found ZF the other way.
    #[inline(always)]
    fn rep_ended(&self, ins: &Instruction, a32: bool) -> bool {
        if matches!(ins.op, Op::Cmps | Op::Scas) {
            let zf = self.flag(ZF);
            match ins.rep {
                Rep::Rep if !zf => return true,
                Rep::Repne if zf => return true,
                _ => {}
            }
        }
        self.index_reg(1, a32) == 0
    }

    /// Up to `checks` iterations of REP MOVS/STOS/LODS/CMPS/SCAS back to
    /// back on the plain path, stopping early where the loop itself would
    /// (CX = 0, the CMPS/SCAS condition), with the clocks and results of
    /// the iteration-by-iteration loop. After each iteration that does not
    /// end it, that loop samples INTR: `checks` is how many samples are
    /// known to answer no (no NMI latched, IF clear or the bus's
    /// `intr_quiet_bytes`). Only iterations whose operands lie inside
    /// 64 KiB without wrapping run here, so none can fault and no register
    /// copy is needed. Returns the iterations run.
    fn rep_burst<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
        sz: Size,
        src_seg: SegReg,
        per: u32,
        checks: u64,
    ) -> Result<u64, Fault> {
        let a32 = ins.addrsize32;
        let n = sz.bits() / 8;
        let down = self.flag(DF);
        let uses_si = matches!(ins.op, Op::Movs | Op::Cmps | Op::Lods);
        let uses_di = !matches!(ins.op, Op::Lods);
        // Iterations whose offsets stay in [0, 10000h - n].
        let room = |off: u32| -> u64 {
            if off > 0x1_0000 - n {
                0
            } else if down {
                (off / n) as u64 + 1
            } else {
                ((0x1_0000 - n - off) / n) as u64 + 1
            }
        };
        let mut k = self.index_reg(1, a32) as u64;
        if uses_si {
            k = k.min(room(self.index_reg(6, a32)));
        }
        if uses_di {
            k = k.min(room(self.index_reg(7, a32)));
        }
        k = k.min(checks);
        if matches!(ins.op, Op::Movs | Op::Stos) {
            // Neither can end the loop early: all k run.
            self.move_burst(bus, ins, sz, src_seg, k as u32)?;
            self.step_cycles += per * k as u32;
            return Ok(k);
        }
        let mut done = 0u64;
        while done < k {
            let left = k - done;
            let m = match self.scan_chunk(bus, ins, sz, src_seg, left) {
                0 => {
                    // An element across a block, or memory the bus does
                    // not window: one iteration the usual way.
                    self.string_once(bus, ins, sz, src_seg)?;
                    let cx = self.index_reg(1, a32).wrapping_sub(1);
                    self.set_index_reg(1, a32, cx);
                    1
                }
                m => m,
            };
            self.step_cycles += per * m as u32;
            done += m;
            if self.rep_ended(ins, a32) {
                break;
            }
        }
        Ok(done)
    }

    /// The physical address of the element at `seg:off` of `n` bytes and
    /// how many of the next `left` elements (going down or up from it) lie
    /// in its [`DIRECT_BLOCK`] with it: (lowest address of them, count).
    /// The count is 0 when that element straddles two blocks. The offsets
    /// stay inside 64 KiB ([`Cpu::rep_burst`]), so the elements' linear
    /// addresses are consecutive, and a block moves whole through the
    /// address mask.
    #[inline(always)]
    fn block_run(&self, seg: SegReg, off: u32, n: u32, down: bool, left: u64) -> (u32, u32) {
        let lin = ((self.regs.sreg(seg) as u32) << 4).wrapping_add(off);
        let pa = lin & self.model.address_mask();
        let at = pa & (DIRECT_BLOCK - 1);
        if at + n > DIRECT_BLOCK {
            return (pa, 0);
        }
        let fit = if down {
            at / n + 1
        } else {
            (DIRECT_BLOCK - at) / n
        };
        let count = (fit as u64).min(left) as u32;
        if down {
            (pa - count.saturating_sub(1) * n, count)
        } else {
            (pa, count)
        }
    }

    /// The extra bus cycle of every word or doubleword at an odd offset
    /// (`Cpu::odd_word_cycle`), for `m` elements at `off` and its steps,
    /// which keep its parity.
    #[inline(always)]
    fn odd_cycles(&mut self, off: u32, n: u32, m: u32) {
        if n > 1 && off & 1 != 0 {
            self.step_cycles += BUS_CYCLE * m;
        }
    }

    /// Up to `left` iterations of REP CMPS/SCAS/LODS at once on the
    /// bytes of the bus's [`Bus::data_window`], inside one block per
    /// operand, stopping after the element that ends the repetition (the
    /// flags are those of its comparison). Updates SI, DI, CX and the odd
    /// cycles; the caller adds the per-iteration clocks. Returns the
    /// iterations run, 0 when the bus gives no window or an element
    /// straddles a block.
    #[inline(always)]
    fn scan_chunk<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
        sz: Size,
        src_seg: SegReg,
        left: u64,
    ) -> u64 {
        let a32 = ins.addrsize32;
        let n = sz.bits() / 8;
        let down = self.flag(DF);
        let si = self.index_reg(6, a32);
        let di = self.index_reg(7, a32);
        let mut count = left.min(u32::MAX as u64) as u32;
        let (mut ps, mut pd) = (0, 0);
        if ins.op != Op::Scas {
            (ps, count) = self.block_run(src_seg, si, n, down, count as u64);
        }
        if ins.op != Op::Lods && count > 0 {
            (pd, count) = self.block_run(SegReg::ES, di, n, down, count as u64);
            if down && ins.op == Op::Cmps {
                // The source run may be longer: keep its top `count`.
                ps = self.block_run(src_seg, si, n, down, count as u64).0;
            }
        }
        if count == 0 {
            return 0;
        }
        let len = (count * n) as usize;
        let window = |a: u32| bus.data_window(a).and_then(|w| w.get(..len));
        let elem = |w: &[u8], i: u32| -> u32 {
            // Element i in execution order: from the top going down.
            let j = if down { count - 1 - i } else { i } as usize * n as usize;
            le_value(&w[j..j + n as usize])
        };
        let stop_on_equal = ins.rep == Rep::Repne;
        let (m, last) = match ins.op {
            Op::Lods => {
                let Some(ws) = window(ps) else { return 0 };
                (count, (elem(ws, count - 1), 0))
            }
            Op::Scas => {
                let Some(wd) = window(pd) else { return 0 };
                let acc = self.regs.gpr[0] & sz.mask();
                let hit = (0..count).find(|&i| (elem(wd, i) == acc) == stop_on_equal);
                let i = hit.unwrap_or(count - 1);
                (i + 1, (acc, elem(wd, i)))
            }
            _ => {
                let (Some(ws), Some(wd)) = (window(ps), window(pd)) else {
                    return 0;
                };
                let hit = (0..count).find(|&i| (elem(ws, i) == elem(wd, i)) == stop_on_equal);
                let i = hit.unwrap_or(count - 1);
                (i + 1, (elem(ws, i), elem(wd, i)))
            }
        };
        let step = if down { n.wrapping_neg() } else { n }.wrapping_mul(m);
        let per_bytes = if ins.op == Op::Cmps { 2 * n } else { n };
        bus.mem_direct_done((m * per_bytes) as u64);
        if ins.op == Op::Lods {
            self.put_reg(0, sz, last.0);
        } else {
            self.sub(last.0, last.1, 0, sz);
            self.set_index_reg(7, a32, di.wrapping_add(step));
            self.odd_cycles(di, n, m);
        }
        if ins.op != Op::Scas {
            self.set_index_reg(6, a32, si.wrapping_add(step));
            self.odd_cycles(si, n, m);
        }
        let cx = self.index_reg(1, a32).wrapping_sub(m);
        self.set_index_reg(1, a32, cx);
        m as u64
    }

    /// The 8086 in cycle-exact mode: one iteration per pass of the string
    /// routine, with the REP set-up and loop end clocked as the microcode
    /// runs them (see the string section of [`crate::eu_timing`]).
    fn string_op_x<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) -> Result<(), Fault> {
        self.x_scripted = true;
        let op = ins.op;
        let sz = Size::of(ins.w, false);
        let src_seg = ins.seg.unwrap_or(SegReg::DS);
        let rep = ins.rep != Rep::None;
        if rep {
            self.eu_cycles(bus, eu_timing::REP_CX_TEST);
            if self.regs.reg16(Reg16::CX) == 0 {
                return Ok(());
            }
            self.eu_cycles(bus, eu_timing::REP_SETUP);
        }
        let script = eu_timing::string_script(op);
        loop {
            self.eu_cycles(bus, script.pre);
            self.string_once_x(bus, op, sz, src_seg)?;
            if !rep {
                self.eu_cycles(bus, script.post);
                return Ok(());
            }
            let cx = self.regs.reg16(Reg16::CX).wrapping_sub(1);
            self.regs.set_reg16(Reg16::CX, cx);
            if matches!(op, Op::Cmps | Op::Scas) && self.flag(ZF) != (ins.rep == Rep::Rep) {
                self.eu_cycles(bus, eu_timing::REP_Z_EXIT);
                return Ok(());
            }
            let tail = script.rep_tail;
            if cx == 0 {
                self.eu_cycles(bus, tail);
                return Ok(());
            }
            if self.nmi_latch || (self.flag(IF) && bus.intr()) {
                // RPTI: stop prefetching, point IP back at the prefix and
                // flush the queue.
                self.eu_cycles(bus, tail - eu_timing::REP_INT_CHECK_BEFORE_END + 1);
                self.q_suspend(bus);
                self.eu_cycles(bus, eu_timing::RPTI_TO_FLUSH);
                self.regs.ip = self.string_restart_ip(ins);
                self.q_flush();
                return Ok(());
            }
            self.eu_cycles(bus, tail);
        }
    }

    /// One 8086 iteration in cycle-exact mode: the transfers, with the
    /// clocks between MOVS's or CMPS's two, and the SI/DI steps.
    fn string_once_x<B: Bus>(
        &mut self,
        bus: &mut B,
        op: Op,
        sz: Size,
        src_seg: SegReg,
    ) -> Result<(), Fault> {
        let n = sz.bits() / 8;
        let step = if self.flag(DF) { n.wrapping_neg() } else { n };
        let si = self.regs.reg16(Reg16::SI) as u32;
        let di = self.regs.reg16(Reg16::DI) as u32;
        let es = SegReg::ES;
        let (next_si, next_di) = (si.wrapping_add(step) as u16, di.wrapping_add(step) as u16);
        match op {
            Op::Movs => {
                let v = self.read_mem(bus, src_seg, si, sz)?;
                self.eu_cycles(bus, eu_timing::string_script(op).mid);
                self.write_mem(bus, es, di, sz, v)?;
                self.regs.set_reg16(Reg16::SI, next_si);
                self.regs.set_reg16(Reg16::DI, next_di);
            }
            Op::Cmps => {
                let a = self.read_mem(bus, src_seg, si, sz)?;
                self.eu_cycles(bus, eu_timing::string_script(op).mid);
                let b = self.read_mem(bus, es, di, sz)?;
                self.sub(a, b, 0, sz);
                self.regs.set_reg16(Reg16::SI, next_si);
                self.regs.set_reg16(Reg16::DI, next_di);
            }
            Op::Scas => {
                let acc = self.regs.gpr[0] & sz.mask();
                let b = self.read_mem(bus, es, di, sz)?;
                self.sub(acc, b, 0, sz);
                self.regs.set_reg16(Reg16::DI, next_di);
            }
            Op::Lods => {
                let v = self.read_mem(bus, src_seg, si, sz)?;
                self.put_reg(0, sz, v);
                self.regs.set_reg16(Reg16::SI, next_si);
            }
            Op::Stos => {
                let acc = self.regs.gpr[0] & sz.mask();
                self.write_mem(bus, es, di, sz, acc)?;
                self.regs.set_reg16(Reg16::DI, next_di);
            }
            // INS/OUTS are 186 instructions: the 8086 decodes 6Ch-6Fh as
            // conditional jumps.
            _ => unreachable!("not an 8086 string operation: {:?}", op),
        }
        Ok(())
    }

    /// `k` iterations of MOVS or STOS (no more than CX, none past the
    /// 64 KiB offset range: see [`Cpu::rep_burst`]) with SI, DI and CX in
    /// locals, the clocks of each transfer counted as one by one. The
    /// elements inside one [`DIRECT_BLOCK`] per operand go to the bus at
    /// once ([`Bus::mem_fill_direct`], [`Bus::mem_copy_direct`]) when it
    /// takes them; the others one by one.
    #[inline(always)]
    fn move_burst<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
        sz: Size,
        src_seg: SegReg,
        k: u32,
    ) -> Result<(), Fault> {
        let a32 = ins.addrsize32;
        let n = sz.bits() / 8;
        let down = self.flag(DF);
        let step = if down { n.wrapping_neg() } else { n };
        let stos = ins.op == Op::Stos;
        let acc = self.regs.gpr[0] & sz.mask();
        let mut di = self.index_reg(7, a32);
        let mut si = self.index_reg(6, a32);
        let mut left = k;
        while left > 0 {
            let (mut pd, mut m) = self.block_run(SegReg::ES, di, n, down, left as u64);
            let mut ps = 0;
            if !stos && m > 0 {
                let (s, ms) = self.block_run(src_seg, si, n, down, m as u64);
                if down {
                    pd += (m - ms) * n;
                }
                (ps, m) = (s, ms);
            }
            let bulk = m > 0
                && if stos {
                    bus.mem_fill_direct(pd, m * n, n, acc)
                } else {
                    bus.mem_copy_direct(pd, ps, m * n, down)
                };
            if bulk {
                self.odd_cycles(di, n, m);
                if !stos {
                    self.odd_cycles(si, n, m);
                }
            } else {
                // The bus did not take the run (a device, ROM, feeding
                // overlap) or an element straddles blocks: one by one.
                m = m.max(1);
                for _ in 0..m {
                    let v = if stos {
                        acc
                    } else {
                        let v = self.read_mem(bus, src_seg, si, sz)?;
                        si = si.wrapping_add(step);
                        v
                    };
                    self.write_mem(bus, SegReg::ES, di, sz, v)?;
                    di = di.wrapping_add(step);
                }
                left -= m;
                continue;
            }
            di = di.wrapping_add(step.wrapping_mul(m));
            if !stos {
                si = si.wrapping_add(step.wrapping_mul(m));
            }
            left -= m;
        }
        if !stos {
            self.set_index_reg(6, a32, si);
        }
        self.set_index_reg(7, a32, di);
        let cx = self.index_reg(1, a32).wrapping_sub(k);
        self.set_index_reg(1, a32, cx);
        Ok(())
    }

    /// Where an interrupted REP string instruction resumes.
    fn string_restart_ip(&self, ins: &Instruction) -> u32 {
        if self.model.caps().rep_resumes_at_last_prefix && ins.prefixes > 0 {
            (self.instr_ip as u16).wrapping_add(ins.prefixes as u16 - 1) as u32
        } else {
            self.instr_ip
        }
    }
}
