//! What the host asks of the window between frames: its keys (pause,
//! frame advance, screenshot, fullscreen, mouse release), the guest's keys
//! through the key map, and the mouse in relative mode.

use std::collections::BTreeSet;

use sdl2::event::{Event, WindowEvent};
use sdl2::keyboard::{Mod, Scancode};
use sdl2::mouse::MouseButton;

use crate::input::keymap;
use crate::input::record::Input;

/// What the host asked for, between frames.
#[derive(Default)]
pub(super) struct Ui {
    pub(super) quit: bool,
    pub(super) paused: bool,
    /// Frames to run while paused.
    pub(super) advance: u32,
    pub(super) screenshot: bool,
    pub(super) fullscreen: Option<bool>,
    /// Keys the guest holds down (as the host reported them).
    pub(super) guest_down: BTreeSet<i32>,
    /// Mouse captured (relative mode).
    pub(super) captured: bool,
    /// `--check` found a divergence: the emulation stays paused.
    pub(super) diverged: bool,
    /// The host lost the picture (expose, resize): present it again.
    pub(super) redraw: bool,
    pub(super) capture_change: Option<bool>,
    pub(super) mouse: (i32, i32),
    pub(super) buttons: u16,
    pub(super) buttons_sent: u16,
}

impl Ui {
    /// Handles one host event; input for the guest goes to `inputs`.
    pub(super) fn event(&mut self, ev: Event, is_fullscreen: bool, inputs: &mut Vec<Input>) {
        match ev {
            Event::Quit { .. } => self.quit = true,
            Event::KeyDown {
                scancode: Some(sc),
                keymod,
                repeat,
                ..
            } => {
                let alt = keymod.intersects(Mod::LALTMOD | Mod::RALTMOD);
                let ctrl = keymod.intersects(Mod::LCTRLMOD | Mod::RCTRLMOD);
                match sc {
                    Scancode::Pause | Scancode::Period if self.diverged => return,
                    Scancode::Pause if !repeat => {
                        self.paused = !self.paused;
                        self.advance = 0;
                        return;
                    }
                    Scancode::F12 if !repeat => {
                        self.screenshot = true;
                        return;
                    }
                    Scancode::Return if alt && !repeat => {
                        self.fullscreen = Some(!is_fullscreen);
                        return;
                    }
                    Scancode::F10 if ctrl && !repeat => {
                        self.capture_change = Some(false);
                        return;
                    }
                    Scancode::Period if self.paused => {
                        self.advance += 1;
                        return;
                    }
                    _ => {}
                }
                if self.paused {
                    return;
                }
                if let Some(k) = keymap::key(sc) {
                    self.guest_down.insert(sc as i32);
                    inputs.push(Input::Key {
                        code: k.code,
                        ext: k.extended,
                        down: true,
                    });
                }
            }
            Event::KeyUp {
                scancode: Some(sc), ..
            } if self.guest_down.remove(&(sc as i32)) => {
                if let Some(k) = keymap::key(sc) {
                    inputs.push(Input::Key {
                        code: k.code,
                        ext: k.extended,
                        down: false,
                    });
                }
            }
            Event::MouseMotion { xrel, yrel, .. } if self.captured && !self.paused => {
                self.mouse.0 += xrel;
                self.mouse.1 += yrel;
            }
            Event::MouseButtonDown { mouse_btn, .. } => {
                if !self.captured {
                    self.capture_change = Some(true);
                } else if !self.paused {
                    self.buttons |= button_bit(mouse_btn);
                }
            }
            Event::MouseButtonUp { mouse_btn, .. } => {
                self.buttons &= !button_bit(mouse_btn);
            }
            Event::Window {
                win_event: WindowEvent::FocusLost,
                ..
            } if self.captured => self.capture_change = Some(false),
            Event::Window {
                win_event:
                    WindowEvent::Exposed
                    | WindowEvent::Shown
                    | WindowEvent::Restored
                    | WindowEvent::Resized(..)
                    | WindowEvent::SizeChanged(..),
                ..
            } => self.redraw = true,
            _ => {}
        }
    }

    /// The mouse input gathered since the last frame, if any.
    pub(super) fn mouse_input(&mut self) -> Option<Input> {
        if self.mouse == (0, 0) && self.buttons == self.buttons_sent {
            return None;
        }
        let clamp = |v: i32| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let i = Input::Mouse {
            dx: clamp(self.mouse.0),
            dy: clamp(self.mouse.1),
            buttons: self.buttons,
        };
        self.mouse = (0, 0);
        self.buttons_sent = self.buttons;
        Some(i)
    }
}

fn button_bit(b: MouseButton) -> u16 {
    match b {
        MouseButton::Left => 1,
        MouseButton::Right => 2,
        MouseButton::Middle => 4,
        _ => 0,
    }
}
