//! `tandem debug` with commands piped in: a write watchpoint on the
//! replica's clock word (CODE:0BF8) stops after the writing instruction
//! and shows it; stepping, breakpoints, lists and device views.

mod common;

use common::{debug, dos_rom, replica};

#[test]
fn a_write_watchpoint_on_the_clock_word_shows_the_writing_instruction() {
    let (code, out) = debug(
        &replica(),
        &["--cpu", "386", "--dos-layout", "dosbox"],
        "watch w cs:0BF8 2\nc\nc\nbl\nquit\n",
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("stopped at the program's entry"), "{out}");
    // The replica's PSP is at 0192h, DOSBox's first program segment
    // (--dos-layout dosbox reaches the debugger). The
    // initialisation writes 0, then the frame update adds the step.
    let first = out.find("stopped: #0 write of 0h to 02618").expect(&out);
    assert!(out[first..].contains("by     01A2:0129"), "{out}");
    assert!(out[first..].contains("mov word ptr cs:[0BF8h],0"), "{out}");
    let second = out[first + 1..].find("stopped: #0 write").expect(&out) + first + 1;
    let tail = &out[second..];
    assert!(tail.contains("cs:[0BF8h]"), "{tail}");
    // The register line and the bytes that changed, the clock word among them.
    assert!(tail.contains("AX=") && tail.contains("CS=01A2"), "{tail}");
    assert!(
        tail.contains("memory changed:") && tail.contains("  02618 (0261:0008): "),
        "{tail}"
    );
    assert!(out.contains("#0 watch w cs:0BF8 2 (hits 2)"), "{out}");
}

#[test]
fn stepping_breakpoints_and_views() {
    let hello = dos_rom("hello.com");
    let script = "\
s
r
int 21 ah=40
c
bt
n
b cs:126 if ax==1234
b cs:12B if ax==4C07
c
x ds:80 10
e ds:200 41 42 \"CD\"
x ds:200 4
u cs:100 3
ivt 20 2
pit
pic
vga
bogus
c
";
    let (code, out) = debug(&hello, &[], script);
    assert_eq!(code, Some(0), "{out}");
    // MS-DOS 6.22's layout: HELLO.COM's PSP at 04B3h.
    assert!(out.contains("=>     04B3:0100"), "{out}");
    assert!(out.contains("stopped: #0 INT 21h AX=40"), "{out}");
    assert!(out.contains("Hello,"), "{out}");
    assert!(out.contains("stopped: #2 breakpoint"), "{out}");
    assert!(out.contains("=>     04B3:012B"), "{out}");
    assert!(!out.contains("stopped: #1 breakpoint"), "{out}");
    assert!(out.contains("41 42 43 44"), "{out}");
    assert!(out.contains("channel 0: mode 3"), "{out}");
    assert!(out.contains("master: vector base 08h"), "{out}");
    assert!(out.contains("error: unknown command 'bogus'"), "{out}");
    assert!(out.contains("the program exited with code 7"), "{out}");
}

/// A script that loads itself ends with one error
/// naming the nesting, not with the host's stack; the session goes on.
#[test]
fn a_script_that_loads_itself_is_an_error_not_a_crash() {
    let d = common::temp_dir("bload");
    let f = d.join("self.txt");
    let fs = f.to_str().expect("path");
    std::fs::write(&f, format!("bload {fs}\n")).expect("write");
    let hello = dos_rom("hello.com");
    let (code, out) = debug(&hello, &[], &format!("bload {fs}\nr\nq\n"));
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("nest more than"), "{out}");
    assert_eq!(out.matches("error:").count(), 1, "{out}");
    // The session went on: the registers after the error.
    assert!(out.contains("(tandem) r\n"), "{out}");
    // A failing line of a script names the script and the line.
    std::fs::write(&f, "r\nnosuchcommand\n").expect("write");
    let (_, out) = debug(&hello, &[], &format!("bload {fs}\nq\n"));
    assert!(out.contains(&format!("{fs}: line 2:")), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The console's file commands take the rest of the line as the path:
/// `save` and `load` of a state under a name with spaces, `trace` to one.
#[test]
fn console_paths_may_hold_spaces() {
    let hello = common::dos_rom("hello.com");
    let d = common::temp_dir("console-paths");
    let state = d.join("a state.sav");
    let trace = d.join("a trace.txt");
    let (st, tr) = (state.to_str().expect("p"), trace.to_str().expect("p"));
    let script = format!("s 3\nsave {st}\ns 2\nload {st}\ntrace {tr}\ns 2\ntrace off\nq\n");
    let (code, out) = debug(&hello, &[], &script);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains(&format!("state saved to {st}")), "{out}");
    assert!(out.contains(&format!("state loaded from {st}")), "{out}");
    assert!(!out.contains("error:"), "{out}");
    let lines = std::fs::read_to_string(&trace).expect("the trace file");
    assert_eq!(lines.lines().count(), 2, "{lines}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn port_breakpoints_stop_at_the_sound_cards() {
    // (program, breakpoint, what the first stop shows): the AdLib's index
    // port, the SB16 DSP's command port (E1h: the version), the MPU-401's
    // command port (FFh: reset).
    let devices = common::repo().join("roms/devices");
    for (prog, port, stop) in [
        ("opl.com", "388", "port write 0388h <- 4h"),
        ("sb16.com", "22c", "port write 022Ch <- E1h"),
        ("mpu.com", "330-331", "port write 0331h <- FFh"),
    ] {
        let script = format!("port w {port}\nc\nquit\n");
        let (code, out) = debug(&devices.join(prog), &["--cpu", "386"], &script);
        assert_eq!(code, Some(0), "{prog}: {out}");
        assert!(
            out.contains(&format!("stopped: #0 {stop}")),
            "{prog}: {out}"
        );
        assert!(out.contains("out dx,al"), "{prog}: {out}");
    }
}

/// Past its memory budget the history drops its oldest part, saying so in
/// one line (once), and the session still runs backwards within what is
/// left; `--history-mib 0` keeps none, and a reverse command says so.
#[test]
fn the_history_keeps_to_its_budget() {
    let (code, out) = debug(
        &replica(),
        &["--cpu", "386", "--history-mib", "1"],
        "c 3\nhistory\nrs\nr\nq\n",
    );
    assert_eq!(code, Some(0), "{out}");
    let full = "the memory budget (1 MiB, --history-mib) is full";
    assert_eq!(out.matches(full).count(), 1, "{out}");
    let summary = out
        .lines()
        .find(|l| l.starts_with("history: cycles "))
        .unwrap_or_else(|| panic!("a history summary in {out}"));
    assert!(!summary.starts_with("history: cycles 0 "), "{summary}");
    assert!(summary.contains(" 2 checkpoints"), "{summary}");
    assert!(!out.contains("error:"), "{out}");

    let (code, out) = debug(
        &replica(),
        &["--cpu", "386", "--history-mib", "0"],
        "s\nrs\nq\n",
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("error: no history is kept"), "{out}");
}
