//! The pictures the window shows: the screen as the VGA renders it, each
//! plane of video memory, and what one pixel of the screen is made of.

use hw::vga::Vga;
use serde_json::{json, Value};

/// A plane picture's most rows (a plane is 64 KiB).
const MAX_PLANE_ROWS: usize = 1024;

/// An image as PNG bytes (8-bit RGB).
pub fn png(width: usize, height: usize, rgb: &[u8]) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width.max(1) as u32, height.max(1) as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let mut w = enc.write_header()?;
        if width == 0 || height == 0 {
            w.write_image_data(&[0, 0, 0])?;
        } else {
            w.write_image_data(rgb)?;
        }
        w.finish()?;
    }
    Ok(out)
}

/// The screen at its own resolution.
pub fn screen(vga: &Vga) -> Result<Vec<u8>, png::EncodingError> {
    let f = vga.render();
    png(f.width, f.height, &f.rgb)
}

/// Plane `n` (0-3) of video memory as a picture, a row per scan row of
/// the CRTC's offset (CR13): in 256-colour modes each byte in its DAC
/// colour, in 16-colour modes each bit a pixel in the plane's colour
/// (blue, green, red, intensity), in text modes each byte as a grey.
pub fn plane(vga: &Vga, n: usize) -> Result<Vec<u8>, png::EncodingError> {
    let data = &vga.planes[n * hw::vga::PLANE_SIZE..(n + 1) * hw::vga::PLANE_SIZE];
    let row_bytes = ((2 * vga.crtc.offset()) as usize).clamp(16, 1024);
    let rows = (data.len() / row_bytes).min(MAX_PLANE_ROWS);
    let graphics = vga.gc.graphics();
    let bits = graphics && !vga.gc.shift256();
    let width = if bits { row_bytes * 8 } else { row_bytes };
    let mut rgb = Vec::with_capacity(width * rows * 3);
    let tint: [u8; 3] = match n {
        0 => [80, 140, 255],
        1 => [80, 255, 120],
        2 => [255, 90, 80],
        _ => [255, 255, 255],
    };
    for b in &data[..rows * row_bytes] {
        if bits {
            for i in (0..8).rev() {
                let on = b >> i & 1 != 0;
                rgb.extend_from_slice(if on { &tint } else { &[0, 0, 0] });
            }
        } else if graphics {
            rgb.extend_from_slice(&vga.dac.rgb(*b));
        } else {
            rgb.extend_from_slice(&[*b, *b, *b]);
        }
    }
    png(width, rows, &rgb)
}

/// The pixel at (x, y): its value, colour and where video memory holds
/// it.
pub fn pixel(vga: &Vga, x: usize, y: usize) -> Value {
    match vga.probe(x, y) {
        None => json!({"x": x, "y": y, "inside": false}),
        Some(p) => json!({
            "x": x, "y": y, "inside": true,
            "value": p.value, "dac_index": p.dac_index,
            "rgb": p.rgb, "plane": p.plane, "bit": p.bit, "offset": p.offset,
            "cpu_address": p.cpu_address,
            "cpu": p.cpu_address.map(|a| format!("{:04X}:{:04X}", a >> 4 & 0xF000, a & 0xFFFF)),
            "char": p.char_code,
        }),
    }
}
