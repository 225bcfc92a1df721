//! Port 61h, the AT's "PPI port B" (the 8255 of the PC/XT, a latch on the
//! AT): PIT channel 2's gate (bit 0) and the speaker data enable (bit 1)
//! on write; on read also the DRAM refresh toggle (bit 4, flipping at every
//! rising edge of PIT channel 1's OUT) and OUT2 (bit 5).
//!
//! The speaker cone follows OUT2 AND bit 1. Its level changes can be
//! recorded with their cycle ([`Ppi::record`]) for an audio frontend.

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::device::{Device, Ports};
use crate::scheduler::Event;

/// Port 61h and the speaker. Its hash (part of the machine's state hash)
/// covers the port and the speaker level, not the recording switch and log,
/// which belong to the frontend listening to it: a run with sound hashes as
/// the same run without.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ppi {
    /// The bits last written (0-3 are read back).
    pub port_b: u8,
    speaker: bool,
    /// Record speaker level changes in [`Ppi::speaker_log`].
    pub record: bool,
    /// (cycle, level) of each speaker level change while recording.
    pub speaker_log: Vec<(u64, bool)>,
}

impl std::hash::Hash for Ppi {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.port_b.hash(h);
        self.speaker.hash(h);
    }
}

impl Ppi {
    /// Bit 0: channel 2 gate.
    pub fn gate2(&self) -> bool {
        self.port_b & 1 != 0
    }

    /// Bit 1: speaker data enable.
    pub fn speaker_enabled(&self) -> bool {
        self.port_b & 2 != 0
    }

    /// The port value read back, given OUT2 and the refresh toggle.
    pub fn read(&self, out2: bool, refresh: bool) -> u8 {
        (self.port_b & 0x0F) | (refresh as u8) << 4 | (out2 as u8) << 5
    }

    /// The speaker level now.
    pub fn speaker(&self) -> bool {
        self.speaker
    }

    /// Updates the speaker from OUT2 at `cycle`.
    pub fn update_speaker(&mut self, cycle: u64, out2: bool) {
        let level = out2 && self.speaker_enabled();
        if level != self.speaker {
            self.speaker = level;
            if self.record {
                self.speaker_log.push((cycle, level));
            }
        }
    }
}

/// Schedules PIT channel 2's next output edge while the speaker is enabled
/// (the only reason to run the PIT at its edges: OUT2 is read lazily).
pub(crate) fn schedule_speaker(bus: &mut PcBus) {
    let d = &bus.dev;
    let t = if d.ppi.speaker_enabled() {
        d.pit.next_edge(2)
    } else {
        None
    };
    bus.sched.set(Event::Pit2, t);
}

impl Device for Ppi {
    const NAME: &'static str = "port 61h";
    const PORTS: &'static [Ports] = &[0x61..=0x61];

    fn power_on(_: &MachineConfig) -> Self {
        Ppi::default()
    }

    /// Bit 4 flips at every rising edge of PIT channel 1 (the DRAM refresh
    /// request), bit 5 is OUT2.
    fn read(bus: &mut PcBus, _: u16, now: u64) -> u8 {
        let d = &mut bus.dev;
        d.pit.advance_to(now);
        let refresh = d.pit.channels[1].rising_edges() & 1 != 0;
        d.ppi.read(d.pit.out(2), refresh)
    }

    /// Bit 0 is PIT channel 2's GATE.
    fn write(bus: &mut PcBus, _: u16, v: u8, now: u64) {
        let d = &mut bus.dev;
        d.pit.advance_to(now);
        d.ppi.port_b = v;
        d.pit.set_gate(2, v & 1 != 0);
        d.ppi.update_speaker(now, d.pit.out(2));
        schedule_speaker(bus);
    }

    fn perturb(&mut self) {
        self.port_b = 0x03;
    }
}
