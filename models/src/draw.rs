//! The drawing interpreter (FCxx commands): a model of the routine that
//! walks a model definition's commands and emits its vertices one by one,
//! checked event by event ([`crate::events`]). Written as a reverse
//! engineer would: points in real numbers, one rounding at the end of each
//! projection, where the native routine works on 16-bit coordinates with
//! fixed-point intermediate steps. So static vertices agree exactly and
//! the gate's interpolated ones within the profile's tolerance (one
//! pixel).
//!
//! Commands (`shared/design/target-game-facts.md` for 35, 38 and 3B;
//! the replica's own choices for the rest, `roms/replica/replica.asm`):
//! `31 X Y Z` sets the current point and emits it, `32 X Y Z` sets it,
//! `33` emits it, `35` makes it the anchor, `38 i` emits a NEW vertex
//! `anchor + (current - anchor) * factor` with `factor = (uint16(p) >> 1)
//! / 32768` for parameter `p` of index `i`, `3B i` replaces the vertical
//! contribution with that of the height `Y = -p`, `FF` ends. Parameter `i`
//! is `params[((cell_state & 31) + i) & 255]`. The projection is
//! identity-axis: screen x = cx + k_x * (X or Z), screen y = cy - k_y * Y,
//! each rounded half up.

use crate::model::{
    Capture, Ctx, Event, Events, Field, Fill, Input, Interface, Model, Output, Place, Point, Reg,
    Value,
};
use crate::params::slot;

/// The drawing interpreter model.
pub struct Draw;

/// The fields of each event: the screen position (within `tol_x` and
/// `tol_y`), the vertex's number and the command that emitted it.
static FIELDS: [Field; 4] = [
    Field {
        name: "x",
        capture: Capture::Reg(Reg::AX),
        signed: true,
        tolerance: Some("tol_x"),
    },
    Field {
        name: "y",
        capture: Capture::Reg(Reg::BX),
        signed: true,
        tolerance: Some("tol_y"),
    },
    Field {
        name: "vertex",
        capture: Capture::Reg(Reg::CX),
        signed: false,
        tolerance: None,
    },
    Field {
        name: "command",
        capture: Capture::Reg(Reg::R8(2)),
        signed: false,
        tolerance: None,
    },
];

static EVENTS: Events = Events {
    point: "emit",
    fields: &FIELDS,
    command: Some(3),
};

static INTERFACE: Interface = Interface {
    entry: "draw",
    inputs: &[
        Input::Reg(Reg::BX),
        Input::Reg(Reg::AL),
        Input::Reg(Reg::AH),
    ],
    // CX at the return: the vertices emitted.
    outputs: &[Output::Reg(Reg::CX)],
    tables: &["defs", "proj", "params"],
    fills: &[Fill {
        place: Place::at("params"),
        words: 256,
    }],
    values: &[
        Value {
            name: "definitions",
            default: 5,
            max: 256,
        },
        Value {
            name: "tol_x",
            default: 0,
            max: 0xFFFF,
        },
        Value {
            name: "tol_y",
            default: 0,
            max: 0xFFFF,
        },
    ],
    events: Some(&EVENTS),
};

/// The cell states a sweep draws each definition with: six parameter
/// combinations (the table is filled, so each reads other words).
const CELL_STATES: [u16; 6] = [0, 5, 9, 17, 26, 31];
/// The projections of the replica's table.
const PROJECTIONS: u16 = 2;
/// The most commands one definition runs (a damaged one ends there).
const MAX_COMMANDS: usize = 4096;

/// An identity-axis projection as the program's table gives it.
struct Projection {
    /// The model axis screen x comes from (0 X, 2 Z).
    x_axis: usize,
    kx: f64,
    ky: f64,
    cx: f64,
    cy: f64,
}

impl Projection {
    /// Projection `n` of the table at `proj` (five words each: the axis's
    /// byte offset in a point, two Q14 coefficients, the centre).
    fn read(ctx: &Ctx, n: u16) -> Projection {
        let w = |k: u16| ctx.read16("proj", 10 * n + 2 * k);
        let q14 = |v: u16| v as i16 as f64 / 16384.0;
        Projection {
            x_axis: (w(0) / 2).min(2) as usize,
            kx: q14(w(1)),
            ky: q14(w(2)),
            cx: w(3) as i16 as f64,
            cy: w(4) as i16 as f64,
        }
    }

    /// Screen x of a point.
    fn x(&self, p: &[f64; 3]) -> f64 {
        self.cx + round(p[self.x_axis] * self.kx)
    }

    /// The vertical contribution of height `y`.
    fn y_part(&self, y: f64) -> f64 {
        round(y * self.ky)
    }
}

/// Rounds half up, as the screen's pixel grid takes a position.
fn round(v: f64) -> f64 {
    (v + 0.5).floor()
}

/// Reads a definition's bytes from a linear address.
struct Reader<'a> {
    ctx: &'a Ctx<'a>,
    at: u32,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.ctx.mem.read8(self.at);
        self.at += 1;
        b
    }

    fn word(&mut self) -> f64 {
        let w = self.ctx.mem.read16(self.at) as i16;
        self.at += 2;
        w as f64
    }

    fn point(&mut self) -> [f64; 3] {
        [self.word(), self.word(), self.word()]
    }
}

impl Model for Draw {
    fn name(&self) -> &'static str {
        "draw"
    }

    fn summary(&self) -> &'static str {
        "the drawing interpreter's vertices, event by event"
    }

    fn interface(&self) -> &'static Interface {
        &INTERFACE
    }

    fn domain(&self, ctx: &Ctx) -> Option<Vec<Point>> {
        let n = ctx.value("definitions");
        let mut v = Vec::new();
        for def in 0..n {
            for &cell in &CELL_STATES {
                for proj in 0..PROJECTIONS {
                    let mut p = Point::new(&[def, proj, cell]);
                    p.tag = def as u32;
                    v.push(p);
                }
            }
        }
        Some(v)
    }

    fn expect(&self, ctx: &Ctx, point: &Point, out: &mut [i64]) {
        out[0] = self.events(ctx, point).len() as i64;
    }

    fn events(&self, ctx: &Ctx, point: &Point) -> Vec<Event> {
        let [def, proj, cell, _] = point.values;
        let pr = Projection::read(ctx, proj & 0xFF);
        let param = |i: u8| ctx.read16("params", 2 * slot(cell as u8, i) as u16);
        let start = ctx.base("defs") + ctx.read16("defs", 2 * def) as u32;
        let mut r = Reader { ctx, at: start };
        let mut out = Vec::new();
        let (mut cur, mut anchor) = ([0.0; 3], [0.0; 3]);
        // The vertical contribution of the current point (3B replaces it).
        let mut y_part = 0.0;
        let emit = |x: f64, y: f64, cmd: u8, exact: bool, out: &mut Vec<Event>| {
            let n = out.len() as i64;
            out.push(Event::new(&[x as i64, y as i64, n, cmd as i64], exact));
        };
        for _ in 0..MAX_COMMANDS {
            if r.byte() != 0xFC {
                break;
            }
            match r.byte() {
                c @ (0x31 | 0x32) => {
                    cur = r.point();
                    y_part = pr.y_part(cur[1]);
                    if c == 0x31 {
                        emit(pr.x(&cur), pr.cy - y_part, c, true, &mut out);
                    }
                }
                0x33 => emit(pr.x(&cur), pr.cy - y_part, 0x33, true, &mut out),
                0x35 => anchor = cur,
                0x38 => {
                    let factor = (param(r.byte()) >> 1) as f64 / 32768.0;
                    let v: [f64; 3] =
                        std::array::from_fn(|j| anchor[j] + (cur[j] - anchor[j]) * factor);
                    emit(pr.x(&v), pr.cy - pr.y_part(v[1]), 0x38, false, &mut out);
                }
                0x3B => y_part = pr.y_part(-(param(r.byte()) as i16 as f64)),
                _ => break,
            }
        }
        out
    }

    fn describe(&self, _ctx: &Ctx, point: &Point) -> String {
        format!(
            "definition {}, projection {}, cell state {:02X}h",
            point.values[0], point.values[1], point.values[2]
        )
    }
}
