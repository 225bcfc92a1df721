//! The GDB architecture of a real-mode x86: gdb's i386 register layout
//! (its `org.gnu.gdb.i386.core` feature, which gdb's i386 support
//! requires) under the `i8086` BFD architecture, so that gdb disassembles
//! 16-bit code, plus a feature of our own with the real 16-bit IP.
//!
//! GDB has no notion of segment:offset: its program counter (`eip`, `$pc`)
//! is the linear address CS*16+IP, and every address it reads, writes or
//! breaks on is linear. `$cs`, `$ds`... hold the segment values, so
//! `break *($cs*16+0x1234)` and `x/8xb $ss*16+$sp` work; `$ip` is the
//! offset itself.

use gdbstub::arch::{Arch, RegId, Registers};

/// The target description gdb reads with `qXfer:features:read`. The core
/// feature lists gdb's i386 registers in its register-number order (GDB
/// manual, "i386 Features"); the x87 registers are present because gdb's
/// i386 support requires them, and read as zero.
pub const TARGET_XML: &str = r#"<?xml version="1.0"?>
<!DOCTYPE target SYSTEM "gdb-target.dtd">
<target version="1.0">
  <architecture>i8086</architecture>
  <feature name="org.gnu.gdb.i386.core">
    <flags id="i386_eflags" size="4">
      <field name="CF" start="0" end="0"/>
      <field name="" start="1" end="1"/>
      <field name="PF" start="2" end="2"/>
      <field name="AF" start="4" end="4"/>
      <field name="ZF" start="6" end="6"/>
      <field name="SF" start="7" end="7"/>
      <field name="TF" start="8" end="8"/>
      <field name="IF" start="9" end="9"/>
      <field name="DF" start="10" end="10"/>
      <field name="OF" start="11" end="11"/>
      <field name="NT" start="14" end="14"/>
      <field name="RF" start="16" end="16"/>
      <field name="VM" start="17" end="17"/>
      <field name="AC" start="18" end="18"/>
    </flags>
    <reg name="eax" bitsize="32" type="int32" regnum="0"/>
    <reg name="ecx" bitsize="32" type="int32"/>
    <reg name="edx" bitsize="32" type="int32"/>
    <reg name="ebx" bitsize="32" type="int32"/>
    <reg name="esp" bitsize="32" type="data_ptr"/>
    <reg name="ebp" bitsize="32" type="data_ptr"/>
    <reg name="esi" bitsize="32" type="int32"/>
    <reg name="edi" bitsize="32" type="int32"/>
    <reg name="eip" bitsize="32" type="code_ptr"/>
    <reg name="eflags" bitsize="32" type="i386_eflags"/>
    <reg name="cs" bitsize="32" type="int32"/>
    <reg name="ss" bitsize="32" type="int32"/>
    <reg name="ds" bitsize="32" type="int32"/>
    <reg name="es" bitsize="32" type="int32"/>
    <reg name="fs" bitsize="32" type="int32"/>
    <reg name="gs" bitsize="32" type="int32"/>
    <reg name="st0" bitsize="80" type="i387_ext"/>
    <reg name="st1" bitsize="80" type="i387_ext"/>
    <reg name="st2" bitsize="80" type="i387_ext"/>
    <reg name="st3" bitsize="80" type="i387_ext"/>
    <reg name="st4" bitsize="80" type="i387_ext"/>
    <reg name="st5" bitsize="80" type="i387_ext"/>
    <reg name="st6" bitsize="80" type="i387_ext"/>
    <reg name="st7" bitsize="80" type="i387_ext"/>
    <reg name="fctrl" bitsize="32" type="int" group="float"/>
    <reg name="fstat" bitsize="32" type="int" group="float"/>
    <reg name="ftag" bitsize="32" type="int" group="float"/>
    <reg name="fiseg" bitsize="32" type="int" group="float"/>
    <reg name="fioff" bitsize="32" type="int" group="float"/>
    <reg name="foseg" bitsize="32" type="int" group="float"/>
    <reg name="fooff" bitsize="32" type="int" group="float"/>
    <reg name="fop" bitsize="32" type="int" group="float"/>
  </feature>
  <feature name="org.tandem.x86.realmode">
    <reg name="ip" bitsize="16" type="uint16" regnum="32"/>
  </feature>
</target>
"#;

/// Number of general registers in the core feature (eax..gs).
pub const NUM_GREGS: usize = 16;
/// Index of `eip` among them.
pub const EIP: usize = 8;
/// Index of `eflags`.
pub const EFLAGS: usize = 9;
/// Index of `cs`; `ss`, `ds`, `es`, `fs`, `gs` follow.
pub const CS: usize = 10;

/// Bytes of the x87 part of the `g` packet: eight 80-bit stack registers
/// and eight 32-bit control registers.
const X87_BYTES: usize = 8 * 10 + 8 * 4;

/// The register file as gdb sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RealModeRegs {
    /// eax, ecx, edx, ebx, esp, ebp, esi, edi, eip (linear CS*16+IP),
    /// eflags, cs, ss, ds, es, fs, gs.
    pub gregs: [u32; NUM_GREGS],
    /// The 16-bit IP (register 32, `$ip`).
    pub ip: u16,
}

impl Registers for RealModeRegs {
    type ProgramCounter = u32;

    fn pc(&self) -> u32 {
        self.gregs[EIP]
    }

    fn gdb_serialize(&self, mut write_byte: impl FnMut(Option<u8>)) {
        for r in self.gregs {
            r.to_le_bytes().iter().for_each(|&b| write_byte(Some(b)));
        }
        // No FPU: the x87 registers read as zero.
        (0..X87_BYTES).for_each(|_| write_byte(Some(0)));
        self.ip
            .to_le_bytes()
            .iter()
            .for_each(|&b| write_byte(Some(b)));
    }

    fn gdb_deserialize(&mut self, bytes: &[u8]) -> Result<(), ()> {
        if bytes.len() < NUM_GREGS * 4 {
            return Err(());
        }
        for (i, c) in bytes[..NUM_GREGS * 4].chunks_exact(4).enumerate() {
            self.gregs[i] = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        let at = NUM_GREGS * 4 + X87_BYTES;
        if let Some(ip) = bytes.get(at..at + 2) {
            self.ip = u16::from_le_bytes([ip[0], ip[1]]);
        }
        Ok(())
    }
}

/// Register numbers for `p`/`P` packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RealModeRegId {
    /// One of the 16 general registers (index as in [`RealModeRegs::gregs`]).
    Greg(usize),
    /// An x87 register (reads as zero), with its size in bytes.
    X87(usize),
    /// The 16-bit IP.
    Ip,
}

impl RegId for RealModeRegId {
    fn from_raw_id(id: usize) -> Option<(Self, Option<std::num::NonZeroUsize>)> {
        let (r, size) = match id {
            0..=15 => (RealModeRegId::Greg(id), 4),
            16..=23 => (RealModeRegId::X87(10), 10),
            24..=31 => (RealModeRegId::X87(4), 4),
            32 => (RealModeRegId::Ip, 2),
            _ => return None,
        };
        Some((r, std::num::NonZeroUsize::new(size)))
    }
}

/// The architecture: 32-bit linear addresses, breakpoint kinds as gdb
/// sends them (1 for x86's INT3 length; ignored).
pub enum RealMode {}

impl Arch for RealMode {
    type Usize = u32;
    type Registers = RealModeRegs;
    type RegId = RealModeRegId;
    type BreakpointKind = usize;

    fn target_description_xml() -> Option<&'static str> {
        Some(TARGET_XML)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_g_packet_round_trips_and_has_the_described_size() {
        let mut r = RealModeRegs::default();
        for (i, g) in r.gregs.iter_mut().enumerate() {
            *g = 0x1111 * (i as u32 + 1);
        }
        r.ip = 0xDB1A;
        let mut bytes = Vec::new();
        r.gdb_serialize(|b| bytes.push(b.unwrap_or(0)));
        // 16 x 4 + x87 (8 x 10 + 8 x 4) + 2: what TARGET_XML declares.
        assert_eq!(bytes.len(), 64 + 112 + 2);
        let mut back = RealModeRegs::default();
        back.gdb_deserialize(&bytes).expect("whole packet");
        assert_eq!(back, r);
        assert!(back.gdb_deserialize(&bytes[..10]).is_err());
    }

    #[test]
    fn the_description_declares_every_register_once() {
        let regs = TARGET_XML.matches("<reg ").count();
        assert_eq!(regs, NUM_GREGS + 16 + 1);
        assert!(TARGET_XML.contains("<architecture>i8086</architecture>"));
    }
}
