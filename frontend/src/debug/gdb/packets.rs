//! The connection to gdb, with every packet checked before the gdbstub
//! crate sees it. gdbstub ends the session on a packet it cannot parse;
//! the GDB remote protocol (GDB manual, "Overview" and "Packets") wants a
//! NAK (`-`) for a packet whose checksum is wrong, so gdb sends it again,
//! and an error reply (`E NN`) for a request that cannot be carried out.
//! So: a bad checksum is NAKed here; a request with bad hex, an address
//! past 32 bits or a short `G` is answered `E16` (EINVAL) here; a memory
//! read longer than [`MAX_READ`] is shortened to it (a stub may return
//! fewer bytes than asked, and gdb asks again for the rest). Everything
//! else reaches gdbstub unchanged.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::TcpStream;

use gdbstub::conn::{Connection, ConnectionExt};

use super::arch::NUM_GREGS;

/// The most bytes one `m` reply carries.
pub const MAX_READ: u32 = 0x800;
/// The longest packet body passed on (gdbstub's packet buffer is 4 KiB).
pub const MAX_BODY: usize = 4000;
/// Bytes of an unfinished packet kept before it is dropped as garbage.
const MAX_PENDING: usize = 64 * 1024;
/// The error reply: EINVAL.
const EINVAL: &str = "E16";

/// What to do with a packet's body.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Pass it on as it is.
    Pass,
    /// Pass this body instead.
    Rewrite(String),
    /// Answer with an error reply (the reason is for the log).
    Refuse(PacketError),
}

/// Why a packet is refused before gdbstub sees it.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PacketError {
    /// A packet longer than [`MAX_BODY`].
    #[error("a packet of {0} bytes")]
    TooLong(usize),
    /// A number that is not hexadecimal or wider than 32 bits.
    #[error("'{0}' is not a 32-bit hexadecimal number")]
    NotHex32(String),
    /// Data that is not whole bytes of hexadecimal.
    #[error("data is not whole bytes of hex")]
    NotBytes,
    /// A packet of the wrong shape.
    #[error("expected {0}")]
    Form(&'static str),
    /// A range past the 32-bit address space.
    #[error("the range runs past 4 GiB")]
    PastEnd,
    /// Data whose length is not the packet's LENGTH.
    #[error("the data's length is not LENGTH")]
    DataLength,
    /// A G packet without every general register.
    #[error("a G packet shorter than the general registers")]
    ShortRegisters,
    /// A breakpoint type gdb does not define.
    #[error("breakpoint type '{0}'")]
    BreakpointType(String),
}

/// A hexadecimal number of at most 32 bits.
fn hex32(s: &str) -> Result<u32, PacketError> {
    let t = s.trim_start_matches('0');
    if s.is_empty() || t.len() > 8 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(PacketError::NotHex32(s.into()));
    }
    u32::from_str_radix(if t.is_empty() { "0" } else { t }, 16)
        .map_err(|_| PacketError::NotHex32(s.into()))
}

/// Whether `s` is whole bytes of hex.
fn hex_bytes(s: &str) -> Result<usize, PacketError> {
    if !s.len().is_multiple_of(2) || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(PacketError::NotBytes);
    }
    Ok(s.len() / 2)
}

/// `ADDR,LEN` with both 32-bit, and ADDR+LEN within 4 GiB.
fn addr_len(s: &str) -> Result<(u32, u32), PacketError> {
    let (a, l) = s.split_once(',').ok_or(PacketError::Form("ADDR,LENGTH"))?;
    let (a, l) = (hex32(a)?, hex32(l)?);
    if a as u64 + l as u64 > 1 << 32 {
        return Err(PacketError::PastEnd);
    }
    Ok((a, l))
}

/// Checks a packet body (the text between `$` and `#`).
pub fn check(body: &str) -> Verdict {
    let r = (|| -> Result<Option<String>, PacketError> {
        if body.len() > MAX_BODY {
            return Err(PacketError::TooLong(body.len()));
        }
        let Some(cmd) = body.chars().next() else {
            return Ok(None);
        };
        // The command may be any character (a byte that is not UTF-8
        // arrives as U+FFFD, three bytes long).
        let rest = &body[cmd.len_utf8()..];
        match cmd {
            'm' => {
                let (a, l) = addr_len(rest)?;
                if l > MAX_READ {
                    return Ok(Some(format!("m{a:x},{MAX_READ:x}")));
                }
            }
            'M' => {
                let (range, data) = rest
                    .split_once(':')
                    .ok_or(PacketError::Form("ADDR,LENGTH:DATA"))?;
                let (_, l) = addr_len(range)?;
                if hex_bytes(data)? != l as usize {
                    return Err(PacketError::DataLength);
                }
            }
            'X' => {
                let (range, _) = rest
                    .split_once(':')
                    .ok_or(PacketError::Form("ADDR,LENGTH:DATA"))?;
                addr_len(range)?;
            }
            'G' if hex_bytes(rest)? < NUM_GREGS * 4 => {
                return Err(PacketError::ShortRegisters);
            }
            'p' => {
                hex32(rest)?;
            }
            'P' => {
                let (n, v) = rest.split_once('=').ok_or(PacketError::Form("N=VALUE"))?;
                hex32(n)?;
                hex_bytes(v)?;
            }
            'Z' | 'z' => {
                let mut f = rest.split(';').next().unwrap_or("").split(',');
                let kind = f.next().unwrap_or("");
                if !matches!(kind, "0" | "1" | "2" | "3" | "4") {
                    return Err(PacketError::BreakpointType(kind.into()));
                }
                hex32(f.next().unwrap_or(""))?;
                hex32(f.next().unwrap_or(""))?;
            }
            'c' | 's' if !rest.is_empty() => {
                hex32(rest)?;
            }
            _ => {}
        }
        Ok(None)
    })();
    match r {
        Ok(None) => Verdict::Pass,
        Ok(Some(b)) => Verdict::Rewrite(b),
        Err(e) => Verdict::Refuse(e),
    }
}

/// Checks a packet body as it arrives: bytes, which are text except for
/// an `X` packet's binary data.
pub fn check_packet(body: &[u8]) -> Verdict {
    if body.starts_with(b"X") {
        // Binary data: only the address and length are text.
        let head = body.iter().position(|&b| b == b':').unwrap_or(body.len());
        check(&format!("{}:", String::from_utf8_lossy(&body[..head])))
    } else {
        check(&String::from_utf8_lossy(body))
    }
}

/// `$BODY#CS`.
fn frame(body: &str) -> Vec<u8> {
    let sum = body.bytes().fold(0u8, |s, b| s.wrapping_add(b));
    format!("${body}#{sum:02x}").into_bytes()
}

/// What carries the bytes to and from gdb: a TCP connection, or (for the
/// fuzz tests) bytes in memory.
pub trait Wire: Read + Write {
    /// Makes reads wait for bytes (`block`) or fail with `WouldBlock`
    /// when none are there.
    fn set_blocking(&mut self, block: bool) -> std::io::Result<()>;
    /// Sends small writes at once (TCP's no-delay).
    fn set_nodelay(&mut self) -> std::io::Result<()>;
}

impl Wire for TcpStream {
    fn set_blocking(&mut self, block: bool) -> std::io::Result<()> {
        self.set_nonblocking(!block)
    }

    fn set_nodelay(&mut self) -> std::io::Result<()> {
        TcpStream::set_nodelay(self, true)
    }
}

/// A connection to gdb that checks packets on the way in.
pub struct Checked<W: Wire = TcpStream> {
    conn: W,
    /// Bytes read and not yet sorted into packets.
    raw: Vec<u8>,
    /// Bytes for gdbstub.
    ready: VecDeque<u8>,
    /// gdb asked for no-ack mode (no `+` after each packet).
    no_ack: bool,
    /// A gdbstub session begun after a failed packet in no-ack mode: it
    /// does not know the mode, so its acks are dropped here.
    drop_acks: bool,
}

impl<W: Wire> Checked<W> {
    /// Wraps a connection.
    pub fn new(conn: W) -> Self {
        Checked {
            conn,
            raw: Vec::new(),
            ready: VecDeque::new(),
            no_ack: false,
            drop_acks: false,
        }
    }

    /// Sorts `bytes` as if the connection had sent them; returns what
    /// gdbstub would read (the fuzz tests' entry point to the framing).
    #[cfg(test)]
    pub fn feed(&mut self, bytes: &[u8]) -> std::io::Result<Vec<u8>> {
        self.raw.extend_from_slice(bytes);
        self.sort()?;
        Ok(self.ready.drain(..).collect())
    }

    /// Reads what the connection has (waiting for it when `block`) and
    /// sorts it.
    fn fill(&mut self, block: bool) -> std::io::Result<()> {
        let mut buf = [0u8; 4096];
        self.conn.set_blocking(block)?;
        let r = Read::read(&mut self.conn, &mut buf);
        self.conn.set_blocking(true)?;
        match r {
            Ok(0) => Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                self.raw.extend_from_slice(&buf[..n]);
                self.sort()
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock && !block => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Moves whole packets (checked) and lone bytes (acks, Ctrl-C) from
    /// `raw` to `ready`.
    fn sort(&mut self) -> std::io::Result<()> {
        loop {
            let Some(&first) = self.raw.first() else {
                return Ok(());
            };
            if first != b'$' {
                // Outside a packet only acks, NAKs and Ctrl-C mean
                // anything (GDB manual, "Packet Acknowledgment",
                // "Interrupts"); other bytes are line noise.
                if matches!(first, b'+' | b'-' | 0x03) {
                    self.ready.push_back(first);
                }
                self.raw.remove(0);
                continue;
            }
            let Some(hash) = self.raw.iter().position(|&b| b == b'#') else {
                if self.raw.len() > MAX_PENDING {
                    log::warn!("gdb: a packet without end dropped");
                    self.raw.clear();
                    Write::write_all(&mut self.conn, b"-")?;
                }
                return Ok(());
            };
            if self.raw.len() < hash + 3 {
                return Ok(());
            }
            let packet: Vec<u8> = self.raw.drain(..hash + 3).collect();
            let body = &packet[1..hash];
            let sum = body.iter().fold(0u8, |s, b| s.wrapping_add(*b));
            let given = std::str::from_utf8(&packet[hash + 1..])
                .ok()
                .and_then(|t| u8::from_str_radix(t, 16).ok());
            if given != Some(sum) {
                log::warn!("gdb: a packet with a bad checksum: NAK");
                Write::write_all(&mut self.conn, b"-")?;
                continue;
            }
            let text = String::from_utf8_lossy(body);
            let verdict = check_packet(body);
            match verdict {
                Verdict::Pass => self.ready.extend(packet.iter()),
                Verdict::Rewrite(b) => self.ready.extend(frame(&b)),
                Verdict::Refuse(why) => {
                    log::warn!(
                        "gdb: refused '{}': {why}",
                        text.chars().take(40).collect::<String>()
                    );
                    if !self.no_ack {
                        Write::write_all(&mut self.conn, b"+")?;
                    }
                    Write::write_all(&mut self.conn, &frame(EINVAL))?;
                    continue;
                }
            }
            if body == b"QStartNoAckMode" {
                self.no_ack = true;
            }
        }
    }
}

impl<W: Wire> Checked<W> {
    /// The connection (the fuzz tests read what was answered).
    pub fn wire(&mut self) -> &mut W {
        &mut self.conn
    }

    /// Answers the packet gdbstub failed on with an error reply (its ack
    /// already went out, unless in no-ack mode, where none is due).
    pub fn refuse_last(&mut self) -> std::io::Result<()> {
        // The next gdbstub session starts acking again; gdb, in no-ack
        // mode, wants none.
        self.drop_acks = self.no_ack;
        Write::write_all(&mut self.conn, &frame(EINVAL))
    }
}

/// The checked connection lent to one gdbstub session: a session that
/// ends on a packet it cannot handle leaves the connection (its buffered
/// bytes, its no-ack mode) to the next.
pub struct Link<'a, W: Wire = TcpStream>(pub &'a mut Checked<W>);

impl<W: Wire> Connection for Link<'_, W> {
    type Error = std::io::Error;

    fn write(&mut self, byte: u8) -> Result<(), Self::Error> {
        self.0.write(byte)
    }

    fn write_all(&mut self, buf: &[u8]) -> Result<(), Self::Error> {
        Connection::write_all(self.0, buf)
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        Connection::flush(self.0)
    }

    fn on_session_start(&mut self) -> Result<(), Self::Error> {
        self.0.on_session_start()
    }
}

impl<W: Wire> ConnectionExt for Link<'_, W> {
    fn read(&mut self) -> Result<u8, Self::Error> {
        ConnectionExt::read(self.0)
    }

    fn peek(&mut self) -> Result<Option<u8>, Self::Error> {
        self.0.peek()
    }
}

impl<W: Wire> Connection for Checked<W> {
    type Error = std::io::Error;

    fn write(&mut self, byte: u8) -> Result<(), Self::Error> {
        if self.drop_acks && byte == b'+' {
            return Ok(());
        }
        Write::write_all(&mut self.conn, &[byte])
    }

    fn write_all(&mut self, buf: &[u8]) -> Result<(), Self::Error> {
        Write::write_all(&mut self.conn, buf)
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        Write::flush(&mut self.conn)
    }

    fn on_session_start(&mut self) -> Result<(), Self::Error> {
        self.conn.set_nodelay()
    }
}

impl<W: Wire> ConnectionExt for Checked<W> {
    fn read(&mut self) -> Result<u8, Self::Error> {
        loop {
            if let Some(b) = self.ready.pop_front() {
                return Ok(b);
            }
            self.fill(true)?;
        }
    }

    fn peek(&mut self) -> Result<Option<u8>, Self::Error> {
        if self.ready.is_empty() {
            self.fill(false)?;
        }
        Ok(self.ready.front().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_checked() {
        assert_eq!(check("m0,10"), Verdict::Pass);
        assert_eq!(
            check("m0,ffffffff"),
            Verdict::Rewrite(format!("m0,{MAX_READ:x}"))
        );
        assert!(matches!(check("m100000000,4"), Verdict::Refuse(_)));
        assert!(matches!(check("mzz,4"), Verdict::Refuse(_)));
        assert!(matches!(check("mffffffff,4"), Verdict::Refuse(_)));
        assert!(matches!(check("M0,2:abc"), Verdict::Refuse(_)));
        assert_eq!(check("M0,2:abcd"), Verdict::Pass);
        assert!(matches!(check("G0011"), Verdict::Refuse(_)));
        assert_eq!(check(&format!("G{}", "00".repeat(178))), Verdict::Pass);
        assert!(matches!(check("Z0,1234567890,1"), Verdict::Refuse(_)));
        assert_eq!(check("Z0,7c00,1"), Verdict::Pass);
        assert!(matches!(check("Pzz=00"), Verdict::Refuse(_)));
        assert_eq!(check("qSupported:xmlRegisters=i386"), Verdict::Pass);
        // Found by the fuzzer: a command byte that is not ASCII.
        assert!(matches!(check_packet(b"\xf4\xed\xb8"), Verdict::Pass));
        assert!(matches!(check_packet("é".as_bytes()), Verdict::Pass));
    }

    #[test]
    fn random_bodies_never_panic() {
        // A fixed-seed generator: the same 50,000 bodies every run.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let alphabet = b"mMXGpPZzcsq0123456789abcdefABCDEFxyz,:;=#$*}-";
        let mut seen = [0u32; 3];
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 40) as usize;
            let body: String = (0..len)
                .map(|i| alphabet[((x >> (i % 8 * 8)) as usize + i) % alphabet.len()] as char)
                .collect();
            // A rewritten request is one that passes.
            match check(&body) {
                Verdict::Pass => seen[0] += 1,
                Verdict::Rewrite(b) => {
                    assert_eq!(check(&b), Verdict::Pass, "{body} -> {b}");
                    seen[1] += 1;
                }
                Verdict::Refuse(_) => seen[2] += 1,
            }
        }
        assert!(seen[0] > 0 && seen[2] > 0, "{seen:?}");
    }
}
