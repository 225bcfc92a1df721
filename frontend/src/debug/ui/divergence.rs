//! `tandem run --check --ui`: the window opened at the first divergence.
//! The machine is rebuilt from the check's last checkpoint and run
//! forwards in the debugger, the input delivered since the checkpoint
//! given again at its cycles, to the divergent frame point; so the
//! timeline holds everything from the checkpoint on (where the slot was
//! last written, usually), and the golden-master view holds the report.

use crate::app::error::Error;
use crate::app::savestate;
use crate::debug::engine::{Debugger, Stop};
use crate::debug::history::DEFAULT_MIB;
use crate::golden::check::Check;
use crate::golden::symbols::Symbols;
use crate::input::record::{Event, Input};

use super::state::{Golden, Marker, Ui};

/// The window's state at the divergence `check` found, the input `events`
/// delivered since its last checkpoint given again.
pub fn at_divergence(check: &Check, events: &[Event]) -> Result<Ui, Error> {
    let report = check
        .report
        .clone()
        .ok_or_else(|| Error::Input("--check --ui: no divergence to open".into()))?;
    let cp = check
        .checkpoint
        .as_ref()
        .ok_or_else(|| Error::Input("--check --ui: the check kept no checkpoint".into()))?;
    let mount = check.setup.mount.clone();
    let snap = savestate::load_bytes(&cp.state, &mount)?;
    let mut d = Debugger::new(snap.machine, snap.dos, mount);
    d.core.frames = cp.video_frames;
    d.keep_history(DEFAULT_MIB)
        .map_err(|e| Error::Input(format!("--check --ui: the history: {e}")))?;
    for e in events {
        run_to(&mut d, e.cycle)?;
        if let Input::End { .. } = e.input {
            continue;
        }
        crate::input::player::apply(e, &mut d.core.m, &mut d.core.dos);
        // The history keeps it as a change at this cycle.
        d.touched();
    }
    run_to(&mut d, report.cycle)?;
    let symbols = Symbols::new(&check.setup.chosen.profile, check.watch().segs());
    let writer = report
        .written_by
        .as_ref()
        .and_then(|w| seg_off(&w.instruction));
    let golden = Golden {
        status: Some(check.status()),
        frames: check.frame_log.iter().copied().collect(),
        report: Some(report.clone()),
        writer,
    };
    let mut ui = Ui::new(d, Some(symbols), Some(golden));
    ui.mark(Marker {
        cycle: report.cycle,
        kind: "divergence",
        text: format!(
            "divergence at frame point {}: {}",
            report.frame, report.what
        ),
    });
    if let Some(w) = &report.written_by {
        if w.cycle >= cp.cycle {
            ui.mark(Marker {
                cycle: w.cycle,
                kind: "breakpoint",
                text: format!("the slot's last write: {}", w.instruction),
            });
        }
    }
    let mut stop = serde_json::Map::new();
    stop.insert("stop".into(), serde_json::json!("divergence"));
    ui.last_stop = serde_json::Value::Object(stop);
    Ok(ui)
}

/// Runs `d` to `cycle` (no breakpoints are set); the program must not
/// stop first.
fn run_to(d: &mut Debugger, cycle: u64) -> Result<(), Error> {
    let now = d.core.m.cycles();
    if cycle <= now {
        return Ok(());
    }
    match d.cont(cycle - now) {
        Stop::Limit => Ok(()),
        other => Err(Error::Input(format!(
            "--check --ui: the replay from the checkpoint stopped before the divergence: {other:?}"
        ))),
    }
}

/// CS:IP at the start of a disassembly line (`013A:DB4F  ...`).
pub fn seg_off(line: &str) -> Option<(u16, u16)> {
    let (s, rest) = line.trim().split_once(':')?;
    let o = rest.get(..4)?;
    Some((
        u16::from_str_radix(s, 16).ok()?,
        u16::from_str_radix(o, 16).ok()?,
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_writer_line_gives_its_address() {
        assert_eq!(
            super::seg_off("013A:DB4F  add [di+7947h],dx"),
            Some((0x13A, 0xDB4F))
        );
        assert_eq!(super::seg_off("nonsense"), None);
    }
}
