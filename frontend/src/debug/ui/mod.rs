//! The visual debugger (`tandem debug --ui`, docs/debugger.md "The
//! window"): a page served on 127.0.0.1 for a browser, over the same
//! engine as the console, the protocol and the GDB stub. The views
//! (screen, code, registers, stack, memory, devices, timeline, golden
//! master) are drawn by the page's script from one JSON refresh
//! ([`views`]) and two pictures ([`pictures`]); the engine runs on this
//! thread in slices of about 30 ms between which requests are answered
//! ([`state`]), so a running program is watched live.
//!
//! Why a web page rather than a native window: it needs no GPU and no
//! windowing toolkit (it works over SSH port forwarding and under Xvfb
//! with software rendering), it renders text and tables well, and a
//! headless Chromium drives and photographs it in the tests the way a
//! person uses it. The token the protocol uses guards it.

pub mod api;
pub mod bench;
pub mod devices;
pub mod divergence;
pub mod http;
pub mod pictures;
pub mod state;
pub mod views;

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use super::engine::Debugger;
use super::protocol::{new_token, write_token_file};
use crate::app::error::input_error;
use crate::golden::symbols::Symbols;
use http::After;
pub use state::{Golden, Marker, Ui};

/// How the window is served.
pub struct Serve<'a> {
    /// The local port (0: any free one).
    pub port: u16,
    /// Also write the token to this file (mode 0600).
    pub token_file: Option<&'a Path>,
    /// Start the user's browser on the page.
    pub open_browser: bool,
}

/// Serves the window over `d` until the page asks to quit.
pub fn serve(
    d: Debugger,
    symbols: Option<Symbols>,
    golden: Option<Golden>,
    how: &Serve,
) -> ExitCode {
    serve_ui(Ui::new(d, symbols, golden), how)
}

/// Serves the window over a prepared [`Ui`] (markers, golden panel).
pub fn serve_ui(mut ui: Ui, how: &Serve) -> ExitCode {
    let token = match new_token() {
        Ok(t) => t,
        Err(e) => return input_error("debug", format!("no random token: {e}")),
    };
    let server = match tiny_http::Server::http(("127.0.0.1", how.port)) {
        Ok(s) => s,
        Err(e) => return input_error("debug", format!("--ui-port {}: {e}", how.port)),
    };
    if let Some(f) = how.token_file {
        if let Err(e) = write_token_file(f, &token) {
            return input_error("debug", super::error::Error::io(f, e));
        }
    }
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .unwrap_or(how.port);
    let url = format!("http://127.0.0.1:{port}/?token={token}");
    eprintln!("tandem debug: window on {url}");
    if how.open_browser {
        open_browser(&url);
    }
    loop {
        // While running, take what has come and run a slice; while
        // stopped, wait for the page.
        let next = if ui.running {
            server.try_recv()
        } else {
            server.recv_timeout(Duration::from_millis(250))
        };
        match next {
            Ok(Some(req)) => {
                if http::answer(&mut ui, req, &token) == After::Quit {
                    break;
                }
                continue;
            }
            Ok(None) => {}
            Err(e) => {
                eprintln!("tandem debug: window: {e}");
                break;
            }
        }
        if ui.running {
            ui.run_slice();
        }
    }
    let _ = ui.d.set_trace(None);
    ExitCode::SUCCESS
}

/// Starts a browser on `url`: `$BROWSER` when set, else the desktop's
/// opener. Failing is no error (the address is printed).
fn open_browser(url: &str) {
    let cmd = std::env::var("BROWSER")
        .ok()
        .filter(|b| !b.trim().is_empty());
    let opener = cmd.as_deref().unwrap_or(if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    });
    let spawned = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        eprintln!(
            "tandem debug: could not start a browser ({opener}: {e}); open the address above"
        );
    }
}
