//! BIOS services: [`bda`] (the BIOS data area and the timer tick),
//! [`int10`] (video), [`int16`] (keyboard), [`int1a`] (time), [`int15`]
//! (system services), [`int33`] (mouse driver).

pub mod bda;
pub mod int10;
pub mod int15;
pub mod int16;
pub mod int1a;
pub mod int33;
