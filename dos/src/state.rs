//! Save states: the whole machine (CPU, memory, every device) and the DOS
//! and BIOS state (processes, memory arena, XMS, EMS, mouse, the system
//! file table with its open host files) in one file.
//!
//! Format (all integers little-endian):
//!
//! | offset | size | what |
//! |---|---|---|
//! | 0 | 8 | magic `TANDEMSS` |
//! | 8 | 4 | format version ([`VERSION`]) |
//! | 12 | 8 | payload length in bytes |
//! | 20 | 4 | CRC-32 (IEEE) of the payload |
//! | 24 | ... | payload: deflate-compressed bincode of [`Snapshot`] |
//!
//! Open files are stored by their DOS path on drive C: (never a host path)
//! and their position, and reopened through the resuming run's
//! [`Drive`], the same sandbox every guest path goes
//! through (so a copied folder works, and a crafted state naming `..`, an
//! absolute host path or a symlink out is refused as a damaged state). Hooks (breakpoints) are not
//! machine state and are not saved; neither is the 8086 cycle-exact bus
//! unit (a state saved in that mode resumes register-level).

use std::io::{Read, Write};
use std::path::Path;

use hw::Machine;
use serde::{Deserialize, Serialize};

use crate::drive::Drive;
use crate::sft;
pub use crate::sft::ReopenError;
use crate::Dos;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"TANDEMSS";
/// The format version this build writes and reads (14: the MPU-401 has
/// its intelligent mode's sequencer and the scheduler its event, and the
/// machine's configuration has the DOS layout (`--dos-layout`); 13: the bus has the
/// game port, the CD-ROM drives' audio transport and the Gravis UltraSound,
/// the scheduler the GUS's event, DOS has MSCDEX and the read-only drives;
/// 12: the scratch of the
/// step in progress, the CPU's and the bus's, and the CPU's slow-path flag,
/// derived from its hooks, are not saved; 11: DOS is saved as its
/// parts, the kernel, the BIOS, the console and the diagnostics; 10: the bus has the
/// Sound Blaster 16 and the scheduler its event; 9: the bus has the
/// MPU-401; 8: the OPL is a
/// YMF262 with its bank 1 registers and synthesis; 7: the bus has the
/// 8237A DMA pair; 6: the bus has the coprocessor error latch; 5: the CPU has its
/// optional x87; 4: open files and
/// searches are kept by DOS path, not host path; 3: the DOS state has the
/// extended error detail of 5D0Ah and the binary-mode bit of each open
/// device; the bus has the OPL2's state).
pub const VERSION: u32 = 14;
const HEADER: usize = 24;
/// The largest state file read: a machine's state is at most its memory
/// (640 KiB + 15 MiB extended), video RAM (256 KiB), sound RAM and a few
/// KiB more, and deflate never grows data by more than a fraction of a
/// percent; twice that leaves margin.
pub const MAX_FILE_BYTES: u64 = 32 << 20;
/// The most a state's payload may inflate to (a small file of zeros must
/// not inflate without end).
pub const MAX_RAW_BYTES: u64 = 64 << 20;

/// Facts about the run that saved the state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// tandem's version.
    pub tandem: String,
    /// The program's host file name (for messages).
    pub program: String,
    /// The cycle the saving run was asked to reach (its start plus
    /// `--seconds`): a resumed run counts its seconds from here, so that
    /// split runs stop where one long run does.
    pub origin_cycle: u64,
}

/// What a save state holds.
#[derive(Serialize, Deserialize)]
pub struct Snapshot {
    /// About the run.
    pub meta: Meta,
    /// The PC.
    pub machine: Machine,
    /// DOS and the BIOS services.
    pub dos: Dos,
}

/// Why a state could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// Reading or writing the file failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Not a tandem save state.
    #[error("not a tandem save state (bad magic)")]
    Foreign,
    /// A version this build does not read.
    #[error("save state format version {0}; this tandem reads version {VERSION}")]
    Version(u32),
    /// Shorter than its header says.
    #[error("save state is truncated ({have} of {want} bytes)")]
    Truncated {
        /// Bytes in the file.
        have: usize,
        /// Bytes its header says it holds.
        want: usize,
    },
    /// The checksum does not match.
    #[error("save state is damaged (checksum mismatch)")]
    Checksum,
    /// The payload does not inflate.
    #[error("save state is damaged ({0})")]
    Inflate(std::io::Error),
    /// The payload does not decode (or a snapshot does not encode).
    #[error("save state is damaged ({0})")]
    Decode(bincode::Error),
    /// Bytes follow the payload its header sizes.
    #[error("save state is damaged ({0} bytes after the payload)")]
    Trailing(u64),
    /// An open file could not be reopened.
    #[error("cannot reopen a file of the saved program: {0}")]
    File(ReopenError),
    /// The state file is not a regular file, or too large to be a state.
    #[error("{0}")]
    Input(#[from] crate::input_file::InputFileError),
}

/// Encodes a snapshot of `m` and `dos`.
pub fn save(m: &Machine, dos: &Dos, meta: &Meta) -> Result<Vec<u8>, StateError> {
    seal(&encode(m, dos, meta)?)
}

/// The bincode of a [`Snapshot`] of `m` and `dos`, unsealed: what
/// [`save`] compresses, and what the debugger's history keeps in memory
/// (where sealing would only cost time).
pub fn encode(m: &Machine, dos: &Dos, meta: &Meta) -> Result<Vec<u8>, StateError> {
    #[derive(Serialize)]
    struct SnapshotRef<'a> {
        meta: &'a Meta,
        machine: &'a Machine,
        dos: &'a Dos,
    }
    bincode::serialize(&SnapshotRef {
        meta,
        machine: m,
        dos,
    })
    .map_err(StateError::Decode)
}

/// A state file around `raw`, the bincode of a [`Snapshot`]: header,
/// compressed payload and checksum (tools and tests that edit a state
/// unwrap it with [`unseal`]).
pub fn seal(raw: &[u8]) -> Result<Vec<u8>, StateError> {
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(raw)?;
    let payload = z.finish()?;
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    Ok(out)
}

/// Decodes a state; open files are reopened under `mount` (drive C: of
/// the resuming run), which also becomes the drive's root.
pub fn load(bytes: &[u8], mount: &Path) -> Result<Snapshot, StateError> {
    decode(&unseal(bytes)?, mount)
}

/// [`load`] of an unsealed state (the bincode [`encode`] makes).
pub fn decode(raw: &[u8], mount: &Path) -> Result<Snapshot, StateError> {
    let root = mount.canonicalize()?;
    // Devices are never reopened by name, so EMS does not matter here.
    let sandbox = Drive::new(&root, false)?;
    let (snap, reopen_err) = sft::reopening(sandbox, || bincode::deserialize::<Snapshot>(raw));
    let mut snap = snap.map_err(StateError::Decode)?;
    if let Some(e) = reopen_err {
        return Err(StateError::File(e));
    }
    // Drive C: is the resuming run's mount, with the saved current
    // directory.
    let ems = snap.dos.cfg.ems;
    let drive = &mut snap.dos.kernel.drive;
    let cwd = drive.cwd_string();
    *drive = Drive::new(&root, ems)?;
    let mut cwd_path = b"\\".to_vec();
    cwd_path.extend(crate::drive::dos_bytes(&cwd));
    let _ = drive.chdir(&cwd_path);
    snap.dos.cfg.mount = root;
    Ok(snap)
}

/// The bincode of the [`Snapshot`] in a state file, after checking its
/// magic, version, length and checksum.
pub fn unseal(bytes: &[u8]) -> Result<Vec<u8>, StateError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(StateError::Foreign);
    }
    if bytes.len() < HEADER {
        return Err(StateError::Truncated {
            have: bytes.len(),
            want: HEADER,
        });
    }
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
    let version = u32_at(8);
    if version != VERSION {
        return Err(StateError::Version(version));
    }
    let len = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
    let want = (HEADER as u64).saturating_add(len);
    if (bytes.len() as u64) < want {
        return Err(StateError::Truncated {
            have: bytes.len(),
            want: want.min(usize::MAX as u64) as usize,
        });
    }
    if (bytes.len() as u64) > want {
        return Err(StateError::Trailing(bytes.len() as u64 - want));
    }
    let payload = &bytes[HEADER..want as usize];
    if crc32fast::hash(payload) != u32_at(20) {
        return Err(StateError::Checksum);
    }
    let mut raw = Vec::new();
    flate2::read::DeflateDecoder::new(payload)
        .take(MAX_RAW_BYTES + 1)
        .read_to_end(&mut raw)
        .map_err(StateError::Inflate)?;
    if raw.len() as u64 > MAX_RAW_BYTES {
        return Err(StateError::Inflate(std::io::Error::other(format!(
            "inflates to more than {MAX_RAW_BYTES} bytes"
        ))));
    }
    Ok(raw)
}

/// Reads a state file.
pub fn read_file(path: &Path, mount: &Path) -> Result<Snapshot, StateError> {
    let bytes = crate::input_file::read_bounded(path, MAX_FILE_BYTES, "a save state")?;
    load(&bytes, mount)
}

/// Writes a state file.
pub fn write_file(path: &Path, m: &Machine, dos: &Dos, meta: &Meta) -> Result<(), StateError> {
    let bytes = save(m, dos, meta)?;
    std::fs::write(path, bytes)?;
    Ok(())
}
