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
    let (w, h) = (frame.width as u32, frame.height as u32);
    crate::app::output::write_png(path, w, h, &frame.rgb)?;
    Ok(())
}
