//! Single-step suite reader and runner (being written).
