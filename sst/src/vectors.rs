//! The 386 real-mode instruction vectors (`shared/vectors/386-real`, format
//! in `shared/tools/gen386/README.md`): gzip'd JSON arrays of tests, each one
//! instruction with its initial and final registers and memory, the flags
//! to compare, and the exception the instruction raises (recorded at the
//! fault, before delivery). [`crate::runner::VectorRunner`] runs them.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use serde::Deserialize;

use crate::error::SstError;

/// One test of the vector format.
#[derive(Debug, Deserialize)]
pub struct Vector {
    /// Disassembly (informative).
    pub name: String,
    /// The instruction's bytes.
    pub bytes: Vec<u8>,
    /// The initial state.
    pub initial: VectorState,
    /// The final state (registers `null` only for an inconsistent record).
    #[serde(rename = "final")]
    pub fin: VectorFinal,
    /// The exception the instruction raises, if any.
    pub exception: Option<VectorException>,
    /// EFLAGS bits to compare.
    pub flags_mask: u32,
    /// Register bits NOT to compare, by register name.
    #[serde(default)]
    pub regs_undefined: HashMap<String, u32>,
    /// Written bytes whose value is undefined.
    #[serde(default)]
    pub ram_undefined: Vec<u32>,
}

/// Registers and memory.
#[derive(Debug, Deserialize)]
pub struct VectorState {
    /// Registers by name (`eax`... `gs`, `eip`, `eflags`).
    pub regs: HashMap<String, u32>,
    /// Memory bytes: linear address and value.
    pub ram: Vec<(u32, u8)>,
}

/// The final registers (possibly absent) and memory.
#[derive(Debug, Deserialize)]
pub struct VectorFinal {
    /// Registers by name.
    pub regs: Option<HashMap<String, u32>>,
    /// Final values of the bytes written.
    pub ram: Vec<(u32, u8)>,
}

/// A recorded exception.
#[derive(Debug, Deserialize)]
pub struct VectorException {
    /// Its vector number.
    pub vector: u8,
}

/// True for a vector file name (`*.json.gz`, but not `index.json`).
pub fn is_vector_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.ends_with(".json.gz") || (l.ends_with(".json") && l != "index.json" && l != "metadata.json")
}

/// Reads a vector file (gzip'd or plain JSON).
pub fn read_vector_file(path: &Path) -> Result<Vec<Vector>, SstError> {
    let err = |m: String| SstError::input(path, m);
    let raw = std::fs::read(path).map_err(|e| err(format!("cannot read: {e}")))?;
    let text = if raw.starts_with(&[0x1F, 0x8B]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .map_err(|e| err(format!("bad gzip data: {e}")))?;
        out
    } else {
        raw
    };
    serde_json::from_slice(&text).map_err(|e| err(format!("not a vector file: {e}")))
}
