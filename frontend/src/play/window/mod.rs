//! The SDL2 window: the machine's frames scaled to 4:3 ([`screen`]),
//! real-time pacing, the keyboard (scan code set 1) and mouse (INT 33h)
//! as input and the host's own keys ([`ui`]), the host's game controllers
//! and joysticks (or the mouse) as the game port's sticks ([`sticks`]), and
//! the sound through SDL audio.
//!
//! The emulated clock decides what happens, the host clock only when: the
//! loop runs one emulated frame, shows it, then sleeps until the host has
//! caught up with the emulated time. Input that arrives from the host is
//! delivered between frames, stamped with the emulated cycle at which it
//! is delivered, so a record of it replays to the same state.

mod screen;
mod sticks;
mod ui;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use sdl2::render::WindowCanvas;
use sdl2::video::FullscreenType;

use super::run::{Outcome, Run};
use super::screenshot;
use super::sound::sdl_queue::SdlSound;
use crate::app::error::Error;
use screen::Screen;
use sticks::Sticks;
use ui::Ui;

/// The window's logical size: 4:3, into which every frame is scaled.
const LOGICAL: (u32, u32) = (640, 480);
/// The window's initial size.
const INITIAL: (u32, u32) = (960, 720);
/// Sound sample rate.
/// When the host falls this far behind the emulated clock, stop trying to
/// catch up (the emulation just runs slower than real time).
const MAX_LAG: f64 = 0.25;

/// An SDL failure as the window's error.
fn sdl(e: impl ToString) -> Error {
    Error::Window(e.to_string())
}

/// The window's parts while it runs.
struct Window<'a> {
    canvas: WindowCanvas,
    screen: Screen<'a>,
    sound: Option<SdlSound>,
    ui: Ui,
    sticks: Sticks,
    title: String,
    /// The host instant and the emulated cycle pacing counts from.
    base: (Instant, u64),
}

/// Runs the session in a window until the program ends, a limit, or the
/// user closes the window.
pub fn run(run: &mut Run, fullscreen: bool, mute: bool) -> Result<Outcome, Error> {
    sdl2::hint::set("SDL_RENDER_SCALE_QUALITY", "nearest");
    let context = sdl2::init().map_err(sdl)?;
    let video = context.video().map_err(sdl)?;
    let title = format!("tandem: {}", run.name);
    let canvas = screen::open_canvas(&video, &title, fullscreen)?;
    let creator = canvas.texture_creator();
    let sound = if mute {
        None
    } else {
        let given = run.mixer.as_ref().map(|x| x.rate());
        SdlSound::open(&context, &mut run.player.session.m, given)
    };
    let mut pump = context.event_pump().map_err(sdl)?;
    let mouse = context.mouse();
    let mut w = Window {
        canvas,
        screen: Screen::new(&creator),
        sound,
        ui: Ui::default(),
        sticks: Sticks::new(&context),
        title,
        base: (Instant::now(), run.player.session.m.cycles()),
    };
    let mut stdout = std::io::stdout();
    let mut inputs = Vec::new();
    w.screen.show(&mut w.canvas, &run.player.session.m)?;
    let outcome = loop {
        // Host events.
        let was_paused = w.ui.paused;
        let is_fs = w.canvas.window().fullscreen_state() != FullscreenType::Off;
        let size = w.canvas.window().size();
        for ev in pump.poll_iter() {
            if !w.sticks.event(&ev, size, w.ui.paused) {
                w.ui.event(ev, is_fs, &mut inputs);
            }
        }
        if w.ui.paused && w.ui.advance == 0 && !w.ui.quit && !w.ui.screenshot {
            if let Some(ev) = pump.wait_event_timeout(100) {
                if !w.sticks.event(&ev, size, w.ui.paused) {
                    w.ui.event(ev, is_fs, &mut inputs);
                }
            }
        }
        if w.sticks.mouse_stick && w.ui.captured {
            w.ui.capture_change = Some(false);
        }
        w.screen.stale |= std::mem::take(&mut w.ui.redraw);
        for i in inputs.drain(..) {
            run.player.input(i);
        }
        if w.ui.quit {
            // Closing the window after a divergence ends the run as one.
            break if w.ui.diverged {
                Outcome::Diverged
            } else {
                Outcome::Quit
            };
        }
        if let Some(c) = w.ui.capture_change.take() {
            mouse.set_relative_mouse_mode(c);
            w.ui.captured = c;
            log::info!("mouse {}", if c { "captured" } else { "released" });
        }
        w.host_requests(run, was_paused)?;
        if w.ui.paused && w.ui.advance == 0 {
            // Redraw (an expose or resize may have lost the picture).
            w.screen.present(&mut w.canvas)?;
            continue;
        }
        if let Some(o) = w.frame(run, &mut stdout)? {
            break o;
        }
    };
    if let Some(s) = &w.sound {
        eprintln!(
            "tandem run: sound: {:.1} s, {} underruns",
            s.seconds(),
            s.underruns()
        );
    }
    Ok(outcome)
}

impl Window<'_> {
    /// Carries out what the host asked for besides input: fullscreen, a
    /// screenshot, pausing and resuming.
    fn host_requests(&mut self, run: &Run, was_paused: bool) -> Result<(), Error> {
        if let Some(fs) = self.ui.fullscreen.take() {
            let t = if fs {
                FullscreenType::Desktop
            } else {
                FullscreenType::Off
            };
            self.canvas.window_mut().set_fullscreen(t).map_err(sdl)?;
        }
        if self.ui.screenshot {
            self.ui.screenshot = false;
            let p = PathBuf::from(format!("tandem-{:06}.png", run.player.session.frames));
            match screenshot::write_png(&p, &run.player.session.m.render()) {
                Ok(()) => eprintln!("tandem run: screenshot {}", p.display()),
                Err(e) => eprintln!("tandem run: error: {}: {e}", p.display()),
            }
        }
        if self.ui.paused == was_paused {
            return Ok(());
        }
        let title = if self.ui.paused {
            eprintln!("{}", paused_line(run));
            format!("{} (paused)", self.title)
        } else {
            self.base = (Instant::now(), run.player.session.m.cycles());
            self.title.clone()
        };
        self.canvas.window_mut().set_title(&title).map_err(sdl)?;
        if let Some(s) = self.sound.as_mut() {
            s.hold(self.ui.paused);
        }
        Ok(())
    }

    /// Runs one emulated frame, shows it, plays its sound and waits for the
    /// host clock; the outcome when the run ends.
    fn frame(
        &mut self,
        run: &mut Run,
        stdout: &mut std::io::Stdout,
    ) -> Result<Option<Outcome>, Error> {
        if let Some(i) = self.ui.mouse_input() {
            run.player.input(i);
        }
        let mut sticks = Vec::new();
        self.sticks.inputs(&mut sticks);
        for i in sticks {
            run.player.input(i);
        }
        let step = run.frame();
        run.player.flush_output(stdout);
        self.screen.show(&mut self.canvas, &run.player.session.m)?;
        if let Some(s) = self.sound.as_mut() {
            s.frame(&mut run.player.session.m, &run.sound);
        }
        match step {
            Some(Outcome::Diverged) if run.ui_on_divergence => {
                return Ok(Some(Outcome::Diverged));
            }
            Some(Outcome::Diverged) => {
                self.diverged(run)?;
                if let Some(s) = self.sound.as_mut() {
                    s.hold(true);
                }
                return Ok(None);
            }
            Some(o) => return Ok(Some(o)),
            None => self.check_title(run)?,
        }
        if self.ui.paused {
            self.ui.advance -= 1;
            eprintln!("{}", paused_line(run));
            return Ok(None);
        }
        self.pace(run);
        Ok(None)
    }

    /// The host waits for the emulated clock, nudged to follow the audio
    /// device's.
    fn pace(&mut self, run: &Run) {
        if let Some(s) = &self.sound {
            let nudge = s.pacing_nudge();
            let d = Duration::from_secs_f64(nudge.abs());
            self.base.0 = if nudge >= 0.0 {
                self.base.0 + d
            } else {
                self.base.0.checked_sub(d).unwrap_or(self.base.0)
            };
        }
        let cycles = run.player.session.m.cycles();
        let emulated = (cycles - self.base.1) as f64 / run.cpu_hz as f64;
        let host = self.base.0.elapsed().as_secs_f64();
        if emulated > host {
            std::thread::sleep(Duration::from_secs_f64(emulated - host));
        } else if host - emulated > MAX_LAG {
            log::debug!("{:.3} s behind real time: not catching up", host - emulated);
            self.base = (Instant::now(), cycles);
        }
    }

    /// `--check`'s status in the title, every 10 frame points checked.
    fn check_title(&mut self, run: &Run) -> Result<(), Error> {
        let Some(c) = &run.check else {
            return Ok(());
        };
        if c.frames() % 10 != 0 || c.frames() == 0 {
            return Ok(());
        }
        let title = format!("{} - check: {}", self.title, c.status());
        self.canvas.window_mut().set_title(&title).map_err(sdl)
    }

    /// At `--check`'s divergence: pauses for good, shows the report over
    /// the frame and says so in the title.
    fn diverged(&mut self, run: &Run) -> Result<(), Error> {
        self.ui.paused = true;
        self.ui.diverged = true;
        self.ui.advance = 0;
        let Some(c) = &run.check else {
            return Ok(());
        };
        let mut lines = c.report.as_ref().map(|r| r.lines()).unwrap_or_default();
        if let Some(d) = &run.bundle_written {
            lines.push(format!("bundle: {}", d.display()));
        }
        lines.push("paused at the divergence; close the window to quit".into());
        self.screen.set_overlay(&lines)?;
        self.screen.present(&mut self.canvas)?;
        eprintln!("tandem run: check: paused at the divergence (close the window to quit)");
        let title = format!("{} - check: {} (paused)", self.title, c.status());
        self.canvas.window_mut().set_title(&title).map_err(sdl)
    }
}

fn paused_line(run: &Run) -> String {
    format!(
        "tandem run: paused at frame {}, cycle {}",
        run.player.session.frames,
        run.player.session.m.cycles()
    )
}
