//! The headless loop: frames as fast as the host goes, guest text to a
//! writer (stdout for `tandem run`), a progress bar on stderr for long runs
//! at a terminal.

use std::io::{IsTerminal, Write};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::run::{Outcome, Run};

/// Runs until the program ends or a limit; returns how it ended. The
/// guest's text goes to `out`; `bar`: a progress bar when it is worth one.
pub fn run(run: &mut Run, out: &mut impl Write, bar: bool) -> Outcome {
    let bar = if bar { progress(run) } else { None };
    let outcome = loop {
        if let Some(k) = run.stdin.as_mut() {
            let text = k.poll();
            run.player.session.dos.type_text(&text);
        }
        let step = run.frame();
        run.player.flush_output(out);
        if let Some(o) = step {
            break o;
        }
        if let Some(b) = &bar {
            b.set_position(match run.frame_limit {
                Some(_) => run.player.session.frames,
                None => run.player.session.m.cycles() / (run.cpu_hz / 100).max(1),
            });
        }
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    outcome
}

/// A progress bar for runs of more than two emulated seconds when stderr
/// is a terminal: frames, or hundredths of an emulated second.
fn progress(run: &Run) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let (len, what) = match (run.frame_limit, run.seconds) {
        (Some(n), _) if n > 140 => (n, "frames"),
        (None, Some(s)) if s > 2.0 => ((s * 100.0) as u64, "1/100 s"),
        _ => return None,
    };
    let b = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    b.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what} ({{eta}} left)"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    Some(b)
}
