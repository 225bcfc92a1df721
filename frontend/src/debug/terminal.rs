//! The console at a terminal (line editing and history), a pipe (one
//! command per line) or a script file: each line through
//! [`super::console::execute`], its text printed.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use super::console;
use super::engine::{Debugger, Stop};
use super::text;
use crate::app::error::Error;

/// Serves the console: says where the program stopped, runs `script`'s
/// lines, then reads commands from the terminal or stdin's pipe until
/// `quit` or the end of the input.
pub fn serve(s: &mut Debugger, script: Option<&Path>) -> Result<(), Error> {
    let mut stdout = std::io::stdout();
    let _ = writeln!(stdout, "tandem debug: stopped at the program's entry");
    let _ = write!(stdout, "{}", text::stop_text(s, &Stop::Stepped));
    if let Some(f) = script {
        let body = std::fs::read_to_string(f).map_err(|e| Error::file(f, e))?;
        for l in body.lines() {
            if one(s, l, true) {
                return Ok(());
            }
        }
    }
    if std::io::stdin().is_terminal() {
        repl(s);
    } else {
        for l in std::io::stdin().lock().lines() {
            let Ok(l) = l else { break };
            if one(s, &l, true) {
                break;
            }
        }
    }
    Ok(())
}

/// Runs one command and prints its result; true to quit.
fn one(s: &mut Debugger, line: &str, echo: bool) -> bool {
    let mut out = std::io::stdout();
    if echo {
        let _ = writeln!(out, "(tandem) {line}");
    }
    let r = console::execute(s, line);
    match r {
        Ok(o) => {
            if !o.text.is_empty() {
                let _ = write!(out, "{}", o.text);
                if !o.text.ends_with('\n') {
                    let _ = writeln!(out);
                }
            }
            let _ = out.flush();
            o.quit
        }
        Err(e) => {
            let _ = writeln!(out, "error: {e}");
            false
        }
    }
}

fn repl(s: &mut Debugger) {
    let Ok(mut ed) = rustyline::DefaultEditor::new() else {
        return;
    };
    let hist = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".tandem_history"));
    if let Some(h) = &hist {
        let _ = ed.load_history(h);
    }
    let mut last = String::new();
    while let Ok(l) = ed.readline("(tandem) ") {
        // An empty line repeats the last command (as gdb does).
        let l = if l.trim().is_empty() { last.clone() } else { l };
        if !l.trim().is_empty() {
            let _ = ed.add_history_entry(l.as_str());
        }
        last = l.clone();
        if one(s, &l, false) {
            break;
        }
    }
    if let Some(h) = &hist {
        let _ = ed.save_history(h);
    }
}
