//! The SDL2 window: the machine's frames scaled to 4:3, real-time pacing,
//! the keyboard (scan code set 1) and mouse (INT 33h) as input, the PC
//! speaker through SDL audio, and the host keys (pause, frame advance,
//! screenshot, fullscreen, mouse release).
//!
//! The emulated clock decides what happens, the host clock only when: the
//! loop runs one emulated frame, shows it, then sleeps until the host has
//! caught up with the emulated time. Input that arrives from the host is
//! delivered between frames, stamped with the emulated cycle at which it
//! is delivered, so a record of it replays to the same state.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use hw::vga::render::Frame;
use hw::Machine;
use sdl2::event::{Event, WindowEvent};
use sdl2::keyboard::{Mod, Scancode};
use sdl2::mouse::MouseButton;
use sdl2::pixels::PixelFormatEnum;
use sdl2::render::{BlendMode, Texture, TextureCreator, WindowCanvas};
use sdl2::video::{FullscreenType, WindowContext};

use super::keymap;
use super::record::Input;
use super::screenshot;
use super::sound::sdl_queue::SdlSound;
use crate::run_cmd::{Outcome, Run};

/// The window's logical size: 4:3, into which every frame is scaled.
const LOGICAL: (u32, u32) = (640, 480);
/// The window's initial size.
const INITIAL: (u32, u32) = (960, 720);
/// Sound sample rate.
/// When the host falls this far behind the emulated clock, stop trying to
/// catch up (the emulation just runs slower than real time).
const MAX_LAG: f64 = 0.25;

/// What the host asked for, between frames.
#[derive(Default)]
struct Ui {
    quit: bool,
    paused: bool,
    /// Frames to run while paused.
    advance: u32,
    screenshot: bool,
    fullscreen: Option<bool>,
    /// Keys the guest holds down (as the host reported them).
    guest_down: BTreeSet<i32>,
    /// Mouse captured (relative mode).
    captured: bool,
    /// `--check` found a divergence: the emulation stays paused.
    diverged: bool,
    /// The host lost the picture (expose, resize): present it again.
    redraw: bool,
    capture_change: Option<bool>,
    mouse: (i32, i32),
    buttons: u16,
    buttons_sent: u16,
}

impl Ui {
    /// Handles one host event; input for the guest goes to `inputs`.
    fn event(&mut self, ev: Event, is_fullscreen: bool, inputs: &mut Vec<Input>) {
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
    fn mouse_input(&mut self) -> Option<Input> {
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

/// The frame on screen.
///
/// Presenting is what a window costs (under a software OpenGL it is most
/// of the process's time), so a frame equal to the one on screen is
/// neither uploaded nor presented again; the picture is redrawn only when
/// the host asks (an expose or resize) or the frame changes.
struct Screen<'a> {
    creator: &'a TextureCreator<WindowContext>,
    /// One streaming texture of the mode's size, in the 32-bit format the
    /// renderers take without converting (XRGB8888).
    texture: Option<(Texture<'a>, usize, usize)>,
    /// The frame on screen.
    shown: Frame,
    /// The machine's latest frame, rendered into a reused buffer.
    next: Frame,
    /// The picture must be presented again (the host lost it).
    stale: bool,
    /// Text drawn over the frame (`--check`'s report), at the logical size.
    overlay: Option<Texture<'a>>,
}

impl<'a> Screen<'a> {
    fn new(creator: &'a TextureCreator<WindowContext>) -> Self {
        Screen {
            creator,
            texture: None,
            shown: Frame::default(),
            next: Frame::default(),
            stale: true,
            overlay: None,
        }
    }

    /// Draws `lines` over the frame from now on (at 8x8 pixels a
    /// character, on an opaque band of [`OVERLAY_BG`]).
    fn set_overlay(&mut self, lines: &[String]) -> Result<(), String> {
        let (w, h) = (LOGICAL.0 as usize, LOGICAL.1 as usize);
        let mut t = self
            .creator
            .create_texture_streaming(PixelFormatEnum::ARGB8888, w as u32, h as u32)
            .map_err(|e| e.to_string())?;
        t.set_blend_mode(BlendMode::Blend);
        t.with_lock(None, |pixels, pitch| {
            overlay_pixels(lines, pixels, pitch, w, h)
        })?;
        self.overlay = Some(t);
        self.stale = true;
        Ok(())
    }

    /// Shows the machine's display unless it is on screen already.
    fn show(&mut self, canvas: &mut WindowCanvas, m: &Machine) -> Result<(), String> {
        m.render_into(&mut self.next);
        let frame = &self.next;
        let (w, h) = (frame.width, frame.height);
        if w == 0 || h == 0 {
            return Ok(());
        }
        if !self.stale && self.texture.is_some() && *frame == self.shown {
            return Ok(());
        }
        if !matches!(&self.texture, Some((_, tw, th)) if *tw == w && *th == h) {
            let mut t = self
                .creator
                .create_texture_streaming(PixelFormatEnum::RGB888, w as u32, h as u32)
                .map_err(|e| e.to_string())?;
            t.set_blend_mode(BlendMode::None);
            self.texture = Some((t, w, h));
        }
        if let Some((t, _, _)) = self.texture.as_mut() {
            t.with_lock(None, |pixels, pitch| to_xrgb(frame, pixels, pitch))?;
        }
        std::mem::swap(&mut self.shown, &mut self.next);
        self.present(canvas)
    }

    /// Presents the texture again (after an expose, or while paused).
    fn present(&mut self, canvas: &mut WindowCanvas) -> Result<(), String> {
        canvas.set_draw_color(sdl2::pixels::Color::RGB(0, 0, 0));
        canvas.clear();
        if let Some((t, _, _)) = &self.texture {
            canvas.copy(t, None, None)?;
        }
        if let Some(t) = &self.overlay {
            canvas.copy(t, None, None)?;
        }
        canvas.present();
        self.stale = false;
        Ok(())
    }
}

/// The colour of the band behind the overlay's text (ARGB): a dark
/// violet that the tests look for.
pub const OVERLAY_BG: [u8; 3] = [0x30, 0x00, 0x50];

/// Draws `lines` (one 8x8 character cell each, cut at the width) on an
/// opaque band at the top of a transparent ARGB8888 picture `w` x `h`.
fn overlay_pixels(lines: &[String], pixels: &mut [u8], pitch: usize, w: usize, h: usize) {
    let font = hw::vga::font::FONT_8X8;
    let cols = (w - 8) / 8;
    let lines = wrap(lines, cols);
    let rows = (lines.len() * LINE + 8).min(h);
    for y in 0..h {
        let row = &mut pixels[y * pitch..][..w * 4];
        for px in row.chunks_exact_mut(4) {
            let [r, g, b] = OVERLAY_BG;
            let a = if y < rows { 0xFF } else { 0 };
            px.copy_from_slice(&[b, g, r, a]);
        }
    }
    for (i, line) in lines.iter().enumerate() {
        let y0 = 4 + i * LINE;
        for (j, ch) in line.bytes().take(cols).enumerate() {
            let glyph = &font[ch as usize * 8..][..8];
            for (dy, bits) in glyph.iter().enumerate() {
                for dx in 0..8 {
                    if bits & (0x80 >> dx) != 0 && y0 + dy < h {
                        let at = (y0 + dy) * pitch + (4 + j * 8 + dx) * 4;
                        pixels[at..at + 4].copy_from_slice(&[0x40, 0xFF, 0xFF, 0xFF]);
                    }
                }
            }
        }
    }
}

/// Pixel rows from one overlay line to the next.
const LINE: usize = 10;

/// `lines` cut into pieces of at most `cols` characters, the pieces after
/// the first indented by 6.
fn wrap(lines: &[String], cols: usize) -> Vec<String> {
    let mut out = Vec::new();
    for l in lines {
        let chars: Vec<char> = l.chars().collect();
        out.push(chars.iter().take(cols).collect::<String>());
        let rest = &chars[cols.min(chars.len())..];
        for piece in rest.chunks(cols.saturating_sub(6).max(1)) {
            out.push(format!("      {}", piece.iter().collect::<String>()));
        }
    }
    out
}

/// Writes `frame`'s pixels as XRGB8888 (B, G, R, X in memory) into a
/// locked texture of the same size with rows `pitch` bytes apart.
fn to_xrgb(frame: &Frame, pixels: &mut [u8], pitch: usize) {
    let row = frame.width * 3;
    for (src, dst) in frame.rgb.chunks_exact(row).zip(pixels.chunks_mut(pitch)) {
        for (s, d) in src.chunks_exact(3).zip(dst.chunks_exact_mut(4)) {
            d.copy_from_slice(&[s[2], s[1], s[0], 0xFF]);
        }
    }
}

/// Opens the window and its renderer, scaled to the 4:3 logical size.
fn open_canvas(
    video: &sdl2::VideoSubsystem,
    title: &str,
    fullscreen: bool,
) -> Result<WindowCanvas, String> {
    if video.current_video_driver() == "x11" {
        // SDL's software renderer into an XShm image: scaling a 320x200
        // frame by nearest neighbour costs about 4% of a core at 70 Hz,
        // a fifth of what OpenGL through a software rasterizer (Mesa's
        // llvmpipe, e.g. under Xvfb or without a GPU driver) costs; see
        // docs/speed.md, "Window". SDL's environment variables of the
        // same names still choose otherwise.
        sdl2::hint::set("SDL_RENDER_DRIVER", "software");
        sdl2::hint::set("SDL_FRAMEBUFFER_ACCELERATION", "0");
    }
    let mut builder = video.window(title, INITIAL.0, INITIAL.1);
    builder.position_centered().resizable();
    if fullscreen {
        builder.fullscreen_desktop();
    }
    let window = builder.build().map_err(|e| e.to_string())?;
    let mut canvas = window.into_canvas().build().map_err(|e| e.to_string())?;
    canvas
        .set_logical_size(LOGICAL.0, LOGICAL.1)
        .map_err(|e| e.to_string())?;
    log::info!(
        "window: video driver {}, renderer {}",
        video.current_video_driver(),
        canvas.info().name
    );
    Ok(canvas)
}

/// Runs the session in a window until the program ends, a limit, or the
/// user closes the window.
pub fn run(run: &mut Run, fullscreen: bool, mute: bool) -> Result<Outcome, String> {
    sdl2::hint::set("SDL_RENDER_SCALE_QUALITY", "nearest");
    let sdl = sdl2::init()?;
    let video = sdl.video()?;
    let title = format!("tandem: {}", run.name);
    let mut canvas = open_canvas(&video, &title, fullscreen)?;
    let creator = canvas.texture_creator();
    let mut screen = Screen::new(&creator);
    let mut sound = if mute {
        None
    } else {
        SdlSound::open(&sdl, &mut run.player.session.m)
    };
    let mut pump = sdl.event_pump()?;
    let mouse = sdl.mouse();
    let mut ui = Ui::default();
    let mut stdout = std::io::stdout();
    let mut base = (Instant::now(), run.player.session.m.cycles());
    let mut inputs = Vec::new();
    screen.show(&mut canvas, &run.player.session.m)?;
    let outcome = loop {
        // Host events.
        let was_paused = ui.paused;
        let is_fs = canvas.window().fullscreen_state() != FullscreenType::Off;
        for ev in pump.poll_iter() {
            ui.event(ev, is_fs, &mut inputs);
        }
        if ui.paused && ui.advance == 0 && !ui.quit && !ui.screenshot {
            if let Some(ev) = pump.wait_event_timeout(100) {
                ui.event(ev, is_fs, &mut inputs);
            }
        }
        screen.stale |= std::mem::take(&mut ui.redraw);
        for i in inputs.drain(..) {
            run.player.input(i);
        }
        if ui.quit {
            // Closing the window after a divergence ends the run as one.
            break if ui.diverged {
                Outcome::Diverged
            } else {
                Outcome::Quit
            };
        }
        if let Some(fs) = ui.fullscreen.take() {
            let t = if fs {
                FullscreenType::Desktop
            } else {
                FullscreenType::Off
            };
            canvas.window_mut().set_fullscreen(t)?;
        }
        if let Some(c) = ui.capture_change.take() {
            mouse.set_relative_mouse_mode(c);
            ui.captured = c;
            log::info!("mouse {}", if c { "captured" } else { "released" });
        }
        if ui.screenshot {
            ui.screenshot = false;
            let p = PathBuf::from(format!("tandem-{:06}.png", run.player.session.frames));
            match screenshot::write_png(&p, &run.player.session.m.render()) {
                Ok(()) => eprintln!("tandem run: screenshot {}", p.display()),
                Err(e) => eprintln!("tandem run: error: {}: {e}", p.display()),
            }
        }
        if ui.paused != was_paused {
            if ui.paused {
                eprintln!("{}", paused_line(run));
                canvas
                    .window_mut()
                    .set_title(&format!("{title} (paused)"))
                    .map_err(|e| e.to_string())?;
                if let Some(s) = sound.as_mut() {
                    s.hold(true);
                }
            } else {
                canvas
                    .window_mut()
                    .set_title(&title)
                    .map_err(|e| e.to_string())?;
                if let Some(s) = sound.as_mut() {
                    s.hold(false);
                }
                base = (Instant::now(), run.player.session.m.cycles());
            }
        }
        if ui.paused && ui.advance == 0 {
            // Redraw (an expose or resize may have lost the picture).
            screen.present(&mut canvas)?;
            continue;
        }
        // One emulated frame.
        if let Some(i) = ui.mouse_input() {
            run.player.input(i);
        }
        let step = run.run_frame();
        run.player.flush_output(&mut stdout);
        screen.show(&mut canvas, &run.player.session.m)?;
        if let Some(s) = sound.as_mut() {
            s.frame(&mut run.player.session.m);
        }
        match Outcome::of(step, run) {
            Some(Outcome::Diverged) => {
                diverged(run, &mut ui, &mut screen, &mut canvas, &title)?;
                if let Some(s) = sound.as_mut() {
                    s.hold(true);
                }
                continue;
            }
            Some(o) => break o,
            None => check_title(run, &mut canvas, &title)?,
        }
        if ui.paused {
            ui.advance -= 1;
            eprintln!("{}", paused_line(run));
            continue;
        }
        // Pacing: the host waits for the emulated clock, nudged to follow
        // the audio device's.
        if let Some(s) = &sound {
            let nudge = s.pacing_nudge();
            let d = Duration::from_secs_f64(nudge.abs());
            base.0 = if nudge >= 0.0 {
                base.0 + d
            } else {
                base.0.checked_sub(d).unwrap_or(base.0)
            };
        }
        let emulated = (run.player.session.m.cycles() - base.1) as f64 / run.cpu_hz as f64;
        let host = base.0.elapsed().as_secs_f64();
        if emulated > host {
            std::thread::sleep(Duration::from_secs_f64(emulated - host));
        } else if host - emulated > MAX_LAG {
            log::debug!("{:.3} s behind real time: not catching up", host - emulated);
            base = (Instant::now(), run.player.session.m.cycles());
        }
    };
    if let Some(s) = &sound {
        eprintln!(
            "tandem run: sound: {:.1} s, {} underruns",
            s.seconds(),
            s.underruns()
        );
    }
    Ok(outcome)
}

/// `--check`'s status in the title, every 10 frame points checked.
fn check_title(run: &Run, canvas: &mut WindowCanvas, title: &str) -> Result<(), String> {
    let Some(c) = &run.check else {
        return Ok(());
    };
    if c.frames() % 10 != 0 || c.frames() == 0 {
        return Ok(());
    }
    canvas
        .window_mut()
        .set_title(&format!("{title} - check: {}", c.status()))
        .map_err(|e| e.to_string())
}

/// At `--check`'s divergence: pauses for good, shows the report over the
/// frame and says so in the title.
fn diverged(
    run: &Run,
    ui: &mut Ui,
    screen: &mut Screen,
    canvas: &mut WindowCanvas,
    title: &str,
) -> Result<(), String> {
    ui.paused = true;
    ui.diverged = true;
    ui.advance = 0;
    let Some(c) = &run.check else {
        return Ok(());
    };
    let mut lines = c.report.as_ref().map(|r| r.lines()).unwrap_or_default();
    if let Some(d) = &c.bundle_written {
        lines.push(format!("bundle: {}", d.display()));
    }
    lines.push("paused at the divergence; close the window to quit".into());
    screen.set_overlay(&lines)?;
    screen.present(canvas)?;
    eprintln!("tandem run: check: paused at the divergence (close the window to quit)");
    canvas
        .window_mut()
        .set_title(&format!("{title} - check: {} (paused)", c.status()))
        .map_err(|e| e.to_string())
}

fn paused_line(run: &Run) -> String {
    format!(
        "tandem run: paused at frame {}, cycle {}",
        run.player.session.frames,
        run.player.session.m.cycles()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each RGB pixel lands as B, G, R, X at its row's pitch; the padding
    /// at the end of a row is left alone.
    #[test]
    fn xrgb_rows_follow_the_pitch() {
        let frame = Frame {
            width: 2,
            height: 2,
            rgb: vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
        };
        let mut pixels = vec![0xEE; 2 * 12];
        to_xrgb(&frame, &mut pixels, 12);
        assert_eq!(&pixels[0..8], &[3, 2, 1, 0xFF, 6, 5, 4, 0xFF]);
        assert_eq!(&pixels[8..12], &[0xEE; 4]);
        assert_eq!(&pixels[12..20], &[9, 8, 7, 0xFF, 12, 11, 10, 0xFF]);
    }
}
