//! Scripted joystick positions, `--joy SECONDS:STICK:x=F,y=F`: at an
//! emulated time, stick 1 or 2 of the game port moves to the positions
//! given (-1.0 left or up, 0 the centre, 1.0 right or down) and stays
//! there until moved again. An axis left out keeps its position.

use super::record::{Event, Input};

/// The `--help` text of `--joy`.
pub const LONG_HELP: &str = "\
Move joystick STICK (1 or 2, the game port's A and B) at emulated second
SECONDS to the positions given: x and/or y from -1.0 (left, up) through 0
(the centre) to 1.0 (right, down); an axis left out keeps its position.
Sticks start centred and stay where the last --joy put them. Recorded by
--record. E.g. --joy 2:1:x=-1,y=0.5 --joy 3:1:x=0";

/// A scripted stick movement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move {
    /// Emulated seconds from the start of the run.
    pub seconds: f64,
    /// The stick, 1 or 2.
    pub stick: u8,
    /// The X axis's new position (-1.0..=1.0), if given.
    pub x: Option<f64>,
    /// The Y axis's new position, if given.
    pub y: Option<f64>,
}

/// An axis position as the record keeps it (-32767..32767).
pub fn axis_value(f: f64) -> i16 {
    (f.clamp(-1.0, 1.0) * 32767.0).round() as i16
}

impl Move {
    /// The event that makes it on a CPU of `hz`, counted from `origin`.
    pub fn event(&self, hz: u64, origin: u64) -> Event {
        Event {
            cycle: origin.saturating_add((self.seconds * hz as f64).round() as u64),
            input: Input::Joy {
                stick: self.stick,
                x: self.x.map(axis_value),
                y: self.y.map(axis_value),
            },
        }
    }
}

/// Why a `--joy` cannot be used: one line naming the option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JoyError {
    /// Not three parts.
    #[error("--joy '{0}': expected SECONDS:STICK:x=F,y=F, e.g. 2.5:1:x=-1.0,y=0.5")]
    Form(String),
    /// The time is not a number of seconds from 0.
    #[error("--joy '{spec}': '{time}' is not a time in seconds (0 or more)")]
    Time {
        /// The whole value.
        spec: String,
        /// Its time part.
        time: String,
    },
    /// The stick is not 1 or 2.
    #[error("--joy '{spec}': stick '{stick}': the game port has sticks 1 and 2")]
    Stick {
        /// The whole value.
        spec: String,
        /// Its stick part.
        stick: String,
    },
    /// An axis other than x and y.
    #[error("--joy '{spec}': unknown axis '{axis}' (x or y)")]
    Axis {
        /// The whole value.
        spec: String,
        /// The axis named.
        axis: String,
    },
    /// A position that is not a number from -1 to 1.
    #[error("--joy '{spec}': '{value}' is not a position from -1.0 to 1.0")]
    Value {
        /// The whole value.
        spec: String,
        /// The position given.
        value: String,
    },
}

impl From<JoyError> for crate::app::error::Error {
    fn from(e: JoyError) -> Self {
        crate::app::error::Error::Input(e.to_string())
    }
}

/// Parses `SECONDS:STICK:x=F,y=F`.
pub fn parse(s: &str) -> Result<Move, JoyError> {
    let mut parts = s.splitn(3, ':');
    let (Some(t), Some(st), Some(axes)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(JoyError::Form(s.into()));
    };
    let seconds = t
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| (0.0..1e6).contains(v))
        .ok_or_else(|| JoyError::Time {
            spec: s.into(),
            time: t.into(),
        })?;
    let stick = match st.trim() {
        "1" => 1,
        "2" => 2,
        _ => {
            return Err(JoyError::Stick {
                spec: s.into(),
                stick: st.into(),
            })
        }
    };
    let mut m = Move {
        seconds,
        stick,
        x: None,
        y: None,
    };
    for a in axes.split(',') {
        let Some((name, value)) = a.split_once('=') else {
            return Err(JoyError::Form(s.into()));
        };
        let v = value
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| (-1.0..=1.0).contains(v))
            .ok_or_else(|| JoyError::Value {
                spec: s.into(),
                value: value.into(),
            })?;
        match name.trim().to_ascii_lowercase().as_str() {
            "x" => m.x = Some(v),
            "y" => m.y = Some(v),
            _ => {
                return Err(JoyError::Axis {
                    spec: s.into(),
                    axis: name.into(),
                })
            }
        }
    }
    Ok(m)
}

/// Parses every `--joy`; the first error.
pub fn parse_all(specs: &[String]) -> Result<Vec<Move>, JoyError> {
    specs.iter().map(|s| parse(s)).collect()
}

/// The events of `moves` on a CPU of `hz`, counted from cycle `origin`.
pub fn events(moves: &[Move], hz: u64, origin: u64) -> Vec<Event> {
    moves.iter().map(|m| m.event(hz, origin)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_moves() {
        let m = parse("2.5:1:x=-1.0,y=0.5").expect("parses");
        assert_eq!((m.stick, m.x, m.y), (1, Some(-1.0), Some(0.5)));
        assert_eq!(
            m.event(1000, 7),
            Event {
                cycle: 2507,
                input: Input::Joy {
                    stick: 1,
                    x: Some(-32767),
                    y: Some(16384)
                }
            }
        );
        let m = parse("0:2:Y=1").expect("one axis");
        assert_eq!((m.stick, m.x, m.y), (2, None, Some(1.0)));
        assert_eq!(axis_value(0.0), 0);
    }

    #[test]
    fn errors_are_one_line_naming_the_option() {
        for (bad, says) in [
            ("1:1:z=0.5", "unknown axis 'z'"),
            ("1:3:x=0", "sticks 1 and 2"),
            ("1:1:x=2", "from -1.0 to 1.0"),
            ("1:1:x=nan", "from -1.0 to 1.0"),
            ("-1:1:x=0", "time in seconds"),
            ("1:1", "expected SECONDS:STICK"),
            ("1:1:x", "expected SECONDS:STICK"),
        ] {
            let e = parse(bad).expect_err(bad).to_string();
            assert!(e.starts_with("--joy '") && e.contains(says), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
