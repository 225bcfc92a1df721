//! Profiles: where a program keeps each routine, table and word. Four are
//! built in (`replica`, `replica-demo`, `game-retail`, `game-demo`), written
//! in TOML (`models/profiles/*.toml`); a user may load their own file.
//!
//! A profile finds the program's main code segment by byte signatures: a
//! pattern that must stand at a given offset of the code segment, searched
//! at every paragraph of the loaded program, so a user's own copy of the
//! game is found without edits. Offsets and slots are hexadecimal strings;
//! `??` in a pattern matches any byte.

use serde::Deserialize;

use crate::error::Error;
use crate::memory::GuestMemory;

/// Why a profile cannot be parsed or found; every message is one line
/// naming the profile and the key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    /// The text is not TOML of a profile's shape.
    #[error("profile: {}{message}", line_prefix(.line))]
    Toml {
        /// The line of the error, when the TOML parser knows it.
        line: Option<usize>,
        /// The parser's message, on one line.
        message: String,
    },
    /// An offset that is not hexadecimal.
    #[error("profile {profile}: {key} = \"{value}\" is not a hexadecimal offset")]
    NotHex {
        /// The profile's name.
        profile: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
    },
    /// A signature byte that is neither hexadecimal nor `??`.
    #[error("profile {profile}: signature byte '{byte}' is not hexadecimal")]
    BadByte {
        /// The profile's name.
        profile: String,
        /// The byte as written.
        byte: String,
    },
    /// A required key is missing.
    #[error("profile {profile}: {key} is required")]
    Required {
        /// The profile's name.
        profile: String,
        /// The key (`code.clock`).
        key: &'static str,
    },
    /// A key the format does not have.
    #[error("profile {profile}: unknown {section} key '{key}'")]
    UnknownKey {
        /// The profile's name.
        profile: String,
        /// `code` or `data`.
        section: &'static str,
        /// The key.
        key: String,
    },
    /// A slot past FFh.
    #[error("profile {profile}: {key} is not a slot (0-FF)")]
    NotASlot {
        /// The profile's name.
        profile: String,
        /// The key.
        key: &'static str,
    },
    /// The fountain's slots run past the parameter table.
    #[error(
        "profile {profile}: fountain_slot {slot:X}h: its {FOUNTAIN_SLOTS} slots run past the {PARAM_SLOTS}-slot table"
    )]
    SlotsPastTable {
        /// The profile's name.
        profile: String,
        /// The first fountain slot.
        slot: u8,
    },
    /// No `[[signature]]` table.
    #[error("profile {profile}: at least one [[signature]] is required")]
    NoSignature {
        /// The profile's name.
        profile: String,
    },
    /// No built-in profile has this name.
    #[error("unknown profile '{name}' (built in: {})", BUILTIN.join(", "))]
    Unknown {
        /// The name asked for.
        name: String,
    },
}

/// `line N: ` when the line is known.
fn line_prefix(line: &Option<usize>) -> String {
    line.map(|l| format!("line {l}: ")).unwrap_or_default()
}

/// A signature: `bytes` at `offset` of the main code segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The offset in the code segment.
    pub offset: u16,
    /// The pattern; `None` matches any byte.
    pub bytes: Vec<Option<u8>>,
}

/// Offsets in the main code segment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodeLayout {
    /// The timer setup fragment (loads the divisor, calls the PIT helper).
    pub timer_setup: Option<u16>,
    /// The PIT divisor word.
    pub divisor: u16,
    /// The PIT programming helper.
    pub pit_helper: Option<u16>,
    /// The IRQ0 handler.
    pub irq0: Option<u16>,
    /// The running counter word.
    pub counter: Option<u16>,
    /// The immediate of the self-modifying ADD (the step per interrupt).
    pub step_imm: Option<u16>,
    /// The clock word game logic reads (the snapshot).
    pub clock: u16,
    /// The per-frame update.
    pub frame_update: Option<u16>,
    /// The landing update routine.
    pub landing_update: Option<u16>,
    /// The routine that starts a landing (writes the parameter as 0).
    pub landing_start: Option<u16>,
    /// The fountain routine.
    pub fountain: u16,
    /// The 1,024-entry signed sine table.
    pub sine: u16,
    /// The seven amplitude bytes.
    pub amps: u16,
    /// The parameter lookup routine.
    pub param_lookup: Option<u16>,
    /// The model-state selection routine.
    pub state_select: Option<u16>,
    /// The clock's enable byte.
    pub enable: Option<u16>,
    /// The maximum-elapsed-steps word.
    pub step_limit: Option<u16>,
}

/// Offsets in the data group (SS = DS).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataLayout {
    /// The parameter table (256 signed words).
    pub params: u16,
    /// The first of the six fountain slots.
    pub fountain_slot: u8,
    /// The landing (gate) parameter's slot.
    pub landing_slot: Option<u8>,
    /// The model bank directory (banks 30, 31, 32), if known.
    pub banks: Option<u16>,
}

/// A program profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Its name.
    pub name: String,
    /// What it describes.
    pub description: String,
    /// Signatures of the main code segment (any one must match).
    pub signatures: Vec<Signature>,
    /// Code-segment offsets.
    pub code: CodeLayout,
    /// Data-group offsets.
    pub data: DataLayout,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfile {
    name: String,
    description: String,
    signature: Vec<RawSignature>,
    code: std::collections::BTreeMap<String, String>,
    data: std::collections::BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSignature {
    offset: String,
    bytes: String,
}

fn hex16(profile: &str, key: &str, v: &str) -> Result<u16, ProfileError> {
    u16::from_str_radix(v.trim().trim_end_matches(['h', 'H']), 16).map_err(|_| {
        ProfileError::NotHex {
            profile: profile.into(),
            key: key.into(),
            value: v.into(),
        }
    })
}

fn pattern(profile: &str, s: &str) -> Result<Vec<Option<u8>>, ProfileError> {
    s.split_whitespace()
        .map(|b| {
            if b == "??" {
                Ok(None)
            } else {
                u8::from_str_radix(b, 16)
                    .map(Some)
                    .map_err(|_| ProfileError::BadByte {
                        profile: profile.into(),
                        byte: b.into(),
                    })
            }
        })
        .collect()
}

/// [`ProfileError::UnknownKey`] for the first key of `section` left in
/// `rest` after the known ones were taken.
fn no_other_keys(
    profile: &str,
    section: &'static str,
    rest: &std::collections::BTreeMap<String, String>,
) -> Result<(), ProfileError> {
    match rest.keys().next() {
        Some(k) => Err(ProfileError::UnknownKey {
            profile: profile.into(),
            section,
            key: k.clone(),
        }),
        None => Ok(()),
    }
}

/// Slots in the parameter table.
pub const PARAM_SLOTS: usize = 256;
/// The fountain's consecutive slots from [`DataLayout::fountain_slot`].
pub const FOUNTAIN_SLOTS: usize = 6;

/// A TOML error in one line: where (line of `text`) and what.
fn toml_error(text: &str, e: &toml::de::Error) -> ProfileError {
    let line = e
        .span()
        .map(|r| text[..r.start.min(text.len())].matches('\n').count() + 1);
    ProfileError::Toml {
        line,
        message: e.message().trim().replace('\n', " "),
    }
}

impl Profile {
    /// Parses a profile from TOML text. A profile may come from the user:
    /// every error is one line, and every slot and offset is checked
    /// against the table it indexes.
    pub fn parse(text: &str) -> Result<Profile, ProfileError> {
        let raw: RawProfile = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        let n = raw.name.clone();
        let mut code = raw.code;
        let mut data = raw.data;
        let take = |m: &mut std::collections::BTreeMap<String, String>,
                    k: &str|
         -> Result<Option<u16>, ProfileError> {
            m.remove(k).map(|v| hex16(&n, k, &v)).transpose()
        };
        let need = |v: Option<u16>, key: &'static str| {
            v.ok_or_else(|| ProfileError::Required {
                profile: n.clone(),
                key,
            })
        };
        let c = CodeLayout {
            timer_setup: take(&mut code, "timer_setup")?,
            divisor: need(take(&mut code, "divisor")?, "code.divisor")?,
            pit_helper: take(&mut code, "pit_helper")?,
            irq0: take(&mut code, "irq0")?,
            counter: take(&mut code, "counter")?,
            step_imm: take(&mut code, "step_imm")?,
            clock: need(take(&mut code, "clock")?, "code.clock")?,
            frame_update: take(&mut code, "frame_update")?,
            landing_update: take(&mut code, "landing_update")?,
            landing_start: take(&mut code, "landing_start")?,
            fountain: need(take(&mut code, "fountain")?, "code.fountain")?,
            sine: need(take(&mut code, "sine")?, "code.sine")?,
            amps: need(take(&mut code, "amps")?, "code.amps")?,
            param_lookup: take(&mut code, "param_lookup")?,
            state_select: take(&mut code, "state_select")?,
            enable: take(&mut code, "enable")?,
            step_limit: take(&mut code, "step_limit")?,
        };
        no_other_keys(&n, "code", &code)?;
        let small = |v: Option<u16>, key: &'static str| -> Result<Option<u8>, ProfileError> {
            v.map(|x| {
                u8::try_from(x).map_err(|_| ProfileError::NotASlot {
                    profile: n.clone(),
                    key,
                })
            })
            .transpose()
        };
        let d = DataLayout {
            params: need(take(&mut data, "params")?, "data.params")?,
            fountain_slot: need(
                small(take(&mut data, "fountain_slot")?, "fountain_slot")?.map(u16::from),
                "data.fountain_slot",
            )? as u8,
            landing_slot: small(take(&mut data, "landing_slot")?, "landing_slot")?,
            banks: take(&mut data, "banks")?,
        };
        no_other_keys(&n, "data", &data)?;
        if d.fountain_slot as usize + FOUNTAIN_SLOTS > PARAM_SLOTS {
            return Err(ProfileError::SlotsPastTable {
                profile: n,
                slot: d.fountain_slot,
            });
        }
        let signatures = raw
            .signature
            .iter()
            .map(|s| {
                Ok(Signature {
                    offset: hex16(&n, "signature.offset", &s.offset)?,
                    bytes: pattern(&n, &s.bytes)?,
                })
            })
            .collect::<Result<Vec<_>, ProfileError>>()?;
        if signatures.is_empty() {
            return Err(ProfileError::NoSignature { profile: n });
        }
        Ok(Profile {
            name: raw.name,
            description: raw.description,
            signatures,
            code: c,
            data: d,
        })
    }

    /// A built-in profile by name.
    pub fn builtin(name: &str) -> Result<Profile, ProfileError> {
        let text = match name {
            "replica" => include_str!("../profiles/replica.toml"),
            "replica-demo" => include_str!("../profiles/replica-demo.toml"),
            "game-retail" => include_str!("../profiles/game-retail.toml"),
            "game-demo" => include_str!("../profiles/game-demo.toml"),
            _ => return Err(ProfileError::Unknown { name: name.into() }),
        };
        Profile::parse(text)
    }

    /// Finds the main code segment: the first paragraph `seg` in
    /// `first..=last` where every byte of some signature stands at
    /// `seg:offset`.
    pub fn find_code_segment(
        &self,
        mem: &(impl GuestMemory + ?Sized),
        first: u16,
        last: u16,
    ) -> Option<u16> {
        (first..=last).find(|&seg| {
            self.signatures.iter().any(|s| {
                let base = ((seg as u32) << 4) + s.offset as u32;
                s.bytes
                    .iter()
                    .enumerate()
                    .all(|(i, b)| b.is_none_or(|b| mem.read8(base + i as u32) == b))
            })
        })
    }

    /// `v`, an optional word of this profile a command needs (`symbol` is
    /// its key, such as `code.state_select`), or [`Error::MissingSymbol`].
    pub fn require(&self, v: Option<u16>, symbol: &'static str) -> Result<u16, Error> {
        v.ok_or_else(|| Error::MissingSymbol {
            profile: self.name.clone(),
            symbol,
        })
    }

    /// The six fountain slots' offsets in the data group.
    pub fn fountain_params(&self) -> u16 {
        self.data
            .params
            .wrapping_add(2 * self.data.fountain_slot as u16)
    }
}

/// The names of the built-in profiles.
pub const BUILTIN: [&str; 4] = ["replica", "replica-demo", "game-retail", "game-demo"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_profiles_parse() {
        for n in BUILTIN {
            let p = Profile::builtin(n).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(p.name, n);
        }
        assert!(Profile::builtin("nope").is_err());
    }

    #[test]
    fn bad_profiles_are_errors_naming_the_key() {
        let base = "name='x'\ndescription=''\n[[signature]]\noffset='0'\nbytes='SIG'\n\
            [code]\ndivisor='1774'\nclock='0BF8'\nfountain='DB1A'\nsine='944A'\namps='DB6A'\nEXTRA\n\
            [data]\nparams='7935'\nfountain_slot='9'\n";
        let ok = base.replace("SIG", "8B ?? 74").replace("EXTRA", "");
        let p = Profile::parse(&ok).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.signatures[0].bytes, vec![Some(0x8B), None, Some(0x74)]);
        assert_eq!(p.code.fountain, 0xDB1A);
        let e =
            Profile::parse(&base.replace("SIG", "ZZ").replace("EXTRA", "")).expect_err("bad byte");
        assert!(e.to_string().contains("ZZ"), "{e}");
        let e = Profile::parse(&ok.replace("sine='944A'", "sine='94G'")).expect_err("bad offset");
        assert!(e.to_string().contains("sine"), "{e}");
        let e = Profile::parse(&ok.replace("amps='DB6A'", "")).expect_err("missing key");
        assert!(e.to_string().contains("amps"), "{e}");
        let e = Profile::parse(&base.replace("SIG", "8B").replace("EXTRA", "bogus='1'"))
            .expect_err("unknown key");
        assert!(e.to_string().contains("bogus"), "{e}");
    }

    #[test]
    fn signatures_find_the_segment_at_any_paragraph() {
        let p = Profile::builtin("game-demo").unwrap_or_else(|e| panic!("{e}"));
        let mut mem = vec![0u8; 0x30000];
        let seg = 0x1234u16;
        let at = ((seg as usize) << 4) + 0x46E6;
        mem[at..at + 7].copy_from_slice(&[118, 154, 136, 112, 85, 60, 118]);
        assert_eq!(p.find_code_segment(&mem, 0x1000, 0x2000), Some(seg));
        assert_eq!(p.find_code_segment(&mem, 0x1235, 0x2000), None);
    }
}
