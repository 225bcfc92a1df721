//! The PC bus: the memory map, the registered devices, the scheduler, and
//! the decode of every port access and due event to the device that owns
//! it ([`PortMap`], built from the registration list in
//! `crate::registry`). Ports 92h and E9h belong to the system board.
//!
//! "Now" inside an instruction: the bus knows the cycle count at the start
//! of the step and adds a lower bound of the clocks spent so far, counted
//! from the data bytes transferred (see `docs/hw.md`).

use std::ops::{Deref, DerefMut};

use emu::{Bus, CpuModel};

use crate::config::MachineConfig;
use crate::device::PortMap;
use crate::memory::{Memory, Region};
use crate::registry::Devices;
use crate::scheduler::Scheduler;

/// The PC bus: memory map, devices, scheduler and the debug port.
///
/// The devices are typed fields of [`PcBus::dev`]; the bus dereferences to
/// them, so `bus.vga` is `bus.dev.vga`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct PcBus {
    /// The memory map.
    pub mem: Memory,
    /// The registered devices.
    pub dev: Devices,
    /// Which device answers each port and owns each event (not saved:
    /// it is the registration list's).
    #[serde(skip, default = "PortMap::registered")]
    ports: &'static PortMap,
    /// Whether the OPL answers at 388h-38Bh: an AdLib
    /// ([`MachineConfig::adlib`]) or a Sound Blaster 16, which has one
    /// ([`MachineConfig::sb16`]).
    pub(crate) adlib: bool,
    /// Timed events.
    pub sched: Scheduler,
    /// Bytes written to port E9h.
    pub debug_out: Vec<u8>,
    /// Cycle count at the start of the current step (set as each step
    /// begins: between steps it says nothing, so it is not saved).
    #[serde(skip)]
    pub(crate) step_start: u64,
    /// Half-clocks accounted inside the current step (not saved, as
    /// `step_start`).
    #[serde(skip)]
    pub(crate) step_half: u64,
    /// Half-clocks per data byte (the lower bound of the bus's speed).
    half_per_byte: u64,
    /// Wait states of one 8-bit I/O transfer on the ISA bus.
    io_waits: u32,
    /// The latest "now" the devices were brought to.
    now_max: u64,
    /// A vertical retrace started since the flag was last cleared.
    pub(crate) frame_ready: bool,
    /// The 8042 or port 92h pulsed the CPU reset line.
    pub(crate) reset_requested: bool,
    /// The machine's run loop steps the CPU back to back while the cycle
    /// count is below this; a port access and an event run (which may set
    /// a flag above or move an event) set it to 0 (host-side, not saved).
    #[serde(skip)]
    pub(crate) batch_end: u64,
    /// Within a run loop's batch ([`PcBus::begin_quiet`]): INTR is certain
    /// to stay low while the step's own time (`step_start + step_half /
    /// 2`) is below this, 0 when nothing is known. The PICs' output and
    /// the events change only through a port access, an event run, INTA
    /// and FERR, each of which sets it to 0 (host-side, not saved).
    #[serde(skip)]
    quiet_until: u64,
    /// Ports accessed that no device answers (first 64, for diagnostics).
    pub unhandled_ports: Vec<u16>,
}

impl Deref for PcBus {
    type Target = Devices;

    fn deref(&self) -> &Devices {
        &self.dev
    }
}

impl DerefMut for PcBus {
    fn deref_mut(&mut self) -> &mut Devices {
        &mut self.dev
    }
}

impl PcBus {
    /// A bus in its power-on state around `mem`, every registered device
    /// built with [`crate::device::Device::power_on`] and its events
    /// scheduled.
    pub(crate) fn new(config: &MachineConfig, mem: Memory) -> Self {
        let cpu_hz = config.cpu_hz.max(1);
        let half_per_byte = config.cpu_model.bus_half_clocks_per_byte();
        let mut bus = PcBus {
            mem,
            dev: Devices::power_on(config),
            ports: PortMap::registered(),
            adlib: config.adlib || config.sb16.is_some(),
            sched: Scheduler::new(),
            debug_out: Vec::new(),
            step_start: 0,
            step_half: 0,
            half_per_byte,
            io_waits: isa_io_wait_states(config.cpu_model, cpu_hz),
            now_max: 0,
            frame_ready: false,
            reset_requested: false,
            batch_end: 0,
            quiet_until: 0,
            unhandled_ports: Vec::new(),
        };
        for d in crate::registry::REGISTRY {
            (d.start)(&bus.dev, &mut bus.sched, 0);
        }
        bus
    }

    /// The current cycle as the bus sees it (see the module doc).
    #[inline]
    pub fn now(&self) -> u64 {
        (self.step_start + self.step_half / 2).max(self.now_max)
    }

    /// Starts a run loop's batch that ends by `batch_end` (at the next
    /// event at the latest): when the PICs' output is low and the devices
    /// have not been brought past it, INTR stays low until the step's time
    /// reaches it (or a port access, an event, INTA or FERR), and
    /// [`Bus::intr`] answers without asking the scheduler and the PICs.
    #[inline]
    pub(crate) fn begin_quiet(&mut self) {
        debug_assert!(self.batch_end <= self.sched.next());
        self.quiet_until = if self.dev.pics.intr() || self.now_max >= self.batch_end {
            0
        } else {
            self.batch_end
        };
    }

    /// Ends the batch's knowledge ([`PcBus::begin_quiet`]): outside a
    /// batch the host may move events and raise lines.
    #[inline]
    pub(crate) fn end_quiet(&mut self) {
        self.quiet_until = 0;
    }

    /// Runs every scheduled event due at or before `now`, each through the
    /// device that owns it.
    pub fn run_events(&mut self, now: u64) {
        self.batch_end = 0;
        self.quiet_until = 0;
        while let Some((ev, t)) = self.sched.due(now) {
            if let Some(d) = self.ports.event_owner(ev) {
                (d.fire)(self, ev, t);
            }
            // Never schedule into the past: an event is due strictly later.
            if let Some(n) = self.sched.get(ev) {
                if n <= t {
                    self.sched.set(ev, Some(t + 1));
                }
            }
        }
        self.now_max = self.now_max.max(now);
    }

    fn catch_up(&mut self) -> u64 {
        self.batch_end = 0;
        self.quiet_until = 0;
        let now = self.now();
        if self.sched.next() <= now {
            self.run_events(now);
        }
        self.now_max = now;
        now
    }

    pub(crate) fn port_read(&mut self, port: u16) -> u8 {
        let now = self.catch_up();
        match self.ports.device(port) {
            Some(d) => (d.read)(self, port, now),
            None => match port {
                0x92 => (self.mem.port92_a20() as u8) << 1,
                0xE9 => 0xE9,
                _ => {
                    self.note_unhandled(port);
                    0xFF
                }
            },
        }
    }

    pub(crate) fn port_write(&mut self, port: u16, v: u8) {
        let now = self.catch_up();
        match self.ports.device(port) {
            Some(d) => (d.write)(self, port, v, now),
            None => match port {
                0x92 => {
                    self.mem.set_port92_a20(v & 2 != 0);
                    if v & 1 != 0 {
                        self.reset_requested = true;
                    }
                }
                0xE9 => self.debug_out.push(v),
                _ => self.note_unhandled(port),
            },
        }
    }

    /// Records a port no device answered (a device may also call it for a
    /// port it claims but does not decode, e.g. an absent card's).
    pub(crate) fn note_unhandled(&mut self, port: u16) {
        if self.unhandled_ports.len() < 64 && !self.unhandled_ports.contains(&port) {
            self.unhandled_ports.push(port);
        }
    }
}

impl PcBus {
    /// A direct read that the direct-access table does not take (a page
    /// it does not cover or marks): [`Memory::read_direct`], with the
    /// half-clocks of the bytes.
    #[cold]
    #[inline(never)]
    fn read_direct_cold(&mut self, addr: u32, n: u32) -> Option<u32> {
        let v = self.mem.read_direct(addr, n)?;
        self.step_half += n as u64 * self.half_per_byte;
        Some(v)
    }

    /// A direct write that the direct-access table does not take:
    /// [`Memory::write_direct`], else the VGA window
    /// (`PcBus::vga_write_direct`), with the half-clocks of the bytes.
    #[cold]
    #[inline(never)]
    fn write_direct_cold(&mut self, addr: u32, n: u32, v: u32) -> bool {
        if !self.mem.write_direct(addr, n, v) {
            return self.vga_write_direct(addr, n, v);
        }
        self.step_half += n as u64 * self.half_per_byte;
        true
    }

    /// The `n` bytes of `v` at (ungated) `addr`, inside one 2 KiB page,
    /// into the VGA window when the page is the VGA's, low byte first, with
    /// the half-clocks of [`Bus::mem_wait_states`]: what the CPU's byte
    /// path does, without its calls per byte. False (nothing written)
    /// elsewhere.
    #[inline(never)]
    fn vga_write_direct(&mut self, addr: u32, n: u32, v: u32) -> bool {
        let a = self.mem.gate(addr);
        if self.mem.decode(a) != Region::Vga {
            return false;
        }
        // One copy per operand size: the loop over the bytes unrolled.
        match n {
            1 => self.dev.vga.mem_write_n(a, 1, v),
            2 => self.dev.vga.mem_write_n(a, 2, v),
            _ => self.dev.vga.mem_write_n(a, n, v),
        }
        self.step_half += n as u64 * self.half_per_byte;
        true
    }

    /// The gated address of (ungated) `addr` when its 2 KiB page is the
    /// VGA window's and the VGA's writes are plain
    /// ([`crate::vga::GraphicsController::plain_write`]): each byte of the
    /// page then lands in planes that no other byte of it reaches (its
    /// window offsets differ below 64 KiB, and every plane mapping is one
    /// to one there) and reads nothing back, so a burst may store the
    /// page's bytes in any order.
    fn vga_plain_page(&self, addr: u32) -> Option<u32> {
        let a = self.mem.gate(addr);
        (self.mem.decode(a) == Region::Vga && self.dev.vga.gc.plain_write()).then_some(a)
    }

    /// A REP STOS burst into the VGA window with plain writes
    /// (`PcBus::vga_plain_page`): each element as the CPU's element writes
    /// would store it, with the half-clocks of the bytes.
    #[inline(never)]
    fn vga_fill_direct(&mut self, addr: u32, len: u32, n: u32, v: u32) -> bool {
        let Some(a) = self.vga_plain_page(addr) else {
            return false;
        };
        for i in (0..len).step_by(n.max(1) as usize) {
            self.dev.vga.mem_write_n(a + i, n, v);
        }
        self.step_half += len as u64 * self.half_per_byte;
        true
    }

    /// A REP MOVS burst from RAM or ROM into the VGA window with plain
    /// writes (`PcBus::vga_plain_page`), with the half-clocks of the bytes
    /// read and written. (A source in the VGA window loads the latches:
    /// element by element.)
    #[inline(never)]
    fn vga_copy_direct(&mut self, dst: u32, src: u32, len: u32) -> bool {
        let Some(a) = self.vga_plain_page(dst) else {
            return false;
        };
        let Some(bytes) = self.mem.read_run(src, len) else {
            return false;
        };
        let vga = &mut self.dev.vga;
        for (i, &b) in bytes.iter().enumerate() {
            vga.mem_write_n(a + i as u32, 1, b as u32);
        }
        self.step_half += 2 * len as u64 * self.half_per_byte;
        true
    }
}

impl Bus for PcBus {
    #[inline]
    fn mem_read8(&mut self, addr: u32) -> u8 {
        let a = self.mem.gate(addr);
        match self.mem.decode(a) {
            Region::Ram | Region::Rom => self.mem.read_backing(a),
            Region::Vga => self.dev.vga.mem_read(a),
            Region::Open => 0xFF,
        }
    }

    #[inline]
    fn code_window(&self, addr: u32) -> Option<&[u8]> {
        self.mem.window(addr)
    }

    #[inline]
    fn mem_write8(&mut self, addr: u32, value: u8) {
        let a = self.mem.gate(addr);
        match self.mem.decode(a) {
            Region::Ram => self.mem.write_backing(a, value),
            Region::Vga => self.dev.vga.mem_write(a, value),
            Region::Rom | Region::Open => {}
        }
    }

    /// Plain RAM and ROM of one 2 KiB page ([`Memory::read_direct`]), with
    /// the half-clocks [`Bus::mem_wait_states`] counts per byte.
    /// The direct-access table's pages inline
    /// ([`Memory::read_direct_fast`]); the rest in `PcBus::read_direct_cold`.
    #[inline(always)]
    fn mem_read_direct(&mut self, addr: u32, n: u32) -> Option<u32> {
        let Some(v) = self.mem.read_direct_fast(addr, n) else {
            return self.read_direct_cold(addr, n);
        };
        self.step_half += n as u64 * self.half_per_byte;
        Some(v)
    }

    /// Plain RAM of one 2 KiB page ([`Memory::write_direct`]), with the
    /// half-clocks of [`Bus::mem_wait_states`]; the VGA window byte by
    /// byte here (`PcBus::vga_write_direct`), as the byte path would.
    /// The table's RAM pages inline ([`Memory::write_direct_fast`]); the
    /// rest, and the VGA window, in `PcBus::write_direct_cold`.
    #[inline(always)]
    fn mem_write_direct(&mut self, addr: u32, n: u32, v: u32) -> bool {
        if !self.mem.write_direct_fast(addr, n, v) {
            return self.write_direct_cold(addr, n, v);
        }
        self.step_half += n as u64 * self.half_per_byte;
        true
    }

    /// Plain RAM and ROM to the end of a 2 KiB page, as for code.
    #[inline]
    fn data_window(&self, addr: u32) -> Option<&[u8]> {
        self.mem.window(addr)
    }

    /// Plain RAM of one 2 KiB page ([`Memory::ram_mut`]).
    #[inline(always)]
    fn ram_mut(&mut self, addr: u32, n: u32) -> Option<&mut [u8]> {
        self.mem.ram_mut(addr, n)
    }

    #[inline]
    fn mem_direct_done(&mut self, bytes: u64) {
        self.step_half += bytes * self.half_per_byte;
    }

    /// [`Memory::fill_direct`], with the half-clocks of the bytes.
    #[inline]
    fn mem_fill_direct(&mut self, addr: u32, len: u32, n: u32, v: u32) -> bool {
        if !self.mem.fill_direct(addr, len, n, v) {
            return self.vga_fill_direct(addr, len, n, v);
        }
        self.step_half += len as u64 * self.half_per_byte;
        true
    }

    /// [`Memory::copy_direct`], with the half-clocks of the bytes read and
    /// written.
    #[inline]
    fn mem_copy_direct(&mut self, dst: u32, src: u32, len: u32, down: bool) -> bool {
        if !self.mem.copy_direct(dst, src, len, down) {
            return self.vga_copy_direct(dst, src, len);
        }
        self.step_half += 2 * len as u64 * self.half_per_byte;
        true
    }

    fn io_read8(&mut self, port: u16) -> u8 {
        let v = self.port_read(port);
        self.step_half += 8;
        v
    }

    fn io_write8(&mut self, port: u16, value: u8) {
        self.port_write(port, value);
        self.step_half += 8;
    }

    #[inline]
    fn intr(&mut self) -> bool {
        // (now() is this or now_max, and now_max is below `quiet_until`
        // while that is not 0: no event due and the PICs' output low.)
        if self.step_start + self.step_half / 2 < self.quiet_until {
            return false;
        }
        let now = self.now();
        if self.sched.next() <= now {
            self.run_events(now);
        }
        self.dev.pics.intr()
    }

    /// The PICs' output changes only through an event or a port access;
    /// memory bytes move "now" ([`PcBus::now`]) by `half_per_byte` half
    /// clocks each, so INTR stays low until now reaches the next event.
    #[inline]
    fn intr_quiet_bytes(&mut self) -> u64 {
        let next = self.sched.next();
        if self.dev.pics.intr() || self.now_max >= next {
            return 0;
        }
        // now() < next while step_start + step_half / 2 < next, i.e. while
        // step_half < 2 * (next - step_start).
        let limit = next.saturating_sub(self.step_start).saturating_mul(2);
        match (limit.checked_sub(self.step_half + 1), self.half_per_byte) {
            (None, _) => 0,
            (Some(_), 0) => u64::MAX,
            (Some(room), h) => room / h,
        }
    }

    fn inta(&mut self) -> u8 {
        self.quiet_until = 0;
        self.dev.pics.inta()
    }

    fn ferr(&mut self, asserted: bool) {
        self.quiet_until = 0;
        let level = self.dev.ferr.set_ferr(asserted);
        crate::fpu_error::drive_irq(self, level);
    }

    fn coprocessor_busy(&mut self) -> bool {
        self.dev.ferr.latched
    }

    fn ignne(&mut self) -> bool {
        self.dev.ferr.ignne
    }

    #[inline]
    fn mem_wait_states(&mut self, _addr: u32) -> u32 {
        self.step_half += self.half_per_byte;
        0
    }

    /// Every device sits on the ISA bus, whose 8-bit I/O cycle is slower
    /// than a 286's or 386's own; tandem's debug port E9h is not a device.
    #[inline]
    fn io_wait_states(&mut self, port: u16) -> u32 {
        if port == 0xE9 {
            return 0;
        }
        self.step_half += 2 * self.io_waits as u64;
        self.io_waits
    }
}

/// The ISA bus clock (IEEE P996: 8.33 MHz at most).
const ISA_HZ: u64 = 8_333_333;

/// Wait states a 286 or 386 spends in one 8-bit I/O transfer on the ISA
/// bus: the AT's 8-bit cycle lasts 6 bus clocks (4 wait states, IEEE P996
/// and the IBM AT Technical Reference's "I/O channel" timing), i.e. 720 ns
/// at 8.33 MHz, of which the CPU's own 2-clock bus cycle is already in its
/// instruction timing. The 8086 model (a PC/XT) keeps its calibrated
/// timing: the XT's one I/O wait state is not modelled.
pub fn isa_io_wait_states(model: CpuModel, cpu_hz: u64) -> u32 {
    if model.caps().pc_at_class {
        ((6 * cpu_hz).div_ceil(ISA_HZ)).saturating_sub(2) as u32
    } else {
        0
    }
}
