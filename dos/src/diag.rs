//! Diagnostics: the services a program asked for that tandem does not
//! implement, logged once each for the caller to show (`tandem run`
//! reports them when the program ends).

use std::collections::BTreeSet;

/// The log of unimplemented services: one warning per (interrupt, AH,
/// AL).
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Diagnostics {
    /// The (interrupt, AH, AL) already warned about.
    warned: BTreeSet<(u8, u8, u8)>,
    /// The warnings, in the order they came.
    warnings: Vec<String>,
}

impl Diagnostics {
    /// Logs one warning per unimplemented (interrupt, AH, AL).
    pub fn unimplemented(&mut self, int: u8, ah: u8, al: u8) {
        if self.warned.insert((int, ah, al)) {
            let msg = format!("INT {int:02X}h AH={ah:02X}h AL={al:02X}h is not implemented");
            log::warn!("{msg}");
            self.warnings.push(msg);
        }
    }

    /// The warnings so far, oldest first.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }
}
