//! IN and OUT, with the port in an immediate byte or in DX. (INS and OUTS
//! are string operations: `crate::string`.)

use crate::bus::Bus;
use crate::cpu::Cpu;
use crate::decode::Instruction;
use crate::eu_timing;
use crate::regs::Reg16;
use crate::size::Size;
use crate::table::{Form, Op};

impl Cpu {
    /// IN AL/AX/EAX, port and OUT port, AL/AX/EAX.
    #[inline(always)]
    pub(super) fn in_out<B: Bus>(&mut self, bus: &mut B, ins: &Instruction) {
        let sz = Size::of(ins.w, ins.opsize32);
        let imm = ins.form == Form::AccPort;
        let port = if imm {
            ins.imm as u16
        } else {
            self.regs.reg16(Reg16::DX)
        };
        self.x_imm(bus, ins);
        if ins.op == Op::In {
            self.x_script(bus, eu_timing::in_pre(imm));
            let v = self.port_in(bus, port, sz);
            self.x_script(bus, eu_timing::IN_POST);
            self.put_reg(0, sz, v);
        } else {
            let v = self.get_reg(0, sz);
            self.x_script(bus, eu_timing::out_pre(imm));
            self.port_out(bus, port, v, sz);
        }
    }
}
