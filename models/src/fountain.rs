//! The fountain animation (model types 120-123), as
//! `shared/design/target-game-facts.md` states it:
//!
//! 1. all six parameters = -384 (FE80h);
//! 2. `phase = ((clock << 5) & FFFFh) * 6` (32 bits);
//! 3. `band = phase >> 16` (0-5), `i = (phase & FFFFh) >> 7`, `s = sine[i]`;
//! 4. `param[band] += floor(amp[band] * s / 65536)`;
//! 5. `param[(band + 1) mod 6] -= floor(2 * amp[band + 1] * s / 65536)`.
//!
//! The cycle is 2,048 clock units.
//!
//! As a model ([`Fountain`]): the clock word in, the six words from
//! `params` at `slot` out, reading the tables `sine` and `amps`; swept over
//! the 2,048 clocks of a cycle (12,288 words), and in lock-step at every
//! frame from the clock the frame computed for.

use crate::memory::{GuestMemory, Segments};
use crate::model::{Ctx, FrameInput, Input, Interface, Model, Output, Place, Point, Value};
use crate::profile::{Profile, FOUNTAIN_SLOTS, PARAM_SLOTS};

/// The baseline every parameter starts from.
pub const BASELINE: i16 = -384;
/// Clock units in one cycle of the animation.
pub const CYCLE: u16 = 2048;

/// The six parameters for `clock`, with the sine table and the seven
/// amplitude bytes given as lookups.
pub fn fountain(clock: u16, sine: impl Fn(usize) -> i16, amp: impl Fn(usize) -> u8) -> [i16; 6] {
    let mut p = [BASELINE; 6];
    let phase = (clock.wrapping_shl(5) as u32) * 6;
    let band = (phase >> 16) as usize;
    let i = ((phase & 0xFFFF) >> 7) as usize;
    let s = sine(i) as i64;
    // floor(x / 65536) is the arithmetic shift.
    let up = (amp(band) as i64 * s) >> 16;
    let down = (2 * amp(band + 1) as i64 * s) >> 16;
    p[band] = p[band].wrapping_add(up as i16);
    let next = (band + 1) % 6;
    p[next] = p[next].wrapping_sub(down as i16);
    p
}

/// The six parameters for `clock`, reading the sine table and the
/// amplitudes of the program described by `profile`, placed at `at`.
pub fn fountain_in(
    mem: &(impl GuestMemory + ?Sized),
    profile: &Profile,
    at: Segments,
    clock: u16,
) -> [i16; 6] {
    let sine = profile.code.sine;
    let amps = profile.code.amps;
    fountain(
        clock,
        |i| mem.read16(at.code(sine.wrapping_add(2 * i as u16))) as i16,
        |k| mem.read8(at.code(amps.wrapping_add(k as u16))),
    )
}

/// The fountain model.
pub struct Fountain;

static INTERFACE: Interface = Interface {
    entry: "fountain",
    inputs: &[Input::Clock(Place::at("clock"))],
    outputs: &[Output::Words {
        place: Place::indexed("params", "slot"),
        count: FOUNTAIN_SLOTS as u16,
        signed: true,
    }],
    tables: &["sine", "amps"],
    fills: &[],
    values: &[Value {
        name: "slot",
        default: 0,
        max: (PARAM_SLOTS - FOUNTAIN_SLOTS) as u16,
    }],
    events: None,
};

impl Fountain {
    fn six(ctx: &Ctx, clock: u16, out: &mut [i64]) {
        let p = fountain(
            clock,
            |i| ctx.read16("sine", 2 * i as u16) as i16,
            |k| ctx.read8("amps", k as u16),
        );
        for (o, v) in out.iter_mut().zip(p) {
            *o = v as i64;
        }
    }
}

impl Model for Fountain {
    fn name(&self) -> &'static str {
        "fountain"
    }

    fn summary(&self) -> &'static str {
        "the fountain's six parameters from the clock (model types 120-123)"
    }

    fn interface(&self) -> &'static Interface {
        &INTERFACE
    }

    fn domain(&self, _ctx: &Ctx) -> Option<Vec<Point>> {
        Some((0..CYCLE).map(|c| Point::new(&[c])).collect())
    }

    fn expect(&self, ctx: &Ctx, point: &Point, out: &mut [i64]) {
        Fountain::six(ctx, point.values[0], out);
    }

    fn describe(&self, _ctx: &Ctx, point: &Point) -> String {
        format!("clock {:04X}h", point.values[0])
    }

    fn in_lock_step(&self) -> bool {
        true
    }

    fn frame(&self, ctx: &Ctx, at: &FrameInput, _state: &mut i64, out: &mut [i64]) -> bool {
        Fountain::six(ctx, at.clock, out);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sine(i: usize) -> i16 {
        (32767.0 * (2.0 * std::f64::consts::PI * i as f64 / 1024.0).sin()).round() as i16
    }
    const AMP: [u8; 7] = [118, 154, 136, 112, 85, 60, 118];

    #[test]
    fn clock_zero_is_the_baseline() {
        assert_eq!(fountain(0, sine, |k| AMP[k]), [BASELINE; 6]);
    }

    #[test]
    fn band_and_floor_follow_the_facts() {
        // clock 100: phase = 3200 * 6 = 19200: band 0, i = 150.
        let s = sine(150) as i64;
        let p = fountain(100, sine, |k| AMP[k]);
        assert_eq!(
            p[0] as i64,
            -384 + ((118 * s) as f64 / 65536.0).floor() as i64
        );
        assert_eq!(
            p[1] as i64,
            -384 - ((2 * 154 * s) as f64 / 65536.0).floor() as i64
        );
        assert_eq!(&p[2..], &[BASELINE; 4]);
        // Band 5 uses the seventh amplitude and wraps to band 0.
        let c = 2047;
        let phase = ((c << 5) & 0xFFFF) * 6;
        assert_eq!(phase >> 16, 5);
        let s = sine(((phase & 0xFFFF) >> 7) as usize) as i64;
        let p = fountain(c as u16, sine, |k| AMP[k]);
        assert_eq!(
            p[0] as i64,
            -384 - ((2 * 118 * s) as f64 / 65536.0).floor() as i64
        );
    }

    #[test]
    fn the_cycle_is_2048_units() {
        for c in 0..CYCLE {
            assert_eq!(
                fountain(c, sine, |k| AMP[k]),
                fountain(c.wrapping_add(CYCLE), sine, |k| AMP[k])
            );
        }
    }
}
