//! Decoded instructions kept by physical address, so that a loop's body is
//! decoded once rather than on every pass.
//!
//! Decoding is a pure function of the CPU model and the instruction's bytes
//! (`crate::decode::decode_for`), so a slot is reused only when the bytes
//! now in memory at its address are the ones it was decoded from: code that
//! patches itself (a game rewriting its IRQ0 handler's immediate, a write to
//! the next instruction) is decoded afresh exactly as without the cache, with
//! no invalidation to get wrong. (Comparing the bytes needs the bus's code
//! window. Within a run of steps in which only the CPU writes memory, a
//! slot whose bytes were compared since its page was last written is still
//! current without them: the page stamps below.) A slot also keeps the instruction's
//! documented clock counts (`crate::timing::clocks`, likewise a pure function
//! of the model and the instruction), not taken and taken. The cache holds
//! no machine state: a clone
//! starts empty, and save states, hashes and replays never see it.

use crate::decode::{decode_for, Instruction};
use crate::fast::Fast;
use crate::model::CpuModel;
use crate::timing;

/// Slots, direct-mapped by the low bits of the address.
const SLOTS: usize = 1024;
/// Bytes compared per lookup: every instruction up to 16 bytes is cached.
const KEY: usize = 16;
/// The pages of the write stamps: 32 bytes, so that a program's variables
/// beside its code seldom share one with it (`roms/bench/mem.asm` adds to
/// a doubleword 33 bytes past its inner loop). A slot's stamp is its first
/// byte's page; a write of bytes `a..a+n` counts in the pages of `a - 15`
/// and `a + n - 1`, between which (19 bytes at most: at most two pages)
/// lie the first bytes of every slot that the write can reach.
const PAGE_SHIFT: u32 = 5;
/// Page stamps kept: linear addresses fold onto the first MiB (the HMA onto
/// its first 64 KiB, which it aliases with A20 off: a write there marks
/// both, a stamp is only ever voided too often).
const PAGES: usize = 1 << (20 - PAGE_SHIFT);

/// One decoded instruction and the bytes it came from. (Aligned so that
/// its size is 128 bytes: a slot's address is a shift, not a multiply.)
#[derive(Clone, Copy)]
#[repr(align(64))]
pub(crate) struct Slot {
    /// The physical address of its first byte and the model ([`tag`];
    /// `EMPTY`: none).
    tag: u64,
    /// The cache's epoch and its page's write count when its bytes were
    /// last compared with memory ([`DecodeCache::stamp`]).
    stamp: u64,
    /// The instruction's bytes, zero past its length.
    bytes: u128,
    /// Ones over the instruction's bytes.
    mask: u128,
    /// Its fast-path classification.
    pub(crate) fast: Fast,
    /// The instruction and its clocks.
    pub(crate) ins: Decoded,
}

// (The size the alignment note above promises.)
const _: () = assert!(std::mem::size_of::<Slot>() == 128);

/// The tag of an empty slot: no instruction starts at FFFFFFFFh (real-mode
/// code lies below 10FFF0h).
const EMPTY: u64 = u32::MAX as u64;

/// The tag of the instruction at physical `addr` decoded for `model`.
#[inline(always)]
fn tag(model: CpuModel, addr: u32) -> u64 {
    addr as u64 | (model as u64) << 32
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
        let mem = crate::decode::in_memory(&ins);
        Decoded {
            ins,
            clocks: [false, true].map(|taken| timing::clocks(model, &ins, mem, taken)),
        }
    }
}

impl Slot {
    fn new(addr: u32, model: CpuModel, bytes: u128, mask: u128, ins: Instruction) -> Self {
        let ins = Decoded::new(model, ins);
        Slot {
            tag: tag(model, addr),
            stamp: 0,
            bytes,
            mask,
            fast: crate::fast::classify(model, &ins.ins, ins.clocks),
            ins,
        }
    }
}

/// The cache (see the module notes): `SLOTS` slots. An instruction it
/// does not keep (one decoded from a window shorter than 16 bytes, or
/// longer than 16 bytes) passes through its address's slot marked empty,
/// so that no lookup hits it.
///
/// The page stamps: the CPU counts its own writes per 2 KiB page
/// ([`DecodeCache::written`]); anything else that may write memory voids
/// every stamp ([`DecodeCache::memory_changed`], which starts a new epoch).
/// A slot stamped with the current epoch and its page's count has the
/// bytes it was decoded from ([`DecodeCache::current`]).
pub(crate) struct DecodeCache {
    slots: Box<[Slot; SLOTS]>,
    /// The CPU's writes per page (wrapping).
    writes: Box<[u32; PAGES]>,
    /// The epoch in the high half (never 0 there: a new slot's stamp 0
    /// never matches).
    epoch: u64,
}

impl Default for DecodeCache {
    fn default() -> Self {
        let empty = Slot {
            tag: EMPTY,
            stamp: 0,
            bytes: 0,
            mask: u128::MAX,
            fast: Fast::GENERIC,
            ins: Decoded {
                ins: Instruction {
                    opcode: 0,
                    two_byte: false,
                    op: crate::table::Op::Invalid,
                    form: crate::table::Form::None,
                    w: false,
                    modrm: None,
                    sib: None,
                    disp: 0,
                    imm: 0,
                    imm2: 0,
                    seg: None,
                    rep: crate::decode::Rep::None,
                    lock: false,
                    opsize32: false,
                    addrsize32: false,
                    prefixes: 0,
                    len: 0,
                },
                clocks: [0, 0],
            },
        };
        let slots = vec![empty; SLOTS].into_boxed_slice();
        DecodeCache {
            // The length is SLOTS: the conversion cannot fail.
            slots: slots.try_into().unwrap_or_else(|_| unreachable!()),
            // (The length is PAGES.)
            writes: vec![0; PAGES]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!()),
            epoch: 1 << 32,
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
    /// The stamp a slot of `addr` gets when its bytes are compared now.
    #[inline(always)]
    fn stamp(&self, addr: u32) -> u64 {
        self.epoch | self.writes[(addr >> PAGE_SHIFT) as usize % PAGES] as u64
    }

    /// The CPU wrote the `n` (1 to 16: the two pages counted hold every
    /// slot's first byte that the write can reach) bytes at linear `addr`.
    #[inline(always)]
    pub(crate) fn written(&mut self, addr: u32, n: u32) {
        let first = addr.wrapping_sub(KEY as u32 - 1);
        let last = addr.wrapping_add(n - 1);
        for a in [first, last] {
            let w = &mut self.writes[(a >> PAGE_SHIFT) as usize % PAGES];
            *w = w.wrapping_add(1);
        }
    }

    /// Memory may have changed other than by the CPU's writes: every slot
    /// compares its bytes again before it is used.
    #[inline]
    pub(crate) fn memory_changed(&mut self) {
        self.epoch = self.epoch.wrapping_add(1 << 32);
        if self.epoch == 0 {
            // 2^32 epochs later: the old stamps could match again.
            for s in self.slots.iter_mut() {
                s.stamp = 0;
            }
            self.epoch = 1 << 32;
        }
    }

    /// True when the slot of `addr` holds the instruction there, decoded
    /// from the bytes in memory now (its stamp is current), and ends at
    /// offset FFFFh at the latest when it starts at `ip`: what [`lookup`]
    /// would return for a window of at most FFFFh - `ip` bytes, without the
    /// bytes. The model needs no compare: a stamp of the current epoch was
    /// given by a lookup of this epoch, and the model does not change
    /// within one (the host sets it between steps, and every generic step
    /// and every batch starts an epoch). (A page's write count wraps after
    /// 2^32 writes in one epoch; the machine starts one at least every
    /// event.)
    ///
    /// [`lookup`]: DecodeCache::lookup
    #[inline(always)]
    pub(crate) fn current(&self, addr: u32, ip: u32) -> bool {
        let s = &self.slots[addr as usize % SLOTS];
        s.tag as u32 == addr
            && s.stamp == self.stamp(addr)
            && ip as u64 + s.fast.len as u64 <= 0xFFFF
    }

    /// The slot of the instruction at physical `addr`, whose bytes start
    /// `window`, for `model`; `None` when it is longer than `max_len` bytes (the
    /// same answer as [`decode_for`] over the window).
    #[inline(always)]
    pub(crate) fn lookup(
        &mut self,
        model: CpuModel,
        addr: u32,
        window: &[u8],
        max_len: usize,
    ) -> Option<&Slot> {
        let Some(key) = window.first_chunk::<KEY>() else {
            return self.fill_scratch(model, addr, window, max_len);
        };
        let key = u128::from_le_bytes(*key);
        let i = addr as usize % SLOTS;
        let stamp = self.stamp(addr);
        let s = &mut self.slots[i];
        if s.tag == tag(model, addr)
            && (key ^ s.bytes) & s.mask == 0
            && s.fast.len as usize <= max_len
        {
            s.stamp = stamp;
            return Some(&self.slots[i]);
        }
        self.fill(model, addr, window, max_len, key)
    }

    /// Decodes into the slot of `addr` (a miss).
    #[inline(never)]
    fn fill(
        &mut self,
        model: CpuModel,
        addr: u32,
        window: &[u8],
        max_len: usize,
        key: u128,
    ) -> Option<&Slot> {
        let ins = decode_window(model, window, max_len)?;
        let len = ins.len as usize;
        if len > KEY {
            return self.fill_scratch(model, addr, window, max_len);
        }
        let mask = u128::MAX >> (8 * (KEY - len));
        let i = addr as usize % SLOTS;
        self.slots[i] = Slot::new(addr, model, key & mask, mask, ins);
        self.slots[i].stamp = self.stamp(addr);
        Some(&self.slots[i])
    }

    /// Decodes into the slot of `addr`, marked empty (not kept).
    #[cold]
    fn fill_scratch(
        &mut self,
        model: CpuModel,
        addr: u32,
        window: &[u8],
        max_len: usize,
    ) -> Option<&Slot> {
        let ins = decode_window(model, window, max_len)?;
        let i = addr as usize % SLOTS;
        self.slots[i] = Slot::new(addr, model, 0, u128::MAX, ins);
        self.slots[i].tag = EMPTY;
        Some(&self.slots[i])
    }

    /// The slot that [`DecodeCache::lookup`] returned for `addr`, as long
    /// as no other lookup came between.
    #[inline(always)]
    pub(crate) fn slot_of(&self, addr: u32) -> &Slot {
        &self.slots[addr as usize % SLOTS]
    }

    /// The decoded instruction at physical `addr` (as
    /// [`DecodeCache::lookup`]).
    #[cfg(test)]
    fn decode(
        &mut self,
        model: CpuModel,
        addr: u32,
        window: &[u8],
        max_len: usize,
    ) -> Option<Decoded> {
        Some(self.lookup(model, addr, window, max_len)?.ins)
    }
}

/// Decodes from the bytes of `window`, at most `max_len` of them, and at
/// most 255 (`Instruction::len` saturates there: an 8086 instruction
/// behind a longer run of prefixes is left to the byte-by-byte fetch).
fn decode_window(model: CpuModel, window: &[u8], max_len: usize) -> Option<Instruction> {
    let mut bytes = window.iter().copied();
    decode_for(
        model,
        || bytes.next().unwrap_or(0xFF),
        max_len.min(window.len()).min(u8::MAX as usize),
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
    fn a_stamp_lasts_until_a_write_that_can_reach_the_slot() {
        let mut c = DecodeCache::default();
        let m = CpuModel::I386;
        let w = window(&[0x05, 0x34, 0x12]);
        // Every first byte in a page, every write that reaches its 16 bytes.
        for addr in 0x3E0..0x400 {
            for at in addr - 4..addr + 20 {
                assert!(c.lookup(m, addr, &w, 64).is_some());
                assert!(c.current(addr, 0xFFFF - 3));
                assert!(!c.current(addr, 0xFFFF - 2), "longer than the room");
                c.written(at, 4);
                let reaches = at + 3 >= addr && at < addr + KEY as u32;
                assert!(!reaches || !c.current(addr, 0), "{addr:X} {at:X}");
            }
            assert!(c.lookup(m, addr, &w, 64).is_some());
            c.memory_changed();
            assert!(!c.current(addr, 0));
        }
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
