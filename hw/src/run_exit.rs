//! Why a run of the [`Machine`](crate::Machine) stopped: what the run
//! loop returns, and what the errors of a run carry ([`crate::Error`]).

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunExit {
    /// The cycle budget ran out.
    CyclesElapsed,
    /// The CPU halted with interrupts disabled (the end of a test program).
    Halted,
    /// A vertical retrace started (from [`Machine::run_frame`](crate::Machine::run_frame)).
    Frame,
    /// The keyboard controller or port 92h pulsed the CPU reset line.
    Reset,
    /// The program did something tandem does not emulate (entering
    /// protected mode); CS:IP still points at the instruction.
    Unsupported(&'static str),
    /// CS:IP reached the high-level-emulation trap range set with
    /// [`Machine::set_trap_range`](crate::Machine::set_trap_range), at this linear address; the instruction
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
