//! An INT 33h mouse driver (Microsoft's interface): reset, show/hide,
//! position and buttons, ranges, mickeys, the 0Ch event handler, and the
//! state queries. The state is what the host reports through
//! [`Mouse::input`] (headless runs have no mouse); the 0Ch
//! handler is called as guest code from the INT 08h handler at the next
//! timer tick after an event it asked for (a real driver calls it from its
//! IRQ, at most 55 ms earlier).

use crate::diag::Diagnostics;
use crate::mem::{lin, wr16, Regs};
use crate::rom;
use hw::Machine;

/// The mouse driver's state.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Mouse {
    /// Position in virtual-screen pixels.
    pub x: i16,
    /// Vertical position.
    pub y: i16,
    /// Buttons (bit 0 left, 1 right, 2 middle).
    pub buttons: u16,
    /// Show counter: the cursor shows when it is 0.
    pub shown: i16,
    /// Horizontal range.
    pub x_range: (i16, i16),
    /// Vertical range.
    pub y_range: (i16, i16),
    /// Mickeys counted since the last 0Bh call.
    pub mickeys: (i16, i16),
    /// Mickeys per 8 pixels.
    pub ratio: (u16, u16),
    /// Press counts and last press positions per button.
    pub presses: [(u16, i16, i16); 3],
    /// Release counts and positions.
    pub releases: [(u16, i16, i16); 3],
    /// The event handler: call mask and far address.
    pub handler: (u16, u16, u16),
    /// Events since the handler was last called (the 0Ch condition bits:
    /// 1 moved, 2/4 left press/release, 8/16 right, 32/64 middle).
    pub pending: u16,
}

impl Default for Mouse {
    fn default() -> Self {
        Mouse {
            x: 320,
            y: 100,
            buttons: 0,
            shown: -1,
            x_range: (0, 639),
            y_range: (0, 199),
            mickeys: (0, 0),
            ratio: (8, 16),
            presses: [(0, 0, 0); 3],
            releases: [(0, 0, 0); 3],
            handler: (0, 0, 0),
            pending: 0,
        }
    }
}

/// Writes the handler's far pointer where the ROM dispatcher calls it
/// (0:0 when there is none or its mask is 0).
fn set_handler(m: &mut Machine, (mask, seg, off): (u16, u16, u16)) {
    let (seg, off) = if mask == 0 { (0, 0) } else { (seg, off) };
    let mut p = off.to_le_bytes().to_vec();
    p.extend(seg.to_le_bytes());
    m.bus
        .mem
        .write_image(((rom::SEG as u32) << 4) + rom::MOUSE_HANDLER as u32, &p);
}

/// The dispatcher's trap (from INT 08h): when the handler's mask matches a
/// pending event, loads AX = condition, BX = buttons, CX/DX = position,
/// SI/DI = mickey counts for the handler; otherwise AX = 0.
pub fn dispatch(ms: &mut Mouse, m: &mut Machine) {
    let cond = ms.pending & ms.handler.0;
    if cond == 0 || (ms.handler.1, ms.handler.2) == (0, 0) {
        m.set_ax(0);
        return;
    }
    ms.pending = 0;
    let (b, x, y, mx, my) = (ms.buttons, ms.x, ms.y, ms.mickeys.0, ms.mickeys.1);
    m.set_ax(cond);
    m.set_bx(b);
    m.set_cx(x as u16);
    m.set_dx(y as u16);
    m.set_si(mx as u16);
    m.set_di(my as u16);
}

/// Services INT 33h.
pub fn service(ms: &mut Mouse, diag: &mut Diagnostics, m: &mut Machine) {
    let ax = m.ax();
    match ax {
        0x0000 | 0x0021 => reset(ms, m, ax == 0x0021),
        0x0001 => ms.shown = (ms.shown + 1).min(0),
        0x0002 => ms.shown -= 1,
        0x0003 => {
            m.set_bx(ms.buttons);
            m.set_cx(ms.x as u16);
            m.set_dx(ms.y as u16);
        }
        0x0004 => {
            ms.x = (m.cx() as i16).clamp(ms.x_range.0, ms.x_range.1);
            ms.y = (m.dx() as i16).clamp(ms.y_range.0, ms.y_range.1);
        }
        0x0005 | 0x0006 => button_count(ms, m, ax == 0x0006),
        0x0007 | 0x0008 => set_range(ms, m, ax == 0x0008),
        0x000A | 0x001D => {}
        0x000B => {
            let (dx, dy) = ms.mickeys;
            ms.mickeys = (0, 0);
            m.set_cx(dx as u16);
            m.set_dx(dy as u16);
        }
        0x000C => {
            ms.handler = (m.cx(), m.es(), m.dx());
            let h = ms.handler;
            set_handler(m, h);
        }
        0x000F => ms.ratio = (m.cx().max(1), m.dx().max(1)),
        0x0014 => {
            let old = ms.handler;
            ms.handler = (m.cx(), m.es(), m.dx());
            let h = ms.handler;
            set_handler(m, h);
            m.set_cx(old.0);
            m.set_es(old.1);
            m.set_dx(old.2);
        }
        0x0015 => m.set_bx(64),
        // Save state: a 64-byte buffer at ES:DX (positions); restoring
        // it changes nothing.
        0x0016 => {
            let (es, dx) = (m.es(), m.dx());
            let (x, y, b) = (ms.x, ms.y, ms.buttons);
            wr16(m, lin(es, dx), x as u16);
            wr16(m, lin(es, dx.wrapping_add(2)), y as u16);
            wr16(m, lin(es, dx.wrapping_add(4)), b);
        }
        0x0017 => {}
        0x001A => ms.ratio = (m.bx().max(1), m.cx().max(1)),
        0x001B => {
            m.set_bx(ms.ratio.0);
            m.set_cx(ms.ratio.1);
            m.set_dx(64);
        }
        0x0024 => {
            m.set_bx(0x0626); // version 6.26
            m.set_cx(0x0400); // PS/2 mouse
        }
        _ => {
            let (ah, al) = ((ax >> 8) as u8, ax as u8);
            diag.unimplemented(0x33, ah, al);
        }
    }
}

/// 0000h (reset) and 0021h (software reset, which keeps the event
/// handler): the driver's state as at its start; AX = FFFFh installed, BX
/// = 2 buttons.
fn reset(ms: &mut Mouse, m: &mut Machine, keep_handler: bool) {
    let h = ms.handler;
    *ms = Mouse::default();
    if keep_handler {
        ms.handler = h;
    }
    let h = ms.handler;
    set_handler(m, h);
    m.set_ax(0xFFFF);
    m.set_bx(2);
}

/// 0005h (presses) and 0006h (releases) of button BX: the count since the
/// last call (then cleared) and the position of the last one.
fn button_count(ms: &mut Mouse, m: &mut Machine, releases: bool) {
    let b = (m.bx() as usize).min(2);
    let rec = if releases {
        &mut ms.releases[b]
    } else {
        &mut ms.presses[b]
    };
    let (n, x, y) = *rec;
    rec.0 = 0;
    m.set_ax(ms.buttons);
    m.set_bx(n);
    m.set_cx(x as u16);
    m.set_dx(y as u16);
}

/// 0007h (horizontal) and 0008h (vertical): the range CX..DX (either
/// order), the cursor moved inside it.
fn set_range(ms: &mut Mouse, m: &mut Machine, vertical: bool) {
    let (a, b) = (m.cx() as i16, m.dx() as i16);
    let r = (a.min(b), a.max(b));
    if vertical {
        ms.y_range = r;
        ms.y = ms.y.clamp(r.0, r.1);
    } else {
        ms.x_range = r;
        ms.x = ms.x.clamp(r.0, r.1);
    }
}

impl Mouse {
    /// The host reports the mouse: movement in mickeys and the buttons.
    /// Position follows the ratio and is clamped to the ranges; press and
    /// release counters update, and the event is pending for the 0Ch
    /// handler, which the INT 08h handler calls at the next timer tick.
    pub fn input(&mut self, dx: i16, dy: i16, buttons: u16) {
        let ms = self;
        if dx != 0 || dy != 0 {
            ms.pending |= 1;
        }
        ms.mickeys.0 = ms.mickeys.0.wrapping_add(dx);
        ms.mickeys.1 = ms.mickeys.1.wrapping_add(dy);
        ms.x = (ms.x as i32 + dx as i32 * 8 / ms.ratio.0 as i32)
            .clamp(ms.x_range.0 as i32, ms.x_range.1 as i32) as i16;
        ms.y = (ms.y as i32 + dy as i32 * 8 / ms.ratio.1 as i32)
            .clamp(ms.y_range.0 as i32, ms.y_range.1 as i32) as i16;
        for b in 0..3 {
            let was = ms.buttons >> b & 1;
            let now = buttons >> b & 1;
            if was == 0 && now == 1 {
                ms.presses[b] = (ms.presses[b].0.saturating_add(1), ms.x, ms.y);
                ms.pending |= 2 << (2 * b);
            } else if was == 1 && now == 0 {
                ms.releases[b] = (ms.releases[b].0.saturating_add(1), ms.x, ms.y);
                ms.pending |= 4 << (2 * b);
            }
        }
        ms.buttons = buttons;
    }
}
