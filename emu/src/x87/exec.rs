//! The ESC dispatcher: joins a decoded D8h-DFh instruction to the unit,
//! reading and writing its memory operand through the BIU, and keeps the
//! last instruction and operand pointers.

use super::arith::BinOp;
use super::decode::{decode, Arith, X87Op};
use super::env::env_size;
use super::error::Gate;
use super::state::{sw, F80, X87};
use crate::bus::Bus;
use crate::cpu::{Cpu, Fault};
use crate::decode::Instruction;
use crate::regs::SegReg;
use crate::size::Size;

/// #NM: the device is not available (CR0.EM or CR0.TS).
const NM: Fault = Fault::Vector(7);
/// CR0.EM and CR0.TS.
const CR0_EM: u32 = 1 << 2;
const CR0_TS: u32 = 1 << 3;
const CR0_MP: u32 = 1 << 1;

type Exec = Result<(), Fault>;

/// A memory operand: segment register and offset.
pub(crate) type Mem = (SegReg, u32);

impl Cpu {
    /// WAIT with a coprocessor: #NM when CR0.MP and CR0.TS are both set,
    /// then the error check (`x87::error`); the unit itself is never busy
    /// between instructions here.
    pub(crate) fn x87_wait<B: Bus>(&mut self, bus: &mut B) -> Exec {
        if self.sys.cr0 & (CR0_MP | CR0_TS) == CR0_MP | CR0_TS {
            return Err(NM);
        }
        if self.x87_gate(bus, None)? == Gate::Stall {
            self.x87_retry();
        }
        Ok(())
    }

    /// Executes an ESC instruction on the unit; `mem` is its memory
    /// operand, already addressed (EA clocks charged).
    pub(crate) fn x87_esc<B: Bus>(
        &mut self,
        bus: &mut B,
        ins: &Instruction,
        mem: Option<Mem>,
    ) -> Exec {
        if self.sys.cr0 & (CR0_EM | CR0_TS) != 0 {
            return Err(NM);
        }
        let m = ins.modrm.unwrap_or_default();
        let modrm = (m.mode << 6) | (m.reg << 3) | m.rm;
        let op = decode(ins.opcode, modrm);
        if self.x87_gate(bus, Some(op))? == Gate::Stall {
            self.x87_retry();
            return Ok(());
        }
        let Some(mut fpu) = self.fpu.take() else {
            return Ok(());
        };
        self.step_cycles += super::timing::clocks(self.model, op);
        if !is_control(op) {
            let cs = self.regs.sreg(SegReg::CS) as u32;
            fpu.fip = (cs << 4) + (self.instr_ip & 0xFFFF);
            fpu.fop = (((ins.opcode & 7) as u16) << 8) | modrm as u16;
            if let Some((s, o)) = mem {
                fpu.foo = ((self.regs.sreg(s) as u32) << 4) + o;
            }
        }
        let r = match mem {
            Some(mem) => self.x87_mem(bus, &mut fpu, op, mem, ins.opsize32),
            None => {
                self.x87_reg(&mut fpu, op, m.rm);
                Ok(())
            }
        };
        bus.ferr(fpu.error_pending());
        self.fpu = Some(fpu);
        r
    }

    fn x87_read<B: Bus>(&mut self, bus: &mut B, (s, o): Mem, n: usize) -> Result<Vec<u8>, Fault> {
        let mut out = Vec::with_capacity(n);
        for i in (0..n).step_by(2) {
            let w = self.read_mem(bus, s, o.wrapping_add(i as u32), Size::Word)? as u16;
            out.extend_from_slice(&w.to_le_bytes());
        }
        Ok(out)
    }

    fn x87_write<B: Bus>(&mut self, bus: &mut B, (s, o): Mem, b: &[u8]) -> Exec {
        for (i, w) in b.chunks(2).enumerate() {
            let v = u16::from_le_bytes([w[0], w.get(1).copied().unwrap_or(0)]);
            self.write_mem(bus, s, o.wrapping_add(2 * i as u32), Size::Word, v as u32)?;
        }
        Ok(())
    }

    /// The memory forms.
    fn x87_mem<B: Bus>(
        &mut self,
        bus: &mut B,
        f: &mut X87,
        op: X87Op,
        mem: Mem,
        op32: bool,
    ) -> Exec {
        match op {
            X87Op::ArithMem(a, fmt) => {
                let b = self.x87_read(bus, mem, fmt.bytes())?;
                if let Some(v) = f.load_value(fmt, &b) {
                    f.arith(a, 0, v, false, false);
                }
            }
            X87Op::Load(fmt) => {
                let b = self.x87_read(bus, mem, fmt.bytes())?;
                if !f.is_empty(7) {
                    f.push(F80::default());
                } else if let Some(v) = f.load_value(fmt, &b) {
                    f.push(v);
                }
            }
            X87Op::Store(fmt, pop) => {
                if f.is_empty(0) {
                    f.stack_fault(false);
                    if f.unmasked(sw::IE) {
                        return Ok(());
                    }
                    let b = f.store_value(fmt, super::state::INDEFINITE);
                    f.status |= sw::IE | sw::SF;
                    if let Some(b) = b {
                        self.x87_write(bus, mem, &b[..fmt.bytes()])?;
                    }
                } else if let Some(b) = f.store_value(fmt, f.st(0)) {
                    self.x87_write(bus, mem, &b[..fmt.bytes()])?;
                } else {
                    return Ok(());
                }
                if pop {
                    f.pop();
                }
            }
            X87Op::Ldcw => {
                let v = self.read_mem(bus, mem.0, mem.1, Size::Word)?;
                f.load_control(v as u16);
            }
            X87Op::Stcw => self.write_mem(bus, mem.0, mem.1, Size::Word, f.control as u32)?,
            X87Op::Stsw => self.write_mem(bus, mem.0, mem.1, Size::Word, f.status_word() as u32)?,
            X87Op::Ldenv | X87Op::Rstor => {
                let n = env_size(op32) + if op == X87Op::Rstor { 80 } else { 0 };
                let b = self.x87_read(bus, mem, n)?;
                if op == X87Op::Rstor {
                    f.restore(&b, op32);
                } else {
                    f.load_env(&b, op32);
                }
            }
            X87Op::Stenv => {
                self.x87_write(bus, mem, &f.env_image(op32))?;
                // FNSTENV masks every exception after storing.
                f.control |= sw::EXCEPTIONS;
                f.update_summary();
            }
            X87Op::Save => {
                self.x87_write(bus, mem, &f.save_image(op32))?;
                f.init();
            }
            // Register-only operations with a memory ModR/M do nothing.
            _ => {}
        }
        Ok(())
    }

    /// The register forms.
    fn x87_reg(&mut self, f: &mut X87, op: X87Op, i: u8) {
        match op {
            X87Op::StswAx => {
                let v = f.status_word();
                self.regs.gpr[0] = (self.regs.gpr[0] & !0xFFFF) | v as u32;
            }
            _ => f.reg_op(op, i),
        }
    }
}

/// The control instructions keep the instruction and operand pointers
/// (SDM vol. 1 §8.1.8); FNOP is not one of them.
fn is_control(op: X87Op) -> bool {
    use X87Op::*;
    matches!(
        op,
        Init | Clex | Ldcw | Stcw | Stsw | StswAx | Ldenv | Stenv | Rstor | Save | Ignored
    )
}

impl X87 {
    /// ST(dest) op= value: an operation of the arithmetic groups, with
    /// `dest` = 0 for the ST(0) forms. `reverse` swaps the operand order
    /// (the DC/DE forms write ST(i)), `pop` pops afterwards.
    pub fn arith(&mut self, a: Arith, dest: u8, src: F80, reverse: bool, pop: bool) {
        let d = self.st(dest);
        if self.is_empty(dest) {
            self.stack_fault(false);
            if !self.unmasked(sw::IE) && !matches!(a, Arith::Com | Arith::Comp) {
                self.set_st(dest, super::state::INDEFINITE);
            }
            if matches!(a, Arith::Com | Arith::Comp) && !self.unmasked(sw::IE) {
                self.set_cc(sw::CC, sw::C3 | sw::C2 | sw::C0);
            }
        } else {
            let (x, y) = if reverse { (src, d) } else { (d, src) };
            let r = match a {
                Arith::Add => self.binary(BinOp::Add, x, y),
                Arith::Mul => self.binary(BinOp::Mul, x, y),
                Arith::Sub => self.binary(BinOp::Sub, x, y),
                Arith::Subr => self.binary(BinOp::Sub, y, x),
                Arith::Div => self.binary(BinOp::Div, x, y),
                Arith::Divr => self.binary(BinOp::Div, y, x),
                Arith::Com | Arith::Comp => {
                    if !self.compare(d, src, false) {
                        return;
                    }
                    None
                }
            };
            if let Some(v) = r {
                self.set_st(dest, v);
            } else if !matches!(a, Arith::Com | Arith::Comp) {
                return;
            }
        }
        if pop || a == Arith::Comp {
            self.pop();
        }
    }

    /// The register forms other than FNSTSW AX; `i` is the ModR/M rm field
    /// (the register number of ST(i)).
    pub fn reg_op(&mut self, op: X87Op, i: u8) {
        use X87Op::*;
        match op {
            ArithSt0(a) => {
                if self.underflow_check(&[0, i], matches!(a, Arith::Com | Arith::Comp)) {
                    self.arith(a, 0, self.st(i), false, false);
                } else {
                    let compare = matches!(a, Arith::Com | Arith::Comp);
                    self.masked_underflow_result((!compare).then_some(0), a == Arith::Comp);
                }
            }
            // The DC/DE forms: ST(i) = ST(i) op ST(0).
            ArithSti(a, pop) => {
                if self.underflow_check(&[0, i], false) {
                    self.arith(a, i, self.st(0), false, pop);
                } else {
                    self.masked_underflow_result(Some(i), pop);
                }
            }
            LoadSt => {
                if self.is_empty(i) {
                    self.stack_fault(false);
                    if !self.unmasked(sw::IE) {
                        self.push(super::state::INDEFINITE);
                    }
                } else {
                    let v = self.st(i);
                    self.push(v);
                }
            }
            StoreSt(pop) => {
                if self.is_empty(0) {
                    self.stack_fault(false);
                    if self.unmasked(sw::IE) {
                        return;
                    }
                    self.set_st(i, super::state::INDEFINITE);
                } else {
                    let v = self.st(0);
                    self.set_st(i, v);
                }
                if pop {
                    self.pop();
                }
            }
            Xch => self.exchange(i),
            Ucom(pops) => {
                if self.underflow_check(&[0, i], true) && self.compare(self.st(0), self.st(i), true)
                {
                    (0..pops).for_each(|_| self.pop());
                }
            }
            Ucompp | Compp => {
                let ok = self.underflow_check(&[0, 1], true)
                    && self.compare(self.st(0), self.st(1), op == Ucompp);
                if ok {
                    self.pop();
                    self.pop();
                }
            }
            Tst => {
                if self.underflow_check(&[0], true) {
                    self.compare(self.st(0), F80::default(), false);
                }
            }
            Xam => self.examine(),
            // FNOP touches nothing but the pointers (it is not a control
            // instruction, SDM vol. 1 §8.1.8): no stack check, C1 kept.
            // FNENI, FNDISI and FNSETPM touch nothing at all.
            Nop | Ignored => {}
            Transcendental(t) => self.transcendental(t),
            Const(n) => {
                let v = self.constant(n as usize);
                self.push(v);
            }
            Stp(up) => self.rotate_top(up),
            Free => self.free(i),
            Clex => self.clear_exceptions(),
            Init => self.init(),
            _ => self.unary_op(op),
        }
    }

    /// After a stack underflow with IE masked: the destination gets the
    /// indefinite (a compare has no destination) and the pop happens.
    fn masked_underflow_result(&mut self, dest: Option<u8>, pop: bool) {
        if self.unmasked(sw::IE) {
            return;
        }
        if let Some(d) = dest {
            self.set_st(d, super::state::INDEFINITE);
        }
        if pop {
            self.pop();
        }
    }

    /// FXCH: an empty operand is a stack underflow; masked, it reads as
    /// the indefinite.
    fn exchange(&mut self, i: u8) {
        if self.is_empty(0) || self.is_empty(i) {
            self.stack_fault(false);
            if self.unmasked(sw::IE) {
                return;
            }
            for r in [0, i] {
                if self.is_empty(r) {
                    self.set_st(r, super::state::INDEFINITE);
                }
            }
        }
        let (a, b) = (self.st(0), self.st(i));
        self.set_st(0, b);
        self.set_st(i, a);
        self.status &= !sw::C1;
    }

    /// Stack underflow for operations that read `regs`: false (nothing
    /// done) when a register is empty and IE is unmasked; masked, a
    /// compare answers unordered.
    fn underflow_check(&mut self, regs: &[u8], compare: bool) -> bool {
        if regs.iter().all(|&r| !self.is_empty(r)) {
            return true;
        }
        self.stack_fault(false);
        if compare && !self.unmasked(sw::IE) {
            self.set_cc(sw::CC, sw::C3 | sw::C2 | sw::C0);
        }
        false
    }

    /// FCHS, FABS, FSQRT, FRNDINT, FSCALE, FXTRACT, FPREM and FPREM1.
    fn unary_op(&mut self, op: X87Op) {
        use X87Op::*;
        let needs_two = matches!(op, Scale | Prem(_));
        let regs: &[u8] = if needs_two { &[0, 1] } else { &[0] };
        if !self.underflow_check(regs, false) {
            if matches!(op, Prem(_)) {
                self.set_cc(sw::C2, 0); // the reduction ends (`partial_remainder`)
            }
            if !self.unmasked(sw::IE) && !matches!(op, Nop | Ignored | Undefined) {
                self.set_st(0, super::state::INDEFINITE);
            }
            return;
        }
        let a = self.st(0);
        // C1 is cleared unless the result rounds up (set by `deliver`).
        self.status &= !sw::C1;
        let r = match op {
            Chs => Some(a.negated()),
            Abs => Some(a.abs()),
            Sqrt => self.sqrt(a),
            Rndint => self.round_int(a),
            Scale => self.scale(a, self.st(1)),
            Prem(ieee) => self.partial_remainder(a, self.st(1), ieee),
            Xtract => {
                if let Some((e, s)) = self.extract(a) {
                    self.set_st(0, e);
                    self.push(s);
                }
                return;
            }
            _ => return,
        };
        if let Some(v) = r {
            self.set_st(0, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::x87::load_store::from_int as int;

    #[test]
    fn fld1_fadd_st0_gives_two() {
        let mut f = X87::new();
        f.reg_op(X87Op::Const(0), 0);
        f.reg_op(X87Op::LoadSt, 0);
        f.reg_op(X87Op::ArithSti(Arith::Add, true), 1);
        assert_eq!(f.top, 7);
        assert_eq!(f.st(0), F80::new(false, 0x4000, 1 << 63));
    }

    #[test]
    fn fsub_forms_order_their_operands() {
        let mut f = X87::new();
        f.push(int(10));
        f.push(int(3));
        // D8 E1: ST(0) = ST(0) - ST(1) = 3 - 10.
        f.reg_op(X87Op::ArithSt0(Arith::Sub), 1);
        assert_eq!(f.st(0), int(-7));
        // DE E9 (FSUBP ST(1), ST(0)): ST(1) = ST(1) - ST(0) = 10 - -7.
        f.reg_op(X87Op::ArithSti(Arith::Sub, true), 1);
        assert_eq!(f.st(0), int(17));
        assert_eq!(f.top, 7);
    }

    #[test]
    fn empty_operand_is_a_stack_underflow() {
        let mut f = X87::new();
        f.reg_op(X87Op::Chs, 0);
        assert_eq!(f.status & (sw::IE | sw::SF | sw::C1), sw::IE | sw::SF);
        let mut f = X87::new();
        f.reg_op(X87Op::Compp, 0);
        assert_eq!(f.status & sw::CC, sw::C3 | sw::C2 | sw::C0);
    }

    #[test]
    fn fcomp_pops_and_sets_codes() {
        let mut f = X87::new();
        f.push(int(1));
        f.push(int(2));
        f.reg_op(X87Op::ArithSt0(Arith::Comp), 1);
        assert_eq!(f.status & sw::CC, 0);
        assert_eq!(f.top, 7);
    }

    #[test]
    fn fxch_swaps() {
        let mut f = X87::new();
        f.push(int(1));
        f.push(int(2));
        f.reg_op(X87Op::Xch, 1);
        assert_eq!((f.st(0), f.st(1)), (int(1), int(2)));
    }
}
