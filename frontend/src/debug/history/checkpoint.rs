//! One checkpoint of the history: the whole machine and DOS as the save
//! state's bincode (`dos::state::encode`), cut into 4 KiB chunks of which
//! those equal to the previous checkpoint's are shared, not copied (most
//! of memory does not change between two), plus what the debugger itself
//! keeps about the position (the call stack, the frame count, whether the
//! program has ended).

use std::path::Path;
use std::sync::Arc;

use dos::Session;

use crate::debug::position::{End, Frame};

/// The bytes of one chunk.
const CHUNK: usize = 4096;

/// The machine, DOS and the debugger's own state at one cycle.
pub struct Checkpoint {
    /// The CPU clock.
    pub cycle: u64,
    /// The state's bytes, chunk by chunk.
    chunks: Vec<Arc<[u8]>>,
    /// The call stack.
    pub frames: Vec<Frame>,
    /// Frames the session completed.
    pub session_frames: u64,
    /// How the program had ended, if it had.
    pub ended: Option<End>,
    /// Taken right after a change of the user's (registers, memory, keys,
    /// a loaded state): replaying forwards restores it at its cycle.
    pub change: bool,
}

/// Why a checkpoint could not be taken or restored.
#[derive(Debug, thiserror::Error)]
#[error("history checkpoint: {0}")]
pub struct CheckpointError(#[from] dos::state::StateError);

impl Checkpoint {
    /// A checkpoint of `core` now, sharing the chunks equal to `prev`'s.
    pub fn take(
        core: &Session,
        frames: &[Frame],
        ended: Option<&End>,
        prev: Option<&Checkpoint>,
        change: bool,
    ) -> Result<Checkpoint, CheckpointError> {
        let raw = dos::state::encode(&core.m, &core.dos, &dos::state::Meta::default())?;
        let chunks = raw
            .chunks(CHUNK)
            .enumerate()
            .map(|(i, c)| match prev.and_then(|p| p.chunks.get(i)) {
                Some(p) if **p == *c => Arc::clone(p),
                _ => Arc::from(c),
            })
            .collect();
        Ok(Checkpoint {
            cycle: core.m.cycles(),
            chunks,
            frames: frames.to_vec(),
            session_frames: core.frames,
            ended: ended.cloned(),
            change,
        })
    }

    /// The session as it was, its files reopened under `mount`.
    pub fn restore(&self, mount: &Path) -> Result<Session, CheckpointError> {
        let mut raw = Vec::with_capacity(self.chunks.len() * CHUNK);
        for c in &self.chunks {
            raw.extend_from_slice(c);
        }
        let snap = dos::state::decode(&raw, mount)?;
        let mut s = Session::new(snap.machine, snap.dos);
        s.frames = self.session_frames;
        Ok(s)
    }

    /// The bytes of the chunks no other checkpoint shares (what dropping
    /// it frees).
    pub fn unshared_bytes(&self) -> usize {
        self.chunks
            .iter()
            .filter(|c| Arc::strong_count(c) == 1)
            .map(|c| c.len())
            .sum()
    }
}
