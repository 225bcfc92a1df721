//! BIOS services: [`bda`] (the BIOS data area and the timer tick),
//! [`keyboard`] (the keyboard buffer, shift flags and key table),
//! [`int09`] (the keyboard interrupt's translation), [`video`] (INT 10h),
//! [`int16`] (keyboard), [`int1a`] (time), [`int70`] (the RTC interrupt),
//! [`int15`] (system services), [`int33`] (mouse driver).

pub mod bda;
pub mod int09;
pub mod int15;
pub mod int16;
pub mod int1a;
pub mod int33;
pub mod int70;
pub mod keyboard;
pub mod video;
