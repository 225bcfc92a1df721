//! The worked example of `docs/models.md`: the parameter lookup, a model
//! added in this one file and one line of `registry.rs`.
//!
//! The routine returns `AX = params[((AL & 31) + BL) & 255]`: the word a
//! cell state (AL) and an index (BL) select in the 256-word parameter table
//! (`shared/design/target-game-facts.md`). The model declares those two
//! registers as inputs, AX as its output and `params` as the table it
//! reads, filled by the sweep (the program fills it only as it runs); its
//! domain is every (cell state, index) pair, 65,536 calls.

use crate::model::{Ctx, Fill, Input, Interface, Model, Output, Place, Point, Reg};
use crate::params::slot;

/// The parameter lookup model.
pub struct ParamLookup;

static INTERFACE: Interface = Interface {
    entry: "param_lookup",
    inputs: &[Input::Reg(Reg::AL), Input::Reg(Reg::BL)],
    outputs: &[Output::Reg(Reg::AX)],
    tables: &["params"],
    // The program fills the table as it runs: a sweep fills it first.
    fills: &[Fill {
        place: Place::at("params"),
        words: 256,
    }],
    values: &[],
    events: None,
};

impl Model for ParamLookup {
    fn name(&self) -> &'static str {
        "param-lookup"
    }

    fn summary(&self) -> &'static str {
        "the parameter a cell state and an index select"
    }

    fn interface(&self) -> &'static Interface {
        &INTERFACE
    }

    fn domain(&self, _ctx: &Ctx) -> Option<Vec<Point>> {
        let pairs = (0..=255u16).flat_map(|s| (0..=255u16).map(move |i| Point::new(&[s, i])));
        Some(pairs.collect())
    }

    fn expect(&self, ctx: &Ctx, point: &Point, out: &mut [i64]) {
        let s = slot(point.values[0] as u8, point.values[1] as u8);
        out[0] = ctx.read16("params", 2 * s as u16) as i64;
    }

    fn describe(&self, _ctx: &Ctx, point: &Point) -> String {
        format!(
            "cell state {:02X}h, index {:02X}h",
            point.values[0], point.values[1]
        )
    }
}
