//! Diagnostics for the cycle-exact 8086: runs one MOO file in exact mode
//! and prints whole traces (ours beside the silicon's) of failing tests, and
//! a histogram of where and how the first divergence happens.
//!
//! `cargo run --release -p sst --example cycdiff FILE [N] [INDEX]`: N
//! failing traces (default 3), or only the test INDEX (its position in the
//! file). With `SHOWPASS=TEXT` it prints instead the silicon's traces of N
//! passing tests whose name contains TEXT (to compare with a failing one).

use std::collections::BTreeMap;
use std::path::PathBuf;

use emu::CpuModel;
use sst::{cycle_matches, read_moo_file, render_ours, render_theirs, DirContext, FormInfo, Runner};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = PathBuf::from(args.next().expect("FILE"));
    let show: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let only: Option<u32> = args.next().and_then(|s| s.parse().ok());
    let _ctx = DirContext::load(path.parent().unwrap()).expect("context");
    let moo = read_moo_file(&path).expect("file");
    let mut runner = Runner::with_cycles(CpuModel::I8086, true);
    let mut shown = 0;
    let mut hist: BTreeMap<String, u32> = BTreeMap::new();
    let mut bad = 0;
    for (pos, t) in moo.tests.iter().enumerate() {
        if only.is_some_and(|i| i as usize != pos) {
            continue;
        }
        let _ = runner.run_test(t, FormInfo::default(), false);
        let ours = runner.cycle_trace().to_vec();
        let theirs = &t.cycles;
        let first = ours
            .iter()
            .zip(theirs)
            .position(|(a, b)| !cycle_matches(a, b))
            .or((ours.len() != theirs.len()).then(|| ours.len().min(theirs.len())));
        let pass_pat = std::env::var("SHOWPASS").ok();
        if let Some(pat) = &pass_pat {
            if first.is_none() && t.name.contains(pat.as_str()) && shown < show {
                shown += 1;
                println!(
                    "PASS test {} \"{}\" bytes {:02X?} ({})",
                    pos,
                    t.name,
                    t.bytes,
                    theirs.len()
                );
                for c in theirs.iter() {
                    println!("      {}", render_theirs(c));
                }
            }
            continue;
        }
        let Some(first) = first else { continue };
        bad += 1;
        let o = ours.get(first).map(render_ours).unwrap_or_default();
        let s = theirs.get(first).map(render_theirs).unwrap_or_default();
        let key = format!(
            "d{:+} | {} | {}",
            ours.len() as i64 - theirs.len() as i64,
            o.split_whitespace().take(2).collect::<Vec<_>>().join(" "),
            s.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
        );
        *hist.entry(key).or_default() += 1;
        if shown < show {
            shown += 1;
            println!(
                "test {} \"{}\" bytes {:02X?} (ours {}, silicon {}) first diff {}",
                pos,
                t.name,
                t.bytes,
                ours.len(),
                theirs.len(),
                first
            );
            for i in 0..ours.len().max(theirs.len()) {
                let a = ours.get(i).map(render_ours).unwrap_or_default();
                let b = theirs.get(i).map(render_theirs).unwrap_or_default();
                let m = if i == first { '>' } else { ' ' };
                println!(" {m}{i:>3}  {a:<36} {b}");
            }
        }
    }
    println!("{bad} of {} differ", moo.tests.len());
    let mut v: Vec<_> = hist.into_iter().collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (k, n) in v.iter().take(15) {
        println!("{n:6}  {k}");
    }
}
