//! The DOS memory arena: a chain of memory control blocks (MCBs) in guest
//! RAM, exactly as MS-DOS keeps it, so a program that walks the chain sees
//! the real thing.
//!
//! An MCB is the paragraph before its block: byte 0 'M' (more follow) or
//! 'Z' (last), word 1 the owner PSP (0 = free, 8 = DOS), word 3 the size in
//! paragraphs, bytes 8-15 the owner's name (DOS 4+). Free neighbours are
//! merged when an allocation or resize passes over them, as DOS does.

use crate::mem::{rd16, rd8, wr16, wr8};
use hw::Machine;

/// DOS error: memory control blocks destroyed.
pub const ERR_ARENA: u16 = 7;
/// DOS error: insufficient memory.
pub const ERR_NO_MEMORY: u16 = 8;
/// DOS error: invalid memory block address.
pub const ERR_BAD_BLOCK: u16 = 9;

/// Owner value of DOS's own blocks.
pub const OWNER_DOS: u16 = 8;

/// Allocation strategy (INT 21h 58h): first, best or last fit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Strategy {
    /// The lowest block that fits.
    #[default]
    First,
    /// The smallest block that fits.
    Best,
    /// The highest block that fits (allocated from its top).
    Last,
}

/// One block as read from the chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Segment of the MCB itself.
    pub mcb: u16,
    /// Owner PSP (0 = free).
    pub owner: u16,
    /// Size in paragraphs (not counting the MCB).
    pub size: u16,
    /// True for the last block ('Z').
    pub last: bool,
}

impl Block {
    /// The segment of the block's data.
    pub fn seg(&self) -> u16 {
        self.mcb + 1
    }
    /// The segment after the block.
    pub fn end(&self) -> u32 {
        self.mcb as u32 + 1 + self.size as u32
    }
}

/// The arena: its first MCB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Arena {
    /// Segment of the first MCB.
    pub first: u16,
}

fn read_block(m: &mut Machine, mcb: u16) -> Option<Block> {
    let a = (mcb as u32) << 4;
    let sig = rd8(m, a);
    if sig != b'M' && sig != b'Z' {
        return None;
    }
    Some(Block {
        mcb,
        owner: rd16(m, a + 1),
        size: rd16(m, a + 3),
        last: sig == b'Z',
    })
}

fn write_block(m: &mut Machine, b: &Block) {
    let a = (b.mcb as u32) << 4;
    wr8(m, a, if b.last { b'Z' } else { b'M' });
    wr16(m, a + 1, b.owner);
    wr16(m, a + 3, b.size);
}

/// Writes the 8-byte name field of the MCB of block `seg`.
pub fn set_name(m: &mut Machine, seg: u16, name: &[u8]) {
    let a = ((seg as u32 - 1) << 4) + 8;
    for i in 0..8 {
        wr8(m, a + i, name.get(i as usize).copied().unwrap_or(0));
    }
}

impl Arena {
    /// Creates an arena of one free block from `first` (the MCB) up to
    /// segment `end` (exclusive).
    pub fn init(m: &mut Machine, first: u16, end: u16) -> Arena {
        let size = end.saturating_sub(first).saturating_sub(1);
        write_block(
            m,
            &Block {
                mcb: first,
                owner: 0,
                size,
                last: true,
            },
        );
        Arena { first }
    }

    /// The chain, first to last; an error if it is broken.
    pub fn blocks(&self, m: &mut Machine) -> Result<Vec<Block>, u16> {
        let mut v = Vec::new();
        let mut seg = self.first as u32;
        loop {
            if seg > 0xFFFF || v.len() > 0x10000 {
                return Err(ERR_ARENA);
            }
            let b = read_block(m, seg as u16).ok_or(ERR_ARENA)?;
            v.push(b);
            if b.last {
                return Ok(v);
            }
            seg = b.end();
        }
    }

    /// Merges each free block with the free blocks after it.
    fn coalesce(&self, m: &mut Machine) -> Result<(), u16> {
        let mut seg = self.first as u32;
        loop {
            let mut b = read_block(m, seg as u16).ok_or(ERR_ARENA)?;
            if b.owner == 0 {
                while !b.last {
                    let next = read_block(m, b.end() as u16).ok_or(ERR_ARENA)?;
                    if next.owner != 0 {
                        break;
                    }
                    b.size = b.size.wrapping_add(next.size).wrapping_add(1);
                    b.last = next.last;
                    write_block(m, &b);
                }
            }
            if b.last {
                return Ok(());
            }
            seg = b.end();
            if seg > 0xFFFF {
                return Err(ERR_ARENA);
            }
        }
    }

    /// Allocates `paras` paragraphs for `owner`. Returns the block's
    /// segment, or (error, largest free block).
    pub fn alloc(
        &self,
        m: &mut Machine,
        paras: u16,
        owner: u16,
        strategy: Strategy,
    ) -> Result<u16, (u16, u16)> {
        self.coalesce(m).map_err(|e| (e, 0))?;
        let blocks = self.blocks(m).map_err(|e| (e, 0))?;
        let free = blocks.iter().filter(|b| b.owner == 0 && b.size >= paras);
        let pick = match strategy {
            Strategy::First => free.min_by_key(|b| b.mcb),
            Strategy::Best => free.min_by_key(|b| (b.size, b.mcb)),
            Strategy::Last => free.max_by_key(|b| b.mcb),
        };
        let Some(&b) = pick else {
            let largest = self.largest_free(m).unwrap_or(0);
            return Err((ERR_NO_MEMORY, largest));
        };
        if strategy == Strategy::Last && b.size > paras {
            // Take the top of the block.
            let low = Block {
                size: b.size - paras - 1,
                last: false,
                ..b
            };
            let high = Block {
                mcb: b.mcb + 1 + low.size,
                owner,
                size: paras,
                last: b.last,
            };
            write_block(m, &low);
            write_block(m, &high);
            set_name(m, high.seg(), &[]);
            return Ok(high.seg());
        }
        self.split(m, b, paras, owner);
        Ok(b.seg())
    }

    /// Gives block `b` (free or being resized) the size `paras` and owner,
    /// splitting off the rest as a free block.
    fn split(&self, m: &mut Machine, b: Block, paras: u16, owner: u16) {
        if b.size > paras {
            let rest = Block {
                mcb: b.mcb + 1 + paras,
                owner: 0,
                size: b.size - paras - 1,
                last: b.last,
            };
            write_block(m, &rest);
            write_block(
                m,
                &Block {
                    owner,
                    size: paras,
                    last: false,
                    ..b
                },
            );
        } else {
            write_block(m, &Block { owner, ..b });
        }
        if b.owner == 0 {
            set_name(m, b.seg(), &[]);
        }
    }

    /// The largest free block in paragraphs (after merging).
    pub fn largest_free(&self, m: &mut Machine) -> Result<u16, u16> {
        self.coalesce(m)?;
        Ok(self
            .blocks(m)?
            .iter()
            .filter(|b| b.owner == 0)
            .map(|b| b.size)
            .max()
            .unwrap_or(0))
    }

    fn find(&self, m: &mut Machine, seg: u16) -> Result<Block, u16> {
        let blocks = self.blocks(m)?;
        blocks
            .into_iter()
            .find(|b| b.seg() == seg)
            .ok_or(ERR_BAD_BLOCK)
    }

    /// Frees the block at `seg`.
    pub fn free(&self, m: &mut Machine, seg: u16) -> Result<(), u16> {
        let b = self.find(m, seg)?;
        write_block(m, &Block { owner: 0, ..b });
        Ok(())
    }

    /// Resizes the block at `seg` to `paras`. On failure returns (error,
    /// the largest size the block could have).
    pub fn resize(&self, m: &mut Machine, seg: u16, paras: u16) -> Result<(), (u16, u16)> {
        let b = self.find(m, seg).map_err(|e| (e, 0))?;
        if paras <= b.size {
            self.split(m, b, paras, b.owner);
            return Ok(());
        }
        // Grow into the free blocks that follow.
        let mut room = b.size as u32;
        let mut last = b.last;
        let mut next = b.end();
        while !last && next <= 0xFFFF {
            let n = read_block(m, next as u16).ok_or((ERR_ARENA, 0))?;
            if n.owner != 0 {
                break;
            }
            room += n.size as u32 + 1;
            last = n.last;
            next = n.end();
        }
        let room = room.min(0xFFFF) as u16;
        if room < paras {
            return Err((ERR_NO_MEMORY, room));
        }
        let merged = Block {
            size: room,
            last,
            ..b
        };
        self.split(m, merged, paras, b.owner);
        Ok(())
    }

    /// Frees every block `owner` holds.
    pub fn free_owned(&self, m: &mut Machine, owner: u16) {
        if let Ok(blocks) = self.blocks(m) {
            for b in blocks.iter().filter(|b| b.owner == owner) {
                write_block(m, &Block { owner: 0, ..*b });
            }
        }
    }

    /// The block containing `seg`'s data, if any.
    pub fn block_of(&self, m: &mut Machine, seg: u16) -> Option<Block> {
        self.blocks(m).ok()?.into_iter().find(|b| b.seg() == seg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hw::MachineConfig;

    #[test]
    fn alloc_free_resize() {
        let mut m = Machine::new(MachineConfig::default());
        let a = Arena::init(&mut m, 0x100, 0xA000);
        let total = a.largest_free(&mut m).unwrap();
        assert_eq!(total, 0xA000 - 0x101);
        let x = a.alloc(&mut m, 0x10, 0x200, Strategy::First).unwrap();
        assert_eq!(x, 0x101);
        let y = a.alloc(&mut m, 0x20, 0x200, Strategy::First).unwrap();
        assert_eq!(y, 0x112);
        let z = a.alloc(&mut m, 0x20, 0x200, Strategy::Last).unwrap();
        assert_eq!(z, 0xA000 - 0x20);
        a.free(&mut m, x).unwrap();
        assert_eq!(a.free(&mut m, x + 1), Err(ERR_BAD_BLOCK));
        // Too large: the error carries the largest block.
        let (e, largest) = a.alloc(&mut m, 0xFFFF, 1, Strategy::First).unwrap_err();
        assert_eq!(e, ERR_NO_MEMORY);
        assert_eq!(largest, 0xA000 - 0x20 - 1 - (0x112 + 0x20) - 1);
        // y grows into the free space after it.
        a.resize(&mut m, y, 0x100).unwrap();
        a.resize(&mut m, y, 0x8).unwrap();
        let (e, max) = a.resize(&mut m, y, 0xF000).unwrap_err();
        assert_eq!(e, ERR_NO_MEMORY);
        assert!(max > 0x8000);
        a.free_owned(&mut m, 0x200);
        assert_eq!(a.largest_free(&mut m).unwrap(), total);
        // A trashed chain is error 7.
        m.poke8(0x1000, 0);
        assert_eq!(a.blocks(&mut m).unwrap_err(), ERR_ARENA);
    }
}
