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

use emu::{Cpu, Reg16, SegReg, StepEvent, StepInfo};

pub use crate::bus::{isa_io_wait_states, PcBus};
pub use crate::config::{Fpu, MachineConfig};
use crate::error::Error;
use crate::firmware;
use crate::kbc::Key;
use crate::memory::{Memory, Region};
pub use crate::run_exit::RunExit;
use crate::scheduler::Event;
use crate::vga::Frame;

/// A real-mode segment's 64 KiB.
const SEGMENT_BYTES: u32 = 0x1_0000;
/// Where [`Machine::load_com`] loads an image (after the 256-byte PSP).
const COM_START: u16 = 0x100;
/// The end of the room an image has (leaving 256 bytes to the stack).
const COM_MAX_END: usize = 0xFF00;
/// The stack pointer a .COM image starts with (a zero word there).
const COM_SP: u16 = 0xFFFE;

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
    /// Instructions the run loop executed (for `tandem bench`'s guest MIPS;
    /// host-side bookkeeping, not machine state: not saved or hashed).
    #[serde(skip)]
    instructions: u64,
    /// How the display's frames are framed (a host's view, not machine
    /// state: not saved or hashed).
    #[serde(skip)]
    view: crate::vga::View,
}

impl Machine {
    /// A machine in its power-on state: devices reset (PICs uninitialised,
    /// PIT idle, VGA in mode 03h, 8042 as a BIOS leaves it), RAM zero, the
    /// BIOS area holding only the machine's stubs.
    pub fn new(config: MachineConfig) -> Self {
        let mut mem = Memory::new(config.conventional_kib, config.extended_kib);
        firmware::install_stubs(&mut mem);
        let bus = PcBus::new(&config, mem);
        let mut cpu = Cpu::new(config.cpu_model);
        cpu.fpu = config.fpu.fitted().then(emu::x87::X87::new);
        Machine {
            cpu,
            bus,
            config,
            trap: None,
            trap_resume: None,
            instructions: 0,
            view: crate::vga::View::default(),
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

    /// Instructions executed by [`Machine::run_for`] and
    /// [`Machine::run_frame`] since this machine was made (a REP string
    /// instruction counts once; HLT and idle halted clocks do not). Not part
    /// of the saved state.
    pub fn instructions(&self) -> u64 {
        self.instructions
    }

    /// Keeps (true) or drops (false, the default) the samples the OPL
    /// renders, for [`Machine::take_opl_samples`].
    pub fn capture_opl(&mut self, on: bool) {
        self.bus.dev.opl.set_capture(on);
    }

    /// The OPL's stereo samples (left, right) of the emulated time since
    /// the last call, up to now, while capturing: sample `n` of the run
    /// is at `n / 49716` s (exactly `n * 72 / 3579545` s, see
    /// [`crate::opl3`]). Silence when the machine has no AdLib.
    pub fn take_opl_samples(&mut self) -> Vec<[i16; 2]> {
        let now = self.cpu.cycles;
        self.bus.dev.opl.take_samples(now)
    }

    /// Keeps (true) or drops (false, the default) the Sound Blaster 16's
    /// output level changes, for [`Machine::take_sb16_output`].
    pub fn capture_sb16(&mut self, on: bool) {
        self.bus.dev.sb16.set_capture(on);
    }

    /// The Sound Blaster 16's output level changes since the last call
    /// while capturing: (cycle, left and right), each level holding until
    /// the next change (see [`crate::sb16`]). Empty without the card.
    pub fn take_sb16_output(&mut self) -> Vec<(u64, [i16; 2])> {
        self.bus.dev.sb16.take_output()
    }

    /// Keeps (true) or drops (false, the default) the Gravis UltraSound's
    /// frames, for [`Machine::take_gus_output`].
    pub fn capture_gus(&mut self, on: bool) {
        self.bus.dev.gus.set_capture(on);
    }

    /// The Gravis UltraSound's frames since the last call while
    /// capturing: (cycle, left and right), one per GF1 frame, up to
    /// half a millisecond before now while a voice sounds (see
    /// [`crate::gus`]). Empty without the card.
    pub fn take_gus_output(&mut self) -> Vec<(u64, [i16; 2])> {
        self.bus.dev.gus.take_output()
    }

    /// Emulated time in whole microseconds.
    pub fn micros(&self) -> u64 {
        (self.cpu.cycles as u128 * 1_000_000 / self.config.cpu_hz.max(1) as u128) as u64
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
    pub fn load_com(&mut self, image: &[u8], segment: u16) -> Result<(), Error> {
        if image.len() > COM_MAX_END - COM_START as usize {
            return Err(Error::ImageTooLarge { len: image.len() });
        }
        let base = (segment as u32) << 4;
        let end = base + SEGMENT_BYTES;
        if self.bus.mem.decode(end - 1) != Region::Ram {
            return Err(Error::SegmentNotInRam { segment });
        }
        for (i, &b) in image.iter().enumerate() {
            self.poke8(base + COM_START as u32 + i as u32, b);
        }
        // A PSP's INT 20h at offset 0 and a zero return address.
        self.poke8(base, 0xCD);
        self.poke8(base + 1, 0x20);
        self.poke16(base + COM_SP as u32, 0);
        let r = &mut self.cpu.regs;
        for s in [SegReg::CS, SegReg::DS, SegReg::ES, SegReg::SS] {
            r.set_sreg(s, segment);
        }
        r.ip = COM_START as u32;
        r.set_reg16(Reg16::SP, COM_SP);
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
                if !self.bus.dev.pics.intr() {
                    // Idle: jump to the next event (or the end).
                    let next = self.bus.sched.next().min(end);
                    self.cpu.cycles = next.max(now + 1);
                    continue;
                }
            }
            if self.cpu.plain_path() {
                if let Some(exit) = self.run_plain(end) {
                    return exit;
                }
                continue;
            }
            if let Some(lin) = self.trap_hit() {
                return RunExit::Trap(lin);
            }
            self.bus.step_start = now;
            self.bus.step_half = 0;
            match self.cpu.step(&mut self.bus).event {
                StepEvent::Unsupported(msg) => return RunExit::Unsupported(msg),
                StepEvent::HookStop => return RunExit::HookStop,
                StepEvent::Halted => {}
                _ => self.instructions += 1,
            }
        }
    }

    /// The trap check before an instruction: `Some(linear address)` when
    /// CS:IP is in the trap range and this is not the resumption of the
    /// trap just reported.
    #[inline(always)]
    fn trap_hit(&mut self) -> Option<u32> {
        let (lo, hi) = self.trap?;
        let r = &self.cpu.regs;
        let lin = self.cpu.linear(r.sreg(SegReg::CS), r.ip as u16);
        if (lo..hi).contains(&lin) {
            if self.trap_resume == Some(lin) {
                self.trap_resume = None;
            } else {
                self.trap_resume = Some(lin);
                return Some(lin);
            }
        } else {
            self.trap_resume = None;
        }
        None
    }

    /// Steps a CPU on the plain path ([`Cpu::plain_path`]) back to back,
    /// from a point where [`Machine::run_until`]'s loop has made all its
    /// checks but the trap's, doing per instruction what that loop would:
    /// it returns to the loop (`None`) as soon as one of the loop's other
    /// checks might answer differently, or with the loop's exit (a trap, an
    /// unsupported instruction).
    ///
    /// Between two instructions only three things can change what that
    /// loop does: the cycle count reaching `end` or the next event, a
    /// flag or event set by a device (which happens only in a port access
    /// or an event run, and both set [`PcBus::batch_end`] to 0), and HLT.
    /// So one compare with `batch_end` stands for the loop's checks.
    #[inline(never)]
    fn run_plain(&mut self, end: u64) -> Option<RunExit> {
        self.bus.batch_end = end.min(self.bus.sched.next());
        self.bus.begin_quiet();
        let exit = self.run_batch();
        self.bus.end_quiet();
        exit
    }

    /// [`Machine::run_plain`]'s steps, in a batch begun.
    #[inline(always)]
    fn run_batch(&mut self) -> Option<RunExit> {
        // Devices (DMA), the DOS services and the host write memory only
        // between batches: within one only the CPU does.
        self.cpu.memory_changed();
        // The trap range as a start and a length (empty without one), and
        // the address mask: what `trap_hit` computes, with the range's
        // bounds and the model's mask loaded once.
        let (lo, len) = match self.trap {
            Some((lo, hi)) => (lo, hi.saturating_sub(lo)),
            None => (0, 0),
        };
        let mask = self.cpu.model.address_mask();
        // A code segment none of whose 64 KiB reaches the range (checked
        // once per batch and CS): no compare per instruction while CS
        // holds it. (u32::MAX: none yet; no segment is that.)
        let mut clear_cs = u32::MAX;
        loop {
            let r = &self.cpu.regs;
            let cs = r.sreg(SegReg::CS) as u32;
            if cs != clear_cs {
                let lin = ((cs << 4) + (r.ip as u16) as u32) & mask;
                if lin.wrapping_sub(lo) < len {
                    if let Some(lin) = self.trap_hit() {
                        return Some(RunExit::Trap(lin));
                    }
                } else {
                    // Out of the range (or no range, when it is None
                    // already).
                    self.trap_resume = None;
                    if segment_clear_of(cs << 4, mask, lo, len) {
                        clear_cs = cs;
                    }
                }
            }
            self.bus.step_start = self.cpu.cycles;
            self.bus.step_half = 0;
            match self.cpu.step_plain(&mut self.bus) {
                StepEvent::Executed => self.instructions += 1,
                StepEvent::Unsupported(msg) => return Some(RunExit::Unsupported(msg)),
                StepEvent::Halted => return None,
                _ => self.instructions += 1,
            }
            if self.cpu.cycles >= self.bus.batch_end {
                return None;
            }
        }
    }

    /// Runs until the program halts with IF clear; an error if it has not
    /// after `max_cycles` or the machine reset.
    pub fn run_to_halt(&mut self, max_cycles: u64) -> Result<(), Error> {
        let exit = self.run_for(max_cycles);
        let (cs, ip) = (self.cpu.regs.sreg(SegReg::CS), self.cpu.regs.ip);
        match exit {
            RunExit::Halted => Ok(()),
            RunExit::Unsupported(what) => Err(Error::Unsupported { what, cs, ip }),
            exit => Err(Error::NotHalted {
                exit,
                cs,
                ip,
                cycles: self.cpu.cycles,
            }),
        }
    }

    /// Bytes the program wrote to port E9h.
    pub fn debug_output(&self) -> &[u8] {
        &self.bus.debug_out
    }

    /// Queues a key press or release at `cycle` (not before now).
    pub fn key(&mut self, cycle: u64, key: Key, down: bool) {
        let at = cycle.max(self.cpu.cycles);
        self.bus.dev.kbc.push_key(at, key, down);
        self.bus
            .sched
            .set(Event::Keyboard, self.bus.dev.kbc.next_event());
    }

    /// Moves joystick axis `axis` of the game port (0-3: stick A's X and
    /// Y, stick B's X and Y) to `pos` (-32768..32767, 0 the centre) now.
    /// Ignored without a game port or for another axis.
    pub fn joystick_axis(&mut self, axis: usize, pos: i16) {
        self.bus.dev.gameport.set_axis(axis, pos);
    }

    /// Presses or releases game-port button `button` (0-3: stick A's 1
    /// and 2, stick B's 1 and 2) now. Ignored for another button.
    pub fn joystick_button(&mut self, button: usize, down: bool) {
        self.bus.dev.gameport.set_button(button, down);
    }

    /// Frames the display as `view` asks from now on (the active display
    /// area alone by default).
    pub fn set_view(&mut self, view: crate::vga::View) {
        self.view = view;
    }

    /// Renders the display.
    pub fn render(&self) -> Frame {
        let mut f = Frame::default();
        self.render_into(&mut f);
        f
    }

    /// Renders the display into `frame`, reusing its buffer (a window's
    /// frame after frame).
    pub fn render_into(&self, frame: &mut Frame) {
        self.bus.dev.vga.render_view_into(frame, self.view)
    }

    /// Renders the display into `frame` as DAC indices and the DAC's
    /// colours (a palettized video's frame), reusing its buffer.
    pub fn render_indexed_into(&self, frame: &mut crate::vga::IndexedFrame) {
        self.bus.dev.vga.render_indexed_view_into(frame, self.view)
    }

    /// Places a ROM image at `addr` (e.g. C0000h for a video BIOS).
    pub fn load_rom(&mut self, addr: u32, image: &[u8]) {
        self.bus.mem.load_rom(addr, image);
    }
}

/// True when no linear address of the 64 KiB segment at `base` (masked by
/// `mask`) lies in the `len` bytes from `lo`: the segment's addresses
/// neither wrap at the mask nor meet the range.
fn segment_clear_of(base: u32, mask: u32, lo: u32, len: u32) -> bool {
    let end = base + (SEGMENT_BYTES - 1);
    end <= mask && (len == 0 || lo.saturating_add(len) <= base || lo > end)
}

#[cfg(test)]
mod tests {
    use super::segment_clear_of;

    /// Against the per-address answer, for segments around a range, at
    /// the end of the 8086's address space and with no range.
    #[test]
    fn a_clear_segment_has_no_address_in_the_range() {
        let ranges: [(u32, u32); 6] = [
            (0x1FFFF, 2),
            (0xFFF20, 1),
            (0x10000, 0x10),
            (0x0, 0x400),
            (0x5000, 0),
            (0xFFFF0, 0x20),
        ];
        for mask in [0xF_FFFF, 0xFF_FFFF] {
            for (lo, len) in ranges {
                // Every 127th segment, and those whose ends meet the range's.
                let near = |a: u32| (a >> 4).saturating_sub(2)..(a >> 4) + 2;
                let segs = (0..0x10000u32)
                    .step_by(0x7F)
                    .chain(near(lo.saturating_sub(0xFFFF)))
                    .chain(near(lo))
                    .chain(near(lo + len))
                    .filter(|&s| s < 0x10000);
                for seg in segs {
                    let base = seg << 4;
                    let any = (0..0x10000u32).any(|ip| ((base + ip) & mask).wrapping_sub(lo) < len);
                    if segment_clear_of(base, mask, lo, len) {
                        assert!(!any, "{seg:X} {lo:X} {len:X} {mask:X}");
                    }
                }
                // Segments wholly below or above the range are clear.
                let above = (lo + len + 0xF) >> 4;
                assert!(above << 4 > mask - 0xFFFF || segment_clear_of(above << 4, mask, lo, len));
            }
        }
    }
}
