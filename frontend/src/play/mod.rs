//! `tandem run`'s machinery: the session that steps the machine and
//! delivers input at emulated cycles ([`session`]), the headless loop
//! ([`headless`]), the SDL2 window with pacing, keyboard, mouse and sound
//! ([`window`], [`keymap`]), the sound devices mixed from emulated time
//! ([`sound`]) into a WAV ([`wav`]) or the window, recorded input
//! ([`record`]) and PNG screenshots ([`screenshot`]), a headless run's stdin
//! typed as keys ([`stdin_keys`]). The machine itself stays headless: the
//! window only shows its frames and feeds it input.

pub mod headless;
pub mod keymap;
pub mod player;
pub mod record;
pub mod screenshot;
pub mod sound;
pub mod stdin_keys;
pub mod wav;
pub mod window;
