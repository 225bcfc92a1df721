//! The committed QEMU x87 vectors (`tests/vectors/x87-qemu`, recorded by
//! `tools/genx87/genqemu.py` with QEMU 7.2's qemu-i386) against the x87
//! core: the status flags, C1, denormal, SNaN and invalid-encoding operands
//! are checked, which the Unicorn set cannot; the tests where QEMU departs
//! from Intel's manual are skipped and counted per code.

mod common;

use common::genx87::{run_vectors, vector_dir};
use emu::CpuModel;

/// The forms genqemu.py records: every x87 form of genx87, the
/// transcendentals and FPREM/FPREM1 included.
const FORMS: usize = 120;

#[test]
fn qemu_x87_vectors_pass_on_the_387() {
    run_vectors(&vector_dir("x87-qemu"), CpuModel::I386, FORMS);
}

#[test]
fn qemu_x87_vectors_pass_on_the_486() {
    run_vectors(&vector_dir("x87-qemu"), CpuModel::I486, FORMS);
}
