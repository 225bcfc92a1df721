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
//!   tick, 1: a keyboard scan code in AL, 2: the XMS driver).
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
//! - INT 09h at F000:E420: `push ax; in al,60h; mov ah,4Fh; stc; int 15h;
//!   jnc skip; call key; skip: cli; mov al,20h; out 20h,al; pop ax; iret`
//!   (the INT 15h 4Fh keyboard intercept is honoured).
//! - The XMS entry at F000:E440: `jmp short +3; nop; nop; nop; call xms;
//!   retf` (the XMS specification's hookable prologue).
//! - Idle loops at F000:E460 + 8i: `sti; hlt; cli; jmp <service>` for a
//!   blocking service (INT 16h, INT 21h, INT 15h) that has nothing yet: the
//!   CPU sleeps until an interrupt, then the service runs again.
//! - INT 25h/26h at F000:E450: `call disk; retf`.
//! - F000:E4F0: `retf`, the target of the PSP's CP/M call.

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
/// INT 09h handler.
pub const INT09: u16 = 0xE420;
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
    let base = 0xF0000u32;
    let mut img = vec![0xCFu8; 0x100]; // IRET per vector
    img.extend(std::iter::repeat_n(0xC3u8, 0x100)); // RET per subroutine
    m.bus.mem.write_image(base + VEC_BASE as u32, &img);

    // INT 08h.
    let mut c = vec![0xE8];
    c.extend(rel16(INT08 + 3, SUB_BASE + SUB_TICK));
    c.extend([0xCD, 0x1C, 0xE8]);
    c.extend(rel16(INT08 + 8, MOUSE_DISPATCH));
    c.extend([0xFA, 0x50, 0xB0, 0x20, 0xE6, 0x20, 0x58, 0xCF]);
    m.bus.mem.write_image(base + INT08 as u32, &c);

    // Mouse event dispatch: save the registers, ask the driver, call the
    // handler far if it has an event.
    let mut c = vec![0x50, 0x53, 0x51, 0x52, 0x56, 0x57, 0x55, 0x1E, 0x06, 0xE8];
    c.extend(rel16(MOUSE_DISPATCH + 12, SUB_BASE + SUB_MOUSE));
    c.extend([0x85, 0xC0, 0x74, 0x05, 0x2E, 0xFF, 0x1E]);
    c.extend(MOUSE_HANDLER.to_le_bytes());
    c.extend([0x07, 0x1F, 0x5D, 0x5F, 0x5E, 0x5A, 0x59, 0x5B, 0x58, 0xC3]);
    m.bus.mem.write_image(base + MOUSE_DISPATCH as u32, &c);
    m.bus.mem.write_image(base + MOUSE_HANDLER as u32, &[0; 4]);

    // INT 09h.
    let mut c = vec![
        0x50, 0xE4, 0x60, 0xB4, 0x4F, 0xF9, 0xCD, 0x15, 0x73, 0x03, 0xE8,
    ];
    c.extend(rel16(INT09 + 13, SUB_BASE + SUB_KEY));
    c.extend([0xFA, 0xB0, 0x20, 0xE6, 0x20, 0x58, 0xCF]);
    m.bus.mem.write_image(base + INT09 as u32, &c);

    // XMS entry.
    let mut c = vec![0xEB, 0x03, 0x90, 0x90, 0x90, 0xE8];
    c.extend(rel16(XMS_ENTRY + 8, SUB_BASE + SUB_XMS));
    c.push(0xCB);
    m.bus.mem.write_image(base + XMS_ENTRY as u32, &c);

    // INT 25h/26h.
    let mut c = vec![0xE8];
    c.extend(rel16(DISK_STUB + 3, SUB_BASE + SUB_DISK));
    c.push(0xCB);
    m.bus.mem.write_image(base + DISK_STUB as u32, &c);

    // Idle loops.
    for &v in &IDLE_VECTORS {
        let at = idle_stub(v);
        let mut c = vec![0xFB, 0xF4, 0xFA, 0xE9];
        c.extend(rel16(at + 6, VEC_BASE + v as u16));
        m.bus.mem.write_image(base + at as u32, &c);
    }
    m.bus.mem.write_image(base + RETF as u32, &[0xCB]);

    // EMS device name where INT 67h's segment:000Ah points.
    m.bus
        .mem
        .write_image(((EMS_SEG as u32) << 4) + 0x0A, b"EMMXXXX0");

    // The video BIOS tables (fonts, parameters, functionality).
    crate::bios::video::tables::install(m);

    // INT 15h C0h: an AT-class model byte FCh, submodel 01h; feature byte 1
    // bit 5 (RTC), bit 6 (second 8259), bit 4 (INT 15h 4Fh intercept).
    m.bus.mem.write_image(
        base + CONFIG_TABLE as u32,
        &[0x08, 0x00, 0xFC, 0x01, 0x00, 0x70, 0x00, 0x00, 0x00, 0x00],
    );
    // The BIOS date and model byte at F000:FFF5 and FFFE.
    m.bus.mem.write_image(0xFFFF5, b"06/01/94");
    m.bus.mem.write_image(0xFFFFE, &[0xFC]);
}
