//! The visual debugger's acceptance test: a headless Chromium drives
//! `tandem debug --ui` (the page of frontend/src/debug/ui/) on the replica
//! with its profile, the way a person would:
//!
//! - types `fountain` into the code view's address, finds the routine's
//!   first row (CODE:DB1A, under its `fountain:` label) and sets a
//!   breakpoint by clicking its gutter;
//! - runs to it (the current row is the breakpoint's), shows `params` in
//!   the memory view and steps until the view marks changed bytes (the
//!   fountain's REP STOSW fills the heights);
//! - checks that the registers and flags, the changed bytes of the
//!   parameter table and the 256 DAC swatches are those the command-line
//!   debugger reports at the same stop (same breakpoint, same number of
//!   steps): by the page's own data (the elements' `data-*` attributes
//!   and `window.tandemView`) and by a screenshot (each swatch's colour,
//!   the changed bytes' and registers' highlight, and none elsewhere);
//! - drags the timeline's knob back to about 40% and checks the views
//!   follow: the registers, the memory, the DAC, the code view's current
//!   row and the screen's picture are those of the command-line debugger
//!   after `goto` to the same cycle.
//!
//! Skipped (loudly) without chromedriver and Chromium, unless
//! `TANDEM_REQUIRE_CHROMIUM` is set. A failed screenshot check saves the
//! screenshot in the temporary directory and names it.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::replica;
use common::webdriver::{skip_without_chromium, wait_until, Browser, Screenshot};
use serde_json::{json, Value};

/// Bytes of the parameter table the test compares (SS:7935, 16 words).
const TABLE_LEN: u32 = 32;
/// The most steps taken looking for changed bytes.
const MAX_STEPS: usize = 80;
/// How long the page may take to answer an action.
const WAIT: Duration = Duration::from_secs(60);
/// ui.css: `--changed` (a changed byte's background).
const CHANGED: [u8; 3] = [0xff, 0xd7, 0x5f];
/// ui.css: `--changed-bg` (a changed register's value's background).
const CHANGED_REG: [u8; 3] = [0x5a, 0x4a, 0x12];
/// The registers of the console's register lines.
const CONSOLE_REGS: [&str; 14] = [
    "ax", "bx", "cx", "dx", "sp", "bp", "si", "di", "ds", "es", "ss", "cs", "ip", "flags",
];
/// The flags the page shows and their bits (Intel SDM vol. 1, 3.4.3).
const FLAG_BITS: [(&str, u32); 9] = [
    ("OF", 11),
    ("DF", 10),
    ("IF", 9),
    ("TF", 8),
    ("SF", 7),
    ("ZF", 6),
    ("AF", 4),
    ("PF", 2),
    ("CF", 0),
];

/// `tandem debug --ui` on the replica, killed when dropped.
struct Window {
    child: Child,
    url: String,
}

impl Window {
    /// Starts it and reads the page's address from its stderr.
    fn start() -> Window {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
            .args(["debug", "--ui", "--no-browser", "--profile", "replica"])
            .args(["--cpu", "386"])
            .arg(replica())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tandem debug --ui starts");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("[tandem] {line}");
                if let Some(url) = line.split("window on ").nth(1) {
                    let _ = tx.send(url.trim().to_string());
                }
            }
        });
        // From here on the guard kills it, whatever happens.
        let mut w = Window {
            child,
            url: String::new(),
        };
        w.url = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("tandem debug --ui prints the window's address");
        assert!(w.url.starts_with("http://127.0.0.1:"), "{}", w.url);
        w
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the command-line debugger reports at a stop.
#[derive(Debug)]
struct Console {
    /// The registers (16-bit) by lower-case name, from `r`.
    regs: BTreeMap<String, u32>,
    /// The cycle of the register line.
    cycle: u64,
    /// The linear addresses the last step changed (none unless stepped).
    changed: BTreeSet<u32>,
    /// The `x` dump's bytes.
    table: Vec<u8>,
    /// The DAC's 256 entries (6-bit).
    dac: Vec<[u8; 3]>,
    /// The whole output.
    out: String,
}

impl Console {
    /// Breaks on the fountain, continues to it, steps `k` times, goes to
    /// `goto` when given, then dumps the table at `at` (SEG:OFF).
    fn at(k: usize, goto: Option<u64>, at: &str) -> Console {
        let mut script = String::from("b cs:db1a\nc\n");
        script.push_str(&"s\n".repeat(k));
        if let Some(c) = goto {
            script.push_str(&format!("goto {c}\n"));
        }
        // Numbers are hex to the console: 20 is 32 bytes.
        script.push_str(&format!("r\nx {at} {TABLE_LEN:X}\ndac\nq\n"));
        let (code, out) = common::debug(&replica(), &["--cpu", "386"], &script);
        assert_eq!(code, Some(0), "{out}");
        assert!(
            out.contains("stopped: #0 breakpoint") && out.contains(":DB1A  1E"),
            "the console stops on the fountain: {out}"
        );
        let (regs, cycle) = console_regs(&out);
        let seg = at.split(':').next().unwrap_or("").to_uppercase();
        let seg = match seg.as_str() {
            "SS" => format!("{:04X}", regs["ss"]),
            s => format!("{:0>4}", s),
        };
        let off = at.split(':').nth(1).unwrap_or("").to_uppercase();
        let table = dump(&out, &format!("{seg}:{off:0>4}"));
        assert_eq!(table.len(), TABLE_LEN as usize, "the dump of {at}: {out}");
        let changed = if goto.is_none() && k > 0 {
            last_step_changes(&out)
        } else {
            BTreeSet::new()
        };
        Console {
            regs,
            cycle,
            changed,
            table,
            dac: console_dac(&out),
            out,
        }
    }
}

/// The registers and the cycle of the last `r` in `out`.
fn console_regs(out: &str) -> (BTreeMap<String, u32>, u64) {
    let lines: Vec<&str> = out.lines().collect();
    let i = lines
        .iter()
        .rposition(|l| l.trim() == "(tandem) r")
        .unwrap_or_else(|| panic!("no `r` in {out}"));
    let mut regs = BTreeMap::new();
    let mut cycle = None;
    let words: Vec<&str> = lines[i + 1..i + 3]
        .iter()
        .flat_map(|l| l.split_whitespace())
        .collect();
    for (j, w) in words.iter().enumerate() {
        if let Some((n, v)) = w.split_once('=') {
            let v = u32::from_str_radix(v, 16).unwrap_or_else(|_| panic!("{w} in {out}"));
            regs.insert(n.to_lowercase(), v);
        } else if *w == "cycle" {
            cycle = words.get(j + 1).and_then(|c| c.parse().ok());
        }
    }
    for n in CONSOLE_REGS {
        assert!(regs.contains_key(n), "{n} in the register lines: {out}");
    }
    (regs, cycle.unwrap_or_else(|| panic!("no cycle in {out}")))
}

/// The bytes of the hex dump that starts at `at` (e.g. "0EFA:7935"): that
/// line and the lines after it in the same segment.
fn dump(out: &str, at: &str) -> Vec<u8> {
    let seg = &at[..5];
    let mut bytes = Vec::new();
    let lines = out.lines().skip_while(|l| !l.starts_with(at));
    for line in lines.take_while(|l| l.starts_with(seg)) {
        for w in line[at.len()..].split_whitespace() {
            match u8::from_str_radix(w, 16) {
                Ok(b) if w.len() == 2 => bytes.push(b),
                _ => break,
            }
        }
    }
    bytes
}

/// The linear addresses of the bytes the last `s` in `out` reports as
/// changed (`  168E7 (168E:0007): 00 00 -> 80 FE`).
fn last_step_changes(out: &str) -> BTreeSet<u32> {
    let lines: Vec<&str> = out.lines().collect();
    let i = lines
        .iter()
        .rposition(|l| l.trim() == "(tandem) s")
        .unwrap_or_else(|| panic!("no step in {out}"));
    let mut set = BTreeSet::new();
    for l in lines[i + 1..]
        .iter()
        .take_while(|l| !l.starts_with("(tandem)"))
    {
        assert!(!l.contains("more runs"), "every changed run listed: {l}");
        let Some((head, bytes)) = l.trim().split_once("): ") else {
            continue;
        };
        let start = head.split_whitespace().next().unwrap_or("");
        let start = u32::from_str_radix(start, 16).unwrap_or_else(|_| panic!("{l}"));
        let new = bytes.split("->").nth(1).unwrap_or("");
        let n = new.split_whitespace().count() as u32;
        set.extend(start..start + n);
    }
    set
}

/// The 256 entries of the last `dac` in `out` (`II: RR GG BB`, four a
/// line).
fn console_dac(out: &str) -> Vec<[u8; 3]> {
    let words: Vec<&str> = out
        .split("(tandem) dac")
        .last()
        .unwrap_or("")
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("(tandem)"))
        .flat_map(|l| l.split_whitespace())
        .collect();
    let mut dac = vec![None; 256];
    for w in words.chunks(4) {
        let h = |s: &str| u8::from_str_radix(s.trim_end_matches(':'), 16).expect(s);
        let [i, r, g, b] = [h(w[0]), h(w[1]), h(w[2]), h(w[3])];
        dac[i as usize] = Some([r, g, b]);
    }
    dac.into_iter()
        .enumerate()
        .map(|(i, c)| c.unwrap_or_else(|| panic!("DAC entry {i:02X} in {out}")))
        .collect()
}

/// A 6-bit DAC component as 8 bits, as the VGA's DAC widens it.
fn widen(c: u8) -> u8 {
    (c << 2) | (c >> 4)
}

/// Runs `script` in the page; its result.
fn js(b: &Browser, script: &str) -> Value {
    b.execute(script, vec![])
        .unwrap_or_else(|e| panic!("script {script}: {e}"))
}

/// The page's last refresh (`window.tandemView`).
fn view(b: &Browser) -> Value {
    js(b, "return window.tandemView;")
}

/// Waits until the script `cond` (a function body) returns true; panics
/// naming `what`, the page's status and error when it does not.
fn wait_for(b: &Browser, cond: &str, what: &str) {
    let r = wait_until(WAIT, || b.execute(cond, vec![]).map(|v| v == json!(true)));
    if let Err(e) = r {
        let status = js(
            b,
            "return document.getElementById('status').textContent + ' | error: ' + \
             document.getElementById('error').textContent;",
        );
        panic!("{what}: {e}; the page says {status}");
    }
}

/// A number of a JSON value (the page's numbers, or strings of them).
fn num(v: &Value) -> u64 {
    match v {
        Value::Number(n) => n.as_u64().unwrap_or_else(|| panic!("{v}")),
        Value::String(s) => s.parse().unwrap_or_else(|_| panic!("{v}")),
        _ => panic!("not a number: {v}"),
    }
}

/// The registers of the stop report before the last `s` (the stop the
/// page's changed registers are marked against).
fn console_regs_before_last_step(out: &str) -> BTreeMap<String, u32> {
    let lines: Vec<&str> = out.lines().collect();
    let steps: Vec<usize> = (0..lines.len())
        .filter(|&i| matches!(lines[i].trim(), "(tandem) s" | "(tandem) c"))
        .collect();
    let i = steps[steps.len().saturating_sub(2)];
    let j = (i..lines.len())
        .find(|&j| lines[j].starts_with("AX="))
        .unwrap_or_else(|| panic!("no register line after line {i}: {out}"));
    let mut regs = BTreeMap::new();
    for w in lines[j..j + 2].iter().flat_map(|l| l.split_whitespace()) {
        if let Some((n, v)) = w.split_once('=') {
            regs.insert(n.to_lowercase(), u32::from_str_radix(v, 16).expect(w));
        }
    }
    regs
}

/// The console's name of a register the page shows (`eax` is `ax`, `es`
/// stays `es`); None for those the console does not print (FS, GS).
fn console_name(page: &str) -> Option<&str> {
    let n = match page {
        "es" => "es",
        "eflags" => "flags",
        n if n.len() == 3 && n.starts_with('e') => &n[1..],
        n => n,
    };
    CONSOLE_REGS.contains(&n).then_some(n)
}

/// The page's registers and flags equal the console's (the low 16 bits
/// of the e-registers; the page's cycle is the console's). With
/// `before`, the registers marked changed are those that differ from it.
fn check_regs(b: &Browser, c: &Console, before: Option<&BTreeMap<String, u32>>, when: &str) {
    let regs = js(
        b,
        "return [...document.querySelectorAll('#regs .reg')].map((e) => \
         [e.dataset.name, +e.dataset.value, e.classList.contains('changed')]);",
    );
    let v = view(b);
    let mut compared = BTreeSet::new();
    for r in regs.as_array().expect("a list") {
        let name = r[0].as_str().expect("a name");
        let value = num(&r[1]) as u32;
        let listed = v["regs"]["list"]
            .as_array()
            .and_then(|l| l.iter().find(|x| x["name"] == json!(name)))
            .unwrap_or_else(|| panic!("{when}: {name} in tandemView.regs"));
        assert_eq!(num(&listed["value"]) as u32, value, "{when}: #regs {name}");
        let Some(short) = console_name(name) else {
            continue;
        };
        let want = c.regs[short];
        assert_eq!(
            value & 0xFFFF,
            want,
            "{when}: {name} {value:X}h, console {short}={want:04X}h"
        );
        if let Some(before) = before {
            let changed = before[short] != want;
            assert_eq!(
                r[2],
                json!(changed),
                "{when}: {name} marked changed: {changed}"
            );
        }
        compared.insert(short);
    }
    assert_eq!(
        compared.len(),
        CONSOLE_REGS.len(),
        "{when}: registers shown: {regs}"
    );
    let flags = js(
        b,
        "return [...document.querySelectorAll('#flags .flag')].map((e) => [e.dataset.name, e.dataset.set]);",
    );
    let f = c.regs["flags"];
    for (name, bit) in FLAG_BITS {
        let set = flags
            .as_array()
            .and_then(|l| l.iter().find(|x| x[0] == json!(name)))
            .unwrap_or_else(|| panic!("{when}: flag {name} in {flags}"));
        let want = (f >> bit & 1 == 1).to_string();
        assert_eq!(set[1], json!(want), "{when}: flag {name} (FLAGS={f:04X})");
    }
    let status = b.find("#status").and_then(|s| s.attr("data-cycle"));
    let status = status.expect("#status").expect("data-cycle");
    assert_eq!(status, c.cycle.to_string(), "{when}: the cycle");
    assert_eq!(num(&v["cycle"]), c.cycle, "{when}: tandemView.cycle");
}

/// The DAC swatches' colours (their `data-rgb`, their computed
/// background and tandemView's DAC) are the console's, widened to 8 bits.
fn check_dac(b: &Browser, c: &Console, when: &str) {
    let sw = js(
        b,
        "return [...document.querySelectorAll('#dac .swatch')].map((e) => \
         [+e.dataset.index, e.dataset.rgb, getComputedStyle(e).backgroundColor]);",
    );
    let sw = sw.as_array().expect("a list");
    assert_eq!(sw.len(), 256, "{when}: 256 swatches");
    let dac = view(b)["devices"]["vga"]["dac"].clone();
    for (i, s) in sw.iter().enumerate() {
        let [r, g, bl] = c.dac[i].map(widen);
        assert_eq!(num(&s[0]), i as u64, "{when}: swatch order");
        let rgb = format!("rgb({r},{g},{bl})");
        assert_eq!(s[1], json!(rgb), "{when}: swatch {i:02X}h data-rgb");
        assert_eq!(
            s[2],
            json!(format!("rgb({r}, {g}, {bl})")),
            "{when}: swatch {i:02X}h"
        );
        assert_eq!(
            dac[i],
            json!([r, g, bl]),
            "{when}: tandemView's DAC {i:02X}h"
        );
    }
}

/// The memory view's changed bytes are those the console's last step
/// changed there, and some are in the parameter table.
fn check_changed(b: &Browser, c: &Console) {
    let m = view(b)["memory"].clone();
    let linear = num(&m["linear"]) as u32;
    let len = m["hex"].as_str().expect("hex").len() as u32 / 2;
    let page: BTreeSet<u32> = js(
        b,
        "return [...document.querySelectorAll('#mem .byte.changed')].map((e) => +e.dataset.linear);",
    )
    .as_array()
    .expect("a list")
    .iter()
    .map(|x| num(x) as u32)
    .collect();
    let data: BTreeSet<u32> = m["changed"]
        .as_array()
        .expect("changed")
        .iter()
        .map(|i| linear + num(i) as u32)
        .collect();
    assert_eq!(page, data, "the page marks tandemView.memory.changed");
    let console: BTreeSet<u32> = c
        .changed
        .iter()
        .copied()
        .filter(|a| (linear..linear + len).contains(a))
        .collect();
    assert_eq!(page, console, "changed bytes in the memory view: {}", c.out);
    let table = linear..linear + TABLE_LEN;
    assert!(
        page.iter().any(|a| table.contains(a)),
        "changed bytes in the parameter table: {page:X?}"
    );
}

/// Where the elements matching `css` are drawn: for each, its rectangle
/// (x, y, width, height), whether it is on top at its centre, whether it
/// or a parent is marked `changed`, and its `data-index`.
fn rects(b: &Browser, css: &str) -> Vec<(f64, f64, f64, f64, bool, bool, u64)> {
    let v = b
        .execute(
            "return [...document.querySelectorAll(arguments[0])].map((e) => { \
               const r = e.getBoundingClientRect(); \
               const t = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2); \
               return [r.x, r.y, r.width, r.height, !!t && (t === e || e.contains(t)), \
                       !!e.closest('.changed'), +(e.dataset.index || 0)]; });",
            vec![json!(css)],
        )
        .unwrap_or_else(|e| panic!("rects of {css}: {e}"));
    let f = |x: &Value| x.as_f64().expect("a number");
    v.as_array()
        .expect("a list")
        .iter()
        .map(|r| {
            let b = |i: usize| r[i] == json!(true);
            (
                f(&r[0]),
                f(&r[1]),
                f(&r[2]),
                f(&r[3]),
                b(4),
                b(5),
                num(&r[6]),
            )
        })
        .collect()
}

/// Whether two colours are within 2 of each other in every channel.
fn near(a: [u8; 4], b: [u8; 3]) -> bool {
    (0..3).all(|i| a[i].abs_diff(b[i]) <= 2)
}

/// The share of the pixels wholly inside the rectangle that are `colour`.
fn share(shot: &Screenshot, (x, y, w, h): (f64, f64, f64, f64), colour: [u8; 3]) -> f64 {
    let (x0, x1) = (x.ceil() as u32, (x + w).floor() as u32);
    let (y0, y1) = (y.ceil() as u32, (y + h).floor() as u32);
    let mut n = 0;
    let mut hits = 0;
    for py in y0..y1 {
        for px in x0..x1 {
            n += 1;
            hits += near(shot.pixel(px, py), colour) as u32;
        }
    }
    if n == 0 {
        return 0.0;
    }
    hits as f64 / n as f64
}

/// By screenshot: every swatch is its DAC entry's colour, the changed
/// bytes and registers are highlighted and the others are not.
fn check_screenshot(b: &Browser, c: &Console) {
    let shot = b.screenshot().expect("a screenshot");
    let mut bad = Vec::new();
    let swatches = rects(b, "#dac .swatch");
    assert_eq!(swatches.len(), 256);
    for &(x, y, w, h, top, _, i) in &swatches {
        let want = c.dac[i as usize].map(widen);
        let (px, py) = ((x + w / 2.0) as u32, (y + h / 2.0) as u32);
        let got = shot.pixel(px, py);
        if !top || !near(got, want) {
            bad.push(format!(
                "swatch {i:02X}h at ({px},{py}) is {got:?}, not {want:?} (on top: {top})"
            ));
        }
    }
    let bytes = rects(b, "#mem .byte");
    let mut highlighted = 0;
    for &(x, y, w, h, top, changed, i) in bytes.iter().filter(|r| r.4 || r.5) {
        let s = share(&shot, (x, y, w, h), CHANGED);
        if changed && (!top || s < 0.3) {
            bad.push(format!(
                "changed byte {i} at ({x},{y}): {:.0}% highlight",
                s * 100.0
            ));
        } else if !changed && s > 0.0 {
            bad.push(format!(
                "unchanged byte {i} at ({x},{y}): {:.0}% highlight",
                s * 100.0
            ));
        }
        highlighted += changed as usize;
    }
    let visible = bytes.iter().filter(|r| r.4).count();
    if highlighted == 0 || visible < TABLE_LEN as usize {
        bad.push(format!(
            "{highlighted} changed bytes, {visible} bytes visible"
        ));
    }
    let regs = rects(b, "#regs .reg .v");
    for &(x, y, w, h, top, changed, _) in &regs {
        let s = share(&shot, (x, y, w, h), CHANGED_REG);
        if !top || (changed && s < 0.3) || (!changed && s > 0.0) {
            bad.push(format!(
                "register at ({x},{y}) changed {changed}: {:.0}% highlight (on top: {top})",
                s * 100.0
            ));
        }
    }
    if !regs.iter().any(|r| r.5) {
        bad.push("no register marked changed".into());
    }
    if !bad.is_empty() {
        let p = std::env::temp_dir().join(format!("ui_window_{}.png", std::process::id()));
        shot.save(&p).expect("the screenshot saved");
        panic!(
            "the screenshot ({}) differs from the console:\n{}",
            p.display(),
            bad.join("\n")
        );
    }
    eprintln!(
        "screenshot: 256 swatches, {highlighted} highlighted bytes of {visible}, {} registers",
        regs.len()
    );
}

/// The code view's row of the fountain's first instruction.
const FOUNTAIN_ROW: &str = "#code tr.code-line[data-addr$=':DB1A']";

/// Types `fountain` into the code view's address, finds its first row
/// under its label and clicks the row's gutter; the row's address.
fn break_on_fountain(b: &Browser) -> String {
    let addr = b.find("#code-addr").expect("#code-addr");
    addr.clear().expect("cleared");
    addr.send_keys("fountain").expect("typed");
    b.find("#code-go").and_then(|g| g.click()).expect("Go");
    wait_for(
        b,
        "const r = document.querySelector(\"#code tr.code-line[data-addr$=':DB1A']\"); \
         const l = r && r.previousElementSibling; \
         return !!l && l.classList.contains('labelrow') && l.textContent.trim() === 'fountain:';",
        "the code view shows fountain: and DB1A",
    );
    let row = b.find(FOUNTAIN_ROW).expect("the fountain's row");
    let at = row
        .attr("data-addr")
        .expect("data-addr")
        .expect("an address");
    row.find("td.gutter")
        .and_then(|g| g.click())
        .expect("the gutter clicked");
    wait_for(
        b,
        "const r = document.querySelector(\"#code tr.code-line[data-addr$=':DB1A']\"); \
         return !!r && r.classList.contains('bp') && window.tandemView.breakpoints.length === 1;",
        "the fountain's row has a breakpoint",
    );
    at
}

/// Runs to the breakpoint; the current row is the fountain's.
fn run_to_breakpoint(b: &Browser, at: &str) {
    b.find("#btn-run").and_then(|r| r.click()).expect("Run");
    wait_for(
        b,
        "const v = window.tandemView; return !!v && !v.running && !!v.stop && v.stop.stop === 'hook' \
         && document.getElementById('status').dataset.running === 'false';",
        "the run stops on the breakpoint",
    );
    let current = b.find("#code tr.current").expect("a current row");
    let addr = current.attr("data-addr").expect("data-addr");
    assert_eq!(
        addr.as_deref(),
        Some(at),
        "the current row is the fountain's"
    );
}

/// Shows `params` in the memory view.
fn show_params(b: &Browser) {
    let addr = b.find("#mem-addr").expect("#mem-addr");
    addr.clear().expect("cleared");
    addr.send_keys("params").expect("typed");
    b.find("#mem-go").and_then(|g| g.click()).expect("Go");
    wait_for(
        b,
        "const v = window.tandemView; const m = v && v.memory; \
         const first = document.querySelector('#mem .byte'); \
         return !!m && m.text === 'params' && !!first && +first.dataset.linear === m.linear;",
        "the memory view shows params",
    );
}

/// Clicks Step until the memory view marks changed bytes; the steps taken.
fn step_until_changed(b: &Browser) -> usize {
    for k in 1..=MAX_STEPS {
        let before = js(
            b,
            "return [window.tandemRefreshes, window.tandemView.cycle];",
        );
        b.find("#btn-step").and_then(|s| s.click()).expect("Step");
        wait_for(
            b,
            &format!(
                "const v = window.tandemView; return window.tandemRefreshes > {} && \
                 v.cycle !== {} && !v.running;",
                before[0], before[1]
            ),
            "a step",
        );
        if !b.find_all("#mem .byte.changed").expect("bytes").is_empty() {
            return k;
        }
    }
    panic!("no byte of the memory view changed in {MAX_STEPS} steps");
}

/// The page's registers, memory, DAC and code view at the step's stop are
/// the console's after as many steps.
fn check_stop(b: &Browser, k: usize) -> Console {
    let c = Console::at(k, None, "ss:7935");
    let v = view(b);
    let m = &v["memory"];
    let linear = num(&m["linear"]) as u32;
    assert_eq!(linear, c.regs["ss"] * 16 + 0x7935, "params is SS:7935");
    let hex: String = c.table.iter().map(|x| format!("{x:02X}")).collect();
    let page = m["hex"].as_str().expect("hex");
    assert_eq!(&page[..hex.len()], hex, "the parameter table");
    let before = console_regs_before_last_step(&c.out);
    check_regs(b, &c, Some(&before), "at the step's stop");
    check_changed(b, &c);
    check_dac(b, &c, "at the step's stop");
    let current = b.find("#code tr.current").expect("a current row");
    let want = format!("{:04X}:{:04X}", c.regs["cs"], c.regs["ip"]);
    assert_eq!(
        current.attr("data-addr").expect("addr"),
        Some(want),
        "CS:IP"
    );
    c
}

/// Drags the timeline's knob from its end to about 40% and waits for the
/// page to settle there; the cycle it shows.
fn drag_timeline_back(b: &Browser, end: u64) -> u64 {
    let tl = b.find("#timeline").expect("#timeline");
    let (_, _, w, _) = tl.rect().expect("its rectangle");
    b.drag(&tl, w / 2.0 - 8.0, w * 0.4 - w / 2.0)
        .expect("the knob dragged");
    let settled = format!(
        "const v = window.tandemView; const s = document.getElementById('status'); \
         const t = document.getElementById('timeline'); \
         return !!v && !v.running && s.dataset.running === 'false' && +s.dataset.cycle < {end} \
         && +s.dataset.cycle === v.cycle && +t.value === v.cycle;"
    );
    wait_for(b, &settled, "the views follow the timeline back");
    // No goto is still on its way: the page stays where it is.
    let cycle = num(&view(b)["cycle"]);
    std::thread::sleep(Duration::from_millis(500));
    wait_for(b, &settled, "the views stay");
    assert_eq!(num(&view(b)["cycle"]), cycle, "the page settled");
    cycle
}

/// Moves the timeline back; the registers, memory, DAC, code view and
/// screen are the console's after `goto` to the same cycle.
fn travel_back(b: &Browser, k: usize, stop: &Console) {
    let screen = || b.find("#screen").and_then(|s| s.attr("src")).expect("src");
    let src = screen().expect("the screen's picture");
    let cycle = drag_timeline_back(b, stop.cycle);
    let v = view(b);
    let t = &v["timeline"];
    let (start, end) = (num(&t["start"]), num(&t["end"]));
    let at = (cycle - start) as f64 / (end - start) as f64;
    eprintln!(
        "timeline: cycle {cycle} of {start}-{end} ({:.0}%)",
        at * 100.0
    );
    assert!(
        (0.3..0.5).contains(&at),
        "the knob let go at about 40%: {at}"
    );
    let m = &v["memory"];
    let (seg, off) = (num(&m["seg"]), num(&m["off"]));
    let c = Console::at(k, Some(cycle), &format!("{seg:04X}:{off:04X}"));
    check_regs(b, &c, None, "after the timeline moved");
    check_dac(b, &c, "after the timeline moved");
    let hex: String = c.table.iter().map(|x| format!("{x:02X}")).collect();
    let page = m["hex"].as_str().expect("hex");
    assert_eq!(
        &page[..hex.len()],
        hex,
        "tandemView's parameter table at {cycle}"
    );
    let shown = js(
        b,
        "return [...document.querySelectorAll('#mem .byte')].slice(0, 32).map((e) => e.textContent).join('');",
    );
    assert_eq!(shown, json!(hex), "the memory view's bytes at {cycle}");
    assert_ne!(
        c.table, stop.table,
        "the table differs at {cycle}: the view moved"
    );
    let current = b.find("#code tr.current").expect("a current row");
    let want = format!("{:04X}:{:04X}", c.regs["cs"], c.regs["ip"]);
    assert_eq!(
        current.attr("data-addr").expect("addr"),
        Some(want),
        "CS:IP"
    );
    let now = screen().expect("the screen's picture");
    assert_ne!(now, src, "the screen's picture follows");
    assert!(
        now.contains(&format!("k={cycle}%3A")),
        "{now} is of cycle {cycle}"
    );
    let loaded =
        "const i = document.getElementById('screen'); return i.complete && i.naturalWidth > 0;";
    wait_for(b, loaded, "the screen's picture loads");
}

#[test]
fn the_window_shows_what_the_console_shows_and_follows_the_timeline() {
    if skip_without_chromium("ui_window") {
        return;
    }
    let t = Instant::now();
    let w = Window::start();
    let b = Browser::start(1600, 1000).expect("the browser starts");
    b.goto(&w.url).expect("the page loads");
    b.find("#code tr.code-line").expect("the code view");
    let loaded = t.elapsed();
    let at = break_on_fountain(&b);
    run_to_breakpoint(&b, &at);
    show_params(&b);
    let k = step_until_changed(&b);
    let stepped = t.elapsed();
    eprintln!("{k} steps from the fountain's first instruction to changed bytes");
    let stop = check_stop(&b, k);
    check_screenshot(&b, &stop);
    let checked = t.elapsed();
    travel_back(&b, k, &stop);
    eprintln!(
        "timings: page loaded {loaded:.1?}, stepped {stepped:.1?}, stop checked {checked:.1?}, \
         timeline checked {:.1?}",
        t.elapsed()
    );
}
