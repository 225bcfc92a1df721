//! The `tandem` binary (being written).
fn main() {}
