//! Bar: a mode X page-flipping program renders the expected frames (PNGs
//! compared in the test, plus pixel checks derived from the program).

mod common;

use std::path::PathBuf;

use hw::vga::Frame;
use hw::{MachineConfig, RunExit};

fn png_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(format!("{name}.png"))
}

fn write_png(f: &Frame, path: &PathBuf) {
    let file = std::fs::File::create(path).expect("create png");
    let mut enc = png::Encoder::new(
        std::io::BufWriter::new(file),
        f.width as u32,
        f.height as u32,
    );
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().expect("png header");
    w.write_image_data(&f.rgb).expect("png data");
}

fn read_png(path: &PathBuf) -> Frame {
    let file = std::fs::File::open(path)
        .unwrap_or_else(|e| panic!("{}: {e} (TANDEM_BLESS=1 writes it)", path.display()));
    let dec = png::Decoder::new(std::io::BufReader::new(file));
    let mut r = dec.read_info().expect("png info");
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).expect("png frame");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    Frame {
        width: info.width as usize,
        height: info.height as usize,
        rgb: buf,
    }
}

/// Runs modex.com frame by frame; for each marker the program prints,
/// returns the frame shown at the retrace after it.
fn run_modex() -> (Vec<(char, Frame)>, String) {
    let mut m = common::machine_with(MachineConfig::default(), "modex");
    let mut frames = Vec::new();
    let mut seen = 0;
    for _ in 0..1000 {
        match m.run_frame(10_000_000) {
            RunExit::Frame => {
                let out = m.debug_output();
                if out.len() > seen {
                    let c = out[out.len() - 1] as char;
                    seen = out.len();
                    if "ABC".contains(c) {
                        frames.push((c, m.render()));
                    }
                }
            }
            RunExit::Halted => break,
            other => panic!("unexpected {other:?}"),
        }
    }
    let out = String::from_utf8_lossy(m.debug_output()).into_owned();
    (frames, out)
}

const BLUE: [u8; 3] = [0, 0, 170];
const YELLOW: [u8; 3] = [255, 255, 0];
const GREEN: [u8; 3] = [0, 255, 0];
const WHITE: [u8; 3] = [255, 255, 255];
const BLACK: [u8; 3] = [0, 0, 0];

/// The picture the program draws on page 1 (page 0 without `extra`).
fn expected(x: usize, y: usize, extra: bool) -> [u8; 3] {
    if extra && x == y && x < 240 {
        WHITE
    } else if extra && (160..280).contains(&x) && (120..200).contains(&y) {
        GREEN
    } else if (40..120).contains(&x) && (40..100).contains(&y) {
        YELLOW
    } else {
        BLUE
    }
}

#[test]
fn mode_x_page_flipping_frames() {
    let (frames, out) = run_modex();
    assert_eq!(out, "ABCrd=04\n");
    let names: String = frames.iter().map(|(c, _)| *c).collect();
    assert_eq!(names, "ABC");
    for (c, f) in &frames {
        assert_eq!((f.width, f.height), (320, 240), "frame {c}");
        for y in 0..240 {
            for x in 0..320 {
                let want = match c {
                    'A' => expected(x, y, false),
                    'B' => expected(x, y, true),
                    _ => {
                        if y + 10 < 240 {
                            expected(x, y + 10, true)
                        } else {
                            BLACK
                        }
                    }
                };
                assert_eq!(f.pixel(x, y), want, "frame {c} at ({x},{y})");
            }
        }
        let path = png_path(&format!("modex_{c}"));
        if std::env::var_os("TANDEM_BLESS").is_some() {
            write_png(f, &path);
        }
        let golden = read_png(&path);
        assert!(golden == *f, "frame {c} differs from {}", path.display());
    }
}

#[test]
fn mode_x_run_is_deterministic() {
    let run = || {
        let mut m = common::machine_with(MachineConfig::default(), "modex");
        m.run_to_halt(100_000_000).expect("halts");
        (m.cycles(), m.state_hash())
    };
    let a = run();
    assert_eq!(a, run());
}
