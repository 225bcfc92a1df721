//! The committed x87 vectors (`tests/vectors/x87`, 120 forms recorded with
//! Unicorn by `tools/genx87`) against the x87 core: every test without a
//! departure passes, with a 387 beside the 386 and with the 486's on-chip
//! unit; the tests where Unicorn departs from Intel's manual are skipped and
//! counted per code.

mod common;

use common::genx87::{run_vectors, vector_dir};
use emu::CpuModel;

#[test]
fn x87_vectors_pass_on_the_387() {
    run_vectors(&vector_dir("x87"), CpuModel::I386, 120);
}

#[test]
fn x87_vectors_pass_on_the_486() {
    run_vectors(&vector_dir("x87"), CpuModel::I486, 120);
}
