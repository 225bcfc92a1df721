//! Disassembly of 16-bit code through iced-x86 (Intel syntax), for test
//! reports and debugging output.
//!
//! iced-x86 decodes as a modern CPU in 16-bit mode, so 8086-only meanings are
//! not shown: `0F` decodes as a two-byte opcode rather than POP CS, `60h-6Fh`
//! as 186+ instructions rather than aliases of the conditional jumps, and so
//! on. Bytes that do not form an instruction are shown as `db` lines.

use iced_x86::{Decoder, DecoderOptions, Formatter, Instruction, IntelFormatter};

/// One disassembled instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisasmLine {
    /// Its IP (offset in the code segment).
    pub ip: u32,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// The Intel-syntax text, or `db XXh...` for bytes that do not decode.
    pub text: String,
}

/// Disassembles the first instruction in `bytes` as 16-bit code located at
/// `ip` (used for relative branch targets), in Intel syntax, e.g.
/// `add cl,ah`. Returns `db XXh,...` when the bytes do not form a whole valid
/// instruction and an empty string for empty input.
pub fn disasm16(bytes: &[u8], ip: u32) -> String {
    let mut decoder = Decoder::with_ip(16, bytes, ip as u64, DecoderOptions::NONE);
    if !decoder.can_decode() {
        return String::new();
    }
    let mut instr = Instruction::default();
    decoder.decode_out(&mut instr);
    if instr.is_invalid() {
        return db_text(bytes);
    }
    let mut out = String::new();
    IntelFormatter::new().format(&instr, &mut out);
    out
}

/// Disassembles every instruction in `bytes` as 16-bit code starting at
/// `ip`. Offsets wrap at 64 KiB like the 8086's IP. An undecodable byte
/// becomes a one-byte `db` line and decoding resumes after it.
pub fn disasm16_all(bytes: &[u8], ip: u32) -> Vec<DisasmLine> {
    let mut out = Vec::new();
    let mut formatter = IntelFormatter::new();
    let mut pos = 0usize;
    while pos < bytes.len() {
        let rest = &bytes[pos..];
        let at = ip.wrapping_add(pos as u32) & 0xFFFF;
        let mut decoder = Decoder::with_ip(16, rest, at as u64, DecoderOptions::NONE);
        let instr = decoder.decode();
        let len = if instr.is_invalid() { 1 } else { instr.len() };
        let len = len.clamp(1, rest.len());
        let text = if instr.is_invalid() {
            db_text(&rest[..1])
        } else {
            let mut s = String::new();
            formatter.format(&instr, &mut s);
            s
        };
        out.push(DisasmLine {
            ip: at,
            bytes: rest[..len].to_vec(),
            text,
        });
        pos += len;
    }
    out
}

/// Disassembles every instruction in `bytes` (see [`disasm16_all`]) and
/// joins the texts with `"; "`, for one-line reports.
pub fn disasm16_line(bytes: &[u8], ip: u32) -> String {
    disasm16_all(bytes, ip)
        .into_iter()
        .map(|l| l.text)
        .collect::<Vec<_>>()
        .join("; ")
}

fn db_text(bytes: &[u8]) -> String {
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}h")).collect();
    format!("db {}", hex.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_instruction() {
        assert_eq!(disasm16(&[0x00, 0xE1], 0), "add cl,ah");
        assert_eq!(disasm16(&[0x90, 0x90], 0), "nop");
        assert_eq!(disasm16(&[0xB8, 0x34, 0x12], 0), "mov ax,1234h");
        // A short jump's target uses the IP.
        assert_eq!(disasm16(&[0xEB, 0x00], 0x100), "jmp short 0102h");
        assert_eq!(disasm16(&[], 0), "");
        // Truncated instruction.
        assert_eq!(disasm16(&[0xB8, 0x34], 0), "db B8h,34h");
    }

    #[test]
    fn a_run_of_instructions() {
        let lines = disasm16_all(&[0x90, 0x40, 0xB0, 0x01, 0xB8], 0xFFFE);
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["nop", "inc ax", "mov al,1", "db B8h"]);
        assert_eq!(lines[2].ip, 0x0000);
        assert_eq!(lines[2].bytes, vec![0xB0, 0x01]);
        assert_eq!(disasm16_line(&[0x90, 0x40], 0), "nop; inc ax");
    }
}
