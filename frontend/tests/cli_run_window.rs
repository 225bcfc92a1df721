//! The real window under Xvfb: `tandem run` (the built-in replica) in an
//! SDL2 window on a virtual X display this test starts, keys injected with
//! xdotool (the replica's P twice, an E0 key, tandem's Pause, frame advance
//! and F12), the window's pixels read back with xwd, and compared with the
//! headless frames of the same emulated moments (replaying the window's
//! record). Then Esc quits the replica, and the headless replay of the
//! record reaches the window's final state hash.
//!
//! Needs Xvfb, xdotool and xwd (`apt-get install xvfb xdotool x11-apps`;
//! `.ci/run` installs them); it fails, saying so, when they are missing.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

mod common;
use common::{dos_rom, headless, s, state_hash, temp_dir, text};

/// An Xvfb server, killed when dropped. One at a time: the tests of this
/// file would otherwise pick the same free display number at once.
struct Xvfb {
    child: Child,
    display: String,
    _one_at_a_time: std::sync::MutexGuard<'static, ()>,
}

static XVFB: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn need(tool: &str, package: &str) {
    let found = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
        .unwrap_or(false);
    assert!(
        found,
        "{tool} is not installed: apt-get install {package} (.ci/run installs it)"
    );
}

fn start_xvfb() -> Xvfb {
    let one_at_a_time = XVFB.lock().unwrap_or_else(|p| p.into_inner());
    need("Xvfb", "xvfb");
    need("xdotool", "xdotool");
    need("xwd", "x11-apps");
    // A display number nobody uses.
    let mut n = 90 + std::process::id() % 100;
    while Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
        || Path::new(&format!("/tmp/.X{n}-lock")).exists()
    {
        n += 1;
    }
    let display = format!(":{n}");
    let child = Command::new("Xvfb")
        .args([&display, "-screen", "0", "1280x1024x24", "-nolisten", "tcp"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start Xvfb");
    let x = Xvfb {
        child,
        display,
        _one_at_a_time: one_at_a_time,
    };
    let sock = format!("/tmp/.X11-unix/X{n}");
    let t = Instant::now();
    while !Path::new(&sock).exists() {
        assert!(t.elapsed() < Duration::from_secs(20), "Xvfb did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    x
}

fn xdotool(x: &Xvfb, args: &[&str]) -> String {
    let o = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", &x.display)
        .output()
        .expect("xdotool");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Waits for a stderr line containing `what`; returns it.
fn wait_line(rx: &Receiver<String>, what: &str, seen: &mut Vec<String>) -> String {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(l) => {
                seen.push(l.clone());
                if l.contains(what) {
                    return l;
                }
            }
            Err(e) => panic!("no line with {what:?} ({e}); stderr so far: {seen:#?}"),
        }
    }
}

/// The number after `key` in `line`.
fn number_after(line: &str, key: &str) -> u64 {
    line.split(key)
        .nth(1)
        .and_then(|r| r.trim_start().split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after {key:?} in {line:?}"))
}

/// An image: width, height, RGB bytes.
struct Image {
    w: usize,
    h: usize,
    rgb: Vec<u8>,
}

impl Image {
    fn at(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.w + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

/// The window's pixels, through xwd (the X server's own content).
fn xwd(x: &Xvfb, window: &str) -> Image {
    let o = Command::new("xwd")
        .args(["-silent", "-id", window])
        .env("DISPLAY", &x.display)
        .output()
        .expect("xwd");
    assert!(o.status.success(), "xwd: {o:?}");
    parse_xwd(&o.stdout)
}

/// A ZPixmap XWD file of 24/32 bits per pixel.
fn parse_xwd(d: &[u8]) -> Image {
    let f = |i: usize| u32::from_be_bytes(d[i * 4..i * 4 + 4].try_into().expect("4 bytes"));
    let header_size = f(0) as usize;
    assert_eq!(f(1), 7, "XWD version");
    assert_eq!(f(2), 2, "ZPixmap");
    let (w, h) = (f(4) as usize, f(5) as usize);
    let lsb = f(7) == 0;
    let bpp = f(11) as usize;
    let bpl = f(12) as usize;
    let masks = [f(14), f(15), f(16)];
    let ncolors = f(19) as usize;
    assert!(bpp == 32 || bpp == 24, "{bpp} bits per pixel");
    let data = &d[header_size + ncolors * 12..];
    let mut rgb = Vec::with_capacity(w * h * 3);
    for y in 0..h {
        for x in 0..w {
            let p = &data[y * bpl + x * bpp / 8..][..bpp / 8];
            let mut v = 0u32;
            for (i, &b) in p.iter().enumerate() {
                v |= if lsb {
                    (b as u32) << (8 * i)
                } else {
                    (b as u32) << (8 * (bpp / 8 - 1 - i))
                };
            }
            for m in masks {
                rgb.push(((v & m) >> m.trailing_zeros()) as u8);
            }
        }
    }
    Image { w, h, rgb }
}

fn read_png(p: &Path) -> Image {
    let (w, h, rgb) = common::read_png(p);
    Image { w, h, rgb }
}

/// The window pixel at the centre of frame pixel (`fx`, `fy`)'s area, the
/// frame being `frame_w` x `frame_h` scaled to the whole window.
fn centre(win: &Image, frame_w: usize, frame_h: usize, fx: usize, fy: usize) -> (usize, usize) {
    (
        (2 * fx + 1) * win.w / (2 * frame_w),
        (2 * fy + 1) * win.h / (2 * frame_h),
    )
}

/// Checks that the window shows `frame` scaled to its whole area (the
/// window is 4:3, as the scaling): the window pixel at the centre of every
/// frame pixel's area has the frame pixel's colour. Returns the count of
/// pixels that differ.
fn window_mismatches(win: &Image, frame: &Image) -> usize {
    let mut bad = 0;
    for fy in 0..frame.h {
        for fx in 0..frame.w {
            let (wx, wy) = centre(win, frame.w, frame.h, fx, fy);
            if win.at(wx, wy) != frame.at(fx, fy) {
                bad += 1;
            }
        }
    }
    bad
}

/// `tandem run --state-hash --record REC` (the replica) in a window on
/// `x`, in `dir`; the child and its stderr lines.
fn start_window_run(x: &Xvfb, dir: &Path, rec: &Path) -> (Child, Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(["run", "--state-hash", "--record"])
        .arg(rec)
        .current_dir(dir)
        .env("DISPLAY", &x.display)
        .env("SDL_AUDIODRIVER", "dummy")
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn tandem");
    let (tx, rx) = channel();
    let stderr = child.stderr.take().expect("stderr");
    std::thread::spawn(move || {
        for l in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

/// The id of tandem's window on `x`, once it is there.
fn find_window(x: &Xvfb) -> String {
    let t = Instant::now();
    loop {
        let out = xdotool(x, &["search", "--name", "^tandem: "]);
        if let Some(id) = out.lines().next() {
            return id.to_string();
        }
        assert!(t.elapsed() < Duration::from_secs(30), "no window");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits (at most 60 s) for `child` to end by itself.
fn wait_exit(child: &mut Child, seen: &[String]) -> ExitStatus {
    let t = Instant::now();
    loop {
        if let Some(s) = child.try_wait().expect("wait") {
            return s;
        }
        if t.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("tandem did not quit on Esc; stderr: {seen:#?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The window run's record holds the keys with their scan codes: P twice,
/// Right with its E0h, Esc.
fn check_record(rec: &Path) {
    let r = std::fs::read_to_string(rec).expect("record");
    let keys: Vec<&str> = r.lines().filter(|l| l.contains("\"key\"")).collect();
    assert!(
        keys.iter()
            .any(|l| l.contains(r#""code":77,"ext":true,"down":true"#)),
        "{r}"
    );
    assert_eq!(
        keys.iter()
            .filter(|l| l.contains(r#""code":25,"ext":false,"down":true"#))
            .count(),
        2,
        "{r}"
    );
    assert!(keys.iter().any(|l| l.contains(r#""code":1,"#)), "{r}");
}

/// The headless frame `frame` of the record's replay.
fn headless_shot(dir: &Path, rec: &Path, frame: u64) -> Image {
    let p = dir.join(format!("headless-{frame}.png"));
    let o = headless(&[
        "--replay",
        s(rec),
        "--frames",
        &frame.to_string(),
        "--screenshot",
        s(&p),
    ]);
    assert_eq!(o.status.code(), Some(124), "{o:?}");
    read_png(&p)
}

/// Pixels of two window shots that differ where the replica's fountain
/// moves (its bars, frame x 100-219) and elsewhere (right of the fountain,
/// and the top rows); `frame` gives the mode's size.
fn fountain_changes(a: &Image, b: &Image, frame: &Image) -> (usize, usize) {
    let mut fountain = 0;
    let mut elsewhere = 0;
    for fy in 0..frame.h {
        for fx in 0..frame.w {
            let (wx, wy) = centre(a, frame.w, frame.h, fx, fy);
            if a.at(wx, wy) != b.at(wx, wy) {
                if (100..220).contains(&fx) {
                    fountain += 1;
                } else if fx >= 220 || fy < 40 {
                    elsewhere += 1;
                }
            }
        }
    }
    (fountain, elsewhere)
}

#[test]
fn the_window_shows_the_headless_frames_and_its_record_replays() {
    let x = start_xvfb();
    let dir = temp_dir("window");
    let rec = dir.join("rec.jsonl");
    let (mut child, rx) = start_window_run(&x, &dir, &rec);
    let mut seen = Vec::new();
    wait_line(&rx, "window: video driver", &mut seen);
    let window = find_window(&x);
    let key = |k: &str| {
        xdotool(&x, &["key", "--window", &window, k]);
    };
    // Keys for the replica: P (pause its clock), Right (an E0 key it
    // ignores), P again.
    std::thread::sleep(Duration::from_millis(700));
    key("p");
    std::thread::sleep(Duration::from_millis(300));
    key("Right");
    std::thread::sleep(Duration::from_millis(300));
    key("p");
    std::thread::sleep(Duration::from_millis(300));
    // Pause the emulation and read the window back.
    key("Pause");
    let line = wait_line(&rx, "paused at frame", &mut seen);
    let n = number_after(&line, "paused at frame");
    std::thread::sleep(Duration::from_millis(300));
    let win_a = xwd(&x, &window);
    assert_eq!(win_a.w * 3, win_a.h * 4, "the window is not 4:3");
    // One emulated second later (70 frames of mode 13h, frame by frame).
    xdotool(
        &x,
        &[
            "key", "--window", &window, "--delay", "20", "--repeat", "70", "period",
        ],
    );
    wait_line(&rx, &format!("paused at frame {}", n + 70), &mut seen);
    std::thread::sleep(Duration::from_millis(300));
    let win_b = xwd(&x, &window);
    key("F12");
    wait_line(&rx, "screenshot tandem-", &mut seen);
    // Resume, and Esc quits the replica (exit status 0).
    key("Pause");
    std::thread::sleep(Duration::from_millis(500));
    key("Escape");
    let status = wait_exit(&mut child, &seen);
    seen.extend(rx.try_iter());
    let err = seen.join("\n");
    assert_eq!(status.code(), Some(0), "{err}");
    let window_hash = state_hash(&err);

    check_record(&rec);
    // The headless frames of the same moments, replaying the record.
    let head_a = headless_shot(&dir, &rec, n);
    let head_b = headless_shot(&dir, &rec, n + 70);
    assert_eq!(window_mismatches(&win_a, &head_a), 0, "frame {n}");
    assert_eq!(window_mismatches(&win_b, &head_b), 0, "frame {}", n + 70);
    // F12's screenshot is the headless frame itself.
    let f12 = read_png(&dir.join(format!("tandem-{:06}.png", n + 70)));
    assert_eq!((f12.w, f12.h), (head_b.w, head_b.h));
    assert!(f12.rgb == head_b.rgb, "F12's screenshot differs");
    // The two window shots one emulated second apart differ where the
    // fountain moves and agree elsewhere.
    let (fountain, elsewhere) = fountain_changes(&win_a, &win_b, &head_a);
    assert!(fountain > 0, "the fountain did not move");
    assert_eq!(elsewhere, 0);
    // The whole recorded run replays to the window's final state.
    let o = headless(&["--replay", s(&rec), "--state-hash"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(state_hash(&text(&o.stderr)), window_hash);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scripted_presses_reach_the_program_in_the_window() {
    // roms/dos/int9key.com exits with the first byte its own INT 9 handler
    // reads: --press goes through the window's loop as through the
    // headless one.
    let x = start_xvfb();
    let prog = dos_rom("int9key.com");
    let o = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(["run", "--seconds", "5", "--mute", "--press", "0.5:f10"])
        .arg(&prog)
        .env("DISPLAY", &x.display)
        .env("SDL_AUDIODRIVER", "dummy")
        .stdin(Stdio::null())
        .output()
        .expect("tandem runs");
    assert_eq!(o.status.code(), Some(0x44), "{o:?}");
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("headless"),
        "{o:?}"
    );
}

/// The band behind `--check`'s report in the window (play::window's
/// OVERLAY_BG).
const OVERLAY_BG: [u8; 3] = [0x30, 0x00, 0x50];

#[test]
fn check_pauses_the_window_at_a_mutant_s_divergence_and_its_bundle_replays() {
    let x = start_xvfb();
    let dir = temp_dir("window-check");
    // The replica with band 2's amplitude (136) made 120.
    let mut exe = std::fs::read(common::replica()).expect("replica.exe");
    exe[0x20 + 0xDB6A + 2] = 120;
    let amp = dir.join("amp.exe");
    std::fs::write(&amp, exe).expect("write mutant");
    let bundle = dir.join("bundle");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(["run", "--mute", "--check", "--profile", "replica"])
        .args(["--checkpoint-every", "20", "--bundle-out"])
        .args([&bundle, &amp])
        .current_dir(&dir)
        .env("DISPLAY", &x.display)
        .env("SDL_AUDIODRIVER", "dummy")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn tandem");
    let (tx, rx) = channel();
    let stderr = child.stderr.take().expect("stderr");
    std::thread::spawn(move || {
        for l in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    wait_line(&rx, "paused at the divergence", &mut seen);
    let report: Vec<String> = seen
        .iter()
        .filter_map(|l| l.strip_prefix("tandem run: check: "))
        .take_while(|l| !l.starts_with("reproduction bundle"))
        .map(str::to_string)
        .collect();
    assert!(
        report.first().is_some_and(|l| l.ends_with("slot 11")),
        "{seen:#?}"
    );
    // Paused: the window says so, shows the report over the frame, and
    // the program stays where it is.
    let window = find_window(&x);
    let title = xdotool(&x, &["getwindowname", &window]);
    assert!(
        title.contains(", 1 divergence") && title.trim_end().ends_with("(paused)"),
        "{title}"
    );
    std::thread::sleep(Duration::from_millis(300));
    let a = xwd(&x, &window);
    let band = (0..a.h)
        .flat_map(|y| (0..a.w).map(move |x| (x, y)))
        .filter(|&(x, y)| a.at(x, y) == OVERLAY_BG)
        .count();
    assert!(band > a.w * a.h / 10, "{band} pixels of the report's band");
    std::thread::sleep(Duration::from_millis(700));
    assert!(
        xwd(&x, &window).rgb == a.rgb,
        "the window changed while paused"
    );
    assert!(child.try_wait().expect("wait").is_none(), "{seen:#?}");
    // Closing the window (SDL turns SIGTERM into a quit) ends the run
    // with status 1.
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let status = wait_exit(&mut child, &seen);
    assert_eq!(status.code(), Some(1), "{seen:#?}");

    // The bundle replays headless to the same report.
    let o = common::tandem(&["compare", "--bundle", s(&bundle)]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let out = text(&o.stdout);
    let replayed: Vec<&str> = out.lines().take_while(|l| *l != "1 divergence").collect();
    assert_eq!(replayed, report);
    let _ = std::fs::remove_dir_all(&dir);
}
