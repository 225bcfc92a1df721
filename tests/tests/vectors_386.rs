//! The 386 real-mode instruction vectors (`shared/vectors/386-real`, 924
//! forms, 228,180 tests recorded with Unicorn): the 386 model passes every
//! one, exceptions included (compared at the fault, before delivery).

mod common;

use emu::CpuModel;

#[test]
fn all_386_real_mode_vectors_pass() {
    let dir = common::data_dir("vectors/386-real");
    common::run_suite(&dir, CpuModel::I386, 900, 228_000, 1.0);
}
