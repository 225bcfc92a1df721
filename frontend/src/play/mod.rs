//! A run of a program: its arguments ([`args`]), its set-up ([`prepare`]:
//! the program, the machine, drive C:, DOS, a save state, scripted keys,
//! records, `--check`), the [`run::Run`] both loops step one frame at a
//! time, the headless loop ([`headless`]), the SDL2 window ([`window`]),
//! the sound devices mixed from emulated time ([`sound`]) into a WAV
//! ([`wav`]) or the window, a video of the frames and sound ([`video`]),
//! PNG screenshots ([`screenshot`]), and `tandem bench`'s measurement
//! ([`bench`]). The machine itself stays headless:
//! the window only shows its frames and feeds it input.

pub mod args;
pub mod bench;
pub mod headless;
pub mod prepare;
pub mod run;
pub mod screenshot;
pub mod sound;
pub mod video;
pub mod wav;
pub mod window;
