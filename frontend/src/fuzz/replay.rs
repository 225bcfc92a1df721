//! Fuzz target for `--replay FILE`: mutated input records (format 3:
//! keys, mouse, joystick axes and buttons, the end mark, the header's
//! machine with its cards and game port) replayed as `tandem run` replays
//! them: the run is prepared from the record's header and
//! roms/devices/joytest.com runs headless for a tenth of a second of
//! emulated time with the events delivered at their cycles.

use clap::Parser;

use super::{a_record, engine, repo, temp_dir};
use crate::play::args::RunArgs;
use crate::play::headless;
use crate::play::prepare::prepare;
use crate::play::run::Stdin;

/// `tandem run`'s arguments, parsed as the command line parses them.
#[derive(Parser, Debug)]
struct RunLine {
    #[command(flatten)]
    run: RunArgs,
}

/// A record of joystick play on the machine joytest.com runs on by
/// default: axes from corner to corner and both buttons of both sticks.
fn joystick_record() -> Vec<u8> {
    let header = crate::input::record::Header::of(&hw::MachineConfig::default(), "JOYTEST.COM");
    let mut text = serde_json::to_string(&header).expect("a header");
    text.push('\n');
    for (i, (x, y)) in [(-32768, 32767), (32767, -32768), (0, 0)]
        .iter()
        .enumerate()
    {
        let c = 200_000 * (i as u64 + 1);
        text += &format!("{{\"cycle\":{c},\"joy\":{{\"stick\":1,\"x\":{x},\"y\":{y}}}}}\n");
        text += &format!(
            "{{\"cycle\":{},\"joybutton\":{{\"stick\":{},\"button\":{},\"down\":true}}}}\n",
            c + 1,
            i % 2 + 1,
            i % 2 + 1
        );
    }
    text += "{\"cycle\":900000,\"key\":{\"code\":28,\"ext\":false,\"down\":true}}\n";
    text.into_bytes()
}

#[test]
fn fuzz_replay() {
    let dir = temp_dir("replay");
    let prog = dir.join("JOYTEST.COM");
    std::fs::copy(repo().join("roms/devices/joytest.com"), &prog).expect("joytest.com");
    let rec = dir.join("fuzz.rec");
    let seeds = vec![joystick_record(), a_record()];
    static DICT: &[&[u8]] = &[
        b"\n",
        b"{\"cycle\":1,\"joy\":{\"stick\":2,\"x\":-32768}}\n",
        b"{\"cycle\":2,\"joybutton\":{\"stick\":1,\"button\":2,\"down\":false}}\n",
        b"{\"cycle\":3,\"mouse\":{\"dx\":-32768,\"dy\":32767,\"buttons\":255}}\n",
        b"{\"cycle\":4,\"end\":{\"frames\":0}}\n",
        b"\"joystick\":false",
        b"\"cpu\":\"8086\"",
        b"\"cpu_hz\":1",
        b"18446744073709551615",
        b"-1",
        b"null",
    ];
    let (d, p) = (dir.clone(), prog.clone());
    let argv = move |r: &std::path::Path| {
        let v: Vec<String> = ["tandem run", "--headless", "--seconds", "0.1", "--mount"]
            .iter()
            .map(|x| x.to_string())
            .chain([d.display().to_string(), "--replay".into()])
            .chain([r.display().to_string(), p.display().to_string()])
            .collect();
        v
    };
    // The seeds replay.
    for s in &seeds {
        std::fs::write(&rec, s).expect("write");
        let line = RunLine::try_parse_from(argv(&rec)).expect("the arguments");
        let mut run = prepare(&line.run, true, Stdin::Ignore).expect("the seed replays");
        headless::run(&mut run, &mut std::io::sink(), false);
    }
    engine::run("replay", 0x7e91, seeds, DICT, move |input| {
        std::fs::write(&rec, input).expect("write");
        let Ok(line) = RunLine::try_parse_from(argv(&rec)) else {
            return;
        };
        if let Ok(mut run) = prepare(&line.run, true, Stdin::Ignore) {
            headless::run(&mut run, &mut std::io::sink(), false);
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}
