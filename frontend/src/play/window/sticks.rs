//! The host's game controllers and joysticks as the game port's two
//! sticks, and the mouse as stick 1 while Ctrl+F9 has it so.
//!
//! Devices are opened when SDL reports them (at start for those plugged
//! in, later on hot-plug) and closed when unplugged, which centres and
//! releases what they drove. Each device takes the first free slot, and
//! its axes and buttons fall on the port's from that slot on: the first
//! device's axes 0-3 (a game controller's left stick X/Y, right stick X/Y)
//! are stick 1's X/Y and stick 2's X/Y, its buttons 0-3 (A, B, X, Y) the
//! port's four buttons (joy1-button1, joy1-button2, joy2-button1,
//! joy2-button2); a second device's axes 0-1 and buttons 0-1 are stick 2's.
//! SDL devices that it knows as game controllers are read through its
//! controller mapping, the others as plain joysticks.
//!
//! The mouse as a stick: Ctrl+F9 switches it on and off (off at start, so
//! a program's mouse driver keeps the mouse). While on, the mouse is not
//! captured, its position in the window is stick 1's position (left edge
//! -1, right edge 1, top -1, bottom 1) and its left and right buttons are
//! stick 1's buttons 1 and 2; the program's mouse driver sees nothing.
//!
//! Input is gathered between frames and handed to the player, which stamps
//! and records it like keys. Axis positions are kept to 512 levels (finer
//! than any program can time) so a resting analog stick's noise does not
//! flood the record.

use sdl2::controller::GameController;
use sdl2::event::Event;
use sdl2::joystick::Joystick;
use sdl2::keyboard::{Mod, Scancode};
use sdl2::mouse::MouseButton;
use sdl2::{GameControllerSubsystem, JoystickSubsystem, Sdl};

use crate::input::record::Input;

/// The game port's axes and buttons.
const PORT: usize = 4;
/// Low bits of an axis value dropped (512 levels are kept).
const QUANTUM: i16 = 1 << 7;

/// An opened device.
enum Device {
    Controller(GameController),
    Joystick(Joystick),
}

impl Device {
    /// The name SDL gives it.
    fn name(&self) -> String {
        match self {
            Device::Controller(c) => c.name(),
            Device::Joystick(j) => j.name(),
        }
    }
}

/// A device and the first port axis and button it drives.
struct Pad {
    id: u32,
    slot: usize,
    device: Device,
}

/// The host's sticks and the state sent to the game port.
pub(super) struct Sticks {
    controllers: Option<GameControllerSubsystem>,
    joysticks: Option<JoystickSubsystem>,
    pads: Vec<Pad>,
    /// The mouse drives stick 1 (Ctrl+F9).
    pub(super) mouse_stick: bool,
    /// The axes' positions to send (None: unchanged since the last frame).
    pending: [Option<i16>; PORT],
    /// The axes' positions sent.
    sent: [i16; PORT],
    /// Button presses and releases not yet sent, in order.
    buttons: Vec<Input>,
}

impl Sticks {
    /// The sticks of `context`; without SDL's joystick support, only the
    /// mouse.
    pub(super) fn new(context: &Sdl) -> Sticks {
        let controllers = context
            .game_controller()
            .map_err(|e| log::info!("no game controller support: {e}"))
            .ok();
        let joysticks = context
            .joystick()
            .map_err(|e| log::info!("no joystick support: {e}"))
            .ok();
        Sticks {
            controllers,
            joysticks,
            pads: Vec::new(),
            mouse_stick: false,
            pending: [None; PORT],
            sent: [0; PORT],
            buttons: Vec::new(),
        }
    }

    /// Takes the events that are the sticks' (true) or leaves them to the
    /// window (false); `size` is the window's size for the mouse.
    pub(super) fn event(&mut self, ev: &Event, size: (u32, u32), paused: bool) -> bool {
        match *ev {
            Event::KeyDown {
                scancode: Some(Scancode::F9),
                keymod,
                repeat: false,
                ..
            } if keymod.intersects(Mod::LCTRLMOD | Mod::RCTRLMOD) => {
                self.mouse_stick = !self.mouse_stick;
                if !self.mouse_stick {
                    self.centre(0..2);
                }
                eprintln!(
                    "tandem run: the mouse is {}",
                    if self.mouse_stick {
                        "joystick 1 (Ctrl+F9 gives it back)"
                    } else {
                        "the mouse again"
                    }
                );
                true
            }
            Event::ControllerDeviceAdded { which, .. } => {
                self.add_controller(which);
                true
            }
            Event::JoyDeviceAdded { which, .. } => {
                self.add_joystick(which);
                true
            }
            Event::ControllerDeviceRemoved { which, .. }
            | Event::JoyDeviceRemoved { which, .. } => {
                self.remove(which);
                true
            }
            Event::ControllerAxisMotion {
                which, axis, value, ..
            } => {
                self.axis(which, true, axis as usize, value, paused);
                true
            }
            Event::JoyAxisMotion {
                which,
                axis_idx,
                value,
                ..
            } => {
                self.axis(which, false, axis_idx as usize, value, paused);
                true
            }
            Event::ControllerButtonDown { which, button, .. } => {
                self.button(which, true, button as usize, true, paused);
                true
            }
            Event::ControllerButtonUp { which, button, .. } => {
                self.button(which, true, button as usize, false, paused);
                true
            }
            Event::JoyButtonDown {
                which, button_idx, ..
            } => {
                self.button(which, false, button_idx as usize, true, paused);
                true
            }
            Event::JoyButtonUp {
                which, button_idx, ..
            } => {
                self.button(which, false, button_idx as usize, false, paused);
                true
            }
            _ => self.mouse(ev, size, paused),
        }
    }

    /// The mouse's events while it is stick 1.
    fn mouse(&mut self, ev: &Event, size: (u32, u32), paused: bool) -> bool {
        if !self.mouse_stick {
            return false;
        }
        let scale = |v: i32, full: u32| {
            let f = v as f64 / full.max(2).saturating_sub(1) as f64 * 2.0 - 1.0;
            crate::input::joy::axis_value(f)
        };
        match *ev {
            Event::MouseMotion { x, y, .. } if !paused => {
                self.pending[0] = Some(scale(x, size.0));
                self.pending[1] = Some(scale(y, size.1));
                true
            }
            Event::MouseMotion { .. } => true,
            Event::MouseButtonDown { mouse_btn, .. } | Event::MouseButtonUp { mouse_btn, .. } => {
                let down = matches!(ev, Event::MouseButtonDown { .. });
                match mouse_btn {
                    MouseButton::Left => self.push_button(0, down, paused),
                    MouseButton::Right => self.push_button(1, down, paused),
                    _ => {}
                }
                true
            }
            _ => false,
        }
    }

    fn add_controller(&mut self, index: u32) {
        let Some(sub) = &self.controllers else { return };
        match sub.open(index) {
            Ok(c) => {
                let id = c.instance_id();
                log::info!("game controller {}: {}", index, c.name());
                self.add(id, Device::Controller(c));
            }
            Err(e) => log::warn!("game controller {index}: {e}"),
        }
    }

    fn add_joystick(&mut self, index: u32) {
        // A game controller is opened as one (its own event follows).
        if let Some(c) = &self.controllers {
            if c.is_game_controller(index) {
                return;
            }
        }
        let Some(sub) = &self.joysticks else { return };
        match sub.open(index) {
            Ok(j) => {
                let id = j.instance_id();
                log::info!("joystick {}: {}", index, j.name());
                self.add(id, Device::Joystick(j));
            }
            Err(e) => log::warn!("joystick {index}: {e}"),
        }
    }

    /// Keeps an opened device in the first free slot (0, then 2; none
    /// when both are taken).
    fn add(&mut self, id: u32, device: Device) {
        if self.pads.iter().any(|p| p.id == id) {
            return;
        }
        let Some(slot) = [0, 2]
            .into_iter()
            .find(|s| self.pads.iter().all(|p| p.slot != *s))
        else {
            log::info!("two sticks are in use: device {id} is not");
            return;
        };
        self.pads.push(Pad { id, slot, device });
    }

    /// Closes an unplugged device: what it drove is centred and released.
    fn remove(&mut self, id: u32) {
        if let Some(i) = self.pads.iter().position(|p| p.id == id) {
            let pad = self.pads.remove(i);
            log::info!("{} unplugged", pad.device.name());
            self.centre(pad.slot..PORT);
        }
    }

    /// Centres axes and releases buttons from `range` of the port's.
    fn centre(&mut self, range: std::ops::Range<usize>) {
        for i in range {
            self.pending[i] = Some(0);
            self.push_button(i, false, false);
        }
    }

    /// The port axis or button driven by a device's `index`-th one.
    fn port_index(&self, id: u32, controller: bool, index: usize) -> Option<usize> {
        let pad = self.pads.iter().find(|p| p.id == id)?;
        let is_controller = matches!(pad.device, Device::Controller(_));
        (is_controller == controller)
            .then_some(pad.slot + index)
            .filter(|&i| i < PORT)
    }

    fn axis(&mut self, id: u32, controller: bool, index: usize, value: i16, paused: bool) {
        if let Some(i) = self.port_index(id, controller, index).filter(|_| !paused) {
            self.pending[i] = Some(value & !(QUANTUM - 1));
        }
    }

    fn button(&mut self, id: u32, controller: bool, index: usize, down: bool, paused: bool) {
        if let Some(i) = self.port_index(id, controller, index) {
            self.push_button(i, down, paused);
        }
    }

    /// Queues port button `i` (0-3); a press while paused is dropped, a
    /// release never (the program must not see a button stuck).
    fn push_button(&mut self, i: usize, down: bool, paused: bool) {
        if down && paused {
            return;
        }
        self.buttons.push(Input::JoyButton {
            stick: (i / 2 + 1) as u8,
            button: (i % 2 + 1) as u8,
            down,
        });
    }

    /// The input gathered since the last frame: moved sticks, then the
    /// buttons in order.
    pub(super) fn inputs(&mut self, out: &mut Vec<Input>) {
        for stick in 0..2 {
            let [x, y] = [stick * 2, stick * 2 + 1]
                .map(|a| self.pending[a].take().filter(|v| *v != self.sent[a]));
            if x.is_none() && y.is_none() {
                continue;
            }
            if let Some(v) = x {
                self.sent[stick * 2] = v;
            }
            if let Some(v) = y {
                self.sent[stick * 2 + 1] = v;
            }
            out.push(Input::Joy {
                stick: stick as u8 + 1,
                x,
                y,
            });
        }
        out.append(&mut self.buttons);
    }
}
