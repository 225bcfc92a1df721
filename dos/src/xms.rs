//! An XMS 3.0 driver (as HIMEM.SYS): detected through INT 2Fh 4300h, its
//! entry point (INT 2Fh 4310h) is guest code in the stub ROM that traps
//! here. Extended memory blocks live in the machine's extended RAM above
//! the HMA; the HMA is the first 64 KiB - 16 bytes above 1 MiB; A20 is the
//! PS/2 port 92h gate.
//!
//! Functions: 00h version, 01h/02h HMA, 03h-07h A20, 08h/88h query,
//! 09h/89h allocate, 0Ah free, 0Bh move, 0Ch lock, 0Dh unlock, 0Eh/8Eh
//! handle information, 0Fh/8Fh reallocate, 10h-12h UMBs (none: B1h).

use crate::mem::{lin, rd16, rd32, Regs};
use hw::Machine;

/// Handles available.
const HANDLES: usize = 64;
/// Start of the XMS pool: after the HMA.
const POOL_BASE: u32 = 0x110000;

#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
struct Block {
    /// Start in KiB from [`POOL_BASE`].
    start: u32,
    /// Size in KiB.
    size: u32,
    locks: u8,
}

/// The XMS driver's state.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Xms {
    pool_kb: u32,
    handles: Vec<Option<Block>>,
    hma_used: bool,
    local_a20: u32,
}

impl Xms {
    /// A driver over the machine's extended memory.
    pub fn new(m: &mut Machine) -> Xms {
        let ext = m.config().extended_kib;
        Xms {
            pool_kb: ext.saturating_sub(64),
            handles: vec![None; HANDLES],
            hma_used: false,
            local_a20: 0,
        }
    }

    /// Free KiB: (largest block, total).
    pub fn free_kb(&self) -> (u32, u32) {
        let mut used: Vec<(u32, u32)> = self
            .handles
            .iter()
            .flatten()
            .map(|b| (b.start, b.size))
            .collect();
        used.sort();
        let (mut largest, mut total, mut at) = (0, 0, 0);
        for (s, n) in used.into_iter().chain([(self.pool_kb, 0)]) {
            let gap = s.saturating_sub(at);
            largest = largest.max(gap);
            total += gap;
            at = at.max(s + n);
        }
        (largest, total)
    }

    fn find_space(&self, kb: u32, except: Option<usize>) -> Option<u32> {
        let mut used: Vec<(u32, u32)> = self
            .handles
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != except)
            .filter_map(|(_, b)| b.map(|b| (b.start, b.size)))
            .collect();
        used.sort();
        let mut at = 0;
        for (s, n) in used.into_iter().chain([(self.pool_kb, 0)]) {
            if s >= at && s - at >= kb {
                return Some(at);
            }
            at = at.max(s + n);
        }
        None
    }

    fn handle(&self, h: u16) -> Option<(usize, Block)> {
        let i = (h as usize).checked_sub(1)?;
        self.handles.get(i).copied().flatten().map(|b| (i, b))
    }

    fn set_a20(m: &mut Machine, on: bool) {
        let v = m.in8(0x92);
        m.out8(0x92, if on { v | 2 } else { v & !2 } & !1);
    }

    /// Services a call to the driver's entry point (AH = function): AX = 1
    /// and BL = 0 on success, AX = 0 and BL = the XMS error code on failure.
    pub fn call(&mut self, m: &mut Machine) {
        if let Err(e) = self.dispatch(m) {
            m.set_ax(0);
            m.set_bl(e);
        }
    }

    /// The XMS functions by number (AH); an `Err` is the error code for BL.
    /// 8xh are the XMS 3.0 forms of 0xh with 32-bit sizes.
    fn dispatch(&mut self, m: &mut Machine) -> Result<(), u8> {
        match m.ah() {
            0x00 => {
                m.set_ax(0x0300);
                m.set_bx(0x0350);
                m.set_dx(1);
            }
            0x01 | 0x02 => self.hma(m)?,
            0x03..=0x06 => self.a20(m),
            0x07 => {
                let on = m.bus.mem.a20();
                m.set_ax(on as u16);
                m.set_bl(0);
            }
            0x08 | 0x88 => self.query_free(m),
            0x09 | 0x89 => self.allocate(m)?,
            0x0A => self.free(m)?,
            0x0B => {
                self.move_block(m)?;
                succeed(m);
            }
            0x0C => self.lock(m)?,
            0x0D => self.unlock(m)?,
            0x0E | 0x8E => self.handle_info(m)?,
            0x0F | 0x8F => self.reallocate(m)?,
            0x10 => {
                // No upper memory blocks: "no UMBs available".
                m.set_dx(0);
                return Err(0xB1);
            }
            0x11 | 0x12 => return Err(0xB2),
            _ => return Err(0x80),
        }
        Ok(())
    }

    /// 01h request / 02h release the HMA.
    fn hma(&mut self, m: &mut Machine) -> Result<(), u8> {
        let request = m.ah() == 0x01;
        match (request, self.hma_used) {
            (true, true) => return Err(0x91),
            (false, false) => return Err(0x93),
            _ => self.hma_used = request,
        }
        succeed(m);
        Ok(())
    }

    /// 03h/04h global and 05h/06h local enable/disable of A20; local
    /// enables nest, and A20 goes off when none is left.
    fn a20(&mut self, m: &mut Machine) {
        match m.ah() {
            0x03 | 0x05 => {
                if m.ah() == 0x05 {
                    self.local_a20 += 1;
                }
                Self::set_a20(m, true);
            }
            _ => {
                if m.ah() == 0x06 {
                    self.local_a20 = self.local_a20.saturating_sub(1);
                }
                if self.local_a20 == 0 {
                    Self::set_a20(m, false);
                }
            }
        }
        succeed(m);
    }

    /// 08h / 88h: the largest free block and the total free, in KiB (88h:
    /// 32-bit, and the highest address in ECX).
    fn query_free(&self, m: &mut Machine) {
        let (l, t) = self.free_kb();
        if m.ah() == 0x08 {
            m.set_ax(l.min(0xFFFF) as u16);
            m.set_dx(t.min(0xFFFF) as u16);
            m.set_bl(if t == 0 { 0xA0 } else { 0 });
        } else {
            m.cpu.regs.gpr[0] = l;
            m.cpu.regs.gpr[2] = t;
            m.cpu.regs.gpr[1] = POOL_BASE + self.pool_kb * 1024 - 1;
            m.set_bl(0);
        }
    }

    /// 09h / 89h: allocate DX (EDX) KiB; the handle in DX.
    fn allocate(&mut self, m: &mut Machine) -> Result<(), u8> {
        let kb = if m.ah() == 0x09 {
            m.dx() as u32
        } else {
            m.cpu.regs.gpr[2]
        };
        let slot = self.handles.iter().position(|h| h.is_none()).ok_or(0xA1)?;
        let start = self.find_space(kb, None).ok_or(0xA0)?;
        self.handles[slot] = Some(Block {
            start,
            size: kb,
            locks: 0,
        });
        m.set_ax(1);
        m.set_dx(slot as u16 + 1);
        m.set_bl(0);
        Ok(())
    }

    /// 0Ah: free handle DX (not while locked).
    fn free(&mut self, m: &mut Machine) -> Result<(), u8> {
        match self.handle(m.dx()) {
            Some((_, b)) if b.locks > 0 => Err(0xAB),
            Some((i, _)) => {
                self.handles[i] = None;
                succeed(m);
                Ok(())
            }
            None => Err(0xA2),
        }
    }

    /// 0Ch: lock handle DX; its linear address in DX:BX.
    fn lock(&mut self, m: &mut Machine) -> Result<(), u8> {
        let (i, b) = self.handle(m.dx()).ok_or(0xA2)?;
        let a = POOL_BASE + b.start * 1024;
        if let Some(h) = self.handles[i].as_mut() {
            h.locks = h.locks.saturating_add(1);
        }
        m.set_ax(1);
        m.set_dx((a >> 16) as u16);
        m.set_bx(a as u16);
        Ok(())
    }

    /// 0Dh: unlock handle DX.
    fn unlock(&mut self, m: &mut Machine) -> Result<(), u8> {
        match self.handle(m.dx()) {
            Some((_, b)) if b.locks == 0 => Err(0xAA),
            Some((i, _)) => {
                if let Some(h) = self.handles[i].as_mut() {
                    h.locks -= 1;
                }
                succeed(m);
                Ok(())
            }
            None => Err(0xA2),
        }
    }

    /// 0Eh / 8Eh: handle DX's lock count (BH), the free handles (BL / CX)
    /// and its size in KiB (DX / EDX).
    fn handle_info(&self, m: &mut Machine) -> Result<(), u8> {
        let (_, b) = self.handle(m.dx()).ok_or(0xA2)?;
        let free = self.handles.iter().filter(|h| h.is_none()).count();
        m.set_ax(1);
        m.set_bh(b.locks);
        if m.ah() == 0x0E {
            m.set_bl(free.min(255) as u8);
            m.set_dx(b.size.min(0xFFFF) as u16);
        } else {
            m.set_cx(free as u16);
            m.cpu.regs.gpr[2] = b.size;
        }
        Ok(())
    }

    /// 0Fh / 8Fh: resize handle DX to BX (EBX) KiB, moving it (with its
    /// contents) when it does not fit where it is.
    fn reallocate(&mut self, m: &mut Machine) -> Result<(), u8> {
        let kb = if m.ah() == 0x0F {
            m.bx() as u32
        } else {
            m.cpu.regs.gpr[3]
        };
        let (i, b) = match self.handle(m.dx()) {
            Some((_, b)) if b.locks > 0 => return Err(0xAB),
            Some(found) => found,
            None => return Err(0xA2),
        };
        let start = if kb <= b.size {
            b.start
        } else {
            self.find_space(kb, Some(i)).ok_or(0xA0)?
        };
        if start != b.start {
            let n = (b.size.min(kb) * 1024) as usize;
            let from = (POOL_BASE + b.start * 1024) as usize;
            let to = POOL_BASE + start * 1024;
            let data: Vec<u8> = (0..n)
                .map(|k| m.bus.mem.read_backing((from + k) as u32))
                .collect();
            for (k, v) in data.into_iter().enumerate() {
                m.bus.mem.write_backing(to + k as u32, v);
            }
        }
        self.handles[i] = Some(Block {
            start,
            size: kb,
            locks: 0,
        });
        succeed(m);
        Ok(())
    }

    /// The linear address of (handle, offset) for `len` bytes, or an error
    /// code (`bad_handle`, `bad_offset`).
    fn address(
        &self,
        m: &mut Machine,
        handle: u16,
        off: u32,
        len: u32,
        codes: (u8, u8),
    ) -> Result<u32, u8> {
        if handle == 0 {
            let a = lin((off >> 16) as u16, off as u16);
            if a + len > 0x110000 {
                return Err(codes.1);
            }
            let _ = m;
            return Ok(a);
        }
        let (_, b) = self.handle(handle).ok_or(codes.0)?;
        if off as u64 + len as u64 > b.size as u64 * 1024 {
            return Err(codes.1);
        }
        Ok(POOL_BASE + b.start * 1024 + off)
    }

    fn move_block(&mut self, m: &mut Machine) -> Result<(), u8> {
        let (ds, si) = (m.ds(), m.si());
        let at = |k: u16| lin(ds, si.wrapping_add(k));
        let len = rd32(m, at(0));
        let sh = rd16(m, at(4));
        let so = rd32(m, at(6));
        let dh = rd16(m, at(10));
        let dof = rd32(m, at(12));
        if len & 1 != 0 {
            return Err(0xA7);
        }
        let src = self.address(m, sh, so, len, (0xA3, 0xA4))?;
        let dst = self.address(m, dh, dof, len, (0xA5, 0xA6))?;
        let data: Vec<u8> = (0..len).map(|k| read_phys(m, src + k)).collect();
        for (k, v) in data.into_iter().enumerate() {
            write_phys(m, dst + k as u32, v);
        }
        Ok(())
    }
}

/// Reads a physical byte regardless of the A20 gate.
pub fn read_phys(m: &mut Machine, a: u32) -> u8 {
    if a < 0x100000 {
        crate::mem::rd8(m, a)
    } else {
        match m.bus.mem.decode(a) {
            hw::memory::Region::Ram => m.bus.mem.read_backing(a),
            _ => 0xFF,
        }
    }
}

/// Writes a physical byte regardless of the A20 gate.
pub fn write_phys(m: &mut Machine, a: u32, v: u8) {
    if a < 0x100000 {
        crate::mem::wr8(m, a, v)
    } else if m.bus.mem.decode(a) == hw::memory::Region::Ram {
        m.bus.mem.write_backing(a, v)
    }
}

/// A successful call: AX = 1, BL = 0.
fn succeed(m: &mut Machine) {
    m.set_ax(1);
    m.set_bl(0);
}
