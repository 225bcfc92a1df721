//! Fuzz target for the time-travel commands: console lines (`rs`, `rn`,
//! `rc`, `rf`, `goto`, `history` with random arguments, between short
//! forward runs and breakpoints) on a debugger keeping a history of
//! roms/devices/joytest.com, which writes the screen and reads the game
//! port. Each line is parsed as the console parses it; forward runs get a
//! short budget, and commands that name host files (`trace`, `shot`,
//! save states, `bsave`, `bload`) are skipped, so a mutant writes nothing
//! outside its folder. After each input the debugger must still answer.

use std::path::Path;

use super::{engine, temp_dir};
use crate::debug::command::{BreakCmd, Budget, Command, HistoryCmd, MachineCmd, RunCmd};
use crate::debug::console::{parse, Line};
use crate::debug::engine::Debugger;

/// The most instructions one forward step of an input runs.
const MAX_STEPS: u64 = 2_000;
/// The budget of one forward run of an input.
const RUN_CYCLES: u64 = 50_000;

/// joytest.com with a history, run 5,000 instructions in.
fn joytest(mount: &Path) -> Debugger {
    let mut s = super::debugger(mount, "devices/joytest.com");
    s.keep_history(16).expect("a history");
    let _ = s.execute(Command::Run(RunCmd::Step(5_000, Budget::Seconds(60))));
    s
}

/// The command a console line asks for, bounded (forward runs), or None
/// when it is not run here (a host file, the end of the session).
fn bounded(line: &str) -> Option<Command> {
    let Ok(Line::Engine(c)) = parse(line) else {
        return None;
    };
    let short = Budget::Cycles(RUN_CYCLES);
    Some(match c {
        Command::File(_) | Command::Break(BreakCmd::Save(_)) | Command::Quit => return None,
        Command::Run(RunCmd::Step(n, _)) => Command::Run(RunCmd::Step(n.min(MAX_STEPS), short)),
        Command::Run(RunCmd::Over(_)) => Command::Run(RunCmd::Over(short)),
        Command::Run(RunCmd::Out(_)) => Command::Run(RunCmd::Out(short)),
        Command::Run(RunCmd::Continue(_)) => Command::Run(RunCmd::Continue(short)),
        Command::Run(RunCmd::To(a, _)) => Command::Run(RunCmd::To(a, short)),
        other => other,
    })
}

/// Runs one input's lines on `s`; then it must still answer.
fn one_input(s: &mut Debugger, input: &[u8]) {
    for line in String::from_utf8_lossy(input).lines() {
        if let Some(c) = bounded(line) {
            if let Ok(r) = s.execute(c) {
                let _ = crate::debug::text::reply_text(s, &r);
            }
        }
    }
    s.execute(Command::History(HistoryCmd::Info))
        .expect("the history still answers");
    s.execute(Command::Machine(MachineCmd::Regs))
        .expect("the debugger still answers");
}

#[test]
fn fuzz_history() {
    let mount = temp_dir("history");
    let seeds = engine::text_seeds(&[
        "rs\nrs 10\nrn\nrf\nrc\nhistory",
        "s 100\nhistory b800:0 20\nhistory port 201\nhistory 0:46c 4\nrs #50",
        "goto 0\ngoto 0x1000\ngoto 18446744073709551615\nhistory\nrs ffffffff",
        "b cs:ip\nrs 30\nrc\nbd *\nwatch w 0:46c 4\nrc\nrs 1",
        "s 400\nhistory 0:0 ffff\nhistory port 0\nhistory port ffff\nhistory ffffffff 10",
        "c\nrc\nn\nrn\nfinish\nrf\ngo cs:ip\ngoto 5",
        "key abc\ns 1000\nrs 500\nhistory 0:41a 20",
    ]);
    static DICT: &[&[u8]] = &[
        b"\n",
        b"rs ",
        b"rn",
        b"rc",
        b"rf",
        b"goto ",
        b"history ",
        b"port ",
        b"#",
        b"0x",
        b"ffff",
        b"ffffffff",
        b"b800:0",
        b"cs:ip",
        b"s ",
        b"b ",
        b"watch rw ",
        b" 10000",
    ];
    let m = mount.clone();
    // The debugger lives on the fuzzer's thread (it is not Send); a
    // fresh one every 32 inputs keeps the history short.
    thread_local! {
        static STATE: std::cell::RefCell<Option<(Debugger, u32)>> =
            const { std::cell::RefCell::new(None) };
    }
    let n = engine::run("history", 0x4157, seeds, DICT, move |input| {
        STATE.with_borrow_mut(|st| {
            let (s, inputs) = st.get_or_insert_with(|| (joytest(&m), 0));
            *inputs += 1;
            if *inputs % 32 == 0 {
                *s = joytest(&m);
            }
            one_input(s, input);
        });
    });
    let _ = std::fs::remove_dir_all(&mount);
    assert!(n > 7);
}
