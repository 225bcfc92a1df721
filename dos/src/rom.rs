//! The BIOS/DOS stub ROM at F000:E000 and the trap addresses.
//!
//! Trap block F000:E000-F000:E1FF (linear FE000h-FE1FFh), see
//! [`hw::Machine::set_trap_range`]:
//!
//! - F000:E000 + n (n = 00h-FFh) is vector n's service: an `IRET` byte.
//!   Interrupt vectors serviced in Rust point here, so a guest that reads a
//!   vector sees an ordinary far pointer, and one that hooks it and chains
//!   with `pushf; call far [old]` reaches the service.
//! - F000:E100 + k are subroutine traps, a `RET` byte each, called with a
//!   near CALL from the guest-visible handlers below (k = 0: the timer
//!   tick, 1: a keyboard scan code in AL, 2: the XMS driver, 3: disk, 4:
//!   mouse event, 5: a keyboard reply byte, 6: the RTC interrupt).
//!
//! Guest-visible code outside the trap block:
//!
//! - INT 08h at F000:E400: `call tick; int 1Ch; call mouse_dispatch; cli;
//!   push ax; mov al,20h; out 20h,al; pop ax; iret`: a hooked INT 1Ch runs
//!   as guest code.
//! - The mouse dispatcher at F000:E480: saves AX-BP, DS, ES; `call mouse`
//!   (the trap loads the event registers, AX = 0 when there is none); if
//!   AX is not 0, `call far [cs:E4F8h]` (the INT 33h 0Ch handler); restores
//!   and returns.
//! - INT 09h at F000:E987: `push ax; in al,60h; call reply; jc eoi; mov
//!   ah,4Fh; stc; int 15h; jnc eoi; call key; cli; EOI;` then what the
//!   translation asks for (INT 1Bh, INT 05h, INT 15h 85h/91h, the pause
//!   loop, the reset, the "buffer full" beep; see [`crate::bios::int09::Action`]); `pop ax; iret`.
//!   Keyboard replies (ACK, resend) are taken before the INT 15h 4Fh
//!   intercept, which is honoured, as in the AT BIOS.
//! - F000:E520: INT 16h's first wait for a key: `push ax; mov ax,9002h;
//!   int 15h; pop ax; jmp <idle loop>`.
//! - INT 70h at F000:E500: `push ax; call rtc; cli; EOI to both PICs;`
//!   INT 4Ah if the alarm rang; `pop ax; iret`.
//! - INT 75h at F000:E540 (with an x87 fitted), the IBM AT BIOS's IRQ13 handler: `push ax;
//!   xor al,al; out 0F0h,al` (clear the coprocessor error latch), EOI to
//!   both PICs, `pop ax; int 02h; iret`: a program that hooks INT 02h (the
//!   PC's coprocessor error vector since the 8087) or INT 75h sees it.
//! - The XMS entry at F000:E440: `jmp short +3; nop; nop; nop; call xms;
//!   retf` (the XMS specification's hookable prologue).
//! - Idle loops at F000:E460 + 8i: `sti; hlt; cli; jmp <service>` for a
//!   blocking service (INT 16h, INT 21h, INT 15h) that has nothing yet: the
//!   CPU sleeps until an interrupt, then the service runs again.
//! - INT 25h/26h at F000:E450: `call disk; retf`.
//! - F000:E4F0: `retf` (the EMMXXXX0 device header's entries).

use hw::Machine;

/// Segment of the stub ROM.
pub const SEG: u16 = 0xF000;
/// Offset of vector 0's service trap.
pub const VEC_BASE: u16 = 0xE000;
/// Offset of the subroutine traps.
pub const SUB_BASE: u16 = 0xE100;
/// The trap range (linear).
pub const TRAP_RANGE: (u32, u32) = (0xFE000, 0xFE200);
/// Subroutine trap: timer tick.
pub const SUB_TICK: u16 = 0;
/// Subroutine trap: keyboard scan code.
pub const SUB_KEY: u16 = 1;
/// Subroutine trap: XMS driver call.
pub const SUB_XMS: u16 = 2;
/// Subroutine trap: absolute disk read/write (INT 25h/26h).
pub const SUB_DISK: u16 = 3;
/// Subroutine trap: a pending mouse event for the INT 33h 0Ch handler.
pub const SUB_MOUSE: u16 = 4;
/// Subroutine trap: a keyboard reply (ACK, resend, overrun) in AL; CF set
/// when it was one.
pub const SUB_KEY_REPLY: u16 = 5;
/// Subroutine trap: the RTC interrupt (event wait count, alarm; AH = 1
/// when INT 4Ah is due).
pub const SUB_RTC: u16 = 6;
/// Return address of a program's INT 23h handler called by DOS on Ctrl-C
/// (reached by IRET or RETF, not by a CALL).
pub const SUB_BREAK: u16 = 7;
/// The mouse event dispatcher called from INT 08h.
pub const MOUSE_DISPATCH: u16 = 0xE480;
/// The far pointer (in ROM, written by the driver) of the INT 33h 0Ch
/// event handler.
pub const MOUSE_HANDLER: u16 = 0xE4F8;
/// INT 25h/26h: `call disk; retf` (the FLAGS word stays on the stack, as
/// DOS leaves it).
pub const DISK_STUB: u16 = 0xE450;
/// INT 08h handler.
pub const INT08: u16 = 0xE400;
/// INT 09h handler (the IBM AT's address of it).
pub const INT09: u16 = 0xE987;
/// INT 16h's first wait for a key: `push ax; mov ax,9002h; int 15h; pop
/// ax; jmp <INT 16h idle loop>` (the keyboard's "device busy" post).
pub const KEY_WAIT: u16 = 0xE520;
/// INT 70h handler (IRQ8, the real-time clock).
pub const INT70: u16 = 0xE500;
/// INT 75h handler (IRQ13, the coprocessor's error).
pub const INT75: u16 = 0xE540;
/// XMS driver entry point.
pub const XMS_ENTRY: u16 = 0xE440;
/// Idle loop base.
pub const IDLE_BASE: u16 = 0xE460;
/// A RETF.
pub const RETF: u16 = 0xE4F0;
/// Segment whose offset 000Ah holds "EMMXXXX0" and whose offset
/// [`EMS_OFF`] is the INT 67h trap (the linear address F000:E067).
pub const EMS_SEG: u16 = 0xFDF0;
/// See [`EMS_SEG`].
pub const EMS_OFF: u16 = 0x0167;
/// The configuration table for INT 15h C0h.
pub const CONFIG_TABLE: u16 = 0xE6F5;

/// Vectors whose blocking services loop through an idle stub.
pub const IDLE_VECTORS: [u8; 3] = [0x16, 0x21, 0x15];

/// Offset of the idle loop for a vector in [`IDLE_VECTORS`].
pub fn idle_stub(vector: u8) -> u16 {
    let i = IDLE_VECTORS.iter().position(|&v| v == vector).unwrap_or(0);
    IDLE_BASE + 8 * i as u16
}

/// What servicing a trap asks of the run loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Run on.
    Continue,
    /// The top-level program terminated.
    Exit(u8),
    /// Stop the run with this message.
    Stop(String),
}

/// Sends the CPU to the idle loop of `vector` (one of [`IDLE_VECTORS`]):
/// it sleeps until an interrupt and then calls the service again with the
/// same registers.
pub fn wait(m: &mut Machine, vector: u8) -> Flow {
    m.cpu.regs.set_sreg(emu::SegReg::CS, SEG);
    m.cpu.regs.ip = idle_stub(vector) as u32;
    Flow::Continue
}

/// What a trap address is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trap {
    /// The service for an interrupt vector.
    Vector(u8),
    /// A subroutine trap.
    Sub(u16),
}

/// Decodes a linear trap address.
pub fn decode(linear: u32) -> Option<Trap> {
    let off = linear.checked_sub(0xF0000)? as u16;
    match off {
        0xE000..=0xE0FF => Some(Trap::Vector((off - VEC_BASE) as u8)),
        0xE100..=0xE1FF => Some(Trap::Sub(off - SUB_BASE)),
        _ => None,
    }
}

fn rel16(from_next: u16, to: u16) -> [u8; 2] {
    to.wrapping_sub(from_next).to_le_bytes()
}

/// Writes the stub ROM into the BIOS area.
pub fn install(m: &mut Machine) {
    let mut img = vec![0xCFu8; 0x100]; // IRET per vector
    img.extend(std::iter::repeat_n(0xC3u8, 0x100)); // RET per subroutine
    put(m, VEC_BASE, &img);
    put(m, INT08, &int08());
    put(m, MOUSE_DISPATCH, &mouse_dispatch());
    put(m, MOUSE_HANDLER, &[0; 4]);
    put(m, INT09, &int09());
    put(m, INT70, &int70());
    // INT 75h only with a coprocessor fitted, so that a machine without
    // one stays byte for byte what it was before the x87 (its IRQ13 never
    // rises).
    if m.config().fpu.fitted() {
        put(m, INT75, &INT75_CODE);
    }
    put(m, KEY_WAIT, &key_wait());
    put(
        m,
        XMS_ENTRY,
        &call_sub(XMS_ENTRY, &[0xEB, 0x03, 0x90, 0x90, 0x90], SUB_XMS),
    );
    put(m, DISK_STUB, &call_sub(DISK_STUB, &[], SUB_DISK));
    for &v in &IDLE_VECTORS {
        let at = idle_stub(v);
        let mut c = vec![0xFB, 0xF4, 0xFA, 0xE9]; // sti; hlt; cli; jmp <service>
        c.extend(rel16(at + 6, VEC_BASE + v as u16));
        put(m, at, &c);
    }
    put(m, RETF, &[0xCB]);

    // EMS device name where INT 67h's segment:000Ah points.
    m.bus
        .mem
        .write_image(((EMS_SEG as u32) << 4) + 0x0A, b"EMMXXXX0");

    // The video BIOS tables (fonts, parameters, functionality).
    crate::bios::video::tables::install(m);

    let table = config_table(m.cpu.model);
    put(m, CONFIG_TABLE, &table);
    // The BIOS date and the model byte at F000:FFF5 and FFFE.
    m.bus.mem.write_image(0xFFFF5, b"06/01/94");
    m.bus.mem.write_image(0xFFFFE, &[table[2]]);
}

/// Writes `code` at F000:`off`.
fn put(m: &mut Machine, off: u16, code: &[u8]) {
    m.bus.mem.write_image(0xF0000 + off as u32, code);
}

/// `prefix`, then a near call of subroutine trap `sub` and a RETF, at
/// F000:`at`: the XMS entry (its prologue `jmp short $+5; nop; nop; nop`
/// a driver may hook) and INT 25h/26h.
fn call_sub(at: u16, prefix: &[u8], sub: u16) -> Vec<u8> {
    let mut c = prefix.to_vec();
    c.push(0xE8);
    c.extend(rel16(at + c.len() as u16 + 2, SUB_BASE + sub));
    c.push(0xCB);
    c
}

/// INT 08h: `call tick; int 1Ch; call mouse_dispatch; cli; push ax; mov
/// al,20h; out 20h,al; pop ax; iret`.
fn int08() -> Vec<u8> {
    let mut c = vec![0xE8];
    c.extend(rel16(INT08 + 3, SUB_BASE + SUB_TICK));
    c.extend([0xCD, 0x1C, 0xE8]);
    c.extend(rel16(INT08 + 8, MOUSE_DISPATCH));
    c.extend([0xFA, 0x50, 0xB0, 0x20, 0xE6, 0x20, 0x58, 0xCF]);
    c
}

/// The mouse event dispatch: save the registers, ask the driver, call the
/// handler far if it has an event.
fn mouse_dispatch() -> Vec<u8> {
    let mut c = vec![0x50, 0x53, 0x51, 0x52, 0x56, 0x57, 0x55, 0x1E, 0x06, 0xE8];
    c.extend(rel16(MOUSE_DISPATCH + 12, SUB_BASE + SUB_MOUSE));
    c.extend([0x85, 0xC0, 0x74, 0x05, 0x2E, 0xFF, 0x1E]);
    c.extend(MOUSE_HANDLER.to_le_bytes());
    c.extend([0x07, 0x1F, 0x5D, 0x5F, 0x5E, 0x5A, 0x59, 0x5B, 0x58, 0xC3]);
    c
}

/// INT 09h (at IBM's address): the reply filter, the INT 15h 4Fh
/// intercept, the translation, EOI, then the translation's action (see
/// `bios::int09::Action`): 1 INT 1Bh, 2 INT 05h, 3/4 INT 15h 8500h/
/// 8501h, 5 INT 15h 9102h, 6 the pause loop (`sti; hlt` until 40:18h bit
/// 3 clears), 7 the reset through the 8042 (`out 64h, FEh`), 8 the AT
/// BIOS's "buffer full" beep (1760 Hz for 4144 refresh toggles of port
/// 61h bit 4, 62.5 ms).
fn int09() -> Vec<u8> {
    let mut c = vec![0x50, 0xE4, 0x60, 0xE8]; // push ax; in al,60h; call reply
    c.extend(rel16(INT09 + 6, SUB_BASE + SUB_KEY_REPLY));
    c.extend([0x72, 0x33, 0xB4, 0x4F, 0xF9, 0xCD, 0x15, 0x73, 0x2C, 0xE8]); // jc eoi; mov ah,4Fh; stc; int 15h; jnc eoi; call key
    c.extend(rel16(INT09 + 0x12, SUB_BASE + SUB_KEY));
    #[rustfmt::skip]
    c.extend([
        0xFA, 0xB0, 0x20, 0xE6, 0x20,             // cli; mov al,20h; out 20h,al
        0xFE, 0xCC, 0x78, 0x1E, 0x74, 0x25,       // dec ah; js out; jz brk
        0xFE, 0xCC, 0x74, 0x25,                   // dec ah; jz prtsc
        0xFE, 0xCC, 0x74, 0x25,                   // dec ah; jz sysrq_make
        0xFE, 0xCC, 0x74, 0x28,                   // dec ah; jz sysrq_break
        0xFE, 0xCC, 0x74, 0x2B,                   // dec ah; jz stored
        0xFE, 0xCC, 0x74, 0x2E,                   // dec ah; jz pause
        0xFE, 0xCC, 0x74, 0x3D,                   // dec ah; jz reset
        0xFE, 0xCC, 0x74, 0x40,                   // dec ah; jz beep
        0x58, 0xCF,                               // out: pop ax; iret
        0xFA, 0xB0, 0x20, 0xE6, 0x20, 0xEB, 0xF7, // eoi: cli; mov al,20h; out 20h,al; jmp out
        0xCD, 0x1B, 0xEB, 0xF3,                   // brk: int 1Bh; jmp out
        0xCD, 0x05, 0xEB, 0xEF,                   // prtsc: int 05h; jmp out
        0xB8, 0x00, 0x85, 0xCD, 0x15, 0xEB, 0xE8, // sysrq_make: mov ax,8500h; int 15h; jmp out
        0xB8, 0x01, 0x85, 0xCD, 0x15, 0xEB, 0xE1, // sysrq_break: mov ax,8501h; int 15h; jmp out
        0xB8, 0x02, 0x91, 0xCD, 0x15, 0xEB, 0xDA, // stored: mov ax,9102h; int 15h; jmp out
        0x1E, 0xB8, 0x40, 0x00, 0x8E, 0xD8,       // pause: push ds; mov ax,40h; mov ds,ax
        0xFB, 0xF4, 0xF6, 0x06, 0x18, 0x00, 0x08, // wait: sti; hlt; test byte [18h],8
        0x75, 0xF7, 0xFA, 0x1F, 0xEB, 0xC7,       // jnz wait; cli; pop ds; jmp out
        0xB0, 0xFE, 0xE6, 0x64, 0xF4, 0xEB, 0xFD, // reset: mov al,0FEh; out 64h,al; hlt; jmp $-1
        0x51, 0xB0, 0xB6, 0xE6, 0x43,             // beep: push cx; mov al,0B6h; out 43h,al
        0xB0, 0xA6, 0xE6, 0x42, 0xB0, 0x02, 0xE6, 0x42, // PIT 2 divisor 678
        0xE4, 0x61, 0x50, 0x0C, 0x03, 0xE6, 0x61, // in al,61h; push ax; or al,3; out 61h,al
        0xB9, 0x30, 0x10, 0xB4, 0x00,             // mov cx,4144; mov ah,0
        0xE4, 0x61, 0x24, 0x10, 0x38, 0xE0,       // tick: in al,61h; and al,10h; cmp al,ah
        0x74, 0xF8, 0x88, 0xC4, 0xE2, 0xF4,       // je tick; mov ah,al; loop tick
        0x58, 0xE6, 0x61, 0x59, 0xEB, 0x95,       // pop ax; out 61h,al; pop cx; jmp out
    ]);
    debug_assert_eq!(c.len(), 0xA4);
    c
}

/// INT 70h (IRQ8): the RTC's interrupt, EOI to both PICs, INT 4Ah when
/// the alarm rang.
fn int70() -> Vec<u8> {
    let mut c = vec![0x50, 0xE8]; // push ax; call rtc
    c.extend(rel16(INT70 + 4, SUB_BASE + SUB_RTC));
    #[rustfmt::skip]
    c.extend([
        0xFA, 0xB0, 0x20, 0xE6, 0xA0, 0xE6, 0x20, // cli; mov al,20h; out 0A0h,al; out 20h,al
        0x84, 0xE4, 0x74, 0x04,                   // test ah,ah; jz out
        0xFB, 0xCD, 0x4A, 0xFA,                   // sti; int 4Ah; cli
        0x58, 0xCF,                               // out: pop ax; iret
    ]);
    c
}

/// INT 75h (IRQ13): clear the coprocessor latch, EOI, INT 02h.
#[rustfmt::skip]
const INT75_CODE: [u8; 15] = [
    0x50, 0x32, 0xC0, 0xE6, 0xF0,         // push ax; xor al,al; out 0F0h,al
    0xB0, 0x20, 0xE6, 0xA0, 0xE6, 0x20,   // mov al,20h; out 0A0h,al; out 20h,al
    0x58, 0xCD, 0x02, 0xCF,               // pop ax; int 02h; iret
];

/// INT 16h's "device busy" post before it waits: `push ax; mov
/// ax,9002h; int 15h; pop ax; jmp <INT 16h idle loop>`.
fn key_wait() -> Vec<u8> {
    let mut c = vec![0x50, 0xB8, 0x02, 0x90, 0xCD, 0x15, 0x58, 0xE9];
    c.extend(rel16(KEY_WAIT + 10, idle_stub(0x16)));
    c
}

/// The INT 15h C0h system configuration table for a machine with `cpu`:
/// length 8, model, submodel, BIOS revision, and feature bytes 1-5 (Ralf
/// Brown's table 00509). The 286 and 386 machines are AT class (model
/// FCh, submodel 01h, as most AT-compatible 286/386 BIOSes report); the
/// 8086 machine is a PC XT (model FBh, submodel 00h, revision 01h: the
/// 1/10/86 XT BIOS, the first XT with this function). Feature byte 1:
/// bit 6 a second 8259 and bit 5 the real-time clock (both present in
/// every tandem machine), bit 4 INT 09h calls INT 15h 4Fh; no DMA channel
/// 3 use, no EBDA (bit 2 clear), no Micro Channel. Feature byte 2: bit 6
/// INT 16h 09h is supported.
pub fn config_table(cpu: emu::CpuModel) -> [u8; 10] {
    let (model, sub, rev) = if cpu.caps().pc_at_class {
        (0xFC, 0x01, 0x00)
    } else {
        (0xFB, 0x00, 0x01)
    };
    [0x08, 0x00, model, sub, rev, 0x70, 0x40, 0x00, 0x00, 0x00]
}
