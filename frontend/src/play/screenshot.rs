//! PNG screenshots of a rendered frame.

use std::path::Path;

use hw::vga::render::Frame;

/// Why a screenshot could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ScreenshotError {
    /// The file could not be created or written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The PNG encoder failed.
    #[error("{0}")]
    Png(#[from] png::EncodingError),
}

/// Writes `frame` as an 8-bit RGB PNG.
pub fn write_png(path: &Path, frame: &Frame) -> Result<(), ScreenshotError> {
    let f = std::fs::File::create(path)?;
    let mut enc = png::Encoder::new(
        std::io::BufWriter::new(f),
        frame.width as u32,
        frame.height as u32,
    );
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header()?;
    w.write_image_data(&frame.rgb)?;
    w.finish()?;
    Ok(())
}
