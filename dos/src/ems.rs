//! EMS 4.0 (LIM) on INT 67h with a 64 KiB page frame at E000h (four 16 KiB
//! physical pages) and 4 MiB of expanded memory.
//!
//! The page frame is RAM in the machine's memory map; mapping a logical
//! page copies the frame's current page back to its logical page and the
//! new logical page in. (So one logical page mapped into two physical pages
//! at once does not alias; no game of the period relies on that.) The
//! INT 67h vector's segment has "EMMXXXX0" at offset 0Ah, and the device
//! opens as a file, the two ways programs detect an EMM.
//!
//! Functions: 40h status, 41h page frame, 42h page counts, 43h allocate,
//! 44h map, 45h deallocate, 46h version, 47h/48h save/restore map, 4Bh
//! handle count, 4Ch handle pages, 4Dh all handles, 4Eh map save/restore,
//! 50h map multiple, 51h reallocate, 53h handle name, 58h mappable
//! addresses.

use crate::mem::{lin, rd16, rd8, wr16, wr8, Regs};
use hw::Machine;

/// Page frame segment.
pub const FRAME_SEG: u16 = 0xE000;
/// 16 KiB pages of expanded memory.
pub const TOTAL_PAGES: usize = 256;
const PAGE: usize = 0x4000;
const HANDLES: usize = 64;

/// The expanded memory manager's state.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Ems {
    store: Vec<Vec<u8>>,
    owner: Vec<Option<u16>>,
    handles: Vec<Option<(Vec<usize>, [u8; 8])>>,
    /// Physical page -> store page mapped.
    mapped: [Option<usize>; 4],
    saved: Vec<Option<[Option<usize>; 4]>>,
}

impl Ems {
    /// An EMM with its page frame mapped as RAM.
    pub fn new(m: &mut Machine) -> Ems {
        m.bus.mem.map_ram((FRAME_SEG as u32) << 4, 0x10000);
        let mut handles = vec![None; HANDLES];
        handles[0] = Some((Vec::new(), [0; 8])); // the system handle
        Ems {
            store: vec![Vec::new(); TOTAL_PAGES],
            owner: vec![None; TOTAL_PAGES],
            handles,
            mapped: [None; 4],
            saved: vec![None; HANDLES],
        }
    }

    fn free_pages(&self) -> usize {
        self.owner.iter().filter(|o| o.is_none()).count()
    }

    fn frame_addr(p: usize) -> u32 {
        ((FRAME_SEG as u32) << 4) + (p * PAGE) as u32
    }

    fn unmap(&mut self, m: &mut Machine, p: usize) {
        if let Some(s) = self.mapped[p].take() {
            let a = Self::frame_addr(p);
            let page = &mut self.store[s];
            page.resize(PAGE, 0);
            for (i, b) in page.iter_mut().enumerate() {
                *b = m.peek8(a + i as u32);
            }
        }
    }

    fn map(&mut self, m: &mut Machine, p: usize, s: Option<usize>) {
        self.unmap(m, p);
        let a = Self::frame_addr(p);
        if let Some(s) = s {
            self.store[s].resize(PAGE, 0);
            for i in 0..PAGE {
                m.poke8(a + i as u32, self.store[s][i]);
            }
        }
        self.mapped[p] = s;
    }

    fn set_map(&mut self, m: &mut Machine, map: [Option<usize>; 4]) {
        for (p, s) in map.into_iter().enumerate() {
            self.map(m, p, s);
        }
    }

    fn page_of(&self, h: u16, logical: u16) -> Result<usize, u8> {
        let (pages, _) = self
            .handles
            .get(h as usize)
            .and_then(|x| x.as_ref())
            .ok_or(0x83)?;
        pages.get(logical as usize).copied().ok_or(0x8A)
    }

    fn alloc(&mut self, h: u16, n: usize) -> Result<(), u8> {
        if n > self.free_pages() {
            return Err(0x88);
        }
        for _ in 0..n {
            let s = self.owner.iter().position(|o| o.is_none()).ok_or(0x88)?;
            self.owner[s] = Some(h);
            self.store[s] = vec![0; PAGE];
            if let Some((pages, _)) = self.handles[h as usize].as_mut() {
                pages.push(s);
            }
        }
        Ok(())
    }

    fn release(&mut self, m: &mut Machine, h: u16, keep: usize) {
        let Some((pages, _)) = self.handles[h as usize].as_mut() else {
            return;
        };
        let gone: Vec<usize> = pages.drain(keep.min(pages.len())..).collect();
        for s in gone {
            self.owner[s] = None;
            self.store[s] = Vec::new();
            for p in 0..4 {
                if self.mapped[p] == Some(s) {
                    self.mapped[p] = None;
                    let a = Self::frame_addr(p);
                    for i in 0..PAGE {
                        m.poke8(a + i as u32, 0);
                    }
                }
            }
        }
    }

    /// Services INT 67h.
    pub fn service(&mut self, m: &mut Machine) {
        let r = self.dispatch(m);
        if let Err(e) = r {
            m.set_ah(e);
        }
    }

    /// The pages and name of handle `h`, or error 83h (invalid handle).
    fn handle(&self, h: u16) -> Result<&(Vec<usize>, [u8; 8]), u8> {
        self.handles
            .get(h as usize)
            .and_then(|h| h.as_ref())
            .ok_or(0x83)
    }

    /// INT 67h by function (AH); an `Err` is the EMS status for AH.
    fn dispatch(&mut self, m: &mut Machine) -> Result<(), u8> {
        let dx = m.dx();
        match m.ah() {
            0x40 => {}
            0x41 => m.set_bx(FRAME_SEG),
            0x42 => {
                m.set_bx(self.free_pages() as u16);
                m.set_dx(TOTAL_PAGES as u16);
            }
            0x43 => self.allocate(m)?,
            0x44 => self.map_page(m, dx)?,
            0x45 => self.deallocate(m, dx)?,
            0x46 => m.set_al(0x40),
            0x47 => self.save_map(dx)?,
            0x48 => self.restore_map(m, dx)?,
            0x4B => {
                let n = self.handles.iter().filter(|h| h.is_some()).count();
                m.set_bx(n as u16);
            }
            0x4C => {
                let n = self.handle(dx)?.0.len();
                m.set_bx(n as u16);
            }
            0x4D => self.all_handle_pages(m),
            0x4E => self.page_map(m)?,
            0x50 => self.map_multiple(m, dx)?,
            0x51 => self.reallocate(m, dx)?,
            0x53 => self.handle_name(m, dx)?,
            0x58 => self.mappable_addresses(m),
            _ => return Err(0x84),
        }
        m.set_ah(0);
        Ok(())
    }

    /// 43h: allocate BX pages to a new handle (DX).
    fn allocate(&mut self, m: &mut Machine) -> Result<(), u8> {
        let n = m.bx() as usize;
        if n == 0 {
            return Err(0x89);
        }
        if n > TOTAL_PAGES {
            return Err(0x87);
        }
        let h = self.handles.iter().position(|h| h.is_none()).ok_or(0x85)?;
        if n > self.free_pages() {
            return Err(0x88);
        }
        self.handles[h] = Some((Vec::new(), [0; 8]));
        self.alloc(h as u16, n)?;
        m.set_dx(h as u16);
        Ok(())
    }

    /// 44h: map logical page BX of handle DX into physical page AL
    /// (FFFFh unmaps).
    fn map_page(&mut self, m: &mut Machine, dx: u16) -> Result<(), u8> {
        let (p, l) = (m.al() as usize, m.bx());
        if p < 4 && l == 0xFFFF {
            // Unmapping still needs a valid handle.
            self.handle(dx)?;
        }
        self.map_logical(m, dx, p, l)
    }

    /// Maps logical page `l` of handle `dx` (FFFFh: none) into physical
    /// page `p`.
    fn map_logical(&mut self, m: &mut Machine, dx: u16, p: usize, l: u16) -> Result<(), u8> {
        if p >= 4 {
            return Err(0x8B);
        }
        let s = if l == 0xFFFF {
            None
        } else {
            Some(self.page_of(dx, l)?)
        };
        self.map(m, p, s);
        Ok(())
    }

    /// 45h: free handle DX and its pages (the system handle 0 stays).
    fn deallocate(&mut self, m: &mut Machine, dx: u16) -> Result<(), u8> {
        self.handle(dx)?;
        self.release(m, dx, 0);
        if dx != 0 {
            self.handles[dx as usize] = None;
        }
        Ok(())
    }

    /// 47h: save the page map for handle DX (once).
    fn save_map(&mut self, dx: u16) -> Result<(), u8> {
        let slot = self.saved.get_mut(dx as usize).ok_or(0x83)?;
        if slot.is_some() {
            return Err(0x8D);
        }
        *slot = Some(self.mapped);
        Ok(())
    }

    /// 48h: restore the page map saved for handle DX.
    fn restore_map(&mut self, m: &mut Machine, dx: u16) -> Result<(), u8> {
        let map = self
            .saved
            .get_mut(dx as usize)
            .ok_or(0x83)?
            .take()
            .ok_or(0x8E)?;
        self.set_map(m, map);
        Ok(())
    }

    /// 4Dh: (handle, pages) of every open handle at ES:DI, the count in BX.
    fn all_handle_pages(&self, m: &mut Machine) {
        let (es, di) = (m.es(), m.di());
        let mut k = 0u16;
        for (h, e) in self.handles.iter().enumerate() {
            if let Some((pages, _)) = e {
                wr16(m, lin(es, di.wrapping_add(4 * k)), h as u16);
                wr16(m, lin(es, di.wrapping_add(4 * k + 2)), pages.len() as u16);
                k += 1;
            }
        }
        m.set_bx(k);
    }

    /// 4Eh: get (AL 0) to ES:DI, set (1) from DS:SI, both (2) the page
    /// map, or its size (3).
    fn page_map(&mut self, m: &mut Machine) -> Result<(), u8> {
        let al = m.al();
        if al == 3 {
            m.set_al(16);
            return Ok(());
        }
        if al == 0 || al == 2 {
            let (es, di) = (m.es(), m.di());
            for (p, s) in self.mapped.iter().enumerate() {
                let v = s.map(|s| s as u16).unwrap_or(0xFFFF);
                wr16(m, lin(es, di.wrapping_add(2 * p as u16)), v);
            }
        }
        if al == 1 || al == 2 {
            let (ds, si) = (m.ds(), m.si());
            let mut map = [None; 4];
            for (p, e) in map.iter_mut().enumerate() {
                let v = rd16(m, lin(ds, si.wrapping_add(2 * p as u16)));
                *e = (v as usize).lt(&TOTAL_PAGES).then_some(v as usize);
            }
            self.set_map(m, map);
        }
        if al > 3 {
            return Err(0x8F);
        }
        Ok(())
    }

    /// 50h: map CX (logical, physical) pairs at DS:SI for handle DX; AL 0
    /// gives physical page numbers, 1 segments.
    fn map_multiple(&mut self, m: &mut Machine, dx: u16) -> Result<(), u8> {
        let (al, cx, ds, si) = (m.al(), m.cx(), m.ds(), m.si());
        for k in 0..cx {
            let l = rd16(m, lin(ds, si.wrapping_add(4 * k)));
            let pv = rd16(m, lin(ds, si.wrapping_add(4 * k + 2)));
            let p = if al == 0 {
                pv as usize
            } else {
                (pv.wrapping_sub(FRAME_SEG) / 0x400) as usize
            };
            self.map_logical(m, dx, p, l)?;
        }
        Ok(())
    }

    /// 51h: grow or shrink handle DX to BX pages.
    fn reallocate(&mut self, m: &mut Machine, dx: u16) -> Result<(), u8> {
        let n = m.bx() as usize;
        let cur = self.handle(dx)?.0.len();
        if n > cur {
            self.alloc(dx, n - cur)?;
        } else {
            self.release(m, dx, n);
        }
        m.set_bx(n as u16);
        Ok(())
    }

    /// 53h: get (AL 0, to ES:DI) or set (1, from DS:SI) handle DX's
    /// 8-byte name.
    fn handle_name(&mut self, m: &mut Machine, dx: u16) -> Result<(), u8> {
        let name = self.handle(dx)?.1;
        match m.al() {
            0 => {
                let (es, di) = (m.es(), m.di());
                for (i, b) in name.iter().enumerate() {
                    wr8(m, lin(es, di.wrapping_add(i as u16)), *b);
                }
            }
            1 => {
                let (ds, si) = (m.ds(), m.si());
                let mut name = [0u8; 8];
                for (i, b) in name.iter_mut().enumerate() {
                    *b = rd8(m, lin(ds, si.wrapping_add(i as u16)));
                }
                if let Some(h) = self.handles[dx as usize].as_mut() {
                    h.1 = name;
                }
            }
            _ => return Err(0x8F),
        }
        Ok(())
    }

    /// 58h: the mappable (segment, physical page) pairs to ES:DI (AL 0),
    /// their count in CX.
    fn mappable_addresses(&self, m: &mut Machine) {
        if m.al() == 0 {
            let (es, di) = (m.es(), m.di());
            for p in 0..4u16 {
                wr16(m, lin(es, di.wrapping_add(4 * p)), FRAME_SEG + p * 0x400);
                wr16(m, lin(es, di.wrapping_add(4 * p + 2)), p);
            }
        }
        m.set_cx(4);
    }
}
