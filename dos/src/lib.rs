//! High-level BIOS and DOS services and the program loader. Not built yet:
//! see issue "DOS and BIOS services".
