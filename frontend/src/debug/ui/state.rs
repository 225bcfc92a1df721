//! The visual debugger's state beside the engine: whether the program is
//! running, what the machine looked like at the last two stops (so the
//! views can show what changed), the timeline's markers, the profile's
//! symbols and the golden master's panel.

use serde_json::{json, Map, Value};

use crate::debug::command::{Command, Regs, Reply};
use crate::debug::engine::{Debugger, Stop};
use crate::debug::error::Result;
use crate::golden::symbols::Symbols;

/// The first MiB and the HMA: the memory whose changes the views mark.
const SNAPSHOT_LEN: usize = 0x11_0000;
/// The most markers the timeline keeps (the oldest go first).
const MAX_MARKERS: usize = 4096;

/// A mark on the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    /// Its cycle.
    pub cycle: u64,
    /// `breakpoint` or `divergence`.
    pub kind: &'static str,
    /// What happened there.
    pub text: String,
}

/// The golden master's panel (`--profile`; `run --check --ui`).
#[derive(Clone, Debug, Default)]
pub struct Golden {
    /// The lock-step status line (frames checked, divergences).
    pub status: Option<String>,
    /// The status of each frame point checked, oldest first (cycle, ok).
    pub frames: Vec<(u64, bool)>,
    /// The first divergence's report, as its lines and as data.
    pub report: Option<crate::golden::report::Report>,
    /// CS:IP of the instruction that wrote the divergent slot.
    pub writer: Option<(u16, u16)>,
}

/// The machine at a stop.
struct Seen {
    regs: Regs,
    mem: Vec<u8>,
}

/// The debugger with what the window adds.
pub struct Ui {
    /// The engine.
    pub d: Debugger,
    /// The profile's symbols in this load.
    pub symbols: Option<Symbols>,
    /// The golden master's panel.
    pub golden: Option<Golden>,
    /// Running (a slice at a time) until a stop or a pause.
    pub running: bool,
    /// The temporary breakpoint of a run to the cursor.
    pub temp_bp: Option<usize>,
    /// Why the machine last stopped, as the protocol says it.
    pub last_stop: Value,
    /// The timeline's markers.
    pub markers: Vec<Marker>,
    /// The guest's text output so far (the last 64 KiB).
    pub output: String,
    /// The machine at the last stop and the one before.
    now: Seen,
    before: Seen,
    /// CPU clocks per running slice (adapts to about 30 ms of host time).
    pub slice: u64,
    /// A run stops at this cycle (the window's benchmark).
    pub stop_at: Option<u64>,
}

impl Ui {
    /// The window's state over `d`, stopped where `d` stands.
    pub fn new(d: Debugger, symbols: Option<Symbols>, golden: Option<Golden>) -> Ui {
        let seen = || Seen {
            regs: d.regs(),
            mem: snapshot(&d),
        };
        let (now, before) = (seen(), seen());
        let slice = (d.core.m.config().cpu_hz / 100).max(10_000);
        Ui {
            symbols,
            golden,
            running: false,
            temp_bp: None,
            last_stop: json!({"stop": "start"}),
            markers: Vec::new(),
            output: String::new(),
            now,
            before,
            slice,
            stop_at: None,
            d,
        }
    }

    /// Takes in a stop: the machine now becomes "the last stop", what was
    /// the last becomes "the one before" (the views mark the difference).
    pub fn stopped(&mut self, stop: Map<String, Value>) {
        if let Some(Value::String(o)) = stop.get("output") {
            self.add_output(o);
        }
        if stop.get("stop").and_then(Value::as_str) == Some("divergence") {
            let what = stop.get("message").and_then(Value::as_str).unwrap_or("");
            self.mark(Marker {
                cycle: self.d.core.m.cycles(),
                kind: "divergence",
                text: what.to_string(),
            });
        }
        if stop.get("stop").and_then(Value::as_str) == Some("hook") {
            let text = stop
                .get("by")
                .and_then(|b| b.get("text"))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let hook = stop.get("hook").and_then(Value::as_u64).unwrap_or(0);
            self.mark(Marker {
                cycle: self.d.core.m.cycles(),
                kind: "breakpoint",
                text: format!("breakpoint {hook}: {text}"),
            });
        }
        self.last_stop = Value::Object(stop);
        self.running = false;
        if let Some(n) = self.temp_bp.take() {
            if let Some(slot) = self.d.bps.get_mut(n) {
                *slot = None;
            }
        }
        let seen = Seen {
            regs: self.d.regs(),
            mem: snapshot(&self.d),
        };
        self.before = std::mem::replace(&mut self.now, seen);
    }

    /// Adds a marker (once per cycle and kind).
    pub fn mark(&mut self, m: Marker) {
        if self
            .markers
            .iter()
            .any(|x| x.cycle == m.cycle && x.kind == m.kind)
        {
            return;
        }
        self.markers.push(m);
        self.markers.sort_by_key(|m| m.cycle);
        if self.markers.len() > MAX_MARKERS {
            self.markers.remove(0);
        }
    }

    fn add_output(&mut self, o: &str) {
        self.output.push_str(o);
        if self.output.len() > 0x1_0000 {
            let cut = self.output.len() - 0x1_0000;
            let cut = (cut..self.output.len())
                .find(|&i| self.output.is_char_boundary(i))
                .unwrap_or(0);
            self.output.drain(..cut);
        }
    }

    /// The registers and memory the views compare with: while running,
    /// the last stop; while stopped, the stop before it.
    pub fn base(&self) -> (&Regs, &[u8]) {
        let s = if self.running {
            &self.now
        } else {
            &self.before
        };
        (&s.regs, &s.mem)
    }

    /// Carries out an engine command; a stop is taken in.
    pub fn execute(&mut self, cmd: Command) -> Result<Map<String, Value>> {
        let r = self.d.execute(cmd)?;
        let stopped = matches!(r, Reply::Stopped { .. });
        let m = crate::debug::protocol::reply::json(&self.d, r);
        if stopped {
            self.stopped(m.clone());
        }
        Ok(m)
    }

    /// Runs one slice of a run; a stop other than the slice's end ends it.
    pub fn run_slice(&mut self) {
        let t = std::time::Instant::now();
        let now = self.d.core.m.cycles();
        let slice = match self.stop_at {
            Some(end) if end <= now => {
                self.pause();
                return;
            }
            Some(end) => self.slice.min(end - now),
            None => self.slice,
        };
        let stop = self.d.cont(slice);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        // About 30 ms a slice: requests are answered that often.
        if ms > 0.5 {
            let want = (self.slice as f64 * 30.0 / ms).clamp(1_000.0, 1e9) as u64;
            self.slice = (self.slice + want) / 2;
        } else {
            self.slice = self.slice.saturating_mul(2).min(1_000_000_000);
        }
        let out = self.d.take_output();
        if !out.is_empty() {
            self.add_output(&String::from_utf8_lossy(&out));
        }
        if matches!(stop, Stop::Limit) {
            return;
        }
        let r = Reply::Stopped {
            stop,
            output: Vec::new(),
        };
        let m = crate::debug::protocol::reply::json(&self.d, r);
        self.stopped(m);
    }

    /// Pauses a run where it is.
    pub fn pause(&mut self) {
        if !self.running {
            return;
        }
        let r = Reply::Stopped {
            stop: Stop::Stepped,
            output: Vec::new(),
        };
        let mut m = crate::debug::protocol::reply::json(&self.d, r);
        m.insert("stop".into(), json!("paused"));
        self.stopped(m);
    }
}

/// The memory the views mark changes in.
fn snapshot(d: &Debugger) -> Vec<u8> {
    let b = d.core.m.bus.mem.bytes();
    b[..b.len().min(SNAPSHOT_LEN)].to_vec()
}
