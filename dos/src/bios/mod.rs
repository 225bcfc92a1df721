//! BIOS services: [`bda`] (the BIOS data area and the timer tick),
//! [`int09`] (the keyboard interrupt's translation), [`int10`] (video),
//! [`int16`] (keyboard), [`int1a`] (time), [`int70`] (the RTC interrupt),
//! [`int15`] (system services), [`int33`] (mouse driver).

pub mod bda;
pub mod int09;
pub mod int10;
pub mod int15;
pub mod int16;
pub mod int1a;
pub mod int33;
pub mod int70;
