//! The one place models are registered: a model is known to profiles and
//! to every command (`call`, `sweep`, `compare`, `trace`) once it is in
//! [`MODELS`].

use crate::model::Model;

/// Every registered model.
pub static MODELS: &[&dyn Model] = &[
    &crate::fountain::Fountain,
    &crate::landing::Landing,
    &crate::state::StateSelection,
    &crate::lookup::ParamLookup,
    &crate::draw::Draw,
];

/// The model named `name`.
pub fn find(name: &str) -> Option<&'static dyn Model> {
    MODELS.iter().copied().find(|m| m.name() == name)
}

/// The registered models' names.
pub fn names() -> Vec<&'static str> {
    MODELS.iter().map(|m| m.name()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{MAX_INPUTS, MAX_OUTPUTS};

    /// What the sweep engine relies on: unique names, at most
    /// MAX_INPUTS inputs and MAX_OUTPUTS compared values, defaults within
    /// their largest.
    #[test]
    fn every_model_fits_the_engine() {
        let mut names = names();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), MODELS.len(), "model names are unique");
        for m in MODELS {
            let i = m.interface();
            assert!(i.inputs.len() <= MAX_INPUTS, "{}", m.name());
            assert!(i.output_len() <= MAX_OUTPUTS, "{}", m.name());
            assert!(i.output_len() > 0, "{}", m.name());
            assert!(i.values.iter().all(|v| v.default <= v.max), "{}", m.name());
            assert_eq!(find(m.name()).map(|f| f.name()), Some(m.name()));
        }
    }
}
