//! Scripted key presses, `--press SECONDS:KEY`, shared by `tandem run`,
//! `tandem compare` and the corpus manifest: one parser and one table of
//! key names.
//!
//! A press is a make code at its emulated time and the break code
//! [`HOLD_SECONDS`] later, both through the 8042 (so a program with its own
//! INT 9 handler reads them from port 60h like any key). Names are the keys
//! of the 101-key keyboard in scan code set 1 (IBM PS/2 Technical
//! Reference, keyboard scan codes); `0xNN` gives a set 1 make code, and
//! `0xE0NN` an E0h-prefixed one. The game port's four buttons are
//! `joy1-button1`, `joy1-button2`, `joy2-button1` and `joy2-button2`;
//! `joy1-button3` and `joy1-button4` name stick 2's two, which four-button
//! sticks (the CH Flightstick Pro, the Gravis GamePad) wire to.

use super::record::{Event, Input};
use hw::kbc::Key;

/// How long a scripted key is held: 50 ms, shorter than the shortest
/// typematic delay (250 ms), so one press types one character.
pub const HOLD_SECONDS: f64 = 0.05;

/// The key names, each with its scan code set 1 key; several names may
/// share a key.
pub const NAMES: &[(&str, Key)] = &[
    ("esc", Key::new(0x01)),
    ("escape", Key::new(0x01)),
    ("1", Key::new(0x02)),
    ("2", Key::new(0x03)),
    ("3", Key::new(0x04)),
    ("4", Key::new(0x05)),
    ("5", Key::new(0x06)),
    ("6", Key::new(0x07)),
    ("7", Key::new(0x08)),
    ("8", Key::new(0x09)),
    ("9", Key::new(0x0A)),
    ("0", Key::new(0x0B)),
    ("minus", Key::new(0x0C)),
    ("equals", Key::new(0x0D)),
    ("backspace", Key::new(0x0E)),
    ("tab", Key::new(0x0F)),
    ("q", Key::new(0x10)),
    ("w", Key::new(0x11)),
    ("e", Key::new(0x12)),
    ("r", Key::new(0x13)),
    ("t", Key::new(0x14)),
    ("y", Key::new(0x15)),
    ("u", Key::new(0x16)),
    ("i", Key::new(0x17)),
    ("o", Key::new(0x18)),
    ("p", Key::new(0x19)),
    ("lbracket", Key::new(0x1A)),
    ("rbracket", Key::new(0x1B)),
    ("enter", Key::new(0x1C)),
    ("return", Key::new(0x1C)),
    ("lctrl", Key::new(0x1D)),
    ("ctrl", Key::new(0x1D)),
    ("a", Key::new(0x1E)),
    ("s", Key::new(0x1F)),
    ("d", Key::new(0x20)),
    ("f", Key::new(0x21)),
    ("g", Key::new(0x22)),
    ("h", Key::new(0x23)),
    ("j", Key::new(0x24)),
    ("k", Key::new(0x25)),
    ("l", Key::new(0x26)),
    ("semicolon", Key::new(0x27)),
    ("quote", Key::new(0x28)),
    ("backquote", Key::new(0x29)),
    ("lshift", Key::new(0x2A)),
    ("shift", Key::new(0x2A)),
    ("backslash", Key::new(0x2B)),
    ("z", Key::new(0x2C)),
    ("x", Key::new(0x2D)),
    ("c", Key::new(0x2E)),
    ("v", Key::new(0x2F)),
    ("b", Key::new(0x30)),
    ("n", Key::new(0x31)),
    ("m", Key::new(0x32)),
    ("comma", Key::new(0x33)),
    ("period", Key::new(0x34)),
    ("slash", Key::new(0x35)),
    ("rshift", Key::new(0x36)),
    ("kpstar", Key::new(0x37)),
    ("lalt", Key::new(0x38)),
    ("alt", Key::new(0x38)),
    ("space", Key::new(0x39)),
    ("capslock", Key::new(0x3A)),
    ("f1", Key::new(0x3B)),
    ("f2", Key::new(0x3C)),
    ("f3", Key::new(0x3D)),
    ("f4", Key::new(0x3E)),
    ("f5", Key::new(0x3F)),
    ("f6", Key::new(0x40)),
    ("f7", Key::new(0x41)),
    ("f8", Key::new(0x42)),
    ("f9", Key::new(0x43)),
    ("f10", Key::new(0x44)),
    ("numlock", Key::new(0x45)),
    ("scrolllock", Key::new(0x46)),
    ("kp7", Key::new(0x47)),
    ("kp8", Key::new(0x48)),
    ("kp9", Key::new(0x49)),
    ("kpminus", Key::new(0x4A)),
    ("kp4", Key::new(0x4B)),
    ("kp5", Key::new(0x4C)),
    ("kp6", Key::new(0x4D)),
    ("kpplus", Key::new(0x4E)),
    ("kp1", Key::new(0x4F)),
    ("kp2", Key::new(0x50)),
    ("kp3", Key::new(0x51)),
    ("kp0", Key::new(0x52)),
    ("kpperiod", Key::new(0x53)),
    ("f11", Key::new(0x57)),
    ("f12", Key::new(0x58)),
    // The grey keys of the 101-key keyboard: E0h-prefixed.
    ("kpenter", Key::ext(0x1C)),
    ("rctrl", Key::ext(0x1D)),
    ("kpslash", Key::ext(0x35)),
    ("ralt", Key::ext(0x38)),
    ("home", Key::ext(0x47)),
    ("up", Key::ext(0x48)),
    ("pgup", Key::ext(0x49)),
    ("pageup", Key::ext(0x49)),
    ("left", Key::ext(0x4B)),
    ("right", Key::ext(0x4D)),
    ("end", Key::ext(0x4F)),
    ("down", Key::ext(0x50)),
    ("pgdn", Key::ext(0x51)),
    ("pagedown", Key::ext(0x51)),
    ("insert", Key::ext(0x52)),
    ("ins", Key::ext(0x52)),
    ("delete", Key::ext(0x53)),
    ("del", Key::ext(0x53)),
    ("pause", Key::PAUSE),
];

/// The game port's button names, each with its stick and button (1-2).
pub const JOY_BUTTONS: &[(&str, u8, u8)] = &[
    ("joy1-button1", 1, 1),
    ("joy1-button2", 1, 2),
    ("joy2-button1", 2, 1),
    ("joy2-button2", 2, 2),
    ("joy1-button3", 2, 1),
    ("joy1-button4", 2, 2),
];

/// The `--help` text of `--press` (a test checks it names every key).
pub const LONG_HELP: &str = "\
Press KEY at emulated second SECONDS (decimals allowed; counted from the
program's start) and release it 50 ms later; repeatable. The make and
break scan codes go through the keyboard controller (port 60h, IRQ 1), so
programs with their own INT 9 handler see them too. Keys given the same
time are held together (1:lshift 1:a is a capital A).
KEY (case does not matter):
  letters a-z, digits 0-9, space, enter (return), esc (escape), tab,
  backspace, minus, equals, lbracket, rbracket, semicolon, quote,
  backquote, backslash, comma, period, slash,
  lshift (shift), rshift, lctrl (ctrl), rctrl, lalt (alt), ralt,
  capslock, numlock, scrolllock, f1-f12,
  up, down, left, right, home, end, pgup (pageup), pgdn (pagedown),
  insert (ins), delete (del), pause,
  kp0-kp9, kpperiod, kpplus, kpminus, kpstar, kpslash, kpenter;
  or 0xNN (a scan code set 1 make code), 0xE0NN (an E0h-prefixed one).
The game port's buttons (bits 4-7 of port 201h, held 50 ms likewise):
  joy1-button1, joy1-button2, joy2-button1, joy2-button2;
  joy1-button3 and joy1-button4 are joy2's two (a four-button stick).";

/// What a scripted press presses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A key of the keyboard.
    Key(Key),
    /// A joystick button: the stick and its button (1-2 each).
    JoyButton(u8, u8),
}

impl Target {
    /// The input that presses (`down`) or releases it.
    pub fn input(self, down: bool) -> Input {
        match self {
            Target::Key(key) => Input::Key {
                code: key.code,
                ext: key.extended,
                down,
            },
            Target::JoyButton(stick, button) => Input::JoyButton {
                stick,
                button,
                down,
            },
        }
    }
}

/// A scripted key press.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Press {
    /// Emulated seconds from the start of the run.
    pub seconds: f64,
    /// The key or button.
    pub what: Target,
}

impl Press {
    /// The make and break of this press as (cycle, what, down) on a CPU of
    /// `hz`, counted from cycle `origin`.
    pub fn events(&self, hz: u64, origin: u64) -> [(u64, Target, bool); 2] {
        let at = |s: f64| origin.saturating_add((s * hz as f64).round() as u64);
        [
            (at(self.seconds), self.what, true),
            (at(self.seconds + HOLD_SECONDS), self.what, false),
        ]
    }
}

/// The make and break events of `presses` on a CPU of `hz`, counted from
/// cycle `origin`, as a player delivers them.
pub fn events(presses: &[Press], hz: u64, origin: u64) -> Vec<Event> {
    presses
        .iter()
        .flat_map(|p| p.events(hz, origin))
        .map(|(cycle, what, down)| Event {
            cycle,
            input: what.input(down),
        })
        .collect()
}

/// The key called `name` (see [`LONG_HELP`]).
pub fn key(name: &str) -> Option<Key> {
    let lower = name.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0x") {
        let v = u16::from_str_radix(hex, 16).ok()?;
        return match (hex.len(), v >> 8, v as u8) {
            (1 | 2, _, c @ 0x01..=0x7F) => Some(Key::new(c)),
            (4, 0xE0, c @ 0x01..=0x7F) => Some(Key::ext(c)),
            _ => None,
        };
    }
    NAMES.iter().find(|(n, _)| *n == lower).map(|&(_, k)| k)
}

/// The key or joystick button called `name`.
pub fn target(name: &str) -> Option<Target> {
    let lower = name.to_ascii_lowercase();
    if let Some(&(_, stick, button)) = JOY_BUTTONS.iter().find(|(n, ..)| *n == lower) {
        return Some(Target::JoyButton(stick, button));
    }
    key(name).map(Target::Key)
}

/// Why a `--press` cannot be used; the message is one line naming the
/// option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PressError {
    /// No `:` between the time and the key.
    #[error("--press '{0}': expected SECONDS:KEY, e.g. 2.5:space")]
    Form(String),
    /// The time is not a number of seconds from 0.
    #[error("--press '{spec}': '{time}' is not a time in seconds (0 or more)")]
    Time {
        /// The whole value.
        spec: String,
        /// Its time part.
        time: String,
    },
    /// The key has no name tandem knows.
    #[error("--press '{spec}': unknown key '{key}' (see --help for the key names)")]
    Key {
        /// The whole value.
        spec: String,
        /// Its key part.
        key: String,
    },
}

impl From<PressError> for crate::app::error::Error {
    fn from(e: PressError) -> Self {
        crate::app::error::Error::Input(e.to_string())
    }
}

/// Parses `SECONDS:KEY`.
pub fn parse(s: &str) -> Result<Press, PressError> {
    let (t, k) = s
        .split_once(':')
        .ok_or_else(|| PressError::Form(s.into()))?;
    let seconds: f64 = t
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| (0.0..1e6).contains(v))
        .ok_or_else(|| PressError::Time {
            spec: s.into(),
            time: t.into(),
        })?;
    let what = target(k.trim()).ok_or_else(|| PressError::Key {
        spec: s.into(),
        key: k.into(),
    })?;
    Ok(Press { seconds, what })
}

/// Parses every `--press`; the first error.
pub fn parse_all(specs: &[String]) -> Result<Vec<Press>, PressError> {
    specs.iter().map(|s| parse(s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_codes() {
        assert_eq!(key("Esc"), Some(Key::ESC));
        assert_eq!(key("RETURN"), Some(Key::ENTER));
        assert_eq!(key("enter"), Some(Key::ENTER));
        assert_eq!(key("1"), Some(Key::new(0x02)));
        assert_eq!(key("y"), Some(Key::new(0x15)));
        assert_eq!(key("down"), Some(Key::DOWN));
        assert_eq!(key("f12"), Some(Key::new(0x58)));
        assert_eq!(key("lshift"), Some(Key::LSHIFT));
        assert_eq!(key("0x19"), Some(Key::new(0x19)));
        assert_eq!(key("0xE048"), Some(Key::UP));
        assert_eq!(key("0x99"), None, "a break code is not a key");
        assert_eq!(key("0x1248"), None);
        assert_eq!(key("f13"), None);
        assert_eq!(key(""), None);
    }

    #[test]
    fn the_help_names_every_key() {
        for (name, _) in NAMES {
            let listed = LONG_HELP
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w == *name)
                || (name.starts_with('f') && name[1..].parse::<u8>().is_ok_and(|n| n <= 12))
                || (name.starts_with("kp") && name[2..].parse::<u8>().is_ok())
                || (name.len() == 1 && name.chars().all(|c| c.is_ascii_alphanumeric()));
            assert!(listed, "{name} is not in the --press help");
        }
        // Letters and digits: 36 names, each a distinct code.
        let mut codes = std::collections::HashSet::new();
        for c in ('a'..='z').chain('0'..='9') {
            let k = key(&c.to_string()).expect("letter or digit");
            assert!(codes.insert(k), "{c}");
        }
    }

    #[test]
    fn parse_times_and_errors() {
        let p = parse("2.5:space").expect("parses");
        let space = Target::Key(Key::SPACE);
        assert_eq!(p.what, space);
        assert_eq!(
            p.events(1_000_000, 10),
            [(2_500_010, space, true), (2_550_010, space, false)]
        );
        let j = parse("1:Joy1-Button4").expect("a joystick button");
        assert_eq!(j.what, Target::JoyButton(2, 2));
        assert_eq!(
            j.what.input(true),
            Input::JoyButton {
                stick: 2,
                button: 2,
                down: true
            }
        );
        for (name, ..) in JOY_BUTTONS {
            assert!(LONG_HELP.contains(name), "{name} is not in the help");
        }
        assert_eq!(target("joy3-button1"), None);
        for bad in ["2.5", "x:space", "-1:space", "1:nokey", "1:", "inf:a"] {
            let e = parse(bad).expect_err(bad).to_string();
            assert!(e.starts_with("--press '") && !e.contains('\n'), "{e}");
        }
        assert!(parse("1:bogus")
            .expect_err("key")
            .to_string()
            .contains("unknown key 'bogus'"));
    }
}
