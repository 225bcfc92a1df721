//! The committed 486 real-mode vectors (`tests/vectors/486-real`, 60 forms
//! of XADD, CMPXCHG, BSWAP, INVD and WBINVD recorded with Unicorn by
//! `tools/genx87`) against the 486 model: every test without a departure
//! passes, #UD included.

mod common;

use common::genx87::{run_vectors, vector_dir};
use emu::CpuModel;

#[test]
fn i486_real_mode_vectors_pass() {
    run_vectors(&vector_dir("486-real"), CpuModel::I486, 60);
}
