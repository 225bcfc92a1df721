//! The BIOS as a program sees it: keys typed through the 8042 (scan code
//! set 1) and the shift flags and words the INT 09h handler leaves in the
//! BIOS data area, INT 16h's standard and extended functions, Ctrl-Break,
//! Pause, SysRq, Print Screen, Ctrl-Alt-Del, a program's own INT 09h
//! handler, INT 15h waits in emulated time, the block move and the
//! configuration table, INT 1Ah on the real-time clock with its alarm, INT
//! 11h/12h and the BIOS data area.
//!
//! The guest runs small code stubs at 9000:0000: `int n; cli; hlt` for a
//! service call (the run stops at the halt with the results in the
//! registers), `sti; jmp $` to let time and interrupts pass.

mod common;

use dos::mem::{rd16, rd32, rd8, wr16, wr8};
use dos::{Dos, DosConfig, Exit, Session};
use emu::{CpuModel, Reg16, SegReg};
use hw::kbc::Key;
use hw::{Machine, MachineConfig};

const HZ: u64 = 10_000_000;
const SEG: u16 = 0x9000;
/// Where the stubs' counters and captured values live (9000:0100+).
const DATA: u32 = 0x90100;

struct Rig {
    s: Session,
    mount: std::path::PathBuf,
}

/// Registers and flags after a service call.
#[derive(Debug)]
struct Out {
    ax: u16,
    bx: u16,
    cx: u16,
    dx: u16,
    es: u16,
    cf: bool,
    zf: bool,
}

impl Rig {
    fn new(model: CpuModel, name: &str) -> Rig {
        let mount = common::temp_dir(name);
        let mut m = Machine::new(MachineConfig::with_cpu(model, HZ));
        let mut dos = Dos::new(DosConfig::new(mount.clone())).expect("mount");
        dos.install(&mut m);
        let r = &mut m.cpu.regs;
        r.set_sreg(SegReg::SS, SEG);
        r.set_reg16(Reg16::SP, 0xFFF0);
        Rig {
            s: Session::new(m, dos),
            mount,
        }
    }

    fn at(&mut self, ip: u16, code: &[u8]) {
        for (i, &b) in code.iter().enumerate() {
            wr8(&mut self.s.m, ((SEG as u32) << 4) + ip as u32 + i as u32, b);
        }
        let r = &mut self.s.m.cpu.regs;
        r.set_sreg(SegReg::CS, SEG);
        r.ip = ip as u32;
        r.set_reg16(Reg16::SP, 0xFFF0);
        r.flags |= emu::flags::IF;
        self.s.m.cpu.halted = false;
    }

    /// Calls INT `v` with AX, BX, CX, DX (ES = DS = 9000h).
    fn int(&mut self, v: u8, ax: u16, bx: u16, cx: u16, dx: u16) -> Out {
        self.at(0, &[0xCD, v, 0xFA, 0xF4]);
        let r = &mut self.s.m.cpu.regs;
        for (reg, val) in [
            (Reg16::AX, ax),
            (Reg16::BX, bx),
            (Reg16::CX, cx),
            (Reg16::DX, dx),
        ] {
            r.set_reg16(reg, val);
        }
        r.set_sreg(SegReg::ES, SEG);
        r.set_sreg(SegReg::DS, SEG);
        match self.s.run_for(5 * HZ) {
            Exit::Stopped(dos::Stop::Halted { .. }) => {}
            e => panic!("INT {v:02X}h AX={ax:04X} did not return: {e:?}"),
        }
        let r = &self.s.m.cpu.regs;
        Out {
            ax: r.reg16(Reg16::AX),
            bx: r.reg16(Reg16::BX),
            cx: r.reg16(Reg16::CX),
            dx: r.reg16(Reg16::DX),
            es: r.sreg(SegReg::ES),
            cf: r.flags & emu::flags::CF != 0,
            zf: r.flags & emu::flags::ZF != 0,
        }
    }

    /// Lets `us` microseconds of emulated time pass with interrupts on.
    fn idle(&mut self, us: u64) -> Exit {
        self.at(0x10, &[0xFB, 0xEB, 0xFE]);
        self.s.run_for(us * HZ / 1_000_000)
    }

    /// Runs on from where the CPU is for `us` microseconds.
    fn run_on(&mut self, us: u64) -> Exit {
        self.s.run_for(us * HZ / 1_000_000)
    }

    /// Presses or releases a key and lets the keyboard interrupt run.
    fn key(&mut self, k: Key, down: bool) {
        let now = self.s.m.cycles();
        self.s.m.key(now, k, down);
        assert_eq!(self.idle(10_000), Exit::Limit);
    }

    fn tap(&mut self, k: Key) {
        self.key(k, true);
        self.key(k, false);
    }

    fn byte(&mut self, a: u32) -> u8 {
        rd8(&mut self.s.m, a)
    }

    /// Points vector `v` at guest code placed at 9000:`ip`.
    fn hook(&mut self, v: u8, ip: u16, code: &[u8]) {
        for (i, &b) in code.iter().enumerate() {
            wr8(&mut self.s.m, ((SEG as u32) << 4) + ip as u32 + i as u32, b);
        }
        wr16(&mut self.s.m, v as u32 * 4, ip);
        wr16(&mut self.s.m, v as u32 * 4 + 2, SEG);
    }

    /// Hooks `v` with `inc byte [cs:off]; iret`.
    fn count(&mut self, v: u8, ip: u16, off: u16) {
        let [lo, hi] = off.to_le_bytes();
        self.hook(v, ip, &[0x2E, 0xFE, 0x06, lo, hi, 0xCF]);
    }

    /// Hooks INT 15h with a stub that stores AX at 9000:0120 and chains to
    /// the BIOS.
    fn spy15(&mut self) {
        let old_off = rd16(&mut self.s.m, 0x15 * 4);
        let old_seg = rd16(&mut self.s.m, 0x15 * 4 + 2);
        wr16(&mut self.s.m, DATA + 0x24, old_off);
        wr16(&mut self.s.m, DATA + 0x26, old_seg);
        // mov [cs:0120h],ax; jmp far [cs:0124h]
        self.hook(
            0x15,
            0x300,
            &[0x2E, 0xA3, 0x20, 0x01, 0x2E, 0xFF, 0x2E, 0x24, 0x01],
        );
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.mount);
    }
}

const LSHIFT: Key = Key::LSHIFT;
const RSHIFT: Key = Key::new(0x36);
const LCTRL: Key = Key::LCTRL;
const RCTRL: Key = Key::RCTRL;
const LALT: Key = Key::LALT;
const RALT: Key = Key::ext(0x38);
const CAPS: Key = Key::new(0x3A);
const NUM: Key = Key::new(0x45);
const SCROLL: Key = Key::new(0x46);
const A: Key = Key::new(0x1E);
const F1: Key = Key::new(0x3B);
const F11: Key = Key::new(0x57);
const KP8: Key = Key::new(0x48);
const KP6: Key = Key::new(0x4D);
const KP5: Key = Key::new(0x4C);
const INS: Key = Key::ext(0x52);
const DEL: Key = Key::new(0x53);
const SYSRQ: Key = Key::new(0x54);
const PRTSC: Key = Key::ext(0x37);

#[test]
fn shift_flags_follow_the_keys_bit_for_bit() {
    let mut r = Rig::new(CpuModel::I386, "bios-shift");
    let flags = |r: &mut Rig| (r.byte(0x417), r.byte(0x418), r.byte(0x496));
    assert_eq!(flags(&mut r), (0x00, 0x00, 0x10));
    r.key(LSHIFT, true);
    assert_eq!(flags(&mut r), (0x02, 0x00, 0x10));
    r.key(RSHIFT, true);
    assert_eq!(flags(&mut r), (0x03, 0x00, 0x10));
    r.key(LSHIFT, false);
    r.key(RSHIFT, false);
    r.key(RCTRL, true);
    assert_eq!(flags(&mut r), (0x04, 0x00, 0x14), "right Ctrl");
    r.key(LCTRL, true);
    assert_eq!(flags(&mut r), (0x04, 0x01, 0x14), "both Ctrl");
    r.key(RCTRL, false);
    assert_eq!(flags(&mut r), (0x04, 0x01, 0x10), "left Ctrl still down");
    r.key(LCTRL, false);
    r.key(RALT, true);
    assert_eq!(flags(&mut r), (0x08, 0x00, 0x18), "right Alt");
    r.key(LALT, true);
    assert_eq!(flags(&mut r), (0x08, 0x02, 0x18), "both Alt");
    // INT 16h 12h: left Ctrl/Alt, right Ctrl/Alt, held locks, SysRq.
    let o = r.int(0x16, 0x1200, 0, 0, 0);
    assert_eq!(o.ax, 0x0A08);
    r.key(LALT, false);
    r.key(RALT, false);
    assert_eq!(flags(&mut r), (0x00, 0x00, 0x10));
    // Caps Lock: held bit while down, the toggle once per press (a
    // typematic repeat of the make code does not toggle again), the LED.
    r.key(CAPS, true);
    assert_eq!(flags(&mut r), (0x40, 0x40, 0x10));
    r.key(CAPS, true);
    assert_eq!(flags(&mut r), (0x40, 0x40, 0x10), "repeat");
    r.key(CAPS, false);
    assert_eq!(flags(&mut r), (0x40, 0x00, 0x10));
    assert_eq!(r.s.m.bus.kbc.leds(), 0x04, "Caps Lock LED");
    assert_eq!(r.byte(0x497) & 0x17, 0x14, "LED bits and the ACK");
    r.key(NUM, true);
    let o = r.int(0x16, 0x1200, 0, 0, 0);
    assert_eq!(o.ax, 0x2060, "Num Lock held");
    r.key(NUM, false);
    r.tap(SCROLL);
    assert_eq!(flags(&mut r), (0x70, 0x00, 0x10));
    assert_eq!(r.s.m.bus.kbc.leds(), 0x07);
    r.tap(CAPS);
    r.tap(NUM);
    r.tap(SCROLL);
    assert_eq!(flags(&mut r), (0x00, 0x00, 0x10));
    assert_eq!(r.s.m.bus.kbc.leds(), 0x00);
    // A program that sets Num Lock in 40:17h sees the LED follow at its
    // next INT 16h call; INT 16h 02h returns 40:17h.
    wr8(&mut r.s.m, 0x417, 0x20);
    let o = r.int(0x16, 0x0200, 0, 0, 0);
    assert_eq!(o.ax & 0xFF, 0x20);
    assert_eq!(r.idle(10_000), Exit::Limit);
    assert_eq!(r.s.m.bus.kbc.leds(), 0x02);
    // Insert toggles 40:17h bit 7 once per press; bit 7 of 40:18h while
    // held; the key is stored.
    r.key(INS, true);
    assert_eq!((r.byte(0x417), r.byte(0x418)), (0xA0, 0x80));
    r.key(INS, false);
    assert_eq!((r.byte(0x417), r.byte(0x418)), (0xA0, 0x00));
    assert_eq!(r.int(0x16, 0x1000, 0, 0, 0).ax, 0x52E0);
}

/// Types `keys` (pressing the first ones, tapping the last) and reads the
/// word INT 16h function `f` returns.
fn word(r: &mut Rig, held: &[Key], k: Key, f: u8) -> u16 {
    for &h in held {
        r.key(h, true);
    }
    r.tap(k);
    for &h in held.iter().rev() {
        r.key(h, false);
    }
    let o = r.int(0x16, (f as u16) << 8, 0, 0, 0);
    o.ax
}

#[test]
fn keys_give_ibms_scan_and_ascii_words() {
    let mut r = Rig::new(CpuModel::I8086, "bios-words");
    assert_eq!(word(&mut r, &[], A, 0), 0x1E61);
    assert_eq!(word(&mut r, &[LSHIFT], A, 0), 0x1E41);
    assert_eq!(word(&mut r, &[LCTRL], A, 0), 0x1E01);
    assert_eq!(word(&mut r, &[LALT], A, 0), 0x1E00);
    assert_eq!(word(&mut r, &[RSHIFT], Key::new(0x03), 0), 0x0340, "@");
    assert_eq!(word(&mut r, &[LCTRL], Key::new(0x03), 0), 0x0300, "Ctrl-2");
    assert_eq!(word(&mut r, &[], F1, 0), 0x3B00);
    assert_eq!(word(&mut r, &[LSHIFT], F1, 0), 0x5400);
    assert_eq!(word(&mut r, &[LCTRL], F1, 0), 0x5E00);
    assert_eq!(word(&mut r, &[LALT], F1, 0), 0x6800);
    r.tap(CAPS);
    assert_eq!(word(&mut r, &[], A, 0), 0x1E41, "Caps Lock");
    assert_eq!(word(&mut r, &[LSHIFT], A, 0), 0x1E61, "Caps Lock + Shift");
    assert_eq!(
        word(&mut r, &[], Key::new(0x02), 0),
        0x0231,
        "digits ignore Caps"
    );
    r.tap(CAPS);
    // Grey keys: E0h in the ASCII byte for 10h, 00h for 00h.
    assert_eq!(word(&mut r, &[], Key::UP, 0x10), 0x48E0);
    assert_eq!(word(&mut r, &[], Key::UP, 0x00), 0x4800);
    assert_eq!(word(&mut r, &[LCTRL], Key::LEFT, 0x10), 0x73E0);
    assert_eq!(word(&mut r, &[LALT], Key::UP, 0x10), 0x9800);
    assert_eq!(word(&mut r, &[], Key::KP_ENTER, 0x10), 0xE00D);
    assert_eq!(word(&mut r, &[], Key::KP_ENTER, 0x00), 0x1C0D);
    assert_eq!(word(&mut r, &[], Key::ext(0x35), 0x00), 0x352F);
    // The keypad: cursor words, digits with Num Lock, Shift reverses.
    assert_eq!(word(&mut r, &[], KP8, 0), 0x4800);
    r.tap(NUM);
    assert_eq!(word(&mut r, &[], KP8, 0), 0x4838);
    assert_eq!(word(&mut r, &[LSHIFT], KP8, 0), 0x4800);
    r.tap(NUM);
    // F11 and Alt-Esc exist for 10h only: 00h skips them.
    assert_eq!(word(&mut r, &[], F11, 0x10), 0x8500);
    assert_eq!(word(&mut r, &[LALT], Key::ESC, 0x10), 0x0100);
    r.tap(F11);
    r.key(LALT, true);
    r.tap(Key::ESC);
    r.key(LALT, false);
    r.tap(A);
    let o = r.int(0x16, 0x0100, 0, 0, 0);
    assert_eq!((o.ax, o.zf), (0x1E61, false), "01h skips F11 and Alt-Esc");
    assert_eq!(r.int(0x16, 0x0000, 0, 0, 0).ax, 0x1E61);
    assert!(r.int(0x16, 0x1100, 0, 0, 0).zf, "buffer empty");
    // Alt + keypad 6 5 enters 'A' with scan code 0 when Alt is released.
    r.key(LALT, true);
    r.tap(KP6);
    r.tap(KP5);
    assert_eq!(r.byte(0x419), 65);
    assert!(r.int(0x16, 0x1100, 0, 0, 0).zf, "nothing before Alt is up");
    r.key(LALT, false);
    assert_eq!(r.int(0x16, 0x1000, 0, 0, 0).ax, 0x0041);
    assert_eq!(r.byte(0x419), 0);
}

#[test]
fn int16_store_capabilities_id_and_typematic() {
    let mut r = Rig::new(CpuModel::I286, "bios-int16");
    // 05h stores a word; 16 words fill the 15-key buffer: AL = 1.
    let o = r.int(0x16, 0x0500, 0, 0x3B00, 0);
    assert_eq!(o.ax & 0xFF, 0);
    assert_eq!(r.int(0x16, 0x1100, 0, 0, 0).ax, 0x3B00);
    for i in 0..14 {
        assert_eq!(r.int(0x16, 0x0500, 0, 0x1E61 + i, 0).ax & 0xFF, 0);
    }
    assert_eq!(r.int(0x16, 0x0500, 0, 0x1E00, 0).ax & 0xFF, 1, "full");
    // A key typed into the full buffer is dropped, and the speaker beeps
    // for 62.5 ms (PIT channel 2 gated through port 61h bits 0-1).
    let now = r.s.m.cycles();
    r.s.m.key(now, A, true);
    assert_eq!(r.idle(5_000), Exit::Limit);
    assert_eq!(r.s.m.in8(0x61) & 3, 3, "beeping");
    let mut ms = 0;
    while r.s.m.in8(0x61) & 3 != 0 && ms < 200 {
        assert_eq!(r.run_on(1_000), Exit::Limit);
        ms += 1;
    }
    assert!((54..62).contains(&ms), "the beep lasted 5 + {ms} ms");
    r.key(A, false);
    assert_eq!(r.int(0x16, 0x1000, 0, 0, 0).ax, 0x3B00);
    for i in 0..14 {
        assert_eq!(r.int(0x16, 0x1000, 0, 0, 0).ax, 0x1E61 + i);
    }
    assert!(r.int(0x16, 0x1100, 0, 0, 0).zf);
    assert_eq!(r.int(0x16, 0x0900, 0, 0, 0).ax & 0xFF, 0x3D);
    assert_eq!(r.int(0x16, 0x0A00, 0, 0, 0).bx, 0x41AB);
    let o = r.int(0x16, 0x0306, 0, 0, 0);
    assert_eq!(o.bx, 0x010B, "power-on typematic");
    r.int(0x16, 0x0305, 0x0314, 0, 0);
    assert_eq!(r.int(0x16, 0x0306, 0, 0, 0).bx, 0x0314);
    // 10h with nothing typed waits, after posting INT 15h 9002h once.
    r.spy15();
    r.at(0, &[0xCD, 0x16, 0xFA, 0xF4]);
    r.s.m.cpu.regs.set_reg16(Reg16::AX, 0x1000);
    assert_eq!(r.run_on(20_000), Exit::Limit);
    assert_eq!(rd16(&mut r.s.m, DATA + 0x20), 0x9002);
    wr16(&mut r.s.m, DATA + 0x20, 0);
    assert_eq!(r.run_on(100_000), Exit::Limit);
    assert_eq!(rd16(&mut r.s.m, DATA + 0x20), 0, "posted once");
    let now = r.s.m.cycles();
    r.s.m.key(now, A, true);
    assert!(matches!(r.run_on(20_000), Exit::Stopped(_)));
    assert_eq!(r.s.m.cpu.regs.reg16(Reg16::AX), 0x1E61);
    assert!(r.s.dos.warnings().is_empty(), "{:?}", r.s.dos.warnings());
}

#[test]
fn ctrl_break_pause_sysrq_and_print_screen() {
    let mut r = Rig::new(CpuModel::I8086, "bios-special");
    r.count(0x1B, 0x200, 0x110);
    r.count(0x05, 0x210, 0x111);
    r.spy15();
    // A key stored posts INT 15h 9102h (after the 4Fh intercept).
    r.key(A, true);
    assert_eq!(rd16(&mut r.s.m, DATA + 0x20), 0x9102);
    // Its release went through the 4Fh intercept only.
    r.key(A, false);
    assert_eq!(rd16(&mut r.s.m, DATA + 0x20), 0x4F9E);
    // Ctrl-Break: buffer flushed, 0000h stored, 40:71h bit 7, INT 1Bh.
    r.tap(A);
    r.key(LCTRL, true);
    r.tap(Key::ext(0x46));
    r.key(LCTRL, false);
    assert_eq!(r.byte(DATA + 0x10), 1, "INT 1Bh");
    assert_eq!(r.byte(0x471), 0x80);
    assert_eq!(r.int(0x16, 0x1000, 0, 0, 0).ax, 0x0000);
    assert!(r.int(0x16, 0x1100, 0, 0, 0).zf, "flushed");
    // Print Screen: INT 05h, nothing stored.
    r.tap(PRTSC);
    assert_eq!(r.byte(DATA + 0x11), 1, "INT 05h");
    assert!(r.int(0x16, 0x1100, 0, 0, 0).zf);
    // SysRq: INT 15h 8500h on press (40:18h bit 2), 8501h on release.
    r.key(SYSRQ, true);
    assert_eq!(rd16(&mut r.s.m, DATA + 0x20), 0x8500);
    assert_eq!(r.byte(0x418), 0x04);
    r.key(SYSRQ, false);
    assert_eq!(rd16(&mut r.s.m, DATA + 0x20), 0x8501);
    assert_eq!(r.byte(0x418), 0x00);
    // Pause: 40:18h bit 3, the CPU held in the keyboard interrupt until
    // the next key, which is not stored.
    r.key(Key::PAUSE, true);
    assert_eq!(r.byte(0x418), 0x08);
    assert_eq!(r.s.m.cpu.regs.sreg(SegReg::CS), 0xF000, "paused in INT 09h");
    r.key(A, true);
    assert_eq!(r.byte(0x418), 0x00);
    assert_eq!(r.s.m.cpu.regs.sreg(SegReg::CS), SEG, "running again");
    r.key(A, false);
    assert!(
        r.int(0x16, 0x1100, 0, 0, 0).zf,
        "the key that ended the pause"
    );
}

#[test]
fn ctrl_alt_del_sets_the_reset_flag_and_resets() {
    let mut r = Rig::new(CpuModel::I286, "bios-reset");
    r.key(LCTRL, true);
    r.key(LALT, true);
    let now = r.s.m.cycles();
    r.s.m.key(now, DEL, true);
    let e = r.idle(10_000);
    assert_eq!(e, Exit::Stopped(dos::Stop::Reset));
    assert_eq!(rd16(&mut r.s.m, 0x472), 0x1234);
}

#[test]
fn own_int9_handler_sees_port_60h_unchanged() {
    let mut r = Rig::new(CpuModel::I386, "bios-own9");
    // push ax; in al,60h; mov [cs:0130h],al; inc byte [cs:0131h];
    // mov al,20h; out 20h,al; pop ax; iret
    r.hook(
        0x09,
        0x400,
        &[
            0x50, 0xE4, 0x60, 0x2E, 0xA2, 0x30, 0x01, 0x2E, 0xFE, 0x06, 0x31, 0x01, 0xB0, 0x20,
            0xE6, 0x20, 0x58, 0xCF,
        ],
    );
    r.key(Key::UP, true);
    assert_eq!((r.byte(DATA + 0x30), r.byte(DATA + 0x31)), (0x48, 2));
    r.key(Key::UP, false);
    assert_eq!((r.byte(DATA + 0x30), r.byte(DATA + 0x31)), (0xC8, 4));
    r.key(LSHIFT, true);
    assert_eq!(r.byte(DATA + 0x30), 0x2A);
    assert_eq!(r.byte(0x417), 0, "the BIOS did not see it");
    assert!(r.int(0x16, 0x1100, 0, 0, 0).zf);
}

#[test]
fn int15_waits_in_emulated_time() {
    let mut r = Rig::new(CpuModel::I386, "bios-wait");
    // 86h: 5000 us.
    let t0 = r.s.m.cycles();
    let o = r.int(0x15, 0x8600, 0, 0, 5000);
    let us = (r.s.m.cycles() - t0) * 1_000_000 / HZ;
    assert!(!o.cf);
    assert!((5000..6500).contains(&us), "86h took {us} us");
    assert_eq!(r.byte(0x4A0), 0, "no wait active afterwards");
    // 83h: 20000 us, flag byte at 9000:0140h.
    let o = r.int(0x15, 0x8300, 0x0140, 0, 20000);
    assert!(!o.cf);
    assert_eq!(r.byte(0x4A0), 1);
    assert!(r.int(0x15, 0x8300, 0x0140, 0, 1000).cf, "busy");
    assert!(r.int(0x15, 0x8600, 0, 0, 1000).cf, "86h while 83h runs");
    assert_eq!(r.idle(15_000), Exit::Limit);
    assert_eq!(r.byte(DATA + 0x40), 0, "not yet");
    assert_eq!(r.idle(7_000), Exit::Limit);
    assert_eq!(r.byte(DATA + 0x40), 0x80, "posted");
    assert_eq!(r.byte(0x4A0), 0x80);
    // Cancel.
    wr8(&mut r.s.m, DATA + 0x40, 0);
    r.int(0x15, 0x8300, 0x0140, 0, 2000);
    r.int(0x15, 0x8301, 0, 0, 0);
    assert_eq!(r.idle(10_000), Exit::Limit);
    assert_eq!(r.byte(DATA + 0x40), 0, "cancelled");
}

#[test]
fn int15_block_move_config_and_memory() {
    let mut r = Rig::new(CpuModel::I386, "bios-int15");
    // 87h: 8 words from 9000:0200h to 110000h through a GDT at 9000:0300h.
    for i in 0..16 {
        wr8(&mut r.s.m, 0x90200 + i, 0xA0 + i as u8);
    }
    let gdt = 0x90300;
    for (d, base) in [(2u32, 0x090200u32), (3, 0x110000)] {
        wr16(&mut r.s.m, gdt + d * 8, 0xFFFF);
        wr16(&mut r.s.m, gdt + d * 8 + 2, base as u16);
        wr8(&mut r.s.m, gdt + d * 8 + 4, (base >> 16) as u8);
        wr8(&mut r.s.m, gdt + d * 8 + 5, 0x93);
    }
    r.s.m.cpu.regs.set_reg16(Reg16::SI, 0x0300);
    let o = r.int(0x15, 0x8700, 0, 8, 0);
    assert!(!o.cf && o.zf && o.ax >> 8 == 0);
    for i in 0..16 {
        assert_eq!(
            dos::xms::read_phys(&mut r.s.m, 0x110000 + i),
            0xA0 + i as u8
        );
    }
    assert_eq!(dos::xms::read_phys(&mut r.s.m, 0x110010), 0, "only 8 words");
    // C0h: the AT's table, the model byte at F000:FFFEh agrees.
    let o = r.int(0x15, 0xC000, 0, 0, 0);
    assert!(!o.cf);
    let t = ((o.es as u32) << 4) + o.bx as u32;
    assert_eq!((o.es, o.bx), (0xF000, 0xE6F5));
    let table: Vec<u8> = (0..10).map(|i| rd8(&mut r.s.m, t + i)).collect();
    assert_eq!(&table[..5], &[8, 0, 0xFC, 0x01, 0x00]);
    assert_eq!(
        table[5] & 0x74,
        0x70,
        "8259 x2, RTC, 4Fh intercept, no EBDA"
    );
    assert_eq!(rd8(&mut r.s.m, 0xFFFFE), 0xFC);
    // No EBDA, no PS/2 mouse: CF and AH = 86h.
    for ax in [0xC100, 0xC200] {
        let o = r.int(0x15, ax, 0, 0, 0);
        assert!(o.cf && o.ax >> 8 == 0x86, "AX={ax:04X}");
    }
    // 84h: the game port's buttons (none held), then the positions as the
    // AT BIOS's PIT count: centred, one end, the other.
    let o = r.int(0x15, 0x8400, 0, 0, 0);
    assert!(!o.cf && o.ax & 0xFF == 0xF0, "{o:?}");
    r.s.m.joystick_button(3, true);
    assert_eq!(r.int(0x15, 0x8400, 0, 0, 0).ax & 0xFF, 0x70);
    r.s.m.joystick_axis(1, i16::MIN);
    r.s.m.joystick_axis(2, i16::MAX);
    let o = r.int(0x15, 0x8400, 0, 0, 1);
    assert!(!o.cf);
    // 24.2 us + 0.011 us/Ohm, 2 counts per PIT clock, / 16.
    let count = |us: f64| (us * 1.193182 * 2.0 / 16.0) as i32;
    for (got, us) in [(o.ax, 574.2), (o.bx, 24.2), (o.cx, 1124.2), (o.dx, 574.2)] {
        assert!((got as i32 - count(us)).abs() <= 1, "{o:?}");
    }
    let o = r.int(0x15, 0x8400, 0, 0, 2);
    assert!(o.cf && o.ax >> 8 == 0x86, "DX=2: {o:?}");
    // E820h: conventional, ROM, extended memory.
    let mut ebx = 0u32;
    let mut map = Vec::new();
    loop {
        let regs = &mut r.s.m.cpu.regs;
        regs.gpr[2] = 0x534D_4150;
        regs.gpr[3] = ebx;
        regs.gpr[1] = 20;
        regs.set_reg16(Reg16::DI, 0x0500);
        r.at(0, &[0xCD, 0x15, 0xFA, 0xF4]);
        r.s.m.cpu.regs.gpr[0] = 0xE820;
        r.s.m.cpu.regs.set_sreg(SegReg::ES, SEG);
        assert!(matches!(r.s.run_for(HZ), Exit::Stopped(_)));
        assert_eq!(r.s.m.cpu.regs.gpr[0], 0x534D_4150);
        let e = 0x90500;
        map.push((
            rd32(&mut r.s.m, e),
            rd32(&mut r.s.m, e + 8),
            rd32(&mut r.s.m, e + 16),
        ));
        ebx = r.s.m.cpu.regs.gpr[3];
        if ebx == 0 || map.len() > 8 {
            break;
        }
    }
    let ext = r.s.m.config().extended_kib * 1024;
    assert_eq!(
        map,
        vec![(0, 0xA0000, 1), (0xF0000, 0x10000, 2), (0x100000, ext, 1)]
    );
    // The 8086 machine is an XT: model FBh, and no 286 functions.
    let mut x = Rig::new(CpuModel::I8086, "bios-int15-xt");
    let o = x.int(0x15, 0xC000, 0, 0, 0);
    let t = ((o.es as u32) << 4) + o.bx as u32;
    assert_eq!(rd8(&mut x.s.m, t + 2), 0xFB);
    assert_eq!(rd8(&mut x.s.m, 0xFFFFE), 0xFB);
    let o = x.int(0x15, 0x8800, 0, 0, 0);
    assert!(o.cf && o.ax >> 8 == 0x86);
}

#[test]
fn int1a_clock_date_alarm_and_ticks() {
    let mut r = Rig::new(CpuModel::I286, "bios-int1a");
    // Time and date set and read back (BCD) through the CMOS.
    let o = r.int(0x1A, 0x0300, 0, 0x1234, 0x5600);
    assert!(!o.cf);
    let o = r.int(0x1A, 0x0200, 0, 0, 0);
    assert_eq!((o.cx, o.dx >> 8), (0x1234, 0x56));
    r.int(0x1A, 0x0500, 0, 0x1999, 0x1231);
    let o = r.int(0x1A, 0x0400, 0, 0, 0);
    assert_eq!((o.cx, o.dx), (0x1999, 0x1231));
    // The RTC runs on: 2 s later the seconds moved on.
    assert_eq!(r.idle(2_000_000), Exit::Limit);
    let o = r.int(0x1A, 0x0200, 0, 0, 0);
    assert_eq!((o.cx, o.dx >> 8), (0x1234, 0x58));
    // Day counter: 1999-12-31 is day 7304 after 1980-01-01; 0Bh sets it.
    assert_eq!(r.int(0x1A, 0x0A00, 0, 0, 0).cx, 7304);
    r.int(0x1A, 0x0B00, 0, 7305 + 59, 0);
    let o = r.int(0x1A, 0x0400, 0, 0, 0);
    assert_eq!((o.cx, o.dx), (0x2000, 0x0229), "2000-02-29");
    // Alarm at 12:35:00: INT 4Ah once; a second 06h while set fails.
    r.count(0x4A, 0x200, 0x150);
    assert!(!r.int(0x1A, 0x0600, 0, 0x1235, 0x0000).cf);
    assert!(r.int(0x1A, 0x0600, 0, 0x1235, 0x0000).cf);
    assert_eq!(r.idle(1_000_000), Exit::Limit);
    assert_eq!(r.byte(DATA + 0x50), 0, "not yet");
    assert_eq!(r.idle(2_000_000), Exit::Limit);
    assert_eq!(r.byte(DATA + 0x50), 1, "INT 4Ah");
    assert!(!r.int(0x1A, 0x0700, 0, 0, 0).cf);
    assert!(!r.int(0x1A, 0x0600, 0, 0x1300, 0).cf, "free again");
    // Ticks: 01h sets 40:6Ch; past midnight 00h returns AL = 1 once.
    r.int(0x1A, 0x0100, 0, 0x0018, 0x00AF);
    assert_eq!(rd32(&mut r.s.m, 0x46C), 0x1800AF);
    assert_eq!(r.idle(120_000), Exit::Limit);
    let o = r.int(0x1A, 0x0000, 0, 0, 0);
    assert_eq!(o.ax & 0xFF, 1, "midnight");
    assert!(o.cx == 0 && o.dx < 3, "ticks {:04X}:{:04X}", o.cx, o.dx);
    assert_eq!(r.int(0x1A, 0x0000, 0, 0, 0).ax & 0xFF, 0, "cleared");
}

#[test]
fn int11_int12_and_the_bios_data_area() {
    let mut r = Rig::new(CpuModel::I386, "bios-bda");
    let e = r.int(0x11, 0, 0, 0, 0).ax;
    assert_eq!(e, rd16(&mut r.s.m, 0x410));
    // The CMOS has a 1.44 MB drive A: and no coprocessor; 80x25 colour;
    // a game port (bit 12); no serial or parallel ports.
    assert_eq!(e, 0x1021);
    for p in 0..8 {
        assert_eq!(rd16(&mut r.s.m, 0x400 + 2 * p), 0, "port address {p}");
    }
    assert_eq!(r.int(0x12, 0, 0, 0, 0).ax, 640);
    wr16(&mut r.s.m, 0x413, 512);
    assert_eq!(r.int(0x12, 0, 0, 0, 0).ax, 512);
    assert_eq!(rd16(&mut r.s.m, 0x480), 0x1E);
    assert_eq!(rd16(&mut r.s.m, 0x482), 0x3E);
    assert_eq!(rd32(&mut r.s.m, 0x478), 0x1414_1414);
    assert_eq!(rd32(&mut r.s.m, 0x47C), 0x0101_0101);
    assert_eq!(r.byte(0x496), 0x10, "101-key keyboard");
    // 40:A8h: the save pointer table, whose first pointer is the video
    // parameter table: entry 18h is mode 03h (80 columns, 25 rows, 16
    // lines, 1000h bytes, misc 67h), 1Ch mode 13h.
    let far = |m: &mut Machine, a: u32| ((rd16(m, a + 2) as u32) << 4) + rd16(m, a) as u32;
    let save = far(&mut r.s.m, 0x4A8);
    assert!(save >= 0xC0000, "in ROM");
    let params = far(&mut r.s.m, save);
    assert_ne!(params, 0);
    let e: Vec<u8> = (0..10)
        .map(|i| rd8(&mut r.s.m, params + 0x18 * 64 + i))
        .collect();
    assert_eq!(e, [80, 24, 16, 0x00, 0x10, 0x00, 0x03, 0x00, 0x02, 0x67]);
    let e: Vec<u8> = (0..3)
        .map(|i| rd8(&mut r.s.m, params + 0x1C * 64 + i))
        .collect();
    assert_eq!(e, [40, 24, 8]);
    // The tick count runs: 18.2 per second.
    let t0 = rd32(&mut r.s.m, 0x46C);
    assert_eq!(r.idle(1_000_000), Exit::Limit);
    let n = rd32(&mut r.s.m, 0x46C) - t0;
    assert!((18..=19).contains(&n), "{n} ticks");
}

/// The BIOS as the AT POST leaves it with and without a coprocessor: the
/// equipment word's bit 1 (from the CMOS), INT 75h at the IRQ13 handler
/// and IRQ13 unmasked only with one.
#[test]
fn a_coprocessor_gets_its_equipment_bit_int_75h_and_irq13() {
    let dir = common::temp_dir("fpu-post");
    for fpu in [hw::Fpu::None, hw::Fpu::I387] {
        let mut cfg = MachineConfig::with_cpu(CpuModel::I386, common::HZ);
        cfg.fpu = fpu;
        let mut m = Machine::new(cfg);
        let mut dos = Dos::new(DosConfig::new(dir.clone())).expect("mount");
        dos.install(&mut m);
        let fitted = fpu.fitted();
        assert_eq!(rd16(&mut m, 0x410) & 2 != 0, fitted, "{fpu:?}");
        let vec75 = (rd16(&mut m, 0x75 * 4 + 2), rd16(&mut m, 0x75 * 4));
        assert_eq!(vec75 == (0xF000, 0xE540), fitted, "{fpu:?}");
        assert_eq!(m.in8(0xA1) & 0x20 == 0, fitted, "{fpu:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
