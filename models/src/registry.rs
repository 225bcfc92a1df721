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
];

/// The model named `name`.
pub fn find(name: &str) -> Option<&'static dyn Model> {
    MODELS.iter().copied().find(|m| m.name() == name)
}

/// The registered models' names.
pub fn names() -> Vec<&'static str> {
    MODELS.iter().map(|m| m.name()).collect()
}
