//! The device interface: what a chip on the PC bus tells the machine about
//! itself, and the port and event decode the bus builds from it.
//!
//! A device is one type implementing [`Device`] (its name, the ports it
//! decodes, the scheduler events it owns, its power-on state, its port
//! handlers and event handler) plus one line in the registration list
//! (`crate::registry`). From that list the machine gets a typed field for
//! the device (`bus.dev.NAME`, also reachable as `bus.NAME`), its part of
//! the state hash and of the save state (the device's `Hash` and serde
//! derive, in list order) and its entries in the [`PortMap`]. Two claims on
//! one port, or an event kind with no owner or two, are a registration
//! error ([`PortMap::build`]).
//!
//! Port and event handlers receive the whole [`PcBus`] rather than the
//! device alone: chips are wired to each other (PIT channel 0 drives IRQ0,
//! port 61h gates PIT channel 2, the 8042 drives A20), and the handler is
//! where that wiring is written down, next to the chip it belongs to.

use std::fmt;
use std::hash::Hash;
use std::ops::RangeInclusive;
use std::sync::OnceLock;

use crate::bus::PcBus;
use crate::config::MachineConfig;
use crate::error::Error;
use crate::hash::Fnv64;
use crate::registry::{Devices, REGISTRY};
use crate::scheduler::{Event, Scheduler, EVENT_KINDS};

/// A range of I/O ports a device decodes (both ends included).
pub type Ports = RangeInclusive<u16>;

/// A chip on the PC bus.
///
/// Contract:
/// - [`Device::PORTS`] are the only ports whose reads and writes reach
///   [`Device::read`] and [`Device::write`]; before either is called the
///   bus has run every event due by `now` (the cycle of the access).
/// - [`Device::EVENTS`] are the scheduler slots the device owns; when one
///   is due the bus calls [`Device::fire`] with its time, and the device
///   sets the slot's next time (or `None`). A slot left at or before the
///   time it fired is moved one cycle on.
/// - The device's `Hash` is its part of the machine's state hash and its
///   serde form its part of the save state: both must cover every field
///   that affects emulation (a field only an observer uses, such as the
///   speaker log, may be left out of the hash).
/// - [`Device::perturb`] changes state that both must cover: the registry
///   test checks, for every registered device, that the machine's hash
///   changes and that a save/restore keeps the device's hash.
pub trait Device:
    Clone + fmt::Debug + Hash + serde::Serialize + serde::de::DeserializeOwned + 'static
{
    /// The part's name, for messages and the port map.
    const NAME: &'static str;
    /// The I/O ports it decodes.
    const PORTS: &'static [Ports];
    /// The scheduler events it owns (none by default).
    const EVENTS: &'static [Event] = &[];

    /// Its power-on (reset) state on a machine configured as `config`.
    fn power_on(config: &MachineConfig) -> Self;

    /// Schedules its events as at power-on, `now` being the machine's
    /// cycle (default: nothing scheduled).
    fn start(&self, sched: &mut Scheduler, now: u64) {
        let _ = (sched, now);
    }

    /// A read of one of its [`Device::PORTS`] at cycle `now`.
    fn read(bus: &mut PcBus, port: u16, now: u64) -> u8;

    /// A write of one of its [`Device::PORTS`] at cycle `now`.
    fn write(bus: &mut PcBus, port: u16, v: u8, now: u64);

    /// One of its [`Device::EVENTS`] is due at cycle `t` (default: nothing;
    /// a device that owns events implements it).
    fn fire(bus: &mut PcBus, ev: Event, t: u64) {
        let _ = (bus, ev, t);
    }

    /// Test hook: changes some state that the state hash and the save
    /// state must both cover (as a program writing its ports would).
    fn perturb(&mut self);
}

/// A registered device with its aspects as plain functions (built by the
/// registration list from each [`Device`] impl).
#[derive(Clone, Copy)]
pub struct Registration {
    /// [`Device::NAME`].
    pub name: &'static str,
    /// Its field in [`Devices`].
    pub field: &'static str,
    /// [`Device::PORTS`].
    pub ports: &'static [Ports],
    /// [`Device::EVENTS`].
    pub events: &'static [Event],
    pub(crate) read: fn(&mut PcBus, u16, u64) -> u8,
    pub(crate) write: fn(&mut PcBus, u16, u8, u64),
    pub(crate) fire: fn(&mut PcBus, Event, u64),
    pub(crate) start: fn(&Devices, &mut Scheduler, u64),
    /// Feeds the device's state into a state hash.
    pub hash: fn(&Devices, &mut Fnv64),
    /// [`Device::perturb`] on the device in `Devices`.
    pub perturb: fn(&mut Devices),
}

impl Registration {
    /// The device's own state hash (its contribution to the machine's).
    pub fn state_hash(&self, devices: &Devices) -> u64 {
        use std::hash::Hasher;
        let mut h = Fnv64::default();
        (self.hash)(devices, &mut h);
        h.finish()
    }
}

impl fmt::Debug for Registration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registration")
            .field("name", &self.name)
            .field("ports", &self.ports)
            .field("events", &self.events)
            .finish_non_exhaustive()
    }
}

/// Declares the registered devices: the [`Devices`] struct (one typed
/// field each, in list order, which is the order of the state hash and of
/// the save state) and [`REGISTRY`].
macro_rules! register_devices {
    ($($(#[$doc:meta])* $field:ident: $ty:ty,)*) => {
        /// Every registered device, by the name it is registered under.
        #[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
        pub struct Devices {
            $($(#[$doc])* pub $field: $ty,)*
        }

        impl Devices {
            /// Every device in its power-on state.
            pub fn power_on(config: &$crate::config::MachineConfig) -> Self {
                use $crate::device::Device;
                Devices { $($field: <$ty as Device>::power_on(config),)* }
            }
        }

        /// The registration list: every device on the bus, in order.
        pub static REGISTRY: &[$crate::device::Registration] = &[$(
            $crate::device::Registration {
                name: <$ty as $crate::device::Device>::NAME,
                field: stringify!($field),
                ports: <$ty as $crate::device::Device>::PORTS,
                events: <$ty as $crate::device::Device>::EVENTS,
                read: <$ty as $crate::device::Device>::read,
                write: <$ty as $crate::device::Device>::write,
                fire: <$ty as $crate::device::Device>::fire,
                start: |d, sched, now| $crate::device::Device::start(&d.$field, sched, now),
                hash: |d, h| std::hash::Hash::hash(&d.$field, h),
                perturb: |d| $crate::device::Device::perturb(&mut d.$field),
            },
        )*];
    };
}
pub(crate) use register_devices;

/// Ports the system board answers itself: 92h (System Control Port A: A20
/// and the fast reset, state in [`crate::memory::Memory`]) and E9h
/// (tandem's debug port, [`PcBus::debug_out`]).
pub const BOARD_PORTS: &[Ports] = &[0x92..=0x92, 0xE9..=0xE9];

/// The I/O address space: ports 0000h-FFFFh.
const PORT_SPACE: usize = 0x1_0000;
/// The most devices a [`PortMap`] indexes (a byte per port holds 0 for
/// none and 1 + the index, and 255 stays unused).
const MAX_DEVICES: usize = 254;

/// Which device answers each port and owns each event kind, in a
/// registration list.
#[derive(Clone)]
pub struct PortMap {
    /// The devices indexed.
    list: &'static [Registration],
    /// Per port: 0, or 1 + the index of the device decoding it.
    owner: Box<[u8; PORT_SPACE]>,
    /// Per event kind: the index of the device owning it.
    event_owner: [u8; EVENT_KINDS],
}

impl fmt::Debug for PortMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let claimed = self.owner.iter().filter(|&&o| o != 0).count();
        write!(f, "PortMap {{ {claimed} device ports }}")
    }
}

impl PortMap {
    /// The decode of `list`: an error when two devices (or a device and
    /// the system board's [`BOARD_PORTS`]) claim one port, or an event kind
    /// has no owner or more than one.
    pub fn build(list: &'static [Registration]) -> Result<PortMap, Error> {
        if list.len() > MAX_DEVICES {
            return Err(Error::TooManyDevices(list.len()));
        }
        let mut owner = Box::new([0u8; PORT_SPACE]);
        let mut claimed: Vec<Option<&'static str>> = vec![None; PORT_SPACE];
        let board = BOARD_PORTS.iter().map(|r| (r, 0u8, "the system board"));
        let devices = list
            .iter()
            .enumerate()
            .flat_map(|(i, d)| d.ports.iter().map(move |r| (r, i as u8 + 1, d.name)));
        for (range, index, name) in board.chain(devices) {
            for port in range.clone() {
                let p = port as usize;
                if let Some(first) = claimed[p] {
                    return Err(Error::PortClaimedTwice {
                        port,
                        first,
                        second: name,
                    });
                }
                owner[p] = index;
                claimed[p] = Some(name);
            }
        }
        let mut event_owner = [0u8; EVENT_KINDS];
        for event in Event::ALL {
            let owners: Vec<usize> = (0..list.len())
                .filter(|&i| list[i].events.contains(&event))
                .collect();
            match owners[..] {
                [i] => event_owner[event as usize] = i as u8,
                _ => {
                    return Err(Error::EventOwners {
                        event,
                        owners: owners.len(),
                    })
                }
            }
        }
        Ok(PortMap {
            list,
            owner,
            event_owner,
        })
    }

    /// The map of the registration list, built once.
    pub fn registered() -> &'static PortMap {
        static MAP: OnceLock<PortMap> = OnceLock::new();
        MAP.get_or_init(|| match PortMap::build(REGISTRY) {
            Ok(m) => m,
            // The list is fixed at compile time; `registry_builds` tests it.
            Err(e) => panic!("the device registration list is inconsistent: {e}"),
        })
    }

    /// The device decoding `port`, if any (not the board).
    #[inline]
    pub fn device(&self, port: u16) -> Option<&'static Registration> {
        match self.owner[port as usize] {
            0 => None,
            i => self.list.get(i as usize - 1),
        }
    }

    /// The device owning event kind `ev`.
    #[inline]
    pub fn event_owner(&self, ev: Event) -> Option<&'static Registration> {
        self.list.get(self.event_owner[ev as usize] as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Machine, MachineConfig};

    #[test]
    fn registry_builds() {
        let map = PortMap::build(REGISTRY).expect("the registered claims are consistent");
        assert_eq!(map.device(0x40).map(|d| d.field), Some("pit"));
        assert_eq!(map.device(0x3DA).map(|d| d.field), Some("vga"));
        assert!(map.device(0x92).is_none(), "92h is the board's");
        assert!(map.device(0x1234).is_none());
        assert_eq!(
            map.event_owner(Event::VgaRetrace).map(|d| d.field),
            Some("vga")
        );
    }

    #[test]
    fn an_overlapping_claim_is_an_error() {
        let pit = REGISTRY.iter().find(|d| d.field == "pit").copied();
        let pit = pit.expect("the PIT is registered");
        let clash = Registration {
            name: "clash",
            ports: &[0x3F..=0x40],
            events: &[],
            ..pit
        };
        let with = |extra: Registration| {
            let mut list = REGISTRY.to_vec();
            list.push(extra);
            PortMap::build(list.leak()).map(|_| ())
        };
        assert_eq!(
            with(clash),
            Err(Error::PortClaimedTwice {
                port: 0x40,
                first: pit.name,
                second: "clash"
            })
        );
        let board = Registration {
            ports: &[0xE9..=0xE9],
            ..clash
        };
        let err = with(board);
        assert_eq!(
            err,
            Err(Error::PortClaimedTwice {
                port: 0xE9,
                first: "the system board",
                second: "clash"
            })
        );
        assert_eq!(
            err.map_err(|e| e.to_string()),
            Err("port 00E9h is claimed by both the system board and clash".into())
        );
    }

    #[test]
    fn every_event_needs_one_owner() {
        let pit = REGISTRY.iter().find(|d| d.field == "pit").copied();
        let pit = pit.expect("the PIT is registered");
        let mut list = REGISTRY.to_vec();
        list.push(Registration {
            name: "second",
            ports: &[],
            events: &[Event::Pit2],
            ..pit
        });
        assert_eq!(
            PortMap::build(list.leak()).map(|_| ()),
            Err(Error::EventOwners {
                event: Event::Pit2,
                owners: 2
            })
        );
        let without: Vec<_> = REGISTRY
            .iter()
            .copied()
            .filter(|d| d.field != "vga")
            .collect();
        assert_eq!(
            PortMap::build(without.leak()).map(|_| ()),
            Err(Error::EventOwners {
                event: Event::VgaRetrace,
                owners: 0
            })
        );
    }

    fn round_trip(m: &Machine) -> Machine {
        let bytes = bincode::serialize(m).expect("a machine serializes");
        bincode::deserialize(&bytes).expect("and reads back")
    }

    /// Fails when a registered device is left out of the state hash or
    /// the save state: iterates over the registration list, so a newly
    /// registered device is covered without a change here.
    #[test]
    fn every_device_is_in_the_hash_and_the_save_state() {
        for config in [
            MachineConfig::default(),
            MachineConfig::with_cpu(emu::CpuModel::I386, 33_000_000),
        ] {
            for d in REGISTRY {
                let mut m = Machine::new(config.clone());
                let before = m.state_hash();
                let own_before = d.state_hash(&m.bus.dev);
                (d.perturb)(&mut m.bus.dev);
                assert_ne!(d.state_hash(&m.bus.dev), own_before, "{}: perturb", d.name);
                assert_ne!(
                    m.state_hash(),
                    before,
                    "{} is not in the state hash",
                    d.name
                );
                let back = round_trip(&m);
                for e in REGISTRY {
                    assert_eq!(
                        e.state_hash(&back.bus.dev),
                        e.state_hash(&m.bus.dev),
                        "{} does not survive a save state (with {} perturbed)",
                        e.name,
                        d.name
                    );
                }
                assert_eq!(back.state_hash(), m.state_hash(), "{}", d.name);
            }
        }
    }
}
