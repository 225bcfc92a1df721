//! Files tandem writes (screenshots, records, WAVs, videos, traces,
//! pictures): each write's failure reaches the caller. A `BufWriter`
//! dropped with bytes in it flushes them and drops the error, so a file
//! on a full disk (or `/dev/full`) would be reported as written; here the
//! buffer is flushed explicitly and a regular file's data synced (where
//! a network file system reports a failed write), each error returned.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

/// Ends a buffered output file: flushes the buffer, then syncs a regular
/// file's data. Devices and pipes are not synced (they cannot be).
pub fn finish(w: BufWriter<File>) -> io::Result<()> {
    let f = w.into_inner().map_err(io::IntoInnerError::into_error)?;
    if f.metadata()?.is_file() {
        f.sync_data()?;
    }
    Ok(())
}

/// Writes an 8-bit RGB picture (`rgb`: 3 bytes a pixel, rows top down)
/// to `path` as PNG, every error returned.
pub fn write_png(
    path: &Path,
    width: u32,
    height: u32,
    rgb: &[u8],
) -> Result<(), png::EncodingError> {
    let mut out = BufWriter::new(File::create(path)?);
    let mut enc = png::Encoder::new(&mut out, width, height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header()?;
    w.write_image_data(rgb)?;
    w.finish()?;
    finish(out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_device_is_an_error_not_a_written_file() {
        let full = Path::new("/dev/full");
        if !full.exists() {
            return;
        }
        let e = write_png(full, 2, 1, &[0; 6]).expect_err("/dev/full holds nothing");
        assert!(e.to_string().contains("No space"), "{e}");
    }

    #[test]
    fn a_picture_is_written_whole() {
        let d = std::env::temp_dir().join(format!("tandem-output-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("a folder");
        let p = d.join("a.png");
        write_png(&p, 2, 1, &[1, 2, 3, 4, 5, 6]).expect("written");
        let dec = png::Decoder::new(File::open(&p).expect("open"));
        let mut r = dec.read_info().expect("a PNG");
        let mut buf = vec![0; r.output_buffer_size()];
        r.next_frame(&mut buf).expect("a frame");
        assert_eq!(&buf[..6], &[1, 2, 3, 4, 5, 6]);
        let _ = std::fs::remove_dir_all(&d);
    }
}
