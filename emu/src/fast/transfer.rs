//! Data movement (80386 PRM, section 3.1) beyond the plain MOV forms that
//! the dispatch does in place: MOVZX and MOVSX.

use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::size::Size;
use crate::table::Op;

use super::{Fast, Kind};

impl Cpu {
    /// XCHG of two registers.
    #[inline(always)]
    pub(super) fn f_xchg<const N: u32>(&mut self, f: &Fast) {
        let a = self.rget::<N>(f.r);
        let b = self.rget::<N>(f.s);
        self.rput::<N>(f.r, b);
        self.rput::<N>(f.s, a);
    }

    /// MOVZX and MOVSX (as the generic `mov_extend`): the source read
    /// (and checked) before the register is written.
    #[inline(always)]
    pub(super) fn f_movx<B: Bus>(&mut self, bus: &mut B, f: &Fast) -> Option<()> {
        let src = if f.imm == 1 { Size::Byte } else { Size::Word };
        let v = if f.kind == Kind::MovxR {
            self.get_reg(f.s, src)
        } else {
            let off = self.ea(f);
            self.read_mem(bus, f.seg, off, src).ok()?
        };
        let v = if f.op == Op::Movsx && v & src.sign() != 0 {
            v | !src.mask()
        } else {
            v
        };
        self.put_reg(f.r, f.size, v);
        Some(())
    }
}
