//! What reaches the guest at chosen emulated cycles, and its record: the
//! [`player::Player`] (a session and its input streams, shared by the
//! headless run, the window and the lock-step check), records of input
//! ([`record`]), scripted key presses (`--press`, [`press`]) and joystick
//! positions (`--joy`, [`joy`]), the window's
//! key map from SDL to the PC's scan codes ([`keymap`]) and a headless
//! run's stdin typed on the keyboard ([`stdin_keys`]).

pub mod joy;
pub mod keymap;
pub mod player;
pub mod press;
pub mod record;
pub mod stdin_keys;
