//! `tandem bench`'s measurement: a flat binary run headless on the machine
//! until it halts with interrupts off or the emulated time limit passes.
//! The host clock is read only around the run, to measure the host.

use std::time::Instant;

use emu::SegReg;
use hw::{Machine, MachineConfig, RunExit};

use crate::app::error::Error;

/// How fast a run went.
pub struct Measured {
    /// How the run ended: halted, time limit, reset...
    pub end: &'static str,
    /// Emulated clocks.
    pub cycles: u64,
    /// Emulated seconds.
    pub emulated: f64,
    /// Host seconds.
    pub host: f64,
    /// Guest instructions.
    pub instructions: u64,
}

impl Measured {
    /// Emulated MHz per host second.
    pub fn mhz(&self) -> f64 {
        self.cycles as f64 / self.host / 1e6
    }

    /// Emulated seconds per host second.
    pub fn realtime(&self) -> f64 {
        self.emulated / self.host
    }

    /// Guest instructions per host microsecond.
    pub fn mips(&self) -> f64 {
        self.instructions as f64 / self.host / 1e6
    }
}

/// Runs `image` (called `name`), loaded at 1000:0100h, on `config` for at
/// most `seconds` emulated seconds.
pub fn measure(
    image: &[u8],
    name: &str,
    config: &MachineConfig,
    seconds: u64,
) -> Result<Measured, Error> {
    let cpu_hz = config.cpu_hz;
    let mut m = Machine::new(config.clone());
    m.load_com(image, 0x1000).map_err(|e| Error::bad(name, e))?;
    let limit = seconds.saturating_mul(cpu_hz);
    let start = Instant::now();
    let exit = m.run_for(limit);
    let host = start.elapsed().as_secs_f64().max(1e-9);
    let end = match exit {
        RunExit::Halted => "halted",
        RunExit::CyclesElapsed => "time limit",
        RunExit::Reset => "reset",
        RunExit::Frame => "frame",
        RunExit::Trap(_) => "trap",
        RunExit::HookStop => "hook",
        RunExit::Unsupported(what) => {
            return Err(Error::Stopped(dos::Stop::Unsupported {
                what,
                cs: m.cpu.regs.sreg(SegReg::CS),
                ip: m.cpu.regs.ip as u16,
            }))
        }
    };
    let cycles = m.cycles();
    Ok(Measured {
        end,
        cycles,
        emulated: cycles as f64 / cpu_hz as f64,
        host,
        instructions: m.instructions(),
    })
}
