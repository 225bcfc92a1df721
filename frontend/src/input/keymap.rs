//! Host keys (SDL scancodes, i.e. physical positions) to the PC keyboard's
//! scan code set 1, including the E0h-prefixed keys of the 101-key layout.

use hw::kbc::Key;
use sdl2::keyboard::Scancode as S;

/// The PC key at the host key's position, if the PC has one.
pub fn key(sc: S) -> Option<Key> {
    let n = Key::new;
    let e = Key::ext;
    Some(match sc {
        S::Escape => n(0x01),
        S::Num1 => n(0x02),
        S::Num2 => n(0x03),
        S::Num3 => n(0x04),
        S::Num4 => n(0x05),
        S::Num5 => n(0x06),
        S::Num6 => n(0x07),
        S::Num7 => n(0x08),
        S::Num8 => n(0x09),
        S::Num9 => n(0x0A),
        S::Num0 => n(0x0B),
        S::Minus => n(0x0C),
        S::Equals => n(0x0D),
        S::Backspace => n(0x0E),
        S::Tab => n(0x0F),
        S::Q => n(0x10),
        S::W => n(0x11),
        S::E => n(0x12),
        S::R => n(0x13),
        S::T => n(0x14),
        S::Y => n(0x15),
        S::U => n(0x16),
        S::I => n(0x17),
        S::O => n(0x18),
        S::P => n(0x19),
        S::LeftBracket => n(0x1A),
        S::RightBracket => n(0x1B),
        S::Return => n(0x1C),
        S::LCtrl => n(0x1D),
        S::A => n(0x1E),
        S::S => n(0x1F),
        S::D => n(0x20),
        S::F => n(0x21),
        S::G => n(0x22),
        S::H => n(0x23),
        S::J => n(0x24),
        S::K => n(0x25),
        S::L => n(0x26),
        S::Semicolon => n(0x27),
        S::Apostrophe => n(0x28),
        S::Grave => n(0x29),
        S::LShift => n(0x2A),
        S::Backslash => n(0x2B),
        S::NonUsHash => n(0x2B),
        S::Z => n(0x2C),
        S::X => n(0x2D),
        S::C => n(0x2E),
        S::V => n(0x2F),
        S::B => n(0x30),
        S::N => n(0x31),
        S::M => n(0x32),
        S::Comma => n(0x33),
        S::Period => n(0x34),
        S::Slash => n(0x35),
        S::RShift => n(0x36),
        S::KpMultiply => n(0x37),
        S::LAlt => n(0x38),
        S::Space => n(0x39),
        S::CapsLock => n(0x3A),
        S::F1 => n(0x3B),
        S::F2 => n(0x3C),
        S::F3 => n(0x3D),
        S::F4 => n(0x3E),
        S::F5 => n(0x3F),
        S::F6 => n(0x40),
        S::F7 => n(0x41),
        S::F8 => n(0x42),
        S::F9 => n(0x43),
        S::F10 => n(0x44),
        S::NumLockClear => n(0x45),
        S::ScrollLock => n(0x46),
        S::Kp7 => n(0x47),
        S::Kp8 => n(0x48),
        S::Kp9 => n(0x49),
        S::KpMinus => n(0x4A),
        S::Kp4 => n(0x4B),
        S::Kp5 => n(0x4C),
        S::Kp6 => n(0x4D),
        S::KpPlus => n(0x4E),
        S::Kp1 => n(0x4F),
        S::Kp2 => n(0x50),
        S::Kp3 => n(0x51),
        S::Kp0 => n(0x52),
        S::KpPeriod => n(0x53),
        S::NonUsBackslash => n(0x56),
        S::F11 => n(0x57),
        S::F12 => n(0x58),
        // The grey keys: E0h-prefixed.
        S::KpEnter => e(0x1C),
        S::RCtrl => e(0x1D),
        S::KpDivide => e(0x35),
        S::PrintScreen => e(0x37),
        S::RAlt => e(0x38),
        S::Home => e(0x47),
        S::Up => e(0x48),
        S::PageUp => e(0x49),
        S::Left => e(0x4B),
        S::Right => e(0x4D),
        S::End => e(0x4F),
        S::Down => e(0x50),
        S::PageDown => e(0x51),
        S::Insert => e(0x52),
        S::Delete => e(0x53),
        S::LGui => e(0x5B),
        S::RGui => e(0x5C),
        S::Application => e(0x5D),
        S::Pause => Key::PAUSE,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_1_codes() {
        assert_eq!(key(S::Escape), Some(Key::ESC));
        assert_eq!(key(S::P), Some(Key::new(0x19)));
        assert_eq!(key(S::Return), Some(Key::ENTER));
        assert_eq!(key(S::KpEnter), Some(Key::KP_ENTER));
        assert_eq!(key(S::Up), Some(Key::UP));
        assert_eq!(key(S::RCtrl), Some(Key::RCTRL));
        assert_eq!(key(S::Kp8), Some(Key::new(0x48)));
        assert_eq!(key(S::Mute), None);
        // Every mapped key has a distinct (code, E0) pair.
        let mut seen = std::collections::HashSet::new();
        // SDL's scancodes 4-101 (A to Application) and 224-231 (the
        // modifiers) are contiguous.
        for i in (4..=101).chain(224..=231) {
            if let Some(sc) = S::from_i32(i) {
                if let Some(k) = key(sc) {
                    if sc != S::NonUsHash {
                        assert!(seen.insert(k), "{sc:?} maps to {k:?} twice");
                    }
                }
            }
        }
        assert!(seen.len() >= 100, "{}", seen.len());
    }
}
