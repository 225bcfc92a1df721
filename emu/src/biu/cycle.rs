//! The 8086 bus cycle state machine: T-states, bus status, the fetch
//! policy and the cycle trace (Intel 8086 datasheet, "Bus Operation" and
//! figures 4 and 5; reenigne's and MartyPC's descriptions of the prefetcher).
//!
//! One call of [`BusUnit::tick`] is one CLK period. A bus cycle is T1
//! (address and ALE, status S0-S2 active), T2 (status still active, the
//! data bus turns around), T3 (data transferred; status goes passive),
//! optional Tw (wait states requested through READY) and T4. Between bus
//! cycles the bus idles in Ti.
//!
//! Who owns the next bus cycle is decided at the end of T4 or of a Ti:
//! - a pending EU request (operand read or write, I/O, INTA) first;
//! - otherwise a code fetch when the queue has at least two free bytes
//!   (datasheet: the 8086 BIU fetches "whenever there are 2 or more bytes
//!   free in the queue") and fetching is not suspended;
//! - otherwise Ti.
//!
//! Observed delays (recorded by the single-step suite from a P80C86A-2)
//! that this model reproduces:
//! - an EU request that finds the bus idle starts its T1 two clocks after
//!   it is made (the BIU's switch from idle to the EU);
//! - a request made while a bus cycle runs starts T1 right after its T4,
//!   except late in a code fetch that fills the queue (two more clocks);
//! - prefetching resumes one clock after the queue gains room when the BIU
//!   had stopped because the queue was full;
//! - a code fetch that finds 3 or 4 bytes queued at its T3 holds the next
//!   fetch for [`POLICY_DELAY`] clocks from its T4 (the queue policy), and
//!   that delay runs on while the queue is full: a read that makes room
//!   before it expires does not restart prefetching early.
//!
//! Code fetches on the 16-bit bus: a fetch at an even address reads a word
//! (A0 = 0, BHE low); at an odd address (after a jump) a byte from the upper
//! half (A0 = 1, BHE low), after which fetches are word aligned.

use super::queue::PrefetchQueue;
use crate::bus::Bus;

/// Idle clocks after a code fetch that found 3 or 4 bytes in the queue
/// before the next fetch, counted from its T4 whether or not the queue has
/// room meanwhile (measured on the suite: with the delay cancelled when the
/// queue filled, 1.2-2.5% of every ModR/M memory form started a fetch a
/// clock after the read that made room, where the silicon gives the bus to
/// the EU's operand cycle).
const POLICY_DELAY: u8 = 3;

/// Clocks from the T3 of a code fetch until the EU can take its bytes:
/// latched into the queue at T4, reported by the QS pins a clock later
/// (measured on the suite after jumps, where the queue is empty).
const FRESH_CLOCKS: u32 = 3;

/// A T-state as the suite records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum TState {
    /// Idle bus clock.
    #[default]
    Ti = 0,
    /// Address out, ALE.
    T1 = 1,
    /// Status active, data bus turnaround.
    T2 = 2,
    /// Data transfer.
    T3 = 3,
    /// End of the cycle.
    T4 = 4,
    /// A wait state inserted between T3 and T4.
    Tw = 5,
}

/// The S2-S0 bus status (datasheet table "S2 S1 S0"), numbered as the suite
/// records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum BusStatus {
    /// Interrupt acknowledge.
    Inta = 0,
    /// Read I/O port.
    Ior = 1,
    /// Write I/O port.
    Iow = 2,
    /// Read memory.
    Memr = 3,
    /// Write memory.
    Memw = 4,
    /// Halt.
    Halt = 5,
    /// Code access (instruction fetch).
    Code = 6,
    /// Passive (no bus cycle).
    #[default]
    Pasv = 7,
}

/// The QS1-QS0 queue status: what the EU did to the queue in a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum QueueOp {
    /// No operation.
    #[default]
    Idle = 0,
    /// First byte of an instruction taken.
    First = 1,
    /// Queue emptied (a jump).
    Flush = 2,
    /// Subsequent byte of an instruction taken.
    Subsequent = 3,
}

/// One clock of the bus as the pins show it: what the suite's `CYCL`
/// records hold and `tandem sst --cycles` compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CycleRecord {
    /// ALE (address latch enable), high in T1.
    pub ale: bool,
    /// The address on the bus in T1 (physical, or the port for I/O).
    pub address: u32,
    /// The BHE pin level (0 = the high byte lane is used).
    pub bhe: u8,
    /// The bus status.
    pub status: BusStatus,
    /// The T-state.
    pub t: TState,
    /// The data bus in T3 (inactive byte lanes 0).
    pub data: u16,
    /// The queue operation.
    pub queue_op: QueueOp,
    /// The byte taken from the queue (First / Subsequent).
    pub queue_byte: u8,
}

/// One bus transfer: at most one byte lane pair, as the 8086 drives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Transfer {
    /// Kind of cycle.
    pub status: BusStatus,
    /// Physical address (or port).
    pub addr: u32,
    /// BHE pin level: 0 when the high lane (odd byte) is used.
    pub bhe: u8,
    /// Data to write, in its lanes.
    pub data: u16,
}

impl Transfer {
    /// A transfer of one byte (`word` false) or an aligned word at `addr`.
    pub fn new(status: BusStatus, addr: u32, word: bool, data: u16) -> Transfer {
        let bhe = if word || addr & 1 != 0 { 0 } else { 1 };
        Transfer {
            status,
            addr,
            bhe,
            data,
        }
    }

    /// Mask of the active byte lanes.
    #[inline]
    fn lanes(&self) -> u16 {
        let lo = if self.addr & 1 == 0 { 0x00FF } else { 0 };
        let hi = if self.bhe == 0 { 0xFF00 } else { 0 };
        lo | hi
    }
}

/// The bus interface unit of the cycle-exact 8086: queue, prefetch pointer,
/// current bus cycle and the EU's pending request.
#[derive(Clone, Debug, Default)]
pub struct BusUnit {
    /// The prefetch queue.
    pub queue: PrefetchQueue,
    /// Offset in CS of the next code fetch.
    pub pf_ip: u16,
    /// CS base of code fetches.
    pub cs_base: u32,
    /// Address mask of the bus (1 MiB).
    pub addr_mask: u32,
    /// The T-state of the next clock.
    t: TState,
    /// The T-state of the last clock run.
    last_t: TState,
    /// The bus cycle in progress (valid outside Ti).
    cur: Transfer,
    /// The cycle in progress was requested by the EU.
    cur_eu: bool,
    /// An EU request waiting for the bus.
    eu_req: Option<Transfer>,
    /// Clocks before a waiting EU request may start (idle-to-EU switch).
    eu_delay: u8,
    /// The EU's transfer has passed T3.
    pub(crate) eu_done: bool,
    /// Data the EU's last read returned (in its lanes).
    pub(crate) read_data: u16,
    /// Clocks before prefetching may resume from idle.
    fetch_delay: u8,
    /// The queue held 3 or 4 bytes at T2 of the current code fetch: the
    /// next fetch waits (the 8086's queue policy; MartyPC's "policy
    /// length" delay: the BIU does not start a fetch right after one that
    /// nearly fills the queue).
    policy_hold: bool,
    /// The queue was full at the last fetch decision: prefetching stopped.
    stopped: bool,
    /// Prefetching is suspended (between a jump's flush and its new
    /// address, or while the EU holds the bus for a sequence).
    pub(crate) suspended: bool,
    /// Wait states left in this cycle.
    waits: u32,
    /// Bytes at the back of the queue that the EU cannot take yet: a
    /// fetched byte reaches the EU three clocks after its T3 (it is latched
    /// into the queue at T4 and the QS pins report its removal a clock
    /// later; measured on the suite after jumps, where the queue is empty).
    fresh: u8,
    /// The value of `ticks` from which the fresh bytes can be taken (a
    /// deadline rather than a countdown, so that clocks need no work for
    /// it; rebased at each step by [`BusUnit::begin_step`]).
    fresh_until: u32,
    /// Queue operation of the current clock.
    pub(crate) qop: QueueOp,
    /// Byte of the current clock's queue operation.
    pub(crate) qbyte: u8,
    /// Clocks elapsed (the step's clock count in exact mode).
    pub ticks: u32,
    /// Record every clock into `trace`.
    pub tracing: bool,
    /// The queue-policy delay ([`POLICY_DELAY`]) is running (with or
    /// without room in the queue): the prefetch it holds back is decided
    /// when it runs out, and an EU request in that very clock aborts the
    /// decision ([`BusUnit::held_fetch_due`]).
    in_policy: bool,
    /// The recorded clocks.
    pub trace: Vec<CycleRecord>,
}

impl BusUnit {
    /// A BIU with an empty queue, idle bus, fetching from `cs_base + ip`.
    pub fn new(addr_mask: u32) -> BusUnit {
        BusUnit {
            addr_mask,
            ..BusUnit::default()
        }
    }

    /// Empties the queue and restarts fetching at `cs_base + ip` (a jump).
    pub fn flush(&mut self, cs_base: u32, ip: u16) {
        self.queue.flush();
        self.cs_base = cs_base;
        self.pf_ip = ip;
        self.stopped = false;
        self.suspended = false;
        self.fetch_delay = 0;
        self.in_policy = false;
        self.fresh = 0;
        self.fresh_until = 0;
    }

    /// The flush of a jump's microcode (FLUSH): the queue empties and the
    /// first fetch at the new address starts its T1 two clocks after the
    /// clock whose QS pins show the flush (the address cycle of the new
    /// fetch).
    pub fn jump_flush(&mut self, cs_base: u32, ip: u16) {
        self.flush(cs_base, ip);
        self.fetch_delay = 1;
        if self.t == TState::T1 && !self.cur_eu {
            // A code fetch decided but not started: dropped.
            self.t = TState::Ti;
        }
    }

    /// Bytes the EU can take now.
    #[inline]
    pub fn readable(&self) -> usize {
        if self.ticks >= self.fresh_until {
            self.queue.len()
        } else {
            self.queue.len() - self.fresh as usize
        }
    }

    /// SUSP: the EU stops prefetching (a transfer of control before its
    /// flush). A fetch already on the bus completes; one decided but not yet
    /// in T1 is dropped.
    pub fn suspend(&mut self) {
        self.suspended = true;
        if self.t == TState::T1 && !self.cur_eu {
            self.t = TState::Ti;
        }
    }

    /// Loads `bytes` as the queue of an instruction at `cs_base + ip` with
    /// the bus idle, as a single-step test starts: fetching continues after
    /// the queued bytes.
    pub fn load_queue(&mut self, cs_base: u32, ip: u16, bytes: &[u8]) {
        self.flush(cs_base, ip.wrapping_add(bytes.len() as u16));
        for &b in bytes {
            self.queue.push(b);
        }
        self.t = TState::Ti;
        self.eu_req = None;
        self.eu_done = false;
        self.waits = 0;
        self.stopped = true;
        self.policy_hold = false;
        self.fetch_delay = 0;
        self.fresh = 0;
        self.fresh_until = 0;
        self.trace.clear();
        self.qop = QueueOp::Idle;
        self.ticks = 0;
    }

    /// The EU asks for a bus cycle.
    pub(crate) fn request(&mut self, tr: Transfer) {
        self.eu_req = Some(tr);
        self.eu_done = false;
        if self.t == TState::T1 && !self.cur_eu && self.last_t == TState::Ti {
            // A prefetch decided from idle whose T1 has not run yet: the
            // EU's request takes its address cycle (measured: POP reg with
            // room in the queue runs no fetch before its read).
            self.t = TState::Ti;
        } else if self.t == TState::T1 && !self.cur_eu && self.last_t == TState::T4 {
            // A prefetch decided at the end of a bus cycle whose T1 has not
            // run: aborted. The EU's T1 comes after two idle clocks (the
            // aborted address cycle; MartyPC's "late EU request").
            self.t = TState::Ti;
        }
        // From idle the BIU needs a clock to hand the bus to the EU (T1
        // two clocks after the request). A request before T4 of a code
        // fetch comes after the next prefetch was decided (MartyPC's fetch
        // decision at T2): that prefetch is aborted and the EU's T1 comes
        // two idle clocks after T4 (measured on the suite). Earlier in a
        // fetch (T3 next) the EU's cycle follows T4 at once.
        self.eu_delay = match self.t {
            TState::Ti if self.held_fetch_due() => 2,
            TState::Ti => 1,
            TState::T4 if !self.cur_eu && !self.suspended => 2,
            _ => 0,
        };
    }

    /// The prefetch held by the queue policy is decided at the end of this
    /// clock (its T1 would be the next one): an EU request made now aborts
    /// that decision and starts its T1 three clocks after the request, not
    /// two (measured: MOV r/m16, imm and ALU r/m, imm writes after a fetch
    /// that nearly filled the queue; MartyPC's fetch abort).
    #[inline]
    fn held_fetch_due(&self) -> bool {
        self.in_policy
            && self.fetch_delay == 0
            && !self.suspended
            && !self.stopped
            && !self.policy_hold
            && self.queue.has_room_for_fetch()
    }

    /// True while a code fetch is on the bus (its T2 to T4 are still to
    /// come).
    #[inline]
    pub fn fetching(&self) -> bool {
        !self.cur_eu && matches!(self.t, TState::T2 | TState::T3 | TState::Tw | TState::T4)
    }

    /// True while a bus cycle (T1-T4) is running.
    #[inline]
    pub fn busy(&self) -> bool {
        self.t != TState::Ti
    }

    /// The T-state of the next clock.
    #[inline]
    pub fn t_state(&self) -> TState {
        self.t
    }

    /// Starts a step: the clock count restarts at zero (deadlines counted
    /// in it move with it).
    #[inline]
    pub fn begin_step(&mut self) {
        self.fresh_until = self.fresh_until.saturating_sub(self.ticks);
        self.ticks = 0;
    }

    /// One clock.
    #[inline]
    pub fn tick<B: Bus>(&mut self, bus: &mut B) {
        if self.tracing {
            self.tick_traced(bus);
        } else {
            self.clock(bus);
        }
    }

    /// `n` clocks in which the EU does not touch the queue or the bus. When
    /// the bus is idle and will stay so (prefetching suspended, or stopped
    /// with the queue full and no delay running) they pass in one step.
    #[inline]
    pub fn idle<B: Bus>(&mut self, bus: &mut B, n: u32) {
        if self.tracing {
            for _ in 0..n {
                self.tick_traced(bus);
            }
            return;
        }
        let mut left = n;
        while left > 0 {
            match self.t {
                TState::T1 if left >= 2 => {
                    self.address_clocks(bus);
                    left -= 2;
                    // A code fetch without wait states runs on to its T4
                    // when the clocks allow (what the T3 arm would do).
                    if left >= 2 && self.waits == 0 && !self.cur_eu {
                        self.fetch_data_clocks(bus);
                        left -= 2;
                    }
                }
                TState::T3 if left >= 2 && self.waits == 0 && !self.cur_eu => {
                    self.fetch_data_clocks(bus);
                    left -= 2;
                }
                TState::Ti => {
                    let skip = self.idle_run(left);
                    if skip > 0 {
                        self.ticks += skip;
                        self.last_t = TState::Ti;
                        left -= skip;
                    } else {
                        self.clock(bus);
                        left -= 1;
                    }
                }
                _ => {
                    self.clock(bus);
                    left -= 1;
                }
            }
        }
    }

    /// T1 and T2 of the current bus cycle in one go (nothing happens in T2
    /// that the EU could see).
    #[inline(always)]
    fn address_clocks<B: Bus>(&mut self, bus: &mut B) {
        self.waits = self.wait_states(bus);
        self.ticks += 2;
        self.last_t = TState::T2;
        self.t = TState::T3;
    }

    /// Wait states READY inserts in the current cycle (memory, code and
    /// I/O cycles; the suite's bus inserts none).
    #[inline(always)]
    fn wait_states<B: Bus>(&self, bus: &mut B) -> u32 {
        match self.cur.status {
            BusStatus::Memr | BusStatus::Memw | BusStatus::Code => {
                bus.mem_wait_states(self.cur.addr)
            }
            BusStatus::Ior | BusStatus::Iow => bus.io_wait_states(self.cur.addr as u16),
            _ => 0,
        }
    }

    /// Clocks until the EU's requested cycle has transferred its data (T3).
    #[inline]
    pub(crate) fn run_until_eu_done<B: Bus>(&mut self, bus: &mut B) {
        if self.tracing {
            while !self.eu_done {
                self.tick_traced(bus);
            }
            return;
        }
        while !self.eu_done {
            match self.t {
                TState::Ti if self.eu_req.is_some() => {
                    // The request waits out its delay in idle clocks; the
                    // decision at the end of the next one starts its T1
                    // (`next_cycle` takes a request with no delay left).
                    self.ticks += self.eu_delay as u32 + 1;
                    self.eu_delay = 0;
                    self.last_t = TState::Ti;
                    self.t = self.next_cycle();
                }
                TState::T1 if self.cur_eu => self.eu_cycle_clocks(bus),
                TState::T1 => self.address_clocks(bus),
                TState::T3 if self.waits == 0 && !self.cur_eu => self.fetch_data_clocks(bus),
                _ => {
                    self.clock(bus);
                }
            }
        }
    }

    /// T1 to T3 of the EU's own bus cycle in one go when READY inserts no
    /// wait state (the EU waits for its data, so nothing else happens in
    /// them); with wait states, T1 and T2 only (the clock loop runs the
    /// rest).
    #[inline(always)]
    fn eu_cycle_clocks<B: Bus>(&mut self, bus: &mut B) {
        let waits = self.wait_states(bus);
        if waits != 0 {
            self.waits = waits;
            self.ticks += 2;
            self.last_t = TState::T2;
            self.t = TState::T3;
            return;
        }
        self.waits = 0;
        self.ticks += 3;
        self.last_t = TState::T3;
        self.t = TState::T4;
        let c = self.cur;
        match c.status {
            // The common memory cycles inline: a word at an even address,
            // or one byte in its lane (what `eu_transfer` does for them).
            BusStatus::Memr => {
                let a = c.addr & self.addr_mask;
                self.read_data = if c.bhe == 0 && a & 1 == 0 {
                    bus.mem_read8(a) as u16 | (bus.mem_read8((a + 1) & self.addr_mask) as u16) << 8
                } else if a & 1 == 0 {
                    bus.mem_read8(a) as u16
                } else if c.bhe == 0 {
                    (bus.mem_read8(a) as u16) << 8
                } else {
                    0
                };
                self.eu_done = true;
            }
            _ => {
                self.eu_transfer(bus);
            }
        }
    }

    /// T3 and T4 of a code fetch without wait states in one go, with the
    /// decision at the end of T4 (the EU does nothing in between).
    #[inline(always)]
    fn fetch_data_clocks<B: Bus>(&mut self, bus: &mut B) {
        self.policy_hold = matches!(self.queue.len(), 3 | 4);
        self.ticks += 1;
        self.fetch_transfer(bus);
        self.ticks += 1;
        self.last_t = TState::T4;
        self.t = self.next_cycle();
    }

    /// How many of the next `left` clocks are idle clocks whose only effect
    /// is the count (and a running fetch delay) when nothing else happens:
    /// the bus in Ti, no EU request, and prefetching suspended, or stopped
    /// with the queue full, or waiting out a fetch delay. Applies that
    /// delay's countdown and returns the number of clocks (0 when the next
    /// clock must be run).
    #[inline]
    fn idle_run(&mut self, left: u32) -> u32 {
        if self.t != TState::Ti || self.eu_req.is_some() || self.policy_hold {
            return 0;
        }
        if self.suspended {
            self.stopped = true;
            return left;
        }
        if !self.queue.has_room_for_fetch() {
            self.stopped = true;
            self.fetch_delay = self.fetch_delay.saturating_sub(left.min(255) as u8);
            return left;
        }
        if self.stopped {
            // As the next decision would: restart a clock later at least.
            self.stopped = false;
            self.fetch_delay = self.fetch_delay.max(1);
        }
        let m = left.min(self.fetch_delay as u32);
        self.fetch_delay -= m as u8;
        m
    }

    /// Clocks until the EU can take a byte from the queue (checked before
    /// each clock): the wait for an instruction's next byte.
    ///
    /// Untraced, with the queue empty the wait passes in runs of clocks
    /// that cannot make a byte readable: T1 and T2 of a cycle, T3 and T4
    /// of a code fetch (its bytes are fresh until a clock after T4), or
    /// the idle clocks of a fetch delay (no bus cycle starts in them).
    #[inline]
    pub(crate) fn run_until_readable<B: Bus>(&mut self, bus: &mut B) {
        // Usually the byte is there: no call.
        if self.readable() == 0 {
            self.wait_readable(bus);
        }
    }

    /// The EU takes the next queue byte (waiting for it), reported on the
    /// QS pins as `op` in the clock that follows; the clock itself is the
    /// caller's to run.
    #[inline]
    pub(crate) fn take<B: Bus>(&mut self, bus: &mut B, op: QueueOp) {
        self.run_until_readable(bus);
        self.qbyte = self.queue.pop().unwrap_or(0x90);
        self.qop = op;
    }

    #[inline(never)]
    fn wait_readable<B: Bus>(&mut self, bus: &mut B) {
        if self.tracing {
            while self.readable() == 0 {
                self.tick_traced(bus);
            }
            return;
        }
        while self.readable() == 0 {
            if !self.queue.is_empty() {
                // Fresh bytes only: a clock or two to their deadline.
                self.clock(bus);
                continue;
            }
            match self.t {
                TState::T1 => self.address_clocks(bus),
                TState::T3 if self.waits == 0 && !self.cur_eu => {
                    // With the queue empty the fetched bytes are all fresh
                    // after its T4: one more clock reaches their deadline
                    // (three clocks from T3), what the loop would run next.
                    self.fetch_data_clocks(bus);
                    self.clock(bus);
                }
                TState::Ti if !self.suspended => {
                    // A fetch delay running out (after a jump's flush).
                    let skip = self.idle_run(u32::MAX);
                    if skip > 0 {
                        self.ticks += skip;
                        self.last_t = TState::Ti;
                    } else {
                        self.clock(bus);
                    }
                }
                _ => {
                    self.clock(bus);
                }
            }
        }
    }

    /// Clocks until no code fetch is on the bus (checked before each
    /// clock): SUSP's wait. Untraced, T3 and T4 of a fetch pass together
    /// (the fetch is on the bus until its T4 has run).
    #[inline]
    pub(crate) fn run_until_not_fetching<B: Bus>(&mut self, bus: &mut B) {
        if self.tracing {
            while self.fetching() {
                self.tick_traced(bus);
            }
            return;
        }
        while self.fetching() {
            if self.t == TState::T3 && self.waits == 0 {
                self.fetch_data_clocks(bus);
            } else {
                self.clock(bus);
            }
        }
    }

    /// One clock with its record appended to the trace.
    #[cold]
    #[inline(never)]
    fn tick_traced<B: Bus>(&mut self, bus: &mut B) {
        let mut rec = CycleRecord {
            t: self.t,
            queue_op: self.qop,
            queue_byte: self.qbyte,
            ..CycleRecord::default()
        };
        match self.t {
            TState::T1 => {
                rec.ale = true;
                rec.address = self.cur.addr;
                rec.bhe = self.cur.bhe;
                rec.status = self.cur.status;
            }
            TState::T2 => {
                rec.status = self.cur.status;
                rec.bhe = self.cur.bhe;
            }
            TState::T3 if self.waits == 0 => {
                rec.bhe = self.cur.bhe;
                if self.cur.status == BusStatus::Inta {
                    rec.status = BusStatus::Pasv;
                }
            }
            _ => rec.status = BusStatus::Pasv,
        }
        rec.data = self.clock(bus);
        self.trace.push(rec);
        // (Only the trace reads the queue status; untraced clocks leave it.)
        self.qop = QueueOp::Idle;
    }

    /// One clock of the state machine; returns the data bus of a T3 (0 in
    /// other clocks).
    #[inline(always)]
    fn clock<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let mut data = 0;
        let t = self.t;
        self.last_t = t;
        self.ticks += 1;
        self.t = match t {
            TState::T1 => {
                self.waits = self.wait_states(bus);
                TState::T2
            }
            TState::T2 => TState::T3,
            TState::T3 | TState::Tw if self.waits > 0 => {
                self.waits -= 1;
                TState::Tw
            }
            TState::T3 | TState::Tw => {
                // The fetch decision of MartyPC's T2, seen here with the
                // queue as the EU leaves it in this clock.
                if !self.cur_eu {
                    self.policy_hold = matches!(self.queue.len(), 3 | 4);
                }
                data = self.transfer(bus);
                TState::T4
            }
            TState::T4 | TState::Ti => self.next_cycle(),
        };
        data
    }

    /// Decides what the bus does in the next clock (from T4 or Ti).
    #[inline]
    fn next_cycle(&mut self) -> TState {
        if let Some(req) = self.eu_req {
            if self.eu_delay > 0 {
                self.eu_delay -= 1;
                return TState::Ti;
            }
            self.eu_req = None;
            self.in_policy = false;
            self.cur = req;
            self.cur_eu = true;
            return TState::T1;
        }
        if self.suspended {
            self.stopped = true;
            self.policy_hold = false;
            return TState::Ti;
        }
        if self.policy_hold {
            // The queue-policy delay starts at the decision after the
            // fetch that found 3 or 4 bytes queued, whether or not the
            // queue has room now.
            self.policy_hold = false;
            self.fetch_delay = POLICY_DELAY;
            self.in_policy = true;
        }
        if !self.queue.has_room_for_fetch() {
            // Full: prefetching stops, but a policy delay keeps running
            // (measured: a read that makes room before it has expired
            // does not restart the fetch early; this was the ~1.5% residue
            // of every ModR/M memory form).
            self.stopped = true;
            self.fetch_delay = self.fetch_delay.saturating_sub(1);
            return TState::Ti;
        }
        if self.stopped {
            // Prefetching restarts a clock after the queue gained room, or
            // when the policy delay expires if that is later.
            self.stopped = false;
            self.fetch_delay = self.fetch_delay.max(1);
        }
        if self.fetch_delay > 0 {
            self.fetch_delay -= 1;
            return TState::Ti;
        }
        self.in_policy = false;
        let addr = self.cs_base.wrapping_add(self.pf_ip as u32) & self.addr_mask;
        self.cur = Transfer::new(BusStatus::Code, addr, addr & 1 == 0, 0);
        self.cur_eu = false;
        TState::T1
    }

    /// The T3 transfer of the current cycle; returns the data bus.
    #[inline]
    fn transfer<B: Bus>(&mut self, bus: &mut B) -> u16 {
        if !self.cur_eu {
            return self.fetch_transfer(bus);
        }
        self.eu_transfer(bus)
    }

    /// T3 of a code fetch: a word at an even address, the upper byte at an
    /// odd one (after a jump), into the queue.
    #[inline]
    fn fetch_transfer<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let a = self.cur.addr;
        let data = if a & 1 == 0 {
            let lo = bus.code_read8(a & self.addr_mask);
            let hi = bus.code_read8((a + 1) & self.addr_mask);
            self.queue.push2(lo, hi);
            self.pf_ip = self.pf_ip.wrapping_add(2);
            self.fresh = 2;
            lo as u16 | (hi as u16) << 8
        } else {
            let hi = bus.code_read8(a & self.addr_mask);
            self.queue.push(hi);
            self.pf_ip = self.pf_ip.wrapping_add(1);
            self.fresh = 1;
            (hi as u16) << 8
        };
        // Counted from this clock, which `ticks` already includes.
        self.fresh_until = self.ticks - 1 + FRESH_CLOCKS;
        data
    }

    /// T3 of the EU's cycle: the data moves; a read's data is kept.
    #[inline(never)]
    fn eu_transfer<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let c = self.cur;
        let lanes = c.lanes();
        let even = c.addr & !1;
        let data = match c.status {
            BusStatus::Code | BusStatus::Memr => {
                let lo = if lanes & 0xFF != 0 {
                    bus.mem_read8(even & self.addr_mask) as u16
                } else {
                    0
                };
                let hi = if lanes & 0xFF00 != 0 {
                    bus.mem_read8((even + 1) & self.addr_mask) as u16
                } else {
                    0
                };
                lo | hi << 8
            }
            BusStatus::Memw => {
                if lanes & 0xFF != 0 {
                    bus.mem_write8(even & self.addr_mask, c.data as u8);
                }
                if lanes & 0xFF00 != 0 {
                    bus.mem_write8((even + 1) & self.addr_mask, (c.data >> 8) as u8);
                }
                c.data & lanes
            }
            BusStatus::Ior => {
                let port = c.addr as u16;
                if lanes == 0xFFFF {
                    bus.io_read16(port)
                } else if lanes == 0xFF00 {
                    (bus.io_read8(port) as u16) << 8
                } else {
                    bus.io_read8(port) as u16
                }
            }
            BusStatus::Iow => {
                let port = c.addr as u16;
                if lanes == 0xFFFF {
                    bus.io_write16(port, c.data);
                } else if lanes == 0xFF00 {
                    bus.io_write8(port, (c.data >> 8) as u8);
                } else {
                    bus.io_write8(port, c.data as u8);
                }
                c.data & lanes
            }
            BusStatus::Inta => c.data,
            BusStatus::Halt | BusStatus::Pasv => 0,
        };
        self.read_data = data;
        self.eu_done = true;
        data
    }
}
