//! The errors of the `models` crate: one enum for the crate, wrapping the
//! profile's and the isolated call's own, and the kind of each failure
//! that a binary maps to an exit status.
//!
//! A model disagreeing with the original code is not an error: it is the
//! finding a comparison reports ([`crate::compare::Divergence`],
//! [`crate::sweep::Mismatch`]).

pub use crate::call::CallError;
pub use crate::profile::ProfileError;

/// Why a model could not be set up or a routine of the original run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The profile cannot be parsed or found.
    #[error(transparent)]
    Profile(#[from] ProfileError),
    /// The profile does not name a symbol the routine asked for needs.
    #[error("profile {profile} does not name '{symbol}', which routine {routine} needs")]
    MissingSymbol {
        /// The profile's name.
        profile: String,
        /// The routine asked for.
        routine: String,
        /// The symbol (as the profile would name it).
        symbol: String,
    },
    /// Neither a routine section of the profile nor a registered model.
    #[error("profile {profile} has no routine '{routine}' (models: {known})")]
    UnknownRoutine {
        /// The profile's name.
        profile: String,
        /// The routine asked for.
        routine: String,
        /// The registered models.
        known: String,
    },
    /// A routine's entry that is not a code symbol.
    #[error(
        "profile {profile}: the entry of routine {routine}, '{symbol}', is in [{seg}], not [code]"
    )]
    NotCode {
        /// The profile's name.
        profile: String,
        /// The routine.
        routine: String,
        /// The entry symbol.
        symbol: String,
        /// Its section.
        seg: &'static str,
    },
    /// The routine's model declares no sweep domain.
    #[error("model {model} has no sweep domain")]
    NoDomain {
        /// The model.
        model: &'static str,
    },
    /// A routine of the original program did not return.
    #[error(transparent)]
    Call(#[from] CallError),
    /// The routine's event point was never reached in a whole run where
    /// the model expected events: the profile's address is wrong.
    #[error(
        "routine {routine}: its event point '{symbol}' ({seg:04X}:{off:04X}) was never reached, where the model expects {expected} events: check the profile's address"
    )]
    EventPointNeverHit {
        /// The routine.
        routine: String,
        /// The event point's symbol.
        symbol: &'static str,
        /// Its segment in the program.
        seg: u16,
        /// Its offset.
        off: u16,
        /// Events the model expected over the run.
        expected: u64,
    },
}

/// The kind of a failure, for a binary to choose an exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A profile the user gave or named is wrong (input).
    Profile,
    /// The profile lacks what the command needs (input).
    MissingSymbol,
    /// The original routine halted, hit an unemulated instruction or did
    /// not return (the run, not the input).
    Routine,
}

impl Error {
    /// The kind of this failure.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Profile(_) => ErrorKind::Profile,
            Error::MissingSymbol { .. }
            | Error::UnknownRoutine { .. }
            | Error::NotCode { .. }
            | Error::NoDomain { .. }
            | Error::EventPointNeverHit { .. } => ErrorKind::MissingSymbol,
            Error::Call(_) => ErrorKind::Routine,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_has_its_kind_and_message() {
        let e = Error::MissingSymbol {
            profile: "x".into(),
            routine: "state-selection".into(),
            symbol: "banks".into(),
        };
        assert_eq!(e.kind(), ErrorKind::MissingSymbol);
        assert_eq!(
            e.to_string(),
            "profile x does not name 'banks', which routine state-selection needs"
        );
        let e = Error::from(ProfileError::Unknown { name: "n".into() });
        assert_eq!(e.kind(), ErrorKind::Profile);
        assert!(e
            .to_string()
            .starts_with("unknown profile 'n' (built in: replica,"));
        let e = Error::from(CallError::NoReturn {
            cs: 0x1234,
            ip: 0x10,
            max_steps: 5,
            at_cs: 0x1234,
            at_ip: 0x20,
        });
        assert_eq!(e.kind(), ErrorKind::Routine);
        assert_eq!(
            e.to_string(),
            "the routine at 1234:0010 did not return within 5 instructions (now at 1234:0020)"
        );
    }
}
