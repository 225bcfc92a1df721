//! Register names as the debugger takes them: 16-bit general registers,
//! their 8-bit halves, e-prefixed 32-bit registers, segment registers, IP
//! and FLAGS.

use emu::Registers;

/// General register names in ModR/M order (the order of `gpr`).
pub const REG_NAMES: [&str; 8] = ["ax", "cx", "dx", "bx", "sp", "bp", "si", "di"];
/// The 8-bit halves in ModR/M order.
const HALVES: [&str; 8] = ["al", "cl", "dl", "bl", "ah", "ch", "dh", "bh"];
/// Segment registers in the order of `seg`.
const SEGS: [&str; 6] = ["es", "cs", "ss", "ds", "fs", "gs"];

/// A register as named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegName {
    /// A 16-bit general register (index into `gpr`).
    Gpr16(usize),
    /// A 32-bit general register.
    Gpr32(usize),
    /// An 8-bit half (ModR/M index: AL..BL, AH..BH).
    Half(u8),
    /// A segment register (index into `seg`).
    Seg(usize),
    /// IP.
    Ip,
    /// EIP.
    Eip,
    /// FLAGS (`flags` or `fl`).
    Flags,
    /// EFLAGS.
    Eflags,
}

impl RegName {
    /// The register called `name` (any case).
    pub fn parse(name: &str) -> Option<RegName> {
        let n = name.to_ascii_lowercase();
        let pos = |t: &[&str], x: &str| t.iter().position(|&y| y == x);
        if let Some(i) = pos(&REG_NAMES, &n) {
            return Some(RegName::Gpr16(i));
        }
        if let Some(i) = n.strip_prefix('e').and_then(|x| pos(&REG_NAMES, x)) {
            return Some(RegName::Gpr32(i));
        }
        if let Some(i) = pos(&HALVES, &n) {
            return Some(RegName::Half(i as u8));
        }
        if let Some(i) = pos(&SEGS, &n) {
            return Some(RegName::Seg(i));
        }
        match n.as_str() {
            "ip" => Some(RegName::Ip),
            "eip" => Some(RegName::Eip),
            "flags" | "fl" => Some(RegName::Flags),
            "eflags" => Some(RegName::Eflags),
            _ => None,
        }
    }

    /// Its largest value.
    pub fn max(self) -> u64 {
        match self {
            RegName::Half(_) => 0xFF,
            RegName::Gpr32(_) | RegName::Eip | RegName::Eflags => 0xFFFF_FFFF,
            _ => 0xFFFF,
        }
    }

    /// Its value in `r`.
    pub fn read(self, r: &Registers) -> u32 {
        match self {
            RegName::Gpr16(i) => r.gpr[i] & 0xFFFF,
            RegName::Gpr32(i) => r.gpr[i],
            RegName::Half(i) => r.get8(i) as u32,
            RegName::Seg(i) => r.seg[i] as u32,
            RegName::Ip => r.ip & 0xFFFF,
            RegName::Eip => r.ip,
            RegName::Flags => r.flags & 0xFFFF,
            RegName::Eflags => r.flags,
        }
    }

    /// Writes `v` (cut to the register's width) into `r`; FLAGS take
    /// `flags`, the value as the CPU model keeps it.
    pub fn write(self, r: &mut Registers, v: u32, flags: u32) {
        match self {
            RegName::Gpr16(i) => r.put16(i as u8, v as u16),
            RegName::Gpr32(i) => r.gpr[i] = v,
            RegName::Half(i) => r.put8(i, v as u8),
            RegName::Seg(i) => r.seg[i] = v as u16,
            RegName::Ip | RegName::Eip => r.ip = v,
            RegName::Flags | RegName::Eflags => r.flags = flags,
        }
    }

    /// Whether writing it moves CS:IP.
    pub fn moves_pc(self) -> bool {
        matches!(self, RegName::Seg(1) | RegName::Ip | RegName::Eip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_widths_and_halves() {
        let mut r = Registers::default();
        r.gpr[0] = 0x1234_5678;
        assert_eq!(RegName::parse("AX").map(|n| n.read(&r)), Some(0x5678));
        assert_eq!(RegName::parse("eax").map(|n| n.read(&r)), Some(0x1234_5678));
        assert_eq!(RegName::parse("ah").map(|n| n.read(&r)), Some(0x56));
        assert_eq!(RegName::parse("es").map(RegName::max), Some(0xFFFF));
        assert_eq!(RegName::parse("al").map(RegName::max), Some(0xFF));
        assert_eq!(RegName::parse("xx"), None);
        let n = RegName::parse("al").expect("al");
        n.write(&mut r, 0x1AB, 0);
        assert_eq!(r.gpr[0], 0x1234_56AB);
    }
}
