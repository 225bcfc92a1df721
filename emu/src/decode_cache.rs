//! Decoded instructions kept by physical address, so that a loop's body is
//! decoded once rather than on every pass.
//!
//! Decoding is a pure function of the CPU model and the instruction's bytes
//! (`crate::decode::decode_for`), so a slot is reused only when the bytes
//! now in memory at its address are the ones it was decoded from: code that
//! patches itself (a game rewriting its IRQ0 handler's immediate, a write to
//! the next instruction) is decoded afresh exactly as without the cache, with
//! no invalidation to get wrong. A slot also keeps the instruction's
//! documented clock counts (`crate::timing::clocks`, likewise a pure function
//! of the model and the instruction), not taken and taken. The cache holds
//! no machine state: a clone
//! starts empty, and save states, hashes and replays never see it.

use crate::decode::{decode_for, Instruction};
use crate::model::CpuModel;
use crate::timing;

/// Slots, direct-mapped by the low bits of the address.
const SLOTS: usize = 1024;
/// Bytes compared per lookup: every instruction up to 16 bytes is cached.
const KEY: usize = 16;

/// One decoded instruction and the bytes it came from.
#[derive(Clone, Copy)]
struct Slot {
    addr: u32,
    model: CpuModel,
    /// The instruction's bytes, zero past its length.
    bytes: u128,
    /// Ones over the instruction's bytes.
    mask: u128,
    ins: Decoded,
}

/// A decoded instruction with its documented clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Decoded {
    /// The instruction.
    pub(crate) ins: Instruction,
    /// Its clocks (`timing::clocks`) when a conditional transfer is not
    /// taken (index 0) and when it is (index 1).
    pub(crate) clocks: [u32; 2],
}

impl Decoded {
    fn new(model: CpuModel, ins: Instruction) -> Self {
        let mem = crate::exec::in_memory(&ins);
        Decoded {
            ins,
            clocks: [false, true].map(|taken| timing::clocks(model, &ins, mem, taken)),
        }
    }
}

/// The cache (see the module notes).
pub(crate) struct DecodeCache {
    slots: Vec<Option<Slot>>,
}

impl Default for DecodeCache {
    fn default() -> Self {
        DecodeCache {
            slots: vec![None; SLOTS],
        }
    }
}

impl Clone for DecodeCache {
    /// An empty cache: it is only a memo of `decode_for`.
    fn clone(&self) -> Self {
        DecodeCache::default()
    }
}

impl std::fmt::Debug for DecodeCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DecodeCache")
    }
}

impl DecodeCache {
    /// The instruction at physical `addr`, whose bytes start `window`, for
    /// `model`; `None` when it is longer than `max_len` bytes (the same
    /// answer as [`decode_for`] over the window).
    #[inline]
    pub(crate) fn decode(
        &mut self,
        model: CpuModel,
        addr: u32,
        window: &[u8],
        max_len: usize,
    ) -> Option<Decoded> {
        let Some(key) = window.first_chunk::<KEY>() else {
            return decode_window(model, window, max_len).map(|i| Decoded::new(model, i));
        };
        let key = u128::from_le_bytes(*key);
        let slot = &mut self.slots[addr as usize % SLOTS];
        if let Some(s) = slot {
            if s.addr == addr
                && s.model == model
                && (key ^ s.bytes) & s.mask == 0
                && s.ins.ins.len as usize <= max_len
            {
                return Some(s.ins);
            }
        }
        let ins = Decoded::new(model, decode_window(model, window, max_len)?);
        let len = ins.ins.len;
        if (len as usize) <= KEY {
            let mask = u128::MAX >> (8 * (KEY - len as usize));
            *slot = Some(Slot {
                addr,
                model,
                bytes: key & mask,
                mask,
                ins,
            });
        }
        Some(ins)
    }
}

/// Decodes from the bytes of `window`, at most `max_len` of them.
fn decode_window(model: CpuModel, window: &[u8], max_len: usize) -> Option<Instruction> {
    let mut bytes = window.iter().copied();
    decode_for(
        model,
        || bytes.next().unwrap_or(0xFF),
        max_len.min(window.len()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(code: &[u8]) -> Vec<u8> {
        let mut w = code.to_vec();
        w.resize(32, 0x90);
        w
    }

    #[test]
    fn a_rewritten_instruction_is_decoded_again() {
        let mut c = DecodeCache::default();
        // ADD AX, 1234h, then the same address patched to ADD AX, 5678h.
        let a = c.decode(CpuModel::I386, 0x100, &window(&[0x05, 0x34, 0x12]), 64);
        assert_eq!(a.map(|d| d.ins.imm), Some(0x1234));
        let b = c.decode(CpuModel::I386, 0x100, &window(&[0x05, 0x78, 0x56]), 64);
        assert_eq!(b.map(|d| d.ins.imm), Some(0x5678));
        // Bytes past the instruction do not matter; its length bound does.
        let w = window(&[0x05, 0x78, 0x56, 0xCC]);
        assert_eq!(c.decode(CpuModel::I386, 0x100, &w, 64), b);
        assert_eq!(c.decode(CpuModel::I386, 0x100, &w, 2), None);
    }

    #[test]
    fn matches_the_decoder_for_every_model_and_window() {
        let code = [0x66, 0x2E, 0x81, 0x84, 0x10, 0x00, 0x78, 0x56, 0x34, 0x12];
        for model in [CpuModel::I8086, CpuModel::I286, CpuModel::I386] {
            let mut c = DecodeCache::default();
            for len in 0..code.len() + 20 {
                let w = window(&code);
                let w = &w[..len.min(w.len())];
                let want = decode_window(model, w, 64).map(|i| Decoded::new(model, i));
                assert_eq!(c.decode(model, 7, w, 64), want);
                assert_eq!(c.decode(model, 7, w, 64), want);
            }
        }
    }
}
