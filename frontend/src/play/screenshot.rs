//! PNG screenshots of a rendered frame.

use std::path::Path;

use hw::vga::render::Frame;

/// Writes `frame` as an 8-bit RGB PNG.
pub fn write_png(path: &Path, frame: &Frame) -> Result<(), String> {
    let f = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut enc = png::Encoder::new(
        std::io::BufWriter::new(f),
        frame.width as u32,
        frame.height as u32,
    );
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| e.to_string())?;
    w.write_image_data(&frame.rgb).map_err(|e| e.to_string())?;
    w.finish().map_err(|e| e.to_string())
}
