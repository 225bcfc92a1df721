//! The bus interface unit as the execution unit sees it: segment:offset
//! address generation with the real-mode limit checks, memory and I/O
//! transfers, instruction fetch and the stack. Every transfer goes through
//! this one bus-cycle path, which counts its clocks.
//!
//! The register-level model charges each instruction its documented clock
//! count (see [`crate::timing`]); the BIU adds what the table leaves out: the
//! second bus cycle of a word transfer at an odd address (+4 clocks, Intel
//! 8086 Family User's Manual, table 2-21 note) and the wait states a device
//! inserts.
//!
//! The cycle-exact mode of the 8086 ([`Cpu::set_cycle_exact`]) routes the
//! same calls through a T-state model instead: [`queue`] (the 6-byte
//! prefetch queue) and [`cycle`] (the bus cycle state machine and fetch
//! policy); the execution unit's internal clocks come from
//! [`crate::eu_timing`]. In that mode a step's clock count is the number of
//! CLK periods that passed, from the clock the instruction's first byte
//! leaves the queue to the clock before the next instruction's does.
//!
//! Offsets: the 8086 wraps every offset at 64 KiB, also between the two
//! bytes of a word at FFFFh. The 286 and 386 in real mode check the 64 KiB
//! segment limit instead: an operand that does not fit raises #SS (12) for
//! the stack segment and #GP (13) otherwise (80386 PRM, section 14.8;
//! 80286 PRM, "segment overrun").

pub mod cycle;
pub mod queue;

use crate::bus::{Bus, DIRECT_BLOCK};
use crate::cpu::{Cpu, Fault};
use crate::decode_cache::{DecodeCache, Slot};
use crate::regs::{Reg16, SegReg};
use crate::size::Size;
use cycle::{BusStatus, BusUnit, CycleRecord, QueueOp, Transfer};

/// Clocks of one extra bus cycle (T1-T4).
pub(crate) const BUS_CYCLE: u32 = 4;

/// The bytes of an operand of `size`: 1, 2 or 4.
#[inline(always)]
fn operand_bytes(size: Size) -> u32 {
    1 << size as u32
}

impl Cpu {
    /// Checks that `size` bytes at `off` fit in the 64 KiB real-mode limit
    /// (286 and 386) and returns the offset of each byte's address base.
    #[inline]
    pub(crate) fn check_limit(&self, seg: SegReg, off: u32, size: u32) -> Result<(), Fault> {
        let c = self.model.caps();
        if c.segment_limit_fault && off as u64 + size as u64 - 1 > 0xFFFF {
            // The 286 reports every real-mode segment overrun as exception
            // 13, stack or not (80286 PRM, real-address-mode exceptions;
            // recorded by the 286 suite, e.g. LEAVE with BP = FFFFh); the 386
            // separates #SS for the stack segment.
            return Err(if seg == SegReg::SS {
                Fault::Vector(c.stack_limit_vector)
            } else {
                Fault::Vector(13)
            });
        }
        Ok(())
    }

    /// Linear address of byte `i` of an operand at `seg:off`. On the 8086
    /// the offset wraps at 64 KiB.
    #[inline]
    fn byte_addr(&self, base: u32, off: u32, i: u32) -> u32 {
        let o = if self.model.caps().segment_limit_fault {
            off.wrapping_add(i)
        } else {
            (off + i) & 0xFFFF
        };
        base.wrapping_add(o) & self.model.address_mask()
    }

    /// Reads an operand of `size` at `seg:off`. Inlined: the direct case
    /// is a few instructions (the bus's page table), the rest a call.
    #[inline(always)]
    pub(crate) fn read_mem<B: Bus>(
        &mut self,
        bus: &mut B,
        seg: SegReg,
        off: u32,
        size: Size,
    ) -> Result<u32, Fault> {
        let n = operand_bytes(size);
        // The common case: one direct read of plain RAM/ROM, with the same
        // clocks as the byte path (no wait states there).
        if let Some(a) = self.direct_addr(seg, off, n) {
            if let Some(v) = bus.mem_read_direct(a, n) {
                self.odd_word_cycle(off, n);
                return Ok(v);
            }
        }
        self.read_mem_bytes(bus, seg, off, n)
    }

    /// A read that the bus does not take directly: the limit check, then
    /// byte by byte, or through the slow path (`slow_mem`).
    #[inline(never)]
    fn read_mem_bytes<B: Bus>(
        &mut self,
        bus: &mut B,
        seg: SegReg,
        off: u32,
        n: u32,
    ) -> Result<u32, Fault> {
        self.check_limit(seg, off, n)?;
        let base = (self.regs.sreg(seg) as u32) << 4;
        if self.slow_mem {
            return Ok(self.read_mem_slow(bus, base, off, n));
        }
        Ok(self.read_bytes(bus, base, off, n))
    }

    /// The physical address of the first of the `n` bytes at `seg:off` for
    /// a direct access: off the slow path (`slow_mem`), the offsets inside
    /// 64 KiB (so no limit fault on the 286 and 386, and no offset wrap on
    /// the 8086: [`Cpu::byte_addr`] gives consecutive addresses), and the
    /// bytes inside one [`DIRECT_BLOCK`] (aligned, so no wrap at the end of
    /// the address bus either). `None` sends the access to the limit check
    /// and the byte path.
    #[inline(always)]
    pub(crate) fn direct_addr(&self, seg: SegReg, off: u32, n: u32) -> Option<u32> {
        if self.slow_mem || off > 0x1_0000 - n {
            return None;
        }
        let lin = ((self.regs.sreg(seg) as u32) << 4) + off;
        // Every model's address bus is at least 20 bits wide.
        let a = if lin > 0xF_FFFF {
            lin & self.model.address_mask()
        } else {
            lin
        };
        ((a & (DIRECT_BLOCK - 1)) + n <= DIRECT_BLOCK).then_some(a)
    }

    /// A word or doubleword at an odd address costs another bus cycle.
    #[inline(always)]
    fn odd_word_cycle(&mut self, off: u32, n: u32) {
        if n > 1 && off & 1 != 0 {
            self.step_cycles += BUS_CYCLE;
        }
    }

    /// The register-level read of `n` bytes at `base + off`: a word at an
    /// odd address costs another bus cycle, and each byte its wait states.
    #[inline(always)]
    fn read_bytes<B: Bus>(&mut self, bus: &mut B, base: u32, off: u32, n: u32) -> u32 {
        self.odd_word_cycle(off, n);
        let mut v = 0u32;
        for i in 0..n {
            let a = self.byte_addr(base, off, i);
            self.step_cycles += bus.mem_wait_states(a);
            v |= (bus.mem_read8(a) as u32) << (8 * i);
        }
        v
    }

    /// A read in cycle-exact mode or with hooks set (`slow_mem`).
    #[inline(never)]
    fn read_mem_slow<B: Bus>(&mut self, bus: &mut B, base: u32, off: u32, n: u32) -> u32 {
        let v = if self.x.is_some() {
            self.x_mem(bus, BusStatus::Memr, base, off, n, 0)
        } else {
            self.read_bytes(bus, base, off, n)
        };
        if self.hooks.is_some() {
            self.hook_mem(false, base.wrapping_add(off), n as u8, v);
        }
        v
    }

    /// Writes an operand of `size` at `seg:off` (low byte first), inlined
    /// as [`Cpu::read_mem`].
    #[inline(always)]
    pub(crate) fn write_mem<B: Bus>(
        &mut self,
        bus: &mut B,
        seg: SegReg,
        off: u32,
        size: Size,
        v: u32,
    ) -> Result<(), Fault> {
        let n = operand_bytes(size);
        // The common case: one direct write of plain RAM (see read_mem).
        if let Some(a) = self.direct_addr(seg, off, n) {
            if bus.mem_write_direct(a, n, v) {
                self.decode_cache.written(a, n);
                self.odd_word_cycle(off, n);
                return Ok(());
            }
        }
        self.write_mem_bytes(bus, seg, off, n, v)
    }

    /// A write that the bus does not take directly: the limit check, then
    /// byte by byte, or through the slow path (`slow_mem`).
    #[inline(never)]
    fn write_mem_bytes<B: Bus>(
        &mut self,
        bus: &mut B,
        seg: SegReg,
        off: u32,
        n: u32,
        v: u32,
    ) -> Result<(), Fault> {
        self.check_limit(seg, off, n)?;
        let base = (self.regs.sreg(seg) as u32) << 4;
        if self.slow_mem {
            self.write_mem_slow(bus, base, off, n, v);
        } else {
            self.write_bytes(bus, base, off, n, v);
        }
        Ok(())
    }

    /// The register-level write of `n` bytes of `v` at `base + off` (low
    /// byte first), with the clocks of [`Cpu::read_bytes`].
    #[inline(always)]
    fn write_bytes<B: Bus>(&mut self, bus: &mut B, base: u32, off: u32, n: u32, v: u32) {
        self.odd_word_cycle(off, n);
        for i in 0..n {
            let a = self.byte_addr(base, off, i);
            self.step_cycles += bus.mem_wait_states(a);
            bus.mem_write8(a, (v >> (8 * i)) as u8);
            self.decode_cache.written(a, 1);
        }
    }

    /// A write in cycle-exact mode or with hooks set (`slow_mem`).
    #[inline(never)]
    fn write_mem_slow<B: Bus>(&mut self, bus: &mut B, base: u32, off: u32, n: u32, v: u32) {
        if self.x.is_some() {
            self.x_mem(bus, BusStatus::Memw, base, off, n, v);
        } else {
            self.write_bytes(bus, base, off, n, v);
        }
        if self.hooks.is_some() {
            let mask = if n >= 4 {
                u32::MAX
            } else {
                (1u32 << (8 * n)) - 1
            };
            self.hook_mem(true, base.wrapping_add(off), n as u8, v & mask);
        }
    }

    /// Reads a word at `seg:off`.
    #[inline]
    pub(crate) fn read16<B: Bus>(
        &mut self,
        bus: &mut B,
        seg: SegReg,
        off: u32,
    ) -> Result<u16, Fault> {
        self.read_mem(bus, seg, off, Size::Word).map(|v| v as u16)
    }

    /// Reads a word from a physical address with no segment (the interrupt
    /// vector table), with no wait states counted.
    #[inline]
    pub(crate) fn read_phys16<B: Bus>(&mut self, bus: &mut B, addr: u32) -> u16 {
        if self.x.is_some() {
            return self.x_mem(bus, BusStatus::Memr, addr & !0xF, addr & 0xF, 2, 0) as u16;
        }
        let m = self.model.address_mask();
        // Plain RAM or ROM (the vectors' usual place): the two bytes
        // straight from the bus's window, when both are in it.
        if !self.slow_mem {
            if let Some(&[lo, hi, ..]) = bus.code_window(addr & m) {
                return u16::from_le_bytes([lo, hi]);
            }
        }
        let lo = bus.mem_read8(addr & m) as u16;
        let hi = bus.mem_read8(addr.wrapping_add(1) & m) as u16;
        lo | hi << 8
    }

    /// Fetches the next instruction byte at CS:IP and advances IP. The 8086
    /// wraps IP at 64 KiB; the 286 and 386 fault (#GP) past the limit, which
    /// the decoder loop reports through `fetch_fault`.
    #[inline]
    pub(crate) fn fetch8<B: Bus>(&mut self, bus: &mut B) -> u8 {
        let cs = (self.regs.sreg(SegReg::CS) as u32) << 4;
        let ip = self.regs.ip;
        if self.model.caps().segment_limit_fault {
            if ip > 0xFFFF {
                self.fetch_fault = true;
            }
            self.regs.ip = ip.wrapping_add(1);
        } else {
            self.regs.ip = (ip + 1) & 0xFFFF;
        }
        bus.mem_read8(cs.wrapping_add(ip) & self.model.address_mask())
    }

    /// Decodes the instruction at CS:IP straight from the bus's code window
    /// (see [`Bus::code_window`]), through the decode cache `cache`: the
    /// same bytes [`Cpu::fetch8`] would read, without a bus call per byte.
    /// Returns its physical address and the cache's slot that holds it (the
    /// caller advances IP past it); `None` when the window does not hold
    /// the whole instruction or IP could reach the 64 KiB wrap (the 8086's
    /// wrap and the 286/386 limit fault stay on the byte path). (A
    /// function of the fields it reads, so that the slot borrows the cache
    /// alone.)
    #[inline(always)]
    pub(crate) fn decode_from_window<'c, B: Bus>(
        cache: &'c mut DecodeCache,
        regs: &crate::regs::Registers,
        model: crate::model::CpuModel,
        bus: &B,
    ) -> Option<(u32, &'c Slot)> {
        let ip = regs.ip;
        let cs = (regs.sreg(SegReg::CS) as u32) << 4;
        let lin = cs.wrapping_add(ip);
        // Every model's address bus is at least 20 bits wide: no mask (a
        // lookup of the model's row) below 1 MiB.
        let addr = if lin > 0xF_FFFF {
            lin & model.address_mask()
        } else {
            lin
        };
        // Bytes unchanged since they were last compared: no window needed.
        if cache.current(addr, ip) {
            return Some((addr, cache.slot_of(addr)));
        }
        // At most FFFFh - IP bytes: IP never reaches the wrap or the limit.
        let room = 0xFFFFu32.checked_sub(ip)? as usize;
        let window = bus.code_window(addr)?;
        let slot = cache.lookup(model, addr, window, room)?;
        Some((addr, slot))
    }

    /// Pushes a word or doubleword: SP -= size, then the write at SS:SP. The
    /// real-mode stack is 16-bit (SP, not ESP).
    #[inline(never)]
    pub(crate) fn push<B: Bus>(&mut self, bus: &mut B, size: Size, v: u32) -> Result<(), Fault> {
        self.push_inline(bus, size, v)
    }

    /// [`Cpu::push`], always inlined: for the fast path, whose stack
    /// instructions do little else.
    #[inline(always)]
    pub(crate) fn push_inline<B: Bus>(
        &mut self,
        bus: &mut B,
        size: Size,
        v: u32,
    ) -> Result<(), Fault> {
        let n = size.bits() / 8;
        let sp = self.regs.reg16(Reg16::SP).wrapping_sub(n as u16);
        self.write_mem(bus, SegReg::SS, sp as u32, size, v)?;
        self.regs.set_reg16(Reg16::SP, sp);
        Ok(())
    }

    /// Pops a word or doubleword: the read at SS:SP, then SP += size.
    #[inline(never)]
    pub(crate) fn pop<B: Bus>(&mut self, bus: &mut B, size: Size) -> Result<u32, Fault> {
        self.pop_inline(bus, size)
    }

    /// [`Cpu::pop`], always inlined (see [`Cpu::push_inline`]).
    #[inline(always)]
    pub(crate) fn pop_inline<B: Bus>(&mut self, bus: &mut B, size: Size) -> Result<u32, Fault> {
        let sp = self.regs.reg16(Reg16::SP);
        let v = self.read_mem(bus, SegReg::SS, sp as u32, size)?;
        self.regs
            .set_reg16(Reg16::SP, sp.wrapping_add((size.bits() / 8) as u16));
        Ok(v)
    }

    /// Adds the wait states the devices insert into an I/O transfer of
    /// `size` at `port`, one byte transfer each.
    #[inline]
    fn io_waits<B: Bus>(&mut self, bus: &mut B, port: u16, size: Size) {
        for i in 0..size.bits() / 8 {
            self.step_cycles += bus.io_wait_states(port.wrapping_add(i as u16));
        }
    }

    /// Reads a port of `size`; a word at an odd port takes two bus cycles.
    pub(crate) fn port_in<B: Bus>(&mut self, bus: &mut B, port: u16, size: Size) -> u32 {
        let v = self.port_in_raw(bus, port, size);
        if cfg!(feature = "hooks") && self.hooks.is_some() {
            self.hook_port(false, port, (size.bits() / 8) as u8, v);
        }
        v
    }

    fn port_in_raw<B: Bus>(&mut self, bus: &mut B, port: u16, size: Size) -> u32 {
        if self.x.is_some() && size != Size::Dword {
            return self.x_io(bus, BusStatus::Ior, port, size == Size::Word, 0) as u32;
        }
        self.io_waits(bus, port, size);
        match size {
            Size::Byte => bus.io_read8(port) as u32,
            Size::Word => {
                if port & 1 != 0 {
                    self.step_cycles += BUS_CYCLE;
                }
                bus.io_read16(port) as u32
            }
            Size::Dword => {
                let lo = bus.io_read16(port) as u32;
                lo | (bus.io_read16(port.wrapping_add(2)) as u32) << 16
            }
        }
    }

    /// Writes a port of `size`.
    pub(crate) fn port_out<B: Bus>(&mut self, bus: &mut B, port: u16, v: u32, size: Size) {
        if cfg!(feature = "hooks") && self.hooks.is_some() {
            self.hook_port(true, port, (size.bits() / 8) as u8, v & size.mask());
        }
        if self.x.is_some() && size != Size::Dword {
            self.x_io(bus, BusStatus::Iow, port, size == Size::Word, v as u16);
            return;
        }
        self.io_waits(bus, port, size);
        match size {
            Size::Byte => bus.io_write8(port, v as u8),
            Size::Word => {
                if port & 1 != 0 {
                    self.step_cycles += BUS_CYCLE;
                }
                bus.io_write16(port, v as u16)
            }
            Size::Dword => {
                bus.io_write16(port, v as u16);
                bus.io_write16(port.wrapping_add(2), (v >> 16) as u16);
            }
        }
    }
}

/// The cycle-exact mode's side of the BIU: the hooks the execution unit
/// calls. Each is a no-op (one branch) when the mode is off, so the
/// register-level path and the 286/386 models pay nothing else.
impl Cpu {
    /// Switches the 8086's cycle-exact mode on or off (ignored for the 286
    /// and 386, which have register-level timing only). Turning it on
    /// starts with an empty queue fetching at CS:IP.
    pub fn set_cycle_exact(&mut self, on: bool) {
        if on && self.model.caps().cycle_exact_biu {
            let mut x = BusUnit::new(self.model.address_mask());
            x.flush(self.cs_base(), self.regs.ip as u16);
            self.x = Some(Box::new(x));
        } else {
            self.x = None;
        }
    }

    /// True in cycle-exact mode.
    pub fn cycle_exact(&self) -> bool {
        self.x.is_some()
    }

    /// Records every clock into a trace (cycle-exact mode only); the trace
    /// starts empty at each [`Cpu::load_queue`] or [`Cpu::clear_cycle_trace`].
    pub fn set_cycle_trace(&mut self, on: bool) {
        if let Some(x) = self.x.as_mut() {
            x.tracing = on;
        }
    }

    /// The clocks recorded since the trace was last cleared.
    pub fn cycle_trace(&self) -> &[CycleRecord] {
        match &self.x {
            Some(x) => &x.trace,
            None => &[],
        }
    }

    /// Empties the cycle trace.
    pub fn clear_cycle_trace(&mut self) {
        if let Some(x) = self.x.as_mut() {
            x.trace.clear();
        }
    }

    /// Loads the prefetch queue with `bytes` (the code at CS:IP) with the
    /// bus idle; fetching continues after them. This is how a single-step
    /// test starts (`shared/sst/README.md`: "load that queue after reset
    /// and start fetching after it").
    pub fn load_queue(&mut self, bytes: &[u8]) {
        let (base, ip) = (self.cs_base(), self.regs.ip as u16);
        if let Some(x) = self.x.as_mut() {
            x.load_queue(base, ip, bytes);
        }
    }

    #[inline]
    pub(crate) fn cs_base(&self) -> u32 {
        (self.regs.sreg(SegReg::CS) as u32) << 4
    }

    /// `n` clocks of EU-internal work while the BIU goes on (exact mode).
    #[inline]
    pub(crate) fn eu_cycles<B: Bus>(&mut self, bus: &mut B, n: u32) {
        if n == 0 {
            return;
        }
        if let Some(x) = self.x.as_mut() {
            if n == 1 {
                // One clock inline: what `idle` runs for it, without the
                // call.
                x.tick(bus);
            } else {
                x.idle(bus, n);
            }
        }
    }

    /// The EU takes the next byte of the current instruction from the
    /// queue, waiting for the BIU when it is empty (exact mode), followed
    /// by `n` clocks of EU-internal work
    /// ([`Cpu::eu_cycles`]): the clock of the take and those `n` pass as
    /// one run of `1 + n` idle clocks (the take's queue status is recorded
    /// in the first), so that the BIU can batch them.
    #[inline]
    pub(crate) fn q_take_then<B: Bus>(&mut self, bus: &mut B, op: QueueOp, n: u32) {
        if let Some(x) = self.x.as_mut() {
            x.take(bus, op);
            if n == 0 {
                x.tick(bus);
            } else {
                x.idle(bus, 1 + n);
            }
            self.x_taken += 1;
        }
    }

    /// The opcode (first byte) and ModR/M byte (subsequent) taken, each
    /// with its clock: two [`Cpu::q_take_then`] with no clocks after, in
    /// one call (the same steps in the same order, one borrow of the BIU
    /// and one call instead of two).
    #[inline]
    pub(crate) fn q_take_opcode_modrm<B: Bus>(&mut self, bus: &mut B) {
        if let Some(x) = self.x.as_mut() {
            for op in [QueueOp::First, QueueOp::Subsequent] {
                x.take(bus, op);
                x.tick(bus);
            }
            self.x_taken += 2;
        }
    }

    /// `k` subsequent bytes taken, each with its clock: `k`
    /// [`Cpu::q_take_then`] with no clocks after, in one call (the same
    /// steps in the same order).
    #[inline]
    pub(crate) fn q_take_subsequent<B: Bus>(&mut self, bus: &mut B, k: u32) {
        if let Some(x) = self.x.as_mut() {
            for _ in 0..k {
                x.take(bus, QueueOp::Subsequent);
                x.tick(bus);
            }
            self.x_taken += k;
        }
    }

    /// Empties the queue and restarts fetching at the current CS:IP: the
    /// jump's flush (exact mode).
    #[inline]
    pub(crate) fn q_flush(&mut self) {
        let (base, ip) = (self.cs_base(), self.regs.ip as u16);
        if let Some(x) = self.x.as_mut() {
            x.jump_flush(base, ip);
            x.qop = QueueOp::Flush;
            self.x_flushed = true;
        }
    }

    /// SUSP: stops prefetching before a transfer of control and waits
    /// until a code fetch already on the bus has run its T4 (exact mode).
    #[inline]
    pub(crate) fn q_suspend<B: Bus>(&mut self, bus: &mut B) {
        if let Some(x) = self.x.as_mut() {
            x.suspend();
            x.run_until_not_fetching(bus);
        }
    }

    /// A memory operand of `n` bytes at `base + off` as the 8086 moves it:
    /// a word at an even address in one bus cycle, otherwise byte by byte
    /// (an odd word takes two cycles, datasheet "BHE and A0"). Offsets wrap
    /// at 64 KiB.
    #[inline]
    pub(crate) fn x_mem<B: Bus>(
        &mut self,
        bus: &mut B,
        status: BusStatus,
        base: u32,
        off: u32,
        n: u32,
        v: u32,
    ) -> u32 {
        let mask = self.model.address_mask();
        let a0 = base.wrapping_add(off & 0xFFFF) & mask;
        if n == 2 && a0 & 1 == 0 {
            let d = self.x_bus(bus, Transfer::new(status, a0, true, v as u16));
            return d as u32;
        }
        let mut out = 0u32;
        for i in 0..n {
            let a = base.wrapping_add((off + i) & 0xFFFF) & mask;
            let byte = (v >> (8 * i)) as u8 as u16;
            let lane = if a & 1 != 0 { byte << 8 } else { byte };
            let d = self.x_bus(bus, Transfer::new(status, a, false, lane));
            let b = if a & 1 != 0 { d >> 8 } else { d & 0xFF };
            out |= (b as u32) << (8 * i);
        }
        out
    }

    /// An I/O transfer: a word at an even port in one cycle, an odd word as
    /// two byte cycles.
    fn x_io<B: Bus>(
        &mut self,
        bus: &mut B,
        status: BusStatus,
        port: u16,
        word: bool,
        v: u16,
    ) -> u16 {
        if word && port & 1 == 0 {
            return self.x_bus(bus, Transfer::new(status, port as u32, true, v));
        }
        let n = if word { 2 } else { 1 };
        let mut out = 0u16;
        for i in 0..n {
            let p = port.wrapping_add(i);
            let byte = (v >> (8 * i)) & 0xFF;
            let lane = if p & 1 != 0 { byte << 8 } else { byte };
            let d = self.x_bus(bus, Transfer::new(status, p as u32, false, lane));
            let b = if p & 1 != 0 { d >> 8 } else { d & 0xFF };
            out |= b << (8 * i);
        }
        out
    }

    /// One EU bus cycle: request it, run the clocks until its T3 has
    /// transferred the data, and return the data bus. The EU goes on in T4.
    #[inline]
    pub(crate) fn x_bus<B: Bus>(&mut self, bus: &mut B, tr: Transfer) -> u16 {
        let Some(x) = self.x.as_mut() else { return 0 };
        x.request(tr);
        x.run_until_eu_done(bus);
        x.eu_done = false;
        x.read_data
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operand_bytes_match_the_sizes() {
        for size in [Size::Byte, Size::Word, Size::Dword] {
            assert_eq!(operand_bytes(size), size.bits() / 8);
        }
    }
}
