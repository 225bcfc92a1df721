//! `tandem bench --ui`: what the window costs a running program. The
//! debugger runs a program for some emulated seconds twice, side by side
//! in one process: alone, and serving the window while a client on
//! another thread refreshes it as the page does (every view, the memory
//! view on the parameter table, the screen's PNG, each 120 ms after the
//! last answer). The ratio of the two is this host's.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::http::{self, After};
use super::state::Ui;
use crate::app::error::Error;
use crate::app::options::{DosOpts, MachineOpts};
use crate::debug::engine::{Debugger, Stop};
use crate::debug::protocol::new_token;
use crate::debug::{start, Start};
use crate::golden::live::Live;
use crate::golden::profile::Chosen;

/// The page's refresh period while a program runs (ui.js).
const REFRESH: Duration = Duration::from_millis(120);

/// What the window benchmark measured.
#[derive(Clone, Debug)]
pub struct UiBench {
    /// Emulated seconds run each time.
    pub seconds: u64,
    /// Host time without the window (the best of the runs).
    pub alone: Duration,
    /// Host time serving the window (the best of the runs).
    pub window: Duration,
    /// Refreshes the client made in the fastest window run.
    pub refreshes: u64,
}

impl UiBench {
    /// How much slower the program runs with the window, in percent.
    pub fn slowdown_percent(&self) -> f64 {
        (self.window.as_secs_f64() / self.alone.as_secs_f64().max(1e-9) - 1.0) * 100.0
    }
}

fn debugger(
    program: &Path,
    machine: &MachineOpts,
    mount: &Path,
    profile: Option<&str>,
) -> Result<Debugger, Error> {
    let dos = DosOpts {
        mount: Some(mount.to_path_buf()),
        no_xms: false,
        no_ems: false,
        disk_quota: dos::quota::DEFAULT_QUOTA >> 20,
        cdrom: Vec::new(),
        cdrom_dir: Vec::new(),
    };
    let mut d = start(&Start {
        program,
        args: &[],
        machine,
        dos: &dos,
        load_state: None,
        history_mib: crate::debug::history::DEFAULT_MIB,
    })?;
    if let Some(p) = profile {
        let image = std::fs::read(program).map_err(|e| Error::file(program, e))?;
        let name = program
            .file_name()
            .map_or("PROGRAM".into(), |n| n.to_string_lossy().to_uppercase());
        let live = Live::new(Chosen::open(p)?, &image, &name, &mut d.core)?;
        d.observer = Some(Box::new(live));
    }
    Ok(d)
}

/// Runs `program` for `seconds` emulated seconds alone and with the
/// window, `runs` times each, alternating; `profile`: with that
/// profile's lock-step check in both.
pub fn measure(
    program: &Path,
    machine: &MachineOpts,
    mount: &Path,
    seconds: u64,
    runs: usize,
    profile: Option<&str>,
) -> Result<UiBench, Error> {
    let mut best = UiBench {
        seconds,
        alone: Duration::MAX,
        window: Duration::MAX,
        refreshes: 0,
    };
    for _ in 0..runs.max(1) {
        let mut d = debugger(program, machine, mount, profile)?;
        let cycles = seconds * d.core.m.config().cpu_hz;
        let t = Instant::now();
        let stop = d.cont(cycles);
        best.alone = best.alone.min(t.elapsed());
        if !matches!(stop, Stop::Limit) {
            return Err(Error::Input(format!("the program stopped first: {stop:?}")));
        }
        let d = debugger(program, machine, mount, profile)?;
        let (took, refreshes) = with_window(Ui::new(d, None, None), cycles)?;
        if took < best.window {
            best.window = took;
            best.refreshes = refreshes;
        }
    }
    Ok(best)
}

/// Runs the window's loop until `cycles` more have run, a client
/// refreshing it; the time and the refreshes.
fn with_window(mut ui: Ui, cycles: u64) -> Result<(Duration, u64), Error> {
    let token = new_token().map_err(|e| Error::Input(format!("no random token: {e}")))?;
    let server = tiny_http::Server::http(("127.0.0.1", 0))
        .map_err(|e| Error::Input(format!("a local port: {e}")))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .ok_or_else(|| Error::Input("no local port".into()))?;
    let done = Arc::new(AtomicBool::new(false));
    let count = Arc::new(AtomicU64::new(0));
    let client = {
        let (done, count, token) = (done.clone(), count.clone(), token.clone());
        std::thread::spawn(move || refresher(port, &token, &done, &count))
    };
    let end = ui.d.core.m.cycles() + cycles;
    ui.stop_at = Some(end);
    ui.running = true;
    let t = Instant::now();
    while ui.running {
        while let Ok(Some(req)) = server.try_recv() {
            if http::answer(&mut ui, req, &token) == After::Quit {
                break;
            }
        }
        ui.run_slice();
    }
    let took = t.elapsed();
    done.store(true, Ordering::Relaxed);
    // Answer what is in flight so the client can end.
    let until = Instant::now() + Duration::from_secs(2);
    while !client.is_finished() && Instant::now() < until {
        if let Ok(Some(req)) = server.recv_timeout(Duration::from_millis(20)) {
            http::answer(&mut ui, req, &token);
        }
    }
    Ok((took, count.load(Ordering::Relaxed)))
}

/// The page's refresh loop: a view and the screen, every [`REFRESH`].
fn refresher(port: u16, token: &str, done: &AtomicBool, count: &AtomicU64) {
    let view = r#"{"cmd":"view","mem":"ss:7935","mem_len":256,"follow":true,"code_lines":40}"#;
    while !done.load(Ordering::Relaxed) {
        let t = Instant::now();
        let post = format!(
            "POST /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Tandem-Token: {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{view}",
            view.len()
        );
        let get = format!("GET /screen.png?token={token} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        if exchange(port, &post).is_none() || exchange(port, &get).is_none() {
            return;
        }
        count.fetch_add(1, Ordering::Relaxed);
        if let Some(rest) = REFRESH.checked_sub(t.elapsed()) {
            std::thread::sleep(rest);
        }
    }
}

/// One request on its own connection; the response's length.
fn exchange(port: u16, request: &str) -> Option<usize> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    s.write_all(request.as_bytes()).ok()?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).ok()?;
    Some(out.len())
}
