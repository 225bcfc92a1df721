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
//! - a code fetch that finds 3 or 4 bytes queued holds the next fetch three
//!   clocks after its T4, also when it leaves the queue without room: a
//!   fetch the EU makes room for during those clocks waits for them.
//!
//! Code fetches on the 16-bit bus: a fetch at an even address reads a word
//! (A0 = 0, BHE low); at an odd address (after a jump) a byte from the upper
//! half (A0 = 1, BHE low), after which fetches are word aligned.

use super::queue::PrefetchQueue;
use crate::bus::Bus;

/// Idle clocks after a code fetch that started with 3 or 4 bytes in the
/// queue before the next fetch.
const POLICY_DELAY: u8 = 3;

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
    /// Clocks until the fresh bytes can be taken.
    fresh_wait: u8,
    /// Queue operation of the current clock.
    pub(crate) qop: QueueOp,
    /// Byte of the current clock's queue operation.
    pub(crate) qbyte: u8,
    /// Clocks elapsed (the step's clock count in exact mode).
    pub ticks: u32,
    /// Record every clock into `trace`.
    pub tracing: bool,
    /// The queue-policy delay ([`POLICY_DELAY`]) is running in
    /// `fetch_delay` (the fetch left room); an EU request made in its last
    /// clock aborts the held prefetch ([`BusUnit::held_fetch_due`]).
    in_policy: bool,
    /// Clocks left of a queue-policy hold whose fetch left the queue
    /// without room for another: prefetching stays held until they run
    /// out even if the EU makes room meanwhile (measured on the suite:
    /// ALU r/m, shifts, MOV r/m, LOOPE/LOOPNE... after a fetch that
    /// nearly filled the queue).
    hold_left: u8,
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
        self.policy_hold = false;
        self.hold_left = 0;
        self.fresh = 0;
        self.fresh_wait = 0;
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
        self.queue.len() - self.fresh as usize
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
        self.fetch_delay = 0;
        self.fresh = 0;
        self.fresh_wait = 0;
        self.trace.clear();
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
    /// two (measured: ALU r/m, imm and MOV r/m, imm writes after a fetch
    /// that nearly filled the queue; MartyPC's fetch abort).
    fn held_fetch_due(&self) -> bool {
        let due = if self.in_policy {
            self.fetch_delay == 0
        } else {
            self.hold_left == 1
        };
        due && !self.suspended
            && self.queue.has_room_for_fetch()
            && !self.stopped
            && !self.policy_hold
            && self.fetch_delay == 0
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

    /// One clock.
    pub fn tick<B: Bus>(&mut self, bus: &mut B) {
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
                self.waits = match self.cur.status {
                    BusStatus::Memr | BusStatus::Memw | BusStatus::Code => {
                        bus.mem_wait_states(self.cur.addr)
                    }
                    _ => 0,
                };
            }
            TState::T2 => {
                rec.status = self.cur.status;
                rec.bhe = self.cur.bhe;
            }
            TState::T3 if self.waits == 0 => {
                // The fetch decision of MartyPC's T2, seen here with the
                // queue as the EU leaves it in this clock.
                if !self.cur_eu {
                    self.policy_hold = matches!(self.queue.len(), 3 | 4);
                }
                rec.data = self.transfer(bus);
                rec.bhe = self.cur.bhe;
            }
            _ => rec.status = BusStatus::Pasv,
        }
        if rec.status == BusStatus::Inta && self.t == TState::T3 {
            rec.status = BusStatus::Pasv;
        }
        if self.tracing {
            self.trace.push(rec);
        }
        self.last_t = self.t;
        self.ticks += 1;
        self.qop = QueueOp::Idle;
        if self.fresh_wait > 0 {
            self.fresh_wait -= 1;
            if self.fresh_wait == 0 {
                self.fresh = 0;
            }
        }
        self.t = match self.t {
            TState::T1 => TState::T2,
            TState::T2 => TState::T3,
            TState::T3 | TState::Tw if self.waits > 0 => {
                self.waits -= 1;
                TState::Tw
            }
            TState::T3 | TState::Tw => TState::T4,
            TState::T4 | TState::Ti => self.next_cycle(),
        };
    }

    /// Decides what the bus does in the next clock (from T4 or Ti).
    fn next_cycle(&mut self) -> TState {
        self.hold_left = self.hold_left.saturating_sub(1);
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
        if self.suspended || !self.queue.has_room_for_fetch() {
            self.stopped = true;
            if self.policy_hold {
                // The hold runs even though no fetch can start now.
                self.hold_left = POLICY_DELAY;
            }
            self.policy_hold = false;
            return TState::Ti;
        }
        if self.policy_hold {
            self.policy_hold = false;
            self.fetch_delay = POLICY_DELAY;
            self.in_policy = true;
        }
        if self.stopped {
            // Prefetching restarts a clock after the queue gained room.
            self.stopped = false;
            self.fetch_delay = 1;
        }
        if self.fetch_delay > 0 {
            self.fetch_delay -= 1;
            return TState::Ti;
        }
        if self.hold_left > 0 {
            return TState::Ti;
        }
        self.in_policy = false;
        let addr = self.cs_base.wrapping_add(self.pf_ip as u32) & self.addr_mask;
        self.cur = Transfer::new(BusStatus::Code, addr, addr & 1 == 0, 0);
        self.cur_eu = false;
        TState::T1
    }

    /// The T3 transfer of the current cycle; returns the data bus.
    fn transfer<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let c = self.cur;
        let lanes = c.lanes();
        let even = c.addr & !1;
        let data = match c.status {
            BusStatus::Code | BusStatus::Memr => {
                let code = c.status == BusStatus::Code;
                let mut read = |a: u32| {
                    let a = a & self.addr_mask;
                    if code {
                        bus.code_read8(a) as u16
                    } else {
                        bus.mem_read8(a) as u16
                    }
                };
                let lo = if lanes & 0xFF != 0 { read(even) } else { 0 };
                let hi = if lanes & 0xFF00 != 0 {
                    read(even + 1)
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
        if c.status == BusStatus::Code && !self.cur_eu {
            let before = self.queue.len();
            if lanes & 0xFF != 0 {
                self.queue.push(data as u8);
                self.pf_ip = self.pf_ip.wrapping_add(1);
            }
            if lanes & 0xFF00 != 0 {
                self.queue.push((data >> 8) as u8);
                self.pf_ip = self.pf_ip.wrapping_add(1);
            }
            self.fresh = (self.queue.len() - before) as u8;
            self.fresh_wait = 3;
        } else if self.cur_eu {
            self.read_data = data;
            self.eu_done = true;
        }
        data
    }
}
