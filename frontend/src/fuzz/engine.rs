//! A coverage-free mutational fuzzer with a fixed seed (the toolchain is
//! stable, so no cargo-fuzz): inputs are valid seeds changed by bit flips,
//! byte sets, truncations, insertions, deletions, splices and random bytes.
//! Each input must return without a panic and within [`PER_INPUT`]; the
//! whole target runs for `TANDEM_FUZZ_SECS` seconds (default 2).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest one input may take before it counts as a hang.
pub const PER_INPUT: Duration = Duration::from_secs(20);

/// The time budget of one target (`TANDEM_FUZZ_SECS`, default 2 s).
pub fn budget() -> Duration {
    let secs = std::env::var("TANDEM_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(2.0);
    Duration::from_secs_f64(secs)
}

/// Seeds written as text, as bytes.
pub fn text_seeds(texts: &[&str]) -> Vec<Vec<u8>> {
    texts.iter().map(|s| s.as_bytes().to_vec()).collect()
}

/// xorshift64*: the same inputs every run.
pub struct Rng(u64);

impl Rng {
    /// A generator from a fixed seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Values that often sit at the edge of a check.
const INTERESTING: [&[u8]; 8] = [
    &[0],
    &[0xff],
    &[0x7f],
    &[0x80],
    &[0xff, 0xff, 0xff, 0xff],
    &[0, 0, 0, 0],
    &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    &[0, 0, 0, 0x80],
];

/// One mutant of a seed: 1 to 4 changes, `dict` tokens among them.
pub fn mutate(rng: &mut Rng, seeds: &[Vec<u8>], dict: &[&[u8]]) -> Vec<u8> {
    let mut v = seeds[rng.below(seeds.len())].clone();
    for _ in 0..1 + rng.below(4) {
        let len = v.len();
        let at = rng.below(len + 1);
        match rng.below(11) {
            0 if len > 0 => v[at.min(len - 1)] ^= 1 << rng.below(8),
            1 if len > 0 => v[at.min(len - 1)] = rng.next() as u8,
            2 => v.truncate(at),
            3 => {
                let n = 1 + rng.below(8);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                v.splice(at..at, bytes);
            }
            4 => {
                let end = (at + 1 + rng.below(16)).min(len);
                v.drain(at.min(end)..end);
            }
            5 => {
                // Splice: this seed's head, another seed's tail.
                let other = &seeds[rng.below(seeds.len())];
                let from = rng.below(other.len() + 1);
                v.truncate(at);
                v.extend_from_slice(&other[from..]);
            }
            6 if !dict.is_empty() => {
                let t = dict[rng.below(dict.len())];
                v.splice(at..at, t.iter().copied());
            }
            7 => {
                let t = INTERESTING[rng.below(INTERESTING.len())];
                let end = (at + t.len()).min(len);
                v.splice(at..end, t.iter().copied());
            }
            8 if len > 0 => {
                // Repeat a range.
                let s = at.min(len - 1);
                let end = (s + 1 + rng.below(32)).min(len);
                let piece = v[s..end].to_vec();
                v.splice(s..s, piece);
            }
            9 if rng.below(8) == 0 => {
                let n = rng.below(256);
                v = (0..n).map(|_| rng.next() as u8).collect();
            }
            _ if len > 0 => v[at.min(len - 1)] = rng.next() as u8,
            _ => v.push(rng.next() as u8),
        }
    }
    v
}

/// The input as hex (the first 4 KiB; the whole input is written to
/// `target/fuzz-failures/`).
pub fn hex(name: &str, input: &[u8]) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/fuzz-failures");
    let file = dir.join(format!("{name}.bin"));
    let saved = std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::write(&file, input))
        .map(|_| format!(" (whole input in {})", file.display()))
        .unwrap_or_default();
    let h: String = input
        .iter()
        .take(4096)
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{} bytes{saved}: {h}", input.len())
}

/// Runs `target` on every seed, then on mutants until the budget is spent;
/// panics naming the input (hex) when one panics or takes longer than
/// [`PER_INPUT`]. Prints and returns the number of executions.
pub fn run<F>(
    name: &str,
    seed: u64,
    seeds: Vec<Vec<u8>>,
    dict: &'static [&'static [u8]],
    target: F,
) -> u64
where
    F: Fn(&[u8]) + Send + 'static,
{
    assert!(!seeds.is_empty(), "fuzz {name}: no seeds");
    let budget = budget();
    let current = Arc::new(Mutex::new((Instant::now(), Vec::new())));
    let execs = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let worker = {
        let (current, execs, done) = (current.clone(), execs.clone(), done.clone());
        std::thread::spawn(move || -> Result<(), Vec<u8>> {
            let mut rng = Rng::new(seed);
            let start = Instant::now();
            let mut i = 0usize;
            while i < seeds.len() || start.elapsed() < budget {
                let input = if i < seeds.len() {
                    seeds[i].clone()
                } else {
                    mutate(&mut rng, &seeds, dict)
                };
                i += 1;
                *current.lock().unwrap_or_else(|e| e.into_inner()) =
                    (Instant::now(), input.clone());
                if catch_unwind(AssertUnwindSafe(|| target(&input))).is_err() {
                    return Err(input);
                }
                execs.fetch_add(1, Ordering::Relaxed);
            }
            done.store(true, Ordering::SeqCst);
            Ok(())
        })
    };
    while !done.load(Ordering::SeqCst) && !worker.is_finished() {
        std::thread::sleep(Duration::from_millis(50));
        let cur = current.lock().unwrap_or_else(|e| e.into_inner());
        if cur.0.elapsed() > PER_INPUT {
            panic!(
                "fuzz {name}: a hang (over {PER_INPUT:?}) after {} executions on {}",
                execs.load(Ordering::Relaxed),
                hex(&format!("{name}-hang"), &cur.1)
            );
        }
    }
    match worker.join() {
        Ok(Ok(())) => {}
        Ok(Err(input)) => panic!(
            "fuzz {name}: a panic after {} executions on {}",
            execs.load(Ordering::Relaxed),
            hex(&format!("{name}-panic"), &input)
        ),
        Err(_) => panic!("fuzz {name}: the fuzzer itself panicked"),
    }
    let n = execs.load(Ordering::Relaxed);
    eprintln!("fuzz {name}: {n} executions, 0 panics, 0 hangs");
    n
}
