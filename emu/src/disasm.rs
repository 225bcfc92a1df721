//! Disassembly through iced-x86 (being written).
