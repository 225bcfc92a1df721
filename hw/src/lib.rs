//! The PC around the CPU: memory map, PIT, PIC, 8042, VGA, CMOS and the
//! machine scheduler. Not built yet: see issue "The PC".
