//! A profile's symbols placed in a loaded program: the segments where
//! its code, data and stack sit in this load, and each symbol's SEG:OFF,
//! for the debugger's views (labels in the code, `params` in the memory
//! view, return addresses as `routine+off`).

use dos::Session;
use emu::SegReg;
use models::profile::Seg;
use models::{Profile, Segments};

use crate::app::error::Error;
use crate::app::program::Loaded;

/// Where the profile's segments sit in `s`, the program `image` (named
/// `name`) just loaded in it, at its entry. The profile finds the
/// program in a fresh load of it; the session's own load (its PSP,
/// environment) may sit elsewhere, so the segments move with its load
/// segment and stack.
pub fn segments(
    profile: &Profile,
    image: &[u8],
    name: &str,
    s: &Session,
) -> Result<Segments, Error> {
    let config = s.m.config().clone();
    let probe = Loaded::start(image, name, None, &config, b"")?;
    let found = probe.locate(profile, name)?;
    let load_seg = s.dos.current_psp().wrapping_add(0x10);
    let ss = s.m.cpu.regs.sreg(SegReg::SS);
    let l = &probe.layout;
    Ok(Segments {
        code: load_seg.wrapping_add(found.code.wrapping_sub(l.load_seg)),
        data: ss.wrapping_add(found.data.wrapping_sub(l.entry_ss)),
        stack: ss.wrapping_add(found.stack.wrapping_sub(l.entry_ss)),
    })
}

/// One symbol, placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Its name in the profile (`fountain`, `clock`, `params`).
    pub name: String,
    /// The section it belongs to.
    pub section: Seg,
    /// Its segment in this load.
    pub seg: u16,
    /// Its offset.
    pub off: u16,
    /// A routine of the profile's models (or the entry of one).
    pub routine: bool,
}

impl Symbol {
    /// Its linear address (real mode).
    pub fn linear(&self) -> u32 {
        ((self.seg as u32) << 4) + self.off as u32
    }
}

/// The symbols of a profile in one load, by address.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    /// The profile's name.
    pub profile: String,
    /// Sorted by linear address.
    list: Vec<Symbol>,
}

/// How far past a code symbol an address is still named after it.
const NEAR: u16 = 0x400;

impl Symbols {
    /// The symbols of `profile` with its segments at `segs`.
    pub fn new(profile: &Profile, segs: Segments) -> Symbols {
        let routines: Vec<u16> = profile
            .routines
            .keys()
            .filter_map(|r| profile.routine(r).ok())
            .map(|r| r.entry)
            .collect();
        let mut list: Vec<Symbol> = profile
            .symbols
            .iter()
            .map(|(name, &(section, off))| {
                let seg = match section {
                    Seg::Code => segs.code,
                    Seg::Data => segs.data,
                    Seg::Stack => segs.stack,
                };
                Symbol {
                    name: name.clone(),
                    section,
                    seg,
                    off,
                    routine: section == Seg::Code && routines.contains(&off),
                }
            })
            .collect();
        list.sort_by_key(|s| (s.linear(), s.name.clone()));
        Symbols {
            profile: profile.name.clone(),
            list,
        }
    }

    /// Every symbol, by address.
    pub fn all(&self) -> &[Symbol] {
        &self.list
    }

    /// The symbol called `name` (case does not matter; `-` and `_` are
    /// the same).
    pub fn get(&self, name: &str) -> Option<&Symbol> {
        let norm = |s: &str| s.to_ascii_lowercase().replace('-', "_");
        let want = norm(name);
        self.list.iter().find(|s| norm(&s.name) == want)
    }

    /// The code symbol at exactly `seg:off`.
    pub fn label(&self, seg: u16, off: u16) -> Option<&Symbol> {
        self.list
            .iter()
            .find(|s| s.section == Seg::Code && s.seg == seg && s.off == off)
    }

    /// The nearest code symbol of segment `seg` at or below `off` (within
    /// 400h bytes).
    pub fn nearest(&self, seg: u16, off: u16) -> Option<&Symbol> {
        self.list
            .iter()
            .filter(|s| {
                s.section == Seg::Code && s.seg == seg && s.off <= off && off - s.off < NEAR
            })
            .max_by_key(|s| (s.off, s.routine))
    }

    /// `seg:off` as `symbol+delta` after the nearest code symbol of the
    /// same segment at or below it (within 400h bytes).
    pub fn describe(&self, seg: u16, off: u16) -> Option<String> {
        let s = self.nearest(seg, off)?;
        Some(if s.off == off {
            s.name.clone()
        } else {
            format!("{}+{:X}", s.name, off - s.off)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_replica_profile_names_its_routines_and_tables() {
        let p = Profile::builtin("replica").expect("built-in profile");
        let segs = Segments {
            code: 0x1000,
            data: 0x2000,
            stack: 0x2000,
        };
        let s = Symbols::new(&p, segs);
        let f = s.get("FOUNTAIN").expect("fountain");
        assert_eq!((f.seg, f.off, f.routine), (0x1000, 0xDB1A, true));
        let t = s.get("params").expect("params");
        assert_eq!((t.seg, t.off, t.routine), (0x2000, 0x7935, false));
        assert_eq!(
            s.label(0x1000, 0xDB1A).map(|s| s.name.as_str()),
            Some("fountain")
        );
        assert_eq!(s.describe(0x1000, 0xDB20).as_deref(), Some("fountain+6"));
        assert_eq!(s.describe(0x1001, 0xDB20), None);
    }
}
