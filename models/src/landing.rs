//! Hangar gates (types 17/19/21/23) and the landing routine
//! (`shared/design/target-game-facts.md`, "Gate extension").
//!
//! The landing routine writes the parameter as 0 when a landing starts, then
//! adds `step << 6` per update and caps it at E800h, so the largest factor in
//! ordinary play is 0.90625. Drawing command 38h emits a new vertex between
//! the anchor (command 35h) and the current point:
//! `vertex = anchor + (current - anchor) * factor` with
//! `factor = (uint16(param) >> 1) / 32768`.
//!
//! As a model ([`Landing`]): the update routine with CX = the step and the
//! parameter (`params` at `slot`) in and out; swept over 256 parameters x
//! 67 steps, and in lock-step from 0 at the first frame, one update per
//! frame by the clock units elapsed.

use crate::model::{Ctx, FrameInput, Input, Interface, Model, Output, Place, Point, Reg, Value};

/// The landing cap.
pub const CAP: u16 = 0xE800;

/// One landing update: the parameter after `step` timer units. The sum is
/// taken without wrapping, so any step of `CAP >> 6` units or more, or any
/// sum past the cap, gives the cap.
pub fn landing_update(param: u16, step: u16) -> u16 {
    let sum = param as u32 + ((step as u32) << 6);
    if sum > CAP as u32 {
        CAP
    } else {
        sum as u16
    }
}

/// The gate factor of a parameter, 0 to just under 1.
pub fn gate_factor(param: u16) -> f64 {
    (param >> 1) as f64 / 32768.0
}

/// The interpolated vertex coordinate, in the integer form the drawing code
/// uses: `anchor + ((current - anchor) * (param >> 1)) >> 15` (arithmetic
/// shift, so the result is floored).
pub fn gate_vertex(anchor: i32, current: i32, param: u16) -> i32 {
    anchor + (((current - anchor) as i64 * (param >> 1) as i64) >> 15) as i32
}

/// The landing update model.
pub struct Landing;

static INTERFACE: Interface = Interface {
    entry: "landing_update",
    inputs: &[
        Input::Reg(Reg::CX),
        Input::Word(Place::indexed("params", "slot")),
    ],
    outputs: &[Output::Words {
        place: Place::indexed("params", "slot"),
        count: 1,
        signed: false,
    }],
    tables: &[],
    fills: &[],
    values: &[Value {
        name: "slot",
        default: 0,
        max: 255,
    }],
    events: None,
};

/// The steps swept: every small one, and both sides of the largest that
/// does not cap by itself.
fn steps() -> impl Iterator<Item = u16> {
    (0..64).chain([0x39F, 0x3A0, 0xFFFF])
}

impl Model for Landing {
    fn name(&self) -> &'static str {
        "landing"
    }

    fn summary(&self) -> &'static str {
        "the landing parameter after an update of CX timer units (capped at E800h)"
    }

    fn interface(&self) -> &'static Interface {
        &INTERFACE
    }

    fn domain(&self, _ctx: &Ctx) -> Option<Vec<Point>> {
        let params = (0..=255u16).map(|k| k * 0x101);
        Some(
            params
                .flat_map(|p| steps().map(move |s| Point::new(&[s, p])))
                .collect(),
        )
    }

    fn expect(&self, _ctx: &Ctx, point: &Point, out: &mut [i64]) {
        out[0] = landing_update(point.values[1], point.values[0]) as i64;
    }

    fn describe(&self, _ctx: &Ctx, point: &Point) -> String {
        format!("step {:X}h from {:04X}h", point.values[0], point.values[1])
    }

    fn in_lock_step(&self) -> bool {
        true
    }

    fn frame(&self, _ctx: &Ctx, at: &FrameInput, state: &mut i64, out: &mut [i64]) -> bool {
        let p = landing_update(*state as u16, at.elapsed);
        *state = p as i64;
        out[0] = p as i64;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_factor_is_0_90625() {
        assert_eq!(gate_factor(CAP), 0.90625);
        let mut p = 0;
        for _ in 0..10_000 {
            p = landing_update(p, 7);
            assert!(p <= CAP);
        }
        assert_eq!(p, CAP);
    }

    #[test]
    fn updates_add_step_times_64_until_the_cap() {
        assert_eq!(landing_update(0, 1), 64);
        assert_eq!(landing_update(0xE7C0, 1), 0xE800);
        assert_eq!(landing_update(0xE7C1, 1), CAP);
        assert_eq!(landing_update(0, 0x3A0), CAP);
        assert_eq!(landing_update(0, 0x39F), 0x39F << 6);
        assert_eq!(
            landing_update(0xFFFF, 0),
            CAP,
            "a value past the cap is brought back"
        );
    }

    #[test]
    fn vertices_interpolate_and_never_reach_the_current_point_at_the_cap() {
        assert_eq!(gate_vertex(10, 10 + 320, 0), 10);
        assert_eq!(gate_vertex(0, 320, CAP), 290);
        assert_eq!(gate_vertex(0, -320, CAP), -290);
    }
}
