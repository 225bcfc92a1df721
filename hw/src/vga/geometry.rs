//! What a monitor shows of the CRTC's scan (IBM VGA Technical Reference,
//! "CRT Controller Registers"; FreeVGA, "CRTC Registers"). Along a line the
//! character counter runs from 0 to the horizontal total; down a frame the
//! scan line counter runs from 0 to the vertical total. Display enable is
//! on below display end (CR01, CR12); blanking comes on when the counter
//! reaches the start of blanking (CR02, CR15) and goes off when the
//! counter's low bits match the end of blanking (6 bits of CR03/CR05
//! across, the 8 of CR16 down). Where display enable is on and blanking
//! off the picture shows; where both are off, the overscan colour
//! (AR11); where blanking is on, black. A start of blanking before
//! display end therefore cuts the picture short with black.

/// How much of the scan a frame holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct View {
    /// Show the overscan border around the active display area as the
    /// monitor shows it (everything not blanked); off: the frame is the
    /// active display area alone.
    pub border: bool,
}

/// One direction of the scan: character clocks across a line, or scan
/// lines down a frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    /// Counts per line or frame.
    pub total: u32,
    /// Counts with display enable on (0 up to display end).
    pub display: u32,
    /// Border counts shown before the display: the unblanked end of the
    /// previous line or frame.
    pub before: u32,
    /// Border counts shown after display end, up to the start of blanking.
    pub after: u32,
    /// Blanking at each count below `total`.
    blanked: Vec<bool>,
}

impl Axis {
    /// The axis of a counter that runs `0..total`, displays `0..display`
    /// and blanks from `blank_start` until its bits in `end_mask` equal
    /// `blank_end` (a full `end_mask + 1` counts when they already do at
    /// the start). A start at or past the total never blanks.
    pub fn new(total: u32, display: u32, blank_start: u32, blank_end: u32, end_mask: u32) -> Self {
        let total = total.max(1);
        let mut blanked = vec![false; total as usize];
        if blank_start < total {
            let mut c = blank_start;
            blanked[c as usize] = true;
            loop {
                c = (c + 1) % total;
                if c & end_mask == blank_end & end_mask || blanked[c as usize] {
                    break;
                }
                blanked[c as usize] = true;
            }
        }
        let open = |c: u32| !blanked[c as usize];
        let after = (display..total).take_while(|&c| open(c)).count() as u32;
        let before = (display + after..total)
            .rev()
            .take_while(|&c| open(c))
            .count() as u32;
        Axis {
            total,
            display,
            before,
            after,
            blanked,
        }
    }

    /// Whether count `c` is blanked (counts past the total are not).
    pub fn blanked(&self, c: u32) -> bool {
        self.blanked.get(c as usize).copied().unwrap_or(false)
    }
}
