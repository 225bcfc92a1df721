//! The VGA's display geometry through `tandem run --screenshot` and
//! `--video`: roms/devices/crtcgeom.com reprograms the CRTC (display end,
//! blanking, overscan colour) and fills display memory with white, so
//! what is not white is border or blanking. Checks each frame's size,
//! that the columns and lines past the start of blanking are black (not a
//! repeat of the left edge), and with `--border` the overscan colour
//! around the picture.

mod common;

use std::path::Path;

use common::{headless, read_png, repo, s, temp_dir, text};

const WHITE: [u8; 3] = [255, 255, 255];
const BLACK: [u8; 3] = [0, 0, 0];
/// The default DAC's colours 1, 2 and 4 (6-bit 0 and 42 made 8-bit).
const BLUE: [u8; 3] = [0, 0, 170];
const GREEN: [u8; 3] = [0, 170, 0];
const RED: [u8; 3] = [170, 0, 0];

/// A screenshot: width, height and pixels.
struct Shot {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

impl Shot {
    fn at(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// The columns `xs` of line `y` are all `c`.
    fn row_is(&self, y: usize, xs: std::ops::Range<usize>, c: [u8; 3]) {
        for x in xs {
            assert_eq!(self.at(x, y), c, "({x}, {y})");
        }
    }
}

/// crtcgeom's tweak `which` after 10 frames, as `--screenshot` (with
/// `extra` options) saves it.
fn shot(which: &str, extra: &[&str]) -> Shot {
    let d = temp_dir(&format!("vgageom-{which}-{}", extra.len()));
    let png = d.join("shot.png");
    let prog = repo().join("roms/devices/crtcgeom.com");
    let mut args = vec!["--frames", "10", "--screenshot", s(&png)];
    args.extend_from_slice(extra);
    args.extend_from_slice(&[s(&prog), "--", which]);
    let o = headless(&args);
    assert_eq!(o.status.code(), Some(124), "{}", text(&o.stderr));
    let (width, height, rgb) = read_png(&png);
    Shot { width, height, rgb }
}

#[test]
fn columns_past_the_start_of_blanking_are_black() {
    // Display end 47h: 288 pixels; blanking from 3Fh: 252 shown.
    let a = shot("a", &[]);
    assert_eq!((a.width, a.height), (288, 200));
    for y in [0, 100, 199] {
        a.row_is(y, 0..252, WHITE);
        a.row_is(y, 252..288, BLACK);
    }
    // 256x240 with blanking from 3Ch: 240 shown.
    let b = shot("b", &[]);
    assert_eq!((b.width, b.height), (256, 240));
    for y in [0, 239] {
        b.row_is(y, 0..240, WHITE);
        b.row_is(y, 240..256, BLACK);
    }
}

#[test]
fn a_360x480_mode_is_shown_whole() {
    let c = shot("c", &[]);
    assert_eq!((c.width, c.height), (360, 480));
    c.row_is(0, 0..360, WHITE);
    c.row_is(479, 0..360, WHITE);
}

#[test]
fn lines_past_the_start_of_vertical_blanking_are_black() {
    let d = shot("d", &[]);
    assert_eq!((d.width, d.height), (320, 200));
    d.row_is(127, 0..320, WHITE);
    for y in [128, 199] {
        d.row_is(y, 0..320, BLACK);
    }
}

#[test]
fn the_border_shows_the_overscan_colour() {
    // Mode 13h's timing: 2 characters (8 pixels) of border before the
    // display, 4 lines above and 3 below; blanking on the right.
    let a = shot("a", &["--border"]);
    assert_eq!((a.width, a.height), (296, 207));
    a.row_is(0, 0..260, RED);
    a.row_is(100, 0..8, RED);
    a.row_is(100, 8..260, WHITE);
    a.row_is(100, 260..296, BLACK);
    a.row_is(206, 0..260, RED);
    // 360x480: 8 pixels left, 9 lines above, 7 below.
    let c = shot("c", &["--border"]);
    assert_eq!((c.width, c.height), (368, 496));
    c.row_is(0, 0..368, GREEN);
    c.row_is(9, 0..8, GREEN);
    c.row_is(9, 8..368, WHITE);
    c.row_is(495, 0..368, GREEN);
    // Vertical blanking inside the display leaves no border below.
    let d = shot("d", &["--border"]);
    assert_eq!((d.width, d.height), (328, 204));
    d.row_is(0, 0..328, BLUE);
    d.row_is(4, 0..8, BLUE);
    d.row_is(4, 8..328, WHITE);
    d.row_is(203, 0..328, BLACK);
}

/// The width and height an AVI's main header (avih) gives.
fn avi_size(p: &Path) -> (u32, u32) {
    let b = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let at = b
        .windows(4)
        .position(|w| w == b"avih")
        .expect("an avih chunk");
    let word = |o: usize| u32::from_le_bytes(b[at + 8 + o..at + 12 + o].try_into().expect("4"));
    (word(32), word(36))
}

#[test]
fn the_video_has_the_screenshots_frame() {
    let d = temp_dir("vgageom-video");
    let prog = repo().join("roms/devices/crtcgeom.com");
    for (border, size) in [(false, (288, 200)), (true, (296, 207))] {
        let avi = d.join(format!("{border}.avi"));
        let mut args = vec!["--frames", "10", "--video", s(&avi)];
        if border {
            args.push("--border");
        }
        args.extend_from_slice(&[s(&prog), "--", "a"]);
        let o = headless(&args);
        assert_eq!(o.status.code(), Some(124), "{}", text(&o.stderr));
        assert_eq!(avi_size(&avi), size, "border {border}");
    }
}
