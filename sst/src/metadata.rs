//! Reader for a suite's `metadata.json`: per opcode (and per ModR/M reg field
//! for group opcodes) the form's status and its undefined-flags mask.
//!
//! The file looks like
//! `{"cpu": "8086", "opcodes": {"08": {"status": "normal", "flags-mask": 65519},
//! "80": {"reg": {"0": {"status": "normal"}, ...}}}}`; fields this reader does
//! not know are ignored. Opcodes are one byte (`"08"`) or, in the 286 suite,
//! two (`"0F01"`); both are kept as a `u16` (`0x0008`, `0x0F01`).

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// What kind of form an opcode (or opcode/reg pair) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FormStatus {
    /// A documented instruction.
    Normal,
    /// An undocumented instruction with defined behaviour (SALC, SETMO...).
    Undocumented,
    /// An undocumented duplicate of a documented opcode (60h-6Fh, C0h...).
    Alias,
    /// Behaviour that is not defined; run but not counted.
    Undefined,
    /// A prefix byte (no tests of its own).
    Prefix,
    /// An FPU escape.
    Fpu,
    /// An opcode-space extension (0Fh on the 286).
    Extension,
    /// A status this reader does not know; counted like a normal form.
    Other,
}

impl FormStatus {
    /// Whether results of this form count towards the suite's pass rate:
    /// everything except [`FormStatus::Undefined`].
    pub fn counted(self) -> bool {
        self != FormStatus::Undefined
    }

    /// Its name as in `metadata.json`.
    pub fn name(self) -> &'static str {
        match self {
            FormStatus::Normal => "normal",
            FormStatus::Undocumented => "undocumented",
            FormStatus::Alias => "alias",
            FormStatus::Undefined => "undefined",
            FormStatus::Prefix => "prefix",
            FormStatus::Fpu => "fpu",
            FormStatus::Extension => "extension",
            FormStatus::Other => "other",
        }
    }

    /// The status named `s` in `metadata.json`; unknown names are
    /// [`FormStatus::Other`].
    pub fn from_name(s: &str) -> FormStatus {
        match s {
            "normal" => FormStatus::Normal,
            "undocumented" => FormStatus::Undocumented,
            "alias" => FormStatus::Alias,
            "undefined" => FormStatus::Undefined,
            "prefix" => FormStatus::Prefix,
            "fpu" => FormStatus::Fpu,
            "extension" => FormStatus::Extension,
            _ => FormStatus::Other,
        }
    }
}

impl fmt::Display for FormStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Status and undefined-flags mask of one form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FormInfo {
    /// The form's status.
    pub status: FormStatus,
    /// Flags are compared after AND with this mask (FFFFh when the metadata
    /// gives none).
    pub flags_mask: u16,
}

impl Default for FormInfo {
    /// A normal form with every flag defined.
    fn default() -> Self {
        FormInfo {
            status: FormStatus::Normal,
            flags_mask: 0xFFFF,
        }
    }
}

/// One opcode's entry: its own info and, for group opcodes, one per reg.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpcodeInfo {
    /// The opcode's own status, if given (group opcodes usually have none).
    pub info: Option<FormInfo>,
    /// Per ModR/M reg field (0-7), for group opcodes.
    pub reg: Option<[Option<FormInfo>; 8]>,
}

/// The parsed `metadata.json`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    /// The `cpu` field, if any.
    pub cpu: Option<String>,
    /// The `version` field, if any.
    pub version: Option<String>,
    /// Entries by opcode (`0x00XX` or `0x0FXX`).
    pub opcodes: HashMap<u16, OpcodeInfo>,
}

/// Why `metadata.json` could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {message}")]
pub struct MetadataError {
    /// The file.
    pub file: String,
    /// What is wrong.
    pub message: String,
}

#[derive(Deserialize)]
struct RawFile {
    cpu: Option<String>,
    version: Option<String>,
    opcodes: HashMap<String, RawEntry>,
}

#[derive(Deserialize)]
struct RawEntry {
    status: Option<String>,
    #[serde(rename = "flags-mask")]
    flags_mask: Option<u16>,
    reg: Option<HashMap<String, RawEntry>>,
}

impl RawEntry {
    fn info(&self) -> Option<FormInfo> {
        self.status.as_deref().map(|status| FormInfo {
            status: FormStatus::from_name(status),
            flags_mask: self.flags_mask.unwrap_or(0xFFFF),
        })
    }
}

impl Metadata {
    /// Reads and parses a `metadata.json` file.
    pub fn load(path: &Path) -> Result<Metadata, MetadataError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| MetadataError {
            file: name.clone(),
            message: format!("cannot read: {e}"),
        })?;
        Metadata::parse(&text, &name)
    }

    /// Parses the JSON text of a metadata file; `name` labels errors.
    pub fn parse(text: &str, name: &str) -> Result<Metadata, MetadataError> {
        let err = |message: String| MetadataError {
            file: name.to_string(),
            message,
        };
        let raw: RawFile =
            serde_json::from_str(text).map_err(|e| err(format!("bad metadata JSON: {e}")))?;
        let mut opcodes = HashMap::with_capacity(raw.opcodes.len());
        for (key, entry) in &raw.opcodes {
            let op = parse_opcode(key)
                .ok_or_else(|| err(format!("opcode key '{key}' is not 2 or 4 hex digits")))?;
            let reg = match &entry.reg {
                None => None,
                Some(map) => {
                    let mut regs = [None; 8];
                    for (r, e) in map {
                        let i = r
                            .parse::<usize>()
                            .ok()
                            .filter(|&i| i < 8)
                            .ok_or_else(|| err(format!("opcode {key}: bad reg key '{r}'")))?;
                        regs[i] = Some(
                            e.info()
                                .ok_or_else(|| err(format!("opcode {key} reg {r}: no status")))?,
                        );
                    }
                    Some(regs)
                }
            };
            let info = entry.info();
            if info.is_none() && reg.is_none() {
                return Err(err(format!("opcode {key}: neither status nor reg")));
            }
            opcodes.insert(op, OpcodeInfo { info, reg });
        }
        Ok(Metadata {
            cpu: raw.cpu,
            version: raw.version,
            opcodes,
        })
    }

    /// Whether the opcode has per-reg entries (a group opcode).
    pub fn has_reg_forms(&self, opcode: u16) -> bool {
        self.opcodes.get(&opcode).is_some_and(|o| o.reg.is_some())
    }

    /// The info of a form. With `reg` given, a per-reg entry wins over the
    /// opcode's own; without it (or when the reg has no entry) the opcode's
    /// own entry is used. `None` when the metadata does not describe it.
    pub fn form(&self, opcode: u16, reg: Option<u8>) -> Option<FormInfo> {
        let o = self.opcodes.get(&opcode)?;
        let by_reg = match (reg, &o.reg) {
            (Some(r), Some(regs)) => regs.get(r as usize).copied().flatten(),
            _ => None,
        };
        by_reg.or(o.info)
    }
}

/// The form a test file covers, from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct FileForm {
    /// The opcode: `0x00XX` for one byte, `0x0FXX` for two.
    pub opcode: u16,
    /// The ModR/M reg field for group opcode files (`XX.R.MOO.gz`).
    pub reg: Option<u8>,
}

impl fmt::Display for FileForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.opcode > 0xFF {
            write!(f, "{:04X}", self.opcode)?;
        } else {
            write!(f, "{:02X}", self.opcode)?;
        }
        match self.reg {
            Some(r) => write!(f, ".{r}"),
            None => Ok(()),
        }
    }
}

/// Maps a file name `XX.MOO.gz`, `XX.R.MOO.gz`, `XX.MOO` or `XX.R.MOO`
/// (suffix case-insensitive; `XX` may also be a two-byte opcode `0FXX`) to
/// its opcode and reg field; `None` for other names.
pub fn parse_file_name(name: &str) -> Option<FileForm> {
    let lower = name.to_ascii_lowercase();
    let stem_len = if lower.ends_with(".moo.gz") {
        name.len() - ".moo.gz".len()
    } else if lower.ends_with(".moo") {
        name.len() - ".moo".len()
    } else {
        return None;
    };
    let stem = name.get(..stem_len)?;
    let mut parts = stem.split('.');
    let opcode = parse_opcode(parts.next()?)?;
    let reg = match parts.next() {
        None => None,
        Some(r) if r.len() == 1 => Some(r.parse::<u8>().ok().filter(|&r| r < 8)?),
        Some(_) => return None,
    };
    if parts.next().is_some() {
        return None;
    }
    Some(FileForm { opcode, reg })
}

/// An opcode of 2 or 4 hex digits.
fn parse_opcode(s: &str) -> Option<u16> {
    if (s.len() != 2 && s.len() != 4) || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(s, 16).ok()
}

impl FileForm {
    /// The opcode's bytes as they appear in an instruction (one or two).
    pub fn opcode_bytes(&self) -> Vec<u8> {
        if self.opcode > 0xFF {
            vec![(self.opcode >> 8) as u8, self.opcode as u8]
        } else {
            vec![self.opcode as u8]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"{
        "cpu": "8086", "version": "1.0.0", "url": "ignored",
        "opcodes": {
            "00": {"status": "normal"},
            "08": {"status": "normal", "flags": ".....a..", "flags-mask": 65519},
            "D6": {"status": "undocumented"},
            "D8": {"status": "fpu"},
            "F0": {"status": "prefix"},
            "60": {"status": "alias", "arch": "86"},
            "0F": {"status": "extension"},
            "F1": {"status": "something new"},
            "0F01": {"reg": {"5": {"status": "undefined"}}},
            "8F": {"reg": {"0": {"status": "normal"}, "1": {"status": "undefined"}}},
            "D3": {"reg": {"6": {"status": "undocumented", "flags-mask": 63274}}}
        }
    }"#;

    #[test]
    fn parses_statuses_and_masks() {
        let m = Metadata::parse(SAMPLE, "m.json").unwrap();
        assert_eq!(m.cpu.as_deref(), Some("8086"));
        assert_eq!(m.form(0x00, None), Some(FormInfo::default()));
        assert_eq!(
            m.form(0x08, None),
            Some(FormInfo {
                status: FormStatus::Normal,
                flags_mask: 0xFFEF
            })
        );
        assert_eq!(m.form(0xD6, None).unwrap().status, FormStatus::Undocumented);
        assert_eq!(m.form(0xD8, None).unwrap().status, FormStatus::Fpu);
        assert_eq!(m.form(0xF0, None).unwrap().status, FormStatus::Prefix);
        assert_eq!(m.form(0x60, None).unwrap().status, FormStatus::Alias);
        assert_eq!(m.form(0x0F, None).unwrap().status, FormStatus::Extension);
        assert_eq!(m.form(0xF1, None).unwrap().status, FormStatus::Other);
        assert_eq!(
            m.form(0x0F01, Some(5)).unwrap().status,
            FormStatus::Undefined
        );
        assert_eq!(m.form(0x8F, Some(1)).unwrap().status, FormStatus::Undefined);
        assert_eq!(m.form(0x8F, Some(0)).unwrap().status, FormStatus::Normal);
        assert_eq!(m.form(0x8F, None), None);
        assert_eq!(m.form(0x8F, Some(5)), None);
        assert_eq!(m.form(0xD3, Some(6)).unwrap().flags_mask, 63274);
        assert_eq!(m.form(0x00, Some(3)), Some(FormInfo::default()));
        assert!(m.has_reg_forms(0x8F));
        assert!(!m.has_reg_forms(0x00));
        assert_eq!(m.form(0x01, None), None);
    }

    #[test]
    fn counted_forms() {
        assert!(FormStatus::Normal.counted());
        assert!(FormStatus::Undocumented.counted());
        assert!(FormStatus::Alias.counted());
        assert!(FormStatus::Fpu.counted());
        assert!(FormStatus::Extension.counted());
        assert!(FormStatus::Other.counted());
        assert!(!FormStatus::Undefined.counted());
    }

    #[test]
    fn bad_metadata_is_an_error() {
        for bad in [
            "",
            "{",
            r#"{"opcodes": {"0G": {"status": "normal"}}}"#,
            r#"{"opcodes": {"0F1": {"status": "normal"}}}"#,
            r#"{"opcodes": {"00": {"status": 5}}}"#,
            r#"{"opcodes": {"00": {}}}"#,
            r#"{"opcodes": {"00": {"status": "normal", "flags-mask": 70000}}}"#,
            r#"{"opcodes": {"80": {"reg": {"8": {"status": "normal"}}}}}"#,
            r#"{"opcodes": {"80": {"reg": {"0": {}}}}}"#,
            r#"{"nothing": 1}"#,
        ] {
            let e = Metadata::parse(bad, "bad.json").unwrap_err();
            assert!(e.to_string().starts_with("bad.json: "), "{e}");
        }
    }

    #[test]
    fn file_names() {
        let f = |o, r| Some(FileForm { opcode: o, reg: r });
        assert_eq!(parse_file_name("00.MOO.gz"), f(0x00, None));
        assert_eq!(parse_file_name("D3.4.MOO.gz"), f(0xD3, Some(4)));
        assert_eq!(parse_file_name("fe.1.moo"), f(0xFE, Some(1)));
        assert_eq!(parse_file_name("A4.MOO"), f(0xA4, None));
        assert_eq!(parse_file_name("D3.8.MOO.gz"), None);
        assert_eq!(parse_file_name("D3.4.5.MOO.gz"), None);
        assert_eq!(parse_file_name("123.MOO.gz"), None);
        assert_eq!(parse_file_name("00.json"), None);
        assert_eq!(parse_file_name("0F01.2.MOO.gz"), f(0x0F01, Some(2)));
        assert_eq!(parse_file_name("0F0.MOO.gz"), None);
        assert_eq!(parse_file_name("+1.MOO.gz"), None);
        assert_eq!(f(0x0F01, Some(2)).unwrap().to_string(), "0F01.2");
        assert_eq!(f(0x0F01, None).unwrap().opcode_bytes(), vec![0x0F, 0x01]);
        assert_eq!(parse_file_name(".MOO.gz"), None);
        assert_eq!(f(0xD3, Some(4)).unwrap().to_string(), "D3.4");
    }
}
