//! Self-modifying code (issue 17): roms/devices/smc.com patches code it runs
//! later, code it is running and the very next instruction. A decoded-
//! instruction cache must keep every one of these outputs on every CPU
//! model. They are the core's results today: it decodes every instruction
//! from memory when the instruction starts, so each store is seen by the
//! next instruction fetched (a real 8086 or 286 would run the old bytes of
//! the next instruction from its prefetch queue; emu/tests/smc_queue.rs
//! pins the same cases in the 8086's cycle-exact mode).

mod common;

use common::{headless, repo, s, text};

/// The output line of smc.com on `cpu`.
fn smc(cpu: &str) -> String {
    let prog = repo().join("roms/devices/smc.com");
    let o = headless(&["--cpu", cpu, s(&prog)]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    text(&o.stdout)
}

#[test]
fn patched_code_runs_exactly_on_every_cpu_model() {
    // add=000F: the ADD's immediate, patched to 5, 4, 3, 2, 1 before each
    // call, is seen every time. self=08: an ADD into its own immediate runs
    // with the immediate it was fetched with (1, 2, 4) and the next pass
    // sees the new one. rep=0000,0000: REP STOSB overwriting itself runs
    // its four stores (CX = 0) and the two INC BX it overwrote with NOPs do
    // not run. next=22: the store into the next instruction is seen.
    // irq=000A: the IRQ0 handler's ADD immediate, patched to 4, 3, 2, 1
    // before each tick, is seen by every tick.
    let want = "add=000F self=08 rep=0000,0000 next=22 irq=000A\n";
    for cpu in ["8086", "286", "386", "486"] {
        assert_eq!(smc(cpu), want, "--cpu {cpu}");
    }
}
