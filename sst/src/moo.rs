//! Reader for the MOO container of the single-step test suites
//! (`shared/sst/README.md`).
//!
//! A MOO file is a sequence of chunks (4 ASCII bytes of type, a little-endian
//! u32 payload length, the payload). The first chunk is `MOO ` (the header);
//! every `TEST` chunk holds one test made of sub-chunks of the same shape.
//! Unknown chunk types are skipped at every level. Files may be gzip
//! compressed (`.MOO.gz`) or not; the reader tells them apart by the gzip
//! magic bytes.
//!
//! Every malformed input is reported as a [`MooError`] naming the file, the
//! byte offset (in the decompressed data) and what is wrong; the reader never
//! panics on bad input.

use std::io::Read;
use std::path::Path;

/// The two bytes every gzip stream starts with.
const GZIP_MAGIC: [u8; 2] = [0x1F, 0x8B];

/// Why a MOO file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {message}{}", at_byte(.offset))]
pub struct MooError {
    /// The file (or the name given to [`parse_moo`]).
    pub file: String,
    /// Byte offset in the (decompressed) data where the problem was found,
    /// when it is known.
    pub offset: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl MooError {
    fn new(file: &str, offset: Option<usize>, message: impl Into<String>) -> Self {
        MooError {
            file: file.to_string(),
            offset,
            message: message.into(),
        }
    }
}

/// The ` (at byte N)` suffix of a [`MooError`] whose offset is known.
fn at_byte(offset: &Option<usize>) -> String {
    offset
        .map(|o| format!(" (at byte {o})"))
        .unwrap_or_default()
}

/// The payload of the `MOO ` chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MooHeader {
    /// Format version (byte 0).
    pub version: u8,
    /// Number of tests the file says it holds.
    pub test_count: u32,
    /// CPU name, 4 ASCII bytes with trailing spaces removed (`8086`, `286`,
    /// `C286`...).
    pub cpu_name: String,
}

/// A register of a MOO `REGS` sub-chunk, numbered by its bit in the mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MooReg {
    /// AX (bit 0).
    AX = 0,
    /// BX (bit 1).
    BX,
    /// CX (bit 2).
    CX,
    /// DX (bit 3).
    DX,
    /// CS (bit 4).
    CS,
    /// SS (bit 5).
    SS,
    /// DS (bit 6).
    DS,
    /// ES (bit 7).
    ES,
    /// SP (bit 8).
    SP,
    /// BP (bit 9).
    BP,
    /// SI (bit 10).
    SI,
    /// DI (bit 11).
    DI,
    /// IP (bit 12).
    IP,
    /// FLAGS (bit 13).
    FLAGS,
}

impl MooReg {
    /// All registers in file (bit) order.
    pub const ALL: [MooReg; 14] = [
        MooReg::AX,
        MooReg::BX,
        MooReg::CX,
        MooReg::DX,
        MooReg::CS,
        MooReg::SS,
        MooReg::DS,
        MooReg::ES,
        MooReg::SP,
        MooReg::BP,
        MooReg::SI,
        MooReg::DI,
        MooReg::IP,
        MooReg::FLAGS,
    ];

    /// The lower-case register name (`ax`, ..., `ip`, `flags`).
    pub fn name(self) -> &'static str {
        [
            "ax", "bx", "cx", "dx", "cs", "ss", "ds", "es", "sp", "bp", "si", "di", "ip", "flags",
        ][self as usize]
    }
}

/// The `REGS` sub-chunk: which registers are present and their values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MooRegs {
    /// Bit n set when register n (see [`MooReg`]) is present.
    pub mask: u16,
    /// Values indexed by [`MooReg`]; zero for absent registers.
    pub values: [u16; 14],
}

impl MooRegs {
    /// The register's value if it is present.
    #[inline]
    pub fn get(&self, r: MooReg) -> Option<u16> {
        if self.mask & (1 << r as u8) != 0 {
            Some(self.values[r as usize])
        } else {
            None
        }
    }
}

/// A CPU state (`INIT` or `FINA`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CpuState {
    /// The registers (the final state lists only those that changed).
    pub regs: MooRegs,
    /// RAM bytes as (physical address, value).
    pub ram: Vec<(u32, u8)>,
    /// The prefetch queue bytes (8086 suite only; empty otherwise).
    pub queue: Vec<u8>,
}

/// One 15-byte record of a `CYCL` sub-chunk: the bus pins in one clock.
///
/// The fields are kept raw; their meaning (8086 decoding) is in
/// `shared/sst/README.md`. The 286 suite records 286 bus states in the same
/// layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cycle {
    /// Pin bits: bit 0 ALE, bit 1 INTR, bit 2 NMI.
    pub pins: u8,
    /// The address latch.
    pub address: u32,
    /// Segment status: 0 ES, 1 SS, 2 CS or none, 3 DS, 4 invalid.
    pub segment: u8,
    /// Memory status, 3 bits: bit 2 read, bit 1 advanced write, bit 0 write.
    pub mem_status: u8,
    /// I/O status, same layout as `mem_status`.
    pub io_status: u8,
    /// The BHE pin.
    pub bhe: u8,
    /// The data bus.
    pub data: u16,
    /// Bus status: 0 INTA, 1 IOR, 2 IOW, 3 MEMR, 4 MEMW, 5 HALT, 6 CODE,
    /// 7 PASV.
    pub bus_status: u8,
    /// T-state: 0 Ti, 1 T1, 2 T2, 3 T3, 4 T4.
    pub t_state: u8,
    /// Queue operation: 0 none, 1 first byte, 2 flush, 3 subsequent byte.
    pub queue_op: u8,
    /// The byte read from the queue, when `queue_op` is 1 or 3.
    pub queue_byte: u8,
}

impl Cycle {
    /// Size of one record in the file.
    pub const SIZE: usize = 15;

    /// Decodes one record.
    #[inline]
    pub fn from_bytes(b: &[u8; Cycle::SIZE]) -> Cycle {
        Cycle {
            pins: b[0],
            address: u32::from_le_bytes([b[1], b[2], b[3], b[4]]),
            segment: b[5],
            mem_status: b[6],
            io_status: b[7],
            bhe: b[8],
            data: u16::from_le_bytes([b[9], b[10]]),
            bus_status: b[11],
            t_state: b[12],
            queue_op: b[13],
            queue_byte: b[14],
        }
    }
}

/// The `EXCP` sub-chunk (286 suite): an exception the instruction raised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MooException {
    /// The exception (interrupt) number.
    pub number: u8,
    /// Physical address of the FLAGS word the exception pushed.
    pub flags_address: u32,
}

/// One test.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MooTest {
    /// The test's index (the u32 at the start of the `TEST` payload).
    pub index: u32,
    /// The disassembly from `NAME` (informative only; empty if absent).
    pub name: String,
    /// The instruction bytes (`BYTS`).
    pub bytes: Vec<u8>,
    /// Initial state (`INIT`).
    pub init: CpuState,
    /// Final state (`FINA`): changed registers only, plus RAM.
    pub fina: CpuState,
    /// Bus cycles (`CYCL`).
    pub cycles: Vec<Cycle>,
    /// SHA-1 identifying the test (`HASH`), if present.
    pub hash: Option<[u8; 20]>,
    /// The exception raised (`EXCP`), if present.
    pub exception: Option<MooException>,
}

/// A whole MOO file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MooFile {
    /// The `MOO ` header.
    pub header: MooHeader,
    /// The tests in file order.
    pub tests: Vec<MooTest>,
}

/// Whether a file name is a test file (`*.MOO.gz` or `*.MOO`, any case).
pub fn is_moo_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.ends_with(".moo.gz") || l.ends_with(".moo")
}

/// Reads a MOO file from disk, gzip-compressed or not.
pub fn read_moo_file(path: &Path) -> Result<MooFile, MooError> {
    let name = path.display().to_string();
    let raw =
        std::fs::read(path).map_err(|e| MooError::new(&name, None, format!("cannot read: {e}")))?;
    let data = decompress(&raw, &name)?;
    parse_moo(&data, &name)
}

/// Returns `raw` decompressed if it is a gzip stream, else `raw` itself.
/// `name` labels errors.
pub fn decompress<'a>(raw: &'a [u8], name: &str) -> Result<std::borrow::Cow<'a, [u8]>, MooError> {
    if raw.len() >= 2 && raw[..2] == GZIP_MAGIC {
        // The decompressed suite files are about 5x the compressed size.
        let mut out = Vec::with_capacity(raw.len().saturating_mul(6));
        flate2::read::GzDecoder::new(raw)
            .read_to_end(&mut out)
            .map_err(|e| MooError::new(name, None, format!("bad gzip data: {e}")))?;
        Ok(std::borrow::Cow::Owned(out))
    } else {
        Ok(std::borrow::Cow::Borrowed(raw))
    }
}

/// A bounds-checked little-endian reader over a byte slice; `base` is the
/// slice's offset in the file, for error messages.
struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
    file: &'a str,
}

impl<'a> Cursor<'a> {
    fn new(data: &'a [u8], base: usize, file: &'a str) -> Self {
        Cursor {
            data,
            pos: 0,
            base,
            file,
        }
    }

    fn at_end(&self) -> bool {
        self.pos >= self.data.len()
    }

    fn offset(&self) -> usize {
        self.base + self.pos
    }

    #[cold]
    fn err(&self, msg: impl Into<String>) -> MooError {
        MooError::new(self.file, Some(self.offset()), msg)
    }

    #[cold]
    #[inline(never)]
    fn truncated(&self, n: usize, what: &str) -> MooError {
        let left = self.data.len() - self.pos;
        self.err(format!(
            "truncated {what}: need {n} bytes, only {left} left"
        ))
    }

    #[inline]
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], MooError> {
        match self.data.get(self.pos..).and_then(|rest| rest.get(..n)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(self.truncated(n, what)),
        }
    }

    fn u8(&mut self, what: &str) -> Result<u8, MooError> {
        Ok(self.take(1, what)?[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16, MooError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &str) -> Result<u32, MooError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The next chunk: its type and a cursor over its payload.
    #[inline]
    fn chunk(&mut self) -> Result<([u8; 4], Cursor<'a>), MooError> {
        let start = self.offset();
        let t = self.take(4, "chunk type")?;
        let ty = [t[0], t[1], t[2], t[3]];
        let len = self.u32("chunk length")? as usize;
        let left = self.data.len() - self.pos;
        if len > left {
            return Err(self.oversized(start, &ty, len));
        }
        let base = self.offset();
        let payload = self.take(len, "chunk payload")?;
        Ok((ty, Cursor::new(payload, base, self.file)))
    }

    #[cold]
    #[inline(never)]
    fn oversized(&self, start: usize, ty: &[u8; 4], len: usize) -> MooError {
        let left = self.data.len() - self.pos;
        MooError::new(
            self.file,
            Some(start),
            format!(
                "chunk '{}' claims {len} bytes but only {left} are left",
                show_type(ty)
            ),
        )
    }

    /// A u32 count followed by that many items of `size` bytes.
    fn counted(&mut self, size: usize, what: &str) -> Result<(usize, &'a [u8]), MooError> {
        let n = self.u32(what)? as usize;
        let bytes = n
            .checked_mul(size)
            .ok_or_else(|| self.err(format!("{what}: count {n} is too large")))?;
        let s = self.take(bytes, what)?;
        Ok((n, s))
    }
}

/// A chunk type for messages: printable ASCII as is, otherwise hex.
fn show_type(t: &[u8; 4]) -> String {
    if t.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        t.iter().map(|&b| b as char).collect()
    } else {
        format!("{:02X}{:02X}{:02X}{:02X}", t[0], t[1], t[2], t[3])
    }
}

/// Parses MOO data that is already decompressed. `name` labels errors.
///
/// The number of `TEST` chunks must equal the header's test count; a file
/// cut short is an error, not a shorter suite.
pub fn parse_moo(data: &[u8], name: &str) -> Result<MooFile, MooError> {
    let mut cur = Cursor::new(data, 0, name);
    if data.len() < 4 || &data[..4] != b"MOO " {
        return Err(MooError::new(
            name,
            Some(0),
            "not a MOO file (it does not start with a 'MOO ' chunk)",
        ));
    }
    let (_, mut h) = cur.chunk()?;
    let version = h.u8("header version")?;
    h.take(3, "header")?;
    let test_count = h.u32("header test count")?;
    let cpu = h.take(4, "header CPU name")?;
    let cpu_name = String::from_utf8_lossy(cpu).trim_end().to_string();
    let header = MooHeader {
        version,
        test_count,
        cpu_name,
    };

    // Cap the pre-allocation: the count is untrusted.
    let mut tests = Vec::with_capacity((test_count as usize).min(1 << 16));
    while !cur.at_end() {
        let (ty, payload) = cur.chunk()?;
        if &ty == b"TEST" {
            tests.push(parse_test(payload)?);
        }
    }
    if tests.len() != test_count as usize {
        return Err(MooError::new(
            name,
            None,
            format!(
                "header says {test_count} tests but the file holds {}",
                tests.len()
            ),
        ));
    }
    Ok(MooFile { header, tests })
}

fn parse_test(mut cur: Cursor<'_>) -> Result<MooTest, MooError> {
    let start = cur.offset();
    let mut t = MooTest {
        index: cur.u32("test index")?,
        ..MooTest::default()
    };
    let (mut have_bytes, mut have_init, mut have_fina) = (false, false, false);
    while !cur.at_end() {
        let (ty, mut c) = cur.chunk()?;
        match &ty {
            b"NAME" => {
                let (_, s) = c.counted(1, "NAME")?;
                t.name = String::from_utf8_lossy(s).into_owned();
            }
            b"BYTS" => {
                let (_, s) = c.counted(1, "BYTS")?;
                t.bytes = s.to_vec();
                have_bytes = true;
            }
            b"INIT" => {
                t.init = parse_state(c)?;
                have_init = true;
            }
            b"FINA" => {
                t.fina = parse_state(c)?;
                have_fina = true;
            }
            b"CYCL" => {
                let (n, s) = c.counted(Cycle::SIZE, "CYCL")?;
                t.cycles.reserve_exact(n);
                // Exact chunks always convert; the fallback keeps the
                // iterator's exact length (and the reader panic-free).
                t.cycles.extend(
                    s.chunks_exact(Cycle::SIZE)
                        .map(|r| Cycle::from_bytes(r.try_into().unwrap_or(&[0; Cycle::SIZE]))),
                );
            }
            b"HASH" => {
                let s = c.take(20, "HASH")?;
                let mut h = [0u8; 20];
                h.copy_from_slice(s);
                t.hash = Some(h);
            }
            b"EXCP" => {
                t.exception = Some(MooException {
                    number: c.u8("EXCP number")?,
                    flags_address: c.u32("EXCP flags address")?,
                });
            }
            _ => {} // unknown sub-chunks (GMET...) are skipped
        }
    }
    let missing: Vec<&str> = [
        (have_bytes, "BYTS"),
        (have_init, "INIT"),
        (have_fina, "FINA"),
    ]
    .iter()
    .filter(|(have, _)| !have)
    .map(|(_, n)| *n)
    .collect();
    if !missing.is_empty() {
        return Err(MooError::new(
            cur.file,
            Some(start),
            format!("test {} has no {}", t.index, missing.join(", ")),
        ));
    }
    Ok(t)
}

fn parse_state(mut cur: Cursor<'_>) -> Result<CpuState, MooError> {
    let mut st = CpuState::default();
    while !cur.at_end() {
        let (ty, mut c) = cur.chunk()?;
        match &ty {
            b"REGS" => {
                let mask = c.u16("REGS mask")?;
                if mask >> MooReg::ALL.len() != 0 {
                    return Err(c.err(format!("REGS mask {mask:04X}h has unknown bits")));
                }
                st.regs.mask = mask;
                for r in MooReg::ALL {
                    if mask & (1 << r as u8) != 0 {
                        st.regs.values[r as usize] = c.u16("REGS value")?;
                    }
                }
            }
            b"RAM " => {
                let (n, s) = c.counted(5, "RAM")?;
                st.ram.reserve_exact(n);
                st.ram.extend(
                    s.chunks_exact(5)
                        .map(|e| (u32::from_le_bytes([e[0], e[1], e[2], e[3]]), e[4])),
                );
            }
            b"QUEU" => {
                let (_, s) = c.counted(1, "QUEU")?;
                st.queue = s.to_vec();
            }
            _ => {}
        }
    }
    Ok(st)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(ty: &[u8; 4], payload: &[u8]) -> Vec<u8> {
        let mut v = ty.to_vec();
        v.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        v.extend_from_slice(payload);
        v
    }

    fn counted(n: u32, items: &[u8]) -> Vec<u8> {
        let mut v = n.to_le_bytes().to_vec();
        v.extend_from_slice(items);
        v
    }

    fn header(count: u32, cpu: &[u8; 4]) -> Vec<u8> {
        let mut p = vec![1, 0, 0, 0];
        p.extend_from_slice(&count.to_le_bytes());
        p.extend_from_slice(cpu);
        chunk(b"MOO ", &p)
    }

    fn regs(mask: u16, vals: &[u16]) -> Vec<u8> {
        let mut p = mask.to_le_bytes().to_vec();
        for v in vals {
            p.extend_from_slice(&v.to_le_bytes());
        }
        chunk(b"REGS", &p)
    }

    fn sample_test(index: u32) -> Vec<u8> {
        let mut init = regs(0b11, &[0x1234, 0xBEEF]); // ax, bx
        init.extend(chunk(b"RAM ", &counted(1, &[0x10, 0, 0, 0, 0xAA])));
        init.extend(chunk(b"QUEU", &counted(2, &[0x90, 0x90])));
        init.extend(chunk(b"ZZZZ", &[1, 2, 3])); // unknown: skipped
        let mut fina = regs(1 << 12, &[0x0102]); // ip
        fina.extend(chunk(b"RAM ", &counted(0, &[])));
        let mut cyc = vec![0u8; 15];
        cyc[0] = 1;
        cyc[1..5].copy_from_slice(&0x000F_FFF0u32.to_le_bytes());
        cyc[9..11].copy_from_slice(&0xABCDu16.to_le_bytes());
        cyc[14] = 0x90;

        let mut p = index.to_le_bytes().to_vec();
        p.extend(chunk(b"NAME", &counted(3, b"nop")));
        p.extend(chunk(b"BYTS", &counted(1, &[0x90])));
        p.extend(chunk(b"INIT", &init));
        p.extend(chunk(b"FINA", &fina));
        p.extend(chunk(b"CYCL", &counted(1, &cyc)));
        p.extend(chunk(b"GMET", &[0; 10]));
        p.extend(chunk(b"HASH", &[7; 20]));
        p.extend(chunk(b"EXCP", &[0, 0x72, 0x82, 0x01, 0x00]));
        chunk(b"TEST", &p)
    }

    fn sample_file() -> Vec<u8> {
        let mut f = header(2, b"8086");
        f.extend(sample_test(0));
        f.extend(chunk(b"META", b"{}")); // unknown top-level chunk
        f.extend(sample_test(1));
        f
    }

    #[test]
    fn parses_hand_built_file() {
        let f = parse_moo(&sample_file(), "t").expect("parses");
        assert_eq!(f.header.version, 1);
        assert_eq!(f.header.test_count, 2);
        assert_eq!(f.header.cpu_name, "8086");
        assert_eq!(f.tests.len(), 2);
        let t = &f.tests[1];
        assert_eq!(t.index, 1);
        assert_eq!(t.name, "nop");
        assert_eq!(t.bytes, vec![0x90]);
        assert_eq!(t.init.regs.get(MooReg::AX), Some(0x1234));
        assert_eq!(t.init.regs.get(MooReg::BX), Some(0xBEEF));
        assert_eq!(t.init.regs.get(MooReg::CX), None);
        assert_eq!(t.init.ram, vec![(0x10, 0xAA)]);
        assert_eq!(t.init.queue, vec![0x90, 0x90]);
        assert_eq!(t.fina.regs.get(MooReg::IP), Some(0x0102));
        assert!(t.fina.ram.is_empty());
        assert_eq!(t.cycles.len(), 1);
        let c = t.cycles[0];
        assert_eq!(c.pins, 1);
        assert_eq!(c.address, 0xFFFF0);
        assert_eq!(c.data, 0xABCD);
        assert_eq!(c.queue_byte, 0x90);
        assert_eq!(t.hash, Some([7; 20]));
        assert_eq!(
            t.exception,
            Some(MooException {
                number: 0,
                flags_address: 0x18272
            })
        );
    }

    #[test]
    fn cpu_name_is_trimmed() {
        let mut f = header(0, b"286 ");
        f.extend(chunk(b"META", &[]));
        assert_eq!(parse_moo(&f, "t").unwrap().header.cpu_name, "286");
    }

    #[test]
    fn every_truncation_is_an_error_not_a_panic() {
        let full = sample_file();
        for n in 0..full.len() {
            let r = parse_moo(&full[..n], "cut.moo");
            let e = r.expect_err(&format!("prefix of {n} bytes must fail"));
            assert_eq!(e.file, "cut.moo");
            assert!(!e.message.is_empty());
        }
    }

    #[test]
    fn corrupt_bytes_never_panic() {
        let full = sample_file();
        // Flip every byte in turn to a few values: any result is fine but a
        // panic is not.
        for i in 0..full.len() {
            for v in [0x00, 0xFF, 0x7F, 0x80] {
                let mut d = full.clone();
                d[i] = v;
                let _ = parse_moo(&d, "x");
            }
        }
    }

    #[test]
    fn count_mismatch_is_an_error() {
        let mut f = header(3, b"8086");
        f.extend(sample_test(0));
        let e = parse_moo(&f, "short.moo").unwrap_err();
        assert!(e.message.contains("3 tests"), "{e}");
        assert!(e.to_string().starts_with("short.moo: "));
    }

    #[test]
    fn oversized_chunk_length_is_an_error() {
        let mut f = header(1, b"8086");
        f.extend_from_slice(b"TEST");
        f.extend_from_slice(&u32::MAX.to_le_bytes());
        f.extend_from_slice(&[0; 8]);
        let e = parse_moo(&f, "big").unwrap_err();
        assert!(e.message.contains("claims"), "{e}");
        assert_eq!(e.offset, Some(20));
    }

    #[test]
    fn huge_counts_are_errors() {
        let mut f = header(1, b"8086");
        let mut p = 0u32.to_le_bytes().to_vec();
        p.extend(chunk(b"CYCL", &counted(u32::MAX, &[0; 15])));
        f.extend(chunk(b"TEST", &p));
        assert!(parse_moo(&f, "x").is_err());
    }

    #[test]
    fn missing_parts_are_errors() {
        let mut f = header(1, b"8086");
        let mut p = 5u32.to_le_bytes().to_vec();
        p.extend(chunk(b"BYTS", &counted(1, &[0x90])));
        f.extend(chunk(b"TEST", &p));
        let e = parse_moo(&f, "x").unwrap_err();
        assert!(e.message.contains("test 5 has no INIT, FINA"), "{e}");
    }

    #[test]
    fn bad_regs_mask_is_an_error() {
        let mut f = header(1, b"8086");
        let mut p = 0u32.to_le_bytes().to_vec();
        p.extend(chunk(b"INIT", &regs(0x8000, &[0])));
        f.extend(chunk(b"TEST", &p));
        assert!(parse_moo(&f, "x").unwrap_err().message.contains("mask"));
    }

    #[test]
    fn not_a_moo_file() {
        let e = parse_moo(b"hello world", "junk.bin").unwrap_err();
        assert!(e.message.contains("not a MOO file"));
        assert!(parse_moo(b"", "empty").is_err());
    }

    #[test]
    fn gzip_round_trip_and_bad_gzip() {
        use std::io::Write;
        let raw = sample_file();
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&raw).unwrap();
        let gz = enc.finish().unwrap();
        let d = decompress(&gz, "t.gz").unwrap();
        assert_eq!(&d[..], &raw[..]);
        assert_eq!(&decompress(&raw, "t").unwrap()[..], &raw[..]);
        // A truncated gzip stream is an error.
        let e = decompress(&gz[..gz.len() / 2], "cut.gz").unwrap_err();
        assert!(e.message.contains("gzip"), "{e}");
        // Junk after the gzip magic is an error too.
        assert!(decompress(&[0x1F, 0x8B, 1, 2, 3, 4], "junk.gz").is_err());
    }
}
