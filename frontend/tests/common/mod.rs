//! Helpers shared by the command-line tests (each test file uses some):
//! where the test programs are, how the binary is started, and what its
//! output says.
#![allow(dead_code)]

pub mod wav;
pub mod webdriver;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `roms/dos/NAME`: one of our own DOS test programs.
pub fn dos_rom(name: &str) -> PathBuf {
    repo().join("roms/dos").join(name)
}

/// `roms/replica/replica.exe`, the 386 program the debugger tests use.
pub fn replica() -> PathBuf {
    repo().join("roms/replica/replica.exe")
}

/// The replica with band 2's amplitude (136) made 120 (the byte at code
/// offset DB6Ch, after the 32-byte header), written as `dir/name`: the
/// golden-master tests' mutant.
pub fn amp_mutant(dir: &Path, name: &str) -> PathBuf {
    let mut b = std::fs::read(replica()).expect("replica.exe");
    b[0x20 + 0xDB6A + 2] = 120;
    let p = dir.join(name);
    std::fs::write(&p, b).expect("write mutant");
    p
}

/// A path as a command-line argument (the tests' paths are UTF-8).
pub fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Output bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `tandem ARGS` (the subcommand first); its output.
pub fn tandem(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(args)
        .output()
        .expect("tandem runs")
}

/// `tandem run ARGS` with no display in its environment (so it runs
/// headless even without `--headless`).
pub fn run_command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tandem"));
    c.arg("run")
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY");
    c
}

/// `tandem run ARGS` with no stdin and no display; its output.
pub fn run(args: &[&str]) -> Output {
    run_command(args)
        .stdin(Stdio::null())
        .output()
        .expect("tandem runs")
}

/// `tandem run --headless ARGS` with no stdin; its output.
pub fn headless(args: &[&str]) -> Output {
    run(&[&["--headless"], args].concat())
}

/// `tandem run ARGS` with no display, started with `stdin` and its
/// stdout and stderr piped.
pub fn spawn_run(args: &[&str], stdin: Stdio) -> Child {
    run_command(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tandem runs")
}

/// `tandem run ARGS` with no display and `input` typed on its stdin (then
/// closed); its output.
pub fn run_with_stdin(args: &[&str], input: &[u8]) -> Output {
    feed(spawn_run(args, Stdio::piped()), input)
}

/// Starts `cmd` with stdin, stdout and stderr piped.
pub fn spawn_piped(cmd: &mut Command) -> Child {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tandem runs")
}

/// Writes `input` to the child's stdin, closes it and waits; the output.
pub fn feed(mut child: Child, input: &[u8]) -> Output {
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("stdin written");
    child.wait_with_output().expect("finishes")
}

/// Waits for `child` at most `budget`; kills it and fails when it runs on.
pub fn within(mut child: Child, budget: Duration, what: &str) -> Output {
    let t = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if t.elapsed() > budget {
            let _ = child.kill();
            let o = child.wait_with_output().expect("output");
            panic!("{what}: still running after {budget:?}: {o:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `tandem run ARGS` with no stdin and no display, which must end within
/// 30 s of host time (`what` names it when it does not); its output.
pub fn run_bounded(args: &[&str], what: &str) -> Output {
    within(
        spawn_run(args, Stdio::null()),
        Duration::from_secs(30),
        what,
    )
}

/// Runs `tandem debug [EXTRA] PROGRAM` with `script` piped in; its exit
/// code and its stdout followed by its stderr.
pub fn debug(program: &Path, extra: &[&str], script: &str) -> (Option<i32>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tandem"));
    cmd.arg("debug").args(extra).arg(program);
    let o = feed(spawn_piped(&mut cmd), script.as_bytes());
    (o.status.code(), text(&o.stdout) + &text(&o.stderr))
}

/// Sends `requests` (one JSON line each) to `tandem debug --cpu 386
/// --dos-layout dosbox --protocol stdio PROGRAM` (the program at DOSBox's
/// 0192h, where the tests' addresses are); whether it exited with
/// success, its stdout, and each stdout line as JSON.
pub fn protocol(program: &Path, requests: &[String]) -> (bool, String, Vec<serde_json::Value>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tandem"));
    cmd.args(["debug", "--cpu", "386", "--dos-layout", "dosbox"])
        .args(["--protocol", "stdio"])
        .arg(program);
    let mut input = requests.join("\n");
    input.push('\n');
    let o = feed(spawn_piped(&mut cmd), input.as_bytes());
    let out = text(&o.stdout);
    let resp = json_lines(&out);
    (o.status.success(), out, resp)
}

/// Each line of `out` read as a JSON value.
pub fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The hash of the `state hash` line in `stderr` (what `--state-hash`
/// prints).
pub fn state_hash(stderr: &str) -> String {
    stderr
        .lines()
        .find_map(|l| l.split("state hash ").nth(1))
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("no state hash in {stderr}"))
        .to_string()
}

/// A fresh empty folder for one test (the process id keeps test binaries
/// running at once apart).
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tandem-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A fresh folder named `name` holding a copy of `program`; the folder and
/// the copy's path.
pub fn dir_with(name: &str, program: &Path) -> (PathBuf, PathBuf) {
    let d = temp_dir(name);
    let copy = d.join(program.file_name().expect("a file name"));
    std::fs::copy(program, &copy).expect("copy");
    (d, copy)
}

/// (width, height, RGB bytes) of an 8-bit RGB PNG.
pub fn read_png(p: &Path) -> (usize, usize, Vec<u8>) {
    let f = std::fs::File::open(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let mut r = png::Decoder::new(f).read_info().expect("png");
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).expect("frame");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width as usize, info.height as usize, buf)
}
