//! Profiles: a program's symbol table. A profile names offsets in the
//! program's code, data and stack segments (`[code]`, `[data]`, `[stack]`),
//! finds those segments by byte signatures, and says which routines it
//! holds (`[routine.NAME]`, each naming only what its model needs). Four
//! are built in (`replica`, `replica-demo`, `game-retail`, `game-demo`),
//! written in TOML (`models/profiles/*.toml`); a user may load their own,
//! for an .EXE or a .COM alike.
//!
//! A signature is a pattern that must stand at a given offset of a segment,
//! searched at every paragraph of the loaded program (from the PSP for a
//! .COM, whose offsets count from it, from PSP+10h for an .EXE), so a
//! user's own copy is found without edits. The code segment needs one; the
//! data segment is found by its own signatures when the profile has some,
//! else it is the stack segment (SS at the entry: the data group of a
//! program where SS = DS, and the PSP of a .COM). Offsets and values are
//! hexadecimal strings; `??` in a pattern matches any byte.
//!
//! The format before routine sections (`data.fountain_slot`,
//! `data.landing_slot`) is still read: those two keys become the `slot` of
//! routines `fountain` and `landing`.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::Error;
use crate::memory::GuestMemory;
use crate::model::Model;
use crate::registry;

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
    /// An offset or value that is not hexadecimal.
    #[error("profile {profile}: {key} = \"{value}\" is not a hexadecimal number")]
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
    /// A key the format does not have.
    #[error("profile {profile}: unknown {section} key '{key}'")]
    UnknownKey {
        /// The profile's name.
        profile: String,
        /// The section (`routine.fountain`).
        section: String,
        /// The key.
        key: String,
    },
    /// A routine value past its largest.
    #[error("profile {profile}: {key} = {value:X}h is past its largest, {max:X}h")]
    TooLarge {
        /// The profile's name.
        profile: String,
        /// The key (`routine.fountain.slot`).
        key: String,
        /// The value given.
        value: u16,
        /// The largest allowed.
        max: u16,
    },
    /// A symbol named in two sections.
    #[error("profile {profile}: symbol '{symbol}' is in both [{first}] and [{second}]")]
    Duplicate {
        /// The profile's name.
        profile: String,
        /// The symbol.
        symbol: String,
        /// Its first section.
        first: &'static str,
        /// Its second.
        second: &'static str,
    },
    /// A routine section whose model is not registered.
    #[error("profile {profile}: routine {routine}: no model '{model}' (models: {})", registry::names().join(", "))]
    UnknownModel {
        /// The profile's name.
        profile: String,
        /// The routine section.
        routine: String,
        /// The model asked for.
        model: String,
    },
    /// A signature's segment that is neither code nor data.
    #[error("profile {profile}: signature segment '{segment}' is not code or data")]
    BadSegment {
        /// The profile's name.
        profile: String,
        /// The segment as written.
        segment: String,
    },
    /// No `[[signature]]` of the code segment.
    #[error("profile {profile}: at least one [[signature]] of the code segment is required")]
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

/// The segment a symbol's offset counts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seg {
    /// The main code segment (found by signature).
    Code,
    /// The data segment (found by signature, else the stack segment).
    Data,
    /// The stack segment (SS at the entry).
    Stack,
}

impl Seg {
    /// Its section name.
    pub fn name(self) -> &'static str {
        match self {
            Seg::Code => "code",
            Seg::Data => "data",
            Seg::Stack => "stack",
        }
    }
}

/// A signature: `bytes` at `offset` of a segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The segment it locates (code or data).
    pub seg: Seg,
    /// The offset in that segment.
    pub offset: u16,
    /// The pattern; `None` matches any byte.
    pub bytes: Vec<Option<u8>>,
}

/// A routine section as written: its model, the model's symbols it maps to
/// other profile symbols, and the values it gives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoutineSpec {
    /// The model's name.
    pub model: String,
    /// Model symbol -> profile symbol, where they differ.
    pub names: BTreeMap<String, String>,
    /// The values given (`slot`).
    pub values: BTreeMap<String, u16>,
}

/// A routine resolved against its profile: the model, the routine's entry
/// and every symbol the model declared, located.
#[derive(Clone)]
pub struct Routine {
    /// The routine's name in the profile.
    pub name: String,
    /// Its model.
    pub model: &'static dyn Model,
    /// The entry's offset in the code segment.
    pub entry: u16,
    symbols: Vec<(&'static str, Seg, u16)>,
    values: Vec<(&'static str, u16)>,
}

impl std::fmt::Debug for Routine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Routine")
            .field("name", &self.name)
            .field("model", &self.model.name())
            .field("entry", &self.entry)
            .field("symbols", &self.symbols)
            .field("values", &self.values)
            .finish()
    }
}

impl Routine {
    /// Where the model's symbol `name` is.
    pub fn symbol(&self, name: &str) -> Option<(Seg, u16)> {
        self.symbols
            .iter()
            .find(|s| s.0 == name)
            .map(|&(_, seg, off)| (seg, off))
    }

    /// The routine's value `name` (its default when the section does not
    /// give it; 0 for a value the model does not declare).
    pub fn value(&self, name: &str) -> u16 {
        self.values.iter().find(|v| v.0 == name).map_or(0, |v| v.1)
    }
}

/// Offsets in the main code segment under their pre-routine names: a view
/// of the symbol table kept for lock-step callers. A word the profile does
/// not name is 0 (`Option` fields: `None`); [`Profile::symbol`] tells.
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

/// Offsets in the data group under their pre-routine names (a view, as
/// [`CodeLayout`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataLayout {
    /// The parameter table (256 signed words).
    pub params: u16,
    /// The first of the six fountain slots (routine `fountain`'s `slot`).
    pub fountain_slot: u8,
    /// The landing parameter's slot (routine `landing`'s `slot`).
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
    /// Signatures of its segments (for each segment, any one must match).
    pub signatures: Vec<Signature>,
    /// The symbol table: name -> segment and offset.
    pub symbols: BTreeMap<String, (Seg, u16)>,
    /// The routine sections, by routine name.
    pub routines: BTreeMap<String, RoutineSpec>,
    /// Code-segment offsets under their old names (a view of `symbols`).
    pub code: CodeLayout,
    /// Data-group offsets under their old names (a view of `symbols`).
    pub data: DataLayout,
}

type Table = BTreeMap<String, String>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfile {
    name: String,
    /// Optional: a one-line note for `--help`-style listings.
    #[serde(default)]
    description: String,
    #[serde(default)]
    signature: Vec<RawSignature>,
    #[serde(default)]
    code: Table,
    #[serde(default)]
    data: Table,
    #[serde(default)]
    stack: Table,
    #[serde(default)]
    routine: BTreeMap<String, Table>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSignature {
    #[serde(default)]
    segment: Option<String>,
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

/// Slots in the parameter table (signed words).
pub const PARAM_SLOTS: usize = 256;
/// Bytes of the parameter table: [`PARAM_SLOTS`] words.
pub const PARAM_TABLE_BYTES: u32 = 2 * PARAM_SLOTS as u32;
/// The fountain's consecutive slots from its `slot`.
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

/// The symbol table of the three sections; a name in two is an error.
fn symbol_table(
    n: &str,
    sections: [(Seg, &Table); 3],
) -> Result<BTreeMap<String, (Seg, u16)>, ProfileError> {
    let mut symbols: BTreeMap<String, (Seg, u16)> = BTreeMap::new();
    for (seg, table) in sections {
        for (k, v) in table {
            let off = hex16(n, &format!("{}.{k}", seg.name()), v)?;
            if let Some(&(first, _)) = symbols.get(k) {
                return Err(ProfileError::Duplicate {
                    profile: n.into(),
                    symbol: k.clone(),
                    first: first.name(),
                    second: seg.name(),
                });
            }
            symbols.insert(k.clone(), (seg, off));
        }
    }
    Ok(symbols)
}

/// One routine section: `model`, the model's symbols mapped to profile
/// symbols, and its values (checked against the model's largest).
fn routine_spec(n: &str, routine: &str, table: &Table) -> Result<RoutineSpec, ProfileError> {
    let model_name = table
        .get("model")
        .cloned()
        .unwrap_or_else(|| routine.into());
    let model = registry::find(&model_name).ok_or_else(|| ProfileError::UnknownModel {
        profile: n.into(),
        routine: routine.into(),
        model: model_name.clone(),
    })?;
    let iface = model.interface();
    let symbols = iface.symbols();
    let mut spec = RoutineSpec {
        model: model_name,
        ..RoutineSpec::default()
    };
    for (k, v) in table.iter().filter(|(k, _)| *k != "model") {
        let key = format!("routine.{routine}.{k}");
        if let Some(val) = iface.values.iter().find(|x| x.name == k) {
            let x = hex16(n, &key, v)?;
            if x > val.max {
                return Err(ProfileError::TooLarge {
                    profile: n.into(),
                    key,
                    value: x,
                    max: val.max,
                });
            }
            spec.values.insert(k.clone(), x);
        } else if symbols.contains(&k.as_str()) {
            spec.names.insert(k.clone(), v.trim().to_string());
        } else {
            return Err(ProfileError::UnknownKey {
                profile: n.into(),
                section: format!("routine.{routine}"),
                key: k.clone(),
            });
        }
    }
    Ok(spec)
}

/// The old format's routine keys (`data.fountain_slot`,
/// `data.landing_slot`) moved into routine sections.
fn old_format_routines(data: &mut Table, routine: &mut BTreeMap<String, Table>) {
    if !routine.is_empty() {
        return;
    }
    for (key, name) in [("fountain_slot", "fountain"), ("landing_slot", "landing")] {
        if let Some(v) = data.remove(key) {
            routine.insert(name.into(), Table::from([("slot".into(), v)]));
        }
    }
}

fn signatures(n: &str, raw: &[RawSignature]) -> Result<Vec<Signature>, ProfileError> {
    let sigs = raw
        .iter()
        .map(|s| {
            let seg = match s.segment.as_deref().unwrap_or("code") {
                "code" => Seg::Code,
                "data" => Seg::Data,
                other => {
                    return Err(ProfileError::BadSegment {
                        profile: n.into(),
                        segment: other.into(),
                    })
                }
            };
            Ok(Signature {
                seg,
                offset: hex16(n, "signature.offset", &s.offset)?,
                bytes: pattern(n, &s.bytes)?,
            })
        })
        .collect::<Result<Vec<_>, ProfileError>>()?;
    if !sigs.iter().any(|s| s.seg == Seg::Code) {
        return Err(ProfileError::NoSignature { profile: n.into() });
    }
    Ok(sigs)
}

impl Profile {
    /// Parses a profile from TOML text. A profile may come from the user:
    /// every error is one line. Symbols are not checked here against what
    /// a model needs: that is asked of the routine a command runs
    /// ([`Profile::routine`]), so a profile names only what it knows.
    pub fn parse(text: &str) -> Result<Profile, ProfileError> {
        let mut raw: RawProfile = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        let n = raw.name.clone();
        old_format_routines(&mut raw.data, &mut raw.routine);
        let symbols = symbol_table(
            &n,
            [
                (Seg::Code, &raw.code),
                (Seg::Data, &raw.data),
                (Seg::Stack, &raw.stack),
            ],
        )?;
        let routines = raw
            .routine
            .iter()
            .map(|(r, t)| Ok((r.clone(), routine_spec(&n, r, t)?)))
            .collect::<Result<BTreeMap<_, _>, ProfileError>>()?;
        let mut p = Profile {
            signatures: signatures(&n, &raw.signature)?,
            name: raw.name,
            description: raw.description,
            symbols,
            routines,
            code: CodeLayout::default(),
            data: DataLayout::default(),
        };
        p.fill_views();
        Ok(p)
    }

    /// Fills [`Profile::code`] and [`Profile::data`] from the symbols.
    fn fill_views(&mut self) {
        let c = |k: &str| self.symbol(k).map(|s| s.1);
        let code = CodeLayout {
            timer_setup: c("timer_setup"),
            divisor: c("divisor").unwrap_or(0),
            pit_helper: c("pit_helper"),
            irq0: c("irq0"),
            counter: c("counter"),
            step_imm: c("step_imm"),
            clock: c("clock").unwrap_or(0),
            frame_update: c("frame_update"),
            landing_update: c("landing_update"),
            landing_start: c("landing_start"),
            fountain: c("fountain").unwrap_or(0),
            sine: c("sine").unwrap_or(0),
            amps: c("amps").unwrap_or(0),
            param_lookup: c("param_lookup"),
            state_select: c("state_select"),
            enable: c("enable"),
            step_limit: c("step_limit"),
        };
        let slot = |r: &str| {
            self.routines
                .get(r)
                .map(|s| s.values.get("slot").copied().unwrap_or(0) as u8)
        };
        let data = DataLayout {
            params: c("params").unwrap_or(0),
            fountain_slot: slot("fountain").unwrap_or(0),
            landing_slot: slot("landing"),
            banks: c("banks"),
        };
        self.code = code;
        self.data = data;
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

    /// Where symbol `name` is.
    pub fn symbol(&self, name: &str) -> Option<(Seg, u16)> {
        self.symbols.get(name).copied()
    }

    /// The routines this profile holds: its routine sections.
    pub fn routine_names(&self) -> Vec<String> {
        self.routines.keys().cloned().collect()
    }

    /// Resolves routine `name`: its section, or, with none, the registered
    /// model of that name with the symbols under the model's own names. The
    /// error names the routine's first missing symbol and nothing else.
    pub fn routine(&self, name: &str) -> Result<Routine, Error> {
        let default;
        let spec = match self.routines.get(name) {
            Some(s) => s,
            None => {
                default = RoutineSpec {
                    model: name.into(),
                    ..RoutineSpec::default()
                };
                &default
            }
        };
        let model = registry::find(&spec.model).ok_or_else(|| Error::UnknownRoutine {
            profile: self.name.clone(),
            routine: name.into(),
            known: registry::names().join(", "),
        })?;
        let iface = model.interface();
        let mut symbols = Vec::new();
        for sym in iface.symbols() {
            let mapped = spec.names.get(sym).map_or(sym, String::as_str);
            let (seg, off) = self.symbol(mapped).ok_or_else(|| Error::MissingSymbol {
                profile: self.name.clone(),
                routine: name.into(),
                symbol: mapped.into(),
            })?;
            symbols.push((sym, seg, off));
        }
        let entry = match symbols[0] {
            (_, Seg::Code, off) => off,
            (s, seg, _) => {
                return Err(Error::NotCode {
                    profile: self.name.clone(),
                    routine: name.into(),
                    symbol: spec.names.get(s).map_or(s.to_string(), Clone::clone),
                    seg: seg.name(),
                })
            }
        };
        let values = iface
            .values
            .iter()
            .map(|v| {
                (
                    v.name,
                    spec.values.get(v.name).copied().unwrap_or(v.default),
                )
            })
            .collect();
        Ok(Routine {
            name: name.into(),
            model,
            entry,
            symbols,
            values,
        })
    }

    /// Finds segment `seg` (code or data): the first paragraph in
    /// `first..=last` where every byte of one of its signatures stands at
    /// `seg:offset`. `None` also when the profile has no signature of it.
    pub fn find_segment(
        &self,
        seg: Seg,
        mem: &(impl GuestMemory + ?Sized),
        first: u16,
        last: u16,
    ) -> Option<u16> {
        let sigs: Vec<&Signature> = self.signatures.iter().filter(|s| s.seg == seg).collect();
        if sigs.is_empty() {
            return None;
        }
        (first..=last).find(|&para| {
            sigs.iter().any(|s| {
                let base = ((para as u32) << 4) + s.offset as u32;
                s.bytes
                    .iter()
                    .enumerate()
                    .all(|(i, b)| b.is_none_or(|b| mem.read8(base + i as u32) == b))
            })
        })
    }

    /// Finds the main code segment ([`Profile::find_segment`] of code).
    pub fn find_code_segment(
        &self,
        mem: &(impl GuestMemory + ?Sized),
        first: u16,
        last: u16,
    ) -> Option<u16> {
        self.find_segment(Seg::Code, mem, first, last)
    }

    /// Whether the profile locates its data segment by signature.
    pub fn has_data_signature(&self) -> bool {
        self.signatures.iter().any(|s| s.seg == Seg::Data)
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
            [code]\nclock='0BF8'\nfountain='DB1A'\nsine='944A'\namps='DB6A'\n\
            [data]\nparams='7935'\n[routine.fountain]\nslot='9'\nEXTRA\n";
        let ok = base.replace("SIG", "8B ?? 74").replace("EXTRA", "");
        let p = Profile::parse(&ok).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.signatures[0].bytes, vec![Some(0x8B), None, Some(0x74)]);
        assert_eq!(p.symbol("fountain"), Some((Seg::Code, 0xDB1A)));
        assert_eq!(p.data.fountain_slot, 9);
        let e =
            Profile::parse(&base.replace("SIG", "ZZ").replace("EXTRA", "")).expect_err("bad byte");
        assert!(e.to_string().contains("ZZ"), "{e}");
        let e = Profile::parse(&ok.replace("sine='944A'", "sine='94G'")).expect_err("bad offset");
        assert!(e.to_string().contains("sine"), "{e}");
        let e = Profile::parse(&base.replace("SIG", "8B").replace("EXTRA", "bogus='1'"))
            .expect_err("unknown key");
        assert!(
            e.to_string().contains("routine.fountain key 'bogus'"),
            "{e}"
        );
        let e = Profile::parse(&ok.replace("slot='9'", "slot='FB'")).expect_err("slot");
        assert!(e.to_string().contains("routine.fountain.slot"), "{e}");
        let e =
            Profile::parse(&ok.replace("[routine.fountain]", "[routine.fountain]\nmodel='nope'"))
                .expect_err("model");
        assert!(e.to_string().contains("no model 'nope'"), "{e}");
        let e = Profile::parse(&ok.replace("[data]", "[data]\nclock='1'")).expect_err("twice");
        assert!(e.to_string().contains("'clock' is in both"), "{e}");
    }

    /// A profile names only what it knows; asking for a routine names the
    /// first symbol that routine lacks, and nothing about other routines.
    #[test]
    fn a_routine_names_only_its_own_missing_symbol() {
        let text = "name='com'\ndescription=''\n[[signature]]\noffset='100'\nbytes='EB'\n\
            [code]\nfountain='200'\nclock='300'\nsine='400'\namps='380'\n[data]\nparams='1000'\n";
        let p = Profile::parse(text).unwrap_or_else(|e| panic!("{e}"));
        let r = p.routine("fountain").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((r.entry, r.value("slot")), (0x200, 0));
        let e = p.routine("state-selection").expect_err("no state_select");
        assert_eq!(
            e.to_string(),
            "profile com does not name 'state_select', which routine state-selection needs"
        );
        let e = Profile::parse(&text.replace("amps='380'\n", ""))
            .unwrap_or_else(|e| panic!("{e}"))
            .routine("fountain")
            .expect_err("no amps");
        assert_eq!(
            e.to_string(),
            "profile com does not name 'amps', which routine fountain needs"
        );
        // A routine section may map a model's symbol to another name.
        let p = Profile::parse(
            &text
                .replace("amps='380'", "heights='380'")
                .to_string()
                .replace("[data]", "[routine.fountain]\namps='heights'\n[data]"),
        );
        let p = p.unwrap_or_else(|e| panic!("{e}"));
        let r = p.routine("fountain").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.symbol("amps"), Some((Seg::Code, 0x380)));
    }

    /// The format before routine sections still parses, its slots moved
    /// into routines `fountain` and `landing`.
    #[test]
    fn the_old_format_is_still_read() {
        let old = "name='old'\ndescription=''\n[[signature]]\noffset='0321'\nbytes='8B'\n\
            [code]\ndivisor='1774'\nclock='0BF8'\nfountain='DB1A'\nsine='944A'\namps='DB6A'\n\
            landing_update='C656'\n[data]\nparams='7935'\nfountain_slot='9'\nlanding_slot='14'\n";
        let p = Profile::parse(old).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.routine_names(), ["fountain", "landing"]);
        assert_eq!((p.data.fountain_slot, p.data.landing_slot), (9, Some(20)));
        let r = p.routine("landing").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((r.entry, r.value("slot")), (0xC656, 20));
        let new = Profile::builtin("replica").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            new.data,
            DataLayout {
                banks: Some(0x1000),
                ..p.data.clone()
            }
        );
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

    /// A data signature finds the data segment on its own; without one
    /// there is none to find (the caller takes the stack segment).
    #[test]
    fn a_data_signature_finds_the_data_segment() {
        let text = "name='two'\ndescription=''\n\
            [[signature]]\noffset='10'\nbytes='AA BB'\n\
            [[signature]]\nsegment='data'\noffset='20'\nbytes='CC ?? DD'\n[data]\nparams='30'\n";
        let p = Profile::parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert!(p.has_data_signature());
        let mut mem = vec![0u8; 0x10000];
        mem[0x1000 + 0x10..0x1000 + 0x12].copy_from_slice(&[0xAA, 0xBB]);
        mem[0x3000 + 0x20..0x3000 + 0x23].copy_from_slice(&[0xCC, 0x00, 0xDD]);
        assert_eq!(p.find_segment(Seg::Code, &mem, 0, 0xF00), Some(0x100));
        assert_eq!(p.find_segment(Seg::Data, &mem, 0, 0xF00), Some(0x300));
        let e = Profile::parse(&text.replace("segment='data'", "segment='heap'"));
        assert!(e.expect_err("segment").to_string().contains("'heap'"));
        let code_only = Profile::builtin("replica").unwrap_or_else(|e| panic!("{e}"));
        assert!(!code_only.has_data_signature());
        assert_eq!(code_only.find_segment(Seg::Data, &mem, 0, 0xF00), None);
    }

    #[test]
    fn a_profile_needs_no_description() {
        let text = "name='short'\n[[signature]]\noffset='100'\nbytes='EB'\n[code]\nclock='240'\n";
        let p = Profile::parse(text).expect("a profile without a description parses");
        assert_eq!(p.description, "");
        assert_eq!(p.name, "short");
    }
}
