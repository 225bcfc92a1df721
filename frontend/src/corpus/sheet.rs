//! The contact sheet: one row per program, tandem's final frame beside the
//! DOSBox screenshot at the same size, under a label with the program's
//! name, how it ran and whether it passed; for a person to compare by eye.

use hw::vga::render::Frame;

use super::image::Canvas;

/// One row of the sheet.
pub struct Row<'a> {
    /// The program's name.
    pub name: &'a str,
    /// How it ran (CPU, seconds, keys).
    pub how: String,
    /// Its result in words.
    pub status: String,
    /// Passed.
    pub ok: bool,
    /// tandem's final frame (None when the run could not start).
    pub tandem: Option<&'a Frame>,
    /// The DOSBox screenshot.
    pub dosbox: &'a Frame,
}

/// Each picture's box: 640x480 holds a doubled 320x200 frame, DOSBox's
/// 640x400 and 640x480 shots unscaled.
const CELL: (usize, usize) = (640, 480);
const GAP: usize = 8;
/// Label lines above the pictures (16-pixel font).
const LABEL: usize = 16 * 3 + GAP;

const BACKGROUND: [u8; 3] = [40, 40, 48];
const TEXT: [u8; 3] = [230, 230, 230];
const PASS: [u8; 3] = [90, 220, 90];
const FAIL: [u8; 3] = [255, 80, 80];
const DIM: [u8; 3] = [150, 150, 160];

/// Draws the sheet.
pub fn draw(rows: &[Row]) -> Frame {
    let width = GAP + (CELL.0 + GAP) * 2;
    let row_h = LABEL + CELL.1 + GAP * 2;
    let mut c = Canvas::new(width, GAP + rows.len() * row_h, BACKGROUND);
    for (i, r) in rows.iter().enumerate() {
        let y = GAP + i * row_h;
        c.text(GAP, y, r.name, TEXT, 1);
        let status_x = GAP + (r.name.len() + 2) * 8;
        c.text(status_x, y, &r.status, if r.ok { PASS } else { FAIL }, 1);
        c.text(GAP, y + 16, &r.how, DIM, 1);
        c.text(GAP, y + 32, "tandem", DIM, 1);
        c.text(GAP * 2 + CELL.0, y + 32, "DOSBox 0.74", DIM, 1);
        let py = y + LABEL;
        match r.tandem {
            Some(f) => c.blit_fit(f, GAP, py, CELL.0, CELL.1),
            None => c.text(
                GAP,
                py + CELL.1 / 2,
                "(no frame: the run did not start)",
                FAIL,
                1,
            ),
        }
        c.blit_fit(r.dosbox, GAP * 2 + CELL.0, py, CELL.0, CELL.1);
    }
    c.frame
}
