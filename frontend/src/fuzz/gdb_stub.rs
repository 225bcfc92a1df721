//! Fuzz target for the GDB stub as gdb speaks to it: mutated packets,
//! framed (`$BODY#CS`, acks, Ctrl-C), through the packet checks and the
//! gdbstub crate into the real target over a real machine
//! (roms/dos/spin.com, with a history so reverse execution runs), on a
//! connection held in memory. Each input is a session: its packets, then
//! a Ctrl-C (ending any continue) and `?`, which must still be answered
//! unless the session ended as gdb may end it (detach, kill, the program
//! exiting).

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::path::Path;

use gdbstub::stub::DisconnectReason;

use super::{engine, temp_dir};
use crate::debug::engine::Debugger;
use crate::debug::gdb::packets::{Checked, Wire};
use crate::debug::gdb::{session, GdbTarget};

/// A connection in memory: gdb's bytes in, the stub's out. Reading past
/// the end is the end of the connection; looking for bytes while the
/// machine runs, past the end, finds Ctrl-C, as gdb's user would press it
/// (so a continue whose own Ctrl-C went into a packet left open ends).
struct Memory {
    input: VecDeque<u8>,
    out: Vec<u8>,
    blocking: bool,
}

impl Read for Memory {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.input.is_empty() {
            if self.blocking || buf.is_empty() {
                return Ok(0);
            }
            buf[0] = 0x03;
            return Ok(1);
        }
        let n = buf.len().min(self.input.len());
        for (b, x) in buf.iter_mut().zip(self.input.drain(..n)) {
            *b = x;
        }
        Ok(n)
    }
}

impl Write for Memory {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Wire for Memory {
    fn set_blocking(&mut self, block: bool) -> std::io::Result<()> {
        self.blocking = block;
        Ok(())
    }

    fn set_nodelay(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `$BODY#CS`.
fn frame(body: &[u8]) -> Vec<u8> {
    let sum = body.iter().fold(0u8, |s, b| s.wrapping_add(*b));
    let mut v = vec![b'$'];
    v.extend_from_slice(body);
    v.extend_from_slice(format!("#{sum:02x}").as_bytes());
    v
}

/// The bytes gdb would send for `input`: each line a packet, acked
/// (`+`); a line starting with `!` goes as it is (framing errors, stray
/// bytes); then Ctrl-C and `?` (three times).
fn wire_bytes(input: &[u8]) -> Vec<u8> {
    let mut v = Vec::new();
    for line in input.split(|&b| b == b'\n') {
        match line.strip_prefix(b"!") {
            Some(raw) => v.extend_from_slice(raw),
            None => {
                v.extend(frame(line));
                v.push(b'+');
            }
        }
    }
    // A raw piece may leave a packet open (it then takes bytes up to a
    // `#` and two more as its checksum, and is NAKed): of three `?` the
    // last is whole whatever came before.
    v.push(0x03);
    for _ in 0..3 {
        v.extend(frame(b"?"));
    }
    v
}

/// A debugger at spin.com's entry with a small history.
fn spin(mount: &Path) -> Debugger {
    let mut s = super::debugger(mount, "dos/spin.com");
    s.keep_history(8).expect("a history");
    s
}

/// The last packet body in `out`.
fn last_packet(out: &[u8]) -> Option<&[u8]> {
    let start = out.iter().rposition(|&b| b == b'$')?;
    let end = start + out[start..].iter().position(|&b| b == b'#')?;
    Some(&out[start + 1..end])
}

#[test]
fn fuzz_gdb_stub() {
    let mount = temp_dir("gdb-stub");
    let seeds = engine::text_seeds(&[
        "qSupported:multiprocess+;swbreak+;hwbreak+;xmlRegisters=i386\nQStartNoAckMode\n?\ng",
        "qXfer:features:read:target.xml:0,ffb\nqAttached\nqC\nqfThreadInfo\nqsThreadInfo",
        "m100,20\nM100,2:9090\nX200,2:\u{1}\u{2}\nm0,ffffffff\nm7c00,10",
        &format!(
            "g\nG{}\np8\nP8=00010000\np29\nP0=12345678",
            "00".repeat(178)
        ),
        "Z0,1000,1\nc\nz0,1000,1\nZ1,1000,1\ns\nvCont;s\nz1,1000,1",
        "Z2,400,2\nZ3,400,4\nZ4,400,1\nc\nz2,400,2\nz3,400,4\nz4,400,1",
        "s\ns\ns\nbs\nbs\nbc\nvCont;c",
        "qRcmd,7265677320\nqRcmd,7365677320\nqRcmd,6c696e6561722064733a7369\nqRcmd,6320",
        "vCont?\nvCont;c:1\nHg0\nHc-1\nT1\nqSymbol::\nvMustReplyEmpty",
        "!$m0,10#00\n!\u{3}+-+\n!$g#67-\nD",
        "k",
    ]);
    static DICT: &[&[u8]] = &[
        b"\n",
        b"\n!",
        b",",
        b":",
        b";",
        b"=",
        b"ffffffff",
        b"100000000",
        b"vCont;",
        b"Z0,",
        b"bc",
        b"bs",
        b"c",
        b"s",
        b"#",
        b"$",
        b"}",
        b"*",
    ];
    let m = mount.clone();
    // The target lives on the fuzzer's thread (a debugger is not Send).
    thread_local! {
        static STATE: std::cell::RefCell<Option<(GdbTarget, u32)>> =
            const { std::cell::RefCell::new(None) };
    }
    let n = engine::run("gdb_stub", 0x9db5, seeds, DICT, move |input| {
        STATE.with_borrow_mut(|state| one_session(state, &m, input));
    });
    let _ = std::fs::remove_dir_all(&mount);
    assert!(n > 10);
}

/// One input's session on the kept target (a fresh one at first, every
/// 64 sessions, and after the program ended, so that inputs see a
/// running program).
fn one_session(state: &mut Option<(GdbTarget, u32)>, m: &Path, input: &[u8]) {
    let (target, sessions) = state.get_or_insert_with(|| (GdbTarget::new(spin(m)), 0));
    *sessions += 1;
    if *sessions % 64 == 0 {
        *target = GdbTarget::new(spin(m));
    }
    {
        let mut conn = Checked::new(Memory {
            input: wire_bytes(input).into(),
            out: Vec::new(),
            blocking: true,
        });
        let end = session(target, &mut conn);
        let out = &conn.wire().out;
        match end {
            Ok(DisconnectReason::TargetExited(_) | DisconnectReason::TargetTerminated(_)) => {
                *target = GdbTarget::new(spin(m));
            }
            Ok(DisconnectReason::Disconnect | DisconnectReason::Kill) => {}
            // The connection's end: every packet was taken, and the last,
            // `?`, answered with a stop reply.
            Err(e) => {
                assert!(
                    e.to_string().contains("end of file"),
                    "the session ended on {e}, not at the connection's end"
                );
                let last = last_packet(out).unwrap_or_default();
                assert!(
                    matches!(last.first(), Some(b'S' | b'T' | b'W' | b'X')),
                    "the final ? was answered {:?}",
                    String::from_utf8_lossy(last)
                );
            }
        }
    }
}

#[test]
fn a_continue_whose_ctrl_c_went_into_an_open_packet_ends() {
    // Found by the fuzzer: `vCont;c:1`, then a raw piece opening a packet
    // that swallows the Ctrl-C after it.
    let mount = temp_dir("gdb-open-packet");
    let input = b"vCont>\nvCont;c:1\nHg0\nHc-1\nT1\nqSymbol::\nvMustR\n!eplyEmp$ty";
    let mut state = None;
    one_session(&mut state, &mount, input);
    let _ = std::fs::remove_dir_all(&mount);
}
