//! Limits on what one file or one request may make tandem do (issue 33,
//! findings 5, 7 and 8): a SoundFont's chunks are held to its file before
//! anything is allocated; every protocol command that runs the machine
//! answers within a bounded budget; `--seconds` and `spectrogram --from`
//! refuse values that make no sense and print bounded text; a protocol
//! client has one deadline from its connection for its hello.

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{dos_rom, repo, s, temp_dir, text, within};

/// A chunk: id, size, data.
fn ck(id: &[u8; 4], size: u32, data: &[u8]) -> Vec<u8> {
    let mut v = id.to_vec();
    v.extend_from_slice(&size.to_le_bytes());
    v.extend_from_slice(data);
    v
}

/// 100 bytes of SoundFont whose `smpl` chunk claims 4 GiB.
fn claims_4_gib() -> Vec<u8> {
    let info = [b"INFO".to_vec(), ck(b"ifil", 4, &[2, 0, 1, 0])].concat();
    let mut body = b"sfbk".to_vec();
    body.extend(ck(b"LIST", info.len() as u32, &info));
    let sdta_at = 12 + body.len() - 4;
    let rest = 100 - sdta_at - 8;
    let mut sdta = b"sdta".to_vec();
    sdta.extend(ck(b"smpl", 0xffff_fffe, &[]));
    sdta.resize(rest, 0);
    body.extend(ck(b"LIST", rest as u32, &sdta));
    let f = ck(b"RIFF", body.len() as u32, &body);
    assert_eq!(f.len(), 100);
    f
}

#[test]
fn a_soundfont_claiming_more_than_its_file_is_refused_before_allocating() {
    let d = temp_dir("limits-sf2");
    let font = d.join("claims.sf2");
    std::fs::write(&font, claims_4_gib()).expect("write");
    let prog = repo().join("roms/devices/mpu.com");
    let wav = d.join("a.wav");
    // Under 2 GB of address space an allocation of 4 GiB aborts (status
    // 134): the file must be refused before any.
    let started = Instant::now();
    let child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2000000 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_tandem"))
        .args(["run", "--headless", "--seconds", "1", "--sound", "mpu401"])
        .args(["--soundfont", s(&font), "--wav", s(&wav), s(&prog)])
        .env_remove("DISPLAY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let o = within(child, Duration::from_secs(30), "the crafted SoundFont");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(s(&font)) && err.contains("'smpl'") && err.contains("4294967294"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    let _ = std::fs::remove_dir_all(&d);
}

/// The protocol's answers to `requests` on spin.com, within 60 s.
fn protocol(requests: &[String]) -> Vec<serde_json::Value> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tandem"));
    cmd.args(["debug", "--cpu", "386", "--protocol", "stdio"])
        .arg(dos_rom("spin.com"));
    let mut child = common::spawn_piped(&mut cmd);
    let mut input = requests.join("\n");
    input.push('\n');
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("requests");
    drop(stdin);
    let o = within(child, Duration::from_secs(60), "a run command's answer");
    common::json_lines(&text(&o.stdout))
}

#[test]
fn run_commands_answer_within_their_budget() {
    let max = u64::MAX;
    let r = protocol(&[
        format!(r#"{{"id":1,"cmd":"step","count":{max},"cycles":200000}}"#),
        format!(r#"{{"id":2,"cmd":"go","addr":"0:0","cycles":{max}}}"#),
        format!(r#"{{"id":3,"cmd":"run","seconds":{max}}}"#),
        format!(r#"{{"id":4,"cmd":"next","cycles":{max}}}"#),
        format!(r#"{{"id":5,"cmd":"command","line":"c {max}"}}"#),
        r#"{"id":6,"cmd":"run","cycles":100000}"#.to_string(),
    ]);
    assert_eq!(r.len(), 6, "{r:?}");
    assert_eq!(r[0]["ok"], true, "{}", r[0]);
    assert_eq!(r[0]["stop"], "limit", "{}", r[0]);
    for a in &r[1..5] {
        assert_eq!(a["ok"], false, "{a}");
        let e = a["error"].as_str().unwrap_or_default();
        assert!(e.contains("longer than the longest"), "{e}");
    }
    assert_eq!(r[5]["stop"], "limit", "{}", r[5]);
}

/// `tandem ARGS` with no display, within 30 s.
fn tandem(args: &[&str]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(args)
        .env_remove("DISPLAY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tandem runs");
    within(child, Duration::from_secs(30), &args.join(" "))
}

#[test]
fn seconds_below_a_microsecond_are_refused_in_a_short_line() {
    let spin = dos_rom("spin.com");
    for v in ["1e-300", "0.0000005", "0", "NaN", "inf"] {
        let o = tandem(&["run", "--headless", "--seconds", v, s(&spin)]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{v}: {err}");
        assert_eq!(err.lines().count(), 1, "{v}: {err}");
        assert!(err.len() < 160 && err.contains("--seconds"), "{v}: {err}");
    }
    // A microsecond runs, and its message prints it as it is.
    let o = tandem(&["run", "--headless", "--seconds", "0.000001", s(&spin)]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(124), "{err}");
    assert!(err.contains("time limit of 0.000001 emulated"), "{err}");
}

#[test]
fn spectrogram_from_past_the_end_is_an_error() {
    let d = temp_dir("limits-from");
    let wav = d.join("a.wav");
    let spin = dos_rom("spin.com");
    let o = tandem(&[
        "run",
        "--headless",
        "--seconds",
        "1",
        "--wav",
        s(&wav),
        s(&spin),
    ]);
    assert_eq!(o.status.code(), Some(124), "{}", text(&o.stderr));
    let png = d.join("a.png");
    for from in ["1e300", "1.5", "inf", "NaN"] {
        let o = tandem(&["spectrogram", s(&wav), s(&png), "--from", from]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "--from {from}: {err}");
        assert!(err.contains("--from") && err.len() < 200, "{from}: {err}");
    }
    let o = tandem(&["spectrogram", s(&wav), s(&png), "--from", "0.5"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_hello_trickled_a_byte_at_a_time_is_cut_off_at_one_deadline() {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(["debug", "--cpu", "386", "--protocol", "0"])
        .arg(dos_rom("spin.com"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tandem runs");
    let mut err = std::io::BufReader::new(child.stderr.take().expect("stderr"));
    let mut line = String::new();
    err.read_line(&mut line).expect("stderr line");
    let port: u16 = line
        .trim()
        .strip_prefix("tandem debug: protocol on 127.0.0.1:")
        .and_then(|r| r.split_once(' '))
        .and_then(|(p, _)| p.parse().ok())
        .unwrap_or_else(|| panic!("no port line: {line:?}"));
    let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let start = Instant::now();
    let mut reader = c.try_clone().expect("a clone");
    let closed = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = reader.read_to_end(&mut out);
        (start.elapsed(), String::from_utf8_lossy(&out).into_owned())
    });
    // One byte every second (the old timeout restarted with each), for
    // at most 16 s.
    for b in br#"{"hello":"tandem","token":"0123"#.iter().cycle() {
        if closed.is_finished() || start.elapsed() > Duration::from_secs(16) {
            break;
        }
        if c.write_all(&[*b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    let _ = c.shutdown(std::net::Shutdown::Both);
    let (at, said) = closed.join().expect("the reader");
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        at >= Duration::from_secs(9) && at < Duration::from_secs(13),
        "closed after {at:?}: {said}"
    );
    assert!(said.contains("no hello"), "{said}");
}
