//! The registration list: every device on the PC bus, one line each.
//!
//! The order is the order of the devices in the machine's state hash and
//! in the save state (changing it changes both: bump the save-state
//! format version in `dos::state`). Adding a device is one file with its
//! [`Device`](crate::device::Device) impl and one line here.

use crate::cdaudio::CdAudio;
use crate::cmos::Cmos;
use crate::device::register_devices;
use crate::dma8237::Dma8237;
use crate::fpu_error::FpuErrorLatch;
use crate::gameport::GamePort;
use crate::gus::Gus;
use crate::kbc::Kbc;
use crate::mpu401::Mpu401;
use crate::opl3::Opl3;
use crate::pic::Pics;
use crate::pit::Pit;
use crate::ppi::Ppi;
use crate::sb16::Sb16;
use crate::vga::Vga;

register_devices! {
    /// The VGA (3B0h-3DFh and the A0000h-BFFFFh window).
    vga: Vga,
    /// The 8254 (40h-43h).
    pit: Pit,
    /// The two 8259As (20h/21h, A0h/A1h).
    pics: Pics,
    /// The 8042 and keyboard (60h, 64h).
    kbc: Kbc,
    /// The RTC and CMOS RAM (70h/71h).
    cmos: Cmos,
    /// Port 61h and the speaker.
    ppi: Ppi,
    /// The AdLib/Sound Blaster YMF262 OPL3 (388h-38Bh).
    opl: Opl3,
    /// The coprocessor error latch (F0h, IRQ13).
    ferr: FpuErrorLatch,
    /// The two 8237As and the page registers (00h-0Fh, 80h-8Fh, C0h-DFh).
    dma: Dma8237,
    /// The MPU-401 (330h-331h or 300h-301h).
    mpu: Mpu401,
    /// The Sound Blaster 16 (220h-28Fh: one of four bases; its OPL3 is `opl`).
    sb16: Sb16,
    /// The game port (201h).
    gameport: GamePort,
    /// The CD-ROM drives' audio transport (no ports: MSCDEX drives it).
    cdaudio: CdAudio,
    /// The Gravis UltraSound (2X0h-2XFh and 3X2h-3X7h of base 210h-260h).
    gus: Gus,
}
