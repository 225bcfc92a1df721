//! Temporary: per-file exact / count rates in exact mode, and (UNTRACED=1)
//! a check that the untraced clock loop counts the same clocks.
use emu::CpuModel;
use sst::{cycle_matches, read_moo_file, DirContext, FormInfo, Runner};
use std::path::PathBuf;
fn main() {
    let files: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let _ctx = DirContext::load(files[0].parent().unwrap()).expect("context");
    let mut runner = Runner::with_cycles(CpuModel::I8086, true);
    let mut plain = Runner::with_cycles(CpuModel::I8086, true);
    plain.cpu_mut().set_cycle_trace(false);
    let untraced = std::env::var_os("UNTRACED").is_some();
    let (mut tn, mut te, mut tc, mut tu) = (0u64, 0u64, 0u64, 0u64);
    for path in &files {
        let moo = read_moo_file(path).expect("file");
        let (mut n, mut e, mut c, mut u) = (0u64, 0u64, 0u64, 0u64);
        for t in &moo.tests {
            let _ = runner.run_test(t, FormInfo::default(), false);
            let ours = runner.cycle_trace();
            let theirs = &t.cycles;
            n += 1;
            if ours.len() == theirs.len() {
                c += 1;
                if ours.iter().zip(theirs).all(|(a, b)| cycle_matches(a, b)) {
                    e += 1;
                }
            }
            if untraced {
                let before = plain.cpu_mut().cycles;
                let _ = plain.run_test(t, FormInfo::default(), false);
                let got = plain.cpu_mut().cycles - before;
                assert!(plain.cycle_trace().is_empty() && plain.cpu_mut().cycle_exact());
                if got != ours.len() as u64 {
                    u += 1;
                    if u <= 2 {
                        eprintln!(
                            "{} {} \"{}\": untraced {} traced {}",
                            path.display(),
                            n - 1,
                            t.name,
                            got,
                            ours.len()
                        );
                    }
                }
            }
        }
        println!(
            "{} {} {} {} {}",
            path.file_name().unwrap().to_string_lossy(),
            n,
            n - e,
            n - c,
            u
        );
        tn += n;
        te += e;
        tc += c;
        tu += u;
    }
    println!(
        "TOTAL {} bad {} cntbad {} untraced-mismatch {}",
        tn,
        tn - te,
        tn - tc,
        tu
    );
}
