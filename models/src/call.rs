//! Running one routine of the original program in isolation: set up the
//! registers, push a return address that nothing else uses, and step the
//! CPU until the routine's RET brings it back there with the stack as it
//! was.

use emu::{Bus, Cpu, SegReg, StepEvent};

/// The near return address pushed for an isolated call.
pub const RETURN_IP: u16 = 0xFFFF;

/// Why an isolated call did not come back: `cs`:`ip` is the routine,
/// `at_cs`:`at_ip` where the CPU stood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// The routine executed HLT (with interrupts off nothing wakes it).
    #[error("the routine at {cs:04X}:{ip:04X} halted at {at_cs:04X}:{at_ip:04X}")]
    Halted {
        /// The routine's segment.
        cs: u16,
        /// The routine's offset.
        ip: u16,
        /// Where it halted: segment.
        at_cs: u16,
        /// Where it halted: offset.
        at_ip: u32,
    },
    /// The routine ran into something tandem does not emulate.
    #[error("the routine at {cs:04X}:{ip:04X}: {what}")]
    Unsupported {
        /// The routine's segment.
        cs: u16,
        /// The routine's offset.
        ip: u16,
        /// What the CPU does not emulate.
        what: &'static str,
    },
    /// The step budget ran out before the return.
    #[error(
        "the routine at {cs:04X}:{ip:04X} did not return within {max_steps} instructions (now at {at_cs:04X}:{at_ip:04X})"
    )]
    NoReturn {
        /// The routine's segment.
        cs: u16,
        /// The routine's offset.
        ip: u16,
        /// The budget.
        max_steps: u64,
        /// Where the CPU stood: segment.
        at_cs: u16,
        /// Where the CPU stood: offset.
        at_ip: u32,
    },
}

/// How an isolated call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallOutcome {
    /// Instructions executed.
    pub steps: u64,
    /// CPU clocks spent.
    pub cycles: u64,
}

/// Calls the routine at `cs:ip` with the stack at `ss:sp` (the other
/// registers as the caller left them in `cpu`) and runs until it returns,
/// by RET or RETF: the stack holds a far return address (`cs`, then
/// [`RETURN_IP`]), so a near RET pops the offset and a far one both words.
/// An error if it has not returned within `max_steps` instructions, halts,
/// or stops on something tandem does not emulate.
pub fn call_near<B: Bus>(
    cpu: &mut Cpu,
    bus: &mut B,
    cs: u16,
    ip: u16,
    ss: u16,
    sp: u16,
    max_steps: u64,
) -> Result<CallOutcome, CallError> {
    call_near_watching(cpu, bus, cs, ip, ss, sp, max_steps, None)
}

/// What [`call_near_watching`] calls each time execution reaches an
/// offset of the routine's segment: the offset, and the function.
pub type Watcher<'a, B> = (u16, &'a mut dyn FnMut(&Cpu, &B));

/// [`call_near`], calling `watch`'s function before each instruction at
/// its offset in segment `cs` (an event point).
#[allow(clippy::too_many_arguments)]
pub fn call_near_watching<B: Bus>(
    cpu: &mut Cpu,
    bus: &mut B,
    cs: u16,
    ip: u16,
    ss: u16,
    sp: u16,
    max_steps: u64,
    mut watch: Option<Watcher<'_, B>>,
) -> Result<CallOutcome, CallError> {
    cpu.regs.set_sreg(SegReg::CS, cs);
    cpu.regs.set_sreg(SegReg::SS, ss);
    let sp0 = sp;
    let base = (ss as u32) << 4;
    let mut put = |off: u16, v: u16| {
        bus.mem_write8(base + off as u32, v as u8);
        bus.mem_write8(base + off.wrapping_add(1) as u32, (v >> 8) as u8);
    };
    put(sp.wrapping_sub(2), cs);
    put(sp.wrapping_sub(4), RETURN_IP);
    let top = sp.wrapping_sub(4);
    cpu.regs.put16(4, top);
    cpu.regs.ip = ip as u32;
    cpu.halted = false;
    let start = cpu.cycles;
    for steps in 1..=max_steps {
        if let Some((at, f)) = watch.as_mut() {
            if cpu.regs.ip == *at as u32 && cpu.regs.seg[1] == cs {
                f(cpu, bus);
            }
        }
        // The plain path (no hooks, not cycle-exact) skips the per-step
        // checks; `call` with its recording hooks takes the full one.
        let event = if cpu.plain_path() {
            cpu.step_plain(bus)
        } else {
            cpu.step(bus).event
        };
        match event {
            StepEvent::Halted => {
                return Err(CallError::Halted {
                    cs,
                    ip,
                    at_cs: cpu.regs.seg[1],
                    at_ip: cpu.regs.ip,
                })
            }
            StepEvent::Unsupported(what) => return Err(CallError::Unsupported { cs, ip, what }),
            _ => {}
        }
        let sp_now = cpu.regs.get16(4);
        if cpu.regs.ip == RETURN_IP as u32
            && cpu.regs.seg[1] == cs
            && (sp_now == sp0.wrapping_sub(2) || sp_now == sp0)
        {
            return Ok(CallOutcome {
                steps,
                cycles: cpu.cycles - start,
            });
        }
    }
    Err(CallError::NoReturn {
        cs,
        ip,
        max_steps,
        at_cs: cpu.regs.seg[1],
        at_ip: cpu.regs.ip,
    })
}
