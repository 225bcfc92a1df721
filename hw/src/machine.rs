//! The Machine: the CPU, the PC bus with its devices, and the run loop.
//!
//! Time is the CPU's cycle counter. [`Machine::run_for`] steps the CPU one
//! instruction at a time and touches a device only (a) when the cycle
//! count passes the scheduler's next event (a PIT output edge, the next
//! vertical retrace, the next keyboard byte, the next RTC interrupt) or (b)
//! when the program accesses one of its ports, where the device first
//! catches up to "now". A halted CPU skips straight to the next event.
//!
//! "Now" inside an instruction: the bus knows the cycle count at the start
//! of the step and adds a lower bound of the clocks spent so far, counted
//! from the data bytes transferred (2 clocks per byte on the 8086's 16-bit
//! bus, 1 on the 286, 1/2 on the 386). A port access or an interrupt check
//! between REP iterations therefore sees time move on inside a long string
//! instruction. See docs/hw.md.
//!
//! Test convention: a program ends with `cli; hlt`; the run loop stops when
//! the CPU halts with IF clear. Bytes written to port E9h (the Bochs/DOSBox
//! debug port) are collected in [`PcBus::debug_out`].

use emu::{Bus, Cpu, CpuModel, Reg16, SegReg, StepEvent, StepInfo};

use crate::cmos::{Cmos, DateTime};
use crate::hash::Fnv64;
use crate::kbc::{Kbc, Key};
use crate::memory::{Memory, Region};
use crate::opl2::Opl2;
use crate::option_rom::{self, OptionRom};
use crate::pic::Pics;
use crate::pit::Pit;
use crate::ppi::Ppi;
use crate::scheduler::{Event, Scheduler};
use crate::vga::{Frame, Vga};

/// The machine's configuration.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MachineConfig {
    /// CPU model.
    pub cpu_model: CpuModel,
    /// CPU clock in Hz (4,772,727 for the 8086 PC).
    pub cpu_hz: u64,
    /// PIT input clock in Hz (1,193,182 by default).
    pub pit_hz: u64,
    /// Conventional memory in KiB (at most 640).
    pub conventional_kib: u32,
    /// Extended memory in KiB (only reachable on a 286/386; with A20 off
    /// the HMA wraps).
    pub extended_kib: u32,
    /// The RTC's date and time at cycle 0.
    pub rtc_start: DateTime,
    /// An AdLib card: the YM3812's registers, timers and status at
    /// 388h/389h (no sound synthesis yet). Off by default, so a program
    /// that probes for an AdLib gets the answer of a PC without one (the
    /// ports float at FFh) rather than finding a card that plays nothing.
    #[serde(default)]
    pub adlib: bool,
}

impl Default for MachineConfig {
    fn default() -> Self {
        MachineConfig {
            cpu_model: CpuModel::I8086,
            cpu_hz: 4_772_727,
            pit_hz: 1_193_182,
            conventional_kib: 640,
            extended_kib: 0,
            rtc_start: DateTime::default(),
            adlib: false,
        }
    }
}

impl MachineConfig {
    /// The default machine with another CPU model and clock.
    pub fn with_cpu(model: CpuModel, cpu_hz: u64) -> Self {
        MachineConfig {
            cpu_model: model,
            cpu_hz,
            extended_kib: if model.has_extended_memory() { 1024 } else { 0 },
            ..Self::default()
        }
    }
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunExit {
    /// The cycle budget ran out.
    CyclesElapsed,
    /// The CPU halted with interrupts disabled (the end of a test program).
    Halted,
    /// A vertical retrace started (from [`Machine::run_frame`]).
    Frame,
    /// The keyboard controller or port 92h pulsed the CPU reset line.
    Reset,
    /// The program did something tandem does not emulate (entering
    /// protected mode); CS:IP still points at the instruction.
    Unsupported(&'static str),
    /// CS:IP reached the high-level-emulation trap range set with
    /// [`Machine::set_trap_range`], at this linear address; the instruction
    /// there has not run. The caller services the trap (reading and writing
    /// registers and memory) and runs on: if CS:IP is unchanged the next run
    /// executes the instruction at the trap address without trapping again.
    Trap(u32),
    /// A CPU hook with [`emu::HookAction::Stop`] fired: before the
    /// instruction at CS:IP (an execution hook) or after the instruction
    /// that touched a watched address, port or interrupt
    /// (`cpu.hooks_mut().stopped` says which).
    HookStop,
}

/// Address of the machine's return stub (`cli; hlt`) in the BIOS ROM.
const STUB_SEG: u16 = 0xF000;
const STUB_RET: u16 = 0xFF00;
/// The IRET stub every unused vector points at after [`Machine::post`].
const STUB_IRET: u16 = 0xFF10;
/// IRQ handlers installed by post: EOI (and for IRQ1 a read of port 60h).
const STUB_IRQ_MASTER: u16 = 0xFF20;
const STUB_IRQ_SLAVE: u16 = 0xFF30;
const STUB_IRQ1: u16 = 0xFF40;

/// The PC bus: memory map, devices, scheduler and the debug port.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct PcBus {
    /// The memory map.
    pub mem: Memory,
    /// The VGA.
    pub vga: Vga,
    /// The 8254.
    pub pit: Pit,
    /// The two 8259As.
    pub pics: Pics,
    /// The 8042 and keyboard.
    pub kbc: Kbc,
    /// The RTC and CMOS RAM.
    pub cmos: Cmos,
    /// Port 61h and the speaker.
    pub ppi: Ppi,
    /// The AdLib's YM3812 (388h/389h).
    pub opl: Opl2,
    /// Whether the OPL answers at 388h/389h ([`MachineConfig::adlib`]).
    adlib: bool,
    /// Timed events.
    pub sched: Scheduler,
    /// Bytes written to port E9h.
    pub debug_out: Vec<u8>,
    /// Cycle count at the start of the current step.
    step_start: u64,
    /// Half-clocks accounted inside the current step.
    step_half: u64,
    /// Half-clocks per data byte (the lower bound of the bus's speed).
    half_per_byte: u64,
    /// Wait states of one 8-bit I/O transfer on the ISA bus.
    io_waits: u32,
    /// The latest "now" the devices were brought to.
    now_max: u64,
    frame_ready: bool,
    reset_requested: bool,
    /// Ports accessed that no device answers (first 64, for diagnostics).
    pub unhandled_ports: Vec<u16>,
}

impl PcBus {
    /// The current cycle as the bus sees it (see the module doc).
    #[inline]
    pub fn now(&self) -> u64 {
        (self.step_start + self.step_half / 2).max(self.now_max)
    }

    /// Runs every scheduled event due at or before `now`.
    pub fn run_events(&mut self, now: u64) {
        while let Some((ev, t)) = self.sched.due(now) {
            match ev {
                Event::Pit0 => {
                    self.pit.advance_to(t);
                    self.pics.set_irq(0, self.pit.out(0));
                    self.sched.set(Event::Pit0, self.pit.next_edge(0));
                }
                Event::Pit2 => {
                    self.pit.advance_to(t);
                    self.ppi.update_speaker(t, self.pit.out(2));
                    self.schedule_pit2();
                }
                Event::Rtc => {
                    self.cmos.advance_to(t);
                    self.pics.set_irq(8, self.cmos.irq8());
                    self.sched.set(Event::Rtc, self.cmos.next_event());
                }
                Event::Keyboard => {
                    self.kbc.advance_to(t);
                    self.pics.set_irq(1, self.kbc.irq1());
                    self.sched.set(Event::Keyboard, self.kbc.next_event());
                }
                Event::VgaRetrace => {
                    self.vga.vertical_retrace_start();
                    self.frame_ready = true;
                    self.sched
                        .set(Event::VgaRetrace, Some(self.vga.next_retrace(t)));
                }
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

    fn schedule_pit2(&mut self) {
        let t = if self.ppi.speaker_enabled() {
            self.pit.next_edge(2)
        } else {
            None
        };
        self.sched.set(Event::Pit2, t);
    }

    /// The DRAM refresh toggle of port 61h bit 4.
    fn refresh_toggle(&self) -> bool {
        self.pit.channels[1].rising_edges() & 1 != 0
    }

    fn catch_up(&mut self) -> u64 {
        let now = self.now();
        if self.sched.next() <= now {
            self.run_events(now);
        }
        self.now_max = now;
        now
    }

    fn sync_kbc(&mut self) {
        self.pics.set_irq(1, self.kbc.irq1());
        self.mem.set_kbc_a20(self.kbc.a20());
        if self.kbc.take_reset() {
            self.reset_requested = true;
        }
        self.sched.set(Event::Keyboard, self.kbc.next_event());
    }

    fn port_read(&mut self, port: u16) -> u8 {
        let now = self.catch_up();
        match port {
            0x20 | 0x21 | 0xA0 | 0xA1 => self.pics.read(port),
            0x40..=0x43 => {
                self.pit.advance_to(now);
                self.pit.read(port as u8 & 3)
            }
            0x60 => {
                self.kbc.advance_to(now);
                let v = self.kbc.read_data();
                self.sync_kbc();
                v
            }
            0x64 => {
                self.kbc.advance_to(now);
                self.sync_kbc();
                self.kbc.read_status()
            }
            0x61 => {
                self.pit.advance_to(now);
                self.ppi.read(self.pit.out(2), self.refresh_toggle())
            }
            0x70 => 0xFF,
            0x71 => {
                self.cmos.advance_to(now);
                let v = self.cmos.read_data();
                self.pics.set_irq(8, self.cmos.irq8());
                self.sched.set(Event::Rtc, self.cmos.next_event());
                v
            }
            0x92 => (self.mem.port92_a20() as u8) << 1,
            0xE9 => 0xE9,
            0x388 if self.adlib => {
                self.opl.advance_to(now);
                self.opl.status()
            }
            0x3B0..=0x3DF => self.vga.io_read(port, now),
            _ => {
                self.note_unhandled(port);
                0xFF
            }
        }
    }

    fn port_write(&mut self, port: u16, v: u8) {
        let now = self.catch_up();
        match port {
            0x20 | 0x21 | 0xA0 | 0xA1 => self.pics.write(port, v),
            0x40..=0x43 => {
                self.pit.advance_to(now);
                self.pit.write(port as u8 & 3, v);
                self.pics.set_irq(0, self.pit.out(0));
                self.sched.set(Event::Pit0, self.pit.next_edge(0));
                self.ppi.update_speaker(now, self.pit.out(2));
                self.schedule_pit2();
            }
            0x60 => {
                self.kbc.advance_to(now);
                self.kbc.write_data(v);
                self.sync_kbc();
            }
            0x64 => {
                self.kbc.advance_to(now);
                self.kbc.write_command(v);
                self.sync_kbc();
            }
            0x61 => {
                self.pit.advance_to(now);
                self.ppi.port_b = v;
                self.pit.set_gate(2, v & 1 != 0);
                self.ppi.update_speaker(now, self.pit.out(2));
                self.schedule_pit2();
            }
            0x70 => self.cmos.write_index(v),
            0x71 => {
                self.cmos.advance_to(now);
                self.cmos.write_data(v);
                self.pics.set_irq(8, self.cmos.irq8());
                self.sched.set(Event::Rtc, self.cmos.next_event());
            }
            0x388 if self.adlib => self.opl.write_index(v),
            0x389 if self.adlib => {
                self.opl.advance_to(now);
                self.opl.write_data(v);
            }
            0x92 => {
                self.mem.set_port92_a20(v & 2 != 0);
                if v & 1 != 0 {
                    self.reset_requested = true;
                }
            }
            0xE9 => self.debug_out.push(v),
            0x3B0..=0x3DF => {
                self.vga.io_write(port, v, now);
                self.sched
                    .set(Event::VgaRetrace, Some(self.vga.next_retrace(now)));
            }
            _ => self.note_unhandled(port),
        }
    }

    fn note_unhandled(&mut self, port: u16) {
        if self.unhandled_ports.len() < 64 && !self.unhandled_ports.contains(&port) {
            self.unhandled_ports.push(port);
        }
    }
}

impl Bus for PcBus {
    #[inline]
    fn mem_read8(&mut self, addr: u32) -> u8 {
        let a = self.mem.gate(addr);
        match self.mem.decode(a) {
            Region::Ram | Region::Rom => self.mem.read_backing(a),
            Region::Vga => self.vga.mem_read(a),
            Region::Open => 0xFF,
        }
    }

    #[inline]
    fn mem_write8(&mut self, addr: u32, value: u8) {
        let a = self.mem.gate(addr);
        match self.mem.decode(a) {
            Region::Ram => self.mem.write_backing(a, value),
            Region::Vga => self.vga.mem_write(a, value),
            Region::Rom | Region::Open => {}
        }
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

    fn intr(&mut self) -> bool {
        let now = self.now();
        if self.sched.next() <= now {
            self.run_events(now);
        }
        self.pics.intr()
    }

    fn inta(&mut self) -> u8 {
        self.pics.inta()
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

/// The PC: CPU, bus and devices.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Machine {
    /// The CPU.
    pub cpu: Cpu,
    /// The bus and devices.
    pub bus: PcBus,
    config: MachineConfig,
    /// Linear range [start, end) whose addresses trap (see [`RunExit::Trap`]).
    trap: Option<(u32, u32)>,
    /// The trap just reported: executing it is the next step.
    trap_resume: Option<u32>,
}

impl Machine {
    /// A machine in its power-on state: devices reset (PICs uninitialised,
    /// PIT idle, VGA in mode 03h, 8042 as a BIOS leaves it), RAM zero, the
    /// BIOS area holding only the machine's stubs.
    pub fn new(config: MachineConfig) -> Self {
        let cpu_hz = config.cpu_hz.max(1);
        let mut mem = Memory::new(config.conventional_kib, config.extended_kib);
        // The machine's stubs: a return trap, an IRET and IRQ handlers, and
        // a reset vector that halts.
        mem.write_image(0xFFF00, &[0xFA, 0xF4]); // cli; hlt
        mem.write_image(0xFFF10, &[0xCF]); // iret
                                           // push ax; mov al,20h; out 20h,al; pop ax; iret
        mem.write_image(0xFFF20, &[0x50, 0xB0, 0x20, 0xE6, 0x20, 0x58, 0xCF]);
        // push ax; mov al,20h; out A0h,al; out 20h,al; pop ax; iret
        mem.write_image(
            0xFFF30,
            &[0x50, 0xB0, 0x20, 0xE6, 0xA0, 0xE6, 0x20, 0x58, 0xCF],
        );
        // push ax; in al,60h; mov al,20h; out 20h,al; pop ax; iret
        mem.write_image(
            0xFFF40,
            &[0x50, 0xE4, 0x60, 0xB0, 0x20, 0xE6, 0x20, 0x58, 0xCF],
        );
        mem.write_image(0xFFFF0, &[0xFA, 0xF4]);
        let half_per_byte = config.cpu_model.bus_half_clocks_per_byte();
        let io_waits = isa_io_wait_states(config.cpu_model, cpu_hz);
        let mut bus = PcBus {
            mem,
            vga: Vga::new(cpu_hz),
            pit: Pit::new(config.pit_hz, cpu_hz),
            pics: Pics::new(),
            kbc: Kbc::new(cpu_hz / 1000),
            cmos: Cmos::new(
                config.rtc_start,
                cpu_hz,
                config.conventional_kib,
                config.extended_kib,
            ),
            ppi: Ppi::default(),
            opl: Opl2::new(cpu_hz),
            adlib: config.adlib,
            sched: Scheduler::new(),
            debug_out: Vec::new(),
            step_start: 0,
            step_half: 0,
            half_per_byte,
            io_waits,
            now_max: 0,
            frame_ready: false,
            reset_requested: false,
            unhandled_ports: Vec::new(),
        };
        bus.sched
            .set(Event::VgaRetrace, Some(bus.vga.next_retrace(0)));
        Machine {
            cpu: Cpu::new(config.cpu_model),
            bus,
            config,
            trap: None,
            trap_resume: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MachineConfig {
        &self.config
    }

    /// CPU cycles since reset (emulated time).
    pub fn cycles(&self) -> u64 {
        self.cpu.cycles
    }

    /// Emulated time in whole microseconds.
    pub fn micros(&self) -> u64 {
        (self.cpu.cycles as u128 * 1_000_000 / self.config.cpu_hz.max(1) as u128) as u64
    }

    /// What the BIOS power-on self test leaves behind, minimally: PICs at
    /// vectors 08h and 70h (IRQ0-2 unmasked), PIT channel 0 in mode 3 with
    /// divisor 65536 (18.2 Hz), channel 1 in mode 2 with count 18 (refresh),
    /// every interrupt vector at an IRET stub and IRQ vectors at stubs that
    /// send EOI (IRQ1's also reads port 60h).
    pub fn post(&mut self) {
        for (port, v) in [
            (0x20u16, 0x11u8),
            (0x21, 0x08),
            (0x21, 0x04),
            (0x21, 0x01),
            (0xA0, 0x11),
            (0xA1, 0x70),
            (0xA1, 0x02),
            (0xA1, 0x01),
            (0x21, 0xF8),
            (0xA1, 0xFF),
            (0x43, 0x36),
            (0x40, 0x00),
            (0x40, 0x00),
            (0x43, 0x54),
            (0x41, 18),
        ] {
            self.out8(port, v);
        }
        for v in 0..256u32 {
            let off = match v {
                0x09 => STUB_IRQ1,
                0x08 | 0x0A..=0x0F => STUB_IRQ_MASTER,
                0x70..=0x77 => STUB_IRQ_SLAVE,
                _ => STUB_IRET,
            };
            self.poke16(v * 4, off);
            self.poke16(v * 4 + 2, STUB_SEG);
        }
    }

    /// Writes a port as the CPU would at the current cycle.
    pub fn out8(&mut self, port: u16, v: u8) {
        self.bus.step_start = self.cpu.cycles;
        self.bus.step_half = 0;
        self.bus.port_write(port, v);
    }

    /// Reads a port as the CPU would at the current cycle.
    pub fn in8(&mut self, port: u16) -> u8 {
        self.bus.step_start = self.cpu.cycles;
        self.bus.step_half = 0;
        self.bus.port_read(port)
    }

    /// Reads a byte of RAM/ROM (after the A20 gate; VGA reads FFh).
    pub fn peek8(&self, addr: u32) -> u8 {
        self.bus.mem.peek(addr)
    }

    /// Reads a little-endian word of RAM/ROM.
    pub fn peek16(&self, addr: u32) -> u16 {
        self.peek8(addr) as u16 | (self.peek8(addr + 1) as u16) << 8
    }

    /// Writes a byte of RAM (ignored elsewhere).
    pub fn poke8(&mut self, addr: u32, v: u8) {
        self.bus.mem.poke(addr, v);
    }

    /// Writes a little-endian word of RAM.
    pub fn poke16(&mut self, addr: u32, v: u16) {
        self.poke8(addr, v as u8);
        self.poke8(addr + 1, (v >> 8) as u8);
    }

    /// Loads a flat binary (a .COM-style image) at `segment:0100h` and
    /// points the CPU at it: CS = DS = ES = SS = `segment`, IP = 0100h,
    /// SP = FFFEh (with a zero word there), IF clear. Fails if the image
    /// does not fit in the segment or in conventional RAM.
    pub fn load_com(&mut self, image: &[u8], segment: u16) -> Result<(), String> {
        if image.len() > 0xFF00 - 0x100 {
            return Err(format!(
                "image of {} bytes does not fit in a segment",
                image.len()
            ));
        }
        let base = (segment as u32) << 4;
        let end = base + 0x10000;
        if self.bus.mem.decode(end - 1) != Region::Ram {
            return Err(format!(
                "segment {segment:04X}h is not entirely in conventional RAM"
            ));
        }
        for (i, &b) in image.iter().enumerate() {
            self.poke8(base + 0x100 + i as u32, b);
        }
        // A PSP's INT 20h at offset 0 and a zero return address.
        self.poke8(base, 0xCD);
        self.poke8(base + 1, 0x20);
        self.poke16(base + 0xFFFE, 0);
        let r = &mut self.cpu.regs;
        for s in [SegReg::CS, SegReg::DS, SegReg::ES, SegReg::SS] {
            r.set_sreg(s, segment);
        }
        r.ip = 0x100;
        r.set_reg16(Reg16::SP, 0xFFFE);
        self.cpu.halted = false;
        self.cpu.regs.flags = self.cpu.normalize_flags(0);
        Ok(())
    }

    /// Sets (or with `None` clears) the linear address range [start, end)
    /// that stops the run loop with [`RunExit::Trap`] before an instruction
    /// there executes: high-level BIOS/DOS services point their interrupt
    /// vectors into it. One range compare per instruction while set.
    pub fn set_trap_range(&mut self, range: Option<(u32, u32)>) {
        self.trap = range;
        self.trap_resume = None;
    }

    /// Executes one instruction (or one idle clock while halted).
    pub fn step(&mut self) -> StepInfo {
        let now = self.cpu.cycles;
        if self.bus.sched.next() <= now {
            self.bus.run_events(now);
        }
        self.bus.step_start = now;
        self.bus.step_half = 0;
        self.cpu.step(&mut self.bus)
    }

    /// Runs for `cycles` CPU cycles (or until the CPU halts with IF clear,
    /// or a reset pulse).
    pub fn run_for(&mut self, cycles: u64) -> RunExit {
        let end = self.cpu.cycles.saturating_add(cycles);
        self.run_until(end, false)
    }

    /// Runs until the next vertical retrace starts (a frame is complete),
    /// at most `max_cycles`.
    pub fn run_frame(&mut self, max_cycles: u64) -> RunExit {
        let end = self.cpu.cycles.saturating_add(max_cycles);
        self.bus.frame_ready = false;
        self.run_until(end, true)
    }

    fn run_until(&mut self, end: u64, stop_on_frame: bool) -> RunExit {
        loop {
            if self.bus.reset_requested {
                self.bus.reset_requested = false;
                return RunExit::Reset;
            }
            if stop_on_frame && self.bus.frame_ready {
                self.bus.frame_ready = false;
                return RunExit::Frame;
            }
            let now = self.cpu.cycles;
            if now >= end {
                return RunExit::CyclesElapsed;
            }
            if self.bus.sched.next() <= now {
                self.bus.run_events(now);
                continue;
            }
            if self.cpu.halted {
                if self.cpu.regs.flags & emu::flags::IF == 0 {
                    return RunExit::Halted;
                }
                if !self.bus.pics.intr() {
                    // Idle: jump to the next event (or the end).
                    let next = self.bus.sched.next().min(end);
                    self.cpu.cycles = next.max(now + 1);
                    continue;
                }
            }
            if let Some((lo, hi)) = self.trap {
                let r = &self.cpu.regs;
                let lin = self.cpu.linear(r.sreg(SegReg::CS), r.ip as u16);
                if (lo..hi).contains(&lin) {
                    if self.trap_resume == Some(lin) {
                        self.trap_resume = None;
                    } else {
                        self.trap_resume = Some(lin);
                        return RunExit::Trap(lin);
                    }
                } else {
                    self.trap_resume = None;
                }
            }
            self.bus.step_start = now;
            self.bus.step_half = 0;
            match self.cpu.step(&mut self.bus).event {
                StepEvent::Unsupported(msg) => return RunExit::Unsupported(msg),
                StepEvent::HookStop => return RunExit::HookStop,
                _ => {}
            }
        }
    }

    /// Runs until the program halts with IF clear; an error if it has not
    /// after `max_cycles` or the machine reset.
    pub fn run_to_halt(&mut self, max_cycles: u64) -> Result<(), String> {
        match self.run_for(max_cycles) {
            RunExit::Halted => Ok(()),
            RunExit::Unsupported(msg) => Err(format!(
                "{msg} (at {:04X}:{:04X})",
                self.cpu.regs.sreg(SegReg::CS),
                self.cpu.regs.ip
            )),
            other => Err(format!(
                "program did not halt ({other:?}) at {:04X}:{:04X} after {} cycles",
                self.cpu.regs.sreg(SegReg::CS),
                self.cpu.regs.ip,
                self.cpu.cycles
            )),
        }
    }

    /// Bytes the program wrote to port E9h.
    pub fn debug_output(&self) -> &[u8] {
        &self.bus.debug_out
    }

    /// Queues a key press or release at `cycle` (not before now).
    pub fn key(&mut self, cycle: u64, key: Key, down: bool) {
        let at = cycle.max(self.cpu.cycles);
        self.bus.kbc.push_key(at, key, down);
        self.bus
            .sched
            .set(Event::Keyboard, self.bus.kbc.next_event());
    }

    /// Renders the display.
    pub fn render(&self) -> Frame {
        self.bus.vga.render()
    }

    /// Places a ROM image at `addr` (e.g. C0000h for a video BIOS).
    pub fn load_rom(&mut self, addr: u32, image: &[u8]) {
        self.bus.mem.load_rom(addr, image);
    }

    /// Far-calls `seg:off` on the current stack and runs until it returns
    /// (through a `cli; hlt` stub in the BIOS area), at most `max_cycles`.
    /// IF is restored afterwards.
    pub fn far_call(&mut self, seg: u16, off: u16, max_cycles: u64) -> Result<(), String> {
        let flags = self.cpu.regs.flags;
        self.push16(STUB_SEG);
        self.push16(STUB_RET);
        self.cpu.regs.set_sreg(SegReg::CS, seg);
        self.cpu.regs.ip = off as u32;
        self.finish_call(flags, max_cycles)
    }

    /// Runs software interrupt `vector` as `int` would (FLAGS, CS, IP
    /// pushed; IF and TF cleared) with the current registers, until its
    /// IRET returns. IF is restored afterwards.
    pub fn call_interrupt(&mut self, vector: u8, max_cycles: u64) -> Result<(), String> {
        let flags = self.cpu.regs.flags;
        self.push16(flags as u16);
        self.push16(STUB_SEG);
        self.push16(STUB_RET);
        self.cpu.regs.flags &= !(emu::flags::IF | emu::flags::TF);
        let v = vector as u32 * 4;
        let (ip, cs) = (self.peek16(v), self.peek16(v + 2));
        self.cpu.regs.set_sreg(SegReg::CS, cs);
        self.cpu.regs.ip = ip as u32;
        self.finish_call(flags, max_cycles)
    }

    fn finish_call(&mut self, flags: u32, max_cycles: u64) -> Result<(), String> {
        self.cpu.halted = false;
        let exit = self.run_for(max_cycles);
        let (cs, ip) = (self.cpu.regs.sreg(SegReg::CS), self.cpu.regs.ip);
        if exit == RunExit::Halted && cs == STUB_SEG && ip == STUB_RET as u32 + 2 {
            self.cpu.halted = false;
            let r = &mut self.cpu.regs;
            r.flags = (r.flags & !emu::flags::IF) | (flags & emu::flags::IF);
            Ok(())
        } else {
            Err(format!(
                "call did not return ({exit:?}) at {cs:04X}:{ip:04X} after {} cycles",
                self.cpu.cycles
            ))
        }
    }

    fn push16(&mut self, v: u16) {
        let sp = self.cpu.regs.reg16(Reg16::SP).wrapping_sub(2);
        self.cpu.regs.set_reg16(Reg16::SP, sp);
        let ss = self.cpu.regs.sreg(SegReg::SS);
        let a = self.cpu.linear(ss, sp);
        self.poke16(a, v);
    }

    /// Scans C0000h-DFFFFh for option ROMs and initialises each valid one
    /// with a far call to its offset 3, on a stack at 0000:7C00, as a BIOS
    /// does. Returns what the scan found; an error if a ROM's init does not
    /// return within `max_cycles`.
    pub fn init_option_roms(&mut self, max_cycles: u64) -> Result<Vec<OptionRom>, String> {
        let roms = option_rom::scan(&self.bus.mem);
        for r in roms.iter().filter(|r| r.checksum_ok) {
            self.cpu.regs.set_sreg(SegReg::SS, 0);
            self.cpu.regs.set_reg16(Reg16::SP, 0x7C00);
            self.far_call(r.segment, 3, max_cycles)
                .map_err(|e| format!("option ROM at {:04X}:0003: {e}", r.segment))?;
        }
        Ok(roms)
    }

    /// A hash of the whole machine state: CPU registers and cycle count,
    /// RAM and ROM, display memory and every device register.
    pub fn state_hash(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = Fnv64::default();
        self.cpu.regs.hash(&mut h);
        self.cpu.cycles.hash(&mut h);
        self.cpu.halted.hash(&mut h);
        let b = &self.bus;
        b.mem.hash(&mut h);
        b.vga.hash(&mut h);
        b.pit.hash(&mut h);
        b.pics.hash(&mut h);
        b.kbc.hash(&mut h);
        b.cmos.hash(&mut h);
        b.ppi.hash(&mut h);
        b.opl.hash(&mut h);
        b.sched.hash(&mut h);
        b.debug_out.hash(&mut h);
        h.finish()
    }
}
